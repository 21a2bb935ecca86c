/* reaper.h — frees big buffers (witnesses, synthesis scratch) on one
 * background thread, so that the proving and synthesis threads do not stall
 * in munmap/free of GiB-sized arrays (engine-internal).
 *
 * DESIGN
 * Thread: one reaper thread per engine. Queue: one FIFO of (pointer, free
 * function, credit) under the reaper's own mutex. The thread pops an item,
 * drops the mutex, frees it, then calls done(ctx, credit) with no reaper
 * lock held (the engine gives the credit back to its memory budget there,
 * under its own lock). Lock order: a caller may hold its own lock (the
 * engine's) while it puts an item, so the reaper's mutex comes after it and
 * is never held while a buffer is freed or done runs. */
#ifndef CZ_ENGINE_REAPER_H
#define CZ_ENGINE_REAPER_H

#include <stdint.h>

#include "util/err.h"

typedef struct cz_reaper cz_reaper;
typedef void (*cz_reap_fn)(void *p);
typedef void (*cz_reap_done)(void *ctx, uint64_t credit);

cz_err cz__reaper_start(cz_reaper **out, cz_reap_done done, void *ctx, char *msg, size_t msglen);
/* Queues p (NULL is fine: only the credit travels) to be freed by fn
 * (NULL = free). Returns 1 when it was queued (done will be called with
 * credit), 0 when it was freed on the spot instead (no memory for the queue
 * entry, or the reaper is stopped): the caller then gives the credit back
 * itself. */
int cz__reaper_put(cz_reaper *r, void *p, cz_reap_fn fn, uint64_t credit);
/* frees whatever is queued (calling done for each), then joins the thread */
void cz__reaper_stop(cz_reaper *r);
/* buffers freed so far and bytes credited; items still queued */
void cz__reaper_stats(cz_reaper *r, uint64_t *frees, uint64_t *credited, uint64_t *queued);

#endif
