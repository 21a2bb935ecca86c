/* cz_cuda_setup.h — the insecure seeded Groth16 test setup on a CUDA device,
 * for host C code (no CUDA header needed).
 *
 * The same key as cz_groth16_setup_insecure (groth16.h) for the same seed,
 * bit for bit: the scalars come from the function the CPU setup uses
 * (src/groth16/setup_internal.h, on the host, on the pool), and every key
 * point k·G is made on the device with the same 32-window comb, whose affine
 * result is unique. INSECURE: whoever knows the seed can forge proofs; for
 * tests and benchmarks only.
 *
 * The vk comes back on the host (vk->ic heap-owned; release with
 * cz_groth16_vk_free); the five query arrays stay in device memory in a
 * cz_cuda_pk_dev (cz_cuda_prover.h; release with cz_cuda_pk_dev_free). All
 * device memory comes from the budget allocator (cz_cuda_vram.h). When the
 * key does not fit the device's budget the call fails with CZ_ERR_NOMEM and
 * says how much it needed. On any failure nothing stays allocated and msg
 * (msglen bytes, may be NULL) says why.
 *
 * Host memory: the scalar array of the CPU setup, (m + 3 n_vars)·32 bytes
 * for a domain of m (about 16 GiB at m = 2^27), besides the constraint
 * system; device memory: the key plus a scratch of at most 1 GiB by
 * default. */
#ifndef CZ_CUDA_CZ_CUDA_SETUP_H
#define CZ_CUDA_CZ_CUDA_SETUP_H

#include <stddef.h>
#include <stdint.h>
#include "cuda/cz_cuda_prover.h"
#include "groth16/groth16.h"
#include "r1cs/r1cs.h"
#include "util/err.h"
#include "util/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* vk on the host, the query arrays in *out on `device`; the scalars are
 * made on pool (may be NULL) */
cz_err cz_cuda_setup_insecure(cz_groth16_vk *vk, cz_cuda_pk_dev *out, const cz_r1cs *cs, uint64_t seed, int device,
                              cz_pool *pool, char *msg, size_t msglen);

/* the same, then the key downloaded into a host pk (heap-owned arrays,
 * release with cz_groth16_pk_free); the device copy is freed */
cz_err cz_cuda_setup_insecure_host(cz_groth16_pk *pk, const cz_r1cs *cs, uint64_t seed, int device, cz_pool *pool,
                                   char *msg, size_t msglen);

/* ---- internal: options, timings, and the kernels' code run on the host ---- */

/* the fixed-base runs, in this order (fb_ms, fb_points) */
enum { CZ_CUDA_SETUP_H, CZ_CUDA_SETUP_IC, CZ_CUDA_SETUP_L, CZ_CUDA_SETUP_A, CZ_CUDA_SETUP_B_G1,
       CZ_CUDA_SETUP_B_G2, CZ_CUDA_SETUP__RUNS };

typedef struct {
    /* scratch for the chunks of points (scalars and the projective sums):
     * 0 = the default, 1 GiB, less when the budget has less left; small
     * values force many chunks (tests) */
    uint64_t scratch_bytes;
} cz_cuda_setup_opts;

typedef struct {
    double scalars_ms;   /* the host part: cz__setup_make_scalars */
    double alloc_ms;     /* device allocations, tables built and uploaded */
    double fb_ms[CZ_CUDA_SETUP__RUNS];
    size_t fb_points[CZ_CUDA_SETUP__RUNS];
    double vk_ms;        /* the vk's six points (host) and ic downloaded */
    double total_ms;
    uint64_t key_bytes;     /* the five query arrays on the device */
    uint64_t scratch_bytes; /* the scratch used */
    size_t chunk_points[2]; /* points per chunk, G1 and G2 */
} cz_cuda_setup_timings;

/* cz_cuda_setup_insecure with options (NULL = defaults) and timings (may be
 * NULL) */
cz_err cz__cuda_setup_insecure_ex(cz_groth16_vk *vk, cz_cuda_pk_dev *out, const cz_r1cs *cs, uint64_t seed,
                                  int device, cz_pool *pool, const cz_cuda_setup_opts *opts,
                                  cz_cuda_setup_timings *t, char *msg, size_t msglen);

/* The same steps with the kernels' code compiled for the host and run on
 * pool, in host memory (chunks and scratch as on the device), into a host
 * pk: for tests on machines without a GPU. Slow (the device arithmetic
 * emulated); small circuits only. */
cz_err cz__cuda_setup_insecure_emulated(cz_groth16_pk *pk, const cz_r1cs *cs, uint64_t seed, cz_pool *pool,
                                        const cz_cuda_setup_opts *opts, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
