/* safegcd.h — internal: the word-sized core of Bernstein–Yang inversion
 * ("Fast constant-time gcd computation and modular inversion", 2019), shared
 * by Fp and Fr (the multi-limb parts are in safegcd_tmpl.h).
 *
 * A divstep maps (delta, f, g), f odd, to
 *     (inc - delta, g, (g - f)/2)   if delta > 0 and g odd,
 *     (inc + delta, f, (g + f)/2)   if g odd otherwise,
 *     (inc + delta, f, g/2)         if g even,
 * with inc = 1 for the paper's divsteps and inc = 2 for Wuille's "hddivsteps"
 * (the same with delta counted in halves: it starts at 1/2), which need fewer
 * steps.
 * The first 62 divsteps depend only on the low 62 bits of f and g, so they are
 * run on one word while recording the 2x2 matrix t that maps the starting
 * (f, g) to 2^62 times the resulting (f, g):
 *     2^62 f' = u f + v g,   2^62 g' = q f + r g,
 * with |u| + |v| <= 2^62 and |q| + |r| <= 2^62. */
#ifndef CZ_FF_SAFEGCD_H
#define CZ_FF_SAFEGCD_H

#include <stdint.h>

typedef struct { int64_t u, v, q, r; } cz__sg_mat;

/* 62 divsteps from delta on the low bits f0 (odd), g0; returns the new delta.
 * _ct runs in time independent of the inputs; _var skips runs of even g. */
int64_t cz__sg_divsteps_ct(int64_t delta, int64_t inc, uint64_t f0, uint64_t g0, cz__sg_mat *t);
int64_t cz__sg_divsteps_var(int64_t delta, int64_t inc, uint64_t f0, uint64_t g0, cz__sg_mat *t);

#endif
