/* batch.c — `cuzk-bench batch`: a batch of proofs through a cuzk-daemon over
 * gRPC (server/rpc_client.h), printed as the reference bench prints it:
 *
 *   [3/8] COMPLETED — 1.2s (prove=742 ms, queue=251 ms)
 *   total: 8.4 s, completed 8, failed 0
 *   wall  min/avg/max: ...      prove min/avg/max: ...
 *   throughput: 57.1 proofs/min (1.05 s/proof)
 *
 *   cuzk-bench batch -a ADDR [-c COUNT] [-j CONCURRENCY] [--preload ID]...
 *                    [-t generic|synth --circuit-id ID [--witness FILE]] [JOB...]
 *   JOB: synth:<circuit_id> | generic:<circuit_id>:<witness FILE>
 * The jobs are sent round-robin until COUNT proofs (default one per job);
 * CONCURRENCY client threads each keep one Prove call open. Exit status 0
 * when every proof completed, 1 otherwise, 2 on bad arguments. Built with
 * the gRPC client only where the daemon is built (CUZK_HAVE_RPC). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "util/clock.h"

#ifdef CUZK_HAVE_RPC
#include "server/rpc_client.h"

#define MAX_JOBS 64
#define MAX_PRELOAD 16

typedef struct {
    char name[600];
    char circuit_id[256];
    uint8_t *payload;
    size_t len;
} bjob;

typedef struct {
    cz_rpc_client *cl;
    bjob *jobs;
    int n_jobs, count, next, done, completed;
    double *wall, *prove;
    pthread_mutex_t mu;
} batch;

static uint8_t *slurp(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(len > 0 ? (size_t)len : 1);
    if (b && len > 0 && fread(b, 1, (size_t)len, f) != (size_t)len) { free(b); b = NULL; }
    fclose(f);
    *n = len > 0 ? (size_t)len : 0;
    return b;
}

static int add_job(bjob *j, const char *type, const char *cid, const char *witness)
{
    snprintf(j->circuit_id, sizeof j->circuit_id, "%s", cid);
    if (!strcmp(type, "synth")) {
        snprintf(j->name, sizeof j->name, "synth:%s", cid);
        j->payload = (uint8_t *)strdup("1");
        j->len = 1;
        return 0;
    }
    if (strcmp(type, "generic") || !witness) {
        fprintf(stderr, "cuzk-bench batch: a job is synth:<id> or generic:<id>:<witness file>\n");
        return 2;
    }
    snprintf(j->name, sizeof j->name, "generic:%s:%s", cid, witness);
    if (!(j->payload = slurp(witness, &j->len))) {
        fprintf(stderr, "cuzk-bench batch: cannot read %s\n", witness);
        return 2;
    }
    return 0;
}

static const char *status_name(int s)
{
    static const char *n[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
    return s >= 0 && s <= 4 ? n[s] : "UNKNOWN";
}

static void *worker(void *arg)
{
    batch *b = arg;
    for (;;) {
        pthread_mutex_lock(&b->mu);
        int i = b->next < b->count ? b->next++ : -1;
        pthread_mutex_unlock(&b->mu);
        if (i < 0) return NULL;
        const bjob *j = &b->jobs[i % b->n_jobs];
        cz_rpc_prove_req rq = {.proof_kind = 100, .circuit_id = j->circuit_id, .payload = j->payload,
                               .payload_len = j->len};
        cz_rpc_prove_res rs;
        char msg[600];
        double t = cz_now_ms();
        cz_err e = cz_rpc_client_prove(b->cl, &rq, 0, &rs, msg, sizeof msg);
        double wall = cz_now_ms() - t;
        pthread_mutex_lock(&b->mu);
        int k = ++b->done;
        int ok = !e && rs.status == 1;
        b->wall[k - 1] = wall;
        if (ok) b->prove[b->completed++] = (double)rs.gpu_compute_ms;
        if (e) printf("[%d/%d] FAILED \xe2\x80\x94 %.1fs  %s  error: %s\n", k, b->count, wall / 1e3, j->name, msg);
        else
            printf("[%d/%d] %s \xe2\x80\x94 %.1fs (prove=%llu ms, queue=%llu ms)  %s%s%s\n", k, b->count,
                   status_name(rs.status), wall / 1e3, (unsigned long long)rs.gpu_compute_ms,
                   (unsigned long long)rs.queue_wait_ms, j->name, ok ? "" : "  error: ", ok ? "" : rs.error);
        fflush(stdout);
        pthread_mutex_unlock(&b->mu);
    }
}

static void minavgmax(const char *what, const double *x, int n)
{
    if (!n) { printf("%s min/avg/max: -\n", what); return; }
    double lo = x[0], hi = x[0], sum = 0;
    for (int i = 0; i < n; i++) {
        if (x[i] < lo) lo = x[i];
        if (x[i] > hi) hi = x[i];
        sum += x[i];
    }
    printf("%s min/avg/max: %.0f / %.0f / %.0f ms\n", what, lo, sum / n, hi);
}

int cz_bench_batch_main(int argc, char **argv)
{
    const char *addr = NULL, *type = NULL, *cid = NULL, *witness = NULL, *preload[MAX_PRELOAD];
    int count = 0, conc = 1, n_pre = 0, n_jobs = 0, rc = 0;
    static bjob jobs[MAX_JOBS];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if ((!strcmp(a, "-a") || !strcmp(a, "--addr")) && v) addr = argv[++i];
        else if ((!strcmp(a, "-c") || !strcmp(a, "--count")) && v) count = atoi(argv[++i]);
        else if ((!strcmp(a, "-j") || !strcmp(a, "--concurrency")) && v) conc = atoi(argv[++i]);
        else if (!strcmp(a, "-t") && v) type = argv[++i];
        else if (!strcmp(a, "--circuit-id") && v) cid = argv[++i];
        else if (!strcmp(a, "--witness") && v) witness = argv[++i];
        else if (!strcmp(a, "--preload") && v && n_pre < MAX_PRELOAD) preload[n_pre++] = argv[++i];
        else if (a[0] != '-' && n_jobs < MAX_JOBS) {
            char buf[1024], *t2, *c2, *w2;
            snprintf(buf, sizeof buf, "%s", a);
            t2 = strtok(buf, ":");
            c2 = strtok(NULL, ":");
            w2 = strtok(NULL, "");
            if (!t2 || !c2 || (rc = add_job(&jobs[n_jobs], t2, c2, w2))) return 2;
            n_jobs++;
        } else {
            fprintf(stderr, "usage: cuzk-bench batch -a ADDR [-c COUNT] [-j CONCURRENCY] [--preload ID]...\n"
                            "         [-t generic|synth --circuit-id ID [--witness FILE]] [JOB...]\n"
                            "  JOB: synth:<circuit_id> | generic:<circuit_id>:<witness file>\n");
            return 2;
        }
    }
    if (type) {
        if (!cid) { fprintf(stderr, "cuzk-bench batch: -t needs --circuit-id\n"); return 2; }
        if ((rc = add_job(&jobs[n_jobs], type, cid, witness))) return rc;
        n_jobs++;
    }
    if (!addr || !n_jobs || conc < 1 || count < 0) {
        fprintf(stderr, "cuzk-bench batch: needs -a ADDR and at least one job (see --help)\n");
        return 2;
    }
    char msg[600];
    batch b = {.jobs = jobs, .n_jobs = n_jobs, .count = count ? count : n_jobs};
    if (cz_rpc_client_open(&b.cl, addr, msg, sizeof msg)) { fprintf(stderr, "cuzk-bench batch: %s\n", msg); return 1; }
    for (int i = 0; i < n_pre; i++) {
        int already = 0;
        uint64_t ms = 0;
        if (cz_rpc_client_preload(b.cl, preload[i], &already, &ms, msg, sizeof msg)) {
            fprintf(stderr, "cuzk-bench batch: %s\n", msg);
            cz_rpc_client_close(b.cl);
            return 1;
        }
        printf("preload %s: %s (%llu ms)\n", preload[i], already ? "already loaded" : "loaded", (unsigned long long)ms);
    }
    b.wall = calloc((size_t)b.count, sizeof *b.wall);
    b.prove = calloc((size_t)b.count, sizeof *b.prove);
    pthread_mutex_init(&b.mu, NULL);
    pthread_t *th = calloc((size_t)conc, sizeof *th);
    double t0 = cz_now_ms();
    int started = 0;
    for (int i = 0; i < conc; i++)
        if (!pthread_create(&th[i], NULL, worker, &b)) started++;
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    double total = (cz_now_ms() - t0) / 1e3;
    printf("total: %.1f s, completed %d, failed %d\n", total, b.completed, b.done - b.completed);
    minavgmax("wall ", b.wall, b.done);
    minavgmax("prove", b.prove, b.completed);
    if (b.completed)
        printf("throughput: %.1f proofs/min (%.2f s/proof)\n", b.completed * 60.0 / total, total / b.completed);
    rc = b.completed == b.count ? 0 : 1;
    cz_rpc_client_close(b.cl);
    pthread_mutex_destroy(&b.mu);
    free(th);
    free(b.wall);
    free(b.prove);
    for (int i = 0; i < n_jobs; i++) free(jobs[i].payload);
    return rc;
}

#else

int cz_bench_batch_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "cuzk-bench batch: this cuzk-bench was built without the gRPC client "
                    "(install libgrpc-dev, libprotobuf-c-dev and protobuf-c-compiler, then rebuild)\n");
    return 2;
}

#endif
