/* ntt.c — iterative radix-2 Cooley–Tukey NTT: bit-reversal permutation, then
 * log n butterfly stages. Twiddles for a stage with half-size m are
 * tw[j * (n / 2m)].
 *
 * After the permutation a stage with half-size m works inside blocks of 2m
 * consecutive elements, so the first BLK_LOG stages run block by block (one
 * pool item per block of 2^BLK_LOG elements, which stays in cache, with the
 * twiddles they need copied into a small contiguous table); each later stage
 * is one pass whose n/2 butterflies are split into chunks for the pool.
 *
 * That is the scalar path. Domains of 2^6 and more on CPUs with AVX-512
 * IFMA take the eight-lane path of ntt_x8.c instead (d->x8), which also
 * folds the inverse's n^-1 and the shifts of coset_inverse / inverse_scaled
 * into its last pass; both give the same bits. */
#include "poly/ntt.h"
#include "poly/ntt_x8.h"
#include "ff/fr_x8.h"
#include "util/cpu.h"
#include "util/mem.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK 1024 /* butterflies (or elements) per pool item */
#define BLK_LOG 12 /* stages done block by block: blocks of 2^12 elements */

cz_err cz_ntt_domain_init(cz_ntt_domain *d, int log_n, uint64_t generator)
{
    memset(d, 0, sizeof *d);
    if (log_n < 0 || log_n > CZ_FR_TWO_ADICITY) return CZ_ERR_INVALID_ARG;
    cz_fr g;
    cz_fr_from_u64(&g, generator);
    if (cz_fr_legendre(&g) != -1) return CZ_ERR_INVALID_ARG; /* not a generator of the 2-part */
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;
    /* t = (r - 1) >> 32, then omega = g^(t * 2^(32 - log_n)) */
    uint64_t e[4];
    for (int i = 0; i < 4; i++) e[i] = cz_fr_modulus.l[i];
    e[0] -= 1;
    int shift = log_n; /* (r-1) / 2^log_n */
    for (int s = 0; s < shift; s++) {
        for (int i = 0; i < 3; i++) e[i] = (e[i] >> 1) | (e[i + 1] << 63);
        e[3] >>= 1;
    }
    cz_fr_pow(&d->omega, &g, e, 4);
    cz_fr_inv(&d->omega_inv, &d->omega);
    cz_fr n_fr;
    cz_fr_from_u64(&n_fr, d->n);
    cz_fr_inv(&d->n_inv, &n_fr);
    d->gen = g;
    cz_fr_inv(&d->gen_inv, &g);
    size_t half = d->n / 2 ? d->n / 2 : 1;
    int x8 = CZ_FR_X8_IFMA && cz_cpu_has_ifma() && log_n >= CZ_NTT_X8_MIN_LOG;
    size_t tab_off = (half * 2 * sizeof(cz_fr) + 63) & ~(size_t)63;
    size_t tab_size = x8 ? cz__ntt_x8_tables_size(log_n) : 0;
    /* tw_inv is the second half of tw; the vector path's tables follow */
    d->tw = cz_big_alloc(tab_off + tab_size);
    d->tw_inv = d->tw ? d->tw + half : NULL;
    if (!d->tw) { cz_ntt_domain_free(d); return CZ_ERR_NOMEM; }
    cz__fr_powers(d->tw, half, &d->omega);
    cz__fr_powers(d->tw_inv, half, &d->omega_inv);
    if (x8) {
        d->x8_tab = (char *)d->tw + tab_off;
        cz__ntt_x8_tables(d->x8_tab, d);
        d->x8 = 1;
    }
    return CZ_OK;
}

void cz_ntt_domain_free(cz_ntt_domain *d)
{
    cz_big_free(d->tw);
    d->tw = d->tw_inv = NULL;
    d->x8_tab = NULL;
    d->x8 = 0;
}

static inline size_t bitrev(size_t x, int bits)
{
    size_t r = 0;
    for (int i = 0; i < bits; i++) { r = (r << 1) | (x & 1); x >>= 1; }
    return r;
}

struct job {
    cz_fr *a;
    const cz_fr *tw;
    const cz_fr *c;
    size_t n, m, stride;
    int log_n, blk_log;
};

static void bitrev_chunk(void *ctx, size_t item);

void cz__ntt_bitrev(cz_fr *a, size_t n, int log_n, cz_pool *pool)
{
    struct job j = {.a = a, .n = n, .log_n = log_n};
    cz_pool_run(pool, (n + CHUNK - 1) / CHUNK, bitrev_chunk, &j);
}

static void bitrev_chunk(void *ctx, size_t item)
{
    struct job *j = ctx;
    size_t i = item * CHUNK, end = i + CHUNK < j->n ? i + CHUNK : j->n;
    size_t r = bitrev(i, j->log_n), top = j->n >> 1;
    for (; i < end; i++) {
        if (i < r) { cz_fr t = j->a[i]; j->a[i] = j->a[r]; j->a[r] = t; }
        /* r <- bitrev(i + 1): add one at the top, carries going down */
        size_t bit = top;
        while (r & bit) { r ^= bit; bit >>= 1; }
        r |= bit;
    }
}

static inline void butterfly(cz_fr *x0, cz_fr *x1, const cz_fr *w, int k)
{
    cz_fr t;
    if (k) cz_fr_mul(&t, x1, w);
    else t = *x1;
    cz_fr_sub(x1, x0, &t);
    cz_fr_add(x0, x0, &t);
}

/* the first blk_log stages on block `item`; j->tw is the compact table of
 * the 2^blk_log-th roots: tw[i] = w^i, i < 2^(blk_log - 1) */
static void block_chunk(void *ctx, size_t item)
{
    struct job *j = ctx;
    size_t bs = (size_t)1 << j->blk_log, half = bs / 2;
    cz_fr *a = j->a + item * bs;
    for (size_t m = 1; m < bs; m *= 2) {
        size_t stride = half / m;
        for (size_t blk = 0; blk < bs; blk += 2 * m)
            for (size_t k = 0; k < m; k++)
                butterfly(&a[blk + k], &a[blk + k + m], &j->tw[k * stride], (int)(k != 0));
    }
}

static void stage_chunk(void *ctx, size_t item)
{
    struct job *j = ctx;
    size_t nb = j->n / 2;
    size_t b = item * CHUNK, end = b + CHUNK < nb ? b + CHUNK : nb;
    size_t m = j->m;
    size_t blk = b / m, k = b % m; /* once per chunk; then count */
    for (; b < end; b++) {
        size_t i0 = blk * 2 * m + k;
        butterfly(&j->a[i0], &j->a[i0 + m], &j->tw[k * j->stride], (int)(k != 0));
        if (++k == m) { k = 0; blk++; }
    }
}

static size_t nchunks(size_t n) { return (n + CHUNK - 1) / CHUNK; }

static void transform(const cz_ntt_domain *d, cz_fr *a, const cz_fr *tw, cz_pool *pool)
{
    struct job j = {.a = a, .tw = tw, .n = d->n, .log_n = d->log_n};
    if (d->n < 2) return;
    cz__ntt_bitrev(a, d->n, d->log_n, pool);
    size_t m = 1;
    int bl = d->log_n < BLK_LOG ? d->log_n : BLK_LOG;
    if (bl >= 2) {
        /* w = the 2^bl-th root: tw[i * n / 2^bl] */
        size_t half = (size_t)1 << (bl - 1), step = d->n >> bl;
        cz_fr small[(size_t)1 << (BLK_LOG - 1)];
        for (size_t i = 0; i < half; i++) small[i] = tw[i * step];
        struct job bj = {.a = a, .tw = small, .n = d->n, .blk_log = bl};
        cz_pool_run(pool, d->n >> bl, block_chunk, &bj);
        m = (size_t)1 << bl;
    }
    for (; m < d->n; m *= 2) {
        j.m = m;
        j.stride = d->n / (2 * m);
        cz_pool_run(pool, nchunks(d->n / 2), stage_chunk, &j);
    }
}

static void scale_chunk(void *ctx, size_t item)
{
    struct job *j = ctx;
    size_t start = item * CHUNK;
    size_t end = start + CHUNK < j->n ? start + CHUNK : j->n;
    cz_fr p;
    uint64_t e = start;
    cz_fr_pow(&p, j->c, &e, 1);
    for (size_t i = start; i < end; i++) {
        cz_fr_mul(&j->a[i], &j->a[i], &p);
        cz_fr_mul(&p, &p, j->c);
    }
}

void cz__ntt_scale_powers_scalar(cz_fr *a, size_t n, const cz_fr *c, cz_pool *pool)
{
    struct job j = {.a = a, .c = c, .n = n};
    cz_pool_run(pool, nchunks(n), scale_chunk, &j);
}

void cz_ntt_scale_powers(cz_fr *a, size_t n, const cz_fr *c, cz_pool *pool)
{
    if (CZ_FR_X8_IFMA && cz_cpu_has_ifma()) cz__ntt_scale_powers_x8(a, n, c, pool);
    else cz__ntt_scale_powers_scalar(a, n, c, pool);
}

static void mul_const_chunk(void *ctx, size_t item)
{
    struct job *j = ctx;
    size_t end = (item + 1) * CHUNK < j->n ? (item + 1) * CHUNK : j->n;
    for (size_t i = item * CHUNK; i < end; i++) cz_fr_mul(&j->a[i], &j->a[i], j->c);
}

/* the vector path: the domain has its tables, and IFMA was not switched off
 * since (cz_cpu_force_portable) */
static int use_x8(const cz_ntt_domain *d) { return d->x8 && cz_cpu_has_ifma(); }

void cz_ntt_forward(const cz_ntt_domain *d, cz_fr *a, cz_pool *pool)
{
    if (use_x8(d)) cz__ntt_x8_transform(d, a, 0, NULL, pool);
    else transform(d, a, d->tw, pool);
}

void cz_ntt_inverse(const cz_ntt_domain *d, cz_fr *a, cz_pool *pool)
{
    if (use_x8(d)) {
        cz__ntt_post post = {.kind = 1, .f = d->n_inv};
        cz__ntt_x8_transform(d, a, 1, &post, pool);
        return;
    }
    transform(d, a, d->tw_inv, pool);
    struct job j = {.a = a, .c = &d->n_inv, .n = d->n};
    cz_pool_run(pool, nchunks(d->n), mul_const_chunk, &j);
}

void cz_ntt_inverse_scaled(const cz_ntt_domain *d, cz_fr *a, const cz_fr *c, cz_pool *pool)
{
    if (use_x8(d)) {
        cz__ntt_post post = {.kind = 2, .f = d->n_inv, .c = *c};
        cz__ntt_x8_transform(d, a, 1, &post, pool);
        return;
    }
    cz_ntt_inverse(d, a, pool);
    cz__ntt_scale_powers_scalar(a, d->n, c, pool);
}

void cz_ntt_coset_forward(const cz_ntt_domain *d, cz_fr *a, cz_pool *pool)
{
    if (use_x8(d)) cz__ntt_scale_powers_x8(a, d->n, &d->gen, pool);
    else cz__ntt_scale_powers_scalar(a, d->n, &d->gen, pool);
    cz_ntt_forward(d, a, pool);
}

void cz_ntt_coset_inverse(const cz_ntt_domain *d, cz_fr *a, cz_pool *pool)
{
    cz_ntt_inverse_scaled(d, a, &d->gen_inv, pool);
}
