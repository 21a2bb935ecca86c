/* test_ff_laws.c — field laws on random elements of Fp and Fr (commutativity,
 * associativity, identities, distributivity, inverses, exponent laws, Fermat,
 * round trips), on both the MULX/ADX and the portable multiplication. */
#include <string.h>
#include "testutil.h"
#include "ff/ff.h"
#include "util/cpu.h"

#define F cz_fp
#define NL CZ_FP_LIMBS
#include "ff_laws_field.inc"
#undef F
#undef NL

#define F cz_fr
#define NL CZ_FR_LIMBS
#include "ff_laws_field.inc"
#undef F
#undef NL

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_ff_laws", 0x1a3));
    for (int portable = 0; portable < 2; portable++) {
        cz_cpu_force_portable(portable);
        l_cz_fp_laws(&rng, 3000);
        l_cz_fr_laws(&rng, 3000);
    }
    cz_cpu_force_portable(0);
    return cz_test_finish("test_ff_laws");
}
