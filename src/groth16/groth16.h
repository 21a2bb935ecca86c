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

#endif
