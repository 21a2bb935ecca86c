/* pool.c — worker threads sleeping on a condition variable; each cz_pool_run
 * bumps a generation number, workers wake, pull indices from an atomic
 * counter, and the last one to finish signals the caller. */
#include "util/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

struct cz_pool {
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    pthread_t *threads;
    unsigned nworkers;      /* threads besides the caller */
    unsigned long gen;      /* bumped per loop */
    int stop;
    /* current loop */
    cz_pool_fn fn;
    void *ctx;
    size_t n, chunk;
    atomic_size_t next;
    unsigned running;       /* workers still inside the current loop */
};

static void drain(cz_pool *p)
{
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, p->chunk);
        if (i >= p->n) return;
        size_t end = i + p->chunk < p->n ? i + p->chunk : p->n;
        for (; i < end; i++) p->fn(p->ctx, i);
    }
}

static void *worker(void *arg)
{
    cz_pool *p = arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->gen == seen) pthread_cond_wait(&p->wake, &p->mu);
        if (p->stop) break;
        seen = p->gen;
        pthread_mutex_unlock(&p->mu);
        drain(p);
        pthread_mutex_lock(&p->mu);
        if (--p->running == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

cz_err cz_pool_create(cz_pool **out, unsigned nthreads)
{
    *out = NULL;
    if (nthreads == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = c > 0 ? (unsigned)c : 1;
    }
    cz_pool *p = calloc(1, sizeof *p);
    if (!p) return CZ_ERR_NOMEM;
    p->nworkers = nthreads - 1;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    if (p->nworkers) {
        p->threads = calloc(p->nworkers, sizeof *p->threads);
        if (!p->threads) { cz_pool_destroy(p); return CZ_ERR_NOMEM; }
        for (unsigned i = 0; i < p->nworkers; i++) {
            if (pthread_create(&p->threads[i], NULL, worker, p)) {
                p->nworkers = i;
                cz_pool_destroy(p);
                return CZ_ERR_NOMEM;
            }
        }
    }
    *out = p;
    return CZ_OK;
}

void cz_pool_destroy(cz_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nworkers; i++) pthread_join(p->threads[i], NULL);
    free(p->threads);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    free(p);
}

unsigned cz_pool_threads(const cz_pool *p) { return p ? p->nworkers + 1 : 1; }

void cz_pool_run(cz_pool *p, size_t n, cz_pool_fn fn, void *ctx)
{
    if (n == 0) return;
    if (!p || p->nworkers == 0 || n == 1) {
        for (size_t i = 0; i < n; i++) fn(ctx, i);
        return;
    }
    size_t chunk = n / ((size_t)(p->nworkers + 1) * 8);
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    p->chunk = chunk ? chunk : 1;
    atomic_store(&p->next, 0);
    p->running = p->nworkers;
    p->gen++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    drain(p);
    pthread_mutex_lock(&p->mu);
    while (p->running) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}
