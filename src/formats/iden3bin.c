/* iden3bin.c — iden3 binary container and curve primes (see iden3bin.h). */
#include "formats/iden3bin.h"

#include <stdlib.h>
#include <string.h>

#include "formats/fio.h"

#define fail cz_fail

cz_err cz__binfile_parse(cz__binfile *bf, const uint8_t *p, size_t len, const char magic[4],
                         uint32_t max_version, const char *what, char *msg, size_t msglen)
{
    const uint8_t *h = p;
    memset(bf, 0, sizeof *bf);
    if (len < 12) return fail(CZ_ERR_LENGTH, msg, msglen, "%s: %zu bytes, too short for a %.4s file", what, len, magic);
    if (memcmp(h, magic, 4) != 0) return fail(CZ_ERR_PARSE, msg, msglen, "%s: not a %.4s file (bad magic)", what, magic);
    uint32_t version = cz__get_le32(h + 4), n = cz__get_le32(h + 8);
    if (version == 0 || version > max_version)
        return fail(CZ_ERR_UNSUPPORTED, msg, msglen, "%s: %.4s version %u is not supported (at most %u)", what, magic,
                    version, max_version);
    if (n > (len - 12) / 12)
        return fail(CZ_ERR_LENGTH, msg, msglen, "%s: claims %u sections, more than fit in %zu bytes", what, n, len);
    cz__section *s = calloc(n ? n : 1, sizeof *s);
    if (!s) return fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    uint64_t at = 12;
    for (uint32_t i = 0; i < n; i++) {
        if (len - at < 12) {
            free(s);
            return fail(CZ_ERR_LENGTH, msg, msglen, "%s: truncated: section header %u of %u missing", what, i + 1, n);
        }
        h = p + at;
        s[i].id = cz__get_le32(h);
        s[i].size = cz__get_le64(h + 4);
        s[i].off = at + 12;
        if (s[i].size > len - s[i].off) {
            cz_err e = fail(CZ_ERR_LENGTH, msg, msglen,
                            "%s: truncated: section %u (id %u) wants %llu bytes, %llu are left", what, i + 1, s[i].id,
                            (unsigned long long)s[i].size, (unsigned long long)(len - s[i].off));
            free(s);
            return e;
        }
        at = s[i].off + s[i].size;
    }
    if (at != len) {
        free(s);
        return fail(CZ_ERR_LENGTH, msg, msglen, "%s: %llu bytes after the last section", what,
                    (unsigned long long)(len - at));
    }
    bf->p = p;
    bf->len = len;
    bf->version = version;
    bf->n = n;
    bf->s = s;
    return CZ_OK;
}

void cz__binfile_free(cz__binfile *bf)
{
    free(bf->s);
    memset(bf, 0, sizeof *bf);
}

int cz__binfile_has(const cz__binfile *bf, uint32_t id)
{
    for (uint32_t i = 0; i < bf->n; i++)
        if (bf->s[i].id == id) return 1;
    return 0;
}

cz_err cz__binfile_section(const cz__binfile *bf, uint32_t id, const uint8_t **data, uint64_t *size,
                           const char *what, char *msg, size_t msglen)
{
    int found = -1;
    for (uint32_t i = 0; i < bf->n; i++) {
        if (bf->s[i].id != id) continue;
        if (found >= 0) return fail(CZ_ERR_PARSE, msg, msglen, "%s: section %u appears more than once", what, id);
        found = (int)i;
    }
    if (found < 0) return fail(CZ_ERR_PARSE, msg, msglen, "%s: section %u is missing", what, id);
    *data = bf->p + bf->s[found].off;
    *size = bf->s[found].size;
    return CZ_OK;
}

/* ---- curve primes, big-endian hex as published ---- */
typedef struct {
    cz__curve_info info;
    const char *r_hex, *q_hex;
} curve_primes;

static const curve_primes curves[] = {
    {{"BLS12-381", "bls12381", 1},
     "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
     "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab"},
    {{"BN254", "bn128", 0},
     "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
     "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47"},
};

static int hexval(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

/* does the n8-byte LE integer equal the big-endian hex constant? */
static int prime_eq(const uint8_t *le, uint32_t n8, const char *hex)
{
    size_t h = strlen(hex);
    for (uint32_t i = 0; i < n8; i++) {
        int lo = 0, hi = 0; /* byte i from the end of the hex text */
        if (2 * (size_t)i < h) lo = hexval(hex[h - 1 - 2 * i]);
        if (2 * (size_t)i + 1 < h) hi = hexval(hex[h - 2 - 2 * i]);
        if (le[i] != (uint8_t)(hi << 4 | lo)) return 0;
    }
    return (size_t)n8 * 2 >= h; /* the constant must fit in n8 bytes */
}

const cz__curve_info *cz__iden3_curve_of(const uint8_t *prime, uint32_t n8, int kind)
{
    for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++)
        if (prime_eq(prime, n8, kind == CZ__PRIME_R ? curves[i].r_hex : curves[i].q_hex)) return &curves[i].info;
    return NULL;
}

cz_err cz__iden3_check_prime(const uint8_t *prime, uint32_t n8, int kind, const char *what, char *msg,
                             size_t msglen)
{
    const cz__curve_info *c = cz__iden3_curve_of(prime, n8, kind);
    const char *field = kind == CZ__PRIME_R ? "scalar field prime r" : "base field prime q";
    if (c && c->supported && n8 == (kind == CZ__PRIME_R ? 32u : 48u)) return CZ_OK;
    if (c)
        return fail(CZ_ERR_UNSUPPORTED, msg, msglen,
                    "%s: its %s is the one of curve %s (snarkjs \"%s\"), which cuzk does not support; cuzk proves "
                    "over BLS12-381 only (compile with circom --prime bls12381 and use a bls12-381 ptau)",
                    what, field, c->name, c->snarkjs);
    return fail(CZ_ERR_UNSUPPORTED, msg, msglen,
                "%s: its %s (%u bytes) is not BLS12-381's (nor any curve snarkjs knows)", what, field, n8);
}
