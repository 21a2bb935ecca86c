/* test_cuda_prover.c — the whole partition proof on the GPU (the CUDA
 * backend, src/cuda/prover.cu, behind src/backend/backend.h) against the
 * CPU backend: for the same witness and r, s the two proofs must be the same
 * bytes, on both prover paths:
 *   bellperson: synthetic Filecoin-shaped circuits (circuits/synth.h) of
 *     several sizes, the domain exactly full and nearly empty, generators 7
 *     and 5, with the insecure test setup;
 *   snarkjs: zkeys encoded from such a circuit and key (generator 5), and
 *     snarkjs's own chain.zkey with its witness (tests/data/snarkjs).
 * Every GPU proof is also verified. Then the backend's promises: loading
 * twice gives the same key and the device bytes come back after the last
 * release; a witness in pageable memory and one in the worker's pinned
 * buffer give the same proof; an injected allocation or launch failure
 * (cz_cuda_inject) at any of the first several calls of a proof makes that
 * partition prove on the CPU, still the same bytes, and the next partition
 * is proved on the GPU again; a key that does not fit the budget is proved
 * on the CPU; the witness's three stage tiers (all of it staged, part of
 * it, none), each forced by the budget, give the same proofs and are
 * reported as such; two workers on two threads prove at once. All of that
 * runs with SpMV and H on a stream of their own beside the witness MSMs
 * (the default, CZ_PROVER_OVERLAP=1); on one stream (0) and at the MSMs'
 * priority (2) the proofs are the same, and on one stream the injected
 * failures and the streamed bases behave as above. The seed is
 * printed (CZ_TEST_SEED replays). Without a CUDA build or a device it
 * prints a SKIP line and passes. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "backend/backend.h"
#include "backend/backend_ops.h"
#include "circuits/synth.h"
#include "formats/proof.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "formats/zkey_export.h"
#include "groth16/groth16.h"
#include "util/pool.h"
#include "util/rng.h"
#if CZ_HAVE_CUDA
#include "cuda/cz_cuda_prover.h"
#include "cuda/cz_cuda_vram.h"
#endif

#if CZ_HAVE_CUDA

static cz_rng rng;
static cz_pool *pool;
static cz_be *cpu, *gpu;
static cz_be_worker *wc, *wg;
static cz_groth16_timings last_t; /* the CUDA backend's times of the last same_proof */
static int overlap = 1; /* the backend gpu runs H beside the witness MSMs (the default; reopen_gpu) */

typedef struct {
    cz_r1cs cs;
    cz_fr *w;
    cz_groth16_pk pk;
    cz_groth16_pvk pvk;
    uint8_t *zbuf;
    cz_zkey zk;
    int have_zk;
} circ;

static int make_circ(circ *c, uint64_t n, unsigned n_pub, uint32_t gen, uint64_t seed, int with_zkey)
{
    char msg[600];
    memset(c, 0, sizeof *c);
    cz_synth_params p;
    cz_synth_params_init(&p);
    p.n_constraints = n;
    p.seed = seed;
    p.n_public = n_pub;
    if (cz_synth_generate(&c->cs, &c->w, &p, msg, sizeof msg)) {
        CHECK_MSG(0, "synth %llu: %s", (unsigned long long)n, msg);
        return 0;
    }
    c->cs.ntt_generator = gen;
    if (cz_groth16_setup_insecure(&c->pk, &c->cs, seed * 31 + 7, pool, msg, sizeof msg)) {
        CHECK_MSG(0, "setup: %s", msg);
        return 0;
    }
    CHECK(cz_groth16_prepare_vk(&c->pvk, &c->pk.vk) == CZ_OK);
    if (with_zkey) {
        size_t len = 0;
        CHECK_MSG(cz_zkey_encode_from_params(&c->zbuf, &len, &c->pk, &c->cs, pool, msg, sizeof msg) == CZ_OK, "%s",
                  msg);
        CHECK_MSG(cz_zkey_load_mem(&c->zk, c->zbuf, len, pool, msg, sizeof msg) == CZ_OK, "%s", msg);
        c->have_zk = 1;
    }
    return 1;
}

static void free_circ(circ *c)
{
    if (c->have_zk) cz_zkey_close(&c->zk);
    free(c->zbuf);
    cz_groth16_pvk_free(&c->pvk);
    cz_groth16_pk_free(&c->pk);
    cz_r1cs_free(&c->cs);
    free(c->w);
}

/* proves w with both backends for the same r, s; 1 when the bytes agree and
 * the GPU proof verifies. *on_cpu: whether the CUDA backend fell back. */
static int same_proof(cz_be_key *kc, cz_be_key *kg, cz_be_worker *g, const cz_fr *w, const cz_groth16_pvk *pvk,
                      size_t n_pub, const char *what, int *on_cpu)
{
    char msg[600];
    cz_fr r, s;
    cz_fr_random(&r, &rng);
    cz_fr_random(&s, &rng);
    cz_groth16_proof pc, pg;
    cz_groth16_timings tc, tg;
    cz_err e1 = cz_be_prove(wc, kc, w, &r, &s, &pc, &tc, msg, sizeof msg);
    CHECK_MSG(e1 == CZ_OK, "%s: cpu: %s", what, msg);
    cz_err e2 = cz_be_prove(g, kg, w, &r, &s, &pg, &tg, msg, sizeof msg);
    CHECK_MSG(e2 == CZ_OK, "%s: cuda: %s", what, msg);
    if (e1 || e2) return 0;
    uint8_t bc[CZ_GROTH16_PROOF_BYTES], bg[CZ_GROTH16_PROOF_BYTES];
    cz_proof_encode(bc, &pc);
    cz_proof_encode(bg, &pg);
    int same = !memcmp(bc, bg, sizeof bc);
    CHECK_MSG(same, "%s: the CUDA proof differs from the CPU proof", what);
    int ok = cz_groth16_verify(pvk, &pg, w + 1, n_pub);
    CHECK_MSG(ok, "%s: the CUDA proof does not verify", what);
    if (on_cpu) *on_cpu = tg.on_cpu;
    last_t = tg;
    if (!tg.on_cpu) {
        CHECK_MSG(tg.msm_h_ms > 0 && tg.msm_b2_ms > 0 && tg.total_ms > 0 && tg.h2d_bytes > 0,
                  "%s: stage times missing", what);
        CHECK(tg.msm_hl_ms == tg.msm_h_ms + tg.msm_l_ms);
        /* the streams it was asked for; on one stream each stage runs from
         * the end of the one before, so they add up to the device's wall
         * (to the events' rounding); beside each other they overlap, and
         * how much depends on the host's timing, so only the wall is checked */
        CHECK_MSG(tg.overlap == overlap, "%s: overlap %d, asked %d", what, tg.overlap, overlap);
        double sum = tg.spmv_ms + tg.ntt_ms + tg.msm_hl_ms + tg.msm_a_ms + tg.msm_b1_ms + tg.msm_b2_ms;
        CHECK_MSG(tg.device_ms > 0, "%s: no device time", what);
        if (!overlap)
            CHECK_MSG(tg.device_ms <= sum * 1.0001 + 0.005 && tg.device_ms >= sum * 0.9999 - 0.005,
                      "%s: one stream: device %.4f ms, stages %.4f ms", what, tg.device_ms, sum);
    }
    return same && ok;
}

static void case_bellperson(uint64_t n, unsigned n_pub, uint32_t gen, uint64_t seed, int zkey_too)
{
    char msg[600], what[96];
    circ c;
    snprintf(what, sizeof what, "bellperson n=%llu pub=%u gen=%u", (unsigned long long)n, n_pub, gen ? gen : 7);
    if (!make_circ(&c, n, n_pub, gen, seed, zkey_too)) return;
    cz_be_circuit bc = {.pk = &c.pk, .cs = &c.cs};
    cz_be_key *kc = NULL, *kg = NULL;
    CHECK_MSG(cz_be_load(cpu, &bc, &kc, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK_MSG(cz_be_load(gpu, &bc, &kg, msg, sizeof msg) == CZ_OK, "%s: %s", what, msg);
    if (kc && kg) {
        CHECK_MSG(cz_be_key_device_bytes(kg) > 0, "%s: not resident", what);
        CHECK_MSG(cz_be_key_resident(kg) && !cz_be_key_resident(kc), "%s: residency misreported", what);
        int on_cpu = -1;
        same_proof(kc, kg, wg, c.w, &c.pvk, c.cs.n_inputs - 1, what, &on_cpu);
        CHECK_MSG(on_cpu == 0, "%s: proved on the CPU", what);
        /* again, from the worker's pinned buffer */
        cz_fr *buf = cz_be_worker_buffer(wg, c.cs.n_vars);
        CHECK(buf != NULL);
        if (buf) {
            memcpy(buf, c.w, c.cs.n_vars * sizeof(cz_fr));
            char w2[120];
            snprintf(w2, sizeof w2, "%s (pinned)", what);
            same_proof(kc, kg, wg, buf, &c.pvk, c.cs.n_inputs - 1, w2, NULL);
            /* the load made window copies of the key's H bases (the budget
             * has room), and the proofs sum through them */
            CHECK_MSG(last_t.on_cpu || last_t.h_copies, "%s: the H MSM did not use window copies", w2);
        }
    }
    cz_be_release(cpu, kc);
    cz_be_release(gpu, kg);
    if (zkey_too && c.have_zk) {
        snprintf(what, sizeof what, "zkey n=%llu pub=%u", (unsigned long long)n, n_pub);
        cz_be_circuit zc = {.zpk = &c.zk.pk};
        kc = kg = NULL;
        CHECK_MSG(cz_be_load(cpu, &zc, &kc, msg, sizeof msg) == CZ_OK, "%s", msg);
        CHECK_MSG(cz_be_load(gpu, &zc, &kg, msg, sizeof msg) == CZ_OK, "%s: %s", what, msg);
        if (kc && kg) {
            cz_groth16_pvk zpvk;
            CHECK(cz_groth16_prepare_vk(&zpvk, &c.zk.pk.vk) == CZ_OK);
            int on_cpu = -1;
            same_proof(kc, kg, wg, c.w, &zpvk, c.cs.n_inputs - 1, what, &on_cpu);
            CHECK_MSG(on_cpu == 0, "%s: proved on the CPU", what);
            CHECK_MSG(last_t.h_copies, "%s: the H MSM did not use window copies", what);
            cz_groth16_pvk_free(&zpvk);
        }
        cz_be_release(cpu, kc);
        cz_be_release(gpu, kg);
    }
    free_circ(&c);
}

static void case_snarkjs_chain(void)
{
    char msg[600];
    cz_zkey zk;
    cz_fr *w = NULL;
    uint64_t n = 0;
    const char *dir = CUZK_SOURCE_DIR "/tests/data/snarkjs/";
    char zp[600], wp[600];
    snprintf(zp, sizeof zp, "%schain.zkey", dir);
    snprintf(wp, sizeof wp, "%schain.wtns", dir);
    if (cz_zkey_open(&zk, zp, NULL, msg, sizeof msg) || cz_wtns_read(&w, &n, wp, msg, sizeof msg)) {
        CHECK_MSG(0, "chain: %s", msg);
        return;
    }
    cz_be_circuit zc = {.zpk = &zk.pk};
    cz_be_key *kc = NULL, *kg = NULL;
    CHECK(cz_be_load(cpu, &zc, &kc, msg, sizeof msg) == CZ_OK);
    CHECK_MSG(cz_be_load(gpu, &zc, &kg, msg, sizeof msg) == CZ_OK, "chain: %s", msg);
    if (kc && kg) {
        cz_groth16_pvk pvk;
        CHECK(cz_groth16_prepare_vk(&pvk, &zk.pk.vk) == CZ_OK);
        for (int i = 0; i < 3; i++) same_proof(kc, kg, wg, w, &pvk, zk.pk.n_public, "snarkjs chain.zkey", NULL);
        cz_groth16_pvk_free(&pvk);
    }
    cz_be_release(cpu, kc);
    cz_be_release(gpu, kg);
    cz_zkey_close(&zk);
    free(w);
}

/* residency: one key per circuit, bytes given back after the last release */
static void case_residency(void)
{
    char msg[600];
    circ c;
    if (!make_circ(&c, 5000, 2, 0, 77, 0)) return;
    cz_be_stats s0, s1, s2;
    cz_be_get_stats(gpu, &s0);
    cz_be_circuit bc = {.pk = &c.pk, .cs = &c.cs};
    cz_be_key *k1 = NULL, *k2 = NULL;
    CHECK(cz_be_load(gpu, &bc, &k1, msg, sizeof msg) == CZ_OK);
    cz_be_get_stats(gpu, &s1);
    CHECK(cz_be_load(gpu, &bc, &k2, msg, sizeof msg) == CZ_OK);
    cz_be_get_stats(gpu, &s2);
    CHECK_MSG(k1 && k1 == k2, "loading twice gave two keys");
    CHECK_MSG(s1.vram_used > s0.vram_used && s2.vram_used == s1.vram_used,
              "device bytes %llu -> %llu -> %llu", (unsigned long long)s0.vram_used,
              (unsigned long long)s1.vram_used, (unsigned long long)s2.vram_used);
    CHECK(s1.vram_budget > 0 && s1.vram_peak >= s1.vram_used);
    cz_be_release(gpu, k1);
    cz_be_get_stats(gpu, &s2);
    CHECK(s2.vram_used == s1.vram_used); /* still held once */
    cz_be_release(gpu, k2);
    cz_be_get_stats(gpu, &s2);
    CHECK_MSG(s2.vram_used == s0.vram_used, "after the last release %llu bytes, before the load %llu",
              (unsigned long long)s2.vram_used, (unsigned long long)s0.vram_used);
    free_circ(&c);
}

/* a circuit of 3000 constraints (3 public inputs) from seed, loaded on
 * both backends; 0 (and nothing held) when either failed */
static int load_both(circ *c, uint64_t seed, cz_be_key **kc, cz_be_key **kg)
{
    char msg[600];
    *kc = *kg = NULL;
    if (!make_circ(c, 3000, 3, 0, seed, 0)) return 0;
    cz_be_circuit bc = {.pk = &c->pk, .cs = &c->cs};
    CHECK_MSG(cz_be_load(cpu, &bc, kc, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK_MSG(cz_be_load(gpu, &bc, kg, msg, sizeof msg) == CZ_OK, "%s", msg);
    if (*kc && *kg) return 1;
    cz_be_release(cpu, *kc);
    cz_be_release(gpu, *kg);
    free_circ(c);
    return 0;
}

/* injected failures: each partition still gets the right proof (on the CPU
 * when its GPU run failed), and the next one runs on the GPU */
static void case_injection(void)
{
    char msg[600];
    circ c;
    cz_be_key *kc, *kg;
    if (!load_both(&c, 99, &kc, &kg)) return;
    cz_be_circuit bc = {.pk = &c.pk, .cs = &c.cs};
    /* a proof in steady state allocates nothing, so each allocation
     * injection follows a launch injection, whose failure freed the
     * scratch the next proof must allocate again */
    int fell = 0, total = 0, unstaged = 0;
    for (long nth = 1; nth <= 40; nth += nth < 8 ? 1 : 8)
        for (int kind = 1; kind >= 0; kind--) {
            char what[80];
            snprintf(what, sizeof what, "inject %s #%ld", kind ? "launch" : "alloc", nth);
            long before = cz_cuda_injected();
            cz_cuda_inject(kind ? 0 : nth, kind ? nth : 0);
            int on_cpu = -1;
            same_proof(kc, kg, wg, c.w, &c.pvk, c.cs.n_inputs - 1, what, &on_cpu);
            cz_cuda_inject(0, 0);
            long fired = cz_cuda_injected() - before;
            /* a launch failure always costs the GPU run; a failed witness
             * allocation only makes the partition unstaged */
            if (kind) CHECK_MSG(fired == on_cpu, "%s: %ld fired, on_cpu %d", what, fired, on_cpu);
            else CHECK_MSG(on_cpu <= fired, "%s: %ld fired, on_cpu %d", what, fired, on_cpu);
            fell += on_cpu == 1;
            unstaged += last_t.stage == CZ_STAGE_UNSTAGED;
            total++;
            if (kind) continue;
            snprintf(what, sizeof what, "after inject #%ld", nth);
            on_cpu = -1;
            same_proof(kc, kg, wg, c.w, &c.pvk, c.cs.n_inputs - 1, what, &on_cpu);
            CHECK_MSG(on_cpu == 0, "%s: the GPU did not recover", what);
        }
    CHECK_MSG(fell >= 8, "only %d of %d injections hit a proof", fell, total);
    CHECK_MSG(unstaged >= 1, "no partition was proved unstaged after a failed witness allocation");
    printf("test_cuda_prover: %d of %d injected failures hit a proof; each proved on the CPU, then the GPU "
           "served the next\n", fell, total);
    /* an allocation failure while loading: the key is loaded streamed */
    cz_be_release(gpu, kg);
    cz_cuda_inject(2, 0);
    kg = NULL;
    CHECK(cz_be_load(gpu, &bc, &kg, msg, sizeof msg) == CZ_OK);
    cz_cuda_inject(0, 0);
    if (kg) { /* the whole key did not fit: its points are streamed */
        CHECK(cz_be_key_device_bytes(kg) > 0);
        CHECK(!cz_be_key_resident(kg));
        int on_cpu = -1;
        same_proof(kc, kg, wg, c.w, &c.pvk, c.cs.n_inputs - 1, "load failed", &on_cpu);
        CHECK(on_cpu == 0);
        cz_be_release(gpu, kg);
    }
    /* a budget too small for the key: the same */
    {
        uint64_t budget, used, peak;
        cz_cuda_vram_stats(0, &budget, &used, &peak);
        cz__cuda_vram_set_budget(0, used + 4096);
        kg = NULL;
        CHECK(cz_be_load(gpu, &bc, &kg, msg, sizeof msg) == CZ_OK);
        cz__cuda_vram_set_budget(0, budget);
        if (kg) {
            CHECK(cz_be_key_device_bytes(kg) == 0);
            CHECK(!cz_be_key_resident(kg));
            int on_cpu = -1;
            same_proof(kc, kg, wg, c.w, &c.pvk, c.cs.n_inputs - 1, "over budget", &on_cpu);
            CHECK(on_cpu == 1);
            cz_be_release(gpu, kg);
        }
    }
    cz_be_release(cpu, kc);
    free_circ(&c);
}

/* the H bases' window copies given back when a partition runs out of
 * memory: that partition runs again on the GPU without them (not on the
 * CPU), and so do the next ones. An allocation is failed by injection
 * after a launch failure freed the scratch (so the partition allocates);
 * the first few allocations are tried in turn, as the witness buffer's
 * failure only makes a partition unstaged. */
static void case_copies_nomem(void)
{
    circ c;
    cz_be_key *kc, *kg;
    if (!load_both(&c, 98, &kc, &kg)) return;
    int on_cpu = -1, recovered = 0;
    same_proof(kc, kg, wg, c.w, &c.pvk, c.cs.n_inputs - 1, "copies: first", &on_cpu);
    CHECK_MSG(on_cpu == 0 && last_t.h_copies, "copies: the first proof did not use window copies");
    for (long nth = 1; nth <= 8 && !recovered; nth++) {
        char what[80];
        snprintf(what, sizeof what, "copies: reset before alloc #%ld", nth);
        cz_cuda_inject(0, 1);
        same_proof(kc, kg, wg, c.w, &c.pvk, c.cs.n_inputs - 1, what, &on_cpu);
        cz_cuda_inject(0, 0);
        snprintf(what, sizeof what, "copies: inject alloc #%ld", nth);
        long before = cz_cuda_injected();
        cz_cuda_inject(nth, 0);
        same_proof(kc, kg, wg, c.w, &c.pvk, c.cs.n_inputs - 1, what, &on_cpu);
        cz_cuda_inject(0, 0);
        long fired = cz_cuda_injected() - before;
        CHECK_MSG(on_cpu == 0, "%s: proved on the CPU though the copies could be given back", what);
        if (fired && !last_t.h_copies) recovered = 1;
    }
    CHECK_MSG(recovered, "no injected allocation failure made a partition give the window copies back");
    same_proof(kc, kg, wg, c.w, &c.pvk, c.cs.n_inputs - 1, "copies: after", &on_cpu);
    CHECK_MSG(on_cpu == 0 && !last_t.h_copies, "copies: after giving them back: on_cpu %d, h_copies %d", on_cpu,
              last_t.h_copies);
    cz_be_release(gpu, kg);
    cz_be_release(cpu, kc);
    free_circ(&c);
}

/* the streamed mode: the points stay on the host and cross in chunks, at
 * chunk sizes that cut the density bitmaps at many places; then a budget
 * too small for the points but not for the rest picks it by itself */
static void case_streamed(void)
{
    char msg[600], what[80];
    for (int z = 0; z < 2; z++) {
        circ c;
        if (!make_circ(&c, 9000, 3, z ? 5 : 0, 313 + z, z)) return;
        cz_be_circuit bc = {.pk = &c.pk, .cs = &c.cs}, zc = {.zpk = &c.zk.pk};
        const cz_be_circuit *cc = z ? &zc : &bc;
        cz_groth16_pvk zpvk;
        if (z) CHECK(cz_groth16_prepare_vk(&zpvk, &c.zk.pk.vk) == CZ_OK);
        cz_be_key *kc = NULL, *kg = NULL;
        CHECK(cz_be_load(cpu, cc, &kc, msg, sizeof msg) == CZ_OK);
        const size_t chunks[] = {64, 1000, 4096, 0};
        for (size_t i = 0; i < sizeof chunks / sizeof *chunks; i++) {
            cz__cuda_prover_stream_knob(1, chunks[i]);
            kg = NULL;
            CHECK_MSG(cz_be_load(gpu, cc, &kg, msg, sizeof msg) == CZ_OK, "%s", msg);
            cz__cuda_prover_stream_knob(-1, chunks[i]);
            if (!kg) continue;
            snprintf(what, sizeof what, "%s streamed, chunk %zu", z ? "zkey" : "bellperson", chunks[i]);
            CHECK_MSG(!cz_be_key_resident(kg), "%s: reported resident", what);
            int on_cpu = -1;
            same_proof(kc, kg, wg, c.w, z ? &zpvk : &c.pvk, c.cs.n_inputs - 1, what, &on_cpu);
            CHECK_MSG(on_cpu == 0, "%s: proved on the CPU", what);
            cz_be_release(gpu, kg);
        }
        cz__cuda_prover_stream_knob(-1, 0);
        cz_be_release(cpu, kc);
        if (z) cz_groth16_pvk_free(&zpvk);
        free_circ(&c);
    }
}

/* a budget with room for everything but the points (and one chunk of
 * them): the key is loaded streamed by itself */
static void case_budget_stream(void)
{
    char msg[600];
    circ c;
    if (!make_circ(&c, (1 << 15) - 4, 3, 0, 4242, 0)) return;
    cz_be_circuit bc = {.pk = &c.pk, .cs = &c.cs};
    cz_be_key *kc = NULL, *kg = NULL;
    CHECK(cz_be_load(cpu, &bc, &kc, msg, sizeof msg) == CZ_OK);
    CHECK(cz_be_load(gpu, &bc, &kg, msg, sizeof msg) == CZ_OK);
    uint64_t full = kg ? cz_be_key_device_bytes(kg) : 0;
    int on_cpu = -1;
    if (kg) same_proof(kc, kg, wg, c.w, &c.pvk, c.cs.n_inputs - 1, "resident", &on_cpu);
    cz_be_release(gpu, kg);
    cz_be_stats s0, s1;
    cz_be_get_stats(gpu, &s0);
    cz__cuda_prover_stream_knob(-1, 4096);
    cz__cuda_vram_set_budget(0, s0.vram_used + full * 6 / 10);
    kg = NULL;
    CHECK_MSG(cz_be_load(gpu, &bc, &kg, msg, sizeof msg) == CZ_OK, "%s", msg);
    if (kg) {
        uint64_t part = cz_be_key_device_bytes(kg);
        CHECK_MSG(part > 0 && part < full / 2, "streamed key holds %llu of %llu bytes", (unsigned long long)part,
                  (unsigned long long)full);
        for (int i = 0; i < 2; i++) {
            on_cpu = -1;
            same_proof(kc, kg, wg, c.w, &c.pvk, c.cs.n_inputs - 1, "streamed by budget", &on_cpu);
            CHECK_MSG(on_cpu == 0, "streamed by budget: proved on the CPU");
        }
        cz_be_get_stats(gpu, &s1);
        CHECK(s1.vram_used <= s1.vram_budget);
        cz_be_release(gpu, kg);
    }
    cz__cuda_vram_set_budget(0, s0.vram_budget);
    cz__cuda_prover_stream_knob(-1, 0);
    cz_be_release(cpu, kc);
    free_circ(&c);
}

/* one proof of the tier sequence: the same bytes as the CPU's, on the GPU,
 * with the stage wanted; the bytes staged outside the lock */
static uint64_t tier_proof(cz_be_key *kc, cz_be_key *kg, cz_be_worker *w, const cz_fr *wit,
                           const cz_groth16_pvk *pvk, size_t n_pub, const char *what, int want)
{
    int on_cpu = -1;
    if (!same_proof(kc, kg, w, wit, pvk, n_pub, what, &on_cpu)) return 0;
    CHECK_MSG(on_cpu == 0, "%s: proved on the CPU", what);
    CHECK_MSG(last_t.stage == want, "%s: stage %s, want %s", what, cz_groth16_stage_name(last_t.stage),
              cz_groth16_stage_name(want));
    return last_t.staged_bytes;
}

static uint64_t vram_used(void)
{
    cz_be_stats s;
    cz_be_get_stats(gpu, &s);
    return s.vram_used;
}

/* the witness's stage tiers (prover.cu, choose_stage), each forced by the
 * budget, on a fresh worker, for the bellperson and the zkey path:
 *   a launch failure first frees the device's scratch, so the state does
 *   not depend on the cases before; then
 *   staged: the default budget; staged_bytes = the whole witness;
 *   unstaged: a fresh worker, the budget with room for the shared buffer
 *     but for no part beside it, and its first allocation (its own buffer,
 *     which the room would take) failed by injection, as when another
 *     worker took that room first; then once more by the budget alone, the
 *     shared buffer now held; staged_bytes = 0;
 *   partial: the budget with room for 3/4 of the witness beside the rest;
 *     0 < staged_bytes <= 3/4 of it; a second partial proof keeps the head
 *     buffer (an allocation injected for it does not fire: it allocates
 *     nothing) and so does one from the worker's pinned buffer; the
 *     partial proofs alternate between two witnesses of the system, so the
 *     shared buffer never holds the head already (a head not copied there
 *     shows as a wrong proof);
 *   staged again when the budget comes back.
 * Every proof is the CPU's, byte for byte, and verifies. */
static void case_tiers(void)
{
    char msg[600], what[96];
    circ c, cz; /* the same system and witness; cz's roots from 5, for the zkey path */
    if (!make_circ(&c, (1 << 17) - 4, 3, 0, 1717, 0)) return;
    if (!make_circ(&cz, (1 << 17) - 4, 3, 5, 1717, 1)) {
        free_circ(&c);
        free_circ(&cz);
        return;
    }
    uint64_t need = c.cs.n_vars * sizeof(cz_fr);
    CHECK_MSG(need >= ((uint64_t)2 << 20), "tiers: the witness (%llu bytes) is too small for a partial stage",
              (unsigned long long)need);
    cz_fr *w2 = malloc(need);
    cz_synth_params sp;
    cz_synth_params_init(&sp);
    sp.n_constraints = (1 << 17) - 4;
    sp.seed = 1717;
    sp.n_public = 3;
    sp.witness_seed = 2;
    if (!w2 || cz_synth_witness(w2, c.cs.n_vars, &sp, msg, sizeof msg)) {
        CHECK_MSG(0, "tiers: second witness: %s", msg);
        free(w2);
        free_circ(&c);
        free_circ(&cz);
        return;
    }
    CHECK_MSG(memcmp(w2, c.w, need), "tiers: the second witness is the first");
    cz_be_stats s0;
    cz_be_get_stats(gpu, &s0);
    for (int z = 0; z < 2 && cz.have_zk; z++) {
        const char *path = z ? "zkey" : "bellperson";
        cz_be_circuit bc = {.pk = &c.pk, .cs = &c.cs}, zc = {.zpk = &cz.zk.pk};
        const cz_be_circuit *cc = z ? &zc : &bc;
        cz_groth16_pvk zpvk;
        const cz_groth16_pvk *pvk = &c.pvk;
        if (z) {
            CHECK(cz_groth16_prepare_vk(&zpvk, &cz.zk.pk.vk) == CZ_OK);
            pvk = &zpvk;
        }
        size_t np = c.cs.n_inputs - 1;
        cz_be_key *kc = NULL, *kg = NULL;
        cz_be_worker *wt = NULL;
        CHECK(cz_be_load(cpu, cc, &kc, msg, sizeof msg) == CZ_OK);
        CHECK_MSG(cz_be_load(gpu, cc, &kg, msg, sizeof msg) == CZ_OK, "%s", msg);
        CHECK_MSG(cz_be_worker_create(gpu, &wt, msg, sizeof msg) == CZ_OK, "%s", msg);
        if (kc && kg && wt) {
            int on_cpu = -1;
            snprintf(what, sizeof what, "tiers %s: reset", path);
            cz_cuda_inject(0, 1);
            same_proof(kc, kg, wt, c.w, pvk, np, what, &on_cpu);
            cz_cuda_inject(0, 0);
            CHECK_MSG(on_cpu == 1, "%s: the injected launch failure did not hit", what);

            snprintf(what, sizeof what, "tiers %s: staged", path);
            uint64_t got = tier_proof(kc, kg, wt, c.w, pvk, np, what, CZ_STAGE_FULL);
            CHECK_MSG(got == need, "%s: %llu bytes staged of %llu", what, (unsigned long long)got,
                      (unsigned long long)need);

            cz_be_worker_destroy(wt);
            wt = NULL;
            CHECK_MSG(cz_be_worker_create(gpu, &wt, msg, sizeof msg) == CZ_OK, "%s", msg);
            if (!wt) goto next;
            cz__cuda_vram_set_budget(0, vram_used() + need + (256 << 10));
            snprintf(what, sizeof what, "tiers %s: unstaged", path);
            long before = cz_cuda_injected();
            cz_cuda_inject(1, 0);
            got = tier_proof(kc, kg, wt, c.w, pvk, np, what, CZ_STAGE_UNSTAGED);
            cz_cuda_inject(0, 0);
            CHECK_MSG(cz_cuda_injected() == before + 1, "%s: the injected allocation failure did not fire", what);
            CHECK_MSG(got == 0, "%s: %llu bytes staged", what, (unsigned long long)got);
            snprintf(what, sizeof what, "tiers %s: unstaged by the budget", path);
            got = tier_proof(kc, kg, wt, c.w, pvk, np, what, CZ_STAGE_UNSTAGED);
            CHECK_MSG(got == 0, "%s: %llu bytes staged", what, (unsigned long long)got);

            cz__cuda_vram_set_budget(0, vram_used() + need * 3 / 4);
            snprintf(what, sizeof what, "tiers %s: partial", path);
            got = tier_proof(kc, kg, wt, w2, pvk, np, what, CZ_STAGE_PART);
            CHECK_MSG(got > 0 && got <= need * 3 / 4 && got % sizeof(cz_fr) == 0, "%s: %llu bytes staged of %llu",
                      what, (unsigned long long)got, (unsigned long long)need);
            snprintf(what, sizeof what, "tiers %s: partial again", path);
            before = cz_cuda_injected();
            cz_cuda_inject(1, 0);
            uint64_t again = tier_proof(kc, kg, wt, c.w, pvk, np, what, CZ_STAGE_PART);
            cz_cuda_inject(0, 0);
            CHECK_MSG(cz_cuda_injected() == before, "%s: the steady state allocated", what);
            CHECK_MSG(again == got, "%s: %llu bytes staged, then %llu", what, (unsigned long long)got,
                      (unsigned long long)again);
            cz_fr *buf = cz_be_worker_buffer(wt, c.cs.n_vars);
            CHECK(buf != NULL);
            if (buf) {
                memcpy(buf, w2, need);
                snprintf(what, sizeof what, "tiers %s: partial, pinned", path);
                again = tier_proof(kc, kg, wt, buf, pvk, np, what, CZ_STAGE_PART);
                CHECK_MSG(again == got, "%s: %llu bytes staged, then %llu", what, (unsigned long long)got,
                          (unsigned long long)again);
            }

            cz__cuda_vram_set_budget(0, s0.vram_budget);
            snprintf(what, sizeof what, "tiers %s: staged again", path);
            got = tier_proof(kc, kg, wt, c.w, pvk, np, what, CZ_STAGE_FULL);
            CHECK_MSG(got == need, "%s: %llu bytes staged of %llu", what, (unsigned long long)got,
                      (unsigned long long)need);
        }
    next:
        cz__cuda_vram_set_budget(0, s0.vram_budget);
        cz_cuda_inject(0, 0);
        cz_be_worker_destroy(wt);
        cz_be_release(gpu, kg);
        cz_be_release(cpu, kc);
        if (z) cz_groth16_pvk_free(&zpvk);
    }
    CHECK_MSG(cz.have_zk, "tiers: no zkey");
    free(w2);
    free_circ(&c);
    free_circ(&cz);
}

/* two workers, two threads, one device */
typedef struct {
    cz_be_key *kg;
    const circ *c;
    cz_groth16_proof p[3];
    cz_fr r[3], s[3];
    int err;
} thr_arg;

static void *thr_main(void *p)
{
    thr_arg *a = p;
    char msg[600];
    cz_be_worker *w = NULL;
    if (cz_be_worker_create(gpu, &w, msg, sizeof msg)) {
        a->err = 1;
        return NULL;
    }
    for (int i = 0; i < 3; i++)
        if (cz_be_prove(w, a->kg, a->c->w, &a->r[i], &a->s[i], &a->p[i], NULL, msg, sizeof msg)) a->err = 1;
    cz_be_worker_destroy(w);
    return NULL;
}

static void case_threads(void)
{
    char msg[600];
    circ c;
    if (!make_circ(&c, 20000, 3, 0, 5, 0)) return;
    cz_be_circuit bc = {.pk = &c.pk, .cs = &c.cs};
    cz_be_key *kc = NULL, *kg = NULL;
    CHECK(cz_be_load(cpu, &bc, &kc, msg, sizeof msg) == CZ_OK);
    CHECK(cz_be_load(gpu, &bc, &kg, msg, sizeof msg) == CZ_OK);
    thr_arg a[2];
    pthread_t th[2];
    for (int t = 0; t < 2; t++) {
        memset(&a[t], 0, sizeof a[t]);
        a[t].kg = kg;
        a[t].c = &c;
        for (int i = 0; i < 3; i++) {
            cz_fr_random(&a[t].r[i], &rng);
            cz_fr_random(&a[t].s[i], &rng);
        }
        CHECK(pthread_create(&th[t], NULL, thr_main, &a[t]) == 0);
    }
    for (int t = 0; t < 2; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < 2; t++) {
        CHECK(!a[t].err);
        for (int i = 0; i < 3; i++) {
            cz_groth16_proof pc;
            CHECK(cz_be_prove(wc, kc, c.w, &a[t].r[i], &a[t].s[i], &pc, NULL, msg, sizeof msg) == CZ_OK);
            uint8_t x[CZ_GROTH16_PROOF_BYTES], y[CZ_GROTH16_PROOF_BYTES];
            cz_proof_encode(x, &pc);
            cz_proof_encode(y, &a[t].p[i]);
            CHECK_MSG(!memcmp(x, y, sizeof x), "thread %d proof %d differs", t, i);
        }
    }
    cz_be_release(cpu, kc);
    cz_be_release(gpu, kg);
    free_circ(&c);
}

/* the CUDA backend again with CZ_PROVER_OVERLAP set to v (read when a
 * backend opens): 1 SpMV and H on their own stream beside the witness
 * MSMs, below the MSMs' priority; 2 the same at their priority */
static int reopen_gpu(const char *v)
{
    char msg[600];
    cz_be_worker_destroy(wg);
    cz_be_close(gpu);
    wg = NULL;
    gpu = NULL;
    setenv("CZ_PROVER_OVERLAP", v, 1);
    cz_backend_opts og = {.kind = CZ_BACKEND_CUDA, .quiet = 1};
    CHECK_MSG(cz_be_open(&gpu, &og, msg, sizeof msg) == CZ_OK, "%s", msg);
    if (gpu) CHECK_MSG(cz_be_worker_create(gpu, &wg, msg, sizeof msg) == CZ_OK, "%s", msg);
    unsetenv("CZ_PROVER_OVERLAP");
    overlap = atoi(v) != 0;
    return gpu && wg;
}

int main(void)
{
    char msg[600];
    if (!cz_backend_cuda_built()) {
        CHECK_MSG(0, "the CUDA backend is not linked in");
        return cz_test_finish("test_cuda_prover");
    }
    {   /* CZ_PROVER_H_COPIES: the most blocks of the H table it allows (0: none) */
        static const struct { const char *v; int want; } knob[] = {
            {NULL, 256}, {"0", 0}, {"off", 0}, {"1", 256}, {"on", 256}, {"2", 2}, {"12", 12}, {"256", 256},
            {"257", 256}, {"-1", 256}, {"", 256}, {"4x", 256}, {"no", 256}};
        for (size_t i = 0; i < sizeof knob / sizeof knob[0]; i++) {
            int got = cz__cuda_prover_h_copies_knob(knob[i].v, 1);
            CHECK_MSG(got == knob[i].want, "CZ_PROVER_H_COPIES=%s: %d blocks at most, not %d",
                      knob[i].v ? knob[i].v : "(unset)", got, knob[i].want);
        }
    }
    if (cz_backend_cuda_devices() <= 0) {
        printf("test_cuda_prover: SKIP (no CUDA device; the H table's knob checked)\n");
        return cz_test_finish("test_cuda_prover");
    }
    unsetenv("CZ_PROVER_OVERLAP"); /* the default, checked in every proof's timings */
    uint64_t seed = cz_test_seed("test_cuda_prover", 20261201);
    cz_rng_seed(&rng, seed);
    CHECK(cz_pool_create(&pool, 0) == CZ_OK);
    cz_backend_opts oc = {.kind = CZ_BACKEND_CPU}, og = {.kind = CZ_BACKEND_CUDA, .quiet = 1};
    CHECK_MSG(cz_be_open(&cpu, &oc, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK_MSG(cz_be_open(&gpu, &og, msg, sizeof msg) == CZ_OK, "%s", msg);
    if (!cpu || !gpu) return cz_test_finish("test_cuda_prover");
    printf("test_cuda_prover: backend %s\n", cz_be_name(gpu));
    CHECK(cz_be_worker_create(cpu, &wc, msg, sizeof msg) == CZ_OK);
    CHECK_MSG(cz_be_worker_create(gpu, &wg, msg, sizeof msg) == CZ_OK, "%s", msg);
    if (!wc || !wg) return cz_test_finish("test_cuda_prover");

    case_bellperson(16, 0, 0, seed + 1, 0);
    case_bellperson(1000, 3, 5, seed + 2, 1);
    case_bellperson((1 << 12) - 4, 3, 0, seed + 3, 0);   /* the domain exactly full */
    case_bellperson((1 << 12) - 3, 3, 0, seed + 4, 0);   /* one row past: the next domain, nearly empty */
    case_bellperson(5000, 8, 5, seed + 5, 1);            /* generator 5, and its zkey */
    case_bellperson((1 << 16) - 4, 3, 0, seed + 6, 0);
    case_bellperson((1 << 18) - 4, 3, 0, seed + 7, 0);
    case_bellperson((1 << 17) - 9, 3, 5, seed + 8, 1);
    case_snarkjs_chain();
    case_residency();
    case_injection();
    case_copies_nomem();
    case_streamed();
    case_budget_stream();
    case_tiers();
    case_threads();
    /* the proofs do not depend on the streams: the cases above ran with
     * the default, H on a stream of its own below the witness MSMs'
     * priority; again on one stream (0) and at the MSMs' priority (2) */
    static const char *const other[] = {"0", "2"};
    for (int v = 0; v < 2; v++) {
        if (!reopen_gpu(other[v])) break;
        case_bellperson(5000, 8, 5, seed + 22 + 2 * v, 1);
        case_bellperson((1 << 16) - 4, 3, 0, seed + 23 + 2 * v, 0);
        case_snarkjs_chain();
        if (v == 0) { /* failures and their clean-up on one stream; bases streamed */
            case_injection();
            case_streamed();
        }
    }
    /* H tables of two blocks (CZ_PROVER_H_COPIES=2): bucket sets of two
     * windows joined by Horner, on both paths */
    setenv("CZ_PROVER_H_COPIES", "2", 1);
    if (reopen_gpu("1")) {
        case_bellperson((1 << 16) - 4, 3, 0, seed + 30, 0);
        case_bellperson(5000, 8, 5, seed + 31, 1);
    }
    unsetenv("CZ_PROVER_H_COPIES");

    if (gpu) { /* the last backend opened (reopen_gpu) */
        cz_be_stats st;
        cz_be_get_stats(gpu, &st);
        printf("test_cuda_prover: %llu GPU proofs, %llu on the CPU; VRAM peak %.1f MiB of a %.1f GiB budget\n",
               (unsigned long long)st.proofs, (unsigned long long)st.cpu_fallbacks, st.vram_peak / 1048576.0,
               st.vram_budget / 1073741824.0);
    }
    cz_be_worker_destroy(wg);
    cz_be_worker_destroy(wc);
    cz_be_close(gpu);
    cz_be_close(cpu);
    cz_pool_destroy(pool);
    return cz_test_finish("test_cuda_prover");
}

#else

int main(void)
{
    printf("test_cuda_prover: SKIP (no CUDA build)\n");
    return 0;
}

#endif
