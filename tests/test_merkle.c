/* test_merkle.c — Poseidon and SHA-256 Merkle inclusion: the insertion gadgets place the
 * element at every position with 2 / 8 / 22 constraints; the PoR circuit
 * of por.rs for the shapes storage-proofs-core tests (64 leaves per base
 * tree) has the published constraint counts (base-8 1,063, base-2 1,887,
 * 8-8 1,593, 8-8-2 1,907, ...; private root one fewer; with Sha256Hasher
 * base-2 272,295, base-4 216,258, base-8 250,987) and inputs; its
 * recorded witness satisfies the system with the index and root as the
 * public inputs, witness-only, compact and counting modes agree with
 * recording, a
 * wrong root or path is caught; the 32 GiB (8-8-0) and 64 GiB (8-8-2)
 * shapes work end to end; select and por_no_challenge_input (SnapDeals'
 * form, caller-allocated bits, path and root) count and check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/cs.h"
#include "circuits/merkle.h"
#include "circuits/sha256_gadget.h"
#include "testutil.h"

static void test_insert(cz_rng *rng)
{
    static const uint32_t arities[] = {2, 4, 8};
    static const uint64_t want[] = {2, 8, 22};
    for (int k = 0; k < 3; k++) {
        uint32_t a = arities[k], nb = a == 2 ? 1 : a == 4 ? 2 : 3;
        for (uint32_t pos = 0; pos < a; pos++) {
            cz_cs cs;
            CHECK(cz_cs_init_record(&cs) == CZ_OK);
            cz_fr ev, sv[7];
            cz_fr_random(&ev, rng);
            cz_num e = cz_num_alloc(&cs, &ev), s[7], out[8];
            for (uint32_t i = 0; i + 1 < a; i++) {
                cz_fr_random(&sv[i], rng);
                s[i] = cz_num_alloc(&cs, &sv[i]);
            }
            cz_bool bits[3];
            for (uint32_t i = 0; i < nb; i++) {
                int v = (pos >> i) & 1;
                bits[i] = cz_bool_is(cz_cs_alloc_bit(&cs, v), v);
            }
            cz_insert_circuit(&cs, out, &e, bits, s, a);
            CHECK_MSG(cs.n_constraints == want[k], "insert_%u: %llu constraints", a,
                      (unsigned long long)cs.n_constraints);
            for (uint32_t i = 0, j = 0; i < a; i++) {
                const cz_fr *exp = i == pos ? &ev : &sv[j++];
                CHECK_MSG(cz_fr_eq(&out[i].val, exp), "insert_%u pos %u: slot %u", a, pos, i);
            }
            cz_r1cs r;
            cz_fr *w = NULL;
            CHECK(cz_cs_finish_record(&cs, &r, &w, NULL) == CZ_OK);
            uint64_t bad;
            CHECK(w && cz_r1cs_is_satisfied(&r, w, &bad, NULL));
            for (uint32_t i = 0; i < a; i++) CHECK(cz_fr_eq(&w[1 + cz_var_index(out[i].var)], &out[i].val));
            free(w);
            cz_r1cs_free(&r);
        }
    }
}

typedef struct {
    const char *name;
    cz_tree_shape t;
    uint64_t constraints; /* public root; private is one fewer */
} shape_case;

static void por_case(const shape_case *sc, int private_root, cz_rng *rng, int verbose)
{
    const cz_tree_shape *t = &sc->t;
    CHECK(cz_tree_shape_check(t) == CZ_OK);
    uint32_t plen = cz_tree_path_len(t), nbits = cz_tree_index_bits(t);
    cz_fr *path = malloc(plen * sizeof(cz_fr)), leaf, root;
    for (uint32_t i = 0; i < plen; i++) cz_fr_random(&path[i], rng);
    cz_fr_random(&leaf, rng);
    uint64_t index = cz_rng_u64(rng) & ((1ULL << nbits) - 1);
    cz_merkle_root(&root, t, &leaf, index, path);
    uint64_t want = sc->constraints - (private_root ? 1 : 0), want_inputs = private_root ? 2 : 3;

    cz_cs cs;
    CHECK(cz_cs_init_record(&cs) == CZ_OK);
    cz_por_circuit(&cs, t, &leaf, index, path, &root, private_root);
    CHECK(cz_cs_status(&cs) == CZ_OK);
    CHECK_MSG(cs.n_constraints == want, "%s%s: %llu constraints, want %llu", sc->name,
              private_root ? " private" : "", (unsigned long long)cs.n_constraints, (unsigned long long)want);
    CHECK_MSG(cs.n_inputs == want_inputs, "%s: %llu inputs", sc->name, (unsigned long long)cs.n_inputs);
    uint64_t n_aux = cs.n_aux, nnz[3] = {cs.nnz[0], cs.nnz[1], cs.nnz[2]};
    cz_r1cs r;
    cz_fr *w = NULL;
    uint64_t *mask = NULL;
    CHECK(cz_cs_finish_record(&cs, &r, &w, &mask) == CZ_OK);
    if (!w) { free(path); return; }
    uint64_t bad = 0;
    CHECK_MSG(cz_r1cs_is_satisfied(&r, w, &bad, NULL), "%s: row %llu unsatisfied", sc->name,
              (unsigned long long)bad);
    cz_fr iv;
    cz_fr_from_u64(&iv, index);
    CHECK(cz_fr_eq(&w[1], &iv));
    if (!private_root) CHECK(cz_fr_eq(&w[2], &root));
    /* the index bits are marked boolean: per level log2(arity) + 2 for each insert_8 */
    uint64_t nbool = 0;
    for (uint64_t j = 0; j < n_aux; j++) nbool += (mask[j / 64] >> (j % 64)) & 1;
    uint64_t want_bool = nbits;
    for (uint32_t l = 0; l < cz_tree_levels(t); l++) {
        uint32_t a = cz_tree_level_arity(t, l);
        want_bool += a == 8 ? 2 : 0;
        if (t->hash == CZ_TREE_SHA256) { /* and every bit of the node hash */
            cz_cs hc;
            cz_num kids[8];
            CHECK(cz_cs_init_count(&hc) == CZ_OK);
            for (uint32_t i = 0; i < a; i++) kids[i] = cz_num_alloc(&hc, &leaf);
            (void)cz_sha256_hash_multi_leaf(&hc, kids, a);
            want_bool += hc.n_bits;
            cz_cs_free(&hc);
        }
    }
    CHECK_MSG(nbool == want_bool, "%s: %llu boolean aux, want %llu", sc->name, (unsigned long long)nbool,
              (unsigned long long)want_bool);

    /* witness-only */
    cz_fr *aux = calloc(n_aux, sizeof(cz_fr)), inputs[3];
    cz_cs ws;
    cz_cs_init_witness(&ws, inputs, 3, aux, n_aux);
    cz_por_circuit(&ws, t, &leaf, index, path, &root, private_root);
    CHECK(cz_cs_status(&ws) == CZ_OK && ws.n_aux == n_aux && ws.n_inputs == want_inputs);
    CHECK(!memcmp(inputs, w, want_inputs * sizeof(cz_fr)));
    CHECK_MSG(!memcmp(aux, w + want_inputs, n_aux * sizeof(cz_fr)), "%s: witness-only != recorded", sc->name);
    cz_cs_free(&ws);

    /* compact: bits as bits (as the recorded mask marks them), the rest as Fr */
    {
        uint64_t *bs = calloc((nbool + 63) / 64 + 1, 8);
        cz_fr *fields = calloc(n_aux - nbool, sizeof(cz_fr)), cin[3];
        cz_cs ks;
        cz_cs_init_compact(&ks, cin, 3, bs, nbool, fields, n_aux - nbool);
        cz_por_circuit(&ks, t, &leaf, index, path, &root, private_root);
        CHECK(cz_cs_status(&ks) == CZ_OK && ks.n_bits == nbool && ks.n_fields == n_aux - nbool);
        int same = !memcmp(cin, w, want_inputs * sizeof(cz_fr));
        for (uint64_t j = 0, kb = 0, kf = 0; j < n_aux; j++) {
            const cz_fr *v = &w[want_inputs + j];
            if ((mask[j / 64] >> (j % 64)) & 1) {
                int bit = (int)((bs[kb / 64] >> (kb % 64)) & 1);
                kb++;
                same &= bit ? cz_fr_is_one(v) : cz_fr_is_zero(v);
            } else {
                same &= cz_fr_eq(&fields[kf++], v);
            }
        }
        CHECK_MSG(same, "%s: compact != recorded", sc->name);
        cz_cs_free(&ks);
        free(bs);
        free(fields);
    }

    /* counting */
    cz_cs cc;
    CHECK(cz_cs_init_count(&cc) == CZ_OK);
    cz_por_circuit(&cc, t, &leaf, index, path, &root, private_root);
    CHECK(cc.n_constraints == want && cc.n_aux == n_aux && cc.n_inputs == want_inputs);
    CHECK(cc.nnz[0] == nnz[0] && cc.nnz[1] == nnz[1] && cc.nnz[2] == nnz[2]);
    cz_cs_free(&cc);
    if (verbose)
        printf("por %s%s: %llu constraints, %llu inputs, %llu aux, nnz A %llu B %llu C %llu\n", sc->name,
               private_root ? " (private root)" : "", (unsigned long long)want,
               (unsigned long long)want_inputs, (unsigned long long)n_aux, (unsigned long long)nnz[0],
               (unsigned long long)nnz[1], (unsigned long long)nnz[2]);
    free(w);
    free(mask);
    cz_r1cs_free(&r);

    /* a wrong root, or a wrong sibling, leaves the system unsatisfied */
    for (int which = 0; which < 2; which++) {
        cz_fr root2 = root, one;
        cz_fr_one(&one);
        if (which == 0) cz_fr_add(&root2, &root2, &one);
        else cz_fr_add(&path[plen - 1], &path[plen - 1], &one);
        CHECK(cz_cs_init_record(&cs) == CZ_OK);
        cz_por_circuit(&cs, t, &leaf, index, path, &root2, private_root);
        CHECK(cz_cs_finish_record(&cs, &r, &w, NULL) == CZ_OK);
        CHECK(w && !cz_r1cs_is_satisfied(&r, w, &bad, NULL));
        CHECK(bad == r.n_constraints - (private_root ? 1 : 2)); /* the root equality */
        free(w);
        cz_r1cs_free(&r);
    }
    free(aux);
    free(path);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_merkle", 12));
    test_insert(&rng);

    /* storage-proofs-core tests/por_circuit.rs: 64 leaves per base tree */
    static const shape_case cases[] = {
        {"base-2", {2, 6, 0, 0, CZ_TREE_POSEIDON}, 1887},    {"base-4", {4, 3, 0, 0, CZ_TREE_POSEIDON}, 1164},
        {"base-8", {8, 2, 0, 0, CZ_TREE_POSEIDON}, 1063},    {"sub-8-2", {8, 2, 2, 0, CZ_TREE_POSEIDON}, 1377},
        {"top-8-4-2", {8, 2, 4, 2, CZ_TREE_POSEIDON}, 1764}, {"sub-8-8", {8, 2, 8, 0, CZ_TREE_POSEIDON}, 1593},
        {"top-8-8-2", {8, 2, 8, 2, CZ_TREE_POSEIDON}, 1907}, {"top-8-2-4", {8, 2, 2, 4, CZ_TREE_POSEIDON}, 1764},
        /* the same with Sha256Hasher (tree D's hash) */
        {"sha256-base-2", {2, 6, 0, 0, CZ_TREE_SHA256}, 272295},
        {"sha256-base-4", {4, 3, 0, 0, CZ_TREE_SHA256}, 216258},
        {"sha256-base-8", {8, 2, 0, 0, CZ_TREE_SHA256}, 250987},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        por_case(&cases[i], 0, &rng, 1);
        if (cases[i].t.sub_arity == 0) por_case(&cases[i], 1, &rng, 1);
    }
    /* the sector shapes: 32 GiB = 8^9 leaves per base tree, 8 of them
     * (8-8-0); 64 GiB adds a binary top (8-8-2). 530 per octal level,
     * 314 per binary one, + 3 */
    static const shape_case sectors[] = {
        {"32GiB-8-8-0", {8, 9, 8, 0, CZ_TREE_POSEIDON}, 10 * 530 + 3},
        {"64GiB-8-8-2", {8, 9, 8, 2, CZ_TREE_POSEIDON}, 10 * 530 + 314 + 3},
    };
    for (size_t i = 0; i < 2; i++) por_case(&sectors[i], 0, &rng, 1);

    /* PoSt's use: the root allocated beforehand, private: 5,302 in 32 GiB */
    {
        const cz_tree_shape *t = &sectors[0].t;
        uint32_t plen = cz_tree_path_len(t);
        cz_fr path[80], leaf, root;
        for (uint32_t i = 0; i < plen; i++) cz_fr_random(&path[i], &rng);
        cz_fr_random(&leaf, &rng);
        uint64_t index = cz_rng_u64(&rng) & ((1ULL << cz_tree_index_bits(t)) - 1);
        cz_merkle_root(&root, t, &leaf, index, path);
        cz_cs cs;
        CHECK(cz_cs_init_record(&cs) == CZ_OK);
        cz_num rt = cz_num_alloc(&cs, &root);
        uint64_t aux0 = cs.n_aux;
        cz_por_circuit_root(&cs, t, &leaf, index, path, &rt, 1);
        CHECK_MSG(cs.n_constraints == 5302, "32 GiB inclusion, allocated private root: %llu",
                  (unsigned long long)cs.n_constraints);
        CHECK(cs.n_aux - aux0 == 5372 - 1 && cs.n_inputs == 2);
        cz_r1cs r;
        cz_fr *w = NULL;
        CHECK(cz_cs_finish_record(&cs, &r, &w, NULL) == CZ_OK);
        uint64_t bad;
        CHECK(w && cz_r1cs_is_satisfied(&r, w, &bad, NULL));
        free(w);
        cz_r1cs_free(&r);
    }

    /* the PoRep's enforce_inclusion (leaf and root allocated by the caller,
     * private root) over tree D: a 64-leaf binary SHA-256 tree recorded and
     * satisfied (the private-root PoR count, 272,294), and the 32 GiB
     * tree D (2^30 leaves) counted: 30 levels of the published per-level
     * cost (272,295 - 3) / 6 = 45,382, plus packing and root equality */
    {
        const cz_tree_shape td = {2, 6, 0, 0, CZ_TREE_SHA256};
        cz_fr path[30], leaf, root;
        for (int i = 0; i < 6; i++) cz_fr_random(&path[i], &rng);
        cz_fr_random(&leaf, &rng);
        uint64_t index = cz_rng_u64(&rng) & 63;
        cz_merkle_root(&root, &td, &leaf, index, path);
        cz_cs cs;
        CHECK(cz_cs_init_record(&cs) == CZ_OK);
        cz_num lf = cz_num_alloc(&cs, &leaf), rt = cz_num_alloc(&cs, &root);
        cz_por_enforce_inclusion(&cs, &td, &lf, index, path, &rt);
        CHECK_MSG(cs.n_constraints == 272294 && cs.n_inputs == 2, "tree-D inclusion: %llu",
                  (unsigned long long)cs.n_constraints);
        cz_r1cs r;
        cz_fr *w = NULL;
        CHECK(cz_cs_finish_record(&cs, &r, &w, NULL) == CZ_OK);
        uint64_t bad;
        cz_fr iv;
        cz_fr_from_u64(&iv, index);
        CHECK(w && cz_r1cs_is_satisfied(&r, w, &bad, NULL) && cz_fr_eq(&w[1], &iv));
        CHECK(cz_fr_eq(&w[2], &leaf) && cz_fr_eq(&w[3], &root));
        free(w);
        cz_r1cs_free(&r);

        const cz_tree_shape td32 = {2, 30, 0, 0, CZ_TREE_SHA256};
        for (int i = 0; i < 30; i++) cz_fr_random(&path[i], &rng);
        index = cz_rng_u64(&rng) & ((1ull << 30) - 1);
        cz_merkle_root(&root, &td32, &leaf, index, path);
        CHECK(cz_cs_init_count(&cs) == CZ_OK);
        lf = cz_num_alloc(&cs, &leaf);
        rt = cz_num_alloc(&cs, &root);
        cz_por_enforce_inclusion(&cs, &td32, &lf, index, path, &rt);
        CHECK_MSG(cs.n_constraints == 30 * ((272295 - 3) / 6) + 2 && cs.n_inputs == 2,
                  "32 GiB tree-D inclusion: %llu", (unsigned long long)cs.n_constraints);
        printf("32 GiB tree-D inclusion (enforce_inclusion): %llu constraints, %llu aux\n",
               (unsigned long long)cs.n_constraints, (unsigned long long)cs.n_aux);
        cz_cs_free(&cs);
    }

    /* select: 2^k - 1 picks, the indexed element */
    for (uint32_t k = 1; k <= 4; k++) {
        uint32_t n = 1u << k;
        for (uint32_t idx = 0; idx < n; idx++) {
            cz_cs cs;
            CHECK(cz_cs_init_record(&cs) == CZ_OK);
            cz_num from[16];
            cz_fr v[16];
            for (uint32_t i = 0; i < n; i++) {
                cz_fr_random(&v[i], &rng);
                from[i] = cz_num_alloc(&cs, &v[i]);
            }
            cz_bool bits[4];
            for (uint32_t i = 0; i < k; i++) bits[i] = cz_bool_alloc(&cs, (idx >> i) & 1);
            uint64_t c0 = cs.n_constraints;
            cz_num sel = cz_select_circuit(&cs, from, bits, k);
            CHECK(cs.n_constraints - c0 == n - 1 && cz_fr_eq(&sel.val, &v[idx]));
            cz_r1cs r;
            cz_fr *w = NULL;
            CHECK(cz_cs_finish_record(&cs, &r, &w, NULL) == CZ_OK);
            uint64_t bad;
            CHECK(w && cz_r1cs_is_satisfied(&r, w, &bad, NULL));
            free(w);
            cz_r1cs_free(&r);
        }
    }

    /* por_no_challenge_input: caller's bits, path and root; levels x
     * (insert + hash) + 1, no input */
    {
        const cz_tree_shape t = {8, 2, 8, 2, CZ_TREE_POSEIDON};
        uint32_t plen = cz_tree_path_len(&t), nb = cz_tree_index_bits(&t);
        cz_fr pv[40], lv, rv;
        for (uint32_t i = 0; i < plen; i++) cz_fr_random(&pv[i], &rng);
        cz_fr_random(&lv, &rng);
        uint64_t index = cz_rng_u64(&rng) & ((1ULL << nb) - 1);
        cz_merkle_root(&rv, &t, &lv, index, pv);
        for (int bad_root = 0; bad_root < 2; bad_root++) {
            cz_cs cs;
            CHECK(cz_cs_init_record(&cs) == CZ_OK);
            cz_bool bits[16];
            for (uint32_t i = 0; i < nb; i++) bits[i] = cz_bool_alloc(&cs, (index >> i) & 1);
            cz_num leaf = cz_num_alloc(&cs, &lv), path[40];
            for (uint32_t i = 0; i < plen; i++) path[i] = cz_num_alloc(&cs, &pv[i]);
            cz_fr rr = rv, one;
            cz_fr_one(&one);
            if (bad_root) cz_fr_add(&rr, &rr, &one);
            cz_num root = cz_num_alloc(&cs, &rr);
            uint64_t c0 = cs.n_constraints;
            cz_por_no_challenge_input(&cs, &t, bits, &leaf, path, &root);
            CHECK(cs.n_constraints - c0 == 3 * (22 + 505) + (2 + 311) + 1 && cs.n_inputs == 1);
            cz_r1cs r;
            cz_fr *w = NULL;
            CHECK(cz_cs_finish_record(&cs, &r, &w, NULL) == CZ_OK);
            uint64_t bad;
            CHECK(w && cz_r1cs_is_satisfied(&r, w, &bad, NULL) == !bad_root);
            free(w);
            cz_r1cs_free(&r);
        }
    }

    cz_tree_shape badshape = {3, 2, 0, 0, CZ_TREE_POSEIDON}, badtop = {8, 2, 0, 2, CZ_TREE_POSEIDON};
    cz_tree_shape badhash = {2, 2, 0, 0, 7};
    CHECK(cz_tree_shape_check(&badshape) != CZ_OK && cz_tree_shape_check(&badtop) != CZ_OK);
    CHECK(cz_tree_shape_check(&badhash) != CZ_OK);
    return cz_test_finish("test_merkle");
}
