/* field_tmpl.h — one implementation of a Montgomery prime field, included by
 * fp.c and fr.c with different parameters.
 *
 * Before including, define:
 *   F          the type / name prefix (cz_fp or cz_fr)
 *   NL, NB     limbs and bytes
 *   MOD, ONE, R2   limb initialisers for the modulus, R mod m, R^2 mod m
 *   N0         -m^-1 mod 2^64
 *   IFN(name)  the internal name for name (cz__fp_name / cz__fr_name)
 *   SN, BATCHES, MINV62, R3   for the inversion (safegcd_tmpl.h)
 *   ASM_MUL, ASM_SQR   (optional) names of MULX/ADX routines with the
 *                      signature void f(uint64_t *out, const uint64_t *a,
 *                      const uint64_t *b) / (out, a)
 *
 * Multiplication is CIOS Montgomery in the "no final carry" form: both BLS12-381
 * moduli leave the top bit of the top limb clear, so the running sum fits in NL
 * limbs and one conditional subtraction finishes the reduction.
 *
 * add/sub/dbl/neg/mul/sqr/eq/is_zero are defined inline in ff_inline.h; this
 * file emits their external definitions and holds the portable versions the
 * inline ones fall back on (IFN(add_c), IFN(mul_noadx), ...). */

#include <string.h>
#include "util/cpu.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define FN(name) CAT(F, CAT(_, name))

typedef unsigned __int128 u128;

const F FN(modulus) = {{MOD}};
const F FN(one_mont) = {{ONE}};
const F FN(r2) = {{R2}};

const uint64_t IFN(m)[NL] = {MOD};
#define M IFN(m)

/* out = a - b with borrow out */
static inline uint64_t FN(sub_raw)(uint64_t *out, const uint64_t *a, const uint64_t *b)
{
    uint64_t borrow = 0;
    for (int i = 0; i < NL; i++) {
        u128 d = (u128)a[i] - b[i] - borrow;
        out[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    return borrow;
}

static inline uint64_t FN(add_raw)(uint64_t *out, const uint64_t *a, const uint64_t *b)
{
    uint64_t carry = 0;
    for (int i = 0; i < NL; i++) {
        u128 s = (u128)a[i] + b[i] + carry;
        out[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
    return carry;
}

/* t in [0, 2m) -> t mod m, branch-free */
static inline void FN(reduce_once)(uint64_t *out, const uint64_t *t)
{
    uint64_t s[NL];
    uint64_t borrow = FN(sub_raw)(s, t, M);
    uint64_t mask = (uint64_t)0 - borrow; /* all ones: t < m, keep t */
    for (int i = 0; i < NL; i++) out[i] = (t[i] & mask) | (s[i] & ~mask);
}

void FN(zero)(F *out) { memset(out, 0, sizeof *out); }
void FN(one)(F *out) { *out = FN(one_mont); }

int FN(is_one)(const F *a) { return FN(eq)(a, &FN(one_mont)); }

/* the inline definitions of ff_inline.h get their external definitions here */
extern inline int FN(is_zero)(const F *a);
extern inline int FN(eq)(const F *a, const F *b);
extern inline void FN(add)(F *out, const F *a, const F *b);
extern inline void FN(sub)(F *out, const F *a, const F *b);
extern inline void FN(dbl)(F *out, const F *a);
extern inline void FN(neg)(F *out, const F *a);
extern inline void FN(mul)(F *out, const F *a, const F *b);
extern inline void FN(sqr)(F *out, const F *a);

/* portable add/sub/neg: used where ff_inline.h has no assembly */
void IFN(add_c)(F *out, const F *a, const F *b)
{
    uint64_t t[NL];
    FN(add_raw)(t, a->l, b->l); /* 2m < 2^(64 NL): no carry out */
    FN(reduce_once)(out->l, t);
}

void IFN(sub_c)(F *out, const F *a, const F *b)
{
    uint64_t t[NL], u[NL];
    uint64_t borrow = FN(sub_raw)(t, a->l, b->l);
    uint64_t mask = (uint64_t)0 - borrow;
    for (int i = 0; i < NL; i++) u[i] = M[i] & mask;
    FN(add_raw)(out->l, t, u);
}

void IFN(neg_c)(F *out, const F *a)
{
    uint64_t t[NL];
    uint64_t nz = 0;
    for (int i = 0; i < NL; i++) nz |= a->l[i];
    uint64_t mask = (uint64_t)0 - (uint64_t)(nz != 0);
    FN(sub_raw)(t, M, a->l);
    for (int i = 0; i < NL; i++) out->l[i] = t[i] & mask;
}

void FN(half)(F *out, const F *a)
{
    /* odd: (a + m) / 2, even: a / 2 */
    uint64_t t[NL], u[NL];
    uint64_t mask = (uint64_t)0 - (a->l[0] & 1);
    for (int i = 0; i < NL; i++) u[i] = M[i] & mask;
    uint64_t carry = FN(add_raw)(t, a->l, u);
    for (int i = 0; i < NL - 1; i++) out->l[i] = (t[i] >> 1) | (t[i + 1] << 63);
    out->l[NL - 1] = (t[NL - 1] >> 1) | (carry << 63);
}

static inline void FN(mont_mul)(uint64_t *out, const uint64_t *a, const uint64_t *b)
{
    uint64_t t[NL];
    for (int i = 0; i < NL; i++) t[i] = 0;
    for (int i = 0; i < NL; i++) {
        u128 p = (u128)a[0] * b[i] + t[0];
        uint64_t A = (uint64_t)(p >> 64);
        uint64_t t0 = (uint64_t)p;
        uint64_t m = t0 * (uint64_t)(N0);
        u128 q = (u128)m * M[0] + t0;
        uint64_t C = (uint64_t)(q >> 64);
        for (int j = 1; j < NL; j++) {
            p = (u128)a[j] * b[i] + t[j] + A;
            A = (uint64_t)(p >> 64);
            q = (u128)m * M[j] + (uint64_t)p + C;
            C = (uint64_t)(q >> 64);
            t[j - 1] = (uint64_t)q;
        }
        t[NL - 1] = C + A;
    }
    FN(reduce_once)(out, t);
}

void FN(mul_portable)(F *out, const F *a, const F *b) { FN(mont_mul)(out->l, a->l, b->l); }
void FN(sqr_portable)(F *out, const F *a) { FN(mont_mul)(out->l, a->l, a->l); }

/* the multiplication when the inline fast check fails: CPU not yet probed,
 * no MULX/ADX, or the portable path forced */
void IFN(mul_noadx)(F *out, const F *a, const F *b)
{
#ifdef ASM_MUL
    if (cz_cpu_has_adx()) { ASM_MUL(out->l, a->l, b->l); return; }
#endif
    FN(mont_mul)(out->l, a->l, b->l);
}

void IFN(sqr_noadx)(F *out, const F *a)
{
#ifdef ASM_SQR
    if (cz_cpu_has_adx()) { ASM_SQR(out->l, a->l); return; }
#endif
    FN(mont_mul)(out->l, a->l, a->l);
}

void FN(to_mont)(F *out, const F *plain) { FN(mul)(out, plain, &FN(r2)); }

void FN(from_mont)(F *plain, const F *a)
{
    F one_plain = {{0}};
    one_plain.l[0] = 1;
    FN(mul)(plain, a, &one_plain);
}

void FN(from_u64)(F *out, uint64_t v)
{
    F t = {{0}};
    t.l[0] = v;
    FN(to_mont)(out, &t); /* v < 2^64 < m */
}

void FN(pow)(F *out, const F *a, const uint64_t *e, size_t nlimbs)
{
    /* fixed 4-bit window, left to right */
    F tab[16];
    FN(one)(&tab[0]);
    tab[1] = *a;
    for (int i = 2; i < 16; i++) FN(mul)(&tab[i], &tab[i - 1], a);
    F r;
    FN(one)(&r);
    int started = 0;
    for (size_t li = nlimbs; li-- > 0;) {
        for (int nib = 15; nib >= 0; nib--) {
            unsigned w = (unsigned)(e[li] >> (4 * nib)) & 15;
            if (started) {
                FN(sqr)(&r, &r); FN(sqr)(&r, &r); FN(sqr)(&r, &r); FN(sqr)(&r, &r);
            }
            if (w) { FN(mul)(&r, &r, &tab[w]); started = 1; }
        }
    }
    *out = r;
}

/* Fermat inversion a^(m-2), kept as a slow reference; FN(inv) and
 * FN(inv_ct) are the safegcd ones of safegcd_tmpl.h */
void IFN(inv_fermat)(F *out, const F *a)
{
    uint64_t e[NL];
    uint64_t two[NL] = {2};
    FN(sub_raw)(e, M, two);
    FN(pow)(out, a, e, NL);
}

int FN(legendre)(const F *a)
{
    uint64_t e[NL];
    /* (m - 1) / 2 */
    for (int i = 0; i < NL - 1; i++) e[i] = (M[i] >> 1) | (M[i + 1] << 63);
    e[NL - 1] = M[NL - 1] >> 1;
    F r;
    FN(pow)(&r, a, e, NL);
    if (FN(is_zero)(&r)) return 0;
    return FN(is_one)(&r) ? 1 : -1;
}

void FN(batch_inv)(F *out, const F *in, size_t n, F *scratch)
{
    F acc;
    FN(one)(&acc);
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!FN(is_zero)(&in[i])) FN(mul)(&acc, &acc, &in[i]);
    }
    FN(inv)(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        if (FN(is_zero)(&in[i])) { FN(zero)(&out[i]); continue; }
        F t;
        FN(mul)(&t, &acc, &scratch[i]);
        FN(mul)(&acc, &acc, &in[i]);
        out[i] = t;
    }
}

void FN(to_bytes_le)(uint8_t out[NB], const F *a)
{
    F p;
    FN(from_mont)(&p, a);
    for (int i = 0; i < NB; i++) out[i] = (uint8_t)(p.l[i / 8] >> (8 * (i % 8)));
}

void FN(to_bytes_be)(uint8_t out[NB], const F *a)
{
    uint8_t le[NB];
    FN(to_bytes_le)(le, a);
    for (int i = 0; i < NB; i++) out[i] = le[NB - 1 - i];
}

cz_err FN(from_bytes_le)(F *out, const uint8_t in[NB])
{
    F p = {{0}};
    for (int i = 0; i < NB; i++) p.l[i / 8] |= (uint64_t)in[i] << (8 * (i % 8));
    uint64_t t[NL];
    if (!FN(sub_raw)(t, p.l, M)) return CZ_ERR_NONCANONICAL; /* p >= m */
    FN(to_mont)(out, &p);
    return CZ_OK;
}

cz_err FN(from_bytes_be)(F *out, const uint8_t in[NB])
{
    uint8_t le[NB];
    for (int i = 0; i < NB; i++) le[i] = in[NB - 1 - i];
    return FN(from_bytes_le)(out, le);
}

void FN(random)(F *out, cz_rng *rng)
{
    int top = 64 - __builtin_clzll(M[NL - 1]); /* bits used in the top limb */
    uint64_t topmask = top == 64 ? ~(uint64_t)0 : (((uint64_t)1 << top) - 1);
    for (;;) {
        F p;
        for (int i = 0; i < NL; i++) p.l[i] = cz_rng_u64(rng);
        p.l[NL - 1] &= topmask;
        uint64_t t[NL];
        if (FN(sub_raw)(t, p.l, M)) { /* p < m */
            FN(to_mont)(out, &p);
            return;
        }
    }
}

int FN(is_lex_largest)(const F *a)
{
    /* plain(a) > (m-1)/2  <=>  2*plain(a) > m - 1  <=>  2*plain(a) >= m */
    F p;
    FN(from_mont)(&p, a);
    uint64_t d[NL], t[NL];
    uint64_t carry = FN(add_raw)(d, p.l, p.l);
    uint64_t borrow = FN(sub_raw)(t, d, M);
    return carry || !borrow;
}

/* sqrt by Tonelli–Shanks with the 2-adic structure of m - 1 found at run time;
 * for m = 3 mod 4 this is one exponentiation (S = 1). */
int FN(sqrt)(F *out, const F *a)
{
    if (FN(is_zero)(a)) { FN(zero)(out); return 1; }
    uint64_t q[NL];
    memcpy(q, M, sizeof q);
    q[0] -= 1; /* m odd: no borrow */
    int s = 0;
    while (!(q[0] & 1)) {
        for (int i = 0; i < NL - 1; i++) q[i] = (q[i] >> 1) | (q[i + 1] << 63);
        q[NL - 1] >>= 1;
        s++;
    }
    /* q odd, m - 1 = q 2^s */
    uint64_t q1[NL]; /* (q + 1) / 2 */
    uint64_t one[NL] = {1};
    FN(add_raw)(q1, q, one);
    for (int i = 0; i < NL - 1; i++) q1[i] = (q1[i] >> 1) | (q1[i + 1] << 63);
    q1[NL - 1] >>= 1;
    F x, t, c;
    if (s == 1) { /* m = 3 mod 4: a^((m+1)/4) is a root iff a is a square */
        FN(pow)(&x, a, q1, NL);
        FN(sqr)(&t, &x);
        if (!FN(eq)(&t, a)) return 0;
        *out = x;
        return 1;
    }
    if (FN(legendre)(a) != 1) return 0;
    FN(pow)(&x, a, q1, NL);
    FN(pow)(&t, a, q, NL);
    /* a non-residue z: try 2, 3, 5, ... */
    F z;
    for (uint64_t k = 2;; k++) {
        FN(from_u64)(&z, k);
        if (FN(legendre)(&z) == -1) break;
    }
    FN(pow)(&c, &z, q, NL);
    int mexp = s;
    while (!FN(is_one)(&t)) {
        int i = 0;
        F t2 = t;
        while (!FN(is_one)(&t2)) { FN(sqr)(&t2, &t2); i++; }
        F b = c;
        for (int j = 0; j < mexp - i - 1; j++) FN(sqr)(&b, &b);
        mexp = i;
        FN(sqr)(&c, &b);
        FN(mul)(&t, &t, &c);
        FN(mul)(&x, &x, &b);
    }
    *out = x;
    return 1;
}

#include "ff/safegcd_tmpl.h"

#undef M
#undef CAT_
#undef CAT
#undef FN
