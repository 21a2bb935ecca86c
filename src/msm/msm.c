/* msm.c — window and strategy choice, signed-digit extraction, and the G1/G2
 * instantiations of msm_tmpl.h. */
#include "msm/msm.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cfg_window, cfg_strategy; /* cz__msm_config; 0 = automatic */
static int cfg_prefetch = 1;

/* windows of c >= 2 bits for a scalar k < r < 2^255: k + H must stay below
 * 2^(nw c) (msm_tmpl.h), which nw c >= 256 gives for c >= 3 (r < 0.91 2^255)
 * and c = 2 needs one window more */
static int num_windows(int c) { return (256 + c - 1) / c + (c == 2); }

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

/* the L2 cache size, for the bucket-array penalty below (1 MiB if unknown) */
static size_t l2_bytes(void)
{
    static size_t cached;
    if (!cached) {
        long v = -1;
#ifdef _SC_LEVEL2_CACHE_SIZE
        v = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
        cached = v > 0 ? (size_t)v : (size_t)1 << 20;
    }
    return cached;
}

/* Minimise (windows) x (point additions + bucket-sum additions), in units of
 * one XYZZ mixed addition: a batch-affine addition costs about 0.6 of one, a
 * bucket costs two additions in the running sums (~2.4), and a point
 * addition costs 1.4 times as much once the affine bucket array outgrows L2
 * (measured on G1 at 2^20: 16-bit windows, 3 MiB of buckets, were 14 % slower
 * than 13-bit ones although they need 20 % fewer additions). Capped at 16
 * bits. aff_bytes is the size of one affine point. With several threads the
 * cost is that of the busiest thread: (window, chunk) tasks are dealt out in
 * rounds of `threads`, so 20 windows suit 2 threads better than 19. */
int cz__msm_window_bits_for(size_t n, size_t aff_bytes, unsigned threads)
{
    if (threads < 1) threads = 1;
    if (cfg_window) return cfg_window;
    int best = 2;
    double best_cost = 1e300;
    for (int c = 2; c <= 16; c++) {
        double nw = num_windows(c), nb = (double)((size_t)1 << (c - 1));
        double per_point = 1.0;
        if (auto_batch_affine(c)) {
            per_point = 0.6;
            if (nb * (double)aff_bytes > (double)l2_bytes()) per_point *= 1.4;
        }
        size_t nch = num_chunks((int)nw, threads, n);
        double rounds = (double)(((size_t)nw * nch + threads - 1) / threads);
        double cost = rounds * (per_point * (double)((n + nch - 1) / nch) + 2.4 * nb);
        if (cost < best_cost) { best_cost = cost; best = c; }
    }
    return best;
}

int cz_msm_window_bits(size_t n) { return cz__msm_window_bits_for(n, sizeof(cz_g1_aff), 1); }

/* kh <- kh + H, H = sum_{w < nw} 2^(c-1) 2^(wc): afterwards every window of
 * kh is its signed digit plus 2^(c-1) (see msm_tmpl.h) */
static void add_offset(uint64_t *kh, size_t n, int c, int nw)
{
    uint64_t h[5] = {0};
    for (int w = 0; w < nw; w++) {
        int bit = w * c + c - 1;
        h[bit / 64] |= (uint64_t)1 << (bit % 64);
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t *k = kh + 5 * i;
        unsigned __int128 acc = 0;
        for (int l = 0; l < 5; l++) {
            acc += (unsigned __int128)k[l] + h[l];
            k[l] = (uint64_t)acc;
            acc >>= 64;
        }
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
#include "msm/msm_tmpl.h"
#undef G
#undef FE
#undef FEP
#define G g2
#define FE cz_fp2
#define FEP cz_fp2
#include "msm/msm_tmpl.h"
#undef G
#undef FE
#undef FEP

cz_err cz_msm_g1(cz_g1_jac *out, const cz_g1_aff *bases, const cz_fr *scalars, size_t n,
                 int scalars_mont, const uint64_t *density, cz_pool *pool)
{
    return cz_g1_msm_impl(out, bases, scalars, n, scalars_mont, density, pool);
}

cz_err cz_msm_g2(cz_g2_jac *out, const cz_g2_aff *bases, const cz_fr *scalars, size_t n,
                 int scalars_mont, const uint64_t *density, cz_pool *pool)
{
    return cz_g2_msm_impl(out, bases, scalars, n, scalars_mont, density, pool);
}
