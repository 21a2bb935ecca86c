/* decimal.h — Fr (and Fp) elements as decimal strings (the JSON convention of snarkjs,
 * public.json and Filecoin tooling).
 *
 * Parsing is strict: ASCII digits only, no sign, no leading zeros except the
 * single "0", no whitespace, and the value must be below r. Printing gives
 * the shortest such string. Both convert through the plain (non-Montgomery)
 * integer with 64-bit limb arithmetic. */
#ifndef CZ_FORMATS_DECIMAL_H
#define CZ_FORMATS_DECIMAL_H

#include <stddef.h>
#include "ff/ff.h"

/* r has 77 decimal digits; a buffer of this size holds any value and a NUL */
#define CZ_FR_DECIMAL_MAX 78

/* writes the NUL-terminated decimal form of a into out; returns its length */
size_t cz_fr_to_decimal(char out[CZ_FR_DECIMAL_MAX], const cz_fr *a);
/* parses s[0..len) (no NUL needed). CZ_ERR_PARSE: empty, a non-digit, or a
 * leading zero; CZ_ERR_NONCANONICAL: value >= r. */
cz_err cz_fr_from_decimal(cz_fr *out, const char *s, size_t len);

/* the same for the base field Fp (p has 115 decimal digits) */
#define CZ_FP_DECIMAL_MAX 116
size_t cz_fp_to_decimal(char out[CZ_FP_DECIMAL_MAX], const cz_fp *a);
cz_err cz_fp_from_decimal(cz_fp *out, const char *s, size_t len);

#endif
