/* test_poseidon_circuit.c — the legacy Poseidon circuit for arities 2, 8, 11
 * (and 4): constraint counts 311 / 505 / 598 (377), the recorded witness
 * satisfies the recorded system and its digest equals the native hash on
 * random inputs (also with the custom tag 2^40), witness-only mode writes
 * the same variables in the same order, counting mode gives the recorded
 * counts and non-zeros, and a changed witness value is caught. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/cs.h"
#include "circuits/poseidon_circuit.h"
#include "testutil.h"

static void one_case(uint32_t arity, uint64_t want_constraints, const cz_fr *tag, cz_rng *rng)
{
    const cz_poseidon *p = cz_poseidon_get(arity);
    CHECK(p != NULL);
    if (!p) return;
    cz_fr in[CZ_POSEIDON_MAX_ARITY], native;
    for (uint32_t i = 0; i < arity; i++) cz_fr_random(&in[i], rng);
    cz_poseidon_hash_tag(&native, p, tag ? tag : &p->tag, in);
    CHECK(cz_poseidon_circuit_constraints(p) == want_constraints);

    /* recording */
    cz_cs cs;
    CHECK(cz_cs_init_record(&cs) == CZ_OK);
    cz_num x[CZ_POSEIDON_MAX_ARITY];
    for (uint32_t i = 0; i < arity; i++) x[i] = cz_num_alloc(&cs, &in[i]);
    cz_num h = cz_poseidon_circuit(&cs, p, tag, x);
    CHECK_MSG(cs.n_constraints == want_constraints, "arity %u: %llu constraints, want %llu", arity,
              (unsigned long long)cs.n_constraints, (unsigned long long)want_constraints);
    CHECK_MSG(cz_fr_eq(&h.val, &native), "arity %u: circuit digest != native", arity);
    uint64_t n_aux = cs.n_aux, n_inputs = cs.n_inputs, nnz[3] = {cs.nnz[0], cs.nnz[1], cs.nnz[2]};
    cz_r1cs r;
    cz_fr *w = NULL;
    CHECK(cz_cs_finish_record(&cs, &r, &w, NULL) == CZ_OK);
    if (!w) return;
    CHECK(r.n_constraints == want_constraints && r.n_inputs == 1 && r.n_vars == 1 + n_aux);
    CHECK(r.m[0].nnz == nnz[0] && r.m[1].nnz == nnz[1] && r.m[2].nnz == nnz[2]);
    uint64_t bad = 0;
    CHECK_MSG(cz_r1cs_is_satisfied(&r, w, &bad, NULL), "arity %u: row %llu unsatisfied", arity,
              (unsigned long long)bad);
    CHECK(cz_fr_eq(&w[n_inputs + cz_var_index(h.var)], &native));
    CHECK(cz_var_is_aux(h.var) && cz_var_index(h.var) == n_aux - 1);

    /* witness-only: the same values in the same order */
    cz_fr *aux = calloc(n_aux, sizeof(cz_fr)), one;
    cz_cs ws;
    cz_cs_init_witness(&ws, &one, 1, aux, n_aux);
    for (uint32_t i = 0; i < arity; i++) x[i] = cz_num_alloc(&ws, &in[i]);
    cz_num h2 = cz_poseidon_circuit(&ws, p, tag, x);
    CHECK(cz_cs_status(&ws) == CZ_OK && ws.n_aux == n_aux);
    CHECK(cz_fr_eq(&h2.val, &native) && h2.var == h.var);
    CHECK_MSG(!memcmp(aux, w + n_inputs, n_aux * sizeof(cz_fr)), "arity %u: witness-only != recorded", arity);
    cz_cs_free(&ws);

    /* counting */
    cz_cs cc;
    CHECK(cz_cs_init_count(&cc) == CZ_OK);
    for (uint32_t i = 0; i < arity; i++) x[i] = cz_num_alloc(&cc, &in[i]);
    (void)cz_poseidon_circuit(&cc, p, tag, x);
    CHECK(cc.n_constraints == want_constraints && cc.n_aux == n_aux && cc.n_inputs == 1);
    CHECK(cc.nnz[0] == nnz[0] && cc.nnz[1] == nnz[1] && cc.nnz[2] == nnz[2]);
    cz_cs_free(&cc);
    if (!tag)
        printf("poseidon-%u: %llu constraints, %llu aux, nnz A %llu B %llu C %llu\n", arity,
               (unsigned long long)want_constraints, (unsigned long long)n_aux, (unsigned long long)nnz[0],
               (unsigned long long)nnz[1], (unsigned long long)nnz[2]);

    /* a changed value anywhere past the inputs breaks a constraint */
    uint64_t at = n_inputs + arity + cz_rng_u64(rng) % (n_aux - arity);
    cz_fr d;
    cz_fr_one(&d);
    cz_fr_add(&w[at], &w[at], &d);
    CHECK(!cz_r1cs_is_satisfied(&r, w, &bad, NULL));
    free(aux);
    free(w);
    cz_r1cs_free(&r);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_poseidon_circuit", 12));
    for (int rep = 0; rep < 3; rep++) {
        one_case(2, 311, NULL, &rng);
        one_case(4, 377, NULL, &rng);
        one_case(8, 505, NULL, &rng);
        one_case(11, 598, NULL, &rng);
    }
    cz_fr custom;
    cz_poseidon_custom_tag(&custom, 1);
    one_case(2, 311, &custom, &rng);
    return cz_test_finish("test_poseidon_circuit");
}
