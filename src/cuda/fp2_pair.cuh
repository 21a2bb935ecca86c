/* fp2_pair.cuh — G2 point arithmetic on two lanes: an Fp2 value is held by a
 * pair of neighbouring lanes of a warp, c0 on the even lane and c1 on the
 * odd one, so that each lane of the MSM's G2 bucket kernels carries half of
 * an XYZZ accumulator and half of every temporary.
 *
 * Why: one thread holding a whole G2 XYZZ point and the temporaries of a
 * mixed addition sits at the 255-register cap with spills, and the G2
 * level-0 bucket kernel ran at about 37 % of the multiplication rate the
 * G1 one reaches (docs/CUDA_MSM.md). On two lanes each needs about what a G1
 * thread needs.
 *
 * The type fp2p_t is one lane's half. It has the members and operators
 * ec.cuh's fe_* names use, so the very same point formulas (xyzz_madd,
 * xyzz_add, xyzz_dbl, xyzz_mdbl) run on it unchanged:
 *   a + b, a - b, -a, dbl(a): each lane on its half, no exchange;
 *   a * b: the lanes swap a and b (shuffles), then the even lane forms
 *     c0 = a0 b0 + (-a1) b1 and the odd one c1 = a1 b0 + a0 b1, each as
 *     two 384 x 384 products summed before one Montgomery reduction
 *     (fp_t::mul2_eo): the Fp2 product costs 4 products and 2 reductions
 *     where Karatsuba needs 3 and 3, split over two lanes;
 *   sqr(a): one Fp product each, c0 = (a0 + a1)(a0 - a1), c1 = 2 a0 a1;
 *   is_zero(): both halves, so every branch of the formulas is taken alike
 *     by both lanes of a pair.
 * Lane-dependent choices are selects, not branches. The values are fully
 * reduced like every fp_t, so results are bit for bit those of fp2_t.
 *
 * Both lanes of a pair must be active together (the kernels give a pair one
 * piece of work and branch only on pair-uniform values); the shuffles name
 * just the pair's two lanes. The blocks must be one-dimensional, with a
 * multiple of 32 threads. Device-only: the host compiler sees stubs, which
 * nothing calls (setup.cu's emulated runs use fp2_t). */
#ifndef CZ_CUDA_FP2_PAIR_CUH
#define CZ_CUDA_FP2_PAIR_CUH

#include "cuda/ec.cuh"

#if defined(__CUDA_ARCH__)
static __device__ __forceinline__ uint32_t cz__pair_mask() { return 3u << (threadIdx.x & 30); }
static __device__ __forceinline__ bool cz__pair_odd() { return (threadIdx.x & 1) != 0; }
static __device__ __forceinline__ fp_t cz__pair_swap(const fp_t &a)
{
    fp_t r;
    uint32_t m = cz__pair_mask();
    CZ_UNROLL for (int k = 0; k < fp_t::N; k++) r.w[k] = __shfl_xor_sync(m, a.w[k], 1);
    return r;
}
static __device__ __forceinline__ fp_t cz__pair_sel(bool odd, const fp_t &if_odd, const fp_t &if_even)
{
    fp_t r;
    CZ_UNROLL for (int k = 0; k < fp_t::N; k++) r.w[k] = odd ? if_odd.w[k] : if_even.w[k];
    return r;
}
#endif

struct fp2p_t {
    fp_t v; /* c0 on an even lane, c1 on an odd lane */

    CZ_HD static fp2p_t zero() { return fp2p_t{fp_t::zero()}; }
    CZ_HD static fp2p_t one()
    {
#if defined(__CUDA_ARCH__)
        return fp2p_t{cz__pair_sel(cz__pair_odd(), fp_t::zero(), fp_t::one())};
#else
        return fp2p_t{fp_t::one()};
#endif
    }
    CZ_HD bool is_zero() const
    {
        bool z = v.is_zero();
#if defined(__CUDA_ARCH__)
        int other = __shfl_xor_sync(cz__pair_mask(), (int)z, 1);
        return z && other;
#else
        return z;
#endif
    }
    CZ_HD friend fp2p_t operator+(const fp2p_t &a, const fp2p_t &b) { return fp2p_t{a.v + b.v}; }
    CZ_HD friend fp2p_t operator-(const fp2p_t &a, const fp2p_t &b) { return fp2p_t{a.v - b.v}; }
    CZ_HD friend fp2p_t operator-(const fp2p_t &a) { return fp2p_t{-a.v}; }
    CZ_HD friend fp2p_t dbl(const fp2p_t &a) { return fp2p_t{dbl(a.v)}; }
    CZ_HD friend fp2p_t operator*(const fp2p_t &a, const fp2p_t &b)
    {
#if defined(__CUDA_ARCH__)
        bool odd = cz__pair_odd();
        fp_t ao = cz__pair_swap(a.v), bo = cz__pair_swap(b.v);
        /* even (a0, b0 here; a1, b1 swapped in): a0 b0 - a1 b1;
         * odd (a1, b1 here; a0, b0 swapped in): a1 b0 + a0 b1 */
        fp_t y1 = cz__pair_sel(odd, bo, b.v), y2 = cz__pair_sel(odd, b.v, bo), x2 = cz__pair_sel(odd, ao, -ao);
        return fp2p_t{fp_t::mul2(a.v, y1, x2, y2)};
#else
        return fp2p_t{a.v * b.v};
#endif
    }
    CZ_HD friend fp2p_t sqr(const fp2p_t &a)
    {
#if defined(__CUDA_ARCH__)
        bool odd = cz__pair_odd();
        fp_t ao = cz__pair_swap(a.v);
        /* even: (a0 + a1)(a0 - a1); odd: (2 a1) a0 */
        fp_t u = cz__pair_sel(odd, dbl(a.v), a.v + ao), w = cz__pair_sel(odd, ao, a.v - ao);
        return fp2p_t{u * w};
#else
        return fp2p_t{sqr(a.v)};
#endif
    }
};

/* a b - c d on a pair, with one reduction a lane: the even lane forms
 * a0 b0 - a1 b1 - c0 d0 + c1 d1, the odd one a1 b0 + a0 b1 - c1 d0 - c0 d1,
 * each as fp_t::mul4_eo of four products (fp2_t::mul_sub_lazy's halves). The
 * y of every addition and doubling is this (ec.cuh's fe_mul_sub); it saves
 * one of the two reductions the two products take. */
template <> CZ_DEV fp2p_t fe_mul_sub<fp2p_t>(const fp2p_t &a, const fp2p_t &b, const fp2p_t &c, const fp2p_t &d)
{
#if defined(__CUDA_ARCH__)
    bool odd = cz__pair_odd();
    fp_t ao = cz__pair_swap(a.v), bo = cz__pair_swap(b.v), co = cz__pair_swap(c.v), dd = cz__pair_swap(d.v);
    fp_t y1 = cz__pair_sel(odd, bo, b.v), x2 = cz__pair_sel(odd, ao, -ao), y2 = cz__pair_sel(odd, b.v, bo);
    fp_t y3 = cz__pair_sel(odd, dd, d.v), x4 = cz__pair_sel(odd, -co, co), y4 = cz__pair_sel(odd, d.v, dd);
    return fp2p_t{fp_t::mul4_eo(a.v, y1, x2, y2, -c.v, y3, x4, y4)};
#else
    return a * b - c * d;
#endif
}

/* one lane's half of a whole-point buffer element: 48-byte halves at
 * 16-byte-aligned offsets of 16-byte-aligned arrays (cudaMalloc'd), read
 * as three 16-byte loads */
static __device__ __forceinline__ fp_t cz__pair_ld(const fp2_t *p, int odd)
{
    const uint4 *q = reinterpret_cast<const uint4 *>(reinterpret_cast<const char *>(p) + odd * sizeof(fp_t));
    fp_t r;
    CZ_UNROLL for (int k = 0; k < 3; k++) {
        uint4 x = __ldg(q + k);
        r.w[4 * k] = x.x;
        r.w[4 * k + 1] = x.y;
        r.w[4 * k + 2] = x.z;
        r.w[4 * k + 3] = x.w;
    }
    return r;
}
static __device__ __forceinline__ void cz__pair_st(fp2_t *p, int odd, const fp_t &v)
{
    uint4 *q = reinterpret_cast<uint4 *>(reinterpret_cast<char *>(p) + odd * sizeof(fp_t));
    CZ_UNROLL for (int k = 0; k < 3; k++) q[k] = make_uint4(v.w[4 * k], v.w[4 * k + 1], v.w[4 * k + 2], v.w[4 * k + 3]);
}
static __device__ __forceinline__ void cz__pair_st_xyzz(cz_xyzz_t<fp2_t> *p, int odd, const cz_xyzz_t<fp2p_t> &a)
{
    cz__pair_st(&p->x, odd, a.x.v);
    cz__pair_st(&p->y, odd, a.y.v);
    cz__pair_st(&p->zz, odd, a.zz.v);
    cz__pair_st(&p->zzz, odd, a.zzz.v);
}
static __device__ __forceinline__ cz_xyzz_t<fp2p_t> cz__pair_ld_xyzz(const cz_xyzz_t<fp2_t> *p, int odd)
{
    cz_xyzz_t<fp2p_t> a;
    a.x.v = cz__pair_ld(&p->x, odd);
    a.y.v = cz__pair_ld(&p->y, odd);
    a.zz.v = cz__pair_ld(&p->zz, odd);
    a.zzz.v = cz__pair_ld(&p->zzz, odd);
    return a;
}

/* items of the reduce-by-key engine, read by halves: affine G2 bases by
 * index (with the sign in bit 31), or G2 XYZZ sums */
struct cz_in_aff_pair {
    const cz_aff_t<fp2_t> *bases;
    const uint32_t *vals;
    __device__ __forceinline__ void add(cz_xyzz_t<fp2p_t> &acc, uint32_t e, int odd) const
    {
        uint32_t v = vals[e];
        const cz_aff_t<fp2_t> *b = bases + (v & ~0x80000000u);
        cz_aff_t<fp2p_t> h;
        h.x.v = cz__pair_ld(&b->x, odd);
        h.y.v = cz__pair_ld(&b->y, odd);
        xyzz_madd(acc, h, (v & 0x80000000u) != 0);
    }
};
struct cz_in_xyzz_pair {
    const cz_xyzz_t<fp2_t> *items;
    __device__ __forceinline__ void add(cz_xyzz_t<fp2p_t> &acc, uint32_t e, int odd) const
    {
        xyzz_add(acc, cz__pair_ld_xyzz(items + e, odd));
    }
};

/* cz_k_segment_sums (msm_kernels.cuh) for G2 on lane pairs: pair s (threads
 * 2s, 2s + 1) sums segment s; launch 2 * segments threads */
template <class In>
__global__ void cz_k_segment_sums_pair(In in, const uint32_t *keys, uint32_t n, uint32_t t, const uint32_t *incl,
                                       const uint32_t *pc, uint32_t *out_keys, cz_xyzz_t<fp2_t> *out,
                                       cz_xyzz_t<fp2_t> *dest)
{
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x, s = g >> 1;
    int odd = (int)(g & 1);
    uint64_t lo = (uint64_t)s * t;
    if (lo >= n) return;
    uint32_t hi = (uint32_t)min((uint64_t)n, lo + t), o = incl[s] - pc[s];
    uint32_t cur = keys[lo];
    bool open = lo > 0 && keys[lo - 1] == cur;
    cz_xyzz_t<fp2p_t> acc;
    xyzz_set_inf(acc);
    for (uint32_t e = (uint32_t)lo; e < hi; e++) {
        uint32_t k = keys[e];
        if (k != cur) {
            if (open) {
                if (!odd) out_keys[o] = cur;
                cz__pair_st_xyzz(out + o, odd, acc);
                o++;
            } else {
                cz__pair_st_xyzz(dest + cur, odd, acc);
            }
            open = false;
            xyzz_set_inf(acc);
            cur = k;
        }
        in.add(acc, e, odd);
    }
    if (open || (hi < n && keys[hi] == cur)) {
        if (!odd) out_keys[o] = cur;
        cz__pair_st_xyzz(out + o, odd, acc);
    } else {
        cz__pair_st_xyzz(dest + cur, odd, acc);
    }
}

/* cz_k_run_sums for G2 on lane pairs: pair p sums piece p */
template <int D = 0>
__global__ void cz_k_run_sums_pair(const cz_xyzz_t<fp2_t> *items, const uint32_t *off, const uint32_t *cnt,
                                   const uint32_t *np, const uint32_t *incl, uint32_t runs, uint32_t t,
                                   cz_xyzz_t<fp2_t> *out)
{
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x, p = g >> 1;
    int odd = (int)(g & 1);
    if (p >= incl[runs - 1]) return;
    uint32_t lo = 0, hi = runs - 1; /* first r with incl[r] > p */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (incl[mid] > p) hi = mid;
        else lo = mid + 1;
    }
    uint32_t r = lo, first = incl[r] - np[r];
    uint32_t b = off[r] + (p - first) * t, e = min(off[r] + cnt[r], b + t);
    cz_xyzz_t<fp2p_t> acc = cz__pair_ld_xyzz(items + b, odd);
    for (uint32_t i = b + 1; i < e; i++) xyzz_add(acc, cz__pair_ld_xyzz(items + i, odd));
    cz__pair_st_xyzz(out + p, odd, acc);
}

/* cz_k_bucket_segments for G2 on lane pairs: pair t does segment t */
template <int D = 0>
__global__ void cz_k_bucket_segments_pair(const cz_xyzz_t<fp2_t> *buckets, uint32_t k, uint32_t l, uint32_t segs,
                                          uint32_t nthreads, cz_xyzz_t<fp2_t> *out, uint32_t *out_keys)
{
    uint32_t gt = blockIdx.x * blockDim.x + threadIdx.x, t = gt >> 1;
    int odd = (int)(gt & 1);
    if (t >= nthreads) return;
    uint32_t g = t / segs, s = t % segs, first = s * l, cnt = k - first < l ? k - first : l;
    const cz_xyzz_t<fp2_t> *b = buckets + (size_t)g * k + first;
    cz_xyzz_t<fp2p_t> acc, sum;
    xyzz_set_inf(acc);
    xyzz_set_inf(sum);
    for (int i = (int)cnt - 1; i >= 0; i--) {
        xyzz_add(acc, cz__pair_ld_xyzz(b + i, odd));
        xyzz_add(sum, acc);
    }
    if (s) {
        xyzz_mul_small(acc, first);
        xyzz_add(sum, acc);
    }
    cz__pair_st_xyzz(out + t, odd, sum);
    if (!odd) out_keys[t] = g;
}

#endif
