/* ntt_api.cu — the NTT over Fr on the GPU and the provers' two H pipelines
 * (cz_cuda_ntt.h), bit-identical to src/poly/ntt.c and src/groth16.
 *
 * How it works. A transform of n = 2^k is radix-2 butterflies in k levels,
 * grouped into passes; one pass is one kernel that loads a tile of 2^10
 * elements (2^9 up to 2^21; 2^8..2^11 selectable, sizes chosen by
 * measurement) into shared memory, runs up to 10 levels there with 128
 * threads and writes the tile back, so 2^27 takes three passes over HBM
 * (10 + 8 + 9 levels). From 2^22 a thread takes 4 elements of the tile
 * into registers and runs two levels on them between barriers (radix 4,
 * tile_group); below, one level a barrier. A pass over levels s .. s+L-1
 * touches, for fixed high bits h and low bits lo, the
 * elements h 2^(s+L) + j 2^s + lo (j < 2^L); a tile takes C = 2^(10-L)
 * neighbouring lo ("columns", so each row is C*32 contiguous bytes) and all
 * j. Cooley-Tukey (DIT) goes from bit-reversed to natural order, levels
 * rising; Gentleman-Sande (DIF) from natural to bit-reversed, levels falling;
 * both use the twiddle tw[(i mod 2^t) * n / 2^(t+1)] at level t, from tables
 * of omega^j and omega^-j (j < n/2) built on the device.
 *
 * Natural order in and out, as the CPU: with a scratch buffer of n
 * elements reserved in the domain (cz_cuda_ntt_domain_reserve), DIF from
 * natural order whose first pass writes the scratch and whose last pass
 * (levels 0 .. L-1, tiles of contiguous elements) stores each element at
 * its bit-reversed position back in the caller's buffer, so the order is
 * restored without a pass of its own; without one (or CZ_NTT_FOLD=0), a
 * bit-reversal pass (16 x 16 blocks swapped through shared memory, so every
 * access is a 512-byte row), then DIT. The scalings (n^-1, g^j of the coset, the snarkjs shift w_2n^j) are folded into
 * the first load or last store of a pass, as x * lo[i mod 2^14] * hi[i >> 14]
 * with two small tables per scaling. The H pipelines avoid the bit reversal:
 * inverse as DIF (natural -> reversed, scaled on the way out by n^-1 g^j),
 * then the coset forward as DIT (reversed -> natural); the last coset
 * inverse is DIF with the pointwise (a b - c) / Z folded into its first
 * load, its passes on b (spent by then) and its last storing into a at the
 * bit-reversed positions. Level 1's first butterfly in the pass at s = 0
 * has w = 1 for every thread of the radix-4 kernel and skips its product.
 * Between a transform's first load and its last store the butterflies keep
 * their values below 2r (products without their final subtraction; the
 * last store reduces once; CZ_NTT_LAZY=0 keeps them canonical).
 * Field arithmetic is exact, so any order
 * of the same operations gives the CPU's bits. */
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include "cuda/ff.cuh"
#include "cuda/cuda_util.cuh"
#include "cuda/cz_cuda_ntt.h"
#include "ff/ff.h"

#define TILE_LOG 11 /* largest tile: 2^11 elements, 64 KB of shared memory */
/* defaults measured on the H200 (docs/CUDA.md): 128 threads per tile,
 * tiles of 2^9 up to 2^21 and of 2^10 above */
#define NTHR_DEFAULT 128
#define TILE_LOG_DEFAULT(k) ((k) >= 22 ? 10 : 9)
/* levels a thread runs in registers between barriers: 2 (radix 4, tiles
 * of 2^10) from 2^22, where with level 1's unit twiddle skipped and the
 * bit reversal folded it measured 1.8-4.5 % faster (4 % at 2^26 and 2^27
 * before); 1 below, where it was as fast (2^21) or slower */
#define LEVELS_DEFAULT(k) ((k) >= 22 ? 2 : 1)
#define BR_B 4      /* tiled bit reversal: 2^4 x 2^4 blocks */
#define LO_BITS 14
#define TW_LO_BITS 13

CZ_HD uint32_t brev_k(uint32_t i, int k)
{
#if defined(__CUDA_ARCH__)
    return __brev(i) >> (32 - k);
#else
    uint32_t r = 0;
    for (int b = 0; b < k; b++) { r = (r << 1) | (i & 1); i >>= 1; }
    return r;
#endif
}

/* x -> x * c (mode 1) or x * lo[i mod 2^14] * hi[i >> 14] (mode 2) */
struct zscale {
    const fr_t *lo, *hi;
    fr_t c;
    int mode;
};
CZ_HD fr_t apply_scale(const zscale &s, const fr_t &x, uint32_t idx)
{
    if (s.mode == 1) return x * s.c;
    if (s.mode == 2)
        return (x * ldg_fr(s.lo + (idx & ((1u << LO_BITS) - 1)))) * ldg_fr(s.hi + (idx >> LO_BITS));
    return x;
}

/* One pass: levels s .. s+L-1 of a DIT (rising) or DIF (falling)
 * transform, on tiles of 2^L rows by 2^logC columns. pre is applied on load
 * (and, when pb is set, first x <- x * pb, then with pc x <- (x - pc) *
 * zinv), post on store and then, when psub is set, x <- x - psub at the
 * same position; the index pre and post see is the element's natural-order
 * index. The three phases are
 * separate functions so that the host can run them thread by thread with
 * the barriers in between. */
struct pass_args {
    fr_t *a;         /* where the pass stores */
    const fr_t *src; /* where it loads (a, or another buffer) */
    const fr_t *tw;
    int k, s, L, logC;
    int gmax; /* levels a thread runs in registers between barriers (1 or 2) */
    int unit1; /* skip level 1's unit twiddle in the radix-4 group at s = 0 (CZ_NTT_UNIT1) */
    zscale pre, post;
    const fr_t *pb, *pc, *psub;
    fr_t zinv;
    int rev_out;  /* store element gi at brev_k(gi): the bit reversal folded in */
    int lazy_out; /* LAZY kernels: store values below 2r as they are (every
                   * pass but a transform's last); else reduce them first */
    int tile_rev; /* > 0: block b takes tile brev(b) of tile_rev bits, so that
                   * blocks running together store to neighbouring addresses */
};

CZ_HD uint32_t tile_base(const pass_args &p, uint32_t tile)
{
    const int lbs_log = p.s - p.logC;
    const uint32_t h = tile >> lbs_log, lo0 = (tile & ((1u << lbs_log) - 1)) << p.logC;
    return (h << (p.s + p.L)) + lo0;
}

template <bool DIF>
CZ_HD void tile_load(const pass_args &p, fr_t *sh, uint32_t tile, uint32_t tid, uint32_t nthr)
{
    const uint32_t C = 1u << p.logC, tile_elems = 1u << (p.L + p.logC), base = tile_base(p, tile);
    for (uint32_t e = tid; e < tile_elems; e += nthr) {
        uint32_t gi = base + ((e >> p.logC) << p.s) + (e & (C - 1));
        fr_t x = ld_fr(p.src + gi);
        if (p.pb) {
            x = x * ld_fr(p.pb + gi);
            if (p.pc) x = (x - ld_fr(p.pc + gi)) * p.zinv;
        }
        if (p.pre.mode) x = apply_scale(p.pre, x, DIF ? gi : brev_k(gi, p.k));
        sh[e] = x;
    }
}

/* The butterflies' arithmetic. LAZY (CZ_NTT_LAZY, docs/CUDA.md "Butterflies
 * below 2r") keeps values in [0, 2r) from a transform's first load to its
 * last store: the product, twiddle first (a canonical multiplicand bounds
 * the product below 2r whatever the other factor), skips its final
 * subtraction, the sum and difference reduce by 2r, and the last pass's
 * store reduces once. Else every value is canonical, as on the CPU. */
template <bool LAZY> CZ_HD fr_t bf_mul(const fr_t &x, const fr_t &w)
{
    if constexpr (LAZY) return fr_t::mul_lt2(w, x);
    else return x * w;
}
template <bool LAZY> CZ_HD fr_t bf_add(const fr_t &a, const fr_t &b)
{
    if constexpr (LAZY) return fr_t::add_lt2(a, b);
    else return a + b;
}
template <bool LAZY> CZ_HD fr_t bf_sub(const fr_t &a, const fr_t &b)
{
    if constexpr (LAZY) return fr_t::sub_lt2(a, b);
    else return a - b;
}

/* The levels of a pass go in groups of up to gmax (LEVELS_DEFAULT,
 * CZ_NTT_LEVELS): a thread takes the 2^G elements of a group (the rows j
 * that differ only in bits u0 .. u0+G-1, in one column) from shared memory
 * into registers, runs the G levels there and writes them back. A pass thus
 * makes ceil(L / gmax) shared round trips and barriers instead of L, and a
 * twiddle of the group's level d serves 2^(G-1-d) of its butterflies: level
 * u0 + d pairs m and m + 2^d, whose position below the level's bit is
 * jlow + (m mod 2^d) 2^u0. */
template <bool DIF, int G, bool LAZY>
CZ_HD void tile_group(const pass_args &p, fr_t *sh, uint32_t tile, int u0, uint32_t tid, uint32_t nthr)
{
    const uint32_t C = 1u << p.logC, ng = 1u << (p.L + p.logC - G);
    const uint32_t lo0 = tile_base(p, tile) & ((1u << p.s) - 1);
    if constexpr (G == 1) { /* one level: a butterfly at a time */
        const int u = u0, t = p.s + u;
        const uint32_t half = 1u << u;
        for (uint32_t b = tid; b < ng; b += nthr) {
            uint32_t c = b & (C - 1), jb = b >> p.logC;
            uint32_t pos = jb & (half - 1), j0 = ((jb >> u) << (u + 1)) + pos;
            uint32_t e0 = (j0 << p.logC) + c, e1 = e0 + (half << p.logC);
            fr_t x0 = sh[e0], x1 = sh[e1];
            uint32_t ti = ((pos << p.s) + lo0 + c) << (p.k - 1 - t);
            if (!DIF) {
                if (t != 0) x1 = bf_mul<LAZY>(x1, ldg_fr(p.tw + ti));
                sh[e0] = bf_add<LAZY>(x0, x1);
                sh[e1] = bf_sub<LAZY>(x0, x1);
            } else {
                fr_t d = bf_sub<LAZY>(x0, x1);
                sh[e0] = bf_add<LAZY>(x0, x1);
                sh[e1] = t != 0 ? bf_mul<LAZY>(d, ldg_fr(p.tw + ti)) : d;
            }
        }
    } else { /* G levels in registers */
        for (uint32_t b = tid; b < ng; b += nthr) {
            const uint32_t c = b & (C - 1), r = b >> p.logC;
            const uint32_t jlow = r & ((1u << u0) - 1), jbase = ((r >> u0) << (u0 + G)) | jlow;
            fr_t x[1 << G];
            CZ_UNROLL for (int m = 0; m < (1 << G); m++) x[m] = sh[((jbase | ((uint32_t)m << u0)) << p.logC) + c];
            CZ_UNROLL for (int dd = 0; dd < G; dd++) {
                const int d = DIF ? G - 1 - dd : dd, t = p.s + u0 + d;
                CZ_UNROLL for (int mm = 0; mm < (1 << d); mm++) {
                    const uint32_t pos = jlow | ((uint32_t)mm << u0);
                    /* w = 1: level 0 of the transform, and the first
                     * butterfly of level 1 in the pass at s = 0 (position 0
                     * for every thread: one product in four skipped there) */
                    const bool unit = t == 0 || (p.unit1 && p.s == 0 && u0 == 0 && mm == 0);
                    if (unit) { /* a branch, not a select: the product is not computed */
                        CZ_UNROLL for (int hh = 0; hh < (1 << (G - 1 - d)); hh++) {
                            const int m0 = mm + (hh << (d + 1)), m1 = m0 + (1 << d);
                            const fr_t x1 = x[m1];
                            x[m1] = bf_sub<LAZY>(x[m0], x1);
                            x[m0] = bf_add<LAZY>(x[m0], x1);
                        }
                        continue;
                    }
                    const fr_t w = ldg_fr(p.tw + (((pos << p.s) + lo0 + c) << (p.k - 1 - t)));
                    CZ_UNROLL for (int hh = 0; hh < (1 << (G - 1 - d)); hh++) {
                        const int m0 = mm + (hh << (d + 1)), m1 = m0 + (1 << d);
                        if (!DIF) {
                            const fr_t x1 = bf_mul<LAZY>(x[m1], w);
                            x[m1] = bf_sub<LAZY>(x[m0], x1);
                            x[m0] = bf_add<LAZY>(x[m0], x1);
                        } else {
                            const fr_t dv = bf_sub<LAZY>(x[m0], x[m1]);
                            x[m0] = bf_add<LAZY>(x[m0], x[m1]);
                            x[m1] = bf_mul<LAZY>(dv, w);
                        }
                    }
                }
            }
            CZ_UNROLL for (int m = 0; m < (1 << G); m++) sh[((jbase | ((uint32_t)m << u0)) << p.logC) + c] = x[m];
        }
    }
}

/* the pass's groups: [0, gmax), [gmax, 2 gmax), ..., the last one shorter
 * where gmax does not divide L; DIT runs them rising, DIF falling */
CZ_HD int tile_steps(const pass_args &p) { return (p.L + p.gmax - 1) / p.gmax; }
/* GM bounds the group sizes compiled in (a kernel for gmax = 1 holds no
 * radix-4 code, so it keeps the few registers of one level at a time) */
template <bool DIF, int GM, bool LAZY>
CZ_HD void tile_step(const pass_args &p, fr_t *sh, uint32_t tile, int q, uint32_t tid, uint32_t nthr)
{
    const int ns = tile_steps(p), u0 = (DIF ? ns - 1 - q : q) * p.gmax;
    const int G = p.L - u0 < p.gmax ? p.L - u0 : p.gmax;
    if (GM >= 2 && G >= 2) tile_group<DIF, 2, LAZY>(p, sh, tile, u0, tid, nthr);
    else tile_group<DIF, 1, LAZY>(p, sh, tile, u0, tid, nthr);
}

template <bool DIF, bool LAZY>
CZ_HD void tile_store(const pass_args &p, const fr_t *sh, uint32_t tile, uint32_t tid, uint32_t nthr)
{
    const uint32_t C = 1u << p.logC, tile_elems = 1u << (p.L + p.logC), base = tile_base(p, tile);
    for (uint32_t e = tid; e < tile_elems; e += nthr) {
        uint32_t gi = base + ((e >> p.logC) << p.s) + (e & (C - 1));
        fr_t x = sh[e];
        if (LAZY && !p.lazy_out) x = fr_t::canon_lt2(x);
        if (p.post.mode) x = apply_scale(p.post, x, DIF ? brev_k(gi, p.k) : gi);
        if (p.psub) x = x - ld_fr(p.psub + gi);
        st_fr(p.a + (p.rev_out ? brev_k(gi, p.k) : gi), x);
    }
}

/* GM: the largest group (p.gmax <= GM); MINB the blocks an SM the
 * registers must allow (the radix-4 kernel: 6, as many as the shared
 * memory of 2^10 tiles allows; 80 registers, no spills with CUDA 13.0) */
template <bool DIF, int NT, int GM, int MINB, bool LAZY>
__global__ void __launch_bounds__(NT, MINB) k_pass(pass_args p)
{
    extern __shared__ uint4 smem_raw[];
    fr_t *sh = reinterpret_cast<fr_t *>(smem_raw);
    const uint32_t tile = p.tile_rev ? brev_k(blockIdx.x, p.tile_rev) : blockIdx.x;
    tile_load<DIF>(p, sh, tile, threadIdx.x, NT);
    __syncthreads();
    for (int q = 0; q < tile_steps(p); q++) {
        tile_step<DIF, GM, LAZY>(p, sh, tile, q, threadIdx.x, NT);
        __syncthreads();
    }
    tile_store<DIF, LAZY>(p, sh, tile, threadIdx.x, NT);
}

/* k_pass's phases for one tile on the host, one "thread": the barriers
 * are the phase boundaries (the emulated runs of a host-memory domain) */
template <bool DIF, bool LAZY> static void host_tile(const pass_args &p, fr_t *sh, uint32_t tile)
{
    tile_load<DIF>(p, sh, tile, 0, 1);
    for (int q = 0; q < tile_steps(p); q++) tile_step<DIF, 2, LAZY>(p, sh, tile, q, 0, 1);
    tile_store<DIF, LAZY>(p, sh, tile, 0, 1);
}

/* Tiled in-place bit reversal for k >= 2 BR_B. Write i = hi | mid | lo with
 * BR_B-bit hi and lo; then rev(i) = rev(lo) | rev(mid) | rev(hi), so the
 * 2^BR_B x 2^BR_B block of one mid (rows hi, contiguous lo) maps onto the
 * block of rev(mid), transposed and reversed along both axes. One thread
 * block swaps the blocks of mid and rev(mid) (mid <= rev(mid)) through
 * shared memory, so every global access is a 512-byte contiguous row. Rows
 * in shared memory are padded by one element against bank conflicts. */
#define BR_N (1u << BR_B)
#define BR_ROW (BR_N + 1)
CZ_HD void brt_load(fr_t *a, int k, uint32_t mid, fr_t *sh, uint32_t tid, uint32_t nthr, const zscale &pre)
{
    const int mb = k - 2 * BR_B;
    const uint32_t mid2 = mb ? brev_k(mid, mb) : 0;
    const uint32_t mids[2] = {mid, mid2};
    for (uint32_t e = tid; e < 2 * BR_N * BR_N; e += nthr) {
        uint32_t t = e / (BR_N * BR_N), r = (e / BR_N) % BR_N, c = e % BR_N;
        if (t == 1 && mid2 == mid) break;
        uint32_t gi = (r << (k - BR_B)) + (mids[t] << BR_B) + c;
        fr_t x = ld_fr(a + gi);
        if (pre.mode) x = apply_scale(pre, x, gi);
        sh[t * BR_N * BR_ROW + r * BR_ROW + c] = x;
    }
}
CZ_HD void brt_store(fr_t *a, int k, uint32_t mid, const fr_t *sh, uint32_t tid, uint32_t nthr)
{
    const int mb = k - 2 * BR_B;
    const uint32_t mid2 = mb ? brev_k(mid, mb) : 0;
    const uint32_t mids[2] = {mid, mid2};
    for (uint32_t e = tid; e < 2 * BR_N * BR_N; e += nthr) {
        uint32_t t = e / (BR_N * BR_N), r = (e / BR_N) % BR_N, c = e % BR_N;
        if (t == 1 && mid2 == mid) break;
        /* block t of the output (at mid of t) comes from the other block */
        uint32_t src = mid2 == mid ? 0 : 1 - t;
        uint32_t gi = (r << (k - BR_B)) + (mids[t] << BR_B) + c;
        st_fr(a + gi, sh[src * BR_N * BR_ROW + brev_k(c, BR_B) * BR_ROW + brev_k(r, BR_B)]);
    }
}
__global__ void __launch_bounds__(256) k_bitrev_tiled(fr_t *a, int k, zscale pre)
{
    __shared__ fr_t sh[2 * BR_N * BR_ROW];
    const int mb = k - 2 * BR_B;
    const uint32_t mid = blockIdx.x;
    if (mb && brev_k(mid, mb) < mid) return; /* the partner block does this pair */
    brt_load(a, k, mid, sh, threadIdx.x, 256, pre);
    __syncthreads();
    brt_store(a, k, mid, sh, threadIdx.x, 256);
}

/* element-wise steps; each kernel is a grid-stride loop over its CZ_HD body */
CZ_HD void bitrev_one(fr_t *a, int k, uint32_t i, const zscale &pre)
{
    uint32_t r = brev_k(i, k);
    if (i < r) {
        fr_t x = ld_fr(a + i), y = ld_fr(a + r);
        if (pre.mode) { x = apply_scale(pre, x, i); y = apply_scale(pre, y, r); }
        st_fr(a + i, y);
        st_fr(a + r, x);
    } else if (i == r && pre.mode) {
        st_fr(a + i, apply_scale(pre, ld_fr(a + i), i));
    }
}
CZ_HD void twiddle_one(fr_t *tw, const fr_t *lo, const fr_t *hi, uint32_t j)
{
    st_fr(tw + j, ld_fr(lo + (j & ((1u << TW_LO_BITS) - 1))) * ld_fr(hi + (j >> TW_LO_BITS)));
}
CZ_HD void mul_one(fr_t *out, const fr_t *a, const fr_t *b, uint32_t i) { st_fr(out + i, ld_fr(a + i) * ld_fr(b + i)); }
CZ_HD void mulsub_one(fr_t *a, const fr_t *b, const fr_t *c, uint32_t i)
{
    st_fr(a + i, ld_fr(a + i) * ld_fr(b + i) - ld_fr(c + i));
}

#define CZ_GRID_LOOP(i, n) \
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += gridDim.x * blockDim.x)

__global__ void k_bitrev(fr_t *a, int k, uint32_t n, zscale pre) { CZ_GRID_LOOP(i, n) bitrev_one(a, k, i, pre); }
__global__ void k_twiddles(fr_t *tw, const fr_t *lo, const fr_t *hi, uint32_t m)
{
    CZ_GRID_LOOP(j, m) twiddle_one(tw, lo, hi, j);
}
__global__ void k_mul(fr_t *out, const fr_t *a, const fr_t *b, uint32_t n) { CZ_GRID_LOOP(i, n) mul_one(out, a, b, i); }
__global__ void k_mulsub(fr_t *a, const fr_t *b, const fr_t *c, uint32_t n)
{
    CZ_GRID_LOOP(i, n) mulsub_one(a, b, c, i);
}

/* splitmix-style fill with elements below 2^253 (reduced, not uniform) */
__global__ void k_fill(fr_t *a, uint32_t n, uint64_t seed)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        fr_t x;
        uint64_t z = seed + (uint64_t)i * 0x9e3779b97f4a7c15ULL;
        for (int w = 0; w < 8; w += 2) {
            z += 0x9e3779b97f4a7c15ULL;
            uint64_t y = z;
            y = (y ^ (y >> 30)) * 0xbf58476d1ce4e5b9ULL;
            y = (y ^ (y >> 27)) * 0x94d049bb133111ebULL;
            y ^= y >> 31;
            x.w[w] = (uint32_t)y;
            x.w[w + 1] = (uint32_t)(y >> 32);
        }
        x.w[7] &= 0x1fffffff;
        st_fr(a + i, x);
    }
}

/* ---- the domain ---- */
enum { SC_COSET_FWD, SC_COSET_INV, SC_INV_COSET_FWD, SC_INV_SHIFT, SC_COSET_INV_Z, SC__COUNT };

struct cz_cuda_ntt_domain {
    int host;          /* 1: tables in host memory, kernels emulated */
    int log_n;
    size_t n;
    uint64_t gen;
    fr_t *tw, *tw_inv; /* n/2 each, one allocation */
    fr_t *tabs;        /* SC__COUNT pairs of scale tables, one allocation */
    zscale sc[SC__COUNT];
    fr_t n_inv, zinv, ninv_zinv;
    int tile_log;      /* tiles of 2^tile_log elements (CZ_NTT_TILE_LOG) */
    int nthr;          /* threads per tile (CZ_NTT_THREADS: 128, 256 or 512) */
    int bitrev_tiled;  /* CZ_NTT_BITREV=simple turns the tiled one off */
    int h_seven;       /* CZ_H_SEVEN=1: bellperson's H in the seven-transform order */
    int gmax;          /* levels per shared round trip (CZ_NTT_LEVELS: 1 or 2) */
    int unit1;         /* CZ_NTT_UNIT1=0 multiplies level 1's unit twiddle too */
    int fold;          /* CZ_NTT_FOLD=0: standalone transforms keep the bit-reversal pass */
    int lazy;          /* CZ_NTT_LAZY=0: every butterfly's values canonical */
    fr_t *scratch;     /* n elements (cz_cuda_ntt_domain_reserve), or NULL */
    int np;            /* passes */
    int ps[8], pl[8], pc[8];
};

static fr_t to_dev(const cz_fr *x)
{
    fr_t r;
    memcpy(&r, x, sizeof r);
    return r;
}

/* g^((r-1) / 2^k), the root src/poly/ntt.c uses */
static void root_of_unity(cz_fr *out, uint64_t g, int k)
{
    uint64_t e[4];
    for (int i = 0; i < 4; i++) e[i] = cz_fr_modulus.l[i];
    e[0] -= 1;
    for (int s = 0; s < k; s++) {
        for (int i = 0; i < 3; i++) e[i] = (e[i] >> 1) | (e[i + 1] << 63);
        e[3] >>= 1;
    }
    cz_fr gf;
    cz_fr_from_u64(&gf, g);
    cz_fr_pow(out, &gf, e, 4);
}

/* lo[x] = c b^x (x < nlo), hi[y] = b^(y nlo) (y < nhi) */
static void powers_pair(cz_fr *lo, size_t nlo, cz_fr *hi, size_t nhi, const cz_fr *b, const cz_fr *c)
{
    lo[0] = *c;
    for (size_t x = 1; x < nlo; x++) cz_fr_mul(&lo[x], &lo[x - 1], b);
    cz_fr step;
    uint64_t e = nlo;
    cz_fr_pow(&step, b, &e, 1);
    cz_fr_one(&hi[0]);
    for (size_t y = 1; y < nhi; y++) cz_fr_mul(&hi[y], &hi[y - 1], &step);
}

static void plan(cz_cuda_ntt_domain *d)
{
    int k = d->log_n, TL = d->tile_log, L1 = k < TL ? k : TL, R = k - L1, s = L1;
    d->np = 1;
    d->ps[0] = 0;
    d->pl[0] = L1;
    if (R > 0) {
        /* the rest in passes of at most 9 levels, as even as may be; the
         * longer ones last (10,8,9 at 2^27: 1 % faster than 10,9,8 on an
         * H100, docs/CUDA.md "Pass splits") */
        int m = (R + 8) / 9, pl[8];
        for (int p = 0; p < m; p++) pl[p] = R / m + (p >= m - R % m);
        /* with two levels a step (radix 4) a pass of odd L makes as many
         * shared round trips as one of L + 1: of two odd passes, the
         * earlier gives a level to the later (2^24: 10,6,8, 1.2 % faster
         * than 10,7,7 on an H100) */
        if (d->gmax == 2)
            for (int p = 0; p + 1 < m; p++)
                for (int q = p + 1; (pl[p] & 1) && q < m; q++)
                    if ((pl[q] & 1) && pl[q] < 9) {
                        pl[p]--;
                        pl[q]++;
                    }
        for (int p = 0; p < m; p++) {
            d->ps[d->np] = s;
            d->pl[d->np] = pl[p];
            d->np++;
            s += pl[p];
        }
    }
    /* CZ_NTT_PASSES=a,b,...: the levels of each pass from level 0 up, for
     * measuring other splits (each 1 .. the tile's log, summing to k, at
     * most 8 passes; anything else keeps the plan above) */
    if (const char *v = getenv("CZ_NTT_PASSES")) {
        int pl[8], np = 0, sum = 0;
        const char *q = v;
        for (; *q && np < 8;) {
            char *end;
            long L = strtol(q, &end, 10);
            if (end == q || L < 1 || L > TL) { sum = -1; break; }
            pl[np++] = (int)L;
            sum += (int)L;
            q = *end == ',' ? end + 1 : end;
            if (*end && *end != ',') { sum = -1; break; }
        }
        if (sum == k && !*q) { /* a ninth pass, or anything after, refuses the whole */
            d->np = np;
            for (int p = 0, at = 0; p < np; at += pl[p], p++) {
                d->ps[p] = at;
                d->pl[p] = pl[p];
            }
        }
    }
    for (int p = 0; p < d->np; p++) d->pc[p] = std::min(TL - d->pl[p], d->ps[p]);
}

extern "C" size_t cz_cuda_ntt_domain_size(const cz_cuda_ntt_domain *d) { return d->n; }

extern "C" void cz_cuda_ntt_domain_destroy(cz_cuda_ntt_domain *d)
{
    if (!d) return;
    if (d->host) {
        free(d->tw);
        free(d->tabs);
        free(d->scratch);
    } else {
        if (d->tw) cz__vram_free(d->tw);
        if (d->tabs) cz__vram_free(d->tabs);
        if (d->scratch) cz__vram_free(d->scratch);
    }
    free(d);
}

static cz_err domain_create(cz_cuda_ntt_domain **out, int log_n, uint64_t generator, int host, char *msg,
                            size_t msglen)
{
    cz_err e = CZ_OK;
    cz_cuda_ntt_domain *d = NULL;
    cz_fr *h = NULL;
    fr_t *dtmp = NULL;
    *out = NULL;
    if (log_n < 1 || log_n > 30)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cuda ntt: domain 2^%d not supported (1..30)", log_n);
    cz_fr g, gi, omega, omega_inv, nf, one, w2n, w2n_lo_c, zinv, ninv_z;
    cz_fr_from_u64(&g, generator);
    if (cz_fr_legendre(&g) != -1)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cuda ntt: %llu does not generate the 2-part of Fr*",
                       (unsigned long long)generator);
    d = (cz_cuda_ntt_domain *)calloc(1, sizeof *d);
    if (!d) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "cuda ntt: domain");
    d->host = host;
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;
    d->gen = generator;
    {   /* tuning knobs, read once; the defaults are the measured best */
        const char *v = getenv("CZ_NTT_TILE_LOG");
        d->tile_log = v ? atoi(v) : TILE_LOG_DEFAULT(log_n);
        if (d->tile_log < 8 || d->tile_log > TILE_LOG) d->tile_log = TILE_LOG_DEFAULT(log_n);
        v = getenv("CZ_NTT_THREADS");
        d->nthr = v && (atoi(v) == 256 || atoi(v) == 512) ? atoi(v) : NTHR_DEFAULT;
        v = getenv("CZ_NTT_BITREV");
        d->bitrev_tiled = !(v && !strcmp(v, "simple"));
        v = getenv("CZ_NTT_LEVELS");
        d->gmax = v && (atoi(v) == 1 || atoi(v) == 2) ? atoi(v) : LEVELS_DEFAULT(log_n);
        if (d->nthr != 128) d->gmax = 1; /* radix 4 is built for 128 threads only */
        v = getenv("CZ_H_SEVEN");
        d->h_seven = v && atoi(v) == 1;
        v = getenv("CZ_NTT_UNIT1");
        d->unit1 = !(v && atoi(v) == 0);
        v = getenv("CZ_NTT_FOLD");
        d->fold = !(v && atoi(v) == 0);
        v = getenv("CZ_NTT_LAZY");
        d->lazy = !(v && atoi(v) == 0);
    }
    plan(d);
    root_of_unity(&omega, generator, log_n);
    cz_fr_inv(&omega_inv, &omega);
    cz_fr_from_u64(&nf, d->n);
    cz_fr n_inv;
    cz_fr_inv(&n_inv, &nf);
    cz_fr_inv(&gi, &g);
    cz_fr_one(&one);
    root_of_unity(&w2n, generator, log_n + 1);
    w2n_lo_c = n_inv;
    {   /* Z on the coset: g^n - 1 */
        uint64_t en = d->n;
        cz_fr_pow(&zinv, &g, &en, 1);
        cz_fr_sub(&zinv, &zinv, &one);
        cz_fr_inv(&zinv, &zinv);
        d->zinv = to_dev(&zinv);
    }
    d->n_inv = to_dev(&n_inv);
    cz_fr_mul(&ninv_z, &n_inv, &zinv);
    d->ninv_zinv = to_dev(&ninv_z);

    {   /* twiddles, built on the device from two small tables per direction */
        size_t half = d->n / 2 ? d->n / 2 : 1;
        size_t nlo = (size_t)1 << TW_LO_BITS, nhi = (half >> TW_LO_BITS) + 1;
        h = (cz_fr *)malloc(2 * (nlo + nhi) * sizeof(cz_fr));
        if (!h) { e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "cuda ntt: host tables"); goto fail; }
        powers_pair(h, nlo, h + nlo, nhi, &omega, &one);
        powers_pair(h + nlo + nhi, nlo, h + 2 * nlo + nhi, nhi, &omega_inv, &one);
        if (host) {
            d->tw = (fr_t *)malloc(2 * half * sizeof(fr_t));
            if (!d->tw) { e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "ntt: twiddles"); goto fail; }
            d->tw_inv = d->tw + half;
            const fr_t *t = (const fr_t *)h;
            for (uint32_t j = 0; j < half; j++) {
                twiddle_one(d->tw, t, t + nlo, j);
                twiddle_one(d->tw_inv, t + nlo + nhi, t + 2 * nlo + nhi, j);
            }
        } else {
            CZ_CK(cz__vram_malloc(&d->tw, 2 * half * sizeof(fr_t)));
            d->tw_inv = d->tw + half;
            CZ_CK(cz__vram_malloc(&dtmp, 2 * (nlo + nhi) * sizeof(fr_t)));
            CZ_CK(cudaMemcpy(dtmp, h, 2 * (nlo + nhi) * sizeof(fr_t), cudaMemcpyHostToDevice));
            k_twiddles<<<1024, 256>>>(d->tw, dtmp, dtmp + nlo, (uint32_t)half);
            CZ_CK_LAUNCH();
            k_twiddles<<<1024, 256>>>(d->tw_inv, dtmp + nlo + nhi, dtmp + 2 * nlo + nhi, (uint32_t)half);
            CZ_CK_LAUNCH();
            CZ_CK(cudaDeviceSynchronize()); /* setup only, not the hot path */
            cz__vram_free(dtmp);
            dtmp = NULL;
        }
        free(h);
        h = NULL;
    }
    {   /* scale tables: coset g^j; n^-1 g^-j; n^-1 g^j; n^-1 w_2n^j; n^-1 g^-j / Z */
        size_t nlo = (size_t)1 << LO_BITS, nhi = (d->n >> LO_BITS) + 1, pair = nlo + nhi;
        const cz_fr *base[SC__COUNT] = {&g, &gi, &g, &w2n, &gi};
        const cz_fr *cst[SC__COUNT] = {&one, &n_inv, &n_inv, &w2n_lo_c, &ninv_z};
        h = (cz_fr *)malloc(SC__COUNT * pair * sizeof(cz_fr));
        if (!h) { e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "cuda ntt: host tables"); goto fail; }
        for (int t = 0; t < SC__COUNT; t++) powers_pair(h + t * pair, nlo, h + t * pair + nlo, nhi, base[t], cst[t]);
        if (host) {
            d->tabs = (fr_t *)h; /* same bytes */
            h = NULL;
        } else {
            CZ_CK(cz__vram_malloc(&d->tabs, SC__COUNT * pair * sizeof(fr_t)));
            CZ_CK(cudaMemcpy(d->tabs, h, SC__COUNT * pair * sizeof(fr_t), cudaMemcpyHostToDevice));
        }
        for (int t = 0; t < SC__COUNT; t++) {
            d->sc[t].lo = d->tabs + t * pair;
            d->sc[t].hi = d->tabs + t * pair + nlo;
            d->sc[t].c = fr_t::one();
            d->sc[t].mode = 2;
        }
        free(h);
        h = NULL;
    }
    if (!host) {
        const int shm = (int)(sizeof(fr_t) << TILE_LOG);
#define CZ_NTT_SHM1(NT, GM, MINB, LZ)                                                                      \
    CZ_CK(cudaFuncSetAttribute(k_pass<false, NT, GM, MINB, LZ>, cudaFuncAttributeMaxDynamicSharedMemorySize, shm)); \
    CZ_CK(cudaFuncSetAttribute(k_pass<true, NT, GM, MINB, LZ>, cudaFuncAttributeMaxDynamicSharedMemorySize, shm))
#define CZ_NTT_SHM(NT, GM, MINB) CZ_NTT_SHM1(NT, GM, MINB, false); CZ_NTT_SHM1(NT, GM, MINB, true)
        CZ_NTT_SHM(128, 1, 1);
        CZ_NTT_SHM(256, 1, 1);
        CZ_NTT_SHM(512, 1, 1);
        CZ_NTT_SHM(128, 2, 6);
#undef CZ_NTT_SHM
#undef CZ_NTT_SHM1
    }
    *out = d;
    return CZ_OK;
fail:
    free(h);
    if (dtmp) cz__vram_free(dtmp);
    cz_cuda_ntt_domain_destroy(d);
    return e;
}

extern "C" cz_err cz_cuda_ntt_domain_create(cz_cuda_ntt_domain **out, int log_n, uint64_t generator, char *msg,
                                            size_t msglen)
{
    return domain_create(out, log_n, generator, 0, msg, msglen);
}

extern "C" cz_err cz_cuda_ntt_domain_create_host(cz_cuda_ntt_domain **out, int log_n, uint64_t generator,
                                                 char *msg, size_t msglen)
{
    return domain_create(out, log_n, generator, 1, msg, msglen);
}

extern "C" cz_err cz_cuda_ntt_domain_reserve(cz_cuda_ntt_domain *d, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    if (d->scratch || d->np == 1) return CZ_OK;
    if (d->host) {
        d->scratch = (fr_t *)malloc(d->n * sizeof(fr_t));
        if (!d->scratch) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "ntt: scratch of 2^%d elements", d->log_n);
        return CZ_OK;
    }
    CZ_CK(cz__vram_malloc(&d->scratch, d->n * sizeof(fr_t)));
fail:
    return e;
}

/* ---- launching ---- */
static const zscale NOSCALE = {NULL, NULL, {{0}}, 0};

/* all passes of a DIT (rising) or DIF (falling) transform; pre and the
 * pointwise step (pb != NULL) go with the first pass run, post with the last.
 * The first pass loads from in, the last stores to out (at the bit-reversed
 * positions when rev_out: only the DIF's last pass, levels 0 .. L-1 on
 * tiles of contiguous elements, may), the others load and store work; in,
 * work and out may be one buffer, except that out must differ from what the
 * last pass loads when rev_out and there are several passes. */
static cz_err run_passes_io(const cz_cuda_ntt_domain *d, const fr_t *in, fr_t *work, fr_t *out, bool rev_out,
                            bool dif, const fr_t *tw, zscale pre, zscale post, const fr_t *pb, const fr_t *pc,
                            const fr_t *psub, cudaStream_t st, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    fr_t *hsh = NULL;
    if (rev_out && (!dif || (d->np > 1 && work == out)))
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cuda ntt: a folded bit reversal needs DIF and its own target");
    for (int q = 0; q < d->np; q++) {
        int pi = dif ? d->np - 1 - q : q;
        const bool last = q == d->np - 1;
        pass_args p;
        p.src = q == 0 ? in : work;
        p.a = last ? out : work;
        p.rev_out = last && rev_out;
        p.lazy_out = !last;
        p.tw = tw;
        p.k = d->log_n;
        p.s = d->ps[pi];
        p.L = d->pl[pi];
        p.logC = d->pc[pi];
        p.gmax = d->gmax;
        p.unit1 = d->unit1;
        p.pre = q == 0 ? pre : NOSCALE;
        p.post = last ? post : NOSCALE;
        p.pb = q == 0 ? pb : NULL;
        p.pc = q == 0 ? pc : NULL;
        p.psub = last ? psub : NULL;
        p.zinv = d->zinv;
        uint32_t blocks = (uint32_t)(d->n >> (p.L + p.logC)), te = 1u << (p.L + p.logC);
        /* the scattered stores of the folded bit reversal: neighbouring
         * blocks take tiles whose elements land next to each other */
        p.tile_rev = p.rev_out && blocks > 1 ? d->log_n - p.L - p.logC : 0;
        if (d->host) { /* one "thread" per tile: the barriers are the phase boundaries */
            if (!hsh && !(hsh = (fr_t *)malloc(sizeof(fr_t) << TILE_LOG)))
                return cz_fail(CZ_ERR_NOMEM, msg, msglen, "ntt: tile");
            for (uint32_t t = 0; t < blocks; t++) {
                const uint32_t tile = p.tile_rev ? brev_k(t, p.tile_rev) : t;
                if (d->lazy) {
                    if (dif) host_tile<true, true>(p, hsh, tile);
                    else host_tile<false, true>(p, hsh, tile);
                } else {
                    if (dif) host_tile<true, false>(p, hsh, tile);
                    else host_tile<false, false>(p, hsh, tile);
                }
            }
            continue;
        }
        size_t shm = te * sizeof(fr_t);
#define CZ_NTT_PASS(NT, GM, MINB)                                                                  \
    do {                                                                                           \
        if (dif && d->lazy) k_pass<true, NT, GM, MINB, true><<<blocks, NT, shm, st>>>(p);          \
        else if (dif) k_pass<true, NT, GM, MINB, false><<<blocks, NT, shm, st>>>(p);               \
        else if (d->lazy) k_pass<false, NT, GM, MINB, true><<<blocks, NT, shm, st>>>(p);           \
        else k_pass<false, NT, GM, MINB, false><<<blocks, NT, shm, st>>>(p);                       \
    } while (0)
        if (p.gmax == 2) CZ_NTT_PASS(128, 2, 6); /* radix 4: 128 threads (80 registers: 6 blocks an SM) */
        else if (d->nthr == 512) CZ_NTT_PASS(512, 1, 1);
        else if (d->nthr == 256) CZ_NTT_PASS(256, 1, 1);
        else CZ_NTT_PASS(128, 1, 1);
#undef CZ_NTT_PASS
        CZ_CK_LAUNCH();
    }
fail:
    free(hsh);
    return e;
}

static cz_err run_passes(const cz_cuda_ntt_domain *d, fr_t *a, bool dif, const fr_t *tw, zscale pre, zscale post,
                         const fr_t *pb, const fr_t *pc, const fr_t *psub, cudaStream_t st, char *msg,
                         size_t msglen)
{
    return run_passes_io(d, a, a, a, false, dif, tw, pre, post, pb, pc, psub, st, msg, msglen);
}

static unsigned grid_for(size_t n)
{
    size_t b = (n + 255) / 256;
    return (unsigned)(b < 4096 ? b : 4096);
}

static cz_err run_bitrev(const cz_cuda_ntt_domain *d, fr_t *a, zscale pre, cudaStream_t st, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    const int k = d->log_n;
    const bool tiled = d->bitrev_tiled && k >= 2 * BR_B;
    if (d->host) {
        if (tiled) {
            fr_t sh[2 * BR_N * BR_ROW];
            for (uint32_t mid = 0; mid < (1u << (k - 2 * BR_B)); mid++) {
                if (k > 2 * BR_B && brev_k(mid, k - 2 * BR_B) < mid) continue;
                brt_load(a, k, mid, sh, 0, 1, pre);
                brt_store(a, k, mid, sh, 0, 1);
            }
        } else {
            for (uint32_t i = 0; i < d->n; i++) bitrev_one(a, k, i, pre);
        }
        return CZ_OK;
    }
    if (tiled) k_bitrev_tiled<<<1u << (k - 2 * BR_B), 256, 0, st>>>(a, k, pre);
    else k_bitrev<<<grid_for(d->n), 256, 0, st>>>(a, k, (uint32_t)d->n, pre);
    CZ_CK_LAUNCH();
fail:
    return e;
}

extern "C" cz_err cz_cuda_ntt(const cz_cuda_ntt_domain *d, void *d_a, int kind, void *stream, char *msg,
                              size_t msglen)
{
    fr_t *a = (fr_t *)d_a;
    cudaStream_t st = (cudaStream_t)stream;
    cz_err e;
    if (kind < CZ_CUDA_NTT_FORWARD || kind > CZ_CUDA_NTT_COSET_INVERSE)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cuda ntt: unknown kind %d", kind);
    /* the kind's twiddles and scalings: g^j on the first load, n^-1 or
     * n^-1 g^-j on the last store */
    const bool inv = kind == CZ_CUDA_NTT_INVERSE || kind == CZ_CUDA_NTT_COSET_INVERSE;
    const zscale ninv = {NULL, NULL, d->n_inv, 1};
    const zscale pre = kind == CZ_CUDA_NTT_COSET_FORWARD ? d->sc[SC_COSET_FWD] : NOSCALE;
    const zscale post = kind == CZ_CUDA_NTT_INVERSE ? ninv
                        : kind == CZ_CUDA_NTT_COSET_INVERSE ? d->sc[SC_COSET_INV] : NOSCALE;
    const fr_t *tw = inv ? d->tw_inv : d->tw;
    if (d->fold && (d->np == 1 || d->scratch)) {
        /* DIF from natural order: a -> scratch, passes on scratch, the last
         * back to a at the bit-reversed positions (one pass: a tile holds
         * all of a, so in place) */
        fr_t *work = d->np == 1 ? a : d->scratch;
        return run_passes_io(d, a, work, a, true, true, tw, pre, post, NULL, NULL, NULL, st, msg, msglen);
    }
    /* the bit-reversal pass (with the first load's scaling), then DIT */
    if ((e = run_bitrev(d, a, pre, st, msg, msglen))) return e;
    return run_passes(d, a, false, tw, NOSCALE, post, NULL, NULL, NULL, st, msg, msglen);
}

/* H = (A B - C) / Z on the coset, back to coefficients. The coset inverse
 * is linear and undoes the coset forward, so
 *   coset_inv(A^ B^ - C^) / Z = (coset_inv(A^ B^) - C) / Z,
 * with C the coefficients of c (g^n - 1 = Z is one constant on the coset):
 * c needs only its inverse transform, not the forward onto the coset, six
 * transforms instead of seven and the same values. CZ_H_SEVEN=1 runs the
 * seven-transform order (for comparison). */
extern "C" cz_err cz_cuda_h_bellperson(const cz_cuda_ntt_domain *d, void *d_a, void *d_b, void *d_c, void *stream,
                                       char *msg, size_t msglen)
{
    fr_t *v[3] = {(fr_t *)d_a, (fr_t *)d_b, (fr_t *)d_c};
    cudaStream_t st = (cudaStream_t)stream;
    cz_err e;
    const bool seven = d->h_seven;
    /* a, b (and c in the seven-transform order): inverse (DIF, ends
     * bit-reversed, times n^-1 g^j), then forward (DIT) */
    for (int k = 0; k < (seven ? 3 : 2); k++) {
        if ((e = run_passes(d, v[k], true, d->tw_inv, NOSCALE, d->sc[SC_INV_COSET_FWD], NULL, NULL, NULL, st, msg,
                            msglen)))
            return e;
        if ((e = run_passes(d, v[k], false, d->tw, NOSCALE, NOSCALE, NULL, NULL, NULL, st, msg, msglen))) return e;
    }
    /* The last transform's first pass reads a and b at the same positions
     * and may store into b, whose values are then spent: its passes run on
     * b and the last stores into a at the bit-reversed positions, so the
     * result is in natural order without a bit-reversal pass
     * (CZ_NTT_FOLD=0: in place on a, then the pass). */
    fr_t *work = d->fold ? v[1] : v[0];
    if (seven) {
        /* a <- (a b - c) / Z on load, coset inverse as DIF, then natural order */
        if ((e = run_passes_io(d, v[0], work, v[0], d->fold, true, d->tw_inv, NOSCALE, d->sc[SC_COSET_INV], v[1],
                               v[2], NULL, st, msg, msglen)))
            return e;
    } else {
        /* C / Z: c's inverse (DIF, ends bit-reversed, times n^-1 / Z) */
        zscale cz = {NULL, NULL, d->ninv_zinv, 1};
        if ((e = run_passes(d, v[2], true, d->tw_inv, NOSCALE, cz, NULL, NULL, NULL, st, msg, msglen))) return e;
        /* a <- a b on load, coset inverse as DIF times n^-1 g^-j / Z, minus
         * C / Z (same bit-reversed positions) on the last store */
        if ((e = run_passes_io(d, v[0], work, v[0], d->fold, true, d->tw_inv, NOSCALE, d->sc[SC_COSET_INV_Z], v[1],
                               NULL, v[2], st, msg, msglen)))
            return e;
    }
    return d->fold ? CZ_OK : run_bitrev(d, v[0], NOSCALE, st, msg, msglen);
}

extern "C" cz_err cz_cuda_h_snarkjs(const cz_cuda_ntt_domain *d, void *d_a, void *d_b, void *d_c, void *stream,
                                    char *msg, size_t msglen)
{
    fr_t *v[3] = {(fr_t *)d_a, (fr_t *)d_b, (fr_t *)d_c};
    cudaStream_t st = (cudaStream_t)stream;
    cz_err e = CZ_OK;
    if (d->host) {
        for (uint32_t i = 0; i < d->n; i++) mul_one(v[2], v[0], v[1], i);
    } else {
        k_mul<<<grid_for(d->n), 256, 0, st>>>(v[2], v[0], v[1], (uint32_t)d->n);
        CZ_CK_LAUNCH();
    }
    for (int k = 0; k < 3; k++) {
        if ((e = run_passes(d, v[k], true, d->tw_inv, NOSCALE, d->sc[SC_INV_SHIFT], NULL, NULL, NULL, st, msg, msglen)))
            return e;
        if ((e = run_passes(d, v[k], false, d->tw, NOSCALE, NOSCALE, NULL, NULL, NULL, st, msg, msglen))) return e;
    }
    if (d->host) {
        for (uint32_t i = 0; i < d->n; i++) mulsub_one(v[0], v[1], v[2], i);
    } else {
        k_mulsub<<<grid_for(d->n), 256, 0, st>>>(v[0], v[1], v[2], (uint32_t)d->n);
        CZ_CK_LAUNCH();
    }
fail:
    return e;
}

/* ---- host helpers ---- */
extern "C" cz_err cz_cuda_malloc(void **p, size_t bytes, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    *p = NULL;
    CZ_CK(cz__vram_malloc(p, bytes ? bytes : 1));
fail:
    return e;
}
extern "C" void cz_cuda_free(void *p)
{
    if (p) cz__vram_free(p);
}
extern "C" cz_err cz_cuda_upload(void *dst, const void *src, size_t bytes, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    CZ_CK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
fail:
    return e;
}
extern "C" cz_err cz_cuda_download(void *dst, const void *src, size_t bytes, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    CZ_CK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
fail:
    return e;
}
extern "C" cz_err cz_cuda_sync(char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    CZ_CK(cudaDeviceSynchronize());
fail:
    return e;
}

extern "C" cz_err cz_cuda_ntt_bench(int log_n, uint64_t generator, int kind, int reps, double *ms, char *msg,
                                    size_t msglen)
{
    cz_err e = CZ_OK;
    cz_cuda_ntt_domain *d = NULL;
    fr_t *buf = NULL;
    cudaEvent_t ev0 = NULL, ev1 = NULL;
    float *t = NULL;
    size_t n, nv;
    if (reps < 1) reps = 1;
    if ((e = cz_cuda_ntt_domain_create(&d, log_n, generator, msg, msglen))) return e;
    if (kind < 4 && (e = cz_cuda_ntt_domain_reserve(d, msg, msglen))) goto fail;
    n = d->n;
    nv = kind >= 4 ? 3 : 1;
    t = (float *)malloc(reps * sizeof(float));
    if (!t) { e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "ntt bench"); goto fail; }
    CZ_CK(cz__vram_malloc(&buf, nv * n * sizeof(fr_t)));
    k_fill<<<grid_for(nv * n), 256>>>(buf, (uint32_t)(nv * n), 12345);
    CZ_CK_LAUNCH();
    CZ_CK(cudaEventCreate(&ev0));
    CZ_CK(cudaEventCreate(&ev1));
    for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
        CZ_CK(cudaEventRecord(ev0));
        if (kind == 4) e = cz_cuda_h_bellperson(d, buf, buf + n, buf + 2 * n, NULL, msg, msglen);
        else if (kind == 5) e = cz_cuda_h_snarkjs(d, buf, buf + n, buf + 2 * n, NULL, msg, msglen);
        else e = cz_cuda_ntt(d, buf, kind, NULL, msg, msglen);
        if (e) goto fail;
        CZ_CK(cudaEventRecord(ev1));
        CZ_CK(cudaEventSynchronize(ev1));
        if (r >= 0) CZ_CK(cudaEventElapsedTime(&t[r], ev0, ev1));
    }
    std::sort(t, t + reps);
    *ms = t[reps / 2];
fail:
    if (ev0) cudaEventDestroy(ev0);
    if (ev1) cudaEventDestroy(ev1);
    if (buf) cz__vram_free(buf);
    free(t);
    cz_cuda_ntt_domain_destroy(d);
    return e;
}

extern "C" int cz__cuda_ntt_domain_passes(const cz_cuda_ntt_domain *d, int levels[8])
{
    for (int p = 0; p < d->np; p++) levels[p] = d->pl[p];
    return d->np;
}
