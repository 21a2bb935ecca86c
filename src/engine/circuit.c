/* circuit.c — circuit ids, the key cache, and the per-partition circuit
 * operations the engine's workers call (contract in circuit.h).
 *
 * The cache is a singly linked list under one mutex: it holds a handful of
 * circuits, so a walk is cheaper than anything cleverer. Loading happens
 * outside the lock: the loader sets `loading`, drops the lock, reads the
 * files (or builds the synthetic keys), then publishes under the lock and
 * broadcasts the condition variable. A load ends by loading the keys into
 * the backend (cz_be_load); an unload begins by releasing them there. */
#include "engine/circuit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "circuits/synth.h"
#include "formats/params.h"
#include "formats/witness.h"
#include "formats/wtns.h"
#include "r1cs/pce.h"
#include "util/clock.h"
#include "util/log.h"

void cz__cache_init(cz_circuit_cache *c, const char *dir, cz_be *be)
{
    memset(c, 0, sizeof *c);
    c->be[0] = be;
    c->n_be = be ? 1 : 0;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    snprintf(c->dir, sizeof c->dir, "%s", dir && *dir ? dir : ".");
}

static void unload(cz_circuit_cache *c, cz_circuit *ci)
{
    for (unsigned d = 0; d < c->n_be; d++) {
        if (ci->bk[d]) cz_be_release(c->be[d], ci->bk[d]); /* before the host keys it was made from */
        ci->bk[d] = NULL;
        if (ci->dev_pk[d]) cz_be_dev_pk_free(c->be[d], ci->dev_pk[d]); /* after the last release of its key */
        ci->dev_pk[d] = NULL;
    }
    ci->dev_key_bytes = 0;
    cz_wbits_map_free(&ci->bits);
    memset(&ci->bits, 0, sizeof ci->bits);
    ci->wit_len = 0;
    if (ci->type == CZ_CIRC_PARAMS) cz_pce_close(&ci->cs);
    else if (ci->type == CZ_CIRC_SYNTH) cz_r1cs_free(&ci->cs);
    cz_groth16_pk_free(&ci->pk);
    if (ci->type == CZ_CIRC_ZKEY) cz_zkey_close(&ci->zk);
    cz_groth16_pvk_free(&ci->pvk);
    memset(&ci->cs, 0, sizeof ci->cs);
    memset(&ci->pk, 0, sizeof ci->pk);
    memset(&ci->zk, 0, sizeof ci->zk);
    memset(&ci->pvk, 0, sizeof ci->pvk);
    ci->size_bytes = 0; /* the claimer's (loading set); loaded is cleared by the caller, under the lock */
}

/* unloads ci, claimed by the caller (loading set), and wakes the waiters */
static void unload_claimed(cz_circuit_cache *c, cz_circuit *ci)
{
    unload(c, ci);
    pthread_mutex_lock(&c->mu);
    ci->loaded = 0;
    ci->acct_bytes = 0;
    ci->loading = 0;
    ci->evict_pending = 0;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

void cz__cache_destroy(cz_circuit_cache *c)
{
    cz_circuit *ci = c->head;
    while (ci) {
        cz_circuit *n = ci->next;
        if (ci->loaded) unload(c, ci); /* no other thread is left */
        free(ci);
        ci = n;
    }
    pthread_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->cv);
}

cz_err cz__circuit_check_id(const char *id, cz_circuit_type *type, int *log2, int *partitions, char *msg,
                            size_t msglen)
{
    size_t n = id ? strlen(id) : 0;
    if (!n) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "circuit_id: empty (GROTH16_GENERIC needs one)");
    if (n > 100) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "circuit_id: longer than 100 bytes");
    if (id[0] == '.' || strchr(id, '/') || strstr(id, ".."))
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "circuit_id: not a plain name (no '/', '..' or leading '.')");
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)id[i] < 0x20 || id[i] == 0x7f || id[i] == '\\')
            return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "circuit_id: control character or backslash");
    *partitions = 0;
    *log2 = 0;
    *type = CZ_CIRC_PARAMS;
    if (!strncmp(id, "synth-", 6)) {
        char *end;
        errno = 0;
        long l = strtol(id + 6, &end, 10);
        long p = (*end == '-') ? strtol(end + 1, &end, 10) : -1;
        if (errno || *end || l < CZ_SYNTH_MIN_LOG2 || l > CZ_SYNTH_MAX_LOG2 || p < 1 || p > CZ_SYNTH_MAX_PARTITIONS)
            return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                           "circuit_id: a synthetic id is synth-<log2 %d..%d>-<partitions 1..%d>", CZ_SYNTH_MIN_LOG2,
                           CZ_SYNTH_MAX_LOG2, CZ_SYNTH_MAX_PARTITIONS);
        *type = CZ_CIRC_SYNTH;
        *log2 = (int)l;
        *partitions = (int)p;
    }
    return CZ_OK;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

cz_err cz__cache_acquire(cz_circuit_cache *c, const char *id, cz_circuit **out, char *msg, size_t msglen)
{
    cz_circuit_type type;
    int log2, parts;
    cz_err e = cz__circuit_check_id(id, &type, &log2, &parts, msg, msglen);
    if (e) return e;
    char key[CZ_CIRCUIT_ID_MAX];
    if (type == CZ_CIRC_SYNTH) {
        snprintf(key, sizeof key, "synth-%d", log2);
    } else {
        char p1[4200], p2[4200];
        snprintf(key, sizeof key, "%s", id);
        snprintf(p1, sizeof p1, "%s/%s.params", c->dir, id);
        snprintf(p2, sizeof p2, "%s/%s.pce", c->dir, id);
        if (is_file(p1) && is_file(p2)) {
            type = CZ_CIRC_PARAMS;
        } else {
            snprintf(p1, sizeof p1, "%s/%s.zkey", c->dir, id);
            if (!is_file(p1))
                return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                               "circuit_id: unknown circuit %s (no %s.params + %s.pce or %s.zkey in the parameter cache)",
                               id, id, id, id);
            type = CZ_CIRC_ZKEY;
        }
    }
    pthread_mutex_lock(&c->mu);
    cz_circuit *ci;
    for (ci = c->head; ci; ci = ci->next)
        if (!strcmp(ci->key, key)) break;
    if (!ci) {
        ci = calloc(1, sizeof *ci);
        if (!ci) {
            pthread_mutex_unlock(&c->mu);
            return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
        }
        snprintf(ci->key, sizeof ci->key, "%s", key);
        ci->log2 = log2;
        ci->next = c->head;
        c->head = ci;
    }
    if (!ci->loaded && !ci->loading) ci->type = type; /* the files may have changed since */
    ci->refs++;
    pthread_mutex_unlock(&c->mu);
    *out = ci;
    return CZ_OK;
}

void cz__cache_release(cz_circuit_cache *c, cz_circuit *ci)
{
    int drop = 0;
    pthread_mutex_lock(&c->mu);
    ci->refs--;
    ci->last_used_ms = (uint64_t)cz_now_ms();
    if (!ci->refs && ci->evict_pending && ci->loaded && !ci->loading) {
        ci->loading = 1; /* keeps loaders out while we free */
        ci->on_device = 0;
        drop = 1;
    }
    pthread_mutex_unlock(&c->mu);
    if (drop) {
        unload_claimed(c, ci);
    }
}

/* 1 when a synthetic circuit's key is made on the GPU */
static int synth_on_device(const cz_circuit_cache *c)
{
    return c->n_be && cz_be_kind(c->be[0]) == CZ_BACKEND_CUDA && !c->synth_cpu_setup;
}

static cz_err load_files(cz_circuit_cache *c, cz_circuit *ci, cz_pool *pool, char *msg, size_t msglen)
{
    const char *dir = c->dir;
    char path[sizeof ((cz_circuit_cache *)0)->dir + CZ_CIRCUIT_ID_MAX + 16];
    cz_err e;
    if (ci->type == CZ_CIRC_ZKEY) {
        snprintf(path, sizeof path, "%s/%s.zkey", dir, ci->key);
        if ((e = cz_zkey_open(&ci->zk, path, pool, msg, msglen))) return e;
        if ((e = cz_groth16_prepare_vk(&ci->pvk, &ci->zk.pk.vk)))
            return cz_fail(e, msg, msglen, "cannot prepare the verifying key of %s", ci->key);
        ci->n_vars = ci->zk.pk.n_vars;
        ci->n_inputs = ci->zk.pk.n_public + 1;
        ci->wit_len = ci->n_vars;
        ci->size_bytes = ci->zk.map_len;
        return CZ_OK;
    }
    if (ci->type == CZ_CIRC_SYNTH) {
        cz_synth_params sp;
        cz_fr *w = NULL;
        cz__circuit_synth_params(ci->log2, 0, &sp);
        sp.witness_seed = 0;
        if ((e = cz_synth_generate(&ci->cs, &w, &sp, msg, msglen))) return e;
        free(w);
        if (!c->synth_full_witness) {
            /* the variables the generator makes as bits: its partitions'
             * witnesses are then compact */
            uint64_t *mask = calloc((ci->cs.n_vars + 63) / 64 ? (ci->cs.n_vars + 63) / 64 : 1, sizeof *mask);
            if (!mask) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory for the bit map of %s", ci->key);
            e = cz_synth_bit_mask(mask, ci->cs.n_vars, &sp, msg, msglen);
            if (!e) e = cz_wbits_map_init(&ci->bits, mask, ci->cs.n_vars, ci->cs.n_inputs, msg, msglen);
            free(mask);
            if (e) return e;
        }
        if (synth_on_device(c)) {
            /* the key made on the first device, then copied device to
             * device to the others (the same bits a setup there would make,
             * without the setup's host scalars or time again) */
            double t0 = cz_now_ms();
            if ((e = cz_be_setup_insecure(c->be[0], &ci->pk, &ci->dev_pk[0], &ci->dev_key_bytes, &ci->cs, 1, pool,
                                          msg, msglen)))
                return e;
            cz_log(CZ_LOG_INFO, (const char *const[]){"circuit_id", ci->key, NULL},
                   "%s: key made on %s by the insecure setup in %.1f s (%.2f GiB of points in device memory); it "
                   "has no host copy, so this circuit has no CPU fallback ([gpus] synth_cpu_setup = true makes it "
                   "on the CPU)",
                   ci->key, cz_be_name(c->be[0]), (cz_now_ms() - t0) / 1000, ci->dev_key_bytes / 1073741824.0);
            for (unsigned d = 1; d < c->n_be; d++) {
                t0 = cz_now_ms();
                char m[512];
                if ((e = cz_be_dev_pk_clone(c->be[d], ci->dev_pk[0], &ci->dev_pk[d], m, sizeof m)))
                    return cz_fail(e, msg, msglen, "%s: copying the key to %s: %s", ci->key, cz_be_name(c->be[d]), m);
                cz_log(CZ_LOG_INFO, (const char *const[]){"circuit_id", ci->key, NULL},
                       "%s: key copied to %s in %.1f s", ci->key, cz_be_name(c->be[d]), (cz_now_ms() - t0) / 1000);
            }
        } else if ((e = cz_groth16_setup_insecure(&ci->pk, &ci->cs, 1, pool, msg, msglen))) {
            return e;
        }
    } else {
        snprintf(path, sizeof path, "%s/%s.pce", dir, ci->key);
        if ((e = cz_pce_open(&ci->cs, path, 1, msg, msglen))) return e;
        snprintf(path, sizeof path, "%s/%s.params", dir, ci->key);
        if ((e = cz_params_read(&ci->pk, path, 0, pool, msg, msglen))) return e;
    }
    ci->n_vars = ci->cs.n_vars;
    ci->n_inputs = ci->cs.n_inputs;
    ci->wit_len = ci->bits.mask ? cz_wbits_len(&ci->bits) : ci->n_vars;
    /* host bytes: a key made on the device has none of its points here */
    ci->size_bytes = ci->dev_pk[0] ? 0
                                : (ci->pk.n_h + ci->pk.n_l + ci->pk.n_a + ci->pk.n_b_g1) * sizeof(cz_g1_aff) +
                                      ci->pk.n_b_g2 * sizeof(cz_g2_aff);
    for (int m = 0; m < 3; m++)
        ci->size_bytes += (ci->cs.m[m].n_rows + 1) * 8 + ci->cs.m[m].nnz * (4 + ci->cs.m[m].cidx_bytes);
    if (ci->bits.mask) ci->size_bytes += (2 * ci->bits.words + 1) * 8; /* the bit map's mask and ranks */
    snprintf(path, sizeof path, "%s/%s.vk", dir, ci->key);
    if (ci->type == CZ_CIRC_PARAMS && is_file(path)) {
        cz_groth16_vk vk;
        if ((e = cz_vk_read(&vk, path, NULL, msg, msglen))) return e;
        e = cz_groth16_prepare_vk(&ci->pvk, &vk);
        cz_groth16_vk_free(&vk);
    } else {
        e = cz_groth16_prepare_vk(&ci->pvk, &ci->pk.vk);
    }
    if (e) return cz_fail(e, msg, msglen, "cannot prepare the verifying key of %s", ci->key);
    if (ci->pvk.vk.n_ic != ci->n_inputs)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "%s: the verifying key has %zu inputs, the circuit %llu",
                       ci->key, ci->pvk.vk.n_ic, (unsigned long long)ci->n_inputs);
    return CZ_OK;
}

/* ci->ws from the loaded circuit (the formulas of membudget.h) */
static void working_set(cz_circuit *ci)
{
    int log_m = ci->type == CZ_CIRC_ZKEY ? ci->zk.pk.log_domain : cz_groth16_domain_log(&ci->cs);
    ci->ws.witness = ci->wit_len * sizeof(cz_fr);
    ci->ws.synth = 0; /* every witness is written straight into W */
    ci->ws.prove = ci->bk[0] && cz_be_key_device_bytes(ci->bk[0])
                       ? 0
                       : 3 * ((uint64_t)1 << log_m) * sizeof(cz_fr) + 2 * ((ci->n_vars + 63) / 64) * 8 +
                             (ci->bits.mask ? ci->n_vars * sizeof(cz_fr) : 0); /* the compact witness expanded */
}

/* one slot's load into its backend (load_all runs one per thread) */
typedef struct {
    cz_be *be;
    cz_be_circuit bc;
    cz_be_key **out;
    cz_err e;
    char m[512];
    pthread_t th;
    int on_thread; /* th was started (else the load ran on the caller's thread) */
} slot_load;

static void *slot_load_main(void *arg)
{
    slot_load *l = arg;
    l->e = cz_be_load(l->be, &l->bc, l->out, l->m, sizeof l->m);
    return NULL;
}

/* ci's host keys into every backend: bk[d] in be[d], the slots side by
 * side on threads of their own when there are several (each device's
 * upload on its own link; a backend serialises its own loads) */
static cz_err load_all(cz_circuit_cache *c, cz_circuit *ci, char *msg, size_t msglen)
{
    unsigned n = c->n_be;
    slot_load *l = calloc(n ? n : 1, sizeof *l);
    cz_err e = CZ_OK;
    if (!l) {
        e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory loading %s", ci->key);
        goto out;
    }
    for (unsigned d = 0; d < n; d++) {
        l[d].be = c->be[d];
        l[d].out = &ci->bk[d];
        if (ci->type == CZ_CIRC_ZKEY) {
            l[d].bc.zpk = &ci->zk.pk;
        } else {
            l[d].bc.pk = &ci->pk;
            l[d].bc.cs = &ci->cs;
            l[d].bc.dev_pk = ci->dev_pk[d]; /* NULL unless made on the device */
        }
        l[d].bc.bits = ci->bits.mask ? &ci->bits : NULL;
    }
    for (unsigned d = 0; d < n; d++) {
        l[d].on_thread = n > 1 && d + 1 < n && !pthread_create(&l[d].th, NULL, slot_load_main, &l[d]);
        if (!l[d].on_thread) slot_load_main(&l[d]); /* the last slot (or one that got no thread) on this thread */
    }
    for (unsigned d = 0; d < n; d++)
        if (l[d].on_thread) pthread_join(l[d].th, NULL);
    for (unsigned d = 0; d < n && !e; d++) {
        if (!l[d].e) continue;
        e = l[d].e;
        if (n > 1) cz_fail(e, msg, msglen, "%s: loading the keys into %s: %s", ci->key, cz_be_name(c->be[d]), l[d].m);
        else cz_fail(e, msg, msglen, "%s: loading the keys into the backend: %s", ci->key, l[d].m);
    }
out:
    free(l);
    return e;
}

cz_err cz__cache_load(cz_circuit_cache *c, cz_circuit *ci, cz_pool *pool, uint64_t *load_ms, int *already, char *msg,
                      size_t msglen)
{
    double t0 = cz_now_ms();
    if (already) *already = 0;
    pthread_mutex_lock(&c->mu);
    while (ci->loading) pthread_cond_wait(&c->cv, &c->mu);
    if (ci->loaded) {
        pthread_mutex_unlock(&c->mu);
        if (already) *already = 1;
        if (load_ms) *load_ms = 0;
        return CZ_OK;
    }
    ci->loading = 1;
    pthread_mutex_unlock(&c->mu);
    cz_err e = load_files(c, ci, pool, msg, msglen);
    int on_device = 0;
    if (!e) e = load_all(c, ci, msg, msglen);
    if (e) {
        unload(c, ci);
    } else {
        working_set(ci);
        /* HOT only when every device holds it */
        on_device = 1;
        for (unsigned d = 0; d < c->n_be; d++) on_device &= ci->bk[d] && cz_be_key_resident(ci->bk[d]);
    }
    pthread_mutex_lock(&c->mu);
    ci->loading = 0;
    ci->loaded = e == CZ_OK;
    ci->on_device = on_device;
    ci->acct_bytes = e ? 0 : ci->size_bytes;
    ci->last_used_ms = (uint64_t)cz_now_ms();
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
    if (load_ms) *load_ms = (uint64_t)(cz_now_ms() - t0);
    return e;
}

cz_err cz__cache_evict(cz_circuit_cache *c, const char *id, int *was_loaded, uint64_t *freed, char *msg,
                       size_t msglen)
{
    cz_circuit_type type;
    int log2, parts;
    cz_err e = cz__circuit_check_id(id, &type, &log2, &parts, msg, msglen);
    if (e) return e;
    char key[CZ_CIRCUIT_ID_MAX];
    if (type == CZ_CIRC_SYNTH) snprintf(key, sizeof key, "synth-%d", log2);
    else snprintf(key, sizeof key, "%s", id);
    *was_loaded = 0;
    *freed = 0;
    pthread_mutex_lock(&c->mu);
    cz_circuit *ci;
    for (ci = c->head; ci; ci = ci->next)
        if (!strcmp(ci->key, key)) break;
    while (ci && ci->loading) pthread_cond_wait(&c->cv, &c->mu);
    if (!ci || !ci->loaded) {
        pthread_mutex_unlock(&c->mu);
        return CZ_OK;
    }
    *was_loaded = 1;
    if (ci->refs) { /* in use: freed when the last job lets go */
        ci->evict_pending = 1;
        pthread_mutex_unlock(&c->mu);
        return CZ_OK;
    }
    ci->loading = 1;
    ci->on_device = 0;
    uint64_t sz = ci->size_bytes;
    pthread_mutex_unlock(&c->mu);
    unload(c, ci);
    pthread_mutex_lock(&c->mu);
    ci->loaded = 0;
    ci->acct_bytes = 0;
    ci->loading = 0;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
    *freed = sz;
    return CZ_OK;
}

int cz__cache_ready(cz_circuit_cache *c, cz_circuit *ci)
{
    pthread_mutex_lock(&c->mu);
    int r = ci->loaded && !ci->loading;
    pthread_mutex_unlock(&c->mu);
    return r;
}

uint64_t cz__cache_accounted(cz_circuit_cache *c)
{
    uint64_t n = 0;
    pthread_mutex_lock(&c->mu);
    for (cz_circuit *ci = c->head; ci; ci = ci->next) n += ci->acct_bytes;
    pthread_mutex_unlock(&c->mu);
    return n;
}

cz_circuit *cz__cache_claim_idle(cz_circuit_cache *c, uint64_t min_idle_ms, const cz_circuit *exclude)
{
    uint64_t now = (uint64_t)cz_now_ms();
    cz_circuit *best = NULL;
    pthread_mutex_lock(&c->mu);
    for (cz_circuit *ci = c->head; ci; ci = ci->next) {
        if (ci == exclude || !ci->loaded || ci->loading || ci->active || ci->key_reserved) continue;
        if (now < ci->last_used_ms + min_idle_ms) continue;
        if (!best || ci->last_used_ms < best->last_used_ms) best = ci; /* the longest idle first */
    }
    if (best) {
        best->loading = 1;
        best->on_device = 0;
    }
    pthread_mutex_unlock(&c->mu);
    return best;
}

uint64_t cz__cache_unload_claimed(cz_circuit_cache *c, cz_circuit *ci)
{
    uint64_t sz = ci->size_bytes;
    unload_claimed(c, ci);
    return sz;
}

static uint64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

uint64_t cz__circuit_key_estimate(cz_circuit_cache *c, const cz_circuit *ci)
{
    char p[sizeof c->dir + CZ_CIRCUIT_ID_MAX + 16];
    if (ci->type == CZ_CIRC_SYNTH)
        return ((uint64_t)1 << ci->log2) *
               (synth_on_device(c) ? CZ_SYNTH_DEVKEY_BYTES_PER_ROW : CZ_SYNTH_KEY_BYTES_PER_ROW);
    if (ci->type == CZ_CIRC_ZKEY) {
        snprintf(p, sizeof p, "%s/%s.zkey", c->dir, ci->key);
        return file_size(p);
    }
    snprintf(p, sizeof p, "%s/%s.params", c->dir, ci->key);
    uint64_t n = file_size(p);
    snprintf(p, sizeof p, "%s/%s.pce", c->dir, ci->key);
    return n + file_size(p);
}

size_t cz__cache_snapshot(cz_circuit_cache *c, cz_srs_status **out)
{
    pthread_mutex_lock(&c->mu);
    size_t n = 0;
    for (cz_circuit *ci = c->head; ci; ci = ci->next) n++;
    *out = calloc(n ? n : 1, sizeof **out);
    size_t k = 0;
    for (cz_circuit *ci = c->head; ci && *out; ci = ci->next, k++) {
        snprintf((*out)[k].circuit_id, sizeof (*out)[k].circuit_id, "%s", ci->key);
        (*out)[k].loaded = ci->loaded;
        /* an entry being unloaded (loading set) is not on the device any more */
        (*out)[k].tier = !ci->loaded ? CZ_TIER_COLD : ci->on_device && !ci->loading ? CZ_TIER_HOT : CZ_TIER_WARM;
        /* acct_bytes, not size_bytes: a loader or unloader (loading set)
         * writes size_bytes without the lock; acct_bytes is size_bytes
         * while loaded, written under it */
        (*out)[k].size_bytes = ci->acct_bytes;
        (*out)[k].ref_count = ci->refs;
        (*out)[k].partition_bytes = ci->loaded ? cz_mem_ws_total(&ci->ws) : 0;
    }
    pthread_mutex_unlock(&c->mu);
    return *out ? n : 0;
}

cz_err cz__payload_check(const uint8_t *p, size_t len, const char *field, char *msg, size_t msglen)
{
    if (!len) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "%s: empty (the witness: .wtns or witness.bin)", field);
    if (len >= 4 && !memcmp(p, "wtns", 4)) return CZ_OK;
    if (len >= 8 && !memcmp(p, "CUZKWIT", 8)) {
        if (len < 40) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "%s: witness.bin shorter than its header", field);
        uint64_t n = 0;
        for (int i = 7; i >= 0; i--) n = n << 8 | p[16 + i];
        if (n > (len - 40) / 32 || cz_witness_file_size(n) != len)
            return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "%s: witness.bin of %zu bytes does not hold its %llu values",
                           field, len, (unsigned long long)n);
        return CZ_OK;
    }
    return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "%s: neither a .wtns nor a witness.bin (bad magic)", field);
}

static void synth_progress(void *ctx, const char *stage, uint64_t done, uint64_t total)
{
    const cz_synth_hooks *h = ctx;
    (void)stage, (void)done, (void)total;
    h->yield(h->ctx);
}

void cz__circuit_synth_params(int log2, uint32_t partition, cz_synth_params *sp)
{
    cz_synth_params_init(sp);
    sp->n_constraints = ((uint64_t)1 << log2) - (CZ_SYNTH_PUBLIC + 1);
    sp->n_public = CZ_SYNTH_PUBLIC;
    sp->witness_seed = 1 + (uint64_t)partition;
}

/* the synthetic witness of partition `partition` (circuit.h) */
static cz_err synth_witness(const cz_circuit *ci, uint32_t partition, cz_fr **w, const cz_synth_hooks *hooks,
                            char *msg, size_t msglen)
{
    /* the generator's structure follows its seed (the keys are made for
     * seed 1), its values witness_seed: each partition proves another
     * witness of the same system; the request's payload does not change it */
    cz_synth_params sp;
    cz_err e;
    cz__circuit_synth_params(ci->log2, partition, &sp);
    if (hooks && hooks->yield) {
        sp.progress = synth_progress;
        sp.progress_ctx = (void *)hooks;
    }
    cz_fr *b = cz_synth_witness_alloc(ci->wit_len);
    if (!b)
        return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory for a witness of %llu values",
                       (unsigned long long)ci->wit_len);
    if (ci->bits.mask) {
        const cz_wbits_map *m = &ci->bits;
        uint64_t words = (m->n_bits + 63) / 64;
        uint64_t *bits = cz_wbits_bits(m, b);
        /* the padding words up to a whole Fr are not the generator's */
        memset(bits + words, 0, (ci->wit_len - m->n_fields) * sizeof(cz_fr) - words * sizeof(uint64_t));
        e = cz_synth_witness_compact(b, m->n_fields, bits, m->n_bits, &sp, msg, msglen);
    } else {
        e = cz_synth_witness(b, ci->n_vars, &sp, msg, msglen);
    }
    if (e) {
        free(b);
        return e;
    }
    *w = b;
    return CZ_OK;
}

cz_err cz__circuit_witness(const cz_circuit *ci, uint32_t partition, const uint8_t *payload, size_t len, cz_fr **w,
                           cz_pool *pool, const cz_synth_hooks *hooks, char *msg, size_t msglen)
{
    cz_err e;
    uint64_t n = 0, n_in = 0, bad = 0;
    *w = NULL;
    if (ci->type == CZ_CIRC_SYNTH) return synth_witness(ci, partition, w, hooks, msg, msglen);
    if (len >= 4 && !memcmp(payload, "wtns", 4)) {
        if ((e = cz_wtns_parse(w, &n, payload, len, msg, msglen))) return e;
        n_in = ci->n_inputs;
    } else if ((e = cz_witness_parse(w, &n, &n_in, payload, len, msg, msglen))) {
        return e;
    }
    if (n != ci->n_vars || n_in != ci->n_inputs) {
        free(*w);
        *w = NULL;
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                       "the witness has %llu variables (%llu inputs), circuit %s has %llu (%llu inputs)",
                       (unsigned long long)n, (unsigned long long)n_in, ci->key, (unsigned long long)ci->n_vars,
                       (unsigned long long)ci->n_inputs);
    }
    if (ci->type == CZ_CIRC_PARAMS && !cz_r1cs_is_satisfied(&ci->cs, *w, &bad, pool)) {
        free(*w);
        *w = NULL;
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "the witness does not satisfy constraint %llu of %s",
                       (unsigned long long)bad, ci->key);
    }
    return CZ_OK;
}

cz_err cz__circuit_prove(const cz_circuit *ci, unsigned dev, cz_be_worker *bw, const cz_fr *w,
                         cz_groth16_proof *out, cz_groth16_timings *t, char *msg, size_t msglen)
{
    cz_fr r, s;
    cz_err e;
    if ((e = cz_groth16_random_fr(&r)) || (e = cz_groth16_random_fr(&s)))
        return cz_fail(e, msg, msglen, "no randomness from the kernel");
    if (dev >= CZ_ENGINE_MAX_DEVICES || !ci->bk[dev])
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "%s: no key loaded on device %u", ci->key, dev);
    if (ci->bits.mask) return cz_be_prove_bits(bw, ci->bk[dev], w, &r, &s, out, t, msg, msglen);
    return cz_be_prove(bw, ci->bk[dev], w, &r, &s, out, t, msg, msglen);
}

int cz__circuit_verify(const cz_circuit *ci, const cz_groth16_proof *p, const cz_fr *w)
{
    /* ONE and the inputs are never bits (cz_wbits_map_init refuses it), so
     * they are w[0..n_inputs-1] in the compact form as in the full one */
    return cz_groth16_verify(&ci->pvk, p, w + 1, ci->n_inputs - 1);
}
