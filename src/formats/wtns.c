/* wtns.c — the .wtns reader and writer (see wtns.h). The header's value
 * count must match the values section exactly before anything is allocated. */
#include "formats/wtns.h"

#include <stdlib.h>
#include <string.h>

#include "formats/fio.h"
#include "formats/iden3bin.h"

#define fail cz_fail

cz_err cz_wtns_parse(cz_fr **w, uint64_t *n, const uint8_t *buf, size_t len, char *msg, size_t msglen)
{
    *w = NULL;
    *n = 0;
    cz__binfile bf;
    cz_err e = cz__binfile_parse(&bf, buf, len, "wtns", 2, "wtns", msg, msglen);
    if (e) return e;
    const uint8_t *h, *d;
    uint64_t hs, ds;
    cz_fr *v = NULL;
    if ((e = cz__binfile_section(&bf, 1, &h, &hs, "wtns", msg, msglen))) goto out;
    if (hs < 4 || hs - 4 < cz__get_le32(h) || hs - 4 - cz__get_le32(h) != 4) {
        e = fail(hs < 8 ? CZ_ERR_LENGTH : CZ_ERR_PARSE, msg, msglen, "wtns section 1 (header): %llu bytes do not fit n8 = %u",
                 (unsigned long long)hs, hs >= 4 ? cz__get_le32(h) : 0);
        goto out;
    }
    uint32_t n8 = cz__get_le32(h);
    if ((e = cz__iden3_check_prime(h + 4, n8, CZ__PRIME_R, "wtns", msg, msglen))) goto out;
    uint64_t cnt = cz__get_le32(h + 4 + n8);
    if ((e = cz__binfile_section(&bf, 2, &d, &ds, "wtns", msg, msglen))) goto out;
    if (ds != cnt * n8) { /* cnt < 2^32 and n8 = 32: no overflow */
        e = fail(ds < cnt * n8 ? CZ_ERR_LENGTH : CZ_ERR_PARSE, msg, msglen,
                 "wtns: header says %llu witness values but the values section holds %llu (%u bytes each)%s",
                 (unsigned long long)cnt, (unsigned long long)(ds / n8), n8, ds % n8 ? ", plus a partial value" : "");
        goto out;
    }
    if (cnt == 0) { e = fail(CZ_ERR_PARSE, msg, msglen, "wtns holds no values"); goto out; }
    v = malloc(cnt * sizeof *v);
    if (!v) { e = fail(CZ_ERR_NOMEM, msg, msglen, "out of memory for %llu values", (unsigned long long)cnt); goto out; }
    for (uint64_t i = 0; i < cnt; i++) {
        if (cz_fr_from_bytes_le(&v[i], d + i * n8)) {
            e = fail(CZ_ERR_NONCANONICAL, msg, msglen, "wtns value %llu is not below r", (unsigned long long)i);
            goto out;
        }
    }
    if (!cz_fr_is_one(&v[0])) {
        e = fail(CZ_ERR_PARSE, msg, msglen, "wtns value 0 (the constant ONE signal) is not 1");
        goto out;
    }
    *w = v;
    *n = cnt;
    v = NULL;
out:
    free(v);
    cz__binfile_free(&bf);
    return e;
}

cz_err cz_wtns_read(cz_fr **w, uint64_t *n, const char *path, char *msg, size_t msglen)
{
    cz__mapped m;
    *w = NULL;
    *n = 0;
    cz_err e = cz__map_file(&m, path, msg, msglen);
    if (e) return e;
    char why[300];
    e = cz_wtns_parse(w, n, m.p, m.len, why, sizeof why);
    if (e) fail(e, msg, msglen, "%s: %s", path, why);
    if (!e && (e = cz__mapped_check(&m, msg, msglen))) { free(*w); *w = NULL; *n = 0; }
    cz__unmap_file(&m);
    return e;
}

cz_err cz_wtns_write(const char *path, const cz_fr *w, uint64_t n, char *msg, size_t msglen)
{
    if (n > UINT32_MAX) return fail(CZ_ERR_INVALID_ARG, msg, msglen, "too many values for a .wtns");
    cz__writer wr;
    cz_err e = cz__writer_open(&wr, path, msg, msglen);
    if (e) return e;
    uint8_t b[48];
    memcpy(b, "wtns", 4);
    cz__put_le32(b + 4, 2);
    cz__put_le32(b + 8, 2);
    cz__writer_put(&wr, b, 12);
    cz__put_le32(b, 1);
    cz__put_le64(b + 4, 40);
    cz__writer_put(&wr, b, 12);
    cz__put_le32(b, 32);
    cz__writer_put(&wr, b, 4);
    for (int i = 0; i < 4; i++) cz__put_le64(b + 8 * i, cz_fr_modulus.l[i]);
    cz__writer_put(&wr, b, 32);
    cz__put_le32(b, (uint32_t)n);
    cz__writer_put(&wr, b, 4);
    cz__put_le32(b, 2);
    cz__put_le64(b + 4, n * 32);
    cz__writer_put(&wr, b, 12);
    for (uint64_t i = 0; i < n; i++) {
        cz_fr_to_bytes_le(b, &w[i]);
        cz__writer_put(&wr, b, 32);
    }
    return cz__writer_commit(&wr, msg, msglen);
}
