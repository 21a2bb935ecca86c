/* cz_cuda_vram.h — the one device-memory allocator and its budget, and the
 * fault-injection knobs, for host C code (vram.cu).
 *
 * Every device allocation of the CUDA code (kernels' scratch, resident keys
 * and constraint systems, NTT tables, a worker's buffers) goes through one
 * allocator (cz__vram_malloc / cz__vram_free in cuda_util.cuh) that counts it
 * against its device's budget. The budget is sized once per device, at the
 * first allocation or at cz_cuda_vram_init, as the free memory cudaMemGetInfo
 * reports then, minus a safety margin (default 512 MiB); no later call asks
 * the driver again. A request past the budget fails as CUDA's own
 * out-of-memory does (CZ_ERR_NOMEM), without reaching the driver. There is
 * no pool and no stream-ordered allocator beside it.
 *
 * Fault injection (tests): CUZK_CUDA_FAIL_ALLOC=N makes the N-th allocation
 * of the process fail as out of memory, CUZK_CUDA_FAIL_LAUNCH=N the N-th
 * launch check fail as a launch failure (each once, counted from the first
 * use; read once); cz_cuda_inject sets the same from code, counting from the
 * call. */
#ifndef CZ_CUDA_VRAM_H
#define CZ_CUDA_VRAM_H

#include <stddef.h>
#include <stdint.h>
#include "util/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_CUDA_VRAM_MARGIN_DEFAULT ((uint64_t)512 << 20)

/* sizes device's budget now (free memory minus margin_bytes) unless it is
 * sized already; *budget (may be NULL) gets the budget in force */
cz_err cz_cuda_vram_init(int device, uint64_t margin_bytes, uint64_t *budget, char *msg, size_t msglen);
/* the budget (0 when not sized yet), bytes in use and the most ever in use */
void cz_cuda_vram_stats(int device, uint64_t *budget, uint64_t *used, uint64_t *peak);
/* tests: lower (or raise) the budget of a sized device */
void cz__cuda_vram_set_budget(int device, uint64_t budget);

/* the alloc_nth-th allocation and the launch_nth-th launch check from now
 * fail once (0: no injection) */
void cz_cuda_inject(long alloc_nth, long launch_nth);
/* how many injected failures have fired so far */
long cz_cuda_injected(void);

#ifdef __cplusplus
}
#endif

#endif
