/* msm_g1_sums.cu — the G1 MSM's reduce-by-key and bucket-sum kernels
 * (msm_launch.cuh), a translation unit of their own so that they compile in
 * parallel with the rest (msm_impl.cuh says why). */
#include "cuda/msm_launch.cuh"

template void launch_segment_sums_t<fp_t, cz_in_aff<fp_t>>(cudaStream_t, unsigned, cz_in_aff<fp_t>, const uint32_t *,
                                                           uint32_t, uint32_t, const uint32_t *, const uint32_t *,
                                                           uint32_t *, cz_xyzz_t<fp_t> *, cz_xyzz_t<fp_t> *,
                                                           uint32_t);
template void launch_segment_sums_t<fp_t, cz_in_xyzz<fp_t>>(cudaStream_t, unsigned, cz_in_xyzz<fp_t>,
                                                            const uint32_t *, uint32_t, uint32_t, const uint32_t *,
                                                            const uint32_t *, uint32_t *, cz_xyzz_t<fp_t> *,
                                                            cz_xyzz_t<fp_t> *, uint32_t);
template void launch_segment_sums_t<fp_t, cz_in_points<fp_t>>(cudaStream_t, unsigned, cz_in_points<fp_t>,
                                                              const uint32_t *, uint32_t, uint32_t, const uint32_t *,
                                                              const uint32_t *, uint32_t *, cz_xyzz_t<fp_t> *,
                                                              cz_xyzz_t<fp_t> *, uint32_t);
template void launch_run_sums_t<fp_t>(cudaStream_t, unsigned, size_t, const cz_xyzz_t<fp_t> *, const uint32_t *,
                                      const uint32_t *, const uint32_t *, const uint32_t *, uint32_t,
                                      cz_xyzz_t<fp_t> *);
template void launch_bucket_segments_t<fp_t>(cudaStream_t, unsigned, const cz_xyzz_t<fp_t> *, uint32_t, uint32_t,
                                             uint32_t, uint32_t, cz_xyzz_t<fp_t> *, uint32_t *);
template cudaError_t bucket_blocks_t<fp_t>(int *, int);
