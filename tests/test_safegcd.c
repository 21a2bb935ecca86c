/* test_safegcd.c — the word-level divsteps of safegcd.c against a direct
 * simulation on GMP integers: for random odd f, random g (up to 400 bits,
 * both signs) and random starting delta, 62 divsteps done one by one on the
 * full numbers must give f', g' with 2^62 f' = u f + v g and 2^62 g' = q f + r g
 * for the matrix returned, the same final delta, |u|+|v| and |q|+|r| at most
 * 2^62, and the constant-time and variable-time versions must agree; for both
 * inc = 1 (divsteps) and inc = 2 (hddivsteps). */
#include <gmp.h>
#include <stdlib.h>
#include "testutil.h"
#include "ff/safegcd.h"
#include "util/rng.h"

int main(void)
{
    uint64_t seed = cz_test_seed("test_safegcd", 62);
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    gmp_randstate_t st;
    gmp_randinit_default(st);
    gmp_randseed_ui(st, (unsigned long)seed);
    mpz_t f, g, f0, g0, a, b;
    mpz_inits(f, g, f0, g0, a, b, NULL);
    for (int it = 0; it < 20000; it++) {
        int64_t inc = 1 + (it & 1);
        mpz_urandomb(f0, st, 1 + cz_rng_u64(&rng) % 400);
        mpz_setbit(f0, 0);
        mpz_urandomb(g0, st, cz_rng_u64(&rng) % 400);
        if (cz_rng_u64(&rng) & 1) mpz_neg(f0, f0);
        if (cz_rng_u64(&rng) & 1) mpz_neg(g0, g0);
        int64_t delta0 = (int64_t)(cz_rng_u64(&rng) % 201) - 100;
        if (inc == 2) delta0 |= 1; /* hddivsteps keep delta odd */
        if (it < 4) delta0 = 1;
        /* reference */
        mpz_set(f, f0);
        mpz_set(g, g0);
        int64_t delta = delta0;
        for (int i = 0; i < 62; i++) {
            if (mpz_odd_p(g) && delta > 0) {
                delta = inc - delta;
                mpz_sub(a, g, f); /* (g - f) / 2 */
                mpz_set(f, g);
                mpz_fdiv_q_2exp(g, a, 1);
            } else if (mpz_odd_p(g)) {
                delta = inc + delta;
                mpz_add(a, g, f);
                mpz_fdiv_q_2exp(g, a, 1);
            } else {
                delta = inc + delta;
                mpz_fdiv_q_2exp(g, g, 1);
            }
        }
        uint64_t fw = mpz_getlimbn(f0, 0), gw = mpz_getlimbn(g0, 0);
        if (mpz_sgn(f0) < 0) fw = (uint64_t)0 - fw; /* two's complement low word */
        if (mpz_sgn(g0) < 0) gw = (uint64_t)0 - gw;
        cz__sg_mat tc, tv;
        int64_t dc = cz__sg_divsteps_ct(delta0, inc, fw, gw, &tc);
        int64_t dv = cz__sg_divsteps_var(delta0, inc, fw, gw, &tv);
        CHECK(dc == delta && dv == delta);
        CHECK(tc.u == tv.u && tc.v == tv.v && tc.q == tv.q && tc.r == tv.r);
        CHECK(llabs(tc.u) + llabs(tc.v) <= ((int64_t)1 << 62));
        CHECK(llabs(tc.q) + llabs(tc.r) <= ((int64_t)1 << 62));
        /* 2^62 f' = u f0 + v g0, 2^62 g' = q f0 + r g0 */
        mpz_set_si(a, tc.u);
        mpz_mul(a, a, f0);
        mpz_set_si(b, tc.v);
        mpz_addmul(a, b, g0);
        mpz_mul_2exp(b, f, 62);
        CHECK_MSG(mpz_cmp(a, b) == 0, "f row, it %d", it);
        mpz_set_si(a, tc.q);
        mpz_mul(a, a, f0);
        mpz_set_si(b, tc.r);
        mpz_addmul(a, b, g0);
        mpz_mul_2exp(b, g, 62);
        CHECK_MSG(mpz_cmp(a, b) == 0, "g row, it %d", it);
    }
    mpz_clears(f, g, f0, g0, a, b, NULL);
    gmp_randclear(st);
    return cz_test_finish("test_safegcd");
}
