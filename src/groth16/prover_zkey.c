/* prover_zkey.c — the Groth16 prover for snarkjs proving keys (.zkey), doing
 * what snarkjs's groth16 prove does, on the SpMV, NTT and MSM code the
 * bellperson prover uses.
 *
 *   a, b = A w, B w over the zkey's coefficient rows (n = domain size), c = a∘b
 *   each of a, b, c: iNTT, times w_2n^i, NTT -> values on the odd points
 *       w_2n^(2i+1) of the 2n domain (roots from the generator 5, as snarkjs)
 *   h_i = a_i b_i - c_i: (A B - C)(w_2n^(2i+1)); the H bases are the matching
 *       odd Lagrange points L_{2i+1}(tau)/delta, and (A B - C) vanishes on the
 *       even points, so sum h_i H_i = (A B - C)(tau)/delta: no division by Z
 *   MSMs: A, B1, B2 over all signals; C over the private ones plus H over h
 *       in one run (their sums are added anyway)
 *   proof = cz_groth16_assemble (the formulas snarkjs and bellperson share) */
#include "groth16/prover_internal.h"
#include "util/mem.h"
#include "util/clock.h"
#include "util/mapguard.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "msm/msm.h"
#include "ff/fr_x8.h"
#include "poly/ntt.h"

#define SNARKJS_GENERATOR 5

struct abjob {
    cz_fr *a, *b, *c;
    size_t n;
    int stage; /* 0: c = a b; 1: a = a b - c */
};

static void ab_task(void *ctx, size_t item)
{
    struct abjob *j = ctx;
    size_t lo = item * 4096, hi = lo + 4096 < j->n ? lo + 4096 : j->n;
    if (j->stage == 0) cz_fr_mul_sub_scale(j->c + lo, j->a + lo, j->b + lo, NULL, NULL, hi - lo);
    else cz_fr_mul_sub_scale(j->a + lo, j->a + lo, j->b + lo, j->c + lo, NULL, hi - lo);
}

/* out = a primitive 2^k-th root of unity g^((r-1)/2^k), k <= 32 */
static void root_of_unity(cz_fr *out, int k)
{
    uint64_t e[4];
    memcpy(e, cz_fr_modulus.l, sizeof e);
    e[0] -= 1; /* r - 1 (r is odd) */
    for (int i = 0; i < k; i++) { /* shift right by one */
        for (int l = 0; l < 3; l++) e[l] = e[l] >> 1 | e[l + 1] << 63;
        e[3] >>= 1;
    }
    cz_fr g;
    cz_fr_from_u64(&g, SNARKJS_GENERATOR);
    cz_fr_pow(out, &g, e, 4);
}

cz_err cz_groth16_prove_zkey_progress(cz_groth16_proof *out, const cz_groth16_zpk *pk, const cz_fr *w,
                                      const cz_fr *r, const cz_fr *s, cz_pool *pool, cz_groth16_timings *t,
                                      cz_progress_fn progress, void *pctx, char *msg, size_t msglen)
{
    cz_groth16_timings tm = {0};
    double t0 = cz_now_ms(), ts;
    cz_err err = CZ_OK;
    int log_n = pk->log_domain;
    if (log_n < 0 || log_n >= CZ_FR_TWO_ADICITY)
        return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "domain 2^%d is not supported (at most 2^31)", log_n);
    size_t n = (size_t)1 << log_n;
    uint64_t n_in = pk->n_public + 1;
    if (pk->qap.n_constraints != n || pk->qap.n_vars != pk->n_vars || pk->qap.n_inputs != n_in ||
        pk->vk.n_ic != n_in || n_in > pk->n_vars)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "inconsistent zkey proving key");
    if (!cz_fr_is_one(&w[0])) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "witness[0] must be 1");
    cz_fr *a = cz_big_array(n, 3 * sizeof(cz_fr)), *b = a ? a + n : NULL, *c = a ? a + 2 * n : NULL; /* one block */
    cz_ntt_domain dom = {0};
    if (!a || !b || !c) { err = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory (domain 2^%d)", log_n); goto done; }

    if (progress) progress(pctx, "SpMV", 0, CZ_GROTH16_PROVE_STAGES);
    ts = cz_now_ms();
    cz_r1cs_spmv(&pk->qap, w, a, b, NULL, pool);
    struct abjob j = {.a = a, .b = b, .c = c, .n = n, .stage = 0};
    cz_pool_run(pool, (n + 4095) / 4096, ab_task, &j);
    tm.spmv_ms = cz_now_ms() - ts;

    if (progress) progress(pctx, "H (NTTs)", 1, CZ_GROTH16_PROVE_STAGES);
    ts = cz_now_ms();
    if ((err = cz_ntt_domain_init(&dom, log_n, SNARKJS_GENERATOR))) {
        cz_fail(err, msg, msglen, "cannot build NTT domain 2^%d", log_n);
        goto done;
    }
    cz_fr inc;
    root_of_unity(&inc, log_n + 1);
    cz_fr *v[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        cz_ntt_inverse_scaled(&dom, v[k], &inc, pool);
        cz_ntt_forward(&dom, v[k], pool);
    }
    j.stage = 1;
    cz_pool_run(pool, (n + 4095) / 4096, ab_task, &j);
    tm.ntt_ms = cz_now_ms() - ts;

    cz__groth16_msms mj = {
        .hc = {{pk->h, a, n, NULL}, {pk->c, w + n_in, pk->n_vars - n_in, NULL}},
        .a = pk->a, .b_g1 = pk->b_g1, .b_g2 = pk->b_g2, .w = w, .n_vars = pk->n_vars,
        .names = {"MSM H + C", "MSM A", "MSM B (G1)", "MSM B (G2)"}};
    if ((err = cz__groth16_msms_assemble(out, &pk->vk, &mj, r, s, pool, &tm, progress, pctx)))
        cz_fail(err, msg, msglen, "MSM failed: %s", cz_strerror(err));
done:
    cz_ntt_domain_free(&dom);
    cz_big_free(a);
    {   /* a key or constraint system mapped from a file that shrank meanwhile
         * was read as zeros past its new end (util/mapguard.h): whatever
         * came of it, the truncation is the error, and no proof is given */
        const void *mapped[] = {pk->h, pk->c, pk->a, pk->b_g1, pk->b_g2};
        for (size_t i = 0; i < sizeof mapped / sizeof mapped[0]; i++)
            if (cz_mapguard_check(mapped[i], msg, msglen)) { err = CZ_ERR_IO; break; }
    }
    tm.total_ms = cz_now_ms() - t0;
    if (t) *t = tm;
    return err;
}

cz_err cz_groth16_prove_zkey(cz_groth16_proof *out, const cz_groth16_zpk *pk, const cz_fr *w, const cz_fr *r,
                             const cz_fr *s, cz_pool *pool, cz_groth16_timings *t, char *msg, size_t msglen)
{
    return cz_groth16_prove_zkey_progress(out, pk, w, r, s, pool, t, NULL, NULL, msg, msglen);
}
