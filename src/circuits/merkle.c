/* merkle.c — Poseidon and SHA-256 Merkle inclusion (see merkle.h): tree
 * shapes, the native root, the insertion gadgets and the PoR circuit.
 *
 * The insertion networks are storage-proofs-core's insert_2 / insert_4 /
 * insert_8, pick for pick and in the same order, so the allocated variables
 * and constraints match the reference's. The PoR circuit allocates in the
 * reference's order: leaf; per level (bits, siblings, insertion, hash);
 * the packed index input; the root. Bits, AND / NOR and multipack are the
 * shared gadgets of gadgets.h. */
#include <string.h>

#include "circuits/gadgets.h"
#include "circuits/merkle.h"
#include "circuits/poseidon_circuit.h"
#include "circuits/sha256_gadget.h"

static int arity_ok(uint32_t a) { return a == 2 || a == 4 || a == 8; }
static uint32_t log2a(uint32_t a) { return a == 2 ? 1 : a == 4 ? 2 : 3; }

cz_err cz_tree_shape_check(const cz_tree_shape *t)
{
    if (!arity_ok(t->base_arity) || t->base_levels < 1) return CZ_ERR_INVALID_ARG;
    if (t->hash != CZ_TREE_POSEIDON && t->hash != CZ_TREE_SHA256) return CZ_ERR_INVALID_ARG;
    if (t->sub_arity && !arity_ok(t->sub_arity)) return CZ_ERR_INVALID_ARG;
    if (t->top_arity && (!arity_ok(t->top_arity) || !t->sub_arity)) return CZ_ERR_INVALID_ARG;
    if ((uint64_t)t->base_levels * log2a(t->base_arity) + (t->sub_arity ? log2a(t->sub_arity) : 0) +
            (t->top_arity ? log2a(t->top_arity) : 0) > 63)
        return CZ_ERR_INVALID_ARG;
    return CZ_OK;
}

uint32_t cz_tree_levels(const cz_tree_shape *t)
{
    return t->base_levels + (t->sub_arity != 0) + (t->top_arity != 0);
}

uint32_t cz_tree_level_arity(const cz_tree_shape *t, uint32_t level)
{
    if (level < t->base_levels) return t->base_arity;
    if (level == t->base_levels && t->sub_arity) return t->sub_arity;
    return t->top_arity;
}

uint32_t cz_tree_index_bits(const cz_tree_shape *t)
{
    uint32_t n = 0, L = cz_tree_levels(t);
    for (uint32_t l = 0; l < L; l++) n += log2a(cz_tree_level_arity(t, l));
    return n;
}

uint32_t cz_tree_path_len(const cz_tree_shape *t)
{
    uint32_t n = 0, L = cz_tree_levels(t);
    for (uint32_t l = 0; l < L; l++) n += cz_tree_level_arity(t, l) - 1;
    return n;
}

void cz_merkle_node(cz_fr *out, const cz_tree_shape *t, uint32_t arity, const cz_fr *children)
{
    if (t->hash == CZ_TREE_SHA256) cz_sha256_hash_native(out, children, arity);
    else cz_poseidon_hash(out, cz_poseidon_get(arity), children);
}

/* one level's hash in-circuit */
static cz_num node_circuit(cz_cs *cs, const cz_tree_shape *t, uint32_t arity, const cz_num *pre)
{
    if (t->hash == CZ_TREE_SHA256) return cz_sha256_hash_multi_leaf(cs, pre, arity);
    return cz_poseidon_circuit(cs, cz_poseidon_get(arity), NULL, pre);
}

void cz_merkle_root(cz_fr *root, const cz_tree_shape *t, const cz_fr *leaf, uint64_t index,
                    const cz_fr *path)
{
    cz_fr cur = *leaf, pre[8];
    uint32_t L = cz_tree_levels(t);
    for (uint32_t l = 0; l < L; l++) {
        uint32_t a = cz_tree_level_arity(t, l), pos = (uint32_t)(index & (a - 1));
        index >>= log2a(a);
        for (uint32_t i = 0, s = 0; i < a; i++) pre[i] = i == pos ? cur : path[s++];
        path += a - 1;
        cz_merkle_node(&cur, t, a, pre);
    }
    *root = cur;
}

/* ---- insertion ---- */

/* c ? a : b, with (b - a) * c = b - out */
static cz_num pick(cz_cs *cs, const cz_bool *c, const cz_num *a, const cz_num *b)
{
    cz_num r = cz_num_alloc(cs, c->val ? &a->val : &b->val);
    if (cz_cs_rec(cs)) {
        cz_lc *A = cz_cs_lc(cs, 0), *B = cz_cs_lc(cs, 1), *C = cz_cs_lc(cs, 2);
        cz_lc_add(cs, A, b->var, NULL);
        cz_lc_sub(cs, A, a->var, NULL);
        cz_lc_add_bool(cs, B, *c, NULL);
        cz_lc_add(cs, C, b->var, NULL);
        cz_lc_sub(cs, C, r.var, NULL);
        cz_cs_enforce(cs, A, B, C);
    }
    return r;
}

static void insert_4(cz_cs *cs, cz_num *out, const cz_num *a, const cz_bool *bits, const cz_num *e)
{
    const cz_bool *b0 = &bits[0], *b1 = &bits[1];
    const cz_num *b = &e[0], *c = &e[1], *d = &e[2];
    cz_num t;
    t = pick(cs, b0, b, a);
    out[0] = pick(cs, b1, b, &t);
    t = pick(cs, b0, a, b);
    out[1] = pick(cs, b1, c, &t);
    t = pick(cs, b0, d, a);
    out[2] = pick(cs, b1, &t, c);
    t = pick(cs, b0, a, d);
    out[3] = pick(cs, b1, &t, d);
}

static void insert_8(cz_cs *cs, cz_num *out, const cz_num *a, const cz_bool *bits, const cz_num *e)
{
    const cz_bool *b0 = &bits[0], *b1 = &bits[1], *b2 = &bits[2];
    const cz_num *b = &e[0], *c = &e[1], *d = &e[2], *E = &e[3], *f = &e[4], *g = &e[5], *h = &e[6];
    /* the reference requires allocated, unnegated bits here */
    int v0 = b0->val, v1 = b1->val;
    cz_bool nor01 = cz_bool_is(cz_bit_nor(cs, b0->var, v0, b1->var, v1), !v0 & !v1);
    cz_bool and01 = cz_bool_is(cz_bit_and(cs, b0->var, v0, b1->var, v1), v0 & v1);
    cz_num t, u;
    /* p0 */
    t = pick(cs, &nor01, a, b);
    out[0] = pick(cs, b2, b, &t);
    /* p1 */
    t = pick(cs, b0, a, b);
    u = pick(cs, b1, c, &t);
    out[1] = pick(cs, b2, c, &u);
    /* p2 */
    t = pick(cs, b0, d, a);
    u = pick(cs, b1, &t, c);
    out[2] = pick(cs, b2, d, &u);
    /* p3 */
    t = pick(cs, &and01, a, d);
    out[3] = pick(cs, b2, E, &t);
    /* p4 */
    t = pick(cs, &nor01, a, f);
    out[4] = pick(cs, b2, &t, E);
    /* p5 */
    t = pick(cs, b0, a, f);
    u = pick(cs, b1, g, &t);
    out[5] = pick(cs, b2, &u, f);
    /* p6 */
    t = pick(cs, b0, h, a);
    u = pick(cs, b1, &t, g);
    out[6] = pick(cs, b2, &u, g);
    /* p7 */
    t = pick(cs, &and01, a, h);
    out[7] = pick(cs, b2, &t, h);
}

void cz_insert_circuit(cz_cs *cs, cz_num *out, const cz_num *elt, const cz_bool *bits,
                       const cz_num *siblings, uint32_t arity)
{
    if (arity == 2) {
        cz_num o0 = pick(cs, &bits[0], &siblings[0], elt);
        cz_num o1 = pick(cs, &bits[0], elt, &siblings[0]);
        out[0] = o0;
        out[1] = o1;
    } else if (arity == 4) {
        insert_4(cs, out, elt, bits, siblings);
    } else if (arity == 8) {
        insert_8(cs, out, elt, bits, siblings);
    } else if (cs->err == CZ_OK) {
        cs->err = CZ_ERR_INVALID_ARG;
    }
}

cz_num cz_select_circuit(cz_cs *cs, const cz_num *from, const cz_bool *bits, uint32_t nbits)
{
    if (nbits > 8) {
        if (cs->err == CZ_OK) cs->err = CZ_ERR_INVALID_ARG;
        cz_num z = from[0];
        return z;
    }
    cz_num state[256];
    uint32_t half = (1u << nbits) / 2;
    memcpy(state, from, (sizeof state[0]) << nbits);
    /* most significant bit first: halve the candidates per bit */
    for (uint32_t k = 0; k < nbits; k++, half /= 2) {
        const cz_bool *bit = &bits[nbits - 1 - k];
        for (uint32_t j = 0; j < half; j++) state[j] = pick(cs, bit, &state[half + j], &state[j]);
    }
    return state[0];
}

/* ---- the PoR circuit ---- */

/* leaf_var / root_var: already allocated (Root::Var), or NULL to allocate
 * leaf_val first / root_val after the packing (Root::Val) */
static void por(cz_cs *cs, const cz_tree_shape *t, const cz_fr *leaf_val, const cz_num *leaf_var,
                uint64_t index, const cz_fr *path, const cz_fr *root_val, const cz_num *root_var,
                int private_root)
{
    if (cz_tree_shape_check(t) != CZ_OK) {
        if (cs->err == CZ_OK) cs->err = CZ_ERR_INVALID_ARG;
        return;
    }
    const int rec = cz_cs_rec(cs);
    cz_bool bits[64];
    uint32_t nbits = 0;
    cz_num cur = leaf_var ? *leaf_var : cz_num_alloc(cs, leaf_val);
    uint32_t L = cz_tree_levels(t);
    uint64_t idx = index;
    for (uint32_t l = 0; l < L; l++) {
        uint32_t a = cz_tree_level_arity(t, l), nb = log2a(a);
        uint32_t pos = (uint32_t)(idx & (a - 1));
        idx >>= nb;
        cz_bool *lb = &bits[nbits];
        for (uint32_t i = 0; i < nb; i++) bits[nbits++] = cz_bool_alloc(cs, (pos >> i) & 1);
        cz_num sib[7], pre[8];
        for (uint32_t i = 0; i + 1 < a; i++) sib[i] = cz_num_alloc(cs, &path[i]);
        path += a - 1;
        cz_insert_circuit(cs, pre, &cur, lb, sib, a);
        cur = node_circuit(cs, t, a, pre);
    }
    /* multipack::pack_into_inputs: the bits (< 254 of them) as one input */
    cz_pack_into_inputs(cs, bits, nbits);
    cz_num rt = root_var ? *root_var : cz_num_alloc(cs, root_val);
    if (rec) { /* computed * ONE = root */
        cz_lc *A = cz_cs_lc(cs, 0), *B = cz_cs_lc(cs, 1), *C = cz_cs_lc(cs, 2);
        cz_lc_add(cs, A, cur.var, NULL);
        cz_lc_add(cs, B, CZ_ONE, NULL);
        cz_lc_add(cs, C, rt.var, NULL);
        cz_cs_enforce(cs, A, B, C);
    }
    if (!private_root) (void)cz_num_inputize(cs, &rt);
}

void cz_por_circuit(cz_cs *cs, const cz_tree_shape *t, const cz_fr *leaf, uint64_t index,
                    const cz_fr *path, const cz_fr *root, int private_root)
{
    por(cs, t, leaf, NULL, index, path, root, NULL, private_root);
}

void cz_por_circuit_root(cz_cs *cs, const cz_tree_shape *t, const cz_fr *leaf, uint64_t index,
                         const cz_fr *path, const cz_num *root, int private_root)
{
    por(cs, t, leaf, NULL, index, path, NULL, root, private_root);
}

void cz_por_enforce_inclusion(cz_cs *cs, const cz_tree_shape *t, const cz_num *leaf, uint64_t index,
                              const cz_fr *path, const cz_num *root)
{
    por(cs, t, NULL, leaf, index, path, NULL, root, 1);
}

void cz_por_no_challenge_input(cz_cs *cs, const cz_tree_shape *t, const cz_bool *bits, const cz_num *leaf,
                               const cz_num *path, const cz_num *root)
{
    if (cz_tree_shape_check(t) != CZ_OK) {
        if (cs->err == CZ_OK) cs->err = CZ_ERR_INVALID_ARG;
        return;
    }
    cz_num cur = *leaf, pre[8];
    uint32_t L = cz_tree_levels(t);
    for (uint32_t l = 0; l < L; l++) {
        uint32_t a = cz_tree_level_arity(t, l);
        cz_insert_circuit(cs, pre, &cur, bits, path, a);
        bits += log2a(a);
        path += a - 1;
        cur = node_circuit(cs, t, a, pre);
    }
    if (cz_cs_rec(cs)) { /* computed * ONE = root */
        cz_lc *A = cz_cs_lc(cs, 0), *B = cz_cs_lc(cs, 1), *C = cz_cs_lc(cs, 2);
        cz_lc_add(cs, A, cur.var, NULL);
        cz_lc_add(cs, B, CZ_ONE, NULL);
        cz_lc_add(cs, C, root->var, NULL);
        cz_cs_enforce(cs, A, B, C);
    }
}
