/* tower.h — the extension tower of BLS12-381:
 *   Fp2  = Fp[u]  / (u^2 + 1)
 *   Fp6  = Fp2[v] / (v^3 - xi),  xi = u + 1
 *   Fp12 = Fp6[w] / (w^2 - v)
 * Same conventions as ff.h: Montgomery limbs, output first, aliasing allowed. */
#ifndef CZ_FF_TOWER_H
#define CZ_FF_TOWER_H

#include "ff/ff.h"

typedef struct { cz_fp c0, c1; } cz_fp2;           /* c0 + c1 u */
typedef struct { cz_fp2 c0, c1, c2; } cz_fp6;      /* c0 + c1 v + c2 v^2 */
typedef struct { cz_fp6 c0, c1; } cz_fp12;         /* c0 + c1 w */

/* ---- Fp2 (fp2.c) ---- */
void cz_fp2_zero(cz_fp2 *out);
void cz_fp2_one(cz_fp2 *out);
int  cz_fp2_is_zero(const cz_fp2 *a);
int  cz_fp2_is_one(const cz_fp2 *a);
int  cz_fp2_eq(const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_add(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_sub(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_dbl(cz_fp2 *out, const cz_fp2 *a);
void cz_fp2_neg(cz_fp2 *out, const cz_fp2 *a);
void cz_fp2_conj(cz_fp2 *out, const cz_fp2 *a);
void cz_fp2_mul(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_sqr(cz_fp2 *out, const cz_fp2 *a);
void cz_fp2_mul_fp(cz_fp2 *out, const cz_fp2 *a, const cz_fp *b);
void cz_fp2_mul_by_xi(cz_fp2 *out, const cz_fp2 *a);      /* times (u + 1) */
void cz_fp2_inv(cz_fp2 *out, const cz_fp2 *a);             /* 1/0 = 0 */
void cz_fp2_pow(cz_fp2 *out, const cz_fp2 *a, const uint64_t *e, size_t nlimbs);
void cz_fp2_frobenius(cz_fp2 *out, const cz_fp2 *a, int power); /* a^(p^power) */
/* returns 1 and a root if a is a square in Fp2, else 0 */
int  cz_fp2_sqrt(cz_fp2 *out, const cz_fp2 *a);
int  cz_fp2_is_square(const cz_fp2 *a);
/* ZCash sign rule for Fp2: compare c1 first, c0 when c1 == 0 */
int  cz_fp2_is_lex_largest(const cz_fp2 *a);
void cz_fp2_random(cz_fp2 *out, cz_rng *rng);

/* ---- Fp6 (fp6.c) ---- */
void cz_fp6_zero(cz_fp6 *out);
void cz_fp6_one(cz_fp6 *out);
int  cz_fp6_is_zero(const cz_fp6 *a);
int  cz_fp6_eq(const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_add(cz_fp6 *out, const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_sub(cz_fp6 *out, const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_neg(cz_fp6 *out, const cz_fp6 *a);
void cz_fp6_mul(cz_fp6 *out, const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_sqr(cz_fp6 *out, const cz_fp6 *a);
void cz_fp6_mul_by_v(cz_fp6 *out, const cz_fp6 *a);
void cz_fp6_inv(cz_fp6 *out, const cz_fp6 *a);
void cz_fp6_frobenius(cz_fp6 *out, const cz_fp6 *a, int power);
void cz_fp6_random(cz_fp6 *out, cz_rng *rng);
int  cz_fp6_is_one(const cz_fp6 *a);
void cz_fp6_dbl(cz_fp6 *out, const cz_fp6 *a);
void cz_fp6_mul_by_fp2(cz_fp6 *out, const cz_fp6 *a, const cz_fp2 *b);
/* sparse products for the pairing: a (b0 + b1 v) and a (b1 v) */
void cz_fp6_mul_by_01(cz_fp6 *out, const cz_fp6 *a, const cz_fp2 *b0, const cz_fp2 *b1);
void cz_fp6_mul_by_1(cz_fp6 *out, const cz_fp6 *a, const cz_fp2 *b1);

/* ---- Fp12 (fp12.c) ---- */
void cz_fp12_zero(cz_fp12 *out);
void cz_fp12_one(cz_fp12 *out);
int  cz_fp12_is_one(const cz_fp12 *a);
int  cz_fp12_eq(const cz_fp12 *a, const cz_fp12 *b);
void cz_fp12_add(cz_fp12 *out, const cz_fp12 *a, const cz_fp12 *b);
void cz_fp12_sub(cz_fp12 *out, const cz_fp12 *a, const cz_fp12 *b);
void cz_fp12_mul(cz_fp12 *out, const cz_fp12 *a, const cz_fp12 *b);
void cz_fp12_sqr(cz_fp12 *out, const cz_fp12 *a);
void cz_fp12_conj(cz_fp12 *out, const cz_fp12 *a);   /* a^(p^6) */
void cz_fp12_inv(cz_fp12 *out, const cz_fp12 *a);
void cz_fp12_pow(cz_fp12 *out, const cz_fp12 *a, const uint64_t *e, size_t nlimbs);
void cz_fp12_frobenius(cz_fp12 *out, const cz_fp12 *a, int power);
void cz_fp12_random(cz_fp12 *out, cz_rng *rng);
int  cz_fp12_is_zero(const cz_fp12 *a);
/* a times the sparse line c0 + c1 w^2 + c4 w^3 (coefficients 0, 1, 4 of the
 * basis 1, v, v^2, w, vw, v^2w; the M-type twist line shape) */
void cz_fp12_mul_by_014(cz_fp12 *out, const cz_fp12 *a, const cz_fp2 *c0,
                        const cz_fp2 *c1, const cz_fp2 *c4);
/* Only for a in the cyclotomic subgroup (a^(p^4 - p^2 + 1) = 1; any
 * f^((p^6 - 1)(p^2 + 1)) is there); other inputs give wrong results:
 * Granger–Scott squaring, and a^x for the BLS12-381 parameter
 * x = -0xd201000000010000. */
void cz_fp12_cyclotomic_sqr(cz_fp12 *out, const cz_fp12 *a);
void cz_fp12_cyclotomic_exp_x(cz_fp12 *out, const cz_fp12 *a);

#endif
