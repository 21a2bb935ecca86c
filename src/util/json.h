/* json.h — a small, strict JSON reader (RFC 8259) that builds a tree.
 *
 * cz_json_parse reads a whole text into a tree of cz_json nodes. It follows
 * the grammar exactly (no comments, no trailing commas, no leading zeros, no
 * bare control characters in strings, UTF-8 checked, surrogate pairs joined)
 * and refuses nesting deeper than max_depth, so a hostile text cannot exhaust
 * the stack. On failure it fills a cz_json_error with the byte offset, line,
 * column and a one-line reason, and builds nothing.
 *
 * Strings are decoded to UTF-8, NUL-terminated, with their length (they may
 * contain U+0000). Numbers keep their source text (for exact big integers)
 * and a double. Object members keep their order; duplicate keys are kept, and
 * cz_json_get returns the first while cz_json_key_count lets a strict caller
 * refuse them. Every node records its byte offset in the source. */
#ifndef CZ_UTIL_JSON_H
#define CZ_UTIL_JSON_H

#include <stddef.h>
#include "util/err.h"

typedef enum {
    CZ_JSON_NULL,
    CZ_JSON_FALSE,
    CZ_JSON_TRUE,
    CZ_JSON_NUMBER,
    CZ_JSON_STRING,
    CZ_JSON_ARRAY,
    CZ_JSON_OBJECT
} cz_json_type;

typedef struct cz_json cz_json;
struct cz_json {
    cz_json_type type;
    size_t offset;     /* byte offset of the value in the source text */
    char *key;         /* member name when the node is an object member, else NULL */
    size_t key_len;
    char *str;         /* STRING: decoded text; NUMBER: source text; NUL-terminated */
    size_t len;        /* length of str */
    double num;        /* NUMBER: value as a double (may be inexact or +-inf) */
    cz_json **items;   /* ARRAY / OBJECT: children in order */
    size_t n;          /* number of children */
};

typedef struct {
    size_t offset;     /* byte offset where the error was found */
    size_t line, col;  /* 1-based; col counts bytes */
    char msg[96];
} cz_json_error;

#define CZ_JSON_DEFAULT_DEPTH 64

/* Parse text[0..len) (need not be NUL-terminated). max_depth bounds the
 * nesting of arrays/objects (0 means CZ_JSON_DEFAULT_DEPTH). Returns CZ_OK and
 * *out, or CZ_ERR_PARSE (err filled when non-NULL) or CZ_ERR_NOMEM. */
cz_err cz_json_parse(cz_json **out, const char *text, size_t len, int max_depth,
                     cz_json_error *err);
void cz_json_free(cz_json *v);

/* first member named key in an object (NULL if none or v is not an object) */
const cz_json *cz_json_get(const cz_json *obj, const char *key);
/* how many members of obj are named key */
size_t cz_json_key_count(const cz_json *obj, const char *key);
/* "null", "false", "true", "number", "string", "array", "object" */
const char *cz_json_type_name(cz_json_type t);
/* 1-based line and column of a byte offset in text */
void cz_json_line_col(const char *text, size_t len, size_t offset, size_t *line, size_t *col);

#endif
