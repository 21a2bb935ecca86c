/* rpc_client.h — a small blocking client of cuzk.v1.ProvingEngine (gRPC C
 * core underneath, none of it in this header), for cuzk-bench's daemon
 * subcommands (batch, single, sweep, status, metrics, preload).
 *
 * One client holds one channel; calls from several threads at once are
 * fine (each call has its own completion queue). */
#ifndef CZ_SERVER_RPC_CLIENT_H
#define CZ_SERVER_RPC_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include "util/err.h"

typedef struct cz_rpc_client cz_rpc_client;

/* addr: unix:///path or host:port. ca_pem: NULL for a plain channel, else
 * the PEM root certificate(s) a TLS daemon's certificate must chain to */
cz_err cz_rpc_client_open(cz_rpc_client **out, const char *addr, char *msg, size_t msglen);
cz_err cz_rpc_client_open_tls(cz_rpc_client **out, const char *addr, const char *ca_pem, char *msg, size_t msglen);
void cz_rpc_client_close(cz_rpc_client *c);

typedef struct {
    const char *request_id;   /* may be NULL */
    int proof_kind, priority;
    const char *circuit_id;
    const uint8_t *payload;
    size_t payload_len;
} cz_rpc_prove_req;

typedef struct {
    int grpc_code;            /* 0 = OK; then the fields below are filled */
    int status;               /* AwaitProofResponse.Status: 1 COMPLETED, 2 FAILED, 3 CANCELLED, 4 TIMEOUT */
    char job_id[64];
    char error[512];          /* error_message, or the gRPC status details */
    size_t proof_len;
    uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, gpu_compute_ms, total_ms;
} cz_rpc_prove_res;

/* Prove (submit + await); timeout_ms 0 = none. CZ_OK when the call
 * completed at the gRPC level (look at out->status); CZ_ERR_IO with msg
 * when it did not (out->grpc_code says why). */
cz_err cz_rpc_client_prove(cz_rpc_client *c, const cz_rpc_prove_req *r, uint64_t timeout_ms, cz_rpc_prove_res *out,
                           char *msg, size_t msglen);
/* GetStatus as text lines (malloc'ed): counters, queues, workers, keys */
cz_err cz_rpc_client_status_text(cz_rpc_client *c, uint64_t timeout_ms, char **text, char *msg, size_t msglen);
/* GetMetrics' Prometheus text (malloc'ed) */
cz_err cz_rpc_client_metrics(cz_rpc_client *c, uint64_t timeout_ms, char **text, char *msg, size_t msglen);
/* the value of the first sample of metric `name` (no labels) in a
 * Prometheus text; -1 when absent */
double cz_rpc_metric_value(const char *text, const char *name);
cz_err cz_rpc_client_preload(cz_rpc_client *c, const char *circuit_id, int *already, uint64_t *load_ms, char *msg,
                             size_t msglen);

#endif
