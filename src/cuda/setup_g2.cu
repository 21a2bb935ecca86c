/* setup_g2.cu — the GPU setup's fixed-base kernels and their host emulation
 * for G2 (the key's b in G2): a unit of their own so that the two groups
 * compile in parallel (setup_run.cuh). */
#include "cuda/setup_fb.cuh"

template cz_err run_section<fp2_t>(const runner &, cz_aff_t<fp2_t> *, const cz_fr *, size_t, const cz_aff_t<fp2_t> *, char *,
                                 size_t);
