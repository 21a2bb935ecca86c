/* test_cuda_msm.c — the device MSM (src/cuda/cz_cuda_msm.h) against the CPU
 * MSM (cz_msm_g1 / cz_msm_g2) on fresh random inputs (the seed is printed;
 * CZ_TEST_SEED replays a run), G1 and G2.
 *
 * Bases are P + i Q (made by additions, in chunks on the pool, so large n
 * is cheap) with, every 97th, infinity, every 7th a copy of an earlier base
 * and every 11th the negation of an earlier one (P and -P together).
 * Scalars: random, zero, one, r - 1, at least 2^254, small (32-bit), one
 * value repeated (every point in one bucket per window), Filecoin-like
 * mixes with a density bitmap, in Montgomery form and plain. Sizes: 1, 2,
 * primes, a few thousand, and the largest that keeps the run within seconds
 * on the GPU; forced window widths and a small entry budget make narrow
 * windows and several window groups run too. The G1 cases run with the
 * batch-affine rounds as the plan picks them, with every round forced (few
 * threads, so each has many pairs to share an inversion over, with
 * doublings, P + (-P) and infinity among them), and with the rounds off.
 * Without a CUDA build or a device it prints a SKIP line and passes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "testutil.h"
#include "msm/msm.h"
#include "util/pool.h"
#include "util/rng.h"
#if CZ_HAVE_CUDA
#include "cuda/cz_cuda_msm.h"
#endif

#if CZ_HAVE_CUDA

static cz_rng rng;
static uint64_t seed;
static cz_pool *pool;
static cz_cuda_msm *ctx;
/* the G1 batch-affine rounds of every case (cz__cuda_msm_config_ba) */
static int ba_mode;
static unsigned ba_threads;
static int ba_rounds_seen;

enum { K_RANDOM, K_ZERO, K_ONE, K_RM1, K_BIG, K_SMALL, K_SAME, K_MIX, K_BITS };
static const char *kind_name[] = {"random", "zero", "one", "r-1", ">=2^254", "small", "same", "mix", "bits"};

static void make_scalars(cz_fr *k, size_t n, int kind)
{
    cz_fr same;
    cz_fr_random(&same, &rng);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = cz_rng_u64(&rng);
        int kd = kind;
        if (kind == K_MIX) { /* like a Filecoin witness: mostly bits */
            unsigned p = (unsigned)(r % 100);
            kd = p < 44 ? K_ZERO : p < 88 ? K_ONE : p < 94 ? K_SMALL : p < 96 ? K_RM1 : K_RANDOM;
        }
        if (kind == K_BITS) kd = r & 1 ? K_ONE : K_ZERO;
        switch (kd) {
        case K_RANDOM: cz_fr_random(&k[i], &rng); break;
        case K_ZERO: cz_fr_zero(&k[i]); break;
        case K_ONE: cz_fr_one(&k[i]); break;
        case K_RM1: cz_fr_one(&k[i]); cz_fr_neg(&k[i], &k[i]); break;
        case K_BIG: { /* a plain value in [2^254, r) */
            cz_fr p;
            do {
                for (int l = 0; l < 4; l++) p.l[l] = cz_rng_u64(&rng);
                p.l[3] = (p.l[3] & 0x3fffffffffffffffULL) | 0x4000000000000000ULL;
            } while (p.l[3] > cz_fr_modulus.l[3] || (p.l[3] == cz_fr_modulus.l[3] && p.l[2] >= cz_fr_modulus.l[2]));
            cz_fr_to_mont(&k[i], &p);
            break;
        }
        case K_SMALL: cz_fr_from_u64(&k[i], (r >> 8) & 0xffffffffULL); break;
        case K_SAME: k[i] = same; break;
        }
    }
}

/* P + i Q for i in one chunk of BASES_CHUNK, on the pool (the chunk's first
 * by a scalar multiplication); the copies, negations and infinities are put
 * in afterwards in index order, so the bases are the same whatever the
 * threads */
#define BASES_CHUNK 65536
#define DEFINE_BASES(G)                                                              \
    typedef struct {                                                                 \
        cz_##G##_jac *j, p, q;                                                       \
        cz_##G##_aff qa, *out;                                                       \
        size_t n;                                                                    \
    } bases_job_##G;                                                                 \
    static void bases_adds_##G(void *arg, size_t c)                                  \
    {                                                                                \
        const bases_job_##G *b = arg;                                                \
        size_t lo = c * BASES_CHUNK, hi = lo + BASES_CHUNK < b->n ? lo + BASES_CHUNK : b->n; \
        uint64_t lo64[1] = {lo};                                                     \
        cz_##G##_jac t;                                                              \
        cz_##G##_mul(&t, &b->q, lo64, 64);                                           \
        cz_##G##_add(&t, &t, &b->p);                                                 \
        for (size_t i = lo; i < hi; i++) {                                           \
            b->j[i] = t;                                                             \
            cz_##G##_add_mixed(&t, &t, &b->qa);                                      \
        }                                                                            \
    }                                                                                \
    static void bases_aff_##G(void *arg, size_t c)                                   \
    {                                                                                \
        const bases_job_##G *b = arg;                                                \
        size_t lo = c * BASES_CHUNK, hi = lo + BASES_CHUNK < b->n ? lo + BASES_CHUNK : b->n; \
        cz_##G##_batch_to_aff(b->out + lo, b->j + lo, hi - lo);                      \
    }                                                                                \
    static void bases_##G(cz_##G##_aff *out, size_t n)                               \
    {                                                                                \
        bases_job_##G b = {.j = malloc(n * sizeof *b.j), .out = out, .n = n};        \
        cz_##G##_jac g;                                                              \
        uint64_t s1[4] = {cz_rng_u64(&rng), cz_rng_u64(&rng), cz_rng_u64(&rng), 3};   \
        uint64_t s2[4] = {cz_rng_u64(&rng), cz_rng_u64(&rng), cz_rng_u64(&rng), 5};   \
        size_t chunks = (n + BASES_CHUNK - 1) / BASES_CHUNK;                         \
        cz_##G##_generator_jac(&g);                                                  \
        cz_##G##_mul(&b.p, &g, s1, 256);                                             \
        cz_##G##_mul(&b.q, &g, s2, 256);                                             \
        cz_##G##_to_aff(&b.qa, &b.q);                                                \
        cz_pool_run(pool, chunks, bases_adds_##G, &b);                               \
        for (size_t i = 0; i < n; i++) {                                             \
            size_t src = i ? cz_rng_u64(&rng) % i : 0;                               \
            if (i % 97 == 96) cz_##G##_set_inf(&b.j[i]);                             \
            else if (i % 7 == 6) b.j[i] = b.j[src];                                  \
            else if (i % 11 == 10 || (i == 1 && n == 2)) cz_##G##_neg(&b.j[i], &b.j[src]); \
        }                                                                            \
        cz_pool_run(pool, chunks, bases_aff_##G, &b);                                \
        free(b.j);                                                                   \
    }
DEFINE_BASES(g1)
DEFINE_BASES(g2)

/* a density bitmap of n bits with about `dens` percent set (NULL for 100:
 * no bitmap); *nb = the bases it selects (n without one) */
static uint64_t *make_density(size_t n, int dens, size_t *nb)
{
    *nb = n;
    if (dens >= 100) return NULL;
    uint64_t *d = calloc((n + 63) / 64, 8);
    *nb = 0;
    for (size_t i = 0; i < n; i++)
        if (cz_rng_u64(&rng) % 100 < (uint64_t)dens) {
            d[i / 64] |= 1ULL << (i % 64);
            (*nb)++;
        }
    return d;
}

/* one case: n scalars of a kind, density with about `dens` percent of bits
 * set (100: no bitmap), the window / entry budget forced as given */
#define DEFINE_CASE(G)                                                                          \
    static void case_##G(size_t n, int kind, int dens, int mont, int window, size_t max_entries) \
    {                                                                                           \
        size_t nb;                                                                              \
        cz_fr *k = malloc(n * sizeof *k);                                                       \
        make_scalars(k, n, kind);                                                               \
        uint64_t *d = make_density(n, dens, &nb);                                               \
        cz_##G##_aff *b = malloc((nb ? nb : 1) * sizeof *b);                                    \
        bases_##G(b, nb ? nb : 1);                                                              \
        cz_fr *kp = k;                                                                          \
        if (!mont) {                                                                            \
            kp = malloc(n * sizeof *kp);                                                        \
            for (size_t i = 0; i < n; i++) cz_fr_from_mont(&kp[i], &k[i]);                      \
        }                                                                                       \
        cz_##G##_jac want, got;                                                                 \
        char msg[256] = "";                                                                     \
        cz_err e1 = cz_msm_##G(&want, b, kp, n, mont, d, pool);                                 \
        void *db = NULL;                                                                        \
        cz_err e2 = cz_cuda_msm_upload(ctx, &db, b, (nb ? nb : 1) * sizeof *b, msg, sizeof msg);    \
        if (!e2) {                                                                              \
            cz__cuda_msm_config(ctx, window, max_entries);                                      \
            cz__cuda_msm_config_ba(ctx, ba_mode, ba_threads);                                   \
            e2 = cz_cuda_msm_##G(ctx, &got, db, kp, n, mont, d, msg, sizeof msg);               \
            cz__cuda_msm_config(ctx, 0, 0);                                                     \
            ba_rounds_seen += cz__cuda_msm_last_ba_rounds(ctx);                                 \
        }                                                                                       \
        int c = 0, nw = 0, groups = 0;                                                          \
        size_t ones = 0, gen = 0;                                                               \
        cz__cuda_msm_last(ctx, &c, &nw, &groups, &ones, &gen);                                  \
        int ok = e1 == CZ_OK && e2 == CZ_OK && cz_##G##_eq(&want, &got);                        \
        CHECK_MSG(ok, #G " n=%zu %s density=%d%% mont=%d window=%d (used c=%d nw=%d groups=%d ones=%zu " \
                  "general=%zu) max_entries=%zu ba=%d/%u seed=%llu: %s",                        \
                  n, kind_name[kind], dens, mont, window, c, nw, groups, ones, gen, max_entries, \
                  ba_mode, ba_threads,                                                           \
                  (unsigned long long)seed, e2 ? msg : e1 ? "cpu msm failed" : "sums differ");  \
        if (getenv("CZ_TEST_VERBOSE"))                                                          \
            printf("  " #G " n=%zu %s dens=%d mont=%d ba=%d/%u -> c=%d nw=%d groups=%d ones=%zu general=%zu " \
                   "ba_rounds=%d %s\n", n, kind_name[kind], dens, mont, ba_mode, ba_threads, c, nw, groups, \
                   ones, gen, cz__cuda_msm_last_ba_rounds(ctx), ok ? "ok" : "WRONG");           \
        cz_cuda_msm_free(ctx, db);                                                                  \
        if (kp != k) free(kp);                                                                  \
        free(k);                                                                                \
        free(d);                                                                                \
        free(b);                                                                                \
    }
DEFINE_CASE(g1)
DEFINE_CASE(g2)

/* the batch-affine rounds on the host (cz__cuda_msm_ba_rounds_host, the
 * kernel's own code): m entries over nb bases (with the infinity, repeats
 * and negations of bases_g1), keys sorted in [0, nkeys), random signs;
 * runs of one base twice with one sign (a doubling) and with both signs
 * (P + (-P)) are planted. Every key's points after the rounds must sum to
 * its entries' sum, and the keys must stay sorted. */
static void host_ba_case(uint32_t m, uint32_t nb, uint32_t nkeys, unsigned threads, unsigned inv_group, int rounds)
{
    cz_g1_aff *b = malloc(nb * sizeof *b), *out = malloc(m * sizeof *out);
    uint32_t *keys = malloc(m * 4), *vals = malloc(m * 4), *okeys = malloc(m * 4), om = 0;
    cz_g1_jac *want = calloc(nkeys, sizeof *want), *got = calloc(nkeys, sizeof *got);
    char msg[256] = "";
    bases_g1(b, nb);
    for (uint32_t e = 0; e < m; e++) keys[e] = (uint32_t)(cz_rng_u64(&rng) % nkeys);
    for (uint32_t e = 1; e < m; e++) /* insertion sort: m is small */
        for (uint32_t j = e; j > 0 && keys[j - 1] > keys[j]; j--) {
            uint32_t t = keys[j];
            keys[j] = keys[j - 1];
            keys[j - 1] = t;
        }
    for (uint32_t e = 0; e < m; e++) {
        uint64_t r = cz_rng_u64(&rng);
        vals[e] = (uint32_t)(r % nb) | (((r >> 40) & 1) ? 0x80000000u : 0);
        if (e && keys[e] == keys[e - 1] && r % 5 == 0) /* same base: a doubling or P + (-P) */
            vals[e] = (vals[e - 1] & 0x7fffffffu) |
                      (((r >> 41) & 1) ? (vals[e - 1] & 0x80000000u) : (~vals[e - 1] & 0x80000000u));
    }
    for (uint32_t k = 0; k < nkeys; k++) {
        cz_g1_set_inf(&want[k]);
        cz_g1_set_inf(&got[k]);
    }
    for (uint32_t e = 0; e < m; e++) {
        cz_g1_aff p = b[vals[e] & 0x7fffffffu];
        if (vals[e] >> 31) cz_g1_aff_neg(&p, &p);
        cz_g1_add_mixed(&want[keys[e]], &want[keys[e]], &p);
    }
    cz_err e = cz__cuda_msm_ba_rounds_host(b, vals, keys, m, threads, inv_group, rounds, out, okeys, &om, msg,
                                           sizeof msg);
    int sorted = 1, ok = e == CZ_OK;
    for (uint32_t i = 0; ok && i < om; i++) {
        if (i && okeys[i] < okeys[i - 1]) sorted = 0;
        if (okeys[i] >= nkeys || !cz_g1_aff_on_curve(&out[i])) { ok = 0; break; }
        cz_g1_add_mixed(&got[okeys[i]], &got[okeys[i]], &out[i]);
    }
    for (uint32_t k = 0; ok && k < nkeys; k++) ok = cz_g1_eq(&want[k], &got[k]);
    CHECK_MSG(ok && sorted && om <= m && (rounds == 0 || m < 2 || om < m),
              "batch-affine rounds on the host: m=%u bases=%u keys=%u chains=%u inv_group=%u rounds=%d -> %u "
              "entries, sorted=%d seed=%llu: %s", m, nb, nkeys, threads, inv_group, rounds, om, sorted, (unsigned long long)seed,
              e ? msg : "sums differ or a point is off the curve");
    free(b);
    free(out);
    free(keys);
    free(vals);
    free(okeys);
    free(want);
    free(got);
}

static void host_ba_cases(void)
{
    host_ba_case(1, 5, 1, 1, 0, 3);
    host_ba_case(2, 1, 1, 1, 0, 1);       /* one base twice: doubling or P + (-P) */
    host_ba_case(3000, 200, 40, 1, 0, 4); /* long runs, one chain: many pairs share an inversion */
    host_ba_case(3000, 200, 40, 3, 2, 4); /* chains' products inverted two at a time */
    host_ba_case(3001, 97, 700, 5, 0, 3); /* short runs: pass-throughs */
    host_ba_case(4096, 13, 2, 64, 5, 6);  /* few bases: doublings and infinity often */
    host_ba_case(999, 150, 999, 2, 1, 2); /* mostly lone keys; every product inverted alone */
    host_ba_case(5000, 300, 60, 157, 0, 4); /* chains of ~16 pairs, more of them than a group */
    host_ba_case(5000, 300, 60, 2500, 7, 3); /* a chain a pair (then fewer pairs than chains) */
}

/* window copies (cz_cuda_msm_g1_copies): the table's fill on the host
 * through the kernels' own code, every point against 2^(c w) P on the
 * CPU; then the bad tables the functions must refuse */
static void host_copies_case(size_t nb, int c)
{
    int copies = (256 + c - 1) / c; /* one block a window of a 255-bit scalar */
    cz_g1_aff *t = calloc(nb * copies, sizeof *t);
    char msg[256] = "";
    bases_g1(t, nb);
    cz_err e = cz__cuda_msm_g1_copies_fill_host(t, nb, c, copies, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "copies fill on the host, nb=%zu c=%d: %s", nb, c, msg);
    size_t bad = 0;
    for (int w = 1; w < copies && !e; w++) {
        uint64_t k[4] = {0, 0, 0, 0};
        k[(c * w) / 64] = 1ULL << ((c * w) % 64);
        for (size_t i = 0; i < nb; i++) {
            cz_g1_jac p, q;
            cz_g1_aff a;
            cz_g1_from_aff(&p, &t[i]);
            cz_g1_mul(&q, &p, k, 256);
            cz_g1_to_aff(&a, &q);
            bad += !cz_g1_aff_eq(&a, &t[w * nb + i]);
        }
    }
    CHECK_MSG(bad == 0, "copies fill on the host, nb=%zu c=%d: %zu points differ from 2^(c w) P (seed=%llu)", nb, c,
              bad, (unsigned long long)seed);
    free(t);
}

static void host_copies_cases(void)
{
    char msg[256];
    host_copies_case(1, 22);
    host_copies_case(33, 2);  /* 128 blocks; a group of one point past the first 32 */
    host_copies_case(97, 7);  /* infinity at 96, copies and negations of earlier points */
    host_copies_case(40, 22); /* the widest window: 12 blocks */
    CHECK(cz__cuda_msm_copies_check(100, 1, 256, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK(cz__cuda_msm_copies_check(100, 25, 11, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK(cz__cuda_msm_copies_check(100, 24, 2, msg, sizeof msg) == CZ_OK); /* the widest copies' window */
    CHECK(cz__cuda_msm_copies_check(0, 22, 12, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK(cz__cuda_msm_copies_check((size_t)1 << 27, 16, 16, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK(cz__cuda_msm_copies_check(((size_t)1 << 27) - 1, 16, 16, msg, sizeof msg) == CZ_OK);
    int copies = 0, c = cz_cuda_msm_copies_plan((size_t)1 << 24, &copies);
    CHECK_MSG(c == 22 && copies == 12, "copies plan at 2^24: c=%d, %d copies (want 22, 12)", c, copies);
    c = cz_cuda_msm_copies_plan(1000, &copies);
    CHECK_MSG(c >= 2 && c <= 22 && copies == (256 + c - 1) / c, "copies plan at 1000: c=%d, %d copies", c, copies);
    /* the plan under a cap on blocks: the fewest blocks of the least cost
     * (a set spans at most 2^28 / n blocks, so 4 at 2^26 cost what 12 do) */
    static const struct { int log_n, max, c, copies; } caps[] = {
        {24, 256, 22, 12}, {25, 256, 22, 6}, {26, 256, 22, 4}, {26, 12, 22, 4}, {26, 3, 22, 3},
        {27, 256, 22, 2}, {27, 1, 0, 0},
        {27, 0, 0, 0}};
    for (size_t i = 0; i < sizeof caps / sizeof *caps; i++) {
        copies = -1;
        c = cz_cuda_msm_copies_plan_max((size_t)1 << caps[i].log_n, caps[i].max, &copies);
        CHECK_MSG(c == caps[i].c && copies == caps[i].copies,
                  "copies plan at 2^%d, at most %d blocks: c=%d, %d blocks (want %d, %d)", caps[i].log_n, caps[i].max,
                  c, copies, caps[i].c, caps[i].copies);
    }
    c = cz_cuda_msm_copies_plan_max(1000, 256, &copies); /* small: a block a window, as the plan above */
    CHECK_MSG(c >= 2 && copies == (256 + c - 1) / c, "copies plan at 1000 under a cap: c=%d, %d blocks", c, copies);
    setenv("CZ_MSM_COPIES_C", "24", 1);
    c = cz_cuda_msm_copies_plan_max((size_t)1 << 27, 2, &copies);
    unsetenv("CZ_MSM_COPIES_C");
    CHECK_MSG(c == 24 && copies == 2, "copies plan held to c = 24 at 2^27: c=%d, %d blocks", c, copies);
}

/* The digits' layout on the host: the MSM's own group layout
 * (cz__cuda_msm_layout) and its digits kernel's body
 * (cz__cuda_msm_digits_host) for m scalars through a table of `copies`
 * blocks (0: plain); every entry must lie in its group's bucket sets and
 * index a block the table has, and each scalar's entries, weighted as the
 * MSM weights them (plain: 2^(c w); a block a window: 2^(c block); fewer
 * blocks: 2^(c (block + span set)), set counted from window 0), must sum to
 * the scalar. */
static void host_digits_case(uint32_t m, int kind, int c, int copies, size_t max_e)
{
    const uint32_t stride = 1000003; /* the table's points a block */
    cz_fr *k = malloc(m * sizeof *k), *acc = calloc(m, sizeof *acc);
    uint64_t *k4 = malloc((size_t)m * 32);
    uint32_t *idx = malloc(m * sizeof *idx);
    int L[5];
    CHECK(k && acc && k4 && idx);
    if (!k || !acc || !k4 || !idx) return;
    make_scalars(k, m, kind);
    int bits = 1;
    for (uint32_t j = 0; j < m; j++) {
        cz_fr p;
        cz_fr_from_mont(&p, &k[j]);
        memcpy(k4 + 4 * (size_t)j, p.l, 32);
        for (int b = 255; b >= bits; b--)
            if ((p.l[b / 64] >> (b % 64)) & 1) { bits = b + 1; break; }
        idx[j] = (uint32_t)(cz_rng_u64(&rng) % stride);
    }
    cz__cuda_msm_layout(m, bits, c, copies, max_e, L);
    const int nw = L[0], span = L[1] ? L[1] : 1, g = L[2], full = L[4], fixed = L[1] != 0;
    uint32_t *keys = malloc((size_t)m * g * 4), *vals = malloc((size_t)m * g * 4);
    CHECK(keys && vals);
    long bad = 0, oob = 0;
    cz_fr two, w2;
    cz_fr_from_u64(&two, 2);
    for (int w0 = 0; keys && vals && w0 < nw; w0 += g) {
        int gg = nw - w0 < g ? nw - w0 : g, gs = !fixed ? gg : full ? 1 : (gg + span - 1) / span;
        uint32_t sentinel = (uint32_t)gs << (c - 1), half = 1u << (c - 1);
        if (fixed && !full && w0 % span) oob++; /* a group must start a set */
        cz__cuda_msm_digits_host(k4, idx, m, c, w0, gg, fixed ? stride : 0, span, (uint32_t)gs, keys, vals);
        for (size_t e = 0; e < (size_t)m * gg; e++) {
            uint32_t j = (uint32_t)(e % m), key = keys[e], v = vals[e] & ~0x80000000u;
            if (key == sentinel) continue;
            uint32_t set = key >> (c - 1), mag = (key & (half - 1)) + 1, blk = fixed ? (v - idx[j]) / stride : 0;
            if (key > sentinel || set >= (uint32_t)gs || v < idx[j] || (v - idx[j]) % (fixed ? stride : 1) ||
                (fixed && blk >= (uint32_t)copies) || (!fixed && v != idx[j])) {
                oob++;
                continue;
            }
            uint64_t ex = !fixed ? (uint64_t)c * (w0 + set)
                          : full ? (uint64_t)c * blk
                                 : (uint64_t)c * (blk + (uint64_t)span * (w0 / span + set));
            cz_fr t;
            cz_fr_pow(&w2, &two, &ex, 1);
            cz_fr_from_u64(&t, mag);
            cz_fr_mul(&t, &t, &w2);
            if (vals[e] & 0x80000000u) cz_fr_sub(&acc[j], &acc[j], &t);
            else cz_fr_add(&acc[j], &acc[j], &t);
        }
    }
    for (uint32_t j = 0; j < m; j++) bad += !cz_fr_eq(&acc[j], &k[j]);
    CHECK_MSG(bad == 0 && oob == 0,
              "digits on the host, m=%u %s c=%d copies=%d max_e=%zu (span %d, %d a group, full %d): %ld scalars "
              "not rebuilt, %ld entries out of place",
              m, kind_name[kind], c, copies, max_e, L[1], g, full, bad, oob);
    free(keys); free(vals); free(k); free(acc); free(k4); free(idx);
}

static void host_digits_cases(void)
{
    host_digits_case(300, K_RANDOM, 7, 0, 300 * 4);       /* plain, groups of four windows */
    host_digits_case(300, K_RANDOM, 9, 29, 300 * 8);      /* a block a window, groups of eight */
    host_digits_case(300, K_RANDOM, 7, 3, (size_t)1 << 28); /* 3 blocks: 13 sets in one group */
    host_digits_case(300, K_MIX, 9, 4, 300 * 8);          /* 4 blocks, two sets a group */
    host_digits_case(300, K_RANDOM, 7, 5, 300 * 3);       /* sets span 3 of 5 blocks */
    host_digits_case(200, K_BIG, 24, 2, 200 * 2);         /* the widest window */
    host_digits_case(200, K_RM1, 23, 11, 200 * 5);        /* 12 windows, sets of 5 */
    host_digits_case(200, K_SMALL, 22, 4, 200 * 4);       /* 33-bit scalars: two windows, a block each */
    int L[5];
    cz__cuda_msm_layout(200, 255, 9, 3, 200, L);          /* a set of one block: plain */
    CHECK_MSG(L[1] == 0, "a table whose sets span one block taken (span %d)", L[1]);
    cz__cuda_msm_layout((size_t)1 << 27, 255, 22, 2, (size_t)1 << 28, L);
    CHECK_MSG(L[0] == 12 && L[1] == 2 && L[2] == 2 && L[3] == 1 && !L[4], "2^27 through 2 blocks: %d %d %d %d %d",
              L[0], L[1], L[2], L[3], L[4]);
    cz__cuda_msm_layout((size_t)1 << 26, 255, 22, 4, (size_t)1 << 28, L);
    CHECK_MSG(L[1] == 4 && L[2] == 4 && L[3] == 1 && !L[4], "2^26 through 4 blocks: %d %d %d %d %d", L[0], L[1],
              L[2], L[3], L[4]);
}

/* one G1 MSM through window copies of c (0: the plan's) against the CPU,
 * the copies used in mode 1, the plain MSM in mode 2, the plan's pick in 0;
 * the table filled in chunks of `chunk` points (0: the default); a table
 * of `blocks` blocks (0: one a window, or the plan's), whose bucket sets,
 * when forced, must span `span` of them (0: not checked) */
static void case_copies_blocks(size_t n, int kind, int dens, int mont, int c, int mode, size_t max_entries,
                               size_t chunk, int blocks, int span)
{
    size_t nb;
    cz_fr *k = malloc(n * sizeof *k);
    make_scalars(k, n, kind);
    uint64_t *d = make_density(n, dens, &nb);
    if (nb == 0) nb = 1;
    int copies = 0;
    if (c) copies = blocks ? blocks : (256 + c - 1) / c;
    else if (blocks) c = cz_cuda_msm_copies_plan_max(nb, blocks, &copies);
    else c = cz_cuda_msm_copies_plan(nb, &copies);
    cz_g1_aff *t = malloc(nb * sizeof *t);
    bases_g1(t, nb);
    if (!mont)
        for (size_t i = 0; i < n; i++) cz_fr_from_mont(&k[i], &k[i]);
    cz_g1_jac want, got;
    char msg[256] = "";
    cz_err e1 = cz_msm_g1(&want, t, k, n, mont, d, pool);
    cz_g1_aff *db = NULL;
    cz__cuda_msm_config_copies(ctx, mode, chunk);
    cz_err e2 = cz_cuda_msm_g1_copies_make(ctx, &db, t, nb, c, copies, msg, sizeof msg);
    if (!e2) {
        cz__cuda_msm_config(ctx, 0, max_entries);
        e2 = cz_cuda_msm_g1_copies(ctx, &got, db, nb, c, copies, k, n, mont, d, msg, sizeof msg);
        cz__cuda_msm_config(ctx, 0, 0);
    }
    cz__cuda_msm_config_copies(ctx, 0, 0);
    int used = cz__cuda_msm_last_copies(ctx), used_span = cz__cuda_msm_last_copies_span(ctx), cw = 0, nw = 0,
        groups = 0;
    cz__cuda_msm_last(ctx, &cw, &nw, &groups, NULL, NULL);
    int ok = e1 == CZ_OK && e2 == CZ_OK && cz_g1_eq(&want, &got);
    CHECK_MSG(ok, "g1 copies n=%zu %s density=%d%% mont=%d c=%d blocks=%d mode=%d (used copies=%d span=%d c=%d "
                  "nw=%d groups=%d) max_entries=%zu seed=%llu: %s",
              n, kind_name[kind], dens, mont, c, copies, mode, used, used_span, cw, nw, groups, max_entries,
              (unsigned long long)seed, e2 ? msg : e1 ? "cpu msm failed" : "sums differ");
    /* forced: used, where there is a general scalar and (with fewer blocks) a set spans two */
    if (mode == 1 && (span || !blocks) && kind != K_ZERO && kind != K_ONE && kind != K_BITS)
        CHECK_MSG(used == 1 && cw == c, "g1 copies n=%zu %s c=%d: forced copies not used (used=%d, c=%d)", n,
                  kind_name[kind], c, used, cw);
    if (mode == 2) CHECK_MSG(used == 0, "g1 copies n=%zu: copies used though turned off", n);
    if (span && mode == 1 && kind != K_ZERO && kind != K_ONE && kind != K_BITS)
        CHECK_MSG(used_span == span, "g1 copies n=%zu c=%d, %d blocks, max_entries=%zu: sets spanned %d blocks, not %d",
                  n, c, copies, max_entries, used_span, span);
    cz_cuda_msm_free(ctx, db);
    free(k);
    free(d);
    free(t);
}
static void case_copies_chunk(size_t n, int kind, int dens, int mont, int c, int mode, size_t max_entries,
                              size_t chunk)
{
    case_copies_blocks(n, kind, dens, mont, c, mode, max_entries, chunk, 0, 0);
}
static void case_copies(size_t n, int kind, int dens, int mont, int c, int mode, size_t max_entries)
{
    case_copies_chunk(n, kind, dens, mont, c, mode, max_entries, 0);
}

static void copies_cases(void)
{
    const size_t primes[] = {3, 31, 97, 1009};
    case_copies(1, K_RANDOM, 100, 1, 22, 1, 0);
    case_copies(1, K_ONE, 100, 1, 22, 1, 0);
    case_copies(2, K_SAME, 100, 1, 8, 1, 0); /* P and -P with one scalar: infinity */
    for (size_t i = 0; i < sizeof primes / sizeof *primes; i++) case_copies(primes[i], K_RANDOM, 100, 1, 5, 1, 0);
    for (int kind = K_ZERO; kind <= K_BITS; kind++) case_copies(4099, kind, 100, 1, 9, 1, 0);
    case_copies(4099, K_MIX, 70, 1, 9, 1, 0);
    case_copies(4099, K_BITS, 60, 0, 9, 1, 0); /* plain scalars, density */
    const int cs[] = {2, 3, 13, 16, 21, 22};
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) case_copies(3001, K_RANDOM, 100, 1, cs[i], 1, 0);
    case_copies(3001, K_RANDOM, 100, 1, 7, 1, 5000); /* groups of one window each: a sum a group */
    case_copies(3001, K_MIX, 90, 1, 4, 1, 7000);     /* groups of two windows */
    case_copies(100003, K_SAME, 100, 1, 12, 1, 0);   /* one bucket holds every point of every window */
    case_copies(100003, K_RANDOM, 100, 1, 0, 2, 0);  /* turned off: the plain MSM on block 0 */
    case_copies(((size_t)1 << 20) + 7, K_RANDOM, 100, 1, 0, 0, 0); /* the plan's c and pick */
    CHECK_MSG(cz__cuda_msm_last_copies(ctx) == 1, "the plan did not pick window copies at 2^20 random");
    case_copies(((size_t)1 << 20) + 7, K_MIX, 85, 1, 0, 0, 0);
    case_copies_chunk(4099, K_RANDOM, 100, 1, 11, 1, 0, 1000); /* the fill in five chunks, the last short */
    case_copies_chunk(4099, K_MIX, 75, 1, 6, 1, 0, 31);
    /* fewer blocks than windows: sets of `span` windows joined by Horner */
    case_copies_blocks(4099, K_RANDOM, 100, 1, 7, 1, 0, 0, 3, 3);          /* 13 sets in one group */
    case_copies_blocks(4099, K_MIX, 80, 1, 9, 1, 4099 * 8, 0, 4, 4);       /* two sets a group */
    case_copies_blocks(3001, K_RANDOM, 100, 1, 7, 1, 3001 * 3, 0, 5, 3);   /* sets span 3 of 5 blocks */
    case_copies_blocks(3001, K_RANDOM, 100, 0, 11, 1, 3001 * 2, 0, 2, 2);  /* plain scalars, 12 sets */
    case_copies_blocks(1009, K_RANDOM, 100, 1, 24, 1, 1009 * 2, 0, 2, 2);  /* the widest window: 2^23 buckets */
    case_copies_blocks(1009, K_RANDOM, 100, 1, 23, 1, 1009 * 5, 0, 11, 5); /* 12 windows, 11 blocks: sets of 5 */
    case_copies_blocks(4099, K_SAME, 100, 1, 5, 1, 0, 0, 2, 2);            /* one bucket a set holds everything */
    case_copies_blocks(4099, K_RANDOM, 100, 1, 9, 1, 4099, 0, 3, 0);       /* a set of one block: the plain MSM */
    CHECK_MSG(cz__cuda_msm_last_copies(ctx) == 0, "a set spanning one block summed through the copies");
    case_copies_blocks(((size_t)1 << 20) + 7, K_RANDOM, 100, 1, 0, 0, 0, 0, 2, 0); /* the plan's, 2 blocks */
    CHECK_MSG(cz__cuda_msm_last_copies_span(ctx) == 2, "the plan did not pick 2 blocks a set at 2^20 random");
}

static void g1_cases(int forced)
{
    const size_t primes[] = {3, 31, 97, 1009, 65521};
    /* G1: edges and sizes */
    case_g1(1, K_RANDOM, 100, 1, 0, 0);
    case_g1(1, K_ONE, 100, 1, 0, 0);
    case_g1(1, K_ZERO, 100, 1, 0, 0);
    case_g1(2, K_SAME, 100, 1, 0, 0); /* P and -P with one scalar: infinity */
    case_g1(2, K_RANDOM, 100, 1, 0, 0);
    for (size_t i = 0; i < sizeof primes / sizeof *primes; i++) case_g1(primes[i], K_RANDOM, 100, 1, 0, 0);
    for (int kind = K_ZERO; kind <= K_BITS; kind++) case_g1(4099, kind, 100, 1, 0, 0);
    case_g1(4099, K_MIX, 70, 1, 0, 0);
    case_g1(4099, K_BITS, 60, 1, 0, 0);
    case_g1(4099, K_RANDOM, 100, 0, 0, 0); /* plain scalars */
    case_g1(4099, K_MIX, 80, 0, 0, 0);
    /* forced windows and window groups */
    const int windows[] = {2, 3, 5, 8, 13, 16, 21, 22};
    for (size_t i = 0; i < sizeof windows / sizeof *windows; i++) case_g1(3001, K_RANDOM, 100, 1, windows[i], 0);
    case_g1(3001, K_RANDOM, 100, 1, 7, 5000);
    case_g1(3001, K_MIX, 90, 1, 4, 1);
    case_g1(100003, K_SAME, 100, 1, 0, 0); /* one bucket per window holds every point */
    case_g1(100003, K_SMALL, 100, 1, 0, 0);
    case_g1(100003, K_ONE, 100, 1, 0, 0);
    /* large */
    case_g1(((size_t)1 << 20) + 7, K_RANDOM, 100, 1, 0, 0);
    case_g1(((size_t)1 << 20) + 7, K_MIX, 85, 1, 0, 0);
    if (!forced) case_g1(((size_t)1 << 22) + 5, K_RANDOM, 100, 1, 0, 0); /* past the rounds' threshold */
}

static int run(void)
{
    char msg[256];
    seed = cz_test_seed("test_cuda_msm", (uint64_t)time(NULL) * 2654435761u);
    cz_rng_seed(&rng, seed);
    host_ba_cases();
    host_copies_cases();
    host_digits_cases();
    if (cz_cuda_device_count() < 1) {
        printf("test_cuda_msm: SKIP (no CUDA device; the batch-affine rounds and the window copies' fill "
               "checked on the host)\n");
        return cz_test_finish("test_cuda_msm");
    }
    cz_err e = cz_cuda_msm_create(&ctx, 0, msg, sizeof msg);
    if (e) {
        fprintf(stderr, "test_cuda_msm: %s\n", msg);
        return 1;
    }
    CHECK(cz_pool_create(&pool, 0) == CZ_OK);
    /* G1 three times: with the batch-affine rounds the plan picks
     * (CZ_MSM_BA=auto), with every round forced on few threads (so that
     * small inputs give each thread many pairs, as large ones do), and off
     * (the default) */
    ba_mode = 0;
    ba_rounds_seen = 0;
    g1_cases(0);
    CHECK_MSG(ba_rounds_seen > 0, "no batch-affine round ran at 2^22 by default");
    ba_mode = 1;
    ba_threads = 5;
    ba_rounds_seen = 0;
    g1_cases(1);
    CHECK_MSG(ba_rounds_seen > 20, "the forced batch-affine rounds ran %d times", ba_rounds_seen);
    ba_threads = 0;
    case_g1(((size_t)1 << 18) + 11, K_RANDOM, 100, 1, 0, 0); /* the default chains of 32 pairs */
    case_g1(((size_t)1 << 18) + 11, K_MIX, 85, 1, 0, 0);
    ba_mode = -1;
    g1_cases(0);
    ba_mode = 0;
    /* level 0 of the reduce-by-key engine with short segments, so that most
     * keys cross a segment's edge and go through the later levels (with the
     * default of 256 entries most random buckets lie inside one) */
    {
        const unsigned t0s[] = {1, 2, 3, 32};
        for (size_t i = 0; i < sizeof t0s / sizeof *t0s; i++) {
            cz__cuda_msm_config_t0(ctx, t0s[i]);
            case_g1(1, K_RANDOM, 100, 1, 0, 0);
            case_g1(2, K_SAME, 100, 1, 0, 0);
            case_g1(4099, K_MIX, 70, 1, 0, 0);
            case_g1(3001, K_RANDOM, 100, 1, 5, 4000);
            case_g1(100003, K_SAME, 100, 1, 0, 0);
            case_g1(((size_t)1 << 18) + 3, K_RANDOM, 100, 1, 0, 0);
            case_g2(1009, K_RANDOM, 100, 1, 0, 0);
            case_g2(3001, K_SAME, 100, 1, 0, 0);
            case_g2(3001, K_MIX, 70, 1, 3, 2000);
        }
        cz__cuda_msm_config_t0(ctx, 0);
    }
    /* the bucket sums in other segment shapes than the device's wave: one
     * segment a window, and 7, 100, 1000 segments in all (segments that
     * do not divide a window, last ones shorter) */
    {
        const unsigned waves[] = {1, 7, 100, 1000};
        for (size_t i = 0; i < sizeof waves / sizeof *waves; i++) {
            cz__cuda_msm_config_wave(ctx, waves[i]);
            case_g1(4099, K_RANDOM, 100, 1, 8, 0);
            case_g1(3001, K_MIX, 70, 1, 13, 0);
            case_g1(100003, K_SAME, 100, 1, 0, 0);
            case_g2(1009, K_RANDOM, 100, 1, 5, 0);
            case_g2(3001, K_MIX, 70, 1, 8, 0);
        }
        cz__cuda_msm_config_wave(ctx, 0);
    }
    copies_cases();
    /* G2 */
    case_g2(1, K_RANDOM, 100, 1, 0, 0);
    case_g2(2, K_SAME, 100, 1, 0, 0);
    case_g2(1009, K_RANDOM, 100, 1, 0, 0);
    case_g2(1009, K_RM1, 100, 1, 0, 0);
    case_g2(1009, K_BIG, 100, 1, 0, 0);
    case_g2(3001, K_MIX, 70, 1, 0, 0);
    case_g2(3001, K_ONE, 100, 1, 0, 0);
    case_g2(3001, K_SAME, 100, 1, 0, 0);
    case_g2(3001, K_RANDOM, 100, 0, 5, 4000);
    case_g2(((size_t)1 << 17) + 3, K_RANDOM, 100, 1, 0, 0);
    cz_pool_destroy(pool);
    cz_cuda_msm_destroy(ctx);
    return cz_test_finish("test_cuda_msm");
}

int main(void) { return run(); }

#else

int main(void)
{
    printf("test_cuda_msm: SKIP (no CUDA device)\n");
    return 0;
}

#endif
