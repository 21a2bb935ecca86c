/* msm.h — multi-scalar multiplication: out = sum_i k_i * P_i over G1 or G2.
 *
 * Scalars are Fr elements; `scalars_mont` says whether they are in Montgomery
 * form (as the prover holds them) or already plain integers. Scalars equal to
 * 0 are skipped and scalars equal to 1 are summed by plain additions (Filecoin
 * witnesses are mostly bits); the rest go through Pippenger with signed-digit
 * windows whose width is chosen from their count, XYZZ buckets and mixed
 * additions. Work is split into (window, chunk of points) tasks over the pool.
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

/* the window width the Pippenger part uses for n scalars (exposed for
 * benchmarks and tests) */
int cz_msm_window_bits(size_t n);

#endif
