/* public_json.c — public.json writer and strict reader (see public_json.h).
 * The reader is a hand-written scanner for this one shape, not a general
 * JSON parser: '[' (string (',' string)*)? ']' with optional whitespace;
 * it gives sharper messages than util/json would for this one file. Files go
 * through the shared helpers (fio.h). */
#include "formats/public_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/decimal.h"
#include "formats/fio.h"

#define fail cz_fail

cz_err cz_public_json_write(const char *path, const cz_fr *inputs, size_t n, char *msg, size_t msglen)
{
    cz__writer wr;
    cz_err e = cz__writer_open(&wr, path, msg, msglen);
    if (e) return e;
    cz__writer_put(&wr, "[", 1);
    for (size_t i = 0; i < n; i++) {
        char d[CZ_FR_DECIMAL_MAX];
        size_t len = cz_fr_to_decimal(d, &inputs[i]);
        if (i) cz__writer_put(&wr, ",", 1);
        cz__writer_put(&wr, "\"", 1);
        cz__writer_put(&wr, d, len);
        cz__writer_put(&wr, "\"", 1);
    }
    cz__writer_put(&wr, "]\n", 2);
    return cz__writer_commit(&wr, msg, msglen); /* releases wr, also on failure */
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
    cz__mapped m;
    cz_err e = cz__map_file(&m, path, msg, msglen);
    if (e) return e;
    if (m.len > CZ_PUBLIC_JSON_MAX_BYTES) {
        e = fail(CZ_ERR_LENGTH, msg, msglen, "%s: %zu bytes, more than the %zu allowed", path, m.len,
                 CZ_PUBLIC_JSON_MAX_BYTES);
    } else {
        char why[200];
        e = cz_public_json_parse(out, n, (const char *)m.p, m.len, why, sizeof why);
        if (e) fail(e, msg, msglen, "%s: %s", path, why);
    }
    if (!e && (e = cz__mapped_check(&m, msg, msglen))) { free(*out); *out = NULL; *n = 0; }
    cz__unmap_file(&m);
    return e;
}
