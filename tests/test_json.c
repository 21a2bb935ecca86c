/* test_json.c — util/json and util/hex on hand-written inputs: values and
 * escapes decoded as RFC 8259 / RFC 3629 say, every kind of malformed text
 * refused with the right position, the nesting limit, duplicate keys. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/hex.h"
#include "util/json.h"

static cz_json *parse(const char *s, size_t len, int depth, cz_json_error *e)
{
    cz_json *v = NULL;
    /* exact-size copy, no NUL, so an over-read shows under a sanitizer */
    char *copy = malloc(len ? len : 1);
    memcpy(copy, s, len);
    cz_err r = cz_json_parse(&v, copy, len, depth, e);
    free(copy);
    CHECK((r == CZ_OK) == (v != NULL));
    return r == CZ_OK ? v : NULL;
}

static cz_json *ok(const char *s)
{
    cz_json_error e;
    cz_json *v = parse(s, strlen(s), 0, &e);
    CHECK_MSG(v != NULL, "should parse: %s (error: %s at %zu)", s, e.msg, e.offset);
    return v;
}

/* must fail with an error at byte offset `at` (or anywhere if at < 0) */
static void bad_n(const char *s, size_t len, long at)
{
    cz_json_error e;
    cz_json *v = parse(s, len, 0, &e);
    CHECK_MSG(v == NULL, "should be refused: %.*s", (int)len, s);
    if (v) { cz_json_free(v); return; }
    CHECK_MSG(e.msg[0] != 0, "no message for %.*s", (int)len, s);
    CHECK(e.offset <= len);
    if (at >= 0) CHECK_MSG(e.offset == (size_t)at, "%.*s: error at %zu (%s), expected %ld", (int)len, s, e.offset, e.msg, at);
}
static void bad(const char *s, long at) { bad_n(s, strlen(s), at); }

static void test_values(void)
{
    cz_json *v = ok(" {\"a\" : [1, -2.5e3, true, false, null, \"x\"], \"b\": {}, \"c\": []} ");
    if (v) {
        CHECK(v->type == CZ_JSON_OBJECT && v->n == 3);
        const cz_json *a = cz_json_get(v, "a");
        CHECK(a && a->type == CZ_JSON_ARRAY && a->n == 6);
        if (a && a->n == 6) {
            CHECK(a->items[0]->type == CZ_JSON_NUMBER && a->items[0]->num == 1.0 && !strcmp(a->items[0]->str, "1"));
            CHECK(a->items[1]->num == -2500.0 && !strcmp(a->items[1]->str, "-2.5e3"));
            CHECK(a->items[2]->type == CZ_JSON_TRUE && a->items[3]->type == CZ_JSON_FALSE);
            CHECK(a->items[4]->type == CZ_JSON_NULL);
            CHECK(a->items[5]->type == CZ_JSON_STRING && a->items[5]->len == 1 && a->items[5]->offset == 39);
        }
        CHECK(cz_json_get(v, "b")->type == CZ_JSON_OBJECT && cz_json_get(v, "b")->n == 0);
        CHECK(cz_json_get(v, "c")->type == CZ_JSON_ARRAY && cz_json_get(v, "c")->n == 0);
        CHECK(cz_json_get(v, "d") == NULL);
        CHECK(v->offset == 1);
        cz_json_free(v);
    }
    /* scalars at top level */
    const char *tops[] = { "0", "-0", "1e5", "0.25", "1E-7", "\"\"", "true", "null", " \t\r\n7 \n" };
    for (size_t i = 0; i < sizeof tops / sizeof tops[0]; i++) cz_json_free(ok(tops[i]));
    /* big exact integer text is kept */
    v = ok("123456789012345678901234567890123456789");
    if (v) { CHECK(v->len == 39 && !strcmp(v->str, "123456789012345678901234567890123456789")); cz_json_free(v); }
}

static void test_strings(void)
{
    cz_json *v = ok("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"");
    if (v) { CHECK(v->len == 12 && !memcmp(v->str, "a\"b\\c/d\b\f\n\r\t", 12)); cz_json_free(v); }
    /* U+00E9, U+20AC, U+1F600 (surrogate pair), U+0000 */
    v = ok("\"\\u00e9\\u20AC\\ud83d\\ude00\\u0000z\"");
    if (v) {
        CHECK(v->len == 2 + 3 + 4 + 1 + 1);
        CHECK(!memcmp(v->str, "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\0z", 11));
        cz_json_free(v);
    }
    /* raw UTF-8 passes through */
    v = ok("\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF\"");
    if (v) { CHECK(v->len == 13); cz_json_free(v); }
    /* keys are decoded too */
    v = ok("{\"k\\u0041\":1,\"k\\u0041\":2}");
    if (v) {
        CHECK(cz_json_key_count(v, "kA") == 2);
        CHECK(cz_json_get(v, "kA") && cz_json_get(v, "kA")->num == 1.0);
        cz_json_free(v);
    }
}

static void test_errors(void)
{
    bad("", 0);
    bad("   ", 3);
    bad("[1,2,]", 5);
    bad("{\"a\":1,}", 7);
    bad("[1 2]", 3);
    bad("{\"a\" 1}", 5);
    bad("{a:1}", 1);
    bad("{'a':1}", 1);
    bad("01", 1);
    bad("-", 1);
    bad("1.", 2);
    bad(".5", 0);
    bad("+1", 0);
    bad("1e", 2);
    bad("1e+", 3);
    bad("NaN", 0);
    bad("Infinity", 0);
    bad("tru", 0);
    bad("nul", 0);
    bad("truex", 4);
    bad("{} x", 3);
    bad("[1]]", 3);
    bad("// c\n1", 0);
    bad("[1 /* c */]", 3);
    bad("\"abc", 0);
    bad("[\"abc", 1);
    bad("[1,", 3);
    bad("{\"a\":", 5);
    bad("{\"a\"", 4);
    bad("{", 1);
    bad("[", 1);
    bad("\"a\tb\"", 2);           /* raw control character */
    bad("\"\\x\"", 1);            /* unknown escape */
    bad("\"\\u12\"", 1);          /* short \u */
    bad("\"\\u12g4\"", 1);
    bad("\"\\udc00\"", 1);        /* lone low surrogate */
    bad("\"\\ud800\"", 1);        /* lone high surrogate */
    bad("\"\\ud800\\u0041\"", 7); /* high surrogate + non-low */
    bad("\"\xC0\x80\"", 1);       /* overlong */
    bad("\"\xE0\x80\x80\"", 1);   /* overlong */
    bad("\"\xED\xA0\x80\"", 1);   /* encoded surrogate */
    bad("\"\xF4\x90\x80\x80\"", 1); /* > U+10FFFF */
    bad("\"\xF5\x80\x80\x80\"", 1);
    bad("\"\x80\"", 1);           /* stray continuation */
    bad("\"\xE2\x82\"", 1);       /* truncated */
    bad("\"\xFF\"", 1);
    bad("\\", 0);
    bad("\"\\", 0);
    bad_n("[1,\0]", 5, 3);        /* NUL byte outside a string */
    bad_n("\"a\0b\"", 5, 2);      /* NUL byte inside a string */
    /* line and column */
    cz_json_error e;
    cz_json *v = parse("[1,\n  2,\n ]", 11, 0, &e);
    CHECK(v == NULL);
    CHECK_MSG(e.line == 3 && e.col == 2, "line %zu col %zu", e.line, e.col);
}

static void test_depth(void)
{
    char buf[2 * 300 + 1];
    for (int d = 1; d <= 300; d *= 2) {
        for (int lim = 1; lim <= 128; lim *= 4) {
            memset(buf, '[', (size_t)d);
            memset(buf + d, ']', (size_t)d);
            cz_json_error e;
            cz_json *v = parse(buf, 2 * (size_t)d, lim, &e);
            CHECK_MSG((v != NULL) == (d <= lim), "depth %d limit %d", d, lim);
            if (v) cz_json_free(v);
            else CHECK(e.offset == (size_t)lim);
        }
    }
    /* default limit */
    memset(buf, '[', 300);
    cz_json_error e;
    CHECK(parse(buf, 300, 0, &e) == NULL && e.offset == CZ_JSON_DEFAULT_DEPTH);
    /* very deep hostile input: refused without recursing far */
    size_t n = 1 << 20;
    char *deep = malloc(n);
    memset(deep, '[', n);
    CHECK(parse(deep, n, 0, &e) == NULL);
    for (size_t i = 0; i + 4 <= n; i += 4) memcpy(deep + i, "{\"\":", 4);
    CHECK(parse(deep, n, 0, &e) == NULL && e.offset == 4 * CZ_JSON_DEFAULT_DEPTH);
    free(deep);
}

static void test_big_array(void)
{
    size_t n = 200000;
    char *s = malloc(2 * n + 1);
    s[0] = '[';
    for (size_t i = 0; i < n; i++) { s[1 + 2 * i] = (char)('0' + i % 10); s[2 + 2 * i] = ','; }
    s[2 * n] = ']';
    cz_json_error e;
    cz_json *v = parse(s, 2 * n + 1, 0, &e);
    CHECK(v && v->n == n);
    if (v) { CHECK(v->items[n - 1]->num == (double)((n - 1) % 10)); cz_json_free(v); }
    free(s);
}

static void test_hex(void)
{
    uint8_t b[8];
    size_t n;
    CHECK(cz_hex_to_bytes(b, 8, &n, "0x0aFf", 6) == CZ_OK && n == 2 && b[0] == 0x0a && b[1] == 0xff);
    CHECK(cz_hex_to_bytes(b, 8, &n, "", 0) == CZ_OK && n == 0);
    CHECK(cz_hex_to_bytes(b, 8, &n, "0x", 2) == CZ_OK && n == 0);
    CHECK(cz_hex_to_bytes(b, 8, &n, "abc", 3) == CZ_ERR_PARSE);
    CHECK(cz_hex_to_bytes(b, 8, &n, "zz", 2) == CZ_ERR_PARSE);
    CHECK(cz_hex_to_bytes(b, 1, &n, "aabb", 4) == CZ_ERR_LENGTH);
    CHECK(cz_hex_to_be(b, 4, "abc", 3) == CZ_OK && b[0] == 0 && b[1] == 0 && b[2] == 0x0a && b[3] == 0xbc);
    CHECK(cz_hex_to_be(b, 2, "0X000000ABCD", 12) == CZ_OK && b[0] == 0xab && b[1] == 0xcd);
    CHECK(cz_hex_to_be(b, 2, "1abcd", 5) == CZ_ERR_LENGTH);
    CHECK(cz_hex_to_be(b, 2, "0", 1) == CZ_OK && b[0] == 0 && b[1] == 0);
    CHECK(cz_hex_to_be(b, 2, "0x", 2) == CZ_ERR_PARSE);
    CHECK(cz_hex_to_be(b, 2, "-1", 2) == CZ_ERR_PARSE);
    char s[5];
    uint8_t in[2] = { 0x0f, 0xa0 };
    cz_hex_from_bytes(s, in, 2);
    CHECK(!strcmp(s, "0fa0"));
}

int main(void)
{
    test_values();
    test_strings();
    test_errors();
    test_depth();
    test_big_array();
    test_hex();
    return cz_test_finish("test_json");
}
