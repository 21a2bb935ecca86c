/* json.c — recursive-descent JSON reader (see json.h).
 *
 * One cursor walks the text; every read is checked against the end first.
 * Recursion only happens for arrays and objects and is bounded by max_depth.
 * Strings are scanned once to find their closing quote (the decoded form is
 * never longer than the source), then decoded with UTF-8 and escape checks.
 * On any error the partly built tree is freed and the first error is kept. */
#include "util/json.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s;
    size_t len, pos;
    int depth, max_depth;
    cz_json_error *err;
    cz_err code;
} parser;

static void fail(parser *p, size_t at, const char *fmt, ...)
{
    if (p->code != CZ_OK) return;
    p->code = CZ_ERR_PARSE;
    if (!p->err) return;
    p->err->offset = at;
    cz_json_line_col(p->s, p->len, at, &p->err->line, &p->err->col);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
    va_end(ap);
}

static void fail_nomem(parser *p)
{
    if (p->code != CZ_OK) return;
    p->code = CZ_ERR_NOMEM;
    if (p->err) {
        p->err->offset = p->pos;
        cz_json_line_col(p->s, p->len, p->pos, &p->err->line, &p->err->col);
        snprintf(p->err->msg, sizeof p->err->msg, "out of memory");
    }
}

void cz_json_line_col(const char *text, size_t len, size_t offset, size_t *line, size_t *col)
{
    size_t l = 1, c = 1;
    if (offset > len) offset = len;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') { l++; c = 1; } else c++;
    }
    *line = l;
    *col = c;
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        p->pos++;
    }
}

static cz_json *new_node(parser *p, cz_json_type t, size_t at)
{
    cz_json *v = calloc(1, sizeof *v);
    if (!v) { fail_nomem(p); return NULL; }
    v->type = t;
    v->offset = at;
    return v;
}

void cz_json_free(cz_json *v)
{
    if (!v) return;
    for (size_t i = 0; i < v->n; i++) cz_json_free(v->items[i]);
    free(v->items);
    free(v->key);
    free(v->str);
    free(v);
}

static int push_child(parser *p, cz_json *parent, cz_json *child, size_t *cap)
{
    if (parent->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 4;
        if (nc > SIZE_MAX / sizeof(cz_json *)) { fail_nomem(p); return 0; }
        cz_json **ni = realloc(parent->items, nc * sizeof *ni);
        if (!ni) { fail_nomem(p); return 0; }
        parent->items = ni;
        *cap = nc;
    }
    parent->items[parent->n++] = child;
    return 1;
}

static void put_utf8(char *out, size_t *o, uint32_t cp)
{
    if (cp < 0x80) {
        out[(*o)++] = (char)cp;
    } else if (cp < 0x800) {
        out[(*o)++] = (char)(0xC0 | (cp >> 6));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[(*o)++] = (char)(0xE0 | (cp >> 12));
        out[(*o)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*o)++] = (char)(0xF0 | (cp >> 18));
        out[(*o)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[(*o)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    }
}

/* four hex digits at s[i..i+4), already known to be in bounds; -1 if not hex */
static long hex4(const char *s, size_t i)
{
    long v = 0;
    for (int k = 0; k < 4; k++) {
        char c = s[i + k];
        int d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return -1;
        v = v * 16 + d;
    }
    return v;
}

/* length of a valid UTF-8 sequence starting at s[i] (i < end), 0 if invalid */
static size_t utf8_len(const unsigned char *s, size_t i, size_t end)
{
    unsigned c = s[i];
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F; /* no encoded surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else return 0;
    if (end - i < n) return 0;
    if (s[i + 1] < lo || s[i + 1] > hi) return 0;
    for (size_t k = 2; k < n; k++)
        if (s[i + k] < 0x80 || s[i + k] > 0xBF) return 0;
    return n;
}

/* p->pos is at the opening quote. On success out and out_len hold the text. */
static int parse_string(parser *p, char **out, size_t *out_len)
{
    const char *s = p->s;
    size_t start = p->pos + 1, i = start;
    /* find the closing quote */
    for (;;) {
        if (i >= p->len) { fail(p, p->pos, "unterminated string"); return 0; }
        if (s[i] == '"') break;
        if (s[i] == '\\') i++;
        i++;
    }
    size_t end = i;
    char *buf = malloc(end - start + 1);
    if (!buf) { fail_nomem(p); return 0; }
    size_t o = 0;
    i = start;
    while (i < end) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20) { fail(p, i, "control character 0x%02x in string", c); goto bad; }
        if (c != '\\') {
            size_t n = utf8_len((const unsigned char *)s, i, end);
            if (!n) { fail(p, i, "invalid UTF-8 in string"); goto bad; }
            memcpy(buf + o, s + i, n);
            o += n;
            i += n;
            continue;
        }
        /* escape: s[i+1] exists because the scan above skipped it (i+1 < end) */
        char e = s[i + 1];
        switch (e) {
        case '"': buf[o++] = '"'; break;
        case '\\': buf[o++] = '\\'; break;
        case '/': buf[o++] = '/'; break;
        case 'b': buf[o++] = '\b'; break;
        case 'f': buf[o++] = '\f'; break;
        case 'n': buf[o++] = '\n'; break;
        case 'r': buf[o++] = '\r'; break;
        case 't': buf[o++] = '\t'; break;
        case 'u': {
            if (end - i < 6) { fail(p, i, "short \\u escape"); goto bad; }
            long cp = hex4(s, i + 2);
            if (cp < 0) { fail(p, i, "bad hex digit in \\u escape"); goto bad; }
            if (cp >= 0xDC00 && cp <= 0xDFFF) { fail(p, i, "lone low surrogate \\u%04lx", cp); goto bad; }
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (end - i < 12 || s[i + 6] != '\\' || s[i + 7] != 'u') {
                    fail(p, i, "high surrogate \\u%04lx without a low one", cp);
                    goto bad;
                }
                long lo = hex4(s, i + 8);
                if (lo < 0xDC00 || lo > 0xDFFF) {
                    fail(p, i + 6, "high surrogate \\u%04lx not followed by a low one", cp);
                    goto bad;
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                i += 6;
            }
            put_utf8(buf, &o, (uint32_t)cp);
            i += 6;
            continue;
        }
        default:
            fail(p, i, "invalid escape '\\%c'", (e >= 0x20 && e < 0x7f) ? e : '?');
            goto bad;
        }
        i += 2;
    }
    buf[o] = 0;
    *out = buf;
    *out_len = o;
    p->pos = end + 1;
    return 1;
bad:
    free(buf);
    return 0;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static cz_json *parse_number(parser *p)
{
    const char *s = p->s;
    size_t start = p->pos, i = start;
    if (i < p->len && s[i] == '-') i++;
    if (i >= p->len || !is_digit(s[i])) { fail(p, i, "expected a digit"); return NULL; }
    if (s[i] == '0') {
        i++;
        if (i < p->len && is_digit(s[i])) { fail(p, i, "leading zero in number"); return NULL; }
    } else {
        while (i < p->len && is_digit(s[i])) i++;
    }
    if (i < p->len && s[i] == '.') {
        i++;
        if (i >= p->len || !is_digit(s[i])) { fail(p, i, "expected a digit after '.'"); return NULL; }
        while (i < p->len && is_digit(s[i])) i++;
    }
    if (i < p->len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < p->len && (s[i] == '+' || s[i] == '-')) i++;
        if (i >= p->len || !is_digit(s[i])) { fail(p, i, "expected a digit in exponent"); return NULL; }
        while (i < p->len && is_digit(s[i])) i++;
    }
    cz_json *v = new_node(p, CZ_JSON_NUMBER, start);
    if (!v) return NULL;
    v->len = i - start;
    v->str = malloc(v->len + 1);
    if (!v->str) { free(v); fail_nomem(p); return NULL; }
    memcpy(v->str, s + start, v->len);
    v->str[v->len] = 0;
    v->num = strtod(v->str, NULL);
    p->pos = i;
    return v;
}

static cz_json *parse_value(parser *p);

static cz_json *parse_array(parser *p)
{
    cz_json *v = new_node(p, CZ_JSON_ARRAY, p->pos);
    if (!v) return NULL;
    size_t cap = 0;
    p->pos++; /* '[' */
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ']') { p->pos++; return v; }
    for (;;) {
        cz_json *c = parse_value(p);
        if (!c) goto bad;
        if (!push_child(p, v, c, &cap)) { cz_json_free(c); goto bad; }
        skip_ws(p);
        if (p->pos >= p->len) { fail(p, p->pos, "unterminated array"); goto bad; }
        char ch = p->s[p->pos];
        if (ch == ',') { p->pos++; continue; }
        if (ch == ']') { p->pos++; return v; }
        fail(p, p->pos, "expected ',' or ']' in array");
        goto bad;
    }
bad:
    cz_json_free(v);
    return NULL;
}

static cz_json *parse_object(parser *p)
{
    cz_json *v = new_node(p, CZ_JSON_OBJECT, p->pos);
    if (!v) return NULL;
    size_t cap = 0;
    p->pos++; /* '{' */
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == '}') { p->pos++; return v; }
    for (;;) {
        skip_ws(p);
        if (p->pos >= p->len || p->s[p->pos] != '"') {
            fail(p, p->pos, p->pos >= p->len ? "unterminated object" : "expected a string key");
            goto bad;
        }
        char *key;
        size_t key_len;
        if (!parse_string(p, &key, &key_len)) goto bad;
        skip_ws(p);
        if (p->pos >= p->len || p->s[p->pos] != ':') {
            free(key);
            fail(p, p->pos, "expected ':' after object key");
            goto bad;
        }
        p->pos++;
        cz_json *c = parse_value(p);
        if (!c) { free(key); goto bad; }
        c->key = key;
        c->key_len = key_len;
        if (!push_child(p, v, c, &cap)) { cz_json_free(c); goto bad; }
        skip_ws(p);
        if (p->pos >= p->len) { fail(p, p->pos, "unterminated object"); goto bad; }
        char ch = p->s[p->pos];
        if (ch == ',') { p->pos++; continue; }
        if (ch == '}') { p->pos++; return v; }
        fail(p, p->pos, "expected ',' or '}' in object");
        goto bad;
    }
bad:
    cz_json_free(v);
    return NULL;
}

static cz_json *parse_literal(parser *p, const char *word, cz_json_type t)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0) {
        fail(p, p->pos, "invalid literal (expected '%s')", word);
        return NULL;
    }
    cz_json *v = new_node(p, t, p->pos);
    if (v) p->pos += n;
    return v;
}

static cz_json *parse_value(parser *p)
{
    skip_ws(p);
    if (p->pos >= p->len) { fail(p, p->pos, "unexpected end of input, expected a value"); return NULL; }
    char c = p->s[p->pos];
    switch (c) {
    case '{':
    case '[': {
        if (p->depth >= p->max_depth) {
            fail(p, p->pos, "nesting deeper than %d", p->max_depth);
            return NULL;
        }
        p->depth++;
        cz_json *v = c == '{' ? parse_object(p) : parse_array(p);
        p->depth--;
        return v;
    }
    case '"': {
        cz_json *v = new_node(p, CZ_JSON_STRING, p->pos);
        if (!v) return NULL;
        if (!parse_string(p, &v->str, &v->len)) { free(v); return NULL; }
        return v;
    }
    case 't': return parse_literal(p, "true", CZ_JSON_TRUE);
    case 'f': return parse_literal(p, "false", CZ_JSON_FALSE);
    case 'n': return parse_literal(p, "null", CZ_JSON_NULL);
    default:
        if (c == '-' || is_digit(c)) return parse_number(p);
        if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
            fail(p, p->pos, "unexpected character '%c'", c);
        else
            fail(p, p->pos, "unexpected byte 0x%02x", (unsigned char)c);
        return NULL;
    }
}

cz_err cz_json_parse(cz_json **out, const char *text, size_t len, int max_depth,
                     cz_json_error *err)
{
    parser p = { text, len, 0, 0, max_depth > 0 ? max_depth : CZ_JSON_DEFAULT_DEPTH, err, CZ_OK };
    *out = NULL;
    if (err) memset(err, 0, sizeof *err);
    if (!text && len) { fail(&p, 0, "no input"); return p.code; }
    cz_json *v = parse_value(&p);
    if (!v) return p.code != CZ_OK ? p.code : CZ_ERR_PARSE;
    skip_ws(&p);
    if (p.pos != p.len) {
        fail(&p, p.pos, "trailing characters after the JSON value");
        cz_json_free(v);
        return p.code;
    }
    *out = v;
    return CZ_OK;
}

const cz_json *cz_json_get(const cz_json *obj, const char *key)
{
    if (!obj || obj->type != CZ_JSON_OBJECT) return NULL;
    size_t kl = strlen(key);
    for (size_t i = 0; i < obj->n; i++) {
        const cz_json *c = obj->items[i];
        if (c->key_len == kl && memcmp(c->key, key, kl) == 0) return c;
    }
    return NULL;
}

size_t cz_json_key_count(const cz_json *obj, const char *key)
{
    if (!obj || obj->type != CZ_JSON_OBJECT) return 0;
    size_t kl = strlen(key), n = 0;
    for (size_t i = 0; i < obj->n; i++) {
        const cz_json *c = obj->items[i];
        if (c->key_len == kl && memcmp(c->key, key, kl) == 0) n++;
    }
    return n;
}

const char *cz_json_type_name(cz_json_type t)
{
    switch (t) {
    case CZ_JSON_NULL: return "null";
    case CZ_JSON_FALSE: return "false";
    case CZ_JSON_TRUE: return "true";
    case CZ_JSON_NUMBER: return "number";
    case CZ_JSON_STRING: return "string";
    case CZ_JSON_ARRAY: return "array";
    case CZ_JSON_OBJECT: return "object";
    }
    return "?";
}
