/* test_zkey.c — the snarkjs interop path against files made by snarkjs and
 * circom (tests/data/snarkjs, see its README): .zkey / .wtns / .r1cs readers,
 * the snarkjs-exact prover, the snarkjs JSON readers and writers.
 *
 * References are independent of our code: the counts circom printed, the
 * circuit's input.json, the r1cs file's plain coefficients (against the
 * zkey's R^2-scaled ones), snarkjs's own proof.json / public.json bytes and
 * verification_key.json, and GMP for the decimal conversion. Bad input:
 * every truncation, sections moved or repeated, a BN254 or unknown prime,
 * points off the curve / outside the subgroup, out-of-range coefficients,
 * non-canonical JSON numbers. */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "formats/decimal.h"
#include "formats/public_json.h"
#include "formats/r1cs_file.h"
#include "formats/snarkjs_json.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "formats/zkey_export.h"
#include "r1cs/pce.h"
#include "circuits/synth.h"
#include <unistd.h>
#include "groth16/groth16.h"

static cz_fr one_fr;

static char *path(const char *name)
{
    static char buf[4096];
    const char *f = __FILE__, *slash = strrchr(f, '/');
    int n = slash ? (int)(slash - f) : 1;
    snprintf(buf, sizeof buf, "%.*s/data/snarkjs/%s", n, slash ? f : ".", name);
    return buf;
}

static uint8_t *slurp(const char *name, size_t *len)
{
    FILE *f = fopen(path(name), "rb");
    if (!f) { fprintf(stderr, "cannot open %s\n", path(name)); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) exit(2);
    fclose(f);
    b[n] = 0;
    *len = (size_t)n;
    return b;
}

static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void set_le32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

/* offset of the data of section id in an iden3 file (first occurrence) */
static size_t sec_off(const uint8_t *b, size_t len, uint32_t id, uint64_t *size)
{
    size_t at = 12;
    while (at + 12 <= len) {
        uint64_t s = le64(b + at + 4);
        if (le32(b + at) == id) { if (size) *size = s; return at + 12; }
        at += 12 + s;
    }
    return 0;
}

/* BN254's q and r, little-endian (from their published decimal values via GMP) */
static void prime_le(uint8_t *out, size_t n8, const char *dec)
{
    mpz_t z;
    mpz_init_set_str(z, dec, 10);
    memset(out, 0, n8);
    mpz_export(out, NULL, -1, 1, -1, 0, z);
    mpz_clear(z);
}
static const char *BN254_Q = "21888242871839275222246405745257275088696311157297823662689037894645226208583";
static const char *BN254_R = "21888242871839275222246405745257275088548364400416034343698204186575808495617";

static char *replace_first(const char *text, const char *old, const char *new_)
{
    const char *at = strstr(text, old);
    if (!at) return NULL;
    size_t a = (size_t)(at - text), lo = strlen(old), ln = strlen(new_), lt = strlen(text);
    char *r = malloc(lt - lo + ln + 1);
    memcpy(r, text, a);
    memcpy(r + a, new_, ln);
    memcpy(r + a + ln, at + lo, lt - a - lo + 1);
    return r;
}

static void test_decimal_fp(cz_rng *rng)
{
    mpz_t z;
    mpz_init(z);
    for (int i = 0; i < 200; i++) {
        cz_fp a, plain, back;
        cz_fp_random(&a, rng);
        if (i == 0) cz_fp_zero(&a);
        char d[CZ_FP_DECIMAL_MAX];
        size_t n = cz_fp_to_decimal(d, &a);
        cz_fp_from_mont(&plain, &a);
        mpz_import(z, CZ_FP_LIMBS, -1, 8, 0, 0, plain.l);
        char *g = mpz_get_str(NULL, 10, z);
        CHECK(!strcmp(d, g) && n == strlen(g));
        CHECK(cz_fp_from_decimal(&back, g, strlen(g)) == CZ_OK && cz_fp_eq(&back, &a));
        free(g);
    }
    /* p itself, p + 1 and a leading zero are refused */
    mpz_import(z, CZ_FP_LIMBS, -1, 8, 0, 0, cz_fp_modulus.l);
    char *p = mpz_get_str(NULL, 10, z);
    cz_fp x;
    CHECK(cz_fp_from_decimal(&x, p, strlen(p)) == CZ_ERR_NONCANONICAL);
    mpz_sub_ui(z, z, 1);
    char *pm1 = mpz_get_str(NULL, 10, z);
    CHECK(cz_fp_from_decimal(&x, pm1, strlen(pm1)) == CZ_OK);
    CHECK(cz_fp_from_decimal(&x, "012", 3) == CZ_ERR_PARSE);
    CHECK(cz_fp_from_decimal(&x, "0x12", 4) == CZ_ERR_PARSE);
    free(p);
    free(pm1);
    mpz_clear(z);
}

static void test_readers(cz_zkey *zk, cz_fr **w, cz_r1cs *cs)
{
    char msg[600];
    CHECK_MSG(cz_zkey_open(zk, path("chain.zkey"), NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    /* circom: 45 wires, 2 outputs + 1 public input; 42 constraints + 4 input rows -> 2^6 */
    CHECK(zk->pk.n_vars == 45 && zk->pk.n_public == 3 && zk->pk.log_domain == 6);
    CHECK(zk->pk.vk.n_ic == 4 && zk->pk.qap.n_constraints == 64 && zk->n_constraints_used == 46);
    uint64_t n = 0;
    CHECK_MSG(cz_wtns_read(w, &n, path("chain.wtns"), msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(n == 45);
    /* input.json: x = 3 (signal 4), y = 12345678901234567890 (signal 3) */
    cz_fr y, x;
    CHECK(cz_fr_from_decimal(&y, "12345678901234567890", 20) == CZ_OK);
    cz_fr_from_u64(&x, 3);
    CHECK(cz_fr_eq(&(*w)[3], &y) && cz_fr_eq(&(*w)[4], &x));
    /* snarkjs's public.json holds signals 1..3 */
    cz_fr *pub;
    size_t np;
    CHECK(cz_public_json_read(&pub, &np, path("public.json"), msg, sizeof msg) == CZ_OK && np == 3);
    for (size_t i = 0; i < np && i < 3; i++) CHECK(cz_fr_eq(&pub[i], &(*w)[i + 1]));
    free(pub);
    cz_r1cs_file_info fi;
    CHECK_MSG(cz_r1cs_file_read(cs, &fi, path("chain.r1cs"), msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(fi.n_wires == 45 && fi.n_outputs == 2 && fi.n_pub_inputs == 1 && fi.n_prv_inputs == 1 &&
          fi.n_constraints == 42);
    CHECK(cs->n_vars == 45 && cs->n_inputs == 4 && cs->n_constraints == 42);
    uint64_t bad = 99;
    CHECK(cz_r1cs_is_satisfied(cs, *w, &bad, NULL));
    cz_fr keep = (*w)[10];
    cz_fr_add(&(*w)[10], &(*w)[10], &x);
    CHECK(!cz_r1cs_is_satisfied(cs, *w, &bad, NULL) && bad < 42);
    (*w)[10] = keep;

    /* the zkey's A and B rows (R^2-scaled coefficients) against the r1cs's
     * plain ones; rows 42..45 are snarkjs's input rows: a = w_i, b = 0 */
    cz_fr a1[64], b1[64], a2[42], b2[42];
    cz_r1cs_spmv(&zk->pk.qap, *w, a1, b1, NULL, NULL);
    cz_r1cs_spmv(cs, *w, a2, b2, NULL, NULL);
    int same = 1;
    for (int i = 0; i < 42; i++) same &= cz_fr_eq(&a1[i], &a2[i]) && cz_fr_eq(&b1[i], &b2[i]);
    for (int i = 0; i < 4; i++) same &= cz_fr_eq(&a1[42 + i], &(*w)[i]) && cz_fr_is_zero(&b1[42 + i]);
    for (int i = 46; i < 64; i++) same &= cz_fr_is_zero(&a1[i]) && cz_fr_is_zero(&b1[i]);
    CHECK(same);

    /* the zkey's vk equals snarkjs's exported verification_key.json */
    cz_groth16_vk vk;
    CHECK_MSG(cz_snarkjs_vk_read(&vk, path("verification_key.json"), msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(vk.n_ic == 4 && cz_g1_aff_eq(&vk.alpha_g1, &zk->pk.vk.alpha_g1) &&
          cz_g2_aff_eq(&vk.beta_g2, &zk->pk.vk.beta_g2) && cz_g2_aff_eq(&vk.gamma_g2, &zk->pk.vk.gamma_g2) &&
          cz_g2_aff_eq(&vk.delta_g2, &zk->pk.vk.delta_g2));
    for (size_t i = 0; i < 4 && i < vk.n_ic; i++) CHECK(cz_g1_aff_eq(&vk.ic[i], &zk->pk.vk.ic[i]));
    cz_groth16_vk_free(&vk);
    /* and our encoder writes snarkjs's exact bytes, vk_alphabeta_12 = e(alpha, beta) included */
    {
        size_t vl, el;
        char *vt = (char *)slurp("verification_key.json", &vl), *enc;
        CHECK(cz_snarkjs_vk_encode(&enc, &el, &zk->pk.vk) == CZ_OK && el == vl && !memcmp(enc, vt, vl));
        free(enc);
        free(vt);
    }

    /* the in-memory loader (copies) gives the same key */
    size_t len;
    uint8_t *b = slurp("chain.zkey", &len);
    cz_zkey z2;
    CHECK(cz_zkey_load_mem(&z2, b, len, NULL, msg, sizeof msg) == CZ_OK);
    CHECK(!memcmp(z2.pk.h, zk->pk.h, 64 * sizeof(cz_g1_aff)) && !memcmp(z2.pk.b_g2, zk->pk.b_g2, 45 * sizeof(cz_g2_aff)));
    cz_zkey_close(&z2);
    free(b);
}

static void test_prove_verify(const cz_zkey *zk, const cz_fr *w, cz_rng *rng)
{
    char msg[600];
    size_t len;
    cz_groth16_vk vk;
    cz_groth16_pvk pvk;
    CHECK(cz_snarkjs_vk_read(&vk, path("verification_key.json"), msg, sizeof msg) == CZ_OK);
    CHECK(cz_groth16_prepare_vk(&pvk, &vk) == CZ_OK);

    /* ours, verified against snarkjs's verification key */
    for (int k = 0; k < 2; k++) {
        cz_fr r, s;
        cz_fr_random(&r, rng);
        cz_fr_random(&s, rng);
        cz_groth16_proof pr;
        CHECK_MSG(cz_groth16_prove_zkey(&pr, &zk->pk, w, &r, &s, NULL, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
        CHECK(cz_groth16_verify(&pvk, &pr, w + 1, 3));
        cz_fr bad[3] = {w[1], w[2], w[3]};
        cz_fr_add(&bad[2], &bad[2], &w[0]);
        CHECK(!cz_groth16_verify(&pvk, &pr, bad, 3));
        /* JSON round trip */
        char *t;
        cz_groth16_proof back;
        CHECK(cz_snarkjs_proof_encode(&t, &len, &pr) == CZ_OK);
        CHECK(cz_snarkjs_proof_parse(&back, t, len, msg, sizeof msg) == CZ_OK);
        CHECK(!memcmp(&back, &pr, sizeof pr));
        free(t);
    }
    /* an unsatisfying witness gives a proof that does not verify */
    {
        cz_fr *w2 = malloc(45 * sizeof *w2), r, s;
        memcpy(w2, w, 45 * sizeof *w2);
        cz_fr_add(&w2[20], &w2[20], &w2[0]);
        cz_fr_random(&r, rng);
        cz_fr_random(&s, rng);
        cz_groth16_proof pr;
        CHECK(cz_groth16_prove_zkey(&pr, &zk->pk, w2, &r, &s, NULL, NULL, msg, sizeof msg) == CZ_OK);
        CHECK(!cz_groth16_verify(&pvk, &pr, w2 + 1, 3));
        free(w2);
    }

    /* snarkjs's proof verifies with ours; our encoders reproduce snarkjs's bytes */
    char *text = (char *)slurp("proof.json", &len), *enc;
    cz_groth16_proof sp;
    CHECK_MSG(cz_snarkjs_proof_parse(&sp, text, len, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(cz_groth16_verify(&pvk, &sp, w + 1, 3));
    size_t elen;
    CHECK(cz_snarkjs_proof_encode(&enc, &elen, &sp) == CZ_OK && elen == len && !memcmp(enc, text, len));
    free(enc);
    size_t plen;
    char *ptext = (char *)slurp("public.json", &plen);
    CHECK(cz_snarkjs_public_encode(&enc, &elen, w + 1, 3) == CZ_OK && elen == plen && !memcmp(enc, ptext, plen));
    free(enc);
    free(ptext);

    /* tampered: swap pi_a for ours (-pi_a) -> still decodes, does not verify */
    cz_groth16_proof tp = sp;
    cz_g1_aff_neg(&tp.a, &sp.a);
    CHECK(!cz_groth16_verify(&pvk, &tp, w + 1, 3));

    /* strict JSON: take snarkjs's proof text and break one number at a time */
    char xs[CZ_FP_DECIMAL_MAX], bad[CZ_FP_DECIMAL_MAX + 8];
    cz_fp_to_decimal(xs, &sp.a.x);
    struct { const char *repl; cz_err want; } cases[] = {
        {"0%s", CZ_ERR_PARSE},                 /* leading zero */
        {"0x%s", CZ_ERR_PARSE},                /* hex prefix */
        {"-%s", CZ_ERR_PARSE},                 /* sign */
        {"%s1", CZ_ERR_NONCANONICAL},          /* >= p (116 digits) */
        {"1", CZ_ERR_NOT_ON_CURVE},            /* x = 1: off the curve for this y */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(bad, sizeof bad, cases[i].repl, xs);
        char *t = replace_first(text, xs, bad);
        cz_groth16_proof o;
        cz_err e = cz_snarkjs_proof_parse(&o, t, strlen(t), msg, sizeof msg);
        CHECK_MSG(e == cases[i].want, "case %zu: got %d (%s)", i, e, msg);
        CHECK(strstr(msg, "pi_a") != NULL);
        free(t);
    }
    /* x + p reduces to the same point in snarkjs; we refuse it */
    {
        mpz_t z, p;
        mpz_init_set_str(z, xs, 10);
        mpz_init(p);
        mpz_import(p, CZ_FP_LIMBS, -1, 8, 0, 0, cz_fp_modulus.l);
        mpz_add(z, z, p);
        char *big = mpz_get_str(NULL, 10, z);
        char *t = replace_first(text, xs, big);
        cz_groth16_proof o;
        CHECK(cz_snarkjs_proof_parse(&o, t, strlen(t), msg, sizeof msg) == CZ_ERR_NONCANONICAL);
        free(t); free(big);
        mpz_clear(z); mpz_clear(p);
    }
    /* a point on the curve but outside the subgroup */
    {
        cz_g1_aff q;
        for (uint64_t xi = 1;; xi++) {
            cz_fp rhs, four;
            cz_fp_from_u64(&q.x, xi);
            cz_fp_sqr(&rhs, &q.x);
            cz_fp_mul(&rhs, &rhs, &q.x);
            cz_fp_from_u64(&four, 4);
            cz_fp_add(&rhs, &rhs, &four);
            if (cz_fp_sqrt(&q.y, &rhs) && !cz_g1_aff_in_subgroup(&q)) break;
        }
        char qx[CZ_FP_DECIMAL_MAX], qy[CZ_FP_DECIMAL_MAX], ys[CZ_FP_DECIMAL_MAX];
        cz_fp_to_decimal(qx, &q.x);
        cz_fp_to_decimal(qy, &q.y);
        cz_fp_to_decimal(ys, &sp.a.y);
        char *t1 = replace_first(text, xs, qx), *t2 = replace_first(t1, ys, qy);
        cz_groth16_proof o;
        CHECK(cz_snarkjs_proof_parse(&o, t2, strlen(t2), msg, sizeof msg) == CZ_ERR_NOT_IN_SUBGROUP);
        free(t1); free(t2);
    }
    /* shape and names */
    {
        const char *bad_texts[][2] = {
            {"\"groth16\"", "\"plonk\""},
            {"\"bls12381\"", "\"bn128\""},
            {"\"pi_c\"", "\"pi_a\""},          /* duplicate key, pi_c missing */
            {"\"pi_b\": [", "\"pi_b\": [[\"1\",\"0\"],"}, /* 4 elements */
            {"\"1\"\n ],\n \"pi_b\"", "\"2\"\n ],\n \"pi_b\""}, /* z = 2 */
        };
        cz_err want[] = {CZ_ERR_UNSUPPORTED, CZ_ERR_UNSUPPORTED, CZ_ERR_PARSE, CZ_ERR_PARSE, CZ_ERR_PARSE};
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            char *t = replace_first(text, bad_texts[i][0], bad_texts[i][1]);
            CHECK_MSG(t != NULL, "pattern %zu", i);
            if (!t) continue;
            cz_groth16_proof o;
            cz_err e = cz_snarkjs_proof_parse(&o, t, strlen(t), msg, sizeof msg);
            CHECK_MSG(e == want[i], "shape case %zu: got %d (%s)", i, e, msg);
            if (i == 1) CHECK(strstr(msg, "BN254") != NULL);
            free(t);
        }
        cz_groth16_proof o;
        CHECK(cz_snarkjs_proof_parse(&o, text, len - 1, msg, sizeof msg) == CZ_ERR_PARSE); /* cut */
    }
    /* vk JSON: wrong curve, IC count */
    {
        size_t vlen;
        char *vt = (char *)slurp("verification_key.json", &vlen);
        char *t = replace_first(vt, "\"bls12381\"", "\"bn128\"");
        cz_groth16_vk v2;
        CHECK(cz_snarkjs_vk_parse(&v2, t, strlen(t), msg, sizeof msg) == CZ_ERR_UNSUPPORTED && strstr(msg, "BN254"));
        free(t);
        t = replace_first(vt, "\"nPublic\": 3", "\"nPublic\": 4");
        CHECK(cz_snarkjs_vk_parse(&v2, t, strlen(t), msg, sizeof msg) == CZ_ERR_PARSE);
        free(t);
        free(vt);
    }
    free(text);
    cz_groth16_pvk_free(&pvk);
    cz_groth16_vk_free(&vk);
}

/* zkey -> bellperson params + PCE (generator 5): the bellperson-path prover
 * makes proofs that snarkjs's verification key accepts; with bellperson's
 * generator 7 they fail (the constraint placement differs) */
static void test_export(const cz_zkey *zk, const cz_fr *w, cz_rng *rng)
{
    char msg[600];
    cz_r1cs cs;
    cz_groth16_pk pk;
    cz_groth16_vk vk;
    cz_groth16_pvk pvk;
    CHECK(cz_r1cs_file_read(&cs, NULL, path("chain.r1cs"), msg, sizeof msg) == CZ_OK);
    CHECK_MSG(cz_zkey_to_params(&pk, zk, &cs, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(cs.ntt_generator == 5 && pk.n_h == 63 && pk.n_l == 41 && pk.vk.n_ic == 4);
    CHECK(cz_snarkjs_vk_read(&vk, path("verification_key.json"), msg, sizeof msg) == CZ_OK);
    CHECK(cz_groth16_prepare_vk(&pvk, &vk) == CZ_OK);
    cz_fr r, s;
    cz_fr_random(&r, rng);
    cz_fr_random(&s, rng);
    cz_groth16_proof pr;
    CHECK_MSG(cz_groth16_prove(&pr, &pk, &cs, w, &r, &s, NULL, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(cz_groth16_verify(&pvk, &pr, w + 1, 3));
    cs.ntt_generator = 7;
    CHECK(cz_groth16_prove(&pr, &pk, &cs, w, &r, &s, NULL, NULL, msg, sizeof msg) == CZ_OK);
    CHECK(!cz_groth16_verify(&pvk, &pr, w + 1, 3));
    /* the generator survives a .pce round trip (version 2); 7 writes version 1 */
    char pce[64];
    snprintf(pce, sizeof pce, "/tmp/test_zkey_%d.pce", (int)getpid());
    for (int g = 5; g <= 7; g += 2) {
        cs.ntt_generator = (uint32_t)g;
        cz_r1cs back;
        CHECK(cz_pce_write(pce, &cs, msg, sizeof msg) == CZ_OK);
        FILE *f = fopen(pce, "rb");
        uint8_t hdr[12] = {0};
        CHECK(f && fread(hdr, 1, 12, f) == 12);
        if (f) fclose(f);
        CHECK(le32(hdr + 8) == (g == 5 ? 2u : 1u));
        CHECK_MSG(cz_pce_open(&back, pce, 1, msg, sizeof msg) == CZ_OK, "%s", msg);
        CHECK(back.ntt_generator == (g == 5 ? 5u : 0u));
        cz_pce_close(&back);
    }
    unlink(pce);
    /* the H change of basis, checked directly: sum_j h_j x_j over the
     * bellperson basis equals sum_i H_i y_i over the snarkjs one, where
     * y_i = -2 sum_j w^((2i+1)j) x_j (both are sum_j x_j tau^j t(tau)/delta) */
    {
        cz_fr x[63], y[64], w2n, one;
        cz_fr_one(&one);
        for (int j = 0; j < 63; j++) cz_fr_random(&x[j], rng);
        uint64_t e[4] = {cz_fr_modulus.l[0] - 1, cz_fr_modulus.l[1], cz_fr_modulus.l[2], cz_fr_modulus.l[3]};
        for (int k = 0; k < 7; k++) { for (int l = 0; l < 3; l++) e[l] = e[l] >> 1 | e[l + 1] << 63; e[3] >>= 1; }
        cz_fr_from_u64(&w2n, 5);
        cz_fr_pow(&w2n, &w2n, e, 4); /* 5^((r-1)/128): a primitive 128th root */
        for (int i = 0; i < 64; i++) {
            cz_fr pt, acc, pw;
            uint64_t ei = 2 * (uint64_t)i + 1;
            cz_fr_pow(&pt, &w2n, &ei, 1);
            cz_fr_zero(&acc);
            pw = one;
            for (int j = 0; j < 63; j++) {
                cz_fr t;
                cz_fr_mul(&t, &pw, &x[j]);
                cz_fr_add(&acc, &acc, &t);
                cz_fr_mul(&pw, &pw, &pt);
            }
            cz_fr_dbl(&acc, &acc);
            cz_fr_neg(&y[i], &acc);
        }
        cz_g1_jac s1, s2;
        cz_g1_set_inf(&s1);
        cz_g1_set_inf(&s2);
        for (int j = 0; j < 63; j++) {
            cz_g1_jac p, q;
            cz_fr pl;
            cz_g1_from_aff(&p, &pk.h[j]);
            cz_fr_from_mont(&pl, &x[j]);
            cz_g1_mul_dbl_add(&q, &p, pl.l, 255);
            cz_g1_add(&s1, &s1, &q);
        }
        for (int i = 0; i < 64; i++) {
            cz_g1_jac p, q;
            cz_fr pl;
            cz_g1_aff hi;
            memcpy(&hi, (const uint8_t *)zk->pk.h + i * sizeof hi, sizeof hi);
            cz_g1_from_aff(&p, &hi);
            cz_fr_from_mont(&pl, &y[i]);
            cz_g1_mul_dbl_add(&q, &p, pl.l, 255);
            cz_g1_add(&s2, &s2, &q);
        }
        CHECK(cz_g1_eq(&s1, &s2));
    }
    /* another circuit's r1cs is refused */
    cz_r1cs other;
    cz_r1cs_builder *b;
    CHECK(cz_r1cs_builder_new(&b, 4, 41) == CZ_OK);
    for (int i = 0; i < 42; i++) {
        CHECK(cz_r1cs_builder_term(b, CZ_A, 5, &one_fr) == CZ_OK);
        CHECK(cz_r1cs_builder_end_constraint(b) == CZ_OK);
    }
    CHECK(cz_r1cs_builder_finish(b, &other) == CZ_OK);
    cz_groth16_pk pk2;
    CHECK(cz_zkey_to_params(&pk2, zk, &other, NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG && strstr(msg, "not the same"));
    cz_r1cs_free(&other);
    cz_groth16_pvk_free(&pvk);
    cz_groth16_vk_free(&vk);
    cz_groth16_pk_free(&pk);
    cz_r1cs_free(&cs);
}

/* a synthetic zkey (no ceremony): insecure setup for a synth circuit with
 * roots from 5, written in snarkjs's layout, read back, proved with the zkey
 * prover, verified; converting it back to bellperson parameters gives the
 * setup's own points (the H change of basis round trip) */
static void test_synthetic(cz_rng *rng)
{
    char msg[600];
    cz_synth_params sp;
    cz_synth_params_init(&sp);
    sp.n_constraints = 1000; /* + 4 inputs -> domain 2^10 */
    sp.seed = cz_rng_u64(rng);
    cz_r1cs cs;
    cz_fr *w;
    CHECK_MSG(cz_synth_generate(&cs, &w, &sp, msg, sizeof msg) == CZ_OK, "%s", msg);
    cs.ntt_generator = 5;
    cz_groth16_pk pk, back;
    CHECK_MSG(cz_groth16_setup_insecure(&pk, &cs, cz_rng_u64(rng), NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    uint8_t *img;
    size_t len;
    CHECK_MSG(cz_zkey_encode_from_params(&img, &len, &pk, &cs, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    cz_zkey zk;
    CHECK_MSG(cz_zkey_load_mem(&zk, img, len, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(zk.pk.log_domain == 10 && zk.pk.n_vars == cs.n_vars && zk.pk.n_public + 1 == cs.n_inputs);
    cz_groth16_pvk pvk;
    CHECK(cz_groth16_prepare_vk(&pvk, &pk.vk) == CZ_OK);
    cz_fr r, s;
    cz_fr_random(&r, rng);
    cz_fr_random(&s, rng);
    cz_groth16_proof pr;
    CHECK_MSG(cz_groth16_prove_zkey(&pr, &zk.pk, w, &r, &s, NULL, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(cz_groth16_verify(&pvk, &pr, w + 1, cs.n_inputs - 1));
    /* and the bellperson path on the same key agrees */
    CHECK(cz_groth16_prove(&pr, &pk, &cs, w, &r, &s, NULL, NULL, msg, sizeof msg) == CZ_OK);
    CHECK(cz_groth16_verify(&pvk, &pr, w + 1, cs.n_inputs - 1));
    /* round trip */
    cs.ntt_generator = 0;
    CHECK_MSG(cz_zkey_to_params(&back, &zk, &cs, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(cs.ntt_generator == 5);
    CHECK(back.n_h == pk.n_h && !memcmp(back.h, pk.h, pk.n_h * sizeof *pk.h));
    CHECK(back.n_a == pk.n_a && !memcmp(back.a, pk.a, pk.n_a * sizeof *pk.a));
    CHECK(back.n_b_g2 == pk.n_b_g2 && !memcmp(back.b_g2, pk.b_g2, pk.n_b_g2 * sizeof *pk.b_g2));
    CHECK(back.n_l == pk.n_l && !memcmp(back.l, pk.l, pk.n_l * sizeof *pk.l));
    cz_groth16_pk_free(&back);
    cz_groth16_pvk_free(&pvk);
    cz_zkey_close(&zk);
    free(img);
    cz_groth16_pk_free(&pk);
    cz_r1cs_free(&cs);
    free(w);
}

/* every prefix of a file is refused */
static void truncations(const char *name, int which)
{
    size_t len;
    uint8_t *b = slurp(name, &len);
    char msg[600];
    int all = 1;
    for (size_t n = 0; n < len; n++) {
        uint8_t *c = malloc(n ? n : 1);
        memcpy(c, b, n);
        cz_err e;
        if (which == 0) {
            cz_zkey z;
            e = cz_zkey_load_mem(&z, c, n, NULL, msg, sizeof msg);
            if (!e) cz_zkey_close(&z);
        } else if (which == 1) {
            cz_fr *w;
            uint64_t nw;
            e = cz_wtns_parse(&w, &nw, c, n, msg, sizeof msg);
            if (!e) free(w);
        } else {
            cz_r1cs r;
            e = cz_r1cs_file_parse(&r, NULL, c, n, msg, sizeof msg);
            if (!e) cz_r1cs_free(&r);
        }
        if (e == CZ_OK) { all = 0; fprintf(stderr, "%s cut at %zu accepted\n", name, n); }
        free(c);
    }
    CHECK(all);
    free(b);
}

static cz_err zkey_mem(const uint8_t *b, size_t len, char *msg)
{
    cz_zkey z;
    cz_err e = cz_zkey_load_mem(&z, b, len, NULL, msg, 600);
    if (!e) cz_zkey_close(&z);
    return e;
}

static void test_bad_files(void)
{
    char msg[600];
    size_t len;
    uint8_t *b = slurp("chain.zkey", &len);
    uint8_t *c = malloc(len + 64);
    uint64_t s2size;
    size_t s2 = sec_off(b, len, 2, &s2size);

    /* BN254's q in place of BLS12-381's (n8q = 32 then: rebuild section 2) */
    memcpy(c, b, len);
    prime_le(c + s2 + 4, 48, BN254_Q);
    CHECK(zkey_mem(c, len, msg) == CZ_ERR_UNSUPPORTED && strstr(msg, "BN254"));
    memcpy(c, b, len);
    c[s2 + 4] ^= 2; /* an unknown q */
    CHECK(zkey_mem(c, len, msg) == CZ_ERR_UNSUPPORTED && strstr(msg, "not BLS12-381"));
    memcpy(c, b, len);
    prime_le(c + s2 + 4 + 48 + 4, 32, BN254_R); /* right q, wrong r */
    CHECK(zkey_mem(c, len, msg) == CZ_ERR_UNSUPPORTED && strstr(msg, "BN254"));
    /* protocol PLONK */
    memcpy(c, b, len);
    set_le32(c + sec_off(b, len, 1, NULL), 2);
    CHECK(zkey_mem(c, len, msg) == CZ_ERR_UNSUPPORTED && strstr(msg, "PLONK"));
    /* nVars one more than the sections hold */
    memcpy(c, b, len);
    set_le32(c + s2 + 4 + 48 + 4 + 32, 46);
    CHECK(zkey_mem(c, len, msg) != CZ_OK);
    /* domain size not a power of two */
    memcpy(c, b, len);
    set_le32(c + s2 + 4 + 48 + 4 + 32 + 8, 65);
    CHECK(zkey_mem(c, len, msg) == CZ_ERR_PARSE);
    /* a point of section 5 (A) off the curve; a coordinate >= q */
    memcpy(c, b, len);
    size_t s5 = sec_off(b, len, 5, NULL);
    int found = 0;
    for (size_t i = 0; i < 45 && !found; i++) { /* first non-infinity point */
        int zero = 1;
        for (int k = 0; k < 96; k++) zero &= b[s5 + 96 * i + k] == 0;
        if (zero) continue;
        c[s5 + 96 * i + 5] ^= 1;
        CHECK(zkey_mem(c, len, msg) == CZ_ERR_NOT_ON_CURVE && strstr(msg, "A point"));
        c[s5 + 96 * i + 5] ^= 1;
        memset(c + s5 + 96 * i, 0xff, 48);
        CHECK(zkey_mem(c, len, msg) == CZ_ERR_NONCANONICAL);
        found = 1;
    }
    CHECK(found);
    /* a coefficient naming signal 45 (there are 45), matrix 2, value r */
    uint64_t s4size;
    size_t s4 = sec_off(b, len, 4, &s4size);
    memcpy(c, b, len);
    set_le32(c + s4 + 4 + 8, 45);
    CHECK(zkey_mem(c, len, msg) == CZ_ERR_PARSE);
    memcpy(c, b, len);
    set_le32(c + s4 + 4, 2);
    CHECK(zkey_mem(c, len, msg) == CZ_ERR_PARSE);
    memcpy(c, b, len);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 8; k++) c[s4 + 4 + 12 + 8 * i + k] = (uint8_t)(cz_fr_modulus.l[i] >> (8 * k));
    CHECK(zkey_mem(c, len, msg) == CZ_ERR_NONCANONICAL);

    /* sections found by id: swap the A and B1 sections' positions (same size) */
    {
        size_t a5 = sec_off(b, len, 5, NULL) - 12, a6 = sec_off(b, len, 6, NULL) - 12;
        size_t sz = 12 + 45 * 96;
        memcpy(c, b, len);
        memcpy(c + a5, b + a6, sz);
        memcpy(c + a6, b + a5, sz);
        cz_zkey z1, z2;
        CHECK(cz_zkey_load_mem(&z1, b, len, NULL, msg, sizeof msg) == CZ_OK);
        CHECK(cz_zkey_load_mem(&z2, c, len, NULL, msg, sizeof msg) == CZ_OK);
        CHECK(!memcmp(z1.pk.a, z2.pk.a, 45 * 96) && !memcmp(z1.pk.b_g1, z2.pk.b_g1, 45 * 96));
        cz_zkey_close(&z1);
        cz_zkey_close(&z2);
        /* the same section twice: rename section 6 to 5 */
        set_le32(c + a5, 5);
        set_le32(c + a6, 5);
        CHECK(zkey_mem(c, len, msg) == CZ_ERR_PARSE && strstr(msg, "more than once"));
    }
    /* trailing byte, section count too large */
    memcpy(c, b, len);
    c[len] = 0;
    CHECK(zkey_mem(c, len + 1, msg) == CZ_ERR_LENGTH);
    set_le32(c + 8, 11);
    CHECK(zkey_mem(c, len, msg) != CZ_OK);
    free(b);
    free(c);

    /* wtns: BN254 r, unknown prime, value >= r, ONE != 1, count disagreeing with section 2 */
    b = slurp("chain.wtns", &len);
    c = malloc(len);
    cz_fr *w;
    uint64_t nw;
    size_t h = sec_off(b, len, 1, NULL), d = sec_off(b, len, 2, NULL);
    memcpy(c, b, len);
    prime_le(c + h + 4, 32, BN254_R);
    CHECK(cz_wtns_parse(&w, &nw, c, len, msg, sizeof msg) == CZ_ERR_UNSUPPORTED && strstr(msg, "BN254") && !w);
    memcpy(c, b, len);
    c[h + 4] ^= 4;
    CHECK(cz_wtns_parse(&w, &nw, c, len, msg, sizeof msg) == CZ_ERR_UNSUPPORTED);
    memcpy(c, b, len);
    memset(c + d + 32 * 7, 0xff, 32);
    CHECK(cz_wtns_parse(&w, &nw, c, len, msg, sizeof msg) == CZ_ERR_NONCANONICAL && strstr(msg, "value 7"));
    memcpy(c, b, len);
    c[d] = 2;
    CHECK(cz_wtns_parse(&w, &nw, c, len, msg, sizeof msg) == CZ_ERR_PARSE);
    memcpy(c, b, len);
    set_le32(c + h + 4 + 32, 46);
    CHECK(cz_wtns_parse(&w, &nw, c, len, msg, sizeof msg) == CZ_ERR_LENGTH);
    free(b);
    free(c);

    /* r1cs: BN254 r, wire out of range, custom gates section */
    b = slurp("chain.r1cs", &len);
    c = malloc(len + 12);
    cz_r1cs r;
    h = sec_off(b, len, 1, NULL);
    memcpy(c, b, len);
    prime_le(c + h + 4, 32, BN254_R);
    CHECK(cz_r1cs_file_parse(&r, NULL, c, len, msg, sizeof msg) == CZ_ERR_UNSUPPORTED && strstr(msg, "BN254"));
    memcpy(c, b, len);
    d = sec_off(b, len, 2, NULL);
    set_le32(c + d + 4, 45); /* wire of the first term of constraint 0's A */
    CHECK(cz_r1cs_file_parse(&r, NULL, c, len, msg, sizeof msg) == CZ_ERR_PARSE);
    memcpy(c, b, len);
    set_le32(c + 8, le32(b + 8) + 1);
    set_le32(c + len, 4);
    memset(c + len + 4, 0, 8);
    CHECK(cz_r1cs_file_parse(&r, NULL, c, len + 12, msg, sizeof msg) == CZ_ERR_UNSUPPORTED);
    free(b);
    free(c);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_zkey", 4));
    cz_zkey zk;
    cz_fr *w = NULL;
    cz_r1cs cs;
    test_decimal_fp(&rng);
    test_readers(&zk, &w, &cs);
    cz_fr_one(&one_fr);
    if (w && zk.pk.n_vars == 45) test_prove_verify(&zk, w, &rng);
    if (w && zk.pk.n_vars == 45) test_export(&zk, w, &rng);
    test_synthetic(&rng);
    test_bad_files();
    truncations("chain.zkey", 0);
    truncations("chain.wtns", 1);
    truncations("chain.r1cs", 2);
    cz_zkey_close(&zk);
    cz_r1cs_free(&cs);
    free(w);
    return cz_test_finish("test_zkey");
}
