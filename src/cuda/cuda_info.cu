/* cuda_info.cu — questions about the CUDA build as a whole (cz_cuda.h). */
#include <stdlib.h>
#include <cuda_runtime.h>
#include "cuda/cz_cuda.h"

/* The CUDA runtime loads each kernel at its first launch unless told
 * otherwise (CUDA_MODULE_LOADING=LAZY), which cost a fresh process 40-65 ms
 * in each of its first G1 and G2 MSMs: a 2^15 zkey proof took 98-134 ms on
 * the H200 instead of 13 ms (docs/BENCHMARKS.md). Every kernel is loaded
 * when the context is made instead, before the first CUDA call of any
 * program that links this object (the backend does), unless the user has
 * set the variable. */
__attribute__((constructor)) static void cz__cuda_eager_modules(void)
{
    setenv("CUDA_MODULE_LOADING", "EAGER", 0);
}

extern "C" int cz_cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* no driver or no device: not an error for later calls */
        return 0;
    }
    return n;
}
