/* ntt.h — number-theoretic transforms over Fr on domains of size 2^k.
 *
 * A domain holds n = 2^log_n, a primitive n-th root of unity omega, and the
 * twiddle tables. The root is built from a chosen multiplicative generator g
 * of Fr*: omega = g^((r-1)/2^log_n). bellperson (and zkcrypto's Scalar) use
 * g = 7; snarkjs uses g = 5; the coset shift is g as well.
 *
 * forward:  a_i  <- sum_j a_j omega^(ij)         (coefficients -> evaluations)
 * inverse:  a_i  <- n^-1 sum_j a_j omega^(-ij)
 * coset_forward: evaluate on g·<omega>: a_j <- a_j g^j, then forward
 * coset_inverse: inverse, then a_j <- a_j g^(-j)
 * inverse_scaled: inverse, then a_j <- a_j c^j for a given c (coset_inverse
 * is c = g^-1; snarkjs's shift to the odd points of the 2n domain is c = a
 * primitive 2n-th root)
 * All take and give natural order; work is spread over the pool (may be NULL).
 *
 * Two paths, the same bits: where the CPU has AVX-512 IFMA and n >= 2^6 the
 * butterflies run eight at a time in radix 2^52 (ntt_x8.c, ff/fr_x8.h),
 * otherwise one at a time with cz_fr_mul. The domain says which: x8 is set
 * at init when the vector path can run (util/cpu.h: not under
 * CUZK_NO_ASM=1); a caller may clear it to force the scalar path (tests,
 * benchmarks), never set it. */
#ifndef CZ_POLY_NTT_H
#define CZ_POLY_NTT_H

#include <stddef.h>
#include "ff/ff.h"
#include "util/err.h"
#include "util/pool.h"

#define CZ_FR_TWO_ADICITY 32

typedef struct {
    int log_n;
    size_t n;
    cz_fr omega, omega_inv, n_inv, gen, gen_inv;
    cz_fr *tw;     /* n/2 entries, omega^j */
    cz_fr *tw_inv; /* n/2 entries, omega^-j */
    int x8;        /* 1: the IFMA path (may be cleared, never set) */
    void *x8_tab;  /* that path's twiddle tables (inside the tw allocation) */
} cz_ntt_domain;

cz_err cz_ntt_domain_init(cz_ntt_domain *d, int log_n, uint64_t generator);
void cz_ntt_domain_free(cz_ntt_domain *d);

void cz_ntt_forward(const cz_ntt_domain *d, cz_fr *a, cz_pool *pool);
void cz_ntt_inverse(const cz_ntt_domain *d, cz_fr *a, cz_pool *pool);
void cz_ntt_coset_forward(const cz_ntt_domain *d, cz_fr *a, cz_pool *pool);
void cz_ntt_coset_inverse(const cz_ntt_domain *d, cz_fr *a, cz_pool *pool);
void cz_ntt_inverse_scaled(const cz_ntt_domain *d, cz_fr *a, const cz_fr *c, cz_pool *pool);

/* a_i <- a_i * c^i (used by the coset transforms; exposed for tests) */
void cz_ntt_scale_powers(cz_fr *a, size_t n, const cz_fr *c, cz_pool *pool);

#endif
