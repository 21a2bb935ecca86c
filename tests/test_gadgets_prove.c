/* test_gadgets_prove.c — a recorded gadget circuit is a circuit the prover
 * takes: SHA-256 of a 32-byte allocated message with the digest packed into
 * public inputs (pack_into_inputs, 2 inputs), recorded, set up (insecure
 * seeded setup), proved with the witness from witness-only mode, and verified
 * against the packing of the native digest; a wrong digest is rejected. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "circuits/sha256_gadget.h"
#include "groth16/groth16.h"
#include "util/rng.h"
#include "util/sha256.h"

static const uint8_t *g_msg;

static void circuit(cz_cs *cs)
{
    cz_bool in[256], out[256];
    cz_bytes_to_bools_alloc(cs, in, g_msg, 32);
    cz_sha256_gadget(cs, out, in, 256);
    cz_pack_into_inputs(cs, out, 256);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_gadgets_prove", 8));
    uint8_t m[32], digest[32], bits[256];
    cz_rng_bytes(&rng, m, 32);
    g_msg = m;
    cz_pool *pool;
    CHECK(cz_pool_create(&pool, 2) == CZ_OK);
    char msg[256] = "";

    cz_cs cs;
    cz_r1cs r;
    CHECK(cz_cs_init_record(&cs) == CZ_OK);
    circuit(&cs);
    CHECK(cz_cs_finish_record(&cs, &r, NULL, NULL) == CZ_OK);
    CHECK(r.n_inputs == 3);

    /* the witness from witness-only mode */
    uint64_t n_aux = r.n_vars - r.n_inputs;
    cz_fr *w = malloc(r.n_vars * sizeof(cz_fr));
    cz_cs_init_witness(&cs, w, r.n_inputs, w + r.n_inputs, n_aux);
    circuit(&cs);
    CHECK(cz_cs_status(&cs) == CZ_OK && cs.n_aux == n_aux);
    uint64_t bad = 0;
    CHECK(cz_r1cs_is_satisfied(&r, w, &bad, pool));

    cz_sha256(digest, m, 32);
    for (int i = 0; i < 256; i++) bits[i] = (digest[i / 8] >> (7 - i % 8)) & 1;
    cz_fr pub[2];
    cz_compute_multipacking(pub, bits, 256);
    CHECK(!memcmp(pub, w + 1, sizeof pub));

    cz_groth16_pk pk;
    CHECK_MSG(cz_groth16_setup_insecure(&pk, &r, 77, pool, msg, sizeof msg) == CZ_OK, "%s", msg);
    cz_groth16_pvk pvk;
    CHECK(cz_groth16_prepare_vk(&pvk, &pk.vk) == CZ_OK);
    cz_fr rr, ss;
    cz_fr_random(&rr, &rng);
    cz_fr_random(&ss, &rng);
    cz_groth16_proof pr;
    CHECK_MSG(cz_groth16_prove(&pr, &pk, &r, w, &rr, &ss, pool, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(cz_groth16_verify(&pvk, &pr, pub, 2));
    bits[100] ^= 1;
    cz_compute_multipacking(pub, bits, 256);
    CHECK(!cz_groth16_verify(&pvk, &pr, pub, 2));

    cz_groth16_pvk_free(&pvk);
    cz_groth16_pk_free(&pk);
    cz_r1cs_free(&r);
    free(w);
    cz_pool_destroy(pool);
    return cz_test_finish("test_gadgets_prove");
}
