/* msm_g2.cu — cz_cuda_msm_g2: the device MSM on G2 over Fp2 (msm_impl.cuh). A
 * translation unit of its own so that the two groups compile in parallel;
 * the point-arithmetic kernels it launches are compiled elsewhere
 * (msm_impl.cuh, "The point-arithmetic launches"). */
#include "cuda/msm_impl.cuh"

extern "C" cz_err cz_cuda_msm_g2(cz_cuda_msm *ctx, cz_g2_jac *out, const cz_g2_aff *dev_bases, const cz_fr *scalars,
                                 size_t n, int scalars_mont, const uint64_t *density, char *msg, size_t msglen)
{
    static_assert(sizeof(cz_g2_aff_d) == sizeof(cz_g2_aff), "G2 affine layout");
    static_assert(sizeof(cz_g2_xyzz_d) == sizeof(cz_g2_xyzz), "G2 XYZZ layout");
    const cz_g2_xyzz_d *win, *ones;
    int nw, c;
    cz_err err = msm<fp2_t>(ctx, &win, &nw, &c, &ones, (const cz_g2_aff_d *)dev_bases, scalars, n, scalars_mont,
                          density, msg, msglen);
    if (err) return err;
    /* sum_j 2^(c j) win[j] + ones, on the host (msm_impl.cuh says why) */
    cz_g2_jac t;
    cz_g2_set_inf(out);
    for (int w = nw - 1; w >= 0; w--) {
        for (int i = 0; i < c; i++) cz_g2_dbl(out, out);
        cz_g2_xyzz_to_jac(&t, (const cz_g2_xyzz *)&win[w]);
        cz_g2_add(out, out, &t);
    }
    if (ones) {
        cz_g2_xyzz_to_jac(&t, (const cz_g2_xyzz *)ones);
        cz_g2_add(out, out, &t);
    }
    return CZ_OK;
}
