/* porep_label.h — the PoRep labeling gadget (storage-proofs-porep
 * stacked/circuit/create_label.rs, create_label_circuit) and the same label
 * computed natively.
 *
 * The preimage is 39 blocks of 256 bits:
 *   the replica id's bits (at most 256, padded with constant false to 256);
 *   the layer index as a constant UInt32, most significant bit first; the
 *   node as a UInt64 (64 booleans, most significant first); constant false
 *   up to 512 bits;
 *   37 parents, each padded with constant false to 256 bits;
 * that is, in bytes: replica_id ‖ layer (u32 BE) ‖ node (u64 BE) ‖ 20 zero
 * bytes ‖ 37 × 32-byte parents, 1,248 bytes. Then SHA-256 of those bits
 * (sha256_gadget.h, with the constant folding), the digest reversed per byte
 * and its first 254 bits packed into one aux number (pack_bits): the label is
 * the digest read little-endian with the top two bits cleared.
 *
 * The bits are the caller's: in the PoRep circuit the parents are
 * to_bits_le of the parents' labels, reversed per byte (so each parent is
 * its 32-byte LE encoding, MSB first per byte) and the node is the
 * challenge's allocated UInt64; repeated parents are the same booleans
 * (layer 1: the 6 DRG parents six times and the first once more; later
 * layers 14 + 14 + the first 9). The reference's test (create_label.rs,
 * test_create_label) allocates 37 × 256 parent bits and 256 id bits, each
 * with booleanity, with a constant layer and node: 532,025 constraints. */
#ifndef CZ_CIRCUITS_POREP_LABEL_H
#define CZ_CIRCUITS_POREP_LABEL_H

#include "circuits/gadgets.h"

#define CZ_LABEL_PARENTS 37

/* replica_id: n_id (32..256) booleans; node_le: 64 booleans, least
 * significant first (UInt64 bits); parents[k]: parent_bits (1..256)
 * booleans each; the layer is a constant. Returns the label as an
 * allocated number; other lengths set CZ_ERR_INVALID_ARG (sticky) and add
 * nothing. */
cz_num cz_create_label_circuit(cz_cs *cs, const cz_bool *replica_id, uint32_t n_id, uint32_t layer,
                               const cz_bool node_le[64], const cz_bool *const parents[CZ_LABEL_PARENTS],
                               uint32_t parent_bits);

/* the label natively, from the 32-byte replica id and parents */
void cz_create_label_native(cz_fr *out, const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                            const uint8_t *const parents[CZ_LABEL_PARENTS]);

#endif
