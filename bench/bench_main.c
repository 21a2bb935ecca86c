/* bench_main.c — cuzk-bench: runs the registered groups (bench_*.c), prints
 * a table and optionally writes JSON.
 *
 *   cuzk-bench [--quick] [--filter SUBSTR] [--batches N] [--reps N] [--json FILE]
 *              [--markdown]
 *   cuzk-bench waterfall LOG [--svg OUT.svg] [--json OUT.json]   (waterfall.c)
 *   cuzk-bench batch -a ADDR [-c N] [-j N] JOB...                 (batch.c)
 *   cuzk-bench single | sweep | status | metrics | preload -a ADDR ... (batch.c)
 *   cuzk-bench partition --log2 K --count N [--backend B] ...     (partition.c)
 *
 * --filter keeps the ops whose "group/op" name contains SUBSTR; --quick uses
 * shorter and fewer batches (for smoke tests); --markdown prints the results
 * once more as a Markdown table (for docs/BENCHMARKS.md). The JSON records,
 * per op, the median / min / max wall-clock ns per operation over the timed
 * batches, the median thread-CPU-time ns per operation, the number of timed
 * iterations, plus the run's context (one-shot ops, cz__bench_once, record
 * per run instead of per operation and whole-process CPU time): CPU model, online cores, whether
 * the field code takes its MULX/ADX path, and the git commit of the source
 * tree (CUZK_GIT_COMMIT at build time, else $CUZK_COMMIT, else `git describe`
 * in the source tree at run time, best effort). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "ff/ff_asm.h"
#include "util/cpu.h"
#include "util/outpath.h"
#include "waterfall.h"
#include "batch.h"
#include "partition.h"

#ifndef CZ_HAVE_ADX_ASM
#define CZ_HAVE_ADX_ASM 0
#endif

#define MAX_GROUPS 16
#define MAX_RESULTS 128
#define MAX_NOTES 32
#define MAX_BATCHES 101

typedef struct {
    char group[16], op[48], note[96];
    double med, min, max; /* ns per op, wall clock */
    double cpu_med;       /* ns per op, thread CPU time */
    uint64_t iters;       /* timed iterations, all batches */
    int batches;
    int once;             /* one-shot op: per run, process CPU time */
} result;

struct cz_bench {
    const char *filter;
    const char *group;
    double target_ns;
    int batches;
    int reps; /* timed runs of a one-shot op */
    result res[MAX_RESULTS];
    int nres;
    char notes[MAX_NOTES][160];
    int nnotes;
};

typedef struct {
    int order;
    const char *name;
    cz_bench_group_fn fn;
} group;

static group groups[MAX_GROUPS];
static int ngroups;

void cz__bench_register(int order, const char *name, cz_bench_group_fn fn)
{
    if (ngroups < MAX_GROUPS) {
        groups[ngroups].order = order;
        groups[ngroups].name = name;
        groups[ngroups].fn = fn;
        ngroups++;
    }
}

int cz__bench_wants(const cz_bench *b, const char *op)
{
    if (!b->filter || !*b->filter) return 1;
    char full[80];
    snprintf(full, sizeof full, "%s/%s", b->group, op);
    return strstr(full, b->filter) != NULL;
}

void cz__bench_note(cz_bench *b, const char *fmt, ...)
{
    if (b->nnotes >= MAX_NOTES) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->notes[b->nnotes], sizeof b->notes[0], fmt, ap);
    va_end(ap);
    printf("  note: %s\n", b->notes[b->nnotes]);
    b->nnotes++;
}

static double clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* wall time of one batch (CLOCK_MONOTONIC); *cpu gets the thread's CPU time,
 * which leaves out the time the thread was descheduled */
static double time_batch2(cz_bench_fn fn, void *state, uint64_t iters, double *cpu)
{
    double c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), t0 = clock_ns(CLOCK_MONOTONIC);
    fn(state, iters);
    double t1 = clock_ns(CLOCK_MONOTONIC), c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    *cpu = c1 - c0;
    return t1 - t0;
}

static double time_batch(cz_bench_fn fn, void *state, uint64_t iters)
{
    double cpu;
    return time_batch2(fn, state, iters, &cpu);
}

static double median_sorted(const double *v, int n)
{
    return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void cz__bench_op(cz_bench *b, const char *op, const char *note, cz_bench_fn fn,
                  void *state)
{
    if (!cz__bench_wants(b, op) || b->nres >= MAX_RESULTS) return;

    /* calibrate: double the batch until it takes the target time (this is
     * also the warm-up), then scale to the target */
    uint64_t iters = 1;
    double t = time_batch(fn, state, iters);
    while (t < b->target_ns && iters < ((uint64_t)1 << 40)) {
        iters *= 2;
        t = time_batch(fn, state, iters);
    }
    if (t > 0) {
        double scaled = (double)iters * b->target_ns / t;
        iters = scaled < 1 ? 1 : (uint64_t)scaled;
    }
    time_batch(fn, state, iters); /* one more warm-up at the final size */

    double per[MAX_BATCHES], cpu[MAX_BATCHES];
    int n = b->batches;
    for (int i = 0; i < n; i++) {
        per[i] = time_batch2(fn, state, iters, &cpu[i]) / (double)iters;
        cpu[i] /= (double)iters;
    }
    qsort(per, (size_t)n, sizeof per[0], cmp_double);
    qsort(cpu, (size_t)n, sizeof cpu[0], cmp_double);

    result *r = &b->res[b->nres++];
    snprintf(r->group, sizeof r->group, "%s", b->group);
    snprintf(r->op, sizeof r->op, "%s", op);
    snprintf(r->note, sizeof r->note, "%s", note ? note : "");
    r->med = median_sorted(per, n);
    r->cpu_med = median_sorted(cpu, n);
    r->min = per[0];
    r->max = per[n - 1];
    r->iters = iters * (uint64_t)n;
    r->batches = n;
    printf("%-8s %-20s %12.1f %12.1f %12.1f %12.1f %11llu  %s\n", r->group, r->op, r->med,
           r->min, r->max, r->cpu_med, (unsigned long long)r->iters, r->note);
    fflush(stdout);
}

double cz__bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof v[0], cmp_double);
    return median_sorted(v, (int)n);
}

void cz__bench_once(cz_bench *b, const char *op, const char *note, cz_bench_fn fn,
                    void *state)
{
    if (!cz__bench_wants(b, op) || b->nres >= MAX_RESULTS) return;
    double t0 = clock_ns(CLOCK_MONOTONIC);
    fn(state, 1); /* warm-up: page faults, caches, clocks */
    double warm = clock_ns(CLOCK_MONOTONIC) - t0;
    int n = b->reps;
    if (warm < 0.1e9) { /* cheap: take more runs, up to --batches */
        double more = 0.5e9 / (warm > 1 ? warm : 1);
        if (more > n) n = more < b->batches ? (int)more : b->batches;
        if (n < b->reps) n = b->reps;
    }
    if (n > MAX_BATCHES) n = MAX_BATCHES;
    double wall[MAX_BATCHES], cpu[MAX_BATCHES];
    for (int i = 0; i < n; i++) {
        double c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID), w0 = clock_ns(CLOCK_MONOTONIC);
        fn(state, 1);
        double w1 = clock_ns(CLOCK_MONOTONIC), c1 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
        wall[i] = w1 - w0;
        cpu[i] = c1 - c0;
    }
    result *r = &b->res[b->nres++];
    snprintf(r->group, sizeof r->group, "%s", b->group);
    snprintf(r->op, sizeof r->op, "%s", op);
    snprintf(r->note, sizeof r->note, "%s", note ? note : "");
    r->med = cz__bench_median(wall, n);
    r->min = wall[0];
    r->max = wall[n - 1];
    r->cpu_med = cz__bench_median(cpu, n);
    r->iters = (uint64_t)n;
    r->batches = n;
    r->once = 1;
    printf("%-8s %-20s %12.4g %12.4g %12.4g %12.4g %11llu  %s\n", r->group, r->op, r->med,
           r->min, r->max, r->cpu_med, (unsigned long long)r->iters, r->note);
    fflush(stdout);
}

/* ---- run context ---- */

static void cpu_model(char *out, size_t n)
{
    snprintf(out, n, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        char *p = strchr(line, ':');
        if (!p) break;
        p++;
        while (*p == ' ' || *p == '\t') p++;
        p[strcspn(p, "\n")] = 0;
        snprintf(out, n, "%s", p);
        break;
    }
    fclose(f);
}

static int shell_safe(const char *s)
{
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+", *s))
            return 0;
    return 1;
}

void cz__bench_git_commit(char *out, size_t n)
{
#ifdef CUZK_GIT_COMMIT
    snprintf(out, n, "%s", CUZK_GIT_COMMIT);
    return;
#endif
    const char *env = getenv("CUZK_COMMIT");
    if (env && *env) {
        snprintf(out, n, "%s", env);
        return;
    }
    snprintf(out, n, "unknown");
    /* the source tree is two levels above this file when the build used
     * absolute paths (CMake does) */
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", __FILE__);
    for (int k = 0; k < 2; k++) {
        char *s = strrchr(dir, '/');
        if (!s) return;
        *s = 0;
    }
    if (dir[0] != '/' || !shell_safe(dir)) return;
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "git -C %s describe --always --dirty --abbrev=12 2>/dev/null", dir);
    FILE *p = popen(cmd, "r");
    if (!p) return;
    char buf[128];
    if (fgets(buf, sizeof buf, p)) {
        buf[strcspn(buf, "\n")] = 0;
        if (buf[0]) snprintf(out, n, "%s", buf);
    }
    pclose(p);
}

void cz__bench_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

typedef struct {
    char cpu[256], commit[128], when[32];
    long cores;
    int cpu_adx, adx_path, quick;
} context;

static int write_json(const char *path, const cz_bench *b, const context *c)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "{\n  \"schema\": \"cuzk-bench/1\",\n  \"commit\": ");
    cz__bench_json_str(f, c->commit);
    fprintf(f, ",\n  \"cpu\": ");
    cz__bench_json_str(f, c->cpu);
    fprintf(f, ",\n  \"cores\": %ld,\n  \"cpu_has_adx\": %s,\n  \"adx_path\": %s,\n",
            c->cores, c->cpu_adx ? "true" : "false", c->adx_path ? "true" : "false");
    fprintf(f, "  \"time_utc\": ");
    cz__bench_json_str(f, c->when);
    fprintf(f, ",\n  \"quick\": %s,\n  \"batches\": %d,\n  \"batch_target_ns\": %.0f,\n",
            c->quick ? "true" : "false", b->batches, b->target_ns);
    fprintf(f, "  \"notes\": [");
    for (int i = 0; i < b->nnotes; i++) {
        fprintf(f, "%s\n    ", i ? "," : "");
        cz__bench_json_str(f, b->notes[i]);
    }
    fprintf(f, "%s],\n  \"results\": [", b->nnotes ? "\n  " : "");
    for (int i = 0; i < b->nres; i++) {
        const result *r = &b->res[i];
        fprintf(f, "%s\n    {\"group\": ", i ? "," : "");
        cz__bench_json_str(f, r->group);
        fprintf(f, ", \"op\": ");
        cz__bench_json_str(f, r->op);
        fprintf(f, ", \"ns_median\": %.2f, \"ns_min\": %.2f, \"ns_max\": %.2f, "
                   "\"cpu_ns_median\": %.2f, \"iterations\": %llu, \"batches\": %d, "
                   "\"mode\": \"%s\", \"note\": ",
                r->med, r->min, r->max, r->cpu_med, (unsigned long long)r->iters, r->batches,
                r->once ? "once" : "chain");
        cz__bench_json_str(f, r->note);
        fputc('}', f);
    }
    fprintf(f, "\n  ]\n}\n");
    return fclose(f) == 0 ? 0 : -1;
}

static void print_markdown(const cz_bench *b, const context *c)
{
    printf("\ncommit %s, %s (%ld online), field path %s, %d batches, %s\n", c->commit,
           c->cpu, c->cores, c->adx_path ? "mulx/adx" : "portable", b->batches, c->when);
    int chain = 0, once = 0;
    for (int i = 0; i < b->nres; i++) {
        if (b->res[i].once) once++;
        else chain++;
    }
    if (chain) {
        printf("\n| group | op | median ns | min ns | max ns | CPU-time median ns | iterations | what |\n");
        printf("|---|---|---:|---:|---:|---:|---:|---|\n");
    }
    for (int i = 0; i < b->nres; i++) {
        const result *r = &b->res[i];
        if (r->once) continue;
        printf("| %s | %s | %.1f | %.1f | %.1f | %.1f | %llu | %s |\n", r->group, r->op, r->med,
               r->min, r->max, r->cpu_med, (unsigned long long)r->iters, r->note);
    }
    if (once) {
        printf("\n| group | op | median ms | min ms | max ms | CPU ms (all threads) | runs | what |\n");
        printf("|---|---|---:|---:|---:|---:|---:|---|\n");
    }
    for (int i = 0; i < b->nres; i++) {
        const result *r = &b->res[i];
        if (!r->once) continue;
        printf("| %s | %s | %.2f | %.2f | %.2f | %.2f | %llu | %s |\n", r->group, r->op,
               r->med / 1e6, r->min / 1e6, r->max / 1e6, r->cpu_med / 1e6,
               (unsigned long long)r->iters, r->note);
    }
}

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk-bench [--quick] [--filter SUBSTR] [--batches N] [--reps N]\n"
               "                  [--json FILE] [--markdown]\n"
               "  --filter SUBSTR  run only ops whose group/op name contains SUBSTR\n"
               "  --quick          short batches (smoke test; numbers are rough)\n"
               "  --batches N      timed batches per op (default 31, quick 5)\n"
               "  --reps N         timed runs of a one-shot op (MSM, NTT; default 5, quick 2)\n"
               "  --json FILE      also write the results as JSON\n"
               "  --markdown       also print the results as a Markdown table\n"
               "       cuzk-bench partition --log2 K --count N [--backend cpu|cuda|auto] [--device D]\n"
               "                  [--json FILE] [--seed S] [--threads T]\n"
               "                        prove N partitions of a 2^K synthetic circuit back to back\n"
               "       cuzk-bench waterfall LOG [--svg OUT.svg] [--json OUT.json]\n"
               "       cuzk-bench batch -a ADDR [-c N] [-j N] JOB...\n"
               "       cuzk-bench single -a ADDR JOB\n"
               "       cuzk-bench sweep -a ADDR -j 1,2,4,8 [-c N] [--svg OUT.svg] [--json OUT.json] JOB...\n"
               "       cuzk-bench status | metrics -a ADDR\n"
               "       cuzk-bench preload -a ADDR CIRCUIT_ID...\n"
               "       (daemon subcommands: ADDR unix:///path or host:port, --tls-ca CA.pem for TLS)\n");
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "waterfall"))
        return cz_bench_waterfall_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "batch"))
        return cz_bench_batch_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "single"))
        return cz_bench_single_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "sweep"))
        return cz_bench_sweep_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "status"))
        return cz_bench_status_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "metrics"))
        return cz_bench_metrics_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "preload"))
        return cz_bench_preload_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "partition"))
        return cz_bench_partition_main(argc - 1, argv + 1);
    static cz_bench b;
    const char *json = NULL;
    int quick = 0, batches = 0, markdown = 0, reps = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--markdown")) markdown = 1;
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc) b.filter = argv[++i];
        else if (!strcmp(argv[i], "--batches") && i + 1 < argc) batches = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "cuzk-bench: unknown or incomplete argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    char pmsg[600];
    if (json && cz_out_path_check(json, pmsg, sizeof pmsg)) {
        fprintf(stderr, "cuzk-bench: %s\n", pmsg);
        return 2;
    }
    if (batches < 0 || batches > MAX_BATCHES) {
        fprintf(stderr, "cuzk-bench: --batches must be 1..%d\n", MAX_BATCHES);
        return 2;
    }
    if (reps < 0 || reps > MAX_BATCHES) {
        fprintf(stderr, "cuzk-bench: --reps must be 1..%d\n", MAX_BATCHES);
        return 2;
    }
    b.batches = batches ? batches : quick ? 5 : 31;
    b.reps = reps ? reps : quick ? 2 : 5;
    b.target_ns = quick ? 0.5e6 : 2e6;

    context c;
    memset(&c, 0, sizeof c);
    cpu_model(c.cpu, sizeof c.cpu);
    cz__bench_git_commit(c.commit, sizeof c.commit);
    c.cores = sysconf(_SC_NPROCESSORS_ONLN);
    c.cpu_adx = cz_cpu_has_adx();
    c.adx_path = c.cpu_adx && CZ_HAVE_ADX_ASM;
    c.quick = quick;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(c.when, sizeof c.when, "%Y-%m-%dT%H:%M:%SZ", &tm);

    printf("cuzk-bench  commit %s  %s\n", c.commit, c.when);
    printf("cpu: %s (%ld online)  adx: cpu %s, field path %s\n", c.cpu, c.cores,
           c.cpu_adx ? "yes" : "no", c.adx_path ? "mulx/adx" : "portable");
    printf("%d batches of ~%.0f ms per op; ns/op of dependent chains\n", b.batches,
           b.target_ns / 1e6);
    printf("one-shot ops (msm, ntt): ns per run, median of %d+ runs, CPU = whole process\n\n",
           b.reps);
    printf("%-8s %-20s %12s %12s %12s %12s %11s  %s\n", "group", "op", "median ns", "min ns",
           "max ns", "cpu med ns", "iterations", "note");

    /* stable sort of groups by order (insertion sort; few groups) */
    for (int i = 1; i < ngroups; i++)
        for (int j = i; j > 0 && groups[j - 1].order > groups[j].order; j--) {
            group t = groups[j];
            groups[j] = groups[j - 1];
            groups[j - 1] = t;
        }
    for (int i = 0; i < ngroups; i++) {
        b.group = groups[i].name;
        groups[i].fn(&b);
    }

    if (b.nres == 0) {
        fprintf(stderr, "cuzk-bench: no operation matches the filter '%s'\n",
                b.filter ? b.filter : "");
        return 1;
    }
    if (json && write_json(json, &b, &c) != 0) {
        fprintf(stderr, "cuzk-bench: cannot write %s\n", json);
        return 1;
    }
    if (json) printf("\nwrote %s\n", json);
    if (markdown) print_markdown(&b, &c);
    return 0;
}
