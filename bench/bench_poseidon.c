/* bench_poseidon.c — Poseidon timings, one thread (see bench.h): the native
 * hash of arity 2, 8 and 11 on the fast path (compressed constants, sparse
 * matrices) and, for arity 8, the plain permutation; the legacy Poseidon-8
 * circuit in witness-only, counting and recording modes. Every op is a
 * dependent chain (each digest becomes the next preimage's first element).
 *
 * The circuit ops allocate the 8 inputs and then the gadget's 513
 * variables (521 Fr = 16,672 bytes per hash). Witness-only writes into a
 * 4 MiB buffer (252 hashes, past L2) and starts over when it is full;
 * recording appends to one growing system per batch. A note per mode gives
 * variables/s and GB/s of Fr written, from the thread's CPU time over
 * ~0.2 s (less sensitive to a busy machine than the wall clock). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "circuits/cs.h"
#include "circuits/poseidon_circuit.h"
#include "util/rng.h"

typedef struct {
    const cz_poseidon *p;
    cz_fr in[CZ_POSEIDON_MAX_ARITY];
    int plain;
} pos_state;

static void run_hash(void *s_, uint64_t iters)
{
    pos_state *s = s_;
    for (uint64_t i = 0; i < iters; i++) {
        if (s->plain) cz_poseidon_hash_plain(&s->in[0], s->p, &s->p->tag, s->in);
        else cz_poseidon_hash(&s->in[0], s->p, s->in);
    }
}

enum { GMODE_WITNESS, GMODE_COUNT, GMODE_RECORD };
#define WBUF_HASHES 252

typedef struct {
    const cz_poseidon *p;
    cz_fr in[8];
    int mode;
    cz_fr *aux, one;
    uint64_t aux_cap, vars;
} gad_state;

static void run_gadget(void *s_, uint64_t iters)
{
    gad_state *s = s_;
    cz_cs cs;
    if (s->mode == GMODE_WITNESS) cz_cs_init_witness(&cs, &s->one, 1, s->aux, s->aux_cap);
    else if (s->mode == GMODE_COUNT) cz_cs_init_count(&cs);
    else cz_cs_init_record(&cs);
    for (uint64_t i = 0; i < iters; i++) {
        if (s->mode == GMODE_WITNESS && cs.n_aux + 521 > s->aux_cap)
            cz_cs_init_witness(&cs, &s->one, 1, s->aux, s->aux_cap);
        cz_num x[8];
        for (int k = 0; k < 8; k++) x[k] = cz_num_alloc(&cs, &s->in[k]);
        cz_num h = cz_poseidon_circuit(&cs, s->p, NULL, x);
        s->in[0] = h.val;
    }
    s->vars += cs.n_aux;
    cz_cs_free(&cs);
}

static double thread_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* variables/s and GB/s of Fr over ~0.2 s of this thread's CPU time */
static void rate_note(cz_bench *b, const char *op, gad_state *s, int native)
{
    uint64_t n = 0, vars = 0;
    double t0 = thread_s(), t;
    do {
        if (native) {
            pos_state ps = {s->p, {{{0}}}, 0};
            memcpy(ps.in, s->in, sizeof s->in);
            run_hash(&ps, 64);
            s->in[0] = ps.in[0];
            vars += 64 * 521;
        } else {
            uint64_t before = s->vars;
            run_gadget(s, 64);
            vars += s->vars - before;
        }
        n += 64;
        t = thread_s() - t0;
    } while (t < 0.2);
    cz__bench_note(b, "%s: %.0f ns/hash, %.2f M vars/s, %.3f GB/s of Fr (%s)", op, t / (double)n * 1e9,
                   (double)vars / t / 1e6, (double)vars * 32 / t / 1e9,
                   native ? "vars the gadget would write" : "thread CPU time");
}

static void bench_poseidon(cz_bench *b)
{
    static const struct { uint32_t arity; int plain; const char *op, *note; } ops[] = {
        {2, 0, "native_a2", "Poseidon arity 2, fast path"},
        {8, 0, "native_a8", "Poseidon arity 8, fast path"},
        {11, 0, "native_a11", "Poseidon arity 11, fast path"},
        {8, 1, "plain_a8", "Poseidon arity 8, plain permutation"},
    };
    cz_rng rng;
    cz_rng_seed(&rng, 0x706f736569646f6eULL);
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        if (!cz__bench_wants(b, ops[k].op)) continue;
        pos_state s;
        memset(&s, 0, sizeof s);
        s.p = cz_poseidon_get(ops[k].arity);
        s.plain = ops[k].plain;
        if (!s.p) { cz__bench_note(b, "WARNING: no Poseidon parameters"); return; }
        for (uint32_t i = 0; i < ops[k].arity; i++) cz_fr_random(&s.in[i], &rng);
        cz__bench_op(b, ops[k].op, ops[k].note, run_hash, &s);
    }

    static const struct { int mode; const char *op, *note; } gops[] = {
        {GMODE_WITNESS, "gadget_a8_witness", "legacy Poseidon-8 circuit, witness-only (521 vars)"},
        {GMODE_COUNT, "gadget_a8_count", "legacy Poseidon-8 circuit, counting"},
        {GMODE_RECORD, "gadget_a8_record", "legacy Poseidon-8 circuit, recording"},
    };
    gad_state g;
    memset(&g, 0, sizeof g);
    g.p = cz_poseidon_get(8);
    g.aux_cap = (uint64_t)WBUF_HASHES * 521;
    g.aux = malloc(g.aux_cap * sizeof(cz_fr));
    if (!g.p || !g.aux) { cz__bench_note(b, "WARNING: gadget set-up failed"); free(g.aux); return; }
    for (int i = 0; i < 8; i++) cz_fr_random(&g.in[i], &rng);
    if (cz__bench_wants(b, "native_a8")) rate_note(b, "native_a8", &g, 1);
    for (size_t k = 0; k < sizeof gops / sizeof gops[0]; k++) {
        if (!cz__bench_wants(b, gops[k].op)) continue;
        g.mode = gops[k].mode;
        cz__bench_op(b, gops[k].op, gops[k].note, run_gadget, &g);
        rate_note(b, gops[k].op, &g, 0);
    }
    free(g.aux);
}

CZ_BENCH_GROUP(60, "poseidon", bench_poseidon)
