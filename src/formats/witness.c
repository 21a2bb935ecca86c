/* witness.c — witness.bin reader and writer (layout in witness.h). The
 * writer converts and hashes in chunks through a fixed buffer, so memory
 * stays flat for any size; the reader maps the file read-only. Values 0 and
 * 1 (most of a circuit's witness: bits) skip the Montgomery conversion. */
#include "formats/witness.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/hash.h"

static const char MAGIC[8] = {'C', 'U', 'Z', 'K', 'W', 'I', 'T', 0};
#define CHUNK 32768 /* elements per write */
#define MAX_VARS ((uint64_t)1 << 56)

static cz_err fail(cz_err e, char *msg, size_t msglen, const char *fmt, ...)
{
    if (msg && msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msglen, fmt, ap);
        va_end(ap);
    }
    return e;
}

static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static uint64_t get64(const uint8_t *p) { uint64_t v = 0; for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i); return v; }
static uint32_t get32(const uint8_t *p) { uint32_t v = 0; for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i); return v; }

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

static int write_all(int fd, const void *p, size_t n, cz_hash64_state *h)
{
    const uint8_t *b = p;
    if (h) cz_hash64_update(h, p, n);
    while (n) {
        ssize_t k = write(fd, b, n);
        if (k < 0) { if (errno == EINTR) continue; return -1; }
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

cz_err cz_witness_write(const char *path, const cz_fr *w, uint64_t n_vars, uint64_t n_inputs, char *msg,
                        size_t msglen)
{
    if (n_vars < 1 || n_inputs < 1 || n_inputs > n_vars || n_vars > MAX_VARS)
        return fail(CZ_ERR_INVALID_ARG, msg, msglen, "bad witness counts: %llu variables, %llu inputs",
                    (unsigned long long)n_vars, (unsigned long long)n_inputs);
    size_t plen = strlen(path) + 5;
    char *tmp = malloc(plen);
    uint8_t *buf = malloc((size_t)CHUNK * 32);
    if (!tmp || !buf) {
        free(tmp);
        free(buf);
        return fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    }
    snprintf(tmp, plen, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        cz_err e = fail(CZ_ERR_IO, msg, msglen, "cannot create %s: %s", tmp, strerror(errno));
        free(tmp);
        free(buf);
        return e;
    }
    cz_hash64_state h;
    cz_hash64_init(&h, 0);
    uint8_t hdr[CZ_WITNESS_HEADER] = {0};
    memcpy(hdr, MAGIC, 8);
    put32(hdr + 8, CZ_WITNESS_VERSION);
    put32(hdr + 12, 0);
    put64(hdr + 16, n_vars);
    put64(hdr + 24, n_inputs);
    int bad = write_all(fd, hdr, sizeof hdr, &h);
    for (uint64_t i = 0; i < n_vars && !bad; i += CHUNK) {
        size_t k = n_vars - i < CHUNK ? (size_t)(n_vars - i) : CHUNK;
        for (size_t j = 0; j < k; j++) encode(buf + 32 * j, &w[i + j]);
        bad = write_all(fd, buf, 32 * k, &h);
    }
    uint8_t sum[8];
    put64(sum, cz_hash64_final(&h));
    bad = bad || write_all(fd, sum, 8, NULL) || fsync(fd) != 0;
    int saved = errno;
    bad = close(fd) != 0 || bad;
    if (bad || rename(tmp, path) != 0) {
        if (!bad) saved = errno;
        cz_err e = fail(CZ_ERR_IO, msg, msglen, "cannot write %s: %s", path, strerror(saved));
        unlink(tmp);
        free(tmp);
        free(buf);
        return e;
    }
    free(tmp);
    free(buf);
    return CZ_OK;
}

cz_err cz_witness_parse(cz_fr **w, uint64_t *n_vars, uint64_t *n_inputs, const uint8_t *buf, size_t len, char *msg,
                        size_t msglen)
{
    *w = NULL;
    if (len < CZ_WITNESS_HEADER + 8)
        return fail(CZ_ERR_LENGTH, msg, msglen, "%zu bytes, shorter than a witness header", len);
    if (memcmp(buf, MAGIC, 8) != 0) return fail(CZ_ERR_PARSE, msg, msglen, "not a witness file (bad magic)");
    if (get32(buf + 8) != CZ_WITNESS_VERSION)
        return fail(CZ_ERR_UNSUPPORTED, msg, msglen, "witness version %u not supported (want %u)", get32(buf + 8),
                    CZ_WITNESS_VERSION);
    if (get32(buf + 12) != 0) return fail(CZ_ERR_PARSE, msg, msglen, "reserved header word is not 0");
    uint64_t nv = get64(buf + 16), ni = get64(buf + 24);
    if (nv < 1 || nv > MAX_VARS)
        return fail(CZ_ERR_PARSE, msg, msglen, "bad variable count %llu", (unsigned long long)nv);
    if (ni < 1 || ni > nv)
        return fail(CZ_ERR_PARSE, msg, msglen, "input count %llu not in 1..%llu", (unsigned long long)ni,
                    (unsigned long long)nv);
    if ((uint64_t)len != cz_witness_file_size(nv))
        return fail(CZ_ERR_LENGTH, msg, msglen, "%zu bytes, but %llu variables need %llu (truncated or padded?)", len,
                    (unsigned long long)nv, (unsigned long long)cz_witness_file_size(nv));
    size_t body = CZ_WITNESS_HEADER + 32 * (size_t)nv;
    if (cz_hash64(buf, body, 0) != get64(buf + body))
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
    int fd = open(path, O_RDONLY);
    if (fd < 0) return fail(CZ_ERR_IO, msg, msglen, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int er = errno;
        close(fd);
        return fail(CZ_ERR_IO, msg, msglen, "cannot stat %s: %s", path, strerror(er));
    }
    size_t size = (size_t)st.st_size;
    if (size < CZ_WITNESS_HEADER + 8) {
        close(fd);
        return fail(CZ_ERR_LENGTH, msg, msglen, "%s: %zu bytes, shorter than a witness header", path, size);
    }
    uint8_t *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return fail(CZ_ERR_IO, msg, msglen, "cannot map %s: %s", path, strerror(errno));
    char why[200];
    cz_err e = cz_witness_parse(w, n_vars, n_inputs, map, size, why, sizeof why);
    munmap(map, size);
    if (e) fail(e, msg, msglen, "%s: %s", path, why);
    return e;
}
