/* fp.c — the BLS12-381 base field Fp, p = 0x1a0111ea…ffffaaab (381 bits),
 * instantiated from field_tmpl.h. */
#include "ff/ff.h"
#include "ff/ff_asm.h"

#define F cz_fp
#define NL CZ_FP_LIMBS
#define IFN(name) cz__fp_##name
#define NB CZ_FP_BYTES
#define MOD 0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL, \
            0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL
#define ONE 0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, \
            0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL
#define R2  0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL, \
            0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL
#define N0 0x89f3fffcfffcfffdULL
/* inversion (safegcd_tmpl.h): divsteps, 18 * 62 = 1116 >= 1100, the paper's
 * bound for f = p (2^380.7), g < p */
#define SN 7
#define INC 1
#define BATCHES 18
#define MINV62 0x360c000300030003ULL
#define R3  0xed48ac6bd94ca1e0ULL, 0x315f831e03a7adf8ULL, 0x9a53352a615e29ddULL, \
            0x34c04e5e921e1761ULL, 0x2512d43565724728ULL, 0x0aa6346091755d4dULL
#if CZ_HAVE_ADX_ASM
#define ASM_MUL cz__fp_mul_adx
#define ASM_SQR cz__fp_sqr_adx
#endif
#include "ff/field_tmpl.h"
