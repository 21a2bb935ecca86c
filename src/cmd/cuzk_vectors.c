/* cuzk_vectors.c — `cuzk vectors check FILE.json`: runs every case of a
 * known-answer vector file and prints `N passed, N failed`.
 *
 * File: {"curve":"bls12-381","cases":[{"op":...}, ...]}; unknown members are
 * ignored. The whole file is read and parsed (util/json) first; a file that
 * cannot be read, is not JSON, names another curve, or has no "cases" (or an
 * empty list) is an error: a message and exit 2. Each case is then looked up
 * by its "op" in the op tables (field ops in cuzk_vectors_ff.c, group ops in
 * cuzk_vectors_ec.c); an unknown op or a malformed case counts as a failure.
 * One line is printed per failing case, then the summary. Exit 0 when every
 * case passed, 1 when any failed.
 *
 * Files come from other implementations, so what is unambiguous is accepted:
 * a leading UTF-8 BOM, the curve name in any case with '-' or '_', hex with or
 * without 0x in either case, integers of any length (or as JSON numbers), the
 * strings "true"/"false" for booleans. A member given twice makes the case
 * malformed. The helpers that read case members (cuzk_vectors.h) live here. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/cuzk_cmds.h"
#include "cmd/cuzk_vectors.h"
#include "util/hex.h"

#define MAX_FILE_BYTES ((size_t)1 << 28)

int cz__vfail(cz__vmsg *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->buf, m->cap, fmt, ap);
    va_end(ap);
    return 0;
}

static const cz_json *member(const cz_json *c, const char *key, cz__vmsg *m)
{
    size_t n = cz_json_key_count(c, key);
    if (n == 0) { cz__vfail(m, "malformed case: missing \"%s\"", key); return NULL; }
    if (n > 1) { cz__vfail(m, "malformed case: \"%s\" given %zu times", key, n); return NULL; }
    return cz_json_get(c, key);
}

int cz__vstr(const cz_json *c, const char *key, const cz_json **out, cz__vmsg *m)
{
    const cz_json *v = member(c, key, m);
    if (!v) return 0;
    if (v->type != CZ_JSON_STRING)
        return cz__vfail(m, "malformed case: \"%s\" is a %s, expected a hex string", key,
                         cz_json_type_name(v->type));
    *out = v;
    return 1;
}

int cz__vbool(const cz_json *c, const char *key, int *out, cz__vmsg *m)
{
    const cz_json *v = member(c, key, m);
    if (!v) return 0;
    if (v->type == CZ_JSON_TRUE || v->type == CZ_JSON_FALSE) {
        *out = v->type == CZ_JSON_TRUE;
        return 1;
    }
    /* the strings "true" / "false" mean the same, in any case */
    if (v->type == CZ_JSON_STRING && (!strcasecmp(v->str, "true") || !strcasecmp(v->str, "false"))
        && strlen(v->str) == v->len) {
        *out = !strcasecmp(v->str, "true");
        return 1;
    }
    return cz__vfail(m, "malformed case: \"%s\" is a %s, expected true or false", key,
                     cz_json_type_name(v->type));
}

/* Horner's rule in the field: acc = acc * base + digit, for hex strings and
 * non-negative JSON integers alike. */
#define VINT(F, NAME)                                                               \
    int NAME(F *out, const cz_json *c, const char *key, cz__vmsg *m)                \
    {                                                                               \
        const cz_json *v = member(c, key, m);                                       \
        if (!v) return 0;                                                           \
        const char *d;                                                              \
        size_t n;                                                                   \
        unsigned base;                                                              \
        if (v->type == CZ_JSON_STRING) {                                            \
            d = cz_hex_body(v->str, v->len, &n);                                    \
            base = 16;                                                              \
            if (n == 0) return cz__vfail(m, "malformed case: \"%s\" is empty", key); \
        } else if (v->type == CZ_JSON_NUMBER) {                                     \
            d = v->str;                                                             \
            n = v->len;                                                             \
            base = 10;                                                              \
        } else {                                                                    \
            return cz__vfail(m, "malformed case: \"%s\" is a %s, expected a hex string", \
                             key, cz_json_type_name(v->type));                      \
        }                                                                           \
        F acc, b, t;                                                                \
        F##_zero(&acc);                                                             \
        F##_from_u64(&b, base);                                                     \
        for (size_t i = 0; i < n; i++) {                                            \
            int dig = base == 16 ? cz_hex_digit(d[i])                               \
                                 : (d[i] >= '0' && d[i] <= '9' ? d[i] - '0' : -1);  \
            if (dig < 0)                                                            \
                return cz__vfail(m, "malformed case: \"%s\" is not a %s integer", key, \
                                 base == 16 ? "hex" : "non-negative");              \
            F##_mul(&acc, &acc, &b);                                                \
            F##_from_u64(&t, (uint64_t)dig);                                        \
            F##_add(&acc, &acc, &t);                                                \
        }                                                                           \
        *out = acc;                                                                 \
        return 1;                                                                   \
    }
VINT(cz_fp, cz__vint_fp)
VINT(cz_fr, cz__vint_fr)

int cz__vbytes(uint8_t *buf, size_t cap, size_t *len, const cz_json *c, const char *key, cz__vmsg *m)
{
    const cz_json *v = NULL;
    if (!cz__vstr(c, key, &v, m)) return 0;
    cz_err e = cz_hex_to_bytes(buf, cap, len, v->str, v->len);
    if (e == CZ_ERR_LENGTH)
        return cz__vfail(m, "malformed case: \"%s\" longer than %zu bytes", key, cap);
    if (e != CZ_OK)
        return cz__vfail(m, "malformed case: \"%s\" is not hex with an even number of digits", key);
    return 1;
}

static cz__vop_fn find_op(const char *name)
{
    const cz__vop *tabs[] = { cz__vops_ff, cz__vops_ec };
    for (size_t t = 0; t < sizeof tabs / sizeof tabs[0]; t++)
        for (const cz__vop *o = tabs[t]; o->name; o++)
            if (!strcasecmp(o->name, name)) return o->fn;
    return NULL;
}

/* "bls12-381", "BLS12_381", "bls12381" all name the curve */
static int is_our_curve(const cz_json *v)
{
    if (!v || v->type != CZ_JSON_STRING) return 0;
    char norm[16];
    size_t k = 0;
    for (size_t i = 0; i < v->len; i++) {
        char ch = v->str[i];
        if (ch == '-' || ch == '_') continue;
        if (k + 1 >= sizeof norm) return 0;
        norm[k++] = (char)tolower((unsigned char)ch);
    }
    norm[k] = 0;
    return !strcmp(norm, "bls12381");
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cuzk vectors: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            if (cap >= MAX_FILE_BYTES) {
                fprintf(stderr, "cuzk vectors: %s is larger than %zu bytes\n", path, MAX_FILE_BYTES);
                free(buf);
                buf = NULL;
                break;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) {
            if (ferror(f)) {
                fprintf(stderr, "cuzk vectors: cannot read %s\n", path);
                free(buf);
                buf = NULL;
            }
            break;
        }
    }
    fclose(f);
    if (buf) *len = n;
    return buf;
}

static int usage(void)
{
    fprintf(stderr, "usage: cuzk vectors check [-v] FILE.json\n"
                    "  runs every case; prints one line per failing case and 'N passed, N failed'\n"
                    "  exit 0: all passed, 1: some failed, 2: unreadable or malformed file\n");
    return 2;
}

int cz__vectors_check_text(const char *path, const char *text, size_t len, int verbose)
{
    cz_json *doc = NULL;
    /* a UTF-8 byte order mark, which some tools write, is skipped (RFC 8259 §8.1) */
    const char *all = text;
    size_t all_len = len;
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) { text += 3; len -= 3; }
    cz_json_error jerr;
    cz_err e = cz_json_parse(&doc, text, len, 0, &jerr);
    if (e != CZ_OK) {
        fprintf(stderr, "cuzk vectors: %s:%zu:%zu: %s\n", path, jerr.line, jerr.col,
                e == CZ_ERR_PARSE ? jerr.msg : cz_strerror(e));
        return 2;
    }
    int rc = 2;
    const cz_json *cases = cz_json_get(doc, "cases");
    if (doc->type != CZ_JSON_OBJECT) {
        fprintf(stderr, "cuzk vectors: %s: top level is a %s, expected an object\n", path,
                cz_json_type_name(doc->type));
    } else if (!is_our_curve(cz_json_get(doc, "curve"))) {
        const cz_json *cv = cz_json_get(doc, "curve");
        fprintf(stderr, "cuzk vectors: %s: \"curve\" is %s%s%s, expected \"bls12-381\"\n", path,
                cv && cv->type == CZ_JSON_STRING ? "\"" : "",
                cv ? (cv->type == CZ_JSON_STRING ? cv->str : cz_json_type_name(cv->type)) : "missing",
                cv && cv->type == CZ_JSON_STRING ? "\"" : "");
    } else if (cz_json_key_count(doc, "curve") > 1 || cz_json_key_count(doc, "cases") > 1) {
        fprintf(stderr, "cuzk vectors: %s: \"curve\" or \"cases\" given more than once\n", path);
    } else if (!cases || cases->type != CZ_JSON_ARRAY) {
        fprintf(stderr, "cuzk vectors: %s: %s\n", path,
                cases ? "\"cases\" is not an array" : "no \"cases\" array");
    } else if (cases->n == 0) {
        fprintf(stderr, "cuzk vectors: %s: \"cases\" is empty\n", path);
    } else {
        size_t passed = 0, failed = 0;
        char buf[2048];
        cz__vmsg m = { buf, sizeof buf };
        size_t line = 1, line_at = 0; /* line numbers found incrementally: cases come in order */
        for (size_t i = 0; i < cases->n; i++) {
            const cz_json *c = cases->items[i];
            const cz_json *op = cz_json_get(c, "op");
            const char *opname = op && op->type == CZ_JSON_STRING ? op->str : "?";
            int ok = 0;
            buf[0] = 0;
            if (c->type != CZ_JSON_OBJECT) {
                cz__vfail(&m, "malformed case: a %s, expected an object", cz_json_type_name(c->type));
            } else if (!op || op->type != CZ_JSON_STRING || cz_json_key_count(c, "op") != 1) {
                cz__vfail(&m, "malformed case: no single string \"op\"");
            } else {
                cz__vop_fn fn = find_op(op->str);
                if (!fn) cz__vfail(&m, "unknown op");
                else ok = fn(c, &m);
            }
            for (size_t at = c->offset + (size_t)(text - all); line_at < at && line_at < all_len; line_at++)
                if (all[line_at] == '\n') line++;
            if (ok) {
                passed++;
                if (verbose) printf("case %zu (%.40s, line %zu): ok\n", i, opname, line);
            } else {
                failed++;
                printf("case %zu (%.40s, line %zu): FAIL: %s\n", i, opname, line,
                       buf[0] ? buf : "failed");
            }
        }
        printf("%zu passed, %zu failed\n", passed, failed);
        rc = failed ? 1 : 0;
    }
    cz_json_free(doc);
    return rc;
}

static int check_file(const char *path, int verbose)
{
    size_t len = 0;
    char *text = read_file(path, &len);
    if (!text) return 2;
    int rc = cz__vectors_check_text(path, text, len, verbose);
    free(text);
    return rc;
}

int cz_cmd_vectors(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "check")) return usage();
    int verbose = 0;
    const char *path = NULL;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) verbose = 1;
        else if (!path) path = argv[i];
        else return usage();
    }
    if (!path) return usage();
    return check_file(path, verbose);
}
