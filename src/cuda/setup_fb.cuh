/* setup_fb.cuh — the fixed-base kernels of the GPU setup (k_fb_mul,
 * k_fb_aff; setup.cu's DESIGN comment), their bodies' host emulation and
 * the chunk loop run_section, included only by setup_g1.cu and setup_g2.cu,
 * which instantiate it for one group each. */
#ifndef CZ_CUDA_SETUP_FB_CUH
#define CZ_CUDA_SETUP_FB_CUH

#include "cuda/setup_run.cuh"

#if defined(__CUDA_ARCH__)
#define NO_UNROLL _Pragma("unroll 1")
#else
#define NO_UNROLL
#endif

/* ---- the kernels' bodies ---- */

template <class F> struct fb_mul_args {
    cz_xyzz_t<F> *acc;
    const fr_t *k;
    const cz_aff_t<F> *table;
    size_t n;
};

/* acc[i] = k[i]·G by the comb */
template <class F> CZ_HD void fb_mul_one(const fb_mul_args<F> &a, size_t i)
{
    fr_t k = from_mont(ld_fr(a.k + i));
    cz_xyzz_t<F> acc;
    xyzz_set_inf(acc);
    NO_UNROLL for (int w = 0; w < CZ__SETUP_NWIN; w++) {
        uint32_t d = (k.w[w / 4] >> (8 * (w % 4))) & 0xff;
        if (!d) continue;
        cz_aff_t<F> p = a.table[w * CZ__SETUP_WSIZE + d];
        xyzz_madd(acc, p, false);
    }
    a.acc[i] = acc;
}

template <class F> struct fb_aff_args {
    cz_aff_t<F> *out;
    const cz_xyzz_t<F> *acc;
    size_t n;
};

/* out[i] = the affine form of acc[i] for i in group g (GA sums) */
template <class F> CZ_HD void fb_aff_group(const fb_aff_args<F> &a, size_t g)
{
    size_t lo = g * GA, hi = lo + GA < a.n ? lo + GA : a.n;
    xyzz_batch_to_aff(a.out, a.acc, lo, hi);
}

template <class F> __global__ void k_fb_mul(fb_mul_args<F> a)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < a.n) fb_mul_one(a, i);
}

template <class F> __global__ void k_fb_aff(fb_aff_args<F> a)
{
    size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (g * GA < a.n) fb_aff_group(a, g);
}

template <class F> static void host_mul(void *ctx, size_t i) { fb_mul_one(*(const fb_mul_args<F> *)ctx, i); }
template <class F> static void host_aff(void *ctx, size_t g) { fb_aff_group(*(const fb_aff_args<F> *)ctx, g); }

/* ---- the chunk loop, on the device or emulated on the host ---- */

template <class F>
cz_err run_section(const runner &r, cz_aff_t<F> *dst, const cz_fr *k, size_t n, const cz_aff_t<F> *table,
                   char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    size_t chunk = chunk_points<F>(r.scratch_bytes);
    fr_t *ks = (fr_t *)r.scratch;
    cz_xyzz_t<F> *acc = (cz_xyzz_t<F> *)(r.scratch + chunk * sizeof(fr_t));
    if (chunk == 0) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cuda setup: scratch too small");
    for (size_t off = 0; off < n; off += chunk) {
        size_t c = n - off < chunk ? n - off : chunk, groups = (c + GA - 1) / GA;
        fb_mul_args<F> ma = {acc, ks, table, c};
        fb_aff_args<F> aa = {dst + off, acc, c};
        if (r.emulate) {
            memcpy(ks, k + off, c * sizeof(fr_t));
            cz_pool_run(r.pool, c, host_mul<F>, &ma);
            cz_pool_run(r.pool, groups, host_aff<F>, &aa);
            continue;
        }
        /* stream order keeps the next chunk's copy behind these kernels */
        CZ_CK(cudaMemcpyAsync(ks, k + off, c * sizeof(fr_t), cudaMemcpyHostToDevice, r.st));
        k_fb_mul<F><<<(unsigned)((c + NTHR - 1) / NTHR), NTHR, 0, r.st>>>(ma);
        CZ_CK_LAUNCH();
        k_fb_aff<F><<<(unsigned)((groups + NTHR - 1) / NTHR), NTHR, 0, r.st>>>(aa);
        CZ_CK_LAUNCH();
    }
    if (!r.emulate) CZ_CK(cudaStreamSynchronize(r.st));
    return CZ_OK;
fail:
    return e;
}

#endif
