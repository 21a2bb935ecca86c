/* cz_cuda_spmv.h — plain C entry points of the CUDA SpMV (spmv_api.cu):
 * a = A w, b = B w, c = C w over a constraint system (src/r1cs/r1cs.h, the
 * .pce CSR layout) kept resident on the device, bit-identical to
 * cz_r1cs_spmv. */
#ifndef CZ_CUDA_SPMV_H
#define CZ_CUDA_SPMV_H

#include <stddef.h>
#include <stdint.h>
#include "util/err.h"
#include "r1cs/r1cs.h"
#include "cuda/cz_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_cuda_spmv cz_cuda_spmv;

/* copies the three matrices of r to the current device and plans the work
 * (rows longer than a warp's share are split into segments); synchronous.
 * r may be released afterwards. */
cz_err cz_cuda_spmv_create(cz_cuda_spmv **out, const cz_r1cs *r, char *msg, size_t msglen);
void cz_cuda_spmv_destroy(cz_cuda_spmv *s);

/* d_w: device array of n_vars cz_fr; d_a, d_b, d_c: device arrays of
 * n_constraints cz_fr, any may be NULL to skip that matrix. Asynchronous on
 * stream (a cudaStream_t as void*, NULL = default stream). */
cz_err cz_cuda_spmv_run(const cz_cuda_spmv *s, const void *d_w, void *d_a, void *d_b, void *d_c, void *stream,
                        char *msg, size_t msglen);

/* Benchmark on a synthetic Filecoin-shaped system generated on the device:
 * 2^log_rows constraints and variables, A/B/C with about 2.37 / 1.0 / 2.17
 * non-zeros per row (a 128-wide and a 46-wide row in every 1024), columns
 * half near the row and half random, nine in ten coefficients +-1.
 * Fills the median ms of a full a, b, c run and the bytes it must move. */
cz_err cz_cuda_spmv_bench(int log_rows, int reps, double *ms, double *bytes, uint64_t *nnz, char *msg,
                          size_t msglen);

/* The same, and *gather_bytes: what the random half of the columns adds when
 * each of those w reads is its own 32-byte sector from HBM (rows far apart
 * rarely share them; the near columns are counted in "w once"). Real
 * circuits sit between the two floors, nearer "once" the more local their
 * columns are. */
cz_err cz_cuda_spmv_bench_gathers(int log_rows, int reps, double *ms, double *bytes, double *gather_bytes,
                                  uint64_t *nnz, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
