/* rpc_client.c — blocking unary calls to cuzk.v1.ProvingEngine on the gRPC
 * C core (contract in rpc_client.h).
 *
 * A call: a completion queue of its own, one batch with every op a unary
 * call needs (send metadata, message, half-close; receive metadata,
 * message, status), wait for its tag, then release the call and drain and
 * destroy the queue. */
#include "server/rpc_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/time.h>

#include "cuzk/v1/proving.pb-c.h"
#include "util/textbuf.h"

struct cz_rpc_client {
    grpc_channel *ch;
};

cz_err cz_rpc_client_open(cz_rpc_client **out, const char *addr, char *msg, size_t msglen)
{
    return cz_rpc_client_open_tls(out, addr, NULL, msg, msglen);
}

cz_err cz_rpc_client_open_tls(cz_rpc_client **out, const char *addr, const char *ca_pem, char *msg, size_t msglen)
{
    cz_rpc_client *c = calloc(1, sizeof *c);
    if (!c) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    grpc_init();
    grpc_arg args[2];
    memset(args, 0, sizeof args);
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = 0x7fffffff;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = 0x7fffffff;
    grpc_channel_args ca = {2, args};
    grpc_channel_credentials *cr = ca_pem ? grpc_ssl_credentials_create(ca_pem, NULL, NULL, NULL)
                                          : grpc_insecure_credentials_create();
    if (!cr) {
        free(c);
        grpc_shutdown();
        return cz_fail(CZ_ERR_IO, msg, msglen, "cannot make TLS credentials from the CA certificate");
    }
    c->ch = grpc_channel_create(addr, cr, &ca);
    grpc_channel_credentials_release(cr);
    if (!c->ch) {
        free(c);
        grpc_shutdown();
        return cz_fail(CZ_ERR_IO, msg, msglen, "cannot make a channel to %s", addr);
    }
    *out = c;
    return CZ_OK;
}

void cz_rpc_client_close(cz_rpc_client *c)
{
    if (!c) return;
    grpc_channel_destroy(c->ch);
    free(c);
    grpc_shutdown();
}

/* one unary call: req packed, the answer's bytes in *resp (gpr-free with
 * grpc_slice_unref); returns the gRPC status, details in msg */
static grpc_status_code unary(cz_rpc_client *c, const char *method, const ProtobufCMessage *req, uint64_t timeout_ms,
                              grpc_slice *resp, char *msg, size_t msglen)
{
    grpc_completion_queue *cq = grpc_completion_queue_create_for_next(NULL);
    gpr_timespec dl = timeout_ms ? gpr_time_add(gpr_now(GPR_CLOCK_REALTIME),
                                                gpr_time_from_millis((int64_t)timeout_ms, GPR_TIMESPAN))
                                 : gpr_inf_future(GPR_CLOCK_REALTIME);
    grpc_slice m = grpc_slice_from_static_string(method);
    grpc_call *call = grpc_channel_create_call(c->ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq, m, NULL, dl, NULL);
    size_t len = protobuf_c_message_get_packed_size(req);
    grpc_slice sl = grpc_slice_malloc(len);
    protobuf_c_message_pack(req, GRPC_SLICE_START_PTR(sl));
    grpc_byte_buffer *send = grpc_raw_byte_buffer_create(&sl, 1);
    grpc_slice_unref(sl);
    grpc_byte_buffer *recv = NULL;
    grpc_metadata_array md0, md1;
    grpc_metadata_array_init(&md0);
    grpc_metadata_array_init(&md1);
    grpc_status_code st = GRPC_STATUS_UNKNOWN;
    grpc_slice details = grpc_empty_slice();
    grpc_op ops[6];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = send;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &md0;
    ops[4].op = GRPC_OP_RECV_MESSAGE;
    ops[4].data.recv_message.recv_message = &recv;
    ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[5].data.recv_status_on_client.trailing_metadata = &md1;
    ops[5].data.recv_status_on_client.status = &st;
    ops[5].data.recv_status_on_client.status_details = &details;
    int tag;
    if (grpc_call_start_batch(call, ops, 6, &tag, NULL) == GRPC_CALL_OK)
        grpc_completion_queue_next(cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    else
        st = GRPC_STATUS_INTERNAL;
    snprintf(msg, msglen, "%.*s", (int)GRPC_SLICE_LENGTH(details), (const char *)GRPC_SLICE_START_PTR(details));
    *resp = grpc_empty_slice();
    if (st == GRPC_STATUS_OK && recv) {
        grpc_byte_buffer_reader rd;
        if (grpc_byte_buffer_reader_init(&rd, recv)) {
            *resp = grpc_byte_buffer_reader_readall(&rd);
            grpc_byte_buffer_reader_destroy(&rd);
        }
    }
    if (recv) grpc_byte_buffer_destroy(recv);
    grpc_byte_buffer_destroy(send);
    grpc_slice_unref(details);
    grpc_metadata_array_destroy(&md0);
    grpc_metadata_array_destroy(&md1);
    grpc_call_unref(call);
    grpc_completion_queue_shutdown(cq);
    while (grpc_completion_queue_next(cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type != GRPC_QUEUE_SHUTDOWN) {}
    grpc_completion_queue_destroy(cq);
    return st;
}

/* a unary call whose answer is unpacked as d: CZ_OK with *out set (free it
 * with protobuf_c_message_free_unpacked); CZ_ERR_IO on a gRPC status other
 * than OK, CZ_ERR_PARSE when the answer does not parse. *code and det (each
 * where not NULL) get the status and its details. */
static cz_err call(cz_rpc_client *c, const char *method, const ProtobufCMessage *req, uint64_t timeout_ms,
                   const ProtobufCMessageDescriptor *d, ProtobufCMessage **out, int *code, char *det, size_t detlen,
                   char *msg, size_t msglen)
{
    *out = NULL;
    char own[512];
    if (!det) det = own, detlen = sizeof own;
    const char *name = strrchr(method, '/') + 1;
    grpc_slice resp;
    grpc_status_code st = unary(c, method, req, timeout_ms, &resp, det, detlen);
    if (code) *code = (int)st;
    if (st != GRPC_STATUS_OK) {
        grpc_slice_unref(resp);
        return cz_fail(CZ_ERR_IO, msg, msglen, "%s: gRPC status %d: %s", name, (int)st, det);
    }
    *out = protobuf_c_message_unpack(d, NULL, GRPC_SLICE_LENGTH(resp), GRPC_SLICE_START_PTR(resp));
    grpc_slice_unref(resp);
    return *out ? CZ_OK : cz_fail(CZ_ERR_PARSE, msg, msglen, "%s: the answer does not parse", name);
}

cz_err cz_rpc_client_prove(cz_rpc_client *c, const cz_rpc_prove_req *r, uint64_t timeout_ms, cz_rpc_prove_res *out,
                           char *msg, size_t msglen)
{
    memset(out, 0, sizeof *out);
    Cuzk__V1__SubmitProofRequest s = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    s.request_id = (char *)(r->request_id ? r->request_id : "");
    s.proof_kind = (Cuzk__V1__ProofKind)r->proof_kind;
    s.priority = (Cuzk__V1__Priority)r->priority;
    s.circuit_id = (char *)(r->circuit_id ? r->circuit_id : "");
    s.vanilla_proof.data = (uint8_t *)r->payload;
    s.vanilla_proof.len = r->payload_len;
    Cuzk__V1__ProveRequest p = CUZK__V1__PROVE_REQUEST__INIT;
    p.submit = &s;
    Cuzk__V1__ProveResponse *pr;
    cz_err e = call(c, "/cuzk.v1.ProvingEngine/Prove", &p.base, timeout_ms, &cuzk__v1__prove_response__descriptor,
                    (ProtobufCMessage **)&pr, &out->grpc_code, out->error, sizeof out->error, msg, msglen);
    if (e) return e;
    if (!pr->result) {
        cuzk__v1__prove_response__free_unpacked(pr, NULL);
        return cz_fail(CZ_ERR_PARSE, msg, msglen, "Prove: the answer has no result");
    }
    const Cuzk__V1__AwaitProofResponse *a = pr->result;
    out->status = (int)a->status;
    snprintf(out->job_id, sizeof out->job_id, "%s", a->job_id);
    snprintf(out->error, sizeof out->error, "%s", a->error_message);
    out->proof_len = a->proof.len;
    out->queue_wait_ms = a->queue_wait_ms;
    out->srs_load_ms = a->srs_load_ms;
    out->synthesis_ms = a->synthesis_ms;
    out->gpu_compute_ms = a->gpu_compute_ms;
    out->total_ms = a->total_ms;
    cuzk__v1__prove_response__free_unpacked(pr, NULL);
    return CZ_OK;
}

cz_err cz_rpc_client_preload(cz_rpc_client *c, const char *circuit_id, int *already, uint64_t *load_ms, char *msg,
                             size_t msglen)
{
    Cuzk__V1__PreloadSrsRequest q = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    q.circuit_id = (char *)circuit_id;
    Cuzk__V1__PreloadSrsResponse *r;
    cz_err e = call(c, "/cuzk.v1.ProvingEngine/PreloadSRS", &q.base, 0, &cuzk__v1__preload_srs_response__descriptor,
                    (ProtobufCMessage **)&r, NULL, NULL, 0, msg, msglen);
    if (e) return e;
    *already = r->already_loaded;
    *load_ms = r->load_time_ms;
    cuzk__v1__preload_srs_response__free_unpacked(r, NULL);
    return CZ_OK;
}

cz_err cz_rpc_client_status_text(cz_rpc_client *c, uint64_t timeout_ms, char **text, char *msg, size_t msglen)
{
    *text = NULL;
    Cuzk__V1__GetStatusRequest q = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *r;
    cz_err e = call(c, "/cuzk.v1.ProvingEngine/GetStatus", &q.base, timeout_ms, &cuzk__v1__get_status_response__descriptor,
                    (ProtobufCMessage **)&r, NULL, NULL, 0, msg, msglen);
    if (e) return e;
    cz_textbuf b = {0};
    cz_tb_put(&b, "uptime: %llu s, completed %llu, failed %llu\n", (unsigned long long)r->uptime_seconds,
              (unsigned long long)r->total_proofs_completed, (unsigned long long)r->total_proofs_failed);
    if (r->pinned_memory_limit_bytes)
        cz_tb_put(&b, "pinned memory: %llu / %llu bytes\n", (unsigned long long)r->pinned_memory_bytes,
                  (unsigned long long)r->pinned_memory_limit_bytes);
    for (size_t i = 0; i < r->n_queues; i++)
        cz_tb_put(&b, "queue %s: pending %u, in progress %u\n", r->queues[i]->proof_kind, r->queues[i]->pending,
                  r->queues[i]->in_progress);
    for (size_t i = 0; i < r->n_gpus; i++) {
        const Cuzk__V1__GPUStatus *g = r->gpus[i];
        cz_tb_put(&b, "worker %zu: %s (ordinal %u)", i, g->name, g->ordinal);
        if (g->vram_total_bytes)
            cz_tb_put(&b, ", vram free %llu of %llu bytes", (unsigned long long)g->vram_free_bytes,
                      (unsigned long long)g->vram_total_bytes);
        if (g->current_job_id[0]) cz_tb_put(&b, ", proving %s (%s)", g->current_job_id, g->current_proof_kind);
        else cz_tb_put(&b, ", idle");
        cz_tb_put(&b, "\n");
    }
    static const char *tier[] = {"HOT", "WARM", "COLD"};
    for (size_t i = 0; i < r->n_loaded_srs; i++) {
        const Cuzk__V1__SRSStatus *k = r->loaded_srs[i];
        cz_tb_put(&b, "key %s: %s, %llu bytes, %u in use\n", k->circuit_id,
                  (unsigned)k->tier < 3 ? tier[k->tier] : "?", (unsigned long long)k->size_bytes, k->ref_count);
    }
    cuzk__v1__get_status_response__free_unpacked(r, NULL);
    if (b.oom) {
        cz_tb_free(&b);
        return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    }
    *text = cz_tb_take(&b);
    return CZ_OK;
}

cz_err cz_rpc_client_metrics(cz_rpc_client *c, uint64_t timeout_ms, char **text, char *msg, size_t msglen)
{
    *text = NULL;
    Cuzk__V1__GetMetricsRequest q = CUZK__V1__GET_METRICS_REQUEST__INIT;
    Cuzk__V1__GetMetricsResponse *r;
    cz_err e = call(c, "/cuzk.v1.ProvingEngine/GetMetrics", &q.base, timeout_ms, &cuzk__v1__get_metrics_response__descriptor,
                    (ProtobufCMessage **)&r, NULL, NULL, 0, msg, msglen);
    if (e) return e;
    *text = strdup(r->prometheus_text ? r->prometheus_text : "");
    cuzk__v1__get_metrics_response__free_unpacked(r, NULL);
    return *text ? CZ_OK : cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
}

double cz_rpc_metric_value(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; p && *p;) {
        if (!strncmp(p, name, n) && p[n] == ' ') return strtod(p + n + 1, NULL);
        p = strchr(p, '\n');
        if (p) p++;
    }
    return -1;
}
