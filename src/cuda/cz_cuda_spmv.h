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

/* How the short rows (at most 32 non-zeros) are summed (docs/CUDA.md):
 *   CZ_SPMV_THREAD  the default: one thread a row of at most tmax (8) non-zeros
 *                   (k_short, k_short_g);
 *   CZ_SPMV_WARP    rows of at most 32: a lane per non-zero, chunks of rows a warp, the values
 *                   gathered into shared memory, the products of general
 *                   coefficients computed by the whole warp together;
 *   CZ_SPMV_SPLIT   the same, with those products made by a pass of their
 *                   own before it (one more array of 32 bytes per general
 *                   non-zero of the short rows).
 * Longer rows of at most 256 non-zeros are summed by 8 lanes together
 * (k_mid), longer ones cut into segments, in every mode. */
enum { CZ_SPMV_THREAD = 1, CZ_SPMV_WARP = 2, CZ_SPMV_SPLIT = 3 };

/* Choices for cz_cuda_spmv_create_opts; a 0 field takes the environment's
 * value, else the default: CZ_SPMV_MODE=thread|warp|split (thread),
 * CZ_SPMV_TMAX=1..32 (8), CZ_SPMV_GATHER=1|2|4 (2), CZ_SPMV_ROWS=1..128 (from each matrix's
 * density), CZ_SPMV_NPL=1|2|4|8 (8 for warp, 4 for split), CZ_SPMV_BITS=0|1 (1). */
typedef struct {
    int mode;   /* CZ_SPMV_THREAD, CZ_SPMV_WARP or CZ_SPMV_SPLIT */
    int gather; /* thread mode: gathers in flight a thread, 1, 2 or 4 */
    int rows;   /* warp / split: rows a warp takes at a time, 1..128 */
    int npl;    /* warp / split: non-zeros a lane gathers a pass, 1, 2, 4 or 8 */
    int wide;   /* row offsets on the device: 0 the narrowest that holds them (thread mode: 16 bits
                   from a base every 32 rows where each group of 32 rows spans at most 65535
                   non-zeros, else 32 bits where they fit, else 64); 1 64-bit; 2 at most 32-bit
                   (for tests and comparisons) */
    int tmax;   /* thread: the longest row a thread sums alone, 1..32; longer rows up to 256
                   non-zeros are summed by 8 lanes together, longer ones by blocks */
    int bits;   /* 1: a general coefficient on a 0 or a 1 of w adds nothing or itself, without
                   a product (every kernel); 2: always the product (for comparison) */
} cz_cuda_spmv_opts;

/* copies the three matrices of r to the current device and plans the work
 * (rows longer than a warp's share are split into segments); synchronous.
 * r may be released afterwards. The choices come from the environment. */
cz_err cz_cuda_spmv_create(cz_cuda_spmv **out, const cz_r1cs *r, char *msg, size_t msglen);
/* the same with explicit choices (NULL: all from the environment) */
cz_err cz_cuda_spmv_create_opts(cz_cuda_spmv **out, const cz_r1cs *r, const cz_cuda_spmv_opts *o, char *msg,
                                size_t msglen);
/* what a handle runs, e.g. "split (A: 85 rows x 8, B: ...)", into buf */
void cz_cuda_spmv_describe(const cz_cuda_spmv *s, char *buf, size_t len);
void cz_cuda_spmv_destroy(cz_cuda_spmv *s);

/* d_w: device array of n_vars cz_fr; d_a, d_b, d_c: device arrays of
 * n_constraints cz_fr, any may be NULL to skip that matrix. Asynchronous on
 * stream (a cudaStream_t as void*, NULL = default stream). */
cz_err cz_cuda_spmv_run(const cz_cuda_spmv *s, const void *d_w, void *d_a, void *d_b, void *d_c, void *stream,
                        char *msg, size_t msglen);

/* Times cz_cuda_spmv_run(s, d_w, d_a, d_b, d_c) on the default stream: one
 * warm-up run, then reps runs each between two CUDA events; *ms = their
 * median. The outputs hold the last run's result. */
cz_err cz_cuda_spmv_time(const cz_cuda_spmv *s, const void *d_w, void *d_a, void *d_b, void *d_c, int reps,
                         double *ms, char *msg, size_t msglen);

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

/* The same with explicit choices (NULL: the environment's); desc gets
 * cz_cuda_spmv_describe's line (may be NULL). */
cz_err cz_cuda_spmv_bench_opts(int log_rows, int reps, const cz_cuda_spmv_opts *o, double *ms, double *bytes,
                               double *gather_bytes, uint64_t *nnz, char *desc, size_t desclen, char *msg,
                               size_t msglen);

/* For tests without a device: a = A w, b = B w, c = C w on host arrays by
 * the kernels' own code compiled for the host: in warp / split mode one
 * emulated warp (warp_emu.cuh) taking every chunk, in thread mode the
 * short-row kernels' row sums; the products, the mid rows and the long
 * rows cut as their kernels cut them. Slow: for systems of a few thousand
 * rows. */
/* the width in bits (16, 32 or 64) of matrix m's row offsets on the device
 * for the choices o (NULL: the environment's); for tests */
int cz__cuda_spmv_offset_bits(const cz_csr *m, const cz_cuda_spmv_opts *o);
cz_err cz__cuda_spmv_host(const cz_r1cs *r, const cz_cuda_spmv_opts *o, const cz_fr *w, cz_fr *a, cz_fr *b,
                          cz_fr *c, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
