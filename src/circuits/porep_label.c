/* porep_label.c — create_label in-circuit and natively (layout in
 * porep_label.h). The preimage is assembled as booleans (constants where the
 * reference pads) and hashed by the shared SHA-256 gadget; its constant
 * folding gives the reference's count. */
#include "circuits/porep_label.h"

#include <stdlib.h>
#include <string.h>

#include "circuits/sha256_gadget.h"
#include "util/sha256.h"

#define LABEL_BITS ((2 + CZ_LABEL_PARENTS) * 256)

cz_num cz_create_label_circuit(cz_cs *cs, const cz_bool *replica_id, uint32_t n_id, uint32_t layer,
                               const cz_bool node_le[64], const cz_bool *const parents[CZ_LABEL_PARENTS],
                               uint32_t parent_bits)
{
    cz_num out;
    memset(&out, 0, sizeof out);
    /* the reference asserts 32 <= id bits <= 256; a parent of no bits would
     * not fill its 256-bit slot (its padding stops at a multiple of 256) */
    if (n_id < 32 || n_id > 256 || parent_bits < 1 || parent_bits > 256) {
        if (cs->err == CZ_OK) cs->err = CZ_ERR_INVALID_ARG;
        return out;
    }
    cz_bool *pre = malloc(LABEL_BITS * sizeof(cz_bool)), dig[256], le[256];
    if (!pre) {
        if (cs->err == CZ_OK) cs->err = CZ_ERR_NOMEM;
        return out;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < 256; i++) pre[n++] = i < n_id ? replica_id[i] : cz_bool_const(0);
    for (int i = 31; i >= 0; i--) pre[n++] = cz_bool_const((int)((layer >> i) & 1));
    for (int i = 63; i >= 0; i--) pre[n++] = node_le[i];
    while (n < 512) pre[n++] = cz_bool_const(0);
    for (uint32_t k = 0; k < CZ_LABEL_PARENTS; k++)
        for (uint32_t i = 0; i < 256; i++) pre[n++] = i < parent_bits ? parents[k][i] : cz_bool_const(0);
    cz_sha256_gadget(cs, dig, pre, n);
    free(pre);
    /* reverse_bit_numbering, the first 254 bits packed */
    for (int i = 0; i < 256; i++) le[i] = dig[(i & ~7) + 7 - (i & 7)];
    return cz_pack_bits(cs, le, 254);
}

void cz_create_label_native(cz_fr *out, const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                            const uint8_t *const parents[CZ_LABEL_PARENTS])
{
    uint8_t hdr[64], d[32];
    memset(hdr, 0, sizeof hdr);
    memcpy(hdr, replica_id, 32);
    for (int i = 0; i < 4; i++) hdr[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++) hdr[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    cz_sha256_ctx c;
    cz_sha256_init(&c);
    cz_sha256_update(&c, hdr, 64);
    for (int k = 0; k < CZ_LABEL_PARENTS; k++) cz_sha256_update(&c, parents[k], 32);
    cz_sha256_final(&c, d);
    d[31] &= 0x3f;
    (void)cz_fr_from_bytes_le(out, d);
}
