/* pce.h — the on-disk pre-compiled constraint system (.pce), loaded with mmap.
 *
 * Layout (all integers little-endian):
 *   header, 128 bytes:
 *     0  magic "CUZKPCE\0"          8  u32 version (1, or 2 below)  12 u32 header size (128)
 *     16 u64 n_vars  24 u64 n_inputs  32 u64 n_constraints
 *     40 per matrix A, B, C: u64 nnz, u32 n_coefs, u32 cidx_bytes  (3 x 16 bytes)
 *     88 u64 payload length          96 u64 XXH64 (seed 0) of the payload
 *        followed by header bytes 0..95
 *     104..127 zero in version 1; version 2 (written only when the system's
 *        ntt_generator is not bellperson's 7, i.e. 5 for a system exported
 *        from a snarkjs .zkey) holds u32 ntt_generator at 104, and its
 *        checksum also covers header bytes 104..107
 *   payload, for A then B then C, each array starting on a 64-byte boundary
 *   (offsets relative to the start of the payload at byte 128):
 *     row_ptr: (n_constraints + 1) x u64
 *     col:     nnz x u32
 *     cidx:    nnz x cidx_bytes
 *     coefs:   n_coefs x 32 bytes (Fr, Montgomery form, 4 LE limbs)
 * Opening checks every count against the file size before touching data, then
 * (optionally) the checksum, then the structure: row offsets rising to nnz,
 * columns < n_vars, coefficient indices < n_coefs, coefficients < r with
 * [0] = 1 and [1] = -1. Writing goes to PATH.tmp and is renamed into place. */
#ifndef CZ_R1CS_PCE_H
#define CZ_R1CS_PCE_H

#include <stddef.h>
#include "r1cs/r1cs.h"

#define CZ_PCE_VERSION 1
#define CZ_PCE_HEADER 128

cz_err cz_pce_write(const char *path, const cz_r1cs *r, char *msg, size_t msglen);
/* on success *out points into a read-only mapping owned by *out; release with
 * cz_pce_close. verify_checksum = 0 skips hashing the payload. */
cz_err cz_pce_open(cz_r1cs *out, const char *path, int verify_checksum, char *msg, size_t msglen);
void cz_pce_close(cz_r1cs *r);

#endif
