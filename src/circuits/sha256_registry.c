/* sha256_registry.c — the SHA-256 entries of the gadget table: each builds
 * one instance with deterministic message values (the structure never
 * depends on them). */
#include <stdlib.h>

#include "circuits/gadget_registry.h"
#include "circuits/sha256_gadget.h"

static uint8_t pattern(uint64_t i) { return (uint8_t)(i * 0x9d + 0x31); }

cz_err cz_gadget_synth_sha256(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen)
{
    static const char *const known[] = {"bytes", "alloc", NULL};
    uint64_t n, alloc;
    cz_err e = cz_gadget_params_check(kv, nkv, known, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "bytes", 64, &n, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "alloc", 1, &alloc, msg, msglen);
    if (e) return e;
    if (n > (1u << 24)) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "--bytes %llu: at most 2^24", (unsigned long long)n);
    cz_bool *in = malloc((n * 8 + 1) * sizeof(cz_bool)), out[256];
    if (!in) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    for (uint64_t i = 0; i < n * 8; i++) {
        int v = (pattern(i / 8) >> (7 - i % 8)) & 1;
        in[i] = alloc ? cz_bool_alloc(cs, v) : cz_bool_const(v);
    }
    cz_sha256_gadget(cs, out, in, n * 8);
    free(in);
    return CZ_OK;
}

cz_err cz_gadget_synth_sha256_compress(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen)
{
    static const char *const known[] = {NULL};
    cz_err e = cz_gadget_params_check(kv, nkv, known, msg, msglen);
    if (e) return e;
    cz_bool in[512], out[256];
    for (int i = 0; i < 512; i++) in[i] = cz_bool_alloc(cs, (pattern((uint64_t)i / 8) >> (7 - i % 8)) & 1);
    cz_sha256_gadget_block(cs, out, in);
    return CZ_OK;
}

cz_err cz_gadget_synth_sha256_node(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen)
{
    static const char *const known[] = {NULL};
    cz_err e = cz_gadget_params_check(kv, nkv, known, msg, msglen);
    if (e) return e;
    cz_bool l[256], r[256];
    for (int i = 0; i < 256; i++) l[i] = cz_bool_alloc(cs, (pattern((uint64_t)i / 8) >> (i % 8)) & 1);
    for (int i = 0; i < 256; i++) r[i] = cz_bool_alloc(cs, (pattern(32 + (uint64_t)i / 8) >> (i % 8)) & 1);
    cz_sha256_hash_leaf_bits(cs, l, 256, r, 256);
    return CZ_OK;
}

cz_err cz_gadget_synth_sha256_hash2(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen)
{
    static const char *const known[] = {NULL};
    cz_err e = cz_gadget_params_check(kv, nkv, known, msg, msglen);
    if (e) return e;
    cz_fr x, y;
    cz_fr_from_u64(&x, 0x123456789abcdefull);
    cz_fr_from_u64(&y, 0xfedcba987654321ull);
    cz_num a = cz_num_alloc(cs, &x), b = cz_num_alloc(cs, &y);
    cz_sha256_hash2(cs, &a, &b);
    return CZ_OK;
}
