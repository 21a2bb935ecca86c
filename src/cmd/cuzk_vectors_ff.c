/* cuzk_vectors_ff.c — the field ops of `cuzk vectors check`:
 * fp_mul, fp_add, fp_inv, fr_mul, fr_add, fr_inv.
 *
 * Inputs a, b are integers (any length, reduced mod the modulus); out is the
 * expected result, read as a number right-aligned into 48 (Fp) or 32 (Fr)
 * big-endian bytes and compared byte for byte with our canonical encoding, so
 * an expected value >= the modulus never matches. The inverse of 0 is 0. */
#include <string.h>

#include "cmd/cuzk_vectors.h"
#include "util/hex.h"

/* compare the canonical big-endian bytes of a result with member "out" */
static int expect_bytes(const cz_json *c, const uint8_t *got, size_t n, cz__vmsg *m)
{
    const cz_json *v = NULL;
    if (!cz__vstr(c, "out", &v, m)) return 0;
    uint8_t want[64];
    cz_err e = cz_hex_to_be(want, n, v->str, v->len);
    char gh[2 * 64 + 1];
    cz_hex_from_bytes(gh, got, n);
    if (e == CZ_ERR_LENGTH)
        return cz__vfail(m, "expected %.200s (longer than %zu bytes), got %s", v->str, n, gh);
    if (e != CZ_OK) return cz__vfail(m, "malformed case: \"out\" is not hex");
    if (memcmp(want, got, n) != 0) {
        char wh[2 * 64 + 1];
        cz_hex_from_bytes(wh, want, n);
        return cz__vfail(m, "expected %s, got %s", wh, gh);
    }
    return 1;
}

#define FIELD_OPS(F, NB, PFX)                                                   \
    static int PFX##_mul(const cz_json *c, cz__vmsg *m)                         \
    {                                                                           \
        F a, b;                                                                 \
        uint8_t got[NB];                                                        \
        if (!cz__vint_##PFX(&a, c, "a", m) || !cz__vint_##PFX(&b, c, "b", m))   \
            return 0;                                                           \
        F##_mul(&a, &a, &b);                                                    \
        F##_to_bytes_be(got, &a);                                               \
        return expect_bytes(c, got, NB, m);                                     \
    }                                                                           \
    static int PFX##_add(const cz_json *c, cz__vmsg *m)                         \
    {                                                                           \
        F a, b;                                                                 \
        uint8_t got[NB];                                                        \
        if (!cz__vint_##PFX(&a, c, "a", m) || !cz__vint_##PFX(&b, c, "b", m))   \
            return 0;                                                           \
        F##_add(&a, &a, &b);                                                    \
        F##_to_bytes_be(got, &a);                                               \
        return expect_bytes(c, got, NB, m);                                     \
    }                                                                           \
    static int PFX##_inv(const cz_json *c, cz__vmsg *m)                         \
    {                                                                           \
        F a;                                                                    \
        uint8_t got[NB];                                                        \
        if (!cz__vint_##PFX(&a, c, "a", m)) return 0;                           \
        F##_inv(&a, &a);                                                        \
        F##_to_bytes_be(got, &a);                                               \
        return expect_bytes(c, got, NB, m);                                     \
    }

FIELD_OPS(cz_fp, CZ_FP_BYTES, fp)
FIELD_OPS(cz_fr, CZ_FR_BYTES, fr)

const cz__vop cz__vops_ff[] = {
    { "fp_mul", fp_mul }, { "fp_add", fp_add }, { "fp_inv", fp_inv },
    { "fr_mul", fr_mul }, { "fr_add", fr_add }, { "fr_inv", fr_inv },
    { NULL, NULL },
};
