/* test_engine.c — the proving engine (src/engine) through its C API, no gRPC.
 *
 * In a temporary parameter cache: a bellperson-style circuit "g" (.params,
 * .pce, .vk from the synthetic generator and the insecure setup) and the
 * built-in synthetic circuits. Checks: proofs of both kinds complete and
 * verify against keys rebuilt here (a synthetic partition i against the
 * inputs of its own witness, witness_seed 1 + i, and not its
 * neighbour's); several partitions come back in order;
 * priorities (CRITICAL first, FIFO within a level, LOW last) with dispatch
 * paused while the jobs are queued, so nothing depends on speed; request_id
 * idempotency and a new attempt after cancellation; cancel of a queued job;
 * await with a timeout; an unsatisfying witness fails the job with the
 * constraint named; watches; preload/evict; refused requests; pruning after
 * the retention; TIMELINE lines (GPU_END with every stage field); the
 * backend in the status (auto is the CPU without a device) and the backend
 * options (gpu_workers only on CUDA, cuda without a device refused); with a
 * CUDA device, the synthetic key made on the GPU (its proofs verify against
 * the CPU setup's key, no host bytes for its points) and with
 * synth_cpu_setup on the CPU; several device slots (device_copies: CPU
 * backends, and two copies of a CUDA device where one exists), each
 * proving part of one job (test_gather makes that independent of speed);
 * a slot whose partitions fail (device errors, or wrong proofs) has them
 * retried on the other slot, and with one slot the job fails;
 * the journal across two engines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "circuits/synth.h"
#include "engine/circuit.h"
#include "engine/engine.h"
#include "formats/params.h"
#include "formats/proof.h"
#include "formats/witness.h"
#include "groth16/groth16.h"
#include "r1cs/pce.h"

static char dir[64];

static uint8_t *slurp(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len);
    if (b && fread(b, 1, (size_t)len, f) != (size_t)len) { free(b); b = NULL; }
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* keys and a witness: cs/w/pk from the generator with N constraints */
typedef struct {
    cz_r1cs cs;
    cz_fr *w;
    cz_groth16_pk pk;
    cz_groth16_pvk pvk;
} keys;

static void make_keys(keys *k, uint64_t n, unsigned npub)
{
    char msg[256];
    cz_synth_params sp;
    cz_synth_params_init(&sp);
    sp.n_constraints = n;
    sp.n_public = npub;
    CHECK(cz_synth_generate(&k->cs, &k->w, &sp, msg, sizeof msg) == CZ_OK);
    CHECK(cz_groth16_setup_insecure(&k->pk, &k->cs, 1, NULL, msg, sizeof msg) == CZ_OK);
    CHECK(cz_groth16_prepare_vk(&k->pvk, &k->pk.vk) == CZ_OK);
}

static void free_keys(keys *k)
{
    cz_groth16_pvk_free(&k->pvk);
    cz_groth16_pk_free(&k->pk);
    cz_r1cs_free(&k->cs);
    free(k->w);
}

static int proofs_verify(const keys *k, const cz_job_result *r, size_t parts)
{
    if (r->state != CZ_JOB_COMPLETED || r->proof_len != parts * CZ_GROTH16_PROOF_BYTES) return 0;
    cz_groth16_proof *p;
    size_t n;
    if (cz_proofs_decode(&p, &n, r->proof, r->proof_len, NULL, 0)) return 0;
    int ok = n == parts;
    for (size_t i = 0; i < n; i++) ok &= cz_groth16_verify(&k->pvk, &p[i], k->w + 1, k->cs.n_inputs - 1);
    free(p);
    return ok;
}

/* a synthetic job's proofs: partition i proves the witness of
 * cz__circuit_synth_params(log2, i), so it verifies against that witness's
 * public inputs (s7's system and key, witness_seed 1 + i) and, the inputs
 * differing from partition to partition, not against its neighbour's */
static int synth_proofs_verify(const keys *k, int log2, const cz_job_result *r, size_t parts)
{
    if (r->state != CZ_JOB_COMPLETED || r->proof_len != parts * CZ_GROTH16_PROOF_BYTES) return 0;
    cz_groth16_proof *p;
    size_t n;
    char msg[256];
    if (cz_proofs_decode(&p, &n, r->proof, r->proof_len, NULL, 0)) return 0;
    uint64_t nv = k->cs.n_vars, ni = k->cs.n_inputs;
    cz_fr *w = malloc((parts + 1) * nv * sizeof *w);
    int ok = n == parts && w;
    for (size_t i = 0; ok && i <= parts; i++) {
        cz_synth_params sp;
        cz__circuit_synth_params(log2, (uint32_t)i, &sp);
        ok &= cz_synth_witness(w + i * nv, nv, &sp, msg, sizeof msg) == CZ_OK;
    }
    for (size_t i = 0; ok && i < n; i++) {
        ok &= cz_groth16_verify(&k->pvk, &p[i], w + i * nv + 1, ni - 1);
        ok &= memcmp(w + i * nv + 1, w + (i + 1) * nv + 1, (ni - 1) * sizeof *w) != 0;
        ok &= !cz_groth16_verify(&k->pvk, &p[i], w + (i + 1) * nv + 1, ni - 1);
    }
    free(p);
    free(w);
    return ok;
}

/* the tier GetStatus would report for circuit id; -1 when it is not listed */
static int tier_of(cz_engine *e, const char *id)
{
    cz_engine_status st;
    int t = -1;
    if (cz_engine_get_status(e, &st) != CZ_OK) return -1;
    for (size_t i = 0; i < st.n_srs; i++)
        if (!strcmp(st.srs[i].circuit_id, id)) t = (int)st.srs[i].tier;
    cz_engine_status_free(&st);
    return t;
}

static cz_job_request req(const char *rid, int prio, const char *cid, const uint8_t *pl, size_t len)
{
    cz_job_request r;
    memset(&r, 0, sizeof r);
    r.request_id = rid;
    r.proof_kind = CZ_KIND_GROTH16_GENERIC;
    r.priority = prio;
    r.circuit_id = cid;
    r.payload = pl;
    r.payload_len = len;
    return r;
}

/* watches that record the order in which jobs end */
/* the options of the device-slot cases: CPU or CUDA slots, copies of one
 * device, one worker a slot on one thread, timeline to tl, no journal */
static cz_engine_opts slot_opts(const cz_engine_opts *o, FILE *tl, int cuda, int copies)
{
    cz_engine_opts om = *o;
    om.timeline = tl;
    om.state_dir[0] = 0;
    om.backend = cuda ? CZ_BACKEND_CUDA : CZ_BACKEND_CPU;
    om.device_copies = copies;
    om.prove_workers = 1;
    om.gpu_workers = 1;
    om.prove_threads = 1;
    return om;
}

/* an engine with options om and one job of circuit cid, awaited into *r;
 * the engine is returned for its status (NULL when it did not start) */
static cz_engine *engine_job(const cz_engine_opts *om, const char *cid, cz_job_result *r)
{
    char msg[512], id[CZ_JOB_ID_MAX];
    uint32_t qp;
    int att;
    cz_engine *e = NULL;
    memset(r, 0, sizeof *r);
    CHECK_MSG(cz_engine_create(&e, om, msg, sizeof msg) == CZ_OK, "%s", msg);
    if (!e) return NULL;
    cz_job_request q = req(NULL, 0, cid, NULL, 0);
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_OK);
    CHECK(cz_engine_await(e, id, 0, r) == CZ_OK);
    return e;
}

static char order[16][CZ_JOB_ID_MAX];
static _Atomic int n_slot, n_order; /* n_order counts the entries written (read after it) */
static void record(cz_watch *w)
{
    snprintf(order[n_slot++ % 16], CZ_JOB_ID_MAX, "%s", w->job_id);
    n_order++;
}

int main(void)
{
    char msg[512], path[128];
    snprintf(dir, sizeof dir, "/tmp/cuzk-test-engine-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    /* the generic circuit g in the parameter cache */
    keys g;
    make_keys(&g, 300, 2);
    snprintf(path, sizeof path, "%s/g.pce", dir);
    CHECK(cz_pce_write(path, &g.cs, msg, sizeof msg) == CZ_OK);
    snprintf(path, sizeof path, "%s/g.params", dir);
    CHECK(cz_params_write(path, &g.pk, msg, sizeof msg) == CZ_OK);
    snprintf(path, sizeof path, "%s/g.vk", dir);
    CHECK(cz_vk_write(path, &g.pk.vk, msg, sizeof msg) == CZ_OK);
    snprintf(path, sizeof path, "%s/w.bin", dir);
    CHECK(cz_witness_write(path, g.w, g.cs.n_vars, g.cs.n_inputs, msg, sizeof msg) == CZ_OK);
    size_t wlen = 0;
    uint8_t *wbin = slurp(path, &wlen);
    CHECK(wbin != NULL);
    /* the synthetic circuit synth-7-*: 2^7 - 4 constraints, 3 inputs, setup seed 1 */
    keys s7;
    make_keys(&s7, 128 - 4, 3);

    char tl_path[128];
    snprintf(tl_path, sizeof tl_path, "%s/timeline.txt", dir);
    FILE *tl = fopen(tl_path, "w+");
    cz_engine_opts o;
    cz_engine_opts_defaults(&o);
    snprintf(o.param_cache, sizeof o.param_cache, "%s", dir);
    o.prove_threads = 2;
    o.timeline = tl;
    cz_engine *e;
    CHECK(cz_engine_create(&e, &o, msg, sizeof msg) == CZ_OK);

    /* generic and synthetic proofs */
    char id[CZ_JOB_ID_MAX], id2[CZ_JOB_ID_MAX];
    uint32_t qp;
    int att;
    cz_job_result r;
    cz_job_request q = req("a", 0, "g", wbin, wlen);
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_OK && !att);
    CHECK(cz_engine_await(e, id, 0, &r) == CZ_OK);
    CHECK_MSG(proofs_verify(&g, &r, 1), "generic proof: %s %s", cz_job_state_name(r.state), r.error);
    cz_job_result_free(&r);
    q = req(NULL, 0, "synth-7-3", (const uint8_t *)"seed", 4);
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_OK);
    CHECK(cz_engine_await(e, id, 0, &r) == CZ_OK);
    CHECK_MSG(synth_proofs_verify(&s7, 7, &r, 3), "synthetic proof: %s %s", cz_job_state_name(r.state), r.error);
    cz_job_result_free(&r);
    /* several witnesses, one partition each, in order */
    const uint8_t *pls[2] = {wbin, wbin};
    size_t lens[2] = {wlen, wlen};
    q = req(NULL, 0, "g", NULL, 0);
    q.payloads = pls;
    q.payload_lens = lens;
    q.n_payloads = 2;
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_OK);
    CHECK(cz_engine_await(e, id, 0, &r) == CZ_OK);
    CHECK(proofs_verify(&g, &r, 2));
    cz_job_result_free(&r);

    /* idempotency: the completed "a" comes back */
    q = req("a", 0, "g", wbin, wlen);
    CHECK(cz_engine_submit(e, &q, id2, &qp, &att, msg, sizeof msg) == CZ_OK && att);
    CHECK(cz_engine_result(e, id2, &r) == CZ_OK && r.state == CZ_JOB_COMPLETED);
    cz_job_result_free(&r);

    /* priorities, with dispatch paused while everything is queued */
    cz_engine_pause(e, 1);
    char nid[3][CZ_JOB_ID_MAX], lid[CZ_JOB_ID_MAX], cid[CZ_JOB_ID_MAX], hid[CZ_JOB_ID_MAX];
    cz_watch ws[6];
    memset(ws, 0, sizeof ws);
    for (int i = 0; i < 3; i++) {
        q = req(NULL, CZ_PRIO_NORMAL, "synth-7-1", NULL, 0);
        CHECK(cz_engine_submit(e, &q, nid[i], &qp, &att, msg, sizeof msg) == CZ_OK && qp == (uint32_t)i);
    }
    q = req(NULL, CZ_PRIO_LOW, "synth-7-1", NULL, 0);
    CHECK(cz_engine_submit(e, &q, lid, &qp, &att, msg, sizeof msg) == CZ_OK && qp == 3);
    q = req(NULL, CZ_PRIO_CRITICAL, "synth-7-1", NULL, 0);
    CHECK(cz_engine_submit(e, &q, cid, &qp, &att, msg, sizeof msg) == CZ_OK && qp == 0);
    q = req(NULL, CZ_PRIO_HIGH, "synth-7-1", NULL, 0);
    CHECK(cz_engine_submit(e, &q, hid, &qp, &att, msg, sizeof msg) == CZ_OK && qp == 1);
    const char *all[6] = {nid[0], nid[1], nid[2], lid, cid, hid};
    for (int i = 0; i < 6; i++) {
        ws[i].cb = record;
        CHECK(cz_engine_watch(e, all[i], &ws[i]) == CZ_OK);
    }
    {   /* the armed watches are counted; one taken back and put again */
        cz_engine_status st;
        CHECK(cz_engine_get_status(e, &st) == CZ_OK && st.watching == 6);
        cz_engine_status_free(&st);
        CHECK(cz_engine_unwatch(e, &ws[3]) == 1);
        CHECK(cz_engine_get_status(e, &st) == CZ_OK && st.watching == 5);
        cz_engine_status_free(&st);
        CHECK(cz_engine_watch(e, all[3], &ws[3]) == CZ_OK);
    }
    /* a timeout while held, and a repeated request_id while queued */
    CHECK(cz_engine_await(e, cid, 50, &r) == CZ_ERR_TIMEOUT && r.state == CZ_JOB_QUEUED);
    q = req("held", 0, "synth-7-1", NULL, 0);
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_OK && !att);
    CHECK(cz_engine_submit(e, &q, id2, &qp, &att, msg, sizeof msg) == CZ_OK && att && !strcmp(id, id2));
    int was = 1;
    CHECK(cz_engine_cancel(e, id, &was) == CZ_OK && !was);
    CHECK(cz_engine_await(e, id, 0, &r) == CZ_OK && r.state == CZ_JOB_CANCELLED);
    CHECK(cz_engine_submit(e, &q, id2, &qp, &att, msg, sizeof msg) == CZ_OK && !att && strcmp(id, id2));
    CHECK(cz_engine_cancel(e, id2, &was) == CZ_OK);
    cz_engine_pause(e, 0);
    for (int i = 0; i < 6; i++) {
        CHECK(cz_engine_await(e, all[i], 0, &r) == CZ_OK && r.state == CZ_JOB_COMPLETED);
        cz_job_result_free(&r);
    }
    for (int i = 0; i < 3000 && n_order < 6; i++) usleep(1000); /* the last callbacks run after the awaits wake */
    CHECK(n_order == 6);
    {   /* every watch fired: none armed */
        cz_engine_status st;
        CHECK(cz_engine_get_status(e, &st) == CZ_OK && st.watching == 0);
        cz_engine_status_free(&st);
    }
    const char *want[6] = {cid, hid, nid[0], nid[1], nid[2], lid};
    for (int i = 0; i < 6 && n_order == 6; i++) CHECK_MSG(!strcmp(order[i], want[i]), "end %d: %s, want %s", i, order[i], want[i]);
    /* a watch on an ended job runs at once */
    n_order = n_slot = 0;
    cz_watch late = {.cb = record};
    CHECK(cz_engine_watch(e, cid, &late) == CZ_OK && n_order == 1);
    CHECK(cz_engine_unwatch(e, &late) == 0);

    /* a witness that parses but does not satisfy: FAILED, constraint named */
    uint8_t *bad = malloc(wlen);
    memcpy(bad, wbin, wlen);
    {
        cz_fr *w2 = malloc(g.cs.n_vars * sizeof *w2);
        memcpy(w2, g.w, g.cs.n_vars * sizeof *w2);
        cz_fr one;
        cz_fr_one(&one);
        cz_fr_add(&w2[1], &w2[1], &one); /* a public input: its binding row breaks */
        snprintf(path, sizeof path, "%s/bad.bin", dir);
        CHECK(cz_witness_write(path, w2, g.cs.n_vars, g.cs.n_inputs, msg, sizeof msg) == CZ_OK);
        free(w2);
        free(bad);
        bad = slurp(path, &wlen);
    }
    q = req("bad", 0, "g", bad, wlen);
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_OK);
    CHECK(cz_engine_await(e, id, 0, &r) == CZ_OK);
    CHECK_MSG(r.state == CZ_JOB_FAILED, "state %s", cz_job_state_name(r.state));
    CHECK_MSG(strstr(r.error, "constraint") != NULL, "error: %s", r.error);
    CHECK(r.proof == NULL);
    q = req("bad", 0, "g", bad, wlen);
    CHECK(cz_engine_submit(e, &q, id2, &qp, &att, msg, sizeof msg) == CZ_OK && !att && strcmp(id, id2));
    CHECK(cz_engine_await(e, id2, 0, &r) == CZ_OK && r.state == CZ_JOB_FAILED);
    free(bad);

    /* refused requests */
    q = req(NULL, 0, "../g", wbin, wlen);
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_ERR_INVALID_ARG && strstr(msg, "circuit_id"));
    q = req(NULL, 0, "nosuch", wbin, wlen);
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_ERR_INVALID_ARG && strstr(msg, "circuit_id"));
    q = req(NULL, 0, "g", (const uint8_t *)"junkjunk", 8);
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_ERR_INVALID_ARG && strstr(msg, "vanilla_proof"));
    q = req(NULL, 7, "g", wbin, wlen);
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_ERR_INVALID_ARG && strstr(msg, "priority"));
    q = req(NULL, 0, "g", wbin, wlen);
    q.proof_kind = CZ_KIND_POREP_SEAL_COMMIT;
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_ERR_UNSUPPORTED && strstr(msg, "POREP"));
    q.proof_kind = 55;
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_ERR_INVALID_ARG && strstr(msg, "proof_kind"));
    CHECK(cz_engine_await(e, "nope", 0, &r) == CZ_ERR_NOT_FOUND);
    CHECK(cz_engine_cancel(e, "nope", &was) == CZ_ERR_NOT_FOUND);

    /* preload / evict */
    int already = 1, wl = 0;
    uint64_t ms = 0, freed = 0;
    CHECK(cz_engine_preload(e, "g", &already, &ms, msg, sizeof msg) == CZ_OK && already);
    CHECK(cz_engine_evict(e, "g", &wl, &freed, msg, sizeof msg) == CZ_OK && wl && freed > 0);
    CHECK(cz_engine_evict(e, "g", &wl, &freed, msg, sizeof msg) == CZ_OK && !wl);
    CHECK(cz_engine_preload(e, "g", &already, &ms, msg, sizeof msg) == CZ_OK && !already);
    cz_engine_status st;
    CHECK(cz_engine_get_status(e, &st) == CZ_OK);
    CHECK(st.completed == 9 && st.failed == 2 && st.cancelled == 2);
    CHECK(st.queued_jobs == 0 && st.running_jobs == 0 && st.n_workers == 1 && st.n_srs == 2);
    /* the backend: auto is the CPU where no CUDA device is seen */
    if (cz_backend_cuda_devices() == 0)
        CHECK_MSG(!strcmp(st.backend, "cpu") && st.backend_kind == CZ_BACKEND_CPU && st.device == -1, "%s %d %d",
                  st.backend, st.backend_kind, st.device);
    CHECK_MSG(st.backend_proofs >= 12 && st.cpu_fallbacks == 0, "%llu proofs, %llu fallbacks",
              (unsigned long long)st.backend_proofs, (unsigned long long)st.cpu_fallbacks);
    cz_engine_status_free(&st);
    cz_engine_destroy(e);

    /* TIMELINE: one SYNTH_START and one GPU_END per partition, in the reference's form */
    fflush(tl);
    rewind(tl);
    char line[512];
    int n_start = 0, n_end = 0, n_bad = 0;
    while (fgets(line, sizeof line, tl)) {
        unsigned long long t;
        char ev[32];
        if (sscanf(line, "TIMELINE,%llu,%31[A-Z_],", &t, ev) != 2) { n_bad++; continue; }
        n_start += !strcmp(ev, "SYNTH_START");
        if (strcmp(ev, "GPU_END")) continue;
        n_end += strstr(line, ",gpu_ms=") && strstr(line, "worker=0,partition=");
        /* every stage, the first format's msm_ms among them; cpu=1 only for a CUDA fallback */
        static const char *fields[] = {",spmv_ms=",  ",ntt_ms=",   ",msm_ms=",    ",verify_ms=",
                                       ",upload_ms=", ",msm_h_ms=", ",msm_l_ms=",  ",msm_hl_ms=",
                                       ",msm_a_ms=",  ",msm_b1_ms=", ",msm_b2_ms=", ",total_ms=",
                                       ",device_ms="};
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
            CHECK_MSG(strstr(line, fields[f]) != NULL, "GPU_END without %s: %s", fields[f], line);
        CHECK_MSG(!strstr(line, ",cpu="), "a CPU backend's GPU_END says cpu=: %s", line);
    }
    fclose(tl);
    CHECK(n_bad == 0);
    CHECK_MSG(n_start == 14 && n_end == 12, "%d SYNTH_START, %d GPU_END", n_start, n_end);

    /* the backend choice: gpu_workers counts only on CUDA; cuda without a
     * device fails to create with the backend's message */
    {
        cz_engine_opts ob = o;
        ob.timeline = NULL;
        ob.state_dir[0] = 0;
        ob.backend = CZ_BACKEND_CPU;
        ob.prove_workers = 2;
        ob.gpu_workers = 5;
        CHECK(cz_engine_create(&e, &ob, msg, sizeof msg) == CZ_OK);
        CHECK(cz_engine_get_status(e, &st) == CZ_OK && st.n_workers == 2 && !strcmp(st.backend, "cpu"));
        cz_engine_status_free(&st);
        /* tiers on the CPU backend: never HOT; WARM once loaded, COLD after evict */
        CHECK(tier_of(e, "g") == -1);
        CHECK(cz_engine_preload(e, "g", &already, &ms, msg, sizeof msg) == CZ_OK && !already);
        CHECK_MSG(tier_of(e, "g") == CZ_TIER_WARM, "tier %d", tier_of(e, "g"));
        CHECK(cz_engine_evict(e, "g", &wl, &freed, msg, sizeof msg) == CZ_OK && wl);
        CHECK_MSG(tier_of(e, "g") == CZ_TIER_COLD, "tier %d", tier_of(e, "g"));
        CHECK(cz_engine_preload(e, "g", &already, &ms, msg, sizeof msg) == CZ_OK && !already);
        CHECK(tier_of(e, "g") == CZ_TIER_WARM);
        CHECK(!strcmp(cz_tier_name(CZ_TIER_HOT), "hot") && !strcmp(cz_tier_name(CZ_TIER_WARM), "warm") &&
              !strcmp(cz_tier_name(CZ_TIER_COLD), "cold"));
        cz_engine_destroy(e);
        if (cz_backend_cuda_devices() == 0) {
            ob.backend = CZ_BACKEND_CUDA;
            e = NULL;
            msg[0] = 0;
            cz_err ce = cz_engine_create(&e, &ob, msg, sizeof msg);
            CHECK_MSG(ce != CZ_OK && e == NULL && strstr(msg, "backend cuda"), "%d %s", ce, msg);
            printf("test_engine: no CUDA device: the GPU setup of the synthetic keys not checked\n");
        } else {
            /* on CUDA the synthetic key is made on the GPU: its proofs verify
             * against the CPU setup's key for seed 1 (s7), it is HOT, and the
             * host holds none of its points (size_bytes, the host bytes the
             * budget counts, far below the CPU-made key's); synth_cpu_setup
             * makes it on the CPU (the points counted on the host again) */
            uint64_t host_bytes[2] = {0, 0};
            for (int cpu_setup = 0; cpu_setup < 2; cpu_setup++) {
                ob.backend = CZ_BACKEND_CUDA;
                ob.gpu_workers = 2;
                ob.synth_cpu_setup = cpu_setup;
                CHECK_MSG(cz_engine_create(&e, &ob, msg, sizeof msg) == CZ_OK, "%s", msg);
                q = req(NULL, 0, "synth-7-2", NULL, 0);
                CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_OK);
                CHECK(cz_engine_await(e, id, 0, &r) == CZ_OK);
                CHECK_MSG(synth_proofs_verify(&s7, 7, &r, 2), "synthetic proof on CUDA (cpu setup %d): %s %s", cpu_setup,
                          cz_job_state_name(r.state), r.error);
                cz_job_result_free(&r);
                CHECK_MSG(tier_of(e, "synth-7") == CZ_TIER_HOT, "tier %d", tier_of(e, "synth-7"));
                CHECK(cz_engine_get_status(e, &st) == CZ_OK);
                for (size_t i = 0; i < st.n_srs; i++)
                    if (!strcmp(st.srs[i].circuit_id, "synth-7")) host_bytes[cpu_setup] = st.srs[i].size_bytes;
                CHECK_MSG(st.cpu_fallbacks == 0, "%llu fallbacks", (unsigned long long)st.cpu_fallbacks);
                cz_engine_status_free(&st);
                CHECK(cz_engine_evict(e, "synth-7-1", &wl, &freed, msg, sizeof msg) == CZ_OK && wl);
                cz_engine_destroy(e);
            }
            uint64_t points = (s7.pk.n_h + s7.pk.n_l + s7.pk.n_a + s7.pk.n_b_g1) * sizeof(cz_g1_aff) +
                              s7.pk.n_b_g2 * sizeof(cz_g2_aff);
            CHECK_MSG(host_bytes[0] > 0 && host_bytes[1] == host_bytes[0] + points,
                      "host bytes of the key: GPU setup %llu, CPU setup %llu, points %llu",
                      (unsigned long long)host_bytes[0], (unsigned long long)host_bytes[1],
                      (unsigned long long)points);
            printf("test_engine: CUDA: the synthetic key made on the GPU proves, HOT, %llu host bytes (%llu with "
                   "the CPU setup)\n", (unsigned long long)host_bytes[0], (unsigned long long)host_bytes[1]);
        }
    }

    /* several device slots: device_copies CPU backends (and, with a CUDA
     * device, two copies of device 0 sharing its budget), one worker each.
     * test_gather makes every worker hold a partition at once before any
     * proves, so each slot proves at least one of the job's partitions
     * whatever the machine's speed. The proofs verify; the status lists the
     * slots, their workers and partitions; GPU_END names each slot; a device
     * listed twice and too many slots are refused. */
    for (int cuda = 0; cuda < 1 + (cz_backend_cuda_devices() > 0); cuda++) {
        unsigned slots = cuda ? 2 : 3, parts = 6;
        char tlm_path[160];
        snprintf(tlm_path, sizeof tlm_path, "%s/timeline-multi-%d.txt", dir, cuda);
        FILE *tlm = fopen(tlm_path, "w+");
        CHECK(tlm != NULL);
        cz_engine_opts om = slot_opts(&o, tlm, cuda, (int)slots);
        om.test_gather = slots;
        cz_job_result mr;
        cz_engine *em = engine_job(&om, "synth-7-6", &mr);
        if (!em) break;
        CHECK_MSG(synth_proofs_verify(&s7, 7, &mr, parts), "%u slots (cuda %d): %s %s", slots, cuda,
                  cz_job_state_name(mr.state), mr.error);
        cz_job_result_free(&mr);
        cz_engine_status mst;
        CHECK(cz_engine_get_status(em, &mst) == CZ_OK);
        CHECK_MSG(mst.n_devs == slots && mst.n_workers == slots, "%u slots, %u workers", mst.n_devs, mst.n_workers);
        uint64_t sum = 0;
        for (unsigned d = 0; d < mst.n_devs; d++) {
            CHECK_MSG(mst.devs[d].partitions >= 1 && mst.devs[d].workers == 1, "slot %u: %llu partitions, %u workers",
                      d, (unsigned long long)mst.devs[d].partitions, mst.devs[d].workers);
            CHECK(mst.workers[d].device == (int)d);
            CHECK(mst.devs[d].ordinal == (cuda ? 0 : -1));
            sum += mst.devs[d].partitions;
        }
        CHECK_MSG(sum == parts, "%llu partitions over the slots", (unsigned long long)sum);
        CHECK_MSG(mst.n_devs > 1 && strstr(mst.devs[1].name, ", copy 2") && !strstr(mst.devs[0].name, "copy"),
                  "slot names '%s', '%s'", mst.n_devs ? mst.devs[0].name : "", mst.n_devs > 1 ? mst.devs[1].name : "");
        if (cuda) CHECK_MSG(mst.cpu_fallbacks == 0, "%llu fallbacks", (unsigned long long)mst.cpu_fallbacks);
        cz_engine_status_free(&mst);
        cz_engine_destroy(em);
        /* GPU_END: the slot after gpu_ms, each slot at least once */
        fflush(tlm);
        rewind(tlm);
        char ln[1024];
        unsigned per[4] = {0, 0, 0, 0}, n_end_m = 0;
        while (fgets(ln, sizeof ln, tlm)) {
            if (!strstr(ln, ",GPU_END,")) continue;
            n_end_m++;
            const char *g = strstr(ln, ",gpu_ms=");
            unsigned dv = 99;
            if (g) g = strchr(g + 1, ',');
            if (g && sscanf(g, ",device=%u,", &dv) == 1 && dv < 4) per[dv]++;
        }
        fclose(tlm);
        CHECK_MSG(n_end_m == parts, "%u GPU_END lines", n_end_m);
        for (unsigned d = 0; d < slots; d++) CHECK_MSG(per[d] >= 1, "no GPU_END with device=%u", d);
        CHECK(per[0] + per[1] + per[2] + per[3] == parts);
        printf("test_engine: %u %s slots, partitions per slot:", slots, cuda ? "CUDA" : "CPU");
        for (unsigned d = 0; d < slots; d++) printf(" %u", per[d]);
        printf("\n");
    }
    /* a failing slot: a device error (test_fail_slot 2), or a wrong proof
     * (-2), on slot 1 sends each partition it takes back to the queue for
     * slot 0 (test_gather makes slot 1 take one); the job completes with
     * every proof from slot 0, each failure counted and retried once, its
     * GPU_END marked error=1,retry=1. With one slot the same failure fails
     * the job, naming it. */
    for (int wrong = 0; wrong < 2; wrong++) {
        char tlf_path[160];
        snprintf(tlf_path, sizeof tlf_path, "%s/timeline-fail-%d.txt", dir, wrong);
        FILE *tlf = fopen(tlf_path, "w+");
        CHECK(tlf != NULL);
        cz_engine_opts om = slot_opts(&o, tlf, 0, 2);
        om.test_gather = 2;
        om.test_fail_slot = wrong ? -2 : 2;
        cz_job_result mr;
        cz_engine *em = engine_job(&om, "synth-7-4", &mr);
        if (!em) break;
        CHECK_MSG(synth_proofs_verify(&s7, 7, &mr, 4), "a failing slot (%s): %s %s", wrong ? "wrong proofs" : "errors",
                  cz_job_state_name(mr.state), mr.error);
        cz_job_result_free(&mr);
        cz_engine_status mst;
        CHECK(cz_engine_get_status(em, &mst) == CZ_OK && mst.n_devs == 2);
        if (mst.n_devs == 2)
            CHECK_MSG(mst.devs[0].partitions == 4 && mst.devs[1].partitions == 0 && mst.devs[1].failed >= 1 &&
                          mst.devs[0].failed == 0 && mst.retries == mst.devs[1].failed,
                      "partitions %llu / %llu, failed %llu / %llu, retries %llu",
                      (unsigned long long)mst.devs[0].partitions, (unsigned long long)mst.devs[1].partitions,
                      (unsigned long long)mst.devs[0].failed, (unsigned long long)mst.devs[1].failed,
                      (unsigned long long)mst.retries);
        uint64_t retries = mst.retries;
        cz_engine_status_free(&mst);
        cz_engine_destroy(em);
        fflush(tlf);
        rewind(tlf);
        char ln[1024];
        unsigned ends = 0, marked = 0, bad = 0;
        while (fgets(ln, sizeof ln, tlf)) {
            if (!strstr(ln, ",GPU_END,")) continue;
            ends++;
            int on1 = strstr(ln, ",device=1,") != NULL, m = strstr(ln, ",error=1,retry=1") != NULL;
            marked += m;
            bad += on1 != m;
        }
        fclose(tlf);
        CHECK_MSG(ends == 4 + retries && marked == retries && bad == 0, "%u GPU_END, %u marked retry, %u wrong",
                  ends, marked, bad);
        /* one slot: nowhere to retry, the job fails */
        om.timeline = NULL;
        om.device_copies = 1;
        om.test_gather = 0;
        om.test_fail_slot = wrong ? -1 : 1;
        em = engine_job(&om, "synth-7-2", &mr);
        if (!em) break;
        CHECK_MSG(mr.state == CZ_JOB_FAILED &&
                      strstr(mr.error, wrong ? "failed verification" : "injected device error"),
                  "one failing slot: %s %s", cz_job_state_name(mr.state), mr.error);
        cz_job_result_free(&mr);
        CHECK(cz_engine_get_status(em, &mst) == CZ_OK && mst.retries == 0);
        cz_engine_status_free(&mst);
        cz_engine_destroy(em);
        printf("test_engine: a failing slot (%s): %llu partition(s) retried on the other, all proofs from it\n",
               wrong ? "wrong proofs" : "device errors", (unsigned long long)retries);
    }
    /* a slot that keeps failing rests: with device_fail_limit 1 and a long
     * rest, slot 1 fails the one partition it takes (test_gather) and takes
     * no other while it rests, which the status shows; with a rest of 1 ms
     * every failure there starts a rest and the rest is over once the job
     * has ended; a slot alone never rests (the job fails as above) */
    for (int c = 0; c < 3; c++) {
        cz_engine_opts om = slot_opts(&o, NULL, 0, c == 2 ? 1 : 2);
        om.test_gather = c == 2 ? 0 : 2;
        om.test_fail_slot = c == 2 ? 1 : 2;
        om.device_fail_limit = 1;
        om.device_rest_ms = c == 1 ? 1 : 10 * 60 * 1000;
        cz_job_result mr;
        cz_engine *em = engine_job(&om, c == 2 ? "synth-7-2" : "synth-7-8", &mr);
        if (!em) break;
        if (c < 2)
            CHECK_MSG(synth_proofs_verify(&s7, 7, &mr, 8), "a resting slot (rest %llu ms): %s %s",
                      (unsigned long long)om.device_rest_ms, cz_job_state_name(mr.state), mr.error);
        else
            CHECK_MSG(mr.state == CZ_JOB_FAILED && strstr(mr.error, "injected device error"), "one slot: %s %s",
                      cz_job_state_name(mr.state), mr.error);
        cz_job_result_free(&mr);
        if (c == 1) usleep(20 * 1000);
        cz_engine_status mst;
        CHECK(cz_engine_get_status(em, &mst) == CZ_OK && mst.n_devs == (c == 2 ? 1u : 2u));
        if (c == 0 && mst.n_devs == 2)
            CHECK_MSG(mst.devs[1].failed == 1 && mst.devs[1].rests == 1 && mst.devs[1].resting_ms > 0 &&
                          mst.devs[0].partitions == 8 && mst.devs[0].rests == 0 && mst.devs[0].resting_ms == 0 &&
                          mst.retries == 1,
                      "long rest: slot 1 failed %llu, rests %llu, resting %llu ms; slot 0 %llu partitions; retries %llu",
                      (unsigned long long)mst.devs[1].failed, (unsigned long long)mst.devs[1].rests,
                      (unsigned long long)mst.devs[1].resting_ms, (unsigned long long)mst.devs[0].partitions,
                      (unsigned long long)mst.retries);
        if (c == 1 && mst.n_devs == 2)
            CHECK_MSG(mst.devs[1].failed >= 1 && mst.devs[1].rests == mst.devs[1].failed &&
                          mst.devs[1].resting_ms == 0 && mst.devs[0].partitions == 8,
                      "short rest: slot 1 failed %llu, rests %llu, resting %llu ms; slot 0 %llu partitions",
                      (unsigned long long)mst.devs[1].failed, (unsigned long long)mst.devs[1].rests,
                      (unsigned long long)mst.devs[1].resting_ms, (unsigned long long)mst.devs[0].partitions);
        if (c == 2 && mst.n_devs == 1)
            CHECK_MSG(mst.devs[0].failed >= 1 && mst.devs[0].rests == 0 && mst.devs[0].resting_ms == 0,
                      "one slot: failed %llu, rests %llu", (unsigned long long)mst.devs[0].failed,
                      (unsigned long long)mst.devs[0].rests);
        if (c == 0 && mst.n_devs == 2)
            printf("test_engine: a failing slot rests after 1 failure: %llu of 8 partitions on slot 0, "
                   "%llu failed on slot 1, %.0f s of rest left\n",
                   (unsigned long long)mst.devs[0].partitions, (unsigned long long)mst.devs[1].failed,
                   mst.devs[1].resting_ms / 1e3);
        cz_engine_status_free(&mst);
        cz_engine_destroy(em);
    }
    {
        cz_engine_opts om = o;
        om.timeline = NULL;
        om.state_dir[0] = 0;
        om.backend = CZ_BACKEND_CPU;
        om.n_devices = 2;
        om.devices[0] = om.devices[1] = 0;
        cz_engine *em = NULL;
        CHECK(cz_engine_create(&em, &om, msg, sizeof msg) != CZ_OK && em == NULL && strstr(msg, "listed twice"));
        om.n_devices = 1;
        om.device_copies = CZ_ENGINE_MAX_DEVICES + 1;
        CHECK(cz_engine_create(&em, &om, msg, sizeof msg) != CZ_OK && em == NULL && strstr(msg, "device slots"));
    }

    /* retention 0: an ended job is pruned by the janitor (a hang guard, not a timing verdict) */
    o.timeline = NULL;
    o.result_retention_ms = 0;
    CHECK(cz_engine_create(&e, &o, msg, sizeof msg) == CZ_OK);
    q = req("p", 0, "synth-7-1", NULL, 0);
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_OK);
    CHECK(cz_engine_await(e, id, 0, &r) == CZ_OK && r.state == CZ_JOB_COMPLETED);
    cz_job_result_free(&r);
    int pruned = 0;
    for (int i = 0; i < 3000 && !pruned; i++) {
        pruned = cz_engine_result(e, id, &r) == CZ_ERR_NOT_FOUND;
        if (!pruned) { cz_job_result_free(&r); usleep(10000); }
    }
    CHECK(pruned);
    q = req("p", 0, "synth-7-1", NULL, 0);
    CHECK(cz_engine_submit(e, &q, id2, &qp, &att, msg, sizeof msg) == CZ_OK && !att);
    cz_engine_destroy(e); /* with a job perhaps under way */

    /* the journal: a completed job and a held one survive the engine; the held one runs again */
    o.result_retention_ms = 60000;
    snprintf(o.state_dir, sizeof o.state_dir, "%s/state", dir);
    CHECK(cz_engine_create(&e, &o, msg, sizeof msg) == CZ_OK);
    char done_id[CZ_JOB_ID_MAX], held_id[CZ_JOB_ID_MAX], gone_id[CZ_JOB_ID_MAX];
    q = req("j-done", 0, "g", wbin, wlen);
    CHECK(cz_engine_submit(e, &q, done_id, &qp, &att, msg, sizeof msg) == CZ_OK);
    CHECK(cz_engine_await(e, done_id, 0, &r) == CZ_OK && r.state == CZ_JOB_COMPLETED);
    cz_job_result first = r;
    cz_engine_pause(e, 1);
    q = req("j-held", 0, "synth-7-2", NULL, 0);
    CHECK(cz_engine_submit(e, &q, held_id, &qp, &att, msg, sizeof msg) == CZ_OK);
    q = req("j-gone", 0, "synth-7-1", NULL, 0);
    CHECK(cz_engine_submit(e, &q, gone_id, &qp, &att, msg, sizeof msg) == CZ_OK);
    CHECK(cz_engine_cancel(e, gone_id, &was) == CZ_OK);
    cz_engine_destroy(e);
    CHECK(cz_engine_create(&e, &o, msg, sizeof msg) == CZ_OK);
    CHECK(cz_engine_result(e, done_id, &r) == CZ_OK && r.state == CZ_JOB_COMPLETED &&
          r.proof_len == first.proof_len && !memcmp(r.proof, first.proof, r.proof_len));
    cz_job_result_free(&r);
    cz_job_result_free(&first);
    CHECK(cz_engine_await(e, held_id, 0, &r) == CZ_OK);
    CHECK_MSG(synth_proofs_verify(&s7, 7, &r, 2), "held job after restart: %s %s", cz_job_state_name(r.state), r.error);
    cz_job_result_free(&r);
    CHECK(cz_engine_result(e, gone_id, &r) == CZ_OK && r.state == CZ_JOB_CANCELLED);
    q = req("j-held", 0, "synth-7-2", NULL, 0);
    CHECK(cz_engine_submit(e, &q, id, &qp, &att, msg, sizeof msg) == CZ_OK && att && !strcmp(id, held_id));
    cz_engine_destroy(e);

    free_keys(&g);
    free_keys(&s7);
    free(wbin);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return cz_test_finish("test_engine");
}
