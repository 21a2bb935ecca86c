/* toml.h — a reader for the subset of TOML 1.0 that configuration files use.
 *
 * cz_toml_parse turns a whole text into a flat list of entries, one per
 * `key = value` line, each with its full key path (the enclosing [table]'s
 * keys followed by the line's own, possibly dotted, key) and the line number.
 *
 * Accepted: comments, blank lines, LF or CRLF, a leading UTF-8 BOM; [table]
 * headers with bare, "basic" or 'literal' keys, dotted; dotted keys on the
 * left of `=`; basic strings with every TOML escape, literal strings, and the
 * multi-line forms of both; integers (decimal with `_` between digits,
 * 0x/0o/0b); floats (fraction, exponent, inf, nan); booleans; arrays (any of
 * these values, nested, spread over lines with comments and a trailing
 * comma); inline tables `{ k = v, ... }`, which become one entry per value
 * with the table's key in front; dates and times (checked, kept as text);
 * arrays of tables ([[x]]), whose elements appear in paths as "[0]", "[1]"...
 * (x.[1].key).
 *
 * Refused, each with a message naming the line: inline tables inside
 * arrays, duplicate keys, a table defined twice, a key that is both a value
 * and a table, strings holding U+0000, text that is not UTF-8, values nested
 * deeper than 32. Nothing is built when parsing fails. */
#ifndef CZ_UTIL_TOML_H
#define CZ_UTIL_TOML_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

typedef enum {
    CZ_TOML_STRING,
    CZ_TOML_INT,
    CZ_TOML_FLOAT,
    CZ_TOML_BOOL,
    CZ_TOML_ARRAY,
    CZ_TOML_DATETIME /* any of TOML's four date/time forms, checked, kept as text in str */
} cz_toml_type;

typedef struct cz_toml_value cz_toml_value;
struct cz_toml_value {
    cz_toml_type type;
    int line;              /* where the value starts */
    char *str;             /* STRING: decoded UTF-8, NUL-terminated; DATETIME: its text */
    size_t len;            /* STRING, DATETIME: length of str */
    int64_t i;             /* INT */
    double f;              /* FLOAT */
    int b;                 /* BOOL: 0 or 1 */
    cz_toml_value *items;  /* ARRAY: elements */
    size_t n;              /* ARRAY: element count */
};

typedef struct {
    char **path;           /* full key path: table keys, then the line's keys */
    size_t depth;          /* number of path components (>= 1) */
    int line;              /* line of the key */
    cz_toml_value value;
} cz_toml_entry;

typedef struct {
    cz_toml_entry *entries; /* in file order */
    size_t n;
} cz_toml;

/* Parses text[0..len). On success *out owns everything and is freed with
 * cz_toml_free. On failure returns CZ_ERR_PARSE (or CZ_ERR_NOMEM) with a
 * message "line N: ..." and *out is NULL. */
cz_err cz_toml_parse(cz_toml **out, const char *text, size_t len, char *msg, size_t msglen);
void cz_toml_free(cz_toml *t);

/* "string", "integer", "float", "boolean", "array", "date-time" */
const char *cz_toml_type_name(cz_toml_type t);

/* writes path[0].path[1]... into buf (truncating), returns buf */
char *cz_toml_path_str(const cz_toml_entry *e, char *buf, size_t cap);

#endif
