/* cuzk_synth.c — `cuzk synth`: write a synthetic circuit (circuits/synth.h)
 * as DIR/circuit.pce, DIR/witness.bin and DIR/public.json.
 *
 *   cuzk synth --constraints N [--seed S] [--public K] --out DIR [--verify]
 *
 * N is an integer or 2^k, from 2^4 to 2^27 (options parsed by cuzk_args). DIR is created (with its
 * parents) when missing. Progress goes to stderr (cz_cmd_progress_cb: the pass and
 * its constraints, at most every 2 s, none in a run under 2 s); at the end
 * the shape and the time per stage go to stdout. --verify re-checks that the
 * witness satisfies the system before writing. Exit: 0 ok, 1 the witness
 * does not satisfy (only with --verify), 2 bad arguments or I/O errors. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "circuits/synth.h"
#include "util/clock.h"
#include "cmd/cuzk_args.h"
#include "cmd/cuzk_cmds.h"
#include "formats/public_json.h"
#include "formats/witness.h"
#include "r1cs/pce.h"
#include "util/pool.h"

#define MIN_N (1ull << 4)
#define MAX_N (1ull << 27)

/* seconds */
static double now(void) { return cz_now_ms() / 1e3; }

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk synth --constraints N [--seed S] [--public K] --out DIR [--verify]\n"
               "  N: integer or 2^k, 2^4..2^27; S: seed (default 1); K: public inputs, 0..%u (default %u)\n"
               "  writes DIR/circuit.pce, DIR/witness.bin, DIR/public.json\n",
            CZ_SYNTH_MAX_PUBLIC, CZ_SYNTH_DEFAULT_PUBLIC);
}

int cz_cmd_synth(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { usage(stdout); return 0; }
    cz_arg opts[] = {
        {.name = "constraints", .required = 1}, {.name = "out", .required = 1}, {.name = "seed"},
        {.name = "public"}, {.name = "verify", .is_flag = 1},
    };
    const int nopts = (int)(sizeof opts / sizeof *opts);
    if (cz_args_parse("synth", argc, argv, opts, nopts)) { usage(stderr); return 2; }
    uint64_t n = 0, seed = 1, npub = CZ_SYNTH_DEFAULT_PUBLIC;
    const char *v_n = cz_args_get(opts, nopts, "constraints"), *v_seed = cz_args_get(opts, nopts, "seed"),
               *v_pub = cz_args_get(opts, nopts, "public"), *out = cz_args_get(opts, nopts, "out");
    int verify = cz_args_get(opts, nopts, "verify") != NULL;
    if (cz_args_u64(v_n, &n) || n < MIN_N || n > MAX_N) {
        fprintf(stderr, "cuzk synth: --constraints '%s': want an integer or 2^k from 2^4 to 2^27\n", v_n);
        return 2;
    }
    if (v_seed && cz_args_u64(v_seed, &seed)) {
        fprintf(stderr, "cuzk synth: --seed '%s' is not a number\n", v_seed);
        return 2;
    }
    if (v_pub && (cz_args_u64(v_pub, &npub) || npub > CZ_SYNTH_MAX_PUBLIC)) {
        fprintf(stderr, "cuzk synth: --public '%s': want 0..%u\n", v_pub, CZ_SYNTH_MAX_PUBLIC);
        return 2;
    }
    if (!*out) {
        fprintf(stderr, "cuzk synth: --out is empty\n");
        return 2;
    }
    if (cz_cmd_mkdirs(out) != 0) {
        fprintf(stderr, "cuzk synth: cannot create directory %s: %s\n", out, strerror(errno));
        return 2;
    }
    size_t plen = strlen(out) + 32;
    char *p_pce = malloc(plen), *p_wit = malloc(plen), *p_pub = malloc(plen);
    if (!p_pce || !p_wit || !p_pub) { fprintf(stderr, "cuzk synth: out of memory\n"); return 2; }
    snprintf(p_pce, plen, "%s/circuit.pce", out);
    snprintf(p_wit, plen, "%s/witness.bin", out);
    snprintf(p_pub, plen, "%s/public.json", out);

    int rc = 2;
    char msg[512];
    cz_r1cs r;
    cz_fr *w = NULL;
    cz_synth_params prm;
    cz_synth_params_init(&prm);
    prm.n_constraints = n;
    prm.seed = seed;
    prm.n_public = (unsigned)npub;
    cz_cmd_progress pr; /* "cuzk synth: build 1048576 of 4194304 (25 %), 3.1 s", at most every 2 s */
    cz_cmd_progress_init(&pr, "synth");
    prm.progress = cz_cmd_progress_cb;
    prm.progress_ctx = &pr;
    double t0 = now();
    if (cz_synth_generate(&r, &w, &prm, msg, sizeof msg)) {
        fprintf(stderr, "cuzk synth: %s\n", msg);
        goto done;
    }
    double t_gen = now() - t0, t_ver = 0;
    if (verify) {
        cz_pool *pool = NULL;
        cz_pool_create(&pool, 0); /* NULL pool on failure: runs serially */
        t0 = now();
        uint64_t bad = 0;
        int ok = cz_r1cs_is_satisfied(&r, w, &bad, pool);
        t_ver = now() - t0;
        cz_pool_destroy(pool);
        if (!ok) {
            fprintf(stderr, "cuzk synth: witness fails constraint %llu\n", (unsigned long long)bad);
            rc = 1;
            goto done;
        }
    }
    t0 = now();
    if (cz_pce_write(p_pce, &r, msg, sizeof msg)) { fprintf(stderr, "cuzk synth: %s\n", msg); goto done; }
    double t_pce = now() - t0;
    t0 = now();
    if (cz_witness_write(p_wit, w, r.n_vars, r.n_inputs, msg, sizeof msg)) {
        fprintf(stderr, "cuzk synth: %s\n", msg);
        goto done;
    }
    double t_wit = now() - t0;
    t0 = now();
    if (cz_public_json_write(p_pub, w + 1, r.n_inputs - 1, msg, sizeof msg)) {
        fprintf(stderr, "cuzk synth: %s\n", msg);
        goto done;
    }
    double t_pub = now() - t0;

    uint64_t nnz = r.m[0].nnz + r.m[1].nnz + r.m[2].nnz, bits = 0;
    for (uint64_t v = r.n_inputs; v < r.n_vars; v++) bits += cz_fr_is_zero(&w[v]) || cz_fr_is_one(&w[v]);
    struct stat st;
    double pce_bytes = stat(p_pce, &st) == 0 ? (double)st.st_size : 0;
    double dn = (double)n;
    printf("synth: %llu constraints (seed %llu), %llu variables: %llu inputs incl. ONE, %llu aux (%.1f%% bits)\n",
           (unsigned long long)n, (unsigned long long)seed, (unsigned long long)r.n_vars,
           (unsigned long long)r.n_inputs, (unsigned long long)(r.n_vars - r.n_inputs),
           r.n_vars > r.n_inputs ? 100.0 * (double)bits / (double)(r.n_vars - r.n_inputs) : 0.0);
    printf("synth: non-zeros per constraint A %.3f  B %.3f  C %.3f  (%llu in all; prover adds %llu input constraints)\n",
           (double)r.m[0].nnz / dn, (double)r.m[1].nnz / dn, (double)r.m[2].nnz / dn, (unsigned long long)nnz,
           (unsigned long long)r.n_inputs);
    printf("synth: %s: %.0f bytes, %.2f bytes per non-zero (A %.2f  B %.2f  C %.2f in memory)\n", p_pce, pce_bytes,
           pce_bytes / (double)nnz, cz_csr_bytes_per_nnz(&r.m[0]), cz_csr_bytes_per_nnz(&r.m[1]),
           cz_csr_bytes_per_nnz(&r.m[2]));
    printf("synth: time generate %.3f s (%.2f M constraints/s)", t_gen, dn / t_gen / 1e6);
    if (verify) printf(", verify %.3f s", t_ver);
    printf(", write pce %.3f s, write witness %.3f s, write public.json %.3f s\n", t_pce, t_wit, t_pub);
    rc = 0;
done:
    if (w) {
        cz_r1cs_free(&r);
        free(w);
    }
    free(p_pce);
    free(p_wit);
    free(p_pub);
    return rc;
}
