/* rpc_server.h — the cuzk.v1.ProvingEngine gRPC service over an engine
 * (engine/engine.h), on the gRPC C core's completion-queue API.
 *
 * Lifecycle: cz_rpc_start binds and starts serving; at shutdown the caller
 * runs cz_rpc_stop_accepting (new calls are refused, calls under way go
 * on), waits for the engine to drain as long as it wants and for the
 * answers to go out (cz_rpc_wait_calls), then cz_rpc_cancel_all, destroys the engine (which ends every waiting call),
 * and cz_rpc_destroy. */
#ifndef CZ_SERVER_RPC_SERVER_H
#define CZ_SERVER_RPC_SERVER_H

#include <stdint.h>
#include "engine/engine.h"
#include "util/err.h"

typedef struct cz_rpc_server cz_rpc_server;

typedef struct {
    const char *listen;          /* grpc address: unix:///path, host:port */
    uint64_t max_message_bytes;  /* larger requests get RESOURCE_EXHAUSTED */
    int verbose;                 /* 1: one debug log line per call (util/log.h) */
    /* TLS: a PEM certificate chain and its PEM private key (both set = the
     * listener speaks TLS, grpc's SSL server credentials; NULL = plain) */
    const char *tls_cert_pem, *tls_key_pem;
} cz_rpc_opts;

/* CZ_ERR_IO when the address cannot be bound (in use, bad address, or
 * with TLS a certificate or key that does not load) */
cz_err cz_rpc_start(cz_rpc_server **out, cz_engine *e, const cz_rpc_opts *o, char *msg, size_t msglen);
/* the TCP port bound (the one chosen when the address asked for port 0);
 * 0 for a unix socket */
int cz_rpc_port(const cz_rpc_server *s);
void cz_rpc_stop_accepting(cz_rpc_server *s);
/* after cz_rpc_stop_accepting: waits up to timeout_ms for every call to
 * end (answers sent); 1 when they all did */
int cz_rpc_wait_calls(cz_rpc_server *s, uint64_t timeout_ms);
void cz_rpc_cancel_all(cz_rpc_server *s);
void cz_rpc_destroy(cz_rpc_server *s);

/* the Prometheus text GetMetrics and HTTP /metrics return (malloc'ed;
 * NULL only when out of memory) */
char *cz_rpc_metrics_text(cz_engine *e);
/* proving worker i's name as GetStatus and /status show it: the CUDA
 * device and the worker ("cuda:0 (NVIDIA H200) worker 1"), or
 * "cpu-worker-N"; it fits in CZ_RPC_WORKER_NAME_MAX bytes */
#define CZ_RPC_WORKER_NAME_MAX 64
void cz_rpc_worker_name(const cz_engine_status *st, unsigned i, char *out, size_t outlen);

/* GetStatus's answer over one engine snapshot st: fills *out, whose arrays
 * and strings point into st and into one block *mem (every worker with a
 * name of its own); free(*mem) once out is packed, before st is freed.
 * CZ_ERR_NOMEM when out of memory (*mem is then NULL). */
struct Cuzk__V1__GetStatusResponse;
cz_err cz_rpc_status_response(const cz_engine_status *st, struct Cuzk__V1__GetStatusResponse *out, void **mem);

#endif
