/* test_msm.c — MSM against the sum of single scalar multiplications
 * (double-and-add), for G1 and G2: random scalars, bit scalars, mixes with
 * zeros and ones, scalars near r, density-filtered bases, sizes that cross
 * window-width changes, serial and pooled. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "msm/msm.h"

#define DEFINE_NAIVE(G)                                                               \
    static void naive_##G(cz_##G##_jac *out, const cz_##G##_aff *b, const cz_fr *k,      \
                          size_t n, const uint64_t *density)                           \
    {                                                                                  \
        cz_##G##_set_inf(out);                                                         \
        size_t bi = 0;                                                                 \
        for (size_t i = 0; i < n; i++) {                                               \
            if (density && !((density[i / 64] >> (i % 64)) & 1)) continue;             \
            cz_##G##_jac p, q;                                                         \
            cz_##G##_from_aff(&p, &b[density ? bi++ : i]);                             \
            cz_fr plain;                                                               \
            cz_fr_from_mont(&plain, &k[i]);                                            \
            cz_##G##_mul_dbl_add(&q, &p, plain.l, 256);                                \
            cz_##G##_add(out, out, &q);                                                \
        }                                                                              \
    }
DEFINE_NAIVE(g1)
DEFINE_NAIVE(g2)

static void make_scalars(cz_fr *k, size_t n, int kind, cz_rng *rng)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = cz_rng_u64(rng);
        switch (kind) {
        case 0: cz_fr_random(&k[i], rng); break;                   /* random */
        case 1: cz_fr_from_u64(&k[i], r & 1); break;               /* bits */
        case 2:                                                    /* mix */
            if (r % 4 == 0) cz_fr_random(&k[i], rng);
            else if (r % 4 == 1) cz_fr_from_u64(&k[i], (r >> 8) % 5);
            else if (r % 4 == 2) { cz_fr_one(&k[i]); cz_fr_neg(&k[i], &k[i]); } /* r - 1 */
            else cz_fr_from_u64(&k[i], r & 1);
            break;
        }
    }
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_msm", 21));
    cz_pool *pool;
    CHECK(cz_pool_create(&pool, 3) == CZ_OK);

    size_t nmax = 300;
    cz_g1_aff *b1 = malloc(nmax * sizeof *b1);
    cz_g2_aff *b2 = malloc(nmax * sizeof *b2);
    cz_fr *k = malloc(nmax * sizeof *k);
    /* random bases: [random] G, plus a few duplicates, negations, infinity */
    cz_g1_jac g1, t1;
    cz_g2_jac g2, t2;
    cz_g1_generator_jac(&g1);
    cz_g2_generator_jac(&g2);
    for (size_t i = 0; i < nmax; i++) {
        uint64_t s[4] = {cz_rng_u64(&rng), cz_rng_u64(&rng), cz_rng_u64(&rng), cz_rng_u64(&rng) >> 2};
        cz_g1_mul(&t1, &g1, s, 256);
        cz_g1_to_aff(&b1[i], &t1);
        cz_g2_mul(&t2, &g2, s, 256);
        cz_g2_to_aff(&b2[i], &t2);
    }
    b1[3] = b1[2];
    cz_g1_aff_neg(&b1[4], &b1[2]);
    cz_g1_aff_set_inf(&b1[5]);
    b2[3] = b2[2];
    cz_g2_aff_neg(&b2[4], &b2[2]);
    cz_g2_aff_set_inf(&b2[5]);

    static const size_t sizes[] = {0, 1, 2, 7, 64, 300};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        for (int kind = 0; kind < 3; kind++) {
            make_scalars(k, n, kind, &rng);
            cz_g1_jac want, got;
            naive_g1(&want, b1, k, n, NULL);
            CHECK(cz_msm_g1(&got, b1, k, n, 1, NULL, pool) == CZ_OK);
            CHECK_MSG(cz_g1_eq(&got, &want), "g1 n=%zu kind=%d", n, kind);
            CHECK(cz_msm_g1(&got, b1, k, n, 1, NULL, NULL) == CZ_OK);
            CHECK_MSG(cz_g1_eq(&got, &want), "g1 serial n=%zu kind=%d", n, kind);
            /* plain-form scalars give the same */
            cz_fr *plain = malloc((n ? n : 1) * sizeof *plain);
            for (size_t i = 0; i < n; i++) cz_fr_from_mont(&plain[i], &k[i]);
            CHECK(cz_msm_g1(&got, b1, plain, n, 0, NULL, pool) == CZ_OK);
            CHECK(cz_g1_eq(&got, &want));
            free(plain);
            if (n <= 64) {
                cz_g2_jac w2, g2got;
                naive_g2(&w2, b2, k, n, NULL);
                CHECK(cz_msm_g2(&g2got, b2, k, n, 1, NULL, pool) == CZ_OK);
                CHECK_MSG(cz_g2_eq(&g2got, &w2), "g2 n=%zu kind=%d", n, kind);
            }
        }
    }
    /* density: 300 scalars, bases only for set bits */
    {
        size_t n = 300;
        uint64_t dens[5] = {0};
        size_t nb = 0;
        cz_g1_aff *db = malloc(n * sizeof *db);
        for (size_t i = 0; i < n; i++)
            if (cz_rng_u64(&rng) % 3) { dens[i / 64] |= (uint64_t)1 << (i % 64); db[nb] = b1[nb]; nb++; }
        make_scalars(k, n, 2, &rng);
        cz_g1_jac want, got;
        naive_g1(&want, db, k, n, dens);
        CHECK(cz_msm_g1(&got, db, k, n, 1, dens, pool) == CZ_OK);
        CHECK(cz_g1_eq(&got, &want));
        free(db);
    }
    /* window choice grows with n and stays in range */
    CHECK(cz_msm_window_bits(1) >= 1);
    CHECK(cz_msm_window_bits(1 << 20) > cz_msm_window_bits(1 << 10));
    CHECK(cz_msm_window_bits((size_t)1 << 27) <= 16);

    free(b1); free(b2); free(k);
    cz_pool_destroy(pool);
    return cz_test_finish("test_msm");
}
