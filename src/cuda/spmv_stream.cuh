/* spmv_stream.cuh — the short rows of the CUDA SpMV with a lane per
 * non-zero (CZ_SPMV_MODE=warp and split; spmv_api.cu drives it).
 *
 * How it works. A warp takes chunks of R consecutive rows (R <= 128,
 * chosen from the matrix's density so that a chunk's non-zeros fill about
 * three quarters of a pass), grid-stride. Lane l owns rows l, l + 32,
 * l + 64, l + 96 of a chunk. The chunk's row offsets were loaded while the
 * warp summed its previous chunk (a lane's five offsets in registers); the
 * warp drops the rows longer than ST_SHORT_MAX (their own kernels sum them)
 * and lays the remaining non-zeros end to end ("compacted" positions, a
 * prefix sum over the row lengths by shuffles, kept in shared memory as
 * rs[]). Then in passes of S = 32 NPL positions:
 *   1. lane l reads the column and coefficient index of positions
 *      t + 32 i + l (i < NPL), all NPL loads issued before any is used; in a
 *      chunk without long rows position p is non-zero rp[first] + p, else a
 *      binary search over rs[] finds its row;
 *   2. ballots make a mask of the subtracted positions (index 1) and number
 *      the general ones (index >= 2) in order; each lane starts an
 *      asynchronous copy (cp.async, no registers held while in flight) of
 *      its NPL values into the pass's slots in shared memory: w[col] or, in
 *      split mode, the general non-zero's product from the product pass;
 *   3. inline (warp) mode: the lanes take the pass's general positions 32 at
 *      a time and multiply their slots by the coefficients, so a product is
 *      computed by every lane of the warp at once, not by one lane while 31
 *      wait; split mode has no product in this kernel at all;
 *   4. each lane adds or subtracts the slots of its own rows in order and
 *      writes a row's sum when the row ends; a row that runs past the pass
 *      leaves its sum in shared memory for the next one.
 * So a warp has up to 32 NPL gathers in flight with a few registers a lane,
 * and row lengths only decide how many positions there are, not how long a
 * lane waits. Split mode's products come from k_products: one thread per
 * general non-zero of the short rows, listed at plan time in the order the
 * passes meet them (gcol, gci), written to prod[] which a chunk reads from
 * gbase[chunk] on. The field is exact: the order of additions does not
 * change the result, which is cz_r1cs_spmv's bit for bit.
 *
 * The body (stream_chunk) is a template over the warp operations: warp_dev
 * here, or cz_warp_lane (warp_emu.cuh), which runs the same code on the
 * host for tests without a device. */
#ifndef CZ_SPMV_STREAM_CUH
#define CZ_SPMV_STREAM_CUH

#include <stdint.h>
#include <string.h>
#include "cuda/ff.cuh"

#define ST_SHORT_MAX 32          /* the longest row summed here */
#define ST_WARPS 4               /* warps per block */
#define ST_PG 4                  /* groups of 32 rows a chunk at most */
#define ST_ROWS_MAX (32 * ST_PG) /* rows per chunk at most (rs[] holds 16-bit positions) */
/* a loop the compiler must not unroll (unrolled, the lanes' row sums hold
 * four loaded values at once: more registers, no gain on a dependent sum) */
#if defined(__CUDA_ARCH__)
#define ST_NOUNROLL _Pragma("unroll 1")
#else
#define ST_NOUNROLL
#endif

/* x c for the general coefficient c at cp (not +-1, not +-2). With bits,
 * x = 0 gives 0 and x = 1 gives c, without the product: most variables of a
 * Filecoin witness are bits (every one of a PoRep label's). The top word
 * is compared first, which a general value passes about never: two
 * comparisons against the product's ~690 instructions. Exactly the
 * product. Every kernel of the SpMV multiplies through it. */
CZ_HD fr_t st_mul_coef(const fr_t &x, const fr_t *cp, bool bits)
{
    const uint32_t top = x.w[fr_t::N - 1];
    if (bits && (top == 0 || top == fr_t::one().w[fr_t::N - 1])) {
        if (x.is_zero()) return x;
        if (x.is_one()) return ldg_fr(cp);
    }
    return x * ldg_fr(cp);
}

/* a matrix as the stream kernel reads it; OT is the row offsets' type */
template <class OT> struct st_mat {
    uint64_t n_rows, n_chunks;
    const OT *rp;
    const uint32_t *col;
    const void *cidx;
    int cb;               /* index width, 1 / 2 / 4 bytes */
    uint32_t rows;        /* R, rows per chunk */
    const fr_t *coefs;
    uint32_t two, mtwo;    /* the indices of 2 and -2 (0xffffffff if absent): a doubling, no product */
    uint32_t bits;         /* 1: no product on a 0 or a 1 of w (st_mul_coef) */
    const uint32_t *gbase; /* split: general non-zeros before each chunk */
    const fr_t *prod;      /* split: their products */
};

/* one warp's shared memory; SPLIT needs no list of general positions */
template <int NPL, bool SPLIT> struct st_smem {
    enum { S = 32 * NPL, G = SPLIT ? 1 : 32 * NPL };
    alignas(16) fr_t slot[S];   /* the pass's values */
    alignas(16) fr_t carry[32]; /* a lane's unfinished row between passes */
    uint32_t negm[NPL];         /* bit l of word i: position t + 32 i + l is subtracted */
    uint32_t gci[G];            /* inline: the general positions' coefficient indices */
    uint16_t glist[G];          /* inline: their slots */
    uint16_t rs[ST_ROWS_MAX + 1];
};

template <class T> CZ_HD T st_ro(const T *p)
{
#if defined(__CUDA_ARCH__)
    return __ldg(p);
#else
    return *p;
#endif
}

CZ_HD uint32_t st_idx(const void *cidx, int cb, uint64_t k)
{
    if (cb == 1) return st_ro((const uint8_t *)cidx + k);
    if (cb == 2) return st_ro((const uint16_t *)cidx + k);
    return st_ro((const uint32_t *)cidx + k);
}

CZ_HD uint32_t st_popc(uint32_t x)
{
#if defined(__CUDA_ARCH__)
    return (uint32_t)__popc(x);
#else
    return (uint32_t)__builtin_popcount(x);
#endif
}

/* acc + v, or acc - v as acc + (r - v): r - v <= r, so the sum stays
 * below 2r, which the addition's one conditional subtraction reduces (for
 * v = 0 it adds r and takes it off again); no branch */
CZ_HD fr_t st_addsub(const fr_t &acc, const fr_t &v, bool neg)
{
    cz__chain ch;
    fr_t u;
    u.w[0] = ch.sub_cc(fr_t::mw(0), v.w[0]);
    CZ_UNROLL for (int k = 1; k < 8; k++) u.w[k] = ch.subc_cc(fr_t::mw(k), v.w[k]);
    CZ_UNROLL for (int k = 0; k < 8; k++) u.w[k] = neg ? u.w[k] : v.w[k];
    return acc + u;
}

/* the non-zero at compacted position p of a chunk with long rows: the last
 * row starting at or before p (that row has p inside it, see rs[]) */
template <class OT>
CZ_HD uint64_t st_locate(const uint16_t *rs, uint32_t nr, const OT *rp, uint64_t r0, uint32_t p)
{
    uint32_t lo = 0, hi = nr; /* rs[lo] <= p < rs[hi] (rs[nr] = T > p) */
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) >> 1;
        if (rs[mid] <= p) lo = mid;
        else hi = mid;
    }
    return (uint64_t)st_ro(rp + r0 + lo) + (p - rs[lo]);
}

/* the device's warp operations (all 32 lanes take part in each) */
struct warp_dev {
#if defined(__CUDA_ARCH__)
    __device__ __forceinline__ int lane() const { return (int)(threadIdx.x & 31); }
    __device__ __forceinline__ uint32_t shfl(uint32_t v, int src) { return __shfl_sync(0xffffffffu, v, src); }
    __device__ __forceinline__ uint32_t ballot(bool p) { return __ballot_sync(0xffffffffu, p); }
    __device__ __forceinline__ void sync() { __syncwarp(); }
    /* one element into shared memory, asynchronously (two 16-byte copies
     * that bypass L1); wait() waits for this lane's copies */
    __device__ __forceinline__ void copy(fr_t *dst, const fr_t *src)
    {
#if __CUDA_ARCH__ >= 800
        uint32_t s = (uint32_t)__cvta_generic_to_shared(dst);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src) : "memory");
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s + 16), "l"((const char *)src + 16)
                     : "memory");
#else
        st_fr(dst, ldg_fr(src));
#endif
    }
    __device__ __forceinline__ void wait()
    {
#if __CUDA_ARCH__ >= 800
        asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
    }
#else
    int lane() const { return 0; }
    uint32_t shfl(uint32_t v, int) { return v; }
    uint32_t ballot(bool) { return 0; }
    void sync() {}
    void copy(fr_t *, const fr_t *) {}
    void wait() {}
#endif
};

/* a value of up to 64 bits through a shuffle */
template <class W> CZ_HD uint32_t st_shfl(W &wp, uint32_t v, int src) { return wp.shfl(v, src); }
template <class W> CZ_HD uint64_t st_shfl(W &wp, uint64_t v, int src)
{
    uint32_t lo = wp.shfl((uint32_t)v, src), hi = wp.shfl((uint32_t)(v >> 32), src);
    return (uint64_t)hi << 32 | lo;
}

/* chunk c's row offsets for this lane: pa[g] = rp[r0 + 32 g + lane] (rows
 * of the chunk only), pend = rp[r0 + rows in the chunk]; nothing past the
 * last chunk. Loaded one chunk ahead, so that the loads are in flight while
 * the warp sums the chunk before. */
template <class OT>
CZ_HD void st_rows_load(const st_mat<OT> &m, uint64_t c, uint32_t lane, OT (&pa)[ST_PG], OT &pend)
{
    if (c >= m.n_chunks) return;
    const uint64_t r0 = c * m.rows;
    const uint32_t nr = (uint32_t)(m.n_rows - r0 < m.rows ? m.n_rows - r0 : m.rows);
    CZ_UNROLL for (int g = 0; g < ST_PG; g++) {
        uint32_t rho = 32 * g + lane;
        pa[g] = rho < nr ? st_ro(m.rp + r0 + rho) : (OT)0;
    }
    pend = st_ro(m.rp + r0 + nr);
}

/* chunk c of matrix m: the short rows' sums into out (long rows untouched);
 * pa, pend hold chunk c's offsets (st_rows_load) on entry and chunk cn's on
 * return */
template <class OT, int NPL, bool SPLIT, class W>
CZ_HD void stream_chunk(W &wp, st_smem<NPL, SPLIT> *sm, const st_mat<OT> &m, const fr_t *w, fr_t *out, uint64_t c,
                        uint64_t cn, OT (&pa)[ST_PG], OT &pend)
{
    enum { S = 32 * NPL };
    const uint32_t lane = (uint32_t)wp.lane();
    const uint64_t r0 = c * m.rows;
    const uint32_t nr = (uint32_t)(m.n_rows - r0 < m.rows ? m.n_rows - r0 : m.rows);

    /* the compacted start of every row; long rows count as empty. Row
     * 32 g + lane ends where the next row starts: the next lane's offset,
     * the next group's first, or pend. */
    uint32_t run = 0, longs = 0, mylong = 0;
    const uint64_t kb = (uint64_t)st_shfl(wp, pa[0], 0);
    CZ_UNROLL for (int g = 0; g < ST_PG; g++) {
        if (32 * (uint32_t)g >= nr) break;
        uint32_t rho = 32 * g + lane, len = 0;
        OT nx = st_shfl(wp, pa[g], (int)(lane < 31 ? lane + 1 : 31));
        OT n0 = g + 1 < ST_PG ? st_shfl(wp, pa[g + 1 < ST_PG ? g + 1 : g], 0) : pend;
        bool lg = false;
        if (rho < nr) {
            OT b = rho + 1 == nr ? pend : lane < 31 ? nx : n0;
            uint64_t d = (uint64_t)(b - pa[g]);
            lg = d > ST_SHORT_MAX;
            len = lg ? 0 : (uint32_t)d;
        }
        uint32_t x = len; /* inclusive prefix sum over the lanes */
        for (uint32_t d = 1; d < 32; d <<= 1) {
            uint32_t y = wp.shfl(x, (int)(lane >= d ? lane - d : lane));
            if (lane >= d) x += y;
        }
        if (rho < nr) sm->rs[rho] = (uint16_t)(run + x - len);
        run += wp.shfl(x, 31);
        longs |= wp.ballot(lg);
        if (lg) mylong |= 1u << g;
    }
    if (lane == 0) sm->rs[nr] = (uint16_t)run;
    wp.sync();
    st_rows_load(m, cn, lane, pa, pend); /* the next chunk's offsets, in flight meanwhile */
    const uint32_t T = run;
    uint32_t gdone = 0;
    if (SPLIT) gdone = st_ro(m.gbase + c);

    uint32_t q = 0;     /* this lane's next row: lane + 32 q */
    bool carry = false; /* its sum so far is in sm->carry[lane] */
    for (uint32_t t = 0;; t += S) {
        /* 1. columns and indices, every load issued before any use */
        uint32_t col[NPL], ci[NPL];
        CZ_UNROLL for (int i = 0; i < NPL; i++) {
            uint32_t p = t + 32 * i + lane;
            col[i] = 0;
            ci[i] = 0;
            if (p < T) {
                uint64_t k = longs ? st_locate(sm->rs, nr, m.rp, r0, p) : kb + p;
                col[i] = st_ro(m.col + k);
                ci[i] = st_idx(m.cidx, m.cb, k);
            }
        }
        /* 2. signs, the general positions' order, the gathers */
        uint32_t gn = 0;
        CZ_UNROLL for (int i = 0; i < NPL; i++) {
            uint32_t s = 32 * i + lane;
            bool v = t + s < T, gen = v && ci[i] >= 2;
            uint32_t nm = wp.ballot(v && ci[i] == 1), gm = wp.ballot(gen);
            if (lane == 0) sm->negm[i] = nm;
            uint32_t rank = gn + st_popc(gm & ((1u << lane) - 1));
            gn += st_popc(gm);
            if (v) {
                const fr_t *src = w + col[i];
                if (SPLIT) {
                    if (gen) src = m.prod + gdone + rank;
                } else if (gen) {
                    sm->glist[rank] = (uint16_t)s;
                    sm->gci[rank] = ci[i];
                }
                wp.copy(&sm->slot[s], src);
            }
        }
        gdone += gn;
        wp.wait();
        wp.sync();
        /* 3. inline mode: the general positions' products, 32 at a time */
        if (!SPLIT) {
            for (uint32_t g = lane; g < gn; g += 32) {
                uint32_t s = sm->glist[g], gi = sm->gci[g];
                fr_t x = ld_fr(&sm->slot[s]);
                if (gi == m.two) x = x + x;
                else if (gi == m.mtwo) x = fr_t::zero() - (x + x);
                else x = st_mul_coef(x, m.coefs + gi, m.bits);
                st_fr(&sm->slot[s], x);
            }
            wp.sync();
        }
        /* 4. this lane's rows */
        const uint32_t te = t + S;
        fr_t acc = carry ? ld_fr(&sm->carry[lane]) : fr_t::zero();
        carry = false;
        for (; lane + 32 * q < nr; q++) {
            uint32_t rho = lane + 32 * q, a = sm->rs[rho], b = sm->rs[rho + 1];
            ST_NOUNROLL for (uint32_t p = a > t ? a : t; p < (b < te ? b : te); p++) {
                uint32_t s = p - t;
                acc = st_addsub(acc, ld_fr(&sm->slot[s]), (sm->negm[s >> 5] >> (s & 31)) & 1);
            }
            if (b > te) { /* the row goes on in the next pass */
                if (a < te) {
                    st_fr(&sm->carry[lane], acc);
                    carry = true;
                }
                break;
            }
            if (!((mylong >> q) & 1)) st_fr(out + r0 + rho, acc);
            acc = fr_t::zero();
        }
        if (te >= T) break; /* every row ended in this pass */
        wp.sync();          /* the slots are refilled */
    }
    wp.sync(); /* rs[] is rewritten by the next chunk */
}

template <class OT, int NPL, bool SPLIT>
__global__ void __launch_bounds__(ST_WARPS * 32) k_stream(st_mat<OT> m, const fr_t *w, fr_t *out)
{
    __shared__ st_smem<NPL, SPLIT> sm[ST_WARPS];
    warp_dev wp;
    const uint32_t wi = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const uint64_t nw = (uint64_t)gridDim.x * ST_WARPS;
    OT pa[ST_PG], pend = 0;
    uint64_t c = (uint64_t)blockIdx.x * ST_WARPS + wi;
    st_rows_load(m, c, lane, pa, pend);
    for (; c < m.n_chunks; c += nw) stream_chunk<OT, NPL, SPLIT>(wp, &sm[wi], m, w, out, c, c + nw, pa, pend);
}

/* split mode: prod[j] = w[gcol[j]] * coefs[gci[j]] for the n general
 * non-zeros of the short rows (a doubling for the indices two and mtwo;
 * with bits, no product on a 0 or a 1) */
CZ_HD void st_product(fr_t *prod, const uint32_t *gcol, const void *gci, int cb, const fr_t *coefs, uint32_t two,
                      uint32_t mtwo, bool bits, const fr_t *w, uint64_t j)
{
    const uint32_t gi = st_idx(gci, cb, j);
    const fr_t x = ldg_fr(w + st_ro(gcol + j));
    st_fr(prod + j, gi == two ? x + x : gi == mtwo ? fr_t::zero() - (x + x) : st_mul_coef(x, coefs + gi, bits));
}

__global__ void k_products(fr_t *prod, const uint32_t *gcol, const void *gci, int cb, const fr_t *coefs, uint32_t two,
                           uint32_t mtwo, bool bits, const fr_t *w, uint64_t n)
{
    for (uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += (uint64_t)gridDim.x * blockDim.x)
        st_product(prod, gcol, gci, cb, coefs, two, mtwo, bits, w, j);
}

#endif
