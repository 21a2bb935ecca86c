/* zkey_qap.h — internal to src/formats: the coefficient section (4) of a
 * .zkey into the QAP's A and B matrices (C stays empty), see zkey_qap.c. */
#ifndef CZ_FORMATS_ZKEY_QAP_H
#define CZ_FORMATS_ZKEY_QAP_H

#include <stddef.h>
#include <stdint.h>
#include "r1cs/r1cs.h"
#include "util/err.h"
#include "util/pool.h"

#define CZ__ZKEY_CSIZE 44 /* coefficient entry: u32 matrix, u32 constraint, u32 signal, 32-byte value */

/* ent: n entries of CZ__ZKEY_CSIZE bytes. Checks every entry (matrix 0..1,
 * constraint < rows, signal < n_vars, value < r) and builds *out with rows
 * constraints over n_vars variables (n_public + 1 inputs); *n_used is 1 +
 * the largest constraint index. Identical to feeding the entries row by row
 * (file order within a row) to the r1cs builder. pool may be NULL. */
cz_err cz__zkey_qap(cz_r1cs *out, uint64_t *n_used, const uint8_t *ent, uint64_t n, uint64_t rows,
                    uint64_t n_vars, uint64_t n_public, cz_pool *pool, char *msg, size_t msglen);

#endif
