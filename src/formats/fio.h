/* fio.h — file helpers shared by the format readers and writers (internal to
 * src/formats): message formatting, read-only whole-file mappings, and a
 * buffered writer that writes PATH.tmp and renames it into place on commit
 * (or fills a caller buffer, for in-memory encodings). */
#ifndef CZ_FORMATS_FIO_H
#define CZ_FORMATS_FIO_H

#include <stddef.h>
#include <stdint.h>
#include "util/err.h"
#include "util/hash.h"

/* a read-only private mapping of a whole file; an empty file gives len 0 */
typedef struct {
    const uint8_t *p;
    size_t len;
    void *map;
} cz__mapped;

cz_err cz__map_file(cz__mapped *m, const char *path, char *msg, size_t msglen);
/* the same with every page mapped at once (MAP_POPULATE), for a file that
 * is read whole anyway */
cz_err cz__map_file_populate(cz__mapped *m, const char *path, char *msg, size_t msglen);
void cz__unmap_file(cz__mapped *m);
/* CZ_OK, or CZ_ERR_IO (msg set) when the file shrank or faulted while it
 * was mapped (util/mapguard.h): what was read from it is not to be trusted.
 * Readers ask before they unmap and hand a result out. */
cz_err cz__mapped_check(const cz__mapped *m, char *msg, size_t msglen);

/* asks the kernel to fault in the whole pages inside [p, p + n) in one call
 * (memory about to be written); a hint, nothing happens where unsupported */
void cz__prefault(void *p, size_t n);

/* Buffered output. A file writer (fd >= 0) goes to PATH.tmp; a memory writer
 * (mem != NULL) fills [mem, mem + mem_cap) and fails if it would overflow.
 * Errors are sticky: put() after a failure does nothing, commit reports it.
 * When hash is set, every byte put is also fed to it. */
typedef struct {
    int fd;
    char *tmp;
    const char *path;
    uint8_t *buf;
    size_t n, cap;
    uint8_t *mem;
    size_t mem_cap;
    uint64_t pos;      /* bytes put so far */
    int err;           /* errno of the first failure, or -1 for overflow */
    cz_hash64_state *hash;
} cz__writer;

cz_err cz__writer_open(cz__writer *w, const char *path, char *msg, size_t msglen);
void cz__writer_mem(cz__writer *w, uint8_t *mem, size_t cap);
void cz__writer_put(cz__writer *w, const void *p, size_t n);
void cz__writer_zeros(cz__writer *w, size_t n);
/* flushes the buffer and, for files, writes len bytes at offset (e.g. a
 * header whose checksum is known only at the end) */
void cz__writer_pwrite(cz__writer *w, const void *p, size_t len, uint64_t offset);
/* flush, fsync, close and rename (files); reports any earlier failure */
cz_err cz__writer_commit(cz__writer *w, char *msg, size_t msglen);
/* drop PATH.tmp and the buffer; safe after commit */
void cz__writer_abort(cz__writer *w);

/* big-endian u32 */
static inline uint32_t cz__get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline void cz__put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
/* little-endian u32 / u64 */
static inline uint32_t cz__get_le32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i);
    return v;
}
static inline uint64_t cz__get_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}
static inline void cz__put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void cz__put_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

#endif
