/* msm_g2_pair.cu — the G2 MSM's reduce-by-key and bucket-sum kernels on
 * lane pairs (fp2_pair.cuh), the default; a translation unit of their own
 * so that they compile in parallel with the rest (msm_impl.cuh says why). */
#include "cuda/msm_impl.cuh"

void launch_segment_sums_pair(cudaStream_t st, unsigned hb, cz_in_aff<fp2_t> in, const uint32_t *keys, uint32_t n,
                              uint32_t s0, const uint32_t *incl, const uint32_t *pc, uint32_t *okeys,
                              cz_xyzz_t<fp2_t> *out, cz_xyzz_t<fp2_t> *dest, uint32_t t0)
{
    cz_in_aff_pair ip = {in.bases, in.vals};
    cz_k_segment_sums_pair<<<blocks_of(2 * (size_t)s0, hb), hb, 0, st>>>(ip, keys, n, t0, incl, pc, okeys, out,
                                                                         dest);
}

void launch_segment_sums_pair(cudaStream_t st, unsigned hb, cz_in_xyzz<fp2_t> in, const uint32_t *keys, uint32_t n,
                              uint32_t s0, const uint32_t *incl, const uint32_t *pc, uint32_t *okeys,
                              cz_xyzz_t<fp2_t> *out, cz_xyzz_t<fp2_t> *dest, uint32_t t0)
{
    cz_in_xyzz_pair ip = {in.items};
    cz_k_segment_sums_pair<<<blocks_of(2 * (size_t)s0, hb), hb, 0, st>>>(ip, keys, n, t0, incl, pc, okeys, out,
                                                                         dest);
}

void launch_run_sums_pair(cudaStream_t st, unsigned hb, size_t bound, const cz_xyzz_t<fp2_t> *items,
                          const uint32_t *off, const uint32_t *cnt, const uint32_t *np, const uint32_t *incl2,
                          uint32_t runs, cz_xyzz_t<fp2_t> *out)
{
    cz_k_run_sums_pair<<<blocks_of(2 * bound, hb), hb, 0, st>>>(items, off, cnt, np, incl2, runs, T1, out);
}

void launch_bucket_segments_pair(cudaStream_t st, unsigned hb, const cz_xyzz_t<fp2_t> *buckets, uint32_t kb,
                                 uint32_t l, uint32_t segs, uint32_t nt, cz_xyzz_t<fp2_t> *out, uint32_t *okeys)
{
    cz_k_bucket_segments_pair<<<blocks_of(2 * (size_t)nt, hb), hb, 0, st>>>(buckets, kb, l, segs, nt, out, okeys);
}

cudaError_t bucket_blocks_pair(int *nb, int hb)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(nb, cz_k_bucket_segments_pair<0>, hb, 0);
}
