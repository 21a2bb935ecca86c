/* verifier.c — Groth16 verification with a prepared key.
 *
 * Single proof:  e(A, B) · e(acc, -gamma) · e(C, -delta) == e(alpha, beta),
 *   acc = ic_0 + sum_j x_j ic_{j+1}; one 3-pair Miller loop, one final exp.
 * Batch (as bellperson): with random 128-bit z_i,
 *   prod_i e(z_i A_i, B_i) · e(sum z_i acc_i, -gamma) · e(sum z_i C_i, -delta)
 *     == e(alpha, beta)^(sum z_i)
 * so n + 2 Miller loops and one final exponentiation for n proofs. */
#include "groth16/groth16.h"

#include <stdlib.h>
#include <string.h>

#include "pairing/pairing.h"

cz_err cz_groth16_prepare_vk(cz_groth16_pvk *out, const cz_groth16_vk *vk)
{
    memset(out, 0, sizeof *out);
    out->vk = *vk;
    out->vk.ic = malloc((vk->n_ic ? vk->n_ic : 1) * sizeof *vk->ic);
    if (!out->vk.ic) return CZ_ERR_NOMEM;
    memcpy(out->vk.ic, vk->ic, vk->n_ic * sizeof *vk->ic);
    cz_pairing(&out->alpha_beta, &vk->alpha_g1, &vk->beta_g2);
    cz_g2_aff_neg(&out->neg_gamma, &vk->gamma_g2);
    cz_g2_aff_neg(&out->neg_delta, &vk->delta_g2);
    return CZ_OK;
}

void cz_groth16_pvk_free(cz_groth16_pvk *pvk)
{
    free(pvk->vk.ic);
    memset(pvk, 0, sizeof *pvk);
}

/* acc = ic_0 + sum x_j ic_{j+1} (public inputs, variable time) */
static void input_acc(cz_g1_jac *acc, const cz_groth16_vk *vk, const cz_fr *x, size_t n)
{
    cz_g1_from_aff(acc, &vk->ic[0]);
    for (size_t j = 0; j < n; j++) {
        cz_g1_jac p, q;
        cz_fr plain;
        cz_g1_from_aff(&p, &vk->ic[j + 1]);
        cz_fr_from_mont(&plain, &x[j]);
        cz_g1_mul(&q, &p, plain.l, 255);
        cz_g1_add(acc, acc, &q);
    }
}

int cz_groth16_verify(const cz_groth16_pvk *pvk, const cz_groth16_proof *proof,
                      const cz_fr *public_inputs, size_t n_public)
{
    if (pvk->vk.n_ic != n_public + 1) return 0;
    cz_g1_jac acc;
    input_acc(&acc, &pvk->vk, public_inputs, n_public);
    cz_g1_aff ps[3];
    cz_g2_aff qs[3];
    ps[0] = proof->a;
    qs[0] = proof->b;
    cz_g1_to_aff(&ps[1], &acc);
    qs[1] = pvk->neg_gamma;
    ps[2] = proof->c;
    qs[2] = pvk->neg_delta;
    cz_fp12 f;
    cz_multi_pairing(&f, ps, qs, 3);
    return cz_gt_eq(&f, &pvk->alpha_beta);
}

int cz_groth16_verify_batch(const cz_groth16_pvk *pvk, const cz_groth16_proof *proofs,
                            const cz_fr *public_inputs, size_t n_public, size_t n, cz_rng *rng)
{
    if (n == 0) return 1;
    if (pvk->vk.n_ic != n_public + 1) return 0;
    cz_g1_aff *ps = malloc((n + 2) * sizeof *ps);
    cz_g2_aff *qs = malloc((n + 2) * sizeof *qs);
    cz_g1_jac *za = malloc(n * sizeof *za);
    if (!ps || !qs || !za) { free(ps); free(qs); free(za); return 0; }
    cz_g1_jac acc_sum, c_sum, t;
    cz_g1_set_inf(&acc_sum);
    cz_g1_set_inf(&c_sum);
    cz_fr zsum;
    cz_fr_zero(&zsum);
    for (size_t i = 0; i < n; i++) {
        uint64_t z[4] = {cz_rng_u64(rng), cz_rng_u64(rng) | 1, 0, 0}; /* 128-bit, non-zero */
        cz_fr zf, zplain = {{z[0], z[1], 0, 0}};
        cz_fr_to_mont(&zf, &zplain);
        cz_fr_add(&zsum, &zsum, &zf);
        cz_g1_jac p;
        cz_g1_from_aff(&p, &proofs[i].a);
        cz_g1_mul(&za[i], &p, z, 128);
        cz_g1_jac acc;
        input_acc(&acc, &pvk->vk, public_inputs + i * n_public, n_public);
        cz_g1_mul(&t, &acc, z, 128);
        cz_g1_add(&acc_sum, &acc_sum, &t);
        cz_g1_from_aff(&p, &proofs[i].c);
        cz_g1_mul(&t, &p, z, 128);
        cz_g1_add(&c_sum, &c_sum, &t);
        qs[i] = proofs[i].b;
    }
    cz_g1_batch_to_aff(ps, za, n);
    cz_g1_to_aff(&ps[n], &acc_sum);
    qs[n] = pvk->neg_gamma;
    cz_g1_to_aff(&ps[n + 1], &c_sum);
    qs[n + 1] = pvk->neg_delta;
    cz_fp12 f, rhs;
    cz_multi_pairing(&f, ps, qs, n + 2);
    cz_fr zp;
    cz_fr_from_mont(&zp, &zsum);
    cz_fp12_pow(&rhs, &pvk->alpha_beta, zp.l, 4);
    free(ps); free(qs); free(za);
    return cz_gt_eq(&f, &rhs);
}
