/* journal.c — reading and writing the job journal (layout in journal.h).
 * Records are built in memory and written in one go; reading checks the
 * magic, every length against the bytes left, and the checksum. */
#include "engine/journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/hash.h"

static const uint8_t JOB_MAGIC[8] = {'C', 'Z', 'J', 'O', 'B', 0, 0, 1};
static const uint8_t DONE_MAGIC[8] = {'C', 'Z', 'D', 'O', 'N', 'E', 0, 1};

uint64_t cz__unix_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

typedef struct {
    uint8_t *b;
    size_t len, cap;
    int oom;
} wbuf;

static void put(wbuf *w, const void *p, size_t n)
{
    if (w->oom || !n) return;
    if (w->len + n > w->cap) {
        size_t cap = (w->cap + n) * 2;
        uint8_t *b = realloc(w->b, cap);
        if (!b) { w->oom = 1; return; }
        w->b = b;
        w->cap = cap;
    }
    memcpy(w->b + w->len, p, n);
    w->len += n;
}
static void put32(wbuf *w, uint32_t v) { uint8_t b[4]; for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> 8 * i); put(w, b, 4); }
static void put64(wbuf *w, uint64_t v) { uint8_t b[8]; for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> 8 * i); put(w, b, 8); }
static void putstr(wbuf *w, const char *s) { size_t n = strlen(s); put32(w, (uint32_t)n); put(w, s, n); }

typedef struct {
    const uint8_t *p;
    size_t left;
    int bad;
} rbuf;

static const uint8_t *take(rbuf *r, size_t n)
{
    if (r->bad || n > r->left) { r->bad = 1; return NULL; }
    const uint8_t *p = r->p;
    r->p += n;
    r->left -= n;
    return p;
}
static uint64_t get(rbuf *r, int bytes)
{
    const uint8_t *p = take(r, (size_t)bytes);
    uint64_t v = 0;
    for (int i = bytes - 1; p && i >= 0; i--) v = v << 8 | p[i];
    return v;
}
static void getstr(rbuf *r, char *out, size_t cap)
{
    uint64_t n = get(r, 4);
    const uint8_t *p = n < cap ? take(r, (size_t)n) : NULL;
    if (!p) { r->bad = 1; out[0] = 0; return; }
    memcpy(out, p, (size_t)n);
    out[n] = 0;
}

static int write_file(const char *path, const wbuf *w, int sync)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return -1;
    size_t off = 0;
    while (off < w->len) {
        ssize_t k = write(fd, w->b + off, w->len - off);
        if (k <= 0) { close(fd); unlink(tmp); return -1; }
        off += (size_t)k;
    }
    if ((sync && fsync(fd)) || close(fd)) { unlink(tmp); return -1; }
    return rename(tmp, path);
}

static void seal(wbuf *w) { put64(w, cz_hash64(w->b, w->len, 0)); }

cz_err cz__journal_open(const char *dir, char *msg, size_t msglen)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/jobs", dir);
    if (mkdir(dir, 0700) && errno != EEXIST) return cz_fail(CZ_ERR_IO, msg, msglen, "state_dir %s: %s", dir, strerror(errno));
    if (mkdir(p, 0700) && errno != EEXIST) return cz_fail(CZ_ERR_IO, msg, msglen, "state_dir %s: %s", p, strerror(errno));
    if (access(p, W_OK)) return cz_fail(CZ_ERR_IO, msg, msglen, "state_dir %s is not writable", p);
    return CZ_OK;
}

cz_err cz__journal_write_job(const char *dir, const cz_jrec_job *r, char *msg, size_t msglen)
{
    wbuf w = {0};
    put(&w, JOB_MAGIC, 8);
    put32(&w, (uint32_t)r->kind);
    put32(&w, (uint32_t)r->prio);
    put64(&w, r->submit_unix_ms);
    putstr(&w, r->job_id);
    putstr(&w, r->rid);
    putstr(&w, r->circuit_id);
    put32(&w, r->n);
    for (uint32_t i = 0; i < r->n; i++) {
        put64(&w, r->lens[i]);
        put(&w, r->payloads[i], r->lens[i]);
    }
    seal(&w);
    char path[4200];
    snprintf(path, sizeof path, "%s/jobs/%s.job", dir, r->job_id);
    int bad = w.oom || write_file(path, &w, 1);
    free(w.b);
    return bad ? cz_fail(CZ_ERR_IO, msg, msglen, "cannot journal the job in %s: %s", path,
                         w.oom ? "out of memory" : strerror(errno))
               : CZ_OK;
}

cz_err cz__journal_write_done(const char *dir, const char *job_id, const cz_jrec_done *d)
{
    wbuf w = {0};
    put(&w, DONE_MAGIC, 8);
    put32(&w, (uint32_t)d->state);
    put64(&w, d->end_unix_ms);
    put64(&w, d->queue_wait_ms);
    put64(&w, d->srs_load_ms);
    put64(&w, d->synth_ms);
    put64(&w, d->prove_ms);
    put64(&w, d->total_ms);
    putstr(&w, d->error);
    put64(&w, d->proof_len);
    put(&w, d->proof, d->proof_len);
    seal(&w);
    char path[4200];
    snprintf(path, sizeof path, "%s/jobs/%s.done", dir, job_id);
    int bad = w.oom || write_file(path, &w, 0);
    free(w.b);
    return bad ? CZ_ERR_IO : CZ_OK;
}

void cz__journal_remove(const char *dir, const char *job_id)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/jobs/%s.done", dir, job_id);
    unlink(path);
    snprintf(path, sizeof path, "%s/jobs/%s.job", dir, job_id);
    unlink(path);
}

void cz__jrec_job_free(cz_jrec_job *j)
{
    for (uint32_t i = 0; i < j->n && j->payloads; i++) free(j->payloads[i]);
    free(j->payloads);
    free(j->lens);
    j->payloads = NULL;
    j->lens = NULL;
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    struct stat st;
    uint8_t *b = NULL;
    if (!fstat(fileno(f), &st) && st.st_size >= 16 && (b = malloc((size_t)st.st_size)) &&
        fread(b, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *n = b ? (size_t)st.st_size : 0;
    return b;
}

static int sealed(const uint8_t *b, size_t n, const uint8_t magic[8])
{
    if (n < 16 || memcmp(b, magic, 8)) return 0;
    uint64_t h = 0;
    for (int i = 7; i >= 0; i--) h = h << 8 | b[n - 8 + (size_t)i];
    return h == cz_hash64(b, n - 8, 0);
}

static const char *read_job(const uint8_t *b, size_t n, cz_jrec_job *j)
{
    memset(j, 0, sizeof *j);
    if (!sealed(b, n, JOB_MAGIC)) return "bad magic or checksum";
    rbuf r = {b + 8, n - 16, 0};
    j->kind = (int)get(&r, 4);
    j->prio = (int)get(&r, 4);
    j->submit_unix_ms = get(&r, 8);
    getstr(&r, j->job_id, sizeof j->job_id);
    getstr(&r, j->rid, sizeof j->rid);
    getstr(&r, j->circuit_id, sizeof j->circuit_id);
    uint64_t np = get(&r, 4);
    if (r.bad || !np || np > r.left / 8) return "bad counts";
    j->n = (uint32_t)np;
    j->payloads = calloc(np, sizeof *j->payloads);
    j->lens = calloc(np, sizeof *j->lens);
    if (!j->payloads || !j->lens) { cz__jrec_job_free(j); return "out of memory"; }
    for (uint32_t i = 0; i < j->n; i++) {
        uint64_t len = get(&r, 8);
        const uint8_t *p = take(&r, (size_t)len);
        if (!p || !(j->payloads[i] = malloc(len ? (size_t)len : 1))) { cz__jrec_job_free(j); return "bad payload"; }
        memcpy(j->payloads[i], p, (size_t)len);
        j->lens[i] = (size_t)len;
    }
    if (r.left) { cz__jrec_job_free(j); return "trailing bytes"; }
    return NULL;
}

static const char *read_done(const uint8_t *b, size_t n, cz_jrec_done *d)
{
    memset(d, 0, sizeof *d);
    if (!sealed(b, n, DONE_MAGIC)) return "bad magic or checksum";
    rbuf r = {b + 8, n - 16, 0};
    d->state = (int)get(&r, 4);
    d->end_unix_ms = get(&r, 8);
    d->queue_wait_ms = get(&r, 8);
    d->srs_load_ms = get(&r, 8);
    d->synth_ms = get(&r, 8);
    d->prove_ms = get(&r, 8);
    d->total_ms = get(&r, 8);
    getstr(&r, d->error, sizeof d->error);
    uint64_t pl = get(&r, 8);
    const uint8_t *p = take(&r, (size_t)pl);
    if (r.bad || r.left) return "bad lengths";
    if (pl) {
        if (!(d->proof = malloc((size_t)pl))) return "out of memory";
        memcpy(d->proof, p, (size_t)pl);
        d->proof_len = (size_t)pl;
    }
    return NULL;
}

void cz__journal_scan(const char *dir, void (*fn)(void *ctx, cz_jrec_job *j, cz_jrec_done *d),
                      void (*bad)(void *ctx, const char *name, const char *why), void *ctx)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/jobs", dir);
    DIR *dp = opendir(p);
    if (!dp) return;
    struct dirent *de;
    while ((de = readdir(dp))) {
        size_t nl = strlen(de->d_name);
        if (nl < 5 || strcmp(de->d_name + nl - 4, ".job")) continue;
        char path[4600];
        snprintf(path, sizeof path, "%s/%s", p, de->d_name);
        size_t n;
        uint8_t *b = slurp(path, &n);
        cz_jrec_job j;
        const char *why = b ? read_job(b, n, &j) : "unreadable";
        free(b);
        if (why) { bad(ctx, de->d_name, why); continue; }
        snprintf(path, sizeof path, "%s/%.*s.done", p, (int)(nl - 4), de->d_name);
        cz_jrec_done d, *dd = NULL;
        if ((b = slurp(path, &n))) {
            why = read_done(b, n, &d);
            free(b);
            if (why) bad(ctx, path, why); /* the job runs again */
            else dd = &d;
        }
        fn(ctx, &j, dd);
        if (dd) free(dd->proof);
        cz__jrec_job_free(&j);
    }
    closedir(dp);
}
