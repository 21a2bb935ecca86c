/* test_gadgets_cs.c — the constraint-system handle (circuits/cs.h).
 *
 * A small circuit (x*y = z, inputize z, a linear check with repeated and
 * cancelling terms) runs in all four modes: recording gives a system the
 * witness satisfies, with the columns and merged coefficients the LC rules
 * say, and terms that cancel to zero left out of the row; witness-only and compact write the same values as
 * recording; counting gives the same counts; a perturbed witness fails; a
 * too-small buffer sets the sticky error. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "circuits/cs.h"

static void small_circuit(cz_cs *cs, uint64_t xv, uint64_t yv)
{
    cz_fr x, y, z;
    cz_fr_from_u64(&x, xv);
    cz_fr_from_u64(&y, yv);
    cz_fr_mul(&z, &x, &y);
    cz_num nx = cz_num_alloc(cs, &x);
    cz_var b = cz_cs_alloc_bit(cs, (int)(xv & 1));
    cz_num ny = cz_num_alloc(cs, &y);
    cz_num nz = cz_num_alloc(cs, &z);
    if (cz_cs_rec(cs)) {
        cz_lc *a = cz_cs_lc(cs, 0), *bb = cz_cs_lc(cs, 1), *c = cz_cs_lc(cs, 2);
        cz_lc_add(cs, a, nx.var, NULL);
        cz_lc_add(cs, bb, ny.var, NULL);
        cz_lc_add(cs, c, nz.var, NULL);
        cz_cs_enforce(cs, a, bb, c);
        /* booleanity of b: (ONE - b) * b = 0 */
        a = cz_cs_lc(cs, 0); bb = cz_cs_lc(cs, 1);
        cz_lc_add(cs, a, CZ_ONE, NULL);
        cz_lc_sub(cs, a, b, NULL);
        cz_lc_add(cs, bb, b, NULL);
        cz_cs_enforce(cs, a, bb, NULL);
    }
    cz_num_inputize(cs, &nz);
    if (cz_cs_rec(cs)) {
        /* 0 * 0 = (x + x + y - y) - 2x : C has x with 2 - 2 = 0 and y with 0 */
        cz_lc *c = cz_cs_lc(cs, 2);
        cz_lc_add(cs, c, ny.var, NULL);
        cz_lc_add(cs, c, nx.var, NULL);
        cz_lc_add(cs, c, nx.var, NULL);
        cz_lc_sub(cs, c, ny.var, NULL);
        cz_lc_sub(cs, c, nx.var, cz_cs_pow2(cs, 1));
        cz_cs_enforce(cs, NULL, NULL, c);
    }
}

int main(void)
{
    cz_cs cs;
    cz_r1cs r;
    cz_fr *w;
    uint64_t *mask;
    CHECK(cz_cs_init_record(&cs) == CZ_OK);
    small_circuit(&cs, 7, 9);
    uint64_t ni = cs.n_inputs, na = cs.n_aux, nc = cs.n_constraints;
    CHECK(ni == 2 && na == 4 && nc == 4);
    CHECK(cs.scratch[2].n == 2 && cz_fr_is_zero(&cs.scratch[2].t[0].coef) &&
          cz_fr_is_zero(&cs.scratch[2].t[1].coef));
    CHECK(cz_cs_finish_record(&cs, &r, &w, &mask) == CZ_OK);
    CHECK(r.n_inputs == 2 && r.n_vars == 6 && r.n_constraints == 4);
    CHECK(r.m[CZ_A].nnz == 4 && r.m[CZ_B].nnz == 3 && r.m[CZ_C].nnz == 2);
    uint64_t bad = 0;
    CHECK(cz_r1cs_is_satisfied(&r, w, &bad, NULL));
    /* inputize row: A = input 1, B = ONE, C = z (column 2 + 3) */
    CHECK(r.m[CZ_A].col[r.m[CZ_A].row_ptr[2]] == 1);
    CHECK(r.m[CZ_B].col[r.m[CZ_B].row_ptr[2]] == 0);
    CHECK(r.m[CZ_C].col[r.m[CZ_C].row_ptr[2]] == 5);
    /* the cancelling row records nothing; its LC kept both (zero) terms */
    const cz_csr *C = &r.m[CZ_C];
    CHECK(C->row_ptr[4] - C->row_ptr[3] == 0);
    CHECK(mask[0] == 2); /* aux 1 is the bit */
    /* perturbed witness fails */
    cz_fr save = w[3];
    cz_fr_add(&w[3], &w[3], &cz_fr_one_mont);
    CHECK(!cz_r1cs_is_satisfied(&r, w, &bad, NULL));
    w[3] = save;

    /* witness-only */
    cz_fr in[2], aux[4];
    cz_cs_init_witness(&cs, in, 2, aux, 4);
    small_circuit(&cs, 7, 9);
    CHECK(cz_cs_status(&cs) == CZ_OK && cs.n_aux == na && cs.n_inputs == ni);
    CHECK(memcmp(in, w, sizeof in) == 0 && memcmp(aux, w + 2, sizeof aux) == 0);
    cz_cs_free(&cs);

    /* compact */
    uint64_t bits[1] = {~0ull};
    cz_fr fields[3];
    cz_cs_init_compact(&cs, in, 2, bits, 64, fields, 3);
    small_circuit(&cs, 7, 9);
    CHECK(cz_cs_status(&cs) == CZ_OK && cs.n_bits == 1 && cs.n_fields == 3);
    CHECK(bits[0] == 1);
    CHECK(memcmp(&fields[0], &w[2], 32) == 0 && memcmp(&fields[1], &w[4], 64) == 0);
    cz_cs_free(&cs);

    /* counting */
    CHECK(cz_cs_init_count(&cs) == CZ_OK);
    small_circuit(&cs, 7, 9);
    CHECK(cs.n_constraints == nc && cs.n_aux == na && cs.n_inputs == ni);
    CHECK(cs.nnz[0] == r.m[0].nnz && cs.nnz[1] == r.m[1].nnz && cs.nnz[2] == r.m[2].nnz);
    cz_cs_free(&cs);

    /* a buffer too small: sticky error, counters still count */
    cz_cs_init_witness(&cs, in, 2, aux, 3);
    small_circuit(&cs, 7, 9);
    CHECK(cz_cs_status(&cs) == CZ_ERR_LENGTH && cs.n_aux == 4);
    cz_cs_free(&cs);

    /* LC merges: sorted, combined, zero kept, scaled */
    CHECK(cz_cs_init_count(&cs) == CZ_OK);
    cz_lc p, q;
    cz_lc_init(&p);
    cz_lc_init(&q);
    cz_lc_add(&cs, &p, CZ_AUX(5), NULL);
    cz_lc_add(&cs, &p, CZ_AUX(1), NULL);
    cz_lc_add(&cs, &p, CZ_ONE, NULL);
    cz_lc_add(&cs, &q, CZ_AUX(3), NULL);
    cz_lc_add(&cs, &q, CZ_AUX(5), NULL);
    cz_lc_add(&cs, &q, CZ_AUX(9), NULL);
    cz_lc_sub_lc(&cs, &p, &q, NULL);             /* ONE + a1 - a3 + 0 a5 - a9 */
    CHECK(p.n == 5 && p.t[0].var == CZ_ONE && p.t[1].var == CZ_AUX(1) && p.t[2].var == CZ_AUX(3) &&
          p.t[3].var == CZ_AUX(5) && p.t[4].var == CZ_AUX(9) && cz_fr_is_zero(&p.t[3].coef));
    cz_fr m1;
    cz_fr_neg(&m1, &cz_fr_one_mont);
    CHECK(cz_fr_eq(&p.t[2].coef, &m1) && cz_fr_eq(&p.t[4].coef, &m1) && cz_fr_is_one(&p.t[1].coef));
    cz_lc_add_lc(&cs, &q, &p, cz_cs_pow2(&cs, 3)); /* q + 8p */
    CHECK(q.n == 5 && q.t[3].var == CZ_AUX(5) && cz_fr_is_one(&q.t[3].coef));
    cz_fr seven;
    cz_fr_from_u64(&seven, 7);
    cz_fr_neg(&seven, &seven);
    CHECK(cz_fr_eq(&q.t[4].coef, &seven)); /* 1 - 8 */
    cz_cs_enforce(&cs, &p, NULL, &q);      /* zero terms are not counted */
    CHECK(cs.nnz[0] == 4 && cs.nnz[2] == 5);
    cz_lc_free(&p);
    cz_lc_free(&q);
    cz_cs_free(&cs);

    cz_r1cs_free(&r);
    free(w);
    free(mask);
    return cz_test_finish("test_gadgets_cs");
}
