/* spmv_api.cu — a = A w, b = B w, c = C w on the GPU over the .pce CSR
 * layout (cz_cuda_spmv.h), bit-identical to cz_r1cs_spmv.
 *
 * How it works. The matrices are copied once (row offsets, columns, the
 * 1/2/4-byte coefficient indices, the coefficient table) and stay on the
 * device. Rows with at most SHORT_MAX non-zeros, nearly all of a real
 * circuit, take one thread each; consecutive threads take consecutive rows,
 * so their column and index reads are close together, and a warp waits at
 * most SHORT_MAX steps. A thread reads the columns of two non-zeros before
 * it gathers their w, so two gathers are in flight (CZ_SPMV_GATHER=1/2/4;
 * 2 measured best: docs/CUDA.md). Longer rows are skipped there and cut at plan time
 * into segments of at most SEG non-zeros; a block of SEG_THREADS threads sums
 * each segment (strided, then a tree in shared memory) into a partial, and
 * one thread per long row adds its segments' partials. So a dense row costs
 * its own non-zeros spread over many blocks, never one warp's time. Index 0
 * of the coefficient table is +1 and index 1 is -1: add or subtract, no
 * multiplication, as on the CPU. The field is exact, so the order of the
 * additions does not change the result. */
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>
#include "cuda/ff.cuh"
#include "cuda/cuda_util.cuh"
#include "cuda/cz_cuda_spmv.h"

#define SHORT_MAX 32
#define SEG 2048
#define SEG_THREADS 128
#define GATHER_DEFAULT 2

struct dmat {
    uint64_t n_rows, nnz;
    uint64_t *row_ptr;
    uint32_t *col;
    void *cidx;
    int cb;
    fr_t *coefs;
    uint32_t n_long, n_seg;
    uint32_t *long_rows;  /* n_long row ids */
    uint32_t *long_first; /* n_long + 1: segments of long row i are [first[i], first[i+1]) */
    uint64_t *seg;        /* n_seg (start, end) pairs */
    fr_t *partial;        /* n_seg partial sums */
};

struct cz_cuda_spmv {
    uint64_t n_vars, n_rows;
    dmat m[3];
    int gather; /* short rows: 1 = k_short, 2 or 4 = k_short_g (CZ_SPMV_GATHER) */
};

static int gather_knob(void)
{
    const char *v = getenv("CZ_SPMV_GATHER");
    int g = v ? atoi(v) : GATHER_DEFAULT;
    return g == 1 || g == 2 || g == 4 ? g : GATHER_DEFAULT;
}

__device__ __forceinline__ uint32_t cidx_at(const dmat &m, uint64_t k)
{
    if (m.cb == 1) return ((const uint8_t *)m.cidx)[k];
    if (m.cb == 2) return ((const uint16_t *)m.cidx)[k];
    return ((const uint32_t *)m.cidx)[k];
}

__device__ __forceinline__ fr_t dot_range(const dmat &m, uint64_t lo, uint64_t hi, uint64_t step, const fr_t *w)
{
    fr_t acc = fr_t::zero();
    for (uint64_t k = lo; k < hi; k += step) {
        uint32_t ci = cidx_at(m, k);
        fr_t x = ldg_fr(w + m.col[k]);
        if (ci == 0) acc = acc + x;
        else if (ci == 1) acc = acc - x;
        else acc = acc + x * ldg_fr(m.coefs + ci);
    }
    return acc;
}

/* A short row (at most SHORT_MAX non-zeros) in groups of G: the columns and
 * indices of a group are read first, then its G loads of w are issued
 * together, so a thread has up to G gathers in flight instead of one. */
template <int G>
__device__ __forceinline__ fr_t dot_short(const dmat &m, uint64_t lo, uint64_t hi, const fr_t *w)
{
    fr_t acc = fr_t::zero();
    for (uint64_t k = lo; k < hi; k += G) {
        uint32_t col[G], ci[G];
        fr_t x[G];
#pragma unroll
        for (int q = 0; q < G; q++)
            if (k + q < hi) { col[q] = m.col[k + q]; ci[q] = cidx_at(m, k + q); }
#pragma unroll
        for (int q = 0; q < G; q++)
            if (k + q < hi) x[q] = ldg_fr(w + col[q]);
#pragma unroll
        for (int q = 0; q < G; q++) {
            if (k + q >= hi) break;
            if (ci[q] == 0) acc = acc + x[q];
            else if (ci[q] == 1) acc = acc - x[q];
            else acc = acc + x[q] * ldg_fr(m.coefs + ci[q]);
        }
    }
    return acc;
}

template <int G>
__global__ void k_short_g(dmat m, const fr_t *w, fr_t *out)
{
    for (uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; r < m.n_rows;
         r += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t lo = m.row_ptr[r], hi = m.row_ptr[r + 1];
        if (hi - lo > SHORT_MAX) continue;
        st_fr(out + r, dot_short<G>(m, lo, hi, w));
    }
}

__global__ void k_short(dmat m, const fr_t *w, fr_t *out)
{
    for (uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; r < m.n_rows;
         r += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t lo = m.row_ptr[r], hi = m.row_ptr[r + 1];
        if (hi - lo > SHORT_MAX) continue;
        st_fr(out + r, dot_range(m, lo, hi, 1, w));
    }
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

static void free_mat(dmat *m)
{
    void *p[] = {m->row_ptr, m->col, m->cidx, m->coefs, m->long_rows, m->long_first, m->seg, m->partial};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (p[i]) cz__vram_free(p[i]);
    memset(m, 0, sizeof *m);
}

/* the long-row plan from the host copy of the row offsets */
static cz_err plan_mat(dmat *dm, const uint64_t *row_ptr, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    std::vector<uint32_t> rows, first;
    std::vector<uint64_t> seg;
    for (uint64_t r = 0; r < dm->n_rows; r++) {
        uint64_t lo = row_ptr[r], hi = row_ptr[r + 1];
        if (hi - lo <= SHORT_MAX) continue;
        rows.push_back((uint32_t)r);
        first.push_back((uint32_t)(seg.size() / 2));
        for (uint64_t k = lo; k < hi; k += SEG) {
            seg.push_back(k);
            seg.push_back(std::min(hi, k + SEG));
        }
    }
    first.push_back((uint32_t)(seg.size() / 2));
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

extern "C" void cz_cuda_spmv_destroy(cz_cuda_spmv *s)
{
    if (!s) return;
    for (int k = 0; k < 3; k++) free_mat(&s->m[k]);
    free(s);
}

extern "C" cz_err cz_cuda_spmv_create(cz_cuda_spmv **out, const cz_r1cs *r, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    *out = NULL;
    if (r->n_constraints > 0xffffffffull || r->n_vars > 0xffffffffull)
        return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "cuda spmv: more than 2^32 rows or variables");
    cz_cuda_spmv *s = (cz_cuda_spmv *)calloc(1, sizeof *s);
    if (!s) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "cuda spmv: handle");
    s->n_vars = r->n_vars;
    s->n_rows = r->n_constraints;
    s->gather = gather_knob();
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
        if (!c->nnz) continue; /* an empty matrix (a zkey's C): nothing resident, run writes zeros */
        CZ_CK(cz__vram_malloc(&dm->row_ptr, (dm->n_rows + 1) * 8));
        CZ_CK(cz__vram_malloc(&dm->col, (c->nnz ? c->nnz : 1) * 4));
        CZ_CK(cz__vram_malloc(&dm->cidx, (c->nnz ? c->nnz : 1) * dm->cb));
        CZ_CK(cz__vram_malloc(&dm->coefs, (c->n_coefs ? c->n_coefs : 1) * sizeof(fr_t)));
        CZ_CK(cudaMemcpy(dm->row_ptr, c->row_ptr, (dm->n_rows + 1) * 8, cudaMemcpyHostToDevice));
        if (c->nnz) {
            CZ_CK(cudaMemcpy(dm->col, c->col, c->nnz * 4, cudaMemcpyHostToDevice));
            CZ_CK(cudaMemcpy(dm->cidx, c->cidx, c->nnz * dm->cb, cudaMemcpyHostToDevice));
        }
        if (c->n_coefs) CZ_CK(cudaMemcpy(dm->coefs, c->coefs, c->n_coefs * sizeof(fr_t), cudaMemcpyHostToDevice));
        if ((e = plan_mat(dm, c->row_ptr, msg, msglen))) goto fail;
    }
    *out = s;
    return CZ_OK;
fail:
    cz_cuda_spmv_destroy(s);
    return e;
}

static unsigned grid_rows(uint64_t n)
{
    uint64_t b = (n + 255) / 256;
    return (unsigned)std::min<uint64_t>(b ? b : 1, 132 * 64);
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
        if (s->gather == 4) k_short_g<4><<<grid_rows(m.n_rows), 256, 0, st>>>(m, w, outs[k]);
        else if (s->gather == 2) k_short_g<2><<<grid_rows(m.n_rows), 256, 0, st>>>(m, w, outs[k]);
        else k_short<<<grid_rows(m.n_rows), 256, 0, st>>>(m, w, outs[k]);
        CZ_CK_LAUNCH();
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
    return cz_cuda_spmv_bench_gathers(log_rows, reps, ms, bytes, &g, nnz_out, msg, msglen);
}

extern "C" cz_err cz_cuda_spmv_bench_gathers(int log_rows, int reps, double *ms, double *bytes, double *gather_bytes,
                                             uint64_t *nnz_out, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    uint64_t n = (uint64_t)1 << log_rows, nnz_total = 0;
    unsigned long long *d_nrand = NULL, n_random = 0;
    cz_cuda_spmv *s = (cz_cuda_spmv *)calloc(1, sizeof *s);
    uint64_t *rp = (uint64_t *)malloc((n + 1) * 8);
    fr_t *w = NULL, *out = NULL;
    cudaEvent_t ev0 = NULL, ev1 = NULL;
    std::vector<float> t;
    if (!s || !rp) { e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "spmv bench"); goto fail; }
    if (reps < 1) reps = 1;
    CZ_CK(cz__vram_malloc(&d_nrand, sizeof *d_nrand));
    CZ_CK(cudaMemset(d_nrand, 0, sizeof *d_nrand));
    s->n_vars = s->n_rows = n;
    s->gather = gather_knob();
    for (int k = 0; k < 3; k++) {
        dmat *dm = &s->m[k];
        rp[0] = 0;
        for (uint64_t r = 0; r < n; r++) rp[r + 1] = rp[r] + ((r & 1023) == 0 ? SHAPES[k].dense : SHAPES[k].pat[r & 7]);
        dm->n_rows = n;
        dm->nnz = rp[n];
        dm->cb = 1;
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
    }
    CZ_CK(cz__vram_malloc(&w, n * sizeof(fr_t)));
    CZ_CK(cz__vram_malloc(&out, 3 * n * sizeof(fr_t)));
    k_fill_w<<<grid_rows(n), 256>>>(w, n, 4242);
    CZ_CK_LAUNCH();
    CZ_CK(cudaEventCreate(&ev0));
    CZ_CK(cudaEventCreate(&ev1));
    t.resize(reps);
    for (int r = -1; r < reps; r++) {
        CZ_CK(cudaEventRecord(ev0));
        if ((e = cz_cuda_spmv_run(s, w, out, out + n, out + 2 * n, NULL, msg, msglen))) goto fail;
        CZ_CK(cudaEventRecord(ev1));
        CZ_CK(cudaEventSynchronize(ev1));
        if (r >= 0) CZ_CK(cudaEventElapsedTime(&t[r], ev0, ev1));
    }
    std::sort(t.begin(), t.end());
    *ms = t[reps / 2];
    /* each input read once, each output written once: 3 row-offset arrays,
     * columns and 1-byte indices, w once, a, b, c */
    *bytes = 3.0 * (n + 1) * 8 + (double)nnz_total * 5 + (double)n * 32 + 3.0 * n * 32;
    *nnz_out = nnz_total;
    CZ_CK(cudaMemcpy(&n_random, d_nrand, sizeof n_random, cudaMemcpyDeviceToHost));
    *gather_bytes = (double)n_random * 32;
fail:
    if (d_nrand) cz__vram_free(d_nrand);
    if (ev0) cudaEventDestroy(ev0);
    if (ev1) cudaEventDestroy(ev1);
    if (w) cz__vram_free(w);
    if (out) cz__vram_free(out);
    cz_cuda_spmv_destroy(s);
    free(rp);
    return e;
}
