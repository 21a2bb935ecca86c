/* gadget_registry.c — the table of named gadget instances (see
 * gadget_registry.h); one line per gadget. */
#include "circuits/gadget_registry.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const cz_gadget_def cz_gadget_table[] = {
    {"sha256", "--bytes N (64) --alloc 0|1 (1)",
     "SHA-256 of an N-byte message (bits allocated with booleanity unless --alloc 0: constants)",
     cz_gadget_synth_sha256},
    {"sha256-compress", "", "one compression of 512 allocated bits from the constant IV",
     cz_gadget_synth_sha256_compress},
    {"sha256-node", "", "tree-D node hash: hash_leaf_bits of two 256-bit allocated sides, packed",
     cz_gadget_synth_sha256_node},
    {"sha256-hash2", "", "Sha256Function hash2 of two allocated numbers (to_bits_le each)",
     cz_gadget_synth_sha256_hash2},
    {"poseidon-2", "--tag ID (0: Merkle tag)", "legacy Poseidon circuit, arity 2, allocated inputs (ID: custom tag ID*2^40)",
     cz_gadget_synth_poseidon2},
    {"poseidon-8", "--tag ID (0: Merkle tag)", "legacy Poseidon circuit, arity 8, allocated inputs",
     cz_gadget_synth_poseidon8},
    {"poseidon-11", "--tag ID (0: Merkle tag)", "legacy Poseidon circuit, arity 11, allocated inputs",
     cz_gadget_synth_poseidon11},
    {"por", "--arity A (8) --levels L (2) --sub S (0) --top T (0) --private 0|1 (0) --sha256 0|1 (0)",
     "PoR circuit (por.rs) of a Poseidon (or, --sha256 1, SHA-256) tree: L levels of A, optional sub/top levels; "
     "32 GiB: --levels 9 --sub 8; tree D: --sha256 1 --arity 2 --levels 30",
     cz_gadget_synth_por},
    {"comm-r", "", "PoSt comm_r check: comm_r = Poseidon-2(comm_c, comm_r_last), comm_r an input",
     cz_gadget_synth_comm_r},
    {"post", "--sectors N (1) --challenges C (10) --arity A (8) --levels L (9) --sub S (8) --top T (0)",
     "fallback PoSt sectors (comm_r check + C inclusions each); WindowPoSt sector: defaults; WinningPoSt: "
     "--sectors 66 --challenges 1",
     cz_gadget_synth_post},
    {"label", "--layer L (3) --node N (22)",
     "PoRep create_label over 37 allocated 256-bit parents and a 256-bit allocated replica id",
     cz_gadget_synth_label},
};
const size_t cz_gadget_table_len = sizeof cz_gadget_table / sizeof cz_gadget_table[0];

const cz_gadget_def *cz_gadget_find(const char *name)
{
    for (size_t i = 0; i < cz_gadget_table_len; i++)
        if (!strcmp(cz_gadget_table[i].name, name)) return &cz_gadget_table[i];
    return NULL;
}

cz_err cz_gadget_param_u64(const cz_gadget_kv *kv, int nkv, const char *key, uint64_t dflt, uint64_t *out,
                           char *msg, size_t msglen)
{
    *out = dflt;
    for (int i = 0; i < nkv; i++) {
        if (strcmp(kv[i].key, key)) continue;
        const char *s = kv[i].val;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 0);
        if (!*s || *end || errno || *s == '-')
            return cz_fail(CZ_ERR_PARSE, msg, msglen, "--%s: '%s' is not a number", key, s);
        *out = v;
    }
    return CZ_OK;
}

cz_err cz_gadget_params_check(const cz_gadget_kv *kv, int nkv, const char *const *known, char *msg,
                              size_t msglen)
{
    for (int i = 0; i < nkv; i++) {
        int ok = 0;
        for (const char *const *k = known; *k; k++) ok |= !strcmp(*k, kv[i].key);
        if (!ok) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "unknown parameter --%s", kv[i].key);
    }
    return CZ_OK;
}
