/* bench_msm.c — multi-scalar multiplication timings (one-shot ops, see
 * cz__bench_once): G1 at 2^16, 2^18, 2^20 and G2 at 2^16, 2^18 points, with
 * random scalars (Pippenger) and with random bit scalars (0 or 1: the
 * zeros are skipped, the ones summed by plain additions), on 1 and 2 threads.
 * Scalars are in Montgomery form, as the prover holds them (the conversion
 * is part of the time).
 *
 * Inputs are cheap to make: the bases are P_i = P_0 + i·Q (one mixed addition
 * each, then one batch conversion to affine), so every MSM has a closed form,
 * sum k_i P_i = (sum k_i) P_0 + (sum i k_i) Q, which each result is checked
 * against after timing (a WARNING note if not). Only the sizes the filter
 * selects are built. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "msm/msm.h"
#include "util/rng.h"

typedef struct {
    int g2;          /* 0: G1, 1: G2 */
    int log_n, bits, threads;
    size_t n;
    const cz_fr *k;
    cz_pool *pool;
    cz_g1_jac out1;
    cz_g2_jac out2;
    cz_err err;
} msm_state;

static struct {
    cz_g1_aff *b1;
    cz_g2_aff *b2;
    cz_fr *k_rand, *k_bits;
    cz_g1_jac p1, q1;  /* P_0 and Q of G1 */
    cz_g2_jac p2, q2;
} in;

static void run_msm(void *s_, uint64_t iters)
{
    msm_state *s = s_;
    for (uint64_t i = 0; i < iters; i++) {
        if (s->g2) s->err = cz_msm_g2(&s->out2, in.b2, s->k, s->n, 1, NULL, s->pool);
        else s->err = cz_msm_g1(&s->out1, in.b1, s->k, s->n, 1, NULL, s->pool);
    }
}

/* P_i = P_0 + i Q for i < n */
#define DEFINE_BASES(G)                                                               \
    static int make_bases_##G(cz_##G##_aff **out, size_t n, const cz_##G##_jac *p0,     \
                              const cz_##G##_jac *q)                                   \
    {                                                                                  \
        cz_##G##_jac *j = malloc(n * sizeof *j);                                       \
        *out = malloc(n * sizeof **out);                                               \
        if (!j || !*out) { free(j); free(*out); *out = NULL; return -1; }              \
        cz_##G##_aff qa;                                                               \
        cz_##G##_to_aff(&qa, q);                                                       \
        j[0] = *p0;                                                                    \
        for (size_t i = 1; i < n; i++) cz_##G##_add_mixed(&j[i], &j[i - 1], &qa);      \
        cz_##G##_batch_to_aff(*out, j, n);                                             \
        free(j);                                                                       \
        return 0;                                                                      \
    }
DEFINE_BASES(g1)
DEFINE_BASES(g2)

/* s0 = sum k_i, s1 = sum i k_i (plain), for the closed form */
static void sums(uint64_t s0[4], uint64_t s1[4], const cz_fr *k, size_t n)
{
    cz_fr a, b, t, fi;
    cz_fr_zero(&a);
    cz_fr_zero(&b);
    for (size_t i = 0; i < n; i++) {
        cz_fr_add(&a, &a, &k[i]);
        cz_fr_from_u64(&fi, i);
        cz_fr_mul(&t, &fi, &k[i]);
        cz_fr_add(&b, &b, &t);
    }
    cz_fr_from_mont(&t, &a);
    memcpy(s0, t.l, 32);
    cz_fr_from_mont(&t, &b);
    memcpy(s1, t.l, 32);
}

static int check(const msm_state *s)
{
    uint64_t s0[4], s1[4];
    if (s->err) return 0;
    sums(s0, s1, s->k, s->n);
    if (s->g2) {
        cz_g2_jac a, b;
        cz_g2_mul(&a, &in.p2, s0, 256);
        cz_g2_mul(&b, &in.q2, s1, 256);
        cz_g2_add(&a, &a, &b);
        return cz_g2_eq(&a, &s->out2);
    }
    cz_g1_jac a, b;
    cz_g1_mul(&a, &in.p1, s0, 256);
    cz_g1_mul(&b, &in.q1, s1, 256);
    cz_g1_add(&a, &a, &b);
    return cz_g1_eq(&a, &s->out1);
}

static void op_name(char *out, size_t len, int g2, int log_n, int bits, int threads)
{
    snprintf(out, len, "%s_2^%d_%s_t%d", g2 ? "g2" : "g1", log_n, bits ? "bits" : "rand", threads);
}

static void bench_msm(cz_bench *b)
{
    static const int g1_sizes[] = {16, 18, 20}, g2_sizes[] = {16, 18};
    /* which sizes are selected, per group */
    int max_log[2] = {0, 0};
    char name[48];
    for (int g = 0; g < 2; g++) {
        const int *sz = g ? g2_sizes : g1_sizes;
        int nsz = g ? 2 : 3;
        for (int i = 0; i < nsz; i++)
            for (int bits = 0; bits < 2; bits++)
                for (int t = 1; t <= 2; t++) {
                    op_name(name, sizeof name, g, sz[i], bits, t);
                    if (cz__bench_wants(b, name) && sz[i] > max_log[g]) max_log[g] = sz[i];
                }
    }
    if (!max_log[0] && !max_log[1]) return;

    cz_rng rng;
    cz_rng_seed(&rng, 0x62656e63686d736dULL);
    int lmax = max_log[0] > max_log[1] ? max_log[0] : max_log[1];
    size_t nmax = (size_t)1 << lmax;
    in.k_rand = malloc(nmax * sizeof *in.k_rand);
    in.k_bits = malloc(nmax * sizeof *in.k_bits);
    cz_pool *pools[3] = {NULL, NULL, NULL};
    if (!in.k_rand || !in.k_bits || cz_pool_create(&pools[1], 1) || cz_pool_create(&pools[2], 2)) {
        cz__bench_note(b, "WARNING: msm set-up failed (out of memory)");
        goto done;
    }
    for (size_t i = 0; i < nmax; i++) {
        cz_fr_random(&in.k_rand[i], &rng);
        cz_fr_from_u64(&in.k_bits[i], cz_rng_u64(&rng) & 1);
    }
    uint64_t a[4], c[4];
    for (int j = 0; j < 4; j++) { a[j] = cz_rng_u64(&rng); c[j] = cz_rng_u64(&rng); }
    a[3] >>= 2;
    c[3] >>= 2;
    if (max_log[0]) {
        cz_g1_jac g;
        cz_g1_generator_jac(&g);
        cz_g1_mul(&in.p1, &g, a, 256);
        cz_g1_mul(&in.q1, &g, c, 256);
        if (make_bases_g1(&in.b1, (size_t)1 << max_log[0], &in.p1, &in.q1)) {
            cz__bench_note(b, "WARNING: msm set-up failed (out of memory)");
            goto done;
        }
    }
    if (max_log[1]) {
        cz_g2_jac g;
        cz_g2_generator_jac(&g);
        cz_g2_mul(&in.p2, &g, a, 256);
        cz_g2_mul(&in.q2, &g, c, 256);
        if (make_bases_g2(&in.b2, (size_t)1 << max_log[1], &in.p2, &in.q2)) {
            cz__bench_note(b, "WARNING: msm set-up failed (out of memory)");
            goto done;
        }
    }

    for (int g = 0; g < 2; g++) {
        const int *sz = g ? g2_sizes : g1_sizes;
        int nsz = g ? 2 : 3;
        for (int i = 0; i < nsz; i++)
            for (int bits = 0; bits < 2; bits++)
                for (int t = 1; t <= 2; t++) {
                    op_name(name, sizeof name, g, sz[i], bits, t);
                    if (!cz__bench_wants(b, name)) continue;
                    msm_state s = {.g2 = g, .log_n = sz[i], .bits = bits, .threads = t,
                                   .n = (size_t)1 << sz[i], .k = bits ? in.k_bits : in.k_rand,
                                   .pool = pools[t]};
                    char note[96];
                    snprintf(note, sizeof note, "%s MSM, 2^%d points, %s scalars, %d thread%s",
                             g ? "G2" : "G1", sz[i], bits ? "0/1" : "random 255-bit", t,
                             t > 1 ? "s" : "");
                    cz__bench_once(b, name, note, run_msm, &s);
                    if (!check(&s)) cz__bench_note(b, "WARNING: msm/%s result is wrong", name);
                }
    }
done:
    cz_pool_destroy(pools[1]);
    cz_pool_destroy(pools[2]);
    free(in.b1);
    free(in.b2);
    free(in.k_rand);
    free(in.k_bits);
    memset(&in, 0, sizeof in);
}

CZ_BENCH_GROUP(40, "msm", bench_msm)
