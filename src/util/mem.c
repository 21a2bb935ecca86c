/* mem.c — see mem.h. Every block starts with a 64-byte header recording how
 * it was obtained, so cz_big_free needs no size. Mapped blocks: map
 * len + 2 MiB, keep the 2 MiB-aligned part, advise huge pages. Freed mapped
 * blocks are kept (up to KEEP_MAX bytes in all) and handed out again,
 * cleared with memset, which on such memory costs far less than fresh pages:
 * a prover that frees one stage's scratch before the next stage allocates
 * its own then touches fresh memory only once. The page size (mem.h):
 * while huge pages are used automatically, a fresh mapping's 2 MiB pages
 * are faulted in one by one as it is made, each timed; the first slow one
 * switches the rest of that mapping and all later mappings to small pages
 * (one atomic store; mappings made meanwhile by other threads keep huge
 * pages). A mapping is then faulted in by the allocating thread rather
 * than by whoever touches it first; where huge pages are cheap that costs
 * little, and once they are not, nothing is touched ahead. Only the first
 * CZ_BIG_PROBE_MAX bytes of a process are faulted in ahead: when all of
 * them came fast the choice is huge pages, and later mappings (the GBs of
 * a large partition, buffers sized for more than they hold) are faulted in
 * lazily where they are used, by the threads that use them. */
#include "util/mem.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "util/clock.h"

#define HDR 64
#define HUGE_SZ ((size_t)2 << 20)
#define MAGIC_HEAP 0x637a6865u /* "czhe" */
#define MAGIC_MAP 0x637a6d61u  /* "czma" */
#define KEEP_MAX ((size_t)512 << 20)
#define KEEP_SLOTS 64

typedef struct {
    uint32_t magic;
    void *base;
    size_t len; /* mapped length, a multiple of HUGE_SZ */
} hdr;

_Static_assert(sizeof(hdr) <= HDR, "header fits");

static atomic_int page_mode; /* CZ_BIG_PAGES_* */
static double slow_huge_ms = CZ_BIG_SLOW_HUGE_MS;
static atomic_size_t probed; /* bytes faulted in ahead while AUTO */

int cz_big_pages(void) { return atomic_load(&page_mode); }

void cz__big_pages_set(int mode, double slow_ms)
{
    atomic_store(&page_mode, mode);
    slow_huge_ms = slow_ms;
    atomic_store(&probed, 0);
}

static void advise(void *p, size_t len, int small)
{
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
    if (len) (void)madvise(p, len, small ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
#else
    (void)p;
    (void)len;
    (void)small;
#endif
}

static pthread_mutex_t keep_mu = PTHREAD_MUTEX_INITIALIZER;
static hdr *keep[KEEP_SLOTS];
static size_t keep_n, keep_bytes;

/* the smallest kept block of at least len bytes, removed from the list */
static hdr *take_kept(size_t len)
{
    hdr *h = NULL;
    pthread_mutex_lock(&keep_mu);
    size_t best = keep_n;
    for (size_t i = 0; i < keep_n; i++)
        if (keep[i]->len >= len && (best == keep_n || keep[i]->len < keep[best]->len)) best = i;
    if (best < keep_n) {
        h = keep[best];
        keep[best] = keep[--keep_n];
        keep_bytes -= h->len;
    }
    pthread_mutex_unlock(&keep_mu);
    return h;
}

void *cz_big_alloc(size_t n)
{
    if (n > SIZE_MAX - 2 * HUGE_SZ - HDR) return NULL;
    if (n < CZ_BIG_MIN) {
        /* HDR-aligned, so that the block is too (callers keep 64-byte
         * aligned vector data in it: poly/ntt_x8.c's tables) */
        uint8_t *p = aligned_alloc(HDR, (n + 2 * HDR - 1) & ~(size_t)(HDR - 1));
        if (!p) return NULL;
        memset(p, 0, n + HDR);
        hdr *h = (hdr *)p;
        h->magic = MAGIC_HEAP;
        h->base = p;
        return p + HDR;
    }
    size_t len = (n + HDR + HUGE_SZ - 1) & ~(HUGE_SZ - 1);
    hdr *h = take_kept(len);
    if (h) {
        h->magic = MAGIC_MAP;
        memset((uint8_t *)h + HDR, 0, n);
        return (uint8_t *)h + HDR;
    }
    size_t big = len + HUGE_SZ;
    uint8_t *raw = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    uint8_t *p = (uint8_t *)(((uintptr_t)raw + HUGE_SZ - 1) & ~(uintptr_t)(HUGE_SZ - 1));
    if (p > raw) munmap(raw, (size_t)(p - raw));
    if (raw + big > p + len) munmap(p + len, (size_t)(raw + big - (p + len)));
    int mode = atomic_load(&page_mode);
    advise(p, len, mode == CZ_BIG_PAGES_SMALL);
    if (mode == CZ_BIG_PAGES_AUTO) /* fault the pages in one by one, timed */
        for (size_t at = 0; at < len; at += HUGE_SZ) {
            if (atomic_fetch_add(&probed, HUGE_SZ) >= CZ_BIG_PROBE_MAX) {
                /* fast all along: huge pages it is, faulted in where used */
                int expect = CZ_BIG_PAGES_AUTO;
                atomic_compare_exchange_strong(&page_mode, &expect, CZ_BIG_PAGES_HUGE);
                break;
            }
            double t0 = cz_now_ms();
            *(volatile uint8_t *)(p + at) = 0;
            if (cz_now_ms() - t0 > slow_huge_ms) {
                advise(p + at + HUGE_SZ, len - at - HUGE_SZ, 1);
                atomic_store(&page_mode, CZ_BIG_PAGES_SMALL);
                break;
            }
        }
    h = (hdr *)p;
    h->magic = MAGIC_MAP;
    h->base = p;
    h->len = len;
    return p + HDR;
}

void *cz_big_array(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    return cz_big_alloc(n * size);
}

void cz_big_free(void *q)
{
    if (!q) return;
    hdr *h = (hdr *)((uint8_t *)q - HDR);
    if (h->magic == MAGIC_MAP) {
        h->magic = 0;
        pthread_mutex_lock(&keep_mu);
        int kept = keep_n < KEEP_SLOTS && keep_bytes + h->len <= KEEP_MAX;
        if (kept) {
            keep[keep_n++] = h;
            keep_bytes += h->len;
        }
        pthread_mutex_unlock(&keep_mu);
        if (!kept) munmap(h->base, h->len);
    } else {
        h->magic = 0;
        free(h->base);
    }
}
