/* msm_g2_single_buckets.cu — the G2 MSM's bucket-sum kernel with one thread
 * per point (CZ_MSM_G2_PAIR=0, beside msm_g2_single.cu), alone in its
 * translation unit: with its additions written out inline it is the
 * slowest kernel of the build to compile (about a minute). */
#include "cuda/msm_launch.cuh"

template void launch_bucket_segments_t<fp2_t>(cudaStream_t, unsigned, const cz_xyzz_t<fp2_t> *, uint32_t, uint32_t,
                                              uint32_t, uint32_t, cz_xyzz_t<fp2_t> *, uint32_t *);
template cudaError_t bucket_blocks_t<fp2_t>(int *, int);
