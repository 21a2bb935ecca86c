/* pool.h — a fixed set of worker threads that run data-parallel loops.
 *
 * cz_pool_run(pool, n, fn, ctx) calls fn(ctx, i) for every i in [0, n) on the
 * pool's workers and the calling thread, and returns when all are done. Work is
 * handed out in chunks from one atomic counter, so uneven items balance. A NULL
 * pool (or one thread) runs the loop on the caller. One loop runs at a time per
 * pool; callers on different threads must use different pools.
 *
 * Lock order: the pool mutex is the only lock; fn runs without it. */
#ifndef CZ_UTIL_POOL_H
#define CZ_UTIL_POOL_H

#include <stddef.h>
#include "util/err.h"

typedef struct cz_pool cz_pool;
typedef void (*cz_pool_fn)(void *ctx, size_t i);

/* nthreads = 0 means one per online CPU; the caller counts as one of them */
cz_err cz_pool_create(cz_pool **out, unsigned nthreads);
void cz_pool_destroy(cz_pool *pool);
unsigned cz_pool_threads(const cz_pool *pool);
void cz_pool_run(cz_pool *pool, size_t n, cz_pool_fn fn, void *ctx);

#endif
