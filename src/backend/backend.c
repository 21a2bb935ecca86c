/* backend.c — the backend interface (backend.h): the CPU backend, and what
 * every backend shares: keys with reference counts, each worker's CPU pool,
 * the CPU fallback of a device backend, statistics.
 *
 * DESIGN
 * Threads: any thread may load or release keys; each worker is driven by one
 * thread at a time; the device backend's own threads, if any, are its own.
 * Locks: load_mu serialises loads and the final release of a key (a device
 * upload runs under it, so two threads asking for the same circuit upload it
 * once); mu guards the key list, reference counts and statistics and is
 * held only for bookkeeping. Order: load_mu before mu. Proving holds
 * neither (a key is pinned by the caller's reference). */
#include "backend/backend.h"
#include "backend/backend_ops.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/pool.h"

struct cz_be_key {
    cz_be_circuit c;
    unsigned refs;
    void *dev;          /* the device backend's key; NULL: proved on the CPU */
    uint64_t dev_bytes;
    int resident;       /* its points are in device memory (set by the load) */
    struct cz_be_key *next;
};

struct cz_be {
    cz_backend_kind kind;
    cz_backend_opts o;
    const cz_be_ops *ops; /* NULL for the CPU */
    void *self;
    char name[160];
    pthread_mutex_t load_mu, mu;
    cz_be_key *keys;
    uint64_t proofs, fallbacks;
};

struct cz_be_worker {
    cz_be *b;
    cz_pool *pool; /* CPU proving (the CPU backend, or a device backend's fallback) */
    void *dev;
    cz_fr *buf;
    size_t buf_n;
    cz_fr *full; /* a compact witness expanded on the host (CPU proving) */
    size_t full_n;
    cz_progress_fn progress; /* CPU proving's stage reports (cz_be_worker_set_progress) */
    void *progress_ctx;
};

cz_err cz_backend_parse(const char *s, cz_backend_kind *out, char *msg, size_t msglen)
{
    if (s && !strcmp(s, "auto")) *out = CZ_BACKEND_AUTO;
    else if (s && !strcmp(s, "cpu")) *out = CZ_BACKEND_CPU;
    else if (s && !strcmp(s, "cuda")) *out = CZ_BACKEND_CUDA;
    else return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "backend '%s': expected cpu, cuda or auto", s ? s : "");
    return CZ_OK;
}

const char *cz_backend_kind_name(cz_backend_kind k)
{
    return k == CZ_BACKEND_CPU ? "cpu" : k == CZ_BACKEND_CUDA ? "cuda" : "auto";
}

int cz_backend_cuda_built(void) { return cz__be_cuda_ops && cz__be_cuda_ops() != NULL; }

int cz_backend_cuda_devices(void) { return cz_backend_cuda_built() ? cz__be_cuda_ops()->device_count() : 0; }

cz_err cz_be_open(cz_be **out, const cz_backend_opts *o, char *msg, size_t msglen)
{
    cz_backend_opts d = {0};
    if (!o) o = &d;
    *out = NULL;
    cz_backend_kind k = o->kind;
    if (k == CZ_BACKEND_AUTO) k = cz_backend_cuda_devices() > 0 ? CZ_BACKEND_CUDA : CZ_BACKEND_CPU;
    if (k == CZ_BACKEND_CUDA && !cz_backend_cuda_built())
        return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen,
                       "backend cuda: this build has no CUDA backend (nvcc was not found when it was configured)");
    if (k == CZ_BACKEND_CUDA && cz_backend_cuda_devices() <= 0)
        return cz_fail(CZ_ERR_DEVICE, msg, msglen, "backend cuda: no CUDA device found");
    cz_be *b = calloc(1, sizeof *b);
    if (!b) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    b->kind = k;
    b->o = *o;
    b->o.kind = k;
    if (!b->o.vram_margin) b->o.vram_margin = CZ_BE_VRAM_MARGIN_DEFAULT;
    pthread_mutex_init(&b->load_mu, NULL);
    pthread_mutex_init(&b->mu, NULL);
    if (k == CZ_BACKEND_CUDA) {
        b->ops = cz__be_cuda_ops();
        char m[512];
        cz_err e = b->ops->open(&b->self, &b->o, b->name, sizeof b->name, m, sizeof m);
        if (e && o->kind == CZ_BACKEND_AUTO) { /* auto: a device that cannot be opened leaves the CPU */
            if (!o->quiet) fprintf(stderr, "cuzk: warning: %s; proving on the CPU\n", m);
            b->ops = NULL;
            b->self = NULL;
            b->kind = b->o.kind = k = CZ_BACKEND_CPU;
        } else if (e) {
            cz_fail(e, msg, msglen, "%s", m);
            pthread_mutex_destroy(&b->load_mu);
            pthread_mutex_destroy(&b->mu);
            free(b);
            return e;
        }
    }
    if (k == CZ_BACKEND_CPU) snprintf(b->name, sizeof b->name, "cpu");
    *out = b;
    return CZ_OK;
}

static void key_free(cz_be *b, cz_be_key *k)
{
    if (k->dev) b->ops->unload(b->self, k->dev);
    free(k);
}

void cz_be_close(cz_be *b)
{
    if (!b) return;
    while (b->keys) {
        cz_be_key *k = b->keys;
        b->keys = k->next;
        key_free(b, k);
    }
    if (b->ops) b->ops->close(b->self);
    pthread_mutex_destroy(&b->load_mu);
    pthread_mutex_destroy(&b->mu);
    free(b);
}

cz_backend_kind cz_be_kind(const cz_be *b) { return b->kind; }
const char *cz_be_name(const cz_be *b) { return b->name; }

static int same_circuit(const cz_be_circuit *a, const cz_be_circuit *b)
{
    return a->pk == b->pk && a->cs == b->cs && a->zpk == b->zpk && a->dev_pk == b->dev_pk && a->bits == b->bits;
}

static int host_key(const cz_be_circuit *c)
{
    return c->zpk || (c->pk && c->cs && c->pk->h);
}

cz_err cz_be_load(cz_be *b, const cz_be_circuit *c, cz_be_key **out, char *msg, size_t msglen)
{
    *out = NULL;
    int forms = (c->pk || c->cs) + !!c->zpk;
    if (forms != 1 || (!c->zpk && (!c->pk || !c->cs)))
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "backend: a circuit is pk + cs, or zpk");
    if (c->dev_pk && (b->kind != CZ_BACKEND_CUDA || c->zpk))
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "backend: a device-resident key needs the cuda backend");
    if (c->bits) {
        uint64_t nv = c->zpk ? c->zpk->n_vars : c->cs->n_vars;
        if (c->bits->n_vars != nv)
            return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "backend: the bit map covers %llu variables, the circuit has %llu",
                           (unsigned long long)c->bits->n_vars, (unsigned long long)nv);
    }
    if (!c->dev_pk && !host_key(c))
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                       "backend: the proving key has no host copy of its points (made on a device) and no "
                       "device key was given");
    pthread_mutex_lock(&b->load_mu);
    pthread_mutex_lock(&b->mu);
    for (cz_be_key *k = b->keys; k; k = k->next)
        if (same_circuit(&k->c, c)) {
            k->refs++;
            pthread_mutex_unlock(&b->mu);
            pthread_mutex_unlock(&b->load_mu);
            *out = k;
            return CZ_OK;
        }
    pthread_mutex_unlock(&b->mu);
    cz_err e = CZ_OK;
    cz_be_key *k = calloc(1, sizeof *k);
    if (!k) {
        e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
        goto out;
    }
    k->c = *c;
    k->refs = 1;
    if (b->ops) {
        char m[512];
        e = b->ops->load(b->self, c, &k->dev, &k->dev_bytes, m, sizeof m);
        if (e == CZ_ERR_NOMEM && host_key(c)) {
            if (!b->o.quiet)
                fprintf(stderr, "cuzk: warning: %s: the circuit does not fit in device memory (%s); its "
                                "partitions are proved on the CPU\n", b->name, m);
            k->dev = NULL;
            k->dev_bytes = 0;
            e = CZ_OK;
        } else if (e) {
            cz_fail(e, msg, msglen, "%s", m);
            free(k);
            goto out;
        }
        k->resident = k->dev && b->ops->key_resident && b->ops->key_resident(b->self, k->dev);
    }
    pthread_mutex_lock(&b->mu);
    k->next = b->keys;
    b->keys = k;
    pthread_mutex_unlock(&b->mu);
    *out = k;
out:
    pthread_mutex_unlock(&b->load_mu);
    return e;
}

void cz_be_release(cz_be *b, cz_be_key *k)
{
    if (!k) return;
    pthread_mutex_lock(&b->load_mu);
    pthread_mutex_lock(&b->mu);
    int last = --k->refs == 0;
    if (last)
        for (cz_be_key **p = &b->keys; *p; p = &(*p)->next)
            if (*p == k) {
                *p = k->next;
                break;
            }
    pthread_mutex_unlock(&b->mu);
    if (last) key_free(b, k);
    pthread_mutex_unlock(&b->load_mu);
}

cz_err cz_be_setup_insecure(cz_be *b, cz_groth16_pk *pk, void **dev_pk, uint64_t *dev_bytes, const cz_r1cs *cs,
                            uint64_t seed, cz_pool *pool, char *msg, size_t msglen)
{
    memset(pk, 0, sizeof *pk);
    *dev_pk = NULL;
    if (dev_bytes) *dev_bytes = 0;
    if (!b->ops || !b->ops->setup_insecure)
        return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "backend %s: the setup on the device needs the cuda backend",
                       b->name);
    size_t n[5] = {0};
    cz_err e = b->ops->setup_insecure(b->o.device, &pk->vk, dev_pk, n, cs, seed, pool, msg, msglen);
    if (e) {
        memset(pk, 0, sizeof *pk);
        *dev_pk = NULL;
        return e;
    }
    pk->n_h = n[0];
    pk->n_l = n[1];
    pk->n_a = n[2];
    pk->n_b_g1 = n[3];
    pk->n_b_g2 = n[4];
    if (dev_bytes) *dev_bytes = (uint64_t)(n[0] + n[1] + n[2] + n[3]) * sizeof(cz_g1_aff) + n[4] * sizeof(cz_g2_aff);
    return CZ_OK;
}

void cz_be_dev_pk_free(cz_be *b, void *dev_pk)
{
    if (dev_pk && b->ops && b->ops->dev_pk_free) b->ops->dev_pk_free(dev_pk);
}

cz_err cz_be_dev_pk_clone(cz_be *b, const void *src, void **dev_pk, char *msg, size_t msglen)
{
    *dev_pk = NULL;
    if (!b->ops || !b->ops->dev_pk_clone)
        return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "backend %s: a device key can be copied only to a CUDA device",
                       b->name);
    if (!src) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "backend %s: no device key to copy", b->name);
    return b->ops->dev_pk_clone(b->o.device, src, dev_pk, msg, msglen);
}

uint64_t cz_be_key_device_bytes(const cz_be_key *k) { return k->dev_bytes; }
int cz_be_key_resident(const cz_be_key *k) { return k->resident; }

cz_err cz_be_worker_create(cz_be *b, cz_be_worker **out, char *msg, size_t msglen)
{
    *out = NULL;
    cz_be_worker *w = calloc(1, sizeof *w);
    if (!w) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    w->b = b;
    cz_err e = CZ_OK;
    if (b->ops) e = b->ops->worker_create(b->self, &w->dev, msg, msglen);
    else if ((e = cz_pool_create(&w->pool, b->o.threads))) cz_fail(e, msg, msglen, "cannot start a thread pool");
    if (e) {
        free(w);
        return e;
    }
    *out = w;
    return CZ_OK;
}

void cz_be_worker_destroy(cz_be_worker *w)
{
    if (!w) return;
    if (w->dev) w->b->ops->worker_destroy(w->dev);
    if (w->pool) cz_pool_destroy(w->pool);
    cz_big_free(w->buf);
    cz_big_free(w->full);
    free(w);
}

void cz_be_worker_set_progress(cz_be_worker *w, cz_progress_fn fn, void *ctx)
{
    w->progress = fn;
    w->progress_ctx = ctx;
}

cz_fr *cz_be_worker_buffer(cz_be_worker *w, size_t n)
{
    if (w->dev) return w->b->ops->worker_buffer(w->dev, n);
    if (n > w->buf_n || !w->buf) {
        cz_big_free(w->buf);
        w->buf_n = 0;
        if (!(w->buf = cz_big_array(n ? n : 1, sizeof(cz_fr)))) return NULL;
        w->buf_n = n;
    }
    return w->buf;
}

static cz_err prove_cpu(cz_be_worker *w, const cz_be_circuit *c, const cz_fr *wit, const cz_fr *r,
                        const cz_fr *s, cz_groth16_proof *out, cz_groth16_timings *t, char *msg, size_t msglen)
{
    if (!host_key(c)) /* made on the device (cz_be_setup_insecure): nothing to prove from here */
        return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen,
                       "%s: no CPU fallback for this circuit: its key was made on the GPU and has no host copy",
                       w->b->name);
    if (!w->pool) {
        cz_err e = cz_pool_create(&w->pool, w->b->o.threads);
        if (e) return cz_fail(e, msg, msglen, "cannot start a thread pool");
    }
    const cz_backend_opts *o = &w->b->o;
    if (o->host_stage) o->host_stage(o->host_stage_ctx, 1);
    cz_err e = c->zpk ? cz_groth16_prove_zkey_progress(out, c->zpk, wit, r, s, w->pool, t, w->progress,
                                                       w->progress_ctx, msg, msglen)
                      : cz_groth16_prove_progress(out, c->pk, c->cs, wit, r, s, w->pool, t, w->progress,
                                                  w->progress_ctx, msg, msglen);
    if (o->host_stage) o->host_stage(o->host_stage_ctx, 0);
    return e;
}

/* a proof made (on the CPU when fell_back) */
static void count_proof(cz_be *b, int fell_back)
{
    pthread_mutex_lock(&b->mu);
    b->proofs++;
    b->fallbacks += (uint64_t)fell_back;
    pthread_mutex_unlock(&b->mu);
}

cz_err cz_be_prove(cz_be_worker *w, cz_be_key *k, const cz_fr *wit, const cz_fr *r, const cz_fr *s,
                   cz_groth16_proof *out, cz_groth16_timings *t, char *msg, size_t msglen)
{
    cz_be *b = w->b;
    cz_groth16_timings tm = {0};
    cz_err e;
    int fell_back = 0;
    if (k->dev) {
        char m[512];
        e = b->ops->prove(w->dev, k->dev, wit, r, s, out, &tm, m, sizeof m);
        if ((e == CZ_ERR_NOMEM || e == CZ_ERR_DEVICE) && host_key(&k->c)) {
            if (!b->o.quiet)
                fprintf(stderr, "cuzk: warning: %s: %s; proving this partition on the CPU\n", b->name, m);
            memset(&tm, 0, sizeof tm);
            e = prove_cpu(w, &k->c, wit, r, s, out, &tm, msg, msglen);
            tm.on_cpu = 1;
            fell_back = 1;
        } else if (e == CZ_ERR_NOMEM || e == CZ_ERR_DEVICE) { /* no host key to fall back to */
            cz_fail(e, msg, msglen, "%s; no CPU fallback for this circuit: its key was made on the GPU and has no "
                                    "host copy", m);
        } else if (e) {
            cz_fail(e, msg, msglen, "%s", m);
        }
    } else {
        e = prove_cpu(w, &k->c, wit, r, s, out, &tm, msg, msglen);
        tm.on_cpu = b->ops != NULL;
        fell_back = b->ops != NULL;
    }
    if (!e) count_proof(b, fell_back);
    if (t) *t = tm;
    return e;
}

/* the full witness of compact c in the worker's host scratch; NULL when
 * out of memory */
static const cz_fr *expand_host(cz_be_worker *w, const cz_wbits_map *m, const cz_fr *c)
{
    if (m->n_vars > w->full_n || !w->full) {
        cz_big_free(w->full);
        w->full_n = 0;
        if (!(w->full = cz_big_array(m->n_vars ? m->n_vars : 1, sizeof(cz_fr)))) return NULL;
        w->full_n = m->n_vars;
    }
    cz_wbits_unpack(w->full, m, c);
    return w->full;
}

cz_err cz_be_prove_bits(cz_be_worker *w, cz_be_key *k, const cz_fr *compact, const cz_fr *r, const cz_fr *s,
                        cz_groth16_proof *out, cz_groth16_timings *t, char *msg, size_t msglen)
{
    cz_be *b = w->b;
    const cz_wbits_map *m = k->c.bits;
    if (!m) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "backend: a compact witness needs a circuit with a bit map");
    if (!k->dev || !b->ops->prove_bits) {
        /* the CPU (or a device backend without the expansion) proves the
         * full witness */
        const cz_fr *full = expand_host(w, m, compact);
        if (!full) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory expanding the compact witness");
        return cz_be_prove(w, k, full, r, s, out, t, msg, msglen);
    }
    cz_groth16_timings tm = {0};
    char dm[512];
    int fell_back = 0;
    cz_err e = b->ops->prove_bits(w->dev, k->dev, compact, r, s, out, &tm, dm, sizeof dm);
    if ((e == CZ_ERR_NOMEM || e == CZ_ERR_DEVICE) && host_key(&k->c)) {
        if (!b->o.quiet) fprintf(stderr, "cuzk: warning: %s: %s; proving this partition on the CPU\n", b->name, dm);
        memset(&tm, 0, sizeof tm);
        const cz_fr *full = expand_host(w, m, compact);
        e = full ? prove_cpu(w, &k->c, full, r, s, out, &tm, msg, msglen)
                 : cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory expanding the compact witness");
        tm.on_cpu = 1;
        fell_back = 1;
    } else if (e) {
        cz_fail(e, msg, msglen, "%s", dm);
    }
    if (!e) count_proof(b, fell_back);
    if (t) *t = tm;
    return e;
}

void cz_be_get_stats(cz_be *b, cz_be_stats *st)
{
    memset(st, 0, sizeof *st);
    pthread_mutex_lock(&b->mu);
    st->proofs = b->proofs;
    st->cpu_fallbacks = b->fallbacks;
    pthread_mutex_unlock(&b->mu);
    if (b->ops && b->ops->vram) b->ops->vram(b->self, &st->vram_budget, &st->vram_used, &st->vram_peak);
}
