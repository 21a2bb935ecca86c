/* sha256_gadget.h — SHA-256 in-circuit, with the reference's structure
 * (bellperson / bellpepper sha256.rs): the message schedule and rounds over
 * UInt32, the IV and round constants as constants (so the first rounds fold),
 * the additions deferred and batched through one MultiEq per compression
 * (e = d + temp1 and a = temp1 + temp2 are summed in one addmany when next
 * used; h0 and h4 absorb the chaining value into those deferred sums).
 *
 * Bits are in the reference's order: a 512-bit block is 16 words, each most
 * significant bit first; the digest is 8 words, each MSB first (so byte k of
 * the digest is bits 8k..8k+7, MSB first). */
#ifndef CZ_CIRCUITS_SHA256_GADGET_H
#define CZ_CIRCUITS_SHA256_GADGET_H

#include "circuits/gadgets.h"

/* the IV as constants */
void cz_sha256_gadget_iv(cz_u32 out[8]);
/* one compression of a 512-bit block with chaining value cur */
void cz_sha256_gadget_compress(cz_cs *cs, cz_u32 out[8], const cz_bool block[512], const cz_u32 cur[8]);
/* sha256_block_no_padding: one compression from the IV; out 256 bits */
void cz_sha256_gadget_block(cz_cs *cs, cz_bool out[256], const cz_bool block[512]);
/* full SHA-256 of nbits bits (a multiple of 8), padding as constants */
void cz_sha256_gadget(cz_cs *cs, cz_bool out[256], const cz_bool *in, uint64_t nbits);

/* Filecoin's Sha256Function circuits (filecoin-hashers sha256.rs):
 * hash_circuit: SHA-256 of bits, digest bits reversed per byte, the first 254
 * packed into one aux number (cz_pack_bits);
 * hash_leaf_bits: each side padded with constant false to whole bytes, bits
 * reversed per byte, concatenated, then hash_circuit (with two 256-bit
 * allocated sides: the tree-D node hash, 45,387 constraints in all);
 * hash2: to_bits_le of both numbers (255 bits each), then as hash_leaf_bits */
cz_num cz_sha256_hash_circuit(cz_cs *cs, const cz_bool *bits, uint64_t nbits);
cz_num cz_sha256_hash_leaf_bits(cz_cs *cs, const cz_bool *left, uint64_t nleft, const cz_bool *right,
                                uint64_t nright);
cz_num cz_sha256_hash2(cz_cs *cs, const cz_num *a, const cz_num *b);
/* hash_multi_leaf_circuit (a Merkle node of a SHA-256 tree of any arity):
 * per leaf, in order, to_bits_le (255 bits + 1 constraint), padded with one
 * constant false and reversed per byte (so the preimage is the leaves' 32-byte
 * little-endian encodings, one after the other), then hash_circuit. hash2 is
 * the case n = 2; n = 0 is CZ_ERR_INVALID_ARG. */
cz_num cz_sha256_hash_multi_leaf(cz_cs *cs, const cz_num *leaves, uint32_t n);
/* the same natively (Sha256Function::hash of the concatenated encodings):
 * SHA-256 of the n 32-byte LE encodings, the digest's byte 31 masked with
 * 0x3f (its top two bits cleared), read as a little-endian number */
void cz_sha256_hash_native(cz_fr *out, const cz_fr *leaves, uint32_t n);

/* message bytes -> booleans as the reference's bytes_to_bits (MSB first per
 * byte); allocated (each with booleanity) or constant */
void cz_bytes_to_bools_alloc(cz_cs *cs, cz_bool *out, const uint8_t *bytes, uint64_t n);
void cz_bools_to_bytes(uint8_t *out, const cz_bool *bits, uint64_t nbytes);

#endif
