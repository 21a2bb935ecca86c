/* fio.c — file helpers for src/formats (see fio.h). */
#include "formats/fio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/mapguard.h"

#define WBUF (1u << 20)

/* opens a regular file for reading; the caller closes *fd_out */
static cz_err open_file(int *fd_out, size_t *len, const char *path, char *msg, size_t msglen)
{
    *fd_out = -1;
    *len = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return cz_fail(CZ_ERR_IO, msg, msglen, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int en = errno;
        close(fd);
        return cz_fail(CZ_ERR_IO, msg, msglen, "cannot stat %s: %s", path, strerror(en));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return cz_fail(CZ_ERR_IO, msg, msglen, "%s: not a regular file", path);
    }
    if ((uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        return cz_fail(CZ_ERR_IO, msg, msglen, "%s: too large to map", path);
    }
    *fd_out = fd;
    *len = (size_t)st.st_size;
    return CZ_OK;
}

static cz_err map_file(cz__mapped *m, const char *path, int flags, char *msg, size_t msglen)
{
    static const uint8_t empty[1];
    memset(m, 0, sizeof *m);
    int fd;
    size_t len;
    cz_err e = open_file(&fd, &len, path, msg, msglen);
    if (e) return e;
    if (len == 0) {
        close(fd);
        m->p = empty;
        return CZ_OK;
    }
    void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | flags, fd, 0);
    int en = errno;
    if (p != MAP_FAILED) (void)cz_mapguard_add(p, len, fd, path);
    close(fd);
    if (p == MAP_FAILED) return cz_fail(CZ_ERR_IO, msg, msglen, "cannot map %s: %s", path, strerror(en));
    m->map = p;
    m->p = p;
    m->len = len;
    return CZ_OK;
}

cz_err cz__map_file(cz__mapped *m, const char *path, char *msg, size_t msglen)
{
    return map_file(m, path, 0, msg, msglen);
}

cz_err cz__map_file_populate(cz__mapped *m, const char *path, char *msg, size_t msglen)
{
    return map_file(m, path, MAP_POPULATE, msg, msglen);
}

void cz__unmap_file(cz__mapped *m)
{
    if (m->map) cz_mapguard_unmap(m->map, m->len);
    memset(m, 0, sizeof *m);
}

cz_err cz__mapped_check(const cz__mapped *m, char *msg, size_t msglen)
{
    return m->map ? cz_mapguard_check(m->map, msg, msglen) : CZ_OK;
}

void cz__prefault(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
    uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), lo = ((uintptr_t)p + pg - 1) & ~(pg - 1),
              hi = ((uintptr_t)p + n) & ~(pg - 1);
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)n;
#endif
}

cz_err cz__writer_open(cz__writer *w, const char *path, char *msg, size_t msglen)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    w->path = path;
    size_t plen = strlen(path) + 5;
    w->tmp = malloc(plen);
    w->buf = malloc(WBUF);
    if (!w->tmp || !w->buf) {
        cz__writer_abort(w);
        return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    }
    snprintf(w->tmp, plen, "%s.tmp", path);
    w->cap = WBUF;
    w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (w->fd < 0) {
        cz_err e = cz_fail(CZ_ERR_IO, msg, msglen, "cannot create %s: %s", w->tmp, strerror(errno));
        cz__writer_abort(w);
        return e;
    }
    return CZ_OK;
}

void cz__writer_mem(cz__writer *w, uint8_t *mem, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    w->mem = mem;
    w->mem_cap = cap;
}

static void flush(cz__writer *w)
{
    const uint8_t *b = w->buf;
    size_t n = w->n;
    while (n && !w->err) {
        ssize_t k = write(w->fd, b, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            w->err = errno;
            break;
        }
        b += k;
        n -= (size_t)k;
    }
    w->n = 0;
}

void cz__writer_put(cz__writer *w, const void *p, size_t n)
{
    if (w->err) return;
    if (w->hash) cz_hash64_update(w->hash, p, n);
    if (w->mem) {
        if (n > w->mem_cap - w->pos) { w->err = -1; return; }
        memcpy(w->mem + w->pos, p, n);
        w->pos += n;
        return;
    }
    const uint8_t *b = p;
    w->pos += n;
    while (n) {
        size_t k = w->cap - w->n < n ? w->cap - w->n : n;
        memcpy(w->buf + w->n, b, k);
        w->n += k;
        b += k;
        n -= k;
        if (w->n == w->cap) flush(w);
    }
}

void cz__writer_zeros(cz__writer *w, size_t n)
{
    static const uint8_t z[64];
    while (n) {
        size_t k = n < sizeof z ? n : sizeof z;
        cz__writer_put(w, z, k);
        n -= k;
    }
}

void cz__writer_pwrite(cz__writer *w, const void *p, size_t len, uint64_t offset)
{
    if (w->err) return;
    if (w->mem) {
        if (offset > w->mem_cap || len > w->mem_cap - offset) { w->err = -1; return; }
        memcpy(w->mem + offset, p, len);
        return;
    }
    flush(w);
    if (!w->err && pwrite(w->fd, p, len, (off_t)offset) != (ssize_t)len) w->err = errno ? errno : EIO;
}

cz_err cz__writer_commit(cz__writer *w, char *msg, size_t msglen)
{
    if (w->mem) {
        if (w->err) return cz_fail(CZ_ERR_LENGTH, msg, msglen, "output buffer too small");
        return CZ_OK;
    }
    flush(w);
    if (!w->err && fsync(w->fd) != 0) w->err = errno;
    if (close(w->fd) != 0 && !w->err) w->err = errno;
    w->fd = -1;
    if (!w->err && rename(w->tmp, w->path) != 0) w->err = errno;
    if (w->err) {
        cz_err e = cz_fail(CZ_ERR_IO, msg, msglen, "cannot write %s: %s", w->path, strerror(w->err));
        cz__writer_abort(w);
        return e;
    }
    free(w->tmp);
    free(w->buf);
    w->tmp = NULL;
    w->buf = NULL;
    return CZ_OK;
}

void cz__writer_abort(cz__writer *w)
{
    if (w->fd >= 0) close(w->fd);
    if (w->tmp) unlink(w->tmp);
    free(w->tmp);
    free(w->buf);
    w->fd = -1;
    w->tmp = NULL;
    w->buf = NULL;
}
