/* cuzk_args.c — option parsing and the small helpers every subcommand uses
 * (see cuzk_args.h). */
#include "cmd/cuzk_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "groth16/groth16.h"
#include "util/clock.h"
#include "util/outpath.h"

int cz_args_parse(const char *cmd, int argc, char **argv, cz_arg *opts, int nopts)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "cuzk %s: unexpected argument '%s'\n", cmd, a);
            return 2;
        }
        cz_arg *o = NULL;
        for (int k = 0; k < nopts; k++)
            if (!strcmp(opts[k].name, a + 2)) o = &opts[k];
        if (!o) {
            fprintf(stderr, "cuzk %s: unknown option '%s'\n", cmd, a);
            return 2;
        }
        if (o->value) {
            fprintf(stderr, "cuzk %s: option '%s' given twice\n", cmd, a);
            return 2;
        }
        if (o->is_flag) {
            o->value = "1";
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "cuzk %s: option '%s' needs a value\n", cmd, a);
            return 2;
        }
        o->value = argv[++i];
    }
    for (int k = 0; k < nopts; k++)
        if (opts[k].required && !opts[k].value) {
            fprintf(stderr, "cuzk %s: missing --%s\n", cmd, opts[k].name);
            return 2;
        }
    return 0;
}

const char *cz_args_get(const cz_arg *opts, int nopts, const char *name)
{
    for (int k = 0; k < nopts; k++)
        if (!strcmp(opts[k].name, name)) return opts[k].value;
    return NULL;
}

int cz_args_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-') return -1;
    if (!strncmp(s, "2^", 2)) {
        char *end;
        errno = 0;
        unsigned long k = strtoul(s + 2, &end, 10);
        if (errno || *end || end == s + 2 || k > 63) return -1;
        *out = (uint64_t)1 << k;
        return 0;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end || end == s) return -1;
    *out = v;
    return 0;
}

void cz_cmd_stage(const char *name, double ms) { printf("  %-28s %10.1f ms\n", name, ms); }

int cz_cmd_err(const char *cmd, const char *msg)
{
    fprintf(stderr, "cuzk %s: %s\n", cmd, msg);
    return 2;
}

int cz_cmd_threads(const char *cmd, const char *threads, unsigned *n)
{
    uint64_t v = 0;
    if (threads && (cz_args_u64(threads, &v) || v > 4096)) {
        fprintf(stderr, "cuzk %s: bad --threads '%s'\n", cmd, threads);
        return 2;
    }
    *n = (unsigned)v;
    return 0;
}

int cz_cmd_pool(const char *cmd, const char *threads, cz_pool **pool)
{
    unsigned n;
    int rc = cz_cmd_threads(cmd, threads, &n);
    if (rc) return rc;
    if (cz_pool_create(pool, n)) return cz_cmd_err(cmd, "cannot start worker threads");
    return 0;
}

int cz_cmd_backend(const char *cmd, const char *backend, const char *device, unsigned threads, cz_be **out)
{
    char msg[512];
    cz_backend_opts bo = {0};
    *out = NULL;
    if (cz_backend_parse(backend ? backend : "auto", &bo.kind, msg, sizeof msg)) return cz_cmd_err(cmd, msg);
    uint64_t dev = 0;
    if (device && (cz_args_u64(device, &dev) || dev > 1024)) {
        fprintf(stderr, "cuzk %s: bad --device '%s' (a CUDA device index)\n", cmd, device);
        return 2;
    }
    bo.device = (int)dev;
    bo.threads = threads;
    if (cz_be_open(out, &bo, msg, sizeof msg)) return cz_cmd_err(cmd, msg);
    return 0;
}

void cz_cmd_prove_stages(const cz_be *b, const cz_groth16_timings *t, int zkey)
{
    printf("  backend: %s%s\n", cz_be_name(b), t->on_cpu ? " (this proof fell back to the CPU)" : "");
    if (t->upload_ms > 0 || t->h2d_bytes) {
        cz_cmd_stage("prove: upload witness", t->upload_ms);
        printf("  %-28s %10.1f MiB\n", "prove: host -> device", (double)t->h2d_bytes / (1 << 20));
        if (t->stage)
            printf("  %-28s %10.1f MiB (%s)\n", "prove: staged before kernels", (double)t->staged_bytes / (1 << 20),
                   cz_groth16_stage_name(t->stage));
    }
    cz_cmd_stage(zkey ? "prove: a, b, c (SpMV)" : "prove: A/B/C = SpMV", t->spmv_ms);
    cz_cmd_stage("prove: H (6 NTTs)", t->ntt_ms);
    if (t->msm_h_ms > 0 || t->msm_l_ms > 0) {
        cz_cmd_stage(zkey ? "prove: MSM H" : "prove: MSM h", t->msm_h_ms);
        cz_cmd_stage(zkey ? "prove: MSM C" : "prove: MSM l", t->msm_l_ms);
    }
    cz_cmd_stage(zkey ? "prove: MSM H + C" : "prove: MSM h + l", t->msm_hl_ms);
    cz_cmd_stage(zkey ? "prove: MSM A" : "prove: MSM a", t->msm_a_ms);
    cz_cmd_stage(zkey ? "prove: MSM B (G1)" : "prove: MSM b (G1)", t->msm_b1_ms);
    cz_cmd_stage(zkey ? "prove: MSM B (G2)" : "prove: MSM b (G2)", t->msm_b2_ms);
    cz_cmd_stage("prove: total", t->total_ms);
}

int cz_cmd_outs(const char *cmd, int n, const char *const *paths)
{
    char msg[600];
    for (int i = 0; i < n; i++)
        if (paths[i] && cz_out_path_check(paths[i], msg, sizeof msg)) return cz_cmd_err(cmd, msg);
    return 0;
}

void cz_cmd_progress_init(cz_cmd_progress *p, const char *cmd)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->t0 = p->last = cz_now_ms();
}

void cz_cmd_progress_cb(void *ctx, const char *stage, uint64_t done, uint64_t total)
{
    cz_cmd_progress *p = ctx;
    double t = cz_now_ms();
    if (strncmp(p->stage, stage, sizeof p->stage - 1)) {
        snprintf(p->stage, sizeof p->stage, "%s", stage);
        p->stage_printed = 0;
    }
    int last = done >= total;
    if (!(last && p->stage_printed) && t - p->last < 2000) return;
    p->last = t;
    p->stage_printed = !last;
    fprintf(stderr, "cuzk %s: %s %llu of %llu (%.0f %%), %.1f s\n", p->cmd, stage, (unsigned long long)done,
            (unsigned long long)total, total ? 100.0 * (double)done / (double)total : 100.0, (t - p->t0) / 1e3);
}

int cz_cmd_mkdirs(const char *path)
{
    size_t n = strlen(path);
    char *p = malloc(n + 1);
    if (!p) return -1;
    memcpy(p, path, n + 1);
    int rc = 0;
    for (size_t i = 1; i <= n && !rc; i++) {
        if (p[i] != '/' && p[i] != 0) continue;
        char c = p[i];
        p[i] = 0;
        if (mkdir(p, 0755) != 0 && errno != EEXIST) rc = -1;
        p[i] = c;
    }
    struct stat st;
    if (!rc && (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))) {
        errno = ENOTDIR;
        rc = -1;
    }
    free(p);
    return rc;
}

int cz_cmd_randomness(const char *cmd, int fixed_seed, uint64_t seed, cz_fr *r, cz_fr *s)
{
    if (fixed_seed) {
        cz_rng rng;
        cz_rng_seed(&rng, seed);
        cz_fr_random(r, &rng);
        cz_fr_random(s, &rng);
        printf("  (fixed-seed mode: r, s from seed %llu; the proof is reproducible and not zero-knowledge)\n",
               (unsigned long long)seed);
        return 0;
    }
    if (cz_groth16_random_fr(r) || cz_groth16_random_fr(s)) return cz_cmd_err(cmd, "no OS randomness");
    return 0;
}
