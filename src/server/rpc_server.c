/* rpc_server.c — cuzk.v1.ProvingEngine on the gRPC C core.
 *
 * DESIGN
 *
 * Threads: one completion-queue thread runs every gRPC event; engine
 * threads finish Await/Prove calls from watch callbacks; a short-lived
 * thread per PreloadSRS call loads keys (that can take minutes).
 *
 * A call is a struct `call` with a reference count: one reference for each
 * batch started on it, one for an engine watch, one for the timer list.
 * When the count drops to zero the grpc_call is released and the struct
 * freed. Each call goes:
 *   request_call -> [RECV_MESSAGE] and, separately, [RECV_CLOSE_ON_SERVER]
 *   -> handle the request on the CQ thread -> respond: one batch
 *      SEND_INITIAL_METADATA + SEND_MESSAGE + SEND_STATUS_FROM_SERVER.
 * Unary calls answer at once. Await/Prove register an engine watch
 * (cz_engine_watch) and, with a timeout, go on the timer list, which the CQ
 * thread checks every time grpc_completion_queue_next returns (it waits at
 * most 50 ms). Whoever comes first answers: the watch callback (on an
 * engine thread, it calls grpc_call_start_batch itself), the timer (TIMEOUT,
 * after cz_engine_unwatch), or the close event of a client that went away
 * (nothing to answer; the job goes on, so a retry with the same request_id
 * attaches to it). `responded` (an atomic flag) decides who that is, so a
 * call is answered exactly once and no thread is held per waiting call.
 *
 * TLS: with a certificate and key in cz_rpc_opts the listener takes
 * grpc's SSL server credentials (no client certificates asked for).
 *
 * Errors: a request that does not parse or names a bad field gets
 * INVALID_ARGUMENT (the message names the field), an unknown job NOT_FOUND,
 * an unimplemented proof kind UNIMPLEMENTED, a message over the size limit
 * RESOURCE_EXHAUSTED (gRPC enforces the limit set on the server).
 *
 * Shutdown: cz_rpc_cancel_all sets engine_off under s->mu; the CQ thread
 * calls into the engine only with s->mu held and engine_off clear, so after
 * cz_rpc_cancel_all returns the engine can be destroyed.
 *
 * Lock order: s->mu, then the engine's locks. Engine threads (watch
 * callbacks) never take s->mu. */
#include "server/rpc_server.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/time.h>

#include "cuzk/v1/proving.pb-c.h"
#include "util/clock.h"
#include "util/log.h"

enum { M_SUBMIT, M_AWAIT, M_PROVE, M_CANCEL, M_STATUS, M_METRICS, M_PRELOAD, M_EVICT, M__N, M_UNKNOWN = -1 };
static const char *METHODS[M__N] = {
    "/cuzk.v1.ProvingEngine/SubmitProof", "/cuzk.v1.ProvingEngine/AwaitProof",
    "/cuzk.v1.ProvingEngine/Prove",       "/cuzk.v1.ProvingEngine/CancelProof",
    "/cuzk.v1.ProvingEngine/GetStatus",   "/cuzk.v1.ProvingEngine/GetMetrics",
    "/cuzk.v1.ProvingEngine/PreloadSRS",  "/cuzk.v1.ProvingEngine/EvictSRS",
};

enum { T_NEW, T_RECV, T_CLOSE, T_SEND, T_SHUTDOWN };

typedef struct call call;
typedef struct {
    int kind;
    call *c;
} tag;

struct call {
    cz_rpc_server *s;
    grpc_call *gc;
    grpc_call_details details;
    grpc_metadata_array md;
    grpc_byte_buffer *recv;
    int cancelled;
    int method;
    atomic_int refs;
    atomic_int responded;
    tag t_new, t_recv, t_close, t_send;
    /* the answer being sent */
    grpc_byte_buffer *send_bb;
    grpc_slice details_slice;
    int has_details;
    /* Await / Prove */
    cz_watch watch;
    int is_prove;
    double deadline;             /* cz_now_ms; 0 = none */
    int on_timer;
    call *tnext;
};

struct cz_rpc_server {
    cz_engine *e;
    grpc_server *srv;
    grpc_completion_queue *cq;
    pthread_t th;
    int th_started;
    cz_rpc_opts o;
    pthread_mutex_t mu;
    call *timers;                /* CQ thread only */
    atomic_int shutdown_done, accepting;
    int engine_off;              /* under mu: the engine may be gone, leave it alone */
    int port;                    /* the bound TCP port (0 for a unix socket) */
    atomic_int preloads;         /* preload threads running */
    tag t_shutdown;
};

/* ---- call lifetime ---- */
static call *call_new(cz_rpc_server *s)
{
    call *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->s = s;
    grpc_call_details_init(&c->details);
    grpc_metadata_array_init(&c->md);
    atomic_init(&c->refs, 1);
    atomic_init(&c->responded, 0);
    c->t_new = (tag){T_NEW, c};
    c->t_recv = (tag){T_RECV, c};
    c->t_close = (tag){T_CLOSE, c};
    c->t_send = (tag){T_SEND, c};
    return c;
}

static void call_unref(call *c)
{
    if (atomic_fetch_sub(&c->refs, 1) != 1) return;
    if (c->recv) grpc_byte_buffer_destroy(c->recv);
    if (c->send_bb) grpc_byte_buffer_destroy(c->send_bb);
    if (c->has_details) grpc_slice_unref(c->details_slice);
    if (c->gc) grpc_call_unref(c->gc);
    grpc_call_details_destroy(&c->details);
    grpc_metadata_array_destroy(&c->md);
    free(c);
}

static void call_ref(call *c) { atomic_fetch_add(&c->refs, 1); }

static void arm_request(cz_rpc_server *s)
{
    if (!atomic_load(&s->accepting)) return;
    call *c = call_new(s);
    if (!c) return;
    if (grpc_server_request_call(s->srv, &c->gc, &c->details, &c->md, s->cq, s->cq, &c->t_new) != GRPC_CALL_OK)
        call_unref(c);
}

/* Sends the answer: status code, details text, and (OK only) the packed
 * message. Returns 0 when another party had answered already. */
static int respond(call *c, grpc_status_code code, const char *text, const ProtobufCMessage *m)
{
    int z = 0;
    if (!atomic_compare_exchange_strong(&c->responded, &z, 1)) return 0;
    grpc_op ops[3];
    memset(ops, 0, sizeof ops);
    int n = 0;
    ops[n].op = GRPC_OP_SEND_INITIAL_METADATA;
    n++;
    if (code == GRPC_STATUS_OK && m) {
        size_t len = protobuf_c_message_get_packed_size(m);
        grpc_slice sl = grpc_slice_malloc(len);
        protobuf_c_message_pack(m, GRPC_SLICE_START_PTR(sl));
        c->send_bb = grpc_raw_byte_buffer_create(&sl, 1);
        grpc_slice_unref(sl);
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n].data.send_message.send_message = c->send_bb;
        n++;
    }
    c->details_slice = grpc_slice_from_copied_string(text ? text : "");
    c->has_details = 1;
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.status = code;
    ops[n].data.send_status_from_server.status_details = &c->details_slice;
    n++;
    call_ref(c);
    if (grpc_call_start_batch(c->gc, ops, (size_t)n, &c->t_send, NULL) != GRPC_CALL_OK) call_unref(c);
    if (c->s->o.verbose && code != GRPC_STATUS_OK) {
        char cs[16];
        snprintf(cs, sizeof cs, "%d", (int)code);
        const char *m = c->method >= 0 ? METHODS[c->method] : "?";
        cz_log(CZ_LOG_DEBUG, (const char *const[]){"method", m, "grpc_status", cs, NULL}, "%s -> status %d: %s", m,
               (int)code, text ? text : "");
    }
    return 1;
}

static grpc_status_code status_of(cz_err e)
{
    switch (e) {
    case CZ_OK: return GRPC_STATUS_OK;
    case CZ_ERR_NOT_FOUND: return GRPC_STATUS_NOT_FOUND;
    case CZ_ERR_UNSUPPORTED: return GRPC_STATUS_UNIMPLEMENTED;
    case CZ_ERR_NOMEM: return GRPC_STATUS_RESOURCE_EXHAUSTED;
    case CZ_ERR_IO: return GRPC_STATUS_INTERNAL;
    default: return GRPC_STATUS_INVALID_ARGUMENT;
    }
}

/* ---- Await / Prove answers ---- */
static Cuzk__V1__AwaitProofResponse__Status await_status(cz_job_state st, int timed_out)
{
    if (st == CZ_JOB_COMPLETED) return CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
    if (st == CZ_JOB_FAILED) return CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
    if (st == CZ_JOB_CANCELLED) return CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED;
    return timed_out ? CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT : CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__UNKNOWN;
}

static void answer_await(call *c, int timed_out)
{
    cz_job_result r;
    if (cz_engine_result(c->s->e, c->watch.job_id, &r)) {
        respond(c, GRPC_STATUS_NOT_FOUND, "job_id: no such job (pruned)", NULL);
        return;
    }
    Cuzk__V1__AwaitProofResponse ar = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    ar.job_id = r.job_id;
    ar.status = await_status(r.state, timed_out);
    ar.proof.data = r.proof;
    ar.proof.len = r.proof_len;
    ar.error_message = r.error;
    ar.queue_wait_ms = r.queue_wait_ms;
    ar.srs_load_ms = r.srs_load_ms;
    ar.synthesis_ms = r.synthesis_ms;
    ar.gpu_compute_ms = r.prove_ms;
    ar.total_ms = r.total_ms;
    if (c->is_prove) {
        Cuzk__V1__ProveResponse pr = CUZK__V1__PROVE_RESPONSE__INIT;
        pr.result = &ar;
        respond(c, GRPC_STATUS_OK, NULL, &pr.base);
    } else {
        respond(c, GRPC_STATUS_OK, NULL, &ar.base);
    }
    cz_job_result_free(&r);
}

/* engine thread (or the CQ thread when the job had ended) */
static void on_job_end(cz_watch *w)
{
    call *c = w->ctx;
    if (!atomic_load(&c->responded)) answer_await(c, 0);
    call_unref(c); /* the watch's reference */
}

static void start_wait(call *c, const char *job_id, uint64_t timeout_ms)
{
    cz_rpc_server *s = c->s;
    c->watch.cb = on_job_end;
    c->watch.ctx = c;
    if (timeout_ms) { /* on the timer list before the watch can fire */
        c->deadline = cz_now_ms() + (double)timeout_ms;
        c->on_timer = 1;
        call_ref(c);
        c->tnext = s->timers;
        s->timers = c;
    }
    call_ref(c);
    if (cz_engine_watch(s->e, job_id, &c->watch) != CZ_OK) {
        call_unref(c);
        respond(c, GRPC_STATUS_NOT_FOUND, "job_id: no such job", NULL);
    }
}

/* CQ thread: removes c from the timer list (if there) */
static void timer_remove(cz_rpc_server *s, call *c)
{
    if (!c->on_timer) return;
    for (call **pp = &s->timers; *pp; pp = &(*pp)->tnext)
        if (*pp == c) {
            *pp = c->tnext;
            break;
        }
    c->on_timer = 0;
    call_unref(c);
}

static void check_timers(cz_rpc_server *s)
{
    double now = cz_now_ms();
    call **pp = &s->timers;
    while (*pp) {
        call *c = *pp;
        if (c->deadline > now) {
            pp = &c->tnext;
            continue;
        }
        *pp = c->tnext;
        c->on_timer = 0;
        pthread_mutex_lock(&s->mu);
        if (!s->engine_off && cz_engine_unwatch(s->e, &c->watch)) { /* the watch will not fire: TIMEOUT */
            call_unref(c);
            answer_await(c, 1);
        }
        pthread_mutex_unlock(&s->mu);
        call_unref(c);
    }
}

/* ---- handlers (CQ thread) ---- */
static void request_from(cz_job_request *jr, const Cuzk__V1__SubmitProofRequest *r)
{
    memset(jr, 0, sizeof *jr);
    jr->request_id = r->request_id;
    jr->proof_kind = (int)r->proof_kind;
    jr->priority = (int)r->priority;
    jr->circuit_id = r->circuit_id;
    jr->payload = r->vanilla_proof.data;
    jr->payload_len = r->vanilla_proof.len;
    jr->n_payloads = r->n_vanilla_proofs;
    if (r->n_vanilla_proofs) {
        const uint8_t **pl = calloc(r->n_vanilla_proofs, sizeof *pl);
        size_t *ln = calloc(r->n_vanilla_proofs, sizeof *ln);
        if (!pl || !ln) {
            free(pl);
            free(ln);
            jr->n_payloads = 0;
            return;
        }
        for (size_t i = 0; i < r->n_vanilla_proofs; i++) {
            pl[i] = r->vanilla_proofs[i].data;
            ln[i] = r->vanilla_proofs[i].len;
        }
        jr->payloads = (const uint8_t *const *)pl;
        jr->payload_lens = ln;
    }
}

static cz_err submit(call *c, const Cuzk__V1__SubmitProofRequest *r, char job_id[CZ_JOB_ID_MAX], uint32_t *qp,
                     char *msg, size_t msglen)
{
    cz_job_request jr;
    request_from(&jr, r);
    int attached = 0;
    cz_err e = cz_engine_submit(c->s->e, &jr, job_id, qp, &attached, msg, msglen);
    free((void *)jr.payloads);
    free((void *)jr.payload_lens);
    if (!e && c->s->o.verbose)
        cz_log(CZ_LOG_DEBUG,
               (const char *const[]){"method", METHODS[c->method], "request_id", r->request_id, "circuit_id",
                                     r->circuit_id, "job_id", job_id, "attached", attached ? "1" : "0", NULL},
               "%s request_id=%s circuit_id=%s -> job %s%s", METHODS[c->method], r->request_id, r->circuit_id, job_id,
               attached ? " (attached to the earlier request)" : "");
    return e;
}

#define UNPACK(type, fn, bytes, len) ((type *)fn(NULL, len, bytes))

static void handle(call *c, const uint8_t *buf, size_t len)
{
    cz_rpc_server *s = c->s;
    char msg[1024];
    msg[0] = 0;
    switch (c->method) {
    case M_SUBMIT: {
        Cuzk__V1__SubmitProofRequest *r = cuzk__v1__submit_proof_request__unpack(NULL, len, buf);
        if (!r) { respond(c, GRPC_STATUS_INVALID_ARGUMENT, "request: not a SubmitProofRequest", NULL); return; }
        char id[CZ_JOB_ID_MAX];
        uint32_t qp = 0;
        cz_err e = submit(c, r, id, &qp, msg, sizeof msg);
        cuzk__v1__submit_proof_request__free_unpacked(r, NULL);
        if (e) { respond(c, status_of(e), msg, NULL); return; }
        Cuzk__V1__SubmitProofResponse out = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        out.job_id = id;
        out.queue_position = qp;
        respond(c, GRPC_STATUS_OK, NULL, &out.base);
        return;
    }
    case M_PROVE: {
        Cuzk__V1__ProveRequest *r = cuzk__v1__prove_request__unpack(NULL, len, buf);
        if (!r) { respond(c, GRPC_STATUS_INVALID_ARGUMENT, "request: not a ProveRequest", NULL); return; }
        if (!r->submit) {
            cuzk__v1__prove_request__free_unpacked(r, NULL);
            respond(c, GRPC_STATUS_INVALID_ARGUMENT, "submit: missing", NULL);
            return;
        }
        char id[CZ_JOB_ID_MAX];
        uint32_t qp;
        cz_err e = submit(c, r->submit, id, &qp, msg, sizeof msg);
        cuzk__v1__prove_request__free_unpacked(r, NULL);
        if (e) { respond(c, status_of(e), msg, NULL); return; }
        c->is_prove = 1;
        start_wait(c, id, 0);
        return;
    }
    case M_AWAIT: {
        Cuzk__V1__AwaitProofRequest *r = cuzk__v1__await_proof_request__unpack(NULL, len, buf);
        if (!r) { respond(c, GRPC_STATUS_INVALID_ARGUMENT, "request: not an AwaitProofRequest", NULL); return; }
        if (!r->job_id[0]) respond(c, GRPC_STATUS_INVALID_ARGUMENT, "job_id: empty", NULL);
        else start_wait(c, r->job_id, r->timeout_ms);
        cuzk__v1__await_proof_request__free_unpacked(r, NULL);
        return;
    }
    case M_CANCEL: {
        Cuzk__V1__CancelProofRequest *r = cuzk__v1__cancel_proof_request__unpack(NULL, len, buf);
        if (!r) { respond(c, GRPC_STATUS_INVALID_ARGUMENT, "request: not a CancelProofRequest", NULL); return; }
        int was_running = 0;
        cz_err e = r->job_id[0] ? cz_engine_cancel(s->e, r->job_id, &was_running) : CZ_ERR_INVALID_ARG;
        cuzk__v1__cancel_proof_request__free_unpacked(r, NULL);
        if (e == CZ_ERR_INVALID_ARG) { respond(c, GRPC_STATUS_INVALID_ARGUMENT, "job_id: empty", NULL); return; }
        if (e) { respond(c, GRPC_STATUS_NOT_FOUND, "job_id: no such job", NULL); return; }
        Cuzk__V1__CancelProofResponse out = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
        out.was_running = was_running;
        respond(c, GRPC_STATUS_OK, NULL, &out.base);
        return;
    }
    case M_STATUS: {
        Cuzk__V1__GetStatusRequest *r = cuzk__v1__get_status_request__unpack(NULL, len, buf);
        if (!r) { respond(c, GRPC_STATUS_INVALID_ARGUMENT, "request: not a GetStatusRequest", NULL); return; }
        cuzk__v1__get_status_request__free_unpacked(r, NULL);
        cz_engine_status st;
        cz_engine_get_status(s->e, &st);
        Cuzk__V1__GetStatusResponse out;
        void *mem = NULL;
        if (cz_rpc_status_response(&st, &out, &mem))
            respond(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory", NULL);
        else
            respond(c, GRPC_STATUS_OK, NULL, &out.base);
        free(mem);
        cz_engine_status_free(&st);
        return;
    }
    case M_METRICS: {
        Cuzk__V1__GetMetricsRequest *r = cuzk__v1__get_metrics_request__unpack(NULL, len, buf);
        if (!r) { respond(c, GRPC_STATUS_INVALID_ARGUMENT, "request: not a GetMetricsRequest", NULL); return; }
        cuzk__v1__get_metrics_request__free_unpacked(r, NULL);
        Cuzk__V1__GetMetricsResponse out = CUZK__V1__GET_METRICS_RESPONSE__INIT;
        out.prometheus_text = cz_rpc_metrics_text(s->e);
        respond(c, GRPC_STATUS_OK, NULL, &out.base);
        free(out.prometheus_text);
        return;
    }
    case M_EVICT: {
        Cuzk__V1__EvictSrsRequest *r = cuzk__v1__evict_srs_request__unpack(NULL, len, buf);
        if (!r) { respond(c, GRPC_STATUS_INVALID_ARGUMENT, "request: not an EvictSrsRequest", NULL); return; }
        int was = 0;
        uint64_t freed = 0;
        cz_err e = cz_engine_evict(s->e, r->circuit_id, &was, &freed, msg, sizeof msg);
        cuzk__v1__evict_srs_request__free_unpacked(r, NULL);
        if (e) { respond(c, status_of(e), msg, NULL); return; }
        Cuzk__V1__EvictSrsResponse out = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
        out.was_loaded = was;
        out.freed_bytes = freed;
        respond(c, GRPC_STATUS_OK, NULL, &out.base);
        return;
    }
    default:
        respond(c, GRPC_STATUS_UNIMPLEMENTED, "unknown method", NULL);
        return;
    }
}

cz_err cz_rpc_status_response(const cz_engine_status *st, Cuzk__V1__GetStatusResponse *out, void **mem)
{
    cuzk__v1__get_status_response__init(out);
    *mem = NULL;
    size_t nw = st->n_workers, ns = st->n_srs;
    /* one block: the workers' entries, pointers and names, the keys'
     * entries and pointers, the queues' entries and pointers */
    size_t sz = nw * (sizeof(Cuzk__V1__GPUStatus) + sizeof(Cuzk__V1__GPUStatus *) + CZ_RPC_WORKER_NAME_MAX) +
                ns * (sizeof(Cuzk__V1__SRSStatus) + sizeof(Cuzk__V1__SRSStatus *)) +
                CZ_N_KINDS * (sizeof(Cuzk__V1__QueueStatus) + sizeof(Cuzk__V1__QueueStatus *));
    char *m = calloc(1, sz);
    if (!m) return CZ_ERR_NOMEM;
    *mem = m;
    /* the entries first (largest alignment), then pointers, then the names */
    Cuzk__V1__GPUStatus *g = (Cuzk__V1__GPUStatus *)m;
    Cuzk__V1__SRSStatus *sr = (Cuzk__V1__SRSStatus *)(g + nw);
    Cuzk__V1__QueueStatus *q = (Cuzk__V1__QueueStatus *)(sr + ns);
    Cuzk__V1__GPUStatus **gp = (Cuzk__V1__GPUStatus **)(q + CZ_N_KINDS);
    Cuzk__V1__SRSStatus **srp = (Cuzk__V1__SRSStatus **)(gp + nw);
    Cuzk__V1__QueueStatus **qp = (Cuzk__V1__QueueStatus **)(srp + ns);
    char *names = (char *)(qp + CZ_N_KINDS);
    int cuda = st->backend_kind == CZ_BACKEND_CUDA;
    for (size_t i = 0; i < nw; i++) {
        cuzk__v1__gpustatus__init(&g[i]);
        /* one entry per proving worker: on CUDA its device and the
         * device's budget (shared by the device's workers) */
        int d = st->workers[i].device;
        const cz_device_status *ds = d >= 0 && (unsigned)d < st->n_devs ? &st->devs[d] : NULL;
        g[i].ordinal = cuda ? (uint32_t)(ds ? ds->ordinal : st->device) : (uint32_t)i;
        char *name = names + i * CZ_RPC_WORKER_NAME_MAX; /* each worker its own name */
        cz_rpc_worker_name(st, (unsigned)i, name, CZ_RPC_WORKER_NAME_MAX);
        g[i].name = name;
        if (cuda) {
            uint64_t bud = ds ? ds->vram_budget : st->vram_budget, used = ds ? ds->vram_used : st->vram_used;
            g[i].vram_total_bytes = bud;
            g[i].vram_free_bytes = bud > used ? bud - used : 0;
        }
        g[i].current_job_id = st->workers[i].current_job;
        g[i].current_proof_kind = st->workers[i].current_job[0] ? (char *)cz_kind_name(st->workers[i].current_kind)
                                                                : (char *)"";
        gp[i] = &g[i];
    }
    out->n_gpus = nw;
    out->gpus = gp;
    for (size_t i = 0; i < ns; i++) {
        cuzk__v1__srsstatus__init(&sr[i]);
        sr[i].circuit_id = st->srs[i].circuit_id;
        sr[i].tier = st->srs[i].tier == CZ_TIER_HOT    ? CUZK__V1__SRSSTATUS__TIER__HOT
                     : st->srs[i].tier == CZ_TIER_WARM ? CUZK__V1__SRSSTATUS__TIER__WARM
                                                       : CUZK__V1__SRSSTATUS__TIER__COLD;
        sr[i].size_bytes = st->srs[i].size_bytes;
        sr[i].ref_count = st->srs[i].ref_count;
        srp[i] = &sr[i];
    }
    out->n_loaded_srs = ns;
    out->loaded_srs = srp;
    size_t nq = 0;
    for (int k = 1; k < CZ_N_KINDS; k++) {
        if (!st->pending_by_kind[k] && !st->running_by_kind[k] && cz_kind_from_index(k) != CZ_KIND_GROTH16_GENERIC)
            continue;
        cuzk__v1__queue_status__init(&q[nq]);
        q[nq].proof_kind = (char *)cz_kind_name(cz_kind_from_index(k));
        q[nq].pending = st->pending_by_kind[k];
        q[nq].in_progress = st->running_by_kind[k];
        qp[nq] = &q[nq];
        nq++;
    }
    out->n_queues = nq;
    out->queues = qp;
    out->total_proofs_completed = st->completed;
    out->total_proofs_failed = st->failed;
    out->uptime_seconds = st->uptime_ms / 1000;
    /* the reference's pinned-memory pair carries our one host budget:
     * bytes accounted now and the limit (0 = none) */
    out->pinned_memory_bytes = st->mem_used;
    out->pinned_memory_limit_bytes = st->mem_budget;
    return CZ_OK;
}

/* PreloadSRS runs on its own thread: loading keys can take minutes */
typedef struct {
    call *c;
    char id[CZ_CIRCUIT_ID_MAX + 8];
} preload_arg;

static void *preload_main(void *arg)
{
    preload_arg *pa = arg;
    call *c = pa->c;
    char msg[1024];
    int already = 0;
    uint64_t ms = 0;
    cz_err e = cz_engine_preload(c->s->e, pa->id, &already, &ms, msg, sizeof msg);
    if (e) {
        respond(c, status_of(e), msg, NULL);
    } else {
        Cuzk__V1__PreloadSrsResponse out = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
        out.already_loaded = already;
        out.load_time_ms = ms;
        respond(c, GRPC_STATUS_OK, NULL, &out.base);
    }
    cz_rpc_server *s = c->s;
    call_unref(c);
    free(pa);
    atomic_fetch_sub(&s->preloads, 1);
    return NULL;
}

static void handle_preload(call *c, const uint8_t *buf, size_t len)
{
    Cuzk__V1__PreloadSrsRequest *r = cuzk__v1__preload_srs_request__unpack(NULL, len, buf);
    if (!r) { respond(c, GRPC_STATUS_INVALID_ARGUMENT, "request: not a PreloadSrsRequest", NULL); return; }
    preload_arg *pa = calloc(1, sizeof *pa);
    if (!pa) {
        cuzk__v1__preload_srs_request__free_unpacked(r, NULL);
        respond(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory", NULL);
        return;
    }
    if (strlen(r->circuit_id) >= sizeof pa->id) {
        cuzk__v1__preload_srs_request__free_unpacked(r, NULL);
        free(pa);
        respond(c, GRPC_STATUS_INVALID_ARGUMENT, "circuit_id: too long", NULL);
        return;
    }
    snprintf(pa->id, sizeof pa->id, "%s", r->circuit_id);
    cuzk__v1__preload_srs_request__free_unpacked(r, NULL);
    pa->c = c;
    call_ref(c);
    atomic_fetch_add(&c->s->preloads, 1);
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&th, &at, preload_main, pa)) {
        atomic_fetch_sub(&c->s->preloads, 1);
        call_unref(c);
        free(pa);
        respond(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "cannot start a thread", NULL);
    }
    pthread_attr_destroy(&at);
}

static int method_of(grpc_slice m)
{
    size_t n = GRPC_SLICE_LENGTH(m);
    for (int i = 0; i < M__N; i++)
        if (strlen(METHODS[i]) == n && !memcmp(METHODS[i], GRPC_SLICE_START_PTR(m), n)) return i;
    return M_UNKNOWN;
}

static void on_new(call *c)
{
    cz_rpc_server *s = c->s;
    arm_request(s);
    c->method = method_of(c->details.method);
    grpc_op op;
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    op.data.recv_close_on_server.cancelled = &c->cancelled;
    call_ref(c);
    if (grpc_call_start_batch(c->gc, &op, 1, &c->t_close, NULL) != GRPC_CALL_OK) call_unref(c);
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_MESSAGE;
    op.data.recv_message.recv_message = &c->recv;
    call_ref(c);
    if (grpc_call_start_batch(c->gc, &op, 1, &c->t_recv, NULL) != GRPC_CALL_OK) call_unref(c);
    call_unref(c); /* request_call's reference */
}

static void on_recv(call *c, int ok)
{
    if (!ok || !c->recv) { /* the client went away, or sent no message */
        respond(c, GRPC_STATUS_INVALID_ARGUMENT, "request: no message", NULL);
        call_unref(c);
        return;
    }
    grpc_byte_buffer_reader rd;
    if (!grpc_byte_buffer_reader_init(&rd, c->recv)) {
        respond(c, GRPC_STATUS_INTERNAL, "cannot read the request", NULL);
        call_unref(c);
        return;
    }
    grpc_slice sl = grpc_byte_buffer_reader_readall(&rd);
    grpc_byte_buffer_reader_destroy(&rd);
    cz_rpc_server *s = c->s;
    pthread_mutex_lock(&s->mu);
    if (s->engine_off) respond(c, GRPC_STATUS_UNAVAILABLE, "the daemon is shutting down", NULL);
    else if (c->method == M_PRELOAD) handle_preload(c, GRPC_SLICE_START_PTR(sl), GRPC_SLICE_LENGTH(sl));
    else handle(c, GRPC_SLICE_START_PTR(sl), GRPC_SLICE_LENGTH(sl));
    pthread_mutex_unlock(&s->mu);
    grpc_slice_unref(sl);
    call_unref(c);
}

static void on_close(call *c)
{
    cz_rpc_server *s = c->s;
    if (c->cancelled && !atomic_load(&c->responded)) { /* the client is gone before an answer */
        int z = 0;
        if (atomic_compare_exchange_strong(&c->responded, &z, 1)) {
            pthread_mutex_lock(&s->mu);
            if (c->watch.cb && !s->engine_off && cz_engine_unwatch(s->e, &c->watch)) call_unref(c);
            pthread_mutex_unlock(&s->mu);
            if (s->o.verbose) cz_log(CZ_LOG_DEBUG, NULL, "client left %s before the answer",
                                     c->method >= 0 ? METHODS[c->method] : "?");
        }
    }
    timer_remove(s, c);
    call_unref(c);
}

static void *cq_main(void *arg)
{
    cz_rpc_server *s = arg;
    for (;;) {
        gpr_timespec dl = gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC), gpr_time_from_millis(50, GPR_TIMESPAN));
        grpc_event ev = grpc_completion_queue_next(s->cq, dl, NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN) break;
        if (ev.type == GRPC_OP_COMPLETE) {
            tag *t = ev.tag;
            switch (t->kind) {
            case T_NEW:
                if (ev.success) on_new(t->c);
                else call_unref(t->c);
                break;
            case T_RECV: on_recv(t->c, ev.success); break;
            case T_CLOSE: on_close(t->c); break;
            case T_SEND: call_unref(t->c); break;
            case T_SHUTDOWN: atomic_store(&s->shutdown_done, 1); break;
            }
        }
        check_timers(s);
    }
    /* what is left on the timer list */
    while (s->timers) {
        call *c = s->timers;
        s->timers = c->tnext;
        c->on_timer = 0;
        call_unref(c);
    }
    return NULL;
}

cz_err cz_rpc_start(cz_rpc_server **out, cz_engine *e, const cz_rpc_opts *o, char *msg, size_t msglen)
{
    cz_rpc_server *s = calloc(1, sizeof *s);
    if (!s) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    s->e = e;
    s->o = *o;
    pthread_mutex_init(&s->mu, NULL);
    s->t_shutdown = (tag){T_SHUTDOWN, NULL};
    grpc_init();
    int lim = o->max_message_bytes > 0x7fffffffull || !o->max_message_bytes ? 0x7fffffff : (int)o->max_message_bytes;
    grpc_arg args[3];
    memset(args, 0, sizeof args);
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = lim;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = 0x7fffffff;
    args[2].type = GRPC_ARG_INTEGER;
    args[2].key = GRPC_ARG_ALLOW_REUSEPORT; /* a second daemon on the same port must fail, not share it */
    args[2].value.integer = 0;
    grpc_channel_args ca = {3, args};
    s->cq = grpc_completion_queue_create_for_next(NULL);
    s->srv = grpc_server_create(&ca, NULL);
    grpc_server_register_completion_queue(s->srv, s->cq, NULL);
    int tls = o->tls_cert_pem && o->tls_key_pem;
    grpc_server_credentials *cr;
    if (tls) {
        grpc_ssl_pem_key_cert_pair kp = {.private_key = o->tls_key_pem, .cert_chain = o->tls_cert_pem};
        cr = grpc_ssl_server_credentials_create(NULL, &kp, 1, 0, NULL);
    } else {
        cr = grpc_insecure_server_credentials_create();
    }
    int port = cr ? grpc_server_add_http2_port(s->srv, o->listen, cr) : 0;
    if (cr) grpc_server_credentials_release(cr);
    if (!port) {
        grpc_server_destroy(s->srv);
        grpc_completion_queue_shutdown(s->cq);
        while (grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type != GRPC_QUEUE_SHUTDOWN) {}
        grpc_completion_queue_destroy(s->cq);
        grpc_shutdown();
        free(s);
        return cz_fail(CZ_ERR_IO, msg, msglen, "cannot listen on %s (address in use or invalid%s)", o->listen,
                       tls ? ", or tls_cert / tls_key is not a usable PEM certificate and key" : "");
    }
    s->port = strncmp(o->listen, "unix:", 5) ? port : 0;
    grpc_server_start(s->srv);
    atomic_store(&s->accepting, 1);
    for (int i = 0; i < 32; i++) arm_request(s); /* calls accepted at once */
    if (pthread_create(&s->th, NULL, cq_main, s)) {
        cz_rpc_stop_accepting(s);
        cz_rpc_destroy(s);
        return cz_fail(CZ_ERR_NOMEM, msg, msglen, "cannot start the server thread");
    }
    s->th_started = 1;
    *out = s;
    return CZ_OK;
}

int cz_rpc_port(const cz_rpc_server *s) { return s->port; }

void cz_rpc_stop_accepting(cz_rpc_server *s)
{
    if (!atomic_exchange(&s->accepting, 0)) return;
    grpc_server_shutdown_and_notify(s->srv, s->cq, &s->t_shutdown);
}

int cz_rpc_wait_calls(cz_rpc_server *s, uint64_t timeout_ms)
{
    double t0 = cz_now_ms();
    while (!atomic_load(&s->shutdown_done) && cz_now_ms() - t0 < (double)timeout_ms) {
        struct timespec ts = {0, 5 * 1000000L};
        nanosleep(&ts, NULL);
    }
    return atomic_load(&s->shutdown_done);
}

void cz_rpc_cancel_all(cz_rpc_server *s)
{
    pthread_mutex_lock(&s->mu);
    s->engine_off = 1;
    pthread_mutex_unlock(&s->mu);
    while (atomic_load(&s->preloads)) { /* preload threads answer and go */
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
    grpc_server_cancel_all_calls(s->srv);
}

void cz_rpc_destroy(cz_rpc_server *s)
{
    cz_rpc_stop_accepting(s);
    cz_rpc_cancel_all(s);
    if (!s->th_started) {
        while (!atomic_load(&s->shutdown_done)) {
            grpc_event ev = grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
            if (ev.type == GRPC_OP_COMPLETE && ((tag *)ev.tag)->kind == T_SHUTDOWN) break;
            if (ev.type == GRPC_OP_COMPLETE && ((tag *)ev.tag)->c) call_unref(((tag *)ev.tag)->c);
        }
    } else {
        grpc_server_cancel_all_calls(s->srv);
        while (!atomic_load(&s->shutdown_done)) {
            struct timespec ts = {0, 5 * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
    grpc_server_destroy(s->srv);
    grpc_completion_queue_shutdown(s->cq);
    if (s->th_started) pthread_join(s->th, NULL);
    grpc_completion_queue_destroy(s->cq);
    pthread_mutex_destroy(&s->mu);
    free(s);
    grpc_shutdown();
}
