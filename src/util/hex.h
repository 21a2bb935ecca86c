/* hex.h — hexadecimal text <-> bytes.
 *
 * Decoding is liberal where the meaning is unambiguous: an optional "0x"/"0X"
 * prefix and either letter case are accepted. Byte strings must have an even
 * number of digits; numbers (cz_hex_to_be) may have an odd count, are
 * right-aligned (left-padded with zeros) into a fixed-size big-endian buffer,
 * and may carry extra leading zeros. Nothing is read past the given length. */
#ifndef CZ_UTIL_HEX_H
#define CZ_UTIL_HEX_H

#include <stddef.h>
#include <stdint.h>
#include "util/err.h"

/* value of one hex digit, or -1 */
int cz_hex_digit(char c);

/* strip an optional 0x prefix: returns the digits and their count in *n */
const char *cz_hex_body(const char *s, size_t len, size_t *n);

/* Byte string: even digit count, any length up to cap. *out_len = bytes written.
 * CZ_ERR_PARSE on a non-hex character or an odd count, CZ_ERR_LENGTH if it does
 * not fit in cap. */
cz_err cz_hex_to_bytes(uint8_t *out, size_t cap, size_t *out_len, const char *s, size_t len);

/* Number: big-endian into exactly n bytes, left-padded. CZ_ERR_PARSE on a bad
 * character or no digits at all, CZ_ERR_LENGTH if the value needs more than n
 * bytes. */
cz_err cz_hex_to_be(uint8_t *out, size_t n, const char *s, size_t len);

/* lower-case hex of in[0..n) into out, which must hold 2n+1 chars (NUL added) */
void cz_hex_from_bytes(char *out, const uint8_t *in, size_t n);

#endif
