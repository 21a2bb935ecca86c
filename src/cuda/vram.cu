/* vram.cu — the device-memory allocator, its per-device budget and the
 * fault-injection counters (cz_cuda_vram.h, cuda_util.cuh).
 *
 * DESIGN
 * Threads: any thread may allocate or free; one mutex (vram_mu) guards the
 * budgets and the pointer table, held only around the bookkeeping, never
 * across a CUDA call that can block on the device (cudaMalloc and cudaFree
 * run outside it; the bytes are reserved first and given back on failure).
 * The injection counters are atomics. No other lock is taken inside. */
#include <atomic>
#include <mutex>
#include <stdlib.h>
#include <unordered_map>

#include "cuda/cuda_util.cuh"
#include "cuda/cz_cuda_vram.h"

#define MAX_DEV 64

namespace {
struct dev_budget {
    bool sized;
    uint64_t budget, used, peak;
};
std::mutex vram_mu;
dev_budget budgets[MAX_DEV];
struct alloc_rec {
    int dev;
    size_t bytes;
};
std::unordered_map<void *, alloc_rec> *live;

std::atomic<long> alloc_count{0}, launch_count{0}, alloc_fail_at{0}, launch_fail_at{0}, fired{0};
std::once_flag env_once;

void read_env()
{
    const char *a = getenv("CUZK_CUDA_FAIL_ALLOC"), *l = getenv("CUZK_CUDA_FAIL_LAUNCH");
    if (a && atol(a) > 0) alloc_fail_at = atol(a);
    if (l && atol(l) > 0) launch_fail_at = atol(l);
}

/* sizes dev's budget from its free memory minus margin, unless it is sized
 * already (the driver is asked without vram_mu held; the first to finish
 * sets it); *budget (may be NULL) gets the budget in force */
cudaError_t size_budget(int dev, uint64_t margin, uint64_t *budget)
{
    {
        std::lock_guard<std::mutex> g(vram_mu);
        if (budgets[dev].sized) {
            if (budget) *budget = budgets[dev].budget;
            return cudaSuccess;
        }
    }
    int cur = 0;
    cudaError_t e = cudaGetDevice(&cur);
    if (e) return e;
    if (cur != dev && (e = cudaSetDevice(dev))) return e;
    size_t free_b = 0, total_b = 0;
    e = cudaMemGetInfo(&free_b, &total_b);
    if (cur != dev) cudaSetDevice(cur);
    if (e) return e;
    std::lock_guard<std::mutex> g(vram_mu);
    if (!budgets[dev].sized) {
        budgets[dev].sized = true;
        budgets[dev].budget = free_b > margin ? free_b - margin : 0;
    }
    if (budget) *budget = budgets[dev].budget;
    return cudaSuccess;
}
} // namespace

extern "C" cz_err cz_cuda_vram_init(int device, uint64_t margin_bytes, uint64_t *budget, char *msg, size_t msglen)
{
    if (device < 0 || device >= MAX_DEV)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cuda: device %d out of range", device);
    cudaError_t e = size_budget(device, margin_bytes, budget);
    if (e) {
        cudaGetLastError();
        return cz_fail(CZ_ERR_DEVICE, msg, msglen, "cuda: cannot read device %d's free memory: %s", device,
                       cudaGetErrorString(e));
    }
    return CZ_OK;
}

extern "C" void cz_cuda_vram_stats(int device, uint64_t *budget, uint64_t *used, uint64_t *peak)
{
    std::lock_guard<std::mutex> g(vram_mu);
    dev_budget z = {false, 0, 0, 0}, &d = device >= 0 && device < MAX_DEV ? budgets[device] : z;
    if (budget) *budget = d.budget;
    if (used) *used = d.used;
    if (peak) *peak = d.peak;
}

extern "C" void cz__cuda_vram_set_budget(int device, uint64_t budget)
{
    if (device < 0 || device >= MAX_DEV) return;
    std::lock_guard<std::mutex> g(vram_mu);
    budgets[device].sized = true;
    budgets[device].budget = budget;
}

extern "C" void cz_cuda_inject(long alloc_nth, long launch_nth)
{
    std::call_once(env_once, read_env);
    alloc_fail_at = alloc_nth > 0 ? alloc_count.load() + alloc_nth : 0;
    launch_fail_at = launch_nth > 0 ? launch_count.load() + launch_nth : 0;
}

extern "C" long cz_cuda_injected(void) { return fired.load(); }

cudaError_t cz__vram_malloc(void **p, size_t bytes)
{
    std::call_once(env_once, read_env);
    *p = NULL;
    long k = ++alloc_count, at = alloc_fail_at.load();
    if (at && k == at) {
        fired++;
        return cudaErrorMemoryAllocation;
    }
    if (!bytes) bytes = 1;
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e) return e;
    if (dev < 0 || dev >= MAX_DEV) return cudaErrorInvalidDevice;
    if ((e = size_budget(dev, CZ_CUDA_VRAM_MARGIN_DEFAULT, NULL))) return e;
    {   /* reserve the bytes, then ask the driver */
        std::lock_guard<std::mutex> g(vram_mu);
        dev_budget &d = budgets[dev];
        if (d.used + bytes > d.budget) return cudaErrorMemoryAllocation;
        d.used += bytes;
        if (d.used > d.peak) d.peak = d.used;
    }
    e = cudaMalloc(p, bytes);
    std::lock_guard<std::mutex> g(vram_mu);
    if (e) {
        budgets[dev].used -= bytes;
        *p = NULL;
        return e;
    }
    if (!live) live = new std::unordered_map<void *, alloc_rec>();
    (*live)[*p] = alloc_rec{dev, bytes};
    return cudaSuccess;
}

void cz__vram_free(void *p)
{
    if (!p) return;
    alloc_rec r = {-1, 0};
    {
        std::lock_guard<std::mutex> g(vram_mu);
        if (live) {
            auto it = live->find(p);
            if (it != live->end()) {
                r = it->second;
                live->erase(it);
            }
        }
    }
    cudaFree(p);
    cudaGetLastError();
    if (r.dev >= 0) {
        std::lock_guard<std::mutex> g(vram_mu);
        budgets[r.dev].used -= r.bytes;
    }
}

cudaError_t cz__vram_upload(void **dst, const void *src, size_t bytes)
{
    cudaError_t e = cz__vram_malloc(dst, bytes);
    if (e) return e;
    if (bytes && (e = cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice))) {
        cz__vram_free(*dst);
        *dst = NULL;
    }
    return e;
}

cudaError_t cz__launch_check(void)
{
    std::call_once(env_once, read_env);
    cudaError_t e = cudaGetLastError();
    if (e) return e;
    long k = ++launch_count, at = launch_fail_at.load();
    if (at && k == at) {
        fired++;
        return cudaErrorLaunchFailure;
    }
    return cudaSuccess;
}
