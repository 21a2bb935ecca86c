/* wbits.h — the compact witness: variables that are bits in every witness of
 * a circuit cross PCIe as one bit each; the others as Fr, as before.
 *
 * THE MAP (cz_wbits_map, one per circuit, fixed): a bitmap over the n_vars
 * variables (bit i of mask[i / 64] is (mask[i / 64] >> i % 64) & 1: variable
 * i is a bit), and its prefix counts rank[j] = marked variables in words
 * 0..j-1 (words + 1 entries, rank[words] = n_bits). A marked variable must
 * be 0 or 1 in EVERY witness of the circuit, so the map must come from the
 * circuit itself: its recording or its generator (cz_cs_finish_record's
 * boolean mask, cz_synth_bit_mask), which allocated the variable as a bit
 * and constrains it to be one; never guessed from one witness of a circuit
 * read from a file (a value that happens to be 0 there may not be in the
 * next). A circuit that does not say which variables are bits is sent as
 * Fr. The public inputs (ONE and the inputs, variables 0..n_inputs-1) are
 * never marked (cz_wbits_map_init refuses it), so they are always the first
 * n_inputs Fr of a compact witness, where a verifier finds them.
 *
 * A COMPACT WITNESS is one array of cz_wbits_len(map) Fr (so it fits every
 * buffer that holds Fr: the backend worker's pinned buffer, and one upload):
 *   fields  n_fields = n_vars - n_bits Fr, the unmarked variables in
 *           variable order, Montgomery form;
 *   bits    then ceil(n_bits / 64) 64-bit words, padded to whole Fr: bit k
 *           (bits[k / 64] >> k % 64) is the k-th marked variable's value;
 *           padding bits are 0.
 * The gadget layer's compact mode (circuits/cs.h, cz_cs_init_compact)
 * writes exactly this when given inputs = c, fields = c + n_inputs and
 * bits = cz_wbits_bits(map, c), with the map from its recording's mask
 * (cz_wbits_map_from_aux). Expanding it gives the full witness: a marked variable is 0 or Montgomery
 * one (R mod r), every other its Fr (cz_wbits_unpack on the host;
 * src/cuda/cz_cuda_wbits.h on the device, the same code).
 *
 * Bytes at n_vars variables of which n_bits are bits: 32 (n_vars - n_bits)
 * + 8 ceil(n_bits / 64) rounded up to 32, against 32 n_vars. */
#ifndef CZ_BACKEND_WBITS_H
#define CZ_BACKEND_WBITS_H

#include <stddef.h>
#include <stdint.h>

#include "ff/ff.h"
#include "util/err.h"

typedef struct cz_wbits_map {
    uint64_t n_vars, n_inputs;
    uint64_t n_bits, n_fields; /* marked, unmarked */
    uint64_t words;            /* (n_vars + 63) / 64 */
    uint64_t *mask;            /* words */
    uint64_t *rank;            /* words + 1 */
} cz_wbits_map;

/* a map from a boolean mask over n_vars variables (copied; bits past
 * n_vars ignored); CZ_ERR_INVALID_ARG when one of the first n_inputs is
 * marked, CZ_ERR_NOMEM */
cz_err cz_wbits_map_init(cz_wbits_map *m, const uint64_t *mask, uint64_t n_vars, uint64_t n_inputs, char *msg,
                         size_t msglen);
/* the same from a mask over the aux variables only (cz_cs_finish_record's:
 * bit j is aux variable j, column n_inputs + j) */
cz_err cz_wbits_map_from_aux(cz_wbits_map *m, const uint64_t *aux_mask, uint64_t n_inputs, uint64_t n_aux,
                             char *msg, size_t msglen);
void cz_wbits_map_free(cz_wbits_map *m);

static inline int cz_wbits_is_bit(const cz_wbits_map *m, uint64_t i) { return (int)((m->mask[i >> 6] >> (i & 63)) & 1); }
/* marked variables before variable i */
static inline uint64_t cz_wbits_rank(const cz_wbits_map *m, uint64_t i)
{
    uint64_t w = m->mask[i >> 6] & (((uint64_t)1 << (i & 63)) - 1);
    return m->rank[i >> 6] + (uint64_t)__builtin_popcountll(w);
}

/* Fr a compact witness takes; its bytes are 32 times that */
static inline uint64_t cz_wbits_len(const cz_wbits_map *m) { return m->n_fields + ((m->n_bits + 63) / 64 + 3) / 4; }
static inline uint64_t cz_wbits_bytes(const cz_wbits_map *m) { return cz_wbits_len(m) * sizeof(cz_fr); }
/* the bit words of compact witness c */
static inline uint64_t *cz_wbits_bits(const cz_wbits_map *m, cz_fr *c) { return (uint64_t *)(c + m->n_fields); }
static inline const uint64_t *cz_wbits_bits_c(const cz_wbits_map *m, const cz_fr *c)
{
    return (const uint64_t *)(c + m->n_fields);
}

/* c (cz_wbits_len(m) Fr) = the compact form of the full witness w (n_vars
 * Fr). CZ_ERR_INVALID_ARG, naming the variable, when a marked variable is
 * neither 0 nor Montgomery one (w is then not a witness of this circuit) */
cz_err cz_wbits_pack(cz_fr *c, const cz_wbits_map *m, const cz_fr *w, char *msg, size_t msglen);
/* w (n_vars Fr) = the full witness of compact c */
void cz_wbits_unpack(cz_fr *w, const cz_wbits_map *m, const cz_fr *c);

#endif
