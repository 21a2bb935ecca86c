/* mapguard.h — a file truncated while it is mapped gives an error, not SIGBUS.
 *
 * Keys and constraint systems are used in place from read-only file mappings
 * (zkey, .pkc parameter cache, .pce) for as long as a process holds them,
 * which for the daemon is days. If the file is truncated meanwhile (an
 * operator replaces it in place, a disk fills up during a copy), a read of a
 * page past its new end raises SIGBUS and would kill the process.
 *
 * Every such mapping is registered here. A SIGBUS handler, installed with
 * the first registration, looks the faulting address up: inside a registered
 * mapping, it maps anonymous zero pages over the rest of that mapping, marks
 * it faulted and returns, so the reading thread (any thread: a worker of the
 * pool in the middle of an MSM, say) goes on reading zeros. Outside every
 * registered mapping the signal goes to the handler that was there before
 * (or kills the process, as it would have). Whoever used the mapping then
 * asks cz_mapguard_check, which reports the fault, or a change of the file's
 * size since it was mapped, as CZ_ERR_IO with the path; the provers do so
 * before they return a proof, so a proof computed from zeros is never
 * returned. A file replaced by rename is not an error: the mapping keeps the
 * old file's pages, which stay valid.
 *
 * The registry is a fixed table (CZ_MAPGUARD_SLOTS); a mapping that finds it
 * full is not guarded (and its owner gets no error from check). Lookups from
 * the signal handler read atomics only; registration takes a mutex. */
#ifndef CZ_UTIL_MAPGUARD_H
#define CZ_UTIL_MAPGUARD_H

#include <stddef.h>
#include "util/err.h"

#define CZ_MAPGUARD_SLOTS 256

/* registers [addr, addr + len), mapped from the open file fd (its identity
 * and size are recorded) that was opened as path; returns 0, or -1 when the
 * table is full (the mapping then stays unguarded) */
int cz_mapguard_add(const void *addr, size_t len, int fd, const char *path);

/* forgets the mapping that starts at addr (nothing if none does) */
void cz_mapguard_remove(const void *addr);

/* cz_mapguard_remove, then munmap */
void cz_mapguard_unmap(void *addr, size_t len);

/* CZ_OK when p lies in no registered mapping, or in one that has not
 * faulted and whose file still has the size it had when mapped; otherwise
 * CZ_ERR_IO with a message naming the file. */
cz_err cz_mapguard_check(const void *p, char *msg, size_t msglen);

/* how many faults the handler has absorbed since the process started */
unsigned long cz_mapguard_faults(void);

#endif
