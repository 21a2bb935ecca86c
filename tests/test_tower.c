/* test_tower.c — Fp6 and Fp12: field laws on random elements, sparse and
 * special products against the full product, inverses, Frobenius maps
 * against exponentiation by p^k (exponent built with GMP), cyclotomic
 * squaring and exponentiation by x against plain arithmetic on elements of
 * the cyclotomic subgroup, and fixed vectors computed by an independent
 * Python big-integer model of Fp12 as Fp2[w]/(w^6 - (u + 1)) (schoolbook
 * product, inverse by Fermat). */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "ff/tower.h"

/* Python-computed vectors (see header comment). Tower coefficient order:
 * c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2, each as (re, im). */
/* inputs: coefficient i (tower order) of a is (A0[i], A1[i]) as integers */
static const uint64_t VA[12] = {0x9e3779b97f4a7c15ULL, 0x85655c7a4fa9d69eULL, 0xdaa66d2c7ddf743fULL, 0x0acab8f49f53ad3cULL, 0x1715609f7c746c69ULL, 0x9030156eeefd83daULL, 0x538454127b096493ULL, 0x159571e93ea75a78ULL, 0x8ff34785799e5cbdULL, 0x9aface638e513116ULL, 0xcc623af8783354e7ULL, 0x20602addddfb07b4ULL};
static const uint64_t VB[12] = {0x43033714daa66debULL, 0x9f53acbc59599f14ULL, 0x6fb00678171561ddULL, 0xeefd831a86066e9eULL, 0x9c5cd5db538455cfULL, 0x3ea75978b2b33e28ULL, 0xc909a53e8ff349c1ULL, 0x8e512fd6df600db2ULL, 0xf5b674a1cc623db3ULL, 0xddfb06350c0cdd3cULL, 0x2263440508d131a5ULL, 0x2da4dc9338b9acc6ULL};
static const char *V_AB[12] = {
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f622561fbcfe2bac5c4f88bc314e5d0750cb", "00000000000000000000000000000000000000000000000000000000000000036462e3507c631e0c7a6ef3693672daab",
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6237d62462ef737ffd3931376725af7e3bf", "00000000000000000000000000000000000000000000000000000000000000037f4cae6a266ce1cd1abfb53ad940680d",
    "000000000000000000000000000000000000000000000000000000000000000086d62824a6e881ed21f0186256096cd8", "0000000000000000000000000000000000000000000000000000000000000002e27a718c17f893a5572fabfab15a20bf",
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f622650a6393b8587ed3cf8f800d4b72cdb9", "00000000000000000000000000000000000000000000000000000000000000033184955bb2c625abe88993b0060cb650",
    "0000000000000000000000000000000000000000000000000000000000000000a06f7900e0218e4b2a40c50494b42a6a", "000000000000000000000000000000000000000000000000000000000000000320621cf7e637f857fc96172935b1e9ce",
    "000000000000000000000000000000000000000000000000000000000000000085252d5c0ba470dc1e36d068456e6a96", "0000000000000000000000000000000000000000000000000000000000000002e771ef6a449d074a7f93a226b0744614",
};
static const char *V_AINV[12] = {
    "0f63f515237e9deadda71100e0968a5c203263f3efec4b6f10e1fdc397d52861f7e0509501eaa18a5d6b32343b73c175", "0adc00a2a0517cda5443b17be076efe48d6484f56ad5b306f304c485edc50f7ad6050b561f58cef059392f061d052e93",
    "16c1ff5d404204675786eaa82776027d25164c8d2eda7ef421161a3a07773c1ebbad4d286685d59dce037ff2addc06c3", "0cd8871db9971018980028a4f0ec5152fdb0a05f4f24ab1bbbe86d752e74ec9cf20143d6bc06faca8ae99a4929fdfd48",
    "1224698c3c3996728ab2855fe2c8069ec8b70b441e062a506112202fb9b289a331c8d565463f1fdb69de2afa6f01ad11", "01c79503930922abc84bfbd9b55e0e1647299e2f1031821470c1564107d04761950591a1ba08cbd3834ee8289a2304d2",
    "19c121e0b00ddabf6d8ed916c4d18be88cb2a9003efbc31471eb99ff34438c9b44705f6cc3cda101b1010e246448bfef", "18974a6146bde6694e2a8d215d8db9bca37c36df8483163636ff29467fa366dc7bc3aca097928f82b46c00783e56173d",
    "0d4d224bcc65c3fdae40c0b9dfd248a5614e8e0714c739836f267eb68657b17f637f9350f2a9b977fc34722c3350cb7a", "15022355a59433a49e790b3c6396f2413a670be0f35163b6155e7096bed12b416b0b598563fc497e181b8c8363c4e8a4",
    "0632b9c55eb1cbe01a60fc556b88163b544cdb09d71db816a5957e14d6f3cc2b08ace3015447ff442f9bead41aa61b73", "14c9abb11e34660b4526b39e7ff9e4349c82effc1407b695ae5057c9241f3718fd4249eec603cc708c22461dded3b937",
};
static const char *V_AFROB[12] = {
    "000000000000000000000000000000000000000000000000000000000000000000000000000000009e3779b97f4a7c15", "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffff3499a385b055d40d",
    "15fec521cd6e4fe046cf43bcb39a963c68a7d10891d8776203095e12f33abe3622d54e3a4fca688a5b4658484c8f57e7", "16cad2c2e099ff9b9f9aa7efcb9eb95f110cc7ca34a0759345357484788e32675cd74acf4824cf85f550eb0bf21d1eeb",
    "116dd8aaafca4d06039cbee60e1b0168600b82af7d0f77c4a80ee3668064e137d4f02760e0b559df91f73db36551837d", "018e02f01ed5fc0b4d70298d85fa042f1fa2754e9ef50ed1b6e5759cc8d4679dd36b0aa92fa5e32f89e6e6249e2ba2f6",
    "051ab10a56ccadac9ea1feedabbea5875b93f0336ba1a76cfe15bda768c218f43015dd0c898be09af4e053c9345aa841", "0a2bbaef2a462461dbec4b484995edc4013bc93e0a14ad075d3d5fdf5f62c471da7f9769c4df3f7bbac4061d3a72e028",
    "0a72d85a64af682152b3a76fcad4995ece41e76c5d558c6431ed9a9bce917f6cd63abbc53d6882b540e324d17fa46e57", "0497546b568f85070680669412f7e518ba0f73cad5cfa6e2bb8e0428233fb815232baba603d231541132145b797c002d",
    "12258107763619c253f9d2afe1da8f274e45a58e120d365656974a70530a142d09a047b50124f6e76d3d2959911c9060", "0fd4a8d06ade40904850296228faf1c1866af4d855e31c21cbe0018640fd543b47bbe522b929ad65ccab4e4c235d68e0",
};
static const char *V_ASQR[12] = {
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f622eb1bd33c60b530ad4222a03e2991ba45", "0000000000000000000000000000000000000000000000000000000000000003114e8d9fc2c8cc6323b27e0cf06a75e1",
    "00000000000000000000000000000000000000000000000000000000000000005617a6bb454bf87ce802c79f946fc1b2", "0000000000000000000000000000000000000000000000000000000000000002a4b0550393dd5cd1614bda5f07c9f94f",
    "0000000000000000000000000000000000000000000000000000000000000000efbc893699b884bbd1c8d56b4781010a", "00000000000000000000000000000000000000000000000000000000000000022ce31849cc15c06eb783cf2f55da5015",
    "00000000000000000000000000000000000000000000000000000000000000000fe0d45d36c1f39f1d0ae2ec5c192612", "00000000000000000000000000000000000000000000000000000000000000023e230e4348b91981ff09d8dde277ccd8",
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f623d040eb7327f472221b21660b2c86bc79", "00000000000000000000000000000000000000000000000000000000000000026df42319e11e3e46f5809bbb431158e2",
    "0000000000000000000000000000000000000000000000000000000000000001ba7837d3d692e296db8c5d09276516a2", "000000000000000000000000000000000000000000000000000000000000000273dd01697d597ca9251da44635c2dae4",
};

static const char *P_HEX =
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";

static cz_fp2 *coef(cz_fp12 *a, int i)
{
    cz_fp2 *c[6] = {&a->c0.c0, &a->c0.c1, &a->c0.c2, &a->c1.c0, &a->c1.c1, &a->c1.c2};
    return c[i];
}

static void fp_from_hex(cz_fp *out, const char *hex)
{
    uint8_t be[48];
    for (int i = 0; i < 48; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        be[i] = (uint8_t)v;
    }
    CHECK(cz_fp_from_bytes_be(out, be) == 0);
}

static void fp12_from_hex(cz_fp12 *out, const char **hex)
{
    for (int i = 0; i < 6; i++) {
        fp_from_hex(&coef(out, i)->c0, hex[2 * i]);
        fp_from_hex(&coef(out, i)->c1, hex[2 * i + 1]);
    }
}

static void fp12_from_u64(cz_fp12 *out, const uint64_t *v)
{
    for (int i = 0; i < 6; i++) {
        cz_fp_from_u64(&coef(out, i)->c0, v[2 * i]);
        cz_fp_from_u64(&coef(out, i)->c1, v[2 * i + 1]);
    }
}

/* e as little-endian limbs; returns the count (caller frees) */
static uint64_t *limbs_of(const mpz_t e, size_t *n)
{
    size_t cnt = (mpz_sizeinbase(e, 2) + 63) / 64;
    uint64_t *l = calloc(cnt + 1, sizeof *l);
    mpz_export(l, n, -1, 8, 0, 0, e);
    return l;
}

static void fp12_pow_mpz(cz_fp12 *out, const cz_fp12 *a, const mpz_t e)
{
    size_t n;
    uint64_t *l = limbs_of(e, &n);
    cz_fp12_pow(out, a, l, n);
    free(l);
}

static void fp6_pow_mpz(cz_fp6 *out, const cz_fp6 *a, const mpz_t e)
{
    /* through Fp12 with c1 = 0 */
    cz_fp12 t, r;
    t.c0 = *a;
    cz_fp6_zero(&t.c1);
    fp12_pow_mpz(&r, &t, e);
    CHECK(cz_fp6_is_zero(&r.c1));
    *out = r.c0;
}

static void test_fp6(cz_rng *rng, const mpz_t p)
{
    for (int it = 0; it < 200; it++) {
        cz_fp6 a, b, c, x, y, z, one;
        cz_fp6_random(&a, rng);
        cz_fp6_random(&b, rng);
        cz_fp6_random(&c, rng);
        cz_fp6_one(&one);
        cz_fp6_mul(&x, &a, &b);
        cz_fp6_mul(&y, &b, &a);
        CHECK(cz_fp6_eq(&x, &y));
        cz_fp6_mul(&x, &x, &c);
        cz_fp6_mul(&y, &b, &c);
        cz_fp6_mul(&y, &a, &y);
        CHECK(cz_fp6_eq(&x, &y));            /* associative */
        cz_fp6_add(&x, &b, &c);
        cz_fp6_mul(&x, &a, &x);
        cz_fp6_mul(&y, &a, &b);
        cz_fp6_mul(&z, &a, &c);
        cz_fp6_add(&y, &y, &z);
        CHECK(cz_fp6_eq(&x, &y));            /* distributive */
        cz_fp6_sub(&x, &y, &z);
        cz_fp6_mul(&y, &a, &b);
        CHECK(cz_fp6_eq(&x, &y));
        cz_fp6_neg(&x, &a);
        cz_fp6_add(&x, &x, &a);
        CHECK(cz_fp6_is_zero(&x));
        cz_fp6_mul(&x, &a, &one);
        CHECK(cz_fp6_eq(&x, &a));
        cz_fp6_sqr(&x, &a);
        cz_fp6_mul(&y, &a, &a);
        CHECK(cz_fp6_eq(&x, &y));
        cz_fp6_dbl(&x, &a);
        cz_fp6_add(&y, &a, &a);
        CHECK(cz_fp6_eq(&x, &y));
        cz_fp6_inv(&x, &a);
        cz_fp6_mul(&x, &x, &a);
        CHECK(cz_fp6_is_one(&x));
        /* mul_by_v, mul_by_fp2, sparse products */
        cz_fp6 v;
        cz_fp6_zero(&v);
        cz_fp2_one(&v.c1);
        cz_fp6_mul_by_v(&x, &a);
        cz_fp6_mul(&y, &a, &v);
        CHECK(cz_fp6_eq(&x, &y));
        cz_fp6 s;
        cz_fp6_zero(&s);
        s.c0 = b.c0;
        cz_fp6_mul_by_fp2(&x, &a, &b.c0);
        cz_fp6_mul(&y, &a, &s);
        CHECK(cz_fp6_eq(&x, &y));
        s.c1 = b.c1;
        cz_fp6_mul_by_01(&x, &a, &b.c0, &b.c1);
        cz_fp6_mul(&y, &a, &s);
        CHECK(cz_fp6_eq(&x, &y));
        cz_fp2_zero(&s.c0);
        cz_fp6_mul_by_1(&x, &a, &b.c1);
        cz_fp6_mul(&y, &a, &s);
        CHECK(cz_fp6_eq(&x, &y));
        /* aliasing: out == input */
        y = a;
        cz_fp6_mul(&y, &y, &y);
        cz_fp6_sqr(&x, &a);
        CHECK(cz_fp6_eq(&x, &y));
    }
    cz_fp6 z;
    cz_fp6_zero(&z);
    cz_fp6_inv(&z, &z);
    CHECK(cz_fp6_is_zero(&z));
    /* Frobenius vs a^(p^k), k = 0..6, and negative powers */
    mpz_t e;
    mpz_init_set_ui(e, 1);
    cz_fp6 a, x, y;
    cz_fp6_random(&a, rng);
    for (int k = 0; k <= 6; k++) {
        cz_fp6_frobenius(&x, &a, k);
        fp6_pow_mpz(&y, &a, e);
        CHECK_MSG(cz_fp6_eq(&x, &y), "fp6 frobenius k=%d", k);
        cz_fp6_frobenius(&y, &y, -k);
        CHECK(cz_fp6_eq(&y, &a));
        mpz_mul(e, e, p);
    }
    mpz_clear(e);
}

static void test_fp12(cz_rng *rng, const mpz_t p)
{
    for (int it = 0; it < 100; it++) {
        cz_fp12 a, b, c, x, y, z, one;
        cz_fp12_random(&a, rng);
        cz_fp12_random(&b, rng);
        cz_fp12_random(&c, rng);
        cz_fp12_one(&one);
        cz_fp12_mul(&x, &a, &b);
        cz_fp12_mul(&y, &b, &a);
        CHECK(cz_fp12_eq(&x, &y));
        cz_fp12_mul(&x, &x, &c);
        cz_fp12_mul(&y, &b, &c);
        cz_fp12_mul(&y, &a, &y);
        CHECK(cz_fp12_eq(&x, &y));
        cz_fp12_add(&x, &b, &c);
        cz_fp12_mul(&x, &a, &x);
        cz_fp12_mul(&y, &a, &b);
        cz_fp12_mul(&z, &a, &c);
        cz_fp12_add(&y, &y, &z);
        CHECK(cz_fp12_eq(&x, &y));
        cz_fp12_sub(&x, &y, &z);
        cz_fp12_mul(&y, &a, &b);
        CHECK(cz_fp12_eq(&x, &y));
        cz_fp12_mul(&x, &a, &one);
        CHECK(cz_fp12_eq(&x, &a));
        cz_fp12_sqr(&x, &a);
        cz_fp12_mul(&y, &a, &a);
        CHECK(cz_fp12_eq(&x, &y));
        y = a;
        cz_fp12_sqr(&y, &y);
        CHECK(cz_fp12_eq(&x, &y));
        cz_fp12_inv(&x, &a);
        cz_fp12_mul(&x, &x, &a);
        CHECK(cz_fp12_is_one(&x));
        cz_fp12_conj(&x, &a);
        cz_fp12_frobenius(&y, &a, 6);
        CHECK(cz_fp12_eq(&x, &y));
        /* line product: c0 + c1 w^2 + c4 w^3 */
        cz_fp12 l;
        cz_fp12_zero(&l);
        l.c0.c0 = b.c0.c0;
        l.c0.c1 = b.c0.c1;
        l.c1.c1 = b.c1.c1;
        cz_fp12_mul_by_014(&x, &a, &l.c0.c0, &l.c0.c1, &l.c1.c1);
        cz_fp12_mul(&y, &a, &l);
        CHECK(cz_fp12_eq(&x, &y));
        y = a;
        cz_fp12_mul_by_014(&y, &y, &l.c0.c0, &l.c0.c1, &l.c1.c1);
        CHECK(cz_fp12_eq(&x, &y));
    }
    cz_fp12 z;
    cz_fp12_zero(&z);
    CHECK(cz_fp12_is_zero(&z));
    cz_fp12_inv(&z, &z);
    CHECK(cz_fp12_is_zero(&z));
    /* Frobenius vs a^(p^k), k = 0..12, and back with -k */
    mpz_t e;
    mpz_init_set_ui(e, 1);
    cz_fp12 a, x, y;
    cz_fp12_random(&a, rng);
    for (int k = 0; k <= 12; k++) {
        cz_fp12_frobenius(&x, &a, k);
        fp12_pow_mpz(&y, &a, e);
        CHECK_MSG(cz_fp12_eq(&x, &y), "fp12 frobenius k=%d", k);
        cz_fp12_frobenius(&y, &y, -k);
        CHECK(cz_fp12_eq(&y, &a));
        mpz_mul(e, e, p);
    }
    mpz_clear(e);
}

static void test_cyclotomic(cz_rng *rng, const mpz_t p)
{
    mpz_t e, t;
    mpz_inits(e, t, NULL);
    /* e = (p^6 - 1)(p^2 + 1) */
    mpz_pow_ui(e, p, 6);
    mpz_sub_ui(e, e, 1);
    mpz_pow_ui(t, p, 2);
    mpz_add_ui(t, t, 1);
    mpz_mul(e, e, t);
    for (int it = 0; it < 4; it++) {
        cz_fp12 f, g, h, x, y;
        cz_fp12_random(&f, rng);
        /* g = f^((p^6-1)(p^2+1)) by conj/inv/frobenius, checked against pow */
        cz_fp12_conj(&g, &f);
        cz_fp12_inv(&h, &f);
        cz_fp12_mul(&g, &g, &h);
        cz_fp12_frobenius(&h, &g, 2);
        cz_fp12_mul(&g, &g, &h);
        if (it == 0) {
            fp12_pow_mpz(&x, &f, e);
            CHECK(cz_fp12_eq(&x, &g));
        }
        /* in the cyclotomic subgroup: g^(p^4 - p^2 + 1) = 1, conj = inverse */
        cz_fp12_frobenius(&x, &g, 4);
        cz_fp12_frobenius(&y, &g, 2);
        cz_fp12_inv(&y, &y);
        cz_fp12_mul(&x, &x, &y);
        cz_fp12_mul(&x, &x, &g);
        CHECK(cz_fp12_is_one(&x));
        for (int j = 0; j < 20; j++) {
            cz_fp12_cyclotomic_sqr(&x, &g);
            cz_fp12_sqr(&y, &g);
            CHECK(cz_fp12_eq(&x, &y));
            cz_fp12_cyclotomic_sqr(&g, &g); /* aliasing */
            CHECK(cz_fp12_eq(&g, &y));
        }
        /* g^x with x = -0xd201000000010000: g^x * g^|x| = 1 */
        const uint64_t xabs = 0xd201000000010000ULL;
        cz_fp12_cyclotomic_exp_x(&x, &g);
        cz_fp12_pow(&y, &g, &xabs, 1);
        cz_fp12_mul(&y, &y, &x);
        CHECK(cz_fp12_is_one(&y));
        h = g;
        cz_fp12_cyclotomic_exp_x(&h, &h);
        CHECK(cz_fp12_eq(&h, &x));
    }
    mpz_clears(e, t, NULL);
}

static void test_vectors(void)
{
    cz_fp12 a, b, x, want;
    fp12_from_u64(&a, VA);
    fp12_from_u64(&b, VB);
    cz_fp12_mul(&x, &a, &b);
    fp12_from_hex(&want, V_AB);
    CHECK(cz_fp12_eq(&x, &want));
    cz_fp12_sqr(&x, &a);
    fp12_from_hex(&want, V_ASQR);
    CHECK(cz_fp12_eq(&x, &want));
    cz_fp12_inv(&x, &a);
    fp12_from_hex(&want, V_AINV);
    CHECK(cz_fp12_eq(&x, &want));
    cz_fp12_frobenius(&x, &a, 1);
    fp12_from_hex(&want, V_AFROB);
    CHECK(cz_fp12_eq(&x, &want));
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_tower", 12));
    mpz_t p;
    mpz_init_set_str(p, P_HEX, 16);
    test_vectors();
    test_fp6(&rng, p);
    test_fp12(&rng, p);
    test_cyclotomic(&rng, p);
    mpz_clear(p);
    return cz_test_finish("test_tower");
}
