/* safegcd.c — 62 divsteps on one 64-bit word, in constant time and in
 * variable time (see safegcd.h for the step and the matrix).
 *
 * Both versions write a divstep as: [swap] [add] halve. When delta > 0 and g
 * is odd, (f, g) becomes (g, -f) and delta becomes -delta; then if g is odd,
 * g += f; then g is halved and delta grows by one. Instead of halving the
 * matrix rows of g, the rows of f are doubled, which keeps every entry an
 * integer: after i steps 2^i f_i = u f0 + v g0 and 2^i g_i = q f0 + r g0. The
 * arithmetic is on uint64_t so that wrapping and shifts are well defined;
 * only the low bits of f and g matter. */
#include "ff/safegcd.h"

int64_t cz__sg_divsteps_ct(int64_t delta, uint64_t f, uint64_t g, cz__sg_mat *t)
{
    uint64_t u = 1, v = 0, q = 0, r = 1;
    for (int i = 0; i < 62; i++) {
        uint64_t dpos = (uint64_t)((-delta) >> 63); /* all ones iff delta > 0 */
        uint64_t godd = (uint64_t)0 - (g & 1);
        uint64_t sw = dpos & godd;
        /* swap: delta = -delta, (f, g) = (g, -f), (u, v, q, r) = (q, r, -u, -v) */
        delta = (delta ^ (int64_t)sw) - (int64_t)sw;
        uint64_t x = (f ^ g) & sw;
        f ^= x;
        g ^= x;
        g = (g ^ sw) - sw;
        x = (u ^ q) & sw;
        u ^= x;
        q ^= x;
        q = (q ^ sw) - sw;
        x = (v ^ r) & sw;
        v ^= x;
        r ^= x;
        r = (r ^ sw) - sw;
        /* add when g is odd (after a swap g = -f_old is odd) */
        g += f & godd;
        q += u & godd;
        r += v & godd;
        /* halve */
        g >>= 1;
        u <<= 1;
        v <<= 1;
        delta += 1;
    }
    t->u = (int64_t)u;
    t->v = (int64_t)v;
    t->q = (int64_t)q;
    t->r = (int64_t)r;
    return delta;
}

int64_t cz__sg_divsteps_var(int64_t delta, uint64_t f, uint64_t g, cz__sg_mat *t)
{
    uint64_t u = 1, v = 0, q = 0, r = 1;
    int left = 62;
    for (;;) {
        /* a run of even g: halvings only (bit `left` stops the count) */
        int z = __builtin_ctzll(g | ((uint64_t)1 << left));
        g >>= z;
        u <<= z;
        v <<= z;
        delta += z;
        left -= z;
        if (left == 0) break;
        /* g odd: swap if delta > 0, then add and halve */
        if (delta > 0) {
            uint64_t x = f;
            f = g;
            g = (uint64_t)0 - x;
            x = u; u = q; q = (uint64_t)0 - x;
            x = v; v = r; r = (uint64_t)0 - x;
            delta = -delta;
        }
        g += f;
        q += u;
        r += v;
        g >>= 1;
        u <<= 1;
        v <<= 1;
        delta += 1;
        if (--left == 0) break;
    }
    t->u = (int64_t)u;
    t->v = (int64_t)v;
    t->q = (int64_t)q;
    t->r = (int64_t)r;
    return delta;
}
