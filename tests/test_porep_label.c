/* test_porep_label.c — the PoRep labeling gadget (porep_label.h) against
 * the reference's published count and the native label.
 *
 * As storage-proofs-porep's create_label.rs test sets it up: 37 parents of
 * 32 bytes (14 distinct, repeated 14 + 14 + 9) and a 32-byte replica id,
 * each allocated as 256 bits MSB first per byte with booleanity, parents
 * first; layer 3 and node 22 constants: 532,025 constraints. The label
 * equals the native SHA-256 label (replica_id ‖ layer BE ‖ node BE ‖ 20 zero
 * bytes ‖ parents, truncated to 254 bits) for random data, layers and
 * nodes; the four modes agree (gadget_check); the PoRep circuit's form
 * (parents and id from to_bits_le of numbers, reversed per byte, shared
 * booleans for repeated parents, an allocated UInt64 node) agrees with the
 * native label over the numbers' LE encodings; bad lengths are a sticky
 * error. */
#include "testutil.h"
#include "gadget_check.inc"
#include "circuits/porep_label.h"
#include "util/rng.h"

typedef struct {
    uint8_t id[32], parents[CZ_LABEL_PARENTS][32];
    uint32_t layer;
    uint64_t node;
    int node_alloc;
    cz_fr out;
} label_arg;

/* bytes_into_boolean_vec_be: each byte MSB first, allocated */
static void alloc_be(cz_cs *cs, cz_bool *out, const uint8_t *b, int n)
{
    for (int i = 0; i < 8 * n; i++) out[i] = cz_bool_alloc(cs, (b[i / 8] >> (7 - i % 8)) & 1);
}

static void test_circ(cz_cs *cs, void *p)
{
    label_arg *a = p;
    static cz_bool pb[CZ_LABEL_PARENTS][256];
    cz_bool id[256], node[64];
    const cz_bool *parents[CZ_LABEL_PARENTS];
    for (int k = 0; k < CZ_LABEL_PARENTS; k++) {
        alloc_be(cs, pb[k], a->parents[k], 32);
        parents[k] = pb[k];
    }
    alloc_be(cs, id, a->id, 32);
    for (int i = 0; i < 64; i++)
        node[i] = a->node_alloc ? cz_bool_alloc(cs, (int)((a->node >> i) & 1)) : cz_bool_const((int)((a->node >> i) & 1));
    a->out = cz_create_label_circuit(cs, id, 256, a->layer, node, parents, 256).val;
}

static void native(cz_fr *out, const label_arg *a)
{
    const uint8_t *p[CZ_LABEL_PARENTS];
    for (int k = 0; k < CZ_LABEL_PARENTS; k++) p[k] = a->parents[k];
    cz_create_label_native(out, a->id, a->layer, a->node, p);
}

/* the PoRep circuit's form: numbers -> to_bits_le -> reversed per byte */
typedef struct {
    cz_fr id, parents[14];
    uint32_t layer;
    uint64_t node;
    cz_fr out;
} porep_arg;

static void rev_bits(cz_cs *cs, cz_bool out[256], const cz_fr *x)
{
    cz_num n = cz_num_alloc(cs, x);
    cz_bool le[255];
    cz_num_to_bits_le(cs, &n, le);
    for (int i = 0; i < 256; i++) {
        int k = (i & ~7) + 7 - (i & 7);
        out[i] = k < 255 ? le[k] : cz_bool_const(0);
    }
}

static void porep_circ(cz_cs *cs, void *p)
{
    porep_arg *a = p;
    cz_bool id[256], node[64], pb[14][256];
    rev_bits(cs, id, &a->id);
    for (int i = 0; i < 64; i++) node[i] = cz_bool_alloc(cs, (int)((a->node >> i) & 1));
    int np = a->layer == 1 ? 6 : 14;
    for (int k = 0; k < np; k++) rev_bits(cs, pb[k], &a->parents[k]);
    const cz_bool *parents[CZ_LABEL_PARENTS];
    for (int k = 0; k < CZ_LABEL_PARENTS; k++) parents[k] = pb[a->layer == 1 ? k % 6 : k < 28 ? k % 14 : k - 28];
    a->out = cz_create_label_circuit(cs, id, 256, a->layer, node, parents, 256).val;
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_porep_label", 532025));
    label_arg a;
    cz_fr want;

    /* the reference's test shape: an Fr as id, 14 distinct parents expanded */
    {
        cz_fr idf;
        cz_fr_random(&idf, &rng);
        cz_fr_to_bytes_le(a.id, &idf);
        uint8_t raw[14][32];
        for (int k = 0; k < 14; k++) {
            cz_fr x;
            cz_fr_random(&x, &rng);
            cz_fr_to_bytes_le(raw[k], &x);
        }
        for (int k = 0; k < CZ_LABEL_PARENTS; k++) memcpy(a.parents[k], raw[k < 28 ? k % 14 : k - 28], 32);
        a.layer = 3;
        a.node = 22;
        a.node_alloc = 0;
        gc_counts c;
        CHECK(gc_run(test_circ, &a, &c, "create_label"));
        printf("create_label: %llu constraints, %llu aux (%llu bits), nnz %llu/%llu/%llu\n",
               (unsigned long long)c.constraints, (unsigned long long)c.aux, (unsigned long long)c.bits,
               (unsigned long long)c.nnz[0], (unsigned long long)c.nnz[1], (unsigned long long)c.nnz[2]);
        CHECK_MSG(c.constraints == 532025, "create_label: %llu constraints", (unsigned long long)c.constraints);
        CHECK(c.inputs == 1);
        native(&want, &a);
        CHECK_MSG(cz_fr_eq(&a.out, &want), "create_label: circuit != native");
        /* the top two bits are cleared: the label is below 2^254 */
        uint8_t b[32];
        cz_fr_to_bytes_le(b, &a.out);
        CHECK((b[31] & 0xc0) == 0);
    }

    /* random bytes (any 32 bytes, not only field elements), layers, nodes;
     * allocated nodes add 64 bits with booleanity */
    static cz_fr aux[600000];
    for (int t = 0; t < 12; t++) {
        cz_rng_bytes(&rng, a.id, 32);
        cz_rng_bytes(&rng, a.parents, sizeof a.parents);
        a.layer = t < 4 ? (uint32_t)(t + 1) : (uint32_t)cz_rng_u64(&rng);
        a.node = t & 1 ? cz_rng_u64(&rng) : cz_rng_u64(&rng) & ((1ull << 30) - 1);
        a.node_alloc = t & 2 ? 1 : 0;
        native(&want, &a);
        if (t == 0 || t == 2) {
            CHECK(gc_run(test_circ, &a, NULL, "create_label random"));
        } else {
            cz_cs cs;
            cz_fr in[1];
            cz_cs_init_witness(&cs, in, 1, aux, 600000);
            test_circ(&cs, &a);
            CHECK(cz_cs_status(&cs) == CZ_OK);
        }
        CHECK_MSG(cz_fr_eq(&a.out, &want), "label %d (layer %u node %llu): circuit != native", t, a.layer,
                  (unsigned long long)a.node);
    }

    /* the PoRep circuit's form, layer 1 (6 DRG parents) and a later layer */
    for (int t = 0; t < 2; t++) {
        porep_arg p;
        cz_fr_random(&p.id, &rng);
        for (int k = 0; k < 14; k++) cz_fr_random(&p.parents[k], &rng);
        p.layer = t == 0 ? 1 : 7;
        p.node = cz_rng_u64(&rng) & ((1ull << 30) - 1);
        gc_counts c;
        CHECK(gc_run(porep_circ, &p, &c, t == 0 ? "PoRep label, layer 1" : "PoRep label, layer 7"));
        printf("PoRep-form label, layer %u: %llu constraints\n", p.layer, (unsigned long long)c.constraints);
        label_arg n;
        cz_fr_to_bytes_le(n.id, &p.id);
        for (int k = 0; k < CZ_LABEL_PARENTS; k++) {
            int src = p.layer == 1 ? k % 6 : k < 28 ? k % 14 : k - 28;
            cz_fr_to_bytes_le(n.parents[k], &p.parents[src]);
        }
        n.layer = p.layer;
        n.node = p.node;
        native(&want, &n);
        CHECK_MSG(cz_fr_eq(&p.out, &want), "PoRep label layer %u: circuit != native", p.layer);
    }

    /* id bits outside 32..256, parent bits outside 1..256: a sticky error */
    {
        cz_cs cs;
        cz_bool bits[257], node[64];
        const cz_bool *parents[CZ_LABEL_PARENTS];
        for (int i = 0; i < 257; i++) bits[i] = cz_bool_const(0);
        for (int i = 0; i < 64; i++) node[i] = cz_bool_const(0);
        for (int k = 0; k < CZ_LABEL_PARENTS; k++) parents[k] = bits;
        CHECK(cz_cs_init_count(&cs) == CZ_OK);
        (void)cz_create_label_circuit(&cs, bits, 257, 1, node, parents, 256);
        CHECK(cz_cs_status(&cs) == CZ_ERR_INVALID_ARG);
        cz_cs_free(&cs);
        CHECK(cz_cs_init_count(&cs) == CZ_OK);
        (void)cz_create_label_circuit(&cs, bits, 256, 1, node, parents, 257);
        CHECK(cz_cs_status(&cs) == CZ_ERR_INVALID_ARG && cs.n_constraints == 0);
        cz_cs_free(&cs);
        CHECK(cz_cs_init_count(&cs) == CZ_OK);
        (void)cz_create_label_circuit(&cs, bits, 31, 1, node, parents, 256);
        CHECK(cz_cs_status(&cs) == CZ_ERR_INVALID_ARG);
        cz_cs_free(&cs);
        CHECK(cz_cs_init_count(&cs) == CZ_OK);
        (void)cz_create_label_circuit(&cs, bits, 256, 1, node, parents, 0);
        CHECK(cz_cs_status(&cs) == CZ_ERR_INVALID_ARG);
        cz_cs_free(&cs);
    }
    return cz_test_finish("test_porep_label");
}
