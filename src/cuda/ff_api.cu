/* ff_api.cu — extern "C" entry points over the device field arithmetic
 * (ff.cuh): batch operations on host arrays, run on the GPU or by the same
 * code compiled for the host, and the multiplication throughput benchmark.
 * Every CUDA error is caught and returned as a cz_err with a message. */
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include "cuda/ff.cuh"
#include "cuda/ff_f64.cuh"
#include "cuda/fp2_pair.cuh"
#include "cuda/cuda_util.cuh"
#include "cuda/cz_cuda_ff.h"

template <class F>
CZ_HD F apply_op(int op, const F &a, const F &b)
{
    switch (op) {
    case CZ_CUDA_OP_SQR: return sqr(a);
    case CZ_CUDA_OP_ADD: return a + b;
    case CZ_CUDA_OP_SUB: return a - b;
    case CZ_CUDA_OP_NEG: return -a;
    case CZ_CUDA_OP_DBL: return dbl(a);
    case CZ_CUDA_OP_TO_MONT: return to_mont(a);
    case CZ_CUDA_OP_FROM_MONT: return from_mont(a);
    case CZ_CUDA_OP_MUL_EO: return F::mul_eo(a, b);
    case CZ_CUDA_OP_MUL_64: return F::mul_64(a, b);
    case CZ_CUDA_OP_MUL_EO_PLAIN: return F::mul_eo_plain(a, b);
    case CZ_CUDA_OP_MUL_F64: return cz_f64_mul_words(a, b);
    case CZ_CUDA_OP_MUL_KA: return F::mul_ka(a, b);
    case CZ_CUDA_OP_MUL_LT2: return F::mul_lt2(a, b);
    case CZ_CUDA_OP_ADD_LT2: return F::add_lt2(a, b);
    case CZ_CUDA_OP_SUB_LT2: return F::sub_lt2(a, b);
    default: return a * b;
    }
}

template <>
CZ_HD fp2_t apply_op<fp2_t>(int op, const fp2_t &a, const fp2_t &b)
{
    switch (op) {
    case CZ_CUDA_OP_SQR: return sqr(a);
    case CZ_CUDA_OP_ADD: return a + b;
    case CZ_CUDA_OP_SUB: return a - b;
    case CZ_CUDA_OP_NEG: return -a;
    case CZ_CUDA_OP_DBL: return dbl(a);
    case CZ_CUDA_OP_MUL_XI: return mul_by_xi(a);
    case CZ_CUDA_OP_MUL_LAZY: return mul_lazy(a, b);
    case CZ_CUDA_OP_MUL_LAZY_KA: return mul_lazy_ka(a, b);
    case CZ_CUDA_OP_MUL_SUB_LAZY: return mul_sub_lazy(a, b, a + b, a - b);
    default: return a * b;
    }
}

template <class F>
__global__ void k_batch(F *out, const F *a, const F *b, size_t n, int op)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = apply_op<F>(op, a[i], b[i]);
}

/* the lane-pair ops: element i on lanes 2i (c0) and 2i + 1 (c1); both
 * lanes of a pair take the same branch (i < n is pair-uniform) */
__global__ void k_batch_pair(fp2_t *out, const fp2_t *a, const fp2_t *b, size_t n, int op)
{
    size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 1;
    int odd = threadIdx.x & 1;
    if (i >= n) return;
    fp2p_t x{odd ? a[i].c1 : a[i].c0}, y{odd ? b[i].c1 : b[i].c0}, r;
    if (op == CZ_CUDA_OP_MUL_PAIR) r = x * y;
    else r = fe_mul_sub(x, y, x + y, x - y);
    if (odd) out[i].c1 = r.v;
    else out[i].c0 = r.v;
}

static bool pair_op(int op) { return op == CZ_CUDA_OP_MUL_PAIR || op == CZ_CUDA_OP_MUL_SUB_PAIR; }
/* the ops on values below 2m (cz_mont only, no Fp2 form) */
static bool lt2_op(int op)
{
    return op == CZ_CUDA_OP_MUL_LT2 || op == CZ_CUDA_OP_ADD_LT2 || op == CZ_CUDA_OP_SUB_LT2;
}

static size_t elem_size(int field)
{
    return field == CZ_CUDA_FR ? sizeof(fr_t) : field == CZ_CUDA_FP ? sizeof(fp_t) : sizeof(fp2_t);
}

static cz_err check_args(int field, int op, const void *out, const void *a, size_t n, char *msg,
                         size_t msglen)
{
    if (field < CZ_CUDA_FR || field > CZ_CUDA_FP2 || op < 0 || op >= CZ_CUDA_OP__COUNT)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "ff batch: bad field %d / op %d", field, op);
    if (n && (!out || !a))
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "ff batch: NULL buffer");
    if (pair_op(op) && field != CZ_CUDA_FP2)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "ff batch: op %d is for Fp2 only", op);
    if (lt2_op(op) && field == CZ_CUDA_FP2)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "ff batch: op %d is for Fr and Fp only", op);
    return CZ_OK;
}

extern "C" cz_err cz_cuda_ff_batch_host(int field, int op, void *out, const void *a, const void *b, size_t n,
                                        char *msg, size_t msglen)
{
    cz_err e = check_args(field, op, out, a, n, msg, msglen);
    if (e) return e;
    if (pair_op(op)) return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "ff batch: op %d needs the device", op);
    if (!b) b = a;
    for (size_t i = 0; i < n; i++) {
        if (field == CZ_CUDA_FR)
            ((fr_t *)out)[i] = apply_op<fr_t>(op, ((const fr_t *)a)[i], ((const fr_t *)b)[i]);
        else if (field == CZ_CUDA_FP)
            ((fp_t *)out)[i] = apply_op<fp_t>(op, ((const fp_t *)a)[i], ((const fp_t *)b)[i]);
        else
            ((fp2_t *)out)[i] = apply_op<fp2_t>(op, ((const fp2_t *)a)[i], ((const fp2_t *)b)[i]);
    }
    return CZ_OK;
}

extern "C" cz_err cz_cuda_ff_batch(int field, int op, void *out, const void *a, const void *b, size_t n,
                                   char *msg, size_t msglen)
{
    cz_err e = check_args(field, op, out, a, n, msg, msglen);
    if (e || n == 0) return e;
    size_t sz = elem_size(field) * n;
    unsigned blocks = (unsigned)((n + 127) / 128);
    char *d = NULL;
    if (!b) b = a;
    CZ_CK(cz__vram_malloc(&d, 3 * sz));
    CZ_CK(cudaMemcpy(d, a, sz, cudaMemcpyHostToDevice));
    CZ_CK(cudaMemcpy(d + sz, b, sz, cudaMemcpyHostToDevice));
    CZ_CK(cudaMemset(d + 2 * sz, 0xa5, sz)); /* poison: every output must be written */
    if (field == CZ_CUDA_FR)
        k_batch<fr_t><<<blocks, 128>>>((fr_t *)(d + 2 * sz), (const fr_t *)d, (const fr_t *)(d + sz), n, op);
    else if (field == CZ_CUDA_FP)
        k_batch<fp_t><<<blocks, 128>>>((fp_t *)(d + 2 * sz), (const fp_t *)d, (const fp_t *)(d + sz), n, op);
    else if (pair_op(op))
        k_batch_pair<<<(unsigned)((2 * n + 127) / 128), 128>>>((fp2_t *)(d + 2 * sz), (const fp2_t *)d,
                                                               (const fp2_t *)(d + sz), n, op);
    else
        k_batch<fp2_t><<<blocks, 128>>>((fp2_t *)(d + 2 * sz), (const fp2_t *)d, (const fp2_t *)(d + sz), n, op);
    CZ_CK_LAUNCH();
    CZ_CK(cudaMemcpy(out, d + 2 * sz, sz, cudaMemcpyDeviceToHost));
    cz__vram_free(d);
    return CZ_OK;
fail:
    if (d) cz__vram_free(d);
    return e;
}

/* ---- throughput ---- */

__device__ __forceinline__ uint64_t globaltimer_ns(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Each thread runs two independent chains x = x*y, z = z*y for iters
 * steps; thread 0 of block 0 records SM clock and global time around it. */
template <class F, int OP>
__global__ void k_bench(F *io, int iters, unsigned long long *clk)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t T = (size_t)gridDim.x * blockDim.x;
    F x = io[i], z = io[i + T], y = io[i + 2 * T];
    unsigned long long c0 = 0, t0 = 0;
    if (i == 0) { c0 = clock64(); t0 = globaltimer_ns(); }
    for (int k = 0; k < iters; k++) {
        x = apply_op<F>(OP, x, y);
        z = apply_op<F>(OP, z, y);
    }
    if (i == 0) { clk[0] = clock64() - c0; clk[1] = globaltimer_ns() - t0; }
    io[i] = x + z;
}

/* the same chains through the FP64 schedule, the values in 52-bit limbs
 * from the first load to the last store */
template <class F>
__global__ void k_bench_f64(F *io, int iters, unsigned long long *clk)
{
    typedef typename cz_f64_of<F>::type G;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t T = (size_t)gridDim.x * blockDim.x;
    uint64_t t[F::NL];
    CZ_UNROLL for (int k = 0; k < F::NL; k++) t[k] = io[i].l(k);
    G x = G::from_limbs(t);
    CZ_UNROLL for (int k = 0; k < F::NL; k++) t[k] = io[i + T].l(k);
    G z = G::from_limbs(t);
    CZ_UNROLL for (int k = 0; k < F::NL; k++) t[k] = io[i + 2 * T].l(k);
    G y = G::from_limbs(t);
    unsigned long long c0 = 0, t0 = 0;
    if (i == 0) { c0 = clock64(); t0 = globaltimer_ns(); }
    for (int k = 0; k < iters; k++) {
        x = mul(x, y);
        z = mul(z, y);
    }
    if (i == 0) { clk[0] = clock64() - c0; clk[1] = globaltimer_ns() - t0; }
    CZ_UNROLL for (int k = 0; k < G::LIMBS; k++) x.v[k] += z.v[k]; /* < 2^53: exact */
    x.to_limbs(t);
    io[i] = F::from_limbs(t);
}

template <class F, int OP>
static cz_err bench_one(double *per_s, double *ms_out, double *mhz, int *sms, int iters, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    F *d = NULL;
    unsigned long long *clk = NULL, hclk[2];
    cudaEvent_t ev0 = NULL, ev1 = NULL;
    int dev = 0, nsm = 0, per_sm = 0, threads = 256;
    size_t T;
    float times[7];
    F *h = NULL;
    void (*kern)(F *, int, unsigned long long *) = k_bench<F, OP>;
    if constexpr (OP == CZ_CUDA_OP_MUL_F64) kern = k_bench_f64<F>;
    CZ_CK(cudaGetDevice(&dev));
    CZ_CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev));
    CZ_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, threads, 0));
    if (per_sm < 1) per_sm = 1;
    T = (size_t)nsm * per_sm * threads;
    CZ_CK(cz__vram_malloc(&d, 3 * T * sizeof(F)));
    CZ_CK(cz__vram_malloc(&clk, 2 * sizeof(unsigned long long)));
    h = (F *)malloc(3 * T * sizeof(F));
    if (!h) { e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "bench: host buffer"); goto fail; }
    {   /* distinct non-trivial elements: powers of a small element */
        F g = F::one() + F::one() + F::one(), v = g;
        for (size_t k = 0; k < 3 * T; k++) { h[k] = v; v = v * g; }
    }
    CZ_CK(cudaMemcpy(d, h, 3 * T * sizeof(F), cudaMemcpyHostToDevice));
    CZ_CK(cudaEventCreate(&ev0));
    CZ_CK(cudaEventCreate(&ev1));
    kern<<<nsm * per_sm, threads>>>(d, iters / 8, clk); /* warm-up */
    CZ_CK_LAUNCH();
    for (int r = 0; r < 7; r++) {
        CZ_CK(cudaEventRecord(ev0));
        kern<<<nsm * per_sm, threads>>>(d, iters, clk);
        CZ_CK_LAUNCH();
        CZ_CK(cudaEventRecord(ev1));
        CZ_CK(cudaEventSynchronize(ev1));
        CZ_CK(cudaEventElapsedTime(&times[r], ev0, ev1));
    }
    CZ_CK(cudaMemcpy(hclk, clk, sizeof hclk, cudaMemcpyDeviceToHost));
    std::sort(times, times + 7);
    *ms_out = times[3];
    *per_s = 2.0 * (double)T * iters / (times[3] * 1e-3);
    *mhz = hclk[1] ? (double)hclk[0] / (double)hclk[1] * 1e3 : 0;
    *sms = nsm;
fail:
    if (ev0) cudaEventDestroy(ev0);
    if (ev1) cudaEventDestroy(ev1);
    if (d) cz__vram_free(d);
    if (clk) cz__vram_free(clk);
    free(h);
    return e;
}

extern "C" cz_err cz_cuda_ff_bench(int field, int op, double *per_s, double *ms, double *clock_mhz, int *sm_count,
                                   char *msg, size_t msglen)
{
    if (field == CZ_CUDA_FR) {
        if (op == CZ_CUDA_OP_MUL_64) return bench_one<fr_t, CZ_CUDA_OP_MUL_64>(per_s, ms, clock_mhz, sm_count, 4096, msg, msglen);
        if (op == CZ_CUDA_OP_MUL_F64) return bench_one<fr_t, CZ_CUDA_OP_MUL_F64>(per_s, ms, clock_mhz, sm_count, 4096, msg, msglen);
        if (op == CZ_CUDA_OP_SQR) return bench_one<fr_t, CZ_CUDA_OP_SQR>(per_s, ms, clock_mhz, sm_count, 4096, msg, msglen);
        if (op == CZ_CUDA_OP_MUL_EO_PLAIN)
            return bench_one<fr_t, CZ_CUDA_OP_MUL_EO_PLAIN>(per_s, ms, clock_mhz, sm_count, 4096, msg, msglen);
        if (op == CZ_CUDA_OP_MUL_KA) return bench_one<fr_t, CZ_CUDA_OP_MUL_KA>(per_s, ms, clock_mhz, sm_count, 4096, msg, msglen);
        return bench_one<fr_t, CZ_CUDA_OP_MUL_EO>(per_s, ms, clock_mhz, sm_count, 4096, msg, msglen);
    }
    if (field == CZ_CUDA_FP) {
        if (op == CZ_CUDA_OP_MUL_64) return bench_one<fp_t, CZ_CUDA_OP_MUL_64>(per_s, ms, clock_mhz, sm_count, 2048, msg, msglen);
        if (op == CZ_CUDA_OP_MUL_F64) return bench_one<fp_t, CZ_CUDA_OP_MUL_F64>(per_s, ms, clock_mhz, sm_count, 2048, msg, msglen);
        if (op == CZ_CUDA_OP_SQR) return bench_one<fp_t, CZ_CUDA_OP_SQR>(per_s, ms, clock_mhz, sm_count, 2048, msg, msglen);
        if (op == CZ_CUDA_OP_MUL_KA) return bench_one<fp_t, CZ_CUDA_OP_MUL_KA>(per_s, ms, clock_mhz, sm_count, 2048, msg, msglen);
        return bench_one<fp_t, CZ_CUDA_OP_MUL_EO>(per_s, ms, clock_mhz, sm_count, 2048, msg, msglen);
    }
    if (field == CZ_CUDA_FP2) {
        if (op == CZ_CUDA_OP_MUL_LAZY)
            return bench_one<fp2_t, CZ_CUDA_OP_MUL_LAZY>(per_s, ms, clock_mhz, sm_count, 512, msg, msglen);
        if (op == CZ_CUDA_OP_MUL_LAZY_KA)
            return bench_one<fp2_t, CZ_CUDA_OP_MUL_LAZY_KA>(per_s, ms, clock_mhz, sm_count, 512, msg, msglen);
        return bench_one<fp2_t, CZ_CUDA_OP_MUL>(per_s, ms, clock_mhz, sm_count, 512, msg, msglen);
    }
    return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "ff bench: bad field %d", field);
}
