/* msm.c — window and strategy choice, signed-digit extraction, and the G1/G2
 * instantiations of msm_tmpl.h. */
#include "msm/msm.h"
#include "util/mem.h"
#include "util/cpu.h"
#include "ff/fp_x8.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cfg_window, cfg_strategy; /* cz__msm_config; 0 = automatic */
static int cfg_prefetch = 1;
static int cfg_glv; /* 0 automatic, 1 forced on, 2 forced off */
static int cfg_x8;  /* 0 automatic (with IFMA), 1 forced on, 2 forced off */

/* whether batch-affine flushes and pair sums (G1 and G2) use eight products
 * at a time */
static int use_x8(void) { return cfg_x8 == 1 || (cfg_x8 == 0 && cz_cpu_has_ifma()); }

/* windows of c >= 2 bits for a scalar k < r < 2^255: k + H must stay below
 * 2^(nw c) (msm_tmpl.h), which nw c >= 256 gives for c >= 3 (r < 0.91 2^255)
 * and c = 2 needs one window more */
static int num_windows(int c) { return (256 + c - 1) / c + (c == 2); }

/* the same for the halves of the endomorphism split, k < z < 0.68 2^128:
 * nw c >= 129 keeps k + H below 2^(nw c) for c >= 3; they are held in
 * SPLIT_KL limbs (+ H < 2^(129 + c) <= 2^145) */
static int num_windows_split(int c) { return (129 + c - 1) / c + (c == 2); }
#define SPLIT_KL 3

/* the split is not used when its scratch (images, entries) would pass this
 * (its gain shrinks as n grows anyway) */
#define SPLIT_MAX_BYTES ((size_t)1 << 30)

/* points are split into this many chunks per window so that there are at
 * least about 2 tasks per thread */
static size_t num_chunks(int nw, unsigned threads, size_t n)
{
    size_t c = ((size_t)2 * threads + (size_t)nw - 1) / (size_t)nw;
    return c > n || c < 1 ? 1 : c;
}

void cz__msm_config(int window_bits, int strategy)
{
    cfg_window = window_bits >= 2 && window_bits <= 16 ? window_bits : 0;
    cfg_prefetch = !(strategy & 4);
    cfg_glv = strategy & 8 ? 1 : strategy & 16 ? 2 : 0;
    cfg_x8 = strategy & 64 ? 1 : strategy & 32 ? 2 : 0;
    strategy &= 3;
    cfg_strategy = strategy == 1 || strategy == 2 ? strategy : 0;
}

static int auto_batch_affine(int c) { return c >= 12; }

int cz__msm_use_batch_affine(int c, size_t n)
{
    (void)n;
    if (cfg_strategy) return cfg_strategy == 2;
    return auto_batch_affine(c);
}

size_t cz__msm_batch_size(size_t nbuckets)
{
    size_t b = nbuckets / 8;
    if (b < 32) b = 32;
    if (b > 4096) b = 4096;
    return b;
}

/* the L2 cache size, for the bucket-array penalty below (1 MiB if unknown);
 * planners on several threads may ask at once, so the cache is atomic (they
 * all compute and store the same value) */
static size_t l2_bytes(void)
{
    static _Atomic size_t cached;
    size_t c = atomic_load_explicit(&cached, memory_order_relaxed);
    if (!c) {
        long v = -1;
#ifdef _SC_LEVEL2_CACHE_SIZE
        v = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
        c = v > 0 ? (size_t)v : (size_t)1 << 20;
        atomic_store_explicit(&cached, c, memory_order_relaxed);
    }
    return c;
}

/* Minimise (windows) x (point additions + bucket-sum additions), in units of
 * one XYZZ mixed addition: a batch-affine addition costs about 0.6 of one; a
 * bucket costs two additions in the running sums: ~2.4 in XYZZ, ~1.4 as the
 * batched affine sums of wide windows (bucket_sum_ba); a point addition costs
 * 1.4 times as much once the affine bucket array outgrows L2 (measured on G1
 * at 2^20: 16-bit windows, 3 MiB of buckets, were 14 % slower than 13-bit
 * ones although they need 20 % fewer additions). Capped at 16 bits.
 * aff_bytes is the size of one affine point. With several threads the cost
 * is that of the busiest thread: (window, chunk) tasks are dealt out in
 * rounds of `threads`, so 20 windows suit 2 threads better than 19; a few
 * chunk counts per window are tried too. The endomorphism split doubles the
 * points and halves the windows (so the bucket sums), for ~0.15 per scalar
 * (the split and one endomorphism image). */
int cz__msm_plan(size_t n, size_t aff_bytes, unsigned threads, int ways, int *split, size_t *nchunks)
{
    if (threads < 1) threads = 1;
    int possible = ways == 2;
    double extra = (double)n * (double)(aff_bytes + 2 * (8 + 8 * SPLIT_KL));
    int g_lo = 0, g_hi = 0;
    if (possible && cfg_glv != 2 && (extra <= (double)SPLIT_MAX_BYTES || cfg_glv == 1)) g_hi = 1;
    if (possible && cfg_glv == 1) g_lo = 1;
    int best = 2, best_g = g_lo;
    size_t best_nch = 1;
    double best_cost = 1e300;
    for (int g = g_lo; g <= g_hi; g++) {
        for (int c = 2; c <= 16; c++) {
            if (cfg_window && c != cfg_window) continue;
            size_t pts = g ? 2 * n : n;
            double nw = g ? num_windows_split(c) : num_windows(c), nb = (double)((size_t)1 << (c - 1));
            double per_point = 1.0, per_bucket = 2.4;
            if (auto_batch_affine(c)) {
                per_point = 0.6;
                per_bucket = 1.4;
                if (nb * (double)aff_bytes > (double)l2_bytes()) per_point *= 1.4;
            }
            /* a few chunk counts from the least that feeds every thread:
             * more chunks balance few windows over the threads, at the
             * price of more bucket sums */
            size_t nch0 = num_chunks((int)nw, threads, pts);
            for (size_t nch = nch0; nch < nch0 + 4 && (nch == nch0 || pts / nch >= 1024); nch++) {
                double rounds = (double)(((size_t)nw * nch + threads - 1) / threads);
                double cost = rounds * (per_point * (double)((pts + nch - 1) / nch) + per_bucket * nb);
                if (g) cost += 0.15 * (double)n / threads;
                if (cost < best_cost) { best_cost = cost; best = c; best_g = g; best_nch = nch; }
            }
        }
    }
    *split = best_g;
    if (nchunks) *nchunks = best_nch;
    return best;
}

int cz__msm_window_bits_for(size_t n, size_t aff_bytes, unsigned threads)
{
    int g;
    return cz__msm_plan(n, aff_bytes, threads, 1, &g, NULL);
}

int cz_msm_window_bits(size_t n) { return cz__msm_window_bits_for(n, sizeof(cz_g1_aff), 1); }

/* z = x^2 and m = floor(2^256 / z) (129 bits), for the split */
static const uint64_t glv_z[2] = {0x0000000100000000ULL, 0xac45a4010001a402ULL};
static const uint64_t glv_m[3] = {0x63f6e522f6cfee2eULL, 0x7c6becf1e01faaddULL, 1};

/* Barrett: a = floor(k / 2^127) < 2^128, q = floor(a m / 2^129) is k div z
 * or at most 2 below it; the remainder k - q z < 3z is then corrected */
/* out[0 .. na + nb) = a * b (schoolbook; out zeroed by the caller) */
static void mul_limbs(uint64_t *out, const uint64_t *a, int na, const uint64_t *b, int nb)
{
    for (int i = 0; i < na; i++) {
        unsigned __int128 carry = 0;
        for (int j = 0; j < nb; j++) {
            unsigned __int128 t = (unsigned __int128)a[i] * b[j] + out[i + j] + carry;
            out[i + j] = (uint64_t)t;
            carry = t >> 64;
        }
        out[i + nb] += (uint64_t)carry;
    }
}

void cz__msm_glv_split(uint64_t k0[2], uint64_t k1[2], const uint64_t k[4])
{
    typedef unsigned __int128 u128;
    uint64_t a[2] = {k[1] >> 63 | k[2] << 1, k[2] >> 63 | k[3] << 1};
    uint64_t p[5] = {0};
    mul_limbs(p, a, 2, glv_m, 3);
    uint64_t q[2] = {p[2] >> 1 | p[3] << 63, p[3] >> 1 | p[4] << 63};
    /* rem = k - q z over 4 limbs */
    uint64_t qz[4] = {0};
    mul_limbs(qz, q, 2, glv_z, 2);
    uint64_t rem[4];
    u128 borrow = 0;
    for (int i = 0; i < 4; i++) {
        u128 t = (u128)k[i] - qz[i] - borrow;
        rem[i] = (uint64_t)t;
        borrow = (t >> 64) & 1;
    }
    /* while rem >= z: rem -= z, q++ (at most twice) */
    for (;;) {
        int ge = rem[3] || rem[2] || rem[1] > glv_z[1] || (rem[1] == glv_z[1] && rem[0] >= glv_z[0]);
        if (!ge) break;
        borrow = 0;
        for (int i = 0; i < 4; i++) {
            u128 t = (u128)rem[i] - (i < 2 ? glv_z[i] : 0) - borrow;
            rem[i] = (uint64_t)t;
            borrow = (t >> 64) & 1;
        }
        if (++q[0] == 0) q[1]++;
    }
    k0[0] = rem[0];
    k0[1] = rem[1];
    k1[0] = q[0];
    k1[1] = q[1];
}

/* H = sum_{w < nw} 2^(c-1) 2^(wc) (below 2^(nw c) <= 2^320); adding it to
 * a scalar makes every window its signed digit plus 2^(c-1) (msm_tmpl.h) */
static void offset_h(uint64_t h[5], int c, int nw)
{
    memset(h, 0, 5 * sizeof *h);
    for (int w = 0; w < nw; w++) {
        int bit = w * c + c - 1;
        h[bit / 64] |= (uint64_t)1 << (bit % 64);
    }
}

/* k <- k + h over kl limbs */
static inline void add_h(uint64_t *k, int kl, const uint64_t *h)
{
    unsigned __int128 acc = 0;
    for (int l = 0; l < kl; l++) {
        acc += (unsigned __int128)k[l] + h[l];
        k[l] = (uint64_t)acc;
        acc >>= 64;
    }
}

/* signed digit of window w (width c) of a scalar prepared by add_offset */
static inline int digit(const uint64_t *kh, int w, int c)
{
    int bit = w * c;
    int limb = bit / 64, off = bit % 64;
    uint64_t v = kh[limb] >> off;
    if (off + c > 64) v |= kh[limb + 1] << (64 - off);
    return (int)(v & (((uint64_t)1 << c) - 1)) - (1 << (c - 1));
}

#define G g1
#define FE cz_fp
#define FEP cz_fp
#define MSM_G1 1
#include "msm/msm_tmpl.h"
#undef G
#undef FE
#undef FEP
#undef MSM_G1
/* G2's coordinate arithmetic: the Fp2 additions, tests and copies inline
 * (cz_fp2_add and friends are calls into fp2.c, which cost the G2 flush
 * about a sixth of its time), the products those of fp2.c */
static inline void msm2_add(cz_fp2 *o, const cz_fp2 *a, const cz_fp2 *b)
{
    cz_fp_add(&o->c0, &a->c0, &b->c0);
    cz_fp_add(&o->c1, &a->c1, &b->c1);
}
static inline void msm2_sub(cz_fp2 *o, const cz_fp2 *a, const cz_fp2 *b)
{
    cz_fp_sub(&o->c0, &a->c0, &b->c0);
    cz_fp_sub(&o->c1, &a->c1, &b->c1);
}
static inline void msm2_dbl(cz_fp2 *o, const cz_fp2 *a)
{
    cz_fp_dbl(&o->c0, &a->c0);
    cz_fp_dbl(&o->c1, &a->c1);
}
static inline void msm2_neg(cz_fp2 *o, const cz_fp2 *a)
{
    cz_fp_neg(&o->c0, &a->c0);
    cz_fp_neg(&o->c1, &a->c1);
}
static inline int msm2_is_zero(const cz_fp2 *a) { return cz_fp_is_zero(&a->c0) & cz_fp_is_zero(&a->c1); }
static inline int msm2_eq(const cz_fp2 *a, const cz_fp2 *b) { return cz_fp_eq(&a->c0, &b->c0) & cz_fp_eq(&a->c1, &b->c1); }
static inline void msm2_one(cz_fp2 *o) { cz_fp2_one(o); }
static inline void msm2_zero(cz_fp2 *o) { memset(o, 0, sizeof *o); }
static inline void msm2_mul(cz_fp2 *o, const cz_fp2 *a, const cz_fp2 *b) { cz_fp2_mul(o, a, b); }
static inline void msm2_sqr(cz_fp2 *o, const cz_fp2 *a) { cz_fp2_sqr(o, a); }
static inline void msm2_inv(cz_fp2 *o, const cz_fp2 *a) { cz_fp2_inv(o, a); }

#define G g2
#define FE cz_fp2
#define FEP msm2
#define MSM_G1 0
#include "msm/msm_tmpl.h"
#undef G
#undef FE
#undef FEP
#undef MSM_G1

cz_err cz_msm_g1_sum(cz_g1_jac *out, const cz_msm_g1_term *terms, size_t nterms, int scalars_mont,
                     cz_pool *pool)
{
    return cz_g1_msm_impl(out, terms, nterms, scalars_mont, pool);
}

cz_err cz_msm_g2_sum(cz_g2_jac *out, const cz_msm_g2_term *terms, size_t nterms, int scalars_mont,
                     cz_pool *pool)
{
    return cz_g2_msm_impl(out, terms, nterms, scalars_mont, pool);
}

cz_err cz_msm_g1(cz_g1_jac *out, const void *bases, const cz_fr *scalars, size_t n,
                 int scalars_mont, const uint64_t *density, cz_pool *pool)
{
    cz_msm_g1_term t = {bases, scalars, n, density};
    return cz_g1_msm_impl(out, &t, 1, scalars_mont, pool);
}

cz_err cz_msm_g2(cz_g2_jac *out, const void *bases, const cz_fr *scalars, size_t n,
                 int scalars_mont, const uint64_t *density, cz_pool *pool)
{
    cz_msm_g2_term t = {bases, scalars, n, density};
    return cz_g2_msm_impl(out, &t, 1, scalars_mont, pool);
}
