/* msm_g1_ba.cu — the G1 MSM's batch-affine rounds (msm_launch.cuh,
 * msm_kernels.cuh), a translation unit of their own so that they compile in
 * parallel with the rest (msm_impl.cuh says why). */
#include "cuda/msm_launch.cuh"

template cudaError_t launch_ba_round<fp_t, cz_ba_points<fp_t>>(cudaStream_t, cz_ba_points<fp_t>, const uint32_t *,
                                                               uint32_t, const uint32_t *, uint32_t, uint32_t,
                                                               uint32_t, uint32_t *, cz_aff_t<fp_t> *, fp_t *,
                                                               fp_t *);
template cudaError_t launch_ba_round<fp_t, cz_ba_bases<fp_t>>(cudaStream_t, cz_ba_bases<fp_t>, const uint32_t *,
                                                              uint32_t, const uint32_t *, uint32_t, uint32_t,
                                                              uint32_t, uint32_t *, cz_aff_t<fp_t> *, fp_t *,
                                                              fp_t *);
