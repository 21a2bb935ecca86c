/* test_zkey_load.c — the fast paths of the .zkey reader:
 *  - cz__zkey_qap (direct CSR build from the coefficient section) against the
 *    r1cs builder fed the same entries row by row in file order, on random
 *    sections (values 0, 1, -1, repeats, all-distinct so that every index
 *    width occurs), serially and over a pool; and its checks: the first bad
 *    entry of the file is the one reported, whatever chunk it is in;
 *  - cz_zkey_open (sections read into an aligned buffer, all point arrays
 *    validated in one pool run) on chain.zkey rebuilt with a 4096-point H
 *    section and an odd-sized extra section in front (every array at an odd
 *    offset): same arrays and matrices as cz_zkey_load_mem, and with bad
 *    points planted in several sections and chunks, the first bad point of the
 *    first bad section (in the order A, B1, B2, C, H) is the one named; the
 *    same for the six header points. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/zkey.h"
#include "formats/zkey_qap.h"
#include "r1cs/r1cs.h"
#include "testutil.h"
#include "util/rng.h"

static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

static void put_fr_raw(uint8_t *p, const cz_fr *v) { for (int i = 0; i < 4; i++) put64(p + 8 * i, v->l[i]); }

/* a random raw value < r (plain limbs) */
static void rand_raw(cz_fr *v, cz_rng *rng)
{
    uint8_t b[32];
    do {
        cz_rng_bytes(rng, b, 32);
        b[31] &= 0x7f;
    } while (cz_fr_from_bytes_le(v, b) != CZ_OK);
    for (int i = 0; i < 4; i++) v->l[i] = get64(b + 8 * i);
}

/* the reference: the r1cs builder, rows in order, file order within a row */
static cz_err reference(cz_r1cs *out, const uint8_t *ent, uint64_t n, uint64_t rows, uint64_t nv, uint64_t np)
{
    /* per row, a list of its entries in file order */
    uint64_t *head = malloc((rows + 1) * 8), *tail = malloc((rows + 1) * 8), *next = malloc((n + 1) * 8);
    for (uint64_t r = 0; r < rows; r++) head[r] = tail[r] = UINT64_MAX;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t r = get32(ent + i * CZ__ZKEY_CSIZE + 4);
        next[i] = UINT64_MAX;
        if (head[r] == UINT64_MAX) head[r] = i;
        else next[tail[r]] = i;
        tail[r] = i;
    }
    cz_r1cs_builder *b;
    cz_err e = cz_r1cs_builder_new(&b, np + 1, nv - np - 1);
    for (uint64_t r = 0; r < rows && !e; r++) {
        for (uint64_t i = head[r]; i != UINT64_MAX && !e; i = next[i]) {
            const uint8_t *p = ent + i * CZ__ZKEY_CSIZE;
            cz_fr raw, v;
            for (int l = 0; l < 4; l++) raw.l[l] = get64(p + 12 + 8 * l);
            cz_fr_from_mont(&v, &raw);
            e = cz_r1cs_builder_term(b, (int)get32(p), get32(p + 8), &v);
        }
        if (!e) e = cz_r1cs_builder_end_constraint(b);
    }
    free(head);
    free(tail);
    free(next);
    if (e) { cz_r1cs_builder_free(b); return e; }
    return cz_r1cs_builder_finish(b, out);
}

static int same_r1cs(const cz_r1cs *a, const cz_r1cs *b)
{
    if (a->n_vars != b->n_vars || a->n_inputs != b->n_inputs || a->n_constraints != b->n_constraints) return 0;
    for (int k = 0; k < 3; k++) {
        const cz_csr *x = &a->m[k], *y = &b->m[k];
        if (x->n_rows != y->n_rows || x->nnz != y->nnz || x->cidx_bytes != y->cidx_bytes || x->n_coefs != y->n_coefs)
            return 0;
        if (memcmp(x->row_ptr, y->row_ptr, (x->n_rows + 1) * sizeof *x->row_ptr)) return 0;
        if (x->nnz && (memcmp(x->col, y->col, x->nnz * 4) || memcmp(x->cidx, y->cidx, x->nnz * x->cidx_bytes)))
            return 0;
        for (uint32_t i = 0; i < x->n_coefs; i++)
            if (!cz_fr_eq(&x->coefs[i], &y->coefs[i])) return 0;
    }
    return 1;
}

/* kind 0: few distinct values (with 0, 1, -1); 1: 300 distinct; 2: all distinct */
static uint8_t *rand_section(uint64_t n, uint64_t rows, uint64_t nv, int kind, cz_rng *rng, uint64_t *used)
{
    uint8_t *ent = malloc(n * CZ__ZKEY_CSIZE);
    cz_fr pool[300], r2 = cz_fr_r2, nr2;
    cz_fr_neg(&nr2, &r2);
    for (int i = 0; i < 300; i++) rand_raw(&pool[i], rng);
    memset(&pool[0], 0, sizeof pool[0]);
    pool[1] = r2;  /* +1 */
    pool[2] = nr2; /* -1 */
    *used = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint8_t *p = ent + i * CZ__ZKEY_CSIZE;
        uint32_t c = (uint32_t)(cz_rng_u64(rng) % rows);
        put32(p, (uint32_t)(cz_rng_u64(rng) & 1));
        put32(p + 4, c);
        put32(p + 8, (uint32_t)(cz_rng_u64(rng) % nv));
        cz_fr v;
        if (kind == 2) rand_raw(&v, rng);
        else v = pool[cz_rng_u64(rng) % (kind == 0 ? 8 : 300)];
        put_fr_raw(p + 12, &v);
        if (c + 1 > *used) *used = c + 1;
    }
    return ent;
}

static void test_qap(cz_rng *rng, cz_pool *pool)
{
    static const struct { uint64_t n, rows, nv, np; int kind; } cases[] = {
        {0, 4, 3, 1, 0}, {1, 1, 2, 0, 0}, {500, 64, 40, 3, 0}, {10000, 256, 300, 5, 1}, {140000, 1024, 5000, 2, 2},
    };
    char msg[600];
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        uint64_t n = cases[t].n, rows = cases[t].rows, nv = cases[t].nv, np = cases[t].np, used, got_used = 99;
        uint8_t *ent = rand_section(n, rows, nv, cases[t].kind, rng, &used);
        cz_r1cs ref, got;
        CHECK(reference(&ref, ent, n, rows, nv, np) == CZ_OK);
        for (int p = 0; p < 2; p++) {
            CHECK(cz__zkey_qap(&got, &got_used, ent, n, rows, nv, np, p ? pool : NULL, msg, sizeof msg) == CZ_OK);
            CHECK_MSG(same_r1cs(&ref, &got), "case %zu pool %d", t, p);
            CHECK(got_used == used);
            cz_r1cs_free(&got);
        }
        if (t == 3) CHECK(ref.m[0].cidx_bytes == 2);
        if (t == 4) CHECK(ref.m[0].cidx_bytes == 4);
        cz_r1cs_free(&ref);

        if (n < 2) { free(ent); continue; }
        /* bad entries: one alone, then an earlier one of another kind too */
        uint64_t at[2] = {n - 1, n / 3};
        for (int k = 0; k < 5; k++) {
            uint8_t *c = malloc(n * CZ__ZKEY_CSIZE);
            memcpy(c, ent, n * CZ__ZKEY_CSIZE);
            for (int w = 0; w < 2; w++) {
                uint8_t *e = c + at[w] * CZ__ZKEY_CSIZE;
                int kk = w ? (k + 1) % 5 : k;
                if (kk == 0) put32(e, 2);
                if (kk == 1) put32(e + 4, (uint32_t)rows);
                if (kk == 2) put32(e + 8, (uint32_t)nv);
                if (kk == 3) put_fr_raw(e + 12, &cz_fr_modulus);
                if (kk == 4) memset(e + 12, 0xff, 32);
                cz_err want = kk >= 3 ? CZ_ERR_NONCANONICAL : CZ_ERR_PARSE;
                char name[64];
                snprintf(name, sizeof name, "coefficient %llu:", (unsigned long long)at[w]);
                for (int p = 0; p < 2; p++) {
                    cz_err e2 = cz__zkey_qap(&got, &got_used, c, n, rows, nv, np, p ? pool : NULL, msg, sizeof msg);
                    CHECK_MSG(e2 == want && strstr(msg, name), "case %zu kind %d: %s", t, kk, msg);
                    if (!e2) cz_r1cs_free(&got);
                }
            }
            free(c);
        }
        free(ent);
    }
}

/* ---- cz_zkey_open on a rebuilt chain.zkey ---- */
static uint8_t *slurp(const char *name, size_t *len)
{
    char buf[4096];
    const char *f = __FILE__, *slash = strrchr(f, '/');
    int n = slash ? (int)(slash - f) : 1;
    snprintf(buf, sizeof buf, "%.*s/data/snarkjs/%s", n, slash ? f : ".", name);
    FILE *fp = fopen(buf, "rb");
    if (!fp) { fprintf(stderr, "cannot open %s\n", buf); exit(2); }
    fseek(fp, 0, SEEK_END);
    long k = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)k);
    if (fread(b, 1, (size_t)k, fp) != (size_t)k) exit(2);
    fclose(fp);
    *len = (size_t)k;
    return b;
}

#define NH 4096

/* chain.zkey with an extra 1-byte section 99 first, domain size NH and an H
 * section of NH points (the original ones repeated); *off gets each
 * section's data offset (by id, 1..9) in the result */
static uint8_t *rebuild(const uint8_t *b, size_t len, size_t *out_len, size_t off[10])
{
    uint8_t *o = malloc(len + 13 + NH * 96);
    memcpy(o, b, 12);
    put32(o + 8, get32(b + 8) + 1);
    size_t at = 12, w = 12;
    put32(o + w, 99); put64(o + w + 4, 1); o[w + 12] = 0x5a; w += 13;
    uint32_t nsec = get32(b + 8);
    for (uint32_t s = 0; s < nsec; s++) {
        uint32_t id = get32(b + at);
        uint64_t sz = get64(b + at + 4);
        const uint8_t *d = b + at + 12;
        put32(o + w, id);
        if (id < 10) off[id] = w + 12;
        if (id == 9) {
            put64(o + w + 4, (uint64_t)NH * 96);
            for (uint64_t i = 0; i < NH; i++) memcpy(o + w + 12 + i * 96, d + (i % (sz / 96)) * 96, 96);
            w += 12 + (size_t)NH * 96;
        } else {
            put64(o + w + 4, sz);
            memcpy(o + w + 12, d, sz);
            if (id == 2) { /* domain size: after n8q, q, n8r, r, nVars, nPublic */
                uint32_t n8q = get32(d), n8r = get32(d + 4 + n8q);
                put32(o + w + 12 + 4 + n8q + 4 + n8r + 8, NH);
            }
            w += 12 + sz;
        }
        at += 12 + sz;
    }
    *out_len = w;
    return o;
}

static cz_err open_bytes(cz_zkey *zk, const uint8_t *b, size_t len, cz_pool *pool, char *msg)
{
    char tmpl[] = "/tmp/cuzk-zkey-load-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0 || write(fd, b, len) != (ssize_t)len) { fprintf(stderr, "cannot write %s\n", tmpl); exit(2); }
    close(fd);
    cz_err e = cz_zkey_open(zk, tmpl, pool, msg, 600);
    unlink(tmpl);
    return e;
}

static int nonzero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 1;
    return 0;
}

static void test_open(cz_pool *pool)
{
    size_t len, blen, off[10] = {0};
    uint8_t *orig = slurp("chain.zkey", &len);
    uint8_t *b = rebuild(orig, len, &blen, off);
    char msg[600];
    cz_zkey zo, zm;
    CHECK((off[5] & 7) && (off[9] & 7)); /* arrays at odd offsets in the file */
    CHECK(open_bytes(&zo, b, blen, pool, msg) == CZ_OK);
    CHECK(cz_zkey_load_mem(&zm, b, blen, NULL, msg, sizeof msg) == CZ_OK);
    uint64_t nv = zm.pk.n_vars, np = zm.pk.n_public;
    CHECK(zo.pk.log_domain == 12 && zm.pk.log_domain == 12);
    /* used in place from the mapping, also the arrays off alignment */
    CHECK(zo.map && (const uint8_t *)zo.pk.a == (const uint8_t *)zo.map + off[5] &&
          (const uint8_t *)zo.pk.h == (const uint8_t *)zo.map + off[9]);
    for (int k = 0; k < 5; k++) CHECK(zo.owned[k] == NULL);
    CHECK(memcmp(zo.pk.a, zm.pk.a, nv * 96) == 0 && memcmp(zo.pk.b_g1, zm.pk.b_g1, nv * 96) == 0);
    CHECK(memcmp(zo.pk.b_g2, zm.pk.b_g2, nv * 192) == 0 && memcmp(zo.pk.c, zm.pk.c, (nv - np - 1) * 96) == 0);
    CHECK(memcmp(zo.pk.h, zm.pk.h, NH * 96) == 0 && memcmp(zo.pk.h, b + off[9], NH * 96) == 0);
    CHECK(same_r1cs(&zo.pk.qap, &zm.pk.qap) && zo.n_constraints_used == zm.n_constraints_used);
    cz_zkey_close(&zo);
    cz_zkey_close(&zm);

    /* bad points: (section id, index, how) planted together; the first of
     * the first section in A, B1, B2, C, H order is the one reported */
    static const struct { int id; uint64_t idx; const char *want; } plant[][3] = {
        {{9, 3000, NULL}, {9, 1500, "H point 1500"}, {9, 4095, NULL}},
        {{9, 100, NULL}, {8, 5, "C point 5"}, {9, 2, NULL}},
        {{9, 1, NULL}, {7, 6, "B2 point 6"}, {8, 0, NULL}},
        {{5, 7, "A point 7"}, {6, 2, NULL}, {9, 0, NULL}},
    };
    for (size_t t = 0; t < sizeof plant / sizeof plant[0]; t++) {
        for (int how = 0; how < 2; how++) {
            uint8_t *c = malloc(blen);
            memcpy(c, b, blen);
            const char *want = NULL;
            for (int k = 0; k < 3; k++) {
                int id = plant[t][k].id;
                size_t sz = id == 7 ? 192 : 96;
                uint8_t *p = c + off[id] + plant[t][k].idx * sz;
                if (!nonzero(p, sz)) p[0] = 1;     /* (1, 0): off the curve */
                else if (how == 0) p[5] ^= 1;      /* off the curve */
                else memset(p, 0xff, 48);          /* x >= q */
                if (plant[t][k].want) want = plant[t][k].want;
            }
            for (int p = 0; p < 2; p++) {
                cz_err e = open_bytes(&zo, c, blen, p ? pool : NULL, msg);
                CHECK_MSG((e == CZ_ERR_NOT_ON_CURVE || e == CZ_ERR_NONCANONICAL) && strstr(msg, want),
                          "plant %zu how %d: %s", t, how, msg);
                e = cz_zkey_load_mem(&zm, c, blen, p ? pool : NULL, msg, sizeof msg);
                CHECK_MSG(e != CZ_OK && strstr(msg, want), "plant %zu how %d (mem): %s", t, how, msg);
            }
            free(c);
        }
    }
    /* header points (checked in parallel): the first bad one in file order */
    {
        static const size_t at[6] = {100, 196, 292, 484, 676, 772};
        static const char *names[6] = {"alpha1", "beta1", "beta2", "gamma2", "delta1", "delta2"};
        for (int first = 0; first < 6; first++) {
            uint8_t *c = malloc(blen);
            memcpy(c, b, blen);
            for (int k = first; k < 6; k += 2) c[off[2] + at[k] + 5] ^= 1;
            char want[32];
            snprintf(want, sizeof want, "zkey %s:", names[first]);
            for (int p = 0; p < 2; p++) {
                cz_err e = open_bytes(&zo, c, blen, p ? pool : NULL, msg);
                CHECK_MSG(e == CZ_ERR_NOT_ON_CURVE && strstr(msg, want), "header %d: %s", first, msg);
            }
            free(c);
        }
    }
    /* a short read is refused, as is a trailing byte */
    CHECK(open_bytes(&zo, b, blen - 1, pool, msg) == CZ_ERR_LENGTH);
    free(b);
    free(orig);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_zkey_load", 11));
    cz_pool *pool;
    if (cz_pool_create(&pool, 3)) return 2;
    test_qap(&rng, pool);
    test_open(pool);
    cz_pool_destroy(pool);
    return cz_test_finish("test_zkey_load");
}
