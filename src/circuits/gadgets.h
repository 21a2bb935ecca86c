/* gadgets.h — the bit-level gadgets over cs.h, with the constraint structure
 * of the reference (bellpepper / bellperson): booleans, allocated bits, the
 * boolean operations with their constant shortcuts, field-to-bits, multipack,
 * MultiEq batching and UInt32.
 *
 * A cz_bool is a Boolean of the reference: a constant, an allocated bit (IS)
 * or the negation of one (NOT); `val` is always the boolean's own value (for
 * NOT, the negation of the variable's value). Values are always computed, in
 * every mode, so witness-only mode runs the same code as recording.
 *
 * Constraints, as (A) * (B) = (C), in the order the reference emits them:
 *   alloc bit b          (ONE - b) * b = 0
 *   xor   r = a ^ b      (2a) * b = a + b - r
 *   and   r = a & b      a * b = r
 *   and_not r = a & !b   a * (ONE - b) = r
 *   nor   r = !a & !b    (ONE - a) * (ONE - b) = r
 *   ch (general case)    (b - c) * a = ch - c        (ch allocated, no booleanity)
 *   maj (general case)   maj allocated, then bc = b AND c, then
 *                        (2bc - b - c) * a = bc - maj
 *   to_bits_le(x)        255 bits (LE, each with booleanity), then
 *                        0 * 0 = sum 2^i b_i - x
 *   pack into inputs     per chunk of 254 bits: input allocated, then
 *                        (sum 2^i bit_i) * ONE = input
 *   multieq batch        (sum 2^off_k lhs_k) * ONE = (sum 2^off_k rhs_k), one
 *                        row per run of equations fitting in 254 bits, emitted
 *                        when the next equation would not fit, or at the end
 *   addmany (n operands) ceil(log2(n (2^32 - 1))) result bits allocated (with
 *                        booleanity), then one MultiEq equation
 *                        sum_ops sum_i 2^i bit = sum_i 2^i result_i
 * Boolean operations on constants fold as the reference folds them (see
 * gadgets.c); Boolean xor of (IS, NOT) is NOT(xor), and of (NOT, NOT) is
 * xor of the variables.
 *
 * The fast path (witness modes) of the bit operations is inline here; the
 * constraint side is out of line (gadgets.c) and only runs when
 * cz_cs_rec(cs). */
#ifndef CZ_CIRCUITS_GADGETS_H
#define CZ_CIRCUITS_GADGETS_H

#include "circuits/cs.h"

enum { CZ_BOOL_CONST = 0, CZ_BOOL_IS = 1, CZ_BOOL_NOT = 2 };

typedef struct { cz_var var; uint8_t kind, val; uint16_t pad; } cz_bool;

static inline cz_bool cz_bool_const(int v)
{
    cz_bool b = {0, CZ_BOOL_CONST, (uint8_t)(v != 0), 0};
    return b;
}
static inline cz_bool cz_bool_is(cz_var var, int v)
{
    cz_bool b = {var, CZ_BOOL_IS, (uint8_t)(v != 0), 0};
    return b;
}
static inline cz_bool cz_bool_not(cz_bool a)
{
    if (a.kind != CZ_BOOL_CONST) a.kind ^= 3; /* IS <-> NOT */
    a.val ^= 1;
    return a;
}
/* the value of the underlying variable (IS: val, NOT: !val) */
static inline int cz__bool_varval(cz_bool a) { return a.val ^ (a.kind == CZ_BOOL_NOT); }

/* lc += coef * b, as the reference's Boolean::lc (constant true: coef * ONE;
 * NOT v: coef * ONE - coef * v); coef NULL means 1 */
void cz_lc_add_bool(cz_cs *cs, cz_lc *lc, cz_bool b, const cz_fr *coef);
void cz_lc_sub_bool(cz_cs *cs, cz_lc *lc, cz_bool b, const cz_fr *coef);

/* out-of-line constraint side (gadgets.c) */
void cz__rec_booleanity(cz_cs *cs, cz_var b);
void cz__rec_xor(cz_cs *cs, cz_var a, cz_var b, cz_var r);
void cz__rec_and(cz_cs *cs, cz_var a, cz_var b, cz_var r);
void cz__rec_and_not(cz_cs *cs, cz_var a, cz_var b, cz_var r);
void cz__rec_nor(cz_cs *cs, cz_var a, cz_var b, cz_var r);

/* ---- allocated bits (AllocatedBit) ---- */
/* a new bit with its booleanity constraint */
static inline cz_var cz_bit_alloc(cz_cs *cs, int v)
{
    cz_var b = cz_cs_alloc_bit(cs, v);
    if (cz_cs_rec(cs)) cz__rec_booleanity(cs, b);
    return b;
}
static inline cz_bool cz_bool_alloc(cz_cs *cs, int v) { return cz_bool_is(cz_bit_alloc(cs, v), v); }

/* AllocatedBit ops on two variables with values av, bv; return the result bit */
static inline cz_var cz_bit_xor(cz_cs *cs, cz_var a, int av, cz_var b, int bv)
{
    cz_var r = cz_cs_alloc_bit(cs, av ^ bv);
    if (cz_cs_rec(cs)) cz__rec_xor(cs, a, b, r);
    return r;
}
static inline cz_var cz_bit_and(cz_cs *cs, cz_var a, int av, cz_var b, int bv)
{
    cz_var r = cz_cs_alloc_bit(cs, av & bv);
    if (cz_cs_rec(cs)) cz__rec_and(cs, a, b, r);
    return r;
}
static inline cz_var cz_bit_and_not(cz_cs *cs, cz_var a, int av, cz_var b, int bv)
{
    cz_var r = cz_cs_alloc_bit(cs, av & (bv ^ 1));
    if (cz_cs_rec(cs)) cz__rec_and_not(cs, a, b, r);
    return r;
}
static inline cz_var cz_bit_nor(cz_cs *cs, cz_var a, int av, cz_var b, int bv)
{
    cz_var r = cz_cs_alloc_bit(cs, (av ^ 1) & (bv ^ 1));
    if (cz_cs_rec(cs)) cz__rec_nor(cs, a, b, r);
    return r;
}

/* ---- Boolean ops with the reference's constant shortcuts ---- */
static inline cz_bool cz_bool_xor(cz_cs *cs, cz_bool a, cz_bool b)
{
    if (a.kind == CZ_BOOL_CONST) return a.val ? cz_bool_not(b) : b;
    if (b.kind == CZ_BOOL_CONST) return b.val ? cz_bool_not(a) : a;
    if (a.kind == CZ_BOOL_NOT && b.kind == CZ_BOOL_IS) { cz_bool t = a; a = b; b = t; } /* IS first */
    int r = a.val ^ b.val;
    cz_var v = cz_bit_xor(cs, a.var, cz__bool_varval(a), b.var, cz__bool_varval(b));
    /* (IS, NOT) / (NOT, IS): NOT of the variables' xor; same kinds: IS */
    return a.kind == b.kind ? cz_bool_is(v, r) : cz_bool_not(cz_bool_is(v, !r));
}

static inline cz_bool cz_bool_and(cz_cs *cs, cz_bool a, cz_bool b)
{
    if (a.kind == CZ_BOOL_CONST && !a.val) return a;
    if (b.kind == CZ_BOOL_CONST && !b.val) return b;
    if (a.kind == CZ_BOOL_CONST) return b;
    if (b.kind == CZ_BOOL_CONST) return a;
    int r = a.val & b.val;
    cz_var v;
    if (a.kind == CZ_BOOL_IS && b.kind == CZ_BOOL_IS)
        v = cz_bit_and(cs, a.var, a.val, b.var, b.val);
    else if (a.kind == CZ_BOOL_IS) /* b NOT */
        v = cz_bit_and_not(cs, a.var, a.val, b.var, !b.val);
    else if (b.kind == CZ_BOOL_IS) /* a NOT */
        v = cz_bit_and_not(cs, b.var, b.val, a.var, !a.val);
    else
        v = cz_bit_nor(cs, a.var, !a.val, b.var, !b.val);
    return cz_bool_is(v, r);
}

/* SHA-256 ch = (a & b) ^ (!a & c) and maj = (a & b) ^ (a & c) ^ (b & c),
 * with the reference's folding (gadgets.c) */
cz_bool cz_bool_sha256_ch(cz_cs *cs, cz_bool a, cz_bool b, cz_bool c);
cz_bool cz_bool_sha256_maj(cz_cs *cs, cz_bool a, cz_bool b, cz_bool c);

/* ---- numbers and bits ---- */
/* non-strict to_bits_le: 255 allocated bits, LSB first, then the packing row
 * 0 * 0 = sum 2^i b_i - x; out[255] */
void cz_num_to_bits_le(cz_cs *cs, const cz_num *x, cz_bool out[255]);
/* multipack::pack_into_inputs: chunks of 254 bits, bit 0 of each chunk
 * least significant; returns the number of inputs made */
uint64_t cz_pack_into_inputs(cz_cs *cs, const cz_bool *bits, uint64_t n);
/* multipack::pack_bits (Filecoin's hash_circuit uses it): the first min(n, 254) bits as one new aux
 * number: num allocated, then (sum 2^i bit_i) * ONE = num */
cz_num cz_pack_bits(cz_cs *cs, const cz_bool *bits, uint64_t n);
/* the values pack_into_inputs gives (the public inputs a verifier needs):
 * out must hold (n + 253) / 254 elements */
void cz_compute_multipacking(cz_fr *out, const uint8_t *bits, uint64_t n);

/* ---- MultiEq (batched equalities, A = lhs, B = ONE, C = rhs) ---- */
typedef struct { cz_lc lhs, rhs; uint32_t bits_used, ops; } cz_multieq;
void cz_multieq_init(cz_multieq *m);
/* lhs == rhs over num_bits bits; takes copies (RECORD / COUNT only) */
void cz_multieq_enforce_equal(cz_cs *cs, cz_multieq *m, uint32_t num_bits, const cz_lc *lhs,
                              const cz_lc *rhs);
/* emit the pending batch (the reference's drop) and free the LCs */
void cz_multieq_finish(cz_cs *cs, cz_multieq *m);

/* ---- UInt32 (bits LSB first) ---- */
typedef struct { cz_bool b[32]; uint32_t val; } cz_u32;

/* are all 32 bits allocated (IS)? */
static inline int cz_u32_all_is(const cz_u32 *x)
{
    int ok = 1;
    for (int i = 0; i < 32; i++) ok &= x->b[i].kind == CZ_BOOL_IS;
    return ok;
}

/* witness-only fast path for gadgets. cz__fast_room: is cs in WITNESS or
 * COMPACT mode with room for nb more boolean aux variables? Then
 * cz__witness_bits writes the low nb (<= 64) bits of v, LSB first, as new
 * boolean aux variables (Fr into the aux buffer, or bits into the compact bit
 * stream), moving the counters as nb calls of cz_cs_alloc_bit would, and
 * returns the first new aux index. Only for places where the generic path
 * would allocate exactly those bits in that order. */
static inline int cz__fast_room(const cz_cs *cs, unsigned nb)
{
    if (cs->mode == CZ_CS_WITNESS) return cs->n_aux + nb <= cs->aux_cap;
    if (cs->mode == CZ_CS_COMPACT) return cs->n_bits + nb <= cs->bits_cap;
    return 0;
}

static inline uint64_t cz__witness_bits(cz_cs *cs, uint64_t v, unsigned nb)
{
    uint64_t j = cs->n_aux;
    if (cs->mode == CZ_CS_WITNESS) {
        cz_fr t[2], *o = cs->aux + j;
        t[0].l[0] = t[0].l[1] = t[0].l[2] = t[0].l[3] = 0;
        t[1] = cz_fr_one_mont;
        for (unsigned i = 0; i < nb; i++) o[i] = t[(v >> i) & 1];
    } else {
        uint64_t k = cs->n_bits, m = nb == 64 ? v : v & ((1ull << nb) - 1), *w = cs->bits + (k >> 6);
        unsigned off = (unsigned)(k & 63);
        if (off) w[0] |= m << off; else w[0] = m;
        if (off && off + nb > 64) w[1] = m >> (64 - off);
    }
    cs->n_aux = j + nb;
    cs->n_bits += nb;
    return j;
}

cz_u32 cz_u32_const(uint32_t v);
cz_u32 cz_u32_alloc(cz_cs *cs, uint32_t v);
/* from / to 32 booleans, most significant first */
cz_u32 cz_u32_from_bits_be(const cz_bool *bits);
void cz_u32_to_bits_be(cz_bool *out, const cz_u32 *x);
cz_u32 cz_u32_rotr(const cz_u32 *x, unsigned by);
cz_u32 cz_u32_shr(const cz_u32 *x, unsigned by);
cz_u32 cz_u32_xor(cz_cs *cs, const cz_u32 *a, const cz_u32 *b);
cz_u32 cz_u32_sha256_ch(cz_cs *cs, const cz_u32 *a, const cz_u32 *b, const cz_u32 *c);
cz_u32 cz_u32_sha256_maj(cz_cs *cs, const cz_u32 *a, const cz_u32 *b, const cz_u32 *c);
/* modular sum of 2..10 operands through the MultiEq m */
cz_u32 cz_u32_addmany(cz_cs *cs, cz_multieq *m, const cz_u32 *ops, unsigned n);

#endif
