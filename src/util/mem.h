/* mem.h — allocation of large working arrays.
 *
 * On some virtual machines the first touch of a fresh 4 KiB page costs
 * ~15 µs (measured on the 2-core CI-class VM: 16 MB touched page by page
 * took 67 ms, the same 16 MB as 2 MiB transparent huge pages 1.3 ms). A
 * 2^14-constraint proof touches ~10 MB of scratch, so this is tens of ms.
 * cz_big_alloc serves requests of CZ_BIG_MIN bytes or more from their own
 * 2 MiB-aligned anonymous mapping marked MADV_HUGEPAGE (a hint: where the
 * kernel has transparent huge pages off it is plain memory); smaller ones
 * come from calloc. The memory is zeroed either way. cz_big_free releases
 * either kind (NULL is fine); freed mappings are kept (512 MiB at most in
 * all) and handed out again, cleared, so a process touches fresh memory for
 * its largest working set only once. */
#ifndef CZ_UTIL_MEM_H
#define CZ_UTIL_MEM_H

#include <stddef.h>

#define CZ_BIG_MIN ((size_t)256 << 10)

void *cz_big_alloc(size_t n);
/* n elements of `size` bytes, NULL if n * size overflows */
void *cz_big_array(size_t n, size_t size);
void cz_big_free(void *p);

#endif
