/* ff_asm.h — internal: the x86-64 MULX/ADX Montgomery routines (ff_x86_adx.c).
 * Callers must check cz_cpu_has_adx() first. Limbs little-endian, Montgomery
 * form in and out, fully reduced. */
#ifndef CZ_FF_ASM_H
#define CZ_FF_ASM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(CUZK_NO_ASM)
#define CZ_HAVE_ADX_ASM 1
#else
#define CZ_HAVE_ADX_ASM 0
#endif

#if CZ_HAVE_ADX_ASM
void cz__fp_mul_adx(uint64_t out[6], const uint64_t a[6], const uint64_t b[6]);
void cz__fp_sqr_adx(uint64_t out[6], const uint64_t a[6]);
void cz__fr_mul_adx(uint64_t out[4], const uint64_t a[4], const uint64_t b[4]);
void cz__fr_sqr_adx(uint64_t out[4], const uint64_t a[4]);
#endif

#ifdef __cplusplus
}
#endif

#endif
