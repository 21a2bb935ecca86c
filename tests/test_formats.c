/* test_formats.c — bellperson .params / .vk / proof files and the pk cache.
 *
 * A small random key (meaningless, but every point valid) is written, read
 * back and compared; a rewrite must be byte-identical; the byte layout is
 * checked at hand-computed offsets against the published generator encodings;
 * every truncation, lying counts (including 2^32-1 points, which would be a
 * huge allocation), trailing bytes, off-curve points, points at infinity and
 * non-subgroup points are refused where bellperson refuses them. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "formats/params.h"
#include "formats/pkcache.h"
#include "formats/proof.h"
#include "util/hash.h"
#include "r1cs/r1cs.h"
#include "formats_testkey.inc"

static char dir[64];

static int hexval(char c) { return c <= '9' ? c - '0' : (c | 32) - 'a' + 10; }
static void unhex(uint8_t *out, const char *h)
{
    for (size_t i = 0; h[2 * i]; i++) out[i] = (uint8_t)(hexval(h[2 * i]) << 4 | hexval(h[2 * i + 1]));
}

/* published affine coordinates of the generators (BLS12-381 / ZCash spec) */
static const char *G1X = "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
static const char *G1Y = "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
static const char *G2X1 = "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e";
static const char *G2X0 = "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static void set_be32(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v; }

enum { NIC = 3, NH = 15, NL = 20, NA = 10, NB1 = 7, NB2 = 6 };
/* hand-computed layout */
#define OFF_NIC 864u
#define OFF_IC (OFF_NIC + 4)
#define OFF_NH (OFF_IC + NIC * 96)
#define OFF_H (OFF_NH + 4)
#define OFF_NL (OFF_H + NH * 96)
#define OFF_L (OFF_NL + 4)
#define OFF_NA (OFF_L + NL * 96)
#define OFF_A (OFF_NA + 4)
#define OFF_NB1 (OFF_A + NA * 96)
#define OFF_B1 (OFF_NB1 + 4)
#define OFF_NB2 (OFF_B1 + NB1 * 96)
#define OFF_B2 (OFF_NB2 + 4)
#define TOTAL (OFF_B2 + NB2 * 192)

static cz_err read_buf(cz_groth16_pk *pk, const uint8_t *b, size_t n, int sub, cz_pool *pool, char *msg)
{
    return cz_params_read_mem(pk, b, n, sub, pool, msg, 256);
}

static void test_params(cz_rng *rng, cz_pool *pool)
{
    char msg[256], path[128], path2[128], vpath[128];
    snprintf(path, sizeof path, "%s/k.params", dir);
    snprintf(path2, sizeof path2, "%s/k2.params", dir);
    snprintf(vpath, sizeof vpath, "%s/k.vk", dir);
    cz_groth16_pk pk, q;
    rand_pk(&pk, NIC, NH, NL, NA, NB1, NB2, rng);
    cz_g1_generator(&pk.vk.alpha_g1);
    cz_g2_generator(&pk.vk.beta_g2);

    /* sizes and the in-memory encoding == the file */
    CHECK(cz_params_encoded_size(&pk) == TOTAL);
    CHECK(cz_vk_encoded_size(&pk.vk) == OFF_NH);
    uint8_t *mem = malloc(TOTAL);
    CHECK(cz_params_encode(mem, TOTAL, &pk, msg, sizeof msg) == CZ_OK);
    CHECK(cz_params_encode(mem, TOTAL - 1, &pk, msg, sizeof msg) == CZ_ERR_LENGTH);
    CHECK_MSG(cz_params_write(path, &pk, msg, sizeof msg) == CZ_OK, "%s", msg);
    size_t n;
    uint8_t *file = slurp(path, &n);
    CHECK(file && n == TOTAL && memcmp(file, mem, TOTAL) == 0);
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    CHECK(access(tmp, F_OK) != 0); /* renamed away */

    /* layout at hand-computed offsets; alpha = G1 generator, beta_g2 = G2 generator */
    uint8_t ref[48];
    unhex(ref, G1X);
    CHECK(memcmp(file, ref, 48) == 0);
    unhex(ref, G1Y);
    CHECK(memcmp(file + 48, ref, 48) == 0);
    unhex(ref, G2X1);
    CHECK(memcmp(file + 192, ref, 48) == 0);
    unhex(ref, G2X0);
    CHECK(memcmp(file + 240, ref, 48) == 0);
    CHECK(be32(file + OFF_NIC) == NIC && be32(file + OFF_NH) == NH && be32(file + OFF_NL) == NL);
    CHECK(be32(file + OFF_NA) == NA && be32(file + OFF_NB1) == NB1 && be32(file + OFF_NB2) == NB2);
    uint8_t enc[192];
    cz_g1_serialize(enc, &pk.h[0]);
    CHECK(memcmp(file + OFF_H, enc, 96) == 0);
    cz_g1_serialize(enc, &pk.l[NL - 1]);
    CHECK(memcmp(file + OFF_NA - 96, enc, 96) == 0);
    cz_g2_serialize(enc, &pk.b_g2[2]);
    CHECK(memcmp(file + OFF_B2 + 2 * 192, enc, 192) == 0);
    cz_g1_serialize(enc, &pk.vk.delta_g1);
    CHECK(memcmp(file + 576, enc, 96) == 0);
    CHECK((file[OFF_H] & 0xe0) == 0); /* uncompressed, not infinity */

    /* peek */
    cz_params_info in;
    CHECK(cz_params_peek(&in, path, msg, sizeof msg) == CZ_OK);
    CHECK(!in.is_vk && in.n_ic == NIC && in.n_h == NH && in.n_l == NL && in.n_a == NA && in.n_b_g1 == NB1 &&
          in.n_b_g2 == NB2 && in.size == TOTAL && in.vk_bytes == OFF_NH);
    CHECK(in.off_ic == OFF_IC && in.off_h == OFF_H && in.off_l == OFF_L && in.off_a == OFF_A &&
          in.off_b_g1 == OFF_B1 && in.off_b_g2 == OFF_B2);

    /* read back (serial and with the pool, with and without subgroup checks) */
    for (int sub = 0; sub < 2; sub++)
        for (int par = 0; par < 2; par++) {
            CHECK_MSG(cz_params_read(&q, path, sub, par ? pool : NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
            CHECK(pk_equal(&pk, &q) && q.map == NULL);
            cz_groth16_pk_free(&q);
        }
    /* byte-identical rewrite */
    CHECK(cz_params_read(&q, path, 1, pool, msg, sizeof msg) == CZ_OK);
    CHECK(cz_params_write(path2, &q, msg, sizeof msg) == CZ_OK);
    size_t n2;
    uint8_t *file2 = slurp(path2, &n2);
    CHECK(file2 && n2 == n && memcmp(file, file2, n) == 0);
    free(file2);
    cz_groth16_pk_free(&q);

    /* .vk: write, read, and read the head of the .params */
    CHECK(cz_vk_write(vpath, &pk.vk, msg, sizeof msg) == CZ_OK);
    uint8_t *vf = slurp(vpath, &n2);
    CHECK(vf && n2 == OFF_NH && memcmp(vf, file, OFF_NH) == 0);
    CHECK(cz_params_peek(&in, vpath, msg, sizeof msg) == CZ_OK && in.is_vk && in.n_ic == NIC);
    cz_groth16_vk vk;
    for (int k = 0; k < 2; k++) {
        CHECK_MSG(cz_vk_read(&vk, k ? path : vpath, pool, msg, sizeof msg) == CZ_OK, "%s", msg);
        cz_groth16_pk t = {.vk = vk};
        cz_groth16_pk s = {.vk = pk.vk};
        CHECK(pk_equal(&s, &t));
        cz_groth16_vk_free(&vk);
    }
    /* a .vk is not a .params */
    CHECK(cz_params_read_mem(&q, vf, n2, 0, NULL, msg, sizeof msg) == CZ_ERR_LENGTH);
    /* vk truncations and trailing bytes */
    for (size_t k = 0; k < n2; k++) CHECK(cz_vk_read_mem(&vk, vf, k, NULL, msg, sizeof msg) != CZ_OK);
    uint8_t *vlong = malloc(n2 + 1);
    memcpy(vlong, vf, n2);
    vlong[n2] = 0;
    CHECK(cz_vk_read_mem(&vk, vlong, n2 + 1, NULL, msg, sizeof msg) == CZ_ERR_LENGTH);
    free(vlong);
    free(vf);

    /* every truncation refused (peek and read), and one trailing byte */
    int all = 1;
    for (size_t k = 0; k < n; k++) {
        cz_err e1 = cz_params_peek_mem(&in, file, k, msg, sizeof msg);
        cz_err e2 = read_buf(&q, file, k, 1, NULL, msg);
        /* cut right after the vk: a valid .vk, but not a .params */
        int vk_cut = k == OFF_NH && e1 == CZ_OK && in.is_vk;
        if ((e1 != CZ_ERR_LENGTH && !vk_cut) || e2 != CZ_ERR_LENGTH || q.h) all = 0;
    }
    CHECK(all);
    uint8_t *buf = malloc(n + 200);
    memcpy(buf, file, n);
    memset(buf + n, 0, 200);
    CHECK(read_buf(&q, buf, n + 1, 0, NULL, msg) == CZ_ERR_LENGTH);
    CHECK(strstr(msg, "trailing") != NULL);

    /* lying counts: each count raised to 2^32-1 (an allocation of up to 800 GB
     * would fail with NOMEM; LENGTH shows it was refused first), one more,
     * one fewer */
    const uint32_t offs[6] = {OFF_NIC, OFF_NH, OFF_NL, OFF_NA, OFF_NB1, OFF_NB2};
    for (int k = 0; k < 6; k++) {
        uint32_t orig = be32(buf + offs[k]);
        uint32_t vals[4] = {0xffffffffu, 0x80000000u, orig + 1, orig - 1};
        for (int v = 0; v < 4; v++) {
            set_be32(buf + offs[k], vals[v]);
            CHECK_MSG(read_buf(&q, buf, n, 1, pool, msg) == CZ_ERR_LENGTH, "count %d value %u: %s", k, vals[v], msg);
            CHECK(cz_params_peek_mem(&in, buf, n, msg, sizeof msg) == CZ_ERR_LENGTH);
        }
        set_be32(buf + offs[k], orig);
    }
    /* shifting one point from h to l keeps the size: still a valid file */
    set_be32(buf + OFF_NH, NH - 1);
    memcpy(buf + OFF_NL - 92, file + OFF_NL - 96, 96);
    set_be32(buf + OFF_NL - 96, NL + 1);
    CHECK(read_buf(&q, buf, n, 1, pool, msg) == CZ_OK && q.n_h == NH - 1 && q.n_l == NL + 1);
    CHECK(q.n_l == NL + 1 && cz_g1_aff_eq(&q.l[0], &pk.h[NH - 1]) && cz_g1_aff_eq(&q.l[NL], &pk.l[NL - 1]));
    cz_groth16_pk_free(&q);
    memcpy(buf, file, n);

    /* a point off the curve (y's low bit flipped) in h[5]: always refused */
    buf[OFF_H + 5 * 96 + 95] ^= 1;
    for (int sub = 0; sub < 2; sub++) {
        CHECK(read_buf(&q, buf, n, sub, pool, msg) == CZ_ERR_NOT_ON_CURVE);
        CHECK_MSG(strstr(msg, "h[5]") != NULL, "%s", msg);
        CHECK(q.h == NULL && q.vk.ic == NULL);
    }
    /* two bad points: the lowest index is reported, threads or not */
    buf[OFF_B2 + 192 + 100] ^= 4;
    buf[OFF_L + 2 * 96 + 60] ^= 8;
    for (int par = 0; par < 2; par++) {
        CHECK(read_buf(&q, buf, n, 0, par ? pool : NULL, msg) == CZ_ERR_NOT_ON_CURVE);
        CHECK_MSG(strstr(msg, "h[5]") != NULL, "%s", msg);
    }
    buf[OFF_H + 5 * 96 + 95] ^= 1;
    CHECK(read_buf(&q, buf, n, 0, pool, msg) == CZ_ERR_NOT_ON_CURVE && strstr(msg, "l[2]") != NULL);
    memcpy(buf, file, n);
    /* a coordinate >= p */
    memset(buf + OFF_A + 96, 0xff, 96);
    buf[OFF_A + 96] = 0x1f;
    CHECK(read_buf(&q, buf, n, 0, pool, msg) == CZ_ERR_NONCANONICAL && strstr(msg, "a[1]"));
    memcpy(buf, file, n);
    /* compressed flag in an uncompressed file */
    buf[OFF_B1] |= 0x80;
    CHECK(read_buf(&q, buf, n, 0, pool, msg) == CZ_ERR_FLAGS && strstr(msg, "b_g1[0]"));
    memcpy(buf, file, n);

    /* non-subgroup points: in h, l, a, b_g1, b_g2 refused only when asked;
     * in ic and the vk head always */
    cz_g1_aff ns1;
    cz_g2_aff ns2;
    nonsub_g1(&ns1, rng);
    nonsub_g2(&ns2, rng);
    CHECK(cz_g1_aff_on_curve(&ns1) && cz_g2_aff_on_curve(&ns2));
    const uint32_t at[5] = {OFF_H + 3 * 96, OFF_L, OFF_A + (NA - 1) * 96, OFF_B1 + 96, OFF_B2 + 4 * 192};
    const char *nm[5] = {"h[3]", "l[0]", "a[9]", "b_g1[1]", "b_g2[4]"};
    for (int k = 0; k < 5; k++) {
        if (k == 4) cz_g2_serialize(buf + at[k], &ns2);
        else cz_g1_serialize(buf + at[k], &ns1);
        CHECK_MSG(read_buf(&q, buf, n, 0, pool, msg) == CZ_OK, "%d: %s", k, msg);
        if (k == 4) CHECK(cz_g2_aff_eq(&q.b_g2[4], &ns2));
        else if (k == 0) CHECK(cz_g1_aff_eq(&q.h[3], &ns1));
        cz_groth16_pk_free(&q);
        CHECK(read_buf(&q, buf, n, 1, pool, msg) == CZ_ERR_NOT_IN_SUBGROUP);
        CHECK_MSG(strstr(msg, nm[k]) != NULL, "%s", msg);
        memcpy(buf, file, n);
    }
    cz_g1_serialize(buf + OFF_IC + 96, &ns1);
    CHECK(read_buf(&q, buf, n, 0, pool, msg) == CZ_ERR_NOT_IN_SUBGROUP && strstr(msg, "ic[1]"));
    memcpy(buf, file, n);
    cz_g1_serialize(buf + 96, &ns1); /* beta_g1 */
    CHECK(read_buf(&q, buf, n, 0, pool, msg) == CZ_ERR_NOT_IN_SUBGROUP && strstr(msg, "beta_g1"));
    memcpy(buf, file, n);
    cz_g2_serialize(buf + 672, &ns2); /* delta_g2 */
    CHECK(read_buf(&q, buf, n, 0, pool, msg) == CZ_ERR_NOT_IN_SUBGROUP && strstr(msg, "delta_g2"));
    memcpy(buf, file, n);

    /* infinity: refused in ic, h, l, a, b_g1, b_g2 (bellperson: "point at
     * infinity"), accepted in the six vk points */
    cz_g1_aff inf1;
    cz_g2_aff inf2;
    cz_g1_aff_set_inf(&inf1);
    cz_g2_aff_set_inf(&inf2);
    const uint32_t at_inf[6] = {OFF_IC, OFF_H + 96, OFF_L + 96, OFF_A, OFF_B1 + 6 * 96, OFF_B2 + 5 * 192};
    for (int k = 0; k < 6; k++) {
        if (k == 5) cz_g2_serialize(buf + at_inf[k], &inf2);
        else cz_g1_serialize(buf + at_inf[k], &inf1);
        CHECK(buf[at_inf[k]] == 0x40);
        CHECK(read_buf(&q, buf, n, 0, pool, msg) == CZ_ERR_NOT_ON_CURVE && strstr(msg, "infinity"));
        memcpy(buf, file, n);
    }
    cz_g1_serialize(buf + 0, &inf1);   /* alpha_g1 */
    cz_g2_serialize(buf + 384, &inf2); /* gamma_g2 */
    CHECK_MSG(read_buf(&q, buf, n, 1, pool, msg) == CZ_OK, "%s", msg);
    CHECK(cz_g1_aff_is_inf(&q.vk.alpha_g1) && cz_g2_aff_is_inf(&q.vk.gamma_g2));
    uint8_t *re = malloc(n);
    CHECK(cz_params_encode(re, n, &q, msg, sizeof msg) == CZ_OK && memcmp(re, buf, n) == 0);
    free(re);
    cz_groth16_pk_free(&q);

    /* empty arrays are legal */
    cz_groth16_pk e0;
    rand_pk(&e0, 1, 0, 0, 0, 0, 0, rng);
    uint64_t sz = cz_params_encoded_size(&e0);
    CHECK(sz == 864 + 4 + 96 + 5 * 4);
    uint8_t *eb = malloc(sz);
    CHECK(cz_params_encode(eb, sz, &e0, msg, sizeof msg) == CZ_OK);
    CHECK(read_buf(&q, eb, sz, 1, pool, msg) == CZ_OK && pk_equal(&q, &e0));
    cz_groth16_pk_free(&q);
    free(eb);
    cz_groth16_pk_free(&e0);

    /* missing file */
    char nopath[160];
    snprintf(nopath, sizeof nopath, "%s/none.params", dir);
    CHECK(cz_params_read(&q, nopath, 0, NULL, msg, sizeof msg) == CZ_ERR_IO);

    unlink(path);
    unlink(path2);
    unlink(vpath);
    free(buf);
    free(mem);
    free(file);
    cz_groth16_pk_free(&pk);
}

static void test_proofs(cz_rng *rng)
{
    char msg[256], path[128];
    snprintf(path, sizeof path, "%s/p.proof", dir);
    enum { K = 4 };
    cz_groth16_proof p[K];
    cz_g1_aff g1[2 * K];
    cz_g2_aff g2[K];
    rand_g1s(g1, 2 * K, rng);
    rand_g2s(g2, K, rng);
    for (int i = 0; i < K; i++) {
        p[i].a = g1[2 * i];
        p[i].b = g2[i];
        p[i].c = g1[2 * i + 1];
    }
    cz_g1_generator(&p[0].a);
    uint8_t b[192];
    cz_proof_encode(b, &p[0]);
    /* A = compressed G1 generator (published: 0x97f1d3a7...) */
    uint8_t ref[48];
    unhex(ref, G1X);
    ref[0] |= 0x80;
    CHECK(memcmp(b, ref, 48) == 0);
    uint8_t t[96];
    cz_g2_compress(t, &p[0].b);
    CHECK(memcmp(b + 48, t, 96) == 0);
    cz_g1_compress(t, &p[0].c);
    CHECK(memcmp(b + 144, t, 48) == 0);
    cz_groth16_proof d;
    CHECK(cz_proof_decode(&d, b) == CZ_OK);
    CHECK(cz_g1_aff_eq(&d.a, &p[0].a) && cz_g2_aff_eq(&d.b, &p[0].b) && cz_g1_aff_eq(&d.c, &p[0].c));

    CHECK(cz_proofs_write(path, p, K, msg, sizeof msg) == CZ_OK);
    size_t n;
    uint8_t *f = slurp(path, &n);
    CHECK(f && n == K * 192 && memcmp(f, b, 192) == 0);
    cz_groth16_proof *r;
    size_t k;
    CHECK(cz_proofs_read(&r, &k, path, msg, sizeof msg) == CZ_OK && k == K);
    for (size_t i = 0; i < k; i++)
        CHECK(cz_g1_aff_eq(&r[i].a, &p[i].a) && cz_g2_aff_eq(&r[i].b, &p[i].b) && cz_g1_aff_eq(&r[i].c, &p[i].c));
    free(r);
    CHECK(cz_proofs_write(path, p, 0, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    /* sizes that are not a non-zero multiple of 192 */
    const size_t bad_len[5] = {0, 1, 191, 193, 2 * 192 - 1};
    for (int i = 0; i < 5; i++) {
        CHECK(cz_proofs_decode(&r, &k, f, bad_len[i], msg, sizeof msg) == CZ_ERR_LENGTH && r == NULL && k == 0);
    }
    /* infinity in A, B or C */
    uint8_t m[K * 192];
    for (int w = 0; w < 3; w++) {
        memcpy(m, f, n);
        size_t off = 192 + (w == 0 ? 0 : w == 1 ? 48 : 144);
        memset(m + off, 0, w == 1 ? 96 : 48);
        m[off] = 0xc0;
        CHECK(cz_proofs_decode(&r, &k, m, n, msg, sizeof msg) == CZ_ERR_NOT_ON_CURVE && r == NULL);
        CHECK_MSG(strstr(msg, "proof 1") && strstr(msg, "infinity"), "%s", msg);
    }
    /* non-subgroup B and C */
    cz_g1_aff ns1;
    cz_g2_aff ns2;
    nonsub_g1(&ns1, rng);
    nonsub_g2(&ns2, rng);
    memcpy(m, f, n);
    cz_g2_compress(m + 2 * 192 + 48, &ns2);
    CHECK(cz_proofs_decode(&r, &k, m, n, msg, sizeof msg) == CZ_ERR_NOT_IN_SUBGROUP && strstr(msg, "proof 2, point B"));
    memcpy(m, f, n);
    cz_g1_compress(m + 3 * 192 + 144, &ns1);
    CHECK(cz_proof_decode(&d, m + 3 * 192) == CZ_ERR_NOT_IN_SUBGROUP);
    /* uncompressed flag, and the sign flag on infinity */
    memcpy(m, f, n);
    m[0] &= 0x7f;
    CHECK(cz_proof_decode(&d, m) == CZ_ERR_FLAGS);
    memcpy(m, f, n);
    memset(m + 144, 0, 48);
    m[144] = 0xe0;
    CHECK(cz_proof_decode(&d, m) == CZ_ERR_FLAGS);
    /* single bit flips: refused or a different valid proof, never the same */
    int ok = 1;
    for (int bit = 0; bit < 192 * 8; bit += 7) {
        memcpy(m, f, 192);
        m[bit / 8] ^= (uint8_t)(1 << (bit % 8));
        if (cz_proof_decode(&d, m) == CZ_OK) {
            uint8_t again[192];
            cz_proof_encode(again, &d);
            if (memcmp(again, m, 192) != 0) ok = 0;
        }
    }
    CHECK(ok);
    unlink(path);
    free(f);
}

static void test_pkcache(cz_rng *rng, cz_pool *pool)
{
    char msg[256], ppath[128], cpath[128], cpath2[128];
    snprintf(ppath, sizeof ppath, "%s/c.params", dir);
    snprintf(cpath, sizeof cpath, "%s/c.pkc", dir);
    snprintf(cpath2, sizeof cpath2, "%s/c2.pkc", dir);
    cz_groth16_pk pk, q;
    rand_pk(&pk, NIC, NH, NL, NA, NB1, NB2, rng);
    CHECK(cz_params_write(ppath, &pk, msg, sizeof msg) == CZ_OK);
    CHECK_MSG(cz_pkcache_write(cpath, &pk, CZ_PKCACHE_SUBGROUP_CHECKED, msg, sizeof msg) == CZ_OK, "%s", msg);

    /* hand-computed layout: header 128, vk G1 triple at 128 (288 B), G2 triple
     * at 448 (576 B), ic at 1024, then 64-byte aligned arrays */
    size_t n;
    uint8_t *f = slurp(cpath, &n);
    uint64_t off = 1024, offs[6], cnt[6] = {NIC, NH, NL, NA, NB1, NB2};
    for (int k = 0; k < 6; k++) {
        offs[k] = off;
        off = (off + cnt[k] * (k == 5 ? 192 : 96) + 63) / 64 * 64;
    }
    CHECK(f && n == off);
    CHECK(memcmp(f, "CUZKPKC", 8) == 0 && f[8] == 1 && f[12] == 128 && f[16] == 96 && f[20] == 192);
    CHECK(f[32] == NH && f[40] == NL && f[64] == NB2 && f[72] == 1);
    CHECK(memcmp(f + 128, &pk.vk.alpha_g1, 96) == 0 && memcmp(f + 448 + 192, &pk.vk.gamma_g2, 192) == 0);
    CHECK(memcmp(f + offs[0], pk.vk.ic, NIC * 96) == 0 && memcmp(f + offs[3], pk.a, NA * 96) == 0);
    CHECK(memcmp(f + offs[5], pk.b_g2, NB2 * 192) == 0);
    /* checksum: XXH64 of payload then header bytes 0..95, vk tag of the vk bytes */
    cz_hash64_state h;
    cz_hash64_init(&h, 0);
    cz_hash64_update(&h, f + 128, n - 128);
    cz_hash64_update(&h, f, 96);
    uint64_t sum = cz_hash64_final(&h), stored = 0, tag = 0, ptag;
    for (int i = 0; i < 8; i++) stored |= (uint64_t)f[96 + i] << (8 * i), tag |= (uint64_t)f[80 + i] << (8 * i);
    CHECK(sum == stored);
    CHECK(cz_pkcache_params_tag(&ptag, ppath, msg, sizeof msg) == CZ_OK && ptag == tag);
    size_t pn;
    uint8_t *pf = slurp(ppath, &pn);
    CHECK(pf && tag == cz_hash64(pf, OFF_NH, 0));
    free(pf);

    /* open (mapped) and load (heap) */
    cz_pkcache_info info;
    for (int v = 0; v < 2; v++) {
        CHECK_MSG(cz_pkcache_open(&q, &info, cpath, v, msg, sizeof msg) == CZ_OK, "%s", msg);
        CHECK(pk_equal(&pk, &q) && q.map != NULL && q.map_len == n);
        CHECK((uint8_t *)q.h == (uint8_t *)q.map + offs[1] && (uint8_t *)q.b_g2 == (uint8_t *)q.map + offs[5]);
        CHECK(((uintptr_t)q.l & 63) == 0 && ((uintptr_t)q.b_g1 & 63) == 0);
        CHECK(q.vk.ic != NULL && (uint8_t *)q.vk.ic != (uint8_t *)q.map + offs[0]);
        CHECK(info.flags == 1 && info.vk_tag == tag && info.n_b_g2 == NB2 && info.size == n);
        cz_groth16_pk_free(&q);
        CHECK(cz_pkcache_load_mem(&q, NULL, f, n, v, msg, sizeof msg) == CZ_OK && pk_equal(&pk, &q) && !q.map);
        cz_groth16_pk_free(&q);
    }
    CHECK(cz_pkcache_peek(&info, cpath, msg, sizeof msg) == CZ_OK && info.n_h == NH);
    /* convert straight from the .params: same bytes except the flag */
    CHECK(cz_pkcache_convert(cpath2, ppath, 0, pool, msg, sizeof msg) == CZ_OK);
    size_t n2;
    uint8_t *f2 = slurp(cpath2, &n2);
    CHECK(f2 && n2 == n && f2[72] == 0 && memcmp(f2 + 128, f + 128, n - 128) == 0);
    free(f2);

    /* every truncation refused; a byte more refused */
    int all = 1;
    for (size_t k = 0; k < n; k++) {
        cz_err e = cz_pkcache_load_mem(&q, NULL, f, k, 0, msg, sizeof msg);
        if (e == CZ_OK || q.h) all = 0;
    }
    CHECK(all);
    uint8_t *b = malloc(n + 64);
    memcpy(b, f, n);
    b[n] = 0;
    CHECK(cz_pkcache_load_mem(&q, NULL, b, n + 1, 0, msg, sizeof msg) == CZ_ERR_LENGTH);
    /* a payload bit flip: caught by the checksum, unnoticed without it */
    b[offs[2] + 17] ^= 0x10;
    CHECK(cz_pkcache_load_mem(&q, NULL, b, n, 1, msg, sizeof msg) == CZ_ERR_PARSE && strstr(msg, "checksum"));
    CHECK(cz_pkcache_load_mem(&q, NULL, b, n, 0, msg, sizeof msg) == CZ_OK);
    cz_groth16_pk_free(&q);
    memcpy(b, f, n);
    /* lying counts: huge, 2^32, one more; refused before any allocation */
    const uint64_t bad[4] = {UINT64_MAX, (uint64_t)1 << 32, (uint64_t)UINT32_MAX, 0};
    for (int k = 0; k < 6; k++)
        for (int v = 0; v < 4; v++) {
            uint64_t val = v == 3 ? cnt[k] + 1 : bad[v];
            for (int i = 0; i < 8; i++) b[24 + 8 * k + i] = (uint8_t)(val >> (8 * i));
            cz_err e = cz_pkcache_load_mem(&q, NULL, b, n, 0, msg, sizeof msg);
            CHECK_MSG(e == CZ_ERR_LENGTH || e == CZ_ERR_PARSE, "count %d: %d %s", k, e, msg);
            memcpy(b, f, n);
        }
    /* header fields */
    b[0] ^= 1;
    CHECK(cz_pkcache_load_mem(&q, NULL, b, n, 0, msg, sizeof msg) == CZ_ERR_PARSE);
    memcpy(b, f, n);
    b[8] = 2;
    CHECK(cz_pkcache_load_mem(&q, NULL, b, n, 0, msg, sizeof msg) == CZ_ERR_UNSUPPORTED);
    memcpy(b, f, n);
    b[72] = 2;
    CHECK(cz_pkcache_load_mem(&q, NULL, b, n, 0, msg, sizeof msg) == CZ_ERR_PARSE);
    memcpy(b, f, n);
    b[120] = 1; /* reserved */
    CHECK(cz_pkcache_load_mem(&q, NULL, b, n, 1, msg, sizeof msg) == CZ_ERR_PARSE);
    memcpy(b, f, n);
    b[88] ^= 64;
    CHECK(cz_pkcache_load_mem(&q, NULL, b, n, 0, msg, sizeof msg) == CZ_ERR_LENGTH);
    /* a truncated file on disk */
    spit(cpath2, f, n - 1);
    CHECK(cz_pkcache_open(&q, NULL, cpath2, 0, msg, sizeof msg) == CZ_ERR_LENGTH && q.map == NULL);
    CHECK(strstr(msg, cpath2) != NULL);
    free(b);
    free(f);
    unlink(ppath);
    unlink(cpath);
    unlink(cpath2);
    cz_groth16_pk_free(&pk);
}

/* end to end with a real (insecure-setup) key: a proof made from the key read
 * back from .params, and from the mapped pk cache, verifies against the .vk
 * read back, also after going through a proof file */
static void test_end_to_end(cz_rng *rng, cz_pool *pool)
{
    char msg[256], ppath[128], vpath[128], cpath[128], prpath[128];
    snprintf(ppath, sizeof ppath, "%s/e.params", dir);
    snprintf(vpath, sizeof vpath, "%s/e.vk", dir);
    snprintf(cpath, sizeof cpath, "%s/e.pkc", dir);
    snprintf(prpath, sizeof prpath, "%s/e.proof", dir);
    /* x_i in {0, 1} (i < 16), and input_1 = sum 2^i x_i */
    enum { NB = 16 };
    cz_fr one, minus, pw, t, w[2 + NB];
    cz_fr_one(&one);
    cz_fr_neg(&minus, &one);
    cz_fr_one(&w[0]);
    cz_fr_zero(&w[1]);
    cz_fr_one(&pw);
    cz_r1cs_builder *b;
    CHECK(cz_r1cs_builder_new(&b, 2, NB) == CZ_OK);
    for (int i = 0; i < NB; i++) {
        cz_fr_from_u64(&w[2 + i], cz_rng_u64(rng) & 1);
        cz_r1cs_builder_term(b, CZ_A, 2 + i, &one);
        cz_r1cs_builder_term(b, CZ_B, 0, &one);
        cz_r1cs_builder_term(b, CZ_B, 2 + i, &minus);
        cz_r1cs_builder_end_constraint(b);
    }
    for (int i = 0; i < NB; i++) {
        cz_r1cs_builder_term(b, CZ_A, 2 + i, &pw);
        cz_fr_mul(&t, &pw, &w[2 + i]);
        cz_fr_add(&w[1], &w[1], &t);
        cz_fr_dbl(&pw, &pw);
    }
    cz_r1cs_builder_term(b, CZ_B, 0, &one);
    cz_r1cs_builder_term(b, CZ_C, 1, &one);
    cz_r1cs_builder_end_constraint(b);
    cz_r1cs cs;
    CHECK(cz_r1cs_builder_finish(b, &cs) == CZ_OK);
    cz_groth16_pk pk, q, m;
    CHECK_MSG(cz_groth16_setup_insecure(&pk, &cs, 7, pool, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(cz_params_write(ppath, &pk, msg, sizeof msg) == CZ_OK);
    CHECK(cz_vk_write(vpath, &pk.vk, msg, sizeof msg) == CZ_OK);
    CHECK_MSG(cz_params_read(&q, ppath, 1, pool, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(pk_equal(&pk, &q));
    CHECK(cz_pkcache_convert(cpath, ppath, 1, pool, msg, sizeof msg) == CZ_OK);
    CHECK(cz_pkcache_open(&m, NULL, cpath, 1, msg, sizeof msg) == CZ_OK && m.map);
    cz_groth16_vk vk;
    CHECK(cz_vk_read(&vk, vpath, pool, msg, sizeof msg) == CZ_OK);
    cz_groth16_pvk pvk;
    CHECK(cz_groth16_prepare_vk(&pvk, &vk) == CZ_OK);
    cz_fr r, s;
    cz_fr_random(&r, rng);
    cz_fr_random(&s, rng);
    cz_groth16_proof pr[2];
    CHECK_MSG(cz_groth16_prove(&pr[0], &q, &cs, w, &r, &s, pool, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK_MSG(cz_groth16_prove(&pr[1], &m, &cs, w, &r, &s, pool, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(cz_r1cs_is_satisfied(&cs, w, NULL, NULL));
    uint8_t e0[192], e1[192];
    cz_proof_encode(e0, &pr[0]);
    cz_proof_encode(e1, &pr[1]);
    CHECK(memcmp(e0, e1, 192) == 0); /* same key, same r, s: same proof */
    CHECK(cz_proofs_write(prpath, pr, 2, msg, sizeof msg) == CZ_OK);
    cz_groth16_proof *rd;
    size_t n;
    CHECK(cz_proofs_read(&rd, &n, prpath, msg, sizeof msg) == CZ_OK && n == 2);
    CHECK(n == 2 && cz_groth16_verify(&pvk, &rd[0], &w[1], 1) == 1 && cz_groth16_verify(&pvk, &rd[1], &w[1], 1) == 1);
    cz_fr wrong;
    cz_fr_add(&wrong, &w[1], &one);
    CHECK(n == 2 && cz_groth16_verify(&pvk, &rd[0], &wrong, 1) == 0);
    free(rd);
    cz_groth16_pvk_free(&pvk);
    cz_groth16_vk_free(&vk);
    cz_groth16_pk_free(&m);
    cz_groth16_pk_free(&q);
    cz_groth16_pk_free(&pk);
    cz_r1cs_free(&cs);
    unlink(ppath);
    unlink(vpath);
    unlink(cpath);
    unlink(prpath);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_formats", 11));
    cz_pool *pool;
    CHECK(cz_pool_create(&pool, 3) == CZ_OK);
    snprintf(dir, sizeof dir, "/tmp/cuzk_fmt_XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    test_params(&rng, pool);
    test_proofs(&rng);
    test_pkcache(&rng, pool);
    test_end_to_end(&rng, pool);
    rmdir(dir);
    cz_pool_destroy(pool);
    return cz_test_finish("test_formats");
}
