/* groth16.h — Groth16 keys, proofs, prover, verifier and an insecure test
 * setup, laid out as bellperson lays them out so .params files map onto them.
 *
 * Variables: index 0 is ONE, then the public inputs, then aux (see r1cs.h).
 * bellperson appends one constraint `input_i * 0 = 0` per input (ONE too) after
 * the circuit's own constraints, so every input has an A entry; the domain is
 * the smallest power of two >= n_constraints + n_inputs. The proving key:
 *   h:    m - 1 points  tau^i t(tau) / delta          (m = domain size)
 *   l:    n_aux points  (beta u_i + alpha v_i + w_i) / delta, aux variables
 *   a:    u_i(tau) G1 for the variables whose A column is non-zero, in order
 *   b_g1, b_g2: v_i(tau) in G1 / G2 for the variables whose B column is non-zero
 * Inputs come first within a / b. */
#ifndef CZ_GROTH16_GROTH16_H
#define CZ_GROTH16_GROTH16_H

#include <stddef.h>
#include <stdint.h>
#include "ec/ec.h"
#include "r1cs/r1cs.h"
#include "util/err.h"
#include "util/pool.h"
#include "util/progress.h"
#include "ff/tower.h"

typedef struct {
    cz_g1_aff alpha_g1, beta_g1, delta_g1;
    cz_g2_aff beta_g2, gamma_g2, delta_g2;
    size_t n_ic;
    cz_g1_aff *ic;      /* n_inputs points (ONE first) */
} cz_groth16_vk;

typedef struct {
    cz_groth16_vk vk;
    size_t n_h, n_l, n_a, n_b_g1, n_b_g2;
    cz_g1_aff *h, *l, *a, *b_g1;
    cz_g2_aff *b_g2;
    /* storage: owned heap arrays, or a mapping (map != NULL) that the query
     * arrays point into; vk.ic is always heap-owned */
    void *map;
    size_t map_len;
} cz_groth16_pk;

typedef struct {
    cz_g1_aff a;
    cz_g2_aff b;
    cz_g1_aff c;
} cz_groth16_proof;

#define CZ_GROTH16_PROOF_BYTES 192

void cz_groth16_vk_free(cz_groth16_vk *vk);
void cz_groth16_pk_free(cz_groth16_pk *pk);

/* ---- proving (prover.c) ---- */
typedef struct {
    /* msm_hl_ms: the H and L (bellperson) / C (zkey) MSMs, summed in one run
     * on the CPU; a backend that runs them apart (CUDA) fills msm_h_ms and
     * msm_l_ms too, and msm_hl_ms is their sum. upload_ms and h2d_bytes: the
     * witness's trip to the device (0 on the CPU). on_cpu: 1 when a CUDA
     * backend proved this partition on the CPU (it did not fit, or a CUDA
     * error); stage: how the witness went to the device (CZ_STAGE_*, 0 on
     * the CPU), staged_bytes: how much of it crossed ahead of the kernels,
     * outside the device's kernel lock (docs/GPU_PROVER.md) */
    double spmv_ms, ntt_ms, msm_hl_ms, msm_a_ms, msm_b1_ms, msm_b2_ms, total_ms;
    double upload_ms, msm_h_ms, msm_l_ms;
    double device_ms; /* the device's wall from the first kernel to the last sum (0 on the CPU): the
                         stages' sum, or below it where they overlap (CUDA, unless CZ_PROVER_OVERLAP=0) */
    uint64_t h2d_bytes, staged_bytes;
    int on_cpu, stage;
    int overlap; /* CUDA: 1 when the SpMV and H ran beside the witness MSMs (CZ_PROVER_OVERLAP) */
    int h_copies; /* CUDA: 1 when the H MSM summed through window copies of its bases (docs/CUDA_MSM.md) */
} cz_groth16_timings;

/* the witness's way to the device, chosen per partition from the budget:
 * FULL, all of it staged in the worker's own device buffer; PART, its first
 * staged_bytes there and the rest copied under the kernel lock; UNSTAGED,
 * all of it copied under the lock (NONE: not proved on a device) */
enum { CZ_STAGE_NONE = 0, CZ_STAGE_FULL = 1, CZ_STAGE_PART = 2, CZ_STAGE_UNSTAGED = 3 };

static inline const char *cz_groth16_stage_name(int stage)
{
    switch (stage) {
    case CZ_STAGE_FULL: return "staged";
    case CZ_STAGE_PART: return "partial";
    case CZ_STAGE_UNSTAGED: return "unstaged";
    default: return "-";
    }
}

/* Checks that pk fits cs (every query length), then proves with the full
 * assignment w (n_vars entries, Montgomery, w[0] = 1) and the randomness r, s.
 * The witness must satisfy cs (callers check with cz_r1cs_is_satisfied; an
 * unsatisfying witness gives a proof that does not verify). t may be NULL. */
cz_err cz_groth16_prove(cz_groth16_proof *out, const cz_groth16_pk *pk, const cz_r1cs *cs,
                        const cz_fr *w, const cz_fr *r, const cz_fr *s, cz_pool *pool,
                        cz_groth16_timings *t, char *msg, size_t msglen);
/* the same, calling progress(ctx, stage, done, CZ_GROTH16_PROVE_STAGES) as
 * each of the proof's stages starts (done: the stages finished before it;
 * stages "SpMV", "H (NTTs)", "MSM h + l", "MSM a", "MSM b (G1)", "MSM b
 * (G2)"; the zkey prover's "MSM H + C", "MSM A", "MSM B (G1)", "MSM B
 * (G2)") and ("proof", total, total) once
 * the proof is assembled; nothing more after an error. The proof is the
 * same as without progress. progress may be NULL. */
#define CZ_GROTH16_PROVE_STAGES 6
cz_err cz_groth16_prove_progress(cz_groth16_proof *out, const cz_groth16_pk *pk, const cz_r1cs *cs,
                                 const cz_fr *w, const cz_fr *r, const cz_fr *s, cz_pool *pool,
                                 cz_groth16_timings *t, cz_progress_fn progress, void *progress_ctx, char *msg,
                                 size_t msglen);

/* a uniformly random Fr straight from the kernel's randomness (for r, s) */
cz_err cz_groth16_random_fr(cz_fr *out);

/* the A density the keys use: columns with an A entry, plus every input (the
 * input rows); bits holds (n_vars + 63) / 64 words; returns the popcount */
uint64_t cz_groth16_density_a(const cz_r1cs *cs, uint64_t *bits);

/* domain size bellperson uses for cs: next power of two >= constraints + inputs */
int cz_groth16_domain_log(const cz_r1cs *cs);

/* A = alpha + a_acc + r delta (G1); B = beta + b2_acc + s delta (G2);
 * B1 = beta + b1_acc + s delta (G1);  C = c_acc + s A + r B1 - r s delta.
 * The proof assembly both provers share (constant-time in r, s). */
void cz_groth16_assemble(cz_groth16_proof *out, const cz_groth16_vk *vk, const cz_g1_jac *a_acc,
                         const cz_g2_jac *b2_acc, const cz_g1_jac *b1_acc, const cz_g1_jac *c_acc,
                         const cz_fr *r, const cz_fr *s);

/* ---- proving from a snarkjs key (prover_zkey.c) ----
 * The snarkjs (.zkey) form of a Groth16 proving key, filled by
 * formats/zkey.h. Variables are ordered as above (ONE, n_public public
 * signals, private signals). Bases over all n_vars signals (the point at
 * infinity where a signal is absent): a, b_g1, b_g2; c over the private
 * signals only ((beta u_i + alpha v_i + w_i)(tau)/delta, bellperson's l); h has
 * domain_size points, the odd-index Lagrange basis of the 2n domain divided
 * by delta: h_i = L^{2n}_{2i+1}(tau)/delta. qap holds the A and B rows from
 * the coefficient section (domain_size rows, the last n_public + 1 of the
 * used ones being snarkjs's `input_i * 0 = 0` rows), C empty. vk.ic has
 * n_public + 1 points; vk.beta_g1 and vk.delta_g1 are filled too. The five
 * point arrays hold cz_g1_aff / cz_g2_aff points in memory layout at any
 * byte address (formats/zkey.h uses the sections of a mapped file where
 * they are, 4 bytes off alignment): read a point by copying it (memcpy);
 * the MSMs (msm.h) take them as they are. */
typedef struct {
    cz_groth16_vk vk;
    uint64_t n_vars, n_public;
    int log_domain;
    cz_r1cs qap;
    const void *a, *b_g1, *c, *h; /* G1 */
    const void *b_g2;             /* G2 */
} cz_groth16_zpk;

/* Proves as snarkjs's groth16 prove does: a = A w, b = B w on the n-domain,
 * c = a∘b; each of a, b, c goes iNTT, times w_2n^i, NTT (evaluations on the
 * odd points of the 2n domain; roots from generator 5); h = a b - c, no
 * division by Z. Then A, B (G1, G2) MSMs over all signals, C over the
 * private ones plus H over h (one MSM), and cz_groth16_assemble. w: n_vars entries,
 * Montgomery, w[0] = 1. An unsatisfying witness gives a proof that does not
 * verify. t may be NULL. */
cz_err cz_groth16_prove_zkey(cz_groth16_proof *out, const cz_groth16_zpk *pk, const cz_fr *w, const cz_fr *r,
                             const cz_fr *s, cz_pool *pool, cz_groth16_timings *t, char *msg, size_t msglen);
/* the same with progress, as cz_groth16_prove_progress */
cz_err cz_groth16_prove_zkey_progress(cz_groth16_proof *out, const cz_groth16_zpk *pk, const cz_fr *w,
                                      const cz_fr *r, const cz_fr *s, cz_pool *pool, cz_groth16_timings *t,
                                      cz_progress_fn progress, void *progress_ctx, char *msg, size_t msglen);

/* ---- verifying (verifier.c) ---- */
typedef struct {
    cz_groth16_vk vk;     /* a copy (ic on the heap) */
    cz_fp12 alpha_beta;   /* e(alpha_g1, beta_g2) */
    cz_g2_aff neg_gamma, neg_delta;
} cz_groth16_pvk;

cz_err cz_groth16_prepare_vk(cz_groth16_pvk *out, const cz_groth16_vk *vk);
void cz_groth16_pvk_free(cz_groth16_pvk *pvk);
/* public: n_public inputs without the leading ONE (n_public = n_ic - 1).
 * Returns 1 valid, 0 invalid; a wrong input count is invalid. */
int cz_groth16_verify(const cz_groth16_pvk *pvk, const cz_groth16_proof *proof,
                      const cz_fr *public_inputs, size_t n_public);
/* n proofs, each with n_public inputs (public_inputs[i * n_public + j]); one
 * random linear combination, one final exponentiation. The combination
 * scalars come from rng (seed it from the OS in production). */
int cz_groth16_verify_batch(const cz_groth16_pvk *pvk, const cz_groth16_proof *proofs,
                            const cz_fr *public_inputs, size_t n_public, size_t n, cz_rng *rng);

/* ---- insecure test setup (setup.c) ---- */
/* Generates pk (and pk->vk) for cs from seed: the "toxic waste" tau, alpha,
 * beta, gamma, delta is derived from the seed and therefore KNOWN; anyone with
 * the seed can forge proofs. For tests and benchmarks only. */
cz_err cz_groth16_setup_insecure(cz_groth16_pk *pk, const cz_r1cs *cs, uint64_t seed, cz_pool *pool,
                                 char *msg, size_t msglen);
/* the same, calling progress(ctx, stage, done, total) as it goes: stage
 * "QAP at tau" (1 of 1, once the QAP is evaluated at tau), then "h points",
 * "l points", "a points", "b points (G1)", "b points (G2)" with the points
 * of that family made so far (after every 2^18 G1 or 2^16 G2 points and at
 * the family's end; a family with no points is not reported). The key is
 * the same as without progress. progress may be NULL. */
cz_err cz_groth16_setup_insecure_progress(cz_groth16_pk *pk, const cz_r1cs *cs, uint64_t seed, cz_pool *pool,
                                          cz_progress_fn progress, void *progress_ctx, char *msg, size_t msglen);

#endif
