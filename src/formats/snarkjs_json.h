/* snarkjs_json.h — the JSON files of snarkjs's Groth16 commands: proof.json,
 * public.json and verification_key.json (curve "bls12381").
 *
 * Numbers are decimal strings. A G1 point is [x, y, z], a G2 point
 * [[x.c0, x.c1], [y.c0, y.c1], [z.c0, z.c1]]; snarkjs writes affine points,
 * z = "1" (G2 ["1", "0"]), and the point at infinity as ["0", "1", "0"]
 * (G2 [["0","0"],["1","0"],["0","0"]]).
 *   proof.json: {"pi_a": G1, "pi_b": G2, "pi_c": G1, "protocol": "groth16",
 *                "curve": "bls12381"}
 *   public.json: ["decimal", ...] (formats/public_json.h reads it)
 *   verification_key.json: {"protocol": "groth16", "curve": "bls12381",
 *                "nPublic": N, "vk_alpha_1": G1, "vk_beta_2", "vk_gamma_2",
 *                "vk_delta_2": G2, "vk_alphabeta_12": (not read), "IC": [G1 x N+1]}
 * The writers (proof, public, verification key) produce exactly snarkjs's
 * bytes for the same values: its
 * JSON with one space of indentation per level, no newline at the end.
 *
 * The readers are stricter than snarkjs (which takes any string BigInt()
 * parses, "0x..." and leading zeros included, and reduces coordinates mod
 * p): every number must be a canonical decimal string (digits only, no
 * leading zero, below the modulus), z must be exactly 1 (or the infinity
 * form above), points must be on the curve and in the order-r subgroup
 * (snarkjs checks only the curve equation), no key may repeat, protocol must
 * be "groth16" and curve "bls12381" (a "bn128" file is named as BN254).
 * Unknown keys are ignored. A proof point at infinity is refused (as
 * bellperson does); a vk IC point may be infinity, its other points not. */
#ifndef CZ_FORMATS_SNARKJS_JSON_H
#define CZ_FORMATS_SNARKJS_JSON_H

#include <stddef.h>
#include "groth16/groth16.h"
#include "util/err.h"

#define CZ_SNARKJS_JSON_MAX_BYTES ((size_t)64 << 20)

/* the text snarkjs writes for a proof; *out is malloc'ed, NUL-terminated */
cz_err cz_snarkjs_proof_encode(char **out, size_t *len, const cz_groth16_proof *p);
cz_err cz_snarkjs_proof_write(const char *path, const cz_groth16_proof *p, char *msg, size_t msglen);
/* public signals (Montgomery form) as snarkjs writes public.json */
cz_err cz_snarkjs_public_encode(char **out, size_t *len, const cz_fr *v, size_t n);
cz_err cz_snarkjs_public_write(const char *path, const cz_fr *v, size_t n, char *msg, size_t msglen);

/* the verification_key.json snarkjs's `zkey export verificationkey` writes for
 * vk (alpha_g1, beta_g2, gamma_g2, delta_g2, ic; vk_alphabeta_12 = e(alpha,
 * beta) is computed, with snarkjs's Fp12 layout, which is cz_fp12's) */
cz_err cz_snarkjs_vk_encode(char **out, size_t *len, const cz_groth16_vk *vk);
cz_err cz_snarkjs_vk_write(const char *path, const cz_groth16_vk *vk, char *msg, size_t msglen);

/* Errors: CZ_ERR_PARSE (not JSON, wrong shape, bad decimal), CZ_ERR_NONCANONICAL
 * (a number >= the modulus), CZ_ERR_NOT_ON_CURVE, CZ_ERR_NOT_IN_SUBGROUP,
 * CZ_ERR_UNSUPPORTED (another protocol or curve); msg names the field. */
cz_err cz_snarkjs_proof_parse(cz_groth16_proof *out, const char *text, size_t len, char *msg, size_t msglen);
cz_err cz_snarkjs_proof_read(cz_groth16_proof *out, const char *path, char *msg, size_t msglen);
/* vk: alpha_g1, beta_g2, gamma_g2, delta_g2 and ic filled (ic heap-owned,
 * free with cz_groth16_vk_free); beta_g1 and delta_g1, which the JSON does
 * not carry, are left at infinity */
cz_err cz_snarkjs_vk_parse(cz_groth16_vk *out, const char *text, size_t len, char *msg, size_t msglen);
cz_err cz_snarkjs_vk_read(cz_groth16_vk *out, const char *path, char *msg, size_t msglen);

#endif
