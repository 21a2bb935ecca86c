/* test_post_sector.c — the fallback PoSt sector piece (post_sector.h)
 * against the reference's published counts and against native hashes.
 *
 * Counts (storage-proofs-post tests/fallback_circuit.rs, filecoin-proofs
 * PR #1325): the comm_r check 313 with one input; trees of 64 leaves per
 * base tree, 5 challenges per sector: 3 sectors base-8 16,869 (19 inputs),
 * 8-4-0 22,674, 8-4-2 27,384, 2 sectors base-8 11,246 (13 inputs); the
 * 32 GiB shape (8^10 leaves): 5 sectors of 10 challenges 266,665, one
 * WindowPoSt sector 53,333 (11 inputs), WinningPoSt 66 sectors of one
 * challenge 370,590 (133 inputs), and 2,349 WindowPoSt sectors compose to
 * 125,279,217 constraints and 25,840 inputs. Small trees are built whole
 * natively so every challenge opens a real leaf; each circuit runs in the
 * four modes (gadget_check), its public inputs are comm_r and the leaf
 * indices per sector, and a wrong comm_r, leaf or sibling is caught. */
#include "testutil.h"
#include "gadget_check.inc"
#include "circuits/post_sector.h"
#include "util/rng.h"

/* a whole tree, natively: level 0 the leaves, each next level the hashes */
typedef struct {
    cz_tree_shape t;
    uint64_t n_leaves;
    cz_fr *lvl[80];
    uint64_t n[80];
} tree;

static void tree_build(tree *tr, const cz_tree_shape *t, cz_rng *rng)
{
    tr->t = *t;
    uint32_t L = cz_tree_levels(t);
    uint64_t n = 1;
    for (uint32_t l = 0; l < L; l++) n *= cz_tree_level_arity(t, l);
    tr->n_leaves = n;
    tr->n[0] = n;
    tr->lvl[0] = malloc(n * sizeof(cz_fr));
    for (uint64_t i = 0; i < n; i++) cz_fr_random(&tr->lvl[0][i], rng);
    for (uint32_t l = 0; l < L; l++) {
        uint32_t a = cz_tree_level_arity(t, l);
        tr->n[l + 1] = tr->n[l] / a;
        tr->lvl[l + 1] = malloc(tr->n[l + 1] * sizeof(cz_fr));
        for (uint64_t i = 0; i < tr->n[l + 1]; i++) cz_merkle_node(&tr->lvl[l + 1][i], t, a, &tr->lvl[l][a * i]);
    }
}

static const cz_fr *tree_root(const tree *tr) { return &tr->lvl[cz_tree_levels(&tr->t)][0]; }

/* the path of leaf `index`, as merkle.h lays it out */
static void tree_path(const tree *tr, uint64_t index, cz_fr *path)
{
    uint32_t L = cz_tree_levels(&tr->t);
    for (uint32_t l = 0; l < L; l++) {
        uint32_t a = cz_tree_level_arity(&tr->t, l);
        uint64_t group = index / a;
        for (uint32_t i = 0; i < a; i++)
            if (group * a + i != index) *path++ = tr->lvl[l][group * a + i];
        index = group;
    }
}

static void tree_free(tree *tr)
{
    for (uint32_t l = 0; l <= cz_tree_levels(&tr->t); l++) free(tr->lvl[l]);
}

/* one partition: sectors of the same tree shape, each with its own tree */
typedef struct {
    cz_tree_shape t;
    uint32_t sectors, challenges;
    cz_fr comm_c[8], comm_r_last[8], comm_r[8];
    cz_fr *leaves, *paths; /* sectors * challenges, and their paths */
    uint64_t *idx;
} partition;

static void partition_circ(cz_cs *cs, void *p)
{
    partition *pt = p;
    uint32_t plen = cz_tree_path_len(&pt->t), n = pt->challenges;
    for (uint32_t s = 0; s < pt->sectors; s++)
        cz_post_sector_circuit(cs, &pt->t, &pt->comm_c[s], &pt->comm_r_last[s], &pt->comm_r[s], n,
                               pt->leaves + (uint64_t)s * n, pt->idx + (uint64_t)s * n,
                               pt->paths + (uint64_t)s * n * plen);
}

static void partition_make(partition *pt, const cz_tree_shape *t, uint32_t sectors, uint32_t challenges,
                           cz_rng *rng)
{
    pt->t = *t;
    pt->sectors = sectors;
    pt->challenges = challenges;
    uint32_t plen = cz_tree_path_len(t);
    uint64_t nc = (uint64_t)sectors * challenges;
    pt->leaves = malloc(nc * sizeof(cz_fr));
    pt->paths = malloc(nc * plen * sizeof(cz_fr));
    pt->idx = malloc(nc * sizeof(uint64_t));
    for (uint32_t s = 0; s < sectors; s++) {
        tree tr;
        tree_build(&tr, t, rng);
        pt->comm_r_last[s] = *tree_root(&tr);
        cz_fr_random(&pt->comm_c[s], rng);
        cz_comm_r(&pt->comm_r[s], &pt->comm_c[s], &pt->comm_r_last[s]);
        for (uint32_t k = 0; k < challenges; k++) {
            uint64_t j = (uint64_t)s * challenges + k, i = cz_rng_u64(rng) % tr.n_leaves;
            pt->idx[j] = i;
            pt->leaves[j] = tr.lvl[0][i];
            tree_path(&tr, i, pt->paths + j * plen);
        }
        tree_free(&tr);
    }
}

static void partition_free(partition *pt)
{
    free(pt->leaves);
    free(pt->paths);
    free(pt->idx);
}

/* records the partition; 1 if its own witness satisfies it */
static int satisfied(partition *pt, uint64_t *bad)
{
    cz_cs cs;
    cz_r1cs r;
    cz_fr *w = NULL;
    if (cz_cs_init_record(&cs) != CZ_OK) return 0;
    partition_circ(&cs, pt);
    if (cz_cs_finish_record(&cs, &r, &w, NULL) != CZ_OK) return 0;
    int ok = cz_r1cs_is_satisfied(&r, w, bad, NULL);
    free(w);
    cz_r1cs_free(&r);
    return ok;
}

static void check_partition(const char *name, const cz_tree_shape *t, uint32_t sectors, uint32_t challenges,
                            uint64_t want, uint64_t want_inputs, cz_rng *rng)
{
    partition pt;
    partition_make(&pt, t, sectors, challenges, rng);
    gc_counts c;
    CHECK_MSG(gc_run(partition_circ, &pt, &c, name), "%s: modes", name);
    printf("%s: %llu constraints, %llu inputs, %llu aux\n", name, (unsigned long long)c.constraints,
           (unsigned long long)c.inputs, (unsigned long long)c.aux);
    CHECK_MSG(c.constraints == want, "%s: %llu constraints, want %llu", name, (unsigned long long)c.constraints,
              (unsigned long long)want);
    CHECK_MSG(c.inputs == want_inputs, "%s: %llu inputs", name, (unsigned long long)c.inputs);

    /* the public inputs: ONE, then per sector comm_r and the leaf indices */
    cz_fr *in = malloc(c.inputs * sizeof(cz_fr)), *aux = malloc(c.aux * sizeof(cz_fr));
    cz_fr *want_in = malloc(c.inputs * sizeof(cz_fr));
    cz_cs cs;
    cz_cs_init_witness(&cs, in, c.inputs, aux, c.aux);
    partition_circ(&cs, &pt);
    CHECK(cz_cs_status(&cs) == CZ_OK);
    cz_fr_one(&want_in[0]);
    for (uint32_t s = 0; s < sectors; s++)
        cz_post_sector_inputs(&want_in[1 + s * (1 + challenges)], &pt.comm_r[s], challenges,
                              pt.idx + (uint64_t)s * challenges);
    CHECK_MSG(!memcmp(in, want_in, c.inputs * sizeof(cz_fr)), "%s: public inputs", name);
    free(in); free(aux); free(want_in);

    /* a wrong comm_r (the check's last row), a wrong leaf, a wrong sibling */
    uint64_t bad = 0, plen = cz_tree_path_len(t), last = (uint64_t)sectors * challenges - 1;
    cz_fr one;
    cz_fr_one(&one);
    cz_fr_add(&pt.comm_r[sectors - 1], &pt.comm_r[sectors - 1], &one);
    CHECK_MSG(!satisfied(&pt, &bad) && bad == (uint64_t)(sectors - 1) * (want / sectors) + 312,
              "%s: wrong comm_r, row %llu", name, (unsigned long long)bad);
    cz_fr_sub(&pt.comm_r[sectors - 1], &pt.comm_r[sectors - 1], &one);
    CHECK(satisfied(&pt, &bad));
    cz_fr_add(&pt.leaves[last], &pt.leaves[last], &one);
    CHECK_MSG(!satisfied(&pt, &bad), "%s: wrong leaf", name);
    cz_fr_sub(&pt.leaves[last], &pt.leaves[last], &one);
    cz_fr_add(&pt.paths[last * plen + plen / 2], &pt.paths[last * plen + plen / 2], &one);
    CHECK_MSG(!satisfied(&pt, &bad), "%s: wrong sibling", name);
    partition_free(&pt);
}

/* a 32 GiB sector whose challenges open leaves of one bottom group of 8
 * (a random group, a random upper path), so the circuit is satisfiable
 * without the tree */
typedef struct { cz_tree_shape t; uint32_t n; cz_fr comm_c, rl, r, *leaves, *paths; uint64_t *idx; } big_sector;

static void big_circ(cz_cs *cs, void *p)
{
    big_sector *b = p;
    cz_post_sector_circuit(cs, &b->t, &b->comm_c, &b->rl, &b->r, b->n, b->leaves, b->idx, b->paths);
}

static void check_32g_sector(cz_rng *rng)
{
    big_sector b;
    b.t = (cz_tree_shape){8, 9, 8, 0, CZ_TREE_POSEIDON};
    b.n = 10;
    uint32_t plen = cz_tree_path_len(&b.t);
    cz_fr group[8], upper[80];
    for (int i = 0; i < 8; i++) cz_fr_random(&group[i], rng);
    for (uint32_t i = 7; i < plen; i++) cz_fr_random(&upper[i], rng);
    uint64_t base = (cz_rng_u64(rng) & ((1ull << cz_tree_index_bits(&b.t)) - 1)) & ~7ull;
    b.leaves = malloc(b.n * sizeof(cz_fr));
    b.paths = malloc(b.n * plen * sizeof(cz_fr));
    b.idx = malloc(b.n * sizeof(uint64_t));
    for (uint32_t k = 0; k < b.n; k++) {
        uint32_t pos = (uint32_t)(cz_rng_u64(rng) & 7);
        b.idx[k] = base | pos;
        b.leaves[k] = group[pos];
        cz_fr *p = b.paths + (uint64_t)k * plen;
        for (uint32_t i = 0, s = 0; i < 8; i++)
            if (i != pos) p[s++] = group[i];
        for (uint32_t i = 7; i < plen; i++) p[i] = upper[i];
    }
    cz_merkle_root(&b.rl, &b.t, &b.leaves[0], b.idx[0], b.paths);
    cz_fr_random(&b.comm_c, rng);
    cz_comm_r(&b.r, &b.comm_c, &b.rl);
    gc_counts c;
    CHECK(gc_run(big_circ, &b, &c, "32 GiB WindowPoSt sector"));
    CHECK_MSG(c.constraints == 53333 && c.inputs == 12, "32 GiB sector: %llu constraints, %llu inputs",
              (unsigned long long)c.constraints, (unsigned long long)c.inputs);
    free(b.leaves); free(b.paths); free(b.idx);
}

/* counting mode only: s sectors of n challenges in the 32 GiB shape, with
 * arbitrary values (the structure never depends on them) */
static void count_32g(uint32_t s, uint32_t n, uint64_t *constraints, uint64_t *inputs)
{
    const cz_tree_shape t = {8, 9, 8, 0, CZ_TREE_POSEIDON};
    uint32_t plen = cz_tree_path_len(&t);
    cz_fr *leaves = calloc(n, sizeof(cz_fr)), *paths = calloc((uint64_t)n * plen, sizeof(cz_fr));
    uint64_t *idx = calloc(n, sizeof(uint64_t));
    cz_fr v;
    cz_fr_from_u64(&v, 5);
    cz_cs cs;
    CHECK(cz_cs_init_count(&cs) == CZ_OK);
    for (uint32_t k = 0; k < s; k++) cz_post_sector_circuit(&cs, &t, &v, &v, &v, n, leaves, idx, paths);
    CHECK(cz_cs_status(&cs) == CZ_OK);
    *constraints = cs.n_constraints;
    *inputs = cs.n_inputs;
    cz_cs_free(&cs);
    free(leaves); free(paths); free(idx);
}

typedef struct { cz_fr c, rl, r; cz_num out; } comm_r_arg;

static void comm_r_circ(cz_cs *cs, void *p)
{
    comm_r_arg *a = p;
    a->out = cz_comm_r_check_circuit(cs, &a->c, &a->rl, &a->r);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_post_sector", 53333));

    /* the comm_r check: 313 constraints, comm_r the one input, the three
     * commitments the first aux variables (comm_r_last, comm_c, comm_r) */
    for (int t = 0; t < 4; t++) {
        comm_r_arg a;
        cz_fr_random(&a.c, &rng);
        cz_fr_random(&a.rl, &rng);
        cz_comm_r(&a.r, &a.c, &a.rl);
        cz_fr pre[2] = {a.c, a.rl}, h;
        const cz_poseidon *p2 = cz_poseidon_get(2);
        cz_poseidon_hash_plain(&h, p2, &p2->tag, pre);
        CHECK(cz_fr_eq(&h, &a.r));
        gc_counts c;
        CHECK(gc_run(comm_r_circ, &a, &c, "comm_r check"));
        CHECK_MSG(c.constraints == 313 && c.inputs == 2, "comm_r: %llu constraints, %llu inputs",
                  (unsigned long long)c.constraints, (unsigned long long)c.inputs);
        CHECK(a.out.var == CZ_AUX(0) && cz_fr_eq(&a.out.val, &a.rl));
        cz_cs cs;
        cz_r1cs r;
        cz_fr *w = NULL;
        CHECK(cz_cs_init_record(&cs) == CZ_OK);
        comm_r_circ(&cs, &a);
        CHECK(cz_cs_finish_record(&cs, &r, &w, NULL) == CZ_OK);
        CHECK(cz_fr_eq(&w[1], &a.r) && cz_fr_eq(&w[2], &a.rl) && cz_fr_eq(&w[3], &a.c) && cz_fr_eq(&w[4], &a.r));
        free(w);
        cz_r1cs_free(&r);
        /* comm_r of other commitments is caught, in the last row */
        cz_fr_random(&a.c, &rng);
        CHECK(cz_cs_init_record(&cs) == CZ_OK);
        comm_r_circ(&cs, &a);
        CHECK(cz_cs_finish_record(&cs, &r, &w, NULL) == CZ_OK);
        uint64_t bad = 0;
        CHECK(!cz_r1cs_is_satisfied(&r, w, &bad, NULL) && bad == 312);
        free(w);
        cz_r1cs_free(&r);
    }

    /* fallback_circuit.rs: 64 leaves per base tree, 5 challenges */
    const cz_tree_shape base8 = {8, 2, 0, 0, CZ_TREE_POSEIDON}, sub84 = {8, 2, 4, 0, CZ_TREE_POSEIDON},
                        top842 = {8, 2, 4, 2, CZ_TREE_POSEIDON};
    check_partition("base-8, 3 sectors", &base8, 3, 5, 16869, 19, &rng);
    check_partition("8-4-0, 3 sectors", &sub84, 3, 5, 22674, 19, &rng);
    check_partition("8-4-2, 3 sectors", &top842, 3, 5, 27384, 19, &rng);
    check_partition("base-8, 2 sectors", &base8, 2, 5, 11246, 13, &rng);

    /* 32 GiB */
    check_32g_sector(&rng);
    uint64_t c1, i1, c2, i2, c;
    count_32g(1, 10, &c1, &i1);
    count_32g(2, 10, &c2, &i2);
    CHECK_MSG(c1 == 53333 && i1 == 12, "WindowPoSt sector: %llu, %llu inputs", (unsigned long long)c1,
              (unsigned long long)i1);
    /* sectors are independent: a partition is ONE plus the sectors' pieces */
    CHECK(c2 == 2 * c1 && i2 - 1 == 2 * (i1 - 1));
    CHECK_MSG(2349 * c1 == 125279217 && 1 + 2349 * (i1 - 1) == 25840, "WindowPoSt partition: %llu",
              (unsigned long long)(2349 * c1));
    count_32g(5, 10, &c, &i2);
    CHECK_MSG(c == 266665, "5 sectors x 10 challenges: %llu", (unsigned long long)c);
    count_32g(66, 1, &c, &i2);
    CHECK_MSG(c == 370590 && i2 == 133, "WinningPoSt: %llu constraints, %llu inputs", (unsigned long long)c,
              (unsigned long long)i2);
    printf("32 GiB: WindowPoSt sector %llu, partition of 2349 %llu; WinningPoSt %llu (%llu inputs)\n",
           (unsigned long long)c1, (unsigned long long)(2349 * c1), (unsigned long long)c,
           (unsigned long long)i2);

    /* a bad shape is a sticky error, not a crash */
    {
        const cz_tree_shape bad = {3, 2, 0, 0, CZ_TREE_POSEIDON};
        cz_fr v;
        uint64_t ix = 0;
        cz_fr_from_u64(&v, 1);
        cz_cs cs;
        CHECK(cz_cs_init_count(&cs) == CZ_OK);
        cz_post_sector_circuit(&cs, &bad, &v, &v, &v, 1, &v, &ix, &v);
        CHECK(cz_cs_status(&cs) == CZ_ERR_INVALID_ARG);
        cz_cs_free(&cs);
    }
    return cz_test_finish("test_post_sector");
}
