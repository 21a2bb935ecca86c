/* ff.h — the BLS12-381 prime fields: Fp (381-bit base field) and Fr (255-bit
 * scalar field).
 *
 * Elements are kept in Montgomery form (x·2^384 mod p, x·2^256 mod r) in
 * 64-bit little-endian limbs, always fully reduced (< modulus). Every function
 * writes its output through the first argument; outputs may alias inputs.
 * Both fields are generated from one template (field_tmpl.h); multiplication
 * picks an x86-64 MULX/ADX path at run time where the CPU has it, and a
 * portable unsigned __int128 path otherwise. The hot operations (add, sub,
 * dbl, neg, mul, sqr, eq, is_zero) are inline functions (ff_inline.h), so
 * calls from other files cost no more than a call to the multiplier. */
#ifndef CZ_FF_FF_H
#define CZ_FF_FF_H

#include <stddef.h>
#include <stdint.h>
#include "util/err.h"
#include "util/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_FP_LIMBS 6
#define CZ_FR_LIMBS 4
#define CZ_FP_BYTES 48
#define CZ_FR_BYTES 32

typedef struct { uint64_t l[CZ_FP_LIMBS]; } cz_fp;
typedef struct { uint64_t l[CZ_FR_LIMBS]; } cz_fr;

/* The declarations are identical for both fields; F is cz_fp or cz_fr. */
#define CZ__FIELD_DECLS(F, NL, NB)                                              \
    extern const F F##_modulus;   /* the modulus, plain (not Montgomery) */     \
    extern const F F##_one_mont;  /* 1 in Montgomery form */                    \
    extern const F F##_r2;        /* 2^(128*NL) mod modulus */                  \
    void F##_zero(F *out);                                                      \
    void F##_one(F *out);                                                       \
    int  F##_is_one(const F *a);                                                \
    void F##_mul_portable(F *out, const F *a, const F *b);                      \
    void F##_sqr_portable(F *out, const F *a);                                  \
    void F##_half(F *out, const F *a);                                          \
    /* a^e, e given as nlimbs little-endian 64-bit limbs (plain integer) */     \
    void F##_pow(F *out, const F *a, const uint64_t *e, size_t nlimbs);         \
    /* 1/a; the inverse of 0 is 0. _inv takes time that depends on a (use it    \
       on public values); _inv_ct takes the same time for every a. Both are     \
       Bernstein-Yang safegcd. */                                               \
    void F##_inv(F *out, const F *a);                                           \
    void F##_inv_ct(F *out, const F *a);                                        \
    /* Legendre symbol: 1 square, -1 non-square, 0 for zero */                  \
    int  F##_legendre(const F *a);                                              \
    /* returns 1 and sets out to a square root if a is a square, else 0 */      \
    int  F##_sqrt(F *out, const F *a);                                          \
    /* out[i] = 1/in[i] (0 stays 0); one (variable-time) inversion for all.     \
       out may == in. scratch must hold n elements. */                          \
    void F##_batch_inv(F *out, const F *in, size_t n, F *scratch);              \
    void F##_from_u64(F *out, uint64_t v);                                      \
    /* Montgomery <-> plain integer limbs (plain is < modulus) */               \
    void F##_to_mont(F *out, const F *plain);                                   \
    void F##_from_mont(F *plain, const F *a);                                   \
    /* canonical NB-byte encodings; decoding rejects values >= modulus */       \
    void F##_to_bytes_be(uint8_t out[NB], const F *a);                          \
    void F##_to_bytes_le(uint8_t out[NB], const F *a);                          \
    cz_err F##_from_bytes_be(F *out, const uint8_t in[NB]);                     \
    cz_err F##_from_bytes_le(F *out, const uint8_t in[NB]);                     \
    /* uniform random element */                                                \
    void F##_random(F *out, cz_rng *rng);                                       \
    /* is the plain value of a (as integer) > (modulus-1)/2 ("lexicographically \
       largest", the ZCash sign convention) */                                  \
    int  F##_is_lex_largest(const F *a);

CZ__FIELD_DECLS(cz_fp, CZ_FP_LIMBS, CZ_FP_BYTES)
CZ__FIELD_DECLS(cz_fr, CZ_FR_LIMBS, CZ_FR_BYTES)

/* Defined inline in ff_inline.h, for both fields (F = cz_fp, cz_fr):
 *   int  F_is_zero(const F *a);
 *   int  F_eq(const F *a, const F *b);
 *   void F_add(F *out, const F *a, const F *b);
 *   void F_sub(F *out, const F *a, const F *b);
 *   void F_dbl(F *out, const F *a);
 *   void F_neg(F *out, const F *a);
 *   void F_mul(F *out, const F *a, const F *b);
 *   void F_sqr(F *out, const F *a); */
#include "ff/ff_inline.h"

#ifdef __cplusplus
}
#endif

#endif
