/* cs.h — the circuit-building API: one gadget code path over a constraint-
 * system handle that either records constraints, writes only the witness, or
 * only counts.
 *
 * MODES (cz_cs.mode, fixed at init)
 *   CZ_CS_WITNESS  values only, into caller buffers: aux[] and inputs[] as Fr
 *                  (Montgomery). No constraint work at all. The hot path.
 *   CZ_CS_COMPACT  values only, compact: aux variables allocated as bits
 *                  (cz_cs_alloc_bit) go to a bit stream, one bit each in
 *                  allocation order (bit k of the stream is bits[k/64] >> k%64),
 *                  every other aux variable to fields[] as Fr, in order; inputs
 *                  as Fr. The boolean mask (which aux variable is which) is a
 *                  property of the circuit; recording returns it.
 *   CZ_CS_COUNT    constraints, inputs, aux and non-zeros per matrix, O(1)
 *                  memory (linear combinations are still merged, so the
 *                  non-zero counts are those recording would produce).
 *   CZ_CS_RECORD   appends every constraint to growable CSR arrays and keeps
 *                  the full assignment; cz_cs_finish_record turns them into a
 *                  cz_r1cs (the PCE of src/r1cs), the witness w (inputs then
 *                  aux) and the boolean mask.
 *
 * VARIABLES (cz_var, 32 bits) follow bellperson: inputs and aux are separate
 * index spaces. Input i is i (CZ_ONE = input 0, present from init); aux j is
 * CZ_VAR_AUX | j. The final column of a variable is i for inputs and
 * n_inputs + j for aux (inputs then aux, as src/r1cs orders them). No input
 * rows are recorded: the prover appends `input_i * 0 = 0` itself.
 *
 * LINEAR COMBINATIONS (cz_lc) behave like bellpepper-core's: terms kept
 * sorted by variable (inputs before aux, each by index), adding a variable
 * already present adds to its coefficient, and a coefficient that becomes zero
 * stays as a term of the LC. cz_cs_enforce records (and counts) only the
 * terms with a non-zero coefficient, as the reference engine's recording
 * constraint system does when it builds its PCE, so the non-zero counts are
 * comparable with its published ones. LC work happens only in RECORD and
 * COUNT modes: gadgets compute
 * values directly and wrap all LC building and cz_cs_enforce in
 *     if (cz_cs_rec(cs)) { ... }
 * so witness modes skip it entirely (one predictable branch per constraint).
 * Scratch LCs live in the handle (cz_cs_lc(cs, k), k < CZ_CS_SCRATCH), so a
 * gadget allocates nothing per constraint.
 *
 * ERRORS are sticky: an allocation failure (RECORD) or a full caller buffer
 * (witness modes; writes past the capacity are dropped) sets cs->err, and
 * everything keeps running so gadgets need no error paths; check
 * cz_cs_status() at the end. Counters (n_aux, n_inputs, ...) keep counting
 * in every mode, so after an overflow they say how much room was needed.
 *
 * Every function takes the handle first. The handle owns its scratch and (in
 * RECORD mode) the growing arrays; witness buffers belong to the caller. */
#ifndef CZ_CIRCUITS_CS_H
#define CZ_CIRCUITS_CS_H

#include <stdint.h>
#include "ff/ff.h"
#include "r1cs/r1cs.h"
#include "util/err.h"

typedef uint32_t cz_var;
#define CZ_VAR_AUX 0x80000000u
#define CZ_ONE ((cz_var)0)
#define CZ_AUX(j) ((cz_var)(CZ_VAR_AUX | (uint32_t)(j)))
#define CZ_INPUT(i) ((cz_var)(i))
static inline int cz_var_is_aux(cz_var v) { return (v & CZ_VAR_AUX) != 0; }
static inline uint32_t cz_var_index(cz_var v) { return v & ~CZ_VAR_AUX; }

enum { CZ_CS_WITNESS = 0, CZ_CS_COMPACT = 1, CZ_CS_COUNT = 2, CZ_CS_RECORD = 3 };

typedef struct { cz_var var; uint32_t pad; cz_fr coef; } cz_term;

/* a linear combination: n sorted, merged terms (storage owned by the handle
 * or by whoever called cz_lc_init) */
typedef struct { cz_term *t; uint32_t n, cap; } cz_lc;

#define CZ_CS_SCRATCH 8

typedef struct cz__cs_rec cz__cs_rec; /* RECORD-mode storage (cs.c) */

typedef struct cz_cs {
    int mode;
    cz_err err;                 /* sticky; see cz_cs_status */
    /* counts, kept in every mode (n_constraints and nnz only when recording
     * or counting); n_inputs includes ONE */
    uint64_t n_inputs, n_aux, n_constraints, nnz[3];
    uint64_t n_bits;            /* aux variables allocated as bits */
    /* WITNESS / COMPACT buffers (caller's) */
    cz_fr *inputs; uint64_t inputs_cap;
    cz_fr *aux; uint64_t aux_cap;          /* WITNESS */
    uint64_t *bits; uint64_t bits_cap;     /* COMPACT, capacity in bits */
    cz_fr *fields; uint64_t fields_cap;    /* COMPACT */
    uint64_t n_fields;                      /* COMPACT: aux written as Fr */
    /* RECORD / COUNT */
    cz__cs_rec *rec;            /* RECORD only */
    cz_lc scratch[CZ_CS_SCRATCH];
    cz_fr pow2[256];            /* 2^k in Montgomery form (RECORD / COUNT) */
} cz_cs;

/* ---- life cycle ---- */
/* WITNESS: inputs[0] is set to ONE; inputs_cap >= 1 */
void cz_cs_init_witness(cz_cs *cs, cz_fr *inputs, uint64_t inputs_cap, cz_fr *aux, uint64_t aux_cap);
/* COMPACT: bits_cap in bits; the bit stream is zeroed as it is written (each
 * new word starts at 0), so the caller need not clear it */
void cz_cs_init_compact(cz_cs *cs, cz_fr *inputs, uint64_t inputs_cap, uint64_t *bits,
                        uint64_t bits_cap, cz_fr *fields, uint64_t fields_cap);
cz_err cz_cs_init_count(cz_cs *cs);
cz_err cz_cs_init_record(cz_cs *cs);
/* RECORD: moves the constraint system into *out (n_inputs, n_aux as counted),
 * and, when the pointers are non-NULL, the assignment (*w_out, n_inputs +
 * n_aux Fr, inputs then aux; free()) and the boolean mask (*mask_out, one bit
 * per aux variable, (n_aux + 63) / 64 words; free()). The handle is freed
 * either way. Returns the sticky error if one was set. */
cz_err cz_cs_finish_record(cz_cs *cs, cz_r1cs *out, cz_fr **w_out, uint64_t **mask_out);
/* releases what the handle owns (any mode; safe after finish) */
void cz_cs_free(cz_cs *cs);
static inline cz_err cz_cs_status(const cz_cs *cs) { return cs->err; }
/* are constraints being built (RECORD or COUNT)? */
static inline int cz_cs_rec(const cz_cs *cs) { return cs->mode >= CZ_CS_COUNT; }

/* ---- allocation (values always given; they are ignored where not needed) ---- */
void cz__cs_rec_value(cz_cs *cs, int input, const cz_fr *v, int is_bit);

/* an aux variable holding v */
static inline cz_var cz_cs_alloc(cz_cs *cs, const cz_fr *v)
{
    uint64_t j = cs->n_aux++;
    switch (cs->mode) {
    case CZ_CS_WITNESS:
        if (j < cs->aux_cap) cs->aux[j] = *v; else cs->err = CZ_ERR_LENGTH;
        break;
    case CZ_CS_COMPACT: {
        uint64_t k = cs->n_fields++;
        if (k < cs->fields_cap) cs->fields[k] = *v; else cs->err = CZ_ERR_LENGTH;
        break;
    }
    case CZ_CS_RECORD: cz__cs_rec_value(cs, 0, v, 0); break;
    default: break;
    }
    return CZ_AUX(j);
}

/* an aux variable holding the bit v (0 or 1), marked boolean; no constraint
 * (the booleanity constraint is the gadget's, see gadgets.h) */
static inline cz_var cz_cs_alloc_bit(cz_cs *cs, int v)
{
    uint64_t j = cs->n_aux++;
    switch (cs->mode) {
    case CZ_CS_WITNESS:
        if (j < cs->aux_cap) {
            cz_fr *o = &cs->aux[j];
            if (v) *o = cz_fr_one_mont; else { o->l[0] = 0; o->l[1] = 0; o->l[2] = 0; o->l[3] = 0; }
        } else cs->err = CZ_ERR_LENGTH;
        break;
    case CZ_CS_COMPACT: {
        uint64_t k = cs->n_bits;
        if (k < cs->bits_cap) {
            uint64_t m = (uint64_t)(v != 0) << (k & 63);
            if (k & 63) cs->bits[k >> 6] |= m; else cs->bits[k >> 6] = m;
        } else cs->err = CZ_ERR_LENGTH;
        break;
    }
    case CZ_CS_RECORD: {
        cz_fr t;
        if (v) t = cz_fr_one_mont; else cz_fr_zero(&t);
        cz__cs_rec_value(cs, 0, &t, 1);
        break;
    }
    default: break;
    }
    cs->n_bits++;
    return CZ_AUX(j);
}

/* a public input holding v (bellperson alloc_input) */
static inline cz_var cz_cs_alloc_input(cz_cs *cs, const cz_fr *v)
{
    uint64_t i = cs->n_inputs++;
    if (cs->mode <= CZ_CS_COMPACT) {
        if (i < cs->inputs_cap) cs->inputs[i] = *v; else cs->err = CZ_ERR_LENGTH;
    } else if (cs->mode == CZ_CS_RECORD) {
        cz__cs_rec_value(cs, 1, v, 0);
    }
    return CZ_INPUT(i);
}

/* ---- linear combinations (RECORD / COUNT only) ---- */
/* scratch LC k (< CZ_CS_SCRATCH), emptied */
static inline cz_lc *cz_cs_lc(cz_cs *cs, int k) { cs->scratch[k].n = 0; return &cs->scratch[k]; }
/* 2^k, k < 256 (RECORD / COUNT) */
static inline const cz_fr *cz_cs_pow2(const cz_cs *cs, unsigned k) { return &cs->pow2[k]; }

void cz_lc_init(cz_lc *lc);            /* empty, no storage */
void cz_lc_free(cz_lc *lc);
static inline void cz_lc_clear(cz_lc *lc) { lc->n = 0; }
/* lc += coef * var (coef NULL means 1) */
void cz_lc_add(cz_cs *cs, cz_lc *lc, cz_var var, const cz_fr *coef);
/* lc -= coef * var (coef NULL means 1) */
void cz_lc_sub(cz_cs *cs, cz_lc *lc, cz_var var, const cz_fr *coef);
/* lc += coef * src (coef NULL means 1); one merge of the sorted lists; src
 * must not be lc */
void cz_lc_add_lc(cz_cs *cs, cz_lc *lc, const cz_lc *src, const cz_fr *coef);
/* lc -= coef * src */
void cz_lc_sub_lc(cz_cs *cs, cz_lc *lc, const cz_lc *src, const cz_fr *coef);

/* ---- constraints (RECORD / COUNT only; a no-op otherwise) ---- */
/* <a, w> * <b, w> = <c, w>; NULL means the empty LC */
void cz_cs_enforce(cz_cs *cs, const cz_lc *a, const cz_lc *b, const cz_lc *c);

/* ---- allocated numbers (bellpepper AllocatedNum) ---- */
typedef struct { cz_var var; uint32_t pad; cz_fr val; } cz_num;

static inline cz_num cz_num_alloc(cz_cs *cs, const cz_fr *v)
{
    cz_num n;
    n.val = *v;
    n.pad = 0;
    n.var = cz_cs_alloc(cs, v);
    return n;
}
/* a new input equal to x: input * ONE = x (A: input, B: ONE, C: x) */
cz_var cz_num_inputize(cz_cs *cs, const cz_num *x);

#endif
