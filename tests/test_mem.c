/* test_mem.c — cz_big_alloc / cz_big_array / cz_big_free: both kinds of
 * block (heap below CZ_BIG_MIN, own mapping above) come back zeroed,
 * 64-byte aligned and writable over their whole length, overflowing sizes
 * give NULL, many blocks live side by side without overlapping (each is
 * filled with its own byte and checked after all are filled), and blocks
 * handed out again after a free are zeroed again. The page-size choice:
 * with a threshold no fault can pass, AUTO stays AUTO and mappings are
 * advised huge pages until CZ_BIG_PROBE_MAX bytes were faulted in, then it
 * settles on HUGE; with a threshold every fault passes, the first fresh
 * mapping switches AUTO to SMALL, its rest and later mappings are advised
 * small pages (read back from /proc/self/smaps where there is one), and
 * SMALL and HUGE set by hand stay as set. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "testutil.h"
#include "util/mem.h"

/* the VmFlags line of the mapping holding p in /proc/self/smaps: 'h'
 * (hg: MADV_HUGEPAGE), 'n' (nh: MADV_NOHUGEPAGE), '-' (neither), 0 when
 * unreadable */
static char advice(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f) return 0;
    char line[512], r = 0;
    int in = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) { /* a mapping's first line */
            in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
            continue;
        }
        if (in && !strncmp(line, "VmFlags:", 8)) {
            r = strstr(line, " hg") ? 'h' : strstr(line, " nh") ? 'n' : '-';
            break;
        }
    }
    fclose(f);
    return r;
}

/* a fresh mapping (larger than any kept block: no reuse) of n MiB, written
 * over and freed; returns the advice of its last byte */
static char fresh(size_t mib)
{
    size_t n = mib << 20;
    uint8_t *q = cz_big_alloc(n);
    CHECK(q != NULL);
    if (!q) return 0;
    memset(q, 1, n);
    char a = advice(q + n - 1);
    cz_big_free(q);
    return a;
}

static void page_choice(void)
{
    CHECK(cz_big_pages() == CZ_BIG_PAGES_AUTO);
    cz__big_pages_set(CZ_BIG_PAGES_AUTO, 1e9);
    char a = fresh(40);
    CHECK(cz_big_pages() == CZ_BIG_PAGES_AUTO);
    CHECK_MSG(a == 0 || a == 'h', "AUTO, not switched: advice '%c'", a);
    cz__big_pages_set(CZ_BIG_PAGES_AUTO, 0);
    a = fresh(44);
    CHECK(cz_big_pages() == CZ_BIG_PAGES_SMALL);
    CHECK_MSG(a == 0 || a == 'n', "switched mapping: advice '%c'", a);
    a = fresh(48);
    CHECK(cz_big_pages() == CZ_BIG_PAGES_SMALL);
    CHECK_MSG(a == 0 || a == 'n', "after the switch: advice '%c'", a);
    cz__big_pages_set(CZ_BIG_PAGES_HUGE, 0);
    a = fresh(52);
    CHECK(cz_big_pages() == CZ_BIG_PAGES_HUGE);
    CHECK_MSG(a == 0 || a == 'h', "HUGE: advice '%c'", a);
    /* fast all along: once CZ_BIG_PROBE_MAX bytes came fast, huge pages
     * (sizes past every kept block, so each mapping is fresh) */
    cz__big_pages_set(CZ_BIG_PAGES_AUTO, 1e9);
    for (size_t mib = 56; mib < 400 && cz_big_pages() == CZ_BIG_PAGES_AUTO; mib += 4) a = fresh(mib);
    CHECK_MSG(cz_big_pages() == CZ_BIG_PAGES_HUGE, "AUTO after %zu MiB probed: mode %d",
              CZ_BIG_PROBE_MAX >> 20, cz_big_pages());
    CHECK_MSG(a == 0 || a == 'h', "settled on huge pages: advice '%c'", a);
    cz__big_pages_set(CZ_BIG_PAGES_AUTO, CZ_BIG_SLOW_HUGE_MS);
}

int main(void)
{
    page_choice();
    static const size_t sizes[] = {0, 1, 63, 4096, CZ_BIG_MIN - 1, CZ_BIG_MIN, CZ_BIG_MIN + 1,
                                   (size_t)2 << 20, ((size_t)2 << 20) - 64, ((size_t)5 << 20) + 3};
    enum { NS = sizeof sizes / sizeof *sizes };
    uint8_t *p[NS];
    for (int i = 0; i < NS; i++) {
        p[i] = cz_big_alloc(sizes[i]);
        CHECK_MSG(p[i] != NULL, "size %zu", sizes[i]);
        if (!p[i]) continue;
        CHECK(((uintptr_t)p[i] & 63) == 0);
        int zero = 1;
        for (size_t k = 0; k < sizes[i]; k++) zero &= p[i][k] == 0;
        CHECK_MSG(zero, "size %zu not zeroed", sizes[i]);
        memset(p[i], 0x40 + i, sizes[i]);
    }
    for (int i = 0; i < NS; i++) {
        if (!p[i]) continue;
        int ok = 1;
        for (size_t k = 0; k < sizes[i]; k++) ok &= p[i][k] == (uint8_t)(0x40 + i);
        CHECK_MSG(ok, "size %zu overwritten", sizes[i]);
        cz_big_free(p[i]);
    }
    cz_big_free(NULL);
    CHECK(cz_big_array(SIZE_MAX / 8 + 1, 8) == NULL);
    CHECK(cz_big_alloc(SIZE_MAX - 10) == NULL);
    uint64_t *a = cz_big_array(100000, sizeof *a);
    CHECK(a != NULL);
    if (a) {
        for (size_t i = 0; i < 100000; i++) a[i] = i;
        CHECK(a[99999] == 99999);
    }
    cz_big_free(a);
    /* freed mapped blocks are handed out again: still zeroed, and a smaller
     * request may get a larger kept block */
    for (int r = 0; r < 4; r++) {
        size_t n = (r % 2 ? (size_t)3 << 20 : CZ_BIG_MIN) + (size_t)r;
        uint8_t *q = cz_big_alloc(n);
        CHECK(q != NULL);
        if (!q) continue;
        int zero = 1;
        for (size_t k = 0; k < n; k++) zero &= q[k] == 0;
        CHECK_MSG(zero, "reused block of %zu bytes not zeroed", n);
        memset(q, 0xa5, n);
        cz_big_free(q);
    }
    return cz_test_finish("test_mem");
}
