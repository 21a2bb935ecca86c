/* setup.c — an INSECURE, deterministic Groth16 setup for tests and
 * benchmarks. The toxic waste (tau, alpha, beta, gamma, delta) is derived from
 * a seed, so whoever knows the seed can forge proofs.
 *
 * Evaluations at tau of the QAP polynomials come from the Lagrange basis of
 * the domain: L_j(tau) = (tau^m - 1)/m · w^j / (tau - w^j) (one batch
 * inversion), then u = A^T L, v = B^T L, w = C^T L by one pass over the CSR
 * (plus the input rows input_i * 0 = 0). Every key point is k·G for a known k,
 * computed with a fixed-base comb: 32 windows of 8 bits, 255 precomputed
 * multiples per window, so one multiplication is 32 mixed additions. */
#include "groth16/groth16.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poly/ntt.h"

#define WBITS 8
#define NWIN 32 /* 256 / WBITS */
#define WSIZE (1 << WBITS)

/* fixed-base multiplication of the generator by many Montgomery scalars */
#define DEFINE_FIXED_BASE(G)                                                           \
    typedef struct {                                                                   \
        cz_##G##_aff *table; /* NWIN x WSIZE, entry 0 of each window unused */          \
        const cz_fr *k;                                                                \
        cz_##G##_aff *out;                                                             \
        size_t n;                                                                      \
    } G##_fb_job;                                                                      \
                                                                                       \
    static void G##_fb_chunk(void *ctx, size_t item)                                   \
    {                                                                                  \
        G##_fb_job *j = ctx;                                                           \
        size_t lo = item * 256, hi = lo + 256 < j->n ? lo + 256 : j->n;                 \
        cz_##G##_jac tmp[256];                                                         \
        for (size_t i = lo; i < hi; i++) {                                             \
            cz_fr plain;                                                               \
            cz_fr_from_mont(&plain, &j->k[i]);                                         \
            cz_##G##_xyzz acc;                                                         \
            cz_##G##_xyzz_set_inf(&acc);                                               \
            for (int w = 0; w < NWIN; w++) {                                           \
                unsigned d = (unsigned)(plain.l[w / 8] >> (8 * (w % 8))) & 0xff;       \
                if (d) cz_##G##_xyzz_add_mixed(&acc, &acc, &j->table[w * WSIZE + d]);  \
            }                                                                          \
            cz_##G##_xyzz_to_jac(&tmp[i - lo], &acc);                                  \
        }                                                                              \
        cz_##G##_batch_to_aff(&j->out[lo], tmp, hi - lo);                              \
    }                                                                                  \
                                                                                       \
    static cz_err G##_fixed_base(cz_##G##_aff *out, const cz_fr *k, size_t n,          \
                                 cz_pool *pool)                                        \
    {                                                                                  \
        cz_##G##_aff *table = malloc((size_t)NWIN * WSIZE * sizeof *table);            \
        cz_##G##_jac *row = malloc(WSIZE * sizeof *row);                               \
        if (!table || !row) { free(table); free(row); return CZ_ERR_NOMEM; }           \
        cz_##G##_jac base;                                                             \
        cz_##G##_generator_jac(&base);                                                 \
        for (int w = 0; w < NWIN; w++) {                                               \
            cz_##G##_set_inf(&row[0]);                                                 \
            row[1] = base;                                                             \
            for (int d = 2; d < WSIZE; d++) cz_##G##_add(&row[d], &row[d - 1], &base); \
            cz_##G##_batch_to_aff(&table[w * WSIZE], row, WSIZE);                      \
            cz_##G##_dbl(&base, &row[WSIZE / 2]); /* 2^WBITS * base */                 \
        }                                                                              \
        free(row);                                                                     \
        G##_fb_job j = {.table = table, .k = k, .out = out, .n = n};                   \
        cz_pool_run(pool, (n + 255) / 256, G##_fb_chunk, &j);                          \
        free(table);                                                                   \
        return CZ_OK;                                                                  \
    }

DEFINE_FIXED_BASE(g1)
DEFINE_FIXED_BASE(g2)

static void random_nonzero(cz_fr *x, cz_rng *rng)
{
    do cz_fr_random(x, rng);
    while (cz_fr_is_zero(x));
}

static void col_accumulate(cz_fr *acc, const cz_csr *mtx, const cz_fr *lag)
{
    for (uint64_t row = 0; row < mtx->n_rows; row++)
        for (uint64_t k = mtx->row_ptr[row]; k < mtx->row_ptr[row + 1]; k++) {
            uint32_t ci = mtx->cidx_bytes == 1   ? ((const uint8_t *)mtx->cidx)[k]
                          : mtx->cidx_bytes == 2 ? ((const uint16_t *)mtx->cidx)[k]
                                                 : ((const uint32_t *)mtx->cidx)[k];
            cz_fr t;
            cz_fr_mul(&t, &mtx->coefs[ci], &lag[row]);
            cz_fr_add(&acc[mtx->col[k]], &acc[mtx->col[k]], &t);
        }
}

cz_err cz_groth16_setup_insecure(cz_groth16_pk *pk, const cz_r1cs *cs, uint64_t seed, cz_pool *pool,
                                 char *msg, size_t msglen)
{
    memset(pk, 0, sizeof *pk);
    cz_err err = CZ_OK;
    int log_m = cz_groth16_domain_log(cs);
    size_t m = (size_t)1 << log_m, nv = cs->n_vars, ni = cs->n_inputs, naux = nv - ni;
    cz_rng rng;
    cz_rng_seed(&rng, seed ^ 0x43555a4b53455455ULL);
    cz_fr tau, alpha, beta, gamma, delta, gamma_inv, delta_inv, one;
    cz_fr_one(&one);
    random_nonzero(&tau, &rng);
    random_nonzero(&alpha, &rng);
    random_nonzero(&beta, &rng);
    random_nonzero(&gamma, &rng);
    random_nonzero(&delta, &rng);
    cz_fr_inv(&gamma_inv, &gamma);
    cz_fr_inv(&delta_inv, &delta);

    cz_ntt_domain dom = {0};
    cz_fr *lag = malloc(m * sizeof *lag), *scr = malloc(m * sizeof *scr);
    cz_fr *u = calloc(nv, sizeof *u), *v = calloc(nv, sizeof *v), *w = calloc(nv, sizeof *w);
    size_t nk = m + 3 * nv;
    cz_fr *k = malloc(nk * sizeof *k);
    if (!lag || !scr || !u || !v || !w || !k) { err = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory"); goto done; }
    /* constraint i at omega^i, omega from cs->ntt_generator (0: bellperson's 7) */
    if ((err = cz_ntt_domain_init(&dom, log_m, cs->ntt_generator ? cs->ntt_generator : 7))) {
        cz_fail(err, msg, msglen, "domain 2^%d", log_m);
        goto done;
    }

    /* Lagrange basis at tau; t(tau) = tau^m - 1 */
    cz_fr tm, t_tau, minv, wj;
    uint64_t e = m;
    cz_fr_pow(&tm, &tau, &e, 1);
    cz_fr_sub(&t_tau, &tm, &one);
    if (cz_fr_is_zero(&t_tau)) { err = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "seed puts tau in the domain; pick another seed"); goto done; }
    cz_fr_from_u64(&minv, m);
    cz_fr_inv(&minv, &minv);
    cz_fr_one(&wj);
    for (size_t j = 0; j < m; j++) {
        cz_fr_sub(&lag[j], &tau, &wj);
        cz_fr_mul(&wj, &wj, &dom.omega);
    }
    cz_fr_batch_inv(lag, lag, m, scr);
    cz_fr c0;
    cz_fr_mul(&c0, &t_tau, &minv);
    cz_fr_one(&wj);
    for (size_t j = 0; j < m; j++) {
        cz_fr_mul(&lag[j], &lag[j], &wj);
        cz_fr_mul(&lag[j], &lag[j], &c0);
        cz_fr_mul(&wj, &wj, &dom.omega);
    }
    col_accumulate(u, &cs->m[CZ_A], lag);
    col_accumulate(v, &cs->m[CZ_B], lag);
    col_accumulate(w, &cs->m[CZ_C], lag);
    for (size_t i = 0; i < ni; i++) cz_fr_add(&u[i], &u[i], &lag[cs->n_constraints + i]);

    /* scalars, laid out as: h (m-1) | ic (ni) | l (naux) | a | b   */
    size_t off = 0, n_h = m - 1;
    cz_fr p;
    cz_fr_mul(&p, &t_tau, &delta_inv);
    for (size_t i = 0; i < n_h; i++) { k[off++] = p; cz_fr_mul(&p, &p, &tau); }
    for (size_t i = 0; i < nv; i++) {
        cz_fr x, y;
        cz_fr_mul(&x, &beta, &u[i]);
        cz_fr_mul(&y, &alpha, &v[i]);
        cz_fr_add(&x, &x, &y);
        cz_fr_add(&x, &x, &w[i]);
        cz_fr_mul(&k[off++], &x, i < ni ? &gamma_inv : &delta_inv);
    }
    size_t a_off = off;
    for (size_t i = 0; i < nv; i++)
        if (!cz_fr_is_zero(&u[i])) k[off++] = u[i];
    size_t n_a = off - a_off, b_off = off;
    for (size_t i = 0; i < nv; i++)
        if (!cz_fr_is_zero(&v[i])) k[off++] = v[i];
    size_t n_b = off - b_off;
    /* the prover filters by column density; a column with entries whose
       evaluation vanishes would desynchronise the two (negligible for a random
       tau, but refuse rather than produce a broken key) */
    {
        size_t words = (nv + 63) / 64;
        uint64_t *bits = calloc(words ? words : 1, 8);
        if (!bits) { err = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory"); goto done; }
        uint64_t pa = cz_groth16_density_a(cs, bits);
        uint64_t pb = cz_r1cs_density(cs, CZ_B, bits);
        free(bits);
        if (pa != n_a || pb != n_b) { err = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "a QAP column vanishes at tau; pick another seed"); goto done; }
    }

    pk->n_h = n_h; pk->n_l = naux; pk->n_a = n_a; pk->n_b_g1 = n_b; pk->n_b_g2 = n_b;
    cz_g1_aff *g1pts = malloc((off ? off : 1) * sizeof *g1pts);
    pk->b_g2 = malloc((n_b ? n_b : 1) * sizeof *pk->b_g2);
    pk->vk.ic = malloc(ni * sizeof *pk->vk.ic);
    pk->h = malloc((n_h ? n_h : 1) * sizeof *pk->h);
    pk->l = malloc((naux ? naux : 1) * sizeof *pk->l);
    pk->a = malloc((n_a ? n_a : 1) * sizeof *pk->a);
    pk->b_g1 = malloc((n_b ? n_b : 1) * sizeof *pk->b_g1);
    if (!g1pts || !pk->b_g2 || !pk->vk.ic || !pk->h || !pk->l || !pk->a || !pk->b_g1) {
        free(g1pts);
        err = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
        goto done;
    }
    if ((err = g1_fixed_base(g1pts, k, off, pool)) || (err = g2_fixed_base(pk->b_g2, k + b_off, n_b, pool))) {
        free(g1pts);
        cz_fail(err, msg, msglen, "out of memory");
        goto done;
    }
    memcpy(pk->h, g1pts, n_h * sizeof *pk->h);
    memcpy(pk->vk.ic, g1pts + n_h, ni * sizeof *pk->vk.ic);
    memcpy(pk->l, g1pts + n_h + ni, naux * sizeof *pk->l);
    memcpy(pk->a, g1pts + a_off, n_a * sizeof *pk->a);
    memcpy(pk->b_g1, g1pts + b_off, n_b * sizeof *pk->b_g1);
    free(g1pts);
    pk->vk.n_ic = ni;

    /* vk points */
    cz_fr s1[3] = {alpha, beta, delta}, s2[3] = {beta, gamma, delta};
    cz_g1_aff v1[3];
    cz_g2_aff v2[3];
    if ((err = g1_fixed_base(v1, s1, 3, NULL)) || (err = g2_fixed_base(v2, s2, 3, NULL))) {
        cz_fail(err, msg, msglen, "out of memory");
        goto done;
    }
    pk->vk.alpha_g1 = v1[0]; pk->vk.beta_g1 = v1[1]; pk->vk.delta_g1 = v1[2];
    pk->vk.beta_g2 = v2[0]; pk->vk.gamma_g2 = v2[1]; pk->vk.delta_g2 = v2[2];
done:
    cz_ntt_domain_free(&dom);
    free(lag); free(scr); free(u); free(v); free(w); free(k);
    if (err) cz_groth16_pk_free(pk);
    return err;
}
