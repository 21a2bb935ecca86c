/* group_tmpl.h — one implementation of the short Weierstrass group law
 * y^2 = x^3 + B (a = 0), included by g1.c (over Fp) and g2.c (over Fp2).
 *
 * Before including, define:
 *   G        the group name token (g1 or g2): functions become cz_<G>_...
 *   FE       the coordinate field type (cz_fp or cz_fp2)
 *   FEP      the field function prefix (cz_fp or cz_fp2)
 *   FE_HALF  (optional) out = a / 2, when FEP has no _half
 * and a static const FE curve_b holding B in Montgomery form.
 *
 * Formulas (all from the Explicit-Formulas Database, a = 0), chosen for the
 * fewest field additions at a given multiplication count, since with the
 * MULX/ADX field a squaring costs a multiplication and an addition is not
 * free (see the comments at each function):
 *   Jacobian: dbl-2009-l (rescaled by 1/2), add-1998-cmo-2, madd-2004-hmv;
 *   XYZZ:     dbl-2008-s-1, add-2008-s, madd-2008-s (mdbl-2008-s-1 for the
 *             affine doubling case).
 * The generic formulas fail when both inputs are the same point (they would
 * return infinity), so every addition checks for H == 0 and switches to the
 * doubling; infinity on either side is handled before the formula. Outputs
 * may alias inputs: each function writes out only after its last read of
 * the inputs (or through locals).
 *
 * Scalar multiplication (variable-time wNAF, constant-time fixed window,
 * plain double-and-add) is also here since it only uses the group law. */

#include <stdlib.h>
#include <string.h>

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define FE_(n) CAT(FEP, CAT(_, n))
#define GF(n) CAT(cz_, CAT(G, CAT(_, n)))
#define AFF CAT(cz_, CAT(G, _aff))
#define JAC CAT(cz_, CAT(G, _jac))
#define XYZZ CAT(cz_, CAT(G, _xyzz))
#ifndef FE_HALF
#define FE_HALF FE_(half) /* g2.c supplies its own: Fp2 has no half */
#endif

/* ---------------------------------------------------------------- helpers */

/* dst = mask ? src : dst, mask all-ones or zero, over whole 64-bit words */
static inline void cmov_words(void *dst, const void *src, size_t bytes, uint64_t mask)
{
    uint64_t *d = (uint64_t *)dst;
    const uint64_t *s = (const uint64_t *)src;
    for (size_t i = 0; i < bytes / 8; i++) d[i] ^= (d[i] ^ s[i]) & mask;
}

static inline uint64_t mask_of(int flag) { return (uint64_t)0 - (uint64_t)(flag != 0); }

/* y^2 == x^3 + B on raw coordinates ((0,0) fails: B != 0) */
static int raw_on_curve(const FE *x, const FE *y)
{
    FE l, r;
    FE_(sqr)(&l, y);
    FE_(sqr)(&r, x);
    FE_(mul)(&r, &r, x);
    FE_(add)(&r, &r, &curve_b);
    return FE_(eq)(&l, &r);
}

/* ----------------------------------------------------------------- affine */

int GF(aff_is_inf)(const AFF *p) { return FE_(is_zero)(&p->x) & FE_(is_zero)(&p->y); }

void GF(aff_set_inf)(AFF *p) { FE_(zero)(&p->x); FE_(zero)(&p->y); }

int GF(aff_eq)(const AFF *a, const AFF *b)
{
    /* infinity is (0, 0), which no curve point equals */
    return FE_(eq)(&a->x, &b->x) & FE_(eq)(&a->y, &b->y);
}

void GF(aff_neg)(AFF *out, const AFF *p)
{
    out->x = p->x;
    FE_(neg)(&out->y, &p->y); /* -0 = 0 keeps infinity */
}

int GF(aff_on_curve)(const AFF *p)
{
    if (GF(aff_is_inf)(p)) return 1;
    return raw_on_curve(&p->x, &p->y);
}

int GF(aff_in_subgroup)(const AFF *p)
{
    JAC j;
    GF(from_aff)(&j, p);
    return GF(in_subgroup)(&j);
}

/* --------------------------------------------------------------- Jacobian */

void GF(set_inf)(JAC *p)
{
    FE_(one)(&p->x);
    FE_(one)(&p->y);
    FE_(zero)(&p->z);
}

int GF(is_inf)(const JAC *p) { return FE_(is_zero)(&p->z); }

void GF(from_aff)(JAC *out, const AFF *p)
{
    if (GF(aff_is_inf)(p)) { GF(set_inf)(out); return; }
    out->x = p->x;
    out->y = p->y;
    FE_(one)(&out->z);
}

void GF(to_aff)(AFF *out, const JAC *p)
{
    if (GF(is_inf)(p)) { GF(aff_set_inf)(out); return; }
    FE zi, zi2;
    FE_(inv)(&zi, &p->z);
    FE_(sqr)(&zi2, &zi);
    FE_(mul)(&out->x, &p->x, &zi2);
    FE_(mul)(&zi2, &zi2, &zi);
    FE_(mul)(&out->y, &p->y, &zi2);
}

void GF(batch_to_aff)(AFF *out, const JAC *in, size_t n)
{
    /* Montgomery's trick; out[i].x holds the prefix product of the non-zero
     * z of in[0..i-1] until the backward pass overwrites it. out must not
     * overlap in. */
    if (n == 0) return;
    FE acc;
    FE_(one)(&acc);
    for (size_t i = 0; i < n; i++) {
        out[i].x = acc;
        if (!FE_(is_zero)(&in[i].z)) FE_(mul)(&acc, &acc, &in[i].z);
    }
    FE_(inv)(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        if (FE_(is_zero)(&in[i].z)) { GF(aff_set_inf)(&out[i]); continue; }
        FE zi, zi2;
        FE_(mul)(&zi, &acc, &out[i].x);
        FE_(mul)(&acc, &acc, &in[i].z);
        FE_(sqr)(&zi2, &zi);
        FE_(mul)(&out[i].x, &in[i].x, &zi2);
        FE_(mul)(&zi2, &zi2, &zi);
        FE_(mul)(&out[i].y, &in[i].y, &zi2);
    }
}

int GF(eq)(const JAC *a, const JAC *b)
{
    int ia = GF(is_inf)(a), ib = GF(is_inf)(b);
    if (ia || ib) return ia && ib;
    FE za2, zb2, l, r;
    FE_(sqr)(&za2, &a->z);
    FE_(sqr)(&zb2, &b->z);
    FE_(mul)(&l, &a->x, &zb2);
    FE_(mul)(&r, &b->x, &za2);
    if (!FE_(eq)(&l, &r)) return 0;
    FE_(mul)(&za2, &za2, &a->z);
    FE_(mul)(&zb2, &zb2, &b->z);
    FE_(mul)(&l, &a->y, &zb2);
    FE_(mul)(&r, &b->y, &za2);
    return FE_(eq)(&l, &r);
}

void GF(neg)(JAC *out, const JAC *p)
{
    out->x = p->x;
    FE_(neg)(&out->y, &p->y);
    out->z = p->z;
}

/* Doubling: dbl-2009-l's operation count (2 multiplications, 5 squarings
 * become 3M + 4S with S = X Y^2) but the result scaled by 1/2, i.e. the
 * representative (X3/4, Y3/8, Z3/2) of the same point, which removes the
 * factors 2, 4 and 8 and leaves 7 additions instead of 14:
 *   M = 3X^2/2, S = X Y^2, X3 = M^2 - 2S, Y3 = M (S - X3) - Y^4, Z3 = Y Z.
 * Infinity (Z = 0) gives Z3 = 0. */
void GF(dbl)(JAC *out, const JAC *p)
{
    FE m, b, s, t;
    FE_(sqr)(&m, &p->x);
    FE_(dbl)(&t, &m);
    FE_(add)(&m, &m, &t);
    FE_HALF(&m, &m);                 /* M = 3 X^2 / 2 */
    FE_(sqr)(&b, &p->y);
    FE_(mul)(&s, &p->x, &b);         /* S = X Y^2 */
    FE_(sqr)(&b, &b);                /* Y^4 */
    FE_(mul)(&out->z, &p->y, &p->z); /* last read of p */
    FE_(sqr)(&t, &m);
    FE_(sub)(&t, &t, &s);
    FE_(sub)(&out->x, &t, &s);       /* X3 = M^2 - 2S */
    FE_(sub)(&t, &s, &out->x);
    FE_(mul)(&t, &m, &t);
    FE_(sub)(&out->y, &t, &b);       /* Y3 = M (S - X3) - Y^4 */
}

/* The generic Jacobian sum (add-2007-bl's operation order without its
 * factor-2 scaling, i.e. add-1998-cmo-2: 12M + 4S and 7 additions where
 * add-2007-bl needs 11M + 5S and about 15 additions). Returns, when ct is
 * 0, 1 if a == b (the caller doubles) and 2 if a == -b, before touching out;
 * when ct is 1 it always finishes (a == -b then gives Z3 = 0 by itself) and
 * returns 1 iff a == b, without branching on the data. a, b not infinity. */
static inline __attribute__((always_inline)) int jac_add_core(JAC *out, const JAC *a, const JAC *b,
                                                               int ct)
{
    FE z1z1, z2z2, u1, u2, s1, s2, h, r, hh, hhh, v, x3, t;
    FE_(sqr)(&z1z1, &a->z);
    FE_(sqr)(&z2z2, &b->z);
    FE_(mul)(&u1, &a->x, &z2z2);
    FE_(mul)(&u2, &b->x, &z1z1);
    FE_(mul)(&s1, &a->y, &b->z);
    FE_(mul)(&s1, &s1, &z2z2);
    FE_(mul)(&s2, &b->y, &a->z);
    FE_(mul)(&s2, &s2, &z1z1);
    FE_(sub)(&h, &u2, &u1);
    FE_(sub)(&r, &s2, &s1);
    int hz = FE_(is_zero)(&h), rz = FE_(is_zero)(&r);
    if (!ct && hz) return rz ? 1 : 2;
    FE_(sqr)(&hh, &h);
    FE_(mul)(&hhh, &h, &hh);
    FE_(mul)(&v, &u1, &hh);
    FE_(sqr)(&x3, &r);
    FE_(sub)(&x3, &x3, &hhh);
    FE_(sub)(&x3, &x3, &v);
    FE_(sub)(&x3, &x3, &v);          /* X3 = r^2 - H^3 - 2 V */
    FE_(sub)(&t, &v, &x3);
    FE_(mul)(&t, &r, &t);
    FE_(mul)(&s1, &s1, &hhh);
    FE_(mul)(&out->z, &a->z, &b->z); /* last reads of a, b */
    FE_(mul)(&out->z, &out->z, &h);  /* Z3 = Z1 Z2 H */
    FE_(sub)(&out->y, &t, &s1);      /* Y3 = r (V - X3) - S1 H^3 */
    out->x = x3;
    return hz & rz;
}

void GF(add)(JAC *out, const JAC *a, const JAC *b)
{
    if (GF(is_inf)(a)) { *out = *b; return; }
    if (GF(is_inf)(b)) { *out = *a; return; }
    int special = jac_add_core(out, a, b, 0);
    if (special == 1) GF(dbl)(out, a);
    else if (special == 2) GF(set_inf)(out);
}

/* Mixed sum, madd-2004-hmv: 8M + 3S and 7 additions (madd-2007-bl is
 * 7M + 4S with twice the additions). */
void GF(add_mixed)(JAC *out, const JAC *a, const AFF *b)
{
    if (GF(aff_is_inf)(b)) { *out = *a; return; }
    if (GF(is_inf)(a)) { GF(from_aff)(out, b); return; }
    FE z1z1, u2, s2, h, r, hh, hhh, v, x3, t;
    FE_(sqr)(&z1z1, &a->z);
    FE_(mul)(&u2, &b->x, &z1z1);
    FE_(mul)(&s2, &b->y, &a->z);
    FE_(mul)(&s2, &s2, &z1z1);
    FE_(sub)(&h, &u2, &a->x);
    FE_(sub)(&r, &s2, &a->y);
    if (FE_(is_zero)(&h)) {
        if (FE_(is_zero)(&r)) GF(dbl)(out, a);
        else GF(set_inf)(out);
        return;
    }
    FE_(sqr)(&hh, &h);
    FE_(mul)(&hhh, &h, &hh);
    FE_(mul)(&v, &a->x, &hh);
    FE_(sqr)(&x3, &r);
    FE_(sub)(&x3, &x3, &hhh);
    FE_(sub)(&x3, &x3, &v);
    FE_(sub)(&x3, &x3, &v);          /* X3 = r^2 - H^3 - 2 V */
    FE_(sub)(&t, &v, &x3);
    FE_(mul)(&t, &r, &t);
    FE_(mul)(&s2, &a->y, &hhh);
    FE_(mul)(&out->z, &a->z, &h);    /* last reads of a */
    FE_(sub)(&out->y, &t, &s2);      /* Y3 = r (V - X3) - Y1 H^3 */
    out->x = x3;
}

int GF(on_curve)(const JAC *p)
{
    if (GF(is_inf)(p)) return 1;
    /* Y^2 = X^3 + B Z^6 */
    FE l, r, z;
    FE_(sqr)(&l, &p->y);
    FE_(sqr)(&r, &p->x);
    FE_(mul)(&r, &r, &p->x);
    FE_(sqr)(&z, &p->z);
    FE_(mul)(&z, &z, &p->z);
    FE_(sqr)(&z, &z);
    FE_(mul)(&z, &z, &curve_b);
    FE_(add)(&r, &r, &z);
    return FE_(eq)(&l, &r);
}

/* ------------------------------------------------------------------- XYZZ */

void GF(xyzz_set_inf)(XYZZ *p)
{
    FE_(one)(&p->x);
    FE_(one)(&p->y);
    FE_(zero)(&p->zz);
    FE_(zero)(&p->zzz);
}

int GF(xyzz_is_inf)(const XYZZ *p) { return FE_(is_zero)(&p->zz); }

void GF(xyzz_from_aff)(XYZZ *out, const AFF *p)
{
    if (GF(aff_is_inf)(p)) { GF(xyzz_set_inf)(out); return; }
    out->x = p->x;
    out->y = p->y;
    FE_(one)(&out->zz);
    FE_(one)(&out->zzz);
}

void GF(xyzz_to_jac)(JAC *out, const XYZZ *p)
{
    /* Z = ZZZ: Z^2 = ZZ^3, so X_j = X ZZ^2 and Y_j = Y ZZZ^2 */
    if (GF(xyzz_is_inf)(p)) { GF(set_inf)(out); return; }
    FE t;
    FE_(sqr)(&t, &p->zz);
    FE_(mul)(&out->x, &p->x, &t);
    FE_(sqr)(&t, &p->zzz);
    FE_(mul)(&out->y, &p->y, &t);
    out->z = p->zzz;
}

void GF(xyzz_to_aff)(AFF *out, const XYZZ *p)
{
    if (GF(xyzz_is_inf)(p)) { GF(aff_set_inf)(out); return; }
    /* i = 1/ZZZ; 1/ZZ = ZZ^2/ZZZ^2 = (ZZ i)^2 */
    FE i, t;
    FE_(inv)(&i, &p->zzz);
    FE_(mul)(&t, &p->zz, &i);
    FE_(sqr)(&t, &t);
    FE_(mul)(&out->x, &p->x, &t);
    FE_(mul)(&out->y, &p->y, &i);
}

/* dbl-2008-s-1: 6M + 3S */
void GF(xyzz_dbl)(XYZZ *out, const XYZZ *p)
{
    FE u, v, w, s, m, t;
    FE_(dbl)(&u, &p->y);
    FE_(sqr)(&v, &u);
    FE_(mul)(&w, &u, &v);
    FE_(mul)(&s, &p->x, &v);
    FE_(sqr)(&m, &p->x);
    FE_(dbl)(&t, &m);
    FE_(add)(&m, &m, &t);
    FE_(mul)(&out->zz, &v, &p->zz);
    FE_(mul)(&out->zzz, &w, &p->zzz);
    FE_(mul)(&w, &w, &p->y);
    FE_(sqr)(&t, &m);
    FE_(dbl)(&u, &s);
    FE_(sub)(&out->x, &t, &u);
    FE_(sub)(&t, &s, &out->x);
    FE_(mul)(&t, &m, &t);
    FE_(sub)(&out->y, &t, &w);
}

/* mdbl-2008-s-1: doubling of an affine point into XYZZ, 4M + 2S */
static void xyzz_dbl_aff(XYZZ *out, const AFF *p)
{
    FE u, v, w, s, m, t;
    FE_(dbl)(&u, &p->y);
    FE_(sqr)(&v, &u);
    FE_(mul)(&w, &u, &v);
    FE_(mul)(&s, &p->x, &v);
    FE_(sqr)(&m, &p->x);
    FE_(dbl)(&t, &m);
    FE_(add)(&m, &m, &t);
    FE y = p->y;
    out->zz = v;
    out->zzz = w;
    FE_(mul)(&w, &w, &y);
    FE_(sqr)(&t, &m);
    FE_(dbl)(&u, &s);
    FE_(sub)(&out->x, &t, &u);
    FE_(sub)(&t, &s, &out->x);
    FE_(mul)(&t, &m, &t);
    FE_(sub)(&out->y, &t, &w);
}

/* add-2008-s: 12M + 2S */
void GF(xyzz_add)(XYZZ *out, const XYZZ *a, const XYZZ *b)
{
    if (GF(xyzz_is_inf)(a)) { *out = *b; return; }
    if (GF(xyzz_is_inf)(b)) { *out = *a; return; }
    FE u1, u2, s1, s2, p, r, pp, ppp, q, t;
    FE_(mul)(&u1, &a->x, &b->zz);
    FE_(mul)(&u2, &b->x, &a->zz);
    FE_(mul)(&s1, &a->y, &b->zzz);
    FE_(mul)(&s2, &b->y, &a->zzz);
    FE_(sub)(&p, &u2, &u1);
    FE_(sub)(&r, &s2, &s1);
    if (FE_(is_zero)(&p)) {
        if (FE_(is_zero)(&r)) GF(xyzz_dbl)(out, a);
        else GF(xyzz_set_inf)(out);
        return;
    }
    FE_(sqr)(&pp, &p);
    FE_(mul)(&ppp, &p, &pp);
    FE_(mul)(&q, &u1, &pp);
    FE_(mul)(&out->zz, &a->zz, &b->zz);
    FE_(mul)(&out->zz, &out->zz, &pp);
    FE_(mul)(&out->zzz, &a->zzz, &b->zzz);
    FE_(mul)(&out->zzz, &out->zzz, &ppp);
    FE_(sqr)(&t, &r);
    FE_(sub)(&t, &t, &ppp);
    FE_(sub)(&t, &t, &q);
    FE_(sub)(&out->x, &t, &q);
    FE_(sub)(&t, &q, &out->x);
    FE_(mul)(&t, &r, &t);
    FE_(mul)(&s1, &s1, &ppp);
    FE_(sub)(&out->y, &t, &s1);
}

/* madd-2008-s: 8M + 2S, for a + b (sub = 0) or a - b (sub = 1).
 * For a - b, R' = S2 + Y1 = -R: X3 is unchanged (R^2) and
 * Y3 = R (Q - X3) - Y1 PPP = R' (X3 - Q) - Y1 PPP, so the subtraction costs
 * nothing extra and b is never copied or negated. */
static inline void xyzz_madd(XYZZ *out, const XYZZ *a, const AFF *b, int sub)
{
    if (GF(aff_is_inf)(b)) { *out = *a; return; }
    if (GF(xyzz_is_inf)(a)) {
        GF(xyzz_from_aff)(out, b);
        if (sub) FE_(neg)(&out->y, &out->y);
        return;
    }
    FE u2, s2, p, r, pp, ppp, q, t;
    FE_(mul)(&u2, &b->x, &a->zz);
    FE_(mul)(&s2, &b->y, &a->zzz);
    FE_(sub)(&p, &u2, &a->x);
    if (sub) FE_(add)(&r, &s2, &a->y);
    else FE_(sub)(&r, &s2, &a->y);
    if (FE_(is_zero)(&p)) {
        if (FE_(is_zero)(&r)) { /* a == +-b: double the affine operand */
            if (sub) {
                AFF nb;
                GF(aff_neg)(&nb, b);
                xyzz_dbl_aff(out, &nb);
            } else {
                xyzz_dbl_aff(out, b);
            }
        } else {
            GF(xyzz_set_inf)(out);
        }
        return;
    }
    FE_(sqr)(&pp, &p);
    FE_(mul)(&ppp, &p, &pp);
    FE_(mul)(&q, &a->x, &pp);
    FE_(mul)(&s2, &a->y, &ppp); /* Y1 PPP, before out->y is written */
    FE_(mul)(&out->zz, &a->zz, &pp);
    FE_(mul)(&out->zzz, &a->zzz, &ppp);
    FE_(sqr)(&t, &r);
    FE_(sub)(&t, &t, &ppp);
    FE_(sub)(&t, &t, &q);
    FE_(sub)(&out->x, &t, &q);
    if (sub) FE_(sub)(&t, &out->x, &q);
    else FE_(sub)(&t, &q, &out->x);
    FE_(mul)(&t, &r, &t);
    FE_(sub)(&out->y, &t, &s2);
}

void GF(xyzz_add_mixed)(XYZZ *out, const XYZZ *a, const AFF *b) { xyzz_madd(out, a, b, 0); }

void GF(xyzz_sub_mixed)(XYZZ *out, const XYZZ *a, const AFF *b) { xyzz_madd(out, a, b, 1); }

/* ---------------------------------------------------- scalar multiplication */

static inline int scalar_bit(const uint64_t *k, size_t nbits, size_t i)
{
    if (i >= nbits) return 0;
    return (int)((k[i / 64] >> (i % 64)) & 1);
}

/* w bits of k starting at bit i (bits at or above nbits read as 0) */
static inline unsigned scalar_bits(const uint64_t *k, size_t nbits, size_t i, unsigned w)
{
    unsigned v = 0;
    for (unsigned j = 0; j < w; j++) v |= (unsigned)scalar_bit(k, nbits, i + j) << j;
    return v;
}

void GF(mul_dbl_add)(JAC *out, const JAC *p, const uint64_t *k, size_t nbits)
{
    JAC acc, base = *p;
    GF(set_inf)(&acc);
    for (size_t i = nbits; i-- > 0;) {
        GF(dbl)(&acc, &acc);
        if (scalar_bit(k, nbits, i)) GF(add)(&acc, &acc, &base);
    }
    *out = acc;
}

#define WNAF_W 5
#define WNAF_STACK 1024

void GF(mul)(JAC *out, const JAC *p, const uint64_t *k, size_t nbits)
{
    /* width-w NAF: digits odd in (-2^(w-1), 2^(w-1)) or 0, at most one
     * non-zero digit in any w consecutive positions. */
    int8_t stack_digits[WNAF_STACK + WNAF_W];
    int8_t *d = stack_digits;
    size_t len = nbits + WNAF_W; /* a final carry lands below nbits + w */
    if (nbits > WNAF_STACK) {
        d = malloc(len);
        if (!d) { GF(mul_dbl_add)(out, p, k, nbits); return; }
    }
    memset(d, 0, len);
    unsigned carry = 0;
    size_t top = 0; /* one past the highest non-zero digit */
    for (size_t i = 0; i < len;) {
        unsigned bit = (unsigned)scalar_bit(k, nbits, i);
        if (bit == carry) { i++; continue; }
        int word = (int)scalar_bits(k, nbits, i, WNAF_W) + (int)carry;
        carry = (unsigned)(word >> (WNAF_W - 1)) & 1;
        word -= (int)(carry << WNAF_W);
        d[i] = (int8_t)word;
        top = i + 1;
        i += WNAF_W;
    }
    /* odd multiples P, 3P, ..., (2^(w-1) - 1) P, made affine with one
     * inversion so that the main loop uses mixed additions */
    JAC tab[1 << (WNAF_W - 2)], p2;
    AFF atab[1 << (WNAF_W - 2)];
    tab[0] = *p;
    GF(dbl)(&p2, p);
    for (int i = 1; i < (1 << (WNAF_W - 2)); i++) GF(add)(&tab[i], &tab[i - 1], &p2);
    GF(batch_to_aff)(atab, tab, 1 << (WNAF_W - 2));
    JAC acc;
    GF(set_inf)(&acc);
    for (size_t i = top; i-- > 0;) {
        GF(dbl)(&acc, &acc);
        int v = d[i];
        if (v > 0) GF(add_mixed)(&acc, &acc, &atab[v >> 1]);
        else if (v < 0) {
            AFF n;
            GF(aff_neg)(&n, &atab[(-v) >> 1]);
            GF(add_mixed)(&acc, &acc, &n);
        }
    }
    if (d != stack_digits) free(d);
    *out = acc;
}

/* Addition without data-dependent branches: the generic sum, the doubling
 * and both pass-through cases are all computed and selected with masks. */
static void add_ct(JAC *out, const JAC *a, const JAC *b)
{
    JAC sum, dbl;
    uint64_t same = mask_of(jac_add_core(&sum, a, b, 1));
    GF(dbl)(&dbl, a);
    cmov_words(&sum, &dbl, sizeof sum, same);
    cmov_words(&sum, a, sizeof sum, mask_of(GF(is_inf)(b)));
    cmov_words(&sum, b, sizeof sum, mask_of(GF(is_inf)(a)));
    *out = sum;
}

#define CT_W 4

void GF(mul_ct)(JAC *out, const JAC *p, const uint64_t *k, size_t nbits)
{
    /* fixed 4-bit windows from the top; every table entry is read for every
     * window and the wanted one kept with a mask */
    JAC tab[1 << CT_W];
    GF(set_inf)(&tab[0]);
    tab[1] = *p;
    GF(dbl)(&tab[2], p);
    for (int i = 3; i < (1 << CT_W); i++) add_ct(&tab[i], &tab[i - 1], p);
    JAC acc, sel;
    GF(set_inf)(&acc);
    size_t nwin = (nbits + CT_W - 1) / CT_W;
    for (size_t w = nwin; w-- > 0;) {
        for (int s = 0; s < CT_W; s++) GF(dbl)(&acc, &acc);
        unsigned digit = scalar_bits(k, nbits, w * CT_W, CT_W);
        sel = tab[0];
        for (unsigned e = 1; e < (1u << CT_W); e++) {
            /* mask = all ones iff e == digit, without a branch */
            uint64_t diff = (uint64_t)(e ^ digit);
            uint64_t m = ((diff | ((uint64_t)0 - diff)) >> 63) - 1;
            cmov_words(&sel, &tab[e], sizeof sel, m);
        }
        add_ct(&acc, &acc, &sel);
    }
    *out = acc;
}

void GF(mul_fr)(JAC *out, const JAC *p, const cz_fr *k)
{
    cz_fr plain;
    cz_fr_from_mont(&plain, k);
    GF(mul_ct)(out, p, plain.l, 255);
}

/* [r]P == O, the definition of the subgroup (slow reference) */
static const uint64_t group_order[4] = {
    0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

int GF(in_subgroup_slow)(const JAC *p)
{
    JAC t;
    GF(mul)(&t, p, group_order, 255);
    return GF(is_inf)(&t);
}

/* [|x|]P for the BLS parameter x = -0xd201000000010000 (sign not applied):
 * 63 doublings and 4 additions */
void CAT(cz__, CAT(G, _mul_by_abs_x))(JAC *out, const JAC *p)
{
    static const uint64_t ax = 0xd201000000010000ULL;
    JAC acc = *p;
    for (int i = 62; i >= 0; i--) {
        GF(dbl)(&acc, &acc);
        if ((ax >> i) & 1) GF(add)(&acc, &acc, p);
    }
    *out = acc;
}

#undef CAT_
#undef CAT
#undef FE_
#undef GF
#undef AFF
#undef JAC
#undef XYZZ
