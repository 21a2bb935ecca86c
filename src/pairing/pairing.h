/* pairing.h — the optimal ate pairing on BLS12-381.
 *
 * e(P, Q) = final_exp(miller_loop(P, Q)), P in G1, Q in G2 (affine). A
 * multi-pairing runs one Miller loop accumulation for all pairs and one shared
 * final exponentiation. Pairs with a point at infinity contribute 1.
 *
 * Convention: cz_final_exp(f) = f^(3 (p^12 - 1)/r), the cube of the textbook
 * reduced pairing (a cheaper addition chain; still bilinear and
 * non-degenerate since gcd(3, r) = 1). This is the value zkcrypto's
 * bls12_381 and @noble/curves give, so GT elements match theirs byte for
 * byte (e(G1, G2) is checked against @noble/curves in test_pairing).
 * Inputs are trusted to be on their curves and in their subgroups (the
 * decoders check); other inputs give meaningless values but no crash. */
#ifndef CZ_PAIRING_PAIRING_H
#define CZ_PAIRING_PAIRING_H

#include <stddef.h>
#include "ec/ec.h"
#include "ff/tower.h"

void cz_miller_loop(cz_fp12 *out, const cz_g1_aff *p, const cz_g2_aff *q);
/* product of the Miller loops of n pairs */
void cz_miller_loop_multi(cz_fp12 *out, const cz_g1_aff *p, const cz_g2_aff *q, size_t n);
void cz_final_exp(cz_fp12 *out, const cz_fp12 *f);
void cz_pairing(cz_fp12 *out, const cz_g1_aff *p, const cz_g2_aff *q);
void cz_multi_pairing(cz_fp12 *out, const cz_g1_aff *p, const cz_g2_aff *q, size_t n);
/* 1 when prod e(p[i], q[i]) == 1 */
int  cz_pairing_check(const cz_g1_aff *p, const cz_g2_aff *q, size_t n);
/* GT equality (elements of the cyclotomic subgroup compared as Fp12) */
int  cz_gt_eq(const cz_fp12 *a, const cz_fp12 *b);

#endif
