/* cuzk_args.c — option parsing and the small helpers every subcommand uses
 * (see cuzk_args.h). */
#include "cmd/cuzk_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "groth16/groth16.h"

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

int cz_cmd_pool(const char *cmd, const char *threads, cz_pool **pool)
{
    uint64_t n = 0;
    if (threads && (cz_args_u64(threads, &n) || n > 4096)) {
        fprintf(stderr, "cuzk %s: bad --threads '%s'\n", cmd, threads);
        return 2;
    }
    if (cz_pool_create(pool, (unsigned)n)) return cz_cmd_err(cmd, "cannot start worker threads");
    return 0;
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
