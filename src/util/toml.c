/* toml.c — the TOML subset reader described in toml.h.
 *
 * One pass over the text with a cursor (pos, line). The text is checked for
 * UTF-8 and NUL bytes first, so the scanner can treat it as bytes. Each
 * `key = value` becomes an entry whose path is the current table's path plus
 * the key's components; conflicts (the same path twice, or a path that is both
 * a value and a prefix of another) are found by comparing against the entries
 * and table headers seen so far, which is quadratic but config files are
 * short. Any failure frees what was built and leaves one message
 * "line N: reason". */
#include "util/toml.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARRAY_DEPTH 32

typedef struct {
    char **path;
    size_t depth;
} keypath;

typedef struct {
    const char *s;
    size_t len, pos;
    int line;
    char *msg;
    size_t msglen;
    cz_err err;              /* first failure, CZ_OK while none */
    cz_toml *t;
    size_t cap_entries;
    keypath cur;             /* current [table] */
    keypath *tables;         /* headers seen so far */
    size_t ntables, cap_tables;
    keypath *arrays;         /* paths of arrays of tables ([[x]]) */
    size_t *counts;          /* elements of each so far */
    size_t narrays, cap_arrays;
} parser;

static cz_err fail(parser *p, cz_err e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static cz_err fail(parser *p, cz_err e, const char *fmt, ...)
{
    if (p->err)
        return p->err;
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    p->err = e;
    return cz_fail(e, p->msg, p->msglen, "line %d: %s", p->line, buf);
}

static cz_err nomem(parser *p) { return fail(p, CZ_ERR_NOMEM, "out of memory"); }

static int peek(const parser *p) { return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1; }
static int peek_at(const parser *p, size_t k)
{
    return p->pos + k < p->len ? (unsigned char)p->s[p->pos + k] : -1;
}

/* ---- growable byte buffer ---- */

typedef struct {
    char *b;
    size_t n, cap;
} buf;

static int buf_put(buf *b, const char *src, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 32;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *nb = realloc(b->b, cap);
        if (!nb)
            return -1;
        b->b = nb;
        b->cap = cap;
    }
    memcpy(b->b + b->n, src, n);
    b->n += n;
    b->b[b->n] = 0;
    return 0;
}

/* ---- checks on the whole text ---- */

static cz_err check_utf8(parser *p)
{
    const unsigned char *s = (const unsigned char *)p->s;
    size_t i = 0;
    while (i < p->len) {
        unsigned c = s[i];
        if (c == '\n') {
            p->line++;
            i++;
            continue;
        }
        if (c == 0)
            return fail(p, CZ_ERR_PARSE, "NUL byte in the text");
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned cp, min;
        if ((c & 0xE0) == 0xC0) { need = 1; cp = c & 0x1F; min = 0x80; }
        else if ((c & 0xF0) == 0xE0) { need = 2; cp = c & 0x0F; min = 0x800; }
        else if ((c & 0xF8) == 0xF0) { need = 3; cp = c & 0x07; min = 0x10000; }
        else return fail(p, CZ_ERR_PARSE, "text is not valid UTF-8");
        if (need > p->len - i - 1)
            return fail(p, CZ_ERR_PARSE, "text is not valid UTF-8 (truncated sequence)");
        for (size_t k = 1; k <= need; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return fail(p, CZ_ERR_PARSE, "text is not valid UTF-8");
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return fail(p, CZ_ERR_PARSE, "text is not valid UTF-8");
        i += need + 1;
    }
    p->line = 1;
    return CZ_OK;
}

/* ---- whitespace, comments, line ends ---- */

static void skip_ws(parser *p)
{
    while (peek(p) == ' ' || peek(p) == '\t')
        p->pos++;
}

/* a comment runs to the end of the line; control characters are refused */
static cz_err skip_comment(parser *p)
{
    if (peek(p) != '#')
        return CZ_OK;
    while (p->pos < p->len && p->s[p->pos] != '\n') {
        unsigned char c = (unsigned char)p->s[p->pos];
        if ((c < 0x20 && c != '\t' && !(c == '\r' && peek_at(p, 1) == '\n')) || c == 0x7F)
            return fail(p, CZ_ERR_PARSE, "control character in a comment");
        p->pos++;
    }
    return CZ_OK;
}

/* consumes one line end (LF or CRLF); returns 1 if one was there */
static int eat_newline(parser *p)
{
    if (peek(p) == '\n') {
        p->pos++;
        p->line++;
        return 1;
    }
    if (peek(p) == '\r' && peek_at(p, 1) == '\n') {
        p->pos += 2;
        p->line++;
        return 1;
    }
    return 0;
}

/* after a header or a value: blanks, an optional comment, then a line end or EOF */
static cz_err end_of_line(parser *p, const char *after)
{
    skip_ws(p);
    if (skip_comment(p))
        return p->err;
    if (p->pos >= p->len || eat_newline(p))
        return CZ_OK;
    int c = peek(p);
    if (c == '\r')
        return fail(p, CZ_ERR_PARSE, "carriage return without a line feed");
    if (c >= 0x21 && c < 0x7F)
        return fail(p, CZ_ERR_PARSE, "unexpected '%c' after %s", c, after);
    return fail(p, CZ_ERR_PARSE, "unexpected text after %s", after);
}

/* ---- strings ---- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int put_utf8(buf *b, unsigned cp)
{
    char o[4];
    size_t n;
    if (cp < 0x80) { o[0] = (char)cp; n = 1; }
    else if (cp < 0x800) { o[0] = (char)(0xC0 | (cp >> 6)); o[1] = (char)(0x80 | (cp & 0x3F)); n = 2; }
    else if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12)); o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F)); n = 3;
    } else {
        o[0] = (char)(0xF0 | (cp >> 18)); o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        o[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); o[3] = (char)(0x80 | (cp & 0x3F)); n = 4;
    }
    return buf_put(b, o, n);
}

/* p at the opening quote(s); on success *out is malloc'd, NUL-terminated.
 * allow_ml admits the multi-line forms (three quotes): a line end right after
 * the opening quotes is dropped, line ends inside are kept as LF, one or two
 * quotes may stand anywhere (also just before the closing three), and in the
 * basic form a backslash ending a line swallows the blanks and line ends
 * that follow. */
static cz_err parse_string(parser *p, char **out, size_t *out_len, int allow_ml)
{
    int quote = peek(p);
    int ml = peek_at(p, 1) == quote && peek_at(p, 2) == quote;
    if (ml && !allow_ml)
        return fail(p, CZ_ERR_PARSE, "a multi-line string cannot be a key");
    p->pos += ml ? 3 : 1;
    buf b = {0};
    if (buf_put(&b, "", 0))
        return nomem(p);
    if (ml)
        eat_newline(p);
    for (;;) {
        int c = peek(p);
        if (c < 0) {
            fail(p, CZ_ERR_PARSE, "unterminated string");
            goto fail;
        }
        if (c == '\n' || (c == '\r' && peek_at(p, 1) == '\n')) {
            if (!ml) {
                fail(p, CZ_ERR_PARSE, "unterminated string");
                goto fail;
            }
            eat_newline(p);
            if (buf_put(&b, "\n", 1)) {
                nomem(p);
                goto fail;
            }
            continue;
        }
        if (c == quote) {
            if (!ml) {
                p->pos++;
                break;
            }
            size_t run = 0;
            while (peek_at(p, run) == quote)
                run++;
            if (run > 5) {
                fail(p, CZ_ERR_PARSE, "more than five quotes in a row in a multi-line string");
                goto fail;
            }
            size_t keep = run >= 3 ? run - 3 : run;
            if (buf_put(&b, p->s + p->pos, keep)) {
                nomem(p);
                goto fail;
            }
            p->pos += run;
            if (run >= 3)
                break;
            continue;
        }
        if ((c < 0x20 && c != '\t') || c == 0x7F) {
            fail(p, CZ_ERR_PARSE, "control character in a string (write it as an escape)");
            goto fail;
        }
        if (c == '\\' && quote == '"') {
            int e = peek_at(p, 1);
            const char *rep = NULL;
            if (ml && (e == ' ' || e == '\t' || e == '\n' || e == '\r')) {
                size_t k = 1;
                while (peek_at(p, k) == ' ' || peek_at(p, k) == '\t')
                    k++;
                if (peek_at(p, k) == '\n' || (peek_at(p, k) == '\r' && peek_at(p, k + 1) == '\n')) {
                    p->pos += k;
                    for (;;) {
                        skip_ws(p);
                        if (!eat_newline(p))
                            break;
                    }
                    continue;
                }
            }
            switch (e) {
            case 'b': rep = "\b"; break;
            case 't': rep = "\t"; break;
            case 'n': rep = "\n"; break;
            case 'f': rep = "\f"; break;
            case 'r': rep = "\r"; break;
            case '"': rep = "\""; break;
            case '\\': rep = "\\"; break;
            case 'u': case 'U': {
                int nd = e == 'u' ? 4 : 8;
                unsigned cp = 0;
                for (int k = 0; k < nd; k++) {
                    int h = hexval(peek_at(p, 2 + (size_t)k));
                    if (h < 0) {
                        fail(p, CZ_ERR_PARSE, "\\%c needs %d hex digits", e, nd);
                        goto fail;
                    }
                    cp = (cp << 4) | (unsigned)h;
                }
                if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                    fail(p, CZ_ERR_PARSE, "\\%c escape is not a Unicode scalar value", e);
                    goto fail;
                }
                if (cp == 0) {
                    fail(p, CZ_ERR_PARSE, "U+0000 in a string is not supported");
                    goto fail;
                }
                if (put_utf8(&b, cp)) {
                    nomem(p);
                    goto fail;
                }
                p->pos += 2 + (size_t)nd;
                continue;
            }
            default:
                if (e >= 0x21 && e < 0x7F)
                    fail(p, CZ_ERR_PARSE, "unknown escape \\%c in a string", e);
                else
                    fail(p, CZ_ERR_PARSE, "unknown escape in a string");
                goto fail;
            }
            if (buf_put(&b, rep, 1)) {
                nomem(p);
                goto fail;
            }
            p->pos += 2;
            continue;
        }
        if (buf_put(&b, p->s + p->pos, 1)) {
            nomem(p);
            goto fail;
        }
        p->pos++;
    }
    *out = b.b;
    *out_len = b.n;
    return CZ_OK;
fail:
    free(b.b);
    return p->err;
}

/* ---- keys ---- */

static int is_bare(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

static void keypath_free(keypath *k)
{
    for (size_t i = 0; i < k->depth; i++)
        free(k->path[i]);
    free(k->path);
    k->path = NULL;
    k->depth = 0;
}

static cz_err keypath_push(parser *p, keypath *k, char *s)
{
    char **np = realloc(k->path, (k->depth + 1) * sizeof *np);
    if (!np) {
        free(s);
        return nomem(p);
    }
    k->path = np;
    k->path[k->depth++] = s;
    return CZ_OK;
}

/* key ( '.' key )*, with blanks around the dots */
static cz_err parse_key(parser *p, keypath *k)
{
    for (;;) {
        skip_ws(p);
        int c = peek(p);
        char *s = NULL;
        size_t n = 0;
        if (c == '"' || c == '\'') {
            if (parse_string(p, &s, &n, 0))
                return p->err;
        } else if (c >= 0 && is_bare(c)) {
            size_t st = p->pos;
            while (peek(p) >= 0 && is_bare(peek(p)))
                p->pos++;
            n = p->pos - st;
            s = malloc(n + 1);
            if (!s)
                return nomem(p);
            memcpy(s, p->s + st, n);
            s[n] = 0;
        } else if (c < 0 || c == '\n' || c == '\r') {
            return fail(p, CZ_ERR_PARSE, "expected a key");
        } else if (c >= 0x21 && c < 0x7F) {
            return fail(p, CZ_ERR_PARSE, "'%c' cannot start a key (quote the key)", c);
        } else {
            return fail(p, CZ_ERR_PARSE, "a bare key may hold only A-Z a-z 0-9 _ - (quote the key)");
        }
        if (keypath_push(p, k, s))
            return p->err;
        skip_ws(p);
        if (peek(p) != '.')
            return CZ_OK;
        p->pos++;
    }
}

/* ---- numbers, booleans ---- */

static int is_token(int c)
{
    return is_bare(c) || c == '+' || c == '.' || c == ':';
}

/* digits of a base with '_' allowed only between two digits; returns count or -1 */
static int scan_digits(const char *t, size_t n, size_t *i, int base)
{
    int count = 0;
    int prev_digit = 0;
    while (*i < n) {
        int c = (unsigned char)t[*i];
        int d = hexval(c);
        if (c == '_') {
            if (!prev_digit || *i + 1 >= n || hexval((unsigned char)t[*i + 1]) < 0 ||
                hexval((unsigned char)t[*i + 1]) >= base)
                return -1;
            prev_digit = 0;
            (*i)++;
            continue;
        }
        if (d < 0 || d >= base)
            break;
        prev_digit = 1;
        count++;
        (*i)++;
    }
    return count;
}

/* ---- dates and times, kept as their text ---- */

static int digits_at(const char *t, size_t n, size_t i, size_t count, int *val)
{
    if (i + count > n)
        return 0;
    int v = 0;
    for (size_t k = 0; k < count; k++) {
        if (t[i + k] < '0' || t[i + k] > '9')
            return 0;
        v = v * 10 + (t[i + k] - '0');
    }
    *val = v;
    return 1;
}

/* HH:MM:SS(.frac)?, returns the length read or 0 */
static size_t scan_time(const char *t, size_t n, size_t i)
{
    int h, m, sec;
    if (!digits_at(t, n, i, 2, &h) || i + 2 >= n || t[i + 2] != ':' ||
        !digits_at(t, n, i + 3, 2, &m) || i + 5 >= n || t[i + 5] != ':' ||
        !digits_at(t, n, i + 6, 2, &sec))
        return 0;
    if (h > 23 || m > 59 || sec > 60)
        return 0;
    size_t k = i + 8;
    if (k < n && t[k] == '.') {
        size_t f = ++k;
        while (k < n && t[k] >= '0' && t[k] <= '9')
            k++;
        if (k == f)
            return 0;
    }
    return k - i;
}

/* a TOML offset date-time, local date-time, local date or local time */
static int is_datetime(const char *t, size_t n)
{
    int y, mo, d;
    size_t i = 0;
    if (n >= 10 && digits_at(t, n, 0, 4, &y) && t[4] == '-' && digits_at(t, n, 5, 2, &mo) &&
        t[7] == '-' && digits_at(t, n, 8, 2, &d)) {
        static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1])
            return 0;
        if (mo == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
            return 0;
        if (n == 10)
            return 1;
        if (t[10] != 'T' && t[10] != 't' && t[10] != ' ')
            return 0;
        i = 11;
        size_t tl = scan_time(t, n, i);
        if (!tl)
            return 0;
        i += tl;
        if (i == n)
            return 1;
        if ((t[i] == 'Z' || t[i] == 'z') && i + 1 == n)
            return 1;
        int oh, om;
        return (t[i] == '+' || t[i] == '-') && i + 6 == n && digits_at(t, n, i + 1, 2, &oh) &&
               t[i + 3] == ':' && digits_at(t, n, i + 4, 2, &om) && oh <= 23 && om <= 59;
    }
    return scan_time(t, n, 0) == n && n > 0;
}

static cz_err parse_number(parser *p, cz_toml_value *v, const char *t, size_t n)
{
    char shown[48];
    snprintf(shown, sizeof shown, "%.*s%s", (int)(n > 40 ? 40 : n), t, n > 40 ? "..." : "");

    /* dates and times: a colon, or NNNN-NN */
    if (memchr(t, ':', n) ||
        (n >= 5 && t[0] >= '0' && t[0] <= '9' && t[1] >= '0' && t[1] <= '9' && t[2] >= '0' &&
         t[2] <= '9' && t[3] >= '0' && t[3] <= '9' && t[4] == '-')) {
        if (!is_datetime(t, n))
            return fail(p, CZ_ERR_PARSE, "invalid date or time '%s'", shown);
        v->str = malloc(n + 1);
        if (!v->str)
            return nomem(p);
        memcpy(v->str, t, n);
        v->str[n] = 0;
        v->len = n;
        v->type = CZ_TOML_DATETIME;
        return CZ_OK;
    }

    size_t i = 0;
    int neg = 0, sign = 0;
    if (t[0] == '+' || t[0] == '-') {
        neg = t[0] == '-';
        sign = 1;
        i = 1;
    }
    if (n - i == 3 && (memcmp(t + i, "inf", 3) == 0 || memcmp(t + i, "nan", 3) == 0)) {
        v->type = CZ_TOML_FLOAT;
        v->f = t[i] == 'i' ? (neg ? -1.0 : 1.0) * __builtin_inf() : __builtin_nan("");
        return CZ_OK;
    }
    if (!sign && n >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'o' || t[1] == 'b')) {
        int base = t[1] == 'x' ? 16 : t[1] == 'o' ? 8 : 2;
        i = 2;
        if (scan_digits(t, n, &i, base) <= 0 || i != n)
            return fail(p, CZ_ERR_PARSE, "invalid integer '%s'", shown);
        uint64_t acc = 0;
        for (size_t k = 2; k < n; k++) {
            if (t[k] == '_')
                continue;
            unsigned d = (unsigned)hexval((unsigned char)t[k]);
            if (acc > (UINT64_C(0x7FFFFFFFFFFFFFFF) - d) / (unsigned)base)
                return fail(p, CZ_ERR_PARSE, "integer '%s' does not fit in 64 bits", shown);
            acc = acc * (unsigned)base + d;
        }
        v->type = CZ_TOML_INT;
        v->i = (int64_t)acc;
        return CZ_OK;
    }

    size_t int_start = i;
    int nd = scan_digits(t, n, &i, 10);
    if (nd <= 0)
        goto bad;
    if (t[int_start] == '0' && nd > 1)
        return fail(p, CZ_ERR_PARSE, "leading zeros are not allowed ('%s')", shown);
    int is_float = 0;
    if (i < n && t[i] == '.') {
        i++;
        if (scan_digits(t, n, &i, 10) <= 0)
            goto bad;
        is_float = 1;
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        i++;
        if (i < n && (t[i] == '+' || t[i] == '-'))
            i++;
        if (scan_digits(t, n, &i, 10) <= 0)
            goto bad;
        is_float = 1;
    }
    if (i != n)
        goto bad;

    char clean[128];
    size_t cn = 0;
    for (size_t k = 0; k < n; k++) {
        if (t[k] == '_')
            continue;
        if (cn + 1 >= sizeof clean)
            return fail(p, CZ_ERR_PARSE, "number '%s' is too long", shown);
        clean[cn++] = t[k];
    }
    clean[cn] = 0;
    errno = 0;
    if (is_float) {
        v->type = CZ_TOML_FLOAT;
        v->f = strtod(clean, NULL);
        return CZ_OK;
    }
    long long x = strtoll(clean, NULL, 10);
    if (errno == ERANGE)
        return fail(p, CZ_ERR_PARSE, "integer '%s' does not fit in 64 bits", shown);
    v->type = CZ_TOML_INT;
    v->i = x;
    return CZ_OK;
bad:
    if ((t[0] >= 'a' && t[0] <= 'z') || (t[0] >= 'A' && t[0] <= 'Z'))
        return fail(p, CZ_ERR_PARSE, "invalid value '%s' (strings need quotes)", shown);
    return fail(p, CZ_ERR_PARSE, "invalid number '%s'", shown);
}

/* ---- values ---- */

static void value_free(cz_toml_value *v)
{
    if (v->type == CZ_TOML_STRING || v->type == CZ_TOML_DATETIME)
        free(v->str);
    if (v->type == CZ_TOML_ARRAY) {
        for (size_t i = 0; i < v->n; i++)
            value_free(&v->items[i]);
        free(v->items);
    }
    memset(v, 0, sizeof *v);
}

/* blanks, comments and line ends between array elements */
static cz_err skip_array_space(parser *p)
{
    for (;;) {
        skip_ws(p);
        if (skip_comment(p))
            return p->err;
        if (!eat_newline(p))
            return CZ_OK;
    }
}

static cz_err parse_value(parser *p, cz_toml_value *v, int depth)
{
    memset(v, 0, sizeof *v);
    v->type = CZ_TOML_BOOL; /* nothing to free until set otherwise */
    v->line = p->line;
    int c = peek(p);
    if (c == '"' || c == '\'') {
        char *s;
        size_t n;
        if (parse_string(p, &s, &n, 1))
            return p->err;
        v->type = CZ_TOML_STRING;
        v->str = s;
        v->len = n;
        return CZ_OK;
    }
    if (c == '{')
        return fail(p, CZ_ERR_PARSE, "inline tables inside arrays are not supported");
    if (c == '[') {
        if (depth >= MAX_ARRAY_DEPTH)
            return fail(p, CZ_ERR_PARSE, "arrays nested deeper than %d", MAX_ARRAY_DEPTH);
        p->pos++;
        v->type = CZ_TOML_ARRAY;
        size_t cap = 0;
        for (;;) {
            if (skip_array_space(p))
                return p->err;
            if (peek(p) == ']') {
                p->pos++;
                return CZ_OK;
            }
            if (peek(p) < 0)
                return fail(p, CZ_ERR_PARSE, "unterminated array");
            if (v->n == cap) {
                size_t nc = cap ? cap * 2 : 4;
                cz_toml_value *ni = realloc(v->items, nc * sizeof *ni);
                if (!ni)
                    return nomem(p);
                v->items = ni;
                cap = nc;
            }
            cz_err e = parse_value(p, &v->items[v->n], depth + 1);
            v->n++; /* counted even on failure, so value_free releases it */
            if (e)
                return e;
            if (skip_array_space(p))
                return p->err;
            if (peek(p) == ',') {
                p->pos++;
                continue;
            }
            if (peek(p) == ']') {
                p->pos++;
                return CZ_OK;
            }
            if (peek(p) < 0)
                return fail(p, CZ_ERR_PARSE, "unterminated array");
            return fail(p, CZ_ERR_PARSE, "expected ',' or ']' in an array");
        }
    }
    if (c < 0 || c == '\n' || c == '\r' || c == '#')
        return fail(p, CZ_ERR_PARSE, "missing value");
    if (!is_token(c) || c == '.' || c == ':')
        return fail(p, CZ_ERR_PARSE, "invalid value");
    size_t st = p->pos;
    while (peek(p) >= 0 && is_token(peek(p)))
        p->pos++;
    /* a date, a space, then a time: one value */
    if (p->pos - st == 10 && p->s[st + 4] == '-' && peek(p) == ' ' && peek_at(p, 1) >= '0' &&
        peek_at(p, 1) <= '9' && peek_at(p, 2) >= '0' && peek_at(p, 2) <= '9' && peek_at(p, 3) == ':') {
        p->pos++;
        while (peek(p) >= 0 && is_token(peek(p)))
            p->pos++;
    }
    const char *t = p->s + st;
    size_t n = p->pos - st;
    if (n == 4 && memcmp(t, "true", 4) == 0) {
        v->type = CZ_TOML_BOOL;
        v->b = 1;
        return CZ_OK;
    }
    if (n == 5 && memcmp(t, "false", 5) == 0) {
        v->type = CZ_TOML_BOOL;
        v->b = 0;
        return CZ_OK;
    }
    return parse_number(p, v, t, n);
}

/* ---- conflicts between paths ---- */

/* 1 when a[0..na) is a prefix of (or equal to) b[0..nb) */
static int is_prefix(char **a, size_t na, char **b, size_t nb)
{
    if (na > nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0)
            return 0;
    return 1;
}

static void join(char *out, size_t cap, char **path, size_t depth)
{
    size_t o = 0;
    out[0] = 0;
    for (size_t i = 0; i < depth && o + 1 < cap; i++) {
        int n = snprintf(out + o, cap - o, "%s%s", i ? "." : "", path[i]);
        if (n < 0)
            break;
        o += (size_t)n;
        if (o >= cap)
            o = cap - 1;
    }
}

static cz_err check_entry(parser *p, char **path, size_t depth)
{
    char a[128], b[128];
    for (size_t i = 0; i < p->t->n; i++) {
        const cz_toml_entry *e = &p->t->entries[i];
        if (e->depth == depth && is_prefix(e->path, e->depth, path, depth)) {
            join(a, sizeof a, path, depth);
            return fail(p, CZ_ERR_PARSE, "duplicate key '%s' (first set on line %d)", a, e->line);
        }
        if (is_prefix(e->path, e->depth, path, depth) || is_prefix(path, depth, e->path, e->depth)) {
            join(a, sizeof a, path, depth);
            join(b, sizeof b, e->path, e->depth);
            return fail(p, CZ_ERR_PARSE, "key '%s' conflicts with '%s' (line %d)", a, b, e->line);
        }
    }
    for (size_t i = 0; i < p->ntables; i++) {
        const keypath *k = &p->tables[i];
        if (is_prefix(path, depth, k->path, k->depth)) {
            join(a, sizeof a, path, depth);
            return fail(p, CZ_ERR_PARSE, "key '%s' is already a table", a);
        }
    }
    return CZ_OK;
}

static cz_err keypath_copy(parser *p, keypath *dst, const keypath *src)
{
    for (size_t i = 0; i < src->depth; i++) {
        char *c = strdup(src->path[i]);
        if (!c)
            return nomem(p);
        if (keypath_push(p, dst, c))
            return p->err;
    }
    return CZ_OK;
}

/* records k as a defined table, taking it, after the conflict checks; on
 * failure k stays the caller's */
static cz_err define_table(parser *p, keypath *k, int header)
{
    char a[128];
    for (size_t i = 0; i < p->ntables; i++) {
        if (p->tables[i].depth == k->depth && is_prefix(k->path, k->depth, p->tables[i].path, k->depth)) {
            join(a, sizeof a, k->path, k->depth);
            return fail(p, CZ_ERR_PARSE, header ? "table [%s] is defined twice"
                                                : "inline table '%s' defines a table again", a);
        }
    }
    for (size_t i = 0; i < p->t->n; i++) {
        const cz_toml_entry *e = &p->t->entries[i];
        if (is_prefix(e->path, e->depth, k->path, k->depth)) {
            join(a, sizeof a, e->path, e->depth);
            return fail(p, CZ_ERR_PARSE, "table conflicts with key '%s' (line %d)", a, e->line);
        }
    }
    if (p->ntables == p->cap_tables) {
        size_t nc = p->cap_tables ? p->cap_tables * 2 : 8;
        keypath *nt = realloc(p->tables, nc * sizeof *nt);
        if (!nt)
            return nomem(p);
        p->tables = nt;
        p->cap_tables = nc;
    }
    p->tables[p->ntables++] = *k;
    k->path = NULL;
    k->depth = 0;
    return CZ_OK;
}

/* appends an entry, taking k and v */
static cz_err push_entry(parser *p, keypath *k, int line, cz_toml_value *v)
{
    if (p->t->n == p->cap_entries) {
        size_t nc = p->cap_entries ? p->cap_entries * 2 : 16;
        cz_toml_entry *ne = realloc(p->t->entries, nc * sizeof *ne);
        if (!ne)
            return nomem(p);
        p->t->entries = ne;
        p->cap_entries = nc;
    }
    cz_toml_entry *e = &p->t->entries[p->t->n++];
    e->path = k->path;
    e->depth = k->depth;
    e->line = line;
    e->value = *v;
    k->path = NULL;
    k->depth = 0;
    memset(v, 0, sizeof *v);
    return CZ_OK;
}

static cz_err parse_inline(parser *p, const keypath *prefix, int depth);

/* one `key = value` inside an inline table whose path is prefix */
static cz_err inline_member(parser *p, const keypath *prefix, int depth)
{
    int line = p->line;
    keypath k = {0};
    cz_toml_value v;
    memset(&v, 0, sizeof v);
    if (keypath_copy(p, &k, prefix) || parse_key(p, &k))
        goto done;
    skip_ws(p);
    if (peek(p) != '=') {
        fail(p, CZ_ERR_PARSE, "expected '=' after the key");
        goto done;
    }
    p->pos++;
    skip_ws(p);
    if (check_entry(p, k.path, k.depth))
        goto done;
    if (peek(p) == '{') {
        if (parse_inline(p, &k, depth + 1))
            goto done;
    } else if (parse_value(p, &v, 0) || push_entry(p, &k, line, &v)) {
        goto done;
    }
done: /* reached on success too: what was taken is empty by now */
    value_free(&v);
    keypath_free(&k);
    return p->err;
}

/* p at '{': `{ k = v, ... }` on one line, flattened into entries under prefix */
static cz_err parse_inline(parser *p, const keypath *prefix, int depth)
{
    if (depth >= MAX_ARRAY_DEPTH)
        return fail(p, CZ_ERR_PARSE, "values nested deeper than %d", MAX_ARRAY_DEPTH);
    p->pos++;
    keypath t = {0};
    if (keypath_copy(p, &t, prefix) || define_table(p, &t, 0)) {
        keypath_free(&t);
        return p->err;
    }
    skip_ws(p);
    if (peek(p) == '}') {
        p->pos++;
        return CZ_OK;
    }
    for (;;) {
        if (inline_member(p, prefix, depth))
            return p->err;
        skip_ws(p);
        int c = peek(p);
        if (c == '}') {
            p->pos++;
            return CZ_OK;
        }
        if (c == ',') {
            p->pos++;
            skip_ws(p);
            if (peek(p) == '}')
                return fail(p, CZ_ERR_PARSE, "trailing comma in an inline table");
            continue;
        }
        if (c < 0 || c == '\n' || c == '\r' || c == '#')
            return fail(p, CZ_ERR_PARSE, "an inline table must close on the line it opens");
        return fail(p, CZ_ERR_PARSE, "expected ',' or '}' in an inline table");
    }
}

/* the array of tables whose path is k, or -1 */
static long find_array(const parser *p, const keypath *k)
{
    for (size_t i = 0; i < p->narrays; i++)
        if (p->arrays[i].depth == k->depth && is_prefix(k->path, k->depth, p->arrays[i].path, k->depth))
            return (long)i;
    return -1;
}

/* appends "[i]", the name an element of an array of tables gets in paths */
static cz_err push_index(parser *p, keypath *k, size_t i)
{
    char b[32];
    snprintf(b, sizeof b, "[%zu]", i);
    char *c = strdup(b);
    if (!c)
        return nomem(p);
    return keypath_push(p, k, c);
}

/* header keys to a path: after each component but the last that names an
 * array of tables, the index of its latest element goes in */
static cz_err resolve(parser *p, keypath *in, keypath *out)
{
    for (size_t i = 0; i < in->depth; i++) {
        char *c = in->path[i];
        in->path[i] = NULL;
        if (keypath_push(p, out, c))
            return p->err;
        long a = i + 1 < in->depth ? find_array(p, out) : -1;
        if (a >= 0 && push_index(p, out, p->counts[a] - 1))
            return p->err;
    }
    return CZ_OK;
}

static cz_err parse_header(parser *p)
{
    int array = peek_at(p, 1) == '[';
    p->pos += array ? 2 : 1;
    keypath raw = {0}, k = {0};
    char a[128];
    if (parse_key(p, &raw))
        goto fail;
    skip_ws(p);
    if (peek(p) != ']' || (array && peek_at(p, 1) != ']')) {
        fail(p, CZ_ERR_PARSE, array ? "expected ']]' to close the header" : "expected ']' to close the table header");
        goto fail;
    }
    p->pos += array ? 2 : 1;
    if (resolve(p, &raw, &k))
        goto fail;
    long ai = find_array(p, &k);
    if (!array && ai >= 0) {
        join(a, sizeof a, k.path, k.depth);
        fail(p, CZ_ERR_PARSE, "table [%s] is already an array of tables", a);
        goto fail;
    }
    if (array) {
        if (ai < 0) {
            for (size_t i = 0; i < p->ntables; i++)
                if (p->tables[i].depth == k.depth && is_prefix(k.path, k.depth, p->tables[i].path, k.depth)) {
                    join(a, sizeof a, k.path, k.depth);
                    fail(p, CZ_ERR_PARSE, "[[%s]] is already a table", a);
                    goto fail;
                }
            if (p->narrays == p->cap_arrays) {
                size_t nc = p->cap_arrays ? p->cap_arrays * 2 : 4;
                keypath *na = realloc(p->arrays, nc * sizeof *na);
                if (na)
                    p->arrays = na;
                size_t *nn = realloc(p->counts, nc * sizeof *nn);
                if (nn)
                    p->counts = nn;
                if (!na || !nn) {
                    nomem(p);
                    goto fail;
                }
                p->cap_arrays = nc;
            }
            keypath copy = {0};
            if (keypath_copy(p, &copy, &k)) {
                keypath_free(&copy);
                goto fail;
            }
            ai = (long)p->narrays;
            p->arrays[p->narrays] = copy;
            p->counts[p->narrays++] = 0;
        }
        if (push_index(p, &k, p->counts[ai]++))
            goto fail;
    }
    if (define_table(p, &k, 1))
        goto fail;
    keypath_free(&raw);
    p->cur = p->tables[p->ntables - 1]; /* shared with the tables list, freed there */
    return end_of_line(p, "a table header");
fail:
    keypath_free(&raw);
    keypath_free(&k);
    return p->err;
}

static cz_err parse_keyval(parser *p)
{
    int line = p->line;
    keypath k = {0};
    cz_toml_value v;
    memset(&v, 0, sizeof v);
    if (keypath_copy(p, &k, &p->cur) || parse_key(p, &k))
        goto fail;
    skip_ws(p);
    if (peek(p) != '=') {
        fail(p, CZ_ERR_PARSE, "expected '=' after the key");
        goto fail;
    }
    p->pos++;
    skip_ws(p);
    if (check_entry(p, k.path, k.depth))
        goto fail;
    if (peek(p) == '{') {
        if (parse_inline(p, &k, 0))
            goto fail;
        keypath_free(&k);
        return end_of_line(p, "the inline table");
    }
    if (parse_value(p, &v, 0) || end_of_line(p, "the value") || push_entry(p, &k, line, &v))
        goto fail;
    return CZ_OK;
fail:
    value_free(&v);
    keypath_free(&k);
    return p->err;
}

/* ---- public ---- */

void cz_toml_free(cz_toml *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        for (size_t j = 0; j < t->entries[i].depth; j++)
            free(t->entries[i].path[j]);
        free(t->entries[i].path);
        value_free(&t->entries[i].value);
    }
    free(t->entries);
    free(t);
}

cz_err cz_toml_parse(cz_toml **out, const char *text, size_t len, char *msg, size_t msglen)
{
    *out = NULL;
    if (msg && msglen)
        msg[0] = 0;
    parser p;
    memset(&p, 0, sizeof p);
    p.s = text;
    p.len = len;
    p.line = 1;
    p.msg = msg;
    p.msglen = msglen;
    p.t = calloc(1, sizeof *p.t);
    if (!p.t)
        return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    if (!text && len) {
        fail(&p, CZ_ERR_INVALID_ARG, "no text");
        goto done;
    }
    if (check_utf8(&p))
        goto done;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        p.pos = 3;
    while (p.pos < p.len) {
        skip_ws(&p);
        if (skip_comment(&p))
            break;
        if (p.pos >= p.len)
            break;
        if (eat_newline(&p))
            continue;
        int c = peek(&p);
        if (c == '\r') {
            fail(&p, CZ_ERR_PARSE, "carriage return without a line feed");
            break;
        }
        if (c == '[') {
            if (parse_header(&p))
                break;
        } else if (parse_keyval(&p)) {
            break;
        }
    }
done:
    for (size_t i = 0; i < p.ntables; i++)
        keypath_free(&p.tables[i]);
    free(p.tables);
    for (size_t i = 0; i < p.narrays; i++)
        keypath_free(&p.arrays[i]);
    free(p.arrays);
    free(p.counts);
    if (p.err) {
        cz_toml_free(p.t);
        return p.err;
    }
    *out = p.t;
    return CZ_OK;
}

const char *cz_toml_type_name(cz_toml_type t)
{
    switch (t) {
    case CZ_TOML_STRING: return "string";
    case CZ_TOML_INT: return "integer";
    case CZ_TOML_FLOAT: return "float";
    case CZ_TOML_BOOL: return "boolean";
    case CZ_TOML_ARRAY: return "array";
    case CZ_TOML_DATETIME: return "date-time";
    }
    return "?";
}

char *cz_toml_path_str(const cz_toml_entry *e, char *out, size_t cap)
{
    if (!cap)
        return out;
    join(out, cap, e->path, e->depth);
    return out;
}
