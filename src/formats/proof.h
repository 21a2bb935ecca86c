/* proof.h — the bellperson Groth16 proof encoding and proof files.
 *
 * One proof is 192 bytes: A (G1 compressed, 48) || B (G2 compressed, 96) ||
 * C (G1 compressed, 48), ZCash flags. A file of k proofs (e.g. the partitions
 * of one PoRep, in order) is their concatenation, no prefix.
 *
 * Decoding accepts what bellperson's Proof::read_many accepts: each point
 * canonical, on the curve and in the subgroup (always checked), and not the
 * point at infinity. Failures return the ec codes (CZ_ERR_FLAGS,
 * CZ_ERR_NONCANONICAL, CZ_ERR_NO_SQRT, CZ_ERR_NOT_IN_SUBGROUP); infinity
 * gives CZ_ERR_NOT_ON_CURVE. */
#ifndef CZ_FORMATS_PROOF_H
#define CZ_FORMATS_PROOF_H

#include <stddef.h>
#include <stdint.h>
#include "groth16/groth16.h"
#include "util/err.h"

void cz_proof_encode(uint8_t out[CZ_GROTH16_PROOF_BYTES], const cz_groth16_proof *p);
cz_err cz_proof_decode(cz_groth16_proof *out, const uint8_t in[CZ_GROTH16_PROOF_BYTES]);

/* len must be a non-zero multiple of 192. *out is malloc'ed (free()); on
 * failure *out = NULL, *n = 0 and msg names the bad proof and point. */
cz_err cz_proofs_decode(cz_groth16_proof **out, size_t *n, const uint8_t *buf, size_t len, char *msg,
                        size_t msglen);
cz_err cz_proofs_read(cz_groth16_proof **out, size_t *n, const char *path, char *msg, size_t msglen);
/* n >= 1 proofs, written to PATH.tmp and renamed */
cz_err cz_proofs_write(const char *path, const cz_groth16_proof *p, size_t n, char *msg, size_t msglen);

#endif
