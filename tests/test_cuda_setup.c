/* test_cuda_setup.c — the GPU Groth16 setup (src/cuda/cz_cuda_setup.h)
 * against the CPU setup (cz_groth16_setup_insecure): the two keys must be
 * equal byte for byte for the same seed. The GPU's key is compared as a
 * device-to-device copy (cz_cuda_pk_dev_clone, on the last device, the
 * original freed first), so the copy an engine's other devices get is
 * checked with it, and its bytes must be counted in that device's budget.
 *
 * Circuits: synthetic ones (cz_synth_generate) whose domain is exactly 2^5,
 * 2^8, 2^10, 2^12 and 2^14 (N = 2^k - 4 constraints, so the input rows fill
 * the domain), odd sizes that leave the domain partly empty, one with two
 * all-zero columns (their l points are infinity) and one whose roots of
 * unity come from 5 instead of 7; each with two seeds (CZ_TEST_SEED replays
 * a run; every failure names the seed), some with a small scratch that
 * forces many chunks. A proof made with the GPU's key must verify. Failure
 * paths: every allocation of the setup made to fail in turn, launch failures
 * and a budget too small for the key must each return an error with a
 * message and leave the device's allocator where it was.
 *
 * Without a GPU (or without a CUDA build) it prints a SKIP line and passes;
 * with a CUDA build the kernels' code is still run on the host
 * (cz__cuda_setup_insecure_emulated) on the smaller circuits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "circuits/synth.h"
#include "groth16/groth16.h"
#include "util/pool.h"
#if CZ_HAVE_CUDA
#include "cuda/cz_cuda.h"
#include "cuda/cz_cuda_setup.h"
#include "cuda/cz_cuda_vram.h"
#endif

#if CZ_HAVE_CUDA

static cz_pool *pool;
static uint64_t base_seed;

static void make_synth(cz_r1cs *cs, cz_fr **w, uint64_t n, uint64_t seed)
{
    char msg[256];
    cz_synth_params p;
    cz_synth_params_init(&p);
    p.n_constraints = n;
    p.seed = seed;
    cz_err e = cz_synth_generate(cs, w, &p, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "synth %llu: %s", (unsigned long long)n, msg);
    if (e) exit(1);
}

#define CMP_ARRAY(field, n)                                                                            \
    do {                                                                                               \
        size_t bad = (size_t)-1;                                                                       \
        for (size_t i = 0; i < (n) && bad == (size_t)-1; i++)                                          \
            if (memcmp(&a->field[i], &b->field[i], sizeof a->field[i])) bad = i;                       \
        CHECK_MSG(bad == (size_t)-1, "%s, seed %llu: " #field "[%zu] of %zu differs", what,            \
                  (unsigned long long)seed, bad, (size_t)(n));                                         \
    } while (0)

static void same_key(const cz_groth16_pk *a, const cz_groth16_pk *b, const char *what, uint64_t seed)
{
    CHECK_MSG(a->n_h == b->n_h && a->n_l == b->n_l && a->n_a == b->n_a && a->n_b_g1 == b->n_b_g1 &&
                  a->n_b_g2 == b->n_b_g2 && a->vk.n_ic == b->vk.n_ic,
              "%s, seed %llu: lengths h %zu/%zu l %zu/%zu a %zu/%zu b %zu/%zu ic %zu/%zu", what,
              (unsigned long long)seed, a->n_h, b->n_h, a->n_l, b->n_l, a->n_a, b->n_a, a->n_b_g1, b->n_b_g1,
              a->vk.n_ic, b->vk.n_ic);
    if (a->n_h != b->n_h || a->n_l != b->n_l || a->n_a != b->n_a || a->n_b_g1 != b->n_b_g1 ||
        a->n_b_g2 != b->n_b_g2 || a->vk.n_ic != b->vk.n_ic)
        return;
    CMP_ARRAY(h, a->n_h);
    CMP_ARRAY(l, a->n_l);
    CMP_ARRAY(a, a->n_a);
    CMP_ARRAY(b_g1, a->n_b_g1);
    CMP_ARRAY(b_g2, a->n_b_g2);
    CMP_ARRAY(vk.ic, a->vk.n_ic);
    CHECK_MSG(!memcmp(&a->vk.alpha_g1, &b->vk.alpha_g1, sizeof a->vk.alpha_g1) &&
                  !memcmp(&a->vk.beta_g1, &b->vk.beta_g1, sizeof a->vk.beta_g1) &&
                  !memcmp(&a->vk.delta_g1, &b->vk.delta_g1, sizeof a->vk.delta_g1) &&
                  !memcmp(&a->vk.beta_g2, &b->vk.beta_g2, sizeof a->vk.beta_g2) &&
                  !memcmp(&a->vk.gamma_g2, &b->vk.gamma_g2, sizeof a->vk.gamma_g2) &&
                  !memcmp(&a->vk.delta_g2, &b->vk.delta_g2, sizeof a->vk.delta_g2),
              "%s, seed %llu: vk points differ", what, (unsigned long long)seed);
}

/* the GPU setup with options, copied device to device, downloaded into a host pk */
static cz_err gpu_setup(cz_groth16_pk *pk, const cz_r1cs *cs, uint64_t seed, const cz_cuda_setup_opts *o,
                        char *msg, size_t msglen)
{
    cz_cuda_pk_dev d;
    cz_groth16_vk vk;
    memset(pk, 0, sizeof *pk);
    cz_err e = cz__cuda_setup_insecure_ex(&vk, &d, cs, seed, 0, pool, o, NULL, msg, msglen);
    if (e) return e;
    /* the key the callers compare is a device-to-device copy on the last
     * device (how an engine's other devices get it), the original freed
     * first; the copy is counted in that device's budget */
    cz_cuda_pk_dev c;
    int last = cz_cuda_device_count() - 1;
    uint64_t used0 = 0, used1 = 0;
    cz_cuda_vram_stats(last, NULL, &used0, NULL);
    e = cz_cuda_pk_dev_clone(&c, &d, last, msg, msglen);
    cz_cuda_vram_stats(last, NULL, &used1, NULL);
    CHECK_MSG(e || (c.device == last && used1 - used0 == cz_cuda_pk_dev_bytes(&d)),
              "the copy: device %d, %llu bytes counted for %llu", c.device, (unsigned long long)(used1 - used0),
              (unsigned long long)cz_cuda_pk_dev_bytes(&d));
    cz_cuda_pk_dev_free(&d);
    if (e) { cz_groth16_vk_free(&vk); return e; }
    e = cz_cuda_pk_dev_download(pk, &c, msg, msglen);
    cz_cuda_pk_dev_free(&c);
    if (e) { cz_groth16_vk_free(&vk); return e; }
    pk->vk = vk;
    return CZ_OK;
}

enum { ON_HOST, ON_GPU };

/* one circuit, one seed: the CPU key against the GPU's (or the emulated
 * kernels'), then a proof with the GPU's key when w is given */
static void check_case(const char *what, const cz_r1cs *cs, const cz_fr *w, uint64_t seed, int where,
                       uint64_t scratch)
{
    char msg[256] = "";
    cz_groth16_pk ref, got;
    cz_cuda_setup_opts o = {.scratch_bytes = scratch};
    cz_err e = cz_groth16_setup_insecure(&ref, cs, seed, pool, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "%s, seed %llu: CPU setup: %s", what, (unsigned long long)seed, msg);
    if (e) return;
    e = where == ON_GPU ? gpu_setup(&got, cs, seed, &o, msg, sizeof msg)
                        : cz__cuda_setup_insecure_emulated(&got, cs, seed, pool, &o, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "%s, seed %llu: %s setup: %s", what, (unsigned long long)seed,
              where == ON_GPU ? "GPU" : "emulated", msg);
    if (e) { cz_groth16_pk_free(&ref); return; }
    same_key(&ref, &got, what, seed);
    if (w) {
        cz_groth16_proof pr;
        cz_groth16_pvk pvk;
        cz_fr r, s;
        cz_fr_from_u64(&r, seed * 3 + 1);
        cz_fr_from_u64(&s, seed * 5 + 2);
        e = cz_groth16_prove(&pr, &got, cs, w, &r, &s, pool, NULL, msg, sizeof msg);
        CHECK_MSG(e == CZ_OK, "%s, seed %llu: prove: %s", what, (unsigned long long)seed, msg);
        CHECK(cz_groth16_prepare_vk(&pvk, &got.vk) == CZ_OK);
        CHECK_MSG(e == CZ_OK && cz_groth16_verify(&pvk, &pr, w + 1, cs->n_inputs - 1),
                  "%s, seed %llu: a proof with the %s key does not verify", what, (unsigned long long)seed,
                  where == ON_GPU ? "GPU" : "emulated");
        cz_groth16_pvk_free(&pvk);
    }
    printf("  %-28s seed %-20llu %s: h %zu l %zu a %zu b %zu ic %zu\n", what, (unsigned long long)seed,
           where == ON_GPU ? "gpu" : "emulated", got.n_h, got.n_l, got.n_a, got.n_b_g1, got.vk.n_ic);
    cz_groth16_pk_free(&ref);
    cz_groth16_pk_free(&got);
}

/* every circuit of the list with two seeds; sizes up to max_log, max_n
 * constraints */
static void check_circuits(int where, int max_log)
{
    static const int logs[] = {5, 8, 10, 12, 14};
    char what[64];
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        if (logs[i] > max_log) continue;
        cz_r1cs cs;
        cz_fr *w;
        uint64_t n = ((uint64_t)1 << logs[i]) - (1 + CZ_SYNTH_DEFAULT_PUBLIC);
        make_synth(&cs, &w, n, base_seed + (uint64_t)logs[i]);
        snprintf(what, sizeof what, "synth 2^%d - 4", logs[i]);
        check_case(what, &cs, w, base_seed + 1, where, 0);
        check_case(what, &cs, logs[i] <= 10 ? w : NULL, base_seed + 2, where, 0);
        cz_r1cs_free(&cs);
        free(w);
    }
    /* odd sizes: the domain partly empty */
    const uint64_t odd[] = {777, 4099};
    for (size_t i = 0; i < 2; i++) {
        if (odd[i] + 4 > ((uint64_t)1 << max_log)) continue;
        cz_r1cs cs;
        cz_fr *w;
        make_synth(&cs, &w, odd[i], base_seed + 100 + i);
        snprintf(what, sizeof what, "synth %llu", (unsigned long long)odd[i]);
        check_case(what, &cs, w, base_seed + 3, where, 0);
        /* many chunks: the least scratch (32 points), then a few hundred */
        check_case(what, &cs, NULL, base_seed + 4, where, 1);
        check_case(what, &cs, NULL, base_seed + 5, where, 100000);
        cz_r1cs_free(&cs);
        free(w);
    }
    {   /* two variables in no constraint: all-zero columns, infinity in l */
        cz_r1cs cs;
        cz_fr *w;
        make_synth(&cs, &w, 300, base_seed + 200);
        cz_fr *w2 = realloc(w, (cs.n_vars + 2) * sizeof *w2);
        CHECK(w2 != NULL);
        if (!w2) exit(1);
        w = w2;
        cz_fr_from_u64(&w[cs.n_vars], 5);
        cz_fr_from_u64(&w[cs.n_vars + 1], 0);
        cs.n_vars += 2;
        check_case("synth 300 + 2 zero columns", &cs, w, base_seed + 6, where, 0);
        check_case("synth 300 + 2 zero columns", &cs, NULL, base_seed + 7, where, 1);
        cz_r1cs_free(&cs);
        free(w);
    }
    {   /* roots of unity from 5 (snarkjs) */
        cz_r1cs cs;
        cz_fr *w;
        make_synth(&cs, &w, 1000, base_seed + 300);
        cs.ntt_generator = 5;
        check_case("synth 1000, generator 5", &cs, w, base_seed + 8, where, 0);
        check_case("synth 1000, generator 5", &cs, NULL, base_seed + 9, where, 0);
        cz_r1cs_free(&cs);
        free(w);
    }
}

/* the failure paths: each returns an error and a message, and leaves the
 * allocator as it was */
static void check_failures(void)
{
    cz_r1cs cs;
    cz_fr *w;
    char msg[256];
    uint64_t budget0, used0, used;
    cz_groth16_vk vk;
    cz_cuda_pk_dev d;
    make_synth(&cs, &w, 2000, base_seed + 400);
    cz_cuda_vram_stats(0, &budget0, &used0, NULL);
    int failed = 0, succeeded = 0;
    for (long n = 1; n <= 16 && !succeeded; n++) {
        msg[0] = 0;
        cz_cuda_inject(n, 0);
        cz_err e = cz_cuda_setup_insecure(&vk, &d, &cs, base_seed + 10, 0, pool, msg, sizeof msg);
        cz_cuda_inject(0, 0);
        cz_cuda_vram_stats(0, NULL, &used, NULL);
        /* (a success is the key itself, held until freed below) */
        CHECK_MSG(e == CZ_OK || used == used0, "seed %llu: allocation %ld failed: %llu bytes still allocated",
                  (unsigned long long)(base_seed + 10), n, (unsigned long long)(used - used0));
        if (e == CZ_OK) {
            succeeded = 1;
            cz_cuda_pk_dev_free(&d);
            cz_groth16_vk_free(&vk);
            cz_cuda_vram_stats(0, NULL, &used, NULL);
            CHECK(used == used0);
            continue;
        }
        failed++;
        CHECK_MSG(e == CZ_ERR_NOMEM && msg[0], "allocation %ld failed: error %d, message '%s'", n, (int)e, msg);
        CHECK(vk.ic == NULL && d.h == NULL && d.l == NULL && d.a == NULL && d.b_g1 == NULL && d.b_g2 == NULL);
    }
    CHECK_MSG(succeeded && failed >= 9, "allocation failures: %d failed before success (%d)", failed, succeeded);
    for (long n = 1; n <= 4; n++) { /* launches */
        msg[0] = 0;
        cz_cuda_inject(0, n);
        cz_err e = cz_cuda_setup_insecure(&vk, &d, &cs, base_seed + 11, 0, pool, msg, sizeof msg);
        cz_cuda_inject(0, 0);
        cz_cuda_vram_stats(0, NULL, &used, NULL);
        CHECK_MSG(e == CZ_ERR_DEVICE && msg[0], "launch %ld failed: error %d, message '%s'", n, (int)e, msg);
        CHECK(used == used0);
        if (e == CZ_OK) { cz_cuda_pk_dev_free(&d); cz_groth16_vk_free(&vk); }
    }
    /* a budget too small for the key */
    cz__cuda_vram_set_budget(0, used0 + (1 << 16));
    msg[0] = 0;
    cz_err e = cz_cuda_setup_insecure(&vk, &d, &cs, base_seed + 12, 0, pool, msg, sizeof msg);
    cz__cuda_vram_set_budget(0, budget0);
    cz_cuda_vram_stats(0, NULL, &used, NULL);
    CHECK_MSG(e == CZ_ERR_NOMEM && strstr(msg, "needs"), "small budget: error %d, message '%s'", (int)e, msg);
    CHECK(used == used0);
    if (e == CZ_OK) { cz_cuda_pk_dev_free(&d); cz_groth16_vk_free(&vk); }
    printf("  failure paths: %d allocation failures, launch failures and a small budget: '%s'\n", failed, msg);
    /* and the setup still works afterwards, through the public host call */
    cz_groth16_pk ref, got;
    CHECK(cz_groth16_setup_insecure(&ref, &cs, base_seed + 13, pool, msg, sizeof msg) == CZ_OK);
    e = cz_cuda_setup_insecure_host(&got, &cs, base_seed + 13, 0, pool, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "after the failures: %s", msg);
    if (e == CZ_OK) same_key(&ref, &got, "synth 2000 after the failures", base_seed + 13);
    cz_groth16_pk_free(&ref);
    cz_groth16_pk_free(&got);
    cz_r1cs_free(&cs);
    free(w);
}

int main(void)
{
    base_seed = cz_test_seed("test_cuda_setup", 1000);
    CHECK(cz_pool_create(&pool, 0) == CZ_OK);
    /* the kernels' code on the host, small circuits */
    check_circuits(ON_HOST, 10);
    if (cz_cuda_device_count() < 1) {
        printf("test_cuda_setup: SKIP (no CUDA device); the kernels' code run on the host was checked\n");
        cz_pool_destroy(pool);
        return cz_test_finish("test_cuda_setup");
    }
    check_circuits(ON_GPU, 14);
    check_failures();
    cz_pool_destroy(pool);
    return cz_test_finish("test_cuda_setup");
}

#else

int main(void)
{
    printf("test_cuda_setup: SKIP (no CUDA device: built without nvcc)\n");
    return 0;
}

#endif
