/* test_bounds.c — every reader bounds each count it reads by the bytes that
 * must stand behind it. Each case crafts a file whose header claims more (or
 * fewer) elements than its sections hold, from the committed snarkjs files
 * (tests/data/snarkjs) or from a small file written here, and checks the
 * error code and that the message names the field and both numbers.
 *
 * Counts as large as 2^30..2^64-1 are used on purpose: a reader that trusted
 * one would allocate or index by it, which the sanitizers (or the machine)
 * would notice. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "formats/params.h"
#include "formats/pkcache.h"
#include "formats/public_json.h"
#include "formats/r1cs_file.h"
#include "formats/snarkjs_json.h"
#include "formats/witness.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "r1cs/pce.h"

static char dir[64];
static char msg[1024];

static const char *data(const char *name)
{
    static char buf[4096];
    const char *f = __FILE__, *slash = strrchr(f, '/');
    int n = slash ? (int)(slash - f) : 1;
    snprintf(buf, sizeof buf, "%.*s/data/snarkjs/%s", n, slash ? f : ".", name);
    return buf;
}

static const char *tmp(const char *name)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "cannot open %s\n", path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) exit(2);
    fclose(f);
    b[n] = 0;
    *len = (size_t)n;
    return b;
}

static void spill(const char *path, const uint8_t *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, len, f) != len || fclose(f) != 0) { fprintf(stderr, "cannot write %s\n", path); exit(2); }
}

static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }
static void set_le32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void set_le64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void set_be32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (24 - 8 * i)); }

/* offset of the data of section id in an iden3 container, and its size */
static size_t sec_off(const uint8_t *b, size_t len, uint32_t id, uint64_t *size)
{
    size_t at = 12;
    while (at + 12 <= len) {
        uint64_t s = le64(b + at + 4);
        if (le32(b + at) == id) {
            if (size) *size = s;
            return at + 12;
        }
        at += 12 + s;
    }
    fprintf(stderr, "section %u not found\n", id);
    exit(2);
}

/* the error is want and the message holds each of the NULL-terminated substrings */
static int says(cz_err e, cz_err want, ...)
{
    va_list ap;
    int ok = e == want;
    va_start(ap, want);
    for (const char *s; (s = va_arg(ap, const char *));) ok &= strstr(msg, s) != NULL;
    va_end(ap);
    if (!ok) fprintf(stderr, "  got error %d (want %d): %s\n", e, want, msg);
    return ok;
}

/* ---------------------------------------------------------------- .r1cs */

static cz_err r1cs(const uint8_t *b, size_t len)
{
    cz_r1cs r;
    msg[0] = 0;
    cz_err e = cz_r1cs_file_parse(&r, NULL, b, len, msg, sizeof msg);
    if (!e) cz_r1cs_free(&r);
    return e;
}

static void test_r1cs(void)
{
    size_t len;
    uint8_t *b = slurp(data("chain.r1cs"), &len), *c = malloc(len);
    uint64_t cs;
    size_t h = sec_off(b, len, 1, NULL), d = sec_off(b, len, 2, &cs), l = sec_off(b, len, 3, NULL);
    size_t wires = h + 4 + 32, ncons = wires + 4 * 4 + 8;
    CHECK(le32(b + wires) == 45 && le32(b + ncons) == 42 && cs == 7884);
    CHECK(r1cs(b, len) == CZ_OK);

    /* nWires against the wire-to-label section (45 x 8 bytes) */
    memcpy(c, b, len);
    set_le32(c + wires, 1u << 30);
    CHECK(says(r1cs(c, len), CZ_ERR_LENGTH, "header says 1073741824 wires",
               "wire-to-label section holds 45 (8 bytes each)", NULL));
    set_le32(c + wires, 46);
    CHECK(says(r1cs(c, len), CZ_ERR_LENGTH, "46 wires", "holds 45", NULL));
    set_le32(c + wires, 0xffffffffu);
    CHECK(says(r1cs(c, len), CZ_ERR_LENGTH, "4294967295 wires", "holds 45", NULL));
    set_le32(c + wires, 44); /* fewer wires than labels */
    CHECK(says(r1cs(c, len), CZ_ERR_PARSE, "44 wires", "holds 45", NULL));
    /* no wire-to-label section at all (renamed to an id nobody reads) */
    memcpy(c, b, len);
    set_le32(c + l - 12, 7);
    CHECK(says(r1cs(c, len), CZ_ERR_PARSE, "section 3 is missing", NULL));

    /* nConstraints against the constraints section: 12 bytes each at least */
    memcpy(c, b, len);
    set_le32(c + ncons, 0x7fffffffu);
    CHECK(says(r1cs(c, len), CZ_ERR_LENGTH, "header says 2147483647 constraints", "(7884 bytes)", "at most 657", NULL));
    set_le32(c + ncons, 658);
    CHECK(says(r1cs(c, len), CZ_ERR_LENGTH, "658 constraints", "at most 657", NULL));
    /* one more than the file has: the section ends before constraint 42 */
    set_le32(c + ncons, 43);
    CHECK(says(r1cs(c, len), CZ_ERR_LENGTH, "constraint 42, A", "42 of 43", NULL));
    /* a term count larger than what is left of the section */
    memcpy(c, b, len);
    set_le32(c + d, 0xffffffffu);
    CHECK(says(r1cs(c, len), CZ_ERR_LENGTH, "constraint 0, A: 4294967295 terms", "7880 bytes left", "room for 218",
               "(36 bytes each)", NULL));
    free(b);
    free(c);
}

/* ---------------------------------------------------------------- .wtns */

static cz_err wtns(const uint8_t *b, size_t len)
{
    cz_fr *w;
    uint64_t n;
    msg[0] = 0;
    cz_err e = cz_wtns_parse(&w, &n, b, len, msg, sizeof msg);
    if (!e) free(w);
    return e;
}

static void test_wtns(void)
{
    size_t len;
    uint8_t *b = slurp(data("chain.wtns"), &len), *c = malloc(len);
    size_t cnt = sec_off(b, len, 1, NULL) + 4 + 32;
    CHECK(le32(b + cnt) == 45 && wtns(b, len) == CZ_OK);
    memcpy(c, b, len);
    set_le32(c + cnt, 46);
    CHECK(says(wtns(c, len), CZ_ERR_LENGTH, "header says 46 witness values", "values section holds 45 (32 bytes each)",
               NULL));
    set_le32(c + cnt, 0xffffffffu);
    CHECK(says(wtns(c, len), CZ_ERR_LENGTH, "4294967295 witness values", "holds 45", NULL));
    set_le32(c + cnt, 44);
    CHECK(says(wtns(c, len), CZ_ERR_PARSE, "44 witness values", "holds 45", NULL));
    free(b);
    free(c);
}

/* ---------------------------------------------------------------- .zkey */

static cz_err zkey(const uint8_t *b, size_t len)
{
    cz_zkey z;
    msg[0] = 0;
    cz_err e = cz_zkey_load_mem(&z, b, len, NULL, msg, sizeof msg);
    if (!e) cz_zkey_close(&z);
    return e;
}

static void test_zkey(void)
{
    size_t len;
    uint8_t *b = slurp(data("chain.zkey"), &len), *c = malloc(len);
    uint64_t s4size;
    size_t s2 = sec_off(b, len, 2, NULL), s4 = sec_off(b, len, 4, &s4size);
    size_t nvars = s2 + 4 + 48 + 4 + 32, npub = nvars + 4, dom = nvars + 8;
    CHECK(le32(b + nvars) == 45 && le32(b + npub) == 3 && le32(b + dom) == 64);
    uint32_t ncoef = le32(b + s4);
    CHECK(s4size == 4 + 44 * (uint64_t)ncoef && zkey(b, len) == CZ_OK);

    /* nVars against A (45 G1 points), then the others */
    memcpy(c, b, len);
    set_le32(c + nvars, 1u << 30);
    CHECK(says(zkey(c, len), CZ_ERR_LENGTH, "header says nVars = 1073741824", "section 5 (A) holds 45 points",
               "(96 bytes each)", NULL));
    set_le32(c + nvars, 0xffffffffu);
    CHECK(says(zkey(c, len), CZ_ERR_LENGTH, "nVars = 4294967295", "holds 45 points", NULL));
    set_le32(c + nvars, 44);
    CHECK(says(zkey(c, len), CZ_ERR_PARSE, "nVars = 44", "section 5 (A) holds 45", NULL));
    /* nPublic against IC (4 points) */
    memcpy(c, b, len);
    set_le32(c + npub, 4);
    CHECK(says(zkey(c, len), CZ_ERR_LENGTH, "nPublic + 1 = 5", "section 3 (IC) holds 4 points", NULL));
    set_le32(c + npub, 44); /* still <= nVars - 1, far more than IC holds */
    CHECK(says(zkey(c, len), CZ_ERR_LENGTH, "nPublic + 1 = 45", "holds 4 points", NULL));
    /* domainSize against H (64 points): it cannot be bounded by the file
     * as a whole, but H holds one point per row */
    memcpy(c, b, len);
    set_le32(c + dom, 1u << 28);
    CHECK(says(zkey(c, len), CZ_ERR_LENGTH, "domainSize = 268435456", "section 9 (H) holds 64 points", NULL));
    set_le32(c + dom, 128);
    CHECK(says(zkey(c, len), CZ_ERR_LENGTH, "domainSize = 128", "holds 64", NULL));
    set_le32(c + dom, 32);
    CHECK(says(zkey(c, len), CZ_ERR_PARSE, "domainSize = 32", "holds 64", NULL));
    /* the coefficient count of section 4 against the section */
    char want[64], held[64];
    snprintf(held, sizeof held, "holds %u (44 bytes each)", ncoef);
    memcpy(c, b, len);
    set_le32(c + s4, ncoef + 1);
    snprintf(want, sizeof want, "section 4 says %u coefficients", ncoef + 1);
    CHECK(says(zkey(c, len), CZ_ERR_LENGTH, want, held, NULL));
    set_le32(c + s4, 0xffffffffu);
    CHECK(says(zkey(c, len), CZ_ERR_LENGTH, "section 4 says 4294967295 coefficients", held, NULL));
    set_le32(c + s4, ncoef - 1);
    snprintf(want, sizeof want, "section 4 says %u coefficients", ncoef - 1);
    CHECK(says(zkey(c, len), CZ_ERR_PARSE, want, held, NULL));
    /* the prime lengths of section 2 against the section (964 bytes) */
    memcpy(c, b, len);
    set_le32(c + s2, 0xffffffffu);
    CHECK(says(zkey(c, len), CZ_ERR_LENGTH, "964 bytes", "q (n8q bytes)", "4294967295", NULL));
    memcpy(c, b, len);
    set_le32(c + s2 + 4 + 48, 0xfffffff0u);
    CHECK(says(zkey(c, len), CZ_ERR_LENGTH, "r (n8r bytes)", "4294967280", NULL));
    /* the mapped reader says the same, after the path */
    memcpy(c, b, len);
    set_le32(c + nvars, 1u << 30);
    spill(tmp("big.zkey"), c, len);
    cz_zkey z;
    CHECK(says(cz_zkey_open(&z, tmp("big.zkey"), NULL, msg, sizeof msg), CZ_ERR_LENGTH, "big.zkey",
               "nVars = 1073741824", "holds 45 points", NULL));
    unlink(tmp("big.zkey"));

    /* the container: section count and a section size against the file */
    memcpy(c, b, len);
    set_le32(c + 8, 0xffffffffu);
    CHECK(says(zkey(c, len), CZ_ERR_LENGTH, "claims 4294967295 sections", NULL));
    memcpy(c, b, len);
    set_le64(c + s2 - 8, (uint64_t)1 << 40);
    CHECK(says(zkey(c, len), CZ_ERR_LENGTH, "wants 1099511627776 bytes", NULL));
    free(b);
    free(c);
}

/* ---------------------------------------------------------------- .params / .vk */

/* a .params of zero bytes (the counts are checked before any point is
 * decoded): ic 2, h 1, l 0, a 0, b_g1 0, b_g2 1 */
static size_t params_image(uint8_t *b)
{
    size_t at = CZ_VK_HEAD_BYTES;
    const uint32_t n[6] = {2, 1, 0, 0, 0, 1};
    memset(b, 0, 2048);
    for (int k = 0; k < 6; k++) {
        set_be32(b + at, n[k]);
        at += 4 + n[k] * (k == 5 ? 192 : 96);
    }
    return at;
}

static void test_params(void)
{
    uint8_t *b = malloc(2048);
    size_t len = params_image(b), ic = CZ_VK_HEAD_BYTES, h = ic + 4 + 2 * 96;
    cz_params_info in;
    cz_groth16_pk pk;
    cz_groth16_vk vk;
    CHECK(cz_params_peek_mem(&in, b, len, msg, sizeof msg) == CZ_OK && in.n_h == 1 && in.size == len);

    /* h: 1 point, then 4 + 4 + 4 + 4 + 192 bytes of the rest: 304 bytes, room for 3 */
    set_be32(b + h, 1000000);
    CHECK(says(cz_params_peek_mem(&in, b, len, msg, sizeof msg), CZ_ERR_LENGTH, "length of h says 1000000 points",
               "(96 bytes each)", "the 304 bytes left", "hold 3", NULL));
    CHECK(says(cz_params_read_mem(&pk, b, len, 0, NULL, msg, sizeof msg), CZ_ERR_LENGTH, "h says 1000000", "hold 3",
               NULL));
    CHECK(pk.h == NULL);
    set_be32(b + h, 0xffffffffu);
    CHECK(says(cz_params_peek_mem(&in, b, len, msg, sizeof msg), CZ_ERR_LENGTH, "h says 4294967295", "hold 3", NULL));
    set_be32(b + h, 1);
    /* b_g2, the last: 2 claimed, 192 bytes left */
    set_be32(b + len - 192 - 4, 2);
    CHECK(says(cz_params_peek_mem(&in, b, len, msg, sizeof msg), CZ_ERR_LENGTH, "b_g2 says 2 points",
               "(192 bytes each)", "192 bytes left", "hold 1", NULL));
    set_be32(b + len - 192 - 4, 1);
    /* ic of a .vk: 2 points in a 864 + 4 + 192 byte file */
    set_be32(b + ic, 0x40000000u);
    CHECK(says(cz_vk_read_mem(&vk, b, CZ_VK_HEAD_BYTES + 4 + 192, NULL, msg, sizeof msg), CZ_ERR_LENGTH,
               "ic says 1073741824 points", "192 bytes left", "hold 2", NULL));
    CHECK(vk.ic == NULL);
    free(b);
}

/* ---------------------------------------------------------------- .pkc */

static void test_pkcache(void)
{
    /* a cache of all-zero points: ic 2, h 3, l 1, a 2, b_g1 1, b_g2 2 */
    static cz_g1_aff g1[8];
    static cz_g2_aff g2[2];
    cz_groth16_pk pk = {.vk = {.n_ic = 2, .ic = g1}, .n_h = 3, .n_l = 1, .n_a = 2, .n_b_g1 = 1, .n_b_g2 = 2,
                        .h = g1, .l = g1, .a = g1, .b_g1 = g1, .b_g2 = g2};
    CHECK(cz_pkcache_write(tmp("t.pkc"), &pk, 0, msg, sizeof msg) == CZ_OK);
    size_t len;
    uint8_t *b = slurp(tmp("t.pkc"), &len), *c = malloc(len);
    unlink(tmp("t.pkc"));
    cz_groth16_pk q;
    CHECK(cz_pkcache_load_mem(&q, NULL, b, len, 1, msg, sizeof msg) == CZ_OK && q.n_h == 3);
    cz_groth16_pk_free(&q);
    /* offsets: 128 header, vk G1s 288 -> 448, vk G2s 576 -> 1024, ic 192 -> 1216 = h */
    size_t off_h = 1216;
    char room[64];
    snprintf(room, sizeof room, "holds %zu points from byte %zu", (len - off_h) / 96, off_h);

    memcpy(c, b, len);
    set_le64(c + 32, (uint64_t)1 << 32);
    CHECK(says(cz_pkcache_load_mem(&q, NULL, c, len, 0, msg, sizeof msg), CZ_ERR_LENGTH,
               "header says n_h = 4294967296, above 2^32-1", NULL));
    set_le64(c + 32, UINT64_MAX);
    CHECK(says(cz_pkcache_load_mem(&q, NULL, c, len, 0, msg, sizeof msg), CZ_ERR_LENGTH,
               "n_h = 18446744073709551615", NULL));
    set_le64(c + 32, 1u << 30);
    CHECK(says(cz_pkcache_load_mem(&q, NULL, c, len, 0, msg, sizeof msg), CZ_ERR_LENGTH,
               "header says n_h = 1073741824", room, "(96 bytes each)", NULL));
    CHECK(q.h == NULL && q.vk.ic == NULL);
    /* the last array: b_g2 (192 bytes each), claimed 3 of 2 */
    memcpy(c, b, len);
    set_le64(c + 64, 3);
    CHECK(says(cz_pkcache_load_mem(&q, NULL, c, len, 0, msg, sizeof msg), CZ_ERR_LENGTH, "n_b_g2 = 3",
               "holds 2 points", "(192 bytes each)", NULL));
    /* the payload length field disagreeing with the counts */
    memcpy(c, b, len);
    set_le64(c + 88, le64(b + 88) + 64);
    snprintf(room, sizeof room, "payload is %llu bytes but its counts imply %llu",
             (unsigned long long)(le64(b + 88) + 64), (unsigned long long)le64(b + 88));
    CHECK(says(cz_pkcache_load_mem(&q, NULL, c, len, 0, msg, sizeof msg), CZ_ERR_LENGTH, room, NULL));
    /* a file cut inside the verifying key part, before any array */
    CHECK(says(cz_pkcache_load_mem(&q, NULL, b, 700, 0, msg, sizeof msg), CZ_ERR_LENGTH,
               "700 bytes, too short for its verifying key (1024)", NULL));
    /* the mapped reader too */
    memcpy(c, b, len);
    set_le64(c + 24, 1u << 30);
    spill(tmp("big.pkc"), c, len);
    CHECK(says(cz_pkcache_open(&q, NULL, tmp("big.pkc"), 0, msg, sizeof msg), CZ_ERR_LENGTH, "big.pkc",
               "n_ic = 1073741824", "from byte 1024", NULL));
    CHECK(q.map == NULL);
    unlink(tmp("big.pkc"));
    free(b);
    free(c);
}

/* ---------------------------------------------------------------- .pce */

static cz_err pce(const uint8_t *b, size_t len)
{
    cz_r1cs r;
    spill(tmp("t.pce"), b, len);
    msg[0] = 0;
    cz_err e = cz_pce_open(&r, tmp("t.pce"), 0, msg, sizeof msg);
    if (!e) cz_pce_close(&r);
    unlink(tmp("t.pce"));
    return e;
}

static void test_pce(void)
{
    /* x * y = z over ONE, x, y, z; 2 constraints */
    cz_r1cs_builder *bl;
    cz_r1cs r;
    cz_fr one;
    cz_fr_one(&one);
    CHECK(cz_r1cs_builder_new(&bl, 1, 3) == CZ_OK);
    for (int k = 0; k < 2; k++) {
        cz_r1cs_builder_term(bl, 0, 1, &one);
        cz_r1cs_builder_term(bl, 1, 2, &one);
        cz_r1cs_builder_term(bl, 2, 3, &one);
        cz_r1cs_builder_end_constraint(bl);
    }
    CHECK(cz_r1cs_builder_finish(bl, &r) == CZ_OK);
    CHECK(cz_pce_write(tmp("t.pce"), &r, msg, sizeof msg) == CZ_OK);
    cz_r1cs_free(&r);
    size_t len;
    uint8_t *b = slurp(tmp("t.pce"), &len), *c = malloc(len);
    CHECK(pce(b, len) == CZ_OK);
    uint64_t plen = len - CZ_PCE_HEADER;
    char left[64];
    snprintf(left, sizeof left, "the payload has %llu bytes left at offset 0", (unsigned long long)plen);

    /* n_constraints: (n + 1) row offsets of 8 bytes in matrix A first */
    memcpy(c, b, len);
    set_le64(c + 32, (uint64_t)1 << 62);
    CHECK(says(pce(c, len), CZ_ERR_LENGTH, "header says n_constraints = 4611686018427387904 for matrix A", left,
               "(8 bytes each, one more than the count)", NULL));
    set_le64(c + 32, UINT64_MAX); /* n + 1 wraps to 0 */
    CHECK(says(pce(c, len), CZ_ERR_LENGTH, "n_constraints = 18446744073709551615", left, NULL));
    /* counts just below the 2^60 cap of the layout arithmetic: for each
     * matrix, 2^60 - 1 row offsets, 2^60 - 2 columns and 4-byte indices sum
     * to just below 2^64, and padding takes the coefficients' offset round
     * to 0, so that each matrix seems to end 64 bytes after it starts; a
     * payload of 192 bytes and its length field match that wrapped sum */
    {
        uint8_t w[CZ_PCE_HEADER + 192] = {0};
        memcpy(w, b, CZ_PCE_HEADER);
        set_le64(w + 32, ((uint64_t)1 << 60) - 2);
        for (int k = 0; k < 3; k++) {
            set_le64(w + 40 + 16 * k, ((uint64_t)1 << 60) - 2);
            set_le32(w + 48 + 16 * k, 2);
            set_le32(w + 52 + 16 * k, 4);
        }
        set_le64(w + 88, 192);
        CHECK(says(pce(w, sizeof w), CZ_ERR_LENGTH, "n_constraints = 1152921504606846974 for matrix A",
                   "the payload has 192 bytes left at offset 0", NULL));
    }
    /* nnz of B, n_coefs of C */
    memcpy(c, b, len);
    set_le64(c + 40 + 16, (uint64_t)1 << 40);
    CHECK(says(pce(c, len), CZ_ERR_LENGTH, "header says nnz = 1099511627776 for matrix B", "(4 bytes each)", NULL));
    memcpy(c, b, len);
    set_le32(c + 48 + 32, 0xffffffffu);
    CHECK(says(pce(c, len), CZ_ERR_LENGTH, "header says n_coefs = 4294967295 for matrix C", "(32 bytes each)", NULL));
    /* an index width that is none of 1, 2, 4 */
    memcpy(c, b, len);
    set_le32(c + 52 + 16, 3);
    CHECK(says(pce(c, len), CZ_ERR_PARSE, "matrix B: coefficient index width 3", NULL));
    /* n_vars has no array behind it; it is capped */
    memcpy(c, b, len);
    set_le64(c + 16, (uint64_t)1 << 32);
    CHECK(says(pce(c, len), CZ_ERR_PARSE, "n_vars = 4294967296", "n_inputs = 1", NULL));
    free(b);
    free(c);
}

/* ---------------------------------------------------------------- witness.bin */

static void test_witness(void)
{
    cz_fr w[3];
    cz_fr_one(&w[0]);
    cz_fr_one(&w[1]);
    cz_fr_zero(&w[2]);
    CHECK(cz_witness_write(tmp("t.wit"), w, 3, 2, msg, sizeof msg) == CZ_OK);
    size_t len;
    uint8_t *b = slurp(tmp("t.wit"), &len), *c = malloc(len);
    unlink(tmp("t.wit"));
    cz_fr *out;
    uint64_t nv, ni;
    CHECK(len == 40 + 3 * 32 && cz_witness_parse(&out, &nv, &ni, b, len, msg, sizeof msg) == CZ_OK && nv == 3);
    free(out);
    memcpy(c, b, len);
    set_le64(c + 16, 4);
    CHECK(says(cz_witness_parse(&out, &nv, &ni, c, len, msg, sizeof msg), CZ_ERR_LENGTH, "header says n_vars = 4",
               "file (136 bytes) holds 3 values (32 bytes each)", NULL));
    CHECK(out == NULL);
    set_le64(c + 16, (uint64_t)1 << 60); /* above the cap: 32 n_vars would be near overflow */
    CHECK(says(cz_witness_parse(&out, &nv, &ni, c, len, msg, sizeof msg), CZ_ERR_LENGTH, "n_vars = 1152921504606846976",
               "holds 3 values", NULL));
    set_le64(c + 16, (uint64_t)1 << 59 | 3); /* 32 n_vars wraps to 96 */
    CHECK(says(cz_witness_parse(&out, &nv, &ni, c, len, msg, sizeof msg), CZ_ERR_LENGTH, "n_vars = 576460752303423491",
               "holds 3 values", NULL));
    memcpy(c, b, len);
    set_le64(c + 24, 5);
    CHECK(says(cz_witness_parse(&out, &nv, &ni, c, len, msg, sizeof msg), CZ_ERR_PARSE, "n_inputs = 5",
               "n_vars = 3", NULL));
    free(b);
    free(c);
}

/* ---------------------------------------------------------------- JSON */

static void test_json(void)
{
    /* public.json: no count field; the file itself is capped before it is read */
    int fd = open(tmp("big.json"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)CZ_PUBLIC_JSON_MAX_BYTES + 1) == 0);
    if (fd >= 0) close(fd);
    cz_fr *v;
    size_t n;
    CHECK(says(cz_public_json_read(&v, &n, tmp("big.json"), msg, sizeof msg), CZ_ERR_LENGTH, "67108865 bytes",
               "67108864 allowed", NULL));
    CHECK(v == NULL && n == 0);
    unlink(tmp("big.json"));

    /* verification_key.json: nPublic against the IC points present */
    size_t len;
    uint8_t *b = slurp(data("verification_key.json"), &len);
    char *at = strstr((char *)b, "\"nPublic\": 3,");
    CHECK(at != NULL);
    if (at) {
        size_t pre = (size_t)(at - (char *)b);
        char *t = malloc(len + 16);
        int k = snprintf(t, len + 16, "%.*s\"nPublic\": 999999999,%s", (int)pre, (char *)b, at + 13);
        cz_groth16_vk vk;
        CHECK(says(cz_snarkjs_vk_parse(&vk, t, (size_t)k, msg, sizeof msg), CZ_ERR_PARSE, "nPublic = 999999999",
                   "needs 1000000000 IC points but IC has 4", NULL));
        CHECK(vk.ic == NULL);
        k = snprintf(t, len + 16, "%.*s\"nPublic\": 2,%s", (int)pre, (char *)b, at + 13);
        CHECK(says(cz_snarkjs_vk_parse(&vk, t, (size_t)k, msg, sizeof msg), CZ_ERR_PARSE, "nPublic = 2",
                   "needs 3 IC points but IC has 4", NULL));
        CHECK(cz_snarkjs_vk_parse(&vk, (const char *)b, len, msg, sizeof msg) == CZ_OK && vk.n_ic == 4);
        cz_groth16_vk_free(&vk);
        free(t);
    }
    free(b);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/cuzk_bounds_XXXXXX");
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 2; }
    test_r1cs();
    test_wtns();
    test_zkey();
    test_params();
    test_pkcache();
    test_pce();
    test_witness();
    test_json();
    rmdir(dir);
    return cz_test_finish("test_bounds");
}
