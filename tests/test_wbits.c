/* test_wbits.c — the compact witness (src/backend/wbits.h) on the host.
 *
 *   map:     random masks (dense, sparse, empty, full, sizes around word
 *            edges): the prefix counts against a plain count, n_bits and
 *            n_fields, the length; a marked input is refused; the map from
 *            an aux mask equals the map of the same mask shifted;
 *   pack:    random witnesses (marked variables 0 or 1, the others random
 *            Fr): unpack(pack(w)) == w, the padding bits are 0; a marked
 *            variable holding another value makes pack fail and name it;
 *   synth:   the synthetic circuit's bit map (cz_synth_bit_mask) marks
 *            close to nine in ten variables and no input; every witness of
 *            the system (several witness_seeds) packs, so every marked
 *            variable is a bit in each; cz_synth_witness_compact writes the
 *            very compact form pack makes of cz_synth_witness's witness;
 *            the map of another size is refused;
 *   gadgets: a recording's boolean mask (cz_cs_finish_record) gives the
 *            map (cz_wbits_map_from_aux), and the gadget layer's compact
 *            mode writes the very bytes pack makes, given the parts of a
 *            compact witness as its buffers;
 *   backend: on the CPU backend cz_be_prove_bits gives the bytes of
 *            cz_be_prove for the same witness and r, s (the proof
 *            verifies), and refuses a key loaded without a bit map.
 * The seed is printed (CZ_TEST_SEED replays). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "backend/backend.h"
#include "backend/wbits.h"
#include "circuits/cs.h"
#include "circuits/synth.h"
#include "formats/proof.h"
#include "groth16/groth16.h"
#include "util/pool.h"
#include "util/rng.h"

static cz_rng rng;

static void random_mask(uint64_t *mask, uint64_t n, uint64_t n_inputs, int density /* of 256 */)
{
    uint64_t words = (n + 63) / 64;
    memset(mask, 0, words * 8 + 8);
    for (uint64_t i = n_inputs; i < n; i++)
        if ((int)(cz_rng_u64(&rng) & 255) < density) mask[i >> 6] |= (uint64_t)1 << (i & 63);
    if (words) mask[words - 1] |= ~(uint64_t)0 << 1 << ((n - 1) & 63); /* junk past n_vars: ignored */
}

static void check_map(uint64_t n, uint64_t ni, int density)
{
    char msg[256];
    uint64_t words = (n + 63) / 64;
    uint64_t *mask = malloc(words * 8 + 8);
    cz_wbits_map m;
    random_mask(mask, n, ni, density);
    cz_err e = cz_wbits_map_init(&m, mask, n, ni, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "map n=%llu: %s", (unsigned long long)n, msg);
    if (e) {
        free(mask);
        return;
    }
    uint64_t bits = 0, bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        int b = (int)((mask[i >> 6] >> (i & 63)) & 1);
        if (cz_wbits_rank(&m, i) != bits) bad++;
        if (cz_wbits_is_bit(&m, i) != b) bad++;
        bits += (uint64_t)b;
    }
    CHECK_MSG(bad == 0, "map n=%llu density %d: %llu ranks or bits wrong", (unsigned long long)n, density,
              (unsigned long long)bad);
    CHECK(m.n_bits == bits && m.n_fields == n - bits && m.rank[m.words] == bits);
    CHECK(cz_wbits_len(&m) == m.n_fields + ((bits + 63) / 64 + 3) / 4);
    /* the same from the aux part */
    uint64_t *aux = calloc(words + 1, 8);
    for (uint64_t j = 0; j + ni < n; j++)
        if ((mask[(j + ni) >> 6] >> ((j + ni) & 63)) & 1) aux[j >> 6] |= (uint64_t)1 << (j & 63);
    cz_wbits_map m2;
    e = cz_wbits_map_from_aux(&m2, aux, ni, n - ni, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "from aux: %s", msg);
    if (!e) {
        CHECK(m2.n_bits == m.n_bits && m2.words == m.words);
        CHECK(!memcmp(m2.mask, m.mask, m.words * 8) && !memcmp(m2.rank, m.rank, (m.words + 1) * 8));
        cz_wbits_map_free(&m2);
    }
    free(aux);

    /* pack and unpack a random witness */
    cz_fr *w = malloc((n + 1) * sizeof *w), *back = malloc((n + 1) * sizeof *w);
    cz_fr *c = malloc((cz_wbits_len(&m) + 1) * sizeof *c);
    for (uint64_t i = 0; i < n; i++) {
        if (cz_wbits_is_bit(&m, i)) {
            if (cz_rng_u64(&rng) & 1) w[i] = cz_fr_one_mont;
            else cz_fr_zero(&w[i]);
        } else {
            cz_fr_random(&w[i], &rng);
        }
    }
    if (ni) w[0] = cz_fr_one_mont;
    e = cz_wbits_pack(c, &m, w, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "pack n=%llu: %s", (unsigned long long)n, msg);
    cz_wbits_unpack(back, &m, c);
    CHECK_MSG(!memcmp(back, w, n * sizeof *w), "unpack(pack(w)) != w, n=%llu density %d", (unsigned long long)n,
              density);
    CHECK(ni == 0 || !memcmp(c, w, ni * sizeof *w)); /* inputs first */
    {
        const uint64_t *bw = cz_wbits_bits_c(&m, c);
        uint64_t nbw = (cz_wbits_len(&m) - m.n_fields) * 4, pad = 0;
        for (uint64_t k = m.n_bits; k < nbw * 64; k++) pad |= (bw[k >> 6] >> (k & 63)) & 1;
        CHECK_MSG(pad == 0, "padding bits set");
    }
    if (m.n_bits) { /* a marked variable that is not a bit */
        uint64_t k = cz_rng_u64(&rng) % m.n_bits, i = 0;
        for (uint64_t seen = 0;; i++)
            if (cz_wbits_is_bit(&m, i) && seen++ == k) break;
        cz_fr_from_u64(&w[i], 2);
        msg[0] = 0;
        e = cz_wbits_pack(c, &m, w, msg, sizeof msg);
        char want[64];
        snprintf(want, sizeof want, "variable %llu ", (unsigned long long)i);
        CHECK_MSG(e == CZ_ERR_INVALID_ARG && strstr(msg, want), "a non-bit in a bit slot: e=%d '%s'", e, msg);
    }
    free(w);
    free(back);
    free(c);
    cz_wbits_map_free(&m);
    free(mask);
}

static void check_maps(void)
{
    const uint64_t sizes[] = {1, 2, 63, 64, 65, 127, 128, 129, 1000, 4096, 10007};
    const int dens[] = {0, 8, 128, 230, 256};
    for (size_t a = 0; a < sizeof sizes / sizeof sizes[0]; a++)
        for (size_t d = 0; d < sizeof dens / sizeof dens[0]; d++) check_map(sizes[a], sizes[a] > 4 ? 4 : 1, dens[d]);
    /* a marked input is refused */
    char msg[256];
    uint64_t mask[2] = {0x4, 0};
    cz_wbits_map m;
    CHECK(cz_wbits_map_init(&m, mask, 100, 3, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK(strstr(msg, "input 2") != NULL);
    CHECK(cz_wbits_map_init(&m, mask, 100, 2, msg, sizeof msg) == CZ_OK);
    CHECK(m.n_bits == 1);
    cz_wbits_map_free(&m);
}

/* the synthetic circuit's map, and its witnesses */
static void check_synth(uint64_t n_constraints, uint64_t seed)
{
    char msg[600];
    cz_synth_params p;
    cz_synth_params_init(&p);
    p.n_constraints = n_constraints;
    p.seed = seed;
    cz_r1cs cs;
    cz_fr *w0 = NULL;
    cz_err e = cz_synth_generate(&cs, &w0, &p, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "synth: %s", msg);
    if (e) return;
    uint64_t nv = cs.n_vars, words = (nv + 63) / 64;
    uint64_t *mask = malloc(words * 8);
    e = cz_synth_bit_mask(mask, nv, &p, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "bit mask: %s", msg);
    CHECK(cz_synth_bit_mask(mask, nv + 1, &p, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    e = cz_synth_bit_mask(mask, nv, &p, msg, sizeof msg);
    cz_wbits_map m;
    e = e ? e : cz_wbits_map_init(&m, mask, nv, cs.n_inputs, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "map: %s", msg);
    if (e) goto out;
    double share = (double)m.n_bits / (double)nv;
    CHECK_MSG(share > 0.75 && share < 0.98, "n=%llu: %.3f of the variables are bits", (unsigned long long)n_constraints,
              share);
    printf("synthetic, %llu constraints: %llu variables, %llu bits (%.1f %%): compact %llu bytes, full %llu\n",
           (unsigned long long)n_constraints, (unsigned long long)nv, (unsigned long long)m.n_bits, 100 * share,
           (unsigned long long)cz_wbits_bytes(&m), (unsigned long long)(nv * sizeof(cz_fr)));
    cz_fr *w = malloc(nv * sizeof *w), *back = malloc(nv * sizeof *w);
    cz_fr *c = malloc(cz_wbits_bytes(&m)), *c2 = malloc(cz_wbits_bytes(&m));
    for (uint64_t ws = 0; ws < 4; ws++) {
        p.witness_seed = ws * 77;
        e = cz_synth_witness(w, nv, &p, msg, sizeof msg);
        CHECK_MSG(e == CZ_OK, "witness %llu: %s", (unsigned long long)ws, msg);
        if (ws == 0) CHECK(!memcmp(w, w0, nv * sizeof *w));
        e = cz_wbits_pack(c, &m, w, msg, sizeof msg);
        CHECK_MSG(e == CZ_OK, "witness_seed %llu: %s", (unsigned long long)p.witness_seed, msg);
        memset(c2, 0xa5, cz_wbits_bytes(&m));
        e = cz_synth_witness_compact(c2, m.n_fields, cz_wbits_bits(&m, c2), m.n_bits, &p, msg, sizeof msg);
        CHECK_MSG(e == CZ_OK, "compact witness: %s", msg);
        CHECK_MSG(!memcmp(c, c2, m.n_fields * sizeof *c), "compact fields differ from pack's, witness_seed %llu",
                  (unsigned long long)p.witness_seed);
        uint64_t bw = (m.n_bits + 63) / 64;
        CHECK_MSG(!memcmp(cz_wbits_bits(&m, c), cz_wbits_bits(&m, c2), bw * 8),
                  "compact bits differ from pack's, witness_seed %llu", (unsigned long long)p.witness_seed);
        cz_wbits_unpack(back, &m, c2);
        CHECK(!memcmp(back, w, nv * sizeof *w));
    }
    /* counts that are not the map's */
    CHECK(cz_synth_witness_compact(c2, m.n_fields - 1, cz_wbits_bits(&m, c2), m.n_bits, &p, msg, sizeof msg) ==
          CZ_ERR_INVALID_ARG);
    CHECK(cz_synth_witness_compact(c2, m.n_fields, cz_wbits_bits(&m, c2), m.n_bits + 1, &p, msg, sizeof msg) ==
          CZ_ERR_INVALID_ARG);
    free(w);
    free(back);
    free(c);
    free(c2);
    cz_wbits_map_free(&m);
out:
    free(mask);
    free(w0);
    cz_r1cs_free(&cs);
}

/* the gadget layer: a recording's boolean mask makes the map, and the
 * compact mode (cz_cs_init_compact) writes this very format when its
 * buffers are the compact witness's parts */
static void toy_circuit(cz_cs *cs, uint64_t seed)
{
    cz_rng r;
    cz_rng_seed(&r, seed);
    cz_fr v;
    for (int i = 0; i < 2; i++) {
        cz_fr_random(&v, &r);
        cz_cs_alloc_input(cs, &v);
    }
    for (int j = 0; j < 300; j++) {
        uint64_t x = cz_rng_u64(&r);
        if (x % 5) {
            cz_cs_alloc_bit(cs, (int)((x >> 8) & 1));
        } else {
            cz_fr_random(&v, &r);
            cz_cs_alloc(cs, &v);
        }
    }
}

static void check_gadget_layer(void)
{
    char msg[256];
    cz_cs cs;
    cz_r1cs r1;
    cz_fr *w = NULL;
    uint64_t *aux_mask = NULL;
    CHECK(cz_cs_init_record(&cs) == CZ_OK);
    toy_circuit(&cs, 31);
    uint64_t ni = cs.n_inputs, na = cs.n_aux;
    CHECK(cz_cs_finish_record(&cs, &r1, &w, &aux_mask) == CZ_OK);
    cz_wbits_map m;
    cz_err e = cz_wbits_map_from_aux(&m, aux_mask, ni, na, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "gadget map: %s", msg);
    if (!e) {
        cz_fr *c = calloc(cz_wbits_len(&m), sizeof *c), *c2 = calloc(cz_wbits_len(&m), sizeof *c);
        CHECK(cz_wbits_pack(c, &m, w, msg, sizeof msg) == CZ_OK);
        cz_cs_init_compact(&cs, c2, ni, cz_wbits_bits(&m, c2), m.n_bits, c2 + ni, m.n_fields - ni);
        toy_circuit(&cs, 31);
        CHECK(cz_cs_status(&cs) == CZ_OK && cs.n_bits == m.n_bits);
        CHECK_MSG(!memcmp(c, c2, cz_wbits_bytes(&m)), "the gadget layer's compact witness is not the packed one");
        cz_cs_free(&cs);
        free(c);
        free(c2);
        cz_wbits_map_free(&m);
    }
    free(w);
    free(aux_mask);
    cz_r1cs_free(&r1);
}

static void check_backend(cz_pool *pool)
{
    char msg[600];
    cz_synth_params p;
    cz_synth_params_init(&p);
    p.n_constraints = 1000;
    p.seed = 5;
    cz_r1cs cs;
    cz_fr *w = NULL;
    cz_groth16_pk pk;
    cz_groth16_pvk pvk;
    CHECK(cz_synth_generate(&cs, &w, &p, msg, sizeof msg) == CZ_OK);
    CHECK(cz_groth16_setup_insecure(&pk, &cs, 9, pool, msg, sizeof msg) == CZ_OK);
    CHECK(cz_groth16_prepare_vk(&pvk, &pk.vk) == CZ_OK);
    uint64_t *mask = malloc((cs.n_vars + 63) / 64 * 8);
    cz_wbits_map m;
    CHECK(cz_synth_bit_mask(mask, cs.n_vars, &p, msg, sizeof msg) == CZ_OK);
    CHECK(cz_wbits_map_init(&m, mask, cs.n_vars, cs.n_inputs, msg, sizeof msg) == CZ_OK);
    cz_backend_opts o = {.kind = CZ_BACKEND_CPU, .threads = 2, .quiet = 1};
    cz_be *be = NULL;
    CHECK(cz_be_open(&be, &o, msg, sizeof msg) == CZ_OK);
    cz_be_circuit plain = {.pk = &pk, .cs = &cs}, bits = {.pk = &pk, .cs = &cs, .bits = &m};
    cz_be_key *kp = NULL, *kb = NULL;
    cz_be_worker *bw = NULL;
    CHECK(cz_be_load(be, &plain, &kp, msg, sizeof msg) == CZ_OK);
    CHECK(cz_be_load(be, &bits, &kb, msg, sizeof msg) == CZ_OK);
    CHECK(kp != kb); /* another circuit description, another key */
    CHECK(cz_be_worker_create(be, &bw, msg, sizeof msg) == CZ_OK);
    cz_fr *c = cz_be_worker_buffer(bw, cz_wbits_len(&m));
    CHECK(c != NULL);
    if (c && kp && kb) {
        CHECK(cz_wbits_pack(c, &m, w, msg, sizeof msg) == CZ_OK);
        cz_fr r, s;
        cz_fr_random(&r, &rng);
        cz_fr_random(&s, &rng);
        cz_groth16_proof p1, p2;
        cz_groth16_timings t;
        CHECK_MSG(cz_be_prove(bw, kp, w, &r, &s, &p1, &t, msg, sizeof msg) == CZ_OK, "%s", msg);
        CHECK_MSG(cz_be_prove_bits(bw, kb, c, &r, &s, &p2, &t, msg, sizeof msg) == CZ_OK, "%s", msg);
        uint8_t b1[CZ_GROTH16_PROOF_BYTES], b2[CZ_GROTH16_PROOF_BYTES];
        cz_proof_encode(b1, &p1);
        cz_proof_encode(b2, &p2);
        CHECK_MSG(!memcmp(b1, b2, sizeof b1), "the proof of the compact witness differs");
        CHECK(cz_groth16_verify(&pvk, &p2, c + 1, cs.n_inputs - 1));
        msg[0] = 0;
        CHECK(cz_be_prove_bits(bw, kp, c, &r, &s, &p2, &t, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
        CHECK(strstr(msg, "bit map") != NULL);
    }
    /* a map of another circuit is refused at load */
    cz_wbits_map small;
    CHECK(cz_wbits_map_init(&small, mask, cs.n_vars - 1, cs.n_inputs, msg, sizeof msg) == CZ_OK);
    cz_be_circuit wrong = {.pk = &pk, .cs = &cs, .bits = &small};
    cz_be_key *kw = NULL;
    CHECK(cz_be_load(be, &wrong, &kw, msg, sizeof msg) == CZ_ERR_INVALID_ARG && kw == NULL);
    cz_wbits_map_free(&small);
    cz_be_worker_destroy(bw);
    cz_be_release(be, kp);
    cz_be_release(be, kb);
    cz_be_close(be);
    cz_wbits_map_free(&m);
    free(mask);
    cz_groth16_pvk_free(&pvk);
    cz_groth16_pk_free(&pk);
    cz_r1cs_free(&cs);
    free(w);
}

int main(void)
{
    uint64_t seed = cz_test_seed("test_wbits", 4242);
    cz_rng_seed(&rng, seed);
    check_maps();
    check_gadget_layer();
    check_synth(100, seed);
    check_synth(5000, seed + 1);
    check_synth((1 << 16) - 4, seed + 2);
    cz_pool *pool = NULL;
    CHECK(cz_pool_create(&pool, 2) == CZ_OK);
    check_backend(pool);
    cz_pool_destroy(pool);
    return cz_test_finish("test_wbits");
}
