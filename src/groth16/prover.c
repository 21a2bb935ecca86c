/* prover.c — the Groth16 prover, as bellperson computes it.
 *
 *   a, b, c = A w, B w, C w, extended by one row per input (a = w_i, b = c = 0)
 *   H:  a, b, c <- iNTT; coset NTT; h = (a b - c) / (g^m - 1); coset iNTT;
 *       keep the first m - 1 coefficients. Computed with six transforms, not
 *       seven: the coset iNTT is linear and undoes the coset NTT, and g^m - 1
 *       is one constant on the coset, so h = (coset_iNTT(a b) - iNTT(c)) /
 *       (g^m - 1), and c needs no coset NTT (the same values). The roots of unity and the coset
 *       come from the generator g = 7, or cs->ntt_generator when set (5 for
 *       a system exported from a snarkjs .zkey: its A/B/L points put
 *       constraint i at 5-based omega^i)
 *   A = alpha + sum w_i a_i + r delta                           (G1)
 *   B = beta  + sum w_i b_i + s delta                           (G2, and G1 for C)
 *   C = sum h_i H_i + sum aux_i L_i + s A + r B_g1 - r s delta  (G1)
 * The MSMs skip zero scalars and add one-scalars directly (msm.h). */
#include "groth16/prover_internal.h"
#include "util/mem.h"
#include "util/clock.h"
#include "util/mapguard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ff/fr_x8.h"
#include "msm/msm.h"
#include "poly/ntt.h"

#define BELLPERSON_GENERATOR 7

cz_err cz_groth16_random_fr(cz_fr *out)
{
    for (;;) { /* rejection sampling on 255-bit strings: accepts ~90% */
        uint8_t b[32];
        cz_err e = cz_os_random(b, sizeof b);
        if (e) return e;
        b[31] &= 0x7f;
        if (cz_fr_from_bytes_le(out, b) == CZ_OK) return CZ_OK;
    }
}

int cz_groth16_domain_log(const cz_r1cs *cs)
{
    uint64_t need = cs->n_constraints + cs->n_inputs;
    int k = 0;
    while (((uint64_t)1 << k) < need) k++;
    return k;
}

uint64_t cz_groth16_density_a(const cz_r1cs *cs, uint64_t *bits)
{
    cz_r1cs_density(cs, CZ_A, bits);
    for (uint64_t i = 0; i < cs->n_inputs; i++) bits[i / 64] |= (uint64_t)1 << (i % 64);
    uint64_t pop = 0;
    for (uint64_t i = 0; i < (cs->n_vars + 63) / 64; i++) pop += (uint64_t)__builtin_popcountll(bits[i]);
    return pop;
}

struct hjob {
    cz_fr *a, *b, *c;
    cz_fr zinv;
    size_t n;
    int stage; /* 0: a <- a b on the coset; 1: a <- (a - c) / Z on coefficients */
};

static void h_pointwise(void *ctx, size_t item)
{
    struct hjob *j = ctx;
    size_t lo = item * 4096, hi = lo + 4096 < j->n ? lo + 4096 : j->n;
    if (j->stage == 0) cz_fr_mul_sub_scale(j->a + lo, j->a + lo, j->b + lo, NULL, NULL, hi - lo);
    else cz_fr_mul_sub_scale(j->a + lo, j->a + lo, NULL, j->c + lo, &j->zinv, hi - lo);
}

void cz_groth16_assemble(cz_groth16_proof *out, const cz_groth16_vk *vk, const cz_g1_jac *a_acc,
                         const cz_g2_jac *b2_acc, const cz_g1_jac *b1_acc, const cz_g1_jac *c_acc,
                         const cz_fr *r, const cz_fr *s)
{
    cz_g1_jac ga, gb1, gc, d1, tmp;
    cz_g2_jac gb, d2;
    cz_fr rs;
    cz_g1_from_aff(&d1, &vk->delta_g1);
    cz_g2_from_aff(&d2, &vk->delta_g2);
    /* A = alpha + sum + r delta */
    cz_g1_mul_fr(&ga, &d1, r);
    cz_g1_add_mixed(&ga, &ga, &vk->alpha_g1);
    cz_g1_add(&ga, &ga, a_acc);
    /* B = beta + sum + s delta (G2 and G1) */
    cz_g2_mul_fr(&gb, &d2, s);
    cz_g2_add_mixed(&gb, &gb, &vk->beta_g2);
    cz_g2_add(&gb, &gb, b2_acc);
    cz_g1_mul_fr(&gb1, &d1, s);
    cz_g1_add_mixed(&gb1, &gb1, &vk->beta_g1);
    cz_g1_add(&gb1, &gb1, b1_acc);
    /* C = c_acc + s A + r B1 - r s delta */
    cz_g1_mul_fr(&tmp, &ga, s);
    cz_g1_add(&gc, c_acc, &tmp);
    cz_g1_mul_fr(&tmp, &gb1, r);
    cz_g1_add(&gc, &gc, &tmp);
    cz_fr_mul(&rs, r, s);
    cz_g1_mul_fr(&tmp, &d1, &rs);
    cz_g1_neg(&tmp, &tmp);
    cz_g1_add(&gc, &gc, &tmp);
    cz_g1_to_aff(&out->a, &ga);
    cz_g2_to_aff(&out->b, &gb);
    cz_g1_to_aff(&out->c, &gc);
}

cz_err cz__groth16_msms_assemble(cz_groth16_proof *out, const cz_groth16_vk *vk, const cz__groth16_msms *j,
                                 const cz_fr *r, const cz_fr *s, cz_pool *pool, cz_groth16_timings *tm,
                                 cz_progress_fn progress, void *pctx)
{
    cz_g1_jac c_acc, a_acc, b1_acc;
    cz_g2_jac b2_acc;
    cz_err err;
    double ts;
    if (progress) progress(pctx, j->names[0], 2, CZ_GROTH16_PROVE_STAGES);
    ts = cz_now_ms();
    if ((err = cz_msm_g1_sum(&c_acc, j->hc, 2, 1, pool))) return err;
    tm->msm_hl_ms = cz_now_ms() - ts;
    if (progress) progress(pctx, j->names[1], 3, CZ_GROTH16_PROVE_STAGES);
    ts = cz_now_ms();
    if ((err = cz_msm_g1(&a_acc, j->a, j->w, j->n_vars, 1, j->da, pool))) return err;
    tm->msm_a_ms = cz_now_ms() - ts;
    if (progress) progress(pctx, j->names[2], 4, CZ_GROTH16_PROVE_STAGES);
    ts = cz_now_ms();
    if ((err = cz_msm_g1(&b1_acc, j->b_g1, j->w, j->n_vars, 1, j->db, pool))) return err;
    tm->msm_b1_ms = cz_now_ms() - ts;
    if (progress) progress(pctx, j->names[3], 5, CZ_GROTH16_PROVE_STAGES);
    ts = cz_now_ms();
    if ((err = cz_msm_g2(&b2_acc, j->b_g2, j->w, j->n_vars, 1, j->db, pool))) return err;
    tm->msm_b2_ms = cz_now_ms() - ts;
    cz_groth16_assemble(out, vk, &a_acc, &b2_acc, &b1_acc, &c_acc, r, s);
    if (progress) progress(pctx, "proof", CZ_GROTH16_PROVE_STAGES, CZ_GROTH16_PROVE_STAGES);
    return CZ_OK;
}

cz_err cz_groth16_prove_progress(cz_groth16_proof *out, const cz_groth16_pk *pk, const cz_r1cs *cs,
                                 const cz_fr *w, const cz_fr *r, const cz_fr *s, cz_pool *pool,
                                 cz_groth16_timings *t, cz_progress_fn progress, void *pctx, char *msg,
                                 size_t msglen)
{
    cz_groth16_timings tm = {0};
    double t0 = cz_now_ms(), ts;
    cz_err err = CZ_OK;
    int log_m = cz_groth16_domain_log(cs);
    size_t m = (size_t)1 << log_m;
    uint64_t n_aux = cs->n_vars - cs->n_inputs;
    size_t words = (cs->n_vars + 63) / 64;
    uint64_t *da = calloc(words ? words : 1, 8), *db = calloc(words ? words : 1, 8);
    cz_fr *a = cz_big_array(m, 3 * sizeof(cz_fr)), *b = a ? a + m : NULL, *c = a ? a + 2 * m : NULL; /* one block */
    cz_ntt_domain dom = {0};
    if (!da || !db || !a || !b || !c) { err = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory (domain 2^%d)", log_m); goto done; }
    uint64_t na = cz_groth16_density_a(cs, da), nb = cz_r1cs_density(cs, CZ_B, db);
    if (pk->vk.n_ic != cs->n_inputs || pk->n_l != n_aux || pk->n_h != m - 1 || pk->n_a != na ||
        pk->n_b_g1 != nb || pk->n_b_g2 != nb) {
        err = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                   "proving key does not fit the constraint system: key has ic=%zu h=%zu l=%zu a=%zu b=%zu/%zu, "
                   "circuit needs ic=%llu h=%zu l=%llu a=%llu b=%llu",
                   pk->vk.n_ic, pk->n_h, pk->n_l, pk->n_a, pk->n_b_g1, pk->n_b_g2,
                   (unsigned long long)cs->n_inputs, m - 1, (unsigned long long)n_aux,
                   (unsigned long long)na, (unsigned long long)nb);
        goto done;
    }
    if (!cz_fr_is_one(&w[0])) { err = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "witness[0] must be 1"); goto done; }

    if (progress) progress(pctx, "SpMV", 0, CZ_GROTH16_PROVE_STAGES);
    ts = cz_now_ms();
    cz_r1cs_spmv(cs, w, a, b, c, pool);
    for (uint64_t i = 0; i < cs->n_inputs; i++) a[cs->n_constraints + i] = w[i];
    tm.spmv_ms = cz_now_ms() - ts;

    if (progress) progress(pctx, "H (NTTs)", 1, CZ_GROTH16_PROVE_STAGES);
    ts = cz_now_ms();
    if ((err = cz_ntt_domain_init(&dom, log_m, cs->ntt_generator ? cs->ntt_generator : BELLPERSON_GENERATOR))) {
        cz_fail(err, msg, msglen, "cannot build NTT domain 2^%d", log_m);
        goto done;
    }
    /* a, b: iNTT then coset NTT (the coset shift g^j rides on the iNTT's
     * last pass); c: iNTT only */
    cz_fr *ab[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        cz_ntt_inverse_scaled(&dom, ab[k], &dom.gen, pool);
        cz_ntt_forward(&dom, ab[k], pool);
    }
    cz_ntt_inverse(&dom, c, pool);
    struct hjob hj = {.a = a, .b = b, .c = c, .n = m};
    {   /* Z on the coset is the constant g^m - 1 */
        uint64_t e = m;
        cz_fr one;
        cz_fr_pow(&hj.zinv, &dom.gen, &e, 1);
        cz_fr_one(&one);
        cz_fr_sub(&hj.zinv, &hj.zinv, &one);
        cz_fr_inv(&hj.zinv, &hj.zinv);
    }
    cz_pool_run(pool, (m + 4095) / 4096, h_pointwise, &hj);
    cz_ntt_coset_inverse(&dom, a, pool);
    hj.stage = 1;
    cz_pool_run(pool, (m + 4095) / 4096, h_pointwise, &hj);
    tm.ntt_ms = cz_now_ms() - ts;

    cz__groth16_msms mj = {
        .hc = {{pk->h, a, m - 1, NULL}, {pk->l, w + cs->n_inputs, n_aux, NULL}},
        .a = pk->a, .b_g1 = pk->b_g1, .b_g2 = pk->b_g2, .w = w, .n_vars = cs->n_vars, .da = da, .db = db,
        .names = {"MSM h + l", "MSM a", "MSM b (G1)", "MSM b (G2)"}};
    if ((err = cz__groth16_msms_assemble(out, &pk->vk, &mj, r, s, pool, &tm, progress, pctx)))
        cz_fail(err, msg, msglen, "MSM failed: %s", cz_strerror(err));
done:
    cz_ntt_domain_free(&dom);
    free(da); free(db); cz_big_free(a);
    {   /* a key or constraint system mapped from a file that shrank meanwhile
         * was read as zeros past its new end (util/mapguard.h): whatever
         * came of it, the truncation is the error, and no proof is given */
        const void *mapped[] = {pk->map, cs->map};
        for (size_t i = 0; i < sizeof mapped / sizeof mapped[0]; i++)
            if (cz_mapguard_check(mapped[i], msg, msglen)) { err = CZ_ERR_IO; break; }
    }
    tm.total_ms = cz_now_ms() - t0;
    if (t) *t = tm;
    return err;
}

cz_err cz_groth16_prove(cz_groth16_proof *out, const cz_groth16_pk *pk, const cz_r1cs *cs,
                        const cz_fr *w, const cz_fr *r, const cz_fr *s, cz_pool *pool,
                        cz_groth16_timings *t, char *msg, size_t msglen)
{
    return cz_groth16_prove_progress(out, pk, cs, w, r, s, pool, t, NULL, NULL, msg, msglen);
}
