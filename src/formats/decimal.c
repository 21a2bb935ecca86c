/* decimal.c — Fr <-> decimal text (see decimal.h). Printing divides the plain
 * 4-limb integer by 10^19 repeatedly (one chunk of 19 digits per step);
 * parsing multiplies by 10 and adds into 5 limbs, so any 78-digit input is
 * held exactly before the comparison with r. */
#include "formats/decimal.h"

#include <string.h>

#define TEN19 10000000000000000000ull

size_t cz_fr_to_decimal(char out[CZ_FR_DECIMAL_MAX], const cz_fr *a)
{
    cz_fr p;
    cz_fr_from_mont(&p, a);
    uint64_t x[4] = {p.l[0], p.l[1], p.l[2], p.l[3]};
    char tmp[CZ_FR_DECIMAL_MAX + 19];
    size_t n = 0;
    for (;;) {
        unsigned __int128 rem = 0;
        int nonzero = 0;
        for (int i = 3; i >= 0; i--) {
            unsigned __int128 cur = (rem << 64) | x[i];
            x[i] = (uint64_t)(cur / TEN19);
            rem = cur % TEN19;
            nonzero |= x[i] != 0;
        }
        uint64_t chunk = (uint64_t)rem;
        if (!nonzero) { /* last chunk: no zero padding */
            do { tmp[n++] = (char)('0' + chunk % 10); chunk /= 10; } while (chunk);
            break;
        }
        for (int d = 0; d < 19; d++) { tmp[n++] = (char)('0' + chunk % 10); chunk /= 10; }
    }
    for (size_t i = 0; i < n; i++) out[i] = tmp[n - 1 - i];
    out[n] = 0;
    return n;
}

cz_err cz_fr_from_decimal(cz_fr *out, const char *s, size_t len)
{
    if (len == 0) return CZ_ERR_PARSE;
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9') return CZ_ERR_PARSE;
    if (s[0] == '0' && len > 1) return CZ_ERR_PARSE;
    if (len > CZ_FR_DECIMAL_MAX - 1) return CZ_ERR_NONCANONICAL; /* at least 10^77 > r */
    uint64_t x[5] = {0};
    for (size_t i = 0; i < len; i++) {
        unsigned __int128 carry = (unsigned)(s[i] - '0');
        for (int k = 0; k < 5; k++) {
            unsigned __int128 t = (unsigned __int128)x[k] * 10 + carry;
            x[k] = (uint64_t)t;
            carry = t >> 64;
        }
    }
    if (x[4]) return CZ_ERR_NONCANONICAL;
    for (int k = 3; k >= 0; k--) {
        if (x[k] < cz_fr_modulus.l[k]) break;
        if (x[k] > cz_fr_modulus.l[k] || k == 0) return CZ_ERR_NONCANONICAL; /* greater, or equal to r */
    }
    cz_fr p;
    memcpy(p.l, x, sizeof p.l);
    cz_fr_to_mont(out, &p);
    return CZ_OK;
}
