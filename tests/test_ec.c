/* test_ec.c — G1 and G2: group laws on random points against an affine
 * chord-and-tangent reference, Jacobian / XYZZ / mixed agreement, scalar
 * multiplication (wNAF, constant-time, double-and-add, Fr) against GMP
 * scalar arithmetic, batch normalisation with infinities, the fast subgroup
 * checks against [r]P == O on points in and outside the subgroup, and the
 * ZCash encodings: round trips, every rejection code, and [k]G vectors
 * computed independently with Python big integers (ec_vectors.inc) plus the
 * published compressed generators. */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "ec/ec.h"
#include "ec_vectors.inc"

static void hex_decode(uint8_t *out, const char *hex, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

static void curve_b_set_g1(cz_fp *b) { cz_fp_from_u64(b, 4); }
static void curve_b_set_g2(cz_fp2 *b) { cz_fp_from_u64(&b->c0, 4); b->c1 = b->c0; }
static const char *vec_c_g1(size_t i) { return ec_vectors[i].g1c; }
static const char *vec_u_g1(size_t i) { return ec_vectors[i].g1u; }
static const char *vec_c_g2(size_t i) { return ec_vectors[i].g2c; }
static const char *vec_u_g2(size_t i) { return ec_vectors[i].g2u; }

#define G g1
#define FE cz_fp
#define FEP cz_fp
#define NCOMP CZ_G1_COMPRESSED
#define NUNC CZ_G1_UNCOMPRESSED
#include "ec_test_tmpl.inc"
#undef G
#undef FE
#undef FEP
#undef NCOMP
#undef NUNC

#define G g2
#define FE cz_fp2
#define FEP cz_fp2
#define NCOMP CZ_G2_COMPRESSED
#define NUNC CZ_G2_UNCOMPRESSED
#include "ec_test_tmpl.inc"

/* compressed generators as published (BLS12-381 spec, zkcrypto bls12_381) */
static const char G1_GEN_C[] =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
static const char G2_GEN_C[] =
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_ec", 7));
    mpz_t r;
    mpz_init_set_str(r, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);

    uint8_t want[96], got[96];
    cz_g1_aff g1;
    cz_g2_aff g2;
    cz_g1_generator(&g1);
    cz_g2_generator(&g2);
    CHECK(cz_g1_aff_on_curve(&g1) && cz_g2_aff_on_curve(&g2));
    CHECK(cz_g1_aff_in_subgroup(&g1) && cz_g2_aff_in_subgroup(&g2));
    hex_decode(want, G1_GEN_C, 48);
    cz_g1_compress(got, &g1);
    CHECK(!memcmp(got, want, 48));
    hex_decode(want, G2_GEN_C, 96);
    cz_g2_compress(got, &g2);
    CHECK(!memcmp(got, want, 96));

    test_laws_g1(&rng);
    test_laws_g2(&rng);
    test_mul_g1(&rng, r);
    test_mul_g2(&rng, r);
    test_order3_g1(&rng);
    test_order3_g2(&rng);
    test_batch_g1(&rng);
    test_batch_g2(&rng);
    test_subgroup_g1(&rng, 40);
    test_subgroup_g2(&rng, 40);
    test_encode_g1(&rng);
    test_encode_g2(&rng);
    test_vectors_g1();
    test_vectors_g2();
    mpz_clear(r);
    return cz_test_finish("test_ec");
}
