/* gadgets.c — the constraint side of the bit gadgets, and the gadgets too big
 * to inline (ch, maj, field-to-bits, multipack, MultiEq, UInt32); shapes in
 * gadgets.h.
 *
 * Scratch LCs 0..2 belong to the single-constraint helpers (cz__rec_*), 3..5
 * to the composite gadgets here, which build their LCs only after the
 * allocations (and booleanity rows) they contain, so the two never overlap.
 * Building an LC before or after the allocations gives the same LC, and the
 * rows come out in the reference's order. */
#include "circuits/gadgets.h"

#include <string.h>

/* ---- LC helpers ---- */
void cz_lc_add_bool(cz_cs *cs, cz_lc *lc, cz_bool b, const cz_fr *coef)
{
    switch (b.kind) {
    case CZ_BOOL_CONST: if (b.val) cz_lc_add(cs, lc, CZ_ONE, coef); break;
    case CZ_BOOL_IS: cz_lc_add(cs, lc, b.var, coef); break;
    default: cz_lc_add(cs, lc, CZ_ONE, coef); cz_lc_sub(cs, lc, b.var, coef); break;
    }
}

void cz_lc_sub_bool(cz_cs *cs, cz_lc *lc, cz_bool b, const cz_fr *coef)
{
    switch (b.kind) {
    case CZ_BOOL_CONST: if (b.val) cz_lc_sub(cs, lc, CZ_ONE, coef); break;
    case CZ_BOOL_IS: cz_lc_sub(cs, lc, b.var, coef); break;
    default: cz_lc_sub(cs, lc, CZ_ONE, coef); cz_lc_add(cs, lc, b.var, coef); break;
    }
}

/* ---- single constraints ---- */
void cz__rec_booleanity(cz_cs *cs, cz_var b)
{
    cz_lc *A = cz_cs_lc(cs, 0), *B = cz_cs_lc(cs, 1);
    cz_lc_add(cs, A, CZ_ONE, NULL);
    cz_lc_sub(cs, A, b, NULL);
    cz_lc_add(cs, B, b, NULL);
    cz_cs_enforce(cs, A, B, NULL);
}

void cz__rec_xor(cz_cs *cs, cz_var a, cz_var b, cz_var r)
{
    cz_lc *A = cz_cs_lc(cs, 0), *B = cz_cs_lc(cs, 1), *C = cz_cs_lc(cs, 2);
    cz_lc_add(cs, A, a, NULL);
    cz_lc_add(cs, A, a, NULL);
    cz_lc_add(cs, B, b, NULL);
    cz_lc_add(cs, C, a, NULL);
    cz_lc_add(cs, C, b, NULL);
    cz_lc_sub(cs, C, r, NULL);
    cz_cs_enforce(cs, A, B, C);
}

void cz__rec_and(cz_cs *cs, cz_var a, cz_var b, cz_var r)
{
    cz_lc *A = cz_cs_lc(cs, 0), *B = cz_cs_lc(cs, 1), *C = cz_cs_lc(cs, 2);
    cz_lc_add(cs, A, a, NULL);
    cz_lc_add(cs, B, b, NULL);
    cz_lc_add(cs, C, r, NULL);
    cz_cs_enforce(cs, A, B, C);
}

void cz__rec_and_not(cz_cs *cs, cz_var a, cz_var b, cz_var r)
{
    cz_lc *A = cz_cs_lc(cs, 0), *B = cz_cs_lc(cs, 1), *C = cz_cs_lc(cs, 2);
    cz_lc_add(cs, A, a, NULL);
    cz_lc_add(cs, B, CZ_ONE, NULL);
    cz_lc_sub(cs, B, b, NULL);
    cz_lc_add(cs, C, r, NULL);
    cz_cs_enforce(cs, A, B, C);
}

void cz__rec_nor(cz_cs *cs, cz_var a, cz_var b, cz_var r)
{
    cz_lc *A = cz_cs_lc(cs, 0), *B = cz_cs_lc(cs, 1), *C = cz_cs_lc(cs, 2);
    cz_lc_add(cs, A, CZ_ONE, NULL);
    cz_lc_sub(cs, A, a, NULL);
    cz_lc_add(cs, B, CZ_ONE, NULL);
    cz_lc_sub(cs, B, b, NULL);
    cz_lc_add(cs, C, r, NULL);
    cz_cs_enforce(cs, A, B, C);
}

/* ---- ch and maj ---- */
cz_bool cz_bool_sha256_ch(cz_cs *cs, cz_bool a, cz_bool b, cz_bool c)
{
    int v = (a.val & b.val) ^ ((a.val ^ 1) & c.val);
    int ka = a.kind == CZ_BOOL_CONST, kb = b.kind == CZ_BOOL_CONST, kc = c.kind == CZ_BOOL_CONST;
    if (ka && kb && kc) return cz_bool_const(v);
    if (ka && !a.val) return c;
    if (kb && !b.val) return cz_bool_and(cs, cz_bool_not(a), c);
    if (kc && !c.val) return cz_bool_and(cs, a, b);
    if (kc) return cz_bool_not(cz_bool_and(cs, a, cz_bool_not(b)));
    if (kb) return cz_bool_not(cz_bool_and(cs, cz_bool_not(a), cz_bool_not(c)));
    /* a constant true, or nothing constant: allocate ch */
    cz_var ch = cz_cs_alloc_bit(cs, v);
    if (cz_cs_rec(cs)) {
        cz_lc *A = cz_cs_lc(cs, 3), *B = cz_cs_lc(cs, 4), *C = cz_cs_lc(cs, 5);
        cz_lc_add_bool(cs, A, b, NULL);
        cz_lc_sub_bool(cs, A, c, NULL);
        cz_lc_add_bool(cs, B, a, NULL);
        cz_lc_add(cs, C, ch, NULL);
        cz_lc_sub_bool(cs, C, c, NULL);
        cz_cs_enforce(cs, A, B, C);
    }
    return cz_bool_is(ch, v);
}

cz_bool cz_bool_sha256_maj(cz_cs *cs, cz_bool a, cz_bool b, cz_bool c)
{
    int v = (a.val & b.val) ^ (a.val & c.val) ^ (b.val & c.val);
    int ka = a.kind == CZ_BOOL_CONST, kb = b.kind == CZ_BOOL_CONST, kc = c.kind == CZ_BOOL_CONST;
    if (ka && kb && kc) return cz_bool_const(v);
    if (ka && !a.val) return cz_bool_and(cs, b, c);
    if (kb && !b.val) return cz_bool_and(cs, a, c);
    if (kc && !c.val) return cz_bool_and(cs, a, b);
    if (kc) return cz_bool_not(cz_bool_and(cs, cz_bool_not(a), cz_bool_not(b)));
    if (kb) return cz_bool_not(cz_bool_and(cs, cz_bool_not(a), cz_bool_not(c)));
    if (ka) return cz_bool_not(cz_bool_and(cs, cz_bool_not(b), cz_bool_not(c)));
    cz_var maj = cz_cs_alloc_bit(cs, v);
    cz_bool bc = cz_bool_and(cs, b, c);
    if (cz_cs_rec(cs)) {
        cz_lc *A = cz_cs_lc(cs, 3), *B = cz_cs_lc(cs, 4), *C = cz_cs_lc(cs, 5);
        cz_lc_add_bool(cs, A, bc, NULL);
        cz_lc_add_bool(cs, A, bc, NULL);
        cz_lc_sub_bool(cs, A, b, NULL);
        cz_lc_sub_bool(cs, A, c, NULL);
        cz_lc_add_bool(cs, B, a, NULL);
        cz_lc_add_bool(cs, C, bc, NULL);
        cz_lc_sub(cs, C, maj, NULL);
        cz_cs_enforce(cs, A, B, C);
    }
    return cz_bool_is(maj, v);
}

/* ---- numbers ---- */
void cz_num_to_bits_le(cz_cs *cs, const cz_num *x, cz_bool out[255])
{
    cz_fr plain;
    cz_fr_from_mont(&plain, &x->val);
    for (int i = 0; i < 255; i++) {
        int v = (int)((plain.l[i / 64] >> (i % 64)) & 1);
        out[i] = cz_bool_alloc(cs, v);
    }
    if (cz_cs_rec(cs)) {
        cz_lc *C = cz_cs_lc(cs, 5);
        for (int i = 0; i < 255; i++) cz_lc_add(cs, C, out[i].var, cz_cs_pow2(cs, (unsigned)i));
        cz_lc_sub(cs, C, x->var, NULL);
        cz_cs_enforce(cs, NULL, NULL, C);
    }
}

#define CAPACITY 254

void cz_compute_multipacking(cz_fr *out, const uint8_t *bits, uint64_t n)
{
    for (uint64_t k = 0; k * CAPACITY < n; k++) {
        cz_fr plain = {{0, 0, 0, 0}};
        for (uint64_t i = 0; i < CAPACITY && k * CAPACITY + i < n; i++)
            if (bits[k * CAPACITY + i]) plain.l[i / 64] |= 1ull << (i % 64);
        cz_fr_to_mont(&out[k], &plain);
    }
}

uint64_t cz_pack_into_inputs(cz_cs *cs, const cz_bool *bits, uint64_t n)
{
    uint64_t made = 0;
    for (uint64_t k = 0; k * CAPACITY < n; k++, made++) {
        uint64_t len = n - k * CAPACITY < CAPACITY ? n - k * CAPACITY : CAPACITY;
        const cz_bool *c = bits + k * CAPACITY;
        cz_fr plain = {{0, 0, 0, 0}}, v;
        for (uint64_t i = 0; i < len; i++)
            if (c[i].val) plain.l[i / 64] |= 1ull << (i % 64);
        cz_fr_to_mont(&v, &plain);
        cz_var in = cz_cs_alloc_input(cs, &v);
        if (cz_cs_rec(cs)) {
            cz_lc *A = cz_cs_lc(cs, 3), *B = cz_cs_lc(cs, 4), *C = cz_cs_lc(cs, 5);
            for (uint64_t i = 0; i < len; i++) cz_lc_add_bool(cs, A, c[i], cz_cs_pow2(cs, (unsigned)i));
            cz_lc_add(cs, B, CZ_ONE, NULL);
            cz_lc_add(cs, C, in, NULL);
            cz_cs_enforce(cs, A, B, C);
        }
    }
    return made;
}

cz_num cz_pack_bits(cz_cs *cs, const cz_bool *bits, uint64_t n)
{
    uint64_t len = n < CAPACITY ? n : CAPACITY;
    cz_fr plain = {{0, 0, 0, 0}}, v;
    for (uint64_t i = 0; i < len; i++)
        if (bits[i].val) plain.l[i / 64] |= 1ull << (i % 64);
    cz_fr_to_mont(&v, &plain);
    cz_num num = cz_num_alloc(cs, &v);
    if (cz_cs_rec(cs)) {
        cz_lc *A = cz_cs_lc(cs, 3), *B = cz_cs_lc(cs, 4), *C = cz_cs_lc(cs, 5);
        for (uint64_t i = 0; i < len; i++) cz_lc_add_bool(cs, A, bits[i], cz_cs_pow2(cs, (unsigned)i));
        cz_lc_add(cs, B, CZ_ONE, NULL);
        cz_lc_add(cs, C, num.var, NULL);
        cz_cs_enforce(cs, A, B, C);
    }
    return num;
}

/* ---- MultiEq ---- */
void cz_multieq_init(cz_multieq *m)
{
    cz_lc_init(&m->lhs);
    cz_lc_init(&m->rhs);
    m->bits_used = 0;
    m->ops = 0;
}

static void multieq_accumulate(cz_cs *cs, cz_multieq *m)
{
    cz_lc one;
    cz_term t = {CZ_ONE, 0, cz_fr_one_mont};
    one.t = &t; one.n = 1; one.cap = 1;
    cz_cs_enforce(cs, &m->lhs, &one, &m->rhs);
    cz_lc_clear(&m->lhs);
    cz_lc_clear(&m->rhs);
    m->bits_used = 0;
    m->ops++;
}

void cz_multieq_enforce_equal(cz_cs *cs, cz_multieq *m, uint32_t num_bits, const cz_lc *lhs,
                              const cz_lc *rhs)
{
    if (!cz_cs_rec(cs)) return;
    if (CAPACITY <= m->bits_used + num_bits) multieq_accumulate(cs, m);
    const cz_fr *coef = cz_cs_pow2(cs, m->bits_used);
    cz_lc_add_lc(cs, &m->lhs, lhs, coef);
    cz_lc_add_lc(cs, &m->rhs, rhs, coef);
    m->bits_used += num_bits;
}

void cz_multieq_finish(cz_cs *cs, cz_multieq *m)
{
    if (cz_cs_rec(cs) && m->bits_used > 0) multieq_accumulate(cs, m);
    cz_lc_free(&m->lhs);
    cz_lc_free(&m->rhs);
}

/* ---- UInt32 ---- */
cz_u32 cz_u32_const(uint32_t v)
{
    cz_u32 x;
    for (int i = 0; i < 32; i++) x.b[i] = cz_bool_const((v >> i) & 1);
    x.val = v;
    return x;
}

cz_u32 cz_u32_alloc(cz_cs *cs, uint32_t v)
{
    cz_u32 x;
    for (int i = 0; i < 32; i++) x.b[i] = cz_bool_alloc(cs, (v >> i) & 1);
    x.val = v;
    return x;
}

cz_u32 cz_u32_from_bits_be(const cz_bool *bits)
{
    cz_u32 x;
    x.val = 0;
    for (int i = 0; i < 32; i++) {
        x.b[i] = bits[31 - i];
        x.val |= (uint32_t)x.b[i].val << i;
    }
    return x;
}

void cz_u32_to_bits_be(cz_bool *out, const cz_u32 *x)
{
    for (int i = 0; i < 32; i++) out[i] = x->b[31 - i];
}

cz_u32 cz_u32_rotr(const cz_u32 *x, unsigned by)
{
    cz_u32 r;
    by %= 32;
    for (unsigned i = 0; i < 32; i++) r.b[i] = x->b[(i + by) & 31];
    r.val = by ? (x->val >> by) | (x->val << (32 - by)) : x->val;
    return r;
}

cz_u32 cz_u32_shr(const cz_u32 *x, unsigned by)
{
    cz_u32 r;
    by %= 32;
    for (unsigned i = 0; i < 32; i++) r.b[i] = i + by < 32 ? x->b[i + by] : cz_bool_const(0);
    r.val = x->val >> by;
    return r;
}

/* In the fast paths below every bit is allocated (IS), which is where the
 * reference allocates exactly one variable per bit (two for maj: maj, then
 * b AND c) in bit order; they write the values straight into the buffer. */
cz_u32 cz_u32_xor(cz_cs *cs, const cz_u32 *a, const cz_u32 *b)
{
    cz_u32 r;
    r.val = a->val ^ b->val;
    if (cz__fast_room(cs, 32) && cz_u32_all_is(a) && cz_u32_all_is(b)) {
        uint64_t j = cz__witness_bits(cs, r.val, 32);
        for (int i = 0; i < 32; i++) r.b[i] = cz_bool_is(CZ_AUX(j + (uint64_t)i), (r.val >> i) & 1);
        return r;
    }
    for (int i = 0; i < 32; i++) r.b[i] = cz_bool_xor(cs, a->b[i], b->b[i]);
    return r;
}

cz_u32 cz_u32_sha256_ch(cz_cs *cs, const cz_u32 *a, const cz_u32 *b, const cz_u32 *c)
{
    cz_u32 r;
    r.val = (a->val & b->val) ^ (~a->val & c->val);
    if (cz__fast_room(cs, 32) && cz_u32_all_is(a) && cz_u32_all_is(b) && cz_u32_all_is(c)) {
        uint64_t j = cz__witness_bits(cs, r.val, 32);
        for (int i = 0; i < 32; i++) r.b[i] = cz_bool_is(CZ_AUX(j + (uint64_t)i), (r.val >> i) & 1);
        return r;
    }
    for (int i = 0; i < 32; i++) r.b[i] = cz_bool_sha256_ch(cs, a->b[i], b->b[i], c->b[i]);
    return r;
}

cz_u32 cz_u32_sha256_maj(cz_cs *cs, const cz_u32 *a, const cz_u32 *b, const cz_u32 *c)
{
    cz_u32 r;
    r.val = (a->val & b->val) ^ (a->val & c->val) ^ (b->val & c->val);
    if (cz__fast_room(cs, 64) && cz_u32_all_is(a) && cz_u32_all_is(b) && cz_u32_all_is(c)) {
        /* maj_i then (b AND c)_i, interleaved */
        uint32_t bc = b->val & c->val;
        uint64_t v = 0;
        for (int i = 0; i < 32; i++) v |= (uint64_t)((r.val >> i) & 1) << (2 * i) | (uint64_t)((bc >> i) & 1) << (2 * i + 1);
        uint64_t j = cz__witness_bits(cs, v, 64);
        for (int i = 0; i < 32; i++) r.b[i] = cz_bool_is(CZ_AUX(j + 2 * (uint64_t)i), (r.val >> i) & 1);
        return r;
    }
    for (int i = 0; i < 32; i++) r.b[i] = cz_bool_sha256_maj(cs, a->b[i], b->b[i], c->b[i]);
    return r;
}

cz_u32 cz_u32_addmany(cz_cs *cs, cz_multieq *m, const cz_u32 *ops, unsigned n)
{
    uint64_t max_value = (uint64_t)n * 0xffffffffull, sum = 0;
    int all_const = 1;
    for (unsigned k = 0; k < n; k++) {
        sum += ops[k].val;
        for (int i = 0; i < 32; i++) all_const &= ops[k].b[i].kind == CZ_BOOL_CONST;
    }
    if (all_const) return cz_u32_const((uint32_t)sum);
    cz_var rv[64];
    unsigned nbits = 0;
    while (max_value >> nbits) nbits++;
    if (cz__fast_room(cs, nbits)) {
        uint64_t first = cz__witness_bits(cs, sum, nbits);
        cz_u32 r;
        for (int i = 0; i < 32; i++) r.b[i] = cz_bool_is(CZ_AUX(first + (uint64_t)i), (int)((sum >> i) & 1));
        r.val = (uint32_t)sum;
        return r;
    }
    for (unsigned i = 0; i < nbits; i++) rv[i] = cz_bit_alloc(cs, (int)((sum >> i) & 1));
    if (cz_cs_rec(cs)) {
        cz_lc *L = cz_cs_lc(cs, 3), *R = cz_cs_lc(cs, 4);
        for (unsigned k = 0; k < n; k++)
            for (unsigned i = 0; i < 32; i++) cz_lc_add_bool(cs, L, ops[k].b[i], cz_cs_pow2(cs, i));
        for (unsigned i = 0; i < nbits; i++) cz_lc_add(cs, R, rv[i], cz_cs_pow2(cs, i));
        cz_multieq_enforce_equal(cs, m, nbits, L, R);
    }
    cz_u32 r;
    for (int i = 0; i < 32; i++) r.b[i] = cz_bool_is(rv[i], (int)((sum >> i) & 1));
    r.val = (uint32_t)sum;
    return r;
}
