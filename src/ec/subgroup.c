/* subgroup.c — fast membership tests for the r-torsion subgroups G1 and G2,
 * using endomorphisms whose eigenvalue on the subgroup is a small power of
 * the BLS parameter x = -0xd201000000010000 (Scott, "A note on group
 * membership tests for G1, G2 and GT on BLS pairing-friendly curves",
 * ePrint 2021/1130; correctness for BLS12-381 in ePrint 2022/352):
 *
 *   G1: sigma(x, y) = (beta x, y), beta a cube root of unity;
 *       P is in G1  iff  sigma(P) == [-x^2] P.
 *   G2: psi = untwist-Frobenius-twist, psi(x, y) = (conj(x) cx, conj(y) cy);
 *       P is in G2  iff  psi(P) == [x] P.
 *
 * Both work on Jacobian points directly: sigma scales X by beta, psi
 * conjugates X, Y, Z and scales X, Y. The tests in tests/test_ec.c compare
 * them with the definition [r]P == O (cz_g*_in_subgroup_slow) on points
 * inside and outside the subgroup. */
#include "ec/ec_internal.h"

/* beta = 0x5f19672f...0022e01fffffffefffe (plain), the cube root of unity
 * whose sigma has eigenvalue -x^2 mod r on G1; Montgomery form */
static const cz_fp beta = {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                            0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};

/* cx = 1 / (u + 1)^((p - 1) / 3), cy = 1 / (u + 1)^((p - 1) / 2), Montgomery */
static const cz_fp2 psi_cx = {
    {{0, 0, 0, 0, 0, 0}},
    {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL,
      0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}}};
static const cz_fp2 psi_cy = {
    {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
      0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
    {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
      0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}};

/* omega = cx conj(cx) (cx = c1 u: c1^2), Montgomery; psi^2(x, y) =
 * (omega x, -y) */
static const cz_fp psi2_omega = {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL,
                                  0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}};

void cz_g1_aff_sigma(cz_g1_aff *out, const cz_g1_aff *p)
{
    cz_fp_mul(&out->x, &p->x, &beta);
    out->y = p->y;
}

int cz_g1_in_subgroup(const cz_g1_jac *p)
{
    if (cz_g1_is_inf(p)) return 1;
    cz_g1_jac s, t;
    s = *p;
    cz_fp_mul(&s.x, &s.x, &beta);
    cz__g1_mul_by_abs_x(&t, p);
    cz__g1_mul_by_abs_x(&t, &t);
    cz_g1_neg(&t, &t); /* [-x^2] P */
    return cz_g1_eq(&s, &t);
}

void cz__g2_psi(cz_g2_jac *out, const cz_g2_jac *p)
{
    cz_fp2_conj(&out->x, &p->x);
    cz_fp2_mul(&out->x, &out->x, &psi_cx);
    cz_fp2_conj(&out->y, &p->y);
    cz_fp2_mul(&out->y, &out->y, &psi_cy);
    cz_fp2_conj(&out->z, &p->z);
}

void cz_g2_aff_psi(cz_g2_aff *out, const cz_g2_aff *p)
{
    cz_fp2_conj(&out->x, &p->x);
    cz_fp2_mul(&out->x, &out->x, &psi_cx);
    cz_fp2_conj(&out->y, &p->y);
    cz_fp2_mul(&out->y, &out->y, &psi_cy);
}

void cz_g2_aff_psi2(cz_g2_aff *out, const cz_g2_aff *p)
{
    cz_fp_mul(&out->x.c0, &p->x.c0, &psi2_omega);
    cz_fp_mul(&out->x.c1, &p->x.c1, &psi2_omega);
    cz_fp2_neg(&out->y, &p->y);
}

int cz_g2_in_subgroup(const cz_g2_jac *p)
{
    if (cz_g2_is_inf(p)) return 1;
    cz_g2_jac s, t;
    cz__g2_psi(&s, p);
    cz__g2_mul_by_abs_x(&t, p);
    cz_g2_neg(&t, &t); /* [x] P, x < 0 */
    return cz_g2_eq(&s, &t);
}
