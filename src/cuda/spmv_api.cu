/* spmv_api.cu — a = A w, b = B w, c = C w on the GPU over the .pce CSR
 * layout (cz_cuda_spmv.h), bit-identical to cz_r1cs_spmv.
 *
 * How it works. The matrices are copied once (row offsets, columns, the
 * 1/2/4-byte coefficient indices, the coefficient table) and stay on the
 * device. The short rows, nearly all of a real circuit, are summed by one
 * of three kernels, chosen when the handle is made (CZ_SPMV_MODE,
 * cz_cuda_spmv_opts):
 *   thread (the default: on the constraint systems of real Filecoin
 *     circuits 36-44 % faster than warp on the H200, docs/CUDA.md): one
 *     thread per row of at most TMAX non-zeros (CZ_SPMV_TMAX, 8);
 *     consecutive threads take consecutive rows, so their column and index
 *     reads are close together, and a warp waits at most TMAX steps. A
 *     thread reads the columns of two non-zeros before it gathers their w,
 *     so two gathers are in flight (CZ_SPMV_GATHER=1/2/4; 2 measured best).
 *     The row offsets are 32-bit when the matrix has fewer than 2^32
 *     non-zeros (narrowed when the handle is made), as in warp mode.
 *   warp (8 % faster than thread on the synthetic system, whose columns
 *     are half random) and split, rows of at most SHORT_MAX: a warp per
 *     chunk of rows, a lane per non-zero, the
 *     values gathered asynchronously into shared memory (spmv_stream.cuh);
 *     the offsets are 32-bit when the matrix has fewer than 2^32 non-zeros;
 *     split mode computes the general coefficients' products in a pass of
 *     their own (k_products) over a list made here at plan time.
 * Rows past that and of at most MID_MAX non-zeros (a Poseidon round's
 * linear combinations, ~52 wide) are listed at plan time and summed by
 * MID_LANES neighbouring lanes each (k_mid, shuffles). Longer rows are
 * skipped there and cut at plan time into segments of at most SEG
 * non-zeros; a block of SEG_THREADS threads sums each segment (strided,
 * then a tree in shared memory) into a partial, and one thread
 * per long row adds its segments' partials. So a dense row costs its own
 * non-zeros spread over many blocks, never one warp's time. Index 0 of the
 * coefficient table is +1 and index 1 is -1: add or subtract, no
 * multiplication, as on the CPU; the table's 2 and -2 (a SHA-256 XOR's
 * coefficient, a quarter of a PoRep label's A) are a doubling, found when
 * the handle is made. Another coefficient on a 0 or a 1 of w (a bit: every
 * variable of a PoRep label is one) adds nothing or itself, without a
 * product (st_mul_coef, in every kernel; CZ_SPMV_BITS=0 multiplies
 * anyway). The field is exact, so the order of the additions does not
 * change the result.
 *
 * cz__cuda_spmv_host runs every mode's short-row code on the host (the
 * warp and split kernels' through warp_emu.cuh, thread mode's short_row
 * with the offsets in the device's width), so the tests check it on
 * machines without a device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>
#include "cuda/ff.cuh"
#include "cuda/cuda_util.cuh"
#include "cuda/cz_cuda_spmv.h"
#include "cuda/spmv_stream.cuh"
#include "cuda/warp_emu.cuh"

#define SHORT_MAX 32 /* warp / split: rows of at most this many non-zeros are short */
#define MID_MAX 256  /* rows longer than the short ones and at most this long are "mid" rows */
#define MID_LANES 8  /* lanes that sum a mid row together */
#define TMAX_DEFAULT 8 /* thread mode: rows a thread sums alone, at most this long (docs/CUDA.md) */
#define NO_COEF 0xffffffffu
#define SEG 2048
#define SEG_THREADS 128
#define GATHER_DEFAULT 2

#define NPL_DEFAULT_WARP 8  /* more positions a pass: the products are batched better */
#define NPL_DEFAULT_SPLIT 4 /* no products here: smaller chunks, more warps */
#define FILL 0.75 /* warp / split: a chunk's non-zeros over a pass's positions, on average */

struct dmat {
    uint64_t n_rows, nnz;
    uint64_t *row_ptr; /* 64-bit offsets, when the 32-bit ones (smat) do not hold them */
    uint32_t *col;
    void *cidx;
    int cb;
    fr_t *coefs;
    uint32_t two, mtwo;   /* the table's indices of 2 and -2 (NO_COEF if absent): a doubling, no product */
    uint32_t bits;        /* 1: a general coefficient on a 0 or a 1 of w without a product (st_mul_coef) */
    uint32_t smax;        /* rows of at most smax non-zeros are short (their kernel's) */
    uint32_t n_mid;       /* rows of smax + 1 .. MID_MAX non-zeros: MID_LANES lanes each */
    uint32_t *mid_rows;   /* n_mid row ids */
    uint64_t *mid_rng;    /* n_mid (start, end) pairs */
    uint32_t n_long, n_seg;
    uint32_t *long_rows;  /* n_long row ids */
    uint32_t *long_first; /* n_long + 1: segments of long row i are [first[i], first[i+1]) */
    uint64_t *seg;        /* n_seg (start, end) pairs */
    fr_t *partial;        /* n_seg partial sums */
};

/* warp / split: what the stream kernel needs besides a dmat (kept apart so
 * that the thread-mode kernels' parameters stay as they were measured) */
struct smat {
    uint32_t *row_ptr32;  /* the offsets in 32 bits, when they fit (thread mode too) */
    uint32_t *rbase;      /* thread mode, 16-bit offsets (offset_bits): rp[32 g] for each group g of 32 rows */
    uint16_t *rrel;       /* ... and rp[r] - rbase[r / 32] for each r (n_rows + 1 of them) */
    uint32_t rows;        /* rows per chunk */
    uint64_t n_chunks;
    unsigned grid;        /* blocks of k_stream */
    uint64_t n_gen;       /* split: general non-zeros of the short rows */
    uint32_t *gbase;      /* split: n_chunks + 1, general non-zeros before each chunk */
    uint32_t *gcol;       /* split: their columns */
    void *gci;            /* split: their indices, cb wide */
};

struct cz_cuda_spmv {
    uint64_t n_vars, n_rows;
    dmat m[3];
    smat x[3];
    cz_cuda_spmv_opts o; /* resolved: every field set */
    fr_t *prod;          /* split: the products, the largest matrix's n_gen */
};

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

/* every field of *o set: the caller's, else the environment's, else the default */
static cz_cuda_spmv_opts resolve_opts(const cz_cuda_spmv_opts *in)
{
    cz_cuda_spmv_opts o;
    memset(&o, 0, sizeof o);
    if (in) o = *in;
    if (o.mode < CZ_SPMV_THREAD || o.mode > CZ_SPMV_SPLIT) {
        const char *v = getenv("CZ_SPMV_MODE");
        o.mode = v && !strcmp(v, "warp") ? CZ_SPMV_WARP : v && !strcmp(v, "split") ? CZ_SPMV_SPLIT : CZ_SPMV_THREAD;
    }
    if (o.gather != 1 && o.gather != 2 && o.gather != 4) o.gather = env_int("CZ_SPMV_GATHER", GATHER_DEFAULT);
    if (o.gather != 1 && o.gather != 2 && o.gather != 4) o.gather = GATHER_DEFAULT;
    int npl_default = o.mode == CZ_SPMV_WARP ? NPL_DEFAULT_WARP : NPL_DEFAULT_SPLIT;
    if (o.npl != 1 && o.npl != 2 && o.npl != 4 && o.npl != 8) o.npl = env_int("CZ_SPMV_NPL", npl_default);
    if (o.npl != 1 && o.npl != 2 && o.npl != 4 && o.npl != 8) o.npl = npl_default;
    if (o.rows < 1 || o.rows > ST_ROWS_MAX) o.rows = env_int("CZ_SPMV_ROWS", 0);
    if (o.rows < 1 || o.rows > ST_ROWS_MAX) o.rows = 0; /* from the density, per matrix */
    if (o.tmax < 1 || o.tmax > SHORT_MAX) o.tmax = env_int("CZ_SPMV_TMAX", TMAX_DEFAULT);
    if (o.tmax < 1 || o.tmax > SHORT_MAX) o.tmax = TMAX_DEFAULT;
    if (o.bits != 1 && o.bits != 2) o.bits = env_int("CZ_SPMV_BITS", 1) ? 1 : 2;
    return o;
}

/* the longest row the chosen short-row kernel sums (the rest are mid or long rows) */
static uint32_t short_max(const cz_cuda_spmv_opts &o)
{
    return o.mode == CZ_SPMV_THREAD ? (uint32_t)o.tmax : SHORT_MAX;
}

__host__ __device__ __forceinline__ uint32_t cidx_at(const dmat &m, uint64_t k)
{
    if (m.cb == 1) return ((const uint8_t *)m.cidx)[k];
    if (m.cb == 2) return ((const uint16_t *)m.cidx)[k];
    return ((const uint32_t *)m.cidx)[k];
}

__host__ __device__ __forceinline__ fr_t dot_range(const dmat &m, uint64_t lo, uint64_t hi, uint64_t step,
                                                  const fr_t *w)
{
    fr_t acc = fr_t::zero();
    for (uint64_t k = lo; k < hi; k += step) {
        uint32_t ci = cidx_at(m, k);
        fr_t x = ldg_fr(w + m.col[k]);
        if (ci == 0) acc = acc + x;
        else if (ci == 1) acc = acc - x;
        else if (ci == m.two) acc = acc + (x + x);
        else if (ci == m.mtwo) acc = acc - (x + x);
        else acc = acc + st_mul_coef(x, m.coefs + ci, m.bits);
    }
    return acc;
}

/* A short row (at most SHORT_MAX non-zeros) in groups of G: the columns and
 * indices of a group are read first, then its G loads of w are issued
 * together, so a thread has up to G gathers in flight instead of one. */
template <int G>
__host__ __device__ __forceinline__ fr_t dot_short(const dmat &m, uint64_t lo, uint64_t hi, const fr_t *w)
{
    fr_t acc = fr_t::zero();
    for (uint64_t k = lo; k < hi; k += G) {
        uint32_t col[G], ci[G];
        fr_t x[G];
#if !defined(__CUDA_ARCH__) /* the host emulation: gcc cannot see that only the set entries are read */
        for (int q = 0; q < G; q++) col[q] = ci[q] = 0;
#endif
        CZ_UNROLL for (int q = 0; q < G; q++)
            if (k + q < hi) { col[q] = m.col[k + q]; ci[q] = cidx_at(m, k + q); }
        CZ_UNROLL for (int q = 0; q < G; q++)
            if (k + q < hi) x[q] = ldg_fr(w + col[q]);
        CZ_UNROLL for (int q = 0; q < G; q++) {
            if (k + q >= hi) break;
            if (ci[q] == 0) acc = acc + x[q];
            else if (ci[q] == 1) acc = acc - x[q];
            else if (ci[q] == m.two) acc = acc + (x[q] + x[q]);
            else if (ci[q] == m.mtwo) acc = acc - (x[q] + x[q]);
            else acc = acc + st_mul_coef(x[q], m.coefs + ci[q], m.bits);
        }
    }
    return acc;
}

/* thread mode: row r's sum when it is short (else nothing: a mid or long
 * row's kernel writes it), from offsets rp (an array of 64- or 32-bit
 * offsets, or a rel16: offset_bits); G gathers in flight,
 * G = 1 one non-zero at a time. The kernels and the host emulation both
 * run it. */
template <int G>
CZ_HD fr_t short_sum(const dmat &m, uint64_t lo, uint64_t hi, const fr_t *w)
{
    return dot_short<G>(m, lo, hi, w);
}
template <>
CZ_HD fr_t short_sum<1>(const dmat &m, uint64_t lo, uint64_t hi, const fr_t *w)
{
    return dot_range(m, lo, hi, 1, w);
}

/* thread mode's offsets in 16 bits: a 32-bit base every REL_GROUP rows
 * and each row's start from its group's base (offset_bits says when they
 * fit); short_row indexes it as it does a plain array of offsets */
#define REL_GROUP 32
struct rel16 {
    const uint32_t *base;
    const uint16_t *rel;
    CZ_HD uint64_t operator[](uint64_t r) const { return (uint64_t)base[r / REL_GROUP] + rel[r]; }
};

template <int G, class RP>
CZ_HD void short_row(const dmat &m, RP rp, uint64_t r, const fr_t *w, fr_t *out)
{
    const uint64_t lo = rp[r], hi = rp[r + 1];
    if (hi - lo > m.smax) return;
    st_fr(out + r, short_sum<G>(m, lo, hi, w));
}

/* blocks of 256, as many an SM as the 64-bit kernels had before the
 * offsets could be 32-bit: G = 1 and 2 four (G = 2 with 32-bit offsets
 * took 70 registers unbounded, so three), G = 4 three (80 registers; its
 * 64-bit form spills 8 bytes at that bound). ptxas -v, sm_90: G = 1
 * 52 / 50 / 52 registers (64- / 32- / 16-bit offsets), G = 2 64 / 60 / 64,
 * G = 4 80 / 80 / 80, none spilling. */
template <int G, class RP>
__global__ void __launch_bounds__(256, G == 4 ? 3 : 4) k_short(dmat m, RP rp, const fr_t *w, fr_t *out)
{
    for (uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; r < m.n_rows;
         r += (uint64_t)gridDim.x * blockDim.x)
        short_row<G>(m, rp, r, w, out);
}

/* k_short for `gather` gathers in flight (1, 2 or 4) over offsets rp of
 * any width, and the same sums on the host (the emulation) */
template <class RP>
static void launch_short(int gather, unsigned grid, cudaStream_t st, const dmat &m, RP rp, const fr_t *w, fr_t *out)
{
    if (gather == 4) k_short<4><<<grid, 256, 0, st>>>(m, rp, w, out);
    else if (gather == 2) k_short<2><<<grid, 256, 0, st>>>(m, rp, w, out);
    else k_short<1><<<grid, 256, 0, st>>>(m, rp, w, out);
}
template <class RP> static void host_short(int gather, const dmat &m, RP rp, uint64_t n_rows, const fr_t *w, fr_t *out)
{
    for (uint64_t r = 0; r < n_rows; r++) {
        if (gather == 4) short_row<4>(m, rp, r, w, out);
        else if (gather == 2) short_row<2>(m, rp, r, w, out);
        else short_row<1>(m, rp, r, w, out);
    }
}

/* mid rows: MID_LANES neighbouring lanes take one row's non-zeros in turn
 * and add their sums by shuffles; every lane of a warp runs the shuffles
 * (the grid holds exactly the groups, the last ones idle) */
__global__ void __launch_bounds__(256) k_mid(dmat m, const fr_t *w, fr_t *out)
{
    const uint64_t g = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / MID_LANES;
    const uint32_t sub = threadIdx.x & (MID_LANES - 1);
    const bool on = g < m.n_mid;
    fr_t acc = fr_t::zero();
    if (on) acc = dot_range(m, m.mid_rng[2 * g] + sub, m.mid_rng[2 * g + 1], MID_LANES, w);
    for (int off = MID_LANES / 2; off > 0; off >>= 1) {
        fr_t o;
        CZ_UNROLL for (int k = 0; k < fr_t::N; k++) o.w[k] = __shfl_xor_sync(0xffffffffu, acc.w[k], off);
        acc = acc + o;
    }
    if (on && sub == 0) st_fr(out + m.mid_rows[g], acc);
}

__global__ void __launch_bounds__(SEG_THREADS) k_segments(dmat m, const fr_t *w)
{
    __shared__ fr_t part[SEG_THREADS];
    uint32_t sgi = blockIdx.x;
    uint64_t lo = m.seg[2 * sgi], hi = m.seg[2 * sgi + 1];
    part[threadIdx.x] = dot_range(m, lo + threadIdx.x, hi, SEG_THREADS, w);
    __syncthreads();
    for (int h = SEG_THREADS / 2; h > 0; h >>= 1) {
        if ((int)threadIdx.x < h) part[threadIdx.x] = part[threadIdx.x] + part[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) m.partial[sgi] = part[0];
}

__global__ void k_long_rows(dmat m, fr_t *out)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < m.n_long; i += gridDim.x * blockDim.x) {
        fr_t acc = fr_t::zero();
        for (uint32_t s = m.long_first[i]; s < m.long_first[i + 1]; s++) acc = acc + m.partial[s];
        st_fr(out + m.long_rows[i], acc);
    }
}

static void free_mat(dmat *m, smat *x)
{
    void *p[] = {m->row_ptr, m->col,     m->cidx,      m->coefs, m->long_rows, m->long_first, m->seg,
                 m->partial, m->mid_rows, m->mid_rng,  x->row_ptr32, x->gbase,  x->gcol,       x->gci,
                 x->rbase,   x->rrel};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (p[i]) cz__vram_free(p[i]);
    memset(m, 0, sizeof *m);
    memset(x, 0, sizeof *x);
}

/* whether the row offsets rp (n_rows + 1 of them) go to the device in 32
 * bits: they fit, and the options do not ask for 64 (wide 1) */
static bool narrow_offsets(int wide, const uint64_t *rp, uint64_t n_rows)
{
    return wide != 1 && rp[n_rows] <= 0xffffffffull;
}

/* the width of a matrix's row offsets on the device: 64, 32 (narrow_offsets)
 * or, in thread mode unless wide asks for more, 16 (a rel16) when every
 * group of REL_GROUP rows spans at most 0xffff non-zeros from its first
 * offset to its last (rp[32 g] .. rp[min(32 g + 31, n_rows)]) */
static int offset_bits(int mode, int wide, const uint64_t *rp, uint64_t n_rows)
{
    if (!narrow_offsets(wide, rp, n_rows)) return 64;
    if (mode != CZ_SPMV_THREAD || wide) return 32;
    for (uint64_t g0 = 0; g0 <= n_rows; g0 += REL_GROUP) {
        const uint64_t last = g0 + REL_GROUP - 1 < n_rows ? g0 + REL_GROUP - 1 : n_rows;
        if (rp[last] - rp[g0] > 0xffff) return 32;
    }
    return 16;
}

extern "C" int cz__cuda_spmv_offset_bits(const cz_csr *m, const cz_cuda_spmv_opts *o)
{
    cz_cuda_spmv_opts r = resolve_opts(o);
    return offset_bits(r.mode, r.wide, m->row_ptr, m->n_rows);
}

/* the 16-bit form of offsets rp[i0 .. i0 + c) (i0 a multiple of REL_GROUP):
 * bases of their groups into base, each offset from its group's base into
 * rel */
static void rel16_chunk(const uint64_t *rp, uint64_t i0, uint64_t c, uint32_t *base, uint16_t *rel)
{
    for (uint64_t i = 0; i < c; i++) {
        if (i % REL_GROUP == 0) base[i / REL_GROUP] = (uint32_t)rp[i0 + i];
        rel[i] = (uint16_t)(rp[i0 + i] - rp[i0 + i - i % REL_GROUP]);
    }
}

/* every mode: the row offsets on the device in `bits` (offset_bits): 16
 * (sx->rbase, sx->rrel), 32 (sx->row_ptr32) or 64 (dm->row_ptr); rp on the
 * host. Narrowed in chunks, so the host holds no second copy of them. A
 * 64-bit copy already there (the benchmark's) is freed when narrowed. */
static cz_err upload_offsets(dmat *dm, smat *sx, const uint64_t *rp, int bits, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    const uint64_t n = dm->n_rows + 1, chunk = (uint64_t)1 << 22; /* a multiple of REL_GROUP */
    const uint64_t ng = (n + REL_GROUP - 1) / REL_GROUP, cg = chunk / REL_GROUP;
    uint32_t *h = NULL;
    uint16_t *hr = NULL;
    if (bits == 64) {
        if (!dm->row_ptr) {
            CZ_CK(cz__vram_malloc(&dm->row_ptr, n * 8));
            CZ_CK(cudaMemcpy(dm->row_ptr, rp, n * 8, cudaMemcpyHostToDevice));
        }
        return CZ_OK;
    }
    if (bits == 16) {
        h = (uint32_t *)malloc((ng < cg ? ng : cg) * 4);
        hr = (uint16_t *)malloc((n < chunk ? n : chunk) * 2);
    } else h = (uint32_t *)malloc((n < chunk ? n : chunk) * 4);
    if (!h || (bits == 16 && !hr)) {
        e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "cuda spmv: host buffer for the row offsets");
        goto fail;
    }
    if (bits == 16) {
        CZ_CK(cz__vram_malloc(&sx->rbase, ng * 4));
        CZ_CK(cz__vram_malloc(&sx->rrel, n * 2));
    } else CZ_CK(cz__vram_malloc(&sx->row_ptr32, n * 4));
    for (uint64_t i0 = 0; i0 < n; i0 += chunk) {
        const uint64_t c = n - i0 < chunk ? n - i0 : chunk;
        if (bits == 16) {
            rel16_chunk(rp, i0, c, h, hr);
            CZ_CK(cudaMemcpy(sx->rbase + i0 / REL_GROUP, h, (c + REL_GROUP - 1) / REL_GROUP * 4,
                             cudaMemcpyHostToDevice));
            CZ_CK(cudaMemcpy(sx->rrel + i0, hr, c * 2, cudaMemcpyHostToDevice));
        } else {
            for (uint64_t i = 0; i < c; i++) h[i] = (uint32_t)rp[i0 + i];
            CZ_CK(cudaMemcpy(sx->row_ptr32 + i0, h, c * 4, cudaMemcpyHostToDevice));
        }
    }
    if (dm->row_ptr) cz__vram_free(dm->row_ptr);
    dm->row_ptr = NULL;
fail:
    free(h);
    free(hr);
    return e;
}

/* the indices of 2 and -2 in a coefficient table (NO_COEF where absent);
 * 0 and 1 are +1 and -1 */
static void find_twos(const fr_t *coefs, uint32_t n, uint32_t *two, uint32_t *mtwo)
{
    const fr_t t = fr_t::one() + fr_t::one(), mt = fr_t::zero() - t;
    *two = *mtwo = NO_COEF;
    for (uint32_t i = 2; i < n; i++) {
        if (*two == NO_COEF && !memcmp(&coefs[i], &t, sizeof t)) *two = i;
        if (*mtwo == NO_COEF && !memcmp(&coefs[i], &mt, sizeof mt)) *mtwo = i;
    }
}

/* which kernel sums a row of len non-zeros when the short kernel takes up
 * to smax: plan_mat's rule, and the host emulation's */
enum row_kind { ROW_SHORT, ROW_MID, ROW_LONG };
static row_kind kind_of(uint64_t len, uint32_t smax)
{
    return len <= smax ? ROW_SHORT : len <= MID_MAX ? ROW_MID : ROW_LONG;
}

/* the mid- and long-row plans from the host copy of the row offsets (rows
 * of at most dm->smax non-zeros are the short kernels') */
static cz_err plan_mat(dmat *dm, const uint64_t *row_ptr, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    std::vector<uint32_t> rows, first, mid;
    std::vector<uint64_t> seg, mrng;
    for (uint64_t r = 0; r < dm->n_rows; r++) {
        uint64_t lo = row_ptr[r], hi = row_ptr[r + 1];
        const row_kind rk = kind_of(hi - lo, dm->smax);
        if (rk == ROW_SHORT) continue;
        if (rk == ROW_MID) {
            mid.push_back((uint32_t)r);
            mrng.push_back(lo);
            mrng.push_back(hi);
            continue;
        }
        rows.push_back((uint32_t)r);
        first.push_back((uint32_t)(seg.size() / 2));
        for (uint64_t k = lo; k < hi; k += SEG) {
            seg.push_back(k);
            seg.push_back(std::min(hi, k + SEG));
        }
    }
    first.push_back((uint32_t)(seg.size() / 2));
    dm->n_mid = (uint32_t)mid.size();
    if (dm->n_mid) {
        CZ_CK(cz__vram_malloc(&dm->mid_rows, mid.size() * 4));
        CZ_CK(cz__vram_malloc(&dm->mid_rng, mrng.size() * 8));
        CZ_CK(cudaMemcpy(dm->mid_rows, mid.data(), mid.size() * 4, cudaMemcpyHostToDevice));
        CZ_CK(cudaMemcpy(dm->mid_rng, mrng.data(), mrng.size() * 8, cudaMemcpyHostToDevice));
    }
    dm->n_long = (uint32_t)rows.size();
    dm->n_seg = (uint32_t)(seg.size() / 2);
    if (dm->n_long) {
        CZ_CK(cz__vram_malloc(&dm->long_rows, rows.size() * 4));
        CZ_CK(cz__vram_malloc(&dm->long_first, first.size() * 4));
        CZ_CK(cz__vram_malloc(&dm->seg, seg.size() * 8));
        CZ_CK(cz__vram_malloc(&dm->partial, (size_t)dm->n_seg * sizeof(fr_t)));
        CZ_CK(cudaMemcpy(dm->long_rows, rows.data(), rows.size() * 4, cudaMemcpyHostToDevice));
        CZ_CK(cudaMemcpy(dm->long_first, first.data(), first.size() * 4, cudaMemcpyHostToDevice));
        CZ_CK(cudaMemcpy(dm->seg, seg.data(), seg.size() * 8, cudaMemcpyHostToDevice));
    }
fail:
    return e;
}

template <class OT> static st_mat<OT> stream_view(const dmat &m, const smat &x, const OT *rp, const fr_t *prod)
{
    st_mat<OT> v;
    v.n_rows = m.n_rows;
    v.n_chunks = x.n_chunks;
    v.rp = rp;
    v.col = m.col;
    v.cidx = m.cidx;
    v.cb = m.cb;
    v.rows = x.rows;
    v.coefs = m.coefs;
    v.two = m.two;
    v.mtwo = m.mtwo;
    v.bits = m.bits;
    v.gbase = x.gbase;
    v.prod = prod;
    return v;
}

template <class OT, bool SPLIT> static const void *stream_fn_t(int npl)
{
    if (npl == 1) return (const void *)k_stream<OT, 1, SPLIT>;
    if (npl == 2) return (const void *)k_stream<OT, 2, SPLIT>;
    if (npl == 4) return (const void *)k_stream<OT, 4, SPLIT>;
    return (const void *)k_stream<OT, 8, SPLIT>;
}

static const void *stream_fn(bool narrow, int npl, bool split)
{
    if (narrow) return split ? stream_fn_t<uint32_t, true>(npl) : stream_fn_t<uint32_t, false>(npl);
    return split ? stream_fn_t<uint64_t, true>(npl) : stream_fn_t<uint64_t, false>(npl);
}

/* ---- warp / split: the plan (host) ---- */
struct splan {
    uint32_t rows = 0;
    uint64_t n_chunks = 0, n_gen = 0;
    bool narrow = false;           /* 32-bit offsets (narrow_offsets) */
    std::vector<uint32_t> gbase;   /* split: n_chunks + 1 */
    std::vector<uint32_t> gcol;    /* split: n_gen */
    std::vector<uint8_t> gci;      /* split: n_gen indices, cb bytes each */
};

/* rows per chunk (o->rows, or as many as fill FILL of a pass on average),
 * 32-bit offsets when they fit, and for split mode the list of the short
 * rows' general non-zeros in chunk order (col and cidx are read only then) */
static cz_err plan_stream(splan *p, const cz_cuda_spmv_opts *o, uint64_t n_rows, const uint64_t *rp,
                          const uint32_t *col, const void *cidx, int cb, char *msg, size_t msglen)
{
    uint64_t short_nnz = 0;
    for (uint64_t r = 0; r < n_rows; r++) {
        uint64_t d = rp[r + 1] - rp[r];
        if (d <= SHORT_MAX) short_nnz += d;
    }
    if (o->rows) p->rows = (uint32_t)o->rows;
    else {
        double rows = short_nnz ? FILL * 32.0 * o->npl * (double)n_rows / (double)short_nnz : ST_ROWS_MAX;
        p->rows = (uint32_t)std::min<double>(ST_ROWS_MAX, std::max<double>(8, rows));
    }
    p->n_chunks = (n_rows + p->rows - 1) / p->rows;
    p->narrow = narrow_offsets(o->wide, rp, n_rows);
    if (o->mode != CZ_SPMV_SPLIT) return CZ_OK;
    try {
        p->gbase.resize(p->n_chunks + 1);
        uint64_t n = 0;
        for (uint64_t c = 0; c < p->n_chunks; c++) {
            p->gbase[c] = (uint32_t)n;
            uint64_t r1 = std::min(n_rows, (c + 1) * p->rows);
            for (uint64_t r = c * p->rows; r < r1; r++) {
                if (rp[r + 1] - rp[r] > SHORT_MAX) continue;
                for (uint64_t k = rp[r]; k < rp[r + 1]; k++) {
                    uint32_t ci = st_idx(cidx, cb, k);
                    if (ci < 2) continue;
                    p->gcol.push_back(col[k]);
                    for (int b = 0; b < cb; b++) p->gci.push_back((uint8_t)(ci >> (8 * b)));
                    n++;
                }
            }
            if (n > 0xffffffffull)
                return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "cuda spmv: 2^32 general coefficients or more");
        }
        p->gbase[p->n_chunks] = (uint32_t)n;
        p->n_gen = n;
    } catch (const std::bad_alloc &) {
        return cz_fail(CZ_ERR_NOMEM, msg, msglen, "cuda spmv: host memory for the plan");
    }
    return CZ_OK;
}

/* the plan of a matrix whose row offsets are on the host (rp) and whose
 * columns and indices are on the device already: offsets in the width the
 * kernel reads, the split lists, the grid; row_ptr (64-bit, on the device)
 * is freed when the 32-bit copy replaces it */
static cz_err prep_stream(cz_cuda_spmv *s, int k, const uint64_t *rp, const uint32_t *col, const void *cidx,
                          char *msg, size_t msglen)
{
    dmat *dm = &s->m[k];
    smat *sx = &s->x[k];
    cz_err e = CZ_OK;
    splan p;
    int dev = 0, nsm = 0, per_sm = 0;
    const void *fn = NULL;
    if ((e = plan_stream(&p, &s->o, dm->n_rows, rp, col, cidx, dm->cb, msg, msglen))) return e;
    sx->rows = p.rows;
    sx->n_chunks = p.n_chunks;
    if ((e = upload_offsets(dm, sx, rp, p.narrow ? 32 : 64, msg, msglen))) return e;
    if (s->o.mode == CZ_SPMV_SPLIT) {
        sx->n_gen = p.n_gen;
        CZ_CK(cz__vram_malloc(&sx->gbase, p.gbase.size() * 4));
        CZ_CK(cudaMemcpy(sx->gbase, p.gbase.data(), p.gbase.size() * 4, cudaMemcpyHostToDevice));
        if (p.n_gen) {
            CZ_CK(cz__vram_malloc(&sx->gcol, p.gcol.size() * 4));
            CZ_CK(cz__vram_malloc(&sx->gci, p.gci.size()));
            CZ_CK(cudaMemcpy(sx->gcol, p.gcol.data(), p.gcol.size() * 4, cudaMemcpyHostToDevice));
            CZ_CK(cudaMemcpy(sx->gci, p.gci.data(), p.gci.size(), cudaMemcpyHostToDevice));
        }
    }
    fn = stream_fn(sx->row_ptr32 != NULL, s->o.npl, s->o.mode == CZ_SPMV_SPLIT);
    CZ_CK(cudaGetDevice(&dev));
    CZ_CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev));
    /* all of L1 as shared memory: the blocks an SM holds are set by their
     * shared memory (the pass's slots) and registers, not by the cache */
    CZ_CK(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
    CZ_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, ST_WARPS * 32, 0));
    sx->grid = (unsigned)std::max<uint64_t>(
        1, std::min<uint64_t>((sx->n_chunks + ST_WARPS - 1) / ST_WARPS, (uint64_t)std::max(per_sm, 1) * nsm));
fail:
    return e;
}

/* the split products' scratch: the largest matrix's */
static cz_err alloc_prod(cz_cuda_spmv *s, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    uint64_t n = 0;
    for (int k = 0; k < 3; k++) n = std::max(n, s->x[k].n_gen);
    if (n) CZ_CK(cz__vram_malloc(&s->prod, n * sizeof(fr_t)));
fail:
    return e;
}

extern "C" void cz_cuda_spmv_destroy(cz_cuda_spmv *s)
{
    if (!s) return;
    for (int k = 0; k < 3; k++) free_mat(&s->m[k], &s->x[k]);
    if (s->prod) cz__vram_free(s->prod);
    free(s);
}

extern "C" cz_err cz_cuda_spmv_create(cz_cuda_spmv **out, const cz_r1cs *r, char *msg, size_t msglen)
{
    return cz_cuda_spmv_create_opts(out, r, NULL, msg, msglen);
}

extern "C" cz_err cz_cuda_spmv_create_opts(cz_cuda_spmv **out, const cz_r1cs *r, const cz_cuda_spmv_opts *o,
                                           char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    *out = NULL;
    if (r->n_constraints > 0xffffffffull || r->n_vars > 0xffffffffull)
        return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "cuda spmv: more than 2^32 rows or variables");
    cz_cuda_spmv *s = (cz_cuda_spmv *)calloc(1, sizeof *s);
    if (!s) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "cuda spmv: handle");
    s->n_vars = r->n_vars;
    s->n_rows = r->n_constraints;
    s->o = resolve_opts(o);
    for (int k = 0; k < 3; k++) {
        const cz_csr *c = &r->m[k];
        dmat *dm = &s->m[k];
        dm->n_rows = r->n_constraints;
        dm->nnz = c->nnz;
        dm->cb = (int)c->cidx_bytes;
        if (c->n_rows != r->n_constraints || (dm->cb != 1 && dm->cb != 2 && dm->cb != 4)) {
            e = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cuda spmv: matrix %d malformed", k);
            goto fail;
        }
        dm->smax = short_max(s->o);
        dm->bits = s->o.bits == 1;
        find_twos((const fr_t *)c->coefs, c->n_coefs, &dm->two, &dm->mtwo);
        if (!c->nnz) continue; /* an empty matrix (a zkey's C): nothing resident, run writes zeros */
        if (s->o.mode == CZ_SPMV_THREAD &&
            (e = upload_offsets(dm, &s->x[k], c->row_ptr, offset_bits(s->o.mode, s->o.wide, c->row_ptr, dm->n_rows), msg,
                                msglen)))
            goto fail;
        CZ_CK(cz__vram_malloc(&dm->col, (c->nnz ? c->nnz : 1) * 4));
        CZ_CK(cz__vram_malloc(&dm->cidx, (c->nnz ? c->nnz : 1) * dm->cb));
        CZ_CK(cz__vram_malloc(&dm->coefs, (c->n_coefs ? c->n_coefs : 1) * sizeof(fr_t)));
        if (c->nnz) {
            CZ_CK(cudaMemcpy(dm->col, c->col, c->nnz * 4, cudaMemcpyHostToDevice));
            CZ_CK(cudaMemcpy(dm->cidx, c->cidx, c->nnz * dm->cb, cudaMemcpyHostToDevice));
        }
        if (c->n_coefs) CZ_CK(cudaMemcpy(dm->coefs, c->coefs, c->n_coefs * sizeof(fr_t), cudaMemcpyHostToDevice));
        if ((e = plan_mat(dm, c->row_ptr, msg, msglen))) goto fail;
        if (s->o.mode != CZ_SPMV_THREAD && (e = prep_stream(s, k, c->row_ptr, c->col, c->cidx, msg, msglen)))
            goto fail;
    }
    if ((e = alloc_prod(s, msg, msglen))) goto fail;
    *out = s;
    return CZ_OK;
fail:
    cz_cuda_spmv_destroy(s);
    return e;
}

extern "C" void cz_cuda_spmv_describe(const cz_cuda_spmv *s, char *buf, size_t len)
{
    static const char *names[] = {"", "thread", "warp", "split"};
    int n = snprintf(buf, len, "%s", names[s->o.mode]);
    if (s->o.mode == CZ_SPMV_THREAD) {
        /* the offsets' width, the widest of the three matrices' */
        int wide = 0, w32 = 0;
        for (int k = 0; k < 3; k++) wide |= s->m[k].row_ptr != NULL, w32 |= s->x[k].row_ptr32 != NULL;
        snprintf(buf + n, len > (size_t)n ? len - n : 0, " (gather %d, rows of up to %d a thread, %s offsets%s)",
                 s->o.gather, s->o.tmax, wide ? "64-bit" : w32 ? "32-bit" : "16-bit",
                 s->o.bits == 1 ? "" : ", products on bits");
        return;
    }
    for (int k = 0; k < 3 && n >= 0 && (size_t)n < len; k++) {
        const smat &x = s->x[k];
        n += snprintf(buf + n, len - n, "%s%c: %u rows x %d, %s offsets", k ? "; " : " (", "ABC"[k], x.rows, s->o.npl,
                      x.row_ptr32 ? "32-bit" : "64-bit");
        if (s->o.mode == CZ_SPMV_SPLIT && n >= 0 && (size_t)n < len)
            n += snprintf(buf + n, len - n, ", %llu products", (unsigned long long)x.n_gen);
    }
    if (n >= 0 && (size_t)n < len) snprintf(buf + n, len - n, "%s)", s->o.bits == 1 ? "" : "; products on bits");
}

static unsigned grid_rows(uint64_t n)
{
    uint64_t b = (n + 255) / 256;
    return (unsigned)std::min<uint64_t>(b ? b : 1, 132 * 64);
}

template <class OT>
static cudaError_t launch_stream(const cz_cuda_spmv *s, int k, const OT *rp, const fr_t *w, fr_t *out,
                                 cudaStream_t st)
{
    st_mat<OT> v = stream_view<OT>(s->m[k], s->x[k], rp, s->prod);
    void *args[] = {&v, &w, &out};
    return cudaLaunchKernel(stream_fn(sizeof(OT) == 4, s->o.npl, s->o.mode == CZ_SPMV_SPLIT), dim3(s->x[k].grid),
                            dim3(ST_WARPS * 32), args, 0, st);
}

extern "C" cz_err cz_cuda_spmv_run(const cz_cuda_spmv *s, const void *d_w, void *d_a, void *d_b, void *d_c,
                                   void *stream, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    cudaStream_t st = (cudaStream_t)stream;
    fr_t *outs[3] = {(fr_t *)d_a, (fr_t *)d_b, (fr_t *)d_c};
    const fr_t *w = (const fr_t *)d_w;
    for (int k = 0; k < 3; k++) {
        const dmat &m = s->m[k];
        if (!outs[k] || !m.n_rows) continue;
        if (!m.nnz) {
            CZ_CK(cudaMemsetAsync(outs[k], 0, m.n_rows * sizeof(fr_t), st));
            continue;
        }
        if (s->o.mode == CZ_SPMV_THREAD) {
            const uint32_t *r32 = s->x[k].row_ptr32;
            const uint64_t *r64 = m.row_ptr;
            const rel16 r16 = {s->x[k].rbase, s->x[k].rrel};
            const unsigned g = grid_rows(m.n_rows);
            if (r16.rel) launch_short(s->o.gather, g, st, m, r16, w, outs[k]);
            else if (r32) launch_short(s->o.gather, g, st, m, r32, w, outs[k]);
            else launch_short(s->o.gather, g, st, m, r64, w, outs[k]);
            CZ_CK_LAUNCH();
        } else {
            const smat &x = s->x[k];
            if (x.n_gen) {
                k_products<<<grid_rows(x.n_gen), 256, 0, st>>>(s->prod, x.gcol, x.gci, m.cb, m.coefs, m.two, m.mtwo,
                                                               m.bits, w, x.n_gen);
                CZ_CK_LAUNCH();
            }
            if (x.row_ptr32) CZ_CK(launch_stream<uint32_t>(s, k, x.row_ptr32, w, outs[k], st));
            else CZ_CK(launch_stream<uint64_t>(s, k, m.row_ptr, w, outs[k], st));
            CZ_CK_LAUNCH();
        }
        if (m.n_mid) {
            k_mid<<<(unsigned)(((uint64_t)m.n_mid * MID_LANES + 255) / 256), 256, 0, st>>>(m, w, outs[k]);
            CZ_CK_LAUNCH();
        }
        if (m.n_long) {
            k_segments<<<m.n_seg, SEG_THREADS, 0, st>>>(m, w);
            CZ_CK_LAUNCH();
            k_long_rows<<<grid_rows(m.n_long), 256, 0, st>>>(m, outs[k]);
            CZ_CK_LAUNCH();
        }
    }
fail:
    return e;
}

extern "C" cz_err cz_cuda_spmv_time(const cz_cuda_spmv *s, const void *d_w, void *d_a, void *d_b, void *d_c,
                                    int reps, double *ms, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    cudaEvent_t ev0 = NULL, ev1 = NULL;
    std::vector<float> t;
    if (reps < 1) reps = 1;
    try {
        t.resize(reps);
    } catch (const std::bad_alloc &) {
        return cz_fail(CZ_ERR_NOMEM, msg, msglen, "spmv timing");
    }
    CZ_CK(cudaEventCreate(&ev0));
    CZ_CK(cudaEventCreate(&ev1));
    for (int r = -1; r < reps; r++) { /* r = -1: the warm-up, not counted */
        CZ_CK(cudaEventRecord(ev0));
        if ((e = cz_cuda_spmv_run(s, d_w, d_a, d_b, d_c, NULL, msg, msglen))) goto fail;
        CZ_CK(cudaEventRecord(ev1));
        CZ_CK(cudaEventSynchronize(ev1));
        if (r >= 0) CZ_CK(cudaEventElapsedTime(&t[r], ev0, ev1));
    }
    std::sort(t.begin(), t.end());
    *ms = t[reps / 2];
fail:
    if (ev0) cudaEventDestroy(ev0);
    if (ev1) cudaEventDestroy(ev1);
    return e;
}

/* ---- the warp / split kernels on the host (tests without a device) ---- */
template <class OT, int NPL, bool SPLIT> struct emu_job {
    const st_mat<OT> *m;
    const fr_t *w;
    fr_t *out;
    st_smem<NPL, SPLIT> *sm;
};

template <class OT, int NPL, bool SPLIT> static void emu_lane(cz_warp_emu *e, int lane, void *arg)
{
    emu_job<OT, NPL, SPLIT> *j = (emu_job<OT, NPL, SPLIT> *)arg;
    cz_warp_lane wp{e, lane};
    OT pa[ST_PG], pend = 0;
    st_rows_load(*j->m, 0, (uint32_t)lane, pa, pend);
    for (uint64_t c = 0; c < j->m->n_chunks; c++)
        stream_chunk<OT, NPL, SPLIT>(wp, j->sm, *j->m, j->w, j->out, c, c + 1, pa, pend);
}

template <class OT, int NPL, bool SPLIT> static int emu_run(const st_mat<OT> &m, const fr_t *w, fr_t *out)
{
    emu_job<OT, NPL, SPLIT> j;
    std::vector<st_smem<NPL, SPLIT>> sm(1);
    cz_warp_emu *e = new cz_warp_emu;
    j.m = &m;
    j.w = w;
    j.out = out;
    j.sm = sm.data();
    int rc = e->run(emu_lane<OT, NPL, SPLIT>, &j);
    delete e;
    return rc;
}

template <class OT, bool SPLIT> static int emu_npl(int npl, const st_mat<OT> &m, const fr_t *w, fr_t *out)
{
    if (npl == 1) return emu_run<OT, 1, SPLIT>(m, w, out);
    if (npl == 2) return emu_run<OT, 2, SPLIT>(m, w, out);
    if (npl == 4) return emu_run<OT, 4, SPLIT>(m, w, out);
    return emu_run<OT, 8, SPLIT>(m, w, out);
}

extern "C" cz_err cz__cuda_spmv_host(const cz_r1cs *r, const cz_cuda_spmv_opts *oin, const cz_fr *w_, cz_fr *a,
                                     cz_fr *b, cz_fr *c, char *msg, size_t msglen)
{
    cz_cuda_spmv_opts o = resolve_opts(oin);
    cz_fr *outs[3] = {a, b, c};
    const fr_t *w = (const fr_t *)w_;
    for (int k = 0; k < 3; k++) {
        const cz_csr *cs = &r->m[k];
        fr_t *out = (fr_t *)outs[k];
        if (!out) continue;
        /* the mid and long rows first, cut as k_mid and k_segments cut
         * them, so that a write of a short-row kernel to one would show */
        dmat dm;
        memset(&dm, 0, sizeof dm);
        dm.col = cs->col, dm.cidx = cs->cidx, dm.cb = (int)cs->cidx_bytes, dm.coefs = (fr_t *)cs->coefs;
        dm.smax = short_max(o);
        dm.bits = o.bits == 1;
        find_twos(dm.coefs, cs->n_coefs, &dm.two, &dm.mtwo);
        for (uint64_t row = 0; row < cs->n_rows; row++) {
            const uint64_t lo = cs->row_ptr[row], hi = cs->row_ptr[row + 1];
            const row_kind rk = kind_of(hi - lo, dm.smax);
            if (rk == ROW_SHORT) continue;
            fr_t acc = fr_t::zero();
            if (rk == ROW_MID)
                for (uint32_t j = 0; j < MID_LANES; j++) acc = acc + dot_range(dm, lo + j, hi, MID_LANES, w);
            else
                for (uint64_t s0 = lo; s0 < hi; s0 += SEG)
                    for (uint32_t j = 0; j < SEG_THREADS; j++)
                        acc = acc + dot_range(dm, s0 + j, std::min(hi, s0 + SEG), SEG_THREADS, w);
            out[row] = acc;
        }
        /* the offsets in the width the device reads them (upload_offsets) */
        const int obits = offset_bits(o.mode, o.wide, cs->row_ptr, cs->n_rows);
        std::vector<uint32_t> rp32, rb16;
        std::vector<uint16_t> rr16;
        if (obits == 32) rp32.assign(cs->row_ptr, cs->row_ptr + cs->n_rows + 1);
        if (obits == 16) {
            rb16.resize((cs->n_rows + REL_GROUP) / REL_GROUP);
            rr16.resize(cs->n_rows + 1);
            rel16_chunk(cs->row_ptr, 0, cs->n_rows + 1, rb16.data(), rr16.data());
        }
        const uint32_t *r32 = rp32.empty() ? NULL : rp32.data();
        const rel16 r16 = {rb16.data(), rr16.empty() ? NULL : rr16.data()};
        if (o.mode == CZ_SPMV_THREAD) { /* k_short's row sums */
            if (r16.rel) host_short(o.gather, dm, r16, cs->n_rows, w, out);
            else if (r32) host_short(o.gather, dm, r32, cs->n_rows, w, out);
            else host_short(o.gather, dm, cs->row_ptr, cs->n_rows, w, out);
            continue;
        }
        splan p;
        cz_err e = plan_stream(&p, &o, cs->n_rows, cs->row_ptr, cs->col, cs->cidx, (int)cs->cidx_bytes, msg, msglen);
        if (e) return e;
        std::vector<fr_t> prod(p.n_gen);
        for (uint64_t j = 0; j < p.n_gen; j++)
            st_product(prod.data(), p.gcol.data(), p.gci.data(), (int)cs->cidx_bytes, (const fr_t *)cs->coefs, dm.two,
                       dm.mtwo, dm.bits, w, j);
        int rc;
        if (r32) {
            st_mat<uint32_t> v;
            v.rp = r32;
            v.n_rows = cs->n_rows, v.n_chunks = p.n_chunks, v.col = cs->col, v.cidx = cs->cidx;
            v.cb = (int)cs->cidx_bytes, v.rows = p.rows, v.coefs = (const fr_t *)cs->coefs;
            v.two = dm.two, v.mtwo = dm.mtwo, v.bits = dm.bits;
            v.gbase = p.gbase.data(), v.prod = prod.data();
            rc = o.mode == CZ_SPMV_SPLIT ? emu_npl<uint32_t, true>(o.npl, v, w, out)
                                         : emu_npl<uint32_t, false>(o.npl, v, w, out);
        } else {
            st_mat<uint64_t> v;
            v.rp = cs->row_ptr;
            v.n_rows = cs->n_rows, v.n_chunks = p.n_chunks, v.col = cs->col, v.cidx = cs->cidx;
            v.cb = (int)cs->cidx_bytes, v.rows = p.rows, v.coefs = (const fr_t *)cs->coefs;
            v.two = dm.two, v.mtwo = dm.mtwo, v.bits = dm.bits;
            v.gbase = p.gbase.data(), v.prod = prod.data();
            rc = o.mode == CZ_SPMV_SPLIT ? emu_npl<uint64_t, true>(o.npl, v, w, out)
                                         : emu_npl<uint64_t, false>(o.npl, v, w, out);
        }
        if (rc) return cz_fail(CZ_ERR_DEVICE, msg, msglen, "cuda spmv host: matrix %c: lanes diverged at a collective",
                               "ABC"[k]);
    }
    return CZ_OK;
}

/* ---- benchmark on a synthetic Filecoin-shaped system ---- */
struct shape {
    uint32_t dense;  /* length of row 0 of every 1024 */
    uint32_t pat[8]; /* lengths of the others, by row mod 8 */
};
static const shape SHAPES[3] = {
    {128, {2, 2, 3, 2, 2, 3, 2, 2}}, /* A: ~2.37 per row */
    {1, {1, 1, 1, 1, 1, 1, 1, 1}},   /* B: 1.0 */
    {46, {2, 2, 2, 2, 2, 2, 2, 3}},  /* C: ~2.17 */
};

__device__ __forceinline__ uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

__global__ void k_gen(uint64_t n_rows, const uint64_t *row_ptr, uint32_t *col, uint8_t *cidx, uint32_t salt,
                      unsigned long long *n_random)
{
    unsigned long long nr = 0;
    for (uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; r < n_rows;
         r += (uint64_t)gridDim.x * blockDim.x) {
        for (uint64_t k = row_ptr[r]; k < row_ptr[r + 1]; k++) {
            uint64_t h = mix64(k * 0x9e3779b97f4a7c15ULL + salt);
            col[k] = (h & 1) ? (uint32_t)((r + ((h >> 1) & 63)) % n_rows) : (uint32_t)((h >> 8) % n_rows);
            cidx[k] = ((h >> 40) % 10 == 0) ? (uint8_t)(2 + (h >> 48) % 62) : (uint8_t)((h >> 44) & 1);
            nr += !(h & 1);
        }
    }
    atomicAdd(n_random, nr);
}

__global__ void k_fill_w(fr_t *w, uint64_t n, uint64_t seed)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        fr_t x;
        for (int q = 0; q < 8; q += 2) {
            uint64_t y = mix64(seed + i * 4 + q);
            x.w[q] = (uint32_t)y;
            x.w[q + 1] = (uint32_t)(y >> 32);
        }
        x.w[7] &= 0x1fffffff;
        st_fr(w + i, x);
    }
}

extern "C" cz_err cz_cuda_spmv_bench(int log_rows, int reps, double *ms, double *bytes, uint64_t *nnz_out,
                                     char *msg, size_t msglen)
{
    double g;
    return cz_cuda_spmv_bench_opts(log_rows, reps, NULL, ms, bytes, &g, nnz_out, NULL, 0, msg, msglen);
}

extern "C" cz_err cz_cuda_spmv_bench_gathers(int log_rows, int reps, double *ms, double *bytes, double *gather_bytes,
                                             uint64_t *nnz_out, char *msg, size_t msglen)
{
    return cz_cuda_spmv_bench_opts(log_rows, reps, NULL, ms, bytes, gather_bytes, nnz_out, NULL, 0, msg, msglen);
}

extern "C" cz_err cz_cuda_spmv_bench_opts(int log_rows, int reps, const cz_cuda_spmv_opts *o, double *ms,
                                          double *bytes, double *gather_bytes, uint64_t *nnz_out, char *desc,
                                          size_t desclen, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    uint64_t n = (uint64_t)1 << log_rows, nnz_total = 0;
    unsigned long long *d_nrand = NULL, n_random = 0;
    cz_cuda_spmv *s = (cz_cuda_spmv *)calloc(1, sizeof *s);
    uint64_t *rp = (uint64_t *)malloc((n + 1) * 8);
    fr_t *w = NULL, *out = NULL;
    std::vector<uint32_t> hcol;
    std::vector<uint8_t> hcidx;
    if (!s || !rp) { e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "spmv bench"); goto fail; }
    {
        /* CZ_L2_FETCH=32|64|128: the L2's fetch granularity for this
         * bench (an experiment: a random 32-byte gather may fetch 64) */
        const char *lf = getenv("CZ_L2_FETCH");
        size_t got = 0;
        if (lf && *lf) {
            CZ_CK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, (size_t)atoi(lf)));
            CZ_CK(cudaDeviceGetLimit(&got, cudaLimitMaxL2FetchGranularity));
            fprintf(stderr, "spmv bench: L2 fetch granularity %zu bytes\n", got);
        }
    }
    CZ_CK(cz__vram_malloc(&d_nrand, sizeof *d_nrand));
    CZ_CK(cudaMemset(d_nrand, 0, sizeof *d_nrand));
    s->n_vars = s->n_rows = n;
    s->o = resolve_opts(o);
    for (int k = 0; k < 3; k++) {
        dmat *dm = &s->m[k];
        rp[0] = 0;
        for (uint64_t r = 0; r < n; r++) rp[r + 1] = rp[r] + ((r & 1023) == 0 ? SHAPES[k].dense : SHAPES[k].pat[r & 7]);
        dm->n_rows = n;
        dm->nnz = rp[n];
        dm->cb = 1;
        dm->smax = short_max(s->o);
        dm->bits = s->o.bits == 1; /* w is random (k_fill_w): the shortcut is about never taken */
        dm->two = dm->mtwo = NO_COEF; /* random coefficients (k_fill_w) */
        nnz_total += dm->nnz;
        CZ_CK(cz__vram_malloc(&dm->row_ptr, (n + 1) * 8));
        CZ_CK(cz__vram_malloc(&dm->col, dm->nnz * 4));
        CZ_CK(cz__vram_malloc(&dm->cidx, dm->nnz));
        CZ_CK(cz__vram_malloc(&dm->coefs, 64 * sizeof(fr_t)));
        CZ_CK(cudaMemcpy(dm->row_ptr, rp, (n + 1) * 8, cudaMemcpyHostToDevice));
        k_gen<<<grid_rows(n), 256>>>(n, dm->row_ptr, dm->col, (uint8_t *)dm->cidx, 77u + k, d_nrand);
        CZ_CK_LAUNCH();
        k_fill_w<<<1, 64>>>(dm->coefs, 64, 999 + k);
        CZ_CK_LAUNCH();
        if ((e = plan_mat(dm, rp, msg, msglen))) goto fail;
        if (s->o.mode == CZ_SPMV_THREAD &&
            (e = upload_offsets(dm, &s->x[k], rp, offset_bits(s->o.mode, s->o.wide, rp, n), msg, msglen)))
            goto fail;
        if (s->o.mode == CZ_SPMV_SPLIT) { /* the list of general non-zeros is made on the host */
            try {
                hcol.resize(dm->nnz);
                hcidx.resize(dm->nnz);
            } catch (const std::bad_alloc &) {
                e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "spmv bench: host copy of the columns");
                goto fail;
            }
            CZ_CK(cudaMemcpy(hcol.data(), dm->col, dm->nnz * 4, cudaMemcpyDeviceToHost));
            CZ_CK(cudaMemcpy(hcidx.data(), dm->cidx, dm->nnz, cudaMemcpyDeviceToHost));
        }
        if (s->o.mode != CZ_SPMV_THREAD && (e = prep_stream(s, k, rp, hcol.data(), hcidx.data(), msg, msglen)))
            goto fail;
    }
    hcol.clear();
    hcol.shrink_to_fit();
    hcidx.clear();
    hcidx.shrink_to_fit();
    if ((e = alloc_prod(s, msg, msglen))) goto fail;
    if (desc && desclen) cz_cuda_spmv_describe(s, desc, desclen);
    CZ_CK(cz__vram_malloc(&w, n * sizeof(fr_t)));
    CZ_CK(cz__vram_malloc(&out, 3 * n * sizeof(fr_t)));
    k_fill_w<<<grid_rows(n), 256>>>(w, n, 4242);
    CZ_CK_LAUNCH();
    if ((e = cz_cuda_spmv_time(s, w, out, out + n, out + 2 * n, reps, ms, msg, msglen))) goto fail;
    /* each input read once, each output written once: 3 row-offset arrays
     * (64-bit, as in the .pce), columns and 1-byte indices, w once, a, b, c */
    *bytes = 3.0 * (n + 1) * 8 + (double)nnz_total * 5 + (double)n * 32 + 3.0 * n * 32;
    *nnz_out = nnz_total;
    CZ_CK(cudaMemcpy(&n_random, d_nrand, sizeof n_random, cudaMemcpyDeviceToHost));
    *gather_bytes = (double)n_random * 32;
fail:
    if (d_nrand) cz__vram_free(d_nrand);
    if (w) cz__vram_free(w);
    if (out) cz__vram_free(out);
    cz_cuda_spmv_destroy(s);
    free(rp);
    return e;
}
