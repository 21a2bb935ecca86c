/* procmem.h — this process's memory as the kernel counts it, for the
 * daemon's status page and metrics (and for anyone measuring a run). */
#ifndef CZ_UTIL_PROCMEM_H
#define CZ_UTIL_PROCMEM_H

#include <stdint.h>

/* resident set now (VmRSS) and its peak (VmHWM), bytes, from
 * /proc/self/status; where that cannot be read, *rss = 0 and *peak comes
 * from getrusage. Either pointer may be NULL. */
void cz_proc_memory(uint64_t *rss, uint64_t *peak);

/* MemTotal of the machine in bytes (/proc/meminfo), 0 when unknown */
uint64_t cz_proc_mem_total(void);

#endif
