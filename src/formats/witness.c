/* witness.c — witness.bin reader and writer (layout in witness.h), on the
 * shared file helpers (fio.h). The writer converts in chunks and hashes as
 * it writes, so memory stays flat for any size; the reader maps the file
 * read-only. Values 0 and 1 (most of a circuit's witness: bits) skip the
 * Montgomery conversion. */
#include "formats/witness.h"

#include <stdlib.h>
#include <string.h>

#include "formats/fio.h"
#include "util/hash.h"

static const char MAGIC[8] = {'C', 'U', 'Z', 'K', 'W', 'I', 'T', 0};
#define CHUNK 32768 /* elements converted per put */
#define MAX_VARS ((uint64_t)1 << 56)
#define fail cz_fail

uint64_t cz_witness_file_size(uint64_t n_vars) { return CZ_WITNESS_HEADER + 32 * n_vars + 8; }

static void encode(uint8_t out[32], const cz_fr *a)
{
    if (cz_fr_is_zero(a) || cz_fr_is_one(a)) {
        memset(out, 0, 32);
        out[0] = (uint8_t)!cz_fr_is_zero(a);
    } else {
        cz_fr_to_bytes_le(out, a);
    }
}

static cz_err decode(cz_fr *out, const uint8_t in[32])
{
    uint64_t hi = 0;
    for (int i = 1; i < 32; i++) hi |= in[i];
    if (hi == 0 && in[0] <= 1) {
        if (in[0]) cz_fr_one(out);
        else cz_fr_zero(out);
        return CZ_OK;
    }
    return cz_fr_from_bytes_le(out, in);
}

cz_err cz_witness_write(const char *path, const cz_fr *w, uint64_t n_vars, uint64_t n_inputs, char *msg,
                        size_t msglen)
{
    if (n_vars < 1 || n_inputs < 1 || n_inputs > n_vars || n_vars > MAX_VARS)
        return fail(CZ_ERR_INVALID_ARG, msg, msglen, "bad witness counts: %llu variables, %llu inputs",
                    (unsigned long long)n_vars, (unsigned long long)n_inputs);
    uint8_t *buf = malloc((size_t)CHUNK * 32);
    if (!buf) return fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    cz__writer wr;
    cz_err e = cz__writer_open(&wr, path, msg, msglen);
    if (e) {
        free(buf);
        return e;
    }
    cz_hash64_state h;
    cz_hash64_init(&h, 0);
    wr.hash = &h;
    uint8_t hdr[CZ_WITNESS_HEADER] = {0};
    memcpy(hdr, MAGIC, 8);
    cz__put_le32(hdr + 8, CZ_WITNESS_VERSION);
    cz__put_le32(hdr + 12, 0);
    cz__put_le64(hdr + 16, n_vars);
    cz__put_le64(hdr + 24, n_inputs);
    cz__writer_put(&wr, hdr, sizeof hdr);
    for (uint64_t i = 0; i < n_vars && !wr.err; i += CHUNK) {
        size_t k = n_vars - i < CHUNK ? (size_t)(n_vars - i) : CHUNK;
        for (size_t j = 0; j < k; j++) encode(buf + 32 * j, &w[i + j]);
        cz__writer_put(&wr, buf, 32 * k);
    }
    free(buf);
    wr.hash = NULL;
    uint8_t sum[8];
    cz__put_le64(sum, cz_hash64_final(&h));
    cz__writer_put(&wr, sum, 8);
    return cz__writer_commit(&wr, msg, msglen); /* releases wr, also on failure */
}

cz_err cz_witness_parse(cz_fr **w, uint64_t *n_vars, uint64_t *n_inputs, const uint8_t *buf, size_t len, char *msg,
                        size_t msglen)
{
    *w = NULL;
    if (len < CZ_WITNESS_HEADER + 8)
        return fail(CZ_ERR_LENGTH, msg, msglen, "%zu bytes, shorter than a witness header", len);
    if (memcmp(buf, MAGIC, 8) != 0) return fail(CZ_ERR_PARSE, msg, msglen, "not a witness file (bad magic)");
    if (cz__get_le32(buf + 8) != CZ_WITNESS_VERSION)
        return fail(CZ_ERR_UNSUPPORTED, msg, msglen, "witness version %u not supported (want %u)", cz__get_le32(buf + 8),
                    CZ_WITNESS_VERSION);
    if (cz__get_le32(buf + 12) != 0) return fail(CZ_ERR_PARSE, msg, msglen, "reserved header word is not 0");
    uint64_t nv = cz__get_le64(buf + 16), ni = cz__get_le64(buf + 24);
    /* n_vars is bounded by the file before anything is computed from it:
     * (len - 40) / 32 values fit, and MAX_VARS keeps 40 + 32 n_vars in range */
    uint64_t room = (len - CZ_WITNESS_HEADER - 8) / 32;
    if (nv < 1 || nv > MAX_VARS)
        return fail(nv ? CZ_ERR_LENGTH : CZ_ERR_PARSE, msg, msglen,
                    "witness: header says n_vars = %llu but the file (%zu bytes) holds %llu values (32 bytes each)",
                    (unsigned long long)nv, len, (unsigned long long)room);
    if (ni < 1 || ni > nv)
        return fail(CZ_ERR_PARSE, msg, msglen, "witness: header says n_inputs = %llu, not in 1..n_vars = %llu",
                    (unsigned long long)ni, (unsigned long long)nv);
    if ((uint64_t)len != cz_witness_file_size(nv))
        return fail(CZ_ERR_LENGTH, msg, msglen,
                    "witness: header says n_vars = %llu but the file (%zu bytes) holds %llu values (32 bytes each)%s",
                    (unsigned long long)nv, len, (unsigned long long)room,
                    (len - CZ_WITNESS_HEADER - 8) % 32 ? ", plus a partial value" : "");
    size_t body = CZ_WITNESS_HEADER + 32 * (size_t)nv;
    if (cz_hash64(buf, body, 0) != cz__get_le64(buf + body))
        return fail(CZ_ERR_PARSE, msg, msglen, "checksum mismatch (file corrupt)");
    cz_fr *out = malloc((size_t)nv * sizeof *out);
    if (!out) return fail(CZ_ERR_NOMEM, msg, msglen, "out of memory for %llu variables", (unsigned long long)nv);
    const uint8_t *p = buf + CZ_WITNESS_HEADER;
    for (uint64_t i = 0; i < nv; i++)
        if (decode(&out[i], p + 32 * i) != CZ_OK) {
            free(out);
            return fail(CZ_ERR_NONCANONICAL, msg, msglen, "variable %llu is not below r", (unsigned long long)i);
        }
    if (!cz_fr_is_one(&out[0])) {
        free(out);
        return fail(CZ_ERR_PARSE, msg, msglen, "variable 0 (ONE) is not 1");
    }
    *w = out;
    *n_vars = nv;
    *n_inputs = ni;
    return CZ_OK;
}

cz_err cz_witness_read(cz_fr **w, uint64_t *n_vars, uint64_t *n_inputs, const char *path, char *msg, size_t msglen)
{
    *w = NULL;
    cz__mapped m;
    cz_err e = cz__map_file(&m, path, msg, msglen);
    if (e) return e;
    char why[200];
    e = cz_witness_parse(w, n_vars, n_inputs, m.p, m.len, why, sizeof why);
    if (e) fail(e, msg, msglen, "%s: %s", path, why);
    if (!e && (e = cz__mapped_check(&m, msg, msglen))) { free(*w); *w = NULL; }
    cz__unmap_file(&m);
    return e;
}
