/* bench_synth.c — one synthetic partition's synthesis, as the engine makes
 * it (circuits/synth.h, engine/circuit.c), on one core.
 *
 * For the circuit of 2^K rows (synth-K: 2^K - 4 constraints, 3 inputs,
 * seed 1; K = 16, 20, 22; only the sizes the filter selects are set up),
 * one-shot rows:
 *   generate_2^K  cz_synth_generate: the constraint system (CSR) and the
 *                 full witness, then both freed (what the engine ran per
 *                 partition before it made witnesses without the system;
 *                 it freed them on its background thread, so its synth_ms
 *                 did not count the frees: here they are counted, and the
 *                 note says how much of a run they took);
 *   witness_2^K   cz_synth_witness into a fresh cz_synth_witness_alloc of
 *                 n_vars Fr (the full witness, one pass), freed;
 *   compact_2^K   cz_synth_witness_compact into a fresh one of
 *                 cz_wbits_len Fr (the compact form the engine proves
 *                 with cz_be_prove_bits), freed.
 * Fresh memory each run, as each engine partition gets: the first touch of
 * its pages is part of the cost. The rows give the wall and the process CPU
 * time per run; a note gives each form's bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "backend/wbits.h"
#include "circuits/synth.h"

typedef struct {
    cz_synth_params sp;
    uint64_t n_vars;
    cz_wbits_map map;
    int ok;
    double free_ns, free_cpu_ns; /* generate: the frees, summed over its runs */
    uint64_t free_runs;
} s_state;

static double ns_of(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void run_generate(void *p, uint64_t iters)
{
    s_state *s = p;
    char msg[256];
    for (uint64_t i = 0; i < iters; i++) {
        cz_r1cs r;
        cz_fr *w = NULL;
        s->sp.witness_seed++;
        int bad = cz_synth_generate(&r, &w, &s->sp, msg, sizeof msg) != CZ_OK;
        double t0 = ns_of(CLOCK_MONOTONIC), c0 = ns_of(CLOCK_PROCESS_CPUTIME_ID);
        if (bad) s->ok = 0;
        else cz_r1cs_free(&r);
        free(w);
        s->free_ns += ns_of(CLOCK_MONOTONIC) - t0;
        s->free_cpu_ns += ns_of(CLOCK_PROCESS_CPUTIME_ID) - c0;
        s->free_runs++;
    }
}

static void run_witness(void *p, uint64_t iters)
{
    s_state *s = p;
    char msg[256];
    for (uint64_t i = 0; i < iters; i++) {
        cz_fr *w = cz_synth_witness_alloc(s->n_vars);
        s->sp.witness_seed++;
        if (!w || cz_synth_witness(w, s->n_vars, &s->sp, msg, sizeof msg)) s->ok = 0;
        free(w);
    }
}

static void run_compact(void *p, uint64_t iters)
{
    s_state *s = p;
    char msg[256];
    const cz_wbits_map *m = &s->map;
    for (uint64_t i = 0; i < iters; i++) {
        cz_fr *c = cz_synth_witness_alloc(cz_wbits_len(m));
        s->sp.witness_seed++;
        if (!c || cz_synth_witness_compact(c, m->n_fields, cz_wbits_bits(m, c), m->n_bits, &s->sp, msg, sizeof msg))
            s->ok = 0;
        free(c);
    }
}

static void one_size(cz_bench *b, int k)
{
    char gen[32], wit[32], cmp[32], msg[256];
    snprintf(gen, sizeof gen, "generate_2^%d", k);
    snprintf(wit, sizeof wit, "witness_2^%d", k);
    snprintf(cmp, sizeof cmp, "compact_2^%d", k);
    if (!cz__bench_wants(b, gen) && !cz__bench_wants(b, wit) && !cz__bench_wants(b, cmp)) return;
    s_state s;
    memset(&s, 0, sizeof s);
    cz_synth_params_init(&s.sp);
    s.sp.n_constraints = ((uint64_t)1 << k) - 4; /* the engine's synth-K: 3 inputs + ONE */
    s.sp.n_public = 3;
    s.sp.witness_seed = 1;
    /* the variable count and the bit map, untimed */
    cz_r1cs r;
    cz_fr *w = NULL;
    if (cz_synth_generate(&r, &w, &s.sp, msg, sizeof msg)) {
        cz__bench_note(b, "synth 2^%d: %s", k, msg);
        return;
    }
    s.n_vars = r.n_vars;
    uint64_t *mask = calloc((s.n_vars + 63) / 64, sizeof *mask);
    int mok = mask && !cz_synth_bit_mask(mask, s.n_vars, &s.sp, msg, sizeof msg) &&
              !cz_wbits_map_init(&s.map, mask, s.n_vars, r.n_inputs, msg, sizeof msg);
    uint64_t csr = 0;
    for (int m = 0; m < 3; m++) csr += (r.m[m].n_rows + 1) * 8 + r.m[m].nnz * (4 + r.m[m].cidx_bytes);
    cz_r1cs_free(&r);
    free(w);
    free(mask);
    if (!mok) {
        cz__bench_note(b, "synth 2^%d: no bit map: %s", k, msg);
        return;
    }
    s.ok = 1;
    cz__bench_once(b, gen, "system (CSR) + full witness, freed", run_generate, &s);
    cz__bench_once(b, wit, "full witness only, one pass", run_witness, &s);
    cz__bench_once(b, cmp, "compact witness (bits as bits)", run_compact, &s);
    cz__bench_note(b, "synth 2^%d: %llu variables, %llu bits; MiB written: CSR %.1f + witness %.1f, compact %.1f%s", k,
                   (unsigned long long)s.n_vars, (unsigned long long)s.map.n_bits, csr / 1048576.0,
                   s.n_vars * 32.0 / 1048576, cz_wbits_bytes(&s.map) / 1048576.0, s.ok ? "" : "; A RUN FAILED");
    if (s.free_runs)
        cz__bench_note(b, "synth 2^%d: generate's frees took %.1f ms a run (%.1f ms CPU)", k,
                       s.free_ns / s.free_runs / 1e6, s.free_cpu_ns / s.free_runs / 1e6);
    cz_wbits_map_free(&s.map);
}

static void group(cz_bench *b)
{
    static const int sizes[] = {16, 20, 22};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) one_size(b, sizes[i]);
}

CZ_BENCH_GROUP(60, "synth", group)
