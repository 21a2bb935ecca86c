/* safegcd_tmpl.h — inversion in Fp / Fr by Bernstein–Yang safegcd, included
 * by fp.c and fr.c after field_tmpl.h. Defines FN(inv) (variable time) and
 * FN(inv_ct) (constant time).
 *
 * Before including, define (besides field_tmpl.h's parameters):
 *   SN       limbs of the signed 62-bit representation (value = sum v[i] 2^62i,
 *            v[0..SN-2] in [0, 2^62), v[SN-1] signed)
 *   INC      1: the paper's divsteps; 2: hddivsteps (see safegcd.h)
 *   BATCHES  rounds of 62 divsteps for the constant-time version, from a
 *            proven bound on the divsteps needed for 0 <= g < f = m:
 *            divsteps: floor(49 b / 34) for b = log2(f^2 + 4 g^2) > 92
 *            (Bernstein-Yang, Theorem 11.2); hddivsteps: 590 for f < 2^256
 *            (Coq proof in github.com/sipa/safegcd-bounds)
 *   MINV62   m^-1 mod 2^62
 *   R3       limb initialiser of R^3 mod m (R = 2^(64 NL))
 *
 * The state is f = m, g = x (the raw Montgomery limbs of a, x = aR), d = 0,
 * e = 1, with f = d x and g = e x (mod m) throughout. Each round runs 62
 * divsteps on the low words (safegcd.c), then applies the matrix to (f, g)
 * (exactly divisible by 2^62) and to (d, e) mod m: a multiple of m is added
 * to make the division exact, chosen so that d and e stay in (-2m, m). When g
 * reaches 0, f = +-1 (m is prime) and d = +-x^-1; the result a^-1 R is then
 * montmul(x^-1, R^3). The inverse of 0 comes out as 0. */

#include "ff/safegcd.h"

#define M62 (((uint64_t)1 << 62) - 1)

typedef __int128 i128;

static const F FN(sg_r3) = {{R3}};

/* 64-bit limbs (NL) <-> signed 62-bit limbs (SN), for values in [0, 2^(64 NL)) */
static void FN(to_s62)(int64_t *s, const uint64_t *x)
{
    for (int j = 0; j < SN; j++) {
        int bit = 62 * j, w = bit / 64, sh = bit % 64;
        uint64_t v = w < NL ? x[w] >> sh : 0;
        if (sh > 2 && w + 1 < NL) v |= x[w + 1] << (64 - sh);
        s[j] = (int64_t)(v & M62);
    }
}

/* s normalised and in [0, 2^(64 NL)) */
static void FN(from_s62)(uint64_t *x, const int64_t *s)
{
    for (int i = 0; i < NL; i++) x[i] = 0;
    for (int j = 0; j < SN; j++) {
        int bit = 62 * j, w = bit / 64, sh = bit % 64;
        uint64_t v = (uint64_t)s[j];
        if (w < NL) x[w] |= v << sh;
        if (sh > 2 && w + 1 < NL) x[w + 1] |= v >> (64 - sh);
    }
}

/* carry every limb but the top into [0, 2^62) (arithmetic shifts) */
static void FN(s62_norm)(int64_t *s)
{
    for (int i = 0; i < SN - 1; i++) {
        s[i + 1] += s[i] >> 62;
        s[i] &= (int64_t)M62;
    }
}

/* (f, g) = (u f + v g, q f + r g) / 2^62, exact */
static void FN(sg_update_fg)(int64_t *f, int64_t *g, const cz__sg_mat *t)
{
    i128 cf = (i128)t->u * f[0] + (i128)t->v * g[0];
    i128 cg = (i128)t->q * f[0] + (i128)t->r * g[0];
    cf >>= 62;
    cg >>= 62;
    for (int i = 1; i < SN; i++) {
        cf += (i128)t->u * f[i] + (i128)t->v * g[i];
        cg += (i128)t->q * f[i] + (i128)t->r * g[i];
        f[i - 1] = (int64_t)((uint64_t)cf & M62);
        g[i - 1] = (int64_t)((uint64_t)cg & M62);
        cf >>= 62;
        cg >>= 62;
    }
    f[SN - 1] = (int64_t)cf;
    g[SN - 1] = (int64_t)cg;
}

/* (d, e) = (u d + v e + md m, q d + r e + me m) / 2^62 with d, e in (-2m, m).
 * md starts as u [d<0] + v [e<0] (so that, writing d' = d + m [d<0] in
 * (-m, m), the sum is u d' + v e' in (-2^62 m, 2^62 m)), then loses the
 * k in [0, 2^62) that makes the sum divisible by 2^62; the quotient is thus in
 * (-2m, m) again. Same for me. */
static void FN(sg_update_de)(int64_t *d, int64_t *e, const cz__sg_mat *t, const int64_t *m62)
{
    int64_t sd = d[SN - 1] >> 63, se = e[SN - 1] >> 63;
    int64_t md = (t->u & sd) + (t->v & se);
    int64_t me = (t->q & sd) + (t->r & se);
    i128 cd = (i128)t->u * d[0] + (i128)t->v * e[0];
    i128 ce = (i128)t->q * d[0] + (i128)t->r * e[0];
    md -= (int64_t)(((uint64_t)MINV62 * (uint64_t)cd + (uint64_t)md) & M62);
    me -= (int64_t)(((uint64_t)MINV62 * (uint64_t)ce + (uint64_t)me) & M62);
    cd += (i128)m62[0] * md;
    ce += (i128)m62[0] * me;
    cd >>= 62; /* the low 62 bits are zero now */
    ce >>= 62;
    for (int i = 1; i < SN; i++) {
        cd += (i128)t->u * d[i] + (i128)t->v * e[i] + (i128)m62[i] * md;
        ce += (i128)t->q * d[i] + (i128)t->r * e[i] + (i128)m62[i] * me;
        d[i - 1] = (int64_t)((uint64_t)cd & M62);
        e[i - 1] = (int64_t)((uint64_t)ce & M62);
        cd >>= 62;
        ce >>= 62;
    }
    d[SN - 1] = (int64_t)cd;
    e[SN - 1] = (int64_t)ce;
}

/* s += m if s < 0 (constant time) */
static void FN(s62_add_m_if_neg)(int64_t *s, const int64_t *m62)
{
    int64_t neg = s[SN - 1] >> 63;
    for (int i = 0; i < SN; i++) s[i] += m62[i] & neg;
    FN(s62_norm)(s);
}

/* d = +-x^-1 in (-2m, m) with the sign of f (= +-1): out = montmul(|..|, R^3) */
static void FN(sg_finish)(F *out, int64_t *d, const int64_t *f, const int64_t *m62)
{
    FN(s62_add_m_if_neg)(d, m62);        /* (-m, m) */
    int64_t fneg = f[SN - 1] >> 63;      /* f = -1: negate */
    for (int i = 0; i < SN; i++) d[i] = (d[i] ^ fneg) - fneg;
    FN(s62_norm)(d);
    FN(s62_add_m_if_neg)(d, m62);        /* [0, m) */
    F x;
    FN(from_s62)(x.l, d);
    FN(mul)(out, &x, &FN(sg_r3));
}

static void FN(sg_start)(int64_t *f, int64_t *g, int64_t *d, int64_t *e, int64_t *m62, const F *a)
{
    FN(to_s62)(m62, M);
    FN(to_s62)(g, a->l);
    for (int i = 0; i < SN; i++) {
        f[i] = m62[i];
        d[i] = 0;
        e[i] = 0;
    }
    e[0] = 1;
}

void FN(inv_ct)(F *out, const F *a)
{
    int64_t f[SN], g[SN], d[SN], e[SN], m62[SN];
    FN(sg_start)(f, g, d, e, m62, a);
    int64_t delta = 1;
    for (int i = 0; i < BATCHES; i++) {
        cz__sg_mat t;
        delta = cz__sg_divsteps_ct(delta, INC, (uint64_t)f[0], (uint64_t)g[0], &t);
        FN(sg_update_de)(d, e, &t, m62);
        FN(sg_update_fg)(f, g, &t);
    }
    FN(sg_finish)(out, d, f, m62);
}

/* variable time: word steps skip runs of zeros, and the rounds stop once g = 0 */
void FN(inv)(F *out, const F *a)
{
    int64_t f[SN], g[SN], d[SN], e[SN], m62[SN];
    FN(sg_start)(f, g, d, e, m62, a);
    int64_t delta = 1;
    for (int i = 0; i < BATCHES; i++) {
        int64_t nz = 0;
        for (int j = 0; j < SN; j++) nz |= g[j];
        if (!nz) break;
        cz__sg_mat t;
        delta = cz__sg_divsteps_var(delta, INC, (uint64_t)f[0], (uint64_t)g[0], &t);
        FN(sg_update_de)(d, e, &t, m62);
        FN(sg_update_fg)(f, g, &t);
    }
    FN(sg_finish)(out, d, f, m62);
}

#undef M62
