/* batch.c — cuzk-bench's daemon subcommands, over gRPC (server/rpc_client.h):
 *
 *   cuzk-bench batch   -a ADDR [-c COUNT] [-j CONC] [--preload ID]... [JOB...]
 *   cuzk-bench single  -a ADDR JOB                 one proof, every timing
 *   cuzk-bench sweep   -a ADDR -j 1,2,4,8 [-c COUNT] [--svg OUT] [--json OUT] JOB...
 *   cuzk-bench status  -a ADDR                     GetStatus, as text
 *   cuzk-bench metrics -a ADDR                     GetMetrics' Prometheus text
 *   cuzk-bench preload -a ADDR ID...               PreloadSRS
 *   JOB: synth:<circuit_id> | generic:<circuit_id>:<witness FILE>, or
 *        -t generic|synth --circuit-id ID [--witness FILE]
 *   ADDR: unix:///path or host:port; --tls-ca PEM for a TLS daemon.
 *
 * A batch prints as the reference bench prints it:
 *
 *   [3/8] COMPLETED — 1.2s (prove=742 ms, queue=251 ms)
 *   total: 8.4 s, completed 8, failed 0
 *   wall  min/avg/max: ...      prove min/avg/max: ...
 *   throughput: 57.1 proofs/min (1.05 s/proof)
 *
 * The jobs are sent round-robin until COUNT proofs (default one per job);
 * CONC client threads each keep one Prove call open. While proofs are under
 * way a progress line goes to stderr every 5 s. `sweep` runs one batch per
 * concurrency level (COUNT proofs each, default 2 x the level and at least
 * 4) and prints per level the throughput, the latency p50/p99 (nearest rank
 * over the proofs' wall times) and the daemon's peak resident memory while
 * the level ran (process_resident_memory_bytes from GetMetrics, sampled
 * every 200 ms), then writes an SVG of throughput against concurrency
 * (--svg, default cuzk-sweep.svg) and, with --json, the same figures.
 * Built with the gRPC client only where the daemon is built (CUZK_HAVE_RPC).
 *
 * DESIGN
 *
 * Threads, per batch: CONC client threads (worker: take the next proof
 * index, one blocking Prove call, record and print the answer) and one
 * monitor thread (every 200 ms: the daemon's RSS when sampling, a progress
 * line every 5 s); the main thread joins the clients, then tells the
 * monitor to stop (finished + cv) and joins it. No queue beside the shared
 * next-proof counter. One lock, batch.mu, guards the counters, the result
 * arrays and stdout's per-proof lines; no gRPC call is made with it held. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "bench.h"
#include "util/clock.h"
#include "util/outpath.h"

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
    double *wall, *prove, *ok_wall; /* every proof's wall ms; completed ones' prove and wall ms */
    int print;                  /* the per-proof lines */
    int finished;               /* every worker has returned (the monitor stops) */
    int sample_rss;             /* the monitor samples the daemon's RSS */
    double rss_peak;            /* bytes, -1 when the daemon does not report it */
    double t0;
    cz_rpc_prove_res last;      /* the latest answer (single prints all of it) */
    int last_ok;                /* the latest call reached the daemon */
    pthread_mutex_t mu;
    pthread_cond_t cv;
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
        b->last = rs;
        b->last_ok = !e;
        if (ok) {
            b->ok_wall[b->completed] = wall;
            b->prove[b->completed++] = (double)rs.gpu_compute_ms;
        }
        if (!b->print) {
            pthread_mutex_unlock(&b->mu);
            continue;
        }
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

/* the daemon's resident memory now (GetMetrics), -1 when it does not say */
static double daemon_rss(cz_rpc_client *cl)
{
    char *text = NULL, msg[256];
    double rss = -1;
    if (!cz_rpc_client_metrics(cl, 5000, &text, msg, sizeof msg))
        rss = cz_rpc_metric_value(text, "process_resident_memory_bytes");
    free(text);
    return rss;
}

/* the progress line every 5 s, and the daemon's RSS every 200 ms */
static void *monitor(void *arg)
{
    batch *b = arg;
    double last_line = cz_now_ms();
    pthread_mutex_lock(&b->mu);
    while (!b->finished) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 200 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&b->cv, &b->mu, &ts);
        if (b->finished) break;
        int sample = b->sample_rss;
        pthread_mutex_unlock(&b->mu);
        double rss = sample ? daemon_rss(b->cl) : -1;
        pthread_mutex_lock(&b->mu);
        if (rss > b->rss_peak) b->rss_peak = rss;
        double now = cz_now_ms();
        if (now - last_line >= 5000) {
            int inflight = b->next - b->done;
            fprintf(stderr, "  ... %d/%d done, %d in flight, %.0f s\n", b->done, b->count, inflight,
                    (now - b->t0) / 1e3);
            last_line = now;
        }
    }
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

/* runs b->count proofs on conc threads; b->cl, jobs, n_jobs, count, print
 * and sample_rss set by the caller. Returns the wall time in seconds, or
 * -1 when memory ran out. */
static double run_batch(batch *b, int conc)
{
    b->next = b->done = b->completed = b->finished = 0;
    b->rss_peak = -1;
    b->wall = calloc((size_t)b->count, sizeof *b->wall);
    b->prove = calloc((size_t)b->count, sizeof *b->prove);
    b->ok_wall = calloc((size_t)b->count, sizeof *b->ok_wall);
    pthread_t *th = calloc((size_t)conc, sizeof *th);
    if (!b->wall || !b->prove || !b->ok_wall || !th) {
        free(th);
        return -1;
    }
    pthread_mutex_init(&b->mu, NULL);
    pthread_cond_init(&b->cv, NULL);
    b->t0 = cz_now_ms();
    pthread_t mon;
    int mon_started = !pthread_create(&mon, NULL, monitor, b);
    int started = 0;
    for (int i = 0; i < conc; i++)
        if (!pthread_create(&th[i], NULL, worker, b)) started++;
    if (!started) worker(b); /* no thread could start: the proofs run here, one at a time */
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    double total = (cz_now_ms() - b->t0) / 1e3;
    pthread_mutex_lock(&b->mu);
    b->finished = 1;
    pthread_cond_signal(&b->cv);
    pthread_mutex_unlock(&b->mu);
    if (mon_started) pthread_join(mon, NULL);
    if (b->sample_rss) { /* and once at the end: a level shorter than a sampling period has one sample too */
        double rss = daemon_rss(b->cl);
        if (rss > b->rss_peak) b->rss_peak = rss;
    }
    pthread_mutex_destroy(&b->mu);
    pthread_cond_destroy(&b->cv);
    free(th);
    return total;
}

static void free_batch(batch *b)
{
    free(b->wall);
    free(b->prove);
    free(b->ok_wall);
    b->wall = b->prove = b->ok_wall = NULL;
}

static void summary(const batch *b, double total)
{
    printf("total: %.1f s, completed %d, failed %d\n", total, b->completed, b->done - b->completed);
    minavgmax("wall ", b->wall, b->done);
    minavgmax("prove", b->prove, b->completed);
    if (b->completed)
        printf("throughput: %.1f proofs/min (%.2f s/proof)\n", b->completed * 60.0 / total, total / b->completed);
}

/* the options every daemon subcommand shares */
typedef struct {
    const char *addr, *tls_ca, *type, *cid, *witness, *preload[MAX_PRELOAD], *levels, *svg, *json;
    int count, conc, n_pre, n_jobs;
    const char *pos[MAX_JOBS]; /* positional words that are not jobs (preload's ids) */
    int n_pos;
} opts;

static bjob g_jobs[MAX_JOBS];

static int usage(const char *cmd)
{
    fprintf(stderr,
            "usage: cuzk-bench batch   -a ADDR [-c COUNT] [-j CONC] [--preload ID]... JOB...\n"
            "       cuzk-bench single  -a ADDR JOB\n"
            "       cuzk-bench sweep   -a ADDR -j 1,2,4,8 [-c COUNT] [--svg OUT.svg] [--json OUT.json] JOB...\n"
            "       cuzk-bench status  -a ADDR\n"
            "       cuzk-bench metrics -a ADDR\n"
            "       cuzk-bench preload -a ADDR CIRCUIT_ID...\n"
            "  JOB: synth:<circuit_id> | generic:<circuit_id>:<witness file>,\n"
            "       or -t generic|synth --circuit-id ID [--witness FILE]\n"
            "  ADDR: unix:///path or host:port; --tls-ca CA.pem for a daemon with TLS\n"
            "(%s)\n",
            cmd);
    return 2;
}

/* parses argv; jobs_allowed: positional words are JOBs, else kept in pos */
static int parse(int argc, char **argv, opts *o, int jobs_allowed)
{
    memset(o, 0, sizeof *o);
    o->conc = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if ((!strcmp(a, "-a") || !strcmp(a, "--addr")) && v) o->addr = argv[++i];
        else if (!strcmp(a, "--tls-ca") && v) o->tls_ca = argv[++i];
        else if ((!strcmp(a, "-c") || !strcmp(a, "--count")) && v) o->count = atoi(argv[++i]);
        else if ((!strcmp(a, "-j") || !strcmp(a, "--concurrency")) && v) {
            o->levels = argv[++i];
            o->conc = atoi(o->levels);
        } else if (!strcmp(a, "-t") && v) o->type = argv[++i];
        else if (!strcmp(a, "--circuit-id") && v) o->cid = argv[++i];
        else if (!strcmp(a, "--witness") && v) o->witness = argv[++i];
        else if (!strcmp(a, "--svg") && v) o->svg = argv[++i];
        else if (!strcmp(a, "--json") && v) o->json = argv[++i];
        else if (!strcmp(a, "--preload") && v && o->n_pre < MAX_PRELOAD) o->preload[o->n_pre++] = argv[++i];
        else if (a[0] != '-' && !jobs_allowed && o->n_pos < MAX_JOBS) o->pos[o->n_pos++] = a;
        else if (a[0] != '-' && jobs_allowed && o->n_jobs < MAX_JOBS) {
            char buf[1024], *t2, *c2, *w2;
            snprintf(buf, sizeof buf, "%s", a);
            t2 = strtok(buf, ":");
            c2 = strtok(NULL, ":");
            w2 = strtok(NULL, "");
            if (!t2 || !c2 || add_job(&g_jobs[o->n_jobs], t2, c2, w2)) return 2;
            o->n_jobs++;
        } else {
            return usage(argv[0]);
        }
    }
    if (o->type) {
        if (!o->cid) {
            fprintf(stderr, "cuzk-bench %s: -t needs --circuit-id\n", argv[0]);
            return 2;
        }
        if (o->n_jobs >= MAX_JOBS || add_job(&g_jobs[o->n_jobs], o->type, o->cid, o->witness)) return 2;
        o->n_jobs++;
    }
    if (!o->addr) {
        fprintf(stderr, "cuzk-bench %s: needs -a ADDR (see --help)\n", argv[0]);
        return 2;
    }
    if (o->conc < 1 || o->count < 0) {
        fprintf(stderr, "cuzk-bench %s: -j and -c must be positive\n", argv[0]);
        return 2;
    }
    return 0;
}

static void free_jobs(int n)
{
    for (int i = 0; i < n; i++) {
        free(g_jobs[i].payload);
        g_jobs[i].payload = NULL;
    }
}

/* the channel; the CA file read when --tls-ca was given */
static int connect_to(const opts *o, const char *cmd, cz_rpc_client **cl)
{
    char msg[600];
    char *ca = NULL;
    if (o->tls_ca) {
        size_t n;
        uint8_t *raw = slurp(o->tls_ca, &n);
        if (!raw || !(ca = realloc(raw, n + 1))) {
            free(raw);
            fprintf(stderr, "cuzk-bench %s: cannot read %s\n", cmd, o->tls_ca);
            return 2;
        }
        ca[n] = 0;
    }
    cz_err e = cz_rpc_client_open_tls(cl, o->addr, ca, msg, sizeof msg);
    free(ca);
    if (e) {
        fprintf(stderr, "cuzk-bench %s: %s\n", cmd, msg);
        return 1;
    }
    return 0;
}

static int do_preloads(cz_rpc_client *cl, const char *cmd, const char *const *ids, int n)
{
    char msg[600];
    for (int i = 0; i < n; i++) {
        int already = 0;
        uint64_t ms = 0;
        if (cz_rpc_client_preload(cl, ids[i], &already, &ms, msg, sizeof msg)) {
            fprintf(stderr, "cuzk-bench %s %s: %s\n", cmd, ids[i], msg);
            return 1;
        }
        printf("preload %s: %s (%llu ms)\n", ids[i], already ? "already loaded" : "loaded", (unsigned long long)ms);
    }
    return 0;
}

int cz_bench_batch_main(int argc, char **argv)
{
    opts o;
    int rc = parse(argc, argv, &o, 1);
    if (rc) return rc;
    if (!o.n_jobs) {
        fprintf(stderr, "cuzk-bench batch: needs at least one job (see --help)\n");
        return 2;
    }
    batch b = {.jobs = g_jobs, .n_jobs = o.n_jobs, .count = o.count ? o.count : o.n_jobs, .print = 1};
    if ((rc = connect_to(&o, "batch", &b.cl))) return rc;
    if ((rc = do_preloads(b.cl, "batch", o.preload, o.n_pre))) {
        cz_rpc_client_close(b.cl);
        return rc;
    }
    double total = run_batch(&b, o.conc);
    if (total < 0) {
        fprintf(stderr, "cuzk-bench batch: out of memory\n");
        rc = 1;
    } else {
        summary(&b, total);
        rc = b.completed == b.count ? 0 : 1;
    }
    cz_rpc_client_close(b.cl);
    free_batch(&b);
    free_jobs(o.n_jobs);
    return rc;
}

int cz_bench_single_main(int argc, char **argv)
{
    opts o;
    int rc = parse(argc, argv, &o, 1);
    if (rc) return rc;
    if (o.n_jobs != 1) {
        fprintf(stderr, "cuzk-bench single: needs exactly one job (see --help)\n");
        free_jobs(o.n_jobs);
        return 2;
    }
    cz_rpc_client *cl;
    if ((rc = connect_to(&o, "single", &cl))) return rc;
    if ((rc = do_preloads(cl, "single", o.preload, o.n_pre))) goto out;
    batch b = {.cl = cl, .jobs = g_jobs, .n_jobs = 1, .count = 1, .print = 1};
    double total = run_batch(&b, 1);
    if (total < 0) {
        fprintf(stderr, "cuzk-bench single: out of memory\n");
        rc = 1;
        goto out;
    }
    const cz_rpc_prove_res *r = &b.last;
    if (b.last_ok)
        printf("job %s: queue %llu ms, srs load %llu ms, synthesis %llu ms, prove %llu ms, total %llu ms, "
               "proof %zu bytes\n",
               r->job_id, (unsigned long long)r->queue_wait_ms, (unsigned long long)r->srs_load_ms,
               (unsigned long long)r->synthesis_ms, (unsigned long long)r->gpu_compute_ms,
               (unsigned long long)r->total_ms, r->proof_len);
    summary(&b, total);
    free_batch(&b);
    rc = b.completed == 1 ? 0 : 1;
out:
    cz_rpc_client_close(cl);
    free_jobs(o.n_jobs);
    return rc;
}

/* nearest rank: the smallest value with at least q of them at or below it */
static double nearest_rank(double *v, int n, double q)
{
    if (n <= 0) return 0;
    for (int i = 1; i < n; i++) /* insertion sort: a level has few proofs */
        for (int k = i; k > 0 && v[k - 1] > v[k]; k--) {
            double t = v[k];
            v[k] = v[k - 1];
            v[k - 1] = t;
        }
    int r = (int)(q * n + 0.999999);
    if (r < 1) r = 1;
    if (r > n) r = n;
    return v[r - 1];
}

typedef struct {
    int level, count, completed;
    double wall_s, per_min, p50_ms, p99_ms, rss_peak;
} sweep_row;

static void sweep_svg(FILE *f, const sweep_row *r, int n)
{
    const double W = 640, H = 400, L = 70, R = 20, T = 40, B = 50;
    double ymax = 0;
    int xmax = 1;
    for (int i = 0; i < n; i++) {
        if (r[i].per_min > ymax) ymax = r[i].per_min;
        if (r[i].level > xmax) xmax = r[i].level;
    }
    if (ymax <= 0) ymax = 1;
    ymax *= 1.1;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
               "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
               "<text x=\"%.0f\" y=\"22\" font-size=\"14\">cuzk-bench sweep: throughput against concurrency</text>\n",
            W, H, L);
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, H - B, W - R, H - B);
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, T, L, H - B);
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">concurrency (-j)</text>\n", (L + W - R) / 2, H - 12);
    fprintf(f, "<text x=\"16\" y=\"%.0f\" transform=\"rotate(-90 16 %.0f)\" text-anchor=\"middle\">proofs/min</text>\n",
            (T + H - B) / 2, (T + H - B) / 2);
    for (int t = 0; t <= 4; t++) {
        double v = ymax * t / 4, y = H - B - (H - B - T) * t / 4;
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n", L - 6, y + 4, v);
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, y, W - R, y);
    }
#define SX(x) (L + (W - L - R) * (double)(x) / (double)xmax)
#define SY(y) (H - B - (H - B - T) * (y) / ymax)
    fprintf(f, "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"");
    for (int i = 0; i < n; i++) fprintf(f, "%s%.1f,%.1f", i ? " " : "", SX(r[i].level), SY(r[i].per_min));
    fprintf(f, "\"/>\n");
    for (int i = 0; i < n; i++) {
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#1f77b4\"><title>-j %d: %.2f proofs/min</title></circle>\n",
                SX(r[i].level), SY(r[i].per_min), r[i].level, r[i].per_min);
        fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%d</text>\n", SX(r[i].level), H - B + 16,
                r[i].level);
    }
#undef SX
#undef SY
    fprintf(f, "</svg>\n");
}

#define MAX_LEVELS 32

int cz_bench_sweep_main(int argc, char **argv)
{
    opts o;
    int rc = parse(argc, argv, &o, 1);
    if (rc) return rc;
    int levels[MAX_LEVELS], n_levels = 0;
    if (!o.levels) o.levels = "1,2,4,8";
    for (const char *p = o.levels; *p && n_levels < MAX_LEVELS;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > 1024 || (*end && *end != ',')) {
            fprintf(stderr, "cuzk-bench sweep: -j wants levels such as 1,2,4,8 (1..1024), not %s\n", o.levels);
            free_jobs(o.n_jobs);
            return 2;
        }
        levels[n_levels++] = (int)v;
        p = *end ? end + 1 : end;
    }
    if (!o.n_jobs) {
        fprintf(stderr, "cuzk-bench sweep: needs at least one job (see --help)\n");
        return 2;
    }
    const char *svg = o.svg ? o.svg : "cuzk-sweep.svg";
    char pmsg[600];
    if (cz_out_path_check(svg, pmsg, sizeof pmsg) || (o.json && cz_out_path_check(o.json, pmsg, sizeof pmsg))) {
        fprintf(stderr, "cuzk-bench sweep: %s\n", pmsg);
        free_jobs(o.n_jobs);
        return 2;
    }
    sweep_row rows[MAX_LEVELS];
    batch b = {.jobs = g_jobs, .n_jobs = o.n_jobs, .print = 0, .sample_rss = 1};
    if ((rc = connect_to(&o, "sweep", &b.cl))) return rc;
    if ((rc = do_preloads(b.cl, "sweep", o.preload, o.n_pre))) goto out;
    int failed = 0;
    for (int i = 0; i < n_levels; i++) {
        int lv = levels[i];
        b.count = o.count ? o.count : (2 * lv < 4 ? 4 : 2 * lv);
        fprintf(stderr, "  level -j %d: %d proofs ...\n", lv, b.count);
        double total = run_batch(&b, lv);
        if (total < 0) {
            fprintf(stderr, "cuzk-bench sweep: out of memory\n");
            rc = 1;
            goto out;
        }
        sweep_row *r = &rows[i];
        r->level = lv;
        r->count = b.count;
        r->completed = b.completed;
        r->wall_s = total;
        r->per_min = b.completed ? b.completed * 60.0 / total : 0;
        r->p50_ms = nearest_rank(b.ok_wall, b.completed, 0.50);
        r->p99_ms = nearest_rank(b.ok_wall, b.completed, 0.99);
        r->rss_peak = b.rss_peak;
        failed += b.done - b.completed;
        free_batch(&b);
        printf("[-j %d] %d/%d COMPLETED \xe2\x80\x94 %.1fs, throughput: %.1f proofs/min (%.2f s/proof)\n", lv,
               r->completed, r->count, total, r->per_min, r->completed ? total / r->completed : 0.0);
        fflush(stdout);
    }
    printf("\n%6s %7s %9s %12s %9s %10s %10s %14s\n", "-j", "proofs", "wall_s", "proofs/min", "s/proof", "p50_ms",
           "p99_ms", "peak_rss_MiB");
    for (int i = 0; i < n_levels; i++) {
        const sweep_row *r = &rows[i];
        char rss[32];
        if (r->rss_peak >= 0) snprintf(rss, sizeof rss, "%.1f", r->rss_peak / 1048576.0);
        else snprintf(rss, sizeof rss, "-");
        printf("%6d %7d %9.2f %12.2f %9.2f %10.0f %10.0f %14s\n", r->level, r->completed, r->wall_s, r->per_min,
               r->completed ? r->wall_s / r->completed : 0.0, r->p50_ms, r->p99_ms, rss);
    }
    FILE *f = fopen(svg, "w");
    if (!f) {
        fprintf(stderr, "cuzk-bench sweep: cannot write %s\n", svg);
        rc = 1;
        goto out;
    }
    sweep_svg(f, rows, n_levels);
    fclose(f);
    printf("svg: %s\n", svg);
    if (o.json) {
        if (!(f = fopen(o.json, "w"))) {
            fprintf(stderr, "cuzk-bench sweep: cannot write %s\n", o.json);
            rc = 1;
            goto out;
        }
        char commit[64];
        cz__bench_git_commit(commit, sizeof commit);
        fprintf(f, "{\n  \"commit\": ");
        cz__bench_json_str(f, commit);
        fprintf(f, ",\n  \"jobs\": [");
        for (int i = 0; i < o.n_jobs; i++) {
            fprintf(f, "%s", i ? ", " : "");
            cz__bench_json_str(f, g_jobs[i].name);
        }
        fprintf(f, "],\n  \"levels\": [\n");
        for (int i = 0; i < n_levels; i++) {
            const sweep_row *r = &rows[i];
            fprintf(f,
                    "    {\"concurrency\": %d, \"proofs\": %d, \"completed\": %d, \"wall_s\": %.3f, "
                    "\"proofs_per_min\": %.3f, \"latency_p50_ms\": %.0f, \"latency_p99_ms\": %.0f, "
                    "\"peak_rss_bytes\": %.0f}%s\n",
                    r->level, r->count, r->completed, r->wall_s, r->per_min, r->p50_ms, r->p99_ms, r->rss_peak,
                    i + 1 < n_levels ? "," : "");
        }
        fprintf(f, "  ]\n}\n");
        fclose(f);
        printf("json: %s\n", o.json);
    }
    rc = failed ? 1 : 0;
out:
    cz_rpc_client_close(b.cl);
    free_batch(&b);
    free_jobs(o.n_jobs);
    return rc;
}

static int text_cmd(int argc, char **argv, int metrics)
{
    opts o;
    int rc = parse(argc, argv, &o, 0);
    if (rc) return rc;
    if (o.n_pos || o.n_jobs) return usage(argv[0]);
    cz_rpc_client *cl;
    if ((rc = connect_to(&o, argv[0], &cl))) return rc;
    char *text = NULL, msg[600];
    cz_err e = metrics ? cz_rpc_client_metrics(cl, 30000, &text, msg, sizeof msg)
                       : cz_rpc_client_status_text(cl, 30000, &text, msg, sizeof msg);
    cz_rpc_client_close(cl);
    if (e) {
        fprintf(stderr, "cuzk-bench %s: %s\n", argv[0], msg);
        return 1;
    }
    fputs(text, stdout);
    free(text);
    return 0;
}

int cz_bench_status_main(int argc, char **argv) { return text_cmd(argc, argv, 0); }
int cz_bench_metrics_main(int argc, char **argv) { return text_cmd(argc, argv, 1); }

int cz_bench_preload_main(int argc, char **argv)
{
    opts o;
    int rc = parse(argc, argv, &o, 0);
    if (rc) return rc;
    if (!o.n_pos && !o.n_pre) {
        fprintf(stderr, "cuzk-bench preload: name at least one circuit_id\n");
        return 2;
    }
    cz_rpc_client *cl;
    if ((rc = connect_to(&o, "preload", &cl))) return rc;
    rc = do_preloads(cl, "preload", o.pos, o.n_pos);
    if (!rc) rc = do_preloads(cl, "preload", o.preload, o.n_pre);
    cz_rpc_client_close(cl);
    return rc;
}

#else

static int no_rpc(const char *cmd)
{
    fprintf(stderr, "cuzk-bench %s: this cuzk-bench was built without the gRPC client "
                    "(install libgrpc-dev, libprotobuf-c-dev and protobuf-c-compiler, then rebuild)\n", cmd);
    return 2;
}

int cz_bench_batch_main(int argc, char **argv) { (void)argc; return no_rpc(argv[0]); }
int cz_bench_single_main(int argc, char **argv) { (void)argc; return no_rpc(argv[0]); }
int cz_bench_sweep_main(int argc, char **argv) { (void)argc; return no_rpc(argv[0]); }
int cz_bench_status_main(int argc, char **argv) { (void)argc; return no_rpc(argv[0]); }
int cz_bench_metrics_main(int argc, char **argv) { (void)argc; return no_rpc(argv[0]); }
int cz_bench_preload_main(int argc, char **argv) { (void)argc; return no_rpc(argv[0]); }

#endif
