/* fuzz_json.c — util/json (and util/hex) under ASan/UBSan with random and
 * mutated inputs, a fixed number from the printed seed (CZ_FUZZ_SCALE
 * scales it).
 *
 * Every input is copied into an exact-size heap buffer so any read past the
 * end is caught. Properties: the parser never crashes; a refusal carries a
 * message and a position inside the text; an accepted text, written back out
 * by the small serializer below, parses again to an equal tree whose own
 * serialization is identical. Accepted mutants join the corpus so that
 * mutations build on deeper structure as the run goes on. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"
#include "util/hex.h"
#include "util/json.h"
#include "util/rng.h"

typedef struct { char *p; size_t n, cap; } sbuf;

static void put(sbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t nc = (b->n + n + 1) * 2;
        b->p = realloc(b->p, nc);
        b->cap = nc;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

static void put_str(sbuf *b, const char *s, size_t n)
{
    put(b, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') { put(b, "\\", 1); put(b, s + i, 1); }
        else if (c < 0x20) {
            char e[7];
            snprintf(e, sizeof e, "\\u%04x", c);
            put(b, e, 6);
        } else put(b, s + i, 1);
    }
    put(b, "\"", 1);
}

static void ser(sbuf *b, const cz_json *v)
{
    switch (v->type) {
    case CZ_JSON_NULL: put(b, "null", 4); break;
    case CZ_JSON_TRUE: put(b, "true", 4); break;
    case CZ_JSON_FALSE: put(b, "false", 5); break;
    case CZ_JSON_NUMBER: put(b, v->str, v->len); break;
    case CZ_JSON_STRING: put_str(b, v->str, v->len); break;
    case CZ_JSON_ARRAY:
    case CZ_JSON_OBJECT:
        put(b, v->type == CZ_JSON_ARRAY ? "[" : "{", 1);
        for (size_t i = 0; i < v->n; i++) {
            if (i) put(b, ",", 1);
            if (v->type == CZ_JSON_OBJECT) {
                put_str(b, v->items[i]->key, v->items[i]->key_len);
                put(b, ":", 1);
            }
            ser(b, v->items[i]);
        }
        put(b, v->type == CZ_JSON_ARRAY ? "]" : "}", 1);
        break;
    }
}

static int same(const cz_json *a, const cz_json *b)
{
    if (a->type != b->type || a->n != b->n || a->len != b->len) return 0;
    if ((a->key == NULL) != (b->key == NULL)) return 0;
    if (a->key && (a->key_len != b->key_len || memcmp(a->key, b->key, a->key_len))) return 0;
    if (a->str && memcmp(a->str, b->str, a->len)) return 0;
    for (size_t i = 0; i < a->n; i++)
        if (!same(a->items[i], b->items[i])) return 0;
    return 1;
}

static const char *seeds[] = {
    "{\"curve\":\"bls12-381\",\"cases\":[{\"op\":\"fp_mul\",\"a\":\"0x01\",\"b\":\"ff\",\"out\":\"ff\"},"
    "{\"op\":\"pairing_check\",\"pairs\":[[\"c0\",\"c0\"]],\"out\":true}]}",
    "[1,-0.5e+7,true,false,null,\"\\u00e9\\ud83d\\ude00\\n\\\"\",{},[],{\"a\":{\"b\":[[]]}}]",
    "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"",
    "{\"k\":1,\"k\":2,\"\":\"\"}",
    "  [ 0 , 1E3 , -0 , 12.5e-3 ]  ",
};

static const char dict[] = "{}[]\",:\\/ubfnrt0123456789aefABEF-+.e \t\n\r";
static const char *tokens[] = { "true", "false", "null", "\\u", "\\ud800", "\\udc00", "\xC0\x80",
                                "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xF0\x9F\x98", "1e999", "-",
                                "[[[[[[[[", "]]]]", "{\"\":", "\"\\\\\"" };

static char *mutate(cz_rng *r, const char *src, size_t n, size_t *out_n)
{
    size_t cap = n + 64;
    char *b = malloc(cap);
    memcpy(b, src, n);
    int k = 1 + (int)(cz_rng_u64(r) % 6);
    while (k--) {
        size_t pos = n ? cz_rng_u64(r) % (n + 1) : 0;
        switch (cz_rng_u64(r) % 6) {
        case 0: if (n) b[pos % n] = (char)cz_rng_u64(r); break;                 /* random byte */
        case 1: if (n) b[pos % n] = dict[cz_rng_u64(r) % (sizeof dict - 1)]; break;
        case 2: if (n > pos) { size_t d = 1 + cz_rng_u64(r) % 8; if (d > n - pos) d = n - pos;
                    memmove(b + pos, b + pos + d, n - pos - d); n -= d; } break; /* delete */
        case 3: if (n < cap - 1) { memmove(b + pos + 1, b + pos, n - pos);       /* insert */
                    b[pos] = dict[cz_rng_u64(r) % (sizeof dict - 1)]; n++; } break;
        case 4: { const char *t = tokens[cz_rng_u64(r) % (sizeof tokens / sizeof tokens[0])];
                  size_t tl = strlen(t);
                  if (n + tl < cap) { memmove(b + pos + tl, b + pos, n - pos); memcpy(b + pos, t, tl); n += tl; } } break;
        case 5: n = pos; break;                                                  /* truncate */
        }
    }
    *out_n = n;
    return b;
}

int main(void)
{
    cz_rng r;
    cz_rng_seed(&r, cz_test_seed("fuzz_json", 7));
    const long count = cz_fuzz_count("fuzz_json", "inputs", 1200000);
    enum { CORPUS = 256 };
    char *corpus[CORPUS];
    size_t clen[CORPUS], nc = 0;
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        clen[nc] = strlen(seeds[i]);
        corpus[nc] = malloc(clen[nc]);
        memcpy(corpus[nc], seeds[i], clen[nc]);
        nc++;
    }
    long iters = 0, accepted = 0;
    sbuf s1 = { 0 }, s2 = { 0 };
    for (; iters < count; iters++) {
        size_t n;
        char *in;
        if (cz_rng_u64(&r) % 4 == 0) {                      /* random text */
            n = cz_rng_u64(&r) % 200;
            in = malloc(n ? n : 1);
            int raw = cz_rng_u64(&r) % 4 == 0;
            for (size_t i = 0; i < n; i++)
                in[i] = raw ? (char)cz_rng_u64(&r) : dict[cz_rng_u64(&r) % (sizeof dict - 1)];
        } else {
            size_t j = cz_rng_u64(&r) % nc;
            char *m = mutate(&r, corpus[j], clen[j], &n);
            in = malloc(n ? n : 1);                         /* exact size */
            memcpy(in, m, n);
            free(m);
        }
        int depth = 1 + (int)(cz_rng_u64(&r) % 80);
        cz_json *v = NULL;
        cz_json_error e;
        cz_err rc = cz_json_parse(&v, in, n, depth, &e);
        if (rc != CZ_OK) {
            CHECK(v == NULL);
            CHECK(e.offset <= n && e.msg[0] && e.line >= 1 && e.col >= 1);
        } else {
            accepted++;
            s1.n = s2.n = 0;
            ser(&s1, v);
            cz_json *w = NULL;
            CHECK(cz_json_parse(&w, s1.p, s1.n, depth, &e) == CZ_OK);
            if (w) {
                CHECK(same(v, w));
                ser(&s2, w);
                CHECK(s1.n == s2.n && !memcmp(s1.p, s2.p, s1.n));
                cz_json_free(w);
            }
            cz_json_free(v);
            if (n < 4096) {                                 /* grow the corpus */
                const size_t nseed = sizeof seeds / sizeof seeds[0];
                size_t slot;
                if (nc < CORPUS) slot = nc++;
                else { slot = nseed + cz_rng_u64(&r) % (CORPUS - nseed); free(corpus[slot]); }
                corpus[slot] = malloc(n ? n : 1);
                memcpy(corpus[slot], in, n);
                clen[slot] = n;
            }
        }
        /* hex readers on the same bytes */
        uint8_t hb[64];
        size_t hl;
        cz_err h1 = cz_hex_to_bytes(hb, sizeof hb, &hl, in, n);
        CHECK(h1 != CZ_OK || hl <= sizeof hb);
        (void)cz_hex_to_be(hb, 48, in, n);
        free(in);
    }
    printf("fuzz_json: %ld inputs, %ld accepted, corpus %zu\n", iters, accepted, nc);
    CHECK(iters == count && accepted > 0);
    for (size_t i = 0; i < nc; i++) free(corpus[i]);
    free(s1.p);
    free(s2.p);
    return cz_test_finish("fuzz_json");
}
