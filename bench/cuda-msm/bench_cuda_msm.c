/* bench_cuda_msm.c — cuzk-cuda-msm-bench: the device MSM (cz_cuda_msm.h) on
 * random and Filecoin-shaped scalars, G1 and G2, with points and scalars
 * already on the device; medians of --reps timed calls after one warm-up,
 * a table on stdout and JSON with every sample (--json FILE).
 *
 * Bases: min(n, 2^20) distinct points (2^18 on G2) made by additions and
 * repeated to fill n (so that building them does not dominate the run; the
 * repeated block is larger than the L2 cache). Random scalars are uniform
 * below r; Filecoin-shaped ones are 44 % zero, 44 % one, 6 % 32-bit values
 * and 6 % random, like the witness `cuzk synth` makes (close to nine in ten
 * auxiliary variables bits), given in Montgomery form as the prover holds
 * them.
 *
 * --copies-sizes (each also in --sizes) times the G1 MSM through window
 * copies of the bases (cz_cuda_msm_g1_copies) on the same scalars as the
 * plain G1 row of that size, checking that both sums agree, and the making
 * of the table once (row g1-copies-make): a block a window by default,
 * or with --copies-max K the fewest blocks (at most K) of least cost
 * (cz_cuda_msm_copies_plan_max; CZ_MSM_COPIES_C=c holds it to one c).
 *
 * --sppark LIB.so loads a side-by-side harness built outside the repository
 * (a function sppark_g1_bench(points, n, scalars, reps, ms[], result)) and
 * times it on the same G1 inputs in the same process, checking that both
 * sums agree.
 *
 * Usage: cuzk-cuda-msm-bench [--sizes 20,22,24,26] [--reps 7]
 *        [--fc-sizes 24,26] [--g2-sizes 24] [--copies-sizes 22,24]
 *        [--copies-max K] [--json FILE] [--sppark LIB.so]
 * (each list: log2 sizes 1..28, comma-separated; "none" or "" for none;
 * reps 1..64; a bad argument or an unwritable --json exits 2 at once) */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuda/cz_cuda_msm.h"
#include "util/outpath.h"
#include "util/rng.h"

#define MAX_REPS 64
/* at most 8 sizes a list: random (8), its copies and their making (16),
 * sppark (8), Filecoin-shaped (8), G2 (8) */
#define MAX_ROWS 48

typedef int (*sppark_fn)(const void *, size_t, const void *, int, double *, void *);

typedef struct {
    char what[32];
    int lg;
    double ms[MAX_REPS];
    int reps;
    double median;
    int c, nw;
    size_t ones, general;
    int agree; /* -1 not checked, 0 differ, 1 agree */
} row_t;

static row_t rows[MAX_ROWS];
static int nrows;

/* the next row of the table, named and sized, nothing measured yet */
static row_t *new_row(const char *what, int lg, int reps)
{
    row_t *r = &rows[nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->what, sizeof r->what, "%s", what);
    r->lg = lg;
    r->reps = reps;
    r->agree = -1;
    return r;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
    double s[MAX_REPS];
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_d);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* a comma-separated list of sizes (log2, 1..28; "" or "none" is an empty
 * list): how many, or -1 for anything else */
static int parse_list(const char *s, int *out, int max)
{
    int n = 0;
    if (!strcmp(s, "none")) return 0;
    while (*s) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > 28 || n == max || (*end && *end != ',')) return -1;
        out[n++] = (int)v;
        s = *end ? end + 1 : end;
    }
    return n;
}

static void scalars_random(cz_fr *k, size_t n, cz_rng *rng)
{
    for (size_t i = 0; i < n; i++) {
        for (int l = 0; l < 3; l++) k[i].l[l] = cz_rng_u64(rng);
        k[i].l[3] = cz_rng_u64(rng) % cz_fr_modulus.l[3]; /* below r */
    }
}

static void scalars_filecoin(cz_fr *k, size_t n, cz_rng *rng)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = cz_rng_u64(rng) % 100;
        if (r < 44) cz_fr_zero(&k[i]);
        else if (r < 88) cz_fr_one(&k[i]);
        else if (r < 94) cz_fr_from_u64(&k[i], cz_rng_u64(rng) & 0xffffffffULL);
        else scalars_random(&k[i], 1, rng);
    }
}

#define DEFINE_BASES(G, DISTINCT)                                                     \
    static cz_##G##_aff *bases_##G(size_t n, cz_rng *rng)                            \
    {                                                                               \
        size_t d = n < DISTINCT ? n : DISTINCT;                                      \
        cz_##G##_aff *b = malloc(n * sizeof *b);                                    \
        cz_##G##_jac *j = malloc(d * sizeof *j), g, t;                              \
        cz_##G##_aff qa;                                                            \
        if (!b || !j) { fprintf(stderr, "out of memory\n"); exit(1); }              \
        uint64_t s1[4] = {cz_rng_u64(rng), cz_rng_u64(rng), cz_rng_u64(rng), 3};     \
        uint64_t s2[4] = {cz_rng_u64(rng), cz_rng_u64(rng), cz_rng_u64(rng), 5};     \
        cz_##G##_generator_jac(&g);                                                 \
        cz_##G##_mul(&t, &g, s2, 256);                                              \
        cz_##G##_to_aff(&qa, &t);                                                   \
        cz_##G##_mul(&t, &g, s1, 256);                                              \
        for (size_t i = 0; i < d; i++) {                                            \
            j[i] = t;                                                               \
            cz_##G##_add_mixed(&t, &t, &qa);                                        \
        }                                                                           \
        cz_##G##_batch_to_aff(b, j, d);                                             \
        for (size_t i = d; i < n; i++) b[i] = b[i % d];                             \
        free(j);                                                                    \
        return b;                                                                   \
    }
DEFINE_BASES(g1, ((size_t)1 << 20))
DEFINE_BASES(g2, ((size_t)1 << 18))

static void fail(const char *what, const char *msg)
{
    fprintf(stderr, "cuzk-cuda-msm-bench: %s: %s\n", what, msg);
    exit(1);
}

/* times our MSM on device-resident bases and scalars (G1 through window
 * copies when table is set: c and copies describe it) */
static row_t *time_ours(cz_cuda_msm *ctx, const char *what, int lg, int g2, const void *dbases, const cz_fr *dk,
                        size_t n, int reps, void *result, const cz_g1_aff *table, int c, int copies)
{
    char msg[256];
    row_t *r = new_row(what, lg, reps);
    for (int i = -1; i < reps; i++) {
        double t0 = now_ms();
        cz_err e = g2      ? cz_cuda_msm_g2(ctx, (cz_g2_jac *)result, dbases, dk, n, 1, NULL, msg, sizeof msg)
                   : table ? cz_cuda_msm_g1_copies(ctx, (cz_g1_jac *)result, table, n, c, copies, dk, n, 1, NULL, msg,
                                                   sizeof msg)
                           : cz_cuda_msm_g1(ctx, (cz_g1_jac *)result, dbases, dk, n, 1, NULL, msg, sizeof msg);
        double t1 = now_ms();
        if (e) fail(what, msg);
        if (i >= 0) r->ms[i] = t1 - t0;
    }
    r->median = median(r->ms, reps);
    cz__cuda_msm_last(ctx, &r->c, &r->nw, NULL, &r->ones, &r->general);
    printf("  %-14s 2^%d  %9.2f ms  (c=%d, %d windows, %zu ones, %zu general%s)\n", what, lg, r->median, r->c,
           r->nw, r->ones, r->general,
           !table ? "" : cz__cuda_msm_last_copies(ctx) ? ", through the copies" : ", copies not used");
    fflush(stdout);
    return r;
}

int main(int argc, char **argv)
{
    int sizes[8] = {20, 22, 24, 26}, nsizes = 4, fc[8] = {24, 26}, nfc = 2, g2s[8] = {24}, ng2 = 1, reps = 7;
    int cps[8] = {22, 24}, ncps = 2, cps_given = 0, cmax = 0;
    const char *json = NULL, *sppark = NULL;
    for (int i = 1; i < argc; i++) {
        int unknown = 0;
        if (!strcmp(argv[i], "--sizes") && i + 1 < argc) nsizes = parse_list(argv[++i], sizes, 8);
        else if (!strcmp(argv[i], "--fc-sizes") && i + 1 < argc) nfc = parse_list(argv[++i], fc, 8);
        else if (!strcmp(argv[i], "--g2-sizes") && i + 1 < argc) ng2 = parse_list(argv[++i], g2s, 8);
        else if (!strcmp(argv[i], "--copies-sizes") && i + 1 < argc) {
            ncps = parse_list(argv[++i], cps, 8);
            cps_given = 1;
        }
        else if (!strcmp(argv[i], "--copies-max") && i + 1 < argc) {
            cmax = atoi(argv[++i]);
            if (cmax < 2 || cmax > 256) unknown = 1;
        }
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!strcmp(argv[i], "--sppark") && i + 1 < argc) sppark = argv[++i];
        else unknown = 1;
        if (unknown || nsizes < 0 || nfc < 0 || ng2 < 0 || ncps < 0) {
            fprintf(stderr, "usage: %s [--sizes 20,22,24,26] [--fc-sizes 24,26] [--g2-sizes 24] "
                            "[--copies-sizes 22,24] [--copies-max K] [--reps 7] [--json FILE] [--sppark LIB.so]\n"
                            "  (sizes: log2 of n, 1..28, up to 8 a list, '' or none for none; copies sizes among "
                            "--sizes; --copies-max: tables of at most K blocks, 2..256, the plan's fewest blocks "
                            "of least cost; reps 1..%d)\n", argv[0], MAX_REPS);
            return 2;
        }
    }
    /* a copies size must be a random size: its row reuses those scalars
     * (the default list keeps those of its sizes that are) */
    int with_copies[8] = {0};
    for (int i = 0; i < ncps; i++) {
        int found = 0;
        for (int j = 0; j < nsizes; j++)
            if (sizes[j] == cps[i]) found = with_copies[j] = 1;
        if (!found && cps_given) {
            fprintf(stderr, "%s: --copies-sizes 2^%d is not among --sizes\n", argv[0], cps[i]);
            return 2;
        }
    }
    if (reps < 1 || reps > MAX_REPS) {
        fprintf(stderr, "%s: --reps is 1..%d\n", argv[0], MAX_REPS);
        return 2;
    }
    char pmsg[600];
    if (json && cz_out_path_check(json, pmsg, sizeof pmsg)) {
        fprintf(stderr, "%s: %s\n", argv[0], pmsg);
        return 2;
    }
    if (cz_cuda_device_count() < 1) {
        printf("cuzk-cuda-msm-bench: SKIP (no CUDA device)\n");
        return 0;
    }
    sppark_fn sp = NULL;
    if (sppark) {
        void *h = dlopen(sppark, RTLD_NOW);
        if (!h || !(sp = (sppark_fn)dlsym(h, "sppark_g1_bench"))) fail("sppark harness", dlerror());
    }
    char msg[256];
    cz_cuda_msm *ctx;
    if (cz_cuda_msm_create(&ctx, 0, msg, sizeof msg)) fail("create", msg);
    cz_rng rng;
    cz_rng_seed(&rng, 20261201);
    int maxlg = 0;
    for (int i = 0; i < nsizes; i++) maxlg = sizes[i] > maxlg ? sizes[i] : maxlg;
    for (int i = 0; i < nfc; i++) maxlg = fc[i] > maxlg ? fc[i] : maxlg;
    size_t nmax = (size_t)1 << maxlg;

    /* ---- G1 ---- */
    printf("cuzk-cuda-msm-bench: G1 bases and scalars for 2^%d\n", maxlg);
    fflush(stdout);
    cz_g1_aff *b1 = bases_g1(nmax, &rng);
    cz_fr *k = malloc(nmax * sizeof *k);
    if (!k) fail("host", "out of memory");
    void *db = NULL, *dk = NULL;
    if (cz_cuda_msm_upload(ctx, &db, b1, nmax * sizeof *b1, msg, sizeof msg)) fail("upload", msg);
    for (int i = 0; i < nsizes; i++) {
        size_t n = (size_t)1 << sizes[i];
        scalars_random(k, n, &rng);
        if (cz_cuda_msm_upload(ctx, &dk, k, n * sizeof *k, msg, sizeof msg)) fail("upload", msg);
        cz_g1_jac ours, theirs;
        row_t *r = time_ours(ctx, "g1-random", sizes[i], 0, db, dk, n, reps, &ours, NULL, 0, 0);
        if (with_copies[i]) {
            int copies = 0;
            int c = cmax ? cz_cuda_msm_copies_plan_max(n, cmax, &copies) : cz_cuda_msm_copies_plan(n, &copies);
            cz_g1_aff *table = NULL;
            double t0 = now_ms();
            if (!c) {
                printf("  %-14s 2^%d  skipped: no table of at most %d blocks pays\n", "g1-copies", sizes[i], cmax);
            } else if (cz_cuda_msm_g1_copies_make(ctx, &table, db, n, c, copies, msg, sizeof msg)) {
                /* no room for the table (copies x the bases): say so, go on */
                printf("  %-14s 2^%d  skipped: %s\n", "g1-copies", sizes[i], msg);
            } else {
                row_t *mk = new_row("g1-copies-make", sizes[i], 1);
                mk->ms[0] = mk->median = now_ms() - t0;
                mk->c = c;
                mk->nw = copies;
                printf("  %-14s 2^%d  %9.2f ms  (c=%d, %d copies: %.1f GB)\n", "g1-copies-make", sizes[i],
                       mk->median, c, copies, (double)copies * n * sizeof(cz_g1_aff) / 1e9);
                cz_g1_jac via;
                row_t *cr = time_ours(ctx, "g1-copies", sizes[i], 0, NULL, dk, n, reps, &via, table, c, copies);
                cr->agree = cz_g1_eq(&ours, &via);
                if (!cr->agree) fail("g1-copies", "the sum through window copies differs from the plain MSM's");
                cz_cuda_msm_free(ctx, table);
            }
        }
        cz_cuda_msm_free(ctx, dk);
        if (sp) {
            row_t *s = new_row("sppark-g1", sizes[i], reps);
            int e = sp(b1, n, k, reps, s->ms, &theirs);
            if (e) {
                fprintf(stderr, "sppark harness failed at 2^%d: code %d\n", sizes[i], e);
                nrows--;
            } else {
                s->median = median(s->ms, reps);
                s->agree = r->agree = cz_g1_eq(&ours, &theirs);
                printf("  %-14s 2^%d  %9.2f ms  (sums %s)\n", "sppark-g1", sizes[i], s->median,
                       s->agree ? "agree" : "DIFFER");
                fflush(stdout);
            }
        }
    }
    for (int i = 0; i < nfc; i++) {
        size_t n = (size_t)1 << fc[i];
        scalars_filecoin(k, n, &rng);
        if (cz_cuda_msm_upload(ctx, &dk, k, n * sizeof *k, msg, sizeof msg)) fail("upload", msg);
        cz_g1_jac out;
        time_ours(ctx, "g1-filecoin", fc[i], 0, db, dk, n, reps, &out, NULL, 0, 0);
        cz_cuda_msm_free(ctx, dk);
    }
    cz_cuda_msm_free(ctx, db);
    free(b1);

    /* ---- G2 ---- */
    for (int i = 0; i < ng2; i++) {
        size_t n = (size_t)1 << g2s[i];
        printf("cuzk-cuda-msm-bench: G2 bases and scalars for 2^%d\n", g2s[i]);
        fflush(stdout);
        cz_g2_aff *b2 = bases_g2(n, &rng);
        cz_fr *k2 = n <= nmax ? k : malloc(n * sizeof *k2);
        if (!k2) fail("host", "out of memory");
        scalars_random(k2, n, &rng);
        if (cz_cuda_msm_upload(ctx, &db, b2, n * sizeof *b2, msg, sizeof msg)) fail("upload", msg);
        if (cz_cuda_msm_upload(ctx, &dk, k2, n * sizeof *k2, msg, sizeof msg)) fail("upload", msg);
        cz_g2_jac out;
        time_ours(ctx, "g2-random", g2s[i], 1, db, dk, n, reps, &out, NULL, 0, 0);
        cz_cuda_msm_free(ctx, dk);
        cz_cuda_msm_free(ctx, db);
        if (k2 != k) free(k2);
        free(b2);
    }
    free(k);
    cz_cuda_msm_destroy(ctx);

    /* ---- table ---- */
    printf("\n%-14s %5s %10s %10s %8s\n", "msm", "n", "ms", "sppark ms", "ratio");
    for (int i = 0; i < nrows; i++) {
        row_t *r = &rows[i];
        if (!strcmp(r->what, "sppark-g1")) continue;
        double sp_ms = 0;
        for (int j = 0; j < nrows; j++)
            if (!strcmp(rows[j].what, "sppark-g1") && rows[j].lg == r->lg &&
                (!strcmp(r->what, "g1-random") || !strcmp(r->what, "g1-copies")))
                sp_ms = rows[j].median;
        if (sp_ms > 0)
            printf("%-14s 2^%-3d %10.2f %10.2f %8.2f\n", r->what, r->lg, r->median, sp_ms, r->median / sp_ms);
        else printf("%-14s 2^%-3d %10.2f %10s %8s\n", r->what, r->lg, r->median, "-", "-");
    }
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) fail("json", json);
        fprintf(f, "{\"bench\":\"cuda-msm\",\"reps\":%d,\"rows\":[", reps);
        for (int i = 0; i < nrows; i++) {
            row_t *r = &rows[i];
            fprintf(f, "%s\n{\"what\":\"%s\",\"log2n\":%d,\"median_ms\":%.3f,\"window\":%d,\"windows\":%d,"
                       "\"ones\":%zu,\"general\":%zu,\"agree\":%d,\"ms\":[",
                    i ? "," : "", r->what, r->lg, r->median, r->c, r->nw, r->ones, r->general, r->agree);
            for (int j = 0; j < r->reps; j++) fprintf(f, "%s%.3f", j ? "," : "", r->ms[j]);
            fprintf(f, "]}");
        }
        fprintf(f, "\n]}\n");
        fclose(f);
    }
    return 0;
}
