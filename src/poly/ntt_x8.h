/* ntt_x8.h — what ntt.c and ntt_x8.c share (internal): the bit-reversal pass,
 * the IFMA transform with its output scaling, its twiddle tables, and the
 * scalar and vector forms of the powers scaling (so tests can compare them). */
#ifndef CZ_POLY_NTT_X8_H
#define CZ_POLY_NTT_X8_H

#include "poly/ntt.h"

#define CZ_NTT_X8_MIN_LOG 6  /* smallest domain of the vector path */
#define CZ_NTT_X8_BLK_LOG 12 /* its first stages run in blocks of 2^12 */

/* what the last pass multiplies each output a_e by: nothing, f, or f·c^e */
typedef struct {
    int kind; /* 0, 1 (f), 2 (f·c^e) */
    cz_fr f, c;
} cz__ntt_post;

/* a <- a in bit-reversed order */
void cz__ntt_bitrev(cz_fr *a, size_t n, int log_n, cz_pool *pool);

/* bytes of the tables for a domain of 2^log_n (0 below CZ_NTT_X8_MIN_LOG),
 * and filling them at tab once d->tw / d->tw_inv are there */
size_t cz__ntt_x8_tables_size(int log_n);
void cz__ntt_x8_tables(void *tab, const cz_ntt_domain *d);

/* the transform (omega^-1 when inverse; d->x8 must be 1), then post */
void cz__ntt_x8_transform(const cz_ntt_domain *d, cz_fr *a, int inverse, const cz__ntt_post *post,
                          cz_pool *pool);

/* a_i <- a_i c^i: scalar, and eight lanes at a time (only when
 * cz_cpu_has_ifma()) */
void cz__ntt_scale_powers_scalar(cz_fr *a, size_t n, const cz_fr *c, cz_pool *pool);
void cz__ntt_scale_powers_x8(cz_fr *a, size_t n, const cz_fr *c, cz_pool *pool);

#endif
