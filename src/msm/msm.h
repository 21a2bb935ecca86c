/* msm.h — multi-scalar multiplication: out = sum_i k_i * P_i over G1 or G2.
 *
 * Scalars are Fr elements; `scalars_mont` says whether they are in Montgomery
 * form (as the prover holds them) or already plain integers. Scalars equal to
 * 0 are skipped and scalars equal to 1 are summed by plain additions (Filecoin
 * witnesses are mostly bits); the rest go through Pippenger with signed-digit
 * windows whose width is chosen from their count, and buckets that are XYZZ
 * (small windows) or affine with batched additions sharing one inversion
 * (wide windows). Infinity bases are skipped. Work is split into (window,
 * chunk of points) tasks over the pool.
 *
 * Density filtering: when `density` is non-NULL, `scalars` has n entries, the
 * bitmap has n bits, and `bases` holds one point for each set bit, in order
 * (bellperson drops the bases of variables that never occur in A or B). When
 * it is NULL, bases and scalars both have n entries. */
#ifndef CZ_MSM_MSM_H
#define CZ_MSM_MSM_H

#include <stddef.h>
#include <stdint.h>
#include "ec/ec.h"
#include "util/err.h"
#include "util/pool.h"

cz_err cz_msm_g1(cz_g1_jac *out, const cz_g1_aff *bases, const cz_fr *scalars, size_t n,
                 int scalars_mont, const uint64_t *density, cz_pool *pool);
cz_err cz_msm_g2(cz_g2_jac *out, const cz_g2_aff *bases, const cz_fr *scalars, size_t n,
                 int scalars_mont, const uint64_t *density, cz_pool *pool);

/* the window width the G1 Pippenger part uses for n scalars on one thread
 * (exposed for benchmarks and tests; G2, with larger points, and runs on
 * several threads may use other widths) */
int cz_msm_window_bits(size_t n);

/* Internal, for tests and benchmarks: force the window width (2..16; 0 =
 * automatic) and the bucket strategy (1 = XYZZ, 2 = batch-affine; 0 =
 * automatic; plus 4: bucket prefetches off) of later calls. Process-wide and not synchronised: set it while
 * no MSM runs. */
void cz__msm_config(int window_bits, int strategy);
/* the window width for n scalars, affine points of aff_bytes bytes and a
 * pool of `threads` threads */
int cz__msm_window_bits_for(size_t n, size_t aff_bytes, unsigned threads);
/* the strategy for window width c and n points per task (1 = batch-affine) */
int cz__msm_use_batch_affine(int c, size_t n);
/* additions per shared inversion for nbuckets batch-affine buckets */
size_t cz__msm_batch_size(size_t nbuckets);

#endif
