/* msm_g2_single.cu — the G2 MSM's reduce-by-key kernels with one thread per
 * point (CZ_MSM_G2_PAIR=0, kept for comparison; the default is
 * msm_g2_pair.cu's lane pairs), a translation unit of their own so that they
 * compile in parallel with the rest (msm_impl.cuh says why). Its bucket sums
 * are msm_g2_single_buckets.cu's: that one kernel takes as long to compile
 * as these three. */
#include "cuda/msm_launch.cuh"

template void launch_segment_sums_t<fp2_t, cz_in_aff<fp2_t>>(cudaStream_t, unsigned, cz_in_aff<fp2_t>,
                                                             const uint32_t *, uint32_t, uint32_t, const uint32_t *,
                                                             const uint32_t *, uint32_t *, cz_xyzz_t<fp2_t> *,
                                                             cz_xyzz_t<fp2_t> *, uint32_t);
template void launch_segment_sums_t<fp2_t, cz_in_xyzz<fp2_t>>(cudaStream_t, unsigned, cz_in_xyzz<fp2_t>,
                                                              const uint32_t *, uint32_t, uint32_t, const uint32_t *,
                                                              const uint32_t *, uint32_t *, cz_xyzz_t<fp2_t> *,
                                                              cz_xyzz_t<fp2_t> *, uint32_t);
template void launch_run_sums_t<fp2_t>(cudaStream_t, unsigned, size_t, const cz_xyzz_t<fp2_t> *, const uint32_t *,
                                       const uint32_t *, const uint32_t *, const uint32_t *, uint32_t,
                                       cz_xyzz_t<fp2_t> *);
