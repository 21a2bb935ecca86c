/* test_r1cs.c — the CSR constraint system: SpMV against a plain triplet list
 * (general coefficients on random values, bits, -1 and 2; the coefficients
 * +-1 and +-2),
 * satisfaction check (and the first failing row it names), density bitmaps
 * against a direct count, coefficient-index widths, the general-term count
 * of the SpMV benchmarks. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "r1cs/r1cs.h"

typedef struct { int m; uint64_t row, var; cz_fr coef; } trip;

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_r1cs", 5));
    cz_pool *pool;
    CHECK(cz_pool_create(&pool, 3) == CZ_OK);

    for (int round = 0; round < 3; round++) {
        uint64_t n_inputs = 3, n_aux = 20000, n_rows = 10000;
        uint32_t n_distinct = round == 0 ? 10 : round == 1 ? 1000 : (1u << 20);
        uint64_t n_vars = n_inputs + n_aux;
        cz_fr *w = malloc(n_vars * sizeof *w);
        cz_fr_one(&w[0]);
        /* random values, and bits (cz_r1cs_spmv adds a coefficient on a 1
         * and skips a 0 without a product), -1 and 2 */
        for (uint64_t v = 1; v < n_vars; v++) {
            uint64_t k = cz_rng_u64(&rng) % 8;
            if (k < 4) cz_fr_random(&w[v], &rng);
            else if (k < 7) cz_fr_from_u64(&w[v], k - 4);
            else { cz_fr_one(&w[v]); cz_fr_neg(&w[v], &w[v]); }
        }
        /* 2 and -2 among the coefficients (the device SpMV doubles for them) */
        cz_fr *pool_coefs = malloc(n_distinct * sizeof(cz_fr));
        for (uint32_t i = 0; i < n_distinct; i++) cz_fr_random(&pool_coefs[i], &rng);
        cz_fr_from_u64(&pool_coefs[0], 2);
        cz_fr_neg(&pool_coefs[1], &pool_coefs[0]);
        trip *t = malloc(n_rows * 24 * sizeof *t);
        size_t nt = 0;
        cz_r1cs_builder *b;
        CHECK(cz_r1cs_builder_new(&b, n_inputs, n_aux) == CZ_OK);
        cz_fr one, minus_one;
        cz_fr_one(&one);
        cz_fr_neg(&minus_one, &one);
        for (uint64_t row = 0; row < n_rows; row++) {
            for (int m = 0; m < 3; m++) {
                int terms = round == 2 ? 8 : 1 + (int)(cz_rng_u64(&rng) % 3);
                for (int k = 0; k < terms; k++) {
                    uint64_t r = cz_rng_u64(&rng);
                    trip *x = &t[nt++];
                    x->m = m;
                    x->row = row;
                    x->var = (r >> 8) % n_vars;
                    x->coef = round == 2 ? pool_coefs[(r >> 40) % n_distinct] : (r & 3) == 0 ? one : (r & 3) == 1 ? minus_one : pool_coefs[(r >> 40) % n_distinct];
                    CHECK(cz_r1cs_builder_term(b, m, x->var, &x->coef) == CZ_OK);
                }
            }
            CHECK(cz_r1cs_builder_end_constraint(b) == CZ_OK);
        }
        CHECK(cz_r1cs_builder_term(b, 0, n_vars, &one) == CZ_ERR_INVALID_ARG);
        cz_r1cs r;
        CHECK(cz_r1cs_builder_finish(b, &r) == CZ_OK);
        CHECK(r.n_constraints == n_rows);
        uint32_t want_w = round == 0 ? 1 : round == 1 ? 2 : 4;
        for (int m = 0; m < 3; m++) CHECK_MSG(r.m[m].cidx_bytes == want_w, "n_coefs %u", r.m[m].n_coefs);

        /* SpMV vs triplets */
        cz_fr *ref[3], *out[3];
        for (int m = 0; m < 3; m++) {
            ref[m] = calloc(n_rows, sizeof(cz_fr));
            out[m] = malloc(n_rows * sizeof(cz_fr));
        }
        for (size_t i = 0; i < nt; i++) {
            cz_fr p;
            cz_fr_mul(&p, &t[i].coef, &w[t[i].var]);
            cz_fr_add(&ref[t[i].m][t[i].row], &ref[t[i].m][t[i].row], &p);
        }
        cz_r1cs_spmv(&r, w, out[0], out[1], out[2], pool);
        for (int m = 0; m < 3; m++) {
            int same = 1;
            for (uint64_t row = 0; row < n_rows; row++) same &= cz_fr_eq(&out[m][row], &ref[m][row]);
            CHECK_MSG(same, "spmv matrix %d round %d", m, round);
        }
        /* density: direct count */
        uint64_t *bits = malloc(((n_vars + 63) / 64) * 8);
        char *seen = calloc(n_vars, 1);
        for (int m = 0; m < 3; m++) {
            memset(seen, 0, n_vars);
            uint64_t cnt = 0;
            for (size_t i = 0; i < nt; i++)
                if (t[i].m == m && !seen[t[i].var]) { seen[t[i].var] = 1; cnt++; }
            CHECK(cz_r1cs_density(&r, m, bits) == cnt);
            int agree = 1;
            for (uint64_t v = 0; v < n_vars; v++) agree &= ((bits[v / 64] >> (v % 64)) & 1) == (uint64_t)seen[v];
            CHECK(agree);
        }
        free(bits);
        free(seen);
        CHECK(cz_csr_bytes_per_nnz(&r.m[0]) > 4.0);
        /* random w does not satisfy this system; the named row must really fail */
        uint64_t bad = ~0ull;
        CHECK(!cz_r1cs_is_satisfied(&r, w, &bad, pool));
        CHECK(bad < n_rows);
        if (bad < n_rows) {
            cz_fr x;
            cz_fr_mul(&x, &ref[0][bad], &ref[1][bad]);
            CHECK(!cz_fr_eq(&x, &ref[2][bad]));
            int earlier_ok = 1;
            for (uint64_t row = 0; row < bad; row++) {
                cz_fr_mul(&x, &ref[0][row], &ref[1][row]);
                earlier_ok &= cz_fr_eq(&x, &ref[2][row]);
            }
            CHECK(earlier_ok);
        }
        for (int m = 0; m < 3; m++) { free(ref[m]); free(out[m]); }
        cz_r1cs_free(&r);
        free(t);
        free(w);
        free(pool_coefs);
    }

    /* a satisfiable system: x_i * x_i = x_i for bits, y = x0 * x1 */
    {
        cz_r1cs_builder *b;
        CHECK(cz_r1cs_builder_new(&b, 1, 3) == CZ_OK);
        cz_fr one;
        cz_fr_one(&one);
        for (int v = 1; v <= 2; v++) {
            cz_r1cs_builder_term(b, CZ_A, v, &one);
            cz_r1cs_builder_term(b, CZ_B, v, &one);
            cz_r1cs_builder_term(b, CZ_C, v, &one);
            cz_r1cs_builder_end_constraint(b);
        }
        cz_r1cs_builder_term(b, CZ_A, 1, &one);
        cz_r1cs_builder_term(b, CZ_B, 2, &one);
        cz_r1cs_builder_term(b, CZ_C, 3, &one);
        cz_r1cs_builder_end_constraint(b);
        cz_r1cs r;
        CHECK(cz_r1cs_builder_finish(b, &r) == CZ_OK);
        cz_fr w[4];
        cz_fr_one(&w[0]);
        cz_fr_one(&w[1]);
        cz_fr_one(&w[2]);
        cz_fr_one(&w[3]);
        uint64_t bad = 99;
        CHECK(cz_r1cs_is_satisfied(&r, w, &bad, NULL));
        CHECK(bad == 99);
        cz_fr_zero(&w[2]); /* now y must be 0 */
        CHECK(!cz_r1cs_is_satisfied(&r, w, &bad, NULL));
        CHECK(bad == 2);
        cz_r1cs_free(&r);
    }
    {
        /* cz_csr_general_terms: one row of A with +1, -1, 2, -2 (not
         * general) and 3, 5, 7, 9 on 0, 1, a random value and 1 */
        cz_r1cs_builder *b;
        CHECK(cz_r1cs_builder_new(&b, 1, 8) == CZ_OK);
        static const int64_t coef[8] = {1, -1, 2, -2, 3, 5, 7, 9};
        for (int v = 1; v <= 8; v++) {
            cz_fr c;
            cz_fr_from_u64(&c, (uint64_t)(coef[v - 1] < 0 ? -coef[v - 1] : coef[v - 1]));
            if (coef[v - 1] < 0) cz_fr_neg(&c, &c);
            CHECK(cz_r1cs_builder_term(b, CZ_A, v, &c) == CZ_OK);
        }
        CHECK(cz_r1cs_builder_end_constraint(b) == CZ_OK);
        cz_r1cs r;
        CHECK(cz_r1cs_builder_finish(b, &r) == CZ_OK);
        cz_fr w[9];
        for (int v = 0; v < 9; v++) cz_fr_one(&w[v]);
        cz_fr_zero(&w[5]);
        cz_fr_random(&w[7], &rng);
        uint64_t on_bits = 99;
        CHECK(cz_csr_general_terms(&r.m[CZ_A], w, &on_bits) == 4);
        CHECK_MSG(on_bits == 3, "general terms on bits: %llu", (unsigned long long)on_bits);
        CHECK(cz_csr_general_terms(&r.m[CZ_B], w, &on_bits) == 0 && on_bits == 0);
        cz_r1cs_free(&r);
    }
    cz_pool_destroy(pool);
    return cz_test_finish("test_r1cs");
}
