/* merkle.h — Merkle inclusion over Poseidon and SHA-256 trees as Filecoin
 * builds them: the tree shapes, the native root, storage-proofs' insertion
 * gadgets and the proof-of-retrievability circuit (storage-proofs-core
 * por.rs).
 *
 * A tree has base_levels levels of base_arity, then optionally one sub-tree
 * level (sub_arity) and one top-tree level (top_arity, only with a sub
 * level): 32 GiB sectors use 8-8-0, 64 GiB 8-8-2. A leaf index is read
 * little-endian level by level: at each level its next log2(arity) bits give
 * the position of the current node among its arity siblings. A path lists,
 * level by level from the leaf, the arity - 1 other nodes in order. Each
 * level hashes with Poseidon of that arity (Merkle-tree tag), or, in a
 * SHA-256 tree (tree D is binary SHA-256), with filecoin-hashers'
 * Sha256Function: SHA-256 of the children's 32-byte little-endian encodings,
 * the top two bits of the digest (byte 31) cleared; in-circuit
 * hash_multi_leaf_circuit (sha256_gadget.h), 45,379 constraints for arity 2.
 *
 * Insertion (insert_2, insert_4, insert_8) places the current node among
 * its siblings at the position given by the bits with the reference's
 * hand-optimised selection network: pick(c, a, b) allocates c ? a : b and
 * enforces (b - a) * c = b - out; insert_8 also allocates b0 NOR b1 and
 * b0 AND b1. Constraints: 2, 8, 22. */
#ifndef CZ_CIRCUITS_MERKLE_H
#define CZ_CIRCUITS_MERKLE_H

#include "circuits/cs.h"
#include "circuits/gadgets.h"
#include "circuits/poseidon.h"

enum { CZ_TREE_POSEIDON = 0, CZ_TREE_SHA256 = 1 };

typedef struct {
    uint32_t base_arity, base_levels;
    uint32_t sub_arity, top_arity; /* 0: none */
    uint32_t hash;                 /* CZ_TREE_POSEIDON (0) or CZ_TREE_SHA256 */
} cz_tree_shape;

/* CZ_ERR_INVALID_ARG unless every arity is 2, 4 or 8, the levels fit a
 * 64-bit index, a top level comes with a sub level and the hash is known */
cz_err cz_tree_shape_check(const cz_tree_shape *t);
uint32_t cz_tree_levels(const cz_tree_shape *t);
uint32_t cz_tree_level_arity(const cz_tree_shape *t, uint32_t level);
/* bits of a leaf index (= the packed path input's width) */
uint32_t cz_tree_index_bits(const cz_tree_shape *t);
/* siblings in a path: sum over levels of arity - 1 */
uint32_t cz_tree_path_len(const cz_tree_shape *t);

/* one node of the tree from its `arity` children (native, the shape's hash) */
void cz_merkle_node(cz_fr *out, const cz_tree_shape *t, uint32_t arity, const cz_fr *children);
/* root of the tree from a leaf, its index and its path (native hashes) */
void cz_merkle_root(cz_fr *root, const cz_tree_shape *t, const cz_fr *leaf, uint64_t index,
                    const cz_fr *path);

/* out[0..arity) = siblings with elt inserted at the position bits[0..log2
 * arity) give (LSB first); arity 2, 4 or 8; for 8 the bits must be
 * allocated bits (CZ_BOOL_IS), as the reference requires */
void cz_insert_circuit(cz_cs *cs, cz_num *out, const cz_num *elt, const cz_bool *bits,
                       const cz_num *siblings, uint32_t arity);

/* insertion.rs select: from[0..2^nbits) indexed by bits (LSB first),
 * 2^nbits - 1 picks, most significant bit first; nbits <= 8 */
cz_num cz_select_circuit(cz_cs *cs, const cz_num *from, const cz_bool *bits, uint32_t nbits);

/* The PoR circuit of por.rs (PoRCircuit::synthesize): allocates the leaf;
 * per level the index bits (each with its booleanity constraint) and the
 * siblings, inserts, hashes; packs all index bits into one public input
 * (multipack: sum 2^i b_i * ONE = input); allocates the root, enforces
 * computed * ONE = root and, unless private_root, exposes it as an input
 * (input * ONE = root). Inputs: ONE, the index, the root. */
void cz_por_circuit(cz_cs *cs, const cz_tree_shape *t, const cz_fr *leaf, uint64_t index,
                    const cz_fr *path, const cz_fr *root, int private_root);
/* the same with a root allocated earlier by the caller (por.rs with
 * Root::Var, as PoSt passes comm_r_last): nothing is allocated for it. The
 * 32 GiB shape with a private root costs 5,302 this way. */
void cz_por_circuit_root(cz_cs *cs, const cz_tree_shape *t, const cz_fr *leaf, uint64_t index,
                         const cz_fr *path, const cz_num *root, int private_root);
/* the PoRep's enforce_inclusion (stacked/circuit/params.rs): por.rs with
 * both the leaf and the root allocated earlier by the caller, private root;
 * allocates only the index bits, the path and the gadgets' variables, and
 * adds one input (the packed index). Tree D of a 32 GiB sector is
 * {2, 30, 0, 0, CZ_TREE_SHA256}: 30 levels of 1 + 2 + 45,379, then 2. */
void cz_por_enforce_inclusion(cz_cs *cs, const cz_tree_shape *t, const cz_num *leaf, uint64_t index,
                              const cz_fr *path, const cz_num *root);

/* por.rs por_no_challenge_input (SnapDeals): bits (cz_tree_index_bits,
 * LSB first), the leaf, the path (cz_tree_path_len numbers) and the root
 * are the caller's variables; per level insert and hash, then
 * computed * ONE = root. Adds no input. */
void cz_por_no_challenge_input(cz_cs *cs, const cz_tree_shape *t, const cz_bool *bits, const cz_num *leaf,
                               const cz_num *path, const cz_num *root);

#endif
