/* ec.h — the BLS12-381 groups G1 (over Fp, y^2 = x^3 + 4) and G2 (over Fp2,
 * y^2 = x^3 + 4(u + 1)).
 *
 * Forms: affine (x, y), with the point at infinity written as x = y = 0 (which
 * is not on either curve); Jacobian (X, Y, Z) = (X/Z^2, Y/Z^3), infinity when
 * Z = 0; XYZZ (X, Y, ZZ, ZZZ) = (X/ZZ, Y/ZZZ), ZZ^3 = ZZZ^2, infinity when
 * ZZ = 0. Output first; outputs may alias inputs.
 *
 * Scalars are given as little-endian 64-bit limbs of a plain integer (not
 * Montgomery), nbits significant bits. cz_g*_mul is a variable-time windowed
 * (wNAF) multiplication for public scalars; cz_g*_mul_ct is constant-time
 * (fixed window, table scanned in full) for secret scalars.
 *
 * Encodings follow ZCash/bellperson: big-endian coordinates (for G2, c1 before
 * c0), 48/96-byte compressed and 96/192-byte uncompressed; the top three bits
 * of the first byte are the flags compression (0x80), infinity (0x40) and sign
 * (0x20, y is lexicographically largest; compressed only).
 *
 * Subgroup tests (cz_g*_in_subgroup) use endomorphisms (subgroup.c); the
 * definition [r]P == O is kept as cz_g*_in_subgroup_slow. */
#ifndef CZ_EC_EC_H
#define CZ_EC_EC_H

#include <stddef.h>
#include <stdint.h>
#include "ff/ff.h"
#include "ff/tower.h"

typedef struct { cz_fp x, y; } cz_g1_aff;
typedef struct { cz_fp x, y, z; } cz_g1_jac;
typedef struct { cz_fp x, y, zz, zzz; } cz_g1_xyzz;

typedef struct { cz_fp2 x, y; } cz_g2_aff;
typedef struct { cz_fp2 x, y, z; } cz_g2_jac;
typedef struct { cz_fp2 x, y, zz, zzz; } cz_g2_xyzz;

#define CZ_G1_COMPRESSED 48
#define CZ_G1_UNCOMPRESSED 96
#define CZ_G2_COMPRESSED 96
#define CZ_G2_UNCOMPRESSED 192

/* The declarations are identical for both groups; G is g1 or g2. */
#define CZ__GROUP_DECLS(G)                                                       \
    void cz_##G##_generator(cz_##G##_aff *out);                                  \
    void cz_##G##_generator_jac(cz_##G##_jac *out);                              \
    /* affine */                                                                 \
    int  cz_##G##_aff_is_inf(const cz_##G##_aff *p);                             \
    void cz_##G##_aff_set_inf(cz_##G##_aff *p);                                  \
    int  cz_##G##_aff_eq(const cz_##G##_aff *a, const cz_##G##_aff *b);          \
    void cz_##G##_aff_neg(cz_##G##_aff *out, const cz_##G##_aff *p);             \
    int  cz_##G##_aff_on_curve(const cz_##G##_aff *p); /* infinity counts */     \
    int  cz_##G##_aff_in_subgroup(const cz_##G##_aff *p); /* assumes on curve */ \
    /* Jacobian */                                                               \
    void cz_##G##_set_inf(cz_##G##_jac *p);                                      \
    int  cz_##G##_is_inf(const cz_##G##_jac *p);                                 \
    void cz_##G##_from_aff(cz_##G##_jac *out, const cz_##G##_aff *p);            \
    void cz_##G##_to_aff(cz_##G##_aff *out, const cz_##G##_jac *p);              \
    /* n points, one inversion (out[i].x is the scratch); out, in disjoint */    \
    void cz_##G##_batch_to_aff(cz_##G##_aff *out, const cz_##G##_jac *in,        \
                               size_t n);                                        \
    int  cz_##G##_eq(const cz_##G##_jac *a, const cz_##G##_jac *b);              \
    void cz_##G##_neg(cz_##G##_jac *out, const cz_##G##_jac *p);                 \
    void cz_##G##_dbl(cz_##G##_jac *out, const cz_##G##_jac *p);                 \
    void cz_##G##_add(cz_##G##_jac *out, const cz_##G##_jac *a,                  \
                      const cz_##G##_jac *b);                                    \
    void cz_##G##_add_mixed(cz_##G##_jac *out, const cz_##G##_jac *a,            \
                            const cz_##G##_aff *b);                              \
    int  cz_##G##_on_curve(const cz_##G##_jac *p);                               \
    int  cz_##G##_in_subgroup(const cz_##G##_jac *p);                            \
    /* the definition [r]P == O, slower; for tests */                            \
    int  cz_##G##_in_subgroup_slow(const cz_##G##_jac *p);                       \
    /* XYZZ */                                                                   \
    void cz_##G##_xyzz_set_inf(cz_##G##_xyzz *p);                                \
    int  cz_##G##_xyzz_is_inf(const cz_##G##_xyzz *p);                           \
    void cz_##G##_xyzz_from_aff(cz_##G##_xyzz *out, const cz_##G##_aff *p);      \
    void cz_##G##_xyzz_to_jac(cz_##G##_jac *out, const cz_##G##_xyzz *p);        \
    void cz_##G##_xyzz_to_aff(cz_##G##_aff *out, const cz_##G##_xyzz *p);        \
    void cz_##G##_xyzz_dbl(cz_##G##_xyzz *out, const cz_##G##_xyzz *p);          \
    void cz_##G##_xyzz_add(cz_##G##_xyzz *out, const cz_##G##_xyzz *a,           \
                           const cz_##G##_xyzz *b);                              \
    void cz_##G##_xyzz_add_mixed(cz_##G##_xyzz *out, const cz_##G##_xyzz *a,     \
                                 const cz_##G##_aff *b);                         \
    /* out = a - b, same cost as the addition */                                 \
    void cz_##G##_xyzz_sub_mixed(cz_##G##_xyzz *out, const cz_##G##_xyzz *a,     \
                                 const cz_##G##_aff *b);                         \
    /* scalar multiplication */                                                  \
    void cz_##G##_mul(cz_##G##_jac *out, const cz_##G##_jac *p,                  \
                      const uint64_t *k, size_t nbits);                          \
    void cz_##G##_mul_ct(cz_##G##_jac *out, const cz_##G##_jac *p,               \
                         const uint64_t *k, size_t nbits);                       \
    /* reference double-and-add, for tests */                                    \
    void cz_##G##_mul_dbl_add(cz_##G##_jac *out, const cz_##G##_jac *p,          \
                              const uint64_t *k, size_t nbits);                  \
    void cz_##G##_mul_fr(cz_##G##_jac *out, const cz_##G##_jac *p,               \
                         const cz_fr *k); /* k in Montgomery form; uses mul_ct */

CZ__GROUP_DECLS(g1)
CZ__GROUP_DECLS(g2)

/* the G1 endomorphism sigma(x, y) = (beta x, y), beta a cube root of unity in
 * Fp; on G1 it is [-z] with z = x^2 = 0xac45a4010001a4020000000100000000
 * (r = z^2 - z + 1), so [k]P = [k mod z]P + [k div z] (-sigma(P)) splits a
 * 255-bit scalar into two of 128 bits (subgroup.c; the MSM uses it) */
void cz_g1_aff_sigma(cz_g1_aff *out, const cz_g1_aff *p);
/* the G2 endomorphism psi (untwist, Frobenius, twist) on affine points; on
 * G2 it is [x], x = -0xd201000000010000, so psi^2 is [z] and
 * [k]P = [k mod z]P + [k div z] psi^2(P) (the MSM uses it) */
void cz_g2_aff_psi(cz_g2_aff *out, const cz_g2_aff *p);
/* psi^2 = psi(psi(P)) = (omega x, -y), omega = N(cx) a cube root of unity in
 * Fp (N(cy) = -1): two Fp products where psi twice costs four Fp2 products */
void cz_g2_aff_psi2(cz_g2_aff *out, const cz_g2_aff *p);

/* ---- encodings (encode.c) ---- */
void cz_g1_compress(uint8_t out[CZ_G1_COMPRESSED], const cz_g1_aff *p);
void cz_g1_serialize(uint8_t out[CZ_G1_UNCOMPRESSED], const cz_g1_aff *p);
void cz_g2_compress(uint8_t out[CZ_G2_COMPRESSED], const cz_g2_aff *p);
void cz_g2_serialize(uint8_t out[CZ_G2_UNCOMPRESSED], const cz_g2_aff *p);

/* Decode either form, told apart by len (48/96 for G1, 96/192 for G2) and the
 * compression flag, which must agree with len. Returns CZ_ERR_LENGTH,
 * CZ_ERR_FLAGS, CZ_ERR_NONCANONICAL, CZ_ERR_NO_SQRT (compressed x with no y),
 * CZ_ERR_NOT_ON_CURVE or CZ_ERR_NOT_IN_SUBGROUP. check_subgroup = 0 skips the
 * subgroup check (for trusted bulk data). The accepted set is zkcrypto
 * bls12_381's; @noble/curves differs only in reducing coordinates >= p
 * modulo p where we (and zkcrypto) reject them. */
cz_err cz_g1_decode(cz_g1_aff *out, const uint8_t *in, size_t len, int check_subgroup);
cz_err cz_g2_decode(cz_g2_aff *out, const uint8_t *in, size_t len, int check_subgroup);

#endif
