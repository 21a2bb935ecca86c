/* test_membudget.c — the engine's host-RAM budget and background frees.
 *
 * Unit checks of the accounting (membudget.h: the working-set sums, admit
 * and release in two steps, the peak, "auto"), of the background free
 * thread (reaper.h: every buffer freed, every credit delivered, in order),
 * then the engine with a budget on the synthetic circuits: a budget that
 * admits one partition at a time still completes every job, each proof
 * verified by the engine, with the engine's own peak at most the budget;
 * a partition larger than the whole budget fails its job at once with the
 * sizes named; keys too large for the budget are refused by preload; an
 * idle key is evicted under pressure; the synthesis throttle on (checks
 * counted) and off (none) both complete. Nothing depends on speed: waits
 * are hang guards only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "engine/engine.h"
#include "engine/membudget.h"
#include "engine/reaper.h"
#include "formats/proof.h"
#include "util/clock.h"

static void unit_accounting(void)
{
    cz_mem_ws a = {.witness = 100, .synth = 50, .prove = 30};
    CHECK(cz_mem_ws_total(&a) == 150);
    CHECK(cz_mem_ws_step1(&a) == 20);
    CHECK(cz_mem_ws_step2(&a) == 130);
    CHECK(cz_mem_ws_step1(&a) + cz_mem_ws_step2(&a) == cz_mem_ws_total(&a));
    cz_mem_ws b = {.witness = 100, .synth = 10, .prove = 30};
    CHECK(cz_mem_ws_total(&b) == 130 && cz_mem_ws_step1(&b) == 0 && cz_mem_ws_step2(&b) == 130);

    cz_mem m;
    cz_mem_init(&m, 1000);
    cz_mem_set_keys(&m, 400);
    CHECK(cz_mem_used(&m) == 400);
    CHECK(cz_mem_fits(&m, 600) && !cz_mem_fits(&m, 601));
    cz_mem_take(&m, cz_mem_ws_total(&a)); /* admit */
    CHECK(cz_mem_used(&m) == 550 && m.peak == 550 && m.admitted == 1);
    CHECK(cz_mem_fits(&m, 450) && !cz_mem_fits(&m, 451));
    cz_mem_give(&m, cz_mem_ws_step1(&a)); /* witness handed to the prover */
    CHECK(cz_mem_used(&m) == 530 && m.peak == 550);
    cz_mem_give(&m, cz_mem_ws_step2(&a)); /* proof done */
    CHECK(cz_mem_used(&m) == 400 && m.parts == 0);
    cz_mem_give(&m, 5); /* never below zero */
    CHECK(m.parts == 0);
    cz_mem_pending(&m, 300, 0); /* a load's estimate */
    CHECK(cz_mem_used(&m) == 700 && m.peak == 700);
    cz_mem_pending(&m, 0, 300);
    cz_mem_set_keys(&m, 650); /* the real size replaces it */
    CHECK(cz_mem_used(&m) == 650 && m.peak == 700);
    cz_mem_set_keys(&m, 1200); /* over the budget: nothing fits */
    CHECK(!cz_mem_fits(&m, 0) && !cz_mem_fits(&m, 1));
    cz_mem_init(&m, 0); /* no limit */
    cz_mem_set_keys(&m, UINT64_MAX / 2);
    CHECK(cz_mem_fits(&m, UINT64_MAX / 2));
    CHECK(cz_mem_auto_budget(64, 5) == 59 && cz_mem_auto_budget(5, 5) == 0 && cz_mem_auto_budget(4, 5) == 0);
    CHECK(cz_mem_total_ram() > 0); /* Linux: /proc/meminfo */
}

static uint64_t credited, last_credit;
static int out_of_order, freed_n;
static void on_done(void *ctx, uint64_t c)
{
    (void)ctx;
    if (c && c != last_credit + 1) out_of_order = 1;
    if (c) last_credit = c;
    credited += c;
}
static void count_free(void *p)
{
    freed_n++;
    free(p);
}

static void unit_reaper(void)
{
    char msg[256];
    cz_reaper *r;
    CHECK(cz__reaper_start(&r, on_done, NULL, msg, sizeof msg) == CZ_OK);
    int queued = 0;
    for (uint64_t i = 1; i <= 100; i++) queued += cz__reaper_put(r, malloc(1000), count_free, i);
    queued += cz__reaper_put(r, NULL, NULL, 0); /* only a credit (of 0) */
    CHECK(queued == 101);
    cz__reaper_stop(r); /* drains */
    CHECK(freed_n == 100);
    CHECK(credited == 5050);
    CHECK(!out_of_order);
    /* no reaper: freed on the spot, the caller keeps the credit */
    CHECK(cz__reaper_put(NULL, malloc(10), count_free, 7) == 0 && freed_n == 101);
}

static char dir[64];

static cz_engine *mk(uint64_t budget, int throttle, uint64_t min_idle_ms, char *msg, size_t msglen)
{
    cz_engine_opts o;
    cz_engine_opts_defaults(&o);
    snprintf(o.param_cache, sizeof o.param_cache, "%s", dir);
    o.backend = CZ_BACKEND_CPU;
    o.synthesis_workers = 2;
    o.max_queue_depth = 4;
    o.prove_threads = 2;
    o.mem_budget = budget;
    o.synthesis_throttle = throttle;
    o.eviction_min_idle_ms = min_idle_ms;
    cz_engine *e = NULL;
    if (cz_engine_create(&e, &o, msg, msglen)) return NULL;
    return e;
}

static cz_err submit(cz_engine *e, const char *cid, char id[CZ_JOB_ID_MAX], char *msg, size_t msglen)
{
    static const uint8_t seed[] = "7";
    cz_job_request q = {.proof_kind = CZ_KIND_GROTH16_GENERIC, .circuit_id = cid, .payload = seed,
                        .payload_len = 1};
    return cz_engine_submit(e, &q, id, NULL, NULL, msg, msglen);
}

/* the loaded entry `key`: its key bytes and one partition's working set */
static int sizes_of(cz_engine *e, const char *key, uint64_t *kbytes, uint64_t *pbytes)
{
    cz_engine_status st;
    cz_engine_get_status(e, &st);
    int found = 0;
    for (size_t i = 0; i < st.n_srs; i++)
        if (!strcmp(st.srs[i].circuit_id, key) && st.srs[i].loaded) {
            *kbytes = st.srs[i].size_bytes;
            *pbytes = st.srs[i].partition_bytes;
            found = 1;
        }
    cz_engine_status_free(&st);
    return found;
}

/* the accounting settles once the background frees are done (a hang guard) */
static cz_engine_status settled(cz_engine *e)
{
    cz_engine_status st;
    double t0 = cz_now_ms();
    for (;;) {
        cz_engine_get_status(e, &st);
        if ((st.mem_used == st.mem_keys && !st.bg_queued) || cz_now_ms() - t0 > 60e3) return st;
        cz_engine_status_free(&st);
        usleep(1000);
    }
}

int main(void)
{
    unit_accounting();
    unit_reaper();

    snprintf(dir, sizeof dir, "/tmp/cz-membudget-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    char msg[600], id[CZ_JOB_ID_MAX];
    int already;
    uint64_t ms, k10 = 0, p10 = 0, k11 = 0, p11 = 0;

    /* the sizes, from an engine without a limit */
    cz_engine *e = mk(0, 1, 0, msg, sizeof msg);
    CHECK_MSG(e != NULL, "%s", msg);
    if (!e) return cz_test_finish("test_membudget");
    CHECK(cz_engine_preload(e, "synth-10-1", &already, &ms, msg, sizeof msg) == CZ_OK);
    CHECK(cz_engine_preload(e, "synth-11-1", &already, &ms, msg, sizeof msg) == CZ_OK);
    CHECK(sizes_of(e, "synth-10", &k10, &p10) && k10 > 0 && p10 > 0);
    CHECK(sizes_of(e, "synth-11", &k11, &p11) && k11 > k10 && p11 > p10);
    printf("synth-10: keys %llu, partition %llu; synth-11: keys %llu, partition %llu\n", (unsigned long long)k10, (unsigned long long)p10, (unsigned long long)k11, (unsigned long long)p11);
    /* the working set: witness + max(synth scratch, prove scratch) >= 2^10 values */
    CHECK(p10 >= ((uint64_t)1 << 10) * 32);
    cz_engine_status st = settled(e);
    CHECK(st.mem_budget == 0 && st.mem_keys == k10 + k11 && st.mem_used == st.mem_keys);
    cz_engine_status_free(&st);
    cz_engine_destroy(e);

    /* one partition at a time: keys + 1.5 partitions */
    uint64_t budget = k10 + p10 + p10 / 2;
    e = mk(budget, 1, 0, msg, sizeof msg);
    CHECK_MSG(e != NULL, "%s", msg);
    enum { NJ = 4, NP = 3 };
    char ids[NJ][CZ_JOB_ID_MAX];
    cz_engine_pause(e, 1);
    for (int i = 0; i < NJ; i++) CHECK(submit(e, "synth-10-3", ids[i], msg, sizeof msg) == CZ_OK);
    cz_engine_pause(e, 0);
    for (int i = 0; i < NJ; i++) {
        cz_job_result r;
        CHECK(cz_engine_await(e, ids[i], 0, &r) == CZ_OK);
        CHECK_MSG(r.state == CZ_JOB_COMPLETED && r.proof_len == NP * CZ_GROTH16_PROOF_BYTES, "%s", r.error);
        cz_job_result_free(&r);
    }
    st = settled(e);
    printf("one partition at a time: peak %llu of a budget of %llu bytes, %llu partitions waited for room\n",
           (unsigned long long)st.mem_peak, (unsigned long long)budget, (unsigned long long)st.mem_waits);
    CHECK(st.completed == NJ && st.failed == 0); /* the engine verified each proof (verify_proofs) */
    CHECK_MSG(st.mem_peak <= budget, "peak %llu, budget %llu", (unsigned long long)st.mem_peak,
              (unsigned long long)budget);
    CHECK(st.mem_peak >= k10 + p10); /* a partition was admitted next to the keys */
    CHECK(st.mem_used == k10 && st.mem_keys == k10); /* both steps gave everything back */
    CHECK(st.bg_frees >= NJ * NP); /* each witness went to the background thread */
    CHECK(st.throttle_enabled && st.throttle_checks >= NJ * NP); /* a check at least at each synthesis' end */
    cz_engine_status_free(&st);
    /* idle-key eviction under pressure (min idle 0): synth-11 needs synth-10's room */
    e = (cz_engine_destroy(e), mk(k11 + p11 + k10 / 2, 1, 0, msg, sizeof msg));
    CHECK_MSG(e != NULL, "%s", msg);
    CHECK(submit(e, "synth-10-1", id, msg, sizeof msg) == CZ_OK);
    cz_job_result r;
    CHECK(cz_engine_await(e, id, 0, &r) == CZ_OK && r.state == CZ_JOB_COMPLETED);
    cz_job_result_free(&r);
    CHECK(submit(e, "synth-11-1", id, msg, sizeof msg) == CZ_OK);
    CHECK(cz_engine_await(e, id, 0, &r) == CZ_OK);
    CHECK_MSG(r.state == CZ_JOB_COMPLETED, "%s", r.error);
    cz_job_result_free(&r);
    st = settled(e);
    CHECK(st.mem_evictions >= 1 && st.mem_keys == k11 && st.mem_peak <= k11 + p11 + k10 / 2);
    cz_engine_status_free(&st);
    cz_engine_destroy(e);

    /* a partition larger than the whole budget: fails at once, sizes named */
    e = mk(k10 + p10 / 2, 0, 0, msg, sizeof msg);
    CHECK_MSG(e != NULL, "%s", msg);
    CHECK(submit(e, "synth-10-2", id, msg, sizeof msg) == CZ_OK);
    CHECK(cz_engine_await(e, id, 0, &r) == CZ_OK && r.state == CZ_JOB_FAILED);
    CHECK_MSG(strstr(r.error, "partition 0 of synth-10 needs") && strstr(r.error, "whole budget") &&
                  strstr(r.error, "total_budget"),
              "%s", r.error);
    cz_job_result_free(&r);
    st = settled(e);
    CHECK(st.mem_refused == 1 && st.failed == 1 && st.mem_peak <= k10 + p10 / 2);
    /* throttle off: no checks made, and the other circuit still works (it fits) */
    CHECK(!st.throttle_enabled && st.throttle_checks == 0);
    cz_engine_status_free(&st);
    cz_engine_destroy(e);

    /* keys larger than the budget: the job fails, preload is refused */
    e = mk(4096, 0, 0, msg, sizeof msg);
    CHECK_MSG(e != NULL, "%s", msg);
    CHECK(submit(e, "synth-10-1", id, msg, sizeof msg) == CZ_OK);
    CHECK(cz_engine_await(e, id, 0, &r) == CZ_OK && r.state == CZ_JOB_FAILED);
    CHECK_MSG(strstr(r.error, "keys of synth-10") && strstr(r.error, "4096"), "%s", r.error);
    cz_job_result_free(&r);
    CHECK(cz_engine_preload(e, "synth-10-1", &already, &ms, msg, sizeof msg) == CZ_ERR_NOMEM);
    CHECK_MSG(strstr(msg, "memory:") && strstr(msg, "synth-10"), "%s", msg);
    st = settled(e);
    CHECK(st.mem_used == 0 && st.mem_peak == 0 && st.mem_refused == 1);
    cz_engine_status_free(&st);
    cz_engine_destroy(e);

    /* throttle off, no limit: completes */
    e = mk(0, 0, 0, msg, sizeof msg);
    CHECK(submit(e, "synth-10-3", id, msg, sizeof msg) == CZ_OK);
    CHECK(cz_engine_await(e, id, 0, &r) == CZ_OK && r.state == CZ_JOB_COMPLETED);
    cz_job_result_free(&r);
    st = settled(e);
    CHECK(st.throttle_checks == 0 && st.throttle_waits == 0);
    cz_engine_status_free(&st);
    cz_engine_destroy(e);

    rmdir(dir);
    return cz_test_finish("test_membudget");
}
