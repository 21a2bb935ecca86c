/* fr.c — the BLS12-381 scalar field Fr, r = 0x73eda753…00000001 (255 bits),
 * instantiated from field_tmpl.h. */
#include "ff/ff.h"
#include "ff/ff_asm.h"

#define F cz_fr
#define NL CZ_FR_LIMBS
#define IFN(name) cz__fr_##name
#define NB CZ_FR_BYTES
#define MOD 0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, \
            0x73eda753299d7d48ULL
#define ONE 0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL, \
            0x1824b159acc5056fULL
#define R2  0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL, \
            0x0748d9d99f59ff11ULL
#define N0 0xfffffffeffffffffULL
/* inversion (safegcd_tmpl.h): hddivsteps, 10 * 62 = 620 >= 590, the
 * Coq-proven bound for moduli below 2^256 */
#define SN 5
#define INC 2
#define BATCHES 10
#define MINV62 0x100000001ULL
#define R3  0xc62c1807439b73afULL, 0x1b3e0d188cf06990ULL, 0x73d13c71c7b5f418ULL, \
            0x6e2a5bb9c8db33e9ULL
#if CZ_HAVE_ADX_ASM
#define ASM_MUL cz__fr_mul_adx
#define ASM_SQR cz__fr_sqr_adx
#endif
#include "ff/field_tmpl.h"
