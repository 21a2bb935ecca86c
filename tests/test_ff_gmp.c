/* test_ff_gmp.c — Fp and Fr against GMP: add, sub, neg, dbl, mul, sqr, half,
 * inv and inv_ct (and the Fermat reference), pow, Legendre, sqrt, batch
 * inversion (with zeros), Montgomery conversions, byte encodings (with
 * rejection of values >= modulus) and from_u64, on edge values and random
 * values, once on the MULX/ADX path and once on the portable path; the
 * inline-assembly add/sub/neg are also compared with their portable C twins
 * (cz__fp_add_c and friends). The moduli come from the BLS12-381
 * specification (not from the library); see ff_gmp_field.inc for how results
 * are compared. */
#include <gmp.h>
#include <string.h>
#include "testutil.h"
#include "ff/ff.h"
#include "util/cpu.h"

#define F cz_fp
#define IFN(x) cz__fp_##x
#define NL CZ_FP_LIMBS
#define NB CZ_FP_BYTES
#define MOD_HEX "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab"
#include "ff_gmp_field.inc"
#undef F
#undef IFN
#undef NL
#undef NB
#undef MOD_HEX

#define F cz_fr
#define IFN(x) cz__fr_##x
#define NL CZ_FR_LIMBS
#define NB CZ_FR_BYTES
#define MOD_HEX "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
#include "ff_gmp_field.inc"
#undef F
#undef IFN
#undef NL
#undef NB
#undef MOD_HEX

int main(void)
{
    uint64_t seed = cz_test_seed("test_ff_gmp", 0x5eed);
    gmp_randstate_t st;
    gmp_randinit_default(st);
    gmp_randseed_ui(st, (unsigned long)seed);
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    t_cz_fp_setup();
    t_cz_fr_setup();
    int has_adx = cz_cpu_has_adx();
    printf("test_ff_gmp: MULX/ADX path %s\n", has_adx ? "available" : "NOT available (portable twice)");
    for (int portable = 0; portable < 2; portable++) {
        cz_cpu_force_portable(portable);
        CHECK(cz_cpu_has_adx() == (portable ? 0 : has_adx));
        long before = cz_test_failed;
        t_cz_fp_run(st, &rng, 20000, 400);
        t_cz_fr_run(st, &rng, 20000, 400);
        printf("test_ff_gmp: %s path done, %ld failures\n", portable ? "portable" : "default",
               cz_test_failed - before);
    }
    cz_cpu_force_portable(0);
    gmp_randclear(st);
    return cz_test_finish("test_ff_gmp");
}
