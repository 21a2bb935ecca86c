/* zkey.h — snarkjs Groth16 proving keys (.zkey), read into a
 * cz_groth16_zpk (groth16.h) for cz_groth16_prove_zkey.
 *
 * The file is an iden3 container (iden3bin.h), magic "zkey", version <= 2
 * (snarkjs writes 1). Sections, found by id (layout from snarkjs's
 * zkey_utils.js / zkey_new.js; docs/FORMATS.md has the table):
 *   1  u32 protocol: 1 = Groth16 (2 PLONK and 10 FFLONK are refused)
 *   2  u32 n8q, q (n8q bytes LE), u32 n8r, r (n8r bytes LE), u32 nVars,
 *      u32 nPublic (without ONE), u32 domainSize, then alpha1, beta1 (G1),
 *      beta2, gamma2 (G2), delta1 (G1), delta2 (G2)
 *   3  IC: nPublic + 1 G1          4  u32 count, count x (u32 matrix (0 = A,
 *   5  A: nVars G1                    1 = B), u32 constraint, u32 signal,
 *   6  B1: nVars G1                   n8r-byte value)
 *   7  B2: nVars G2                8  C: nVars - nPublic - 1 G1
 *   9  H: domainSize G1           10  contributions (not read)
 * Points are affine, each coordinate n8q bytes little-endian in Montgomery
 * form (x * 2^384 mod q), G2 coordinates c0 then c1, the point at infinity all
 * zero: on a little-endian host this is exactly cz_g1_aff / cz_g2_aff, so
 * cz_zkey_open uses every section in place from the mapping, also those 4
 * bytes off alignment (groth16.h: the arrays are read by copying points). Coefficient values are stored as c * R^2 mod r (R = 2^256) as a
 * plain little-endian integer, i.e. the Montgomery form of c * R.
 *
 * Reading checks: the container, protocol, both primes (BLS12-381 only; a
 * BN254 file is named as such), every section's size against the header's
 * counts (nPublic + 1 <= nVars, domainSize a power of two <= 2^28), every
 * coordinate < q and every point on its curve, the header points and IC also
 * in the subgroup, every coefficient's matrix, constraint (< domainSize),
 * signal (< nVars) and value (< r). */
#ifndef CZ_FORMATS_ZKEY_H
#define CZ_FORMATS_ZKEY_H

#include <stddef.h>
#include <stdint.h>
#include "groth16/groth16.h"
#include "util/err.h"
#include "util/pool.h"

#define CZ_ZKEY_MAX_LOG_DOMAIN 28

typedef struct {
    cz_groth16_zpk pk;    /* pk.vk.ic and pk.qap are heap-owned */
    uint64_t n_coefs;     /* entries in section 4 */
    uint64_t n_constraints_used; /* 1 + the largest constraint index in section 4 */
    void *map;            /* file mapping the arrays may point into, or NULL */
    size_t map_len;
    void *owned[5];       /* heap copies of a, b_g1, b_g2, c, h (cz_zkey_load_mem) */
} cz_zkey;

/* Maps path read-only and reads it. pool may be NULL. On failure *zk is
 * zeroed and nothing stays allocated or mapped. */
cz_err cz_zkey_open(cz_zkey *zk, const char *path, cz_pool *pool, char *msg, size_t msglen);
/* The same from a buffer; every array is copied (buf need not outlive zk). */
cz_err cz_zkey_load_mem(cz_zkey *zk, const uint8_t *buf, size_t len, cz_pool *pool, char *msg, size_t msglen);
void cz_zkey_close(cz_zkey *zk);

#endif
