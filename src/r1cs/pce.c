/* pce.c — write and map .pce files (layout in pce.h). The reader bounds
 * each header count by the payload bytes its array needs, in file order,
 * before computing any offset from it (fit()). */
#include "r1cs/pce.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/hash.h"
#include "util/mapguard.h"

static const char MAGIC[8] = {'C', 'U', 'Z', 'K', 'P', 'C', 'E', 0};

static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static uint64_t get64(const uint8_t *p) { uint64_t v = 0; for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i); return v; }
static uint32_t get32(const uint8_t *p) { uint32_t v = 0; for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i); return v; }

static uint64_t pad64(uint64_t x) { return (x + 63) & ~(uint64_t)63; }

/* byte offsets of one matrix's arrays; returns 0 on overflow */
typedef struct { uint64_t row_ptr, col, cidx, coefs, end; } mat_layout;

static int layout(mat_layout *l, uint64_t start, uint64_t n_rows, uint64_t nnz, uint64_t n_coefs, uint64_t w)
{
    const uint64_t lim = (uint64_t)1 << 60; /* any real count is far below */
    if (n_rows >= lim || nnz >= lim || n_coefs >= lim) return 0;
    l->row_ptr = start;
    l->col = pad64(l->row_ptr + (n_rows + 1) * 8);
    l->cidx = pad64(l->col + nnz * 4);
    l->coefs = pad64(l->cidx + nnz * w);
    l->end = pad64(l->coefs + n_coefs * 32);
    return l->end < lim;
}

/* the array of count + extra elements of elt bytes that starts at the next
 * 64-byte boundary after *at must end inside the payload; *at moves past it.
 * *at <= payload_len on entry, so nothing here can overflow. */
static cz_err fit(uint64_t *at, uint64_t count, uint64_t extra, uint64_t elt, uint64_t payload_len, const char *field,
                  int k, const char *path, char *msg, size_t msglen)
{
    uint64_t pos = pad64(*at), left = pos <= payload_len ? payload_len - pos : 0, room = left / elt;
    if (room < extra || count > room - extra)
        return cz_fail(CZ_ERR_LENGTH, msg, msglen,
                       "%s: header says %s = %llu for matrix %c but the payload has %llu bytes left at offset %llu, "
                       "room for %llu (%llu bytes each%s)",
                       path, field, (unsigned long long)count, "ABC"[k], (unsigned long long)left,
                       (unsigned long long)pos, (unsigned long long)(room >= extra ? room - extra : 0),
                       (unsigned long long)elt, extra ? ", one more than the count" : "");
    *at = pos + (count + extra) * elt;
    return CZ_OK;
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

static int write_pad(int fd, uint64_t *pos, uint64_t to, cz_hash64_state *h)
{
    static const uint8_t zeros[64];
    if (to - *pos > 64) return -1;
    if (write_all(fd, zeros, to - *pos, h)) return -1;
    *pos = to;
    return 0;
}

cz_err cz_pce_write(const char *path, const cz_r1cs *r, char *msg, size_t msglen)
{
    uint8_t hdr[CZ_PCE_HEADER] = {0};
    mat_layout lay[3];
    uint64_t off = 0;
    for (int k = 0; k < 3; k++) {
        const cz_csr *m = &r->m[k];
        if (!layout(&lay[k], off, r->n_constraints, m->nnz, m->n_coefs, m->cidx_bytes))
            return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "constraint system too large");
        off = lay[k].end;
    }
    size_t plen = strlen(path) + 5;
    char *tmp = malloc(plen);
    if (!tmp) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    snprintf(tmp, plen, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        cz_err e = cz_fail(CZ_ERR_IO, msg, msglen, "cannot create %s: %s", tmp, strerror(errno));
        free(tmp);
        return e;
    }
    cz_hash64_state h;
    cz_hash64_init(&h, 0);
    int bad = lseek(fd, CZ_PCE_HEADER, SEEK_SET) != CZ_PCE_HEADER;
    uint64_t pos = 0;
    for (int k = 0; k < 3 && !bad; k++) {
        const cz_csr *m = &r->m[k];
        bad |= write_pad(fd, &pos, lay[k].row_ptr, &h) ||
               write_all(fd, m->row_ptr, (r->n_constraints + 1) * 8, &h);
        pos = lay[k].row_ptr + (r->n_constraints + 1) * 8;
        bad |= write_pad(fd, &pos, lay[k].col, &h) || write_all(fd, m->col, m->nnz * 4, &h);
        pos = lay[k].col + m->nnz * 4;
        bad |= write_pad(fd, &pos, lay[k].cidx, &h) || write_all(fd, m->cidx, m->nnz * m->cidx_bytes, &h);
        pos = lay[k].cidx + m->nnz * m->cidx_bytes;
        bad |= write_pad(fd, &pos, lay[k].coefs, &h) || write_all(fd, m->coefs, (size_t)m->n_coefs * 32, &h);
        pos = lay[k].coefs + (uint64_t)m->n_coefs * 32;
        bad |= write_pad(fd, &pos, lay[k].end, &h);
    }
    memcpy(hdr, MAGIC, 8);
    int v2 = r->ntt_generator != 0 && r->ntt_generator != 7;
    put32(hdr + 8, v2 ? 2 : CZ_PCE_VERSION);
    put32(hdr + 12, CZ_PCE_HEADER);
    put64(hdr + 16, r->n_vars);
    put64(hdr + 24, r->n_inputs);
    put64(hdr + 32, r->n_constraints);
    for (int k = 0; k < 3; k++) {
        put64(hdr + 40 + 16 * k, r->m[k].nnz);
        put32(hdr + 48 + 16 * k, r->m[k].n_coefs);
        put32(hdr + 52 + 16 * k, r->m[k].cidx_bytes);
    }
    put64(hdr + 88, off);
    cz_hash64_update(&h, hdr, 96);
    if (v2) { /* version 2: the NTT generator at 104, covered by the checksum */
        put32(hdr + 104, r->ntt_generator);
        cz_hash64_update(&h, hdr + 104, 4);
    }
    put64(hdr + 96, cz_hash64_final(&h));
    bad = bad || pwrite(fd, hdr, sizeof hdr, 0) != (ssize_t)sizeof hdr || fsync(fd) != 0;
    bad = close(fd) != 0 || bad;
    if (bad || rename(tmp, path) != 0) {
        cz_err e = cz_fail(CZ_ERR_IO, msg, msglen, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return e;
    }
    free(tmp);
    return CZ_OK;
}

static cz_err check_matrix(const cz_r1cs *r, int k, char *msg, size_t msglen)
{
    static const char *names = "ABC";
    const cz_csr *m = &r->m[k];
    if (m->row_ptr[0] != 0 || m->row_ptr[m->n_rows] != m->nnz)
        return cz_fail(CZ_ERR_PARSE, msg, msglen, "matrix %c: row offsets do not span its %llu non-zeros",
                    names[k], (unsigned long long)m->nnz);
    for (uint64_t i = 0; i < m->n_rows; i++)
        if (m->row_ptr[i] > m->row_ptr[i + 1])
            return cz_fail(CZ_ERR_PARSE, msg, msglen, "matrix %c: row offsets decrease at row %llu", names[k],
                        (unsigned long long)i);
    for (uint64_t i = 0; i < m->nnz; i++)
        if (m->col[i] >= r->n_vars)
            return cz_fail(CZ_ERR_PARSE, msg, msglen, "matrix %c: variable index %u out of range", names[k],
                        m->col[i]);
    for (uint64_t i = 0; i < m->nnz; i++) {
        if (cz_csr_cidx(m, i) >= m->n_coefs)
            return cz_fail(CZ_ERR_PARSE, msg, msglen, "matrix %c: coefficient index out of range", names[k]);
    }
    cz_fr minus_one;
    cz_fr_neg(&minus_one, &cz_fr_one_mont);
    for (uint32_t i = 0; i < m->n_coefs; i++) {
        uint8_t le[32];
        memcpy(le, &m->coefs[i], 32); /* canonical check on the raw (Montgomery) limbs */
        cz_fr t;
        if (cz_fr_from_bytes_le(&t, le) != CZ_OK)
            return cz_fail(CZ_ERR_NONCANONICAL, msg, msglen, "matrix %c: coefficient %u not below r", names[k], i);
    }
    if (m->n_coefs < 2 || !cz_fr_eq(&m->coefs[0], &cz_fr_one_mont) || !cz_fr_eq(&m->coefs[1], &minus_one))
        return cz_fail(CZ_ERR_PARSE, msg, msglen, "matrix %c: coefficient table must start with 1, -1", names[k]);
    return CZ_OK;
}

cz_err cz_pce_open(cz_r1cs *out, const char *path, int verify_checksum, char *msg, size_t msglen)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return cz_fail(CZ_ERR_IO, msg, msglen, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return cz_fail(CZ_ERR_IO, msg, msglen, "cannot stat %s: %s", path, strerror(errno));
    }
    uint64_t size = (uint64_t)st.st_size;
    if (size < CZ_PCE_HEADER) {
        close(fd);
        return cz_fail(CZ_ERR_LENGTH, msg, msglen, "%s: %llu bytes, shorter than a PCE header", path,
                    (unsigned long long)size);
    }
    uint8_t *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) (void)cz_mapguard_add(map, size, fd, path);
    close(fd);
    if (map == MAP_FAILED) return cz_fail(CZ_ERR_IO, msg, msglen, "cannot map %s: %s", path, strerror(errno));
    cz_err e = CZ_OK;
    const uint8_t *h = map;
    if (memcmp(h, MAGIC, 8) != 0) { e = cz_fail(CZ_ERR_PARSE, msg, msglen, "%s: not a PCE file (bad magic)", path); goto out; }
    uint32_t version = get32(h + 8);
    if ((version != CZ_PCE_VERSION && version != 2) || get32(h + 12) != CZ_PCE_HEADER) {
        e = cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "%s: PCE version %u not supported (want %u)", path, get32(h + 8),
                 CZ_PCE_VERSION);
        goto out;
    }
    out->n_vars = get64(h + 16);
    out->n_inputs = get64(h + 24);
    out->n_constraints = get64(h + 32);
    if (out->n_inputs < 1 || out->n_inputs > out->n_vars || out->n_vars > UINT32_MAX) {
        e = cz_fail(CZ_ERR_PARSE, msg, msglen,
                    "%s: header says n_inputs = %llu and n_vars = %llu (want 1 <= n_inputs <= n_vars <= 2^32-1)", path,
                    (unsigned long long)out->n_inputs, (unsigned long long)out->n_vars);
        goto out;
    }
    if (version == 2) {
        out->ntt_generator = get32(h + 104);
        if (out->ntt_generator != 5 && out->ntt_generator != 7) {
            e = cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "%s: NTT generator %u not supported (5 or 7)", path,
                        out->ntt_generator);
            goto out;
        }
    }
    uint64_t off = 0, payload_len = size - CZ_PCE_HEADER;
    mat_layout lay[3];
    for (int k = 0; k < 3; k++) {
        uint64_t nnz = get64(h + 40 + 16 * k);
        uint32_t nc = get32(h + 48 + 16 * k), w = get32(h + 52 + 16 * k);
        if (w != 1 && w != 2 && w != 4) {
            e = cz_fail(CZ_ERR_PARSE, msg, msglen, "%s: matrix %c: coefficient index width %u is not 1, 2 or 4", path,
                        "ABC"[k], w);
            goto out;
        }
        /* every count is bounded by the payload bytes that must hold its
         * array before any offset is computed from it */
        uint64_t at = off;
        if ((e = fit(&at, out->n_constraints, 1, 8, payload_len, "n_constraints", k, path, msg, msglen)) ||
            (e = fit(&at, nnz, 0, 4, payload_len, "nnz", k, path, msg, msglen)) ||
            (e = fit(&at, nnz, 0, w, payload_len, "nnz", k, path, msg, msglen)) ||
            (e = fit(&at, nc, 0, 32, payload_len, "n_coefs", k, path, msg, msglen)))
            goto out;
        if (!layout(&lay[k], off, out->n_constraints, nnz, nc, w)) { /* cannot happen once the counts fit */
            e = cz_fail(CZ_ERR_PARSE, msg, msglen, "%s: bad counts for matrix %c", path, "ABC"[k]);
            goto out;
        }
        off = lay[k].end;
        out->m[k].n_rows = out->n_constraints;
        out->m[k].nnz = nnz;
        out->m[k].n_coefs = nc;
        out->m[k].cidx_bytes = w;
    }
    if (get64(h + 88) != off || size - CZ_PCE_HEADER != off) {
        e = cz_fail(CZ_ERR_LENGTH, msg, msglen, "%s: %llu bytes of payload, header implies %llu (truncated or padded?)",
                 path, (unsigned long long)(size - CZ_PCE_HEADER), (unsigned long long)off);
        goto out;
    }
    const uint8_t *payload = map + CZ_PCE_HEADER;
    cz_hash64_state hs;
    if (verify_checksum) {
        cz_hash64_init(&hs, 0);
        cz_hash64_update(&hs, payload, off);
        cz_hash64_update(&hs, h, 96);
        if (version == 2) cz_hash64_update(&hs, h + 104, 4);
    }
    if (verify_checksum && cz_hash64_final(&hs) != get64(h + 96)) {
        e = cz_fail(CZ_ERR_PARSE, msg, msglen, "%s: checksum mismatch (file corrupt)", path);
        goto out;
    }
    for (int k = 0; k < 3; k++) {
        cz_csr *m = &out->m[k];
        m->row_ptr = (uint64_t *)(payload + lay[k].row_ptr);
        m->col = (uint32_t *)(payload + lay[k].col);
        m->cidx = (void *)(payload + lay[k].cidx);
        m->coefs = (cz_fr *)(payload + lay[k].coefs);
        if ((e = check_matrix(out, k, msg, msglen))) goto out;
    }
    out->map = map;
    out->map_len = size;
    return CZ_OK;
out:
    cz_mapguard_unmap(map, size);
    memset(out, 0, sizeof *out);
    return e;
}

void cz_pce_close(cz_r1cs *r)
{
    if (r->map) cz_mapguard_unmap(r->map, r->map_len);
    memset(r, 0, sizeof *r);
}
