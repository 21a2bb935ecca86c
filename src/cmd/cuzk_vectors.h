/* cuzk_vectors.h — shared by the parts of `cuzk vectors check`:
 * cuzk_vectors.c (file reading, dispatch, report), cuzk_vectors_ff.c (field
 * ops) and cuzk_vectors_ec.c (group, decode and pairing ops).
 *
 * An op handler reads its fields from one case object and returns 1 when the
 * case passes. On failure it writes one line (no newline) saying why into msg:
 * either a mismatch ("expected X, got Y") or a malformed case. */
#ifndef CZ_CMD_VECTORS_H
#define CZ_CMD_VECTORS_H

#include <stddef.h>
#include <stdint.h>
#include "ff/ff.h"
#include "util/json.h"

typedef struct {
    char *buf;
    size_t cap;
} cz__vmsg;

typedef int (*cz__vop_fn)(const cz_json *c, cz__vmsg *m);

typedef struct {
    const char *name;
    cz__vop_fn fn;
} cz__vop;

/* printf into m (truncating); returns 0 so handlers can `return cz__vfail(...)` */
int cz__vfail(cz__vmsg *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A required string member; 0 (and msg) if missing, duplicated or not a string. */
int cz__vstr(const cz_json *c, const char *key, const cz_json **out, cz__vmsg *m);
/* A required boolean member. */
int cz__vbool(const cz_json *c, const char *key, int *out, cz__vmsg *m);

/* An integer written as hex (any length, 0x optional, any case, odd length
 * allowed) or as a non-negative JSON integer, reduced mod p / mod r. */
int cz__vint_fp(cz_fp *out, const cz_json *c, const char *key, cz__vmsg *m);
int cz__vint_fr(cz_fr *out, const cz_json *c, const char *key, cz__vmsg *m);

/* Byte string member (even-length hex) into buf, at most cap bytes. */
int cz__vbytes(uint8_t *buf, size_t cap, size_t *len, const cz_json *c, const char *key, cz__vmsg *m);

/* Run every case of a vector file already in memory (path only names it in
 * messages); prints as the command does and returns its exit code. */
int cz__vectors_check_text(const char *path, const char *text, size_t len, int verbose);

/* the op tables, each ending with {NULL, NULL} */
extern const cz__vop cz__vops_ff[];
extern const cz__vop cz__vops_ec[];

#endif
