/* fp6.c — Fp6 = Fp2[v]/(v^3 - xi), xi = u + 1.
 *
 * Multiplication is three-term Karatsuba (6 Fp2 products), squaring is
 * Chung–Hasan SQR2 (2 products + 3 squarings), inversion goes through the
 * norm to Fp2 (one Fp2 inversion). The sparse products mul_by_01 / mul_by_1
 * serve the pairing's line multiplication. Frobenius: v^(p^k) = g_k v with
 * g_k = xi^((p^k - 1)/3), so a^(p^k) = conj^k(c0) + conj^k(c1) g_k v +
 * conj^k(c2) g_k^2 v^2; the g_k are precomputed (Montgomery form) by a
 * throwaway Python big-integer script, computed both as direct powers of xi
 * and by the recurrence g_k = conj(g_(k-1)) g_1, and re-checked at test time
 * against a^(p^k) by exponentiation. */
#include "ff/tower.h"

#include <string.h>

/* FROB6_C1[k] = xi^((p^k-1)/3), FROB6_C2[k] = xi^(2(p^k-1)/3), k = 0..5 */
static const cz_fp2 FROB6_C1[6] = {
    {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
     {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}}},
    {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
     {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}}},
    {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
     {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}}},
};
static const cz_fp2 FROB6_C2[6] = {
    {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL, 0xeca8f3318332bb7aULL, 0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL, 0xd5c13cc6f1ca4721ULL, 0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
};

void cz_fp6_zero(cz_fp6 *out) { memset(out, 0, sizeof *out); }

void cz_fp6_one(cz_fp6 *out)
{
    cz_fp2_one(&out->c0);
    cz_fp2_zero(&out->c1);
    cz_fp2_zero(&out->c2);
}

int cz_fp6_is_zero(const cz_fp6 *a)
{
    return cz_fp2_is_zero(&a->c0) & cz_fp2_is_zero(&a->c1) & cz_fp2_is_zero(&a->c2);
}

int cz_fp6_is_one(const cz_fp6 *a)
{
    return cz_fp2_is_one(&a->c0) & cz_fp2_is_zero(&a->c1) & cz_fp2_is_zero(&a->c2);
}

int cz_fp6_eq(const cz_fp6 *a, const cz_fp6 *b)
{
    return cz_fp2_eq(&a->c0, &b->c0) & cz_fp2_eq(&a->c1, &b->c1) & cz_fp2_eq(&a->c2, &b->c2);
}

void cz_fp6_add(cz_fp6 *out, const cz_fp6 *a, const cz_fp6 *b)
{
    cz_fp2_add(&out->c0, &a->c0, &b->c0);
    cz_fp2_add(&out->c1, &a->c1, &b->c1);
    cz_fp2_add(&out->c2, &a->c2, &b->c2);
}

void cz_fp6_sub(cz_fp6 *out, const cz_fp6 *a, const cz_fp6 *b)
{
    cz_fp2_sub(&out->c0, &a->c0, &b->c0);
    cz_fp2_sub(&out->c1, &a->c1, &b->c1);
    cz_fp2_sub(&out->c2, &a->c2, &b->c2);
}

void cz_fp6_dbl(cz_fp6 *out, const cz_fp6 *a)
{
    cz_fp2_dbl(&out->c0, &a->c0);
    cz_fp2_dbl(&out->c1, &a->c1);
    cz_fp2_dbl(&out->c2, &a->c2);
}

void cz_fp6_neg(cz_fp6 *out, const cz_fp6 *a)
{
    cz_fp2_neg(&out->c0, &a->c0);
    cz_fp2_neg(&out->c1, &a->c1);
    cz_fp2_neg(&out->c2, &a->c2);
}

void cz_fp6_mul(cz_fp6 *out, const cz_fp6 *a, const cz_fp6 *b)
{
    cz_fp2 t0, t1, t2, s, u, r0, r1, r2;
    cz_fp2_mul(&t0, &a->c0, &b->c0);
    cz_fp2_mul(&t1, &a->c1, &b->c1);
    cz_fp2_mul(&t2, &a->c2, &b->c2);
    /* r0 = xi((a1 + a2)(b1 + b2) - t1 - t2) + t0 */
    cz_fp2_add(&s, &a->c1, &a->c2);
    cz_fp2_add(&u, &b->c1, &b->c2);
    cz_fp2_mul(&s, &s, &u);
    cz_fp2_sub(&s, &s, &t1);
    cz_fp2_sub(&s, &s, &t2);
    cz_fp2_mul_by_xi(&s, &s);
    cz_fp2_add(&r0, &s, &t0);
    /* r1 = (a0 + a1)(b0 + b1) - t0 - t1 + xi t2 */
    cz_fp2_add(&s, &a->c0, &a->c1);
    cz_fp2_add(&u, &b->c0, &b->c1);
    cz_fp2_mul(&s, &s, &u);
    cz_fp2_sub(&s, &s, &t0);
    cz_fp2_sub(&s, &s, &t1);
    cz_fp2_mul_by_xi(&u, &t2);
    cz_fp2_add(&r1, &s, &u);
    /* r2 = (a0 + a2)(b0 + b2) - t0 - t2 + t1 */
    cz_fp2_add(&s, &a->c0, &a->c2);
    cz_fp2_add(&u, &b->c0, &b->c2);
    cz_fp2_mul(&s, &s, &u);
    cz_fp2_sub(&s, &s, &t0);
    cz_fp2_sub(&s, &s, &t2);
    cz_fp2_add(&r2, &s, &t1);
    out->c0 = r0;
    out->c1 = r1;
    out->c2 = r2;
}

void cz_fp6_sqr(cz_fp6 *out, const cz_fp6 *a)
{
    /* Chung–Hasan SQR2 */
    cz_fp2 s0, s1, s2, s3, s4, t;
    cz_fp2_sqr(&s0, &a->c0);
    cz_fp2_mul(&s1, &a->c0, &a->c1);
    cz_fp2_dbl(&s1, &s1);
    cz_fp2_sub(&t, &a->c0, &a->c1);
    cz_fp2_add(&t, &t, &a->c2);
    cz_fp2_sqr(&s2, &t);
    cz_fp2_mul(&s3, &a->c1, &a->c2);
    cz_fp2_dbl(&s3, &s3);
    cz_fp2_sqr(&s4, &a->c2);
    /* c2 = s1 + s2 + s3 - s0 - s4 */
    cz_fp2_add(&t, &s1, &s2);
    cz_fp2_add(&t, &t, &s3);
    cz_fp2_sub(&t, &t, &s0);
    cz_fp2_sub(&out->c2, &t, &s4);
    /* c0 = xi s3 + s0, c1 = xi s4 + s1 */
    cz_fp2_mul_by_xi(&s3, &s3);
    cz_fp2_add(&out->c0, &s3, &s0);
    cz_fp2_mul_by_xi(&s4, &s4);
    cz_fp2_add(&out->c1, &s4, &s1);
}

void cz_fp6_mul_by_v(cz_fp6 *out, const cz_fp6 *a)
{
    /* (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2 */
    cz_fp2 t;
    cz_fp2_mul_by_xi(&t, &a->c2);
    out->c2 = a->c1;
    out->c1 = a->c0;
    out->c0 = t;
}

void cz_fp6_mul_by_fp2(cz_fp6 *out, const cz_fp6 *a, const cz_fp2 *b)
{
    cz_fp2_mul(&out->c0, &a->c0, b);
    cz_fp2_mul(&out->c1, &a->c1, b);
    cz_fp2_mul(&out->c2, &a->c2, b);
}

void cz_fp6_mul_by_01(cz_fp6 *out, const cz_fp6 *a, const cz_fp2 *b0, const cz_fp2 *b1)
{
    /* a (b0 + b1 v): 5 Fp2 products */
    cz_fp2 t0, t1, s, u, r0, r1, r2;
    cz_fp2_mul(&t0, &a->c0, b0);
    cz_fp2_mul(&t1, &a->c1, b1);
    /* r0 = xi (a2 b1) + t0 */
    cz_fp2_mul(&s, &a->c2, b1);
    cz_fp2_mul_by_xi(&s, &s);
    cz_fp2_add(&r0, &s, &t0);
    /* r1 = (a0 + a1)(b0 + b1) - t0 - t1 */
    cz_fp2_add(&s, &a->c0, &a->c1);
    cz_fp2_add(&u, b0, b1);
    cz_fp2_mul(&s, &s, &u);
    cz_fp2_sub(&s, &s, &t0);
    cz_fp2_sub(&r1, &s, &t1);
    /* r2 = a2 b0 + t1 */
    cz_fp2_mul(&s, &a->c2, b0);
    cz_fp2_add(&r2, &s, &t1);
    out->c0 = r0;
    out->c1 = r1;
    out->c2 = r2;
}

void cz_fp6_mul_by_1(cz_fp6 *out, const cz_fp6 *a, const cz_fp2 *b1)
{
    /* a (b1 v) = xi a2 b1 + a0 b1 v + a1 b1 v^2 */
    cz_fp2 t;
    cz_fp2_mul(&t, &a->c2, b1);
    cz_fp2_mul_by_xi(&t, &t);
    cz_fp2_mul(&out->c2, &a->c1, b1);
    cz_fp2_mul(&out->c1, &a->c0, b1);
    out->c0 = t;
}

void cz_fp6_inv(cz_fp6 *out, const cz_fp6 *a)
{
    /* adjugate (t0, t1, t2) and norm n = a0 t0 + xi (a2 t1 + a1 t2) */
    cz_fp2 t0, t1, t2, s, n;
    cz_fp2_sqr(&t0, &a->c0);
    cz_fp2_mul(&s, &a->c1, &a->c2);
    cz_fp2_mul_by_xi(&s, &s);
    cz_fp2_sub(&t0, &t0, &s);
    cz_fp2_sqr(&t1, &a->c2);
    cz_fp2_mul_by_xi(&t1, &t1);
    cz_fp2_mul(&s, &a->c0, &a->c1);
    cz_fp2_sub(&t1, &t1, &s);
    cz_fp2_sqr(&t2, &a->c1);
    cz_fp2_mul(&s, &a->c0, &a->c2);
    cz_fp2_sub(&t2, &t2, &s);
    cz_fp2_mul(&n, &a->c2, &t1);
    cz_fp2_mul(&s, &a->c1, &t2);
    cz_fp2_add(&n, &n, &s);
    cz_fp2_mul_by_xi(&n, &n);
    cz_fp2_mul(&s, &a->c0, &t0);
    cz_fp2_add(&n, &n, &s);
    cz_fp2_inv(&n, &n); /* 1/0 = 0 carries through: inv(0) = 0 */
    cz_fp2_mul(&out->c0, &t0, &n);
    cz_fp2_mul(&out->c1, &t1, &n);
    cz_fp2_mul(&out->c2, &t2, &n);
}

/* out = a * c for a Frobenius constant c, which is real, imaginary or 1 */
void cz__fp2_mul_const(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *c)
{
    if (cz_fp_is_zero(&c->c1)) {
        if (cz_fp_is_one(&c->c0)) *out = *a;
        else cz_fp2_mul_fp(out, a, &c->c0);
    } else if (cz_fp_is_zero(&c->c0)) {
        /* (a0 + a1 u)(c1 u) = -a1 c1 + a0 c1 u */
        cz_fp t;
        cz_fp_mul(&t, &a->c1, &c->c1);
        cz_fp_mul(&out->c1, &a->c0, &c->c1);
        cz_fp_neg(&out->c0, &t);
    } else {
        cz_fp2_mul(out, a, c);
    }
}

void cz_fp6_frobenius(cz_fp6 *out, const cz_fp6 *a, int power)
{
    int k = ((power % 6) + 6) % 6;
    cz_fp2_frobenius(&out->c0, &a->c0, k);
    cz_fp2_frobenius(&out->c1, &a->c1, k);
    cz_fp2_frobenius(&out->c2, &a->c2, k);
    cz__fp2_mul_const(&out->c1, &out->c1, &FROB6_C1[k]);
    cz__fp2_mul_const(&out->c2, &out->c2, &FROB6_C2[k]);
}

void cz_fp6_random(cz_fp6 *out, cz_rng *rng)
{
    cz_fp2_random(&out->c0, rng);
    cz_fp2_random(&out->c1, rng);
    cz_fp2_random(&out->c2, rng);
}
