/* rpc_metrics.c — the Prometheus text exposition GetMetrics returns, from
 * one engine status snapshot; the HTTP /metrics page serves the same text.
 * The reference engine's metric names come first (dashboards built for it
 * keep working), then ours: stage histograms, GPU busy seconds, key sizes
 * by tier, the process's resident memory, the host-memory budget, VRAM. */
#include "server/rpc_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/procmem.h"
#include "util/textbuf.h"

#define put cz_tb_put

void cz_rpc_worker_name(const cz_engine_status *st, unsigned i, char *out, size_t outlen)
{
    int d = i < st->n_workers ? st->workers[i].device : 0;
    const char *dn = d >= 0 && (unsigned)d < st->n_devs ? st->devs[d].name : st->backend;
    if (st->backend_kind == CZ_BACKEND_CUDA) snprintf(out, outlen, "%.40s worker %u", dn, i);
    else snprintf(out, outlen, "cpu-worker-%u", i);
}

char *cz_rpc_metrics_text(cz_engine *e)
{
    cz_engine_status st;
    cz_engine_get_status(e, &st);
    cz_textbuf b = {0};
    put(&b, "# HELP cuzk_proofs_completed_total Proofs completed since start.\n"
            "# TYPE cuzk_proofs_completed_total counter\ncuzk_proofs_completed_total %llu\n",
        (unsigned long long)st.completed);
    put(&b, "# HELP cuzk_proofs_failed_total Proofs failed since start.\n"
            "# TYPE cuzk_proofs_failed_total counter\ncuzk_proofs_failed_total %llu\n",
        (unsigned long long)st.failed);
    put(&b, "# HELP cuzk_uptime_seconds Seconds since the daemon started.\n"
            "# TYPE cuzk_uptime_seconds gauge\ncuzk_uptime_seconds %llu\n",
        (unsigned long long)(st.uptime_ms / 1000));
    put(&b, "# HELP cuzk_queue_depth Jobs waiting to start.\n# TYPE cuzk_queue_depth gauge\ncuzk_queue_depth %u\n",
        st.queued_jobs);
    put(&b, "# HELP cuzk_proofs_completed Proofs completed, by proof kind.\n# TYPE cuzk_proofs_completed counter\n");
    for (int i = 1; i < CZ_N_KINDS; i++)
        put(&b, "cuzk_proofs_completed{proof_kind=\"%s\"} %llu\n", cz_kind_name(cz_kind_from_index(i)),
            (unsigned long long)st.completed_by_kind[i]);
    put(&b, "# HELP cuzk_proofs_failed Proofs failed, by proof kind.\n# TYPE cuzk_proofs_failed counter\n");
    for (int i = 1; i < CZ_N_KINDS; i++)
        put(&b, "cuzk_proofs_failed{proof_kind=\"%s\"} %llu\n", cz_kind_name(cz_kind_from_index(i)),
            (unsigned long long)st.failed_by_kind[i]);
    /* by proof_kind, as the reference's (a summary there: its _sum and
     * _count per proof_kind read the same here) */
    put(&b, "# HELP cuzk_proof_duration_seconds Submit-to-completion time of completed proofs, by proof kind.\n"
            "# TYPE cuzk_proof_duration_seconds histogram\n");
    for (int k = 1; k < CZ_N_KINDS; k++) {
        const char *kn = cz_kind_name(cz_kind_from_index(k));
        for (int i = 0; i < 12; i++) {
            if (i == 11)
                put(&b, "cuzk_proof_duration_seconds_bucket{proof_kind=\"%s\",le=\"+Inf\"} %llu\n", kn,
                    (unsigned long long)st.dur_bucket[k][i]);
            else
                put(&b, "cuzk_proof_duration_seconds_bucket{proof_kind=\"%s\",le=\"%g\"} %llu\n", kn,
                    cz_engine_dur_bounds[i], (unsigned long long)st.dur_bucket[k][i]);
        }
        put(&b, "cuzk_proof_duration_seconds_sum{proof_kind=\"%s\"} %.3f\n"
                "cuzk_proof_duration_seconds_count{proof_kind=\"%s\"} %llu\n",
            kn, st.dur_sum_s[k], kn, (unsigned long long)st.completed_by_kind[k]);
    }
    put(&b, "# HELP cuzk_running_jobs Jobs being synthesized or proved.\n"
            "# TYPE cuzk_running_jobs gauge\ncuzk_running_jobs %u\n",
        st.running_jobs);
    put(&b, "# HELP cuzk_waiting_calls Calls (AwaitProof, Prove) waiting for their job to end.\n"
            "# TYPE cuzk_waiting_calls gauge\ncuzk_waiting_calls %u\n",
        st.watching);
    put(&b, "# HELP cuzk_gpu_workers Proving workers (CPU backend workers when there is no GPU).\n"
            "# TYPE cuzk_gpu_workers gauge\ncuzk_gpu_workers %u\n",
        st.n_workers);
    /* ours */
    put(&b, "# HELP cuzk_proofs_cancelled_total Jobs cancelled since start.\n"
            "# TYPE cuzk_proofs_cancelled_total counter\ncuzk_proofs_cancelled_total %llu\n",
        (unsigned long long)st.cancelled);
    put(&b, "# HELP cuzk_partitions_queued Partitions waiting for synthesis.\n"
            "# TYPE cuzk_partitions_queued gauge\ncuzk_partitions_queued %u\n",
        st.queued_partitions);
    put(&b, "# HELP cuzk_prove_queue_depth Synthesized partitions waiting for a proving worker.\n"
            "# TYPE cuzk_prove_queue_depth gauge\ncuzk_prove_queue_depth %u\n",
        st.prove_queue_depth);
    put(&b, "# HELP cuzk_synthesis_seconds_total Time spent making witnesses.\n"
            "# TYPE cuzk_synthesis_seconds_total counter\ncuzk_synthesis_seconds_total %.3f\n",
        st.synth_ms_total / 1e3);
    put(&b, "# HELP cuzk_prove_seconds_total Time proving workers spent proving and verifying.\n"
            "# TYPE cuzk_prove_seconds_total counter\ncuzk_prove_seconds_total %.3f\n",
        st.prove_ms_total / 1e3);
    static const char *hn[2] = {"cuzk_partition_synthesis_seconds", "cuzk_partition_prove_seconds"};
    static const char *hh[2] = {"Witness synthesis time per partition.", "Prove + verify time per partition."};
    const uint64_t *hb[2] = {st.synth_bucket, st.prove_bucket}, hc[2] = {st.n_synth, st.n_prove};
    const double hs[2] = {st.synth_sum_ms / 1e3, st.prove_sum_ms / 1e3};
    for (int h = 0; h < 2; h++) {
        put(&b, "# HELP %s %s\n# TYPE %s histogram\n", hn[h], hh[h], hn[h]);
        for (int i = 0; i < 12; i++) {
            if (i == 11) put(&b, "%s_bucket{le=\"+Inf\"} %llu\n", hn[h], (unsigned long long)hb[h][i]);
            else put(&b, "%s_bucket{le=\"%g\"} %llu\n", hn[h], cz_engine_stage_bounds[i], (unsigned long long)hb[h][i]);
        }
        put(&b, "%s_sum %.3f\n%s_count %llu\n", hn[h], hs[h], hn[h], (unsigned long long)hc[h]);
    }
    put(&b, "# HELP cuzk_gpu_busy_seconds_total Time each proving worker spent proving and verifying.\n"
            "# TYPE cuzk_gpu_busy_seconds_total counter\n");
    for (unsigned i = 0; i < st.n_workers; i++)
        put(&b, "cuzk_gpu_busy_seconds_total{worker=\"%u\"} %.3f\n", i, st.workers[i].busy_ms / 1e3);
    put(&b, "# HELP cuzk_srs_bytes Key sizes by circuit and tier (hot: resident on the GPU, warm: in host "
            "memory, cold: on disk).\n"
            "# TYPE cuzk_srs_bytes gauge\n");
    uint64_t tier_bytes[3] = {0, 0, 0}; /* by cz_tier: hot, warm, cold */
    for (size_t i = 0; i < st.n_srs; i++) {
        cz_tier t = st.srs[i].tier <= CZ_TIER_COLD ? st.srs[i].tier : CZ_TIER_COLD;
        put(&b, "cuzk_srs_bytes{circuit_id=\"%s\",tier=\"%s\"} %llu\n", st.srs[i].circuit_id, cz_tier_name(t),
            (unsigned long long)st.srs[i].size_bytes);
        tier_bytes[t] += st.srs[i].size_bytes;
    }
    put(&b, "# HELP cuzk_srs_tier_bytes Key sizes summed by tier.\n# TYPE cuzk_srs_tier_bytes gauge\n");
    for (int t = CZ_TIER_HOT; t <= CZ_TIER_COLD; t++)
        put(&b, "cuzk_srs_tier_bytes{tier=\"%s\"} %llu\n", cz_tier_name((cz_tier)t), (unsigned long long)tier_bytes[t]);
    uint64_t rss = 0, peak = 0;
    cz_proc_memory(&rss, &peak);
    put(&b, "# HELP process_resident_memory_bytes Resident memory of the daemon.\n"
            "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes %llu\n"
            "# HELP cuzk_resident_memory_peak_bytes Peak resident memory of the daemon since start.\n"
            "# TYPE cuzk_resident_memory_peak_bytes gauge\ncuzk_resident_memory_peak_bytes %llu\n",
        (unsigned long long)rss, (unsigned long long)peak);
    if (st.backend_kind == CZ_BACKEND_CUDA) {
        /* one line per CUDA device (device_copies share theirs) */
        static const char *const vn[3] = {"cuzk_vram_budget_bytes", "cuzk_vram_used_bytes", "cuzk_vram_peak_bytes"};
        static const char *const vh[3] = {"Device memory the CUDA backend may use.",
                                          "Device memory in use (keys, constraint systems, scratch).",
                                          "Peak device memory in use since start."};
        for (int v = 0; v < 3; v++) {
            put(&b, "# HELP %s %s\n# TYPE %s gauge\n", vn[v], vh[v], vn[v]);
            for (unsigned d = 0; d < st.n_devs; d++) {
                int seen = 0;
                for (unsigned k = 0; k < d; k++) seen |= st.devs[k].ordinal == st.devs[d].ordinal;
                if (seen) continue;
                const cz_device_status *ds = &st.devs[d];
                put(&b, "%s{device=\"%d\"} %llu\n", vn[v], ds->ordinal,
                    (unsigned long long)(v == 0 ? ds->vram_budget : v == 1 ? ds->vram_used : ds->vram_peak));
            }
        }
        put(&b, "# HELP cuzk_cpu_fallbacks_total Partitions a CUDA backend proved on the CPU.\n"
                "# TYPE cuzk_cpu_fallbacks_total counter\ncuzk_cpu_fallbacks_total %llu\n",
            (unsigned long long)st.cpu_fallbacks);
    }
    put(&b, "# HELP cuzk_device_busy_seconds_total Time the proving workers of each device slot spent proving and "
            "verifying.\n# TYPE cuzk_device_busy_seconds_total counter\n");
    for (unsigned d = 0; d < st.n_devs; d++)
        put(&b, "cuzk_device_busy_seconds_total{slot=\"%u\",device=\"%d\"} %.3f\n", d, st.devs[d].ordinal,
            st.devs[d].busy_ms / 1e3);
    /* the whole-number figures of each device slot, one family each */
    static const struct { const char *name, *type, *help; } sm[4] = {
        {"cuzk_device_partitions_total", "counter", "Partitions proved by the workers of each device slot."},
        {"cuzk_device_failures_total", "counter",
         "Partitions that failed on each device slot (a device error, or a proof that did not verify)."},
        {"cuzk_device_rests_total", "counter",
         "Times each device slot was rested after [gpus] device_fail_limit failed partitions in a row."},
        {"cuzk_device_resting", "gauge", "1 while a device slot rests (takes no partitions), else 0."}};
    for (int k = 0; k < 4; k++) {
        put(&b, "# HELP %s %s\n# TYPE %s %s\n", sm[k].name, sm[k].help, sm[k].name, sm[k].type);
        for (unsigned d = 0; d < st.n_devs; d++) {
            const cz_device_status *ds = &st.devs[d];
            uint64_t v = k == 0 ? ds->partitions : k == 1 ? ds->failed : k == 2 ? ds->rests : ds->resting_ms > 0;
            put(&b, "%s{slot=\"%u\",device=\"%d\"} %llu\n", sm[k].name, d, ds->ordinal, (unsigned long long)v);
        }
    }
    put(&b, "# HELP cuzk_partition_retries_total Partitions queued again for another device slot after failing on "
            "one.\n# TYPE cuzk_partition_retries_total counter\ncuzk_partition_retries_total %llu\n",
        (unsigned long long)st.retries);
    put(&b, "# HELP cuzk_memory_budget_bytes Host-RAM budget for keys and partitions in flight (0 = no limit).\n"
            "# TYPE cuzk_memory_budget_bytes gauge\ncuzk_memory_budget_bytes %llu\n",
        (unsigned long long)st.mem_budget);
    put(&b, "# HELP cuzk_memory_used_bytes Host memory accounted against the budget now.\n"
            "# TYPE cuzk_memory_used_bytes gauge\ncuzk_memory_used_bytes %llu\n",
        (unsigned long long)st.mem_used);
    put(&b, "# HELP cuzk_memory_peak_bytes Most host memory accounted at once since start.\n"
            "# TYPE cuzk_memory_peak_bytes gauge\ncuzk_memory_peak_bytes %llu\n",
        (unsigned long long)st.mem_peak);
    put(&b, "# HELP cuzk_memory_key_bytes Of it, loaded keys and constraint systems.\n"
            "# TYPE cuzk_memory_key_bytes gauge\ncuzk_memory_key_bytes %llu\n",
        (unsigned long long)st.mem_keys);
    put(&b, "# HELP cuzk_memory_waits_total Partitions that waited for room in the budget.\n"
            "# TYPE cuzk_memory_waits_total counter\ncuzk_memory_waits_total %llu\n",
        (unsigned long long)st.mem_waits);
    put(&b, "# HELP cuzk_memory_evictions_total Idle keys evicted under memory pressure.\n"
            "# TYPE cuzk_memory_evictions_total counter\ncuzk_memory_evictions_total %llu\n",
        (unsigned long long)st.mem_evictions);
    put(&b, "# HELP cuzk_memory_refused_total Jobs failed because a partition exceeds the whole budget.\n"
            "# TYPE cuzk_memory_refused_total counter\ncuzk_memory_refused_total %llu\n",
        (unsigned long long)st.mem_refused);
    put(&b, "# HELP cuzk_partition_memory_bytes Working set of one partition, by loaded circuit.\n"
            "# TYPE cuzk_partition_memory_bytes gauge\n");
    for (size_t i = 0; i < st.n_srs; i++)
        if (st.srs[i].loaded)
            put(&b, "cuzk_partition_memory_bytes{circuit_id=\"%s\"} %llu\n", st.srs[i].circuit_id,
                (unsigned long long)st.srs[i].partition_bytes);
    put(&b, "# HELP cuzk_background_frees_total Buffers freed on the background free thread.\n"
            "# TYPE cuzk_background_frees_total counter\ncuzk_background_frees_total %llu\n",
        (unsigned long long)st.bg_frees);
    put(&b, "# HELP cuzk_synthesis_throttle_enabled 1 when synthesis yields to host proving stages.\n"
            "# TYPE cuzk_synthesis_throttle_enabled gauge\ncuzk_synthesis_throttle_enabled %d\n",
        st.throttle_enabled);
    put(&b, "# HELP cuzk_synthesis_throttle_checks_total Throttle checks made between synthesis chunks.\n"
            "# TYPE cuzk_synthesis_throttle_checks_total counter\ncuzk_synthesis_throttle_checks_total %llu\n",
        (unsigned long long)st.throttle_checks);
    put(&b, "# HELP cuzk_synthesis_throttle_waits_total Checks that found a host proving stage running and waited.\n"
            "# TYPE cuzk_synthesis_throttle_waits_total counter\ncuzk_synthesis_throttle_waits_total %llu\n",
        (unsigned long long)st.throttle_waits);
    put(&b, "# HELP cuzk_synthesis_throttle_seconds_total Time synthesis waited for host proving stages.\n"
            "# TYPE cuzk_synthesis_throttle_seconds_total counter\ncuzk_synthesis_throttle_seconds_total %.3f\n",
        st.throttle_wait_ms / 1e3);
    cz_engine_status_free(&st);
    return cz_tb_take(&b);
}
