/* warp_emu.cuh — one warp of a kernel run on the host, for tests without a
 * device: 32 lanes, each a coroutine (ucontext) with its own stack, running
 * the very device code compiled for the host.
 *
 * How it works. A warp-collective operation (shuffle, ballot, __syncwarp)
 * posts the lane's value and yields to the scheduler, which resumes the 32
 * lanes in turn; when a lane is resumed every lane has posted, so it reads
 * the value of the lane it asked for. Values go to two buffers by the
 * parity of the collective's number: the lanes are never more than one
 * collective apart, so a lane that runs on to its next collective does not
 * overwrite what a later lane still has to read. After each round the
 * scheduler checks that all lanes stopped at the same kind of collective
 * and that they finish together; otherwise the code under test is not
 * warp-uniform there (it would hang or read garbage on a device) and the
 * run fails. Lanes run one at a time, so shared memory is ordinary host
 * memory and asynchronous copies are plain copies. Host code only; the
 * lane's operations are declared for both sides so that a kernel body
 * templated on them compiles in nvcc's device pass too, where they are
 * never called. */
#ifndef CZ_WARP_EMU_CUH
#define CZ_WARP_EMU_CUH

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

struct cz_warp_emu {
    enum { LANES = 32, STACK = 1 << 18 };
    enum { OP_NONE = 0, OP_SHFL, OP_BALLOT, OP_SYNC };
    ucontext_t sched, ctx[LANES];
    char *stacks = nullptr;
    uint32_t buf[2][LANES];
    uint64_t ncoll[LANES];
    int op[LANES], done[LANES];
    int fault = 0;
    void (*fn)(cz_warp_emu *, int, void *) = nullptr;
    void *arg = nullptr;

    /* runs fn(this, lane, arg) on all 32 lanes; 0, or -1 when the lanes
     * diverged at a collective (or no memory for the stacks) */
    int run(void (*f)(cz_warp_emu *, int, void *), void *a)
    {
        fn = f;
        arg = a;
        fault = 0;
        stacks = (char *)malloc((size_t)LANES * STACK);
        if (!stacks) return -1;
        for (int l = 0; l < LANES; l++) {
            ncoll[l] = 0;
            op[l] = OP_NONE;
            done[l] = 0;
            getcontext(&ctx[l]);
            ctx[l].uc_stack.ss_sp = stacks + (size_t)l * STACK;
            ctx[l].uc_stack.ss_size = STACK;
            ctx[l].uc_link = &sched;
            uintptr_t p = (uintptr_t)this;
            makecontext(&ctx[l], (void (*)())trampoline, 3, (int)(uint32_t)p, (int)(uint32_t)((uint64_t)p >> 32), l);
        }
        for (;;) {
            for (int l = 0; l < LANES; l++)
                if (!done[l]) swapcontext(&sched, &ctx[l]);
            int nd = 0;
            for (int l = 0; l < LANES; l++) nd += done[l];
            if (nd == LANES) break;
            if (nd) { fault = 1; break; } /* some lanes returned, others wait at a collective */
            for (int l = 1; l < LANES; l++)
                if (ncoll[l] != ncoll[0] || op[l] != op[0]) fault = 1;
            if (fault) break;
        }
        free(stacks); /* on a fault the waiting lanes are abandoned with their stacks */
        stacks = nullptr;
        return fault ? -1 : 0;
    }

    static void trampoline(int lo, int hi, int lane)
    {
        cz_warp_emu *e = (cz_warp_emu *)(uintptr_t)((uint64_t)(uint32_t)lo | (uint64_t)(uint32_t)hi << 32);
        e->fn(e, lane, e->arg);
        e->done[lane] = 1;
    }

    /* post v for collective kind k, wait for the other lanes; the buffer read */
    const uint32_t *post(int lane, uint32_t v, int k)
    {
        int par = (int)(ncoll[lane] & 1);
        buf[par][lane] = v;
        op[lane] = k;
        ncoll[lane]++;
        swapcontext(&ctx[lane], &sched);
        return buf[par];
    }
};

/* the warp operations of the device kernels (warp_dev in spmv_stream.cuh),
 * for one lane of an emulated warp */
#if defined(__CUDACC__)
#define CZ_WE_HD __host__ __device__ __forceinline__
#else
#define CZ_WE_HD inline
#endif
struct cz_warp_lane {
    cz_warp_emu *e;
    int l;
    CZ_WE_HD int lane() const { return l; }
#if !defined(__CUDA_ARCH__)
    CZ_WE_HD uint32_t shfl(uint32_t v, int src) { return e->post(l, v, cz_warp_emu::OP_SHFL)[src & 31]; }
    CZ_WE_HD uint32_t ballot(bool p)
    {
        const uint32_t *b = e->post(l, p ? 1u : 0u, cz_warp_emu::OP_BALLOT);
        uint32_t m = 0;
        for (int i = 0; i < 32; i++) m |= (b[i] & 1u) << i;
        return m;
    }
    CZ_WE_HD void sync() { e->post(l, 0, cz_warp_emu::OP_SYNC); }
    template <class T> CZ_WE_HD void copy(T *dst, const T *src) { memcpy(dst, src, sizeof(T)); }
#else
    CZ_WE_HD uint32_t shfl(uint32_t v, int) { return v; }
    CZ_WE_HD uint32_t ballot(bool) { return 0; }
    CZ_WE_HD void sync() {}
    template <class T> CZ_WE_HD void copy(T *, const T *) {}
#endif
    CZ_WE_HD void wait() {}
};

#endif
