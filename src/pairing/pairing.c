/* pairing.c — the public pairing entry points: single and multi-pairing
 * (one shared Miller loop, one final exponentiation), the product check used
 * by verifiers, and GT equality. */
#include "pairing/pairing.h"

void cz_pairing(cz_fp12 *out, const cz_g1_aff *p, const cz_g2_aff *q)
{
    cz_fp12 f;
    cz_miller_loop(&f, p, q);
    cz_final_exp(out, &f);
}

void cz_multi_pairing(cz_fp12 *out, const cz_g1_aff *p, const cz_g2_aff *q, size_t n)
{
    cz_fp12 f;
    cz_miller_loop_multi(&f, p, q, n);
    cz_final_exp(out, &f);
}

int cz_pairing_check(const cz_g1_aff *p, const cz_g2_aff *q, size_t n)
{
    cz_fp12 f;
    cz_multi_pairing(&f, p, q, n);
    return cz_fp12_is_one(&f);
}

int cz_gt_eq(const cz_fp12 *a, const cz_fp12 *b)
{
    /* elements are kept fully reduced, so equal values have equal limbs */
    return cz_fp12_eq(a, b);
}
