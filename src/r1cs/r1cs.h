/* r1cs.h — the pre-compiled constraint system ("PCE"): matrices A, B, C of a
 * rank-1 constraint system in CSR form, with compact coefficients.
 *
 * Variables are ordered as bellperson orders them: index 0 is the constant ONE,
 * then the public inputs, then the auxiliary (private) variables; the full
 * assignment w has n_vars = n_inputs + n_aux entries (n_inputs counts ONE).
 * Row i of each matrix is constraint i: <A_i, w> * <B_i, w> = <C_i, w>.
 *
 * Coefficients: each matrix keeps a table of its distinct coefficients (Fr,
 * Montgomery) and stores per non-zero an index into it of 1, 2 or 4 bytes, the
 * narrowest that fits. Index 0 is always +1 and index 1 always -1, so SpMV
 * adds or subtracts without multiplying for those (most entries). */
#ifndef CZ_R1CS_R1CS_H
#define CZ_R1CS_R1CS_H

#include <stddef.h>
#include <stdint.h>
#include "ff/ff.h"
#include "util/err.h"
#include "util/pool.h"

typedef struct {
    uint64_t n_rows, nnz;
    uint64_t *row_ptr;   /* n_rows + 1 offsets into col / cidx */
    uint32_t *col;       /* variable index per non-zero */
    void *cidx;          /* coefficient index per non-zero, cidx_bytes wide */
    uint32_t cidx_bytes; /* 1, 2 or 4 */
    uint32_t n_coefs;
    cz_fr *coefs;        /* n_coefs distinct coefficients; [0] = 1, [1] = -1 */
} cz_csr;

typedef struct {
    uint64_t n_vars, n_inputs, n_constraints;
    cz_csr m[3];         /* A, B, C */
    /* the multiplicative generator g the QAP's roots of unity come from
     * (omega = g^((r-1)/n), constraint i at omega^i): 0 means bellperson's 7;
     * 5 for systems taken from a snarkjs .zkey (see prover.c, pce.h) */
    uint32_t ntt_generator;
    /* owned storage: either heap (see r1cs.c) or a file mapping (pce.c) */
    void *map;
    size_t map_len;
} cz_r1cs;

enum { CZ_A = 0, CZ_B = 1, CZ_C = 2 };

/* the coefficient index of non-zero k of m (an index into m->coefs) */
static inline uint32_t cz_csr_cidx(const cz_csr *m, uint64_t k)
{
    switch (m->cidx_bytes) {
    case 1: return ((const uint8_t *)m->cidx)[k];
    case 2: return ((const uint16_t *)m->cidx)[k];
    default: return ((const uint32_t *)m->cidx)[k];
    }
}

/* sets it (v below 2^(8 cidx_bytes)) */
static inline void cz_csr_set_cidx(cz_csr *m, uint64_t k, uint32_t v)
{
    switch (m->cidx_bytes) {
    case 1: ((uint8_t *)m->cidx)[k] = (uint8_t)v; break;
    case 2: ((uint16_t *)m->cidx)[k] = (uint16_t)v; break;
    default: ((uint32_t *)m->cidx)[k] = v;
    }
}

/* ---- building (r1cs.c) ---- */
typedef struct cz_r1cs_builder cz_r1cs_builder;

cz_err cz_r1cs_builder_new(cz_r1cs_builder **out, uint64_t n_inputs, uint64_t n_aux);
/* add coef * w[var] to matrix `which` of the current constraint */
cz_err cz_r1cs_builder_term(cz_r1cs_builder *b, int which, uint64_t var, const cz_fr *coef);
/* close the current constraint and start the next */
cz_err cz_r1cs_builder_end_constraint(cz_r1cs_builder *b);
/* move the result into *out and free the builder (also on failure) */
cz_err cz_r1cs_builder_finish(cz_r1cs_builder *b, cz_r1cs *out);
void cz_r1cs_builder_free(cz_r1cs_builder *b);

void cz_r1cs_free(cz_r1cs *r);

/* ---- evaluation ---- */
/* a = A w, b = B w, c = C w (each n_constraints long); any of a, b, c may be
 * NULL to skip that matrix */
void cz_r1cs_spmv(const cz_r1cs *r, const cz_fr *w, cz_fr *a, cz_fr *b, cz_fr *c, cz_pool *pool);
/* 1 if w satisfies every constraint; else 0 and *bad_row = the first failing
 * constraint */
int cz_r1cs_is_satisfied(const cz_r1cs *r, const cz_fr *w, uint64_t *bad_row, cz_pool *pool);
/* for the SpMV benchmarks: the non-zeros of m whose coefficient is neither
 * +-1 nor +-2 (a product on the device, which doubles for +-2), and in
 * *on_bits those of them on a 0 or a 1 of w (no product with the bit
 * shortcut) */
uint64_t cz_csr_general_terms(const cz_csr *m, const cz_fr *w, uint64_t *on_bits);
/* density bitmaps: bit v set when column v of matrix `which` has a non-zero.
 * bits must hold (n_vars + 63) / 64 words; returns the popcount */
uint64_t cz_r1cs_density(const cz_r1cs *r, int which, uint64_t *bits);

/* bytes used per non-zero by col + cidx + row_ptr + coefficient table */
double cz_csr_bytes_per_nnz(const cz_csr *m);

/* ---- internal: a coefficient table being built, each distinct value
 * stored once (open addressing over its Montgomery limbs); shared by the
 * builder here and the circuit recorder (circuits/cs.c). Zero-initialise;
 * release coefs and hash with free. */
typedef struct {
    cz_fr *coefs; uint32_t n_coefs; size_t coefs_cap;
    uint32_t *hash; size_t hash_cap; /* slot -> coef index + 1, 0 = empty */
} cz__coef_table;
/* the index of c in t, adding it if new; -1 when out of memory */
int cz__coef_intern(cz__coef_table *t, const cz_fr *c, uint32_t *idx);

#endif
