/* msm_launch.cuh — the launches of the device MSM's point-arithmetic
 * kernels, declared in msm_impl.cuh. Included only by the translation
 * units that instantiate them (msm_g1_sums.cu, msm_g1_ba.cu), one group of
 * kernels each, so that the kernels — most of the build's time — compile
 * once and in parallel. G2's launches, on lane pairs, are msm_g2_pair.cu's
 * own. */
#ifndef CZ_CUDA_MSM_LAUNCH_CUH
#define CZ_CUDA_MSM_LAUNCH_CUH

#include "cuda/msm_impl.cuh"

template <class F, class In>
void launch_segment_sums_t(cudaStream_t st, unsigned hb, In in, const uint32_t *keys, uint32_t n, uint32_t s0,
                           const uint32_t *incl, const uint32_t *pc, uint32_t *okeys, cz_xyzz_t<F> *out,
                           cz_xyzz_t<F> *dest, uint32_t t0)
{
    cz_k_segment_sums<F, In><<<blocks_of(s0, hb), hb, 0, st>>>(in, keys, n, t0, incl, pc, okeys, out, dest);
}

template <class F>
void launch_run_sums_t(cudaStream_t st, unsigned hb, size_t bound, const cz_xyzz_t<F> *items, const uint32_t *off,
                       const uint32_t *cnt, const uint32_t *np, const uint32_t *incl2, uint32_t runs,
                       cz_xyzz_t<F> *out)
{
    cz_k_run_sums<F><<<blocks_of(bound, hb), hb, 0, st>>>(items, off, cnt, np, incl2, runs, T1, out);
}

template <class F>
void launch_bucket_segments_t(cudaStream_t st, unsigned hb, const cz_xyzz_t<F> *buckets, uint32_t kb, uint32_t l,
                              uint32_t segs, uint32_t nt, cz_xyzz_t<F> *out, uint32_t *okeys)
{
    cz_k_bucket_segments<F><<<blocks_of(nt, hb), hb, 0, st>>>(buckets, kb, l, segs, nt, out, okeys);
}

template <class F> cudaError_t bucket_blocks_t(int *nb, int hb)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(nb, cz_k_bucket_segments<F>, hb, 0);
}

template <class F, class Src>
cudaError_t launch_ba_round(cudaStream_t st, Src src, const uint32_t *rk, uint32_t rm, const uint32_t *incl,
                            uint32_t npairs, uint32_t T, uint32_t U, uint32_t *okeys, cz_aff_t<F> *opts, F *tot,
                            F *pre)
{
    cudaError_t e;
    unsigned bwd_blocks = (T + BA_BWD_BLOCK - 1) / BA_BWD_BLOCK;
    cz_k_ba_fwd<F, Src><<<blocks(T), BLOCK, 0, st>>>(src, rk, rm, incl, npairs, T, okeys, opts, tot);
    if ((e = cz__launch_check())) return e;
    cz_k_ba_inv<F><<<blocks(U), BLOCK, 0, st>>>(tot, pre, T, U);
    if ((e = cz__launch_check())) return e;
    cz_k_ba_bwd<F, Src><<<bwd_blocks, BA_BWD_BLOCK, 0, st>>>(src, rk, rm, incl, npairs, T, opts, tot);
    return cz__launch_check();
}

#endif
