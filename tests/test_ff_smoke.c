/* test_ff_smoke.c — quick sanity of Fp/Fr/Fp2 against values computed
 * independently (Python big integers): 2^200 mod m squared, and inverses. */
#include <string.h>
#include "testutil.h"
#include "ff/ff.h"
#include "ff/tower.h"

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_ff_smoke", 1));
    for (int i = 0; i < 1000; i++) {
        cz_fp a, b, c, d;
        cz_fp_random(&a, &rng);
        cz_fp_random(&b, &rng);
        cz_fp_mul(&c, &a, &b);
        cz_fp_mul_portable(&d, &a, &b);
        CHECK(cz_fp_eq(&c, &d));
        cz_fp_inv(&d, &a);
        cz_fp_mul(&d, &d, &a);
        CHECK(cz_fp_is_one(&d));
        cz_fp_sqr(&c, &a);
        CHECK(cz_fp_sqrt(&d, &c));
        cz_fp_sqr(&d, &d);
        CHECK(cz_fp_eq(&d, &c));
        cz_fr x, y;
        cz_fr_random(&x, &rng);
        cz_fr_sqr(&x, &x);
        CHECK(cz_fr_sqrt(&y, &x));
        cz_fr_sqr(&y, &y);
        CHECK(cz_fr_eq(&x, &y));
        cz_fp2 u, v, w;
        cz_fp2_random(&u, &rng);
        cz_fp2_sqr(&v, &u);
        CHECK(cz_fp2_sqrt(&w, &v));
        cz_fp2_sqr(&w, &w);
        CHECK(cz_fp2_eq(&w, &v));
    }
    /* 7 * 7^-1 via bytes: 7^-1 mod p computed in Python */
    uint8_t be[48];
    cz_fp seven, inv;
    cz_fp_from_u64(&seven, 7);
    cz_fp_inv(&inv, &seven);
    cz_fp_to_bytes_be(be, &inv);
    static const uint8_t want[48] = {
#include "smoke_inv7.inc"
    };
    CHECK(memcmp(be, want, 48) == 0);
    return cz_test_finish("test_ff_smoke");
}
