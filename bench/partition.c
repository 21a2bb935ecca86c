/* partition.c — `cuzk-bench partition`: what one backend spends per
 * partition, stage by stage.
 *
 *   cuzk-bench partition --log2 K --count N [--backend cpu|cuda|auto]
 *                        [--device D] [--json FILE] [--seed S] [--threads T]
 *                        [--workers W] [--makers M] [--setup auto|cpu|gpu] [--witness bits|full]
 *
 * Builds the Filecoin-shaped synthetic circuit of circuits/synth.h (the
 * shape `cuzk synth` makes) with 2^K minus the input rows constraints, so
 * that with bellperson's input rows the domain is 2^K; makes its key with
 * the insecure test setup (on the GPU for a CUDA backend: the key is made in
 * device memory and the backend adopts it, so the points never exist on the
 * host; --setup cpu makes it on the CPU and uploads it); loads it into the
 * backend; then proves N partitions back to back, each with a fresh witness
 * of the same system (witness_seed = S * 1000003 + i + 1, made by
 * cz_synth_witness), and verifies every proof (one that does not verify is
 * exit 1). M witness makers (threads, default 1 on the CPU and half the
 * cores, 2 to 8, on CUDA: one witness takes one thread several times as long
 * as the device's part of its proof) make the witnesses into W + M host
 * buffers ahead of W proving workers (threads with a backend worker each,
 * default 2 on CUDA, so that one sends its witness while the other proves,
 * and 1 on the CPU), which prove them in the order they were made.
 *
 * --witness bits (the default): the key is loaded with the circuit's bit map
 * (cz_synth_bit_mask: the variables the generator makes as bits, bits in
 * every witness) and each witness is made compact
 * (cz_synth_witness_compact, src/backend/wbits.h: the non-bit variables as
 * Fr, the bits one bit each) and proved with cz_be_prove_bits, so on CUDA
 * only the compact form crosses PCIe and the device expands it; --witness
 * full makes and sends the full Fr witness as before.
 *
 * The table (and, with --json, the JSON) has per partition: the prove wall
 * time (the cz_be_prove call), the time to make the witness, the backend's
 * stage times (upload, spmv, ntt, msm_h, msm_l, msm_hl = h + l when run
 * together as on the CPU, msm_a, msm_b1, msm_b2, total, and device: the
 * device's wall from the first kernel to the last sum, on CUDA: below the
 * stages' sum when H runs beside the witness MSMs, CZ_PROVER_OVERLAP), host->device bytes,
 * how the witness went to the device (the stage: staged, partial or
 * unstaged, "-" on the CPU, and the bytes staged outside the kernel lock)
 * and whether a CUDA backend fell back to the CPU; then the medians. Below
 * it: busy % = the sum of the backend's total_ms over the wall time of the
 * whole loop (which also makes each witness and verifies each proof: work
 * the engine overlaps with proving, so this is the share a pipeline would
 * have to fill; with several workers it can pass 100 %), device busy % = the
 * device walls (on CUDA the kernel region, one partition at a time; on the
 * CPU the sum of the spmv, ntt and MSM stages) over the loop wall, and the same from the moment
 * the first witness was ready ("fed": the loop's start waits for a witness
 * with nothing to prove), the median host->device bytes per partition, the peak host
 * RSS (VmHWM), the backend's VRAM peak and budget, and the synthesis, setup
 * and load times. Progress lines go to stderr. Exit status 0 when every
 * proof verified, 1 when one did not (or the JSON cannot be written), 2 for
 * bad arguments or an error. */
#include "partition.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "backend/backend.h"
#include "bench.h"
#include "circuits/synth.h"
#include "groth16/groth16.h"
#include "util/clock.h"
#include "util/outpath.h"
#include "util/rng.h"
#if CZ_HAVE_CUDA
#include "cuda/cz_cuda_prover.h"
#include "cuda/cz_cuda_setup.h"
#endif
#include <pthread.h>

#define CMD "cuzk-bench partition"
#define MIN_LOG2 5
#define MAX_LOG2 30
#define MAX_COUNT 100000
#define N_PUBLIC CZ_SYNTH_DEFAULT_PUBLIC

typedef struct {
    double wall_ms, witness_ms, verify_ms;
    double start_ms; /* when its cz_be_prove was called, from the loop's start */
    cz_groth16_timings t;
} row;

/* the columns of the table and the JSON, with how to read each from a row */
typedef struct {
    const char *name;
    size_t off;  /* into row */
} column;

#define COL(n, f) {n, offsetof(row, f)}
static const column cols[] = {
    COL("wall_ms", wall_ms),       COL("witness_ms", witness_ms),   COL("upload_ms", t.upload_ms),
    COL("spmv_ms", t.spmv_ms),     COL("ntt_ms", t.ntt_ms),         COL("msm_h_ms", t.msm_h_ms),
    COL("msm_l_ms", t.msm_l_ms),   COL("msm_hl_ms", t.msm_hl_ms),   COL("msm_a_ms", t.msm_a_ms),
    COL("msm_b1_ms", t.msm_b1_ms), COL("msm_b2_ms", t.msm_b2_ms),   COL("total_ms", t.total_ms),
    COL("verify_ms", verify_ms),   COL("device_ms", t.device_ms),
};
#define N_COLS (sizeof cols / sizeof cols[0])

static double col_of(const row *r, size_t c) { return *(const double *)((const char *)r + cols[c].off); }

/* peak resident set of this process, bytes: VmHWM, else getrusage */
static uint64_t peak_rss(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %llu kB", &kb) == 1) break;
    if (f) fclose(f);
    if (kb) return (uint64_t)kb << 10;
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? (uint64_t)ru.ru_maxrss << 10 : 0;
}


static void synth_progress(void *ctx, const char *stage, uint64_t done, uint64_t total)
{
    (void)ctx;
    if (done == total || done % ((uint64_t)16 << 20) == 0)
        fprintf(stderr, "%s:   synthesis %s: %llu of %llu rows\n", CMD, stage, (unsigned long long)done,
                (unsigned long long)total);
}

static int usage_err(const char *fmt, const char *arg) __attribute__((format(printf, 1, 0)));
static int usage_err(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", CMD);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nusage: %s --log2 K --count N [--backend cpu|cuda|auto] [--device D] [--json FILE]\n"
                    "       [--seed S] [--threads T] [--workers W] [--makers M] [--setup auto|cpu|gpu] [--witness bits|full]\n"
                    "       (K %d..%d, N 1..%d)\n",
            CMD, MIN_LOG2, MAX_LOG2, MAX_COUNT);
    return 2;
}

/* a decimal integer in [lo, hi]; 0 on success */
static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+') return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

typedef struct {
    const char *backend_name, *json;
    int log2;
    uint64_t count, seed, n_constraints, n_vars;
    unsigned threads, workers, makers, n_buffers;
    const char *setup_kind, *witness;
    uint64_t n_bits, witness_bytes; /* bit variables; bytes of one witness as made */
    double synth_ms, setup_ms, load_ms, loop_ms, busy_pct, device_busy_pct, steady_busy_pct;
    uint64_t key_dev_bytes, h2d_median, rss, rss_loop;
    cz_be_stats st;
    size_t verified;
} summary;

static int write_json(const summary *s, const row *rows, const double *med)
{
    FILE *f = fopen(s->json, "w");
    if (!f) return -1;
    char commit[128];
    cz__bench_git_commit(commit, sizeof commit);
    fprintf(f, "{\n  \"schema\": \"cuzk-bench-partition/1\",\n  \"commit\": ");
    cz__bench_json_str(f, commit);
    fprintf(f, ",\n  \"backend\": ");
    cz__bench_json_str(f, s->backend_name);
    fprintf(f, ",\n  \"log2\": %d,\n  \"constraints\": %llu,\n  \"n_vars\": %llu,\n  \"n_public\": %d,\n",
            s->log2, (unsigned long long)s->n_constraints, (unsigned long long)s->n_vars, N_PUBLIC);
    fprintf(f, "  \"count\": %llu,\n  \"seed\": %llu,\n  \"threads\": %u,\n", (unsigned long long)s->count,
            (unsigned long long)s->seed, s->threads);
    fprintf(f, "  \"makers\": %u,\n", s->makers);
    fprintf(f, "  \"workers\": %u,\n  \"setup\": \"%s-insecure\",\n  \"synthesis_ms\": %.3f,\n  \"setup_ms\": %.3f,\n"
               "  \"load_ms\": %.3f,\n  \"key_device_bytes\": %llu,\n",
            s->workers, s->setup_kind, s->synth_ms, s->setup_ms, s->load_ms, (unsigned long long)s->key_dev_bytes);
    fprintf(f, "  \"witness\": \"%s\",\n  \"bit_vars\": %llu,\n  \"witness_bytes\": %llu,\n  \"full_witness_bytes\": %llu,\n",
            s->witness, (unsigned long long)s->n_bits, (unsigned long long)s->witness_bytes,
            (unsigned long long)(s->n_vars * sizeof(cz_fr)));
    fprintf(f, "  \"loop_wall_ms\": %.3f,\n  \"busy_pct\": %.2f,\n  \"device_busy_pct\": %.2f,\n"
               "  \"device_busy_fed_pct\": %.2f,\n  \"h2d_bytes_per_partition\": %llu,\n",
            s->loop_ms, s->busy_pct, s->device_busy_pct, s->steady_busy_pct, (unsigned long long)s->h2d_median);
    fprintf(f, "  \"peak_rss_proving_bytes\": %llu,\n", (unsigned long long)s->rss_loop);
    fprintf(f, "  \"peak_rss_bytes\": %llu,\n  \"vram_peak_bytes\": %llu,\n  \"vram_budget_bytes\": %llu,\n",
            (unsigned long long)s->rss, (unsigned long long)s->st.vram_peak, (unsigned long long)s->st.vram_budget);
    fprintf(f, "  \"cpu_fallbacks\": %llu,\n  \"verified\": %zu,\n  \"partitions\": [",
            (unsigned long long)s->st.cpu_fallbacks, s->verified);
    for (uint64_t i = 0; i < s->count; i++) {
        fprintf(f, "%s\n    {\"index\": %llu", i ? "," : "", (unsigned long long)i);
        for (size_t c = 0; c < N_COLS; c++) fprintf(f, ", \"%s\": %.3f", cols[c].name, col_of(&rows[i], c));
        fprintf(f, ", \"h2d_bytes\": %llu, \"stage\": \"%s\", \"staged_bytes\": %llu, \"on_cpu\": %s, "
                   "\"h_copies\": %s}",
                (unsigned long long)rows[i].t.h2d_bytes, cz_groth16_stage_name(rows[i].t.stage),
                (unsigned long long)rows[i].t.staged_bytes, rows[i].t.on_cpu ? "true" : "false",
                rows[i].t.h_copies ? "true" : "false");
    }
    fprintf(f, "\n  ],\n  \"median\": {");
    for (size_t c = 0; c < N_COLS; c++) fprintf(f, "%s\"%s\": %.3f", c ? ", " : "", cols[c].name, med[c]);
    fprintf(f, "}\n}\n");
    return fclose(f) == 0 ? 0 : -1;
}

#define MAX_WORKERS 16
#define MAX_MAKERS 16

/* a made witness waiting for a worker */
typedef struct {
    uint64_t i;
    cz_fr *buf;
} ready_item;

/* DESIGN (the loop)
 * Threads: M makers and W workers. A maker takes the next partition index
 * and a free witness buffer, makes that partition's witness into it and
 * queues it; a worker (a backend worker of its own) takes the oldest made
 * witness, proves and verifies it and gives the buffer back. So witness
 * making, which is one thread a witness and slower than the device's part
 * of a proof, runs M at a time and never waits for a proof to end.
 * Queues: the free buffers (a stack) and the made witnesses (a FIFO), each
 * at most nbuf = W + M long: W buffers are held by workers at most, so a
 * maker always gets one back.
 * Lock: one mutex (mu) over both queues, the indices and the results;
 * free_cv wakes makers, ready_cv wakes workers, done_cv ends the workers
 * together. Nothing else is locked here. */
typedef struct {
    cz_be *be;
    cz_be_key *key;
    const cz_groth16_pvk *pvk;
    const cz_wbits_map *map; /* --witness bits: compact witnesses */
    cz_synth_params sp;
    row *rows;
    uint64_t count, n_vars, seed;
    double loop0, first_ready; /* first_ready: when the first witness was made (from loop0) */
    pthread_mutex_t mu;
    pthread_cond_t free_cv, ready_cv, done_cv;
    uint64_t next_make, taken; /* the next index to make; witnesses taken by workers */
    cz_fr **free_bufs;
    size_t n_free;
    ready_item *ready; /* FIFO: ready[(ready_head + k) % nbuf] */
    size_t nbuf, ready_head, n_ready;
    unsigned proving; /* workers not yet done: each lives until all are */
    size_t verified, failed;
    int err;
    char msg[700];
} loop_ctx;

static void loop_fail(loop_ctx *L, const char *what, const char *m)
{
    pthread_mutex_lock(&L->mu);
    if (!L->err) snprintf(L->msg, sizeof L->msg, "%s: %s", what, m);
    L->err = 1;
    pthread_cond_broadcast(&L->free_cv);
    pthread_cond_broadcast(&L->ready_cv);
    pthread_mutex_unlock(&L->mu);
}

/* a worker is done proving; returns when every worker is */
static void loop_done(loop_ctx *L)
{
    pthread_mutex_lock(&L->mu);
    if (--L->proving == 0) pthread_cond_broadcast(&L->done_cv);
    while (L->proving) pthread_cond_wait(&L->done_cv, &L->mu);
    pthread_mutex_unlock(&L->mu);
}

/* a witness buffer back to the free stack */
static void give_back(loop_ctx *L, cz_fr *buf)
{
    pthread_mutex_lock(&L->mu);
    L->free_bufs[L->n_free++] = buf;
    pthread_cond_signal(&L->free_cv);
    pthread_mutex_unlock(&L->mu);
}

/* one maker: the next index's witness into a free buffer, queued */
static void *maker_main(void *arg)
{
    loop_ctx *L = arg;
    char msg[600], what[64];
    cz_synth_params sp = L->sp;
    sp.progress = NULL;
    const cz_wbits_map *map = L->map;
    for (;;) {
        pthread_mutex_lock(&L->mu);
        while (!L->err && L->next_make < L->count && !L->n_free) pthread_cond_wait(&L->free_cv, &L->mu);
        if (L->err || L->next_make >= L->count) {
            pthread_mutex_unlock(&L->mu);
            break;
        }
        uint64_t i = L->next_make++;
        cz_fr *buf = L->free_bufs[--L->n_free];
        pthread_mutex_unlock(&L->mu);
        double t0 = cz_now_ms();
        sp.witness_seed = L->seed * 1000003u + i + 1;
        if (!sp.witness_seed) sp.witness_seed = 1;
        if (map ? cz_synth_witness_compact(buf, map->n_fields, cz_wbits_bits(map, buf), map->n_bits, &sp, msg,
                                           sizeof msg)
                : cz_synth_witness(buf, L->n_vars, &sp, msg, sizeof msg)) {
            snprintf(what, sizeof what, "partition %llu", (unsigned long long)i);
            give_back(L, buf);
            loop_fail(L, what, msg);
            break;
        }
        double t1 = cz_now_ms();
        L->rows[i].witness_ms = t1 - t0;
        pthread_mutex_lock(&L->mu);
        if (L->first_ready < 0) L->first_ready = t1 - L->loop0;
        L->ready[(L->ready_head + L->n_ready++) % L->nbuf] = (ready_item){i, buf};
        pthread_cond_signal(&L->ready_cv);
        pthread_mutex_unlock(&L->mu);
    }
    return NULL;
}

/* one proving thread of the loop: takes the oldest made witness, proves
 * and verifies it, gives its buffer back */
static void *loop_main(void *arg)
{
    loop_ctx *L = arg;
    char msg[600], what[64];
    cz_be_worker *bw = NULL;
    if (cz_be_worker_create(L->be, &bw, msg, sizeof msg)) {
        loop_fail(L, "worker", msg);
        loop_done(L);
        return NULL;
    }
    cz_rng rng;
    for (;;) {
        pthread_mutex_lock(&L->mu);
        while (!L->err && L->taken < L->count && !L->n_ready) pthread_cond_wait(&L->ready_cv, &L->mu);
        if (L->err || L->taken >= L->count) {
            pthread_mutex_unlock(&L->mu);
            break;
        }
        ready_item it = L->ready[L->ready_head];
        L->ready_head = (L->ready_head + 1) % L->nbuf;
        L->n_ready--;
        L->taken++;
        pthread_mutex_unlock(&L->mu);
        uint64_t i = it.i;
        snprintf(what, sizeof what, "partition %llu", (unsigned long long)i);
        row *r = &L->rows[i];
        double t1 = cz_now_ms();
        r->start_ms = t1 - L->loop0;
        cz_rng_seed(&rng, L->seed ^ 0x7061727469ull ^ (i * 0x9e3779b97f4a7c15ull));
        cz_fr rr, ss;
        cz_fr_random(&rr, &rng);
        cz_fr_random(&ss, &rng);
        cz_groth16_proof proof;
        if (L->map ? cz_be_prove_bits(bw, L->key, it.buf, &rr, &ss, &proof, &r->t, msg, sizeof msg)
                   : cz_be_prove(bw, L->key, it.buf, &rr, &ss, &proof, &r->t, msg, sizeof msg)) {
            give_back(L, it.buf);
            loop_fail(L, what, msg);
            break;
        }
        double t2 = cz_now_ms();
        int ok = cz_groth16_verify(L->pvk, &proof, it.buf + 1, N_PUBLIC); /* compact: inputs first too */
        double t3 = cz_now_ms();
        r->wall_ms = t2 - t1;
        r->verify_ms = t3 - t2;
        pthread_mutex_lock(&L->mu);
        if (ok) L->verified++;
        else L->failed++;
        pthread_mutex_unlock(&L->mu);
        give_back(L, it.buf);
        fprintf(stderr, "%s: partition %llu/%llu: %.1f ms (witness %.1f ms)%s%s\n", CMD, (unsigned long long)i + 1,
                (unsigned long long)L->count, r->wall_ms, r->witness_ms, r->t.on_cpu ? ", on the CPU" : "",
                ok ? "" : ", proof does NOT verify");
    }
    /* a worker's release frees device and pinned memory, which waits on the
     * whole device: not while another partition is being proved */
    loop_done(L);
    cz_be_worker_destroy(bw);
    return NULL;
}

/* makers when --makers is not given: on CUDA half the cores, 2 to 8 (a
 * witness takes one thread several times as long as the device's part of
 * its proof), on the CPU one (the prover has the cores) */
static unsigned default_makers(int cuda)
{
    if (!cuda) return 1;
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned m = c > 0 ? (unsigned)(c / 2) : 2;
    return m < 2 ? 2 : m > 8 ? 8 : m;
}

int cz_bench_partition_main(int argc, char **argv)
{
    const char *o_log2 = NULL, *o_count = NULL, *o_backend = "auto", *o_device = NULL, *o_json = NULL,
               *o_seed = NULL, *o_threads = NULL, *o_workers = NULL, *o_makers = NULL, *o_setup = "auto", *o_witness = "bits";
    struct { const char *name; const char **val; } opts[] = {
        {"--log2", &o_log2}, {"--count", &o_count}, {"--backend", &o_backend}, {"--device", &o_device},
        {"--json", &o_json}, {"--seed", &o_seed},   {"--threads", &o_threads},
        {"--workers", &o_workers}, {"--makers", &o_makers}, {"--setup", &o_setup}, {"--witness", &o_witness}};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: %s --log2 K --count N [--backend cpu|cuda|auto] [--device D] [--json FILE]\n"
                   "       [--seed S] [--threads T] [--workers W] [--makers M] [--setup auto|cpu|gpu] [--witness bits|full]\n"
                   "       (K %d..%d, N 1..%d)\n",
                   CMD, MIN_LOG2, MAX_LOG2, MAX_COUNT);
            return 0;
        }
        size_t k = 0;
        while (k < sizeof opts / sizeof opts[0] && strcmp(argv[i], opts[k].name)) k++;
        if (k == sizeof opts / sizeof opts[0]) return usage_err("unknown argument '%s'", argv[i]);
        if (i + 1 >= argc) return usage_err("%s needs a value", argv[i]);
        *opts[k].val = argv[++i];
    }
    if (!o_log2) return usage_err("%s", "--log2 K is required");
    if (!o_count) return usage_err("%s", "--count N is required");
    summary S = {0};
    uint64_t v;
    if (parse_u64(o_log2, MIN_LOG2, MAX_LOG2, &v)) return usage_err("bad --log2 '%s'", o_log2);
    S.log2 = (int)v;
    if (parse_u64(o_count, 1, MAX_COUNT, &S.count)) return usage_err("bad --count '%s'", o_count);
    S.seed = 1;
    if (o_seed && parse_u64(o_seed, 0, UINT64_MAX, &S.seed)) return usage_err("bad --seed '%s'", o_seed);
    if (o_threads && parse_u64(o_threads, 0, 4096, &v)) return usage_err("bad --threads '%s'", o_threads);
    S.threads = o_threads ? (unsigned)v : 0;
    uint64_t device = 0;
    if (o_device && parse_u64(o_device, 0, 1024, &device)) return usage_err("bad --device '%s'", o_device);
    S.json = o_json;
    char pmsg[600];
    if (o_json && cz_out_path_check(o_json, pmsg, sizeof pmsg)) {
        fprintf(stderr, "%s: %s\n", CMD, pmsg);
        return 2;
    }
    if (o_workers && parse_u64(o_workers, 1, MAX_WORKERS, &v)) return usage_err("bad --workers '%s'", o_workers);
    S.workers = o_workers ? (unsigned)v : 0; /* 0: 2 on CUDA, 1 on the CPU (set once the backend is open) */
    if (o_makers && parse_u64(o_makers, 1, MAX_MAKERS, &v)) return usage_err("bad --makers '%s'", o_makers);
    S.makers = o_makers ? (unsigned)v : 0; /* 0: by the backend and the cores, below */
    if (strcmp(o_setup, "auto") && strcmp(o_setup, "cpu") && strcmp(o_setup, "gpu"))
        return usage_err("bad --setup '%s' (auto, cpu or gpu)", o_setup);
    S.setup_kind = o_setup;
    if (strcmp(o_witness, "bits") && strcmp(o_witness, "full"))
        return usage_err("bad --witness '%s' (bits or full)", o_witness);
    S.witness = o_witness;

    char msg[600];
    cz_backend_opts bo = {.device = (int)device, .threads = S.threads};
    if (cz_backend_parse(o_backend, &bo.kind, msg, sizeof msg)) return usage_err("%s", msg);
    int rc = 2;
    cz_be *be = NULL;
    cz_be_key *key = NULL;
    cz_pool *pool = NULL;
    int have_dpk = 0; /* read only in CUDA builds */
    (void)have_dpk;
    cz_r1cs cs = {0};
    cz_fr *w0 = NULL;
    cz_groth16_pk pk = {0};
    cz_groth16_pvk pvk = {0};
    cz_wbits_map map = {0};
    uint64_t *mask = NULL;
    row *rows = NULL;
    if (cz_be_open(&be, &bo, msg, sizeof msg)) {
        fprintf(stderr, "%s: %s\n", CMD, msg);
        return 2;
    }
    S.backend_name = cz_be_name(be);
    if (!S.workers) S.workers = cz_be_kind(be) == CZ_BACKEND_CUDA ? 2 : 1;
    if (!S.makers) S.makers = default_makers(cz_be_kind(be) == CZ_BACKEND_CUDA);
    if (cz_pool_create(&pool, S.threads)) {
        fprintf(stderr, "%s: cannot start worker threads\n", CMD);
        goto out;
    }
    rows = calloc(S.count, sizeof *rows);
    if (!rows) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        goto out;
    }

    /* the circuit: 2^K rows with bellperson's input rows */
    cz_synth_params sp;
    cz_synth_params_init(&sp);
    sp.n_constraints = ((uint64_t)1 << S.log2) - (N_PUBLIC + 1);
    sp.n_public = N_PUBLIC;
    sp.seed = S.seed;
    if (S.log2 >= 22) sp.progress = synth_progress;
    S.n_constraints = sp.n_constraints;
    fprintf(stderr, "%s: backend %s; synthesizing the circuit of 2^%d (%llu constraints)\n", CMD, S.backend_name,
            S.log2, (unsigned long long)sp.n_constraints);
    double t = cz_now_ms();
    if (cz_synth_generate(&cs, &w0, &sp, msg, sizeof msg)) {
        fprintf(stderr, "%s: synthesis: %s\n", CMD, msg);
        goto out;
    }
    S.synth_ms = cz_now_ms() - t;
    S.n_vars = cs.n_vars;
    free(w0); /* each partition makes its own */
    w0 = NULL;
    if (cz_groth16_domain_log(&cs) != S.log2) {
        fprintf(stderr, "%s: internal: the domain is 2^%d, not 2^%d\n", CMD, cz_groth16_domain_log(&cs), S.log2);
        goto out;
    }
    S.witness_bytes = cs.n_vars * sizeof(cz_fr);
    if (!strcmp(S.witness, "bits")) { /* the circuit's bit map, once */
        mask = malloc((cs.n_vars + 63) / 64 * sizeof *mask + 8);
        if (!mask) {
            fprintf(stderr, "%s: out of memory\n", CMD);
            goto out;
        }
        cz_synth_params mp = sp;
        mp.progress = NULL;
        if (cz_synth_bit_mask(mask, cs.n_vars, &mp, msg, sizeof msg) ||
            cz_wbits_map_init(&map, mask, cs.n_vars, cs.n_inputs, msg, sizeof msg)) {
            fprintf(stderr, "%s: bit map: %s\n", CMD, msg);
            goto out;
        }
        S.n_bits = map.n_bits;
        S.witness_bytes = cz_wbits_bytes(&map);
        fprintf(stderr, "%s: witness as bits: %llu of %llu variables are bits; %llu bytes a witness instead of %llu\n",
                CMD, (unsigned long long)map.n_bits, (unsigned long long)cs.n_vars,
                (unsigned long long)S.witness_bytes, (unsigned long long)(cs.n_vars * sizeof(cz_fr)));
    }

    /* the key: on the GPU for a CUDA backend (made in device memory and
     * adopted by the backend: no host copy of the points, no upload), else
     * the CPU's insecure setup; both give the same key for a seed */
    int gpu_setup = 0;
    if (!strcmp(S.setup_kind, "auto")) S.setup_kind = cz_be_kind(be) == CZ_BACKEND_CUDA ? "gpu" : "cpu";
    if (!strcmp(S.setup_kind, "gpu")) {
#if CZ_HAVE_CUDA
        if (cz_be_kind(be) != CZ_BACKEND_CUDA) {
            fprintf(stderr, "%s: --setup gpu needs the cuda backend\n", CMD);
            goto out;
        }
        gpu_setup = 1;
#else
        fprintf(stderr, "%s: --setup gpu: this build has no CUDA\n", CMD);
        goto out;
#endif
    }
    fprintf(stderr, "%s: insecure test setup (%s)\n", CMD, S.setup_kind);
    t = cz_now_ms();
#if CZ_HAVE_CUDA
    cz_cuda_pk_dev dpk = {0};
    if (gpu_setup) {
        if (cz_cuda_setup_insecure(&pk.vk, &dpk, &cs, S.seed, (int)device, pool, msg, sizeof msg)) {
            fprintf(stderr, "%s: setup: %s\n", CMD, msg);
            goto out;
        }
        have_dpk = 1;
        pk.n_h = dpk.n_h;
        pk.n_l = dpk.n_l;
        pk.n_a = dpk.n_a;
        pk.n_b_g1 = dpk.n_b_g1;
        pk.n_b_g2 = dpk.n_b_g2;
    }
#endif
    if (!gpu_setup && cz_groth16_setup_insecure(&pk, &cs, S.seed, pool, msg, sizeof msg)) {
        fprintf(stderr, "%s: setup: %s\n", CMD, msg);
        goto out;
    }
    S.setup_ms = cz_now_ms() - t;
    if (cz_groth16_prepare_vk(&pvk, &pk.vk)) {
        fprintf(stderr, "%s: cannot prepare the verifying key\n", CMD);
        goto out;
    }
    cz_pool_destroy(pool); /* the workers have their own threads */
    pool = NULL;

    fprintf(stderr, "%s: loading the key into %s\n", CMD, S.backend_name);
    t = cz_now_ms();
    cz_be_circuit bc = {.pk = &pk, .cs = &cs, .bits = map.mask ? &map : NULL};
#if CZ_HAVE_CUDA
    if (gpu_setup) bc.dev_pk = &dpk;
#endif
    if (cz_be_load(be, &bc, &key, msg, sizeof msg)) {
        fprintf(stderr, "%s: %s\n", CMD, msg);
        goto out;
    }
    S.load_ms = cz_now_ms() - t;
    S.key_dev_bytes = cz_be_key_device_bytes(key);

    /* the partitions, back to back: S.makers threads make the witnesses
     * into nbuf buffers, S.workers threads (each its own backend worker)
     * prove and verify them (the DESIGN comment at loop_ctx) */
    loop_ctx L = {.be = be, .key = key, .pvk = &pvk, .map = map.mask ? &map : NULL, .sp = sp, .rows = rows,
                  .count = S.count, .n_vars = cs.n_vars, .seed = S.seed, .first_ready = -1};
    L.nbuf = S.workers + S.makers;
    S.n_buffers = (unsigned)L.nbuf;
    L.free_bufs = calloc(L.nbuf, sizeof *L.free_bufs);
    L.ready = calloc(L.nbuf, sizeof *L.ready);
    if (!L.free_bufs || !L.ready) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        free(L.free_bufs);
        free(L.ready);
        goto out;
    }
    for (; L.n_free < L.nbuf; L.n_free++) {
        L.free_bufs[L.n_free] = cz_synth_witness_alloc(map.mask ? cz_wbits_len(&map) : cs.n_vars);
        if (!L.free_bufs[L.n_free]) break;
    }
    if (L.n_free < L.nbuf) {
        fprintf(stderr, "%s: out of memory for %zu witness buffers of %llu bytes\n", CMD, L.nbuf,
                (unsigned long long)S.witness_bytes);
        for (size_t i = 0; i < L.n_free; i++) free(L.free_bufs[i]);
        free(L.free_bufs);
        free(L.ready);
        goto out;
    }
    pthread_mutex_init(&L.mu, NULL);
    pthread_cond_init(&L.free_cv, NULL);
    pthread_cond_init(&L.ready_cv, NULL);
    pthread_cond_init(&L.done_cv, NULL);
    L.proving = S.workers;
    pthread_t th[MAX_WORKERS], mk[MAX_MAKERS];
    unsigned started = 0, mk_started = 0;
    S.rss = peak_rss(); /* synthesis and setup */
    {   /* restart the peak, so that the loop's own is read after it */
        FILE *f = fopen("/proc/self/clear_refs", "w");
        if (f) {
            fputs("5", f);
            fclose(f);
        }
    }
    fprintf(stderr, "%s: %llu partitions: %u witness makers, %u proving workers, %zu witness buffers\n", CMD,
            (unsigned long long)S.count, S.makers, S.workers, L.nbuf);
    double loop0 = L.loop0 = cz_now_ms();
    for (unsigned i = 0; i < S.workers; i++) {
        if (pthread_create(&th[i], NULL, loop_main, &L)) break;
        started++;
    }
    if (started < S.workers) { /* the others must not wait for these */
        loop_fail(&L, "threads", "cannot start the worker threads");
        pthread_mutex_lock(&L.mu);
        L.proving -= S.workers - started;
        pthread_cond_broadcast(&L.done_cv);
        pthread_mutex_unlock(&L.mu);
    }
    for (unsigned i = 0; i < S.makers && started == S.workers; i++) {
        if (pthread_create(&mk[i], NULL, maker_main, &L)) break;
        mk_started++;
    }
    if (!mk_started) loop_fail(&L, "threads", "cannot start the witness makers"); /* else the others make them all */
    for (unsigned i = 0; i < mk_started; i++) pthread_join(mk[i], NULL);
    for (unsigned i = 0; i < started; i++) pthread_join(th[i], NULL);
    S.loop_ms = cz_now_ms() - loop0;
    pthread_mutex_destroy(&L.mu);
    pthread_cond_destroy(&L.free_cv);
    pthread_cond_destroy(&L.ready_cv);
    pthread_cond_destroy(&L.done_cv);
    for (size_t i = 0; i < L.n_free; i++) free(L.free_bufs[i]); /* all given back once the threads are done */
    free(L.free_bufs);
    for (size_t k = 0; k < L.n_ready; k++) free(L.ready[(L.ready_head + k) % L.nbuf].buf); /* left after an error */
    free(L.ready);
    if (started < S.workers || L.err) {
        fprintf(stderr, "%s: %s\n", CMD, L.msg);
        goto out;
    }
    S.verified = L.verified;
    size_t failed = L.failed;
    double busy = 0, dev = 0, first = S.loop_ms;
    for (uint64_t i = 0; i < S.count; i++) {
        const cz_groth16_timings *x = &rows[i].t;
        if (rows[i].start_ms < first) first = rows[i].start_ms;
        busy += x->total_ms;
        /* the device's wall where the backend measures it (stages may overlap), else the stages' sum */
        dev += x->device_ms > 0 ? x->device_ms
                                : x->spmv_ms + x->ntt_ms + x->msm_hl_ms + x->msm_a_ms + x->msm_b1_ms + x->msm_b2_ms;
    }
    S.busy_pct = S.loop_ms > 0 ? 100.0 * busy / S.loop_ms : 0;
    S.device_busy_pct = S.loop_ms > 0 ? 100.0 * dev / S.loop_ms : 0;
    S.steady_busy_pct = S.loop_ms > first ? 100.0 * dev / (S.loop_ms - first) : 0;
    cz_be_get_stats(be, &S.st);
    S.rss_loop = peak_rss();
    if (S.rss_loop > S.rss) S.rss = S.rss_loop;

    /* the table */
    double *tmp = malloc(S.count * sizeof *tmp), med[N_COLS];
    if (!tmp) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        goto out;
    }
    for (size_t c = 0; c < N_COLS; c++) {
        for (uint64_t i = 0; i < S.count; i++) tmp[i] = col_of(&rows[i], c);
        med[c] = cz__bench_median(tmp, S.count);
    }
    for (uint64_t i = 0; i < S.count; i++) tmp[i] = (double)rows[i].t.h2d_bytes;
    S.h2d_median = (uint64_t)cz__bench_median(tmp, S.count);
    free(tmp);
    printf("cuzk-bench partition: backend %s, circuit 2^%d (%llu constraints, %llu variables), %llu partitions\n",
           S.backend_name, S.log2, (unsigned long long)S.n_constraints, (unsigned long long)S.n_vars,
           (unsigned long long)S.count);
    printf("%-6s", "part");
    for (size_t c = 0; c < N_COLS; c++) {
        char h[32];
        snprintf(h, sizeof h, "%.*s", (int)(strlen(cols[c].name) - 3), cols[c].name); /* without _ms */
        printf(" %9s", h);
    }
    printf(" %12s %12s %-8s %s\n", "h2d_bytes", "staged_bytes", "stage", "cpu");
    for (uint64_t i = 0; i < S.count; i++) {
        printf("%-6llu", (unsigned long long)i);
        for (size_t c = 0; c < N_COLS; c++) printf(" %9.2f", col_of(&rows[i], c));
        printf(" %12llu %12llu %-8s %s\n", (unsigned long long)rows[i].t.h2d_bytes,
               (unsigned long long)rows[i].t.staged_bytes, cz_groth16_stage_name(rows[i].t.stage),
               rows[i].t.on_cpu ? "yes" : "no");
    }
    printf("%-6s", "median");
    for (size_t c = 0; c < N_COLS; c++) printf(" %9.2f", med[c]);
    printf(" %12llu\n", (unsigned long long)S.h2d_median);
    printf("times in ms; wall = the cz_be_prove call; msm_hl = msm h + l when run together (CPU); device = the\n"
           "device's wall from the first kernel to the last sum (CUDA; unless CZ_PROVER_OVERLAP=0, SpMV and H run\n"
           "beside the witness MSMs, so the stages overlap and their sum exceeds it)\n");
    printf("synthesis:          %.1f ms (circuit and first witness)\n", S.synth_ms);
    printf("setup:              %.1f ms (insecure, %s)\n", S.setup_ms, S.setup_kind);
    printf("load into backend:  %.1f ms (%llu device bytes)\n", S.load_ms, (unsigned long long)S.key_dev_bytes);
    printf("loop wall:          %.1f ms for %llu partitions (with making witnesses and verifying)\n", S.loop_ms,
           (unsigned long long)S.count);
    printf("busy:               %.1f %% (sum of total_ms over the loop wall, %u worker%s, %u witness maker%s)\n",
           S.busy_pct, S.workers, S.workers == 1 ? "" : "s", S.makers, S.makers == 1 ? "" : "s");
    printf("device busy:        %.1f %% (device walls, else the stages' sums, over the loop wall)\n", S.device_busy_pct);
    printf("device busy, fed:   %.1f %% (the same from the first witness ready to the end)\n", S.steady_busy_pct);
    printf("host->device:       %llu bytes per partition (median)\n", (unsigned long long)S.h2d_median);
    printf("witness:            %s, %llu bytes (full %llu; %llu of %llu variables bits)\n", S.witness,
           (unsigned long long)S.witness_bytes, (unsigned long long)(S.n_vars * sizeof(cz_fr)),
           (unsigned long long)S.n_bits, (unsigned long long)S.n_vars);
    printf("peak host RSS:      %.1f MiB (while proving: %.1f MiB, %u witness buffers of %.1f MiB in it)\n",
           (double)S.rss / (1 << 20), (double)S.rss_loop / (1 << 20), S.n_buffers,
           (double)S.witness_bytes / (1 << 20));
    printf("VRAM peak:          %.1f MiB (budget %.1f MiB)\n", (double)S.st.vram_peak / (1 << 20),
           (double)S.st.vram_budget / (1 << 20));
    printf("CPU fallbacks:      %llu\n", (unsigned long long)S.st.cpu_fallbacks);
    {
        uint64_t hc = 0;
        for (uint64_t i = 0; i < S.count; i++) hc += rows[i].t.h_copies != 0;
        printf("H via copies:       %llu of %llu partitions (window copies of the H bases, CUDA; "
               "CZ_PROVER_H_COPIES=0: none)\n", (unsigned long long)hc, (unsigned long long)S.count);
    }
    printf("verified:           %zu of %llu proofs\n", S.verified, (unsigned long long)S.count);
    rc = failed ? 1 : 0;
    if (failed) fprintf(stderr, "%s: %zu proof(s) failed verification\n", CMD, failed);
    if (S.json) {
        if (write_json(&S, rows, med)) {
            fprintf(stderr, "%s: cannot write %s\n", CMD, S.json);
            rc = 1;
        } else {
            printf("wrote %s\n", S.json);
        }
    }
out:
    if (be) cz_be_release(be, key);
    cz_be_close(be);
#if CZ_HAVE_CUDA
    if (have_dpk) cz_cuda_pk_dev_free(&dpk);
#endif
    cz_groth16_pvk_free(&pvk);
    cz_groth16_pk_free(&pk);
    cz_wbits_map_free(&map);
    free(mask);
    cz_r1cs_free(&cs);
    free(w0);
    free(rows);
    cz_pool_destroy(pool);
    return rc;
}
