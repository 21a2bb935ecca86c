/* http_status.c — GET /status and GET /metrics over libmicrohttpd
 * (http_status.h), and the /status JSON document.
 *
 * DESIGN
 *
 * Threads: libmicrohttpd's one internal polling thread accepts and answers
 * every request (MHD_USE_INTERNAL_POLLING_THREAD); requests are answered
 * one at a time, each from one engine snapshot. No queue of our own.
 *
 * Locks: none here. A request takes the engine's locks only inside
 * cz_engine_get_status / cz_engine_jobs (engine.h), briefly; nothing is
 * held while the answer is sent. cz_http_stop joins the thread, so after
 * it returns the engine is no longer touched.
 *
 * Routes: GET or HEAD of /status (application/json) and /metrics
 * (text/plain; version=0.0.4, the Prometheus text); another method on
 * those paths is 405, any other path 404. */
#include "server/http_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/rpc_server.h"
#include "util/procmem.h"
#include "util/textbuf.h"

static const char *prio_name(int p)
{
    static const char *n[] = {"unspecified", "low", "normal", "high", "critical"};
    return p >= 0 && p <= 4 ? n[p] : "unknown";
}

char *cz_status_json(cz_engine *e)
{
    cz_engine_status st;
    cz_engine_get_status(e, &st);
    cz_job_info *jobs = NULL;
    size_t n_jobs = 0;
    if (cz_engine_jobs(e, CZ_STATUS_ENDED_JOBS, &jobs, &n_jobs)) n_jobs = 0;
    cz_textbuf b = {0};
    cz_tb_put(&b, "{\"uptime_seconds\":%.3f,\"backend\":", st.uptime_ms / 1e3);
    cz_tb_json_str(&b, st.backend);
    cz_tb_put(&b,
              ",\"counters\":{\"completed\":%llu,\"failed\":%llu,\"cancelled\":%llu,\"queued_jobs\":%u,"
              "\"running_jobs\":%u,\"queued_partitions\":%u,\"prove_queue_depth\":%u,"
              "\"synthesis_seconds_total\":%.3f,\"prove_seconds_total\":%.3f}",
              (unsigned long long)st.completed, (unsigned long long)st.failed, (unsigned long long)st.cancelled,
              st.queued_jobs, st.running_jobs, st.queued_partitions, st.prove_queue_depth, st.synth_ms_total / 1e3,
              st.prove_ms_total / 1e3);
    cz_tb_put(&b, ",\"queues\":[");
    for (int k = 1, first = 1; k < CZ_N_KINDS; k++) {
        if (!st.pending_by_kind[k] && !st.running_by_kind[k] && cz_kind_from_index(k) != CZ_KIND_GROTH16_GENERIC)
            continue;
        cz_tb_put(&b, "%s{\"proof_kind\":\"%s\",\"pending\":%u,\"in_progress\":%u}", first ? "" : ",",
                  cz_kind_name(cz_kind_from_index(k)), st.pending_by_kind[k], st.running_by_kind[k]);
        first = 0;
    }
    cz_tb_put(&b, "],\"gpu_workers\":[");
    for (unsigned i = 0; i < st.n_workers; i++) {
        char name[96];
        cz_rpc_worker_name(&st, i, name, sizeof name);
        cz_tb_put(&b, "%s{\"worker\":%u,\"name\":", i ? "," : "", i);
        cz_tb_json_str(&b, name);
        int d = st.workers[i].device;
        cz_tb_put(&b, ",\"device\":%d,\"slot\":%d,\"current_job_id\":",
                  d >= 0 && (unsigned)d < st.n_devs ? st.devs[d].ordinal : st.device, d);
        cz_tb_json_str(&b, st.workers[i].current_job);
        cz_tb_put(&b, ",\"current_proof_kind\":\"%s\",\"busy_seconds\":%.3f}",
                  st.workers[i].current_job[0] ? cz_kind_name(st.workers[i].current_kind) : "",
                  st.workers[i].busy_ms / 1e3);
    }
    uint64_t rss = 0, peak = 0;
    cz_proc_memory(&rss, &peak);
    cz_tb_put(&b, "],\"memory\":{\"rss_bytes\":%llu,\"rss_peak_bytes\":%llu,\"used_bytes\":%llu,\"budget_bytes\":",
              (unsigned long long)rss, (unsigned long long)peak, (unsigned long long)st.mem_used);
    if (st.mem_budget) cz_tb_put(&b, "%llu", (unsigned long long)st.mem_budget);
    else cz_tb_put(&b, "null");
    cz_tb_put(&b, ",\"vram_budget_bytes\":%llu,\"vram_used_bytes\":%llu,\"vram_peak_bytes\":%llu}",
              (unsigned long long)st.vram_budget, (unsigned long long)st.vram_used, (unsigned long long)st.vram_peak);
    cz_tb_put(&b, ",\"devices\":[");
    for (unsigned d = 0; d < st.n_devs; d++) {
        const cz_device_status *ds = &st.devs[d];
        cz_tb_put(&b, "%s{\"slot\":%u,\"name\":", d ? "," : "", d);
        cz_tb_json_str(&b, ds->name);
        cz_tb_put(&b,
                  ",\"device\":%d,\"workers\":%u,\"partitions\":%llu,\"failed\":%llu,\"rests\":%llu,"
                  "\"resting_seconds\":%.3f,\"busy_seconds\":%.3f,"
                  "\"cpu_fallbacks\":%llu,\"vram_budget_bytes\":%llu,\"vram_used_bytes\":%llu,\"vram_peak_bytes\":%llu}",
                  ds->ordinal, ds->workers, (unsigned long long)ds->partitions, (unsigned long long)ds->failed,
                  (unsigned long long)ds->rests, ds->resting_ms / 1e3, ds->busy_ms / 1e3,
                  (unsigned long long)ds->cpu_fallbacks, (unsigned long long)ds->vram_budget,
                  (unsigned long long)ds->vram_used, (unsigned long long)ds->vram_peak);
    }
    cz_tb_put(&b, "]");
    cz_tb_put(&b, ",\"loaded_keys\":[");
    for (size_t i = 0; i < st.n_srs; i++) {
        cz_tb_put(&b, "%s{\"circuit_id\":", i ? "," : "");
        cz_tb_json_str(&b, st.srs[i].circuit_id);
        cz_tb_put(&b, ",\"tier\":\"%s\",\"size_bytes\":%llu,\"ref_count\":%u}", cz_tier_name(st.srs[i].tier),
                  (unsigned long long)st.srs[i].size_bytes, st.srs[i].ref_count);
    }
    cz_tb_put(&b, "],\"pipelines\":[");
    for (size_t i = 0; i < n_jobs; i++) {
        const cz_job_info *j = &jobs[i];
        cz_tb_put(&b, "%s{\"job_id\":", i ? "," : "");
        cz_tb_json_str(&b, j->job_id);
        cz_tb_put(&b, ",\"request_id\":");
        cz_tb_json_str(&b, j->request_id);
        cz_tb_put(&b, ",\"circuit_id\":");
        cz_tb_json_str(&b, j->circuit_id);
        cz_tb_put(&b,
                  ",\"proof_kind\":\"%s\",\"priority\":\"%s\",\"state\":\"%s\",\"partitions_total\":%u,"
                  "\"partitions_done\":%u,\"age_ms\":%llu,\"queue_wait_ms\":%llu,\"total_ms\":%llu,"
                  "\"srs_load_ms\":%llu,\"synthesis_ms\":%llu,\"prove_ms\":%llu,\"error\":",
                  cz_kind_name(j->proof_kind), prio_name(j->priority), cz_job_state_name(j->state), j->n_parts,
                  j->parts_done, (unsigned long long)j->age_ms, (unsigned long long)j->queue_wait_ms,
                  (unsigned long long)j->total_ms, (unsigned long long)j->srs_load_ms,
                  (unsigned long long)j->synthesis_ms, (unsigned long long)j->prove_ms);
        cz_tb_json_str(&b, j->error);
        cz_tb_put(&b, ",\"partitions\":[");
        for (uint32_t p = 0; j->parts && p < j->n_parts; p++) {
            const cz_part_info *x = &j->parts[p];
            cz_tb_put(&b, "%s{\"index\":%u,\"state\":\"%s\",\"worker\":%d,\"synth_ms\":%llu,\"prove_ms\":%llu}",
                      p ? "," : "", p, cz_part_state_name(x->state), x->worker, (unsigned long long)x->synth_ms,
                      (unsigned long long)x->prove_ms);
        }
        cz_tb_put(&b, "]}");
    }
    cz_tb_put(&b, "]}\n");
    cz_engine_jobs_free(jobs, n_jobs);
    cz_engine_status_free(&st);
    if (b.oom) {
        cz_tb_free(&b);
        return NULL;
    }
    return cz_tb_take(&b);
}

#ifdef CUZK_HAVE_MHD
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netdb.h>
#include <sys/socket.h>

struct cz_http_server {
    cz_engine *e;
    struct MHD_Daemon *d;
    int port;
};

int cz_http_available(void) { return 1; }

static enum MHD_Result answer(struct MHD_Connection *c, unsigned code, const char *type, char *body)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    if (code == MHD_HTTP_METHOD_NOT_ALLOWED) MHD_add_response_header(r, "Allow", "GET, HEAD");
    enum MHD_Result ok = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
    (void)version, (void)upload, (void)upload_size, (void)con_cls;
    cz_http_server *s = cls;
    int is_status = !strcmp(url, "/status"), is_metrics = !strcmp(url, "/metrics");
    if (!is_status && !is_metrics)
        return answer(c, MHD_HTTP_NOT_FOUND, "text/plain", strdup("not found: this daemon serves /status and /metrics\n"));
    if (strcmp(method, "GET") && strcmp(method, "HEAD"))
        return answer(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", strdup("method not allowed: GET or HEAD\n"));
    char *body = is_status ? cz_status_json(s->e) : cz_rpc_metrics_text(s->e);
    if (!body) return answer(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", strdup("out of memory\n"));
    return answer(c, MHD_HTTP_OK, is_status ? "application/json" : "text/plain; version=0.0.4; charset=utf-8", body);
}

cz_err cz_http_start(cz_http_server **out, cz_engine *e, const char *listen, char *msg, size_t msglen)
{
    char host[256], port[32];
    const char *colon;
    if (listen[0] == '[') {
        const char *rb = strchr(listen, ']');
        if (!rb || rb[1] != ':' || (size_t)(rb - listen) >= sizeof host)
            return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "status_listen: %s is not host:port", listen);
        snprintf(host, sizeof host, "%.*s", (int)(rb - listen - 1), listen + 1);
        colon = rb + 1;
    } else {
        colon = strrchr(listen, ':');
        if (!colon || (size_t)(colon - listen) >= sizeof host)
            return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "status_listen: %s is not host:port", listen);
        snprintf(host, sizeof host, "%.*s", (int)(colon - listen), listen);
    }
    snprintf(port, sizeof port, "%s", colon + 1);
    char *end;
    long pn = strtol(port, &end, 10);
    if (!port[0] || *end || pn < 0 || pn > 65535)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "status_listen: bad port in %s", listen);
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    int gai = getaddrinfo(host[0] ? host : NULL, port, &hints, &res);
    if (gai || !res)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "status_listen: cannot resolve %s: %s", listen,
                       gai ? gai_strerror(gai) : "no address");
    cz_http_server *s = calloc(1, sizeof *s);
    if (!s) {
        freeaddrinfo(res);
        return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    }
    s->e = e;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | (res->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0);
    s->d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, s, MHD_OPTION_SOCK_ADDR, res->ai_addr,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)64, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
                            MHD_OPTION_END);
    freeaddrinfo(res);
    if (!s->d) {
        free(s);
        return cz_fail(CZ_ERR_IO, msg, msglen, "cannot serve HTTP status on %s (address in use or invalid)", listen);
    }
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
    s->port = di ? di->port : (int)pn;
    *out = s;
    return CZ_OK;
}

int cz_http_port(const cz_http_server *s) { return s ? s->port : 0; }

void cz_http_stop(cz_http_server *s)
{
    if (!s) return;
    MHD_stop_daemon(s->d);
    free(s);
}

#else /* built without libmicrohttpd */

struct cz_http_server {
    int unused;
};

int cz_http_available(void) { return 0; }

cz_err cz_http_start(cz_http_server **out, cz_engine *e, const char *listen, char *msg, size_t msglen)
{
    (void)e, (void)listen;
    *out = NULL;
    return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen,
                   "HTTP status is not built into this cuzk-daemon (libmicrohttpd was not found when it was "
                   "configured; install libmicrohttpd-dev and rebuild); /status and /metrics are off, GetStatus "
                   "and GetMetrics still answer over gRPC");
}

int cz_http_port(const cz_http_server *s)
{
    (void)s;
    return 0;
}

void cz_http_stop(cz_http_server *s) { (void)s; }

#endif
