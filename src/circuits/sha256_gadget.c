/* sha256_gadget.c — SHA-256 compression and full hash in-circuit (shape in
 * sha256_gadget.h). The deferred a/e sums of the reference are kept as
 * operand lists and summed by one addmany when used. */
#include "circuits/sha256_gadget.h"

#include <stdlib.h>
#include <string.h>

#include "util/sha256.h"

void cz_sha256_gadget_iv(cz_u32 out[8])
{
    for (int i = 0; i < 8; i++) out[i] = cz_u32_const(cz_sha256_iv[i]);
}

typedef struct { cz_u32 op[8]; unsigned n; int deferred; } maybe;

static cz_u32 maybe_compute(cz_cs *cs, cz_multieq *m, maybe *x, const cz_u32 *extra)
{
    if (!x->deferred) return x->op[0];
    if (extra) x->op[x->n++] = *extra;
    return cz_u32_addmany(cs, m, x->op, x->n);
}

static inline uint32_t ror32(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

/* (x >>> r1) ^ (x >>> r2) ^ (x >>> r3 or x >> r3), as two UInt32 xors. The
 * witness-only fast path, for x fully allocated: the first xor allocates 32
 * bits; the second 32, or with a shift only the 32 - r3 low ones (against
 * the shifted-in constant zeros the reference's xor returns the other bit). */
static cz_u32 xor3(cz_cs *cs, const cz_u32 *x, unsigned r1, unsigned r2, unsigned r3, int shift3)
{
    if (cz__fast_room(cs, 64) && cz_u32_all_is(x)) {
        cz_u32 r;
        uint32_t v1 = ror32(x->val, r1) ^ ror32(x->val, r2);
        uint32_t v2 = v1 ^ (shift3 ? x->val >> r3 : ror32(x->val, r3));
        unsigned n2 = shift3 ? 32 - r3 : 32;
        uint64_t j1 = cz__witness_bits(cs, v1, 32);
        uint64_t j2 = cz__witness_bits(cs, v2, n2);
        for (unsigned i = 0; i < 32; i++)
            r.b[i] = i < n2 ? cz_bool_is(CZ_AUX(j2 + i), (v2 >> i) & 1) : cz_bool_is(CZ_AUX(j1 + i), (v1 >> i) & 1);
        r.val = v2;
        return r;
    }
    cz_u32 a = cz_u32_rotr(x, r1), b = cz_u32_rotr(x, r2);
    cz_u32 s = cz_u32_xor(cs, &a, &b);
    cz_u32 c = shift3 ? cz_u32_shr(x, r3) : cz_u32_rotr(x, r3);
    return cz_u32_xor(cs, &s, &c);
}

void cz_sha256_gadget_compress(cz_cs *cs, cz_u32 out[8], const cz_bool block[512], const cz_u32 cur[8])
{
    cz_u32 w[64];
    for (int i = 0; i < 16; i++) w[i] = cz_u32_from_bits_be(block + 32 * i);
    cz_multieq m;
    cz_multieq_init(&m);
    for (int i = 16; i < 64; i++) {
        cz_u32 ops[4];
        ops[0] = w[i - 16];
        ops[1] = xor3(cs, &w[i - 15], 7, 18, 3, 1);
        ops[2] = w[i - 7];
        ops[3] = xor3(cs, &w[i - 2], 17, 19, 10, 1);
        w[i] = cz_u32_addmany(cs, &m, ops, 4);
    }
    maybe a = {{cur[0]}, 1, 0}, e = {{cur[4]}, 1, 0};
    cz_u32 b = cur[1], c = cur[2], d = cur[3], f = cur[5], g = cur[6], h = cur[7];
    for (int i = 0; i < 64; i++) {
        cz_u32 new_e = maybe_compute(cs, &m, &e, NULL);
        cz_u32 s1 = xor3(cs, &new_e, 6, 11, 25, 0);
        cz_u32 ch = cz_u32_sha256_ch(cs, &new_e, &f, &g);
        cz_u32 new_a = maybe_compute(cs, &m, &a, NULL);
        cz_u32 s0 = xor3(cs, &new_a, 2, 13, 22, 0);
        cz_u32 maj = cz_u32_sha256_maj(cs, &new_a, &b, &c);
        /* temp1 = h, S1, ch, k[i], w[i]; e = temp1 ‖ d; a = temp1 ‖ temp2 */
        e.deferred = a.deferred = 1;
        e.op[0] = a.op[0] = h;
        e.op[1] = a.op[1] = s1;
        e.op[2] = a.op[2] = ch;
        e.op[3] = a.op[3] = cz_u32_const(cz_sha256_k[i]);
        e.op[4] = a.op[4] = w[i];
        e.op[5] = d;
        e.n = 6;
        a.op[5] = s0;
        a.op[6] = maj;
        a.n = 7;
        h = g; g = f; f = new_e;
        d = c; c = b; b = new_a;
    }
    cz_u32 pair[2];
    out[0] = maybe_compute(cs, &m, &a, &cur[0]);
    pair[0] = cur[1]; pair[1] = b; out[1] = cz_u32_addmany(cs, &m, pair, 2);
    pair[0] = cur[2]; pair[1] = c; out[2] = cz_u32_addmany(cs, &m, pair, 2);
    pair[0] = cur[3]; pair[1] = d; out[3] = cz_u32_addmany(cs, &m, pair, 2);
    out[4] = maybe_compute(cs, &m, &e, &cur[4]);
    pair[0] = cur[5]; pair[1] = f; out[5] = cz_u32_addmany(cs, &m, pair, 2);
    pair[0] = cur[6]; pair[1] = g; out[6] = cz_u32_addmany(cs, &m, pair, 2);
    pair[0] = cur[7]; pair[1] = h; out[7] = cz_u32_addmany(cs, &m, pair, 2);
    cz_multieq_finish(cs, &m);
}

void cz_sha256_gadget_block(cz_cs *cs, cz_bool out[256], const cz_bool block[512])
{
    cz_u32 iv[8], st[8];
    cz_sha256_gadget_iv(iv);
    cz_sha256_gadget_compress(cs, st, block, iv);
    for (int i = 0; i < 8; i++) cz_u32_to_bits_be(out + 32 * i, &st[i]);
}

void cz_sha256_gadget(cz_cs *cs, cz_bool out[256], const cz_bool *in, uint64_t nbits)
{
    cz_u32 st[8], nx[8];
    cz_bool blk[512];
    cz_sha256_gadget_iv(st);
    uint64_t total = ((nbits + 1 + 64 + 511) / 512) * 512;
    for (uint64_t off = 0; off < total; off += 512) {
        for (uint64_t i = 0; i < 512; i++) {
            uint64_t k = off + i;
            if (k < nbits) blk[i] = in[k];
            else if (k == nbits) blk[i] = cz_bool_const(1);
            else if (k >= total - 64) blk[i] = cz_bool_const((int)((nbits >> (total - 1 - k)) & 1));
            else blk[i] = cz_bool_const(0);
        }
        cz_sha256_gadget_compress(cs, nx, blk, st);
        for (int i = 0; i < 8; i++) st[i] = nx[i];
    }
    for (int i = 0; i < 8; i++) cz_u32_to_bits_be(out + 32 * i, &st[i]);
}

void cz_bytes_to_bools_alloc(cz_cs *cs, cz_bool *out, const uint8_t *bytes, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        for (int j = 0; j < 8; j++) out[8 * i + j] = cz_bool_alloc(cs, (bytes[i] >> (7 - j)) & 1);
}

void cz_bools_to_bytes(uint8_t *out, const cz_bool *bits, uint64_t nbytes)
{
    for (uint64_t i = 0; i < nbytes; i++) {
        uint8_t v = 0;
        for (int j = 0; j < 8; j++) v = (uint8_t)(v << 1 | bits[8 * i + j].val);
        out[i] = v;
    }
}

cz_num cz_sha256_hash_circuit(cz_cs *cs, const cz_bool *bits, uint64_t nbits)
{
    cz_bool be[256], le[256];
    cz_sha256_gadget(cs, be, bits, nbits);
    for (int i = 0; i < 256; i++) le[i] = be[(i & ~7) + 7 - (i & 7)];
    return cz_pack_bits(cs, le, 254);
}

/* pad to whole bytes with constant false and reverse each byte into out */
static uint64_t byte_reverse(cz_bool *out, const cz_bool *in, uint64_t n)
{
    uint64_t padded = (n + 7) & ~(uint64_t)7;
    for (uint64_t i = 0; i < padded; i++) {
        uint64_t k = (i & ~(uint64_t)7) + 7 - (i & 7);
        out[i] = k < n ? in[k] : cz_bool_const(0);
    }
    return padded;
}

cz_num cz_sha256_hash_leaf_bits(cz_cs *cs, const cz_bool *left, uint64_t nleft, const cz_bool *right,
                                uint64_t nright)
{
    uint64_t cap = ((nleft + 7) & ~(uint64_t)7) + ((nright + 7) & ~(uint64_t)7);
    cz_bool stackbuf[512], *pre = cap <= 512 ? stackbuf : malloc(cap * sizeof(cz_bool));
    cz_num out;
    if (!pre) {
        cs->err = CZ_ERR_NOMEM;
        memset(&out, 0, sizeof out);
        return out;
    }
    uint64_t n = byte_reverse(pre, left, nleft);
    n += byte_reverse(pre + n, right, nright);
    out = cz_sha256_hash_circuit(cs, pre, n);
    if (pre != stackbuf) free(pre);
    return out;
}

cz_num cz_sha256_hash_multi_leaf(cz_cs *cs, const cz_num *leaves, uint32_t n)
{
    cz_bool bits[255], stackbuf[8 * 256], *pre = n <= 8 ? stackbuf : malloc((size_t)n * 256 * sizeof(cz_bool));
    cz_num out;
    if (!pre || n == 0) {
        if (cs->err == CZ_OK) cs->err = pre ? CZ_ERR_INVALID_ARG : CZ_ERR_NOMEM;
        memset(&out, 0, sizeof out);
        return out;
    }
    uint64_t len = 0;
    for (uint32_t i = 0; i < n; i++) {
        cz_num_to_bits_le(cs, &leaves[i], bits);
        len += byte_reverse(pre + len, bits, 255);
    }
    out = cz_sha256_hash_circuit(cs, pre, len);
    if (pre != stackbuf) free(pre);
    return out;
}

cz_num cz_sha256_hash2(cz_cs *cs, const cz_num *a, const cz_num *b)
{
    cz_num ab[2] = {*a, *b};
    return cz_sha256_hash_multi_leaf(cs, ab, 2);
}

void cz_sha256_hash_native(cz_fr *out, const cz_fr *leaves, uint32_t n)
{
    cz_sha256_ctx c;
    uint8_t b[32];
    cz_sha256_init(&c);
    for (uint32_t i = 0; i < n; i++) {
        cz_fr_to_bytes_le(b, &leaves[i]);
        cz_sha256_update(&c, b, 32);
    }
    cz_sha256_final(&c, b);
    b[31] &= 0x3f; /* trim_to_fr32: below 2^254, so always in Fr */
    (void)cz_fr_from_bytes_le(out, b);
}
