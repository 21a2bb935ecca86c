/* test_gadgets_bits.c — booleans, field-to-bits, multipack and UInt32.
 *
 * Every operand kind (constant true/false, allocated true/false, negated
 * allocated true/false) against every other for xor and and, and every triple
 * for ch and maj: the value is right, the constant shortcuts allocate nothing,
 * and the four modes agree with a satisfied witness (gadget_check). The exact
 * rows of xor and maj (which LC goes in A, B, C, merged coefficients).
 * to_bits_le: 255 LE bits and 256 rows. pack_into_inputs: chunks of 254 bits
 * as inputs equal to compute_multipacking. UInt32 xor, rotr, shr, ch, maj and
 * addmany of 2..10 operands (some constant) against native arithmetic. Bit
 * orders on their own: packing weights, big-endian word bits, rotr / shr,
 * to_bits_le of 2^k + 1. */
#include "testutil.h"
#include "gadget_check.inc"
#include "circuits/gadgets.h"
#include "util/rng.h"

static cz_bool make(cz_cs *cs, int kind)
{
    switch (kind) {
    case 0: return cz_bool_const(1);
    case 1: return cz_bool_const(0);
    case 2: return cz_bool_alloc(cs, 1);
    case 3: return cz_bool_alloc(cs, 0);
    case 4: return cz_bool_not(cz_bool_alloc(cs, 1));
    default: return cz_bool_not(cz_bool_alloc(cs, 0));
    }
}
static int kval(int kind) { return kind == 0 || kind == 2 || kind == 5; }

typedef struct { int op, k[3]; cz_bool out; uint64_t rows_before; } bool_arg;

static void bool_circ(cz_cs *cs, void *p)
{
    bool_arg *a = p;
    cz_bool x = make(cs, a->k[0]), y = make(cs, a->k[1]), z = make(cs, a->k[2]);
    if (cz_cs_rec(cs)) a->rows_before = cs->n_constraints;
    switch (a->op) {
    case 0: a->out = cz_bool_xor(cs, x, y); break;
    case 1: a->out = cz_bool_and(cs, x, y); break;
    case 2: a->out = cz_bool_sha256_ch(cs, x, y, z); break;
    default: a->out = cz_bool_sha256_maj(cs, x, y, z); break;
    }
}

static void bools(void)
{
    for (int op = 0; op < 4; op++)
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++)
                for (int l = 0; l < (op < 2 ? 1 : 6); l++) {
                    bool_arg a = {op, {i, j, op < 2 ? 1 : l}, {0}, 0};
                    gc_counts c;
                    char what[48];
                    snprintf(what, sizeof what, "op %d kinds %d %d %d", op, i, j, l);
                    gc_run(bool_circ, &a, &c, what);
                    int x = kval(i), y = kval(j), z = kval(op < 2 ? 1 : l);
                    int want = op == 0 ? x ^ y : op == 1 ? x & y
                             : op == 2 ? (x & y) ^ ((x ^ 1) & z) : (x & y) ^ (x & z) ^ (y & z);
                    CHECK_MSG(a.out.val == want, "%s: value", what);
                    uint64_t rows = c.constraints - a.rows_before;
                    if (op < 2) {
                        int any_const = i < 2 || j < 2;
                        CHECK_MSG(rows == (any_const ? 0u : 1u), "%s: rows %llu", what, (unsigned long long)rows);
                        if (!any_const && op == 0)
                            CHECK(a.out.kind == (((i >= 4) != (j >= 4)) ? CZ_BOOL_NOT : CZ_BOOL_IS));
                        if (!any_const && op == 1) CHECK(a.out.kind == CZ_BOOL_IS);
                    } else if (i >= 2 && j >= 2 && l >= 2) {
                        CHECK_MSG(rows == (op == 2 ? 1u : 2u), "%s: rows %llu", what, (unsigned long long)rows);
                    }
                }
}

/* the exact rows of one xor and one maj */
static int row_has(const cz_csr *m, uint64_t row, uint32_t col, int64_t coef)
{
    cz_fr want;
    cz_fr_from_u64(&want, (uint64_t)(coef < 0 ? -coef : coef));
    if (coef < 0) cz_fr_neg(&want, &want);
    for (uint64_t k = m->row_ptr[row]; k < m->row_ptr[row + 1]; k++) {
        if (m->col[k] == col) return cz_fr_eq(&m->coefs[cz_csr_cidx(m, k)], &want);
    }
    return 0;
}
static uint64_t row_len(const cz_csr *m, uint64_t row) { return m->row_ptr[row + 1] - m->row_ptr[row]; }

static void exact_rows(void)
{
    cz_cs cs;
    cz_r1cs r;
    CHECK(cz_cs_init_record(&cs) == CZ_OK);
    cz_bool a = cz_bool_alloc(&cs, 1), b = cz_bool_alloc(&cs, 0), c = cz_bool_alloc(&cs, 1);
    cz_bool x = cz_bool_xor(&cs, a, b);                  /* row 3, aux 3 */
    cz_bool m = cz_bool_sha256_maj(&cs, a, b, c);        /* maj aux 4, bc aux 5: rows 4 (bc), 5 */
    cz_bool n = cz_bool_xor(&cs, cz_bool_not(a), b);     /* (NOT, IS): xor(b, a), row 6, aux 6 */
    CHECK(x.val == 1 && m.val == 1 && n.val == 0 && n.kind == CZ_BOOL_NOT);
    CHECK(cz_cs_finish_record(&cs, &r, NULL, NULL) == CZ_OK);
    const cz_csr *A = &r.m[0], *B = &r.m[1], *C = &r.m[2];
    /* columns: ONE 0, aux j at 1 + j */
    CHECK(row_len(A, 0) == 2 && row_has(A, 0, 0, 1) && row_has(A, 0, 1, -1) && row_len(B, 0) == 1 &&
          row_has(B, 0, 1, 1) && row_len(C, 0) == 0);
    CHECK(row_len(A, 3) == 1 && row_has(A, 3, 1, 2) && row_len(B, 3) == 1 && row_has(B, 3, 2, 1));
    CHECK(row_len(C, 3) == 3 && row_has(C, 3, 1, 1) && row_has(C, 3, 2, 1) && row_has(C, 3, 4, -1));
    /* bc = b AND c */
    CHECK(row_has(A, 4, 2, 1) && row_has(B, 4, 3, 1) && row_has(C, 4, 6, 1));
    /* (2bc - b - c) * a = bc - maj */
    CHECK(row_len(A, 5) == 3 && row_has(A, 5, 6, 2) && row_has(A, 5, 2, -1) && row_has(A, 5, 3, -1));
    CHECK(row_len(B, 5) == 1 && row_has(B, 5, 1, 1));
    CHECK(row_len(C, 5) == 2 && row_has(C, 5, 6, 1) && row_has(C, 5, 5, -1));
    /* xor with the IS operand first: (2b) * a = b + a - r */
    CHECK(row_has(A, 6, 2, 2) && row_has(B, 6, 1, 1) && row_has(C, 6, 7, -1));
    CHECK(r.n_constraints == 7);
    cz_r1cs_free(&r);
}

typedef struct { cz_fr x; cz_bool bits[255]; } tb_arg;

static void tobits_circ(cz_cs *cs, void *p)
{
    tb_arg *a = p;
    cz_num n = cz_num_alloc(cs, &a->x);
    cz_num_to_bits_le(cs, &n, a->bits);
}

typedef struct { uint8_t v[600]; uint64_t n, made; } pk_arg;

static void pack_circ(cz_cs *cs, void *p)
{
    pk_arg *a = p;
    cz_bool b[600];
    for (uint64_t i = 0; i < a->n; i++) b[i] = i % 7 == 3 ? cz_bool_const(a->v[i]) : cz_bool_alloc(cs, a->v[i]);
    a->made = cz_pack_into_inputs(cs, b, a->n);
}

typedef struct { uint32_t v[10]; uint32_t out[8]; unsigned nops, konst; } u_arg;

static void u32_circ(cz_cs *cs, void *p)
{
    u_arg *a = p;
    cz_u32 x = cz_u32_alloc(cs, a->v[0]), y = cz_u32_alloc(cs, a->v[1]), z = cz_u32_alloc(cs, a->v[2]);
    cz_u32 t = cz_u32_xor(cs, &x, &y);
    a->out[0] = t.val;
    t = cz_u32_rotr(&x, 7); a->out[1] = t.val;
    t = cz_u32_shr(&x, 10); a->out[2] = t.val;
    t = cz_u32_sha256_ch(cs, &x, &y, &z); a->out[3] = t.val;
    t = cz_u32_sha256_maj(cs, &x, &y, &z); a->out[4] = t.val;
    cz_u32 ops[10];
    for (unsigned k = 0; k < a->nops; k++)
        ops[k] = k < a->konst ? cz_u32_const(a->v[k]) : cz_u32_alloc(cs, a->v[k]);
    cz_multieq m;
    cz_multieq_init(&m);
    t = cz_u32_addmany(cs, &m, ops, a->nops);
    a->out[5] = t.val;
    cz_u32 u = cz_u32_addmany(cs, &m, ops, 2);
    a->out[6] = u.val;
    cz_multieq_finish(cs, &m);
    uint32_t back = 0;
    for (int i = 0; i < 32; i++) back |= (uint32_t)t.b[i].val << i;
    a->out[7] = back;
}

static uint32_t ror(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

/* bit orders, each against an independent statement of the convention */
static void bit_orders(void)
{
    cz_cs cs;
    cz_fr in[4], aux[600];
    /* pack_into_inputs: bit k of a chunk has weight 2^k; bit 254 starts the
     * second input */
    for (unsigned k = 0; k < 300; k += 37) {
        cz_bool b[300];
        for (unsigned i = 0; i < 300; i++) b[i] = cz_bool_const(i == k);
        cz_cs_init_witness(&cs, in, 4, aux, 600);
        CHECK(cz_pack_into_inputs(&cs, b, 300) == 2);
        cz_fr want, zero;
        cz_fr_zero(&zero);
        uint64_t e[1] = {k % 254};
        cz_fr two;
        cz_fr_from_u64(&two, 2);
        cz_fr_pow(&want, &two, e, 1);
        CHECK(cz_fr_eq(&in[1 + k / 254], &want) && cz_fr_eq(&in[2 - k / 254], &zero));
    }
    /* UInt32 from big-endian bits: bits[0] is the most significant; the
     * UInt32's own bit 0 is the least */
    cz_bool be[32];
    for (int i = 0; i < 32; i++) be[i] = cz_bool_const(i == 0 || i == 31 || i == 8);
    cz_u32 x = cz_u32_from_bits_be(be);
    CHECK(x.val == 0x80800001u && x.b[0].val == 1 && x.b[31].val == 1 && x.b[23].val == 1);
    cz_bool back[32];
    cz_u32_to_bits_be(back, &x);
    int ok = 1;
    for (int i = 0; i < 32; i++) ok &= back[i].val == be[i].val;
    CHECK(ok);
    /* rotr moves bit i+by to i; shr fills the top with constant zeros */
    cz_u32 r = cz_u32_rotr(&x, 1), t = cz_u32_shr(&x, 4);
    CHECK(r.val == 0xc0400000u && r.b[31].val == 1 && r.b[30].val == 1);
    CHECK(t.val == 0x08080000u && t.b[31].kind == CZ_BOOL_CONST && t.b[31].val == 0);
    /* to_bits_le of 2^k + 1: bits 0 and k */
    for (unsigned k = 1; k < 255; k += 50) {
        cz_fr v, one, two;
        uint64_t e[1] = {k};
        cz_fr_from_u64(&two, 2);
        cz_fr_pow(&v, &two, e, 1);
        cz_fr_one(&one);
        cz_fr_add(&v, &v, &one);
        cz_bool bits[255];
        cz_cs_init_witness(&cs, in, 4, aux, 600);
        cz_num n = cz_num_alloc(&cs, &v);
        cz_num_to_bits_le(&cs, &n, bits);
        int good = 1;
        for (unsigned i = 0; i < 255; i++) good &= bits[i].val == (i == 0 || i == k);
        CHECK(good);
    }
}

int main(void)
{
    uint64_t seed = cz_test_seed("test_gadgets_bits", 5);
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    bools();
    exact_rows();
    bit_orders();

    for (int t = 0; t < 4; t++) {
        tb_arg a;
        cz_fr_random(&a.x, &rng);
        gc_counts c;
        gc_run(tobits_circ, &a, &c, "to_bits_le");
        CHECK(c.constraints == 256 && c.aux == 256 && c.bits == 255);
        cz_fr plain;
        cz_fr_from_mont(&plain, &a.x);
        int ok = 1;
        for (int i = 0; i < 255; i++) ok &= a.bits[i].val == ((plain.l[i / 64] >> (i % 64)) & 1);
        CHECK(ok);
    }

    for (uint64_t n = 1; n <= 600; n += 199) {
        pk_arg a;
        a.n = n;
        for (uint64_t i = 0; i < n; i++) a.v[i] = cz_rng_u64(&rng) & 1;
        gc_counts c;
        gc_run(pack_circ, &a, &c, "pack_into_inputs");
        CHECK(a.made == (n + 253) / 254 && c.inputs == 1 + a.made);
        cz_fr want[3];
        cz_compute_multipacking(want, a.v, n);
        cz_cs cs;
        cz_fr in[4], aux[600];
        cz_cs_init_witness(&cs, in, 4, aux, 600);
        pack_circ(&cs, &a);
        CHECK(!memcmp(in + 1, want, a.made * sizeof(cz_fr)));
    }

    for (int t = 0; t < 40; t++) {
        u_arg a;
        for (int k = 0; k < 10; k++) a.v[k] = (uint32_t)cz_rng_u64(&rng);
        if (t % 5 == 0) a.v[0] = 0xffffffff, a.v[1] = 0xffffffff;
        a.nops = 2 + t % 9;
        a.konst = t % 3 == 0 ? a.nops : (unsigned)(t % 3);
        char what[32];
        snprintf(what, sizeof what, "uint32 %d", t);
        gc_run(u32_circ, &a, NULL, what);
        uint32_t x = a.v[0], y = a.v[1], z = a.v[2], s = 0;
        for (unsigned k = 0; k < a.nops; k++) s += a.v[k];
        CHECK(a.out[0] == (x ^ y) && a.out[1] == ror(x, 7) && a.out[2] == x >> 10);
        CHECK(a.out[3] == ((x & y) ^ (~x & z)) && a.out[4] == ((x & y) ^ (x & z) ^ (y & z)));
        CHECK(a.out[5] == s && a.out[7] == s && a.out[6] == a.v[0] + a.v[1]);
    }
    return cz_test_finish("test_gadgets_bits");
}
