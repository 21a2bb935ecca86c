/* fp2.c — Fp2 = Fp[u]/(u^2+1): Karatsuba multiply, complex squaring, norm
 * inversion, and the p = 3 mod 4 square root (Adj & Rodríguez-Henríquez,
 * "Square root computation over even extension fields", Algorithm 9). */
#include "ff/tower.h"

#include <string.h>

void cz_fp2_zero(cz_fp2 *out) { memset(out, 0, sizeof *out); }
void cz_fp2_one(cz_fp2 *out) { cz_fp_one(&out->c0); cz_fp_zero(&out->c1); }
int cz_fp2_is_zero(const cz_fp2 *a) { return cz_fp_is_zero(&a->c0) & cz_fp_is_zero(&a->c1); }
int cz_fp2_is_one(const cz_fp2 *a) { return cz_fp_is_one(&a->c0) & cz_fp_is_zero(&a->c1); }
int cz_fp2_eq(const cz_fp2 *a, const cz_fp2 *b) { return cz_fp_eq(&a->c0, &b->c0) & cz_fp_eq(&a->c1, &b->c1); }

void cz_fp2_add(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b)
{
    cz_fp_add(&out->c0, &a->c0, &b->c0);
    cz_fp_add(&out->c1, &a->c1, &b->c1);
}

void cz_fp2_sub(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b)
{
    cz_fp_sub(&out->c0, &a->c0, &b->c0);
    cz_fp_sub(&out->c1, &a->c1, &b->c1);
}

void cz_fp2_dbl(cz_fp2 *out, const cz_fp2 *a)
{
    cz_fp_dbl(&out->c0, &a->c0);
    cz_fp_dbl(&out->c1, &a->c1);
}

void cz_fp2_neg(cz_fp2 *out, const cz_fp2 *a)
{
    cz_fp_neg(&out->c0, &a->c0);
    cz_fp_neg(&out->c1, &a->c1);
}

void cz_fp2_conj(cz_fp2 *out, const cz_fp2 *a)
{
    out->c0 = a->c0;
    cz_fp_neg(&out->c1, &a->c1);
}

void cz_fp2_mul(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b)
{
    cz_fp t0, t1, s0, s1;
    cz_fp_mul(&t0, &a->c0, &b->c0);
    cz_fp_mul(&t1, &a->c1, &b->c1);
    cz_fp_add(&s0, &a->c0, &a->c1);
    cz_fp_add(&s1, &b->c0, &b->c1);
    cz_fp_mul(&s0, &s0, &s1);
    cz_fp_sub(&out->c0, &t0, &t1);
    cz_fp_sub(&s0, &s0, &t0);
    cz_fp_sub(&out->c1, &s0, &t1);
}

void cz_fp2_sqr(cz_fp2 *out, const cz_fp2 *a)
{
    /* (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u */
    cz_fp s, d, m;
    cz_fp_add(&s, &a->c0, &a->c1);
    cz_fp_sub(&d, &a->c0, &a->c1);
    cz_fp_mul(&m, &a->c0, &a->c1);
    cz_fp_mul(&out->c0, &s, &d);
    cz_fp_dbl(&out->c1, &m);
}

void cz_fp2_mul_fp(cz_fp2 *out, const cz_fp2 *a, const cz_fp *b)
{
    cz_fp_mul(&out->c0, &a->c0, b);
    cz_fp_mul(&out->c1, &a->c1, b);
}

void cz_fp2_mul_by_xi(cz_fp2 *out, const cz_fp2 *a)
{
    /* (c0 + c1 u)(1 + u) = (c0 - c1) + (c0 + c1) u */
    cz_fp t;
    cz_fp_sub(&t, &a->c0, &a->c1);
    cz_fp_add(&out->c1, &a->c0, &a->c1);
    out->c0 = t;
}

void cz_fp2_inv(cz_fp2 *out, const cz_fp2 *a)
{
    cz_fp t0, t1;
    cz_fp_sqr(&t0, &a->c0);
    cz_fp_sqr(&t1, &a->c1);
    cz_fp_add(&t0, &t0, &t1); /* norm */
    cz_fp_inv(&t0, &t0);
    cz_fp_mul(&out->c0, &a->c0, &t0);
    cz_fp_mul(&t1, &a->c1, &t0);
    cz_fp_neg(&out->c1, &t1);
}

void cz_fp2_pow(cz_fp2 *out, const cz_fp2 *a, const uint64_t *e, size_t nlimbs)
{
    cz_fp2 r, b = *a;
    cz_fp2_one(&r);
    for (size_t i = nlimbs; i-- > 0;)
        for (int bit = 63; bit >= 0; bit--) {
            cz_fp2_sqr(&r, &r);
            if ((e[i] >> bit) & 1) cz_fp2_mul(&r, &r, &b);
        }
    *out = r;
}

void cz_fp2_frobenius(cz_fp2 *out, const cz_fp2 *a, int power)
{
    if (power & 1) cz_fp2_conj(out, a);
    else *out = *a;
}

int cz_fp2_is_square(const cz_fp2 *a)
{
    /* a is a square in Fp2 iff its norm is a square in Fp */
    cz_fp t0, t1;
    cz_fp_sqr(&t0, &a->c0);
    cz_fp_sqr(&t1, &a->c1);
    cz_fp_add(&t0, &t0, &t1);
    return cz_fp_legendre(&t0) >= 0;
}

/* (p - 3) / 4 and (p - 1) / 2 as little-endian limbs */
static const uint64_t P_M3_DIV4[6] = {
    0xee7fbfffffffeaaaULL, 0x07aaffffac54ffffULL, 0xd9cc34a83dac3d89ULL,
    0xd91dd2e13ce144afULL, 0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};
static const uint64_t P_M1_DIV2[6] = {
    0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL, 0xb39869507b587b12ULL,
    0xb23ba5c279c2895fULL, 0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};

int cz_fp2_sqrt(cz_fp2 *out, const cz_fp2 *a)
{
    if (cz_fp2_is_zero(a)) { cz_fp2_zero(out); return 1; }
    cz_fp2 a1, alpha, x0, x, chk;
    cz_fp2_pow(&a1, a, P_M3_DIV4, 6);
    cz_fp2_sqr(&alpha, &a1);
    cz_fp2_mul(&alpha, &alpha, a);
    cz_fp2_mul(&x0, &a1, a);
    cz_fp2 minus_one;
    cz_fp2_one(&minus_one);
    cz_fp2_neg(&minus_one, &minus_one);
    if (cz_fp2_eq(&alpha, &minus_one)) {
        /* x = u * x0 */
        cz_fp t = x0.c0;
        cz_fp_neg(&x.c0, &x0.c1);
        x.c1 = t;
    } else {
        cz_fp2 b, one;
        cz_fp2_one(&one);
        cz_fp2_add(&b, &alpha, &one);
        cz_fp2_pow(&b, &b, P_M1_DIV2, 6);
        cz_fp2_mul(&x, &b, &x0);
    }
    cz_fp2_sqr(&chk, &x);
    if (!cz_fp2_eq(&chk, a)) return 0;
    *out = x;
    return 1;
}

int cz_fp2_is_lex_largest(const cz_fp2 *a)
{
    if (!cz_fp_is_zero(&a->c1)) return cz_fp_is_lex_largest(&a->c1);
    return cz_fp_is_lex_largest(&a->c0);
}

void cz_fp2_random(cz_fp2 *out, cz_rng *rng)
{
    cz_fp_random(&out->c0, rng);
    cz_fp_random(&out->c1, rng);
}
