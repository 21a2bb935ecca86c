/* msm_kernels.cuh — the device kernels of the MSM (msm_api.cu drives them).
 *
 * 1. classify: per scalar (Montgomery or plain, the density bitmap giving
 *    each its base index), zeros are dropped, ones go to a list of base
 *    indices, the rest to a list of (base index, plain scalar), with the
 *    largest bit length of the rest.
 * 2. digits: each general scalar is cut into signed c-bit digits
 *    d in [-(2^(c-1) - 1), 2^(c-1)] (a digit above half borrows from the next
 *    window); for a group of windows every (scalar, window) becomes an entry
 *    key = (window in group) << (c - 1) | (|d| - 1), value = base index with
 *    the sign in bit 31. Zero digits get a sentinel key that sorts last.
 * 3. The entries are sorted by key (CUB radix sort, in msm_api.cu).
 * 4. reduce by key, the engine that sums the sorted entries of each key:
 *    level 0 cuts the sorted array into fixed segments of T0 entries, one
 *    thread each (so a bucket of a million points costs no more than a
 *    million points in small buckets), and sums each piece (a maximal run
 *    of one key inside a segment): a piece that is a whole key goes
 *    straight to its destination, one that crosses a segment's edge is
 *    written as a partial sum, still sorted by key; later levels
 *    run-length encode those partials and sum each key's run in pieces of
 *    T1, shrinking every run by T1 until each key has one sum, which is
 *    scattered to its destination. The ones list (all key 0) and
 *    the per-window bucket sums go through the same engine.
 * 5. bucket_segments: each window's buckets B_1..B_K are cut into segments
 *    of L; a thread forms sum_b (b - sL) B_b by running sums over its
 *    segment and adds sL * sum_b B_b, so that the window's sum_b b B_b is
 *    the sum of its segment results (reduced by key, key = window).
 * 6. final: Horner over the window sums (c doublings between windows) plus
 *    the ones sum: on the host (msm_g1.cu, msm_g2.cu), not here.
 * Every kernel is a template (the group's field, or a dummy) so that the
 * translation units that include this header share one copy of each. */
#ifndef CZ_CUDA_MSM_KERNELS_CUH
#define CZ_CUDA_MSM_KERNELS_CUH

#include <stdint.h>
#include "cuda/ec.cuh"

#define CZ_MSM_SIGN 0x80000000u
#define CZ_FULL_MASK 0xffffffffu

struct cz_scalar4 { uint64_t l[4]; };

/* k R^-1 mod r (k < r, Montgomery form in, plain integer out) */
static __device__ __forceinline__ cz_scalar4 fr_from_mont(const cz_scalar4 &k)
{
    fr_t a = from_mont(fr_t::load(k.l));
    cz_scalar4 o;
    fr_t::store(o.l, a);
    return o;
}

static __device__ __forceinline__ bool fr_is_one_mont(const cz_scalar4 &k) { return fr_t::load(k.l).is_one(); }

/* pc[w] = popcount(density[w]) */
template <int D = 0>
__global__ void cz_k_popcount(uint32_t *pc, const uint64_t *density, size_t nwords)
{
    size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (w < nwords) pc[w] = (uint32_t)__popcll(density[w]);
}

/* counters: [0] ones, [1] general, [2] largest bit length of the general.
 * A block takes CZ_CLASSIFY_ITEMS * blockDim.x scalars (item j of thread t
 * is scalar base + j * blockDim.x + t, so loads stay coalesced) and makes
 * one global atomic per counter: its warps add their counts in shared
 * memory first. One atomic per warp on the same three words cost 8 ms of a
 * Filecoin-shaped 2^26 MSM's 75 under Nsight Compute (2^21 warps queueing
 * on one cache line); the lists' order is free (the sums are exact). */
#define CZ_CLASSIFY_ITEMS 4
template <int D = 0>
__global__ void cz_k_classify(const cz_scalar4 *scalars, size_t n, int mont, const uint64_t *density,
                              const uint32_t *dprefix, uint32_t *ones_idx, uint32_t *gen_idx,
                              cz_scalar4 *gen_k, uint32_t *counters)
{
    __shared__ uint32_t s_cnt[2], s_base[2], s_bits;
    const size_t base = (size_t)blockIdx.x * blockDim.x * CZ_CLASSIFY_ITEMS;
    int cls[CZ_CLASSIFY_ITEMS]; /* 0 skip, 1 one, 2 general */
    uint32_t bi[CZ_CLASSIFY_ITEMS], bits = 0;
    cz_scalar4 k[CZ_CLASSIFY_ITEMS];
#pragma unroll
    for (int j = 0; j < CZ_CLASSIFY_ITEMS; j++) {
        size_t i = base + (size_t)j * blockDim.x + threadIdx.x;
        cls[j] = 0;
        bi[j] = (uint32_t)i;
        k[j] = cz_scalar4{{0, 0, 0, 0}};
        if (i >= n) continue;
        bool present = true;
        if (density) {
            uint64_t word = density[i / 64], below = (((uint64_t)1) << (i % 64)) - 1;
            present = (word >> (i % 64)) & 1;
            bi[j] = dprefix[i / 64] + (uint32_t)__popcll(word & below);
        }
        if (!present) continue;
        cz_scalar4 v = scalars[i];
        bool zero = (v.l[0] | v.l[1] | v.l[2] | v.l[3]) == 0;
        bool one = mont ? fr_is_one_mont(v) : (v.l[0] == 1 && (v.l[1] | v.l[2] | v.l[3]) == 0);
        if (zero) continue;
        if (one) {
            cls[j] = 1;
            continue;
        }
        cls[j] = 2;
        if (mont) v = fr_from_mont(v);
        for (int l = 3; l >= 0; l--)
            if (v.l[l]) {
                uint32_t b = 64 * l + 64 - __clzll(v.l[l]);
                if (b > bits) bits = b;
                break;
            }
        k[j] = v;
    }
    if (threadIdx.x == 0) s_cnt[0] = s_cnt[1] = s_bits = 0;
    __syncthreads();
    const int lane = threadIdx.x & 31;
    const uint32_t below = (1u << lane) - 1;
    uint32_t m1[CZ_CLASSIFY_ITEMS], m2[CZ_CLASSIFY_ITEMS], w1 = 0, w2 = 0;
#pragma unroll
    for (int j = 0; j < CZ_CLASSIFY_ITEMS; j++) {
        m1[j] = __ballot_sync(CZ_FULL_MASK, cls[j] == 1);
        m2[j] = __ballot_sync(CZ_FULL_MASK, cls[j] == 2);
        w1 += (uint32_t)__popc(m1[j]);
        w2 += (uint32_t)__popc(m2[j]);
    }
    uint32_t mb = __reduce_max_sync(CZ_FULL_MASK, bits), o1 = 0, o2 = 0;
    if (lane == 0) { /* the warp's place in the block's lists */
        if (w1) o1 = atomicAdd(&s_cnt[0], w1);
        if (w2) o2 = atomicAdd(&s_cnt[1], w2);
        if (mb) atomicMax(&s_bits, mb);
    }
    __syncthreads();
    if (threadIdx.x == 0) { /* the block's place in the global lists */
        s_base[0] = s_cnt[0] ? atomicAdd(&counters[0], s_cnt[0]) : 0;
        s_base[1] = s_cnt[1] ? atomicAdd(&counters[1], s_cnt[1]) : 0;
        if (s_bits) atomicMax(&counters[2], s_bits);
    }
    __syncthreads();
    o1 = __shfl_sync(CZ_FULL_MASK, o1, 0) + s_base[0];
    o2 = __shfl_sync(CZ_FULL_MASK, o2, 0) + s_base[1];
#pragma unroll
    for (int j = 0; j < CZ_CLASSIFY_ITEMS; j++) {
        if (cls[j] == 1) ones_idx[o1 + __popc(m1[j] & below)] = bi[j];
        if (cls[j] == 2) {
            uint32_t at = o2 + __popc(m2[j] & below);
            gen_idx[at] = bi[j];
            gen_k[at] = k[j];
        }
        o1 += (uint32_t)__popc(m1[j]);
        o2 += (uint32_t)__popc(m2[j]);
    }
}

/* c-bit window w of k (bits past 256 are zero) */
static CZ_HD uint32_t cz_window(const cz_scalar4 &k, int w, int c)
{
    int bit = w * c, limb = bit / 64, off = bit % 64;
    if (limb >= 4) return 0;
    uint64_t v = k.l[limb] >> off;
    if (off + c > 64 && limb + 1 < 4) v |= k.l[limb + 1] << (64 - off);
    return (uint32_t)(v & ((((uint64_t)1) << c) - 1));
}

/* entries of windows [w0, w0 + g) for m general scalars, window-major:
 * key = the window's bucket set (window - w0) and the digit's magnitude,
 * value = base index and sign; `sets` bucket sets, the key past them a
 * zero digit's. With window copies (stride > 0: block j of the bases, at j
 * stride, is 2^(c j) times block 0) a set spans `span` windows (w0 a
 * multiple of it): window w adds into set (w - w0) / span from block
 * w mod span; span >= g is one set for every window, from block w.
 * Without, span is 1 and stride 0. One scalar (j of m) a call; the host
 * runs it too (cz__cuda_msm_digits_host, for tests). */
static CZ_HD void cz_digits_one(const cz_scalar4 &k, uint32_t idx, uint32_t j, uint32_t m, int c, int w0, int g,
                                uint32_t stride, int span, uint32_t sets, uint32_t *keys, uint32_t *vals)
{
    uint32_t half = 1u << (c - 1), carry = 0;
    uint32_t sentinel = sets << (c - 1);
    for (int w = 0; w < w0 + g; w++) {
        uint32_t v = cz_window(k, w, c) + carry;
        uint32_t neg = 0, mag = v;
        carry = 0;
        if (v > half) {
            mag = (1u << c) - v;
            neg = CZ_MSM_SIGN;
            carry = 1;
        }
        if (w >= w0) {
            size_t at = (size_t)(w - w0) * m + j;
            uint32_t wk = (uint32_t)((w - w0) / span) << (c - 1);
            keys[at] = mag ? wk | (mag - 1) : sentinel;
            vals[at] = (idx + (uint32_t)(w % span) * stride) | neg;
        }
    }
}
template <int D = 0>
__global__ void cz_k_digits(const cz_scalar4 *gen_k, const uint32_t *gen_idx, uint32_t m, int c, int w0,
                            int g, uint32_t stride, int span, uint32_t sets, uint32_t *keys, uint32_t *vals)
{
    uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m) return;
    cz_digits_one(gen_k[j], gen_idx[j], j, m, c, w0, g, stride, span, sets, keys, vals);
}

/* *out = the first position in sorted keys[0, n) holding a key >= bound */
template <int D = 0>
__global__ void cz_k_lower_bound(uint32_t *out, const uint32_t *keys, uint32_t n, uint32_t bound)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < bound) lo = mid + 1;
        else hi = mid;
    }
    *out = lo;
}

/* level 0, step 1: in each segment of t entries, the pieces (maximal runs
 * of one key) that continue into a neighbouring segment and so must be
 * merged: the first when the entry before the segment has its key, the
 * last when the entry after it has (0, 1 or 2). Every other piece is a
 * whole key and cz_k_segment_sums writes it straight to its destination. */
template <int D = 0>
__global__ void cz_k_count_pieces(uint32_t *pc, const uint32_t *keys, uint32_t n, uint32_t t)
{
    uint32_t s = blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t lo = (uint64_t)s * t;
    if (lo >= n) return;
    uint32_t hi = (uint32_t)min((uint64_t)n, lo + t), p = 1;
    uint32_t prev = keys[lo];
    for (uint32_t e = (uint32_t)lo + 1; e < hi; e++) {
        uint32_t k = keys[e];
        p += k != prev;
        prev = k;
    }
    uint32_t a = lo > 0 && keys[lo - 1] == keys[lo], b = hi < n && keys[hi] == keys[hi - 1];
    pc[s] = p == 1 ? (a | b) : a + b;
}

/* items of the engine: affine bases by index (with sign) or XYZZ sums */
template <class F> struct cz_in_aff {
    const cz_aff_t<F> *bases;
    const uint32_t *vals;
    __device__ __forceinline__ void add(cz_xyzz_t<F> &acc, uint32_t e) const
    {
        uint32_t v = vals[e];
        cz_aff_t<F> b = bases[v & ~CZ_MSM_SIGN];
        xyzz_madd(acc, b, (v & CZ_MSM_SIGN) != 0);
    }
};
template <class F> struct cz_in_xyzz {
    const cz_xyzz_t<F> *items;
    __device__ __forceinline__ void add(cz_xyzz_t<F> &acc, uint32_t e) const { xyzz_add(acc, items[e]); }
};

/* ---- batch-affine rounds (G1) ----
 * Before level 0, the sorted entries can go through rounds that add
 * neighbours in affine coordinates: entries 2i and 2i + 1 of a round with
 * the same key become one point (a merge), any other pair passes through as
 * it is, so a round keeps the order by key and every run of one key about
 * halves. An affine addition needs 1/(x2 - x1) (or 1/(2 y1) when doubling),
 * shared among many merges by Montgomery's trick in two levels:
 *   cz_k_ba_fwd: chain t of T takes the pairs t, t + T, t + 2T, ... (a few
 *     tens each, so the kernel has many threads and few registers: it is all
 *     memory), writes pass-throughs, leaves in the x of each merge's own
 *     output slot the product of the chain's denominators before it, and
 *     the chain's whole product in tot[t];
 *   cz_k_ba_inv: tot[] inverted in place, groups of values sharing one
 *     Fermat inversion (the same trick over the chains' products);
 *   cz_k_ba_bwd: chain t again, last pair first, with 1/tot[t]: each merge's
 *     1/d from the prefix in its slot, then lambda, lambda^2 and y3.
 * A merge costs 1 + 2 + 3 products (forward, the inverse chain, the point)
 * and its share of the chains' inversion (3 products a chain over its
 * pairs): about 6.1 where the mixed XYZZ addition of level 0 takes 10.
 *
 * Infinity is (0, 0), and on G1 x = 0 only at infinity (the points with
 * x = 0 have order 3 and are not in the group), so a merge tells its case
 * from the two x alone unless they are equal: then y1 == y2 doubles and
 * y1 == -y2 gives infinity. A merge with infinity copies the other point. */

/* read-only loads through the non-coherent cache (ld.global.nc): the
 * compiler may issue them ahead of the round's stores, so the loads of two
 * pairs are in flight together */
template <int NV>
CZ_EC void cz_ba_ld(uint4 *dst, const void *src)
{
    const uint4 *p = (const uint4 *)src;
    CZ_UNROLL for (int k = 0; k < NV; k++) {
#ifdef __CUDA_ARCH__
        dst[k] = __ldg(p + k);
#else
        dst[k] = p[k];
#endif
    }
}
template <class F> CZ_EC F cz_ba_ld_fe(const F *p)
{
    static_assert(sizeof(F) % 16 == 0, "field element of whole 16-byte words");
    union { uint4 v[sizeof(F) / 16]; F f; } u;
    cz_ba_ld<sizeof(F) / 16>(u.v, p);
    return u.f;
}
CZ_EC inline uint32_t cz_ba_ld_u32(const uint32_t *p)
{
#ifdef __CUDA_ARCH__
    return __ldg(p);
#else
    return *p;
#endif
}

/* the sources of a round: bases by (index | sign) or a round's points */
template <class F> struct cz_ba_bases {
    const cz_aff_t<F> *bases;
    const uint32_t *vals;
    CZ_EC F x(uint32_t e) const { return cz_ba_ld_fe(&bases[cz_ba_ld_u32(vals + e) & ~CZ_MSM_SIGN].x); }
    CZ_EC cz_aff_t<F> pt(uint32_t e) const
    {
        uint32_t v = cz_ba_ld_u32(vals + e);
        const cz_aff_t<F> *q = &bases[v & ~CZ_MSM_SIGN];
        cz_aff_t<F> p;
        p.x = cz_ba_ld_fe(&q->x);
        p.y = cz_ba_ld_fe(&q->y);
        if (v & CZ_MSM_SIGN) p.y = fe_neg(p.y);
        return p;
    }
};
template <class F> struct cz_ba_points {
    const cz_aff_t<F> *pts;
    CZ_EC F x(uint32_t e) const { return cz_ba_ld_fe(&pts[e].x); }
    CZ_EC cz_aff_t<F> pt(uint32_t e) const
    {
        cz_aff_t<F> p;
        p.x = cz_ba_ld_fe(&pts[e].x);
        p.y = cz_ba_ld_fe(&pts[e].y);
        return p;
    }
};

/* outputs of pair i of m sorted keys: 1 for a merge (or a lone last entry);
 * a round's output slots are the inclusive prefix sums of these */
CZ_EC inline uint32_t cz_ba_outputs(const uint32_t *keys, uint32_t m, uint32_t i)
{
    uint32_t a = 2 * i, b = a + 1;
    return b >= m ? 1u : keys[a] == keys[b] ? 1u : 2u;
}

template <int D = 0>
__global__ void cz_k_ba_count(uint32_t *cnt, const uint32_t *keys, uint32_t m, uint32_t npairs)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < npairs) cnt[i] = cz_ba_outputs(keys, m, i);
}

/* one pair of a round, as both passes see it */
template <class F> struct cz_ba_pair {
    uint32_t o;  /* its first output slot */
    int kind;    /* 0 passes through or needs no inversion, 1 add, 2 double */
    F x1, x2, d; /* d: the denominator of kind 1 and 2 */
};

/* forward pass over pair i: pass-throughs and merges that need no inversion
 * (with infinity, or P + (-P)) are written here; kinds 1 and 2 give d */
template <class F, class Src>
CZ_EC cz_ba_pair<F> cz_ba_fwd(const Src &src, const uint32_t *keys, uint32_t m, const uint32_t *incl, uint32_t i,
                              uint32_t *okeys, cz_aff_t<F> *out)
{
    cz_ba_pair<F> q;
    uint32_t a = 2 * i, b = a + 1;
    uint32_t ka = cz_ba_ld_u32(keys + a), kb = b < m ? cz_ba_ld_u32(keys + b) : ka;
    bool merge = b < m && ka == kb;
    q.o = cz_ba_ld_u32(incl + i) - (merge || b >= m ? 1u : 2u);
    q.kind = 0;
    okeys[q.o] = ka;
    if (!merge) { /* passes through */
        out[q.o] = src.pt(a);
        if (b < m) {
            out[q.o + 1] = src.pt(b);
            okeys[q.o + 1] = kb;
        }
        return q;
    }
    q.x1 = src.x(a);
    q.x2 = src.x(b);
    if (fe_is_zero(q.x1)) { out[q.o] = src.pt(b); return q; }
    if (fe_is_zero(q.x2)) { out[q.o] = src.pt(a); return q; }
    if (q.x1 == q.x2) {
        cz_aff_t<F> p = src.pt(a), r = src.pt(b);
        if (p.y != r.y) { /* P + (-P) */
            cz_aff_t<F> z;
            fe_set_zero(z.x);
            fe_set_zero(z.y);
            out[q.o] = z;
            return q;
        }
        q.d = fe_dbl(p.y);
        q.kind = 2;
        return q;
    }
    q.d = fe_sub(q.x2, q.x1);
    q.kind = 1;
    return q;
}

/* backward pass over pair i: loads its points once and, for kinds 1 and 2,
 * the prefix product the forward pass left in its slot */
template <class F> struct cz_ba_late {
    int kind;
    uint32_t o;
    cz_aff_t<F> p, r;
    F pre;
};
template <class F, class Src>
CZ_EC cz_ba_late<F> cz_ba_bwd_load(const Src &src, const uint32_t *keys, uint32_t m, const uint32_t *incl,
                                   uint32_t i, const cz_aff_t<F> *out)
{
    cz_ba_late<F> q;
    uint32_t a = 2 * i, b = a + 1;
    q.kind = 0;
    if (b >= m || cz_ba_ld_u32(keys + a) != cz_ba_ld_u32(keys + b)) return q;
    q.p = src.pt(a);
    q.r = src.pt(b);
    if (fe_is_zero(q.p.x) || fe_is_zero(q.r.x)) return q;
    if (q.p.x == q.r.x) {
        if (q.p.y != q.r.y) return q;
        q.kind = 2;
    } else {
        q.kind = 1;
    }
    q.o = cz_ba_ld_u32(incl + i) - 1;
    q.pre = out[q.o].x; /* written by this thread: a coherent load */
    return q;
}

/* finishes a merge of kind 1 or 2 with inv = 1 / (d times the denominators
 * before it), and turns inv into the inverse for the merge before */
template <class F> CZ_EC void cz_ba_finish(const cz_ba_late<F> &q, F &inv, cz_aff_t<F> *out)
{
    F d, num;
    if (q.kind == 2) { /* doubling: 3 x^2 / (2 y) */
        d = fe_dbl(q.p.y);
        num = fe_sqr(q.p.x);
        num = fe_add(fe_dbl(num), num);
    } else {
        d = fe_sub(q.r.x, q.p.x);
        num = fe_sub(q.r.y, q.p.y);
    }
    F dinv = fe_mul(inv, q.pre); /* 1/d */
    inv = fe_mul(inv, d);
    F lam = fe_mul(num, dinv);
    cz_aff_t<F> s;
    s.x = fe_sub(fe_sub(fe_sqr(lam), q.p.x), q.r.x);
    s.y = fe_sub(fe_mul(lam, fe_sub(q.p.x, s.x)), q.p.y);
    out[q.o] = s;
}

/* forward pass of chain t of T over the npairs pairs of a round: the pairs
 * t, t + T, ...; tot[t] = the product of its denominators (1 when none) */
template <class F, class Src>
CZ_EC void cz_ba_fwd_chain(const Src &src, const uint32_t *keys, uint32_t m, const uint32_t *incl, uint32_t npairs,
                           uint32_t t, uint32_t T, uint32_t *okeys, cz_aff_t<F> *out, F *tot)
{
    F acc;
    fe_set_one(acc);
    for (uint32_t i = t; i < npairs; i += T) {
        cz_ba_pair<F> q = cz_ba_fwd<F>(src, keys, m, incl, i, okeys, out);
        if (q.kind) {
            out[q.o].x = acc; /* the product of the denominators before this one */
            acc = fe_mul(acc, q.d);
        }
    }
    tot[t] = acc;
}

/* inverts v[u], v[u + U], ... (n values, none zero) in place with one
 * inversion; pre[] holds the prefix products between the two passes */
template <class F> CZ_EC void cz_ba_inv_group(F *v, F *pre, uint32_t n, uint32_t u, uint32_t U)
{
    if (u >= n) return;
    F acc;
    fe_set_one(acc);
    uint32_t last = u;
    for (uint32_t i = u; i < n; i += U) {
        pre[i] = acc;
        acc = fe_mul(acc, v[i]);
        last = i;
    }
    F inv = fe_inv(acc);
    for (uint32_t i = last;; i -= U) {
        F x = v[i];
        v[i] = fe_mul(inv, pre[i]);
        inv = fe_mul(inv, x);
        if (i < u + U) break;
    }
}

/* backward pass of chain t with inv = 1 / tot[t] (the forward's product) */
template <class F, class Src>
CZ_EC void cz_ba_bwd_chain(const Src &src, const uint32_t *keys, uint32_t m, const uint32_t *incl, uint32_t npairs,
                           uint32_t t, uint32_t T, cz_aff_t<F> *out, const F *tot)
{
    if (t >= npairs) return;
    F inv = tot[t];
    for (uint32_t i = t + (npairs - 1 - t) / T * T;; i -= T) {
        cz_ba_late<F> q = cz_ba_bwd_load<F>(src, keys, m, incl, i, out);
        if (q.kind) cz_ba_finish<F>(q, inv, out);
        if (i < t + T) break;
    }
}

template <class F, class Src>
__global__ void cz_k_ba_fwd(Src src, const uint32_t *keys, uint32_t m, const uint32_t *incl, uint32_t npairs,
                            uint32_t T, uint32_t *okeys, cz_aff_t<F> *out, F *tot)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < T) cz_ba_fwd_chain<F>(src, keys, m, incl, npairs, t, T, okeys, out, tot);
}
template <class F> __global__ void cz_k_ba_inv(F *v, F *pre, uint32_t n, uint32_t U)
{
    uint32_t u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u < U) cz_ba_inv_group<F>(v, pre, n, u, U);
}
template <class F, class Src>
__global__ void cz_k_ba_bwd(Src src, const uint32_t *keys, uint32_t m, const uint32_t *incl, uint32_t npairs,
                            uint32_t T, cz_aff_t<F> *out, const F *tot)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < T) cz_ba_bwd_chain<F>(src, keys, m, incl, npairs, t, T, out, tot);
}

/* level 0 on a round's points (no sign) */
template <class F> struct cz_in_points {
    const cz_aff_t<F> *pts;
    __device__ __forceinline__ void add(cz_xyzz_t<F> &acc, uint32_t e) const { xyzz_madd(acc, pts[e], false); }
};

/* level 0, step 2: one thread per segment sums each of its pieces; a piece
 * that continues into a neighbouring segment (cz_k_count_pieces) goes to
 * out at incl[s] - pc[s] onwards, with its key, a whole key to dest[key] */
template <class F, class In>
__global__ void cz_k_segment_sums(In in, const uint32_t *keys, uint32_t n, uint32_t t, const uint32_t *incl,
                                  const uint32_t *pc, uint32_t *out_keys, cz_xyzz_t<F> *out, cz_xyzz_t<F> *dest)
{
    uint32_t s = blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t lo = (uint64_t)s * t;
    if (lo >= n) return;
    uint32_t hi = (uint32_t)min((uint64_t)n, lo + t), o = incl[s] - pc[s];
    uint32_t cur = keys[lo];
    bool open = lo > 0 && keys[lo - 1] == cur; /* the piece continues the segment before */
    cz_xyzz_t<F> acc;
    xyzz_set_inf(acc);
    for (uint32_t e = (uint32_t)lo; e < hi; e++) {
        uint32_t k = keys[e];
        if (k != cur) {
            if (open) {
                out_keys[o] = cur;
                out[o++] = acc;
            } else {
                dest[cur] = acc;
            }
            open = false;
            xyzz_set_inf(acc);
            cur = k;
        }
        in.add(acc, e);
    }
    if (open || (hi < n && keys[hi] == cur)) {
        out_keys[o] = cur;
        out[o] = acc;
    } else {
        dest[cur] = acc;
    }
}

/* later levels: np[r] = ceil(cnt[r] / t) */
template <int D = 0>
__global__ void cz_k_run_pieces(uint32_t *np, const uint32_t *cnt, uint32_t runs, uint32_t t)
{
    uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < runs) np[r] = (cnt[r] + t - 1) / t;
}

/* one thread per piece: piece p belongs to the run r with
 * incl[r] - np[r] <= p < incl[r]; it sums items [off[r] + (p - first) t,
 * ... + t) of that run; *total = incl[runs - 1] */
template <class F>
__global__ void cz_k_run_sums(const cz_xyzz_t<F> *items, const uint32_t *off, const uint32_t *cnt,
                              const uint32_t *np, const uint32_t *incl, uint32_t runs, uint32_t t,
                              cz_xyzz_t<F> *out)
{
    uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= incl[runs - 1]) return;
    uint32_t lo = 0, hi = runs - 1; /* first r with incl[r] > p */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (incl[mid] > p) hi = mid;
        else lo = mid + 1;
    }
    uint32_t r = lo, first = incl[r] - np[r];
    uint32_t b = off[r] + (p - first) * t, e = min(off[r] + cnt[r], b + t);
    cz_xyzz_t<F> acc = items[b];
    for (uint32_t i = b + 1; i < e; i++) xyzz_add(acc, items[i]);
    out[p] = acc;
}

/* after a level: off[r] = incl[r] - np[r], cnt[r] = np[r] */
template <int D = 0>
__global__ void cz_k_next_runs(uint32_t *off, uint32_t *cnt, const uint32_t *np, const uint32_t *incl,
                               uint32_t runs)
{
    uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < runs) {
        off[r] = incl[r] - np[r];
        cnt[r] = np[r];
    }
}

/* dest[key[r]] = items[off[r]] (each run has one item now) */
template <class F>
__global__ void cz_k_scatter(cz_xyzz_t<F> *dest, const uint32_t *ukeys, const uint32_t *off,
                             const cz_xyzz_t<F> *items, uint32_t runs)
{
    uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < runs) dest[ukeys[r]] = items[off ? off[r] : r];
}

/* thread (window g, segment s) over buckets (window-major, bucket b at
 * b - 1, k per window, segs segments of l a window, the last one shorter
 * where l does not divide k): out[t] = sum over the segment of b B_b,
 * key g */
template <class F>
__global__ void cz_k_bucket_segments(const cz_xyzz_t<F> *buckets, uint32_t k, uint32_t l, uint32_t segs,
                                     uint32_t nthreads, cz_xyzz_t<F> *out, uint32_t *out_keys)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nthreads) return;
    uint32_t g = t / segs, s = t % segs, first = s * l, cnt = k - first < l ? k - first : l;
    const cz_xyzz_t<F> *b = buckets + (size_t)g * k + first;
    cz_xyzz_t<F> acc, sum;
    xyzz_set_inf(acc);
    xyzz_set_inf(sum);
    for (int i = (int)cnt - 1; i >= 0; i--) {
        xyzz_add_inl(acc, b[i]);
        xyzz_add_inl(sum, acc);
    }
    if (s) {
        xyzz_mul_small(acc, first);
        xyzz_add(sum, acc);
    }
    out[t] = sum;
    out_keys[t] = g;
}

#endif
