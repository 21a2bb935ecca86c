/* witness.h — witness.bin: a full R1CS assignment on disk.
 *
 * Layout (all integers little-endian):
 *    0  magic "CUZKWIT\0"
 *    8  u32 version (1)
 *   12  u32 reserved, 0
 *   16  u64 n_vars    the full assignment, ONE included
 *   24  u64 n_inputs  public inputs, ONE included (1 <= n_inputs <= n_vars)
 *   32  n_vars field elements of Fr, 32 bytes each: the canonical integer
 *       (< r, not Montgomery), little-endian; element 0 is ONE = 1, then
 *       the n_inputs - 1 public inputs, then the auxiliary variables
 *   32 + 32 n_vars  u64 XXH64 (seed 0, util/hash.h) of all bytes before it
 * so a file is exactly 40 + 32 n_vars bytes. The variable order is
 * bellperson's, the one a cz_r1cs uses.
 *
 * Reading checks, in order: the magic, version and reserved word; the
 * counts against the file length (which must match exactly); the checksum;
 * then every value canonical and w[0] == 1. Errors come back as a cz_err and
 * a sentence in msg. Writing goes to PATH.tmp, is flushed, then renamed. */
#ifndef CZ_FORMATS_WITNESS_H
#define CZ_FORMATS_WITNESS_H

#include <stddef.h>
#include <stdint.h>
#include "ff/ff.h"

#define CZ_WITNESS_VERSION 1
#define CZ_WITNESS_HEADER 32

/* bytes of a witness file with n_vars elements */
uint64_t cz_witness_file_size(uint64_t n_vars);

/* w: n_vars elements in Montgomery form (as the rest of cuzk keeps them) */
cz_err cz_witness_write(const char *path, const cz_fr *w, uint64_t n_vars, uint64_t n_inputs, char *msg,
                        size_t msglen);
/* parse a whole file image; *w is a new heap array (Montgomery form) that the
 * caller frees; on failure *w is NULL */
cz_err cz_witness_parse(cz_fr **w, uint64_t *n_vars, uint64_t *n_inputs, const uint8_t *buf, size_t len, char *msg,
                        size_t msglen);
/* map the file and parse it; messages name the path */
cz_err cz_witness_read(cz_fr **w, uint64_t *n_vars, uint64_t *n_inputs, const char *path, char *msg, size_t msglen);

#endif
