/* backend_cuda.cu — the CUDA backend's table for backend.c (backend_ops.h):
 * the partition prover of prover.cu and the device-side insecure setup of
 * setup.cu. Linking this object (the cz__be_cuda_ops symbol) is what makes
 * CZ_BACKEND_CUDA available. */
#include <stdlib.h>

#include "cuda/cz_cuda.h"
#include "cuda/cz_cuda_setup.h"
#include "cuda/prover_impl.h"

static cz_err setup_insecure(int device, cz_groth16_vk *vk, void **dev_pk, size_t n[5], const cz_r1cs *cs,
                             uint64_t seed, cz_pool *pool, char *msg, size_t msglen)
{
    *dev_pk = NULL;
    cz_cuda_pk_dev *d = (cz_cuda_pk_dev *)calloc(1, sizeof *d);
    if (!d) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of host memory");
    cz_err e = cz_cuda_setup_insecure(vk, d, cs, seed, device, pool, msg, msglen);
    if (e) {
        free(d);
        return e;
    }
    n[0] = d->n_h;
    n[1] = d->n_l;
    n[2] = d->n_a;
    n[3] = d->n_b_g1;
    n[4] = d->n_b_g2;
    *dev_pk = d;
    return CZ_OK;
}

static void dev_pk_free(void *p)
{
    cz_cuda_pk_dev *d = (cz_cuda_pk_dev *)p;
    if (!d) return;
    cz_cuda_pk_dev_free(d);
    free(d);
}

static cz_err dev_pk_clone(int device, const void *src, void **dev_pk, char *msg, size_t msglen)
{
    *dev_pk = NULL;
    cz_cuda_pk_dev *d = (cz_cuda_pk_dev *)calloc(1, sizeof *d);
    if (!d) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of host memory");
    cz_err e = cz_cuda_pk_dev_clone(d, (const cz_cuda_pk_dev *)src, device, msg, msglen);
    if (e) {
        free(d);
        return e;
    }
    *dev_pk = d;
    return CZ_OK;
}

static const cz_be_ops ops = {
    cz_cuda_device_count,         cz__cuda_prover_open,          cz__cuda_prover_close,
    cz__cuda_prover_load,         cz__cuda_prover_unload,        cz__cuda_prover_worker_create,
    cz__cuda_prover_worker_destroy, cz__cuda_prover_worker_buffer, cz__cuda_prover_prove,
    cz__cuda_prover_vram,         cz__cuda_prover_key_resident, cz__cuda_prover_prove_bits,
    setup_insecure,               dev_pk_free,                   dev_pk_clone,
};

extern "C" const cz_be_ops *cz__be_cuda_ops(void) { return &ops; }
