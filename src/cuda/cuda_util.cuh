/* cuda_util.cuh — host-side helpers shared by the .cu API files: the
 * error-check macro that turns a CUDA failure into a cz_err with a message,
 * and the C error header included with C linkage. */
#ifndef CZ_CUDA_UTIL_CUH
#define CZ_CUDA_UTIL_CUH

#include <cuda_runtime.h>
extern "C" {
#include "util/err.h"
}

/* the one device allocator (vram.cu, cz_cuda_vram.h): cudaMalloc / cudaFree
 * counted against the device's budget, with the fault-injection counter */
cudaError_t cz__vram_malloc(void **p, size_t bytes);
template <class T> inline cudaError_t cz__vram_malloc(T **p, size_t bytes)
{
    return cz__vram_malloc((void **)p, bytes);
}
void cz__vram_free(void *p);
/* *dst = a device copy of bytes bytes of host memory src (at least one byte
 * allocated), through the allocator; on failure nothing stays allocated */
cudaError_t cz__vram_upload(void **dst, const void *src, size_t bytes);
template <class T> inline cudaError_t cz__vram_upload(T **dst, const T *src, size_t bytes)
{
    return cz__vram_upload((void **)dst, (const void *)src, bytes);
}
/* cudaGetLastError, or an injected launch failure (cz_cuda_vram.h) */
cudaError_t cz__launch_check(void);

/* CZ_CK(call): on failure set e (a cz_err in scope) with a message naming
 * the call and the CUDA error, and goto fail. Needs msg/msglen in scope. */
#define CZ_CK(call)                                                                       \
    do {                                                                                  \
        cudaError_t cz__ce = (call);                                                      \
        if (cz__ce != cudaSuccess) {                                                      \
            e = cz_fail(cz__ce == cudaErrorMemoryAllocation ? CZ_ERR_NOMEM : CZ_ERR_DEVICE, msg, msglen, "%s:%d: %s: %s", __FILE__, __LINE__,  \
                        #call, cudaGetErrorString(cz__ce));                               \
            goto fail;                                                                    \
        }                                                                                 \
    } while (0)

/* after a launch: the launch error, then (when sync) the kernel's own */
#define CZ_CK_LAUNCH() CZ_CK(cz__launch_check())

#endif
