/* cuda_info.cu — the first piece of the CUDA backend: how many devices this
 * process can see. Kernels arrive with the GPU backend issue. */
#include <cuda_runtime.h>

extern "C" int cz_cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
    return n;
}
