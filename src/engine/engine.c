/* engine.c — jobs, queues and workers (the API is in engine.h).
 *
 * DESIGN
 *
 * Threads:
 *   - synthesis workers (opts.synthesis_workers): take the next partition
 *     to synthesize, load the circuit's keys if needed (circuit.h), make the
 *     partition's witness, and put it on the prove queue;
 *   - proving workers (opts.prove_workers on the CPU backend,
 *     opts.gpu_workers on CUDA, per device slot: worker w on slot
 *     w / per_dev): each makes its own worker on its slot's backend
 *     (cz_be_worker, backend/backend.h: a thread pool on the CPU; streams,
 *     pinned buffers and device scratch on CUDA), then takes the next
 *     synthesized partition from the one prove queue (whichever slot is
 *     free first), proves it (cz_be_prove, with the circuit's key on that
 *     slot), verifies it and stores the proof (cz_engine_create returns
 *     only once each has made its worker, and fails if one could not);
 *     with opts.test_gather (tests) a worker that took a partition waits on
 *     gather_cv, once, until that many are held at once;
 *   - the janitor: wakes once a second and prunes ended jobs whose
 *     retention is over (and, while a partition waits for memory, wakes the
 *     synthesis workers so that keys that became idle enough are evicted);
 *   - the reaper (reaper.h): the one background free thread. Witnesses and
 *     synthesis scratch are handed to it instead of being freed on a
 *     synthesis or proving thread; once a buffer is freed its bytes go back
 *     to the memory budget (reaper_done, under e->mu);
 *   - callers (the server's threads): submit, await, watch, cancel, status.
 *
 * Queues (all under e->mu):
 *   - the synthesis queue: one FIFO of jobs per priority level. A job stays
 *     at its level's head until every partition of it has been handed out,
 *     so partitions are synthesized in order and a CRITICAL job's
 *     partitions go before a queued NORMAL job's;
 *   - the prove queue: one FIFO of synthesized partitions per priority level;
 *     a worker takes the head of the highest non-empty level, so partitions
 *     of different jobs interleave as they become ready. At most
 *     opts.max_queue_depth witnesses exist outside the proving workers
 *     (being synthesized or queued): synthesis waits for room.
 *   Each partition's key is (job sequence number, partition index); both
 *   are unique for the engine's lifetime, so no two entries can collide.
 *
 * Memory (membudget.h, e->mem under e->mu): with opts.mem_budget set, a
 * synthesis worker admits the head job's next partition only when it fits:
 * first the circuit's keys (not loaded and nobody loading them: an estimate
 * is reserved in ci->key_reserved while this worker loads them, then the
 * cache's real size counts), then the partition's working set ci->ws
 * (W + max(S, P), reserved before SYNTH_START). Step 1 of its release comes
 * when its synthesis scratch has been freed, step 2 when its witness has
 * been freed after the proof (or after it was dropped), both credited by
 * the reaper once the free is done. When nothing fits, an idle key (no
 * partition active, idle for eviction_min_idle_ms) is evicted, else the
 * worker waits on synth_cv, which every credit broadcasts. A partition
 * (or a key) larger than the whole budget fails its job at once.
 *
 * Throttle: the backend calls host_stage(on/off) around each partition it
 * proves on the host (and the CUDA prover around its host-side witness
 * copy into pinned staging); e->host_busy counts them under e->th_mu. With
 * opts.synthesis_throttle, a synthesis checks it between chunks
 * (synth_yield, circuit.h's hooks) and waits, up to THROTTLE_MAX_WAIT_MS a
 * check, while it is non-zero; checks, waits and time waited are counted.
 *
 * Jobs: a hash table by job id and one by request id (the latest attempt),
 * and the list of every job (newest first) that cz_engine_jobs copies under
 * e->mu, with each job's per-partition progress (pinfo, written by the
 * workers under e->mu).
 * A job ends (COMPLETED, FAILED, CANCELLED) under e->mu: its watches are
 * detached and run after the lock is dropped; awaiters wake on done_cv.
 * Partitions still in flight when a job ends (cancelled, or another
 * partition failed) are dropped at their next stage boundary; the job's
 * circuit reference is released when the last one is gone. A job is
 * freed only when it has ended, nothing is in flight, nobody waits on it,
 * and its retention is over.
 *
 * Journal (journal.h, when opts.state_dir is set): a job's .job file is
 * written with e->mu dropped before submit returns; .done files are written
 * in finish() under e->mu (small, no fsync); create reads both back before
 * any thread starts.
 *
 * Backends: one cz_be per device slot (open_backends: each of opts.devices,
 * opts.device_copies times; the CPU is one device), opened by
 * cz_engine_create before any thread starts and closed by
 * cz_engine_destroy after every thread has ended and the circuit cache has
 * released its keys (the cache loads each key into every slot). The backend serialises loads and
 * guards its bookkeeping with its own locks (backend.c); a worker is used
 * only by its proving thread. A partition that fails on a slot with a
 * device error (or whose proof does not verify) goes back to the head of
 * its level for another slot (failed_on); a slot whose last
 * opts.device_fail_limit partitions all failed so rests for
 * opts.device_rest_ms (slot_rest_left: its workers wait on prove_cv with that
 * deadline instead of taking work, unless every slot rests).
 *
 * Lock order: e->mu, then the circuit cache's lock (cz__cache_release,
 * cz__cache_ready, cz__cache_accounted and cz__cache_claim_idle are called
 * with e->mu held), then the reaper's queue lock (a buffer is handed over
 * under e->mu; the reaper frees and calls reaper_done with its lock
 * dropped, and reaper_done takes e->mu alone). e->th_mu is a leaf: taken
 * alone, by a proving thread in host_stage and a synthesis in synth_yield,
 * with no other lock held. The backend's locks come last and are never held
 * together with the cache lock: an entry's backend key is loaded by the
 * loading thread with no lock held and released by whoever frees the entry,
 * possibly under e->mu (circuit.h). Keys are loaded, witnesses made and
 * proofs computed with no engine or cache lock held. TIMELINE lines are
 * single fprintf calls (stdio locks the stream for each). */
#include "engine/engine.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "engine/circuit.h"
#include "engine/journal.h"
#include "engine/membudget.h"
#include "engine/reaper.h"
#include "formats/proof.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/rng.h"

#define N_LEVELS 5
#define N_BUCKETS 4096
#define RID_MAX 256

typedef struct job job;

typedef struct part {
    job *j;
    uint32_t idx;
    cz_fr *w;
    cz_circuit *ci;              /* whose active count this partition holds */
    uint64_t mem;                /* budget bytes it still holds (step 2: W + P) */
    uint64_t failed_on;          /* device slots where it failed with a device error (bit d: slot d) */
    struct part *next;
} part;

struct job {
    uint64_t seq;
    char id[CZ_JOB_ID_MAX];
    char rid[RID_MAX];
    int kind, prio;
    cz_job_state state;
    int started_proving;
    cz_circuit *ci;
    uint32_t n_parts, next_dispatch, n_done, inflight;
    uint8_t **payloads;
    size_t *lens;
    uint8_t *proof;
    char error[512];
    double t_submit, t_start, t_end;
    uint64_t submit_unix_ms;
    int journaled;               /* has a .job file in the journal */
    uint64_t srs_load_ms, synth_ms, prove_ms;
    char cid[CZ_CIRCUIT_ID_MAX];  /* the circuit_id, for cz_engine_jobs */
    cz_part_info *pinfo;         /* n_parts entries, for cz_engine_jobs; NULL when it could not be allocated */
    unsigned waiters;
    cz_watch *watches;
    job *qnext;                  /* synthesis queue */
    int queued;                  /* on the synthesis queue */
    job *id_next, *rid_next;     /* hash chains */
    job *all_prev, *all_next;    /* every job */
};

typedef struct {
    job *head, *tail;
} job_fifo;
typedef struct {
    part *head, *tail;
} part_fifo;

struct cz_engine {
    cz_engine_opts o;
    pthread_mutex_t mu;
    pthread_cond_t synth_cv, prove_cv, done_cv, jan_cv;
    int stop, paused;
    int journal, stopping;       /* journal on; destroy under way (no .done for its cancellations) */
    double t0;
    uint64_t nonce, next_seq;
    job *by_id[N_BUCKETS], *by_rid[N_BUCKETS];
    job *all;
    job_fifo sq[N_LEVELS];
    part_fifo pq[N_LEVELS];
    unsigned pq_len, synthesizing;
    unsigned queued_jobs, running_jobs;
    unsigned watching; /* armed watches: calls waiting for a job to end */
    cz_circuit_cache cache;
    /* the device slots: one backend each (all CUDA, or CPU), per_dev
     * proving workers each (worker wi on slot wi / per_dev) */
    cz_be *be[CZ_ENGINE_MAX_DEVICES];
    char dev_name[CZ_ENGINE_MAX_DEVICES][160];
    int dev_ordinal[CZ_ENGINE_MAX_DEVICES];
    unsigned n_be, per_dev;
    uint64_t dev_busy_ms[CZ_ENGINE_MAX_DEVICES], dev_parts[CZ_ENGINE_MAX_DEVICES]; /* under mu */
    uint64_t dev_failed[CZ_ENGINE_MAX_DEVICES], retries;                          /* under mu */
    /* failures in a row, rests, and the end of the current rest (cz_now_ms;
     * 0 = none) of each slot: slot_rest_left() */
    unsigned dev_streak[CZ_ENGINE_MAX_DEVICES];                                   /* under mu */
    uint64_t dev_rests[CZ_ENGINE_MAX_DEVICES];                                    /* under mu */
    double dev_rest_until[CZ_ENGINE_MAX_DEVICES];                                 /* under mu */
    unsigned holding;            /* partitions taken by proving workers, not yet done (under mu) */
    int gathered;                /* opts.test_gather reached once (under mu) */
    pthread_cond_t gather_cv;
    /* threads */
    pthread_t *synth_th, *prove_th, jan_th;
    unsigned n_synth, n_prove, synth_started, prove_started;
    int jan_started;
    unsigned inited;             /* proving workers past cz_be_worker_create */
    cz_err init_err;
    char init_msg[600];
    cz_worker_status *wst;
    /* counters */
    uint64_t completed, failed, cancelled;
    uint64_t completed_k[CZ_N_KINDS], failed_k[CZ_N_KINDS];
    unsigned pending_k[CZ_N_KINDS], running_k[CZ_N_KINDS];
    uint64_t dur_bucket[CZ_N_KINDS][12]; /* by cz_kind_index */
    double dur_sum_s[CZ_N_KINDS];
    uint64_t synth_total, prove_total;
    uint64_t synth_bucket[12], prove_bucket[12], synth_count, prove_count, synth_sum, prove_sum;
    /* host memory (membudget.h), under e->mu */
    cz_mem mem;
    uint64_t mem_waits, mem_evictions, mem_refused, mem_wait_key;
    int mem_waiting;             /* a partition waits for room: the janitor re-checks idle keys */
    cz_reaper *reaper;           /* the background free thread */
    /* the synthesis throttle, under th_mu (a leaf lock) */
    pthread_mutex_t th_mu;
    pthread_cond_t th_cv;
    int host_busy;               /* proving workers inside a host stage */
    uint64_t th_checks, th_waits;
    double th_wait_ms;
};

const double cz_engine_dur_bounds[12] = {1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 1e300};
const double cz_engine_stage_bounds[12] = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 120, 1e300};

static void stage_count(uint64_t *bucket, uint64_t *n, uint64_t *sum_ms, uint64_t ms)
{
    for (int b = 0; b < 12; b++)
        if ((double)ms / 1e3 <= cz_engine_stage_bounds[b]) bucket[b]++;
    (*n)++;
    *sum_ms += ms;
}

/* ---- names ---- */
int cz_kind_index(int kind)
{
    switch (kind) {
    case CZ_KIND_UNSPECIFIED: return 0;
    case CZ_KIND_POREP_SEAL_COMMIT: return 1;
    case CZ_KIND_SNAP_DEALS_UPDATE: return 2;
    case CZ_KIND_WINDOW_POST_PARTITION: return 3;
    case CZ_KIND_WINNING_POST: return 4;
    case CZ_KIND_GROTH16_GENERIC: return 5;
    default: return -1;
    }
}

int cz_kind_from_index(int i)
{
    static const int k[CZ_N_KINDS] = {0, 1, 2, 3, 4, 100};
    return i >= 0 && i < CZ_N_KINDS ? k[i] : -1;
}

const char *cz_kind_name(int kind)
{
    static const char *n[CZ_N_KINDS] = {"unspecified", "porep-c2", "snap-update",
                                        "window-post", "winning-post", "groth16-generic"};
    int i = cz_kind_index(kind);
    return i < 0 ? "unknown" : n[i];
}

const char *cz_tier_name(cz_tier t)
{
    return t == CZ_TIER_HOT ? "hot" : t == CZ_TIER_WARM ? "warm" : "cold";
}

const char *cz_job_state_name(cz_job_state s)
{
    static const char *n[] = {"queued", "synthesizing", "proving", "completed", "failed", "cancelled"};
    return (unsigned)s < 6 ? n[s] : "unknown";
}

int cz_kind_default_priority(int kind)
{
    if (kind == CZ_KIND_WINNING_POST) return CZ_PRIO_CRITICAL;
    if (kind == CZ_KIND_WINDOW_POST_PARTITION) return CZ_PRIO_HIGH;
    return CZ_PRIO_NORMAL;
}

void cz_engine_opts_defaults(cz_engine_opts *o)
{
    memset(o, 0, sizeof *o);
    snprintf(o->param_cache, sizeof o->param_cache, ".");
    o->synthesis_workers = 1;
    o->prove_workers = 1;
    o->prove_threads = 0;
    o->max_queue_depth = 2;
    o->result_retention_ms = 30ull * 60 * 1000;
    o->verify_proofs = 1;
    o->eviction_min_idle_ms = 5ull * 60 * 1000;
    o->synthesis_throttle = 1;
    o->device_fail_limit = 3;
    o->device_rest_ms = 60ull * 1000;
}

void cz_job_result_free(cz_job_result *r)
{
    free(r->proof);
    r->proof = NULL;
    r->proof_len = 0;
}

/* ---- helpers (e->mu held unless said otherwise) ---- */
static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s) h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

static double now_rel(const cz_engine *e) { return cz_now_ms() - e->t0; }

static void timeline(cz_engine *e, const char *ev, const job *j, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void timeline(cz_engine *e, const char *ev, const job *j, const char *fmt, ...)
{
    if (!e->o.timeline) return;
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    fprintf(e->o.timeline, "TIMELINE,%.0f,%s,%s,%s\n", now_rel(e), ev, j->id, detail);
    fflush(e->o.timeline);
}

static int terminal(cz_job_state s) { return s >= CZ_JOB_COMPLETED; }

static job *find_id(cz_engine *e, const char *id)
{
    for (job *j = e->by_id[hash_str(id) % N_BUCKETS]; j; j = j->id_next)
        if (!strcmp(j->id, id)) return j;
    return NULL;
}

static job *find_rid(cz_engine *e, const char *rid)
{
    for (job *j = e->by_rid[hash_str(rid) % N_BUCKETS]; j; j = j->rid_next)
        if (!strcmp(j->rid, rid)) return j;
    return NULL;
}

static void unlink_rid(cz_engine *e, job *j)
{
    job **pp = &e->by_rid[hash_str(j->rid) % N_BUCKETS];
    while (*pp && *pp != j) pp = &(*pp)->rid_next;
    if (*pp) *pp = j->rid_next;
    j->rid_next = NULL;
}

static void sq_remove(cz_engine *e, job *j)
{
    if (!j->queued) return;
    job_fifo *f = &e->sq[j->prio];
    job *prev = NULL;
    for (job *x = f->head; x; prev = x, x = x->qnext)
        if (x == j) {
            if (prev) prev->qnext = x->qnext;
            else f->head = x->qnext;
            if (f->tail == x) f->tail = prev;
            break;
        }
    j->qnext = NULL;
    j->queued = 0;
}

static void pq_push(cz_engine *e, part *p)
{
    part_fifo *f = &e->pq[p->j->prio];
    p->next = NULL;
    if (f->tail) f->tail->next = p;
    else f->head = p;
    f->tail = p;
    e->pq_len++;
}

/* a partition failed on slot dev is put back at the head of its level, to
 * be taken by another slot (pq_pop) */
static void pq_push_front(cz_engine *e, part *p)
{
    part_fifo *f = &e->pq[p->j->prio];
    p->next = f->head;
    f->head = p;
    if (!f->tail) f->tail = p;
    e->pq_len++;
}

/* the next partition a worker on slot dev may take: the head of the
 * highest non-empty level, passing over those that failed on dev (they wait
 * for another slot) */
static part *pq_pop(cz_engine *e, unsigned dev)
{
    for (int l = N_LEVELS - 1; l >= 0; l--) {
        part *prev = NULL;
        for (part *p = e->pq[l].head; p; prev = p, p = p->next) {
            if (p->failed_on >> dev & 1) continue;
            if (prev) prev->next = p->next;
            else e->pq[l].head = p->next;
            if (e->pq[l].tail == p) e->pq[l].tail = prev;
            e->pq_len--;
            return p;
        }
    }
    return NULL;
}

/* the CLOCK_REALTIME instant ms from now, for pthread_cond_timedwait */
static struct timespec deadline_in_ms(uint64_t ms)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += (time_t)(ms / 1000);
    dl.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L) dl.tv_sec++, dl.tv_nsec -= 1000000000L;
    return dl;
}

/* the ms left of slot dev's rest (0: it takes partitions). It rests until
 * dev_rest_until, unless every other slot rests too: then none does, so
 * that work still moves (e->mu held) */
static uint64_t slot_rest_left(const cz_engine *e, unsigned dev, double now)
{
    if (e->dev_rest_until[dev] <= now) return 0;
    for (unsigned d = 0; d < e->n_be; d++)
        if (d != dev && e->dev_rest_until[d] <= now) return (uint64_t)(e->dev_rest_until[dev] - now) + 1;
    return 0;
}

/* ---- host memory (e->mu held) ---- */
static void mem_sync(cz_engine *e) { cz_mem_set_keys(&e->mem, cz__cache_accounted(&e->cache)); }

static void mem_give(cz_engine *e, uint64_t n)
{
    if (!n) return;
    cz_mem_give(&e->mem, n);
    pthread_cond_broadcast(&e->synth_cv); /* room may have appeared */
}

/* the reaper freed a buffer: its credit goes back (no engine lock held) */
static void reaper_done(void *ctx, uint64_t credit)
{
    cz_engine *e = ctx;
    if (!credit) return;
    pthread_mutex_lock(&e->mu);
    mem_give(e, credit);
    pthread_mutex_unlock(&e->mu);
}

/* hands a big buffer to the background free thread; credit bytes go back
 * to the budget once it is freed */
static void bg_free(cz_engine *e, void *p, void (*fn)(void *), uint64_t credit)
{
    if (!cz__reaper_put(e->reaper, p, fn, credit)) mem_give(e, credit);
}

/* a partition's witness is done with (proved, dropped or failed): the
 * circuit is no longer in use by it, and step 2 of its release starts */
static void part_release(cz_engine *e, cz_circuit *ci, cz_fr *w, uint64_t credit)
{
    if (ci && ci->active) ci->active--;
    bg_free(e, w, NULL, credit);
}

/* drops the job's queued partitions (after it ended) */
static void pq_drop_job(cz_engine *e, job *j)
{
    part_fifo *f = &e->pq[j->prio];
    part **pp = &f->head, *last = NULL;
    while (*pp) {
        part *p = *pp;
        if (p->j == j) {
            *pp = p->next;
            part_release(e, p->ci, p->w, p->mem);
            free(p);
            e->pq_len--;
            j->inflight--;
        } else {
            last = p;
            pp = &p->next;
        }
    }
    f->tail = last;
}

static void maybe_release(cz_engine *e, job *j)
{
    if (terminal(j->state) && !j->inflight && j->ci) {
        cz__cache_release(&e->cache, j->ci);
        j->ci = NULL;
        for (unsigned i = 0; i < j->n_parts; i++) { /* no worker reads them any more */
            free(j->payloads[i]);
            j->payloads[i] = NULL;
        }
    }
}

static void fill_result(const cz_engine *e, const job *j, cz_job_result *out);
static void insert_job(cz_engine *e, job *j);

/* ends j; returns its watches, to run once e->mu is dropped */
static cz_watch *finish(cz_engine *e, job *j, cz_job_state st, const char *err)
{
    if (terminal(j->state)) return NULL;
    int was_queued = j->state == CZ_JOB_QUEUED;
    int ki = cz_kind_index(j->kind);
    j->state = st;
    j->t_end = cz_now_ms();
    if (err) snprintf(j->error, sizeof j->error, "%s", err);
    sq_remove(e, j);
    pq_drop_job(e, j);
    if (was_queued) {
        e->queued_jobs--;
        e->pending_k[ki]--;
    } else {
        e->running_jobs--;
        e->running_k[ki]--;
    }
    if (st == CZ_JOB_COMPLETED) {
        double s = (j->t_end - j->t_submit) / 1e3;
        e->completed++;
        e->completed_k[ki]++;
        e->dur_sum_s[ki] += s;
        for (int b = 0; b < 12; b++)
            if (s <= cz_engine_dur_bounds[b]) e->dur_bucket[ki][b]++;
    } else if (st == CZ_JOB_FAILED) {
        e->failed++;
        e->failed_k[ki]++;
    } else {
        e->cancelled++;
    }
    maybe_release(e, j);
    if (j->journaled && !e->stopping) { /* a rename, no fsync: a lost .done only runs the job again */
        cz_job_result r;
        fill_result(e, j, &r);
        cz_jrec_done d = {.state = (int)st, .end_unix_ms = cz__unix_ms(), .queue_wait_ms = r.queue_wait_ms,
                          .srs_load_ms = r.srs_load_ms, .synth_ms = r.synthesis_ms, .prove_ms = r.prove_ms,
                          .total_ms = r.total_ms, .proof = r.proof, .proof_len = r.proof_len};
        snprintf(d.error, sizeof d.error, "%s", r.error);
        cz__journal_write_done(e->o.state_dir, j->id, &d);
        cz_job_result_free(&r);
    }
    cz_watch *w = j->watches;
    j->watches = NULL;
    for (cz_watch *x = w; x; x = x->next) { /* the job stays until its callbacks have run (fire) */
        x->armed = 0;
        j->waiters++;
        e->watching--;
    }
    pthread_cond_broadcast(&e->done_cv);
    pthread_cond_broadcast(&e->synth_cv); /* room may have appeared */
    return w;
}

/* runs the watches finish() returned, with e->mu not held */
static void fire(cz_engine *e, job *j, cz_watch *w)
{
    unsigned n = 0;
    while (w) {
        cz_watch *next = w->next;
        w->cb(w); /* may free w */
        w = next;
        n++;
    }
    if (n) {
        pthread_mutex_lock(&e->mu);
        j->waiters -= n;
        pthread_mutex_unlock(&e->mu);
    }
}

static void part_gone(cz_engine *e, job *j)
{
    j->inflight--;
    maybe_release(e, j);
}

/* ---- the synthesis throttle (th_mu only) ---- */
#define THROTTLE_MAX_WAIT_MS 100 /* one check holds a synthesis at most this long */

/* the backend's host-stage hook: a proving worker enters (on) or leaves a
 * bandwidth-heavy host stage */
static void host_stage(void *ctx, int on)
{
    cz_engine *e = ctx;
    pthread_mutex_lock(&e->th_mu);
    e->host_busy += on ? 1 : -1;
    if (e->host_busy <= 0) {
        e->host_busy = 0;
        pthread_cond_broadcast(&e->th_cv);
    }
    pthread_mutex_unlock(&e->th_mu);
}

typedef struct {
    cz_engine *e;
    uint64_t credit1;   /* step 1 of the partition's release */
    int deferred;       /* the scratch (and credit1) went to the reaper */
} synth_ctx;

/* between chunks of a synthesis: wait while a host stage runs (bounded) */
static void synth_yield(void *ctx)
{
    synth_ctx *sc = ctx;
    cz_engine *e = sc->e;
    if (!e->o.synthesis_throttle) return;
    pthread_mutex_lock(&e->th_mu);
    e->th_checks++;
    if (e->host_busy) {
        double t0 = cz_now_ms();
        struct timespec dl = deadline_in_ms(THROTTLE_MAX_WAIT_MS);
        e->th_waits++;
        while (e->host_busy && !pthread_cond_timedwait(&e->th_cv, &e->th_mu, &dl)) {
        }
        e->th_wait_ms += cz_now_ms() - t0;
    }
    pthread_mutex_unlock(&e->th_mu);
}

static void synth_defer(void *ctx, void *p, void (*fn)(void *))
{
    synth_ctx *sc = ctx;
    if (cz__reaper_put(sc->e->reaper, p, fn, sc->credit1)) sc->deferred = 1;
}

/* ---- workers ---- */
static job *sq_pick(cz_engine *e)
{
    for (int l = N_LEVELS - 1; l >= 0; l--)
        if (e->sq[l].head) return e->sq[l].head;
    return NULL;
}

typedef struct {
    cz_engine *e;
    unsigned idx;
} worker_arg;

enum { ADM_OK, ADM_AGAIN, ADM_WAIT };

/* no room: evicts one idle key (ADM_AGAIN: e->mu was dropped meanwhile) or
 * says to wait (ADM_WAIT) for a partition or load to give memory back */
static int make_room(cz_engine *e, const job *j, cz_circuit *exclude)
{
    cz_circuit *v = cz__cache_claim_idle(&e->cache, e->o.eviction_min_idle_ms, exclude);
    if (!v) {
        uint64_t key = j->seq << 20 ^ j->next_dispatch;
        if (!e->mem_waiting || e->mem_wait_key != key) e->mem_waits++; /* once per partition that waits */
        e->mem_waiting = 1;
        e->mem_wait_key = key;
        return ADM_WAIT;
    }
    pthread_mutex_unlock(&e->mu);
    cz__cache_unload_claimed(&e->cache, v);
    pthread_mutex_lock(&e->mu);
    e->mem_evictions++;
    mem_sync(e);
    return ADM_AGAIN;
}

static cz_watch *refuse(cz_engine *e, job *j, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static cz_watch *refuse(cz_engine *e, job *j, const char *fmt, ...)
{
    char m[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    e->mem_refused++;
    return finish(e, j, CZ_JOB_FAILED, m);
}

/* Admission of the head job's next partition (e->mu held): first its
 * circuit's keys (an estimate reserved while they load), then its working
 * set. ADM_OK: *need bytes are reserved and ci->active counts it. ADM_AGAIN:
 * something changed (a load, an eviction, a failed job: *fired holds its
 * watches), look again. ADM_WAIT: wait on synth_cv. */
static int admit(cz_engine *e, job *j, cz_pool *pool, uint64_t *need, cz_watch **fired)
{
    cz_circuit *ci = j->ci;
    uint64_t budget = e->mem.budget;
    char msg[512];
    if (!cz__cache_ready(&e->cache, ci)) {
        if (ci->key_reserved) return ADM_WAIT; /* another worker loads it */
        uint64_t est = budget ? cz__circuit_key_estimate(&e->cache, ci) : 0;
        mem_sync(e);
        if (budget && est > budget) {
            *fired = refuse(e, j,
                            "memory: the keys of %s take about %llu bytes, more than the whole budget of %llu bytes "
                            "([memory] total_budget)",
                            ci->key, (unsigned long long)est, (unsigned long long)budget);
            return ADM_AGAIN;
        }
        if (!cz_mem_fits(&e->mem, est)) return make_room(e, j, ci);
        ci->key_reserved = est ? est : 1;
        cz_mem_pending(&e->mem, est, 0);
        j->inflight++; /* keeps j while the lock is dropped */
        pthread_mutex_unlock(&e->mu);
        uint64_t load_ms = 0;
        cz_err err = cz__cache_load(&e->cache, ci, pool, &load_ms, NULL, msg, sizeof msg);
        pthread_mutex_lock(&e->mu);
        cz_mem_pending(&e->mem, 0, est);
        ci->key_reserved = 0;
        mem_sync(e);
        j->srs_load_ms += load_ms;
        if (err && !terminal(j->state)) {
            char m[600];
            snprintf(m, sizeof m, "partition %u: synthesis failed: %s", j->next_dispatch, msg);
            *fired = finish(e, j, CZ_JOB_FAILED, m);
        }
        part_gone(e, j);
        pthread_cond_broadcast(&e->synth_cv);
        return ADM_AGAIN;
    }
    uint64_t n = cz_mem_ws_total(&ci->ws);
    if (budget) {
        mem_sync(e);
        if (n + ci->acct_bytes > budget) {
            *fired = refuse(e, j,
                            "memory: partition %u of %s needs %llu bytes (witness %llu + scratch %llu), and its keys "
                            "%llu bytes: more than the whole budget of %llu bytes ([memory] total_budget)",
                            j->next_dispatch, ci->key, (unsigned long long)n, (unsigned long long)ci->ws.witness,
                            (unsigned long long)(n - ci->ws.witness), (unsigned long long)ci->acct_bytes,
                            (unsigned long long)budget);
            return ADM_AGAIN;
        }
        if (!cz_mem_fits(&e->mem, n)) return make_room(e, j, ci);
    }
    cz_mem_take(&e->mem, n);
    ci->active++;
    e->mem_waiting = 0;
    *need = n;
    return ADM_OK;
}

static void *synth_main(void *arg)
{
    worker_arg *wa = arg;
    cz_engine *e = wa->e;
    free(wa);
    char msg[512];
    cz_pool *pool = NULL; /* NULL (the loop runs on this thread) when it cannot be made */
    if (e->o.synthesis_threads > 1 && cz_pool_create(&pool, (unsigned)e->o.synthesis_threads)) pool = NULL;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        if (e->stop) break;
        job *j = sq_pick(e);
        if (!j || e->paused || e->synthesizing + e->pq_len >= (unsigned)e->o.max_queue_depth) {
            pthread_cond_wait(&e->synth_cv, &e->mu);
            continue;
        }
        uint64_t need = 0;
        cz_watch *fired = NULL;
        int adm = admit(e, j, pool, &need, &fired);
        if (fired) {
            pthread_mutex_unlock(&e->mu);
            fire(e, j, fired);
            pthread_mutex_lock(&e->mu);
        }
        if (adm == ADM_WAIT) pthread_cond_wait(&e->synth_cv, &e->mu);
        if (adm != ADM_OK) continue;
        uint32_t idx = j->next_dispatch++;
        if (j->next_dispatch == j->n_parts) sq_remove(e, j);
        if (j->state == CZ_JOB_QUEUED) {
            int ki = cz_kind_index(j->kind);
            j->state = CZ_JOB_SYNTHESIZING;
            j->t_start = cz_now_ms();
            e->queued_jobs--;
            e->pending_k[ki]--;
            e->running_jobs++;
            e->running_k[ki]++;
        }
        j->inflight++;
        e->synthesizing++;
        const uint8_t *pl = j->payloads[idx];
        size_t pl_len = j->lens[idx];
        if (j->pinfo) j->pinfo[idx].state = CZ_PART_SYNTHESIZING;
        cz_circuit *ci = j->ci;
        cz_mem_ws ws = ci->ws;
        uint64_t credit1 = need - cz_mem_ws_step2(&ws), credit2 = need - credit1;
        pthread_mutex_unlock(&e->mu);

        timeline(e, "SYNTH_START", j, "partition=%u", idx);
        cz_fr *w = NULL;
        double ts = cz_now_ms();
        synth_ctx sc = {e, credit1, 0};
        cz_synth_hooks hooks = {synth_yield, synth_defer, &sc};
        cz_err err = cz__circuit_witness(ci, idx, pl, pl_len, &w, pool, &hooks, msg, sizeof msg);
        uint64_t synth_ms = (uint64_t)(cz_now_ms() - ts);
        timeline(e, "SYNTH_END", j, "partition=%u,synth_ms=%llu%s", idx, (unsigned long long)synth_ms,
                 err ? ",error=1" : "");

        pthread_mutex_lock(&e->mu);
        if (!sc.deferred) mem_give(e, credit1); /* step 1: the scratch is gone */
        e->synthesizing--;
        j->synth_ms += synth_ms;
        e->synth_total += synth_ms;
        if (!err) stage_count(e->synth_bucket, &e->synth_count, &e->synth_sum, synth_ms);
        if (j->pinfo) {
            j->pinfo[idx].synth_ms = synth_ms;
            j->pinfo[idx].state = err ? CZ_PART_FAILED : terminal(j->state) ? CZ_PART_DROPPED : CZ_PART_WAITING_GPU;
        }
        if (err) {
            char m[600];
            snprintf(m, sizeof m, "partition %u: synthesis failed: %s", idx, msg);
            part_release(e, ci, w, credit2);
            fired = finish(e, j, CZ_JOB_FAILED, m);
            part_gone(e, j);
        } else if (terminal(j->state)) {
            part_release(e, ci, w, credit2);
            part_gone(e, j);
        } else {
            part *p = calloc(1, sizeof *p);
            if (!p) {
                part_release(e, ci, w, credit2);
                fired = finish(e, j, CZ_JOB_FAILED, "out of memory");
                part_gone(e, j);
            } else {
                p->j = j;
                p->idx = idx;
                p->w = w;
                p->ci = ci;
                p->mem = credit2;
                pq_push(e, p);
                timeline(e, "GPU_QUEUE", j, "partition=%u", idx);
                pthread_cond_signal(&e->prove_cv);
            }
        }
        pthread_cond_broadcast(&e->synth_cv);
        if (fired) {
            pthread_mutex_unlock(&e->mu);
            fire(e, j, fired);
            pthread_mutex_lock(&e->mu);
        }
    }
    pthread_mutex_unlock(&e->mu);
    cz_pool_destroy(pool);
    return NULL;
}

static void *prove_main(void *arg)
{
    worker_arg *wa = arg;
    cz_engine *e = wa->e;
    unsigned wi = wa->idx;
    free(wa);
    unsigned dev = wi / e->per_dev;
    char msg[512];
    cz_be_worker *bw = NULL;
    cz_err ie = cz_be_worker_create(e->be[dev], &bw, msg, sizeof msg);
    pthread_mutex_lock(&e->mu);
    e->inited++;
    if (ie && !e->init_err) {
        e->init_err = ie;
        snprintf(e->init_msg, sizeof e->init_msg, "proving worker %u (%s): %s", wi, e->dev_name[dev], msg);
    }
    pthread_cond_broadcast(&e->done_cv);
    for (;;) {
        if (e->stop || ie) break;
        uint64_t rest = slot_rest_left(e, dev, cz_now_ms());
        if (rest) { /* wake at the rest's end (or any queue change) */
            struct timespec dl = deadline_in_ms(rest);
            pthread_cond_timedwait(&e->prove_cv, &e->mu, &dl);
            continue;
        }
        part *p = pq_pop(e, dev);
        if (!p) {
            pthread_cond_wait(&e->prove_cv, &e->mu);
            continue;
        }
        pthread_cond_broadcast(&e->synth_cv);
        job *j = p->j;
        if (terminal(j->state)) {
            part_release(e, p->ci, p->w, p->mem);
            free(p);
            part_gone(e, j);
            continue;
        }
        if (j->state == CZ_JOB_SYNTHESIZING) j->state = CZ_JOB_PROVING;
        if (j->pinfo) {
            j->pinfo[p->idx].state = CZ_PART_PROVING;
            j->pinfo[p->idx].worker = (int)wi;
        }
        snprintf(e->wst[wi].current_job, sizeof e->wst[wi].current_job, "%s", j->id);
        e->wst[wi].current_kind = j->kind;
        cz_circuit *ci = j->ci;
        e->holding++;
        if (e->o.test_gather && !e->gathered) { /* tests: wait for the others */
            if (e->holding >= e->o.test_gather) {
                e->gathered = 1;
                pthread_cond_broadcast(&e->gather_cv);
            }
            while (!e->gathered && !e->stop) pthread_cond_wait(&e->gather_cv, &e->mu);
        }
        pthread_mutex_unlock(&e->mu);

        timeline(e, "GPU_PICKUP", j, "worker=%u,partition=%u", wi, p->idx);
        timeline(e, "GPU_START", j, "worker=%u,partition=%u", wi, p->idx);
        double t = cz_now_ms();
        cz_groth16_proof proof;
        cz_groth16_timings tm = {0};
        cz_err err = e->o.test_fail_slot == (int)dev + 1
                         ? cz_fail(CZ_ERR_DEVICE, msg, sizeof msg, "device slot %u: an injected device error", dev)
                         : cz__circuit_prove(ci, dev, bw, p->w, &proof, &tm, msg, sizeof msg);
        if (!err && e->o.test_fail_slot == -(int)dev - 1) proof.a = proof.c; /* tests: a wrong proof */
        double tv = cz_now_ms();
        int ok = !err && (!e->o.verify_proofs || cz__circuit_verify(ci, &proof, p->w));
        /* a device error, or a proof that fails verification, on one slot
         * is tried once on each other slot before the job fails: another
         * device may be healthy (it is not retried where the circuit or
         * witness is at fault: those errors are not device errors, and a
         * wrong proof from every slot fails the job) */
        uint64_t all = e->n_be >= 64 ? ~0ull : (1ull << e->n_be) - 1;
        int dev_fault = !ok && (err == CZ_ERR_DEVICE || err == CZ_ERR_NOMEM || !err);
        int retry = dev_fault && ((p->failed_on | 1ull << dev) & all) != all;
        double verify_ms = cz_now_ms() - tv;
        uint64_t gpu_ms = (uint64_t)(cz_now_ms() - t);
        /* GPU_PICKUP and GPU_START keep the reference's form; GPU_END adds,
         * after its gpu_ms, device (the worker's device slot) and the rest.
         * msm_ms (all MSMs) stays for the readers of the first format; the
         * per-stage fields follow (msm_hl_ms = h + l, which the CPU runs as
         * one MSM, leaving msm_h_ms and msm_l_ms 0); cpu=1: a CUDA backend
         * proved this partition on the CPU; device_ms: the device's wall
         * for the kernels (0 on the CPU; on CUDA the stages' sum, or below
         * it when H runs beside the witness MSMs, which overlap=1 says);
         * stage (CZ_STAGE_*: 1 staged, 2 partial, 3 unstaged) and
         * staged_bytes: how the witness went to the device, when it did;
         * h_copies=1: the H MSM summed through window copies of its bases */
        char stage[64] = "";
        if (tm.stage)
            snprintf(stage, sizeof stage, ",stage=%d,staged_bytes=%llu", tm.stage,
                     (unsigned long long)tm.staged_bytes);
        timeline(e, "GPU_END", j,
                 "worker=%u,partition=%u,gpu_ms=%llu,device=%u,spmv_ms=%.0f,ntt_ms=%.0f,msm_ms=%.0f,verify_ms=%.0f,"
                 "upload_ms=%.0f,msm_h_ms=%.0f,msm_l_ms=%.0f,msm_hl_ms=%.0f,msm_a_ms=%.0f,msm_b1_ms=%.0f,"
                 "msm_b2_ms=%.0f,total_ms=%.0f,device_ms=%.0f%s%s%s%s%s%s",
                 wi, p->idx, (unsigned long long)gpu_ms, dev, tm.spmv_ms, tm.ntt_ms,
                 tm.msm_hl_ms + tm.msm_a_ms + tm.msm_b1_ms + tm.msm_b2_ms, verify_ms, tm.upload_ms, tm.msm_h_ms,
                 tm.msm_l_ms, tm.msm_hl_ms, tm.msm_a_ms, tm.msm_b1_ms, tm.msm_b2_ms, tm.total_ms, tm.device_ms,
                 stage, tm.overlap ? ",overlap=1" : "", tm.h_copies ? ",h_copies=1" : "", tm.on_cpu ? ",cpu=1" : "",
                 ok ? "" : ",error=1",
                 retry ? ",retry=1" : "");

        pthread_mutex_lock(&e->mu);
        e->wst[wi].current_job[0] = 0;
        e->wst[wi].current_kind = 0;
        e->wst[wi].busy_ms += gpu_ms;
        e->dev_busy_ms[dev] += gpu_ms;
        if (ok) e->dev_parts[dev]++;
        else e->dev_failed[dev]++;
        e->holding--;
        /* a slot that keeps failing rests, so that partitions go to the
         * others instead of failing there first (a slot alone never rests) */
        if (ok) e->dev_streak[dev] = 0;
        else if (dev_fault && e->o.device_fail_limit > 0 && e->n_be > 1 &&
                 ++e->dev_streak[dev] >= (unsigned)e->o.device_fail_limit) {
            e->dev_streak[dev] = 0;
            e->dev_rests[dev]++;
            int lim = e->o.device_fail_limit;
            double rest = (double)e->o.device_rest_ms;
            e->dev_rest_until[dev] = cz_now_ms() + rest;
            cz_log(CZ_LOG_WARN, NULL, "%s: %d partition%s in a row failed there; it takes none for %g %s while another device can",
                   e->dev_name[dev], lim, lim == 1 ? "" : "s", rest < 1000 ? rest : rest / 1e3, rest < 1000 ? "ms" : "s");
        }
        if (retry && !terminal(j->state)) {
            /* back to the queue for another slot; the job goes on */
            e->retries++;
            p->failed_on |= 1ull << dev;
            if (j->pinfo) j->pinfo[p->idx].state = CZ_PART_WAITING_GPU;
            cz_log(CZ_LOG_WARN, NULL, "job %s partition %u: %s on %s; trying another device", j->id, p->idx,
                   err ? msg : "the proof failed verification", e->dev_name[dev]);
            pq_push_front(e, p);
            pthread_cond_broadcast(&e->prove_cv);
            continue;
        }
        j->prove_ms += gpu_ms;
        e->prove_total += gpu_ms;
        if (ok) stage_count(e->prove_bucket, &e->prove_count, &e->prove_sum, gpu_ms);
        if (j->pinfo) {
            j->pinfo[p->idx].prove_ms = gpu_ms;
            j->pinfo[p->idx].state = !ok ? CZ_PART_FAILED : terminal(j->state) ? CZ_PART_DROPPED : CZ_PART_DONE;
        }
        cz_watch *fired = NULL;
        if (!terminal(j->state)) {
            if (!ok) {
                char m[600];
                if (err) snprintf(m, sizeof m, "partition %u: proving failed: %s", p->idx, msg);
                else snprintf(m, sizeof m, "partition %u: the proof failed verification; not returned", p->idx);
                fired = finish(e, j, CZ_JOB_FAILED, m);
            } else {
                cz_proof_encode(j->proof + (size_t)p->idx * CZ_GROTH16_PROOF_BYTES, &proof);
                if (++j->n_done == j->n_parts) fired = finish(e, j, CZ_JOB_COMPLETED, NULL);
            }
        }
        part_release(e, p->ci, p->w, p->mem); /* step 2: the witness and the prove's scratch */
        free(p);
        part_gone(e, j);
        if (fired) {
            pthread_mutex_unlock(&e->mu);
            fire(e, j, fired);
            pthread_mutex_lock(&e->mu);
        }
    }
    pthread_mutex_unlock(&e->mu);
    cz_be_worker_destroy(bw);
    return NULL;
}

static void free_job(job *j)
{
    for (unsigned i = 0; i < j->n_parts; i++) free(j->payloads[i]);
    free(j->payloads);
    free(j->lens);
    free(j->proof);
    free(j->pinfo);
    free(j);
}

static void prune(cz_engine *e)
{
    double now = cz_now_ms();
    job *j = e->all;
    while (j) {
        job *n = j->all_next;
        if (terminal(j->state) && !j->inflight && !j->waiters && !j->watches &&
            now - j->t_end >= (double)e->o.result_retention_ms) {
            job **pp = &e->by_id[hash_str(j->id) % N_BUCKETS];
            while (*pp != j) pp = &(*pp)->id_next;
            *pp = j->id_next;
            if (j->rid[0] && find_rid(e, j->rid) == j) unlink_rid(e, j);
            if (j->all_prev) j->all_prev->all_next = j->all_next;
            else e->all = j->all_next;
            if (j->all_next) j->all_next->all_prev = j->all_prev;
            if (j->journaled) cz__journal_remove(e->o.state_dir, j->id);
            free_job(j);
        }
        j = n;
    }
}

static void *janitor_main(void *arg)
{
    cz_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    while (!e->stop) {
        struct timespec ts = deadline_in_ms(1000);
        pthread_cond_timedwait(&e->jan_cv, &e->mu, &ts);
        prune(e);
        if (e->mem_waiting) pthread_cond_broadcast(&e->synth_cv); /* keys may have become idle enough to evict */
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ---- the journal read back (before any thread starts) ---- */
typedef struct {
    cz_engine *e;
    job **v;
    size_t n, cap;
} restore_ctx;

static void restore_bad(void *ctx, const char *name, const char *why)
{
    (void)ctx;
    cz_log(CZ_LOG_WARN, (const char *const[]){"job_id", name, NULL}, "journal: %s: %s; left alone", name, why);
}

static void restore_one(void *ctx, cz_jrec_job *r, cz_jrec_done *d)
{
    restore_ctx *rc = ctx;
    cz_engine *e = rc->e;
    uint64_t now_u = cz__unix_ms();
    double now_m = cz_now_ms();
    if (d && (now_u - d->end_unix_ms >= e->o.result_retention_ms || d->state < CZ_JOB_COMPLETED ||
              d->state > CZ_JOB_CANCELLED ||
              (d->state == CZ_JOB_COMPLETED && d->proof_len != (size_t)r->n * CZ_GROTH16_PROOF_BYTES))) {
        if (now_u - d->end_unix_ms >= e->o.result_retention_ms) cz__journal_remove(e->o.state_dir, r->job_id);
        else restore_bad(NULL, r->job_id, "an inconsistent .done; the job runs again");
        if (now_u - d->end_unix_ms >= e->o.result_retention_ms) return;
        d = NULL;
    }
    job *j = calloc(1, sizeof *j);
    if (!j || (rc->n == rc->cap && !(rc->v = realloc(rc->v, (rc->cap = rc->cap * 2 + 16) * sizeof *rc->v)))) {
        free(j);
        return;
    }
    j->n_parts = r->n;
    j->payloads = r->payloads; /* taken over */
    j->lens = r->lens;
    r->payloads = NULL;
    r->lens = NULL;
    r->n = 0;
    j->proof = malloc((size_t)j->n_parts * CZ_GROTH16_PROOF_BYTES);
    j->kind = cz_kind_index(r->kind) >= 0 ? r->kind : CZ_KIND_GROTH16_GENERIC;
    j->prio = r->prio >= CZ_PRIO_LOW && r->prio <= CZ_PRIO_CRITICAL ? r->prio : CZ_PRIO_NORMAL;
    snprintf(j->id, sizeof j->id, "%s", r->job_id);
    snprintf(j->rid, sizeof j->rid, "%s", r->rid);
    snprintf(j->cid, sizeof j->cid, "%s", r->circuit_id);
    j->seq = e->next_seq++;
    j->journaled = 1;
    j->submit_unix_ms = r->submit_unix_ms;
    j->t_submit = now_m - (double)(now_u > r->submit_unix_ms ? now_u - r->submit_unix_ms : 0);
    char msg[480];
    if (d) {
        j->state = (cz_job_state)d->state;
        j->t_end = now_m - (double)(now_u > d->end_unix_ms ? now_u - d->end_unix_ms : 0);
        j->t_start = j->t_submit + (double)d->queue_wait_ms;
        j->srs_load_ms = d->srs_load_ms;
        j->synth_ms = d->synth_ms;
        j->prove_ms = d->prove_ms;
        snprintf(j->error, sizeof j->error, "%s", d->error);
        if (j->proof && d->proof_len) memcpy(j->proof, d->proof, d->proof_len);
    } else if (!j->proof || cz__cache_acquire(&e->cache, r->circuit_id, &j->ci, msg, sizeof msg)) {
        j->state = CZ_JOB_FAILED;
        j->t_end = now_m;
        snprintf(j->error, sizeof j->error, "after a restart: %s", j->proof ? msg : "out of memory");
        cz_jrec_done dd = {.state = CZ_JOB_FAILED, .end_unix_ms = now_u};
        snprintf(dd.error, sizeof dd.error, "%s", j->error);
        cz__journal_write_done(e->o.state_dir, j->id, &dd);
    } else {
        j->state = CZ_JOB_QUEUED;
    }
    if (terminal(j->state))
        for (unsigned i = 0; i < j->n_parts; i++) {
            free(j->payloads[i]);
            j->payloads[i] = NULL;
        }
    rc->v[rc->n++] = j;
}

static int by_submit(const void *a, const void *b)
{
    const job *x = *(job *const *)a, *y = *(job *const *)b;
    return x->submit_unix_ms < y->submit_unix_ms ? -1 : x->submit_unix_ms > y->submit_unix_ms;
}

static cz_err restore(cz_engine *e, char *msg, size_t msglen)
{
    cz_err err = cz__journal_open(e->o.state_dir, msg, msglen);
    if (err) return err;
    e->journal = 1;
    restore_ctx rc = {e, NULL, 0, 0};
    cz__journal_scan(e->o.state_dir, restore_one, restore_bad, &rc);
    if (rc.n) qsort(rc.v, rc.n, sizeof *rc.v, by_submit);
    for (size_t i = 0; i < rc.n; i++) insert_job(e, rc.v[i]); /* oldest first, as they came */
    free(rc.v);
    return CZ_OK;
}

/* opens the device slots: each of opts.devices (or opts.device alone)
 * device_copies times; where the first opens as the CPU (backend cpu, or
 * auto without a device), device_copies CPU backends */
static cz_err open_backends(cz_engine *e, char *msg, size_t msglen)
{
    int one = e->o.device, *devs = e->o.n_devices ? e->o.devices : &one;
    unsigned nd = e->o.n_devices ? (unsigned)e->o.n_devices : 1, copies = (unsigned)e->o.device_copies;
    if ((uint64_t)nd * copies > CZ_ENGINE_MAX_DEVICES)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "%u devices x %u copies: more than %d device slots", nd,
                       copies, CZ_ENGINE_MAX_DEVICES);
    for (unsigned i = 0; i < nd; i++)
        for (unsigned k = 0; k < i; k++)
            if (devs[i] == devs[k])
                return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "device %d is listed twice", devs[i]);
    for (unsigned slot = 0; slot < nd * copies; slot++) {
        cz_backend_opts bo = {.kind = e->o.backend, .device = devs[slot / copies],
                              .threads = (unsigned)e->o.prove_threads, .vram_margin = e->o.vram_margin,
                              .host_stage = host_stage, .host_stage_ctx = e, .quiet = slot > 0,
                              .no_h_copies = e->o.no_h_copies};
        if (slot) bo.kind = cz_be_kind(e->be[0]); /* the rest as the first opened: all CUDA, or all CPU */
        char m[512];
        cz_err be_err = cz_be_open(&e->be[slot], &bo, m, sizeof m);
        if (be_err) {
            if (slot) return cz_fail(be_err, msg, msglen, "device %d: %s", bo.device, m);
            return cz_fail(be_err, msg, msglen, "%s", m);
        }
        e->n_be = slot + 1;
        int cuda = cz_be_kind(e->be[slot]) == CZ_BACKEND_CUDA;
        e->dev_ordinal[slot] = cuda ? bo.device : -1;
        if (slot % copies) snprintf(e->dev_name[slot], sizeof e->dev_name[slot], "%.140s, copy %u",
                                    cz_be_name(e->be[slot]), slot % copies + 1);
        else snprintf(e->dev_name[slot], sizeof e->dev_name[slot], "%s", cz_be_name(e->be[slot]));
        if (!slot && !cuda) nd = 1; /* the CPU: the device list does not apply */
    }
    return CZ_OK;
}

/* ---- API ---- */
cz_err cz_engine_create(cz_engine **out, const cz_engine_opts *o, char *msg, size_t msglen)
{
    cz_engine *e = calloc(1, sizeof *e);
    if (!e) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    e->o = *o;
    if (e->o.synthesis_workers < 1) e->o.synthesis_workers = 1;
    if (e->o.prove_workers < 1) e->o.prove_workers = 1;
    if (e->o.max_queue_depth < 1) e->o.max_queue_depth = 1;
    if (e->o.prove_threads < 0) e->o.prove_threads = 0;
    if (e->o.gpu_workers < 0) e->o.gpu_workers = 0;
    if (e->o.device_copies < 1) e->o.device_copies = 1;
    if (e->o.n_devices < 0) e->o.n_devices = 0;
    e->t0 = cz_now_ms();
    uint8_t nb[8] = {0};
    cz_os_random(nb, sizeof nb);
    for (int i = 0; i < 4; i++) e->nonce = e->nonce << 8 | nb[i];
    e->next_seq = 1;
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->synth_cv, NULL);
    pthread_cond_init(&e->prove_cv, NULL);
    pthread_cond_init(&e->done_cv, NULL);
    pthread_cond_init(&e->jan_cv, NULL);
    pthread_cond_init(&e->gather_cv, NULL);
    pthread_mutex_init(&e->th_mu, NULL);
    pthread_cond_init(&e->th_cv, NULL);
    cz_mem_init(&e->mem, e->o.mem_budget);
    cz__cache_init(&e->cache, e->o.param_cache, NULL);
    cz_err re = cz__reaper_start(&e->reaper, reaper_done, e, msg, msglen);
    if (re) {
        cz_engine_destroy(e);
        return re;
    }
    cz_err be_err = open_backends(e, msg, msglen);
    if (be_err) {
        cz_engine_destroy(e);
        return be_err;
    }
    for (unsigned d = 0; d < e->n_be; d++) e->cache.be[d] = e->be[d];
    e->cache.n_be = e->n_be;
    e->cache.synth_cpu_setup = e->o.synth_cpu_setup;
    if (e->o.state_dir[0]) {
        cz_err je = restore(e, msg, msglen);
        if (je) {
            cz_engine_destroy(e);
            return je;
        }
    }
    e->n_synth = (unsigned)e->o.synthesis_workers;
    e->per_dev = (unsigned)(cz_be_kind(e->be[0]) == CZ_BACKEND_CUDA && e->o.gpu_workers > 0 ? e->o.gpu_workers
                                                                                             : e->o.prove_workers);
    e->n_prove = e->per_dev * e->n_be;
    e->synth_th = calloc(e->n_synth, sizeof *e->synth_th);
    e->prove_th = calloc(e->n_prove, sizeof *e->prove_th);
    e->wst = calloc(e->n_prove, sizeof *e->wst);
    if (!e->synth_th || !e->prove_th || !e->wst) goto nomem;
    for (unsigned i = 0; i < e->n_synth; i++) {
        worker_arg *wa = malloc(sizeof *wa);
        if (!wa) goto nomem;
        *wa = (worker_arg){e, i};
        if (pthread_create(&e->synth_th[i], NULL, synth_main, wa)) { free(wa); goto nothread; }
        e->synth_started++;
    }
    for (unsigned i = 0; i < e->n_prove; i++) {
        worker_arg *wa = malloc(sizeof *wa);
        if (!wa) goto nomem;
        *wa = (worker_arg){e, i};
        e->wst[i].device = (int)(i / e->per_dev);
        if (pthread_create(&e->prove_th[i], NULL, prove_main, wa)) { free(wa); goto nothread; }
        e->prove_started++;
    }
    if (pthread_create(&e->jan_th, NULL, janitor_main, e)) goto nothread;
    e->jan_started = 1;
    pthread_mutex_lock(&e->mu); /* every proving worker has its backend state, or the engine fails */
    while (e->inited < e->prove_started) pthread_cond_wait(&e->done_cv, &e->mu);
    cz_err ie = e->init_err;
    pthread_mutex_unlock(&e->mu);
    if (ie) {
        cz_fail(ie, msg, msglen, "%s", e->init_msg);
        cz_engine_destroy(e);
        return ie;
    }
    *out = e;
    return CZ_OK;
nomem:
    cz_engine_destroy(e);
    return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
nothread:
    cz_engine_destroy(e);
    return cz_fail(CZ_ERR_NOMEM, msg, msglen, "cannot start the engine's threads");
}

void cz_engine_destroy(cz_engine *e)
{
    if (!e) return;
    /* first every engine thread stops (a worker ends the stage it is in) */
    pthread_mutex_lock(&e->mu);
    for (job *j = e->all; j; j = j->all_next) { /* nothing new starts meanwhile */
        sq_remove(e, j);
    }
    e->stop = 1;
    pthread_cond_broadcast(&e->synth_cv);
    pthread_cond_broadcast(&e->prove_cv);
    pthread_cond_broadcast(&e->jan_cv);
    pthread_cond_broadcast(&e->gather_cv);
    pthread_mutex_unlock(&e->mu);
    for (unsigned i = 0; i < e->synth_started; i++) pthread_join(e->synth_th[i], NULL);
    for (unsigned i = 0; i < e->prove_started; i++) pthread_join(e->prove_th[i], NULL);
    if (e->jan_started) pthread_join(e->jan_th, NULL);
    cz__reaper_stop(e->reaper); /* frees what it holds; from here on buffers are freed in place */
    e->reaper = NULL;
    /* then whoever still waits hears CANCELLED (callers' awaits must be gone by now);
     * the journal keeps these jobs as accepted, so they run again after a restart */
    pthread_mutex_lock(&e->mu);
    e->stopping = 1;
    for (job *j = e->all; j; j = j->all_next) {
        cz_watch *w = finish(e, j, CZ_JOB_CANCELLED, "the engine is shutting down");
        pthread_mutex_unlock(&e->mu);
        fire(e, j, w);
        pthread_mutex_lock(&e->mu);
    }
    pthread_mutex_unlock(&e->mu);
    /* awaiters in other threads must be gone before this point (caller's duty) */
    for (int l = 0; l < N_LEVELS; l++) {
        part *p = e->pq[l].head;
        while (p) {
            part *n = p->next;
            free(p->w);
            free(p);
            p = n;
        }
    }
    job *j = e->all;
    while (j) {
        job *n = j->all_next;
        if (j->ci) cz__cache_release(&e->cache, j->ci);
        free_job(j);
        j = n;
    }
    cz__cache_destroy(&e->cache);
    for (unsigned d = 0; d < e->n_be; d++)
        cz_be_close(e->be[d]); /* after the cache has released its keys and every worker is gone */
    pthread_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->synth_cv);
    pthread_cond_destroy(&e->prove_cv);
    pthread_cond_destroy(&e->done_cv);
    pthread_cond_destroy(&e->jan_cv);
    pthread_cond_destroy(&e->gather_cv);
    pthread_mutex_destroy(&e->th_mu);
    pthread_cond_destroy(&e->th_cv);
    free(e->synth_th);
    free(e->prove_th);
    free(e->wst);
    free(e);
}

/* puts a new job in the tables and at the tail of its synthesis queue */
static void insert_job(cz_engine *e, job *j)
{
    if (!j->pinfo && j->n_parts) { /* per-partition progress; a job without it is still proved */
        j->pinfo = calloc(j->n_parts, sizeof *j->pinfo);
        if (j->pinfo)
            for (uint32_t i = 0; i < j->n_parts; i++) {
                j->pinfo[i].worker = -1;
                j->pinfo[i].state = j->state == CZ_JOB_COMPLETED ? CZ_PART_DONE
                                    : terminal(j->state)          ? CZ_PART_DROPPED
                                                                  : CZ_PART_QUEUED;
            }
    }
    uint64_t h = hash_str(j->id) % N_BUCKETS;
    j->id_next = e->by_id[h];
    e->by_id[h] = j;
    if (j->rid[0]) {
        job *prev = find_rid(e, j->rid);
        if (prev) unlink_rid(e, prev); /* the failed/cancelled attempt stays findable by its job id */
        h = hash_str(j->rid) % N_BUCKETS;
        j->rid_next = e->by_rid[h];
        e->by_rid[h] = j;
    }
    j->all_next = e->all;
    if (e->all) e->all->all_prev = j;
    e->all = j;
    if (terminal(j->state)) return; /* restored from the journal, ended */
    job_fifo *f = &e->sq[j->prio];
    if (f->tail) f->tail->qnext = j;
    else f->head = j;
    f->tail = j;
    j->queued = 1;
    e->queued_jobs++;
    e->pending_k[cz_kind_index(j->kind)]++;
}

static uint32_t queue_position(cz_engine *e, const job *j)
{
    if (j->state != CZ_JOB_QUEUED) return 0;
    uint32_t n = 0;
    for (int l = N_LEVELS - 1; l >= 0; l--)
        for (job *x = e->sq[l].head; x; x = x->qnext) {
            if (x == j) return n;
            if (x->state == CZ_JOB_QUEUED) n++;
        }
    return n;
}

static cz_err validate(const cz_job_request *r, int *prio, char *msg, size_t msglen)
{
    int k = r->proof_kind;
    if (k == CZ_KIND_UNSPECIFIED)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "proof_kind: unspecified (GROTH16_GENERIC = 100 is served)");
    if (cz_kind_index(k) < 0) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "proof_kind: unknown value %d", k);
    if (k != CZ_KIND_GROTH16_GENERIC) {
        static const char *up[] = {"", "POREP_SEAL_COMMIT", "SNAP_DEALS_UPDATE", "WINDOW_POST_PARTITION", "WINNING_POST"};
        return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen,
                       "proof_kind: %s is not implemented yet (this daemon proves GROTH16_GENERIC circuits)", up[k]);
    }
    if (r->priority < 0 || r->priority > CZ_PRIO_CRITICAL)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "priority: unknown value %d", r->priority);
    *prio = r->priority ? r->priority : cz_kind_default_priority(k);
    if (r->request_id && strlen(r->request_id) >= RID_MAX)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "request_id: longer than %d bytes", RID_MAX - 1);
    return CZ_OK;
}

static void fill_result(const cz_engine *e, const job *j, cz_job_result *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->job_id, sizeof out->job_id, "%s", j->id);
    out->state = j->state;
    snprintf(out->error, sizeof out->error, "%s", j->error);
    double now = cz_now_ms();
    double start = j->state == CZ_JOB_QUEUED || !j->t_start ? (terminal(j->state) ? j->t_end : now) : j->t_start;
    out->queue_wait_ms = (uint64_t)(start - j->t_submit);
    out->srs_load_ms = j->srs_load_ms;
    out->synthesis_ms = j->synth_ms;
    out->prove_ms = j->prove_ms;
    out->total_ms = (uint64_t)((terminal(j->state) ? j->t_end : now) - j->t_submit);
    if (j->state == CZ_JOB_COMPLETED) {
        out->proof_len = (size_t)j->n_parts * CZ_GROTH16_PROOF_BYTES;
        out->proof = malloc(out->proof_len);
        if (out->proof) memcpy(out->proof, j->proof, out->proof_len);
        else out->proof_len = 0;
    }
    (void)e;
}

/* the live attempt of rid, if any */
static job *live_attempt(cz_engine *e, const char *rid)
{
    if (!rid || !*rid) return NULL;
    job *j = find_rid(e, rid);
    if (j && (j->state == CZ_JOB_FAILED || j->state == CZ_JOB_CANCELLED)) return NULL;
    return j;
}

/* a concurrent submit of the same request won while this one made its new
 * job j: drop j (and its circuit reference), answer with the winner's job.
 * Called with e->mu held; returns with it released. */
static cz_err lost_race(cz_engine *e, job *old, cz_circuit *ci, job *j, char job_id[CZ_JOB_ID_MAX],
                        uint32_t *queue_pos, int *attached)
{
    snprintf(job_id, CZ_JOB_ID_MAX, "%s", old->id);
    uint32_t qp = queue_position(e, old);
    pthread_mutex_unlock(&e->mu);
    cz__cache_release(&e->cache, ci);
    free_job(j);
    if (queue_pos) *queue_pos = qp;
    if (attached) *attached = 1;
    return CZ_OK;
}

cz_err cz_engine_submit(cz_engine *e, const cz_job_request *r, char job_id[CZ_JOB_ID_MAX], uint32_t *queue_pos,
                        int *attached, char *msg, size_t msglen)
{
    int prio = CZ_PRIO_NORMAL;
    cz_err err = validate(r, &prio, msg, msglen);
    if (err) return err;
    uint32_t qp = 0;
    if (attached) *attached = 0;
    pthread_mutex_lock(&e->mu);
    job *old = live_attempt(e, r->request_id);
    if (old) {
        snprintf(job_id, CZ_JOB_ID_MAX, "%s", old->id);
        qp = queue_position(e, old);
        pthread_mutex_unlock(&e->mu);
        if (queue_pos) *queue_pos = qp;
        if (attached) *attached = 1;
        return CZ_OK;
    }
    pthread_mutex_unlock(&e->mu);

    /* a new job: resolve the circuit, check and copy the payloads */
    cz_circuit_type type;
    int log2, synth_parts;
    if ((err = cz__circuit_check_id(r->circuit_id, &type, &log2, &synth_parts, msg, msglen))) return err;
    size_t np = synth_parts ? (size_t)synth_parts : (r->n_payloads ? r->n_payloads : 1);
    if (!synth_parts) {
        if (r->n_payloads && r->payload_len)
            return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "vanilla_proof: give it or vanilla_proofs, not both");
        for (size_t i = 0; i < np; i++) {
            char field[48];
            if (r->n_payloads) snprintf(field, sizeof field, "vanilla_proofs[%zu]", i);
            else snprintf(field, sizeof field, "vanilla_proof");
            if ((err = cz__payload_check(r->n_payloads ? r->payloads[i] : r->payload,
                                         r->n_payloads ? r->payload_lens[i] : r->payload_len, field, msg, msglen)))
                return err;
        }
    }
    cz_circuit *ci;
    if ((err = cz__cache_acquire(&e->cache, r->circuit_id, &ci, msg, msglen))) return err;
    job *j = calloc(1, sizeof *j);
    if (!j) goto nomem;
    j->n_parts = (uint32_t)np;
    j->payloads = calloc(np, sizeof *j->payloads);
    j->lens = calloc(np, sizeof *j->lens);
    j->proof = malloc(np * CZ_GROTH16_PROOF_BYTES);
    if (!j->payloads || !j->lens || !j->proof) goto nomem;
    for (size_t i = 0; i < np; i++) {
        const uint8_t *src = synth_parts ? r->payload : (r->n_payloads ? r->payloads[i] : r->payload);
        size_t len = synth_parts ? r->payload_len : (r->n_payloads ? r->payload_lens[i] : r->payload_len);
        j->payloads[i] = malloc(len ? len : 1);
        if (!j->payloads[i]) goto nomem;
        if (len) memcpy(j->payloads[i], src, len);
        j->lens[i] = len;
    }
    j->kind = r->proof_kind;
    j->prio = prio;
    j->ci = ci;
    j->state = CZ_JOB_QUEUED;
    if (r->request_id) snprintf(j->rid, sizeof j->rid, "%s", r->request_id);
    snprintf(j->cid, sizeof j->cid, "%s", r->circuit_id);

    pthread_mutex_lock(&e->mu);
    old = live_attempt(e, r->request_id); /* a concurrent submit of the same request won */
    if (old) {
        return lost_race(e, old, ci, j, job_id, queue_pos, attached);
    }
    if (e->stop) {
        pthread_mutex_unlock(&e->mu);
        cz__cache_release(&e->cache, ci);
        free_job(j);
        return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "the engine is shutting down");
    }
    j->seq = e->next_seq++;
    snprintf(j->id, sizeof j->id, "%08llx-%llu", (unsigned long long)e->nonce, (unsigned long long)j->seq);
    j->t_submit = cz_now_ms();
    j->submit_unix_ms = cz__unix_ms();
    if (e->journal) { /* on disk before the caller hears of it */
        pthread_mutex_unlock(&e->mu);
        cz_jrec_job jr = {.kind = j->kind, .prio = j->prio, .submit_unix_ms = j->submit_unix_ms,
                          .n = j->n_parts, .payloads = j->payloads, .lens = j->lens};
        snprintf(jr.job_id, sizeof jr.job_id, "%s", j->id);
        snprintf(jr.rid, sizeof jr.rid, "%s", j->rid);
        snprintf(jr.circuit_id, sizeof jr.circuit_id, "%s", r->circuit_id);
        err = cz__journal_write_job(e->o.state_dir, &jr, msg, msglen);
        pthread_mutex_lock(&e->mu);
        if (!err && (old = live_attempt(e, r->request_id))) { /* a concurrent submit of the same request won */
            cz__journal_remove(e->o.state_dir, j->id);
            return lost_race(e, old, ci, j, job_id, queue_pos, attached);
        }
        if (err) {
            pthread_mutex_unlock(&e->mu);
            cz__cache_release(&e->cache, ci);
            free_job(j);
            return err;
        }
        j->journaled = 1;
    }
    insert_job(e, j);
    qp = queue_position(e, j);
    snprintf(job_id, CZ_JOB_ID_MAX, "%s", j->id);
    pthread_cond_broadcast(&e->synth_cv);
    pthread_mutex_unlock(&e->mu);
    if (queue_pos) *queue_pos = qp;
    return CZ_OK;
nomem:
    cz__cache_release(&e->cache, ci);
    if (j) free_job(j);
    return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
}

cz_err cz_engine_result(cz_engine *e, const char *job_id, cz_job_result *out)
{
    pthread_mutex_lock(&e->mu);
    job *j = job_id ? find_id(e, job_id) : NULL;
    if (j) fill_result(e, j, out);
    pthread_mutex_unlock(&e->mu);
    return j ? CZ_OK : CZ_ERR_NOT_FOUND;
}

cz_err cz_engine_await(cz_engine *e, const char *job_id, uint64_t timeout_ms, cz_job_result *out)
{
    struct timespec dl = deadline_in_ms(timeout_ms);
    pthread_mutex_lock(&e->mu);
    job *j = job_id ? find_id(e, job_id) : NULL;
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        return CZ_ERR_NOT_FOUND;
    }
    cz_err err = CZ_OK;
    j->waiters++;
    while (!terminal(j->state)) {
        if (!timeout_ms) pthread_cond_wait(&e->done_cv, &e->mu);
        else if (pthread_cond_timedwait(&e->done_cv, &e->mu, &dl) && !terminal(j->state)) {
            err = CZ_ERR_TIMEOUT;
            break;
        }
    }
    j->waiters--;
    fill_result(e, j, out);
    pthread_mutex_unlock(&e->mu);
    return err;
}

cz_err cz_engine_watch(cz_engine *e, const char *job_id, cz_watch *w)
{
    pthread_mutex_lock(&e->mu);
    job *j = job_id ? find_id(e, job_id) : NULL;
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        return CZ_ERR_NOT_FOUND;
    }
    snprintf(w->job_id, sizeof w->job_id, "%s", j->id);
    if (terminal(j->state)) {
        w->armed = 0;
        pthread_mutex_unlock(&e->mu);
        w->cb(w);
        return CZ_OK;
    }
    w->armed = 1;
    w->next = j->watches;
    j->watches = w;
    e->watching++;
    pthread_mutex_unlock(&e->mu);
    return CZ_OK;
}

int cz_engine_unwatch(cz_engine *e, cz_watch *w)
{
    int removed = 0;
    pthread_mutex_lock(&e->mu);
    if (w->armed) {
        job *j = find_id(e, w->job_id);
        for (cz_watch **pp = j ? &j->watches : NULL; pp && *pp; pp = &(*pp)->next)
            if (*pp == w) {
                *pp = w->next;
                removed = 1;
                e->watching--;
                break;
            }
        w->armed = 0;
    }
    pthread_mutex_unlock(&e->mu);
    return removed;
}

cz_err cz_engine_cancel(cz_engine *e, const char *job_id, int *was_running)
{
    pthread_mutex_lock(&e->mu);
    job *j = job_id ? find_id(e, job_id) : NULL;
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        return CZ_ERR_NOT_FOUND;
    }
    *was_running = j->state == CZ_JOB_SYNTHESIZING || j->state == CZ_JOB_PROVING;
    cz_watch *fired = finish(e, j, CZ_JOB_CANCELLED, "cancelled");
    pthread_mutex_unlock(&e->mu);
    fire(e, j, fired);
    return CZ_OK;
}

cz_err cz_engine_preload(cz_engine *e, const char *circuit_id, int *already, uint64_t *load_ms, char *msg,
                         size_t msglen)
{
    cz_circuit *ci;
    cz_err err = cz__cache_acquire(&e->cache, circuit_id, &ci, msg, msglen);
    if (err) return err;
    /* the keys count against the budget: room first (evicting idle keys),
     * with an estimate reserved while they load */
    uint64_t est = 0;
    int reserved = 0;
    pthread_mutex_lock(&e->mu);
    while (!err && !cz__cache_ready(&e->cache, ci)) {
        if (ci->key_reserved) { /* a synthesis worker loads it */
            pthread_cond_wait(&e->synth_cv, &e->mu);
            continue;
        }
        est = e->mem.budget ? cz__circuit_key_estimate(&e->cache, ci) : 0;
        mem_sync(e);
        if (cz_mem_fits(&e->mem, est)) {
            ci->key_reserved = est ? est : 1;
            cz_mem_pending(&e->mem, est, 0);
            reserved = 1;
            break;
        }
        cz_circuit *v = est <= e->mem.budget ? cz__cache_claim_idle(&e->cache, e->o.eviction_min_idle_ms, ci) : NULL;
        if (!v) {
            uint64_t used = cz_mem_used(&e->mem);
            err = cz_fail(CZ_ERR_NOMEM, msg, msglen,
                          "memory: the keys of %s take about %llu bytes; %llu of the budget's %llu bytes are free "
                          "([memory] total_budget) and no idle key can be evicted",
                          ci->key, (unsigned long long)est,
                          (unsigned long long)(used < e->mem.budget ? e->mem.budget - used : 0),
                          (unsigned long long)e->mem.budget);
            break;
        }
        pthread_mutex_unlock(&e->mu);
        cz__cache_unload_claimed(&e->cache, v);
        pthread_mutex_lock(&e->mu);
        e->mem_evictions++;
    }
    pthread_mutex_unlock(&e->mu);
    if (!err) {
        cz_pool *pool = NULL;
        if (cz_pool_create(&pool, (unsigned)e->o.prove_threads)) pool = NULL;
        err = cz__cache_load(&e->cache, ci, pool, load_ms, already, msg, msglen);
        cz_pool_destroy(pool);
    }
    if (reserved) {
        pthread_mutex_lock(&e->mu);
        cz_mem_pending(&e->mem, 0, est);
        ci->key_reserved = 0;
        mem_sync(e);
        pthread_cond_broadcast(&e->synth_cv);
        pthread_mutex_unlock(&e->mu);
    }
    cz__cache_release(&e->cache, ci);
    return err;
}

cz_err cz_engine_evict(cz_engine *e, const char *circuit_id, int *was_loaded, uint64_t *freed, char *msg,
                       size_t msglen)
{
    cz_err err = cz__cache_evict(&e->cache, circuit_id, was_loaded, freed, msg, msglen);
    pthread_mutex_lock(&e->mu);
    mem_sync(e);
    pthread_cond_broadcast(&e->synth_cv); /* room may have appeared */
    pthread_mutex_unlock(&e->mu);
    return err;
}

cz_err cz_engine_get_status(cz_engine *e, cz_engine_status *s)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_lock(&e->mu);
    s->uptime_ms = (uint64_t)now_rel(e);
    s->completed = e->completed;
    s->failed = e->failed;
    s->cancelled = e->cancelled;
    memcpy(s->completed_by_kind, e->completed_k, sizeof s->completed_by_kind);
    memcpy(s->failed_by_kind, e->failed_k, sizeof s->failed_by_kind);
    memcpy(s->pending_by_kind, e->pending_k, sizeof s->pending_by_kind);
    memcpy(s->running_by_kind, e->running_k, sizeof s->running_by_kind);
    s->queued_jobs = e->queued_jobs;
    s->running_jobs = e->running_jobs;
    s->watching = e->watching;
    s->prove_queue_depth = e->pq_len;
    for (int l = 0; l < N_LEVELS; l++)
        for (job *j = e->sq[l].head; j; j = j->qnext) s->queued_partitions += j->n_parts - j->next_dispatch;
    memcpy(s->dur_bucket, e->dur_bucket, sizeof s->dur_bucket);
    memcpy(s->dur_sum_s, e->dur_sum_s, sizeof s->dur_sum_s);
    s->synth_ms_total = e->synth_total;
    s->prove_ms_total = e->prove_total;
    memcpy(s->synth_bucket, e->synth_bucket, sizeof s->synth_bucket);
    memcpy(s->prove_bucket, e->prove_bucket, sizeof s->prove_bucket);
    s->n_synth = e->synth_count;
    s->n_prove = e->prove_count;
    s->synth_sum_ms = e->synth_sum;
    s->prove_sum_ms = e->prove_sum;
    mem_sync(e);
    s->mem_budget = e->mem.budget;
    s->mem_used = cz_mem_used(&e->mem);
    s->mem_peak = e->mem.peak;
    s->mem_keys = e->mem.keys;
    s->mem_waits = e->mem_waits;
    s->mem_evictions = e->mem_evictions;
    s->mem_refused = e->mem_refused;
    s->n_workers = e->n_prove;
    s->workers = calloc(e->n_prove, sizeof *s->workers);
    if (s->workers) memcpy(s->workers, e->wst, e->n_prove * sizeof *s->workers);
    else s->n_workers = 0;
    pthread_mutex_unlock(&e->mu);
    s->n_srs = cz__cache_snapshot(&e->cache, &s->srs);
    if (e->reaper) cz__reaper_stats(e->reaper, &s->bg_frees, &s->bg_freed_bytes, &s->bg_queued);
    pthread_mutex_lock(&e->th_mu);
    s->throttle_enabled = e->o.synthesis_throttle;
    s->throttle_checks = e->th_checks;
    s->throttle_waits = e->th_waits;
    s->throttle_wait_ms = (uint64_t)e->th_wait_ms;
    pthread_mutex_unlock(&e->th_mu);
    snprintf(s->backend, sizeof s->backend, "%s", e->dev_name[0]);
    s->backend_kind = (int)cz_be_kind(e->be[0]);
    s->device = e->dev_ordinal[0];
    s->devs = calloc(e->n_be, sizeof *s->devs);
    s->n_devs = s->devs ? e->n_be : 0;
    for (unsigned d = 0; d < e->n_be; d++) {
        cz_be_stats bs;
        cz_be_get_stats(e->be[d], &bs);
        s->backend_proofs += bs.proofs;
        s->cpu_fallbacks += bs.cpu_fallbacks;
        if (!d) {
            s->vram_budget = bs.vram_budget;
            s->vram_used = bs.vram_used;
            s->vram_peak = bs.vram_peak;
        }
        if (!s->devs) continue;
        cz_device_status *ds = &s->devs[d];
        snprintf(ds->name, sizeof ds->name, "%s", e->dev_name[d]);
        ds->ordinal = e->dev_ordinal[d];
        ds->workers = e->per_dev;
        ds->proofs = bs.proofs;
        ds->cpu_fallbacks = bs.cpu_fallbacks;
        ds->vram_budget = bs.vram_budget;
        ds->vram_used = bs.vram_used;
        ds->vram_peak = bs.vram_peak;
    }
    pthread_mutex_lock(&e->mu);
    double now = cz_now_ms();
    for (unsigned d = 0; d < s->n_devs; d++) {
        s->devs[d].busy_ms = e->dev_busy_ms[d];
        s->devs[d].partitions = e->dev_parts[d];
        s->devs[d].failed = e->dev_failed[d];
        s->devs[d].rests = e->dev_rests[d];
        s->devs[d].resting_ms = slot_rest_left(e, d, now);
    }
    s->retries = e->retries;
    pthread_mutex_unlock(&e->mu);
    return CZ_OK;
}

void cz_engine_status_free(cz_engine_status *s)
{
    free(s->workers);
    free(s->srs);
    free(s->devs);
    s->workers = NULL;
    s->srs = NULL;
    s->devs = NULL;
    s->n_devs = 0;
}

void cz_engine_pause(cz_engine *e, int paused)
{
    pthread_mutex_lock(&e->mu);
    e->paused = paused;
    pthread_cond_broadcast(&e->synth_cv);
    pthread_mutex_unlock(&e->mu);
}

/* ---- the job list (cz_engine_jobs): /status's pipelines ---- */
cz_err cz_engine_jobs(cz_engine *e, size_t max_ended, cz_job_info **out, size_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    pthread_mutex_lock(&e->mu);
    size_t n = 0, ended = 0;
    for (job *j = e->all; j; j = j->all_next) /* newest first */
        if (!terminal(j->state) || ended++ < max_ended) n++;
    cz_job_info *v = n ? calloc(n, sizeof *v) : NULL;
    if (n && !v) {
        pthread_mutex_unlock(&e->mu);
        return CZ_ERR_NOMEM;
    }
    double now = cz_now_ms();
    size_t k = 0;
    ended = 0;
    for (job *j = e->all; j && k < n; j = j->all_next) {
        if (terminal(j->state) && ended++ >= max_ended) continue;
        cz_job_info *x = &v[k];
        snprintf(x->job_id, sizeof x->job_id, "%s", j->id);
        snprintf(x->request_id, sizeof x->request_id, "%s", j->rid);
        snprintf(x->circuit_id, sizeof x->circuit_id, "%s", j->cid);
        snprintf(x->error, sizeof x->error, "%s", j->error);
        x->proof_kind = j->kind;
        x->priority = j->prio;
        x->state = j->state;
        x->n_parts = j->n_parts;
        x->parts_done = j->n_done;
        double start = j->state == CZ_JOB_QUEUED || !j->t_start ? (terminal(j->state) ? j->t_end : now) : j->t_start;
        x->queue_wait_ms = start > j->t_submit ? (uint64_t)(start - j->t_submit) : 0;
        x->age_ms = now > j->t_submit ? (uint64_t)(now - j->t_submit) : 0;
        double end = terminal(j->state) ? j->t_end : now;
        x->total_ms = end > j->t_submit ? (uint64_t)(end - j->t_submit) : 0;
        x->srs_load_ms = j->srs_load_ms;
        x->synthesis_ms = j->synth_ms;
        x->prove_ms = j->prove_ms;
        x->parts = j->pinfo && j->n_parts ? malloc(j->n_parts * sizeof *x->parts) : NULL;
        if (x->parts) {
            memcpy(x->parts, j->pinfo, j->n_parts * sizeof *x->parts);
            if (terminal(j->state)) /* never to be picked up */
                for (uint32_t i = 0; i < j->n_parts; i++)
                    if (x->parts[i].state == CZ_PART_QUEUED || x->parts[i].state == CZ_PART_WAITING_GPU)
                        x->parts[i].state = CZ_PART_DROPPED;
        }
        k++;
    }
    pthread_mutex_unlock(&e->mu);
    *out = v;
    *n_out = k;
    return CZ_OK;
}

void cz_engine_jobs_free(cz_job_info *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++) free(v[i].parts);
    free(v);
}

const char *cz_part_state_name(int s)
{
    static const char *n[] = {"queued", "synthesizing", "waiting_gpu", "proving", "done", "failed", "dropped"};
    return s >= 0 && s <= CZ_PART_DROPPED ? n[s] : "unknown";
}
