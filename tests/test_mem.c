/* test_mem.c — cz_big_alloc / cz_big_array / cz_big_free: both kinds of
 * block (heap below CZ_BIG_MIN, own mapping above) come back zeroed,
 * 16-byte aligned and writable over their whole length, overflowing sizes
 * give NULL, many blocks live side by side without overlapping (each is
 * filled with its own byte and checked after all are filled), and blocks
 * handed out again after a free are zeroed again. */
#include <stdint.h>
#include <string.h>
#include "testutil.h"
#include "util/mem.h"

int main(void)
{
    static const size_t sizes[] = {0, 1, 63, 4096, CZ_BIG_MIN - 1, CZ_BIG_MIN, CZ_BIG_MIN + 1,
                                   (size_t)2 << 20, ((size_t)2 << 20) - 64, ((size_t)5 << 20) + 3};
    enum { NS = sizeof sizes / sizeof *sizes };
    uint8_t *p[NS];
    for (int i = 0; i < NS; i++) {
        p[i] = cz_big_alloc(sizes[i]);
        CHECK_MSG(p[i] != NULL, "size %zu", sizes[i]);
        if (!p[i]) continue;
        CHECK(((uintptr_t)p[i] & 15) == 0);
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
