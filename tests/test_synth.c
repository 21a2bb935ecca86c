/* test_synth.c — the synthetic circuit generator and its file formats.
 *
 * For several sizes and seeds: the witness satisfies the system; moving any
 * one variable off its value breaks it; the shape (non-zeros per constraint,
 * share of bit variables) is near its target; the same seed gives the same
 * files byte for byte and another seed different ones; witness_seed gives
 * another satisfying witness of the very same system, and cz_synth_witness
 * the same values without building it. witness.bin: round
 * trip and every class of rejection (length, counts, checksum, canonical
 * values, ONE). public.json and the decimal helpers: round trip, agreement
 * with GMP's decimal printing (and util/json reading our file), and the
 * strict reader's rejections. */
#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "circuits/synth.h"
#include "formats/decimal.h"
#include "formats/public_json.h"
#include "formats/witness.h"
#include "r1cs/pce.h"
#include "util/hash.h"
#include "util/json.h"

/* r, published (BLS12-381 scalar field order), decimal and r - 1 */
static const char R_DEC[] = "52435875175126190479447740508185965837690552500527637822603658699938581184513";
static const char RM1_DEC[] = "52435875175126190479447740508185965837690552500527637822603658699938581184512";
/* r as 32 little-endian bytes, from its published hex
 * 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001 */
static const char R_HEX[] = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

static char tmpdir[64];

static uint8_t *slurp(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len + 1);
    if (fread(b, 1, (size_t)len, f) != (size_t)len) { free(b); b = NULL; }
    fclose(f);
    *n = (size_t)len;
    return b;
}

static void spit(const char *p, const uint8_t *b, size_t n)
{
    FILE *f = fopen(p, "wb");
    if (!f) return;
    fwrite(b, 1, n, f);
    fclose(f);
}

static int same_file(const char *a, const char *b)
{
    size_t na, nb;
    uint8_t *x = slurp(a, &na), *y = slurp(b, &nb);
    int same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

static void path_in(char *out, size_t n, const char *sub, const char *name)
{
    snprintf(out, n, "%s/%s%s", tmpdir, sub, name);
}

/* write the three files of one circuit under tmpdir/<sub> */
static void write_all(const char *sub, const cz_r1cs *r, const cz_fr *w)
{
    char p[256], msg[256];
    snprintf(p, sizeof p, "%s/%s", tmpdir, sub);
    mkdir(p, 0755);
    path_in(p, sizeof p, sub, "/circuit.pce");
    CHECK_MSG(cz_pce_write(p, r, msg, sizeof msg) == CZ_OK, "%s", msg);
    path_in(p, sizeof p, sub, "/witness.bin");
    CHECK_MSG(cz_witness_write(p, w, r->n_vars, r->n_inputs, msg, sizeof msg) == CZ_OK, "%s", msg);
    path_in(p, sizeof p, sub, "/public.json");
    CHECK_MSG(cz_public_json_write(p, w + 1, r->n_inputs - 1, msg, sizeof msg) == CZ_OK, "%s", msg);
}

static void remove_all(const char *sub)
{
    const char *names[] = {"/circuit.pce", "/witness.bin", "/public.json"};
    char p[256];
    for (int i = 0; i < 3; i++) {
        path_in(p, sizeof p, sub, names[i]);
        unlink(p);
    }
    snprintf(p, sizeof p, "%s/%s", tmpdir, sub);
    rmdir(p);
}

static void check_circuit(uint64_t n, uint64_t seed, cz_rng *rng, cz_pool *pool)
{
    cz_synth_params p;
    cz_synth_params_init(&p);
    p.n_constraints = n;
    p.seed = seed;
    cz_r1cs r;
    cz_fr *w;
    char msg[256];
    cz_err e = cz_synth_generate(&r, &w, &p, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "N=%llu: %s", (unsigned long long)n, msg);
    if (e) return;
    CHECK(r.n_constraints == n);
    CHECK(r.n_inputs == 1 + CZ_SYNTH_DEFAULT_PUBLIC);
    CHECK(cz_fr_is_one(&w[0]));

    /* satisfied, and every variable is used somewhere */
    uint64_t bad = 0;
    CHECK_MSG(cz_r1cs_is_satisfied(&r, w, &bad, pool), "N=%llu seed %llu: row %llu fails", (unsigned long long)n,
              (unsigned long long)seed, (unsigned long long)bad);
    size_t words = (r.n_vars + 63) / 64;
    uint64_t *bits = malloc(words * 8), *any = calloc(words, 8);
    for (int m = 0; m < 3; m++) {
        cz_r1cs_density(&r, m, bits);
        for (size_t i = 0; i < words; i++) any[i] |= bits[i];
    }
    uint64_t used = 0;
    for (size_t i = 0; i < words; i++) used += (uint64_t)__builtin_popcountll(any[i]);
    CHECK_MSG(used == r.n_vars, "N=%llu: %llu of %llu variables used", (unsigned long long)n,
              (unsigned long long)used, (unsigned long long)r.n_vars);
    free(bits);
    free(any);

    /* moving one variable (other than ONE) off its value breaks the system:
     * all of them for small N, a random sample otherwise */
    uint64_t tries = r.n_vars <= 1100 ? r.n_vars - 1 : 40, broke = 0;
    for (uint64_t t = 0; t < tries; t++) {
        uint64_t v = r.n_vars <= 1100 ? 1 + t : 1 + cz_rng_u64(rng) % (r.n_vars - 1);
        cz_fr keep = w[v], d;
        do cz_fr_random(&d, rng);
        while (cz_fr_is_zero(&d));
        cz_fr_add(&w[v], &w[v], &d);
        broke += !cz_r1cs_is_satisfied(&r, w, NULL, pool);
        w[v] = keep;
    }
    CHECK_MSG(broke == tries, "N=%llu: only %llu of %llu changed variables break it", (unsigned long long)n,
              (unsigned long long)broke, (unsigned long long)tries);
    CHECK(cz_r1cs_is_satisfied(&r, w, NULL, pool));

    /* shape */
    double a = (double)r.m[CZ_A].nnz / n, b = (double)r.m[CZ_B].nnz / n, c = (double)r.m[CZ_C].nnz / n;
    double tol = n >= 65536 ? 0.05 : 0.2;
    if (n >= 1000) {
        CHECK_MSG(fabs(a - 2.4) <= tol && fabs(b - 1.0) <= tol && fabs(c - 2.2) <= tol,
                  "N=%llu: nnz per constraint %.3f/%.3f/%.3f", (unsigned long long)n, a, b, c);
    }
    uint64_t nbits = 0, n_aux = r.n_vars - r.n_inputs;
    for (uint64_t v = r.n_inputs; v < r.n_vars; v++) nbits += cz_fr_is_zero(&w[v]) || cz_fr_is_one(&w[v]);
    CHECK_MSG(nbits * 10 >= n_aux * 8, "N=%llu: %llu of %llu aux values are bits", (unsigned long long)n,
              (unsigned long long)nbits, (unsigned long long)n_aux);
    for (int m = 0; m < 3; m++) CHECK(r.m[m].cidx_bytes == 1);

    /* determinism: same seed, same files; another seed, other files */
    cz_r1cs r2, r3;
    cz_fr *w2, *w3;
    CHECK(cz_synth_generate(&r2, &w2, &p, msg, sizeof msg) == CZ_OK);
    p.seed = seed + 1000;
    CHECK(cz_synth_generate(&r3, &w3, &p, msg, sizeof msg) == CZ_OK);
    write_all("s1", &r, w);
    write_all("s2", &r2, w2);
    write_all("s3", &r3, w3);
    const char *names[] = {"/circuit.pce", "/witness.bin", "/public.json"};
    for (int i = 0; i < 3; i++) {
        char x[256], y[256], z[256];
        path_in(x, sizeof x, "s1", names[i]);
        path_in(y, sizeof y, "s2", names[i]);
        path_in(z, sizeof z, "s3", names[i]);
        CHECK_MSG(same_file(x, y), "N=%llu %s differs for the same seed", (unsigned long long)n, names[i]);
        if (i < 2) CHECK_MSG(!same_file(x, z), "N=%llu %s same for another seed", (unsigned long long)n, names[i]);
    }

    /* another witness of the same system: witness_seed keeps every matrix
     * and changes the values, which still satisfy it */
    {
        cz_r1cs r4;
        cz_fr *w4;
        p.seed = seed;
        p.witness_seed = seed + 77;
        CHECK(cz_synth_generate(&r4, &w4, &p, msg, sizeof msg) == CZ_OK);
        CHECK(r4.n_vars == r.n_vars && r4.n_inputs == r.n_inputs);
        for (int m = 0; m < 3 && r4.n_vars == r.n_vars; m++) {
            CHECK(r4.m[m].nnz == r.m[m].nnz && r4.m[m].n_rows == r.m[m].n_rows);
            if (r4.m[m].nnz != r.m[m].nnz || r4.m[m].n_rows != r.m[m].n_rows) continue;
            CHECK(!memcmp(r4.m[m].row_ptr, r.m[m].row_ptr, (r.m[m].n_rows + 1) * sizeof *r.m[m].row_ptr));
            CHECK(!memcmp(r4.m[m].col, r.m[m].col, r.m[m].nnz * sizeof *r.m[m].col));
            CHECK(!memcmp(r4.m[m].cidx, r.m[m].cidx, r.m[m].nnz * r.m[m].cidx_bytes));
        }
        if (r4.n_vars == r.n_vars) {
            /* a small system has a handful of fresh bits, which may all
             * keep their values; from 1000 rows on there are 31 or more */
            if (n >= 1000)
                CHECK_MSG(memcmp(w4, w, r.n_vars * sizeof *w) != 0, "N=%llu: witness_seed changes no value",
                          (unsigned long long)n);
            CHECK_MSG(cz_r1cs_is_satisfied(&r, w4, &bad, pool), "N=%llu witness_seed: row %llu fails",
                      (unsigned long long)n, (unsigned long long)bad);
        }
        /* cz_synth_witness makes the same values without the system */
        if (r4.n_vars == r.n_vars) {
            cz_fr *w5 = malloc(r.n_vars * sizeof *w5);
            CHECK(w5 && cz_synth_witness(w5, r.n_vars, &p, msg, sizeof msg) == CZ_OK);
            CHECK(w5 && !memcmp(w5, w4, r.n_vars * sizeof *w5));
            p.witness_seed = 0;
            CHECK(w5 && cz_synth_witness(w5, r.n_vars, &p, msg, sizeof msg) == CZ_OK);
            CHECK(w5 && !memcmp(w5, w, r.n_vars * sizeof *w5));
            /* a buffer of another size: refused, nothing written past it */
            if (w5 && r.n_vars > 2) {
                cz_fr guard;
                cz_fr_from_u64(&guard, 99);
                w5[r.n_vars - 1] = guard;
                CHECK(cz_synth_witness(w5, r.n_vars - 1, &p, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
                CHECK(strstr(msg, "variables") != NULL && cz_fr_eq(&w5[r.n_vars - 1], &guard));
            }
            free(w5);
        }
        p.witness_seed = 0;
        cz_r1cs_free(&r4);
        free(w4);
    }

    /* the files read back to the same system and witness */
    char pp[256];
    cz_r1cs q;
    path_in(pp, sizeof pp, "s1", "/circuit.pce");
    CHECK_MSG(cz_pce_open(&q, pp, 1, msg, sizeof msg) == CZ_OK, "%s", msg);
    cz_fr *rw;
    uint64_t nv = 0, ni = 0;
    path_in(pp, sizeof pp, "s1", "/witness.bin");
    CHECK_MSG(cz_witness_read(&rw, &nv, &ni, pp, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(nv == r.n_vars && ni == r.n_inputs);
    CHECK(rw && memcmp(rw, w, r.n_vars * sizeof *w) == 0);
    if (rw && q.n_vars == nv) CHECK(cz_r1cs_is_satisfied(&q, rw, NULL, pool));
    cz_fr *pub;
    size_t npub = 0;
    path_in(pp, sizeof pp, "s1", "/public.json");
    CHECK_MSG(cz_public_json_read(&pub, &npub, pp, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(npub == r.n_inputs - 1);
    if (npub == r.n_inputs - 1) CHECK(npub == 0 || memcmp(pub, w + 1, npub * sizeof *pub) == 0);
    free(pub);
    free(rw);
    cz_pce_close(&q);
    remove_all("s1");
    remove_all("s2");
    remove_all("s3");
    cz_r1cs_free(&r);
    cz_r1cs_free(&r2);
    cz_r1cs_free(&r3);
    free(w);
    free(w2);
    free(w3);
}

static cz_err parse_mem(const uint8_t *b, size_t n)
{
    cz_fr *w;
    uint64_t nv, ni;
    char msg[256];
    cz_err e = cz_witness_parse(&w, &nv, &ni, b, n, msg, sizeof msg);
    free(w);
    return e;
}

static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }

/* recompute the trailing checksum after an edit */
static void reseal(uint8_t *b, size_t n) { put64(b + n - 8, cz_hash64(b, n - 8, 0)); }

static void check_witness_format(cz_rng *rng)
{
    uint64_t nv = 50, ni = 3;
    cz_fr *w = malloc(nv * sizeof *w);
    cz_fr_one(&w[0]);
    for (uint64_t i = 1; i < nv; i++) cz_fr_random(&w[i], rng);
    char path[256], msg[256];
    snprintf(path, sizeof path, "%s/w.bin", tmpdir);
    CHECK_MSG(cz_witness_write(path, w, nv, ni, msg, sizeof msg) == CZ_OK, "%s", msg);
    size_t n;
    uint8_t *img = slurp(path, &n);
    CHECK(img && n == cz_witness_file_size(nv) && n == 40 + 32 * nv);
    if (!img || n != 40 + 32 * nv) { free(w); free(img); return; }
    /* layout, checked byte by byte against the spec */
    CHECK(memcmp(img, "CUZKWIT\0", 8) == 0);
    CHECK(img[8] == 1 && img[9] == 0 && img[12] == 0 && img[16] == nv && img[24] == ni);
    uint8_t le[32];
    cz_fr_to_bytes_le(le, &w[7]);
    CHECK(memcmp(img + 32 + 7 * 32, le, 32) == 0);
    CHECK(img[32] == 1); /* ONE, canonical little-endian */
    CHECK(cz_hash64(img, n - 8, 0) == (uint64_t)img[n - 8] + ((uint64_t)img[n - 7] << 8) +
                                          ((uint64_t)img[n - 6] << 16) + ((uint64_t)img[n - 5] << 24) +
                                          ((uint64_t)img[n - 4] << 32) + ((uint64_t)img[n - 3] << 40) +
                                          ((uint64_t)img[n - 2] << 48) + ((uint64_t)img[n - 1] << 56));

    /* round trip */
    cz_fr *rw;
    uint64_t rnv, rni;
    CHECK_MSG(cz_witness_read(&rw, &rnv, &rni, path, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(rnv == nv && rni == ni && rw && memcmp(rw, w, nv * sizeof *w) == 0);
    free(rw);

    uint8_t *b = malloc(n + 64);
    /* truncation at every length, and one byte extra */
    int all_refused = 1;
    for (size_t k = 0; k < n; k++) all_refused &= parse_mem(img, k) != CZ_OK;
    CHECK(all_refused);
    CHECK(parse_mem(img, n - 1) == CZ_ERR_LENGTH);
    memcpy(b, img, n);
    b[n] = 0;
    CHECK(parse_mem(b, n + 1) == CZ_ERR_LENGTH);
    spit(path, img, n - 32);
    CHECK(cz_witness_read(&rw, &rnv, &rni, path, msg, sizeof msg) == CZ_ERR_LENGTH);
    CHECK(strstr(msg, "w.bin") != NULL);
    /* wrong n_vars (checksum resealed so only the count is wrong) */
    memcpy(b, img, n);
    put64(b + 16, nv + 1);
    reseal(b, n);
    CHECK(parse_mem(b, n) == CZ_ERR_LENGTH);
    put64(b + 16, nv - 1);
    reseal(b, n);
    CHECK(parse_mem(b, n) == CZ_ERR_LENGTH);
    put64(b + 16, ~0ull);
    CHECK(parse_mem(b, n) != CZ_OK);
    /* n_inputs out of range */
    memcpy(b, img, n);
    put64(b + 24, 0);
    reseal(b, n);
    CHECK(parse_mem(b, n) == CZ_ERR_PARSE);
    put64(b + 24, nv + 1);
    reseal(b, n);
    CHECK(parse_mem(b, n) == CZ_ERR_PARSE);
    /* magic, version, reserved */
    memcpy(b, img, n);
    b[0] = 'X';
    CHECK(parse_mem(b, n) == CZ_ERR_PARSE);
    memcpy(b, img, n);
    b[8] = 2;
    CHECK(parse_mem(b, n) == CZ_ERR_UNSUPPORTED);
    memcpy(b, img, n);
    b[13] = 1;
    CHECK(parse_mem(b, n) == CZ_ERR_PARSE);
    /* checksum: any flipped bit in values or sum */
    int flips_caught = 1;
    for (int t = 0; t < 200; t++) {
        memcpy(b, img, n);
        size_t at = 32 + cz_rng_u64(rng) % (n - 32);
        b[at] ^= (uint8_t)(1u << (cz_rng_u64(rng) % 8));
        flips_caught &= parse_mem(b, n) == CZ_ERR_PARSE;
    }
    CHECK(flips_caught);
    /* non-canonical values: exactly r, and all ones */
    uint8_t rle[32];
    for (int i = 0; i < 32; i++) {
        unsigned x;
        sscanf(R_HEX + 2 * (31 - i), "%2x", &x);
        rle[i] = (uint8_t)x;
    }
    memcpy(b, img, n);
    memcpy(b + 32 + 5 * 32, rle, 32);
    reseal(b, n);
    CHECK(parse_mem(b, n) == CZ_ERR_NONCANONICAL);
    memcpy(b, img, n);
    memset(b + 32 + 49 * 32, 0xff, 32);
    reseal(b, n);
    CHECK(parse_mem(b, n) == CZ_ERR_NONCANONICAL);
    rle[0]--; /* r - 1 is fine */
    memcpy(b, img, n);
    memcpy(b + 32 + 5 * 32, rle, 32);
    reseal(b, n);
    CHECK(parse_mem(b, n) == CZ_OK);
    /* w[0] != 1 */
    memcpy(b, img, n);
    b[32] = 2;
    reseal(b, n);
    CHECK(parse_mem(b, n) == CZ_ERR_PARSE);
    memcpy(b, img, n);
    b[32] = 0;
    reseal(b, n);
    CHECK(parse_mem(b, n) == CZ_ERR_PARSE);
    /* writer refuses nonsense counts; reader refuses a missing file */
    CHECK(cz_witness_write(path, w, nv, 0, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK(cz_witness_write(path, w, nv, nv + 1, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    snprintf(path, sizeof path, "%s/none/w.bin", tmpdir);
    CHECK(cz_witness_read(&rw, &rnv, &rni, path, msg, sizeof msg) == CZ_ERR_IO);
    CHECK(cz_witness_write(path, w, nv, ni, msg, sizeof msg) == CZ_ERR_IO);
    snprintf(path, sizeof path, "%s/w.bin", tmpdir);
    unlink(path);
    free(b);
    free(img);
    free(w);
}

static cz_err pj(const char *text, size_t *n)
{
    cz_fr *v;
    char msg[256];
    size_t k;
    cz_err e = cz_public_json_parse(&v, &k, text, strlen(text), msg, sizeof msg);
    if (n) *n = k;
    if (e && !msg[0]) return -1; /* a refusal must say why */
    free(v);
    return e;
}

static void check_decimal_and_json(cz_rng *rng)
{
    /* decimal vs GMP */
    mpz_t z;
    mpz_init(z);
    int agree = 1;
    for (int t = 0; t < 300; t++) {
        cz_fr a, p;
        if (t == 0) cz_fr_zero(&a);
        else if (t == 1) cz_fr_one(&a);
        else if (t < 40) cz_fr_from_u64(&a, cz_rng_u64(rng) >> (cz_rng_u64(rng) % 64));
        else cz_fr_random(&a, rng);
        cz_fr_from_mont(&p, &a);
        mpz_import(z, 4, -1, 8, 0, 0, p.l);
        char ref[100], got[CZ_FR_DECIMAL_MAX];
        mpz_get_str(ref, 10, z);
        size_t len = cz_fr_to_decimal(got, &a);
        agree &= len == strlen(ref) && strcmp(got, ref) == 0;
        cz_fr back;
        agree &= cz_fr_from_decimal(&back, ref, strlen(ref)) == CZ_OK && cz_fr_eq(&back, &a);
    }
    CHECK(agree);
    /* r - 1 and r */
    cz_fr m1, x;
    cz_fr_one(&m1);
    cz_fr_neg(&m1, &m1);
    char d[CZ_FR_DECIMAL_MAX];
    cz_fr_to_decimal(d, &m1);
    CHECK(strcmp(d, RM1_DEC) == 0);
    CHECK(cz_fr_from_decimal(&x, RM1_DEC, strlen(RM1_DEC)) == CZ_OK && cz_fr_eq(&x, &m1));
    CHECK(cz_fr_from_decimal(&x, R_DEC, strlen(R_DEC)) == CZ_ERR_NONCANONICAL);
    /* 2^256 - 1 and a 90-digit number */
    mpz_ui_pow_ui(z, 2, 256);
    mpz_sub_ui(z, z, 1);
    char big[120];
    mpz_get_str(big, 10, z);
    CHECK(cz_fr_from_decimal(&x, big, strlen(big)) == CZ_ERR_NONCANONICAL);
    memset(big, '9', 90);
    CHECK(cz_fr_from_decimal(&x, big, 90) == CZ_ERR_NONCANONICAL);
    CHECK(cz_fr_from_decimal(&x, "", 0) == CZ_ERR_PARSE);
    CHECK(cz_fr_from_decimal(&x, "01", 2) == CZ_ERR_PARSE);
    CHECK(cz_fr_from_decimal(&x, "0", 1) == CZ_OK && cz_fr_is_zero(&x));
    CHECK(cz_fr_from_decimal(&x, "-1", 2) == CZ_ERR_PARSE);
    CHECK(cz_fr_from_decimal(&x, "+1", 2) == CZ_ERR_PARSE);
    CHECK(cz_fr_from_decimal(&x, "1 ", 2) == CZ_ERR_PARSE);
    mpz_clear(z);

    /* public.json: accepted forms */
    size_t n = 99;
    CHECK(pj("[]", &n) == CZ_OK && n == 0);
    CHECK(pj(" \n[ ]\r\n\t", &n) == CZ_OK && n == 0);
    CHECK(pj("[\"0\"]", &n) == CZ_OK && n == 1);
    CHECK(pj(" [ \"1\" ,\n\"23\" , \"52435875175126190479447740508185965837690552500527637822603658699938581184512\" ]\n",
             &n) == CZ_OK && n == 3);
    {
        const char *t = "[\"7\",\"123456789012345678901234567890\"]";
        cz_fr *v;
        char msg[256];
        CHECK(cz_public_json_parse(&v, &n, t, strlen(t), msg, sizeof msg) == CZ_OK && n == 2);
        cz_fr seven, e;
        cz_fr_from_u64(&seven, 7);
        /* 123456789012345678901234567890 = 123456789012 * 10^18 + 345678901234567890 */
        cz_fr hi, lo, p18;
        cz_fr_from_u64(&hi, 123456789012ull);
        cz_fr_from_u64(&lo, 345678901234567890ull);
        cz_fr_from_u64(&p18, 1000000000000000000ull);
        cz_fr_mul(&e, &hi, &p18);
        cz_fr_add(&e, &e, &lo);
        CHECK(n == 2 && cz_fr_eq(&v[0], &seven) && cz_fr_eq(&v[1], &e));
        free(v);
    }
    /* refusals */
    const char *bad[] = {
        "", " ", "[", "]", "{}", "[\"1\"", "[\"1\",]", "[,]", "[\"1\" \"2\"]", "[1]", "[\"-1\"]", "[-1]",
        "[\"0x1f\"]", "[\"1f\"]", "[\"01\"]", "[\"00\"]", "[\"\"]", "[\" 1\"]", "[\"1 \"]", "[\"1\\u0030\"]",
        "[\"1\"] x", "[\"1\"]]", "[\"1\"],", "[\"1.0\"]", "[\"1e3\"]", "[null]", "[\"1\",\"2\"", "\"1\"",
        "[\"52435875175126190479447740508185965837690552500527637822603658699938581184513\"]",
        "[\"999999999999999999999999999999999999999999999999999999999999999999999999999999999\"]",
    };
    int refused = 1;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cz_err e = pj(bad[i], NULL);
        if (e == CZ_OK || e == -1) {
            refused = 0;
            fprintf(stderr, "public.json accepted or refused silently: %s\n", bad[i]);
        }
    }
    CHECK(refused);
    CHECK(pj("[\"52435875175126190479447740508185965837690552500527637822603658699938581184513\"]", NULL) ==
          CZ_ERR_NONCANONICAL);
    {
        const char t[] = "[\"1\"]\0";
        cz_fr *v;
        char msg[256];
        CHECK(cz_public_json_parse(&v, &n, t, sizeof t - 1, msg, sizeof msg) == CZ_ERR_PARSE); /* NUL after */
        CHECK(strstr(msg, "trailing") != NULL);
    }
    /* file round trip, including empty */
    char path[256], msg[256];
    snprintf(path, sizeof path, "%s/public.json", tmpdir);
    cz_fr vals[5], *back;
    for (int i = 0; i < 5; i++) cz_fr_random(&vals[i], rng);
    cz_fr_zero(&vals[2]);
    vals[3] = m1;
    CHECK(cz_public_json_write(path, vals, 5, msg, sizeof msg) == CZ_OK);
    CHECK(cz_public_json_read(&back, &n, path, msg, sizeof msg) == CZ_OK && n == 5 &&
          memcmp(back, vals, sizeof vals) == 0);
    free(back);
    size_t flen;
    uint8_t *txt = slurp(path, &flen);
    CHECK(txt && flen > 2 && txt[0] == '[' && txt[flen - 1] == '\n' && strstr((char *)txt, "\"0\"") != NULL);
    /* the general JSON reader sees an array of 5 strings, GMP's decimals of the values */
    cz_json *doc = NULL;
    CHECK(txt && cz_json_parse(&doc, (const char *)txt, flen, 0, NULL) == CZ_OK);
    CHECK(doc && doc->type == CZ_JSON_ARRAY && doc->n == 5);
    if (doc && doc->type == CZ_JSON_ARRAY && doc->n == 5) {
        mpz_t z;
        mpz_init(z);
        for (int i = 0; i < 5; i++) {
            cz_fr pl;
            char ref[100];
            cz_fr_from_mont(&pl, &vals[i]);
            mpz_import(z, 4, -1, 8, 0, 0, pl.l);
            mpz_get_str(ref, 10, z);
            CHECK(doc->items[i]->type == CZ_JSON_STRING && strcmp(doc->items[i]->str, ref) == 0);
        }
        mpz_clear(z);
    }
    cz_json_free(doc);
    free(txt);
    CHECK(cz_public_json_write(path, vals, 0, msg, sizeof msg) == CZ_OK);
    txt = slurp(path, &flen);
    CHECK(txt && flen == 3 && memcmp(txt, "[]\n", 3) == 0);
    free(txt);
    CHECK(cz_public_json_read(&back, &n, path, msg, sizeof msg) == CZ_OK && n == 0);
    free(back);
    spit(path, (const uint8_t *)"[\"01\"]", 6);
    CHECK(cz_public_json_read(&back, &n, path, msg, sizeof msg) == CZ_ERR_PARSE);
    CHECK(strstr(msg, "public.json") && strstr(msg, "leading zero"));
    unlink(path);
    CHECK(cz_public_json_read(&back, &n, path, msg, sizeof msg) == CZ_ERR_IO);
}

int main(void)
{
    cz_rng rng;
    uint64_t seed = cz_test_seed("test_synth", 3);
    cz_rng_seed(&rng, seed);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cuzk_synth_XXXXXX");
    CHECK(mkdtemp(tmpdir) != NULL);
    cz_pool *pool;
    CHECK(cz_pool_create(&pool, 2) == CZ_OK);

    /* argument checks */
    cz_synth_params p;
    cz_synth_params_init(&p);
    cz_r1cs r;
    cz_fr *w;
    char msg[256];
    p.n_constraints = CZ_SYNTH_MIN_CONSTRAINTS - 1;
    CHECK(cz_synth_generate(&r, &w, &p, msg, sizeof msg) == CZ_ERR_INVALID_ARG && w == NULL);
    p.n_constraints = 100;
    p.n_public = CZ_SYNTH_MAX_PUBLIC + 1;
    CHECK(cz_synth_generate(&r, &w, &p, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    /* other public-input counts, including none and the most */
    for (unsigned np = 0; np <= CZ_SYNTH_MAX_PUBLIC; np += 4) {
        p.n_public = np;
        p.n_constraints = 16;
        CHECK(cz_synth_generate(&r, &w, &p, msg, sizeof msg) == CZ_OK);
        CHECK(r.n_inputs == 1 + np && r.n_constraints == 16);
        CHECK(cz_r1cs_is_satisfied(&r, w, NULL, NULL));
        cz_r1cs_free(&r);
        free(w);
    }

    const uint64_t sizes[] = {16, 17, 1000, 1u << 12, 1u << 16};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        check_circuit(sizes[i], seed, &rng, pool);
        if (sizes[i] < 65536) check_circuit(sizes[i], seed * 31 + 7, &rng, pool);
    }
    check_witness_format(&rng);
    check_decimal_and_json(&rng);
    rmdir(tmpdir);
    cz_pool_destroy(pool);
    return cz_test_finish("test_synth");
}
