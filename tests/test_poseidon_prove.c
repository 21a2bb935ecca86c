/* test_poseidon_prove.c — the Poseidon PoR circuit is one the prover takes:
 * the base-8 shape of por_circuit.rs (64 leaves, 1,063 constraints) is
 * recorded, set up (insecure seeded setup), proved with the witness from
 * witness-only mode and verified against the public inputs a verifier
 * computes itself (the leaf index and the natively computed root); a wrong
 * root or index is rejected. */
#include <stdlib.h>
#include <string.h>

#include "circuits/merkle.h"
#include "groth16/groth16.h"
#include "testutil.h"
#include "util/rng.h"

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_poseidon_prove", 12));
    const cz_tree_shape t = {8, 2, 0, 0, CZ_TREE_POSEIDON};
    cz_fr path[14], leaf, root;
    for (int i = 0; i < 14; i++) cz_fr_random(&path[i], &rng);
    cz_fr_random(&leaf, &rng);
    uint64_t index = cz_rng_u64(&rng) % 64;
    cz_merkle_root(&root, &t, &leaf, index, path);
    cz_pool *pool;
    CHECK(cz_pool_create(&pool, 2) == CZ_OK);
    char msg[256] = "";

    cz_cs cs;
    cz_r1cs r;
    CHECK(cz_cs_init_record(&cs) == CZ_OK);
    cz_por_circuit(&cs, &t, &leaf, index, path, &root, 0);
    CHECK(cz_cs_finish_record(&cs, &r, NULL, NULL) == CZ_OK);
    CHECK(r.n_inputs == 3 && r.n_constraints == 1063);

    uint64_t n_aux = r.n_vars - r.n_inputs;
    cz_fr *w = malloc(r.n_vars * sizeof(cz_fr));
    cz_cs_init_witness(&cs, w, r.n_inputs, w + r.n_inputs, n_aux);
    cz_por_circuit(&cs, &t, &leaf, index, path, &root, 0);
    CHECK(cz_cs_status(&cs) == CZ_OK && cs.n_aux == n_aux);
    uint64_t bad = 0;
    CHECK(cz_r1cs_is_satisfied(&r, w, &bad, pool));

    cz_fr pub[2];
    cz_fr_from_u64(&pub[0], index);
    pub[1] = root;
    CHECK(!memcmp(pub, w + 1, sizeof pub));

    cz_groth16_pk pk;
    CHECK_MSG(cz_groth16_setup_insecure(&pk, &r, 1063, pool, msg, sizeof msg) == CZ_OK, "%s", msg);
    cz_groth16_pvk pvk;
    CHECK(cz_groth16_prepare_vk(&pvk, &pk.vk) == CZ_OK);
    cz_fr rr, ss, one;
    cz_fr_random(&rr, &rng);
    cz_fr_random(&ss, &rng);
    cz_groth16_proof pr;
    CHECK_MSG(cz_groth16_prove(&pr, &pk, &r, w, &rr, &ss, pool, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(cz_groth16_verify(&pvk, &pr, pub, 2));
    cz_fr_one(&one);
    cz_fr_add(&pub[1], &pub[1], &one);
    CHECK(!cz_groth16_verify(&pvk, &pr, pub, 2));
    pub[1] = root;
    cz_fr_from_u64(&pub[0], (index + 1) % 64);
    CHECK(!cz_groth16_verify(&pvk, &pr, pub, 2));

    cz_groth16_pvk_free(&pvk);
    cz_groth16_pk_free(&pk);
    cz_r1cs_free(&r);
    free(w);
    cz_pool_destroy(pool);
    return cz_test_finish("test_poseidon_prove");
}
