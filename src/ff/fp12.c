/* fp12.c — Fp12 = Fp6[w]/(w^2 - v).
 *
 * Karatsuba multiplication (3 Fp6 products), complex squaring (2 Fp6
 * products), inversion through the norm to Fp6, and conjugation (= a^(p^6)).
 * For the pairing: the sparse product by a line c0 + c1 w^2 + c4 w^3
 * (mul_by_014), Granger–Scott squaring in the cyclotomic subgroup (view
 * Fp12 as Fp4[z]/(z^3 - s), Fp4 = Fp2[s]/(s^2 - xi), s = w^3, z = w), and
 * exponentiation by the curve parameter x. Frobenius: w^(p^k) = g_k w with
 * g_k = xi^((p^k - 1)/6), precomputed (Montgomery form) by a throwaway Python
 * big-integer script two independent ways, and re-checked at test time
 * against a^(p^k) by exponentiation. */
#include "ff/tower.h"

#include <string.h>

void cz__fp2_mul_const(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *c); /* fp6.c */

/* FROB12_C1[k] = xi^((p^k-1)/6), k = 0..11 */
static const cz_fp2 FROB12_C1[12] = {
    {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL, 0xa35baecab2dc29eeULL, 0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL}},
     {{0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL, 0xc11b9cba40a8e8d0ULL, 0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}}},
    {{{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL, 0xd5c13cc6f1ca4721ULL, 0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
     {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}},
    {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0x3726c30af242c66cULL, 0x7c2ac1aad1b6fe70ULL, 0xa04007fbba4b14a2ULL, 0xef517c3266341429ULL, 0x0095ba654ed2226bULL, 0x02e370eccc86f7ddULL}},
     {{0x82d83cf50dbce43fULL, 0xa2813e53df9d018fULL, 0xc6f0caa53c65e181ULL, 0x7525cf528d50fe95ULL, 0x4a85ed50f4798a6bULL, 0x171da0fd6cf8eebdULL}}},
    {{{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL, 0xeca8f3318332bb7aULL, 0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL, 0xc11b9cba40a8e8d0ULL, 0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}},
     {{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL, 0xa35baecab2dc29eeULL, 0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL}}},
    {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}},
     {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}}},
    {{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    {{{0x82d83cf50dbce43fULL, 0xa2813e53df9d018fULL, 0xc6f0caa53c65e181ULL, 0x7525cf528d50fe95ULL, 0x4a85ed50f4798a6bULL, 0x171da0fd6cf8eebdULL}},
     {{0x3726c30af242c66cULL, 0x7c2ac1aad1b6fe70ULL, 0xa04007fbba4b14a2ULL, 0xef517c3266341429ULL, 0x0095ba654ed2226bULL, 0x02e370eccc86f7ddULL}}},
};

void cz_fp12_zero(cz_fp12 *out) { memset(out, 0, sizeof *out); }

void cz_fp12_one(cz_fp12 *out)
{
    cz_fp6_one(&out->c0);
    cz_fp6_zero(&out->c1);
}

int cz_fp12_is_one(const cz_fp12 *a) { return cz_fp6_is_one(&a->c0) & cz_fp6_is_zero(&a->c1); }

int cz_fp12_is_zero(const cz_fp12 *a) { return cz_fp6_is_zero(&a->c0) & cz_fp6_is_zero(&a->c1); }

int cz_fp12_eq(const cz_fp12 *a, const cz_fp12 *b)
{
    return cz_fp6_eq(&a->c0, &b->c0) & cz_fp6_eq(&a->c1, &b->c1);
}

void cz_fp12_add(cz_fp12 *out, const cz_fp12 *a, const cz_fp12 *b)
{
    cz_fp6_add(&out->c0, &a->c0, &b->c0);
    cz_fp6_add(&out->c1, &a->c1, &b->c1);
}

void cz_fp12_sub(cz_fp12 *out, const cz_fp12 *a, const cz_fp12 *b)
{
    cz_fp6_sub(&out->c0, &a->c0, &b->c0);
    cz_fp6_sub(&out->c1, &a->c1, &b->c1);
}

void cz_fp12_mul(cz_fp12 *out, const cz_fp12 *a, const cz_fp12 *b)
{
    cz_fp6 t0, t1, s, u;
    cz_fp6_mul(&t0, &a->c0, &b->c0);
    cz_fp6_mul(&t1, &a->c1, &b->c1);
    cz_fp6_add(&s, &a->c0, &a->c1);
    cz_fp6_add(&u, &b->c0, &b->c1);
    cz_fp6_mul(&s, &s, &u);
    cz_fp6_sub(&s, &s, &t0);
    cz_fp6_sub(&out->c1, &s, &t1);
    cz_fp6_mul_by_v(&t1, &t1);
    cz_fp6_add(&out->c0, &t0, &t1);
}

void cz_fp12_sqr(cz_fp12 *out, const cz_fp12 *a)
{
    /* (a0 + a1 w)^2 = (a0 + a1)(a0 + v a1) - ab - v ab + 2ab w, ab = a0 a1 */
    cz_fp6 ab, s, t;
    cz_fp6_mul(&ab, &a->c0, &a->c1);
    cz_fp6_add(&s, &a->c0, &a->c1);
    cz_fp6_mul_by_v(&t, &a->c1);
    cz_fp6_add(&t, &t, &a->c0);
    cz_fp6_mul(&s, &s, &t);
    cz_fp6_sub(&s, &s, &ab);
    cz_fp6_mul_by_v(&t, &ab);
    cz_fp6_sub(&out->c0, &s, &t);
    cz_fp6_dbl(&out->c1, &ab);
}

void cz_fp12_conj(cz_fp12 *out, const cz_fp12 *a)
{
    out->c0 = a->c0;
    cz_fp6_neg(&out->c1, &a->c1);
}

void cz_fp12_inv(cz_fp12 *out, const cz_fp12 *a)
{
    /* 1/(a0 + a1 w) = (a0 - a1 w) / (a0^2 - v a1^2) */
    cz_fp6 t0, t1;
    cz_fp6_sqr(&t0, &a->c0);
    cz_fp6_sqr(&t1, &a->c1);
    cz_fp6_mul_by_v(&t1, &t1);
    cz_fp6_sub(&t0, &t0, &t1);
    cz_fp6_inv(&t0, &t0);
    cz_fp6_mul(&out->c0, &a->c0, &t0);
    cz_fp6_mul(&t1, &a->c1, &t0);
    cz_fp6_neg(&out->c1, &t1);
}

void cz_fp12_pow(cz_fp12 *out, const cz_fp12 *a, const uint64_t *e, size_t nlimbs)
{
    cz_fp12 r, b = *a;
    int started = 0;
    cz_fp12_one(&r);
    for (size_t i = nlimbs; i-- > 0;)
        for (int bit = 63; bit >= 0; bit--) {
            if (started) cz_fp12_sqr(&r, &r);
            if ((e[i] >> bit) & 1) {
                if (started) cz_fp12_mul(&r, &r, &b);
                else r = b;
                started = 1;
            }
        }
    *out = r;
}

void cz_fp12_frobenius(cz_fp12 *out, const cz_fp12 *a, int power)
{
    int k = ((power % 12) + 12) % 12;
    const cz_fp2 *g = &FROB12_C1[k];
    cz_fp6_frobenius(&out->c0, &a->c0, k);
    cz_fp6_frobenius(&out->c1, &a->c1, k);
    cz__fp2_mul_const(&out->c1.c0, &out->c1.c0, g);
    cz__fp2_mul_const(&out->c1.c1, &out->c1.c1, g);
    cz__fp2_mul_const(&out->c1.c2, &out->c1.c2, g);
}

void cz_fp12_random(cz_fp12 *out, cz_rng *rng)
{
    cz_fp6_random(&out->c0, rng);
    cz_fp6_random(&out->c1, rng);
}

void cz_fp12_mul_by_014(cz_fp12 *out, const cz_fp12 *a, const cz_fp2 *c0,
                        const cz_fp2 *c1, const cz_fp2 *c4)
{
    /* l = L0 + L1 w with L0 = c0 + c1 v, L1 = c4 v: 13 Fp2 products */
    cz_fp6 t0, t1, s;
    cz_fp2 u;
    cz_fp6_mul_by_01(&t0, &a->c0, c0, c1);
    cz_fp6_mul_by_1(&t1, &a->c1, c4);
    cz_fp6_add(&s, &a->c0, &a->c1);
    cz_fp2_add(&u, c1, c4);
    cz_fp6_mul_by_01(&s, &s, c0, &u);
    cz_fp6_sub(&s, &s, &t0);
    cz_fp6_sub(&out->c1, &s, &t1);
    cz_fp6_mul_by_v(&t1, &t1);
    cz_fp6_add(&out->c0, &t0, &t1);
}

/* (a + b s)^2 in Fp4 = Fp2[s]/(s^2 - xi): 3 Fp2 squarings */
static void fp4_sqr(cz_fp2 *r0, cz_fp2 *r1, const cz_fp2 *a, const cz_fp2 *b)
{
    cz_fp2 t0, t1, t2;
    cz_fp2_sqr(&t0, a);
    cz_fp2_sqr(&t1, b);
    cz_fp2_add(&t2, a, b);
    cz_fp2_sqr(&t2, &t2);
    cz_fp2_sub(&t2, &t2, &t0);
    cz_fp2_sub(r1, &t2, &t1);
    cz_fp2_mul_by_xi(&t1, &t1);
    cz_fp2_add(r0, &t0, &t1);
}

/* 3 t - 2 z and 3 t + 2 z */
static void three_minus_two(cz_fp2 *out, const cz_fp2 *t, const cz_fp2 *z)
{
    cz_fp2 d;
    cz_fp2_sub(&d, t, z);
    cz_fp2_dbl(&d, &d);
    cz_fp2_add(out, &d, t);
}

static void three_plus_two(cz_fp2 *out, const cz_fp2 *t, const cz_fp2 *z)
{
    cz_fp2 d;
    cz_fp2_add(&d, t, z);
    cz_fp2_dbl(&d, &d);
    cz_fp2_add(out, &d, t);
}

void cz_fp12_cyclotomic_sqr(cz_fp12 *out, const cz_fp12 *a)
{
    /* f = A + B z + C z^2 with A = (c0.c0, c1.c1), B = (c1.c0, c0.c2),
     * C = (c0.c1, c1.c2) as Fp4 pairs (x + y s). Granger–Scott:
     * A' = 3A^2 - 2 conj(A), B' = 3 s C^2 + 2 conj(B), C' = 3B^2 - 2 conj(C) */
    cz_fp2 a0, a1, b0, b1, c0, c1, x;
    fp4_sqr(&a0, &a1, &a->c0.c0, &a->c1.c1);
    fp4_sqr(&b0, &b1, &a->c1.c0, &a->c0.c2);
    fp4_sqr(&c0, &c1, &a->c0.c1, &a->c1.c2);
    cz_fp2 ze0 = a->c0.c0, ze1 = a->c1.c1;
    cz_fp2 zb0 = a->c1.c0, zb1 = a->c0.c2;
    cz_fp2 zc0 = a->c0.c1, zc1 = a->c1.c2;
    /* A' */
    three_minus_two(&out->c0.c0, &a0, &ze0);
    three_plus_two(&out->c1.c1, &a1, &ze1);
    /* B' = 3 s C^2 + 2 conj(B) = (3 xi c1 + 2 zb0) + (3 c0 - 2 zb1) s */
    cz_fp2_mul_by_xi(&x, &c1);
    three_plus_two(&out->c1.c0, &x, &zb0);
    three_minus_two(&out->c0.c2, &c0, &zb1);
    /* C' */
    three_minus_two(&out->c0.c1, &b0, &zc0);
    three_plus_two(&out->c1.c2, &b1, &zc1);
}

/* |x| = 0xd201000000010000 */
#define CZ_X_ABS 0xd201000000010000ULL

void cz_fp12_cyclotomic_exp_x(cz_fp12 *out, const cz_fp12 *a)
{
    cz_fp12 r = *a;
    for (int bit = 62; bit >= 0; bit--) {
        cz_fp12_cyclotomic_sqr(&r, &r);
        if ((CZ_X_ABS >> bit) & 1) cz_fp12_mul(&r, &r, a);
    }
    cz_fp12_conj(out, &r); /* x < 0; the inverse of a unitary element */
}
