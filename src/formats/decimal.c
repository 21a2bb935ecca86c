/* decimal.c — Fr / Fp <-> decimal text (see decimal.h). Printing divides the
 * plain little-endian limb integer by 10^19 repeatedly (one chunk of 19
 * digits per step); parsing multiplies by 10 and adds into one limb more than
 * the field has, so any input of at most the maximal digit count is held
 * exactly before the comparison with the modulus. One limb-generic pair of
 * helpers serves both fields. */
#include "formats/decimal.h"

#include <string.h>

#define TEN19 10000000000000000000ull

/* x: nl plain limbs (destroyed); returns the length written to out */
static size_t limbs_to_decimal(char *out, uint64_t *x, int nl)
{
    char tmp[CZ_FP_DECIMAL_MAX + 19];
    size_t n = 0;
    for (;;) {
        unsigned __int128 rem = 0;
        int nonzero = 0;
        for (int i = nl - 1; i >= 0; i--) {
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

/* parses into nl plain limbs below mod; CZ_ERR_PARSE / CZ_ERR_NONCANONICAL */
static cz_err decimal_to_limbs(uint64_t *out, const char *s, size_t len, const uint64_t *mod, int nl,
                               size_t max_digits)
{
    if (len == 0) return CZ_ERR_PARSE;
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9') return CZ_ERR_PARSE;
    if (s[0] == '0' && len > 1) return CZ_ERR_PARSE;
    if (len > max_digits) return CZ_ERR_NONCANONICAL; /* at least 10^max_digits > modulus */
    uint64_t x[7] = {0};
    for (size_t i = 0; i < len; i++) {
        unsigned __int128 carry = (unsigned)(s[i] - '0');
        for (int k = 0; k <= nl; k++) {
            unsigned __int128 t = (unsigned __int128)x[k] * 10 + carry;
            x[k] = (uint64_t)t;
            carry = t >> 64;
        }
    }
    if (x[nl]) return CZ_ERR_NONCANONICAL;
    for (int k = nl - 1; k >= 0; k--) {
        if (x[k] < mod[k]) break;
        if (x[k] > mod[k] || k == 0) return CZ_ERR_NONCANONICAL; /* greater, or equal to the modulus */
    }
    memcpy(out, x, (size_t)nl * sizeof *out);
    return CZ_OK;
}

size_t cz_fr_to_decimal(char out[CZ_FR_DECIMAL_MAX], const cz_fr *a)
{
    cz_fr p;
    cz_fr_from_mont(&p, a);
    return limbs_to_decimal(out, p.l, CZ_FR_LIMBS);
}

cz_err cz_fr_from_decimal(cz_fr *out, const char *s, size_t len)
{
    cz_fr p;
    cz_err e = decimal_to_limbs(p.l, s, len, cz_fr_modulus.l, CZ_FR_LIMBS, CZ_FR_DECIMAL_MAX - 1);
    if (!e) cz_fr_to_mont(out, &p);
    return e;
}

size_t cz_fp_to_decimal(char out[CZ_FP_DECIMAL_MAX], const cz_fp *a)
{
    cz_fp p;
    cz_fp_from_mont(&p, a);
    return limbs_to_decimal(out, p.l, CZ_FP_LIMBS);
}

cz_err cz_fp_from_decimal(cz_fp *out, const char *s, size_t len)
{
    cz_fp p;
    cz_err e = decimal_to_limbs(p.l, s, len, cz_fp_modulus.l, CZ_FP_LIMBS, CZ_FP_DECIMAL_MAX - 1);
    if (!e) cz_fp_to_mont(out, &p);
    return e;
}
