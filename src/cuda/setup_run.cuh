/* setup_run.cuh — what setup.cu shares with the units of the fixed-base
 * kernels (setup_fb.cuh, setup_g1.cu, setup_g2.cu): the chunk loop's
 * runner and sizes, and run_section, declared here and instantiated there,
 * one group a unit, so that the two groups' kernels and their host
 * emulation (the build's longest unit when they were one) compile in
 * parallel. setup.cu's DESIGN comment says what they do. */
#ifndef CZ_CUDA_SETUP_RUN_CUH
#define CZ_CUDA_SETUP_RUN_CUH

#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_util.cuh"
#include "cuda/ec.cuh"
extern "C" {
#include "groth16/groth16.h"
#include "groth16/setup_internal.h"
#include "util/clock.h"
#include "util/pool.h"
}
#include "cuda/cz_cuda_setup.h"
#include "cuda/cz_cuda_vram.h"

#define GA 32    /* sums per thread in the affine conversion */
#define NTHR 128 /* threads per block */

static_assert(sizeof(fr_t) == sizeof(cz_fr), "Fr layout");

/* ---- the chunk loop, on the device or emulated on the host ---- */

struct runner {
    bool emulate;
    cz_pool *pool;     /* emulated: the threads */
    cudaStream_t st;   /* device */
    char *scratch;     /* device memory, or host memory when emulating */
    uint64_t scratch_bytes;
};

template <class F> inline size_t per_point(void) { return sizeof(fr_t) + sizeof(cz_xyzz_t<F>); }
template <class F> inline size_t chunk_points(uint64_t scratch_bytes)
{
    return (size_t)(scratch_bytes / per_point<F>() / GA * GA);
}

/* dst[0..n) = k[0..n)·G; k on the host, dst and table where r computes
 * (setup_fb.cuh; instantiated by setup_g1.cu and setup_g2.cu) */
template <class F>
cz_err run_section(const runner &r, cz_aff_t<F> *dst, const cz_fr *k, size_t n, const cz_aff_t<F> *table,
                   char *msg, size_t msglen);

#endif
