/* backend_cuda.cu — the CUDA backend's table for backend.c (backend_ops.h).
 * The partition prover behind it is prover.cu. */
#include "cuda/cuda_util.cuh"
extern "C" {
#include "backend/backend_ops.h"
}

static int device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}

static cz_err open_unfinished(void **self, const cz_backend_opts *o, char *name, size_t namelen, char *msg,
                              size_t msglen)
{
    (void)self, (void)o, (void)name, (void)namelen;
    return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "backend cuda: the partition prover is not in this build yet");
}

static const cz_be_ops ops = {device_count, open_unfinished, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

extern "C" const cz_be_ops *cz__be_cuda_ops(void) { return &ops; }
