/* mem.h — allocation of large working arrays.
 *
 * On virtual machines the first touch of fresh memory can cost far more
 * than the work done on it, and which page size costs less depends on the
 * host. Measured: on the 2-core Intel Xeon VM a fresh 4 KiB page cost
 * ~15 us (16 MB touched page by page: 67 ms), the same 16 MB as 2 MiB
 * transparent huge pages 1.3 ms; on the 2-core AMD EPYC VM it is the other
 * way round: a fresh huge page that the host has not backed yet costs
 * 4-7 ms (2-3.3 ms per MB), 4 KiB pages 0.5-0.9 ms per MB. A proof touches
 * tens of MB of scratch, so this is tens of ms either way.
 * cz_big_alloc serves requests of CZ_BIG_MIN bytes or more from their own
 * 2 MiB-aligned anonymous mapping; smaller ones come from the heap. The
 * memory is zeroed and 64-byte aligned either way. Mappings are marked MADV_HUGEPAGE (a hint:
 * where the kernel has transparent huge pages off it is plain memory) and
 * faulted in at once, 2 MiB at a time and timed, until one such fault takes
 * more than CZ_BIG_SLOW_HUGE_MS: huge pages are slow here, and the rest of
 * that mapping and every later one are marked MADV_NOHUGEPAGE and left to
 * be faulted in 4 KiB at a time where they are first used. After
 * CZ_BIG_PROBE_MAX bytes faulted in fast the choice is huge pages, and
 * mappings are no longer faulted in ahead. (The first few
 * huge pages a process gets are often fast even where fresh ones are slow:
 * memory another process freed a moment ago, not yet handed back to the
 * host. So every page is timed until one is slow, not only the first.)
 * cz_big_free releases either kind (NULL is fine); freed mappings are kept
 * (512 MiB at most in all) and handed out again, cleared, so a process
 * touches fresh memory for its largest working set only once. */
#ifndef CZ_UTIL_MEM_H
#define CZ_UTIL_MEM_H

#include <stddef.h>

#define CZ_BIG_MIN ((size_t)256 << 10)

void *cz_big_alloc(size_t n);
/* n elements of `size` bytes, NULL if n * size overflows */
void *cz_big_array(size_t n, size_t size);
void cz_big_free(void *p);

/* a huge-page fault slower than this costs more than the same 2 MiB as
 * 4 KiB pages where those are cheap (~1-2 ms on the AMD EPYC VM); where
 * huge pages are the better choice their faults took 0.1-0.2 ms */
#define CZ_BIG_SLOW_HUGE_MS 2.0
/* the bytes of huge pages a process faults in ahead and times while the
 * choice is open; all of them fast settles it on huge pages (faulted in
 * lazily from then on, as before the choice existed) */
#define CZ_BIG_PROBE_MAX ((size_t)256 << 20)

/* the page size of later mappings: CZ_BIG_PAGES_AUTO (huge pages until
 * one is slow, as above), CZ_BIG_PAGES_HUGE (always, not timed) or
 * CZ_BIG_PAGES_SMALL (4 KiB pages, chosen by AUTO or set); AUTO becomes
 * HUGE after CZ_BIG_PROBE_MAX fast bytes */
enum { CZ_BIG_PAGES_AUTO = 0, CZ_BIG_PAGES_HUGE = 1, CZ_BIG_PAGES_SMALL = 2 };
int cz_big_pages(void);
/* sets it, and the threshold (CZ_BIG_SLOW_HUGE_MS by default); for tests
 * and benchmarks, while no other thread allocates */
void cz__big_pages_set(int mode, double slow_ms);

#endif
