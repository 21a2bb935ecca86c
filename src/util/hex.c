/* hex.c — hexadecimal text <-> bytes (see hex.h). */
#include "util/hex.h"

#include <string.h>

int cz_hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

const char *cz_hex_body(const char *s, size_t len, size_t *n)
{
    if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        len -= 2;
    }
    *n = len;
    return s;
}

cz_err cz_hex_to_bytes(uint8_t *out, size_t cap, size_t *out_len, const char *s, size_t len)
{
    size_t n;
    const char *d = cz_hex_body(s, len, &n);
    *out_len = 0;
    for (size_t i = 0; i < n; i++)
        if (cz_hex_digit(d[i]) < 0) return CZ_ERR_PARSE;
    if (n % 2) return CZ_ERR_PARSE;
    if (n / 2 > cap) return CZ_ERR_LENGTH;
    for (size_t i = 0; i < n / 2; i++)
        out[i] = (uint8_t)(cz_hex_digit(d[2 * i]) << 4 | cz_hex_digit(d[2 * i + 1]));
    *out_len = n / 2;
    return CZ_OK;
}

cz_err cz_hex_to_be(uint8_t *out, size_t n, const char *s, size_t len)
{
    size_t m;
    const char *d = cz_hex_body(s, len, &m);
    if (m == 0) return CZ_ERR_PARSE;
    for (size_t i = 0; i < m; i++)
        if (cz_hex_digit(d[i]) < 0) return CZ_ERR_PARSE;
    while (m > 0 && d[0] == '0') { d++; m--; }   /* value 0 leaves m == 0 */
    if (m > 2 * n) return CZ_ERR_LENGTH;
    memset(out, 0, n);
    /* fill from the last digit backwards */
    for (size_t i = 0; i < m; i++) {
        int v = cz_hex_digit(d[m - 1 - i]);
        out[n - 1 - i / 2] |= (uint8_t)(i % 2 ? v << 4 : v);
    }
    return CZ_OK;
}

void cz_hex_from_bytes(char *out, const uint8_t *in, size_t n)
{
    static const char dig[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = dig[in[i] >> 4];
        out[2 * i + 1] = dig[in[i] & 15];
    }
    out[2 * n] = 0;
}
