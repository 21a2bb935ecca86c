/* http_status.h — the daemon's HTTP status page ([daemon] status_listen):
 * GET /status (JSON) and GET /metrics (the Prometheus text GetMetrics
 * returns), on libmicrohttpd.
 *
 * libmicrohttpd is optional at configure time: without it
 * cz_http_available() is 0 and cz_http_start fails with CZ_ERR_UNSUPPORTED
 * and a message saying so; cz_status_json is built either way.
 *
 * Lifecycle: cz_http_start binds host:port (port 0: one the system picks,
 * cz_http_port tells which) and serves on its own thread; cz_http_stop
 * ends it and must run before the engine is destroyed. */
#ifndef CZ_SERVER_HTTP_STATUS_H
#define CZ_SERVER_HTTP_STATUS_H

#include <stddef.h>
#include "engine/engine.h"
#include "util/err.h"

typedef struct cz_http_server cz_http_server;

/* 1 when this build serves HTTP (libmicrohttpd was found) */
int cz_http_available(void);

/* listen: "host:port", "[v6]:port" or ":port" (every interface) */
cz_err cz_http_start(cz_http_server **out, cz_engine *e, const char *listen, char *msg, size_t msglen);
int cz_http_port(const cz_http_server *s);
void cz_http_stop(cz_http_server *s);

/* Every ended job the page lists beside the live ones (the newest). */
#define CZ_STATUS_ENDED_JOBS 32

/* The /status document (malloc'ed JSON text, one object):
 *   uptime_seconds, backend,
 *   counters {completed, failed, cancelled, queued_jobs, running_jobs,
 *             queued_partitions, prove_queue_depth, synthesis_seconds_total,
 *             prove_seconds_total},
 *   queues [{proof_kind, pending, in_progress}],
 *   gpu_workers [{worker, name, device, current_job_id, current_proof_kind,
 *                 busy_seconds}],
 *   memory {rss_bytes, rss_peak_bytes, used_bytes, budget_bytes (null: no
 *           budget), vram_budget_bytes, vram_used_bytes, vram_peak_bytes},
 *   loaded_keys [{circuit_id, tier ("warm" | "cold"), size_bytes, ref_count}],
 *   pipelines [{job_id, request_id, circuit_id, proof_kind, priority, state,
 *               partitions_total, partitions_done, age_ms, queue_wait_ms,
 *               total_ms, srs_load_ms, synthesis_ms, prove_ms, error,
 *               partitions [{index, state, worker, synth_ms, prove_ms}]}]
 *   (every job not ended, newest first, then up to CZ_STATUS_ENDED_JOBS
 *   ended ones). */
char *cz_status_json(cz_engine *e);

#endif
