/* filecoin_registry.c — the gadget-table entries of the Filecoin pieces
 * built on the hashes and Merkle gadgets: the PoSt comm_r check, PoSt
 * sectors (fallback/circuit.rs) and the PoRep label (create_label.rs). Each
 * builds one instance with deterministic values (the structure never
 * depends on them) that satisfy the circuit. */
#include <stdlib.h>

#include "circuits/gadget_registry.h"
#include "circuits/porep_label.h"
#include "circuits/post_sector.h"

cz_err cz_gadget_synth_comm_r(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen)
{
    static const char *const known[] = {NULL};
    cz_err e = cz_gadget_params_check(kv, nkv, known, msg, msglen);
    if (e) return e;
    cz_fr c, rl, r;
    cz_fr_from_u64(&c, 0x243f6a8885a308d3ull);
    cz_fr_from_u64(&rl, 0x13198a2e03707344ull);
    cz_comm_r(&r, &c, &rl);
    (void)cz_comm_r_check_circuit(cs, &c, &rl, &r);
    return CZ_OK;
}

cz_err cz_gadget_synth_post(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen)
{
    static const char *const known[] = {"sectors", "challenges", "arity", "levels", "sub", "top", NULL};
    uint64_t ns, nc, a, l, s, t;
    cz_err e = cz_gadget_params_check(kv, nkv, known, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "sectors", 1, &ns, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "challenges", 10, &nc, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "arity", 8, &a, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "levels", 9, &l, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "sub", 8, &s, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "top", 0, &t, msg, msglen);
    if (e) return e;
    cz_tree_shape sh = {(uint32_t)a, (uint32_t)l, (uint32_t)s, (uint32_t)t, CZ_TREE_POSEIDON};
    if (a > 8 || l > 64 || s > 8 || t > 8 || cz_tree_shape_check(&sh) != CZ_OK)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                       "shape %llu^%llu-%llu-%llu: arities 2, 4 or 8 (sub, top 0 for none; top needs sub), "
                       "at most 63 index bits",
                       (unsigned long long)a, (unsigned long long)l, (unsigned long long)s,
                       (unsigned long long)t);
    if (ns < 1 || ns > 1000000 || nc < 1 || nc > 10000)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "--sectors 1..1000000, --challenges 1..10000");
    /* every challenge opens the same leaf, so one path gives the root */
    uint32_t plen = cz_tree_path_len(&sh);
    cz_fr *paths = malloc(nc * plen * sizeof(cz_fr)), *leaves = malloc(nc * sizeof(cz_fr));
    uint64_t *idx = malloc(nc * sizeof(uint64_t));
    if (!paths || !leaves || !idx) {
        free(paths); free(leaves); free(idx);
        return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    }
    uint64_t index = 0x5555555555555555ull & ((1ull << cz_tree_index_bits(&sh)) - 1);
    for (uint32_t i = 0; i < plen; i++) cz_fr_from_u64(&paths[i], 0x2545f4914f6cdd1dull * (i + 3));
    cz_fr_from_u64(&leaves[0], 42);
    for (uint64_t k = 0; k < nc; k++) {
        leaves[k] = leaves[0];
        idx[k] = index;
        for (uint32_t i = 0; i < plen; i++) paths[k * plen + i] = paths[i];
    }
    cz_fr rl, c, r;
    cz_merkle_root(&rl, &sh, &leaves[0], index, paths);
    cz_fr_from_u64(&c, 7);
    cz_comm_r(&r, &c, &rl);
    for (uint64_t k = 0; k < ns && cz_cs_status(cs) == CZ_OK; k++)
        cz_post_sector_circuit(cs, &sh, &c, &rl, &r, (uint32_t)nc, leaves, idx, paths);
    free(paths); free(leaves); free(idx);
    return CZ_OK;
}

static uint8_t pattern(uint64_t i) { return (uint8_t)(i * 0x9d + 0x31); }

cz_err cz_gadget_synth_label(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen)
{
    static const char *const known[] = {"layer", "node", NULL};
    uint64_t layer, node;
    cz_err e = cz_gadget_params_check(kv, nkv, known, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "layer", 3, &layer, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "node", 22, &node, msg, msglen);
    if (e) return e;
    if (layer > 0xffffffffu) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "--layer: at most 2^32 - 1");
    /* as create_label.rs's test: 37 parents of 32 bytes, then the 32-byte
     * id, allocated MSB first per byte with booleanity; layer and node
     * constants */
    cz_bool *bits = malloc((CZ_LABEL_PARENTS + 1) * 256 * sizeof(cz_bool));
    if (!bits) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    const cz_bool *parents[CZ_LABEL_PARENTS];
    for (uint64_t i = 0; i < (CZ_LABEL_PARENTS + 1) * 256; i++)
        bits[i] = cz_bool_alloc(cs, (pattern(i / 8) >> (7 - i % 8)) & 1);
    for (int k = 0; k < CZ_LABEL_PARENTS; k++) parents[k] = bits + 256 * k;
    cz_bool node_le[64];
    for (int i = 0; i < 64; i++) node_le[i] = cz_bool_const((int)((node >> i) & 1));
    (void)cz_create_label_circuit(cs, bits + 256 * CZ_LABEL_PARENTS, 256, (uint32_t)layer, node_le, parents, 256);
    free(bits);
    return CZ_OK;
}
