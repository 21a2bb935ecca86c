/* msm_impl.cuh — the host side of the device MSM, shared by the G1 and G2
 * translation units (msm_g1.cu, msm_g2.cu, compiled in parallel), the
 * context functions (msm_api.cu) and the units of the point-arithmetic
 * kernels (below, "The point-arithmetic launches"): the plan (window width
 * from a cost model, window groups bounded by a scratch budget), the
 * carve-out of the context's scratch, and the sequence of kernels
 * (msm_kernels.cuh) and CUB calls.
 *
 * One call: classify the scalars (zeros dropped, ones listed, the rest
 * converted from Montgomery form and listed with the largest bit length);
 * sum the ones through the reduce-by-key engine; then for each group of
 * windows: signed digits -> (bucket key, base index) entries -> radix sort
 * by key -> reduce by key into the buckets -> segmented running sums of the
 * buckets -> reduce by key into the window sums; last, the window sums go
 * to the host and Horner runs there (msm_g1.cu, msm_g2.cu). The endomorphism split of the CPU MSM is not used:
 * it halves the windows but doubles the points, so it saves only bucket
 * work, which on the device is a small part of the whole.
 *
 * Scratch: two device buffers per context, one for the per-scalar lists
 * (sized by n) and one for the per-group work (sized by the plan); each
 * grows when a call needs more and is kept for later calls. Growth frees
 * and allocates (cudaFree synchronises the device), so a steady-state caller
 * sizes once. Host reads of small counters synchronise the context's
 * stream only.
 *
 * Every CUDA error is caught (CK) and returned as a cz_err with a message. */
#ifndef CZ_CUDA_MSM_IMPL_CUH
#define CZ_CUDA_MSM_IMPL_CUH

#include <cuda_runtime.h>
#include <cub/cub.cuh>
#include <stdio.h>
#include <type_traits>
#include <string.h>

#include "cuda/cuda_util.cuh"
#include "cuda/cz_cuda_msm.h"
#include "cuda/msm_kernels.cuh"
#include "cuda/fp2_pair.cuh"

/* entries per thread at level 0 (CZ_MSM_T0 overrides; fewer for few
 * items, down to T0_MIN while level 0 has under T0_THREADS threads), items
 * per thread at later levels (their chains of dependent additions are the
 * latency of a small MSM: 4 a level halves it against 16) */
#define T0 256u
#define T0_MIN 4u
#define T0_THREADS ((size_t)1 << 17)
#define T1 4u
/* default bound on (scalar, window) entries sorted at once */
#define DEFAULT_MAX_ENTRIES ((size_t)1 << 28)
/* the same with the batch-affine rounds, whose outputs need room too */
#define BA_MAX_ENTRIES ((size_t)1 << 27)
/* with the rounds the plan picks, a round runs when it has at least
 * BA_MIN_PAIRS pairs (so that its launches and its scan are a small part
 * of it) and merges at least 1/BA_MIN_MERGE of the entries */
#define BA_MIN_PAIRS ((uint32_t)1 << 18)
#define BA_MIN_MERGE 8u
/* pairs of a chain (CZ_MSM_BA_CHAIN overrides), the chains' products
 * inverted together by one thread, threads a block of the backward pass */
#define BA_CHAIN 32u
#define BA_INV_GROUP 64u
#define BA_BWD_BLOCK 128
#define MAX_WINDOW 22
/* window copies may take wider windows: their buckets are paid once a
 * bucket set, not once a window (docs/CUDA_MSM.md "Fewer copies than
 * windows") */
#define COPIES_MAX_WINDOW 24
#define BLOCK 256
/* default threads per block of the point-arithmetic kernels (msm_api.cu),
 * G1's and G2's: 128 measured 1-3 % faster than 256 at 2^24 and 2^26 for
 * G1, 1.8 % for G2 at 2^24 (docs/CUDA_MSM.md) */
#define HEAVY_BLOCK 128
/* the window sums and the ones' sum on the host: at most 129 windows (c = 2)
 * of a G2 XYZZ point (384 bytes), and one more */
#define CZ_MSM_HOST_WIN_BYTES ((size_t)131 * 384)

struct cz_cuda_msm {
    int device;
    cudaStream_t stream;
    void *buf[2];
    size_t cap[2];
    uint32_t *host_counters; /* pinned, 8 words */
    void *host_win;          /* pinned, CZ_MSM_HOST_WIN_BYTES: the window sums */
    int cfg_window;
    int max_window; /* the plan's widest window (CZ_MSM_MAX_WINDOW) */
    size_t cfg_max_entries;
    int heavy_block; /* threads a block of the point-arithmetic kernels */
    uint32_t t0;     /* entries a thread at level 0 of the reduce-by-key engine */
    int ba_mode;         /* G1 batch-affine rounds: -1 off, 0 when they pay, 1 always (tests) */
    uint32_t ba_threads; /* chains of a round (0: its pairs / ba_chain) */
    uint32_t ba_chain;   /* pairs a chain when ba_threads is 0 */
    int last_ba_rounds;
    uint32_t bucket_wave[2]; /* bucket_wave(): G1, G2; 0 until asked */
    int last_c, last_nw, last_groups;
    size_t last_ones, last_gen;
    int copies_mode; /* window copies: 0 when they pay, 1 always, 2 never (CZ_MSM_COPIES) */
    int last_copies; /* the last call summed through window copies */
    int last_span;   /* ... and the blocks a bucket set of it spanned */
    size_t copies_chunk; /* points a chunk of the copies' fill (0: CP_CHUNK; tests) */
};

/* window copies of the bases (cz_cuda_msm_g1_copies): `copies` blocks of
 * nb points, block j holding 2^(c j) times block 0. With a block a window
 * every window adds into one set of buckets; with fewer blocks than
 * windows, window w takes block w mod K and the set w div K (K blocks a
 * set), and the sets are joined like windows of c K bits. */
struct msm_copies {
    size_t nb;
    int c, copies;
};

/* ---------------------------------------------------------------- errors */

#define CK(call)                                                                           \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            err = cz_fail(e_ == cudaErrorMemoryAllocation ? CZ_ERR_NOMEM : CZ_ERR_DEVICE, \
                          msg, msglen, "cuda msm: %s: %s (%s:%d)", #call, cudaGetErrorString(e_), \
                          __FILE__, __LINE__);                                             \
            goto fail;                                                                     \
        }                                                                                  \
    } while (0)
#define CKL() CK(cz__launch_check())

inline unsigned blocks(size_t n) { return (unsigned)((n + BLOCK - 1) / BLOCK); }
inline unsigned blocks_of(size_t n, unsigned b) { return (unsigned)((n + b - 1) / b); }

/* ------------------------------------------------------------------ plan */

inline int num_windows(int bits, int c) { return (bits + 1 + c - 1) / c; }

/* cost in mixed additions: every (scalar, window) entry is about one
 * (addition, sort, gather), every bucket about five (the bucket running
 * sums are two full additions, plus zeroing, scatter and partial sums) */
inline double plan_cost(size_t m, int bits, int c)
{
    return (double)num_windows(bits, c) * ((double)m + 5.0 * (double)((size_t)1 << (c - 1)));
}

/* the blocks of a table of `copies` that one bucket set spans: all of
 * them when there is a block a window (one set a window group); with fewer
 * blocks than windows, as many as a group's entries hold (max_e / m), at
 * most the table's; 0 when that is one block (no gain: the plain MSM on
 * block 0 instead) */
inline int copies_span(size_t m, int bits, int c, int copies, size_t max_e)
{
    if (copies >= num_windows(bits, c)) return copies;
    size_t g = max_e / (m ? m : 1);
    int span = g < (size_t)copies ? (int)g : copies;
    return span < 2 ? 0 : span;
}

/* the same through window copies: the entries as many, the buckets paid
 * once a set: once a window group with a block a window, else once every
 * `span` windows */
inline double plan_cost_copies(size_t m, int bits, int c, int copies, size_t max_e)
{
    int nw = num_windows(bits, c), span = copies_span(m, bits, c, copies, max_e);
    double e = (double)nw * (double)m, kb = 5.0 * (double)((size_t)1 << (c - 1));
    if (!span) return plan_cost(m, bits, c);
    if (span >= nw) {
        size_t groups = ((size_t)nw * m + max_e - 1) / max_e;
        return e + kb * (double)(groups ? groups : 1);
    }
    return e + kb * (double)((nw + span - 1) / span);
}

/* how an MSM of m general scalars and nw windows goes through the sort:
 * g windows a group (at most max_e entries), at most gb bucket sets a
 * group; with window copies whose sets span `span` blocks (fixed), a group
 * holds whole sets (full: a block a window, one set a group) */
struct msm_layout {
    int g, gb, groups;
    bool full;
};
inline msm_layout window_layout(size_t m, int nw, bool fixed, int span, size_t max_e)
{
    msm_layout L;
    L.full = fixed && span >= nw;
    if (fixed && !L.full) { /* whole sets of `span` windows a group */
        int sets = (nw + span - 1) / span;
        size_t gs = max_e / ((m ? m : 1) * span);
        L.gb = gs < 1 ? 1 : gs > (size_t)sets ? sets : (int)gs;
        L.g = L.gb * span;
    } else {
        L.g = m ? (int)(max_e / m) : 1;
        if (L.g < 1) L.g = 1;
        if (L.g > nw) L.g = nw > 0 ? nw : 1;
        L.gb = fixed ? 1 : L.g; /* a block a window: one set a group */
    }
    L.groups = m ? (nw + L.g - 1) / L.g : 0;
    return L;
}

/* the window in 2..max_c (max_c <= MAX_WINDOW) of least plan_cost */
inline int plan_window(size_t m, int bits, int max_c)
{
    if (bits < 1) bits = 1;
    int best = 2;
    double bc = 1e300;
    for (int c = 2; c <= max_c; c++) {
        double k = plan_cost(m, bits, c);
        if (k < bc) { bc = k; best = c; }
    }
    return best;
}

/* bump allocation inside a buffer (base NULL: only measure) */
struct carve {
    char *base;
    size_t at;
    template <class T> T *take(size_t count)
    {
        at = (at + 255) & ~(size_t)255;
        T *p = (T *)(base + at);
        at += count * sizeof(T);
        return p;
    }
};

/* the reduce-by-key engine's scratch for up to n items and d distinct keys */
template <class F> struct engine {
    uint32_t *pc, *incl, *okeys, *ukeys, *cnt, *off, *np, *incl2, *small; /* small: runs, max */
    cz_xyzz_t<F> *a, *b;
    void *temp;
    size_t temp_bytes;
    size_t cap_items, cap_segs;
};

/* segments of level 0 for up to n items: n / t0, or more when n is small
 * and reduce_by_key shortens the segments (to at most 2 T0_THREADS) */
inline size_t cap_segs_for(size_t n, uint32_t t0)
{
    size_t s = (n + t0 - 1) / t0, small = (n + T0_MIN - 1) / T0_MIN;
    if (small > 2 * T0_THREADS) small = 2 * T0_THREADS;
    return s > small ? s : small;
}
/* pieces of level 0 that need merging: at most two a segment, and at most
 * one a segment more than the distinct keys */
inline size_t cap_items_for(size_t n, size_t d, uint32_t t0)
{
    size_t s0 = cap_segs_for(n, t0), c = s0 + d < 2 * s0 ? s0 + d : 2 * s0;
    return c < n ? c : n;
}

template <class F> void engine_carve(engine<F> &e, carve &cv, size_t n, size_t d, size_t temp_bytes, uint32_t t0)
{
    size_t s0 = cap_segs_for(n, t0) + 1, ci = cap_items_for(n, d, t0) + 1;
    e.pc = cv.take<uint32_t>(s0);
    e.incl = cv.take<uint32_t>(s0);
    e.okeys = cv.take<uint32_t>(ci);
    e.ukeys = cv.take<uint32_t>(ci);
    e.cnt = cv.take<uint32_t>(ci);
    e.off = cv.take<uint32_t>(ci);
    e.np = cv.take<uint32_t>(ci);
    e.incl2 = cv.take<uint32_t>(ci);
    e.small = cv.take<uint32_t>(8);
    e.a = cv.take<cz_xyzz_t<F>>(ci);
    e.b = cv.take<cz_xyzz_t<F>>(ci);
    e.temp = cv.take<char>(temp_bytes);
    e.temp_bytes = temp_bytes;
    e.cap_items = ci;
    e.cap_segs = s0;
}

/* CUB scratch bytes for the engine on n items */
template <class F> cudaError_t engine_temp(size_t *bytes, size_t n, size_t d, uint32_t t0)
{
    size_t s0 = cap_segs_for(n, t0) + 1, ci = cap_items_for(n, d, t0) + 1, b = 0, t = 0;
    uint32_t *u = NULL;
    cudaError_t e;
    if ((e = cub::DeviceScan::InclusiveSum(NULL, t, u, u, (int)s0))) return e;
    b = t > b ? t : b;
    if ((e = cub::DeviceScan::InclusiveSum(NULL, t, u, u, (int)ci))) return e;
    b = t > b ? t : b;
    if ((e = cub::DeviceScan::ExclusiveSum(NULL, t, u, u, (int)ci))) return e;
    b = t > b ? t : b;
    if ((e = cub::DeviceRunLengthEncode::Encode(NULL, t, u, u, u, u, (int)ci))) return e;
    b = t > b ? t : b;
    if ((e = cub::DeviceReduce::Max(NULL, t, u, u, (int)ci))) return e;
    b = t > b ? t : b;
    *bytes = b;
    return cudaSuccess;
}

/* reads `count` words of device memory at src through the pinned buffer */
inline cudaError_t read_small(cz_cuda_msm *ctx, uint32_t *dst, const uint32_t *src, size_t count)
{
    cudaError_t e = cudaMemcpyAsync(ctx->host_counters, src, count * 4, cudaMemcpyDeviceToHost, ctx->stream);
    if (e) return e;
    if ((e = cudaStreamSynchronize(ctx->stream))) return e;
    memcpy(dst, ctx->host_counters, count * 4);
    return cudaSuccess;
}

/* The point-arithmetic launches of the engine. G1 runs a thread per piece
 * of work; G2 a lane pair (fp2_pair.cuh).
 *
 * Their kernels are most of the build (the field arithmetic unrolled into
 * every addition), so they are only declared here: msm_launch.cuh defines
 * the launches and the translation units msm_g1_sums.cu, msm_g1_ba.cu and
 * msm_g2_pair.cu instantiate them, each kernel once, in parallel with the
 * host code of msm_g1.cu, msm_g2.cu and msm_api.cu (which include this file
 * and compile none of them; before, each of the three compiled every G2
 * kernel). A launch missing from those units is a link error, not a silent
 * fallback. */
template <class F, class In>
void launch_segment_sums_t(cudaStream_t st, unsigned hb, In in, const uint32_t *keys, uint32_t n, uint32_t s0,
                           const uint32_t *incl, const uint32_t *pc, uint32_t *okeys, cz_xyzz_t<F> *out,
                           cz_xyzz_t<F> *dest, uint32_t t0);
template <class F>
void launch_run_sums_t(cudaStream_t st, unsigned hb, size_t bound, const cz_xyzz_t<F> *items, const uint32_t *off,
                       const uint32_t *cnt, const uint32_t *np, const uint32_t *incl2, uint32_t runs,
                       cz_xyzz_t<F> *out);
template <class F>
void launch_bucket_segments_t(cudaStream_t st, unsigned hb, const cz_xyzz_t<F> *buckets, uint32_t kb, uint32_t l,
                              uint32_t segs, uint32_t nt, cz_xyzz_t<F> *out, uint32_t *okeys);
/* blocks of hb threads of the bucket-sum kernel one SM holds */
template <class F> cudaError_t bucket_blocks_t(int *nb, int hb);
/* G2 on lane pairs (msm_g2_pair.cu) */
void launch_segment_sums_pair(cudaStream_t st, unsigned hb, cz_in_aff<fp2_t> in, const uint32_t *keys, uint32_t n,
                              uint32_t s0, const uint32_t *incl, const uint32_t *pc, uint32_t *okeys,
                              cz_xyzz_t<fp2_t> *out, cz_xyzz_t<fp2_t> *dest, uint32_t t0);
void launch_segment_sums_pair(cudaStream_t st, unsigned hb, cz_in_xyzz<fp2_t> in, const uint32_t *keys, uint32_t n,
                              uint32_t s0, const uint32_t *incl, const uint32_t *pc, uint32_t *okeys,
                              cz_xyzz_t<fp2_t> *out, cz_xyzz_t<fp2_t> *dest, uint32_t t0);
void launch_run_sums_pair(cudaStream_t st, unsigned hb, size_t bound, const cz_xyzz_t<fp2_t> *items,
                          const uint32_t *off, const uint32_t *cnt, const uint32_t *np, const uint32_t *incl2,
                          uint32_t runs, cz_xyzz_t<fp2_t> *out);
void launch_bucket_segments_pair(cudaStream_t st, unsigned hb, const cz_xyzz_t<fp2_t> *buckets, uint32_t kb,
                                 uint32_t l, uint32_t segs, uint32_t nt, cz_xyzz_t<fp2_t> *out, uint32_t *okeys);
cudaError_t bucket_blocks_pair(int *nb, int hb);
/* one batch-affine round of T chains over the entries (rk, src, rm)
 * (msm_g1_ba.cu): forward, inversion in U groups, backward; the first
 * launch error */
template <class F, class Src>
cudaError_t launch_ba_round(cudaStream_t st, Src src, const uint32_t *rk, uint32_t rm, const uint32_t *incl,
                            uint32_t npairs, uint32_t T, uint32_t U, uint32_t *okeys, cz_aff_t<F> *opts, F *tot,
                            F *pre);

template <class F, class In>
inline void launch_segment_sums(cz_cuda_msm *ctx, In in, const uint32_t *keys, uint32_t n, uint32_t s0,
                                const uint32_t *incl, const uint32_t *pc, uint32_t *okeys, cz_xyzz_t<F> *out,
                                cz_xyzz_t<F> *dest, uint32_t t0)
{
    unsigned hb = (unsigned)ctx->heavy_block;
    if constexpr (std::is_same<F, fp2_t>::value)
        launch_segment_sums_pair(ctx->stream, hb, in, keys, n, s0, incl, pc, okeys, out, dest, t0);
    else
        launch_segment_sums_t<F, In>(ctx->stream, hb, in, keys, n, s0, incl, pc, okeys, out, dest, t0);
}
template <class F>
inline void launch_run_sums(cz_cuda_msm *ctx, size_t bound, const cz_xyzz_t<F> *items, engine<F> &e, uint32_t runs,
                            cz_xyzz_t<F> *out)
{
    unsigned hb = (unsigned)ctx->heavy_block;
    if constexpr (std::is_same<F, fp2_t>::value)
        launch_run_sums_pair(ctx->stream, hb, bound, items, e.off, e.cnt, e.np, e.incl2, runs, out);
    else
        launch_run_sums_t<F>(ctx->stream, hb, bound, items, e.off, e.cnt, e.np, e.incl2, runs, out);
}
template <class F>
inline void launch_bucket_segments(cz_cuda_msm *ctx, const cz_xyzz_t<F> *buckets, uint32_t kb, uint32_t l,
                                   uint32_t segs, uint32_t nt, cz_xyzz_t<F> *out, uint32_t *okeys)
{
    unsigned hb = (unsigned)ctx->heavy_block;
    if constexpr (std::is_same<F, fp2_t>::value)
        launch_bucket_segments_pair(ctx->stream, hb, buckets, kb, l, segs, nt, out, okeys);
    else
        launch_bucket_segments_t<F>(ctx->stream, hb, buckets, kb, l, segs, nt, out, okeys);
}
/* Threads (segments) of one full wave of the bucket-sum kernel: every
 * block of it resident at once on every SM. Each segment is a chain of
 * two additions a bucket plus one double-and-add, so the phase costs
 * waves x (2 l + ~1.5 (c - 1)) additions: one full wave with the longest
 * segments beats more waves of shorter ones, and a wave that is only a
 * little over full costs a second one (53 K segments of 128 on 50.7 K
 * slots did at 2^24). Asked once per context and group; 65536 if the
 * query fails. */
template <class F> inline uint32_t bucket_wave(cz_cuda_msm *ctx)
{
    const int gi = std::is_same<F, fp_t>::value ? 0 : 1;
    if (ctx->bucket_wave[gi]) return ctx->bucket_wave[gi];
    int sms = 0, nb = 0, hb = ctx->heavy_block, lanes = 1;
    cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ctx->device);
    if (e == cudaSuccess) {
        if constexpr (std::is_same<F, fp2_t>::value) {
            e = bucket_blocks_pair(&nb, hb);
            lanes = 2;
        } else {
            e = bucket_blocks_t<F>(&nb, hb);
        }
    }
    uint32_t w = 65536;
    if (e == cudaSuccess && sms > 0 && nb > 0) w = (uint32_t)((size_t)sms * nb * hb / lanes);
    else cudaGetLastError(); /* clear it: the default serves */
    ctx->bucket_wave[gi] = w;
    return w;
}

/* dest[key] = the sum of the items with that key, for n items sorted by
 * key; keys without items are left as they are. Level 0 writes the keys
 * that lie inside one segment straight to dest; only the pieces of keys
 * that cross a segment's edge go through the later levels and the scatter. */
template <class F, class In>
cz_err reduce_by_key(cz_cuda_msm *ctx, engine<F> &e, In in, const uint32_t *keys, uint32_t n,
                            cz_xyzz_t<F> *dest, char *msg, size_t msglen)
{
    cz_err err = CZ_OK;
    cudaStream_t st = ctx->stream;
    uint32_t t0 = ctx->t0, s0, p0, rm[2], runs, maxrun;
    size_t tb;
    cz_xyzz_t<F> *cur = e.a, *other = e.b;
    if (n == 0) return CZ_OK;
    /* few items (a small MSM, the bucket segments' sums): shorter
     * segments, so that level 0 has threads enough and short chains, as far
     * as the engine's room allows */
    while (t0 > T0_MIN && n / t0 < T0_THREADS) {
        size_t s1 = (n + t0 / 2 - 1) / (t0 / 2);
        if (s1 + 1 > e.cap_segs || (2 * s1 < n ? 2 * s1 : n) + 1 > e.cap_items) break;
        t0 /= 2;
    }
    s0 = (n + t0 - 1) / t0;
    cz_k_count_pieces<<<blocks(s0), BLOCK, 0, st>>>(e.pc, keys, n, t0);
    CKL();
    tb = e.temp_bytes;
    CK(cub::DeviceScan::InclusiveSum(e.temp, tb, e.pc, e.incl, (int)s0, st));
    CK(read_small(ctx, &p0, e.incl + s0 - 1, 1));
    if (p0 > e.cap_items) {
        err = cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "cuda msm: %u partial sums past the plan's %zu", p0,
                      e.cap_items);
        goto fail;
    }
    launch_segment_sums(ctx, in, keys, n, s0, e.incl, e.pc, e.okeys, cur, dest, t0);
    CKL();
    if (p0 == 0) return CZ_OK; /* every key inside one segment */
    CK(cudaMemsetAsync(e.cnt, 0, (size_t)p0 * 4, st));
    tb = e.temp_bytes;
    CK(cub::DeviceRunLengthEncode::Encode(e.temp, tb, e.okeys, e.ukeys, e.cnt, e.small, (int)p0, st));
    tb = e.temp_bytes;
    CK(cub::DeviceReduce::Max(e.temp, tb, e.cnt, e.small + 1, (int)p0, st));
    CK(read_small(ctx, rm, e.small, 2));
    runs = rm[0];
    maxrun = rm[1];
    if (maxrun > 1) {
        size_t items = p0;
        tb = e.temp_bytes;
        CK(cub::DeviceScan::ExclusiveSum(e.temp, tb, e.cnt, e.off, (int)runs, st));
        while (maxrun > 1) {
            cz_k_run_pieces<<<blocks(runs), BLOCK, 0, st>>>(e.np, e.cnt, runs, T1);
            CKL();
            tb = e.temp_bytes;
            CK(cub::DeviceScan::InclusiveSum(e.temp, tb, e.np, e.incl2, (int)runs, st));
            size_t bound = items / T1 + runs;
            if (bound > items) bound = items;
            launch_run_sums<F>(ctx, bound, cur, e, runs, other);
            CKL();
            cz_k_next_runs<<<blocks(runs), BLOCK, 0, st>>>(e.off, e.cnt, e.np, e.incl2, runs);
            CKL();
            cz_xyzz_t<F> *t = cur;
            cur = other;
            other = t;
            items = bound;
            maxrun = (maxrun + T1 - 1) / T1;
        }
        cz_k_scatter<F><<<blocks(runs), BLOCK, 0, st>>>(dest, e.ukeys, e.off, cur, runs);
    } else {
        cz_k_scatter<F><<<blocks(runs), BLOCK, 0, st>>>(dest, e.ukeys, NULL, cur, runs);
    }
    CKL();
fail:
    return err;
}

/* makes ctx->buf[i] at least bytes long */
inline cz_err ensure(cz_cuda_msm *ctx, int i, size_t bytes, char *msg, size_t msglen)
{
    cz_err err = CZ_OK;
    if (ctx->cap[i] >= bytes) return CZ_OK;
    if (ctx->buf[i]) {
        CK(cudaStreamSynchronize(ctx->stream));
        cz__vram_free(ctx->buf[i]);
        ctx->buf[i] = NULL;
        ctx->cap[i] = 0;
    }
    CK(cz__vram_malloc(&ctx->buf[i], bytes));
    ctx->cap[i] = bytes;
fail:
    return err;
}

inline bool is_device_ptr(const void *p)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError(); /* clear it */
        return false;
    }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

/* --------------------------------------------------------------- the MSM */

/* The MSM up to its window sums: on success *win points to the nw window
 * sums and *ones to the sum of the one-scalars' bases, both in the
 * context's pinned host buffer (valid until the next call; *nw = 0 when no
 * scalar is general, *ones NULL when none is one either); the caller adds
 * sum_j 2^(c j) win[j] + ones on the host (msm_g1.cu, msm_g2.cu): the
 * c nw doublings of that Horner sum are one dependent chain, which one CPU
 * core runs many times faster than one GPU thread. */
template <class F>
cz_err msm(cz_cuda_msm *ctx, const cz_xyzz_t<F> **win, int *nw_out, int *c_out, const cz_xyzz_t<F> **ones_out,
           const cz_aff_t<F> *bases, const cz_fr *scalars, size_t n, int mont, const uint64_t *density, char *msg,
           size_t msglen, const msm_copies *fx = NULL)
{
    typedef cz_xyzz_t<F> X;
    cz_err err = CZ_OK;
    cudaStream_t st = ctx->stream;
    *win = NULL;
    *ones_out = NULL;
    *nw_out = *c_out = 0;
    ctx->last_c = ctx->last_nw = ctx->last_groups = 0;
    ctx->last_ones = ctx->last_gen = 0;
    ctx->last_copies = ctx->last_span = 0;
    if (n == 0) return CZ_OK;
    if (n >= ((size_t)1 << 31))
        return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "cuda msm: n = %zu is past 2^31 - 1", n);
    if (!bases || !scalars) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cuda msm: NULL bases or scalars");
    CK(cudaSetDevice(ctx->device));

    {
        /* ---- stage 1: the per-scalar lists ---- */
        size_t nwords = (n + 63) / 64;
        bool dev_k = is_device_ptr(scalars), dev_d = !density || is_device_ptr(density);
        size_t scan_bytes = 0;
        {
            uint32_t *u = NULL;
            CK(cub::DeviceScan::ExclusiveSum(NULL, scan_bytes, u, u, (int)nwords));
        }
        cz_scalar4 *d_k, *gen_k;
        uint64_t *d_dens;
        uint32_t *dprefix, *ones_idx, *gen_idx, *counters;
        void *scan_temp;
        carve c1;
        for (int pass = 0; pass < 2; pass++) { /* measure, then lay out */
            c1.base = pass ? (char *)ctx->buf[0] : NULL;
            c1.at = 0;
            d_k = c1.take<cz_scalar4>(dev_k ? 0 : n);
            d_dens = c1.take<uint64_t>(dev_d ? 0 : nwords);
            dprefix = c1.take<uint32_t>(nwords);
            ones_idx = c1.take<uint32_t>(n);
            gen_idx = c1.take<uint32_t>(n);
            gen_k = c1.take<cz_scalar4>(n);
            counters = c1.take<uint32_t>(8);
            scan_temp = c1.take<char>(scan_bytes);
            if (!pass && (err = ensure(ctx, 0, c1.at + 256, msg, msglen))) return err;
        }

        const cz_scalar4 *k_in = (const cz_scalar4 *)scalars;
        if (!dev_k) {
            CK(cudaMemcpyAsync(d_k, scalars, n * sizeof(cz_scalar4), cudaMemcpyHostToDevice, st));
            k_in = d_k;
        }
        const uint64_t *dens_in = density;
        if (density && !dev_d) {
            CK(cudaMemcpyAsync(d_dens, density, nwords * 8, cudaMemcpyHostToDevice, st));
            dens_in = d_dens;
        }
        if (dens_in) {
            cz_k_popcount<<<blocks(nwords), BLOCK, 0, st>>>(dprefix, dens_in, nwords);
            CKL();
            CK(cub::DeviceScan::ExclusiveSum(scan_temp, scan_bytes, dprefix, dprefix, (int)nwords, st));
        }
        CK(cudaMemsetAsync(counters, 0, 32, st));
        cz_k_classify<<<blocks_of(n, BLOCK * CZ_CLASSIFY_ITEMS), BLOCK, 0, st>>>(k_in, n, mont, dens_in, dprefix,
                                                                                ones_idx, gen_idx, gen_k, counters);
        CKL();
        uint32_t cnt[3];
        CK(read_small(ctx, cnt, counters, 3));
        size_t n1 = cnt[0], m = cnt[1];
        int bits = (int)cnt[2];
        ctx->last_ones = n1;
        ctx->last_gen = m;

        /* ---- the plan ---- */
        int c = ctx->cfg_window ? ctx->cfg_window : plan_window(m, bits, ctx->max_window);
        /* window copies (fx): their c, when the table can serve
         * (copies_span) and (unless forced) the plan costs less than
         * without */
        bool fixed = false;
        int span = 1; /* blocks a bucket set spans (1: plain) */
        if (fx && m && ctx->copies_mode != 2) {
            size_t me = ctx->cfg_max_entries ? ctx->cfg_max_entries : DEFAULT_MAX_ENTRIES;
            int sp = copies_span(m, bits, fx->c, fx->copies, me);
            if (sp) {
                fixed = ctx->copies_mode == 1 ||
                        plan_cost_copies(m, bits, fx->c, fx->copies, me) < plan_cost(m, bits, c);
                if (fixed) {
                    c = fx->c;
                    span = sp;
                }
            }
        }
        int nw = m ? num_windows(bits, c) : 0;
        /* the batch-affine rounds (G1 only, not with copies): room for their outputs */
        bool ba = false;
        if constexpr (std::is_same<F, fp_t>::value) ba = ctx->ba_mode >= 0 && !fixed;
        size_t max_e = ctx->cfg_max_entries ? ctx->cfg_max_entries : ba ? BA_MAX_ENTRIES : DEFAULT_MAX_ENTRIES;
        const msm_layout lay = window_layout(m, nw, fixed, span, max_e);
        const bool full = lay.full; /* a block a window: one set a group */
        const int g = lay.g, gb = lay.gb, groups = lay.groups; /* windows, bucket sets (at most) a group */
        uint32_t kb = (uint32_t)1 << (c - 1); /* buckets per window */
        /* the bucket sums: one full wave of segments (bucket_wave), or
         * one bucket a thread when there are fewer buckets than that */
        uint32_t l = 1, segs = kb;
        {
            uint32_t wave = bucket_wave<F>(ctx);
            if ((size_t)gb * kb > wave) {
                segs = wave / (uint32_t)gb;
                if (segs < 1) segs = 1;
                if (segs > kb) segs = kb;
                l = (kb + segs - 1) / segs;
                segs = (kb + l - 1) / l;
            }
        }
        size_t e_bkt = (size_t)m * g, e_seg = (size_t)gb * segs;
        size_t e_max = e_bkt;
        if (n1 > e_max) e_max = n1;
        if (e_seg > e_max) e_max = e_seg;
        size_t d_max = (size_t)gb * kb;
        if (d_max < (size_t)g) d_max = g;
        int keybits = 1; /* the keys and the sentinel past them: gb << (c - 1) */
        while (((uint32_t)1 << keybits) <= (uint32_t)gb) keybits++;
        keybits += c - 1;
        ctx->last_c = c;
        ctx->last_nw = nw;
        ctx->last_groups = groups;
        ctx->last_copies = fixed;
        ctx->last_span = fixed ? span : 0;
        /* the rounds' own first test on the largest group: when it fails no
         * round runs, so no room is made; the chains of a round of p pairs */
        if (ba && ctx->ba_mode == 0 && (e_bkt + 1) / 2 < BA_MIN_PAIRS) ba = false;
        uint32_t ba_chain = ctx->ba_chain ? ctx->ba_chain : BA_CHAIN;
        auto ba_chains = [&](size_t p) -> uint32_t {
            size_t t = ctx->ba_threads ? ctx->ba_threads : (p + ba_chain - 1) / ba_chain;
            return (uint32_t)(t < p ? t : p > 0 ? p : 1);
        };
        size_t ba_tmax = ba ? ba_chains((e_bkt + 1) / 2) : 0;
        /* round outputs: the first about halves the entries, the next
         * halve again, so two buffers of 5/8 and 3/8 (a round that would
         * not fit stops the rounds, which only costs speed) */
        size_t ba_cap[2] = {ba ? e_bkt / 2 + e_bkt / 8 + 1 : 0, ba ? e_bkt / 4 + e_bkt / 8 + 1 : 0};

        /* ---- stage 2 scratch ---- */
        size_t sort_bytes = 0, eng_bytes = 0;
        {
            uint32_t *u = NULL;
            CK(cub::DeviceRadixSort::SortPairs(NULL, sort_bytes, u, u, u, u, (int)(e_bkt ? e_bkt : 1), 0,
                                               keybits));
            CK(engine_temp<F>(&eng_bytes, e_max, d_max, ctx->t0));
            if (ba) {
                size_t t = 0;
                CK(cub::DeviceScan::InclusiveSum(NULL, t, u, u, (int)((e_bkt + 1) / 2)));
                if (t > eng_bytes) eng_bytes = t;
            }
        }
        size_t temp_bytes = sort_bytes > eng_bytes ? sort_bytes : eng_bytes;
        engine<F> eng;
        carve c2 = {NULL, 0};
        uint32_t *keys_in, *vals_in, *keys_out, *vals_out, *ba_keys[2];
        cz_aff_t<F> *ba_pts[2];
        F *ba_tot, *ba_pre; /* the chains' products, and their prefixes while they are inverted */
        X *buckets, *segsum, *winsum, *ones;
        for (int pass = 0; pass < 2; pass++) {
            c2.at = 0;
            c2.base = pass ? (char *)ctx->buf[1] : NULL;
            keys_in = c2.take<uint32_t>(e_max);
            vals_in = c2.take<uint32_t>(e_bkt);
            keys_out = c2.take<uint32_t>(e_bkt);
            vals_out = c2.take<uint32_t>(e_bkt);
            buckets = c2.take<X>(d_max);
            segsum = c2.take<X>(e_seg);
            winsum = c2.take<X>(nw + 1);
            ones = c2.take<X>(1);
            engine_carve<F>(eng, c2, e_max, d_max, temp_bytes, ctx->t0);
            for (int i = 0; i < 2; i++) {
                ba_keys[i] = c2.take<uint32_t>(ba_cap[i]);
                ba_pts[i] = c2.take<cz_aff_t<F>>(ba_cap[i]);
            }
            ba_tot = c2.take<F>(ba_tmax);
            ba_pre = c2.take<F>(ba_tmax);
            if (!pass && (err = ensure(ctx, 1, c2.at + 256, msg, msglen))) return err;
        }
        ctx->last_ba_rounds = 0;

        CK(cudaMemsetAsync(winsum, 0, (nw + 1) * sizeof(X), st));
        CK(cudaMemsetAsync(ones, 0, sizeof(X), st));

        /* ---- ones ---- */
        if (n1) {
            CK(cudaMemsetAsync(keys_in, 0, n1 * 4, st));
            cz_in_aff<F> in = {bases, ones_idx};
            if ((err = reduce_by_key<F>(ctx, eng, in, keys_in, (uint32_t)n1, ones, msg, msglen))) goto fail;
        }

        /* ---- the windows, by groups ---- */
        for (int w0 = 0; w0 < nw; w0 += g) {
            int gg = nw - w0 < g ? nw - w0 : g; /* windows of this group */
            int gs = !fixed ? gg : full ? 1 : (gg + span - 1) / span; /* its bucket sets */
            size_t e = (size_t)m * gg;
            uint32_t sentinel = (uint32_t)gs << (c - 1), neff;
            cz_k_digits<<<blocks(m), BLOCK, 0, st>>>(gen_k, gen_idx, (uint32_t)m, c, w0, gg,
                                                     fixed ? (uint32_t)fx->nb : 0u, span, (uint32_t)gs, keys_in,
                                                     vals_in);
            CKL();
            size_t tb = temp_bytes;
            CK(cub::DeviceRadixSort::SortPairs(eng.temp, tb, keys_in, keys_out, vals_in, vals_out, (int)e, 0,
                                               keybits, st));
            cz_k_lower_bound<<<1, 1, 0, st>>>(eng.small + 4, keys_out, (uint32_t)e, sentinel);
            CKL();
            CK(read_small(ctx, &neff, eng.small + 4, 1));
            CK(cudaMemsetAsync(buckets, 0, (size_t)gs * kb * sizeof(X), st));
            if constexpr (std::is_same<F, fp_t>::value) {
                /* batch-affine rounds: (rk, rp, rm) = the entries so far */
                const uint32_t *rk = keys_out;
                const cz_aff_t<F> *rp = NULL; /* NULL: still the bases by vals_out */
                uint32_t rm = neff;
                for (int round = 0; ba; round++) {
                    uint32_t npairs = (rm + 1) / 2, total, T = ba_chains(npairs);
                    if (rm < 2 || (ctx->ba_mode == 0 && npairs < BA_MIN_PAIRS) || T > ba_tmax) break;
                    uint32_t U = (T + BA_INV_GROUP - 1) / BA_INV_GROUP;
                    cz_k_ba_count<<<blocks(npairs), BLOCK, 0, st>>>(keys_in, rk, rm, npairs);
                    CKL();
                    tb = temp_bytes;
                    CK(cub::DeviceScan::InclusiveSum(eng.temp, tb, keys_in, keys_in, (int)npairs, st));
                    CK(read_small(ctx, &total, keys_in + npairs - 1, 1));
                    if (total == rm || (ctx->ba_mode == 0 && rm - total < rm / BA_MIN_MERGE) ||
                        total > ba_cap[round & 1])
                        break;
                    if (rp) {
                        cz_ba_points<F> src = {rp};
                        CK(launch_ba_round<F>(st, src, rk, rm, keys_in, npairs, T, U, ba_keys[round & 1],
                                              ba_pts[round & 1], ba_tot, ba_pre));
                    } else {
                        cz_ba_bases<F> src = {bases, vals_out};
                        CK(launch_ba_round<F>(st, src, rk, rm, keys_in, npairs, T, U, ba_keys[round & 1],
                                              ba_pts[round & 1], ba_tot, ba_pre));
                    }
                    rk = ba_keys[round & 1];
                    rp = ba_pts[round & 1];
                    rm = total;
                    ctx->last_ba_rounds++;
                }
                if (rp) {
                    cz_in_points<F> in = {rp};
                    if ((err = reduce_by_key<F>(ctx, eng, in, rk, rm, buckets, msg, msglen))) goto fail;
                } else {
                    cz_in_aff<F> in = {bases, vals_out};
                    if ((err = reduce_by_key<F>(ctx, eng, in, keys_out, neff, buckets, msg, msglen))) goto fail;
                }
            } else {
                cz_in_aff<F> in = {bases, vals_out};
                if ((err = reduce_by_key<F>(ctx, eng, in, keys_out, neff, buckets, msg, msglen))) goto fail;
            }
            uint32_t nt = (uint32_t)gs * segs;
            launch_bucket_segments<F>(ctx, buckets, kb, l, segs, nt, segsum, keys_in);
            CKL();
            cz_in_xyzz<F> ins = {segsum};
            /* with a block a window a group's buckets sum to its part of
             * the result (weights 2^(c w) are in the copies): one sum a
             * group; with fewer blocks one a set, of weight 2^(c span s) */
            int slot = !fixed ? w0 : full ? w0 / g : w0 / span;
            if ((err = reduce_by_key<F>(ctx, eng, ins, keys_in, nt, winsum + slot, msg, msglen))) goto fail;
        }
        if (full) { /* the groups' sums, added on the host with no doublings */
            nw = groups;
            c = 0;
        } else if (fixed) { /* the sets' sums, joined as windows of c span bits */
            nw = (nw + span - 1) / span;
            c *= span;
        }
        if ((size_t)(nw + 1) * sizeof(X) > CZ_MSM_HOST_WIN_BYTES) {
            err = cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "cuda msm: %d windows past the host buffer", nw);
            goto fail;
        }
        X *hw = (X *)ctx->host_win;
        if (nw) CK(cudaMemcpyAsync(hw, winsum, (size_t)nw * sizeof(X), cudaMemcpyDeviceToHost, st));
        CK(cudaMemcpyAsync(hw + nw, ones, sizeof(X), cudaMemcpyDeviceToHost, st));
        CK(cudaStreamSynchronize(st));
        *win = hw;
        *ones_out = hw + nw;
        *nw_out = nw;
        *c_out = c;
    }
fail:
    return err;
}


#endif
