/* zkey_export.h — a snarkjs .zkey turned into a bellperson-layout proving key
 * (cz_groth16_pk, written as .params) for the bellperson-path prover, with
 * the circuit's .r1cs as the constraint system (written as .pce).
 *
 * What maps directly: the vk points and IC; l = the zkey's C points; a, b_g1,
 * b_g2 = the zkey's A, B1, B2 points of the variables whose A (inputs
 * included: both tools add one `input_i * 0 = 0` row per input) or B column
 * is non-zero, as bellperson's density filter keeps them. Both tools use the
 * same rows in the same order and the same domain (the smallest 2^k >=
 * constraints + inputs), but snarkjs puts constraint i at omega^i with omega
 * from the generator 5, bellperson from 7: the exported system therefore
 * carries ntt_generator = 5 (r1cs.h), which the prover honours.
 *
 * H needs a change of basis, and no secret: the zkey holds
 * H_i = L_{2i+1}(tau)/delta, the odd Lagrange polynomials of the 2n domain,
 * bellperson wants h_j = tau^j t(tau)/delta, t = x^n - 1, j < n - 1. Since
 * x^j t(x) has degree < 2n, is 0 on the even points and takes the value
 * -2 w^((2i+1)j) on the odd point w^(2i+1) (w = w_2n, w^n = -1),
 *     h_j = -2 w^j sum_i (w^2)^(ij) H_i,
 * a size-n forward NTT over G1 points followed by a scaling: (n/2) log n
 * variable-base scalar multiplications, done once at export.
 *
 * cs must be the circuit's constraint system (formats/r1cs_file.h): it is
 * checked against the zkey (signal counts, domain, and A and B equal to the
 * zkey's coefficient rows on a random assignment). A signal that appears in
 * no constraint has an L point at infinity, which bellperson's format cannot
 * hold: that is refused with a message. */
#ifndef CZ_FORMATS_ZKEY_EXPORT_H
#define CZ_FORMATS_ZKEY_EXPORT_H

#include "formats/zkey.h"
#include "r1cs/r1cs.h"

/* *pk: heap arrays (free with cz_groth16_pk_free). Sets cs->ntt_generator = 5. */
cz_err cz_zkey_to_params(cz_groth16_pk *pk, const cz_zkey *zk, cz_r1cs *cs, cz_pool *pool, char *msg,
                         size_t msglen);

/* h_j = -2 w^j sum_i (w^2)^(ij) H_i for j < n - 1 (w = 5-based w_2n): the
 * bellperson H basis from the snarkjs one, n = 2^log_n (h: n points at any
 * byte address, groth16.h); out has n - 1 points */
cz_err cz_zkey_h_to_bellperson(cz_g1_aff *out, const void *h, int log_n, cz_pool *pool);

/* the inverse: H_i from h_j (n - 1 points), taking the unused direction
 * tau^(n-1) t(tau)/delta as 0 (the prover's h vector never has a component
 * there: A B - C vanishes on the n-domain, so it is t(x) q(x), deg q <= n - 2).
 * out has n points. */
cz_err cz_zkey_h_from_bellperson(cz_g1_aff *out, const cz_g1_aff *h, int log_n, cz_pool *pool);

/* The reverse direction, for synthetic workloads (no ceremony): a .zkey in
 * snarkjs's layout from a bellperson-layout key made for cs with
 * cs->ntt_generator == 5 (e.g. cz_groth16_setup_insecure on such a cs):
 * A/B1/B2 expanded to every signal (infinity where absent), C = l, IC, H by
 * cz_zkey_h_from_bellperson, coefficients from cs's A and B plus the input
 * rows, a contributions section with a zero hash and no contribution. The
 * H points differ from what snarkjs would compute from the same tau by the
 * unused direction only, so snarkjs and cuzk both prove with it. */
cz_err cz_zkey_encode_from_params(uint8_t **out, size_t *len, const cz_groth16_pk *pk, const cz_r1cs *cs,
                                  cz_pool *pool, char *msg, size_t msglen);
cz_err cz_zkey_write_from_params(const char *path, const cz_groth16_pk *pk, const cz_r1cs *cs, cz_pool *pool,
                                 char *msg, size_t msglen);

#endif
