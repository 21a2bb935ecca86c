/* test_textbuf.c — util/textbuf (the JSON string escaper) and util/log (JSON
 * log lines): every escaped string, random bytes included, parses back with
 * util/json to the text it came from (invalid UTF-8 as U+FFFD); a JSON log
 * line is one object with ts, level, msg and typed fields; text lines and
 * the level filter as log.h says. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/json.h"
#include "util/log.h"
#include "util/rng.h"
#include "util/textbuf.h"

/* s escaped, parsed back; the decoded text in out (malloc'ed), NULL when it does not parse */
static char *roundtrip(const char *s)
{
    cz_textbuf b = {0};
    cz_tb_json_str(&b, s);
    char *text = cz_tb_take(&b);
    cz_json *v = NULL;
    cz_json_error e;
    char *out = NULL;
    if (cz_json_parse(&v, text, strlen(text), 0, &e) == CZ_OK && v->type == CZ_JSON_STRING) out = strdup(v->str);
    CHECK_MSG(out != NULL, "escaped text does not parse: %s", text);
    cz_json_free(v);
    free(text);
    return out;
}

static void same(const char *s)
{
    char *r = roundtrip(s);
    CHECK_MSG(r && !strcmp(r, s), "round trip of %s gave %s", s, r ? r : "(null)");
    free(r);
}

static void escapes(void)
{
    same("");
    same("plain text");
    same("quote \" backslash \\ slash /");
    same("tab\tnewline\ncr\rbell\x07 esc\x1b unit\x1f");
    same("utf-8: \xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80");
    /* invalid UTF-8 becomes U+FFFD, the rest is kept */
    static const char *bad[] = {"\xff", "a\xc3", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                                "\x80x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *r = roundtrip(bad[i]);
        CHECK_MSG(r && strstr(r, "\xef\xbf\xbd"), "invalid sequence %zu is replaced", i);
        free(r);
    }
    cz_textbuf b = {0};
    cz_tb_json_str(&b, "a\"b\n");
    CHECK(b.buf && !strcmp(b.buf, "\"a\\\"b\\n\""));
    cz_tb_put(&b, " %d %s", 42, "x");
    CHECK(b.buf && !strcmp(b.buf, "\"a\\\"b\\n\" 42 x") && b.len == strlen(b.buf));
    cz_tb_free(&b);
    CHECK(b.buf == NULL);
    char *empty = cz_tb_take(&b);
    CHECK(empty && !*empty);
    free(empty);
}

static void random_bytes(uint64_t seed)
{
    cz_rng r;
    cz_rng_seed(&r, seed);
    for (int t = 0; t < 2000; t++) {
        char s[64];
        size_t n = cz_rng_u64(&r) % (sizeof s - 1);
        for (size_t i = 0; i < n; i++) {
            char c = (char)cz_rng_u64(&r);
            s[i] = c ? c : 'z';
        }
        s[n] = 0;
        char *back = roundtrip(s);
        if (!back) continue;
        /* valid UTF-8 input comes back unchanged; any input comes back as valid text */
        int all_ascii = 1;
        for (size_t i = 0; i < n; i++) all_ascii &= (unsigned char)s[i] < 0x80;
        if (all_ascii) CHECK_MSG(!strcmp(back, s), "an ASCII string comes back unchanged (seed %llu)",
                                 (unsigned long long)seed);
        free(back);
    }
}

static char *read_all(FILE *f)
{
    fflush(f);
    long n = ftell(f);
    rewind(f);
    char *s = calloc((size_t)n + 1, 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) s[0] = 0;
    return s;
}

static void log_lines(void)
{
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f) return;
    cz_log_setup("prog", CZ_LOG_INFO, 1, f);
    cz_log(CZ_LOG_DEBUG, NULL, "filtered out");
    cz_log(CZ_LOG_WARN, (const char *const[]){"job_id", "ab-1", "n", "42", "neg", "-7", "lead0", "007", "msg", "x",
                                               NULL},
           "a \"quoted\" %s", "message\n");
    char *text = read_all(f);
    CHECK(text && strchr(text, '\n') == text + strlen(text) - 1);
    cz_json *v = NULL;
    cz_json_error e;
    CHECK_MSG(text && cz_json_parse(&v, text, strlen(text), 0, &e) == CZ_OK, "the line is JSON: %s", text);
    if (v) {
        const cz_json *ts = cz_json_get(v, "ts"), *lv = cz_json_get(v, "level"), *m = cz_json_get(v, "msg");
        CHECK(ts && ts->type == CZ_JSON_STRING && ts->len == 24 && ts->str[10] == 'T' && ts->str[23] == 'Z');
        CHECK(lv && lv->type == CZ_JSON_STRING && !strcmp(lv->str, "warn"));
        CHECK(m && m->type == CZ_JSON_STRING && !strcmp(m->str, "a \"quoted\" message\n"));
        CHECK(cz_json_key_count(v, "msg") == 1); /* a field named msg does not shadow the line's own */
        const cz_json *j = cz_json_get(v, "job_id"), *n = cz_json_get(v, "n"), *ng = cz_json_get(v, "neg"),
                      *l0 = cz_json_get(v, "lead0");
        CHECK(j && j->type == CZ_JSON_STRING && !strcmp(j->str, "ab-1"));
        CHECK(n && n->type == CZ_JSON_NUMBER && !strcmp(n->str, "42"));
        CHECK(ng && ng->type == CZ_JSON_NUMBER && !strcmp(ng->str, "-7"));
        CHECK(l0 && l0->type == CZ_JSON_STRING); /* not a JSON number */
        cz_json_free(v);
    }
    free(text);
    fclose(f);
    /* text: the message alone; ALWAYS passes the level filter */
    f = tmpfile();
    if (!f) return;
    cz_log_setup("prog", CZ_LOG_OFF, 0, f);
    cz_log(CZ_LOG_ERROR, NULL, "hidden");
    cz_log(CZ_LOG_ERROR | CZ_LOG_ALWAYS, (const char *const[]){"k", "v", NULL}, "fatal %d", 1);
    cz_log_setup("prog", CZ_LOG_TRACE, 0, f);
    cz_log(CZ_LOG_WARN, (const char *const[]){"k", "v", NULL}, "careful");
    text = read_all(f);
    CHECK_MSG(text && !strcmp(text, "prog: fatal 1\nprog: warning: careful\n"), "text lines: %s", text);
    free(text);
    fclose(f);
    CHECK(cz_log_level_of("debug") == CZ_LOG_DEBUG && cz_log_level_of("off") == CZ_LOG_OFF);
    CHECK(cz_log_level_of("loud") == -1 && cz_log_level_of(NULL) == -1);
    cz_log_setup("cuzk", CZ_LOG_INFO, 0, NULL);
}

int main(void)
{
    escapes();
    random_bytes(cz_test_seed("test_textbuf", 11));
    log_lines();
    return cz_test_finish("test_textbuf");
}
