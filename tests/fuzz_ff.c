/* fuzz_ff.c — the field layer under ASan/UBSan (built against the sanitized
 * library at -O1): the field laws of ff_laws_field.inc on both
 * multiplication paths, the three inversions (safegcd variable time, safegcd
 * constant time, Fermat) agreeing, the inline add/sub/neg agreeing with their
 * portable twins, and decoding of arbitrary bytes (accepted exactly when the
 * re-encoding gives the same bytes). */
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

#define FUZZ_FIELD(F, IFN, NB)                                                  \
    for (int it = 0; it < 400; it++) {                                         \
        F a, b, c, d;                                                          \
        F##_random(&a, &rng);                                                  \
        F##_random(&b, &rng);                                                  \
        if (it == 0) F##_zero(&a);                                             \
        F##_inv(&c, &a);                                                       \
        F##_inv_ct(&d, &a);                                                    \
        CHECK(F##_eq(&c, &d));                                                 \
        IFN##_inv_fermat(&d, &a);                                              \
        CHECK(F##_eq(&c, &d));                                                 \
        F##_add(&c, &a, &b); IFN##_add_c(&d, &a, &b); CHECK(F##_eq(&c, &d));  \
        F##_sub(&c, &a, &b); IFN##_sub_c(&d, &a, &b); CHECK(F##_eq(&c, &d));  \
        F##_neg(&c, &a); IFN##_neg_c(&d, &a); CHECK(F##_eq(&c, &d));          \
        uint8_t buf[NB], back[NB];                                             \
        cz_rng_bytes(&rng, buf, NB);                                           \
        if (it & 1) buf[0] &= 0x1f; /* big-endian: mostly below the modulus */ \
        if (F##_from_bytes_be(&c, buf) == CZ_OK) {                             \
            F##_to_bytes_be(back, &c);                                         \
            CHECK(memcmp(buf, back, NB) == 0);                                 \
        }                                                                      \
        if (F##_from_bytes_le(&c, buf) == CZ_OK) {                             \
            F##_to_bytes_le(back, &c);                                         \
            CHECK(memcmp(buf, back, NB) == 0);                                 \
        }                                                                      \
    }

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("fuzz_ff", 0xf00d));
    for (int portable = 0; portable < 2; portable++) {
        cz_cpu_force_portable(portable);
        l_cz_fp_laws(&rng, 300);
        l_cz_fr_laws(&rng, 300);
        FUZZ_FIELD(cz_fp, cz__fp, CZ_FP_BYTES)
        FUZZ_FIELD(cz_fr, cz__fr, CZ_FR_BYTES)
    }
    cz_cpu_force_portable(0);
    return cz_test_finish("fuzz_ff");
}
