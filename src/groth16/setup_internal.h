/* setup_internal.h — the parts of the insecure Groth16 setup that the CPU
 * setup (setup.c) and the GPU setup (src/cuda/setup.cu) share, so that the
 * two cannot drift: the scalars every key point is the multiple of, the
 * generator tables of the fixed-base comb, and the comb itself on the CPU.
 *
 * Every key point is k·G for a scalar k known to the setup.
 * cz__setup_make_scalars derives them from the seed: the toxic waste (tau,
 * alpha, beta, gamma, delta), the Lagrange basis of the domain at tau, the
 * QAP column evaluations u = A^T L, v = B^T L, w = C^T L, and from those the
 * scalars of each query, in one array k laid out h | ic | l | a | b (offsets
 * below; a single unused entry sits between h and ic). The scalars of b_g1 and b_g2 are the same
 * (the b section serves both groups).
 *
 * The comb: NWIN = 32 windows of WBITS = 8 bits; table entry w·256 + d is
 * d·2^(8w)·G in affine form (entry 0 of each window is infinity, unused), so
 * k·G is the sum over the windows of the entries picked by k's bytes (plain,
 * not Montgomery), a zero byte adding nothing. The affine result is unique,
 * so any correct way of summing gives the CPU's bits. */
#ifndef CZ_GROTH16_SETUP_INTERNAL_H
#define CZ_GROTH16_SETUP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "groth16/groth16.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZ__SETUP_WBITS 8
#define CZ__SETUP_NWIN 32 /* 256 / WBITS */
#define CZ__SETUP_WSIZE (1 << CZ__SETUP_WBITS)
#define CZ__SETUP_TABLE_POINTS ((size_t)CZ__SETUP_NWIN * CZ__SETUP_WSIZE)

typedef struct {
    /* the key's lengths: h (m - 1), ic (n_inputs), l (n_aux), a and b (the
     * variables whose A / B column evaluates to non-zero; a counts every
     * input) */
    size_t n_h, n_ic, n_l, n_a, n_b;
    /* where each query's scalars start in k (h at 0) */
    size_t ic_off, l_off, a_off, b_off;
    size_t n_k;  /* entries allocated: m + 3 n_vars (at least 1) */
    cz_fr *k;    /* Montgomery form, heap */
    /* vk scalars: alpha, beta, delta (G1) and beta, gamma, delta (G2) */
    cz_fr vk_g1[3], vk_g2[3];
} cz__setup_scalars;

/* Fills s for cs from seed (see setup.c for how, and its memory). Fails with
 * CZ_ERR_INVALID_ARG when the seed puts tau in the domain or a QAP column
 * with entries vanishes at tau (pick another seed), CZ_ERR_NOMEM when out
 * of memory; s is then empty. The loops run on pool (may be NULL); the
 * result does not depend on the number of threads. */
cz_err cz__setup_make_scalars(cz__setup_scalars *s, const cz_r1cs *cs, uint64_t seed, cz_pool *pool,
                              char *msg, size_t msglen);
void cz__setup_scalars_free(cz__setup_scalars *s);

/* the comb's tables (CZ__SETUP_TABLE_POINTS points, malloc'd; NULL when out
 * of memory) */
cz_g1_aff *cz__setup_table_g1(void);
cz_g2_aff *cz__setup_table_g2(void);

/* out[i] = k[i]·G with a table from cz__setup_table_*, on pool (may be NULL) */
void cz__setup_fixed_base_g1(cz_g1_aff *out, const cz_fr *k, size_t n, const cz_g1_aff *table, cz_pool *pool);
void cz__setup_fixed_base_g2(cz_g2_aff *out, const cz_fr *k, size_t n, const cz_g2_aff *table, cz_pool *pool);
/* tests: the points a progress step of cz_groth16_setup_insecure_progress
 * makes (0: the defaults, 2^18 G1 and 2^16 G2) */
void cz__setup_progress_chunks(size_t g1, size_t g2);

/* vk's alpha_g1, beta_g1, delta_g1, beta_g2, gamma_g2, delta_g2 from s (on
 * the CPU); vk->ic and n_ic untouched. CZ_ERR_NOMEM when out of memory. */
cz_err cz__setup_vk_points(cz_groth16_vk *vk, const cz__setup_scalars *s);

#ifdef __cplusplus
}
#endif

#endif
