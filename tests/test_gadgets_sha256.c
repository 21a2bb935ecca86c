/* test_gadgets_sha256.c — the SHA-256 gadgets against the reference's
 * published constraint counts and against native SHA-256.
 *
 * Counts (bellperson sha256.rs tests, storage-proofs-core util.rs):
 * one compression of 512 allocated bits from the constant IV, less the 512
 * booleanity rows, 25,840; a full hash of a 512-bit allocated message, less
 * 512, 44,874, so the second (constant padding) block is 19,034; the tree-D
 * node hash (hash_leaf_bits of two 256-bit allocated sides, bits LE per
 * byte) 45,387 in all. Every instance runs in the four modes (gadget_check),
 * and the digests equal native SHA-256 on random messages of random length,
 * with the bit orders of the reference (MSB first per byte in, per word out;
 * the packed node hash is the digest read little-endian per byte, truncated
 * to 254 bits). hash2 of two numbers is 45,379 (a level of the published
 * SHA-256 base-2 PoR), and a SHA-256 tree node of 2, 4, 8 random numbers
 * equals the native Sha256Function hash. */
#include "testutil.h"
#include "gadget_check.inc"
#include "circuits/sha256_gadget.h"
#include "util/rng.h"
#include "util/sha256.h"

typedef struct { const uint8_t *msg; uint64_t len; uint8_t digest[32]; int which; } sha_arg;

static void compress_circ(cz_cs *cs, void *p)
{
    sha_arg *a = p;
    cz_bool in[512], out[256];
    cz_bytes_to_bools_alloc(cs, in, a->msg, 64);
    cz_sha256_gadget_block(cs, out, in);
    cz_bools_to_bytes(a->digest, out, 32);
}

static void full_circ(cz_cs *cs, void *p)
{
    sha_arg *a = p;
    cz_bool *in = malloc((a->len * 8 + 1) * sizeof(cz_bool)), out[256];
    cz_bytes_to_bools_alloc(cs, in, a->msg, a->len);
    cz_sha256_gadget(cs, out, in, a->len * 8);
    cz_bools_to_bytes(a->digest, out, 32);
    free(in);
}

/* tree-D: both sides as 256 bits LE per byte (bytes_into_boolean_vec) */
static void node_circ(cz_cs *cs, void *p)
{
    sha_arg *a = p;
    cz_bool l[256], r[256];
    for (int i = 0; i < 256; i++) l[i] = cz_bool_alloc(cs, (a->msg[i / 8] >> (i % 8)) & 1);
    for (int i = 0; i < 256; i++) r[i] = cz_bool_alloc(cs, (a->msg[32 + i / 8] >> (i % 8)) & 1);
    cz_num h = cz_sha256_hash_leaf_bits(cs, l, 256, r, 256);
    cz_fr plain;
    cz_fr_from_mont(&plain, &h.val);
    for (int i = 0; i < 32; i++) a->digest[i] = (uint8_t)(plain.l[i / 8] >> (8 * (i % 8)));
}

static void hash2_circ(cz_cs *cs, void *p)
{
    sha_arg *a = p;
    cz_fr x, y;
    uint8_t b[32];
    memcpy(b, a->msg, 32); b[31] &= 0x3f;
    CHECK(cz_fr_from_bytes_le(&x, b) == CZ_OK);
    memcpy(b, a->msg + 32, 32); b[31] &= 0x3f;
    CHECK(cz_fr_from_bytes_le(&y, b) == CZ_OK);
    cz_num nx = cz_num_alloc(cs, &x), ny = cz_num_alloc(cs, &y);
    cz_num h = cz_sha256_hash2(cs, &nx, &ny);
    cz_fr_to_bytes_le(a->digest, &h.val);
}

typedef struct { uint32_t n; cz_fr in[8], out; } multi_arg;

static void multi_circ(cz_cs *cs, void *p)
{
    multi_arg *m = p;
    cz_num x[8];
    for (uint32_t i = 0; i < m->n; i++) x[i] = cz_num_alloc(cs, &m->in[i]);
    m->out = cz_sha256_hash_multi_leaf(cs, x, m->n).val;
}

int main(void)
{
    uint64_t seed = cz_test_seed("test_gadgets_sha256", 3);
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    uint8_t msg[200], want[32];
    cz_rng_bytes(&rng, msg, sizeof msg);
    gc_counts c;
    sha_arg a = {msg, 64, {0}, 0};

    gc_run(compress_circ, &a, &c, "compression");
    printf("compression: %llu constraints, %llu aux, nnz %llu/%llu/%llu\n", (unsigned long long)c.constraints,
           (unsigned long long)c.aux, (unsigned long long)c.nnz[0], (unsigned long long)c.nnz[1],
           (unsigned long long)c.nnz[2]);
    CHECK_MSG(c.constraints - 512 == 25840, "compression %llu", (unsigned long long)(c.constraints - 512));
    uint32_t st[8];
    memcpy(st, cz_sha256_iv, 32);
    cz_sha256_compress_portable(st, msg, 1);
    for (int i = 0; i < 32; i++) want[i] = (uint8_t)(st[i / 4] >> (24 - 8 * (i % 4)));
    CHECK(!memcmp(a.digest, want, 32));

    uint64_t first = c.constraints;
    gc_run(full_circ, &a, &c, "full 64 bytes");
    printf("full hash of 512 bits: %llu constraints\n", (unsigned long long)c.constraints);
    CHECK_MSG(c.constraints - 512 == 44874, "full %llu", (unsigned long long)(c.constraints - 512));
    CHECK_MSG(c.constraints - first == 19034, "second block %llu", (unsigned long long)(c.constraints - first));
    cz_sha256(want, msg, 64);
    CHECK(!memcmp(a.digest, want, 32));

    gc_run(node_circ, &a, &c, "tree-D node");
    printf("tree-D node hash: %llu constraints\n", (unsigned long long)c.constraints);
    CHECK_MSG(c.constraints == 45387, "node %llu", (unsigned long long)c.constraints);
    cz_sha256(want, msg, 64);
    want[31] &= 0x3f;
    CHECK(!memcmp(a.digest, want, 32));

    /* hash2 of two numbers: the bytes of each are its LE encoding, and the
     * 256th bit is a constant false, so the preimage is the 64 LE bytes */
    gc_run(hash2_circ, &a, &c, "hash2");
    /* the two constant pad bits fold some of the first rounds: 45,379, a
     * level of the SHA-256 base-2 PoR (272,295 = 6 x (1 + 2 + 45,379) + 3,
     * storage-proofs-core tests/por_circuit.rs) */
    printf("hash2 of two numbers: %llu constraints\n", (unsigned long long)c.constraints);
    CHECK_MSG(c.constraints == 45379, "hash2 %llu", (unsigned long long)c.constraints);
    {
        uint8_t pre[64];
        memcpy(pre, msg, 64);
        pre[31] &= 0x3f; pre[63] &= 0x3f;
        cz_sha256(want, pre, 64);
        want[31] &= 0x3f;
        CHECK(!memcmp(a.digest, want, 32));
    }

    /* hash_multi_leaf (a SHA-256 tree node) of 2, 4 and 8 random numbers
     * equals Sha256Function::hash of their LE encodings, trimmed */
    for (uint32_t n = 2; n <= 8; n *= 2) {
        multi_arg m;
        memset(&m, 0, sizeof m);
        m.n = n;
        for (uint32_t i = 0; i < n; i++) cz_fr_random(&m.in[i], &rng);
        char what[32];
        snprintf(what, sizeof what, "multi-leaf %u", n);
        gc_run(multi_circ, &m, &c, what);
        printf("hash_multi_leaf of %u numbers: %llu constraints\n", n, (unsigned long long)c.constraints);
        uint8_t pre[8 * 32];
        for (uint32_t i = 0; i < n; i++) cz_fr_to_bytes_le(pre + 32 * i, &m.in[i]);
        cz_sha256(want, pre, 32 * n);
        want[31] &= 0x3f;
        CHECK(cz_fr_from_bytes_le(&m.in[0], want) == CZ_OK);
        CHECK_MSG(cz_fr_eq(&m.out, &m.in[0]), "multi-leaf %u: circuit != native", n);
        cz_fr nat;
        for (uint32_t i = 0; i < n; i++) cz_fr_random(&m.in[i], &rng);
        cz_sha256_hash_native(&nat, m.in, n);
        cz_cs cs;
        cz_fr in1[1];
        static cz_fr aux[200000];
        cz_cs_init_witness(&cs, in1, 1, aux, 200000);
        multi_circ(&cs, &m);
        CHECK(cz_cs_status(&cs) == CZ_OK && cz_fr_eq(&m.out, &nat));
    }

    /* buffers too small by a little: the fast paths fall back, the first
     * values are still right, the sticky error says so and the counters give
     * the size needed */
    {
        cz_cs cs;
        cz_fr in[1];
        uint64_t need = 45340, have = need - 50;
        cz_fr *full = malloc(need * sizeof(cz_fr)), *part = malloc(have * sizeof(cz_fr));
        sha_arg r = {msg, 64, {0}, 0};
        cz_cs_init_witness(&cs, in, 1, full, need);
        full_circ(&cs, &r);
        CHECK(cz_cs_status(&cs) == CZ_OK && cs.n_aux == need);
        cz_cs_init_witness(&cs, in, 1, part, have);
        full_circ(&cs, &r);
        CHECK(cz_cs_status(&cs) == CZ_ERR_LENGTH && cs.n_aux == need);
        CHECK(!memcmp(full, part, have * sizeof(cz_fr)));
        uint64_t words[(45340 + 63) / 64 + 1];
        cz_fr fields[1];
        cz_cs_init_compact(&cs, in, 1, words, have, fields, 1);
        full_circ(&cs, &r);
        CHECK(cz_cs_status(&cs) == CZ_ERR_LENGTH && cs.n_aux == need && cs.n_bits == need);
        int ok = 1;
        for (uint64_t j = 0; j < have; j++)
            ok &= (int)((words[j / 64] >> (j % 64)) & 1) == cz_fr_is_one(&full[j]);
        CHECK(ok);
        free(full);
        free(part);
    }

    /* random lengths: full check for a few, witness-only against native for many */
    for (int t = 0; t < 60; t++) {
        uint64_t len = cz_rng_u64(&rng) % (t < 6 ? 140 : sizeof msg + 1);
        cz_rng_bytes(&rng, msg, sizeof msg);
        sha_arg r = {msg, len, {0}, 0};
        if (t < 6) {
            char what[32];
            snprintf(what, sizeof what, "full %llu bytes", (unsigned long long)len);
            gc_run(full_circ, &r, NULL, what);
        } else {
            cz_cs cs;
            cz_fr in[1];
            static cz_fr aux[300000];
            cz_cs_init_witness(&cs, in, 1, aux, 300000);
            full_circ(&cs, &r);
            CHECK(cz_cs_status(&cs) == CZ_OK);
            cz_cs_free(&cs);
        }
        cz_sha256(want, msg, len);
        CHECK_MSG(!memcmp(r.digest, want, 32), "len %llu", (unsigned long long)len);
    }
    return cz_test_finish("test_gadgets_sha256");
}
