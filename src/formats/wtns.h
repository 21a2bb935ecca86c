/* wtns.h — circom/snarkjs witness files (.wtns).
 *
 * An iden3 container (iden3bin.h), magic "wtns", version <= 2. Sections,
 * found by id (layout from snarkjs's wtns_utils.js):
 *   1  u32 n8, the field prime (n8 bytes LE), u32 nWitness
 *   2  nWitness values, n8 bytes each, little-endian PLAIN integers (not
 *      Montgomery, unlike the .zkey)
 * Signal order is circom's: ONE, outputs, public inputs, then the rest,
 * which is the ONE / public / private order cuzk uses.
 *
 * Reading checks the container, that the prime is BLS12-381's r (a BN254
 * witness is named as such), the section sizes against nWitness, every
 * value < r, and w[0] == 1. */
#ifndef CZ_FORMATS_WTNS_H
#define CZ_FORMATS_WTNS_H

#include <stddef.h>
#include <stdint.h>
#include "ff/ff.h"
#include "util/err.h"

/* *w: a new heap array of *n values in Montgomery form, freed by the caller;
 * NULL on failure */
cz_err cz_wtns_parse(cz_fr **w, uint64_t *n, const uint8_t *buf, size_t len, char *msg, size_t msglen);
cz_err cz_wtns_read(cz_fr **w, uint64_t *n, const char *path, char *msg, size_t msglen);
/* writes values (Montgomery form) as a version-2 .wtns for BLS12-381 */
cz_err cz_wtns_write(const char *path, const cz_fr *w, uint64_t n, char *msg, size_t msglen);

#endif
