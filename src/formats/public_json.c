/* public_json.c — public.json writer and strict reader (see public_json.h).
 * The reader is a hand-written scanner for this one shape, not a general
 * JSON parser: '[' (string (',' string)*)? ']' with optional whitespace. */
#include "formats/public_json.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/decimal.h"

static cz_err fail(cz_err e, char *msg, size_t msglen, const char *fmt, ...)
{
    if (msg && msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msglen, fmt, ap);
        va_end(ap);
    }
    return e;
}

cz_err cz_public_json_write(const char *path, const cz_fr *inputs, size_t n, char *msg, size_t msglen)
{
    size_t plen = strlen(path) + 5;
    char *tmp = malloc(plen);
    if (!tmp) return fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    snprintf(tmp, plen, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        cz_err e = fail(CZ_ERR_IO, msg, msglen, "cannot create %s: %s", tmp, strerror(errno));
        free(tmp);
        return e;
    }
    int bad = fputc('[', f) == EOF;
    for (size_t i = 0; i < n && !bad; i++) {
        char d[CZ_FR_DECIMAL_MAX];
        cz_fr_to_decimal(d, &inputs[i]);
        bad = fprintf(f, "%s\"%s\"", i ? "," : "", d) < 0;
    }
    bad = bad || fputs("]\n", f) == EOF || fflush(f) != 0 || fsync(fileno(f)) != 0;
    int saved = errno;
    bad = fclose(f) != 0 || bad;
    if (bad || rename(tmp, path) != 0) {
        if (!bad) saved = errno;
        cz_err e = fail(CZ_ERR_IO, msg, msglen, "cannot write %s: %s", path, strerror(saved));
        unlink(tmp);
        free(tmp);
        return e;
    }
    free(tmp);
    return CZ_OK;
}

static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* a byte for a message: printable as is, else as \xNN */
static const char *show(char buf[8], const char *text, size_t len, size_t at)
{
    if (at >= len) return "end of input";
    unsigned char c = (unsigned char)text[at];
    if (c >= 0x20 && c < 0x7f) snprintf(buf, 8, "'%c'", c);
    else snprintf(buf, 8, "\\x%02x", c);
    return buf;
}

cz_err cz_public_json_parse(cz_fr **out, size_t *n, const char *text, size_t len, char *msg, size_t msglen)
{
    *out = NULL;
    *n = 0;
    size_t at = 0, cnt = 0, cap = 0;
    cz_fr *v = NULL;
    cz_err e = CZ_OK;
    char sb[8];
    while (at < len && is_ws(text[at])) at++;
    if (at >= len || text[at] != '[') {
        e = fail(CZ_ERR_PARSE, msg, msglen, "expected '[' at byte %zu, found %s", at, show(sb, text, len, at));
        goto fail;
    }
    at++;
    while (at < len && is_ws(text[at])) at++;
    if (at < len && text[at] == ']') {
        at++;
    } else {
        for (;;) {
            if (at >= len || text[at] != '"') {
                e = fail(CZ_ERR_PARSE, msg, msglen, "element %zu: expected a string at byte %zu, found %s", cnt, at,
                         show(sb, text, len, at));
                goto fail;
            }
            size_t s = ++at;
            while (at < len && text[at] >= '0' && text[at] <= '9') at++;
            if (at >= len || text[at] != '"') {
                e = fail(CZ_ERR_PARSE, msg, msglen,
                         "element %zu: not a decimal string (byte %zu is %s; want digits only, no sign or prefix)",
                         cnt, at, show(sb, text, len, at));
                goto fail;
            }
            if (cnt == cap) {
                size_t nc = cap ? 2 * cap : 8;
                cz_fr *q = realloc(v, nc * sizeof *q);
                if (!q) { e = fail(CZ_ERR_NOMEM, msg, msglen, "out of memory"); goto fail; }
                v = q;
                cap = nc;
            }
            e = cz_fr_from_decimal(&v[cnt], text + s, at - s);
            if (e == CZ_ERR_NONCANONICAL) {
                fail(e, msg, msglen, "element %zu (byte %zu): value is not below the field modulus r", cnt, s);
                goto fail;
            }
            if (e) {
                fail(e, msg, msglen, "element %zu (byte %zu): %s", cnt, s,
                     at == s ? "empty string" : "leading zero");
                goto fail;
            }
            cnt++;
            at++; /* closing quote */
            while (at < len && is_ws(text[at])) at++;
            if (at < len && text[at] == ',') {
                at++;
                while (at < len && is_ws(text[at])) at++;
                continue;
            }
            if (at < len && text[at] == ']') { at++; break; }
            e = fail(CZ_ERR_PARSE, msg, msglen, "expected ',' or ']' at byte %zu, found %s", at,
                     show(sb, text, len, at));
            goto fail;
        }
    }
    while (at < len && is_ws(text[at])) at++;
    if (at < len) {
        e = fail(CZ_ERR_PARSE, msg, msglen, "trailing characters after the array at byte %zu (%s)", at,
                 show(sb, text, len, at));
        goto fail;
    }
    *out = v;
    *n = cnt;
    return CZ_OK;
fail:
    free(v);
    return e;
}

cz_err cz_public_json_read(cz_fr **out, size_t *n, const char *path, char *msg, size_t msglen)
{
    *out = NULL;
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return fail(CZ_ERR_IO, msg, msglen, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    cz_err e = CZ_OK;
    while (buf) {
        if (len == cap) {
            if (cap >= CZ_PUBLIC_JSON_MAX_BYTES) {
                e = fail(CZ_ERR_LENGTH, msg, msglen, "%s: larger than %zu bytes", path, CZ_PUBLIC_JSON_MAX_BYTES);
                break;
            }
            char *q = realloc(buf, cap * 2);
            if (!q) { free(buf); buf = NULL; break; }
            buf = q;
            cap *= 2;
        }
        size_t k = fread(buf + len, 1, cap - len, f);
        len += k;
        if (k == 0) {
            if (ferror(f)) e = fail(CZ_ERR_IO, msg, msglen, "cannot read %s", path);
            break;
        }
    }
    fclose(f);
    if (!buf) return fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    if (!e) {
        char why[200];
        e = cz_public_json_parse(out, n, buf, len, why, sizeof why);
        if (e) fail(e, msg, msglen, "%s: %s", path, why);
    }
    free(buf);
    return e;
}
