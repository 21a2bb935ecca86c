/* r1cs_file.h — circom constraint systems (.r1cs), read into a cz_r1cs.
 *
 * An iden3 container (iden3bin.h), magic "r1cs", version 1. Sections, found
 * by id (circom writes section 2 before section 1; layout from iden3's
 * r1csfile and its doc/r1cs_bin_format.md):
 *   1  header: u32 n8, prime (n8 bytes LE), u32 nWires, u32 nOutputs,
 *      u32 nPubInputs, u32 nPrvInputs, u64 nLabels, u32 nConstraints
 *   2  constraints: per constraint three linear combinations A, B, C, each
 *      u32 nTerms then nTerms x (u32 wire, n8-byte value LE, plain integer)
 *   3  wire -> label map: nWires x u64 label id (only its size is used)
 *   4, 5  custom gates (PLONK only): refused
 * Wire order is ONE, outputs, public inputs, private inputs, internal: the
 * resulting cz_r1cs has n_inputs = 1 + nOutputs + nPubInputs (ONE included)
 * and no extra rows (snarkjs adds its `input_i * 0 = 0` rows in the zkey).
 *
 * Reading checks the container, that the prime is BLS12-381's r (a BN254
 * file is named as such), that section 3 holds exactly nWires entries, that
 * nConstraints fits in section 2 (12 bytes each at least) and section 2 is
 * consumed exactly, every wire < nWires and every value < r. */
#ifndef CZ_FORMATS_R1CS_FILE_H
#define CZ_FORMATS_R1CS_FILE_H

#include <stddef.h>
#include <stdint.h>
#include "r1cs/r1cs.h"
#include "util/err.h"

typedef struct {
    uint64_t n_wires, n_outputs, n_pub_inputs, n_prv_inputs, n_labels, n_constraints;
} cz_r1cs_file_info;

/* *out: heap-owned (free with cz_r1cs_free); info may be NULL */
cz_err cz_r1cs_file_parse(cz_r1cs *out, cz_r1cs_file_info *info, const uint8_t *buf, size_t len, char *msg,
                          size_t msglen);
cz_err cz_r1cs_file_read(cz_r1cs *out, cz_r1cs_file_info *info, const char *path, char *msg, size_t msglen);

#endif
