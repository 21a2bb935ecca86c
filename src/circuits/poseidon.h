/* poseidon.h — the Poseidon hash over BLS12-381 Fr as Filecoin uses it
 * (neptune's parameters, strength Standard), natively.
 *
 * A parameter set is built for one arity a (width t = a + 1) from first
 * principles by poseidon_const.c: the round numbers from the security
 * inequalities (RF = 8; RP = 55 for t = 3, 57 for t = 9 and 12), the round
 * constants from the Grain LFSR, the Cauchy MDS matrix M[i][j] = 1/(i+t+j),
 * and the optimisation of the rounds (compressed round constants, a
 * pre-sparse matrix and one sparse matrix per partial round) that both the
 * fast native hash and the legacy circuit use. See docs/ARCHITECTURE.md.
 *
 * Hashing a preimage x_1..x_a starts from the state (tag, x_1, .., x_a),
 * where the tag is 2^a - 1 for Merkle-tree hashing (the default) or any
 * other domain tag (SnapDeals uses 2^40, neptune's Custom(1)); the digest is
 * state[1] after the permutation. Matrices multiply the state as a row
 * vector (s' = s·M), as neptune does.
 *
 * All elements are cz_fr in Montgomery form. Parameter sets are immutable
 * after construction and may be shared between threads. */
#ifndef CZ_CIRCUITS_POSEIDON_H
#define CZ_CIRCUITS_POSEIDON_H

#include <stddef.h>
#include <stdint.h>
#include "ff/ff.h"
#include "util/err.h"

#define CZ_POSEIDON_MAX_ARITY 36
#define CZ_POSEIDON_MAX_WIDTH (CZ_POSEIDON_MAX_ARITY + 1)

typedef struct {
    uint32_t arity, width;     /* width = arity + 1 */
    uint32_t rf, rp;           /* full rounds (total), partial rounds */
    cz_fr tag;                 /* Merkle-tree domain tag 2^arity - 1 */
    cz_fr *rc;                 /* (rf + rp) * width round constants, round-major */
    cz_fr *m;                  /* MDS matrix, m[i * width + j] */
    cz_fr *m_inv;              /* its inverse */
    cz_fr *crc;                /* rf * width + rp compressed round constants */
    cz_fr *pre_sparse;         /* width * width */
    cz_fr *w_hat;              /* rp * width: column 0 of each sparse matrix */
    cz_fr *v_rest;             /* rp * (width - 1): row 0 (from column 1) */
} cz_poseidon;

/* (rf, rp) as neptune computes them for width t (128-bit security, n = 256,
 * with the security margin: rf + 2 and rp * 1.075 rounded up) */
void cz_poseidon_round_numbers(uint32_t t, uint32_t *rf, uint32_t *rp);

/* the Grain LFSR round constants (field 1, s-box 1, n bits), count of them */
cz_err cz_poseidon_grain_constants(cz_fr *out, size_t count, uint32_t n_bits,
                                   uint32_t t, uint32_t rf, uint32_t rp);

/* build the parameter set for an arity 1..CZ_POSEIDON_MAX_ARITY */
cz_err cz_poseidon_init(cz_poseidon *p, uint32_t arity);
void cz_poseidon_free(cz_poseidon *p);

/* A shared parameter set per arity, built on first use (thread-safe) and
 * kept for the life of the process; NULL for an unsupported arity or when
 * memory runs out. */
const cz_poseidon *cz_poseidon_get(uint32_t arity);

/* neptune's custom domain tag id * 2^40 (SnapDeals: id 1) */
void cz_poseidon_custom_tag(cz_fr *out, uint64_t id);

/* Hash p->arity elements with the Merkle-tree tag (fast path: compressed
 * constants, sparse matrices). */
void cz_poseidon_hash(cz_fr *out, const cz_poseidon *p, const cz_fr *in);
/* the same with a chosen domain tag in state[0] */
void cz_poseidon_hash_tag(cz_fr *out, const cz_poseidon *p, const cz_fr *tag,
                          const cz_fr *in);
/* the textbook permutation (round constants before each S-box layer, the
 * full MDS matrix every round); the reference the fast path is tested
 * against */
void cz_poseidon_hash_plain(cz_fr *out, const cz_poseidon *p, const cz_fr *tag,
                            const cz_fr *in);

#endif
