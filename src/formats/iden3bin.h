/* iden3bin.h — the iden3 binary container shared by circom/snarkjs files
 * (.zkey, .wtns, .r1cs, .ptau); internal to src/formats.
 *
 * Layout (integers little-endian): 4-byte magic ("zkey", "wtns", "r1cs"),
 * u32 version, u32 number of sections, then the sections back to back, each
 * u32 id, u64 size, size bytes of data. Sections are found by id, never by
 * position (circom writes the .r1cs constraints before its header).
 *
 * The file also names its field by a prime in a header section (n8 bytes,
 * little-endian). cz__iden3_curve_of() recognises the primes of the curves
 * snarkjs knows; only BLS12-381 is supported, and the message for any other
 * prime says which curve it is when known. */
#ifndef CZ_FORMATS_IDEN3BIN_H
#define CZ_FORMATS_IDEN3BIN_H

#include <stddef.h>
#include <stdint.h>
#include "util/err.h"

typedef struct {
    uint32_t id;
    uint64_t off, size;   /* data offset in the file and its length */
} cz__section;

typedef struct {
    const uint8_t *p;
    size_t len;
    uint32_t version;
    uint32_t n;
    cz__section *s;       /* heap, n entries */
} cz__binfile;

/* Checks the magic, version <= max_version, and that every section header
 * and section lies inside the file with nothing after the last one. what
 * names the file in messages. */
cz_err cz__binfile_parse(cz__binfile *bf, const uint8_t *p, size_t len, const char magic[4],
                         uint32_t max_version, const char *what, char *msg, size_t msglen);
void cz__binfile_free(cz__binfile *bf);
/* the one section with this id: CZ_ERR_PARSE when missing or repeated */
cz_err cz__binfile_section(const cz__binfile *bf, uint32_t id, const uint8_t **data, uint64_t *size,
                           const char *what, char *msg, size_t msglen);
/* 1 when a section with this id exists */
int cz__binfile_has(const cz__binfile *bf, uint32_t id);

/* which field a header prime is: the scalar field r or the base field q of a
 * curve snarkjs knows */
enum { CZ__PRIME_R = 0, CZ__PRIME_Q = 1 };
typedef struct {
    const char *name;       /* "BLS12-381", "BN254" */
    const char *snarkjs;    /* snarkjs's curve name: "bls12381", "bn128" */
    int supported;
} cz__curve_info;

/* the curve whose r (kind CZ__PRIME_R) or q (CZ__PRIME_Q) is the n8-byte
 * little-endian prime, or NULL */
const cz__curve_info *cz__iden3_curve_of(const uint8_t *prime, uint32_t n8, int kind);
/* CZ_OK when the prime is BLS12-381's r / q (n8 = 32 / 48); otherwise
 * CZ_ERR_UNSUPPORTED with a message naming the curve when known */
cz_err cz__iden3_check_prime(const uint8_t *prime, uint32_t n8, int kind, const char *what, char *msg,
                             size_t msglen);

#endif
