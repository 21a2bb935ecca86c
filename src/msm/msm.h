/* msm.h — multi-scalar multiplication: out = sum_i k_i * P_i over G1 or G2.
 *
 * Scalars are Fr elements; `scalars_mont` says whether they are in Montgomery
 * form (as the prover holds them) or already plain integers. Scalars equal to
 * 0 are skipped and scalars equal to 1 are summed by plain additions (Filecoin
 * witnesses are mostly bits); the rest go through Pippenger with signed-digit
 * windows whose width is chosen from their count, and buckets that are XYZZ
 * (small windows) or affine with batched additions sharing one inversion
 * (wide windows). The scalars may first be split by an endomorphism that is
 * [z], z = x^2, on the subgroup (-sigma on G1, cz_g1_aff_sigma; psi^2 on G2,
 * cz_g2_aff_psi): k = (k mod z) + (k div z) z, two parts of 128 bits over P
 * and [z]P, which halves the windows and so the bucket sums (chosen by the
 * same cost model). The split needs every base in the order-r subgroup: a
 * base outside it gives a wrong sum, as it would give an invalid proof
 * anyway. Infinity
 * bases are skipped. Work is split into (window, chunk of points) tasks over
 * the pool.
 *
 * Bases: arrays of cz_g1_aff / cz_g2_aff in memory layout, at any byte
 * address (a snarkjs .zkey's point sections are used where they sit in the
 * mapped file, 4 bytes off alignment); every base is read by copying it.
 *
 * Density filtering: when `density` is non-NULL, `scalars` has n entries, the
 * bitmap has n bits, and `bases` holds one point for each set bit, in order
 * (bellperson drops the bases of variables that never occur in A or B). When
 * it is NULL, bases and scalars both have n entries.
 *
 * cz_msm_g1_sum / cz_msm_g2_sum add up several MSMs (terms) in one
 * Pippenger run, cheaper than separate runs whose results are added (the
 * Groth16 C point sums the H and L/C terms). */
#ifndef CZ_MSM_MSM_H
#define CZ_MSM_MSM_H

#include <stddef.h>
#include <stdint.h>
#include "ec/ec.h"
#include "util/err.h"
#include "util/pool.h"

typedef struct {
    const void *bases; /* cz_g1_aff points, at any byte address (see above) */
    const cz_fr *scalars;
    size_t n;
    const uint64_t *density; /* NULL or n bits, as above */
} cz_msm_g1_term;
typedef struct {
    const void *bases; /* cz_g2_aff points, at any byte address */
    const cz_fr *scalars;
    size_t n;
    const uint64_t *density;
} cz_msm_g2_term;

cz_err cz_msm_g1_sum(cz_g1_jac *out, const cz_msm_g1_term *terms, size_t nterms, int scalars_mont,
                     cz_pool *pool);
cz_err cz_msm_g2_sum(cz_g2_jac *out, const cz_msm_g2_term *terms, size_t nterms, int scalars_mont,
                     cz_pool *pool);
cz_err cz_msm_g1(cz_g1_jac *out, const void *bases, const cz_fr *scalars, size_t n,
                 int scalars_mont, const uint64_t *density, cz_pool *pool);
cz_err cz_msm_g2(cz_g2_jac *out, const void *bases, const cz_fr *scalars, size_t n,
                 int scalars_mont, const uint64_t *density, cz_pool *pool);

/* the window width the G1 Pippenger part uses for n scalars on one thread
 * (exposed for benchmarks and tests; G2, with larger points, and runs on
 * several threads may use other widths) */
int cz_msm_window_bits(size_t n);

/* Internal, for tests and benchmarks: force the window width (2..16; 0 =
 * automatic) and the bucket strategy (1 = XYZZ, 2 = batch-affine; 0 =
 * automatic; plus 4: bucket prefetches off; plus 8: endomorphism split
 * forced on, 16: forced off; plus 32: batch-affine flushes and pair sums
 * with eight products at a time (cz_fp_chord_x8 and cz_fp_inv_x8 on G1,
 * cz_fp2_chord_x8 and cz_fp2_inv_x8 on G2) off, 64: on even without AVX-512 IFMA, where they
 * fall back to scalar products; by default on with IFMA) of later calls. Process-wide and not
 * synchronised: set it while no MSM runs. */
void cz__msm_config(int window_bits, int strategy);
/* the plan for n scalars (beyond 0 and 1), affine points of aff_bytes bytes,
 * a pool of `threads` threads and the endomorphism split into `ways` parts
 * (2, or 1: none): returns the window width, *split says
 * whether to split, *nchunks (if not NULL) into how many chunks of points
 * each window is cut */
int cz__msm_plan(size_t n, size_t aff_bytes, unsigned threads, int ways, int *split, size_t *nchunks);
/* the window width without the split (cz__msm_plan with ways 1) */
int cz__msm_window_bits_for(size_t n, size_t aff_bytes, unsigned threads);
/* k (plain, < r) = k0 + k1 z with z = x^2 (see cz_g1_aff_sigma), k0, k1 < z */
void cz__msm_glv_split(uint64_t k0[2], uint64_t k1[2], const uint64_t k[4]);
/* the strategy for window width c and n points per task (1 = batch-affine) */
int cz__msm_use_batch_affine(int c, size_t n);
/* additions per shared inversion for nbuckets batch-affine buckets */
size_t cz__msm_batch_size(size_t nbuckets);

#endif
