/* reaper.c — the background free thread (design in reaper.h). */
#include "engine/reaper.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct item {
    void *p;
    cz_reap_fn fn;
    uint64_t credit;
    struct item *next;
} item;

struct cz_reaper {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    item *head, *tail;
    int stop, started;
    pthread_t th;
    cz_reap_done done;
    void *ctx;
    uint64_t frees, credited, queued;
};

static void *reaper_main(void *arg)
{
    cz_reaper *r = arg;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        item *it = r->head;
        if (!it) {
            if (r->stop) break;
            pthread_cond_wait(&r->cv, &r->mu);
            continue;
        }
        r->head = it->next;
        if (!r->head) r->tail = NULL;
        pthread_mutex_unlock(&r->mu);
        if (it->p) (it->fn ? it->fn : free)(it->p);
        if (r->done) r->done(r->ctx, it->credit);
        pthread_mutex_lock(&r->mu);
        r->queued--;
        r->frees += it->p != NULL;
        r->credited += it->credit;
        free(it);
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

cz_err cz__reaper_start(cz_reaper **out, cz_reap_done done, void *ctx, char *msg, size_t msglen)
{
    cz_reaper *r = calloc(1, sizeof *r);
    if (!r) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cv, NULL);
    r->done = done;
    r->ctx = ctx;
    if (pthread_create(&r->th, NULL, reaper_main, r)) {
        pthread_mutex_destroy(&r->mu);
        pthread_cond_destroy(&r->cv);
        free(r);
        return cz_fail(CZ_ERR_NOMEM, msg, msglen, "cannot start the background free thread");
    }
    r->started = 1;
    *out = r;
    return CZ_OK;
}

int cz__reaper_put(cz_reaper *r, void *p, cz_reap_fn fn, uint64_t credit)
{
    item *it = r ? malloc(sizeof *it) : NULL;
    if (it) {
        pthread_mutex_lock(&r->mu);
        if (r->stop) {
            pthread_mutex_unlock(&r->mu);
            free(it);
            it = NULL;
        } else {
            *it = (item){p, fn, credit, NULL};
            if (r->tail) r->tail->next = it;
            else r->head = it;
            r->tail = it;
            r->queued++;
            pthread_cond_signal(&r->cv);
            pthread_mutex_unlock(&r->mu);
            return 1;
        }
    }
    if (p) (fn ? fn : free)(p);
    return 0;
}

void cz__reaper_stop(cz_reaper *r)
{
    if (!r) return;
    pthread_mutex_lock(&r->mu);
    r->stop = 1;
    pthread_cond_signal(&r->cv);
    pthread_mutex_unlock(&r->mu);
    if (r->started) pthread_join(r->th, NULL);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
    free(r);
}

void cz__reaper_stats(cz_reaper *r, uint64_t *frees, uint64_t *credited, uint64_t *queued)
{
    pthread_mutex_lock(&r->mu);
    if (frees) *frees = r->frees;
    if (credited) *credited = r->credited;
    if (queued) *queued = r->queued;
    pthread_mutex_unlock(&r->mu);
}
