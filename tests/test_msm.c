/* test_msm.c — MSM against the sum of single scalar multiplications
 * (double-and-add), for G1 and G2: random scalars, bit scalars, mixes with
 * zeros and ones, scalars near r, density-filtered bases, sizes that cross
 * window-width changes, serial and pooled.
 *
 * Larger MSMs (G1 n = 5000, G2 n = 1500) run every window width and both
 * bucket strategies (XYZZ, batch-affine) through cz__msm_config, against a
 * closed form: each base is a_i P + e_i Q with a_i in {0, 1, -1}, so the MSM
 * is (sum k_i a_i) P + (sum k_i e_i) Q. Duplicated and negated bases share
 * the scalar of their original, so batch-affine buckets meet P + P and
 * P + (-P); small batches (narrow windows) make the conflict queue work.
 * All-ones MSMs (20000 / 3000 points) cover the pairwise batch-affine sums.
 * G1 and G2 run batch flushes and pair sums with eight products at a time
 * (cz_fp_chord_x8 / cz_fp_inv_x8; cz_fp2_chord_x8 / cz_fp2_inv_x8) forced
 * on and off too, on the same inputs (copies, negations and infinity among the bases). G1 and G2 run with the endomorphism split forced on and off; the split is
 * checked against GMP (k = k0 + k1 z, both below z), the endomorphisms
 * against [-z]P (sigma, G1) and [x]P (psi, G2), psi^2 against psi twice. Sums of several
 * terms (cz_msm_g*_sum) are checked against the separate MSMs. The scan
 * that sorts the scalars works in chunks over the pool; a density-filtered
 * term of several chunks, summed with a plain one, is checked against the
 * same MSM on the filtered arrays. */
#include <gmp.h>
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

/* bases a_i P + e_i Q: mostly P + i Q (made by additions), every 7th a copy
 * of an earlier one, every 11th a negated earlier one, every 97th infinity;
 * k_i random except copies and negations share their original's scalar
 * (kind 1: scalars from a set of 3 values, so many digits coincide; kind 2:
 * every scalar 1 and copies/negations of the point just before, so the
 * pairwise sums of the ones path meet P + P and P + (-P)) */
#define DEFINE_BIG(G)                                                                  \
    static int big_##G(size_t n, int kind, cz_rng *rng, const int *cfg, size_t ncfg,      \
                       cz_pool *pool)                                                   \
    {                                                                                   \
        cz_##G##_aff *b = malloc(n * sizeof *b);                                        \
        cz_##G##_jac *j = malloc(n * sizeof *j);                                        \
        cz_fr *k = malloc(n * sizeof *k), *e = malloc(n * sizeof *e), set[3];            \
        int *a = malloc(n * sizeof *a), fails = 0;                                      \
        cz_##G##_jac g, p, q, t;                                                        \
        cz_##G##_aff qa;                                                                \
        uint64_t s1[4] = {cz_rng_u64(rng), cz_rng_u64(rng), cz_rng_u64(rng), 7};         \
        uint64_t s2[4] = {cz_rng_u64(rng), cz_rng_u64(rng), cz_rng_u64(rng), 9};         \
        cz_##G##_generator_jac(&g);                                                     \
        cz_##G##_mul(&p, &g, s1, 256);                                                  \
        cz_##G##_mul(&q, &g, s2, 256);                                                  \
        cz_##G##_to_aff(&qa, &q);                                                       \
        for (int i = 0; i < 3; i++) cz_fr_random(&set[i], rng);                         \
        t = p;                                                                          \
        for (size_t i = 0; i < n; i++) {                                                \
            size_t src = i ? cz_rng_u64(rng) % i : 0;                                   \
            cz_fr_random(&k[i], rng);                                                   \
            if (kind == 1) k[i] = set[cz_rng_u64(rng) % 3];                             \
            if (kind == 2) { src = i ? i - 1 : 0; cz_fr_one(&k[i]); }                    \
            if (i % 97 == 96) { cz_##G##_set_inf(&j[i]); a[i] = 0; cz_fr_zero(&e[i]); } \
            else if (i % 7 == 6) { j[i] = j[src]; a[i] = a[src]; e[i] = e[src]; k[i] = k[src]; } \
            else if (i % 11 == 10) {                                                    \
                cz_##G##_neg(&j[i], &j[src]);                                           \
                a[i] = -a[src];                                                         \
                cz_fr_neg(&e[i], &e[src]);                                              \
                k[i] = k[src];                                                          \
            } else {                                                                    \
                j[i] = t;                                                               \
                a[i] = 1;                                                               \
                cz_fr_from_u64(&e[i], i);                                               \
            }                                                                           \
            cz_##G##_add_mixed(&t, &t, &qa); /* P + (i + 1) Q */                        \
        }                                                                               \
        cz_##G##_batch_to_aff(b, j, n);                                                 \
        cz_fr sa, se, u;                                                                \
        cz_fr_zero(&sa);                                                                \
        cz_fr_zero(&se);                                                                \
        for (size_t i = 0; i < n; i++) {                                                \
            if (a[i] > 0) cz_fr_add(&sa, &sa, &k[i]);                                   \
            if (a[i] < 0) cz_fr_sub(&sa, &sa, &k[i]);                                   \
            cz_fr_mul(&u, &k[i], &e[i]);                                                \
            cz_fr_add(&se, &se, &u);                                                    \
        }                                                                               \
        cz_fr_from_mont(&sa, &sa);                                                      \
        cz_fr_from_mont(&se, &se);                                                      \
        cz_##G##_jac want, w2, got;                                                     \
        cz_##G##_mul(&want, &p, sa.l, 256);                                             \
        cz_##G##_mul(&w2, &q, se.l, 256);                                               \
        cz_##G##_add(&want, &want, &w2);                                                \
        for (size_t c = 0; c < ncfg; c++) {                                             \
            cz__msm_config(cfg[2 * c], cfg[2 * c + 1]);                                 \
            cz_err err = cz_msm_##G(&got, b, k, n, 1, NULL, c & 1 ? NULL : pool);        \
            if (err != CZ_OK || !cz_##G##_eq(&got, &want)) {                            \
                fails++;                                                                \
                fprintf(stderr, #G " n=%zu kind=%d window=%d strategy=%d wrong\n", n,   \
                        kind, cfg[2 * c], cfg[2 * c + 1]);                              \
            }                                                                           \
        }                                                                               \
        cz__msm_config(0, 0);                                                           \
        free(b); free(j); free(k); free(e); free(a);                                    \
        return fails;                                                                   \
    }
DEFINE_BIG(g1)
DEFINE_BIG(g2)

/* cz__msm_glv_split against GMP on random and edge scalars */
static int check_split(cz_rng *rng)
{
    int fails = 0;
    mpz_t k, z, r, k0, k1, t;
    mpz_inits(k, z, r, k0, k1, t, NULL);
    mpz_set_str(z, "ac45a4010001a4020000000100000000", 16);
    mpz_import(r, 4, -1, 8, 0, 0, cz_fr_modulus.l);
    for (int i = 0; i < 20000; i++) {
        switch (i) {
        case 0: mpz_set_ui(k, 0); break;
        case 1: mpz_set_ui(k, 1); break;
        case 2: mpz_sub_ui(k, z, 1); break;
        case 3: mpz_set(k, z); break;
        case 4: mpz_sub_ui(k, r, 1); break;
        case 5: mpz_mul(k, z, z); mpz_sub_ui(k, k, 1); mpz_mod(k, k, r); break;
        case 6: mpz_sub(k, r, z); break; /* (z - 1) z */
        case 7: mpz_sub(k, r, z); mpz_sub_ui(k, k, 1); break;
        default: {
            uint64_t l[4] = {cz_rng_u64(rng), cz_rng_u64(rng), cz_rng_u64(rng), cz_rng_u64(rng)};
            mpz_import(k, 4, -1, 8, 0, 0, l);
            if (i % 3 == 0) mpz_fdiv_q_2exp(k, k, (unsigned)(cz_rng_u64(rng) % 256)); /* all lengths */
            mpz_mod(k, k, r);
        }
        }
        uint64_t kl[4] = {0}, a[2], b[2];
        mpz_export(kl, NULL, -1, 8, 0, 0, k);
        cz__msm_glv_split(a, b, kl);
        mpz_import(k0, 2, -1, 8, 0, 0, a);
        mpz_import(k1, 2, -1, 8, 0, 0, b);
        mpz_mul(t, k1, z);
        mpz_add(t, t, k0);
        if (mpz_cmp(t, k) || mpz_cmp(k0, z) >= 0 || mpz_cmp(k1, z) >= 0) {
            if (fails++ < 5) gmp_fprintf(stderr, "split of %Zx wrong: %Zx + %Zx z\n", k, k0, k1);
        }
    }
    mpz_clears(k, z, r, k0, k1, t, NULL);
    return fails;
}

/* psi(P) = [x] P on G2, x = -0xd201000000010000 */
static int check_psi(cz_rng *rng)
{
    cz_g2_jac g, p, want, got;
    cz_g2_aff pa, sa;
    cz_g2_generator_jac(&g);
    uint64_t s[4] = {cz_rng_u64(rng), cz_rng_u64(rng), cz_rng_u64(rng), 5};
    cz_g2_mul(&p, &g, s, 256);
    cz_g2_to_aff(&pa, &p);
    cz_g2_aff_psi(&sa, &pa);
    static const uint64_t u[1] = {0xd201000000010000ULL};
    cz_g2_mul_dbl_add(&want, &p, u, 64);
    cz_g2_neg(&want, &want);
    cz_g2_from_aff(&got, &sa);
    if (!cz_g2_eq(&got, &want)) return 1;
    /* psi^2 (x, y) = (omega x, -y) against psi twice, and on infinity (0, 0) */
    cz_g2_aff s2, t2;
    cz_g2_aff_psi(&t2, &sa);
    cz_g2_aff_psi2(&s2, &pa);
    if (memcmp(&s2, &t2, sizeof s2)) return 1;
    cz_g2_aff_set_inf(&pa);
    cz_g2_aff_psi2(&s2, &pa);
    return !cz_g2_aff_is_inf(&s2);
}

/* the endomorphism: sigma(P) = [-z] P on G1 */
static int check_sigma(cz_rng *rng)
{
    cz_g1_jac g, p, want;
    cz_g1_aff pa, sa;
    cz_g1_generator_jac(&g);
    uint64_t s[4] = {cz_rng_u64(rng), cz_rng_u64(rng), cz_rng_u64(rng), 5};
    cz_g1_mul(&p, &g, s, 256);
    cz_g1_to_aff(&pa, &p);
    cz_g1_aff_sigma(&sa, &pa);
    static const uint64_t z[2] = {0x0000000100000000ULL, 0xac45a4010001a402ULL};
    cz_g1_mul_dbl_add(&want, &p, z, 128);
    cz_g1_neg(&want, &want);
    cz_g1_jac got;
    cz_g1_from_aff(&got, &sa);
    return !cz_g1_eq(&got, &want);
}

/* cz_msm_g1_sum / g2_sum over three terms (one density-filtered) against
 * the separate MSMs added up */
static int check_sums(const cz_g1_aff *b1, const cz_g2_aff *b2, cz_fr *k, size_t n, cz_rng *rng, cz_pool *pool)
{
    int fails = 0;
    uint64_t dens[4] = {0};
    size_t n1 = n / 3, n2 = n / 4, n3 = 256; /* n >= 263: the third term's bases start at 7 */
    for (size_t i = 0; i < n3; i++)
        if (cz_rng_u64(rng) % 2) dens[i / 64] |= (uint64_t)1 << (i % 64);
    cz_msm_g1_term t1[3] = {{b1, k, n1, NULL}, {b1 + n1, k + n1, n2, NULL}, {b1 + 7, k + 3, n3, dens}};
    cz_msm_g2_term t2[3] = {{b2, k, n1, NULL}, {b2 + n1, k + n1, n2, NULL}, {b2 + 7, k + 3, n3, dens}};
    cz_g1_jac got1, want1, part1;
    cz_g2_jac got2, want2, part2;
    cz_g1_set_inf(&want1);
    cz_g2_set_inf(&want2);
    for (int t = 0; t < 3; t++) {
        if (cz_msm_g1(&part1, t1[t].bases, t1[t].scalars, t1[t].n, 1, t1[t].density, pool)) fails++;
        cz_g1_add(&want1, &want1, &part1);
        if (cz_msm_g2(&part2, t2[t].bases, t2[t].scalars, t2[t].n, 1, t2[t].density, pool)) fails++;
        cz_g2_add(&want2, &want2, &part2);
    }
    if (cz_msm_g1_sum(&got1, t1, 3, 1, pool) || !cz_g1_eq(&got1, &want1)) fails++;
    if (cz_msm_g2_sum(&got2, t2, 3, 1, pool) || !cz_g2_eq(&got2, &want2)) fails++;
    if (cz_msm_g1_sum(&got1, t1, 0, 1, pool) || !cz_g1_is_inf(&got1)) fails++;
    return fails;
}

/* check_scan: a density term of nd entries (about half of them with a base)
 * plus a plain term, against one MSM over the bases and scalars the density
 * selects followed by the plain term's. Bases P_i = P_0 + i Q. */
static int check_scan(cz_rng *rng, cz_pool *pool)
{
    const size_t nd = 3 * 8192 + 77, np = 9000;
    size_t words = (nd + 63) / 64, nb = 0;
    uint64_t *dens = calloc(words, sizeof *dens);
    cz_fr *k = malloc((nd + np) * sizeof *k), *kf = malloc((nd + np) * sizeof *kf);
    cz_g1_jac *j = malloc((nd + np) * sizeof *j);
    cz_g1_aff *b = malloc((nd + np) * sizeof *b), *bf = malloc((nd + np) * sizeof *bf);
    int fails = 0;
    if (!dens || !k || !kf || !j || !b || !bf) { fails = 1; goto out; }
    for (size_t i = 0; i < nd; i++)
        if (cz_rng_u64(rng) % 2) dens[i / 64] |= (uint64_t)1 << (i % 64);
    size_t ndb = 0;
    for (size_t w = 0; w < words; w++) ndb += (size_t)__builtin_popcountll(dens[w]);
    cz_g1_jac q;
    cz_g1_aff qa;
    cz_g1_generator_jac(&j[0]);
    cz_g1_dbl(&q, &j[0]);
    cz_g1_to_aff(&qa, &q);
    for (size_t i = 1; i < ndb + np; i++) cz_g1_add_mixed(&j[i], &j[i - 1], &qa);
    cz_g1_batch_to_aff(b, j, ndb + np);
    make_scalars(k, nd + np, 2, rng);
    for (size_t i = 0, bi = 0; i < nd; i++)
        if ((dens[i / 64] >> (i % 64)) & 1) {
            bf[nb] = b[bi++];
            kf[nb++] = k[i];
        }
    for (size_t i = 0; i < np; i++) {
        bf[nb] = b[ndb + i];
        kf[nb++] = k[nd + i];
    }
    cz_msm_g1_term t[2] = {{b, k, nd, dens}, {b + ndb, k + nd, np, NULL}};
    cz_g1_jac got, want;
    if (cz_msm_g1_sum(&got, t, 2, 1, pool) || cz_msm_g1(&want, bf, kf, nb, 1, NULL, pool) ||
        !cz_g1_eq(&got, &want))
        fails++;
out:
    free(dens); free(k); free(kf); free(j); free(b); free(bf);
    return fails;
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
    /* every window width and both strategies, against the closed form */
    {
        /* strategy | 8: endomorphism split forced on, | 16: off; | 32: batch
         * flushes with eight products off, | 64: on (scalar fallback where the
         * CPU lacks IFMA) */
        static const int cfg1[] = {0, 0, 0, 8, 2, 1 | 8, 3, 2 | 16, 5, 1 | 8, 6, 2, 8, 2 | 8, 9, 1, 11, 2 | 8,
                                   11, 2 | 16, 12, 1 | 16, 12, 2 | 8, 13, 2 | 8, 14, 2 | 16, 16, 2 | 8, 16, 2 | 16,
                                   6, 2 | 64, 12, 2 | 8 | 32, 12, 2 | 8 | 64, 13, 2 | 16 | 64, 16, 2 | 16 | 32};
        static const int cfg2[] = {0, 0, 0, 8, 4, 2 | 8, 7, 1 | 16, 10, 2 | 8, 12, 2 | 16, 12, 2 | 8, 13, 1 | 8,
                                   5, 2 | 64, 6, 2 | 8 | 32, 12, 2 | 8 | 32, 12, 2 | 16 | 64, 13, 2 | 16 | 32,
                                   14, 2 | 8 | 64};
        /* the ones path (pairwise sums) with eight products off and forced on */
        static const int cfg_ones[] = {0, 32, 0, 32, 0, 64, 0, 64};
        for (int kind = 0; kind < 2; kind++) {
            CHECK(big_g1(5000, kind, &rng, cfg1, sizeof cfg1 / sizeof *cfg1 / 2, pool) == 0);
            CHECK(big_g2(1500, kind, &rng, cfg2, sizeof cfg2 / sizeof *cfg2 / 2, pool) == 0);
        }
        CHECK(big_g1(20000, 2, &rng, cfg1, 2, pool) == 0); /* ones: auto, pooled and serial */
        CHECK(big_g2(3000, 2, &rng, cfg2, 2, pool) == 0);
        CHECK(big_g1(20000, 2, &rng, cfg_ones, 4, pool) == 0);
        CHECK(big_g2(3000, 2, &rng, cfg_ones, 4, pool) == 0);
        /* the batch-affine strategy is what large MSMs get */
        CHECK(cz__msm_use_batch_affine(cz_msm_window_bits(1 << 20), 1 << 20));
        CHECK(!cz__msm_use_batch_affine(cz_msm_window_bits(64), 64));
        CHECK(cz__msm_batch_size(1 << 15) >= 256);
    }
    CHECK(check_split(&rng) == 0);
    CHECK(check_sigma(&rng) == 0);
    CHECK(check_psi(&rng) == 0);
    make_scalars(k, nmax, 2, &rng);
    CHECK(check_sums(b1, b2, k, nmax, &rng, pool) == 0);
    CHECK(check_scan(&rng, pool) == 0);
    /* window choice grows with n and stays in range */
    CHECK(cz_msm_window_bits(1) >= 2);
    CHECK(cz_msm_window_bits(1 << 20) > cz_msm_window_bits(1 << 10));
    CHECK(cz_msm_window_bits((size_t)1 << 27) <= 16);

    free(b1); free(b2); free(k);
    cz_pool_destroy(pool);
    return cz_test_finish("test_msm");
}
