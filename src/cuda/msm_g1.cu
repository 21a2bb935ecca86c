/* msm_g1.cu — cz_cuda_msm_g1 and cz_cuda_msm_g1_copies: the device MSM on
 * G1 over Fp (msm_impl.cuh), on bases or on their window copies. A
 * translation unit of its own so that the two groups compile in parallel;
 * the point-arithmetic kernels it launches are compiled elsewhere
 * (msm_impl.cuh, "The point-arithmetic launches"). */
#include "cuda/msm_impl.cuh"

/* sum_j 2^(c j) win[j] + ones, on the host (msm_impl.cuh says why) */
static void horner_g1(cz_g1_jac *out, const cz_g1_xyzz_d *win, int nw, int c, const cz_g1_xyzz_d *ones)
{
    cz_g1_jac t;
    cz_g1_set_inf(out);
    for (int w = nw - 1; w >= 0; w--) {
        for (int i = 0; i < c; i++) cz_g1_dbl(out, out);
        cz_g1_xyzz_to_jac(&t, (const cz_g1_xyzz *)&win[w]);
        cz_g1_add(out, out, &t);
    }
    if (ones) {
        cz_g1_xyzz_to_jac(&t, (const cz_g1_xyzz *)ones);
        cz_g1_add(out, out, &t);
    }
}

extern "C" cz_err cz_cuda_msm_g1(cz_cuda_msm *ctx, cz_g1_jac *out, const cz_g1_aff *dev_bases, const cz_fr *scalars,
                                 size_t n, int scalars_mont, const uint64_t *density, char *msg, size_t msglen)
{
    static_assert(sizeof(cz_g1_aff_d) == sizeof(cz_g1_aff), "G1 affine layout");
    static_assert(sizeof(cz_g1_xyzz_d) == sizeof(cz_g1_xyzz), "G1 XYZZ layout");
    const cz_g1_xyzz_d *win, *ones;
    int nw, c;
    cz_err err = msm<fp_t>(ctx, &win, &nw, &c, &ones, (const cz_g1_aff_d *)dev_bases, scalars, n, scalars_mont,
                          density, msg, msglen);
    if (err) return err;
    horner_g1(out, win, nw, c, ones);
    return CZ_OK;
}

extern "C" cz_err cz_cuda_msm_g1_copies(cz_cuda_msm *ctx, cz_g1_jac *out, const cz_g1_aff *dev_table, size_t nb,
                                        int c, int copies, const cz_fr *scalars, size_t n, int scalars_mont,
                                        const uint64_t *density, char *msg, size_t msglen)
{
    cz_err err = cz__cuda_msm_copies_check(nb, c, copies, msg, msglen);
    if (err) return err;
    const cz_g1_xyzz_d *win, *ones;
    int nw, cw;
    msm_copies fx = {nb, c, copies};
    err = msm<fp_t>(ctx, &win, &nw, &cw, &ones, (const cz_g1_aff_d *)dev_table, scalars, n, scalars_mont,
                          density, msg, msglen, &fx);
    if (err) return err;
    horner_g1(out, win, nw, cw, ones);
    return CZ_OK;
}
