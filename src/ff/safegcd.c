/* safegcd.c — 62 divsteps on one 64-bit word, in constant time and in
 * variable time (see safegcd.h for the step and the matrix).
 *
 * The variable-time version writes a divstep as: [swap] [add] halve. When
 * delta > 0 and g is odd, (f, g) becomes (g, -f) and delta becomes -delta;
 * then if g is odd, g += f; then g is halved and delta grows by inc. The
 * constant-time one avoids the swap: when g is odd it adds f or -f to g, and
 * on a "swap" step it then adds the new g to f, which turns f into the old g. Instead of halving the
 * matrix rows of g, the rows of f are doubled, which keeps every entry an
 * integer: after i steps 2^i f_i = u f0 + v g0 and 2^i g_i = q f0 + r g0. The
 * arithmetic is on uint64_t so that wrapping and shifts are well defined;
 * only the low bits of f and g matter. */
#include "ff/safegcd.h"

int64_t cz__sg_divsteps_ct(int64_t delta, int64_t inc, uint64_t f, uint64_t g, cz__sg_mat *t)
{
    uint64_t u = 1, v = 0, q = 0, r = 1;
    for (int i = 0; i < 62; i++) {
        uint64_t c1 = (uint64_t)((-delta) >> 63); /* all ones iff delta > 0 */
        uint64_t c2 = (uint64_t)0 - (g & 1);      /* all ones iff g odd */
        /* g += (c1 ? -f : f) when g is odd, and the same for the rows */
        uint64_t x = (f ^ c1) - c1, y = (u ^ c1) - c1, z = (v ^ c1) - c1;
        g += x & c2;
        q += y & c2;
        r += z & c2;
        /* on a swap the old g becomes f: it is the new g plus the old f */
        c1 &= c2;
        delta = (int64_t)(((uint64_t)delta ^ c1) - c1) + inc;
        f += g & c1;
        u += q & c1;
        v += r & c1;
        g >>= 1;
        u <<= 1;
        v <<= 1;
    }
    t->u = (int64_t)u;
    t->v = (int64_t)v;
    t->q = (int64_t)q;
    t->r = (int64_t)r;
    return delta;
}

int64_t cz__sg_divsteps_var(int64_t delta, int64_t inc, uint64_t f, uint64_t g, cz__sg_mat *t)
{
    uint64_t u = 1, v = 0, q = 0, r = 1;
    int left = 62;
    for (;;) {
        /* a run of even g: halvings only (bit `left` stops the count) */
        int z = __builtin_ctzll(g | ((uint64_t)1 << left));
        g >>= z;
        u <<= z;
        v <<= z;
        delta += z * inc;
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
        delta += inc;
        if (--left == 0) break;
    }
    t->u = (int64_t)u;
    t->v = (int64_t)v;
    t->q = (int64_t)q;
    t->r = (int64_t)r;
    return delta;
}
