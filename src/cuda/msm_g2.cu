/* msm_g2.cu — cz_cuda_msm_g2: the device MSM on G2 over Fp2 (msm_impl.cuh). A
 * translation unit of its own so that the two groups compile in parallel. */
#include "cuda/msm_impl.cuh"

extern "C" cz_err cz_cuda_msm_g2(cz_cuda_msm *ctx, cz_g2_jac *out, const cz_g2_aff *dev_bases, const cz_fr *scalars,
                                 size_t n, int scalars_mont, const uint64_t *density, char *msg, size_t msglen)
{
    static_assert(sizeof(cz_g2_aff_d) == sizeof(cz_g2_aff), "G2 affine layout");
    static_assert(sizeof(cz_g2_xyzz_d) == sizeof(cz_g2_xyzz), "G2 XYZZ layout");
    cz_g2_xyzz r;
    cz_err err = msm<fp2_t>(ctx, (cz_g2_xyzz_d *)&r, (const cz_g2_aff_d *)dev_bases, scalars, n, scalars_mont,
                            density, msg, msglen);
    if (err == CZ_OK) cz_g2_xyzz_to_jac(out, &r);
    return err;
}
