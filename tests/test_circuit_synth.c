/* test_circuit_synth.c — the engine's synthetic partitions (engine/circuit.h)
 * on the CPU backend: the compact witness path and what guards it.
 *
 * Checks, for synth-9 (2^9 - 4 constraints, 3 inputs):
 *  - the key is loaded with the generator's bit map, and a partition's
 *    witness is the compact form (cz_wbits_len values) whose expansion is,
 *    value for value, cz_synth_witness of cz__circuit_synth_params (the
 *    witness of partition i, witness_seed 1 + i) and satisfies every
 *    constraint; partitions differ, their public inputs too;
 *  - the synthesis calls the yield hook (the throttle's chunk boundary) at
 *    least once;
 *  - the working set is what membudget.h says: W the compact bytes, no
 *    synthesis scratch, P the CPU's a, b, c + density bitmaps + expansion;
 *  - each partition's proof (cz_be_prove_bits) verifies against its own
 *    inputs and not another partition's;
 *  - a tampered compact witness (a bit flipped, a field value changed, a
 *    public input changed: each one that breaks a constraint) gives a
 *    proof that fails verification;
 *  - with synth_full_witness the key has no map, the witness is the full
 *    one (the same values) and its proof verifies the same way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "backend/backend.h"
#include "backend/wbits.h"
#include "circuits/synth.h"
#include "engine/circuit.h"
#include "groth16/groth16.h"

#define LOG2 9
#define PARTS 3

static int yields;
static void count_yield(void *ctx)
{
    (void)ctx;
    yields++;
}

/* the full witness of partition i, made by the generator on its own */
static cz_fr *reference(const cz_circuit *ci, uint32_t i)
{
    char msg[256];
    cz_synth_params sp;
    cz__circuit_synth_params(LOG2, i, &sp);
    cz_fr *w = malloc(ci->n_vars * sizeof *w);
    CHECK(w != NULL);
    if (w) CHECK_MSG(cz_synth_witness(w, ci->n_vars, &sp, msg, sizeof msg) == CZ_OK, "%s", msg);
    return w;
}

static int prove_verify(const cz_circuit *ci, cz_be_worker *bw, const cz_fr *wit, const cz_fr *inputs_from)
{
    char msg[512];
    cz_groth16_proof p;
    if (cz__circuit_prove(ci, 0, bw, wit, &p, NULL, msg, sizeof msg) != CZ_OK) return 0;
    return cz__circuit_verify(ci, &p, inputs_from);
}

/* 1 when the expansion of compact c satisfies ci's constraints */
static int compact_satisfies(const cz_circuit *ci, const cz_fr *c, cz_fr *full)
{
    uint64_t bad;
    cz_wbits_unpack(full, &ci->bits, c);
    return cz_r1cs_is_satisfied(&ci->cs, full, &bad, NULL);
}

static void check_compact(cz_be *be)
{
    char msg[512];
    cz_circuit_cache cache;
    cz__cache_init(&cache, ".", be);
    cz_circuit *ci = NULL;
    CHECK(cz__cache_acquire(&cache, "synth-9-3", &ci, msg, sizeof msg) == CZ_OK);
    if (!ci) return;
    CHECK_MSG(cz__cache_load(&cache, ci, NULL, NULL, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    const cz_wbits_map *m = &ci->bits;
    CHECK(m->mask != NULL && m->n_vars == ci->n_vars && m->n_bits > m->n_fields);
    CHECK(ci->wit_len == cz_wbits_len(m) && ci->wit_len < ci->n_vars / 4);
    /* the working set: compact W, no synthesis scratch, the CPU's P */
    uint64_t dom = (uint64_t)1 << cz_groth16_domain_log(&ci->cs);
    CHECK(ci->ws.witness == cz_wbits_bytes(m));
    CHECK(ci->ws.synth == 0);
    CHECK_MSG(ci->ws.prove == 3 * dom * 32 + 2 * ((ci->n_vars + 63) / 64) * 8 + ci->n_vars * 32, "prove %llu",
              (unsigned long long)ci->ws.prove);
    CHECK(cz_mem_ws_total(&ci->ws) == ci->ws.witness + ci->ws.prove);

    cz_be_worker *bw = NULL;
    CHECK_MSG(cz_be_worker_create(be, &bw, msg, sizeof msg) == CZ_OK, "%s", msg);
    cz_fr *wit[PARTS] = {0}, *ref[PARTS] = {0};
    cz_fr *full = malloc(ci->n_vars * sizeof *full);
    cz_synth_hooks hooks = {count_yield, NULL, NULL};
    for (uint32_t i = 0; i < PARTS; i++) {
        yields = 0;
        CHECK_MSG(cz__circuit_witness(ci, i, NULL, 0, &wit[i], NULL, &hooks, msg, sizeof msg) == CZ_OK, "%s", msg);
        CHECK(yields >= 1);
        ref[i] = reference(ci, i);
        if (!wit[i] || !ref[i] || !full) continue;
        cz_wbits_unpack(full, m, wit[i]);
        CHECK_MSG(!memcmp(full, ref[i], ci->n_vars * sizeof *full), "partition %u: compact != generator", i);
        CHECK(compact_satisfies(ci, wit[i], full));
        /* the padding of the bit words up to a whole Fr is clear */
        const uint64_t *bits = cz_wbits_bits_c(m, wit[i]);
        for (uint64_t k = (m->n_bits + 63) / 64; k < (ci->wit_len - m->n_fields) * 4; k++) CHECK(bits[k] == 0);
        CHECK(!memcmp(wit[i], ref[i], ci->n_inputs * sizeof *full)); /* ONE and the inputs open it */
        CHECK(bw && prove_verify(ci, bw, wit[i], wit[i]));
        if (i) {
            CHECK(memcmp(wit[i] + 1, wit[i - 1] + 1, (ci->n_inputs - 1) * sizeof *full) != 0);
            CHECK(!prove_verify(ci, bw, wit[i], wit[i - 1])); /* another partition's inputs */
        }
    }
    if (bw && wit[0] && full) {
        cz_fr *t = malloc(ci->wit_len * sizeof *t);
        CHECK(t != NULL);
        /* a bit flipped: the first one that breaks a constraint */
        int tried = 0;
        for (uint64_t k = 0; t && k < m->n_bits && !tried; k++) {
            memcpy(t, wit[0], ci->wit_len * sizeof *t);
            cz_wbits_bits(m, t)[k / 64] ^= (uint64_t)1 << (k % 64);
            if (compact_satisfies(ci, t, full)) continue;
            tried = 1;
            CHECK_MSG(!prove_verify(ci, bw, t, t), "bit %llu flipped: the proof verified", (unsigned long long)k);
        }
        CHECK(tried);
        /* an aux field value changed */
        tried = 0;
        for (uint64_t k = ci->n_inputs; t && k < m->n_fields && !tried; k++) {
            memcpy(t, wit[0], ci->wit_len * sizeof *t);
            cz_fr_add(&t[k], &t[k], &t[0]);
            if (compact_satisfies(ci, t, full)) continue;
            tried = 1;
            CHECK_MSG(!prove_verify(ci, bw, t, t), "field %llu changed: the proof verified", (unsigned long long)k);
        }
        CHECK(tried);
        /* a public input changed: checked against its own (changed) inputs and the real ones */
        if (t) {
            memcpy(t, wit[0], ci->wit_len * sizeof *t);
            cz_fr_add(&t[1], &t[1], &t[0]);
            CHECK(!compact_satisfies(ci, t, full));
            CHECK(!prove_verify(ci, bw, t, t));
            CHECK(!prove_verify(ci, bw, t, wit[0]));
        }
        free(t);
    }
    for (int i = 0; i < PARTS; i++) {
        free(wit[i]);
        free(ref[i]);
    }
    free(full);
    cz_be_worker_destroy(bw);
    cz__cache_release(&cache, ci);
    cz__cache_destroy(&cache);
}

static void check_full(cz_be *be)
{
    char msg[512];
    cz_circuit_cache cache;
    cz__cache_init(&cache, ".", be);
    cache.synth_full_witness = 1;
    cz_circuit *ci = NULL;
    CHECK(cz__cache_acquire(&cache, "synth-9-2", &ci, msg, sizeof msg) == CZ_OK);
    if (!ci) return;
    CHECK_MSG(cz__cache_load(&cache, ci, NULL, NULL, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(ci->bits.mask == NULL && ci->wit_len == ci->n_vars);
    CHECK(ci->ws.witness == ci->n_vars * 32 && ci->ws.synth == 0);
    uint64_t dom = (uint64_t)1 << cz_groth16_domain_log(&ci->cs);
    CHECK(ci->ws.prove == 3 * dom * 32 + 2 * ((ci->n_vars + 63) / 64) * 8);
    cz_be_worker *bw = NULL;
    CHECK_MSG(cz_be_worker_create(be, &bw, msg, sizeof msg) == CZ_OK, "%s", msg);
    cz_fr *w = NULL, *ref = reference(ci, 1);
    yields = 0;
    cz_synth_hooks hooks = {count_yield, NULL, NULL};
    CHECK_MSG(cz__circuit_witness(ci, 1, NULL, 0, &w, NULL, &hooks, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(yields >= 1);
    if (w && ref) {
        CHECK(!memcmp(w, ref, ci->n_vars * sizeof *w));
        CHECK(bw && prove_verify(ci, bw, w, w));
        /* the last variable changed by one (it breaks a constraint: checked) */
        uint64_t bad;
        cz_fr_add(&w[ci->n_vars - 1], &w[ci->n_vars - 1], &w[0]);
        CHECK(!cz_r1cs_is_satisfied(&ci->cs, w, &bad, NULL));
        CHECK(!prove_verify(ci, bw, w, w));
    }
    free(w);
    free(ref);
    cz_be_worker_destroy(bw);
    cz__cache_release(&cache, ci);
    cz__cache_destroy(&cache);
}

int main(void)
{
    char msg[512];
    cz_backend_opts o;
    memset(&o, 0, sizeof o);
    o.kind = CZ_BACKEND_CPU;
    o.threads = 2;
    o.quiet = 1;
    cz_be *be = NULL;
    CHECK_MSG(cz_be_open(&be, &o, msg, sizeof msg) == CZ_OK, "%s", msg);
    if (be) {
        check_compact(be);
        check_full(be);
        cz_be_close(be);
    }
    return cz_test_finish("test_circuit_synth");
}
