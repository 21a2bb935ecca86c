/* poseidon_registry.c — the Poseidon entries of the gadget table: the
 * legacy Poseidon circuit of one arity over allocated inputs, and the PoR
 * circuit (por.rs) of a tree shape (Poseidon, or SHA-256 with --sha256 1),
 * each with deterministic values (the structure never depends on them). */
#include <stdlib.h>

#include "circuits/gadget_registry.h"
#include "circuits/merkle.h"
#include "circuits/poseidon_circuit.h"

static cz_err synth_poseidon(cz_cs *cs, uint32_t arity, const cz_gadget_kv *kv, int nkv, char *msg,
                             size_t msglen)
{
    static const char *const known[] = {"tag", NULL};
    uint64_t tag_id;
    cz_err e = cz_gadget_params_check(kv, nkv, known, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "tag", 0, &tag_id, msg, msglen);
    if (e) return e;
    const cz_poseidon *p = cz_poseidon_get(arity);
    if (!p) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    cz_fr tag;
    if (tag_id) cz_poseidon_custom_tag(&tag, tag_id);
    cz_num in[CZ_POSEIDON_MAX_ARITY];
    for (uint32_t i = 0; i < arity; i++) {
        cz_fr v;
        cz_fr_from_u64(&v, 0x9e3779b97f4a7c15ull * (i + 1));
        in[i] = cz_num_alloc(cs, &v);
    }
    (void)cz_poseidon_circuit(cs, p, tag_id ? &tag : NULL, in);
    return CZ_OK;
}

cz_err cz_gadget_synth_poseidon2(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen)
{
    return synth_poseidon(cs, 2, kv, nkv, msg, msglen);
}
cz_err cz_gadget_synth_poseidon8(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen)
{
    return synth_poseidon(cs, 8, kv, nkv, msg, msglen);
}
cz_err cz_gadget_synth_poseidon11(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen)
{
    return synth_poseidon(cs, 11, kv, nkv, msg, msglen);
}

cz_err cz_gadget_synth_por(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen)
{
    static const char *const known[] = {"arity", "levels", "sub", "top", "private", "sha256", NULL};
    uint64_t a, l, s, t, priv, sha;
    cz_err e = cz_gadget_params_check(kv, nkv, known, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "arity", 8, &a, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "levels", 2, &l, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "sub", 0, &s, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "top", 0, &t, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "private", 0, &priv, msg, msglen);
    if (!e) e = cz_gadget_param_u64(kv, nkv, "sha256", 0, &sha, msg, msglen);
    if (e) return e;
    cz_tree_shape sh = {(uint32_t)a, (uint32_t)l, (uint32_t)s, (uint32_t)t, sha ? CZ_TREE_SHA256 : CZ_TREE_POSEIDON};
    if (a > 8 || l > 64 || s > 8 || t > 8 || priv > 1 || sha > 1 || cz_tree_shape_check(&sh) != CZ_OK)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                       "shape %llu^%llu-%llu-%llu: arities 2, 4 or 8 (sub, top 0 for none; top needs sub), "
                       "at most 63 index bits; --private, --sha256 0 or 1",
                       (unsigned long long)a, (unsigned long long)l, (unsigned long long)s,
                       (unsigned long long)t);
    uint32_t plen = cz_tree_path_len(&sh);
    cz_fr *path = malloc(plen * sizeof(cz_fr)), leaf, root;
    if (!path) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    for (uint32_t i = 0; i < plen; i++) cz_fr_from_u64(&path[i], 0x2545f4914f6cdd1dull * (i + 3));
    cz_fr_from_u64(&leaf, 42);
    uint64_t index = 0x5555555555555555ull & ((1ull << cz_tree_index_bits(&sh)) - 1);
    cz_merkle_root(&root, &sh, &leaf, index, path);
    cz_por_circuit(cs, &sh, &leaf, index, path, &root, (int)priv);
    free(path);
    return CZ_OK;
}
