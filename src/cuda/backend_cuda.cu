/* backend_cuda.cu — the CUDA backend's table for backend.c (backend_ops.h):
 * the partition prover of prover.cu. Linking this object (the
 * cz__be_cuda_ops symbol) is what makes CZ_BACKEND_CUDA available. */
#include "cuda/cz_cuda.h"
#include "cuda/prover_impl.h"

static const cz_be_ops ops = {
    cz_cuda_device_count,         cz__cuda_prover_open,          cz__cuda_prover_close,
    cz__cuda_prover_load,         cz__cuda_prover_unload,        cz__cuda_prover_worker_create,
    cz__cuda_prover_worker_destroy, cz__cuda_prover_worker_buffer, cz__cuda_prover_prove,
    cz__cuda_prover_vram,         cz__cuda_prover_key_resident, cz__cuda_prover_prove_bits,
};

extern "C" const cz_be_ops *cz__be_cuda_ops(void) { return &ops; }
