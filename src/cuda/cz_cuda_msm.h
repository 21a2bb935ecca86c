/* cz_cuda_msm.h — multi-scalar multiplication on a CUDA device, for host C
 * code (no CUDA header needed).
 *
 * A cz_cuda_msm context owns one device's stream and the scratch its MSMs
 * use (grown on demand and kept, so that steady-state calls allocate
 * nothing). Bases live on the device (upload them once with
 * cz_cuda_msm_upload); they are affine in the CPU's layout (cz_g1_aff /
 * cz_g2_aff, Montgomery coordinates, infinity = all-zero). Scalars and the
 * density bitmap may be host or device memory (told apart by the CUDA
 * runtime); with the same meaning as cz_msm_g1 (msm/msm.h): scalars_mont
 * says whether the scalars are in Montgomery form, and a non-NULL density
 * has n bits selecting which scalars have a base (bases then hold one point
 * per set bit, in order). Every call is synchronous: it returns with the
 * result on the host. Zeros cost nothing past classification and ones are
 * summed by a tree of additions; the rest go through Pippenger with signed
 * windows (msm_api.cu, msm_kernels.cuh).
 *
 * Every function that can fail returns a cz_err and writes a message into
 * msg (msglen bytes; msg may be NULL); CUDA failures are CZ_ERR_DEVICE, or
 * CZ_ERR_NOMEM when device memory runs out. A context is
 * used by one thread at a time. */
#ifndef CZ_CUDA_CZ_CUDA_MSM_H
#define CZ_CUDA_CZ_CUDA_MSM_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>
#include <stdint.h>
#include "ec/ec.h"
#include "util/err.h"
#include "cuda/cz_cuda.h"

typedef struct cz_cuda_msm cz_cuda_msm;

cz_err cz_cuda_msm_create(cz_cuda_msm **out, int device, char *msg, size_t msglen);
/* the same with the context's stream at a CUDA stream priority (0, the
 * default, is the least; cudaDeviceGetStreamPriorityRange gives the
 * greatest): the partition prover puts its MSMs at the greatest so that
 * work on its H stream runs only where they leave room (prover.cu,
 * CZ_PROVER_OVERLAP). The stream is made once, with the context, and
 * never replaced. */
cz_err cz__cuda_msm_create_prio(cz_cuda_msm **out, int device, int priority, char *msg, size_t msglen);
void cz_cuda_msm_destroy(cz_cuda_msm *ctx);

/* device memory for bases (or scalars): *dev = a copy of bytes bytes of
 * host; free with cz_cuda_msm_free */
cz_err cz_cuda_msm_upload(cz_cuda_msm *ctx, void **dev, const void *host, size_t bytes, char *msg,
                      size_t msglen);
void cz_cuda_msm_free(cz_cuda_msm *ctx, void *dev);

cz_err cz_cuda_msm_g1(cz_cuda_msm *ctx, cz_g1_jac *out, const cz_g1_aff *dev_bases, const cz_fr *scalars,
                      size_t n, int scalars_mont, const uint64_t *density, char *msg, size_t msglen);
cz_err cz_cuda_msm_g2(cz_cuda_msm *ctx, cz_g2_jac *out, const cz_g2_aff *dev_bases, const cz_fr *scalars,
                      size_t n, int scalars_mont, const uint64_t *density, char *msg, size_t msglen);

/* Window copies: a fixed-base G1 MSM for bases used many times (a proving
 * key's). A table of `copies` blocks of nb points on the device: block 0
 * holds the bases, block w 2^(c w) times them. Through it every window of
 * the MSM adds into one set of buckets, so the buckets are summed once a
 * window group instead of once a window, and wider windows (fewer of them)
 * pay: c = 22 and 12 windows at 2^24 where the plain MSM takes c = 20 and
 * 13. The table costs `copies` times the bases' memory (12 x 96 bytes a
 * point at c = 22). docs/CUDA_MSM.md "Window copies".
 *
 * A table of fewer blocks than windows (K < the windows of c) serves too:
 * window w takes block w mod K and the buckets of set w div K, so the sets
 * are the windows of a c K-bit MSM; a set spans the blocks a window group's
 * entries hold (2^28 / n of them, at most K). As the bucket sets are what
 * the copies save, K = 4 at n = 2^26 costs what a block a window costs
 * (three groups either way), for a third of the memory.
 *
 * cz_cuda_msm_copies_plan: the c for nb bases (and *copies, the blocks the
 * table needs: one per window of a 255-bit scalar; c <= 22).
 * cz_cuda_msm_copies_plan_max: the c (up to 24) and *copies (2 ..
 * max_copies) of least cost, the fewest blocks among equal costs; 0 when
 * no such table beats the plain MSM. CZ_MSM_COPIES_C=c in the environment
 * holds it to that c (measurements).
 * cz_cuda_msm_g1_copies_make: *dev_table = a new table (copies * nb points
 * of device memory from the VRAM budget; free it with cz_cuda_msm_free)
 * made from the nb bases (host or device memory); synchronous.
 * cz_cuda_msm_g1_copies: as cz_cuda_msm_g1 on the bases of block 0 (same
 * scalars, density and result); it sums through the copies where the plan
 * says they pay (enough general scalars) and as cz_cuda_msm_g1 on block 0
 * otherwise. Blocks must fit 31-bit indices: copies * nb < 2^31. */
int cz_cuda_msm_copies_plan(size_t nb, int *copies);
int cz_cuda_msm_copies_plan_max(size_t nb, int max_copies, int *copies);
cz_err cz_cuda_msm_g1_copies_make(cz_cuda_msm *ctx, cz_g1_aff **dev_table, const cz_g1_aff *bases, size_t nb, int c,
                                  int copies, char *msg, size_t msglen);
cz_err cz_cuda_msm_g1_copies(cz_cuda_msm *ctx, cz_g1_jac *out, const cz_g1_aff *dev_table, size_t nb, int c,
                             int copies, const cz_fr *scalars, size_t n, int scalars_mont, const uint64_t *density,
                             char *msg, size_t msglen);

/* the context's stream (a cudaStream_t): callers queue their own work on it
 * to run in order with the MSMs (the partition prover does) */
void *cz__cuda_msm_stream(cz_cuda_msm *ctx);

/* Internal, for tests and benchmarks: force the window width (2..21; 0 =
 * automatic) and the most (scalar, window) entries sorted at once (0 =
 * automatic; small values force several window groups) of later calls on
 * this context. */
void cz__cuda_msm_config(cz_cuda_msm *ctx, int window_bits, size_t max_entries);
/* the G1 batch-affine rounds of later calls (msm_kernels.cuh): mode -1 off
 * (the default: CZ_MSM_BA=auto / all in the environment picks 0 / 1 at
 * context creation), 0 the rounds the plan picks, 1 every round that
 * merges anything, with `threads` chains a round (0: a chain of 32 pairs,
 * CZ_MSM_BA_CHAIN; few chains give each many pairs) */
void cz__cuda_msm_config_ba(cz_cuda_msm *ctx, int mode, unsigned threads);
/* entries a thread sums at level 0 of the reduce-by-key engine (1..65536;
 * 0: the built-in default; CZ_MSM_T0 in the environment sets it when the
 * context is created); small
 * values make most keys cross a segment's edge */
void cz__cuda_msm_config_t0(cz_cuda_msm *ctx, unsigned t0);
/* tests: the bucket sums as if a full wave of their kernel were this many
 * segments (0: ask the device again) */
void cz__cuda_msm_config_wave(cz_cuda_msm *ctx, unsigned threads);
/* window copies in later calls of cz_cuda_msm_g1_copies: 0 where the plan
 * says they pay (the default; CZ_MSM_COPIES=on / off in the environment
 * picks 1 / 2 at context creation), 1 always, 2 never; and the points a
 * chunk of cz_cuda_msm_g1_copies_make's fill (0: the default, 2^22) */
void cz__cuda_msm_config_copies(cz_cuda_msm *ctx, int mode, size_t fill_chunk);
/* whether the last call summed through window copies, and the blocks a
 * bucket set of it spanned (0 without copies; the table's blocks when it
 * had one a window) */
int cz__cuda_msm_last_copies(const cz_cuda_msm *ctx);
int cz__cuda_msm_last_copies_span(const cz_cuda_msm *ctx);
/* the table check of the copies functions, and their fill run on the host
 * through the kernels' own code (table: copies * nb points in host memory,
 * the first nb the bases), for tests without a device */
cz_err cz__cuda_msm_copies_check(size_t nb, int c, int copies, char *msg, size_t msglen);
/* the MSM's layout for m general scalars of `bits` bits at window c
 * through a table of `copies` blocks (0: none), as the device call takes
 * it when the copies are used: out = {windows, blocks a bucket set spans
 * (0: the plain MSM), windows a group, bucket sets a group at most, 1 when
 * a block a window}; and the digits kernel's body run on the host for m
 * scalars (k4: 4 plain limbs each) over windows [w0, w0 + g) (tests) */
void cz__cuda_msm_layout(size_t m, int bits, int c, int copies, size_t max_e, int out[5]);
void cz__cuda_msm_digits_host(const uint64_t *k4, const uint32_t *idx, uint32_t m, int c, int w0, int g,
                              uint32_t stride, int span, uint32_t sets, uint32_t *keys, uint32_t *vals);
cz_err cz__cuda_msm_g1_copies_fill_host(cz_g1_aff *table, size_t nb, int c, int copies, char *msg, size_t msglen);
/* batch-affine rounds the last G1 call ran (over all its window groups) */
int cz__cuda_msm_last_ba_rounds(const cz_cuda_msm *ctx);
/* `rounds` batch-affine rounds on the host over m entries sorted by key
 * (vals: base index | sign << 31), `threads` chains a round whose products
 * are inverted `inv_group` at a time (0: the device's group), through the
 * kernels' own code: the *out_m resulting points and keys (sorted by key,
 * each key's points summing to its entries' sum) go to out_pts / out_keys
 * (m each). For tests without a device. */
cz_err cz__cuda_msm_ba_rounds_host(const cz_g1_aff *bases, const uint32_t *vals, const uint32_t *keys, uint32_t m,
                                   unsigned threads, unsigned inv_group, int rounds, cz_g1_aff *out_pts,
                                   uint32_t *out_keys, uint32_t *out_m, char *msg, size_t msglen);
/* what the last call on ctx did: window width, windows, window groups, ones,
 * general scalars */
void cz__cuda_msm_last(const cz_cuda_msm *ctx, int *window_bits, int *windows, int *groups, size_t *ones,
                       size_t *general);

#ifdef __cplusplus
}
#endif

#endif
