/* pk_dev.cu — device-resident bellperson proving keys (cz_cuda_prover.h):
 * upload, download, copy to another device, size and free, through the
 * budget allocator. */
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_util.cuh"
#include "cuda/cz_cuda_prover.h"

extern "C" uint64_t cz_cuda_pk_dev_bytes(const cz_cuda_pk_dev *d)
{
    return (uint64_t)(d->n_h + d->n_l + d->n_a + d->n_b_g1) * sizeof(cz_g1_aff) +
           (uint64_t)d->n_b_g2 * sizeof(cz_g2_aff);
}

extern "C" void cz_cuda_pk_dev_free(cz_cuda_pk_dev *d)
{
    if (!d) return;
    int cur = 0;
    cudaGetDevice(&cur);
    cudaSetDevice(d->device);
    void *p[] = {d->h, d->l, d->a, d->b_g1, d->b_g2};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) cz__vram_free(p[i]);
    cudaSetDevice(cur);
    int dev = d->device;
    memset(d, 0, sizeof *d);
    d->device = dev;
}

/* out zeroed, on `device`, with the lengths n[0..4] (h, l, a, b_g1, b_g2) */
static void dev_init(cz_cuda_pk_dev *out, int device, size_t nh, size_t nl, size_t na, size_t nb1, size_t nb2)
{
    memset(out, 0, sizeof *out);
    out->device = device;
    out->n_h = nh;
    out->n_l = nl;
    out->n_a = na;
    out->n_b_g1 = nb1;
    out->n_b_g2 = nb2;
}

extern "C" cz_err cz_cuda_pk_dev_upload(cz_cuda_pk_dev *out, const cz_groth16_pk *pk, int device, char *msg,
                                        size_t msglen)
{
    cz_err e = CZ_OK;
    dev_init(out, device, pk->n_h, pk->n_l, pk->n_a, pk->n_b_g1, pk->n_b_g2);
    if (!pk->h || !pk->l || !pk->a || !pk->b_g1 || !pk->b_g2)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cuda: the proving key has no query arrays to upload");
    CZ_CK(cudaSetDevice(device));
    CZ_CK(cz__vram_upload(&out->h, pk->h, pk->n_h * sizeof(cz_g1_aff)));
    CZ_CK(cz__vram_upload(&out->l, pk->l, pk->n_l * sizeof(cz_g1_aff)));
    CZ_CK(cz__vram_upload(&out->a, pk->a, pk->n_a * sizeof(cz_g1_aff)));
    CZ_CK(cz__vram_upload(&out->b_g1, pk->b_g1, pk->n_b_g1 * sizeof(cz_g1_aff)));
    CZ_CK(cz__vram_upload(&out->b_g2, pk->b_g2, pk->n_b_g2 * sizeof(cz_g2_aff)));
    return CZ_OK;
fail:
    cz_cuda_pk_dev_free(out);
    return e;
}

extern "C" cz_err cz_cuda_pk_dev_download(cz_groth16_pk *pk, const cz_cuda_pk_dev *d, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    pk->n_h = d->n_h;
    pk->n_l = d->n_l;
    pk->n_a = d->n_a;
    pk->n_b_g1 = d->n_b_g1;
    pk->n_b_g2 = d->n_b_g2;
    pk->map = NULL;
    pk->h = (cz_g1_aff *)malloc((d->n_h ? d->n_h : 1) * sizeof(cz_g1_aff));
    pk->l = (cz_g1_aff *)malloc((d->n_l ? d->n_l : 1) * sizeof(cz_g1_aff));
    pk->a = (cz_g1_aff *)malloc((d->n_a ? d->n_a : 1) * sizeof(cz_g1_aff));
    pk->b_g1 = (cz_g1_aff *)malloc((d->n_b_g1 ? d->n_b_g1 : 1) * sizeof(cz_g1_aff));
    pk->b_g2 = (cz_g2_aff *)malloc((d->n_b_g2 ? d->n_b_g2 : 1) * sizeof(cz_g2_aff));
    if (!pk->h || !pk->l || !pk->a || !pk->b_g1 || !pk->b_g2) {
        e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "cuda: out of host memory for the key");
        goto fail;
    }
    CZ_CK(cudaSetDevice(d->device));
    CZ_CK(cudaMemcpy(pk->h, d->h, d->n_h * sizeof(cz_g1_aff), cudaMemcpyDeviceToHost));
    CZ_CK(cudaMemcpy(pk->l, d->l, d->n_l * sizeof(cz_g1_aff), cudaMemcpyDeviceToHost));
    CZ_CK(cudaMemcpy(pk->a, d->a, d->n_a * sizeof(cz_g1_aff), cudaMemcpyDeviceToHost));
    CZ_CK(cudaMemcpy(pk->b_g1, d->b_g1, d->n_b_g1 * sizeof(cz_g1_aff), cudaMemcpyDeviceToHost));
    CZ_CK(cudaMemcpy(pk->b_g2, d->b_g2, d->n_b_g2 * sizeof(cz_g2_aff), cudaMemcpyDeviceToHost));
    return CZ_OK;
fail:
    free(pk->h); free(pk->l); free(pk->a); free(pk->b_g1); free(pk->b_g2);
    pk->h = pk->l = pk->a = pk->b_g1 = NULL;
    pk->b_g2 = NULL;
    return e;
}

extern "C" cz_err cz_cuda_pk_dev_clone(cz_cuda_pk_dev *out, const cz_cuda_pk_dev *src, int device, char *msg,
                                       size_t msglen)
{
    cz_err e = CZ_OK;
    cudaStream_t st = NULL;
    dev_init(out, device, src->n_h, src->n_l, src->n_a, src->n_b_g1, src->n_b_g2);
    {
        void **dst[5] = {(void **)&out->h, (void **)&out->l, (void **)&out->a, (void **)&out->b_g1,
                         (void **)&out->b_g2};
        const void *from[5] = {src->h, src->l, src->a, src->b_g1, src->b_g2};
        size_t bytes[5] = {src->n_h * sizeof(cz_g1_aff), src->n_l * sizeof(cz_g1_aff), src->n_a * sizeof(cz_g1_aff),
                           src->n_b_g1 * sizeof(cz_g1_aff), src->n_b_g2 * sizeof(cz_g2_aff)};
        CZ_CK(cudaSetDevice(device));
        CZ_CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
        for (int i = 0; i < 5; i++) {
            CZ_CK(cz__vram_malloc(dst[i], bytes[i]));
            /* peer to peer where the devices allow it, else through the host (the driver's choice) */
            if (bytes[i]) CZ_CK(cudaMemcpyPeerAsync(*dst[i], device, from[i], src->device, bytes[i], st));
        }
        CZ_CK(cudaStreamSynchronize(st));
    }
    cudaStreamDestroy(st);
    return CZ_OK;
fail:
    if (st) {
        cudaStreamSynchronize(st);
        cudaStreamDestroy(st);
    }
    cz_cuda_pk_dev_free(out);
    return e;
}
