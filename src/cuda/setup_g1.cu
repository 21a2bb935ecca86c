/* setup_g1.cu — the GPU setup's fixed-base kernels and their host emulation
 * for G1 (the key's h, ic, l, a and b in G1): a unit of their own so that the two groups
 * compile in parallel (setup_run.cuh). */
#include "cuda/setup_fb.cuh"

template cz_err run_section<fp_t>(const runner &, cz_aff_t<fp_t> *, const cz_fr *, size_t, const cz_aff_t<fp_t> *, char *,
                                 size_t);
