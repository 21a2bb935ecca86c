/* cz_cuda_ff.h — plain C entry points of the CUDA field arithmetic
 * (ff_api.cu), for tests and benchmarks. Host code includes this, never a
 * CUDA header. Every function returns a cz_err and writes a message into
 * msg (msglen bytes) on failure; none of them exits or aborts.
 *
 * Elements are the CPU's cz_fr / cz_fp / cz_fp2 (Montgomery form, fully
 * reduced), passed as arrays of n elements. */
#ifndef CZ_CUDA_FF_H
#define CZ_CUDA_FF_H

#include <stddef.h>
#include <stdint.h>
#include "util/err.h"
#include "cuda/cz_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { CZ_CUDA_FR = 0, CZ_CUDA_FP = 1, CZ_CUDA_FP2 = 2 };

enum {
    CZ_CUDA_OP_MUL = 0,    /* out = a * b  (default schedule) */
    CZ_CUDA_OP_SQR,        /* out = a^2 */
    CZ_CUDA_OP_ADD,        /* out = a + b */
    CZ_CUDA_OP_SUB,        /* out = a - b */
    CZ_CUDA_OP_NEG,        /* out = -a */
    CZ_CUDA_OP_DBL,        /* out = 2a */
    CZ_CUDA_OP_TO_MONT,    /* out = a * 2^k (a a canonical integer) */
    CZ_CUDA_OP_FROM_MONT,  /* out = canonical integer of a */
    CZ_CUDA_OP_MUL_EO,     /* out = a * b, 32-bit even/odd CIOS (Fr, Fp) */
    CZ_CUDA_OP_MUL_64,     /* out = a * b, 64-bit CIOS (Fr, Fp) */
    CZ_CUDA_OP_MUL_XI,     /* out = a * (u + 1)  (Fp2 only) */
    CZ_CUDA_OP_MUL_EO_PLAIN, /* out = a * b, even/odd CIOS without the
                              * shortcut for r's low words (Fr, Fp) */
    CZ_CUDA_OP_MUL_LAZY,   /* out = a * b, schoolbook with one reduction per
                            * half (fp_t::mul2_eo; Fp2 only) */
    CZ_CUDA_OP_MUL_F64,    /* out = a * b through the FP64 schedule (ff_f64.cuh;
                            * Fr, Fp) */
    CZ_CUDA_OP_MUL_KA,     /* out = a * b, one level of Karatsuba then a
                            * separate reduction (Fr, Fp) */
    CZ_CUDA_OP_MUL_LAZY_KA, /* out = a * b, schoolbook with one reduction per
                             * half over Karatsuba products (fp_t::mul2_ka;
                             * Fp2 only) */
    CZ_CUDA_OP_MUL_SUB_LAZY, /* out = a b - c d for c = a + b, d = a - b, one
                              * reduction per half (fp_t::mul4_eo; Fp2 only) */
    CZ_CUDA_OP_MUL_PAIR,   /* out = a * b on two lanes (fp2_pair.cuh; Fp2 only,
                            * device only) */
    CZ_CUDA_OP_MUL_SUB_PAIR, /* out = a b - c d as MUL_SUB_LAZY, on two lanes
                              * (fe_mul_sub of fp2_pair.cuh; Fp2, device only) */
    CZ_CUDA_OP_MUL_LT2,    /* out = a * b in [0, m) + {0, m}: a < m, b < 2m, the
                            * final subtraction skipped (Fr, Fp) */
    CZ_CUDA_OP_ADD_LT2,    /* out = a + b in [0, 2m) for a, b < 2m (Fr, Fp) */
    CZ_CUDA_OP_SUB_LT2,    /* out = a - b in [0, 2m) for a, b < 2m (Fr, Fp) */
    CZ_CUDA_OP__COUNT
};

/* out[i] = op(a[i], b[i]) for i < n, on device 0; a, b, out are host arrays
 * of n elements of the field (b unused by one-input ops, may be NULL). */
cz_err cz_cuda_ff_batch(int field, int op, void *out, const void *a, const void *b, size_t n,
                        char *msg, size_t msglen);

/* the same computation run by the device code compiled for the host (the
 * PTX carry chains emulated): checks the kernels' schedule where there is no
 * GPU. The lane-pair ops need a warp: CZ_ERR_UNSUPPORTED here. */
cz_err cz_cuda_ff_batch_host(int field, int op, void *out, const void *a, const void *b, size_t n,
                             char *msg, size_t msglen);

/* Throughput of op (CZ_CUDA_OP_MUL_EO / _MUL_EO_PLAIN / _MUL_64 / _SQR / _MUL /
 * _MUL_KA / _MUL_LAZY / _MUL_LAZY_KA (Fp2) / _MUL_F64 (values kept in 52-bit limbs across the chain),
 * Fr or Fp or Fp2):
 * a grid that fills the device runs dependent chains of multiplications.
 * Fills *per_s (operations per second), *ms (kernel time, median of reps)
 * and *clock_mhz (the SM clock measured inside the kernel: clock64 against
 * the global timer). */
cz_err cz_cuda_ff_bench(int field, int op, double *per_s, double *ms, double *clock_mhz, int *sm_count,
                        char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
