/* prover_internal.h — the part of a proof that the two CPU provers (the
 * bellperson one, prover.c, and the snarkjs one, prover_zkey.c) share after
 * their H: the four MSM stages and the assembly, so that their order,
 * progress calls and timings cannot drift apart. */
#ifndef CZ_GROTH16_PROVER_INTERNAL_H
#define CZ_GROTH16_PROVER_INTERNAL_H

#include "groth16/groth16.h"
#include "msm/msm.h"

typedef struct {
    cz_msm_g1_term hc[2];          /* H and L (bellperson) or H and C (snarkjs): one sum */
    const void *a, *b_g1, *b_g2;   /* bases over the variables (cz_g1_aff / cz_g2_aff) */
    const cz_fr *w;                /* the witness, n_vars entries, Montgomery */
    uint64_t n_vars;
    const uint64_t *da, *db;       /* the A and B densities of a, b_g1/b_g2, or NULL (every variable) */
    const char *names[4];          /* progress labels of the four stages */
} cz__groth16_msms;

/* The stages 2..5 of CZ_GROTH16_PROVE_STAGES: c = sum of hc, A, B (G1), B
 * (G2), each timed into tm (msm_hl_ms, msm_a_ms, msm_b1_ms, msm_b2_ms) and
 * announced to progress (may be NULL) as it starts; then
 * cz_groth16_assemble and ("proof", total, total). Returns the first MSM's
 * error (nothing assembled, no "proof" call) or CZ_OK. */
cz_err cz__groth16_msms_assemble(cz_groth16_proof *out, const cz_groth16_vk *vk, const cz__groth16_msms *j,
                                 const cz_fr *r, const cz_fr *s, cz_pool *pool, cz_groth16_timings *tm,
                                 cz_progress_fn progress, void *pctx);

#endif
