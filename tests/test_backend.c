/* test_backend.c — the backend interface (backend/backend.h) on the CPU.
 *
 * - cz_backend_parse takes cpu, cuda and auto and refuses anything else with
 *   a message naming the choices;
 * - auto opens the CPU where no CUDA device is seen, and cuda fails there
 *   with CZ_ERR_UNSUPPORTED (not built) or CZ_ERR_DEVICE (no device) and a
 *   message saying which (skipped, with a line, where a device exists);
 * - proofs through cz_be_prove equal those of cz_groth16_prove (a synthetic
 *   circuit, the insecure setup) and cz_groth16_prove_zkey (the snarkjs
 *   chain.zkey of tests/data) byte for byte for the same r, s, from the
 *   caller's array and from the worker's buffer, on two workers with
 *   different thread counts; they verify; the timings are a CPU's;
 * - loading the same circuit twice gives the same key; the first release
 *   keeps it (it still proves), the second frees it (this test is linked
 *   with --wrap=free, so every free of the library goes through
 *   __wrap_free below, which notes whether the key's pointer was freed); a
 *   malformed circuit is refused, and so is a key without its points on
 *   the host and no device key (a key made on a device, which has no CPU
 *   fallback); the setup on the device is refused on the CPU;
 * - a worker's buffer grows for a larger request and is reused for smaller
 *   ones, keeping its contents;
 * - the statistics count the proofs;
 * - a worker with progress set reports each proof's six stages in order
 *   (bellperson's and the zkey prover's names), then "proof" 6 of 6, and
 *   proves the same bytes as without; one without progress reports none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "circuits/synth.h"
#include "formats/proof.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "groth16/groth16.h"
#include "testutil.h"
#include "util/rng.h"

/* what a worker's progress reports said over one proof */
typedef struct {
    int calls, bad;
    char first_bad[96];
} stage_log;
static const char *const stages_bp[] = {"SpMV", "H (NTTs)", "MSM h + l", "MSM a", "MSM b (G1)", "MSM b (G2)", "proof"};
static const char *const stages_zk[] = {"SpMV", "H (NTTs)", "MSM H + C", "MSM A", "MSM B (G1)", "MSM B (G2)", "proof"};
static const char *const *stages_want;

static void on_stage(void *ctx, const char *stage, uint64_t done, uint64_t total)
{
    stage_log *g = ctx;
    int i = g->calls++;
    int ok = i < 7 && total == CZ_GROTH16_PROVE_STAGES && done == (uint64_t)(i < 6 ? i : 6) &&
             !strcmp(stage, stages_want[i]);
    if (!ok && !g->bad++)
        snprintf(g->first_bad, sizeof g->first_bad, "call %d: %s %llu of %llu", i, stage, (unsigned long long)done,
                 (unsigned long long)total);
}

static void test_parse(void)
{
    char msg[256];
    cz_backend_kind k = CZ_BACKEND_CUDA;
    CHECK(cz_backend_parse("cpu", &k, msg, sizeof msg) == CZ_OK && k == CZ_BACKEND_CPU);
    CHECK(cz_backend_parse("cuda", &k, msg, sizeof msg) == CZ_OK && k == CZ_BACKEND_CUDA);
    CHECK(cz_backend_parse("auto", &k, msg, sizeof msg) == CZ_OK && k == CZ_BACKEND_AUTO);
    const char *bad[] = {"gpu", "", "CPU", "cuda0", "auto "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        msg[0] = 0;
        k = CZ_BACKEND_CPU;
        CHECK_MSG(cz_backend_parse(bad[i], &k, msg, sizeof msg) == CZ_ERR_INVALID_ARG, "'%s' accepted", bad[i]);
        CHECK_MSG(strstr(msg, "cpu, cuda or auto") && strstr(msg, bad[i]), "'%s': %s", bad[i], msg);
        CHECK(k == CZ_BACKEND_CPU); /* untouched */
    }
    CHECK(cz_backend_parse(NULL, &k, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK(!strcmp(cz_backend_kind_name(CZ_BACKEND_CPU), "cpu"));
    CHECK(!strcmp(cz_backend_kind_name(CZ_BACKEND_CUDA), "cuda"));
    CHECK(!strcmp(cz_backend_kind_name(CZ_BACKEND_AUTO), "auto"));
}

static void test_open(void)
{
    char msg[256];
    int devices = cz_backend_cuda_devices();
    printf("test_backend: CUDA backend %s, %d device(s)\n", cz_backend_cuda_built() ? "built" : "not built", devices);
    CHECK(devices >= 0);
    if (!cz_backend_cuda_built()) CHECK(devices == 0);
    cz_be *b = NULL;
    cz_backend_opts o = {.kind = CZ_BACKEND_CPU, .threads = 1};
    CHECK_MSG(cz_be_open(&b, &o, msg, sizeof msg) == CZ_OK && b, "%s", msg);
    if (b) {
        CHECK(cz_be_kind(b) == CZ_BACKEND_CPU && !strcmp(cz_be_name(b), "cpu"));
        cz_be_close(b);
    }
    CHECK(cz_be_open(&b, NULL, msg, sizeof msg) == CZ_OK || devices > 0); /* NULL opts: auto */
    if (devices == 0) {
        if (b) {
            CHECK(cz_be_kind(b) == CZ_BACKEND_CPU);
            cz_be_close(b);
        }
        o.kind = CZ_BACKEND_AUTO;
        b = NULL;
        CHECK_MSG(cz_be_open(&b, &o, msg, sizeof msg) == CZ_OK && b, "%s", msg);
        if (b) {
            CHECK(cz_be_kind(b) == CZ_BACKEND_CPU && !strcmp(cz_be_name(b), "cpu"));
            cz_be_close(b);
        }
        o.kind = CZ_BACKEND_CUDA;
        b = (cz_be *)&o; /* must be cleared */
        msg[0] = 0;
        cz_err e = cz_be_open(&b, &o, msg, sizeof msg);
        CHECK(b == NULL);
        if (cz_backend_cuda_built()) CHECK_MSG(e == CZ_ERR_DEVICE && strstr(msg, "no CUDA device"), "%d %s", e, msg);
        else CHECK_MSG(e == CZ_ERR_UNSUPPORTED && strstr(msg, "no CUDA backend"), "%d %s", e, msg);
        CHECK_MSG(strstr(msg, "cuda") != NULL, "%s", msg);
        printf("test_backend: --backend cuda here: %s\n", msg);
    } else {
        if (b) cz_be_close(b);
        printf("test_backend: SKIP the no-device checks (%d CUDA device(s) present)\n", devices);
    }
}

static int same_proof(const cz_groth16_proof *a, const cz_groth16_proof *b)
{
    uint8_t x[CZ_GROTH16_PROOF_BYTES], y[CZ_GROTH16_PROOF_BYTES];
    cz_proof_encode(x, a);
    cz_proof_encode(y, b);
    return !memcmp(x, y, sizeof x);
}

/* free() as the library calls it (the link has --wrap=free): counts the
 * frees of one watched pointer */
void __real_free(void *p);
void __wrap_free(void *p);
static const void *watched;
static int watched_frees;
void __wrap_free(void *p)
{
    if (p && p == watched) watched_frees++;
    __real_free(p);
}

/* the bellperson path: a synthetic circuit, the insecure setup */
static void test_bellperson(cz_rng *rng, cz_pool *pool)
{
    char msg[512];
    cz_synth_params sp;
    cz_synth_params_init(&sp);
    sp.n_constraints = 1000;
    sp.seed = 5;
    cz_r1cs cs;
    cz_fr *w = NULL;
    cz_groth16_pk pk = {0};
    cz_groth16_pvk pvk = {0};
    CHECK_MSG(cz_synth_generate(&cs, &w, &sp, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK_MSG(cz_groth16_setup_insecure(&pk, &cs, 9, pool, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(cz_groth16_prepare_vk(&pvk, &pk.vk) == CZ_OK);

    cz_be *b = NULL;
    cz_backend_opts o = {.kind = CZ_BACKEND_CPU, .threads = 2};
    CHECK_MSG(cz_be_open(&b, &o, msg, sizeof msg) == CZ_OK, "%s", msg);
    if (!b) goto out;
    cz_be_circuit c = {.pk = &pk, .cs = &cs};
    cz_be_key *k1 = NULL, *k2 = NULL;
    CHECK_MSG(cz_be_load(b, &c, &k1, msg, sizeof msg) == CZ_OK && k1, "%s", msg);
    CHECK(cz_be_key_device_bytes(k1) == 0);
    CHECK(!cz_be_key_resident(k1)); /* the CPU backend never holds a key on a device */
    cz_be_worker *w1 = NULL, *w2 = NULL;
    CHECK_MSG(cz_be_worker_create(b, &w1, msg, sizeof msg) == CZ_OK && w1, "%s", msg);
    /* a second worker with one thread: a backend opened with threads = 1 */
    cz_be *b1 = NULL;
    cz_backend_opts o1 = {.kind = CZ_BACKEND_CPU, .threads = 1};
    CHECK(cz_be_open(&b1, &o1, msg, sizeof msg) == CZ_OK);
    cz_be_key *k1b = NULL;
    CHECK(b1 && cz_be_load(b1, &c, &k1b, msg, sizeof msg) == CZ_OK);
    CHECK(b1 && cz_be_worker_create(b1, &w2, msg, sizeof msg) == CZ_OK);
    if (!k1 || !w1 || !k1b || !w2) goto close;

    for (int round = 0; round < 3; round++) {
        cz_fr r, s;
        cz_fr_random(&r, rng);
        cz_fr_random(&s, rng);
        cz_groth16_proof ref, p1, p2, p3;
        cz_groth16_timings tr, t1 = {.on_cpu = 7, .upload_ms = 5};
        CHECK_MSG(cz_groth16_prove(&ref, &pk, &cs, w, &r, &s, pool, &tr, msg, sizeof msg) == CZ_OK, "%s", msg);
        /* with progress in rounds 0 and 2, without in round 1 */
        stage_log sl = {0};
        stages_want = stages_bp;
        cz_be_worker_set_progress(w1, round == 1 ? NULL : on_stage, &sl);
        CHECK_MSG(cz_be_prove(w1, k1, w, &r, &s, &p1, &t1, msg, sizeof msg) == CZ_OK, "%s", msg);
        CHECK_MSG(same_proof(&ref, &p1), "round %d: the backend's proof differs from cz_groth16_prove's", round);
        CHECK_MSG(round == 1 ? sl.calls == 0 : sl.calls == 7 && !sl.bad, "round %d: %d stage reports, %s", round,
                  sl.calls, sl.bad ? sl.first_bad : "all as expected");
        cz_be_worker_set_progress(w1, NULL, NULL);
        CHECK(t1.on_cpu == 0 && t1.upload_ms == 0 && t1.h2d_bytes == 0 && t1.total_ms > 0 && t1.msm_hl_ms > 0);
        /* from the worker's buffer */
        cz_fr *buf = cz_be_worker_buffer(w1, cs.n_vars);
        CHECK(buf != NULL);
        if (buf) {
            memcpy(buf, w, cs.n_vars * sizeof *buf);
            CHECK(cz_be_prove(w1, k1, buf, &r, &s, &p2, NULL, msg, sizeof msg) == CZ_OK);
            CHECK(same_proof(&ref, &p2));
        }
        /* another backend, one thread */
        CHECK(cz_be_prove(w2, k1b, w, &r, &s, &p3, NULL, msg, sizeof msg) == CZ_OK);
        CHECK(same_proof(&ref, &p3));
        CHECK(cz_groth16_verify(&pvk, &p1, w + 1, cs.n_inputs - 1) == 1);
        if (round == 0) { /* other randomness, another proof */
            cz_fr r2 = r;
            cz_fr_add(&r2, &r2, &s);
            CHECK(cz_be_prove(w1, k1, w, &r2, &s, &p3, NULL, msg, sizeof msg) == CZ_OK);
            CHECK(!same_proof(&ref, &p3));
            CHECK(cz_groth16_verify(&pvk, &p3, w + 1, cs.n_inputs - 1) == 1);
        }
    }
    cz_be_stats st;
    cz_be_get_stats(b, &st);
    CHECK_MSG(st.proofs == 7 && st.cpu_fallbacks == 0, "%llu proofs, %llu fallbacks", (unsigned long long)st.proofs,
              (unsigned long long)st.cpu_fallbacks);
    CHECK(st.vram_budget == 0 && st.vram_used == 0 && st.vram_peak == 0);

    /* the same circuit again: the same key, one more reference */
    CHECK(cz_be_load(b, &c, &k2, msg, sizeof msg) == CZ_OK && k2 == k1);
    /* a circuit is pk + cs, or zpk: anything else is refused */
    cz_be_circuit bad1 = {.pk = &pk}, bad2 = {.cs = &cs}, bad3 = {0};
    cz_be_key *kb = (cz_be_key *)&c;
    CHECK(cz_be_load(b, &bad1, &kb, msg, sizeof msg) == CZ_ERR_INVALID_ARG && kb == NULL);
    CHECK(cz_be_load(b, &bad2, &kb, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK(cz_be_load(b, &bad3, &kb, msg, sizeof msg) == CZ_ERR_INVALID_ARG && strstr(msg, "pk + cs, or zpk"));
    cz_be_circuit dev = {.pk = &pk, .cs = &cs, .dev_pk = &pk};
    CHECK(cz_be_load(b, &dev, &kb, msg, sizeof msg) == CZ_ERR_INVALID_ARG && strstr(msg, "cuda"));
    {   /* a key without its points on the host (made on a device) and no
         * device key: refused with a message, never proved from NULLs */
        cz_groth16_pk bare = pk;
        bare.h = bare.l = bare.a = bare.b_g1 = NULL;
        bare.b_g2 = NULL;
        cz_be_circuit hb = {.pk = &bare, .cs = &cs};
        kb = (cz_be_key *)&c;
        CHECK(cz_be_load(b, &hb, &kb, msg, sizeof msg) == CZ_ERR_INVALID_ARG && kb == NULL);
        CHECK_MSG(strstr(msg, "no host copy"), "%s", msg);
        /* and the setup on the device needs a device backend */
        void *dp = &c;
        uint64_t db = 1;
        CHECK(cz_be_setup_insecure(b, &bare, &dp, &db, &cs, 1, NULL, msg, sizeof msg) == CZ_ERR_UNSUPPORTED);
        CHECK_MSG(dp == NULL && db == 0 && bare.h == NULL && bare.vk.ic == NULL && strstr(msg, "cuda"), "%s", msg);
        cz_be_dev_pk_free(b, NULL);
        /* nor can a device key be copied to it */
        dp = &c;
        CHECK(cz_be_dev_pk_clone(b, &pk, &dp, msg, sizeof msg) == CZ_ERR_UNSUPPORTED);
        CHECK_MSG(dp == NULL && strstr(msg, "CUDA"), "%s", msg);
    }
    /* first release: still loaded, still proves, not freed */
    watched = k1;
    watched_frees = 0;
    cz_be_release(b, k2);
    CHECK_MSG(watched_frees == 0, "the first release freed the key");
    {
        cz_fr r, s;
        cz_groth16_proof p;
        cz_fr_random(&r, rng);
        cz_fr_random(&s, rng);
        CHECK(cz_be_prove(w1, k1, w, &r, &s, &p, NULL, msg, sizeof msg) == CZ_OK);
        CHECK(cz_groth16_verify(&pvk, &p, w + 1, cs.n_inputs - 1) == 1);
    }
    /* second release: the key is freed, once */
    cz_be_release(b, k1);
    CHECK_MSG(watched_frees == 1, "the last release freed the key %d times", watched_frees);
    watched = NULL;
    k1 = NULL;
    /* and it loads again */
    CHECK(cz_be_load(b, &c, &k2, msg, sizeof msg) == CZ_OK && k2);
    cz_be_release(b, k2);
close:
    cz_be_worker_destroy(w1);
    cz_be_worker_destroy(w2);
    cz_be_release(b, k1);
    if (b1) {
        cz_be_release(b1, k1b);
        cz_be_close(b1);
    }
    cz_be_close(b);
out:
    cz_groth16_pvk_free(&pvk);
    cz_groth16_pk_free(&pk);
    cz_r1cs_free(&cs);
    free(w);
}

/* the snarkjs path: tests/data/snarkjs/chain.zkey and its witness */
static void test_zkey(cz_rng *rng, cz_pool *pool)
{
    char msg[600], zpath[4096], wpath[4096];
    const char *src = getenv("SRC");
    snprintf(zpath, sizeof zpath, "%s/tests/data/snarkjs/chain.zkey", src && *src ? src : CUZK_SOURCE_DIR);
    snprintf(wpath, sizeof wpath, "%s/tests/data/snarkjs/chain.wtns", src && *src ? src : CUZK_SOURCE_DIR);
    FILE *f = fopen(zpath, "rb");
    if (!f) {
        printf("test_backend: SKIP the zkey path (no %s)\n", zpath);
        return;
    }
    fclose(f);
    cz_zkey zk;
    cz_fr *w = NULL;
    uint64_t n = 0;
    CHECK_MSG(cz_zkey_open(&zk, zpath, pool, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK_MSG(cz_wtns_read(&w, &n, wpath, msg, sizeof msg) == CZ_OK && n == zk.pk.n_vars, "%s", msg);
    cz_groth16_pvk pvk;
    CHECK(cz_groth16_prepare_vk(&pvk, &zk.pk.vk) == CZ_OK);
    cz_be *b = NULL;
    cz_backend_opts o = {.kind = CZ_BACKEND_CPU, .threads = 2};
    CHECK(cz_be_open(&b, &o, msg, sizeof msg) == CZ_OK);
    cz_be_circuit c = {.zpk = &zk.pk};
    cz_be_key *k = NULL, *k2 = NULL;
    cz_be_worker *bw = NULL;
    CHECK_MSG(b && cz_be_load(b, &c, &k, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(b && cz_be_load(b, &c, &k2, msg, sizeof msg) == CZ_OK && k2 == k);
    CHECK(b && cz_be_worker_create(b, &bw, msg, sizeof msg) == CZ_OK);
    /* a zpk together with a pk is two forms: refused */
    cz_groth16_pk dummy = {0};
    cz_be_circuit both = {.zpk = &zk.pk, .pk = &dummy};
    cz_be_key *kb;
    CHECK(b && cz_be_load(b, &both, &kb, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    if (k && bw && w && n == zk.pk.n_vars) {
        for (int round = 0; round < 3; round++) {
            cz_fr r, s;
            cz_fr_random(&r, rng);
            cz_fr_random(&s, rng);
            cz_groth16_proof ref, p, q;
            cz_groth16_timings t;
            CHECK(cz_groth16_prove_zkey(&ref, &zk.pk, w, &r, &s, pool, NULL, msg, sizeof msg) == CZ_OK);
            stage_log sl = {0};
            stages_want = stages_zk;
            cz_be_worker_set_progress(bw, on_stage, &sl);
            CHECK_MSG(cz_be_prove(bw, k, w, &r, &s, &p, &t, msg, sizeof msg) == CZ_OK, "%s", msg);
            cz_be_worker_set_progress(bw, NULL, NULL);
            CHECK_MSG(same_proof(&ref, &p), "round %d: the zkey proof differs", round);
            CHECK_MSG(sl.calls == 7 && !sl.bad, "zkey round %d: %d stage reports, %s", round, sl.calls,
                      sl.bad ? sl.first_bad : "all as expected");
            CHECK(t.on_cpu == 0 && t.total_ms > 0);
            cz_fr *buf = cz_be_worker_buffer(bw, n);
            CHECK(buf != NULL);
            if (buf) {
                memcpy(buf, w, n * sizeof *buf);
                CHECK(cz_be_prove(bw, k2, buf, &r, &s, &q, NULL, msg, sizeof msg) == CZ_OK);
                CHECK(same_proof(&ref, &q));
            }
            CHECK(cz_groth16_verify(&pvk, &p, w + 1, zk.pk.n_public) == 1);
        }
    }
    cz_be_worker_destroy(bw);
    if (b) {
        cz_be_release(b, k2);
        cz_be_release(b, k);
        cz_be_close(b);
    }
    cz_groth16_pvk_free(&pvk);
    free(w);
    cz_zkey_close(&zk);
}

static void test_buffers(void)
{
    char msg[256];
    cz_be *b = NULL;
    cz_backend_opts o = {.kind = CZ_BACKEND_CPU, .threads = 1};
    CHECK(cz_be_open(&b, &o, msg, sizeof msg) == CZ_OK);
    cz_be_worker *w = NULL;
    CHECK(b && cz_be_worker_create(b, &w, msg, sizeof msg) == CZ_OK);
    if (!w) {
        cz_be_close(b);
        return;
    }
    cz_fr *a = cz_be_worker_buffer(w, 100);
    CHECK(a != NULL);
    if (!a) goto out;
    for (int i = 0; i < 100; i++) cz_fr_from_u64(&a[i], (uint64_t)i + 1);
    CHECK(cz_be_worker_buffer(w, 100) == a);
    CHECK(cz_be_worker_buffer(w, 50) == a);   /* smaller: the same buffer */
    CHECK(cz_be_worker_buffer(w, 1) == a);
    int kept = 1;
    for (int i = 0; i < 100; i++) {
        cz_fr x;
        cz_fr_from_u64(&x, (uint64_t)i + 1);
        kept &= cz_fr_eq(&a[i], &x);
    }
    CHECK_MSG(kept, "a reused buffer lost its contents");
    cz_fr *big = cz_be_worker_buffer(w, (size_t)1 << 16); /* larger: grows */
    CHECK(big != NULL);
    if (!big) goto out;
    for (size_t i = 0; i < ((size_t)1 << 16); i++) cz_fr_from_u64(&big[i], i); /* all of it writable */
    CHECK(cz_be_worker_buffer(w, 100) == big);             /* and reused from then on */
    CHECK(cz_be_worker_buffer(w, (size_t)1 << 16) == big);
    cz_fr x;
    cz_fr_from_u64(&x, 12345);
    CHECK(cz_fr_eq(&big[12345], &x));
out:
    cz_be_worker_destroy(w);
    cz_be_close(b);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_backend", 11));
    cz_pool *pool;
    CHECK(cz_pool_create(&pool, 2) == CZ_OK);
    test_parse();
    test_open();
    test_bellperson(&rng, pool);
    test_zkey(&rng, pool);
    test_buffers();
    cz_pool_destroy(pool);
    return cz_test_finish("test_backend");
}
