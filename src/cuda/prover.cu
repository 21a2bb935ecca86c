/* prover.cu — the whole Groth16 partition proof on one CUDA device: the
 * device half of the CUDA backend (backend_cuda.cu fills backend_ops.h with
 * these functions). Both provers of src/groth16 are done here, stage for
 * stage, so the proofs are bit-identical to the CPU's for the same r, s:
 *
 *   bellperson (pk + cs):  a, b, c = A w, B w, C w  (+ the input rows
 *       a[nc + i] = w_i); H as bellperson (cz_cuda_h_bellperson); MSMs
 *       H (m - 1), L (aux), A (A density), B in G1 and G2 (B density)
 *   snarkjs (zpk):  a, b = A w, B w over the zkey's rows; H as snarkjs
 *       (cz_cuda_h_snarkjs); MSMs H (n), C (private), A, B1, B2 (all)
 * then the five sums go to the host and cz_groth16_assemble makes the proof.
 *
 * DESIGN
 * Objects: one dev_backend per device; dev_key per loaded circuit (its
 * proving key converted once to device layout, its constraint system, the
 * density bitmaps and the NTT domain, resident until unloaded); dev_worker
 * per proving thread.
 * Threads: each worker is driven by its own thread (the engine's proving
 * worker, or a CLI); several workers share a device.
 * Streams: each worker has an upload stream; the device has one compute
 * stream (the MSM context's), used only under the kernel lock, and (the
 * default; not with CZ_PROVER_OVERLAP=0) an H stream, also used only under the lock: the
 * SpMV and H run there beside the witness MSMs (L, A, B1, B2) on the
 * compute stream, whose priority is then the device's greatest, and the
 * H MSM waits for both (docs/GPU_PROVER.md "H beside the witness MSMs").
 * Lock: kernel_mu, one per device, held from the first kernel of a
 * partition to the last MSM sum read back. The staged part of a witness
 * crosses outside it on the worker's upload stream, so the next partition's
 * witness crosses PCIe while the current one is being proved; the compute
 * stream waits for it on an event. kernel_mu is also held while a key's
 * H window copies are made (at load, on the compute stream) or freed
 * (unload, or given back when memory runs short), so the list of keys
 * holding them (hc_keys) changes only under it. Nothing else is locked here (the budget
 * allocator's own mutex is taken and dropped inside each allocation and
 * each read of its figures); what the stage choice reads of the device's
 * buffers outside the lock is published under it in atomics.
 *
 * VRAM lifecycle of one partition:
 *   resident (per key, from load to unload): the five query arrays (or the
 *       zkey's), the CSR matrices, two density bitmaps, the NTT tables, and
 *       the circuit's bit map with its prefix counts when it has one;
 *   1. outside the lock, the stage is chosen from the budget's figures
 *       (choose_stage; no driver call), in three tiers:
 *       FULL: the worker's own witness buffer d_w (n_vars values; kept
 *         between partitions, grown when a larger circuit comes) fits, and
 *         the whole witness is uploaded into it now;
 *       PART: it does not, but the kernel region of this key is in place
 *         and the budget leaves room for K bytes of it: d_w holds the first
 *         K bytes (kept while K still fits), uploaded now;
 *       UNSTAGED: nothing is staged (d_w given back);
 *   2. under the kernel lock (kept, grown, per device): for PART and
 *       UNSTAGED the shared witness buffer d_wshared (n_vars values): the
 *       head is copied into it from d_w device to device and the rest comes
 *       from the host; then a, b, c (3 x domain), the MSM scratch (its
 *       context's two buffers) and, for a streamed key, the chunk buffer;
 *       at the end the sizes held are published for the next stage choice;
 *   a compact witness (bits as bits, src/backend/wbits.h) is staged FULL
 *       or UNSTAGED only (it is small; a PART choice becomes UNSTAGED): it
 *       crosses into the worker's d_wc and is expanded into d_w (FULL,
 *       outside the lock) or d_wshared (UNSTAGED, under it) on the upload
 *       stream (witness_bits.cu), with the key's resident bit map, before
 *       the compute stream's wait on up1;
 *   the H bases' window copies (cz_cuda_msm_g1_copies; not with
 *       CZ_PROVER_H_COPIES=0), per key: made at load (under the lock: the
 *       compute stream makes them) when the budget has room for them and
 *       an estimate of a partition's scratch (partition_bytes), freed with
 *       the key, and given back first when memory runs short: a
 *       partition's NOMEM (it then runs again) or a later key's load;
 *   host side per worker: a pinned witness buffer (cz_be_worker_buffer)
 *       and two pinned staging buffers for witnesses in pageable memory,
 *       allocated once.
 * After a CUDA error the worker's and the device's scratch are freed (the
 * next partition allocates them again) and the error is returned, so
 * backend.c proves that partition on the CPU and the device keeps serving.
 * No device-global call is made per partition: no cudaDeviceSynchronize,
 * no cudaMemGetInfo; streams and events only. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" { /* the C layers below, with C linkage */
#include "groth16/groth16.h"
#include "r1cs/r1cs.h"
#include "util/clock.h"
#include "util/mapguard.h"
}
#include "cuda/cuda_util.cuh"
#include "cuda/cz_cuda_msm.h"
#include "cuda/cz_cuda_ntt.h"
#include "cuda/cz_cuda_prover.h"
#include "cuda/cz_cuda_spmv.h"
#include "cuda/cz_cuda_vram.h"
#include "cuda/cz_cuda_wbits.h"
#include "cuda/prover_impl.h"

#define STAGE_BYTES ((size_t)32 << 20) /* each of the two pinned staging buffers */

/* compute-stage marks; EV_HWAIT (with overlap only): the H MSM may start
 * (H and the MSMs before it are done) */
enum { EV_START, EV_SPMV, EV_NTT, EV_H, EV_L, EV_A, EV_B1, EV_B2, EV_HWAIT, EV_COUNT };

struct dev_backend {
    int device;
    int quiet;
    void (*host_stage)(void *ctx, int on); /* the backend's hook (backend.h), may be NULL */
    void *host_stage_ctx;
    void *d_stage;      /* streamed bases, one chunk (under the kernel lock) */
    size_t stage_cap;
    void *d_wshared;    /* the witness of an unstaged partition (under the lock) */
    size_t wshared_cap;
    pthread_mutex_t kernel_mu;
    cz_cuda_msm *msm;   /* its stream is the compute stream; NULL until used */
    cudaStream_t hst;   /* the H stream: SpMV and H beside the witness MSMs; NULL without
                           (CZ_PROVER_OVERLAP: 0 one stream; 1, the default, the H stream
                           below the MSMs' priority; 2 at the same, the greatest) */
    int msm_prio;       /* the compute stream's priority: 0 (the least), the greatest with hst */
    void *d_abc;        /* 3 x domain Fr */
    size_t abc_cap;
    cudaEvent_t ev[EV_COUNT]; /* compute-stage marks */
    int have_ev;
    /* read by the workers' stage choice outside the lock (atomics, written
     * under it): the bytes d_wshared and d_abc hold, and the scratch
     * generation, which free_scratch bumps */
    uint64_t pub_wshared, pub_abc, gen;
    /* the H bases' window copies (CZ_PROVER_H_COPIES): hc_max the most
     * blocks a table may have (256, or CZ_PROVER_H_COPIES=K, 2..256; 0:
     * never made); and the keys holding a table (a list through hc_next,
     * changed only under kernel_mu) */
    int hc_max;
    struct dev_key *hc_keys;
};

/* one MSM's bases: resident (dev), or streamed from the host key (dev
 * NULL) through the device's staging buffer */
struct base_set {
    const void *dev, *host;
    size_t n;
    int g2;
    void *owned; /* a device copy this key frees */
};

enum { Q_H, Q_L, Q_A, Q_B1, Q_B2 }; /* Q_L: the zkey's C */

struct dev_key {
    int zkey;
    int adopted;             /* pk came from outside (not freed here) */
    cz_cuda_pk_dev pk;       /* bellperson, resident */
    base_set q[5];
    const cz_groth16_vk *vk;
    cz_cuda_spmv *spmv;
    uint64_t *d_da, *d_db;   /* bellperson densities, on the device */
    const uint64_t *h_da, *h_db; /* and on the host (chunk offsets) */
    uint64_t *h_bits;
    cz_cuda_ntt_domain *dom;
    uint64_t n_vars, n_inputs, n_constraints;
    size_t m;                /* domain size */
    uint64_t bytes;
    uint64_t region_gen;     /* the device's gen when a partition of this key last
                                completed (atomic): its kernel region is in place */
    /* the circuit's bit map (compact witnesses), resident; NULL without */
    uint64_t *d_bmask, *d_brank;
    uint64_t b_fields, b_len; /* its field count, a compact witness's Fr */
    /* window copies of the H bases (cz_cuda_msm_g1_copies), made at load
     * when the budget has room, given back first when memory runs short
     * (drop_h_copies) */
    cz_g1_aff *h_copies;
    int hc_c, hc_copies;
    struct dev_key *hc_next;
};

struct dev_worker {
    dev_backend *b;
    cudaStream_t up;
    cudaEvent_t up0, up1;
    cudaEvent_t pt0, pt1; /* a partial stage's head upload (stage_head) */
    void *d_w;            /* the witness (FULL), its head (PART) or nothing */
    size_t w_cap;
    void *d_wc;    /* a compact witness, before expansion into d_w */
    size_t wc_cap;
    cz_fr *pinned;
    size_t pinned_n;
    void *stage[2];
    cudaEvent_t stage_ev[2];
};

/* ------------------------------------------------------------ the device */

/* CZ_PROVER_H_COPIES (v; NULL: unset): 0 or "off": no H table (returns
 * 0); K in 2..256: tables of at most K blocks (returns K); unset, 1 or
 * "on": at most 256, the plan's fewest (returns 256); anything else is the
 * default, with a warning unless quiet */
extern "C" int cz__cuda_prover_h_copies_knob(const char *v, int quiet)
{
    if (!v || !strcmp(v, "on")) return 256;
    if (!strcmp(v, "off")) return 0;
    char *end = NULL;
    long k = strtol(v, &end, 10);
    if (end != v && !*end && k >= 0 && k <= 256) return k == 1 ? 256 : (int)k;
    if (!quiet) fprintf(stderr, "cuzk: CZ_PROVER_H_COPIES='%s' is not 0/off, 1/on or 2..256: the default (on)\n", v);
    return 256;
}

cz_err cz__cuda_prover_open(void **self, const cz_backend_opts *o, char *name, size_t namelen, char *msg,
                            size_t msglen)
{
    cz_err e = CZ_OK;
    *self = NULL;
    int n = cz_cuda_device_count();
    if (o->device < 0 || o->device >= n)
        return cz_fail(CZ_ERR_DEVICE, msg, msglen, "backend cuda: no device %d (%d found)", o->device, n);
    dev_backend *b = (dev_backend *)calloc(1, sizeof *b);
    if (!b) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    b->device = o->device;
    b->quiet = o->quiet;
    b->host_stage = o->host_stage;
    b->host_stage_ctx = o->host_stage_ctx;
    b->gen = 1; /* a new key's region_gen is 0: not in place */
    {   /* the knob read (and warned about) either way */
        int hmax = cz__cuda_prover_h_copies_knob(getenv("CZ_PROVER_H_COPIES"), o->quiet);
        b->hc_max = o->no_h_copies ? 0 : hmax;
    }
    pthread_mutex_init(&b->kernel_mu, NULL);
    cudaDeviceProp prop;
    uint64_t budget = 0;
    CZ_CK(cudaSetDevice(b->device));
    CZ_CK(cudaGetDeviceProperties(&prop, b->device));
    if ((e = cz_cuda_vram_init(b->device, o->vram_margin, &budget, msg, msglen))) goto fail;
    {
        /* 1, the default (measured: docs/GPU_PROVER.md), unless
         * CZ_PROVER_OVERLAP says 0 (one stream) or 2 */
        const char *ov = getenv("CZ_PROVER_OVERLAP");
        int overlap = 1;
        if (ov && *ov) {
            long v = strtol(ov, NULL, 10);
            if (v >= 0 && v <= 2) overlap = (int)v;
        }
        /* with overlap the MSM context's stream gets the greatest priority
         * (cz__cuda_msm_create_prio, when it is made) */
        if (overlap) {
            int least = 0, greatest = 0;
            CZ_CK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
            CZ_CK(cudaStreamCreateWithPriority(&b->hst, cudaStreamNonBlocking, overlap == 2 ? greatest : least));
            b->msm_prio = greatest;
        }
    }
    snprintf(name, namelen, "cuda:%d (%s)", b->device, prop.name);
    *self = b;
    return CZ_OK;
fail:
    if (b->hst) cudaStreamDestroy(b->hst);
    pthread_mutex_destroy(&b->kernel_mu);
    free(b);
    return e;
}

static void free_scratch(dev_backend *b)
{
    if (b->hst) cudaStreamSynchronize(b->hst); /* nothing of H still reads what goes */
    cz__vram_free(b->d_abc);
    b->d_abc = NULL;
    b->abc_cap = 0;
    if (b->msm) cz_cuda_msm_destroy(b->msm);
    b->msm = NULL;
    cz__vram_free(b->d_stage);
    b->d_stage = NULL;
    b->stage_cap = 0;
    cz__vram_free(b->d_wshared);
    b->d_wshared = NULL;
    b->wshared_cap = 0;
    if (b->have_ev)
        for (int i = 0; i < EV_COUNT; i++) cudaEventDestroy(b->ev[i]);
    b->have_ev = 0;
    __atomic_store_n(&b->pub_wshared, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&b->pub_abc, 0, __ATOMIC_RELEASE);
    __atomic_fetch_add(&b->gen, 1, __ATOMIC_ACQ_REL);
    cudaGetLastError();
}

void cz__cuda_prover_close(void *self)
{
    dev_backend *b = (dev_backend *)self;
    if (!b) return;
    cudaSetDevice(b->device);
    free_scratch(b);
    if (b->hst) cudaStreamDestroy(b->hst);
    pthread_mutex_destroy(&b->kernel_mu);
    free(b);
}

void cz__cuda_prover_vram(void *self, uint64_t *budget, uint64_t *used, uint64_t *peak)
{
    dev_backend *b = (dev_backend *)self;
    cz_cuda_vram_stats(b->device, budget, used, peak);
}

/* ------------------------------------------------------------------ keys */

/* under kernel_mu: k's window copies go (unlinked from the device's list) */
static void free_h_copies(dev_backend *b, dev_key *k)
{
    if (!k->h_copies) return;
    for (dev_key **p = &b->hc_keys; *p; p = &(*p)->hc_next)
        if (*p == k) {
            *p = k->hc_next;
            break;
        }
    k->hc_next = NULL;
    cz__vram_free(k->h_copies);
    k->h_copies = NULL;
}

/* under kernel_mu: every key's window copies go (memory ran short; they are
 * not made again); whether there were any */
static int drop_h_copies(dev_backend *b)
{
    int any = b->hc_keys != NULL;
    while (b->hc_keys) free_h_copies(b, b->hc_keys);
    if (any && !b->quiet)
        fprintf(stderr, "cuzk: cuda:%d: the H bases' window copies given back (device memory ran short)\n",
                b->device);
    return any;
}

static void key_free(dev_backend *b, dev_key *k)
{
    if (!k) return;
    cudaSetDevice(b->device);
    if (k->h_copies) {
        pthread_mutex_lock(&b->kernel_mu);
        free_h_copies(b, k);
        pthread_mutex_unlock(&b->kernel_mu);
    }
    if (!k->adopted) cz_cuda_pk_dev_free(&k->pk);
    for (int i = 0; i < 5; i++) cz__vram_free(k->q[i].owned);
    cz__vram_free(k->d_da);
    cz__vram_free(k->d_db);
    free(k->h_bits);
    if (k->spmv) cz_cuda_spmv_destroy(k->spmv);
    if (k->dom) cz_cuda_ntt_domain_destroy(k->dom);
    cz__vram_free(k->d_bmask);
    cz__vram_free(k->d_brank);
    cudaGetLastError();
    free(k);
}

void cz__cuda_prover_unload(void *self, void *key) { key_free((dev_backend *)self, (dev_key *)key); }

static uint64_t csr_bytes(const cz_r1cs *cs)
{
    uint64_t b = 0;
    for (int k = 0; k < 3; k++) {
        const cz_csr *c = &cs->m[k];
        if (c->nnz) b += (c->n_rows + 1) * 8 + c->nnz * (4 + c->cidx_bytes) + (uint64_t)c->n_coefs * sizeof(cz_fr);
    }
    return b;
}

/* streaming knobs (tests): force the streamed mode; points per chunk */
static int knob_stream = -1;
static size_t knob_chunk = 0;

extern "C" void cz__cuda_prover_stream_knob(int force, size_t chunk_points)
{
    knob_stream = force;
    knob_chunk = chunk_points;
}

static void set_q(base_set *q, const void *dev, const void *host, size_t n, int g2)
{
    q->dev = dev;
    q->host = host;
    q->n = n;
    q->g2 = g2;
}

/* the circuit's bit map to the device, for compact witnesses */
static cz_err load_bits(dev_key *k, const cz_wbits_map *bm, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    if (bm->n_vars != k->n_vars)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "bit map of %llu variables for a circuit of %llu",
                       (unsigned long long)bm->n_vars, (unsigned long long)k->n_vars);
    CZ_CK(cz__vram_upload(&k->d_bmask, (const uint64_t *)bm->mask, bm->words * 8));
    CZ_CK(cz__vram_upload(&k->d_brank, (const uint64_t *)bm->rank, (bm->words + 1) * 8));
    k->b_fields = bm->n_fields;
    k->b_len = cz_wbits_len(bm);
    k->bytes += (2 * bm->words + 1) * 8;
fail:
    return e;
}

/* one attempt: the whole key resident (streamed = 0) or all but the bases */
static cz_err load_once(dev_backend *b, const cz_be_circuit *c, int streamed, dev_key **out, char *msg,
                        size_t msglen)
{
    cz_err e = CZ_OK;
    *out = NULL;
    dev_key *k = (dev_key *)calloc(1, sizeof *k);
    if (!k) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    CZ_CK(cudaSetDevice(b->device));
    if (c->zpk) {
        const cz_groth16_zpk *z = c->zpk;
        k->zkey = 1;
        k->vk = &z->vk;
        k->n_vars = z->n_vars;
        k->n_inputs = z->n_public + 1;
        k->n_constraints = z->qap.n_constraints;
        if (z->log_domain < 1 || z->log_domain > 30) {
            e = cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "backend cuda: zkey domain 2^%d not supported", z->log_domain);
            goto fail;
        }
        k->m = (size_t)1 << z->log_domain;
        if (z->qap.n_constraints != k->m || z->qap.n_vars != z->n_vars || z->qap.n_inputs != k->n_inputs ||
            z->vk.n_ic != k->n_inputs || k->n_inputs > z->n_vars) {
            e = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "inconsistent zkey proving key");
            goto fail;
        }
        set_q(&k->q[Q_H], NULL, z->h, k->m, 0);
        set_q(&k->q[Q_L], NULL, z->c, z->n_vars - k->n_inputs, 0);
        set_q(&k->q[Q_A], NULL, z->a, z->n_vars, 0);
        set_q(&k->q[Q_B1], NULL, z->b_g1, z->n_vars, 0);
        set_q(&k->q[Q_B2], NULL, z->b_g2, z->n_vars, 1);
        if (!streamed)
            for (int i = 0; i < 5; i++) {
                base_set *q = &k->q[i];
                size_t sz = q->g2 ? sizeof(cz_g2_aff) : sizeof(cz_g1_aff);
                CZ_CK(cz__vram_upload(&q->owned, q->host, q->n * sz));
                q->dev = q->owned;
                k->bytes += q->n * sz;
            }
        if ((e = cz_cuda_spmv_create(&k->spmv, &z->qap, msg, msglen))) goto fail;
        k->bytes += csr_bytes(&z->qap);
        if ((e = cz_cuda_ntt_domain_create(&k->dom, z->log_domain, 5, msg, msglen))) goto fail;
        {   /* a zkey is mapped: a file truncated under us was read as zeros */
            const void *mapped[] = {z->h, z->c, z->a, z->b_g1, z->b_g2};
            for (size_t i = 0; i < sizeof mapped / sizeof mapped[0]; i++)
                if (cz_mapguard_check(mapped[i], msg, msglen)) { e = CZ_ERR_IO; goto fail; }
        }
    } else {
        const cz_r1cs *cs = c->cs;
        const cz_groth16_pk *pk = c->pk;
        k->vk = &pk->vk;
        k->n_vars = cs->n_vars;
        k->n_inputs = cs->n_inputs;
        k->n_constraints = cs->n_constraints;
        int log_m = cz_groth16_domain_log(cs);
        if (log_m > 30) {
            e = cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "backend cuda: domain 2^%d not supported", log_m);
            goto fail;
        }
        k->m = (size_t)1 << log_m;
        size_t words = (cs->n_vars + 63) / 64;
        uint64_t *bits = k->h_bits = (uint64_t *)calloc(2 * (words ? words : 1), 8);
        if (!bits) {
            e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of host memory");
            goto fail;
        }
        k->h_da = bits;
        k->h_db = bits + words;
        uint64_t na = cz_groth16_density_a(cs, bits), nb = cz_r1cs_density(cs, CZ_B, bits + words);
        uint64_t n_aux = cs->n_vars - cs->n_inputs;
        const cz_cuda_pk_dev *dp = (const cz_cuda_pk_dev *)c->dev_pk;
        size_t kh = dp ? dp->n_h : pk->n_h, kl = dp ? dp->n_l : pk->n_l, ka = dp ? dp->n_a : pk->n_a,
               kb1 = dp ? dp->n_b_g1 : pk->n_b_g1, kb2 = dp ? dp->n_b_g2 : pk->n_b_g2;
        if (pk->vk.n_ic != cs->n_inputs || kl != n_aux || kh != k->m - 1 || ka != na || kb1 != nb || kb2 != nb) {
            e = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                        "proving key does not fit the constraint system: key has ic=%zu h=%zu l=%zu a=%zu b=%zu/%zu, "
                        "circuit needs ic=%llu h=%zu l=%llu a=%llu b=%llu",
                        pk->vk.n_ic, kh, kl, ka, kb1, kb2, (unsigned long long)cs->n_inputs, k->m - 1,
                        (unsigned long long)n_aux, (unsigned long long)na, (unsigned long long)nb);
            goto fail;
        }
        if (dp) {
            if (dp->device != b->device) {
                e = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "backend cuda: the key is on device %d, not %d",
                            dp->device, b->device);
                goto fail;
            }
            k->pk = *dp;
            k->adopted = 1;
            streamed = 0; /* already resident */
        } else if (!streamed && (e = cz_cuda_pk_dev_upload(&k->pk, pk, b->device, msg, msglen))) {
            goto fail;
        }
        set_q(&k->q[Q_H], k->pk.h, pk->h, kh, 0);
        set_q(&k->q[Q_L], k->pk.l, pk->l, kl, 0);
        set_q(&k->q[Q_A], k->pk.a, pk->a, ka, 0);
        set_q(&k->q[Q_B1], k->pk.b_g1, pk->b_g1, kb1, 0);
        set_q(&k->q[Q_B2], k->pk.b_g2, pk->b_g2, kb2, 1);
        if (!streamed) k->bytes = cz_cuda_pk_dev_bytes(&k->pk);
        CZ_CK(cz__vram_upload(&k->d_da, (const uint64_t *)bits, words * 8));
        CZ_CK(cz__vram_upload(&k->d_db, (const uint64_t *)bits + words, words * 8));
        k->bytes += 2 * words * 8;
        if ((e = cz_cuda_spmv_create(&k->spmv, cs, msg, msglen))) goto fail;
        k->bytes += csr_bytes(cs);
        if ((e = cz_cuda_ntt_domain_create(&k->dom, log_m, cs->ntt_generator ? cs->ntt_generator : 7, msg, msglen)))
            goto fail;
        const void *mapped[] = {pk->map, cs->map};
        for (size_t i = 0; i < sizeof mapped / sizeof mapped[0]; i++)
            if (cz_mapguard_check(mapped[i], msg, msglen)) { e = CZ_ERR_IO; goto fail; }
    }
    k->bytes += 2 * k->m * sizeof(cz_fr); /* NTT tables, about */
    if (c->bits && (e = load_bits(k, c->bits, msg, msglen))) goto fail;
    *out = k;
    return CZ_OK;
fail:
    key_free(b, k);
    return e;
}

/* what a partition of k holds on the device beside the key, about, for
 * the window copies' room: a, b, c (3 x domain), the shared witness and
 * two workers' witness buffers, and the MSM context's scratch for its
 * largest MSM (per-scalar lists, the sort's four arrays of at most 2^28
 * entries, buckets, partial sums and temporaries: DEFAULT_MAX_ENTRIES in
 * msm_impl.cuh) */
static uint64_t partition_bytes(const dev_key *k)
{
    uint64_t n = k->m > k->n_vars ? k->m : k->n_vars, e = 13 * n;
    if (e > ((uint64_t)1 << 28)) e = (uint64_t)1 << 28;
    return 3 * k->m * sizeof(cz_fr) + 3 * k->n_vars * sizeof(cz_fr) + 40 * n + 16 * e + ((uint64_t)2 << 30);
}

/* window copies of k's H bases (resident ones) where the budget has room
 * beside the key and a partition (partition_bytes; an estimate: a
 * partition that then runs out of memory gives them back and runs again,
 * prove_one): of the blocks that fit, at most hc_max (256, or
 * CZ_PROVER_H_COPIES=K), the fewest of the least cost
 * (cz_cuda_msm_copies_plan_max: 12 at 2^24, 4 at 2^26, 2 at 2^27). Under
 * kernel_mu: the table is made on the compute stream. A failure costs only
 * the speed-up. */
static void make_h_copies(dev_backend *b, dev_key *k)
{
    const base_set *q = &k->q[Q_H];
    if (!b->hc_max || !q->dev || q->n < 2) return;
    uint64_t budget = 0, used = 0, peak = 0, block = (uint64_t)q->n * sizeof(cz_g1_aff), part = partition_bytes(k);
    char m2[300];
    cz_cuda_vram_stats(b->device, &budget, &used, &peak);
    uint64_t room = used + part < budget ? budget - used - part : 0, fit = room / block;
    if (fit > (uint64_t)b->hc_max) fit = b->hc_max;
    int copies = 0, c = cz_cuda_msm_copies_plan_max(q->n, (int)fit, &copies);
    uint64_t bytes = (uint64_t)copies * block;
    if (!c) {
        if (!b->quiet)
            fprintf(stderr, "cuzk: cuda:%d: no window copies of the H bases that fit and pay (%.1f GB a block, "
                            "%d fit beside %.1f GB for a partition; %.1f GB free): the H MSM runs without\n", b->device,
                    block / 1e9, (int)fit, part / 1e9, (budget - used) / 1e9);
        return;
    }
    double t0 = cz_now_ms();
    if ((!b->msm && cz__cuda_msm_create_prio(&b->msm, b->device, b->msm_prio, m2, sizeof m2)) ||
        cz_cuda_msm_g1_copies_make(b->msm, &k->h_copies, (const cz_g1_aff *)q->dev, q->n, c, copies, m2,
                                   sizeof m2)) {
        if (!b->quiet) fprintf(stderr, "cuzk: cuda:%d: H bases' window copies not made: %s\n", b->device, m2);
        cudaGetLastError();
        return;
    }
    k->hc_c = c;
    k->hc_copies = copies;
    k->hc_next = b->hc_keys;
    b->hc_keys = k; /* not in k->bytes: the key's own residency, which the copies only speed up */
    if (!b->quiet)
        fprintf(stderr, "cuzk: cuda:%d: H bases' window copies made: %d x %.2f GB, c = %d, in %.1f s\n", b->device,
                copies, bytes / 1e9 / copies, c, (cz_now_ms() - t0) / 1e3);
}

cz_err cz__cuda_prover_load(void *self, const cz_be_circuit *c, void **key, uint64_t *bytes, char *msg,
                            size_t msglen)
{
    dev_backend *b = (dev_backend *)self;
    dev_key *k = NULL;
    *key = NULL;
    *bytes = 0;
    int host = c->zpk || (c->pk && c->pk->h && !c->dev_pk);
    cz_err e = CZ_ERR_NOMEM;
    if (!(knob_stream == 1 && host)) {
        e = load_once(b, c, 0, &k, msg, msglen);
        if (e == CZ_ERR_NOMEM) { /* other keys' window copies go first */
            pthread_mutex_lock(&b->kernel_mu);
            int dropped = drop_h_copies(b);
            pthread_mutex_unlock(&b->kernel_mu);
            if (dropped) e = load_once(b, c, 0, &k, msg, msglen);
        }
    }
    if (e == CZ_ERR_NOMEM && host) {
        /* the bases do not fit: keep the rest resident, stream the bases */
        char first[300], m2[300];
        snprintf(first, sizeof first, "%s", knob_stream == 1 ? "streaming forced" : msg);
        e = load_once(b, c, 1, &k, m2, sizeof m2);
        if (e == CZ_ERR_NOMEM)
            cz_fail(e, msg, msglen, "%s; with its points streamed from the host the rest does not fit either (%s)",
                    first, m2);
        else if (e)
            cz_fail(e, msg, msglen, "%s", m2);
        else if (!b->quiet)
            fprintf(stderr, "cuzk: warning: cuda:%d: the proving key does not fit in device memory (%s); its points "
                            "are streamed from the host for every partition\n", b->device, first);
    }
    if (e) return e;
    pthread_mutex_lock(&b->kernel_mu);
    make_h_copies(b, k);
    pthread_mutex_unlock(&b->kernel_mu);
    *key = k;
    *bytes = k->bytes;
    return CZ_OK;
}

int cz__cuda_prover_key_resident(void *self, void *key)
{
    (void)self;
    const dev_key *k = (const dev_key *)key;
    if (!k) return 0;
    for (int i = 0; i < 5; i++)
        if (k->q[i].n && !k->q[i].dev) return 0; /* streamed from the host */
    return 1;
}

/* --------------------------------------------------------------- workers */

cz_err cz__cuda_prover_worker_create(void *self, void **out, char *msg, size_t msglen)
{
    dev_backend *b = (dev_backend *)self;
    cz_err e = CZ_OK;
    *out = NULL;
    dev_worker *w = (dev_worker *)calloc(1, sizeof *w);
    if (!w) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    w->b = b;
    CZ_CK(cudaSetDevice(b->device));
    CZ_CK(cudaStreamCreateWithFlags(&w->up, cudaStreamNonBlocking));
    CZ_CK(cudaEventCreate(&w->up0));
    CZ_CK(cudaEventCreate(&w->up1));
    CZ_CK(cudaEventCreate(&w->pt0));
    CZ_CK(cudaEventCreate(&w->pt1));
    for (int i = 0; i < 2; i++) {
        CZ_CK(cudaHostAlloc(&w->stage[i], STAGE_BYTES, cudaHostAllocDefault));
        CZ_CK(cudaEventCreateWithFlags(&w->stage_ev[i], cudaEventDisableTiming));
    }
    *out = w;
    return CZ_OK;
fail:
    cz__cuda_prover_worker_destroy(w);
    return e;
}

void cz__cuda_prover_worker_destroy(void *wp)
{
    dev_worker *w = (dev_worker *)wp;
    if (!w) return;
    cudaSetDevice(w->b->device);
    if (w->up) cudaStreamSynchronize(w->up);
    cz__vram_free(w->d_w);
    cz__vram_free(w->d_wc);
    if (w->pinned) cudaFreeHost(w->pinned);
    for (int i = 0; i < 2; i++) {
        if (w->stage[i]) cudaFreeHost(w->stage[i]);
        if (w->stage_ev[i]) cudaEventDestroy(w->stage_ev[i]);
    }
    if (w->up0) cudaEventDestroy(w->up0);
    if (w->up1) cudaEventDestroy(w->up1);
    if (w->pt0) cudaEventDestroy(w->pt0);
    if (w->pt1) cudaEventDestroy(w->pt1);
    if (w->up) cudaStreamDestroy(w->up);
    cudaGetLastError();
    free(w);
}

cz_fr *cz__cuda_prover_worker_buffer(void *wp, size_t n)
{
    dev_worker *w = (dev_worker *)wp;
    if (w->pinned && n <= w->pinned_n) return w->pinned;
    cudaSetDevice(w->b->device);
    if (w->pinned) {
        cudaStreamSynchronize(w->up); /* an upload may still read it */
        cudaFreeHost(w->pinned);
    }
    w->pinned = NULL;
    w->pinned_n = 0;
    if (cudaHostAlloc((void **)&w->pinned, (n ? n : 1) * sizeof(cz_fr), cudaHostAllocDefault) != cudaSuccess) {
        cudaGetLastError();
        w->pinned = NULL;
        return NULL;
    }
    w->pinned_n = n;
    return w->pinned;
}

/* the witness to the device on the worker's upload stream; up1 is recorded
 * when it has landed. A witness in the pinned buffer goes in one copy; one
 * in pageable memory through the two staging buffers, the host copying one
 * chunk while the other crosses. That host copy is a bandwidth-heavy host
 * stage: the backend's host_stage hook is raised around it (on before the
 * first chunk, off after the last, on success or failure), so the engine's
 * synthesis throttle holds synthesis while it runs. */
static cz_err upload_witness(dev_worker *w, void *dst, const cz_fr *wit, size_t n, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    dev_backend *b = w->b;
    int stage_on = 0;
    size_t bytes = n * sizeof(cz_fr);
    CZ_CK(cudaEventRecord(w->up0, w->up));
    if (w->pinned && wit >= w->pinned && wit + n <= w->pinned + w->pinned_n) {
        CZ_CK(cudaMemcpyAsync(dst, wit, bytes, cudaMemcpyHostToDevice, w->up));
    } else {
        const char *src = (const char *)wit;
        int used[2] = {0, 0};
        if (b->host_stage) {
            b->host_stage(b->host_stage_ctx, 1);
            stage_on = 1;
        }
        for (size_t off = 0, i = 0; off < bytes; off += STAGE_BYTES, i ^= 1) {
            size_t len = bytes - off < STAGE_BYTES ? bytes - off : STAGE_BYTES;
            if (used[i]) CZ_CK(cudaEventSynchronize(w->stage_ev[i]));
            memcpy(w->stage[i], src + off, len);
            CZ_CK(cudaMemcpyAsync((char *)dst + off, w->stage[i], len, cudaMemcpyHostToDevice, w->up));
            CZ_CK(cudaEventRecord(w->stage_ev[i], w->up));
            used[i] = 1;
        }
        stage_on = 0;
        if (b->host_stage) b->host_stage(b->host_stage_ctx, 0);
    }
    CZ_CK(cudaEventRecord(w->up1, w->up));
fail:
    if (stage_on) b->host_stage(b->host_stage_ctx, 0);
    return e;
}

/* --------------------------------------------- the witness's stage (tiers)
 *
 * Chosen per partition, outside the kernel lock, from the budget's own
 * bookkeeping (cz_cuda_vram_stats: no driver call). need = n_vars x 32
 * bytes; room = budget - used + the worker's own buffer (given back when it
 * is replaced):
 *   FULL      the worker's buffer holds need already, or room >= need and
 *             the allocation succeeds: all of the witness crosses outside
 *             the lock;
 *   PART      else, when a partition of this key has completed since the
 *             device's scratch was last freed (its kernel region is in
 *             place, so what the budget leaves is free to stage into):
 *               K = align_down(room - missing - need / 16, 64 KiB),
 *               at most need - 64 KiB,
 *             missing = what the shared buffer and a, b, c still lack
 *             (need - wshared, 3 x domain x 32 - abc, none below 0), need / 16
 *             headroom for the MSM scratch to grow with the next witness's
 *             scalars; admitted when K >= max(1 MiB, need / 64), a part that
 *             saves at least 1/64 of the upload. The worker's buffer is kept
 *             when it already fits under K and K would not grow it by a
 *             quarter of need, so the steady state allocates nothing. The
 *             first K bytes cross outside the lock into the worker's buffer;
 *             under it they are copied device to device into the shared
 *             buffer and the rest crosses from the host behind them;
 *   UNSTAGED  else: all of it crosses under the lock into the shared buffer.
 * The proof is the same in all three: the kernels read one contiguous
 * witness (the worker's buffer, or the shared one). */

#define PART_ALIGN ((size_t)64 << 10)
#define PART_MIN ((size_t)1 << 20)

static uint64_t sat_sub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

static size_t part_min(size_t need) { return need / 64 > PART_MIN ? need / 64 : PART_MIN; }

/* the head a PART stage may take (0: none) */
static size_t part_bytes(size_t need, uint64_t room, uint64_t missing)
{
    uint64_t slack = need / 16;
    if (need < part_min(need) + PART_ALIGN || room <= missing + slack) return 0;
    uint64_t k = room - missing - slack;
    if (k > need - PART_ALIGN) k = need - PART_ALIGN;
    k &= ~(uint64_t)(PART_ALIGN - 1);
    return k >= part_min(need) ? (size_t)k : 0;
}

static void drop_own(dev_worker *w)
{
    if (!w->d_w) return;
    cz__vram_free(w->d_w);
    w->d_w = NULL;
    w->w_cap = 0;
}

/* the tier (CZ_STAGE_*) of a partition of key k; *head: the bytes staged in
 * the worker's buffer (need for FULL, K for PART, 0 for UNSTAGED) */
static int choose_stage(dev_worker *w, const dev_key *k, size_t need, size_t *head)
{
    dev_backend *b = w->b;
    uint64_t budget = 0, used = 0;
    *head = 0;
    if (w->w_cap >= need) {
        *head = need;
        return CZ_STAGE_FULL;
    }
    cz_cuda_vram_stats(b->device, &budget, &used, NULL);
    uint64_t room = sat_sub(budget, used) + w->w_cap;
    if (room >= need) {
        drop_own(w);
        if (cz__vram_malloc(&w->d_w, need) == cudaSuccess) {
            w->w_cap = *head = need;
            return CZ_STAGE_FULL;
        }
        cudaGetLastError();
        cz_cuda_vram_stats(b->device, &budget, &used, NULL);
        room = sat_sub(budget, used);
    }
    size_t kmax = 0;
    if (__atomic_load_n(&k->region_gen, __ATOMIC_ACQUIRE) == __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE)) {
        uint64_t missing = sat_sub(need, __atomic_load_n(&b->pub_wshared, __ATOMIC_ACQUIRE)) +
                           sat_sub(3 * k->m * sizeof(cz_fr), __atomic_load_n(&b->pub_abc, __ATOMIC_ACQUIRE));
        kmax = part_bytes(need, room, missing);
    }
    if (kmax && w->w_cap >= part_min(need) && w->w_cap <= kmax && kmax < w->w_cap + need / 4) {
        *head = w->w_cap; /* keep it: no allocation in the steady state */
        return CZ_STAGE_PART;
    }
    drop_own(w); /* a head that no longer fits, or room for the shared buffer */
    if (kmax) {
        if (cz__vram_malloc(&w->d_w, kmax) == cudaSuccess) {
            w->w_cap = *head = kmax;
            return CZ_STAGE_PART;
        }
        cudaGetLastError();
    }
    return CZ_STAGE_UNSTAGED;
}

/* outside the lock: the staged part on the worker's upload stream (all of
 * it for FULL, the head for PART, whose marks then move to pt0/pt1 so that
 * up0/up1 can mark the rest) */
static cz_err stage_head(dev_worker *w, int tier, size_t head, const cz_fr *wit, size_t nv, char *msg, size_t msglen)
{
    if (tier == CZ_STAGE_FULL) return upload_witness(w, w->d_w, wit, nv, msg, msglen);
    if (tier != CZ_STAGE_PART) return CZ_OK;
    cz_err e = upload_witness(w, w->d_w, wit, head / sizeof(cz_fr), msg, msglen);
    cudaEvent_t t0 = w->up0, t1 = w->up1;
    w->up0 = w->pt0;
    w->up1 = w->pt1;
    w->pt0 = t0;
    w->pt1 = t1;
    return e;
}

/* under the lock: the device's shared witness buffer holds need bytes */
static cz_err ensure_wshared(dev_backend *b, size_t need, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    if (b->wshared_cap >= need) return CZ_OK;
    cz__vram_free(b->d_wshared);
    b->d_wshared = NULL;
    b->wshared_cap = 0;
    __atomic_store_n(&b->pub_wshared, 0, __ATOMIC_RELEASE);
    CZ_CK(cz__vram_malloc(&b->d_wshared, need));
    b->wshared_cap = need;
fail:
    return e;
}

/* under the lock: the rest of a PART or UNSTAGED witness into the device's
 * shared buffer (grown, kept), behind the head copied there device to
 * device; *dw: the witness the kernels read. up1 marks it all landed. */
static cz_err land_witness(dev_worker *w, int tier, size_t head, const cz_fr *wit, size_t nv, const cz_fr **dw,
                           char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    dev_backend *b = w->b;
    size_t need = nv * sizeof(cz_fr), hn = head / sizeof(cz_fr);
    *dw = (const cz_fr *)w->d_w;
    if (tier == CZ_STAGE_FULL) return CZ_OK;
    if ((e = ensure_wshared(b, need, msg, msglen))) goto fail;
    if (tier == CZ_STAGE_PART) {
        /* the rest reuses the staging buffers the head's last chunks may
         * still be read from: wait for the head to land (this stream only) */
        CZ_CK(cudaEventSynchronize(w->pt1));
        CZ_CK(cudaMemcpyAsync(b->d_wshared, w->d_w, head, cudaMemcpyDeviceToDevice, w->up));
    }
    if ((e = upload_witness(w, (char *)b->d_wshared + head, wit + hn, nv - hn, msg, msglen))) goto fail;
    *dw = (const cz_fr *)b->d_wshared;
fail:
    return e;
}

/* the witness of a partition into dst (n_vars Fr) on the upload stream,
 * up1 recorded when it is there: the full witness wit as it is, or the
 * compact one (compact, k->b_len Fr) into the worker's d_wc and expanded
 * from there into dst by the device (witness_bits.cu). *bytes: what crossed
 * PCIe. */
static cz_err stage_witness(dev_worker *w, const dev_key *k, void *dst, const cz_fr *wit, const cz_fr *compact,
                            uint64_t *bytes, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    if (!compact) {
        *bytes = k->n_vars * sizeof(cz_fr);
        return upload_witness(w, dst, wit, k->n_vars, msg, msglen);
    }
    *bytes = k->b_len * sizeof(cz_fr);
    if (w->wc_cap < k->b_len * sizeof(cz_fr)) {
        cz__vram_free(w->d_wc);
        w->d_wc = NULL;
        w->wc_cap = 0;
        CZ_CK(cz__vram_malloc(&w->d_wc, k->b_len * sizeof(cz_fr)));
        w->wc_cap = k->b_len * sizeof(cz_fr);
    }
    if ((e = upload_witness(w, w->d_wc, compact, k->b_len, msg, msglen))) goto fail;
    if ((e = cz_cuda_wbits_expand(dst, k->d_bmask, k->d_brank, w->d_wc, k->n_vars, k->b_fields, w->up, msg, msglen)))
        goto fail;
    CZ_CK(cudaEventRecord(w->up1, w->up)); /* upload_ms includes the expansion */
fail:
    return e;
}

/* under the lock, after a partition of k completed: what the stage choice
 * of the next partitions reads */
static void publish_region(dev_backend *b, dev_key *k)
{
    __atomic_store_n(&b->pub_wshared, (uint64_t)b->wshared_cap, __ATOMIC_RELEASE);
    __atomic_store_n(&b->pub_abc, (uint64_t)b->abc_cap, __ATOMIC_RELEASE);
    __atomic_store_n(&k->region_gen, __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
}

/* ---------------------------------------------------------------- proving */

static void jac_inf(cz_g1_jac *a) { cz_g1_set_inf(a); }
static void jac_inf(cz_g2_jac *a) { cz_g2_set_inf(a); }
static void jac_add(cz_g1_jac *a, const cz_g1_jac *b) { cz_g1_add(a, a, b); }
static void jac_add(cz_g2_jac *a, const cz_g2_jac *b) { cz_g2_add(a, a, b); }
static cz_err msm_call(cz_cuda_msm *c, cz_g1_jac *out, const void *bases, const cz_fr *k, size_t n,
                       const uint64_t *dens, char *msg, size_t msglen)
{
    return cz_cuda_msm_g1(c, out, (const cz_g1_aff *)bases, k, n, 1, dens, msg, msglen);
}
static cz_err msm_call(cz_cuda_msm *c, cz_g2_jac *out, const void *bases, const cz_fr *k, size_t n,
                       const uint64_t *dens, char *msg, size_t msglen)
{
    return cz_cuda_msm_g2(c, out, (const cz_g2_aff *)bases, k, n, 1, dens, msg, msglen);
}

#define CHUNK_DEFAULT ((size_t)1 << 22)
#define CHUNK_MIN ((size_t)1 << 12)

/* sum of d_k[i] * bases over n scalars (device), with the density bitmap
 * (device d_dens, host h_dens) or none: in one MSM when the bases are
 * resident, else chunk by chunk through the staging buffer (chunks of
 * whole bitmap words; a chunk's bases start at the popcount before it),
 * halving the chunk when the buffer cannot be had */
template <class J>
static cz_err run_msm(dev_backend *b, J *out, const base_set *q, const cz_fr *d_k, size_t n, const uint64_t *d_dens,
                      const uint64_t *h_dens, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    if (q->dev) return msm_call(b->msm, out, q->dev, d_k, n, d_dens, msg, msglen);
    size_t psz = q->g2 ? sizeof(cz_g2_aff) : sizeof(cz_g1_aff);
    size_t chunk = knob_chunk ? knob_chunk : CHUNK_DEFAULT;
    chunk = (chunk + 63) & ~(size_t)63;
    if (chunk > ((n + 63) & ~(size_t)63)) chunk = (n + 63) & ~(size_t)63;
    if (!chunk) chunk = 64;
    while (b->stage_cap < chunk * psz) {
        cz__vram_free(b->d_stage);
        b->d_stage = NULL;
        b->stage_cap = 0;
        if (cz__vram_malloc(&b->d_stage, chunk * psz) == cudaSuccess) {
            b->stage_cap = chunk * psz;
            break;
        }
        cudaGetLastError();
        if (chunk <= CHUNK_MIN) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "no device memory for a chunk of bases");
        chunk /= 2;
    }
    cudaStream_t st = (cudaStream_t)cz__cuda_msm_stream(b->msm);
    jac_inf(out);
    size_t base_at = 0;
    for (size_t lo = 0; lo < n; lo += chunk) {
        size_t hi = lo + chunk < n ? lo + chunk : n, nb = hi - lo;
        if (h_dens) {
            nb = 0;
            for (size_t wi = lo / 64; wi < (hi + 63) / 64; wi++) {
                uint64_t word = h_dens[wi];
                if (wi == (hi - 1) / 64 && hi % 64) word &= ((uint64_t)1 << (hi % 64)) - 1;
                nb += (size_t)__builtin_popcountll(word);
            }
        }
        if (base_at + nb > q->n) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "density and bases disagree");
        if (nb) {
            CZ_CK(cudaMemcpyAsync(b->d_stage, (const char *)q->host + base_at * psz, nb * psz, cudaMemcpyHostToDevice,
                                  st));
            J part;
            if ((e = msm_call(b->msm, &part, b->d_stage, d_k + lo, hi - lo, d_dens ? d_dens + lo / 64 : NULL, msg,
                              msglen)))
                return e;
            jac_add(out, &part);
        }
        base_at += nb;
    }
fail:
    return e;
}

static float elapsed(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    if (cudaEventElapsedTime(&ms, a, b) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return ms;
}

/* wit: the full witness, or NULL and compact: the compact one */
/* one try of a partition; *dropped: it ran out of memory and gave the
 * device's window copies back (prove_one tries again) */
static cz_err prove_try(void *wp, void *keyp, const cz_fr *wit, const cz_fr *compact, const cz_fr *r,
                        const cz_fr *s, cz_groth16_proof *out, cz_groth16_timings *t, int *dropped, char *msg,
                        size_t msglen)
{
    dev_worker *w = (dev_worker *)wp;
    dev_key *k = (dev_key *)keyp;
    dev_backend *b = w->b;
    cz_err e = CZ_OK;
    double t0 = cz_now_ms();
    int locked = 0, tier = CZ_STAGE_NONE;
    size_t head = 0;
    int last = EV_B2;
    const cz_fr *dw = NULL;
    cudaStream_t st = NULL;
    cz_g1_jac h_acc, l_acc, a_acc, b1_acc;
    cz_g2_jac b2_acc;
    size_t m = k->m, nv = k->n_vars, ni = k->n_inputs;
    memset(t, 0, sizeof *t);
    if (!cz_fr_is_one(compact ? &compact[0] : &wit[0]))
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "witness[0] must be 1");
    CZ_CK(cudaSetDevice(b->device));

    /* the witness's stage (FULL, PART, UNSTAGED: see choose_stage): what
     * the budget admits crosses PCIe now, outside the kernel lock, while
     * another worker's partition is being proved; the rest under the lock.
     * A compact witness is staged whole or not at all. */
    tier = choose_stage(w, k, nv * sizeof(cz_fr), &head);
    if (compact && tier == CZ_STAGE_PART) {
        drop_own(w);
        tier = CZ_STAGE_UNSTAGED;
        head = 0;
    }
    t->stage = tier;
    t->staged_bytes = head;
    if (compact) {
        if (tier == CZ_STAGE_FULL && (e = stage_witness(w, k, w->d_w, NULL, compact, &t->h2d_bytes, msg, msglen)))
            goto fail;
    } else {
        if ((e = stage_head(w, tier, head, wit, nv, msg, msglen))) goto fail;
        t->h2d_bytes = nv * sizeof(cz_fr);
    }

    pthread_mutex_lock(&b->kernel_mu);
    locked = 1;
    if (compact) {
        dw = (const cz_fr *)w->d_w;
        if (tier != CZ_STAGE_FULL) {
            if ((e = ensure_wshared(b, nv * sizeof(cz_fr), msg, msglen))) goto fail;
            if ((e = stage_witness(w, k, b->d_wshared, NULL, compact, &t->h2d_bytes, msg, msglen))) goto fail;
            dw = (const cz_fr *)b->d_wshared;
        }
    } else if ((e = land_witness(w, tier, head, wit, nv, &dw, msg, msglen))) {
        goto fail;
    }
    if (!b->msm) {
        if ((e = cz__cuda_msm_create_prio(&b->msm, b->device, b->msm_prio, msg, msglen))) goto fail;
    }
    if (!b->have_ev) {
        for (int i = 0; i < EV_COUNT; i++) CZ_CK(cudaEventCreate(&b->ev[i]));
        b->have_ev = 1;
    }
    st = (cudaStream_t)cz__cuda_msm_stream(b->msm);
    if (b->abc_cap < 3 * m * sizeof(cz_fr)) {
        cz__vram_free(b->d_abc);
        b->d_abc = NULL;
        b->abc_cap = 0;
        CZ_CK(cz__vram_malloc(&b->d_abc, 3 * m * sizeof(cz_fr)));
        b->abc_cap = 3 * m * sizeof(cz_fr);
    }
    {
        /* With overlap the SpMV and H run on the H stream beside the
         * witness MSMs (L, A, B1, B2) on the compute stream, which read
         * only the witness; the H MSM waits for both. The MSM stream's
         * priority is the greater, so H's latency-bound passes fill what
         * the MSMs leave of the device. Without, one stream in the order
         * SpMV, H, then the MSMs H, L, A, B1, B2. */
        cz_fr *da = (cz_fr *)b->d_abc, *db = da + m, *dc = db + m;
        cudaStream_t hs = b->hst ? b->hst : st;
        CZ_CK(cudaStreamWaitEvent(st, w->up1, 0));
        CZ_CK(cudaEventRecord(b->ev[EV_START], st));
        if (hs != st) CZ_CK(cudaStreamWaitEvent(hs, b->ev[EV_START], 0));
        if (!k->zkey) {
            uint64_t nc = k->n_constraints;
            if ((e = cz_cuda_spmv_run(k->spmv, dw, da, db, dc, hs, msg, msglen))) goto fail;
            /* the input rows input_i * 0 = 0, then zeros to the domain's end */
            CZ_CK(cudaMemcpyAsync(da + nc, dw, ni * sizeof(cz_fr), cudaMemcpyDeviceToDevice, hs));
            if (m > nc + ni) CZ_CK(cudaMemsetAsync(da + nc + ni, 0, (m - nc - ni) * sizeof(cz_fr), hs));
            if (m > nc) {
                CZ_CK(cudaMemsetAsync(db + nc, 0, (m - nc) * sizeof(cz_fr), hs));
                CZ_CK(cudaMemsetAsync(dc + nc, 0, (m - nc) * sizeof(cz_fr), hs));
            }
            CZ_CK(cudaEventRecord(b->ev[EV_SPMV], hs));
            if ((e = cz_cuda_h_bellperson(k->dom, da, db, dc, hs, msg, msglen))) goto fail;
        } else {
            if ((e = cz_cuda_spmv_run(k->spmv, dw, da, db, NULL, hs, msg, msglen))) goto fail;
            CZ_CK(cudaEventRecord(b->ev[EV_SPMV], hs));
            if ((e = cz_cuda_h_snarkjs(k->dom, da, db, dc, hs, msg, msglen))) goto fail;
        }
        CZ_CK(cudaEventRecord(b->ev[EV_NTT], hs));
        {   /* the five MSMs: H, L (zkey: C), A, B1, B2; with overlap H last */
            const uint64_t *dd[5] = {NULL, NULL, k->d_da, k->d_db, k->d_db}, *hd[5] = {NULL, NULL, k->h_da, k->h_db, k->h_db};
            const cz_fr *sc[5] = {da, dw + ni, dw, dw, dw};
            size_t cnt[5] = {k->zkey ? m : m - 1, nv - ni, nv, nv, nv};
            cz_g1_jac *acc[4] = {&h_acc, &l_acc, &a_acc, &b1_acc};
            static const int serial[5] = {0, 1, 2, 3, 4}, beside[5] = {1, 2, 3, 4, 0};
            const int *order = hs != st ? beside : serial;
            for (int j = 0; j < 5; j++) {
                int i = order[j];
                if (i == 0 && hs != st) {
                    CZ_CK(cudaStreamWaitEvent(st, b->ev[EV_NTT], 0));
                    CZ_CK(cudaEventRecord(b->ev[EV_HWAIT], st));
                }
                if (i == 0 && k->h_copies) {
                    e = cz_cuda_msm_g1_copies(b->msm, acc[0], k->h_copies, k->q[Q_H].n, k->hc_c, k->hc_copies,
                                              sc[0], cnt[0], 1, NULL, msg, msglen);
                    t->h_copies = cz__cuda_msm_last_copies(b->msm);
                } else if (i < 4) e = run_msm(b, acc[i], &k->q[i], sc[i], cnt[i], dd[i], hd[i], msg, msglen);
                else e = run_msm(b, &b2_acc, &k->q[i], sc[i], cnt[i], dd[i], hd[i], msg, msglen);
                if (e) goto fail;
                CZ_CK(cudaEventRecord(b->ev[EV_H + i], st));
            }
            last = EV_H + order[4];
        }
        CZ_CK(cudaEventSynchronize(b->ev[last]));
    }
    publish_region(b, k);
    t->upload_ms = elapsed(w->up0, w->up1) + (tier == CZ_STAGE_PART ? elapsed(w->pt0, w->pt1) : 0);
    t->spmv_ms = elapsed(b->ev[EV_START], b->ev[EV_SPMV]);
    t->ntt_ms = elapsed(b->ev[EV_SPMV], b->ev[EV_NTT]);
    /* each stage from the end of the one before it on its stream, so on
     * one stream they add up to device_ms; with overlap L runs from the
     * start and H from when it may start (both streams done) */
    t->overlap = last == EV_H;
    t->msm_h_ms = elapsed(b->ev[t->overlap ? EV_HWAIT : EV_NTT], b->ev[EV_H]);
    t->msm_l_ms = elapsed(b->ev[t->overlap ? EV_START : EV_H], b->ev[EV_L]);
    t->msm_hl_ms = t->msm_h_ms + t->msm_l_ms;
    t->msm_a_ms = elapsed(b->ev[EV_L], b->ev[EV_A]);
    t->msm_b1_ms = elapsed(b->ev[EV_A], b->ev[EV_B1]);
    t->msm_b2_ms = elapsed(b->ev[EV_B1], b->ev[EV_B2]);
    t->device_ms = elapsed(b->ev[EV_START], b->ev[last]);
    pthread_mutex_unlock(&b->kernel_mu);
    locked = 0;

    cz_g1_add(&h_acc, &h_acc, &l_acc);
    cz_groth16_assemble(out, k->vk, &a_acc, &b2_acc, &b1_acc, &h_acc, r, s);
    t->total_ms = cz_now_ms() - t0;
    return CZ_OK;
fail:
    /* whatever this partition held goes; the next one starts clean */
    if (w->up) cudaStreamSynchronize(w->up);
    cz__vram_free(w->d_w);
    w->d_w = NULL;
    w->w_cap = 0;
    cz__vram_free(w->d_wc);
    w->d_wc = NULL;
    w->wc_cap = 0;
    if (!locked) {
        pthread_mutex_lock(&b->kernel_mu);
        locked = 1;
    }
    if (st) cudaStreamSynchronize(st);
    free_scratch(b); /* which waits for the H stream too */
    if (e == CZ_ERR_NOMEM) *dropped = drop_h_copies(b); /* the first thing to give back */
    pthread_mutex_unlock(&b->kernel_mu);
    cudaGetLastError();
    t->total_ms = cz_now_ms() - t0;
    return e;
}

/* a partition; one that runs out of memory while window copies are held
 * gives them back and runs again before its error goes to backend.c (which
 * would prove it on the CPU) */
static cz_err prove_one(void *wp, void *keyp, const cz_fr *wit, const cz_fr *compact, const cz_fr *r,
                        const cz_fr *s, cz_groth16_proof *out, cz_groth16_timings *t, char *msg, size_t msglen)
{
    int dropped = 0;
    cz_err e = prove_try(wp, keyp, wit, compact, r, s, out, t, &dropped, msg, msglen);
    if (e == CZ_ERR_NOMEM && dropped) e = prove_try(wp, keyp, wit, compact, r, s, out, t, &dropped, msg, msglen);
    return e;
}

cz_err cz__cuda_prover_prove(void *wp, void *keyp, const cz_fr *wit, const cz_fr *r, const cz_fr *s,
                             cz_groth16_proof *out, cz_groth16_timings *t, char *msg, size_t msglen)
{
    return prove_one(wp, keyp, wit, NULL, r, s, out, t, msg, msglen);
}

cz_err cz__cuda_prover_prove_bits(void *wp, void *keyp, const cz_fr *compact, const cz_fr *r, const cz_fr *s,
                                  cz_groth16_proof *out, cz_groth16_timings *t, char *msg, size_t msglen)
{
    const dev_key *k = (const dev_key *)keyp;
    if (!k->d_bmask) {
        memset(t, 0, sizeof *t);
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "backend cuda: the key was loaded without a bit map");
    }
    return prove_one(wp, keyp, NULL, compact, r, s, out, t, msg, msglen);
}
