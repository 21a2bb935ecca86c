/* bench_poseidon.c — Poseidon timings, one thread (see bench.h): the native
 * hash of arity 2, 8 and 11 on the fast path (compressed constants, sparse
 * matrices) and, for arity 8, the plain permutation, as a dependent chain
 * (each digest becomes the next preimage's first element). */
#include <string.h>

#include "bench.h"
#include "circuits/poseidon.h"
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
}

CZ_BENCH_GROUP(60, "poseidon", bench_poseidon)
