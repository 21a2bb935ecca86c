/* test_groth16.c — the Groth16 round trip on small random satisfiable
 * circuits: insecure setup, prove, verify; the proof must fail when any bit of
 * it or of a public input changes, when the witness does not satisfy the
 * circuit, or when the key belongs to another circuit; batch verification
 * accepts good batches and rejects a batch with one bad proof; fixed r, s
 * give identical proofs and different r, s different (valid) ones; the key
 * is the same whatever the number of threads that made it, and the same
 * when made with progress reports in small steps, whose stages come in
 * order, each rising to its total. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "groth16/groth16.h"

#include "formats/proof.h"
#include "groth16/setup_internal.h"

/* what the setup's progress reports said */
typedef struct {
    char stages[8][32];
    uint64_t last_done[8], total[8], calls[8];
    int n, bad;
} progress_log;

static void on_progress(void *ctx, const char *stage, uint64_t done, uint64_t total)
{
    progress_log *g = ctx;
    if (!g->n || strcmp(g->stages[g->n - 1], stage)) {
        if (g->n == 8) { g->bad = 1; return; }
        snprintf(g->stages[g->n], sizeof g->stages[0], "%s", stage);
        g->total[g->n] = total;
        g->n++;
    }
    int i = g->n - 1;
    if (total != g->total[i] || done <= g->last_done[i] || done > total) g->bad = 1;
    g->last_done[i] = done;
    g->calls[i]++;
}

/* x_i bits; y_j = x_a * x_b (AND), z = sum 2^i x_i (packing); inputs are
 * packed values of a few bits */
static void make_circuit(cz_r1cs *cs, cz_fr **wout, size_t n_bits, size_t n_inputs, cz_rng *rng)
{
    size_t n_and = n_bits;
    size_t ni = 1 + n_inputs, naux = n_bits + n_and;
    cz_fr *w = calloc(ni + naux, sizeof *w);
    cz_fr one, minus;
    cz_fr_one(&one);
    cz_fr_neg(&minus, &one);
    cz_fr_one(&w[0]);
    for (size_t i = 0; i < n_bits; i++) cz_fr_from_u64(&w[ni + i], cz_rng_u64(rng) & 1);
    cz_r1cs_builder *b;
    cz_r1cs_builder_new(&b, ni, naux);
    for (size_t i = 0; i < n_bits; i++) { /* x (1 - x) = 0 */
        cz_r1cs_builder_term(b, CZ_A, ni + i, &one);
        cz_r1cs_builder_term(b, CZ_B, 0, &one);
        cz_r1cs_builder_term(b, CZ_B, ni + i, &minus);
        cz_r1cs_builder_end_constraint(b);
    }
    for (size_t j = 0; j < n_and; j++) { /* x_a x_b = y_j */
        size_t xa = cz_rng_u64(rng) % n_bits, xb = cz_rng_u64(rng) % n_bits;
        cz_fr_mul(&w[ni + n_bits + j], &w[ni + xa], &w[ni + xb]);
        cz_r1cs_builder_term(b, CZ_A, ni + xa, &one);
        cz_r1cs_builder_term(b, CZ_B, ni + xb, &one);
        cz_r1cs_builder_term(b, CZ_C, ni + n_bits + j, &one);
        cz_r1cs_builder_end_constraint(b);
    }
    for (size_t k = 0; k < n_inputs; k++) { /* (sum 2^i x_(8k+i)) * 1 = input_k */
        cz_fr acc, pw, t;
        cz_fr_zero(&acc);
        cz_fr_one(&pw);
        for (size_t i = 0; i < 8; i++) {
            size_t x = ni + (8 * k + i) % n_bits;
            cz_r1cs_builder_term(b, CZ_A, x, &pw);
            cz_fr_mul(&t, &pw, &w[x]);
            cz_fr_add(&acc, &acc, &t);
            cz_fr_dbl(&pw, &pw);
        }
        cz_r1cs_builder_term(b, CZ_B, 0, &one);
        cz_r1cs_builder_term(b, CZ_C, 1 + k, &one);
        cz_r1cs_builder_end_constraint(b);
        w[1 + k] = acc;
    }
    cz_r1cs_builder_finish(b, cs);
    *wout = w;
}

static int same_pk(const cz_groth16_pk *a, const cz_groth16_pk *b)
{
    if (a->n_h != b->n_h || a->n_l != b->n_l || a->n_a != b->n_a || a->n_b_g1 != b->n_b_g1 ||
        a->n_b_g2 != b->n_b_g2 || a->vk.n_ic != b->vk.n_ic)
        return 0;
    return !memcmp(a->h, b->h, a->n_h * sizeof *a->h) && !memcmp(a->l, b->l, a->n_l * sizeof *a->l) &&
           !memcmp(a->a, b->a, a->n_a * sizeof *a->a) && !memcmp(a->b_g1, b->b_g1, a->n_b_g1 * sizeof *a->b_g1) &&
           !memcmp(a->b_g2, b->b_g2, a->n_b_g2 * sizeof *a->b_g2) &&
           !memcmp(a->vk.ic, b->vk.ic, a->vk.n_ic * sizeof *a->vk.ic) &&
           !memcmp(&a->vk.alpha_g1, &b->vk.alpha_g1, sizeof a->vk.alpha_g1) &&
           !memcmp(&a->vk.beta_g1, &b->vk.beta_g1, sizeof a->vk.beta_g1) &&
           !memcmp(&a->vk.delta_g1, &b->vk.delta_g1, sizeof a->vk.delta_g1) &&
           !memcmp(&a->vk.beta_g2, &b->vk.beta_g2, sizeof a->vk.beta_g2) &&
           !memcmp(&a->vk.gamma_g2, &b->vk.gamma_g2, sizeof a->vk.gamma_g2) &&
           !memcmp(&a->vk.delta_g2, &b->vk.delta_g2, sizeof a->vk.delta_g2);
}

static int verify_bytes(const cz_groth16_pvk *pvk, const uint8_t *pb, const cz_fr *pub, size_t np)
{
    cz_groth16_proof p;
    if (cz_proof_decode(&p, pb) != CZ_OK) return 0; /* undecodable = rejected */
    return cz_groth16_verify(pvk, &p, pub, np);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_groth16", 31));
    cz_pool *pool;
    CHECK(cz_pool_create(&pool, 2) == CZ_OK);
    char msg[256];
    static const size_t bit_counts[] = {3, 40, 300, 2000};
    for (size_t ci = 0; ci < sizeof bit_counts / sizeof *bit_counts; ci++) {
        size_t n_inputs = 2 + ci;
        cz_r1cs cs;
        cz_fr *w;
        make_circuit(&cs, &w, bit_counts[ci], n_inputs, &rng);
        uint64_t bad;
        CHECK(cz_r1cs_is_satisfied(&cs, w, &bad, pool));
        cz_groth16_pk pk;
        CHECK_MSG(cz_groth16_setup_insecure(&pk, &cs, 100 + ci, pool, msg, sizeof msg) == CZ_OK, "%s", msg);
        cz_groth16_pvk pvk;
        CHECK(cz_groth16_prepare_vk(&pvk, &pk.vk) == CZ_OK);
        cz_fr r, s;
        cz_fr_random(&r, &rng);
        cz_fr_random(&s, &rng);
        cz_groth16_proof pr, pr2;
        CHECK_MSG(cz_groth16_prove(&pr, &pk, &cs, w, &r, &s, pool, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
        const cz_fr *pub = w + 1;
        CHECK_MSG(cz_groth16_verify(&pvk, &pr, pub, n_inputs), "circuit %zu", ci);
        /* same r, s: same proof; other r, s: other proof, also valid */
        CHECK(cz_groth16_prove(&pr2, &pk, &cs, w, &r, &s, NULL, NULL, msg, sizeof msg) == CZ_OK);
        uint8_t e1[192], e2[192];
        cz_proof_encode(e1, &pr);
        cz_proof_encode(e2, &pr2);
        CHECK(memcmp(e1, e2, 192) == 0);
        cz_fr r2 = r;
        cz_fr_add(&r2, &r2, &s);
        CHECK(cz_groth16_prove(&pr2, &pk, &cs, w, &r2, &s, pool, NULL, msg, sizeof msg) == CZ_OK);
        cz_proof_encode(e2, &pr2);
        CHECK(memcmp(e1, e2, 192) != 0);
        CHECK(cz_groth16_verify(&pvk, &pr2, pub, n_inputs));
        /* every flipped bit of the proof is rejected (decode or verify) */
        int all_rejected = 1;
        for (int bit = 0; bit < 192 * 8; bit += (ci == 0 ? 1 : 7)) {
            uint8_t m[192];
            memcpy(m, e1, 192);
            m[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            if (verify_bytes(&pvk, m, pub, n_inputs)) { all_rejected = 0; break; }
        }
        CHECK(all_rejected);
        CHECK(verify_bytes(&pvk, e1, pub, n_inputs));
        /* flipped bits of each public input */
        for (size_t k = 0; k < n_inputs; k++) {
            for (int bit = 0; bit < 255; bit += 31) {
                cz_fr *pubm = malloc(n_inputs * sizeof *pubm);
                memcpy(pubm, pub, n_inputs * sizeof *pubm);
                cz_fr plain;
                cz_fr_from_mont(&plain, &pubm[k]);
                plain.l[bit / 64] ^= (uint64_t)1 << (bit % 64);
                cz_fr_to_mont(&pubm[k], &plain);
                CHECK(!cz_groth16_verify(&pvk, &pr, pubm, n_inputs));
                free(pubm);
            }
        }
        CHECK(!cz_groth16_verify(&pvk, &pr, pub, n_inputs - 1)); /* wrong count */
        /* a non-satisfying witness is caught by the check and its proof fails */
        size_t victim = cs.n_inputs + cs.n_vars / 2;
        cz_fr saved = w[victim];
        cz_fr_add(&w[victim], &w[victim], &w[0]);
        CHECK(!cz_r1cs_is_satisfied(&cs, w, &bad, pool));
        CHECK(cz_groth16_prove(&pr2, &pk, &cs, w, &r, &s, pool, NULL, msg, sizeof msg) == CZ_OK);
        CHECK(!cz_groth16_verify(&pvk, &pr2, pub, n_inputs));
        w[victim] = saved;
        /* batch: 3 good accepted; one bad inside rejected */
        cz_groth16_proof batch[3];
        cz_fr *pubs = malloc(3 * n_inputs * sizeof *pubs);
        for (int i = 0; i < 3; i++) {
            cz_fr ri, si;
            cz_fr_random(&ri, &rng);
            cz_fr_random(&si, &rng);
            cz_groth16_prove(&batch[i], &pk, &cs, w, &ri, &si, pool, NULL, msg, sizeof msg);
            memcpy(pubs + i * n_inputs, pub, n_inputs * sizeof *pub);
        }
        CHECK(cz_groth16_verify_batch(&pvk, batch, pubs, n_inputs, 3, &rng));
        batch[1].c = batch[0].c;
        CHECK(!cz_groth16_verify_batch(&pvk, batch, pubs, n_inputs, 3, &rng));
        batch[1] = batch[2];
        cz_fr_add(&pubs[n_inputs], &pubs[n_inputs], &w[0]);
        CHECK(!cz_groth16_verify_batch(&pvk, batch, pubs, n_inputs, 3, &rng));
        free(pubs);
        cz_groth16_pvk_free(&pvk);
        /* a key for another circuit is refused before proving */
        if (ci > 0) {
            cz_r1cs cs2;
            cz_fr *w2;
            make_circuit(&cs2, &w2, bit_counts[ci] + 1, n_inputs, &rng);
            CHECK(cz_groth16_prove(&pr2, &pk, &cs2, w2, &r, &s, pool, NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
            cz_r1cs_free(&cs2);
            free(w2);
        }
        /* the key does not depend on the number of threads */
        if (ci == sizeof bit_counts / sizeof *bit_counts - 1) {
            cz_pool *p5;
            cz_groth16_pk pk1, pk5;
            CHECK(cz_pool_create(&p5, 5) == CZ_OK);
            CHECK(cz_groth16_setup_insecure(&pk1, &cs, 100 + ci, NULL, msg, sizeof msg) == CZ_OK);
            CHECK(cz_groth16_setup_insecure(&pk5, &cs, 100 + ci, p5, msg, sizeof msg) == CZ_OK);
            CHECK(same_pk(&pk, &pk1));
            CHECK(same_pk(&pk, &pk5));
            cz_groth16_pk_free(&pk1);
            cz_groth16_pk_free(&pk5);
            /* with progress in steps of 7 G1 and 3 G2 points */
            progress_log g = {0};
            cz__setup_progress_chunks(7, 3);
            CHECK(cz_groth16_setup_insecure_progress(&pk1, &cs, 100 + ci, p5, on_progress, &g, msg, sizeof msg) ==
                  CZ_OK);
            cz__setup_progress_chunks(0, 0);
            CHECK(same_pk(&pk, &pk1));
            static const char *want[] = {"QAP at tau", "h points", "l points", "a points", "b points (G1)",
                                         "b points (G2)"};
            const uint64_t totals[] = {1, pk.n_h, pk.n_l, pk.n_a, pk.n_b_g1, pk.n_b_g2};
            const uint64_t steps[] = {1, 7, 7, 7, 7, 3};
            CHECK_MSG(!g.bad && g.n == 6, "progress: %d stages, bad %d", g.n, g.bad);
            for (int i = 0; i < g.n && i < 6; i++) {
                CHECK_MSG(!strcmp(g.stages[i], want[i]), "stage %d is '%s', want '%s'", i, g.stages[i], want[i]);
                CHECK_MSG(g.total[i] == totals[i] && g.last_done[i] == totals[i], "stage %s: %llu of %llu, want %llu",
                          want[i], (unsigned long long)g.last_done[i], (unsigned long long)g.total[i],
                          (unsigned long long)totals[i]);
                CHECK_MSG(g.calls[i] == (totals[i] + steps[i] - 1) / steps[i], "stage %s: %llu reports", want[i],
                          (unsigned long long)g.calls[i]);
            }
            cz_groth16_pk_free(&pk1);
            cz_pool_destroy(p5);
        }
        cz_groth16_pk_free(&pk);
        cz_r1cs_free(&cs);
        free(w);
    }
    cz_pool_destroy(pool);
    return cz_test_finish("test_groth16");
}
