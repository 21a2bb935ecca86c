/* msm.c — window choice, signed-digit extraction, and the G1/G2
 * instantiations of msm_tmpl.h. */
#include "msm/msm.h"

#include <stdlib.h>

int cz_msm_window_bits(size_t n)
{
    /* minimise (windows) x (points + buckets) additions, capped so a bucket
     * array stays a few MiB per task */
    int best = 1;
    double best_cost = 1e300;
    for (int c = 1; c <= 16; c++) {
        double nw = (256 + c - 1) / c;
        double cost = nw * ((double)n + 2.0 * (double)((size_t)1 << (c - 1)));
        if (cost < best_cost) { best_cost = cost; best = c; }
    }
    return best;
}

/* signed digit of window w (width c) of the plain scalar k */
static inline int digit(const cz_fr *k, int w, int c)
{
    int carry = 0, d = 0;
    uint64_t mask = ((uint64_t)1 << c) - 1;
    for (int i = 0; i <= w; i++) {
        int bit = i * c;
        int limb = bit / 64, off = bit % 64;
        uint64_t v = limb < 4 ? k->l[limb] >> off : 0;
        if (off + c > 64 && limb + 1 < 4) v |= k->l[limb + 1] << (64 - off);
        int raw = (int)(v & mask) + carry;
        if (raw > (1 << (c - 1))) { d = raw - (1 << c); carry = 1; }
        else { d = raw; carry = 0; }
    }
    return d;
}

#define G g1
#include "msm/msm_tmpl.h"
#undef G
#define G g2
#include "msm/msm_tmpl.h"
#undef G

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
