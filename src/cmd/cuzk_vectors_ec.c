/* cuzk_vectors_ec.c — the group, decoding and pairing ops of `cuzk vectors
 * check`: g1_add, g2_add, g1_mul, g2_mul, g1_decode, g2_decode, pairing_check.
 *
 * Input points (p, q) are ZCash encodings, compressed or uncompressed, and go
 * through the full decoder with the subgroup check; one that fails makes the
 * case malformed. k is any non-negative integer, taken mod r (the points are
 * in the r-torsion, so k·P = (k mod r)·P). A result is compared byte for byte
 * with the expected encoding in the form it was given (compressed or
 * uncompressed). A decode case passes when our verdict equals "valid" and,
 * for a valid input with "out", our encoding of the point equals "out".
 * pairing_check decodes every [g1, g2] pair the same way and compares
 * cz_pairing_check (the product of the pairings is 1) with the boolean out. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cuzk_vectors.h"
#include "ec/ec.h"
#include "pairing/pairing.h"
#include "util/hex.h"

/* our encoding of a point in the form (length) of want; 1 if they are equal */
#define EXPECT_POINT(G, GU)                                                                  \
    static int G##_expect(const cz_json *c, const char *key, const cz_##G##_aff *got,        \
                          cz__vmsg *m)                                                       \
    {                                                                                        \
        uint8_t want[CZ_##GU##_UNCOMPRESSED], ours[CZ_##GU##_UNCOMPRESSED];                 \
        size_t n;                                                                            \
        if (!cz__vbytes(want, sizeof want, &n, c, key, m)) return 0;                         \
        if (n == CZ_##GU##_COMPRESSED) cz_##G##_compress(ours, got);                         \
        else if (n == CZ_##GU##_UNCOMPRESSED) cz_##G##_serialize(ours, got);                 \
        else                                                                                 \
            return cz__vfail(m, "malformed case: \"%s\" is %zu bytes, expected %d or %d",    \
                             key, n, CZ_##GU##_COMPRESSED, CZ_##GU##_UNCOMPRESSED);          \
        if (memcmp(want, ours, n) == 0) return 1;                                            \
        char wh[2 * CZ_##GU##_UNCOMPRESSED + 1], oh[2 * CZ_##GU##_UNCOMPRESSED + 1];        \
        cz_hex_from_bytes(wh, want, n);                                                      \
        cz_hex_from_bytes(oh, ours, n);                                                      \
        return cz__vfail(m, "expected %s, got %s", wh, oh);                                  \
    }

/* a point member, fully checked */
#define READ_POINT(G, GU, NAME)                                                              \
    static int G##_read(cz_##G##_aff *out, const cz_json *c, const char *key, cz__vmsg *m)  \
    {                                                                                        \
        uint8_t b[CZ_##GU##_UNCOMPRESSED];                                                   \
        size_t n;                                                                            \
        if (!cz__vbytes(b, sizeof b, &n, c, key, m)) return 0;                               \
        cz_err e = cz_##G##_decode(out, b, n, 1);                                            \
        if (e != CZ_OK)                                                                      \
            return cz__vfail(m, "malformed case: \"%s\" is not a valid " NAME " point: %s",  \
                             key, cz_strerror(e));                                           \
        return 1;                                                                            \
    }

#define GROUP_OPS(G, GU, NAME)                                                               \
    EXPECT_POINT(G, GU)                                                                      \
    READ_POINT(G, GU, NAME)                                                                  \
    static int G##_add_op(const cz_json *c, cz__vmsg *m)                                     \
    {                                                                                        \
        cz_##G##_aff p, q, r;                                                                \
        cz_##G##_jac pj, qj;                                                                 \
        if (!G##_read(&p, c, "p", m) || !G##_read(&q, c, "q", m)) return 0;                  \
        cz_##G##_from_aff(&pj, &p);                                                          \
        cz_##G##_from_aff(&qj, &q);                                                          \
        cz_##G##_add(&pj, &pj, &qj);                                                         \
        cz_##G##_to_aff(&r, &pj);                                                            \
        return G##_expect(c, "out", &r, m);                                                  \
    }                                                                                        \
    static int G##_mul_op(const cz_json *c, cz__vmsg *m)                                     \
    {                                                                                        \
        cz_##G##_aff p, r;                                                                   \
        cz_##G##_jac pj;                                                                     \
        cz_fr k;                                                                             \
        if (!G##_read(&p, c, "p", m) || !cz__vint_fr(&k, c, "k", m)) return 0;               \
        cz_##G##_from_aff(&pj, &p);                                                          \
        cz_##G##_mul_fr(&pj, &pj, &k);                                                       \
        cz_##G##_to_aff(&r, &pj);                                                            \
        return G##_expect(c, "out", &r, m);                                                  \
    }                                                                                        \
    static int G##_decode_op(const cz_json *c, cz__vmsg *m)                                  \
    {                                                                                        \
        const cz_json *bv = NULL;                                                            \
        int valid;                                                                           \
        if (!cz__vstr(c, "bytes", &bv, m) || !cz__vbool(c, "valid", &valid, m)) return 0;   \
        size_t cap = bv->len / 2 + 1, n;                                                     \
        uint8_t *b = malloc(cap);                                                            \
        if (!b) return cz__vfail(m, "out of memory");                                        \
        int ok = cz__vbytes(b, cap, &n, c, "bytes", m);                                      \
        cz_##G##_aff p;                                                                      \
        cz_err e = ok ? cz_##G##_decode(&p, b, n, 1) : CZ_OK;                                \
        free(b);                                                                             \
        if (!ok) return 0;                                                                   \
        if (valid && e != CZ_OK)                                                             \
            return cz__vfail(m, "expected valid, got invalid (%s)", cz_strerror(e));         \
        if (!valid && e == CZ_OK) {                                                          \
            uint8_t u[CZ_##GU##_UNCOMPRESSED];                                               \
            char h[2 * CZ_##GU##_UNCOMPRESSED + 1];                                          \
            cz_##G##_serialize(u, &p);                                                       \
            cz_hex_from_bytes(h, u, sizeof u);                                               \
            return cz__vfail(m, "expected invalid, got valid (decoded to %s)", h);           \
        }                                                                                    \
        if (valid && cz_json_key_count(c, "out")) return G##_expect(c, "out", &p, m);        \
        return 1;                                                                            \
    }

GROUP_OPS(g1, G1, "G1")
GROUP_OPS(g2, G2, "G2")

/* one element of a pair: a hex string decoded as a point of the group */
#define PAIR_POINT(G, GU, NAME)                                                              \
    static int G##_pair_point(cz_##G##_aff *out, const cz_json *v, size_t i, cz__vmsg *m)    \
    {                                                                                        \
        uint8_t b[CZ_##GU##_UNCOMPRESSED];                                                   \
        size_t n;                                                                            \
        if (v->type != CZ_JSON_STRING)                                                       \
            return cz__vfail(m, "malformed case: pairs[%zu] " NAME " is a %s, expected hex", \
                             i, cz_json_type_name(v->type));                                 \
        cz_err e = cz_hex_to_bytes(b, sizeof b, &n, v->str, v->len);                         \
        if (e == CZ_OK) e = cz_##G##_decode(out, b, n, 1);                                   \
        if (e != CZ_OK)                                                                      \
            return cz__vfail(m, "malformed case: pairs[%zu] " NAME " is not a valid point: %s", \
                             i, cz_strerror(e));                                             \
        return 1;                                                                            \
    }
PAIR_POINT(g1, G1, "G1")
PAIR_POINT(g2, G2, "G2")

static int pairing_check_op(const cz_json *c, cz__vmsg *m)
{
    int want;
    size_t n = cz_json_key_count(c, "pairs");
    const cz_json *pairs = cz_json_get(c, "pairs");
    if (n != 1) return cz__vfail(m, "malformed case: %s \"pairs\"", n ? "more than one" : "missing");
    if (pairs->type != CZ_JSON_ARRAY)
        return cz__vfail(m, "malformed case: \"pairs\" is a %s, expected an array",
                         cz_json_type_name(pairs->type));
    if (!cz__vbool(c, "out", &want, m)) return 0;
    n = pairs->n;
    cz_g1_aff *p = malloc((n ? n : 1) * sizeof *p);
    cz_g2_aff *q = malloc((n ? n : 1) * sizeof *q);
    int ok = p && q;
    if (!ok) cz__vfail(m, "out of memory");
    for (size_t i = 0; ok && i < n; i++) {
        const cz_json *pr = pairs->items[i], *a = NULL, *b = NULL;
        if (pr->type == CZ_JSON_ARRAY && pr->n == 2) {
            a = pr->items[0];
            b = pr->items[1];
        } else if (pr->type == CZ_JSON_OBJECT && pr->n == 2) {  /* {"g1":..,"g2":..} too */
            a = cz_json_get(pr, "g1");
            b = cz_json_get(pr, "g2");
        }
        if (!a || !b)
            ok = cz__vfail(m, "malformed case: pairs[%zu] is not a [g1, g2] pair", i);
        else
            ok = g1_pair_point(&p[i], a, i, m) && g2_pair_point(&q[i], b, i, m);
    }
    if (ok) {
        int got = cz_pairing_check(p, q, n);
        if (got != want)
            ok = cz__vfail(m, "expected %s, got %s (product of %zu pairings %s 1)",
                           want ? "true" : "false", got ? "true" : "false", n, got ? "is" : "is not");
    }
    free(p);
    free(q);
    return ok;
}

const cz__vop cz__vops_ec[] = {
    { "g1_add", g1_add_op }, { "g2_add", g2_add_op },
    { "g1_mul", g1_mul_op }, { "g2_mul", g2_mul_op },
    { "g1_decode", g1_decode_op }, { "g2_decode", g2_decode_op },
    { "pairing_check", pairing_check_op },
    { NULL, NULL },
};
