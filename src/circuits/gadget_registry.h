/* gadget_registry.h — named gadget instances for `cuzk gadget count` (and
 * anything else that wants to build one by name): each entry synthesizes one
 * instance on a cz_cs in any mode, from `--key value` parameters.
 *
 * Adding a gadget is one line in the table of gadget_registry.c plus its
 * synth function (anywhere in the library, declared below). A synth function
 * reads its parameters with cz_gadget_param_u64 (a default when absent),
 * rejects keys it does not know via cz_gadget_params_check, and returns
 * CZ_OK or an error with a message. */
#ifndef CZ_CIRCUITS_GADGET_REGISTRY_H
#define CZ_CIRCUITS_GADGET_REGISTRY_H

#include <stddef.h>
#include "circuits/cs.h"

typedef struct { const char *key, *val; } cz_gadget_kv;

typedef cz_err (*cz_gadget_synth_fn)(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen);

typedef struct {
    const char *name;
    const char *params;   /* e.g. "--bytes N (64)" */
    const char *summary;
    cz_gadget_synth_fn synth;
} cz_gadget_def;

extern const cz_gadget_def cz_gadget_table[];
extern const size_t cz_gadget_table_len;
const cz_gadget_def *cz_gadget_find(const char *name);

/* the value of --key as a u64 (decimal, 0x-hex), dflt when absent */
cz_err cz_gadget_param_u64(const cz_gadget_kv *kv, int nkv, const char *key, uint64_t dflt, uint64_t *out,
                           char *msg, size_t msglen);
/* every key is one of the NULL-terminated `known` */
cz_err cz_gadget_params_check(const cz_gadget_kv *kv, int nkv, const char *const *known, char *msg,
                              size_t msglen);

/* synth functions (sha256_registry.c) */
cz_err cz_gadget_synth_sha256(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen);
cz_err cz_gadget_synth_sha256_compress(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen);
cz_err cz_gadget_synth_sha256_node(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen);
cz_err cz_gadget_synth_sha256_hash2(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen);

/* synth functions (poseidon_registry.c) */
cz_err cz_gadget_synth_poseidon2(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen);
cz_err cz_gadget_synth_poseidon8(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen);
cz_err cz_gadget_synth_poseidon11(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen);
cz_err cz_gadget_synth_por(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen);

/* synth functions (filecoin_registry.c) */
cz_err cz_gadget_synth_comm_r(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen);
cz_err cz_gadget_synth_post(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen);
cz_err cz_gadget_synth_label(cz_cs *cs, const cz_gadget_kv *kv, int nkv, char *msg, size_t msglen);

#endif
