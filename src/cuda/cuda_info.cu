/* cuda_info.cu — questions about the CUDA build as a whole (cz_cuda.h). */
#include <cuda_runtime.h>
#include "cuda/cz_cuda.h"

extern "C" int cz_cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* no driver or no device: not an error for later calls */
        return 0;
    }
    return n;
}
