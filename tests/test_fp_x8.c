/* test_fp_x8.c — the 8-lane Fp multiplication (ff/fp_x8.h) against cz_fp_mul
 * and against GMP (a·b·2^-384 mod p on the raw limbs), on edge values (0, 1,
 * p-1, 2^384 mod p and its neighbours, powers of two and their neighbours,
 * all-ones patterns) and random elements, with equal operands and aliased
 * outputs. Both the IFMA path (when the CPU has it; the test says so when it
 * does not) and the scalar fallback are checked, directly and through the
 * dispatching cz_fp_mul_x8 / cz_fp_mul_x16 (also with the portable paths
 * forced). The eight-lane Fp2 product and square (cz_fp2_mul_x8,
 * cz_fp2_sqr_x8) are checked lane by lane against cz_fp2_mul / cz_fp2_sqr
 * on pairs of the same edge values (so that a0 + a1 nears 2p and a0 - a1
 * wraps) and random ones, with aliased outputs, through every path, and
 * so are the eight chord steps of cz_fp2_chord_x8 and the batch inversion
 * cz_fp2_inv_x8 (against cz_fp2_inv, on the same values, one to five
 * groups at a time). The G1 chord steps and batch inversion over Fp
 * (cz_fp_chord_x8, cz_fp_inv_x8) are checked the same way against cz_fp
 * operations and cz_fp_inv, on the Fp edge values and random ones. The
 * curve-equation checks (cz_fp_curve_x8, cz_fp2_curve_x8) get points that
 * satisfy y^2 = x^3 + b for a b made from them, with some lanes' y moved
 * by one, at a 4-byte misaligned address; every path must name exactly
 * the unmoved lanes. */
#include <gmp.h>
#include <string.h>
#include "testutil.h"
#include "ff/ff.h"
#include "ff/fp_x8.h"
#include "util/cpu.h"

#define MAXV 1400
static cz_fp vals[MAXV];
static int nvals;
static mpz_t P, RI; /* p, 2^-384 mod p */

static void get(mpz_t z, const cz_fp *a) { mpz_import(z, 6, -1, 8, 0, 0, a->l); }

static void add_z(const mpz_t z) /* add z if 0 <= z < p */
{
    if (mpz_sgn(z) < 0 || mpz_cmp(z, P) >= 0 || nvals >= MAXV) return;
    cz_fp a;
    size_t cnt = 0;
    memset(&a, 0, sizeof a);
    mpz_export(a.l, &cnt, -1, 8, 0, 0, z);
    vals[nvals++] = a;
}

static void build_edges(void)
{
    mpz_t z, r;
    mpz_inits(z, r, NULL);
    for (long k = 0; k <= 3; k++) {
        mpz_set_si(z, k); add_z(z);
        mpz_sub_ui(z, P, (unsigned long)k + 1); add_z(z);
    }
    mpz_sub_ui(z, P, 1); mpz_fdiv_q_2exp(z, z, 1); add_z(z);
    mpz_add_ui(z, z, 1); add_z(z);
    /* 2^384 mod p (our 1) and (2^384)^2 mod p, and neighbours */
    mpz_set_ui(r, 0); mpz_setbit(r, 384); mpz_mod(r, r, P);
    for (long d = -3; d <= 3; d++) {
        mpz_set_si(z, d); mpz_add(z, z, r); add_z(z);
    }
    mpz_mul(z, r, r); mpz_mod(z, z, P); add_z(z);
    for (int k = 0; k < 381; k += 1) {
        mpz_set_ui(z, 0); mpz_setbit(z, (unsigned long)k); add_z(z); /* 2^k */
        mpz_sub_ui(z, z, 1); add_z(z);                          /* 2^k - 1 */
        mpz_set_ui(z, 0); mpz_setbit(z, (unsigned long)k);
        mpz_sub(z, P, z); add_z(z);                             /* p - 2^k */
    }
    mpz_clears(z, r, NULL);
}

static int same(const cz_fp *x, const cz_fp *y) { return memcmp(x, y, sizeof *x) == 0; }

/* check out[i] = a[i]·b[i] for n (multiple of 16) pairs through every path */
static void check_all(const cz_fp *a, const cz_fp *b, int n, int have_ifma)
{
    mpz_t x, y, w;
    mpz_inits(x, y, w, NULL);
    for (int base = 0; base < n; base += 16) {
        cz_fp ref[16], o[16];
        for (int i = 0; i < 16; i++) {
            cz_fp_mul(&ref[i], &a[base + i], &b[base + i]);
            get(x, &a[base + i]);
            get(y, &b[base + i]);
            mpz_mul(x, x, y);
            mpz_mul(x, x, RI);
            mpz_mod(x, x, P);
            get(w, &ref[i]);
            CHECK_MSG(mpz_cmp(x, w) == 0, "cz_fp_mul vs GMP at %d", base + i);
        }
        for (int h = 0; h < 16; h += 8) {
            cz__fp_mul_x8_scalar(o + h, a + base + h, b + base + h);
            for (int i = 0; i < 8; i++) CHECK_MSG(same(&o[h + i], &ref[h + i]), "scalar x8 at %d", base + h + i);
            cz_fp_mul_x8(o + h, a + base + h, b + base + h);
            for (int i = 0; i < 8; i++) CHECK_MSG(same(&o[h + i], &ref[h + i]), "dispatch x8 at %d", base + h + i);
        }
        cz_fp_mul_x16(o, a + base, b + base);
        for (int i = 0; i < 16; i++) CHECK_MSG(same(&o[i], &ref[i]), "dispatch x16 at %d", base + i);
#if CZ_FP_X8_IFMA
        if (have_ifma) {
            for (int h = 0; h < 16; h += 8) {
                cz__fp_mul_x8_ifma(o + h, a + base + h, b + base + h);
                for (int i = 0; i < 8; i++) CHECK_MSG(same(&o[h + i], &ref[h + i]), "ifma x8 at %d", base + h + i);
                cz_fp52x8 pa, pb;
                cz__fp52x8_pack(&pa, a + base + h, 32);
                cz__fp52x8_pack(&pb, b + base + h, 0);
                cz__fp52x8_mul(&pb, &pa, &pb); /* aliased output */
                cz__fp52x8_unpack(o + h, &pb);
                for (int i = 0; i < 8; i++) CHECK_MSG(same(&o[h + i], &ref[h + i]), "ifma core at %d", base + h + i);
            }
            cz__fp_mul_x16_ifma(o, a + base, b + base);
            for (int i = 0; i < 16; i++) CHECK_MSG(same(&o[i], &ref[i]), "ifma x16 at %d", base + i);
            /* output aliasing an input array */
            memcpy(o, a + base, sizeof o);
            cz__fp_mul_x16_ifma(o, o, b + base);
            for (int i = 0; i < 16; i++) CHECK_MSG(same(&o[i], &ref[i]), "ifma x16 aliased at %d", base + i);
            memcpy(o, b + base, 8 * sizeof o[0]);
            cz__fp_mul_x8_ifma(o, a + base, o);
            for (int i = 0; i < 8; i++) CHECK_MSG(same(&o[i], &ref[i]), "ifma x8 aliased at %d", base + i);
        }
#else
        (void)have_ifma;
#endif
    }
    mpz_clears(x, y, w, NULL);
}

static int same2(const cz_fp2 *x, const cz_fp2 *y) { return memcmp(x, y, sizeof *x) == 0; }

/* out[i] = a[i] b[i] and a[i]^2 in Fp2 for n (multiple of 8) pairs, every
 * lane against cz_fp2_mul / cz_fp2_sqr */
static void check_fp2(const cz_fp2 *a, const cz_fp2 *b, int n, int have_ifma)
{
    for (int base = 0; base < n; base += 8) {
        cz_fp2 rm[8], rs[8], o[8];
        for (int i = 0; i < 8; i++) {
            cz_fp2_mul(&rm[i], &a[base + i], &b[base + i]);
            cz_fp2_sqr(&rs[i], &a[base + i]);
        }
        cz__fp2_mul_x8_scalar(o, a + base, b + base);
        for (int i = 0; i < 8; i++) CHECK_MSG(same2(&o[i], &rm[i]), "fp2 scalar mul x8 at %d", base + i);
        cz__fp2_sqr_x8_scalar(o, a + base);
        for (int i = 0; i < 8; i++) CHECK_MSG(same2(&o[i], &rs[i]), "fp2 scalar sqr x8 at %d", base + i);
        cz_fp2_mul_x8(o, a + base, b + base);
        for (int i = 0; i < 8; i++) CHECK_MSG(same2(&o[i], &rm[i]), "fp2 dispatch mul x8 at %d", base + i);
        cz_fp2_sqr_x8(o, a + base);
        for (int i = 0; i < 8; i++) CHECK_MSG(same2(&o[i], &rs[i]), "fp2 dispatch sqr x8 at %d", base + i);
#if CZ_FP_X8_IFMA
        if (have_ifma) {
            cz__fp2_mul_x8_ifma(o, a + base, b + base);
            for (int i = 0; i < 8; i++) CHECK_MSG(same2(&o[i], &rm[i]), "fp2 ifma mul x8 at %d", base + i);
            cz__fp2_sqr_x8_ifma(o, a + base);
            for (int i = 0; i < 8; i++) CHECK_MSG(same2(&o[i], &rs[i]), "fp2 ifma sqr x8 at %d", base + i);
            memcpy(o, a + base, sizeof o); /* aliased outputs */
            cz__fp2_mul_x8_ifma(o, o, b + base);
            for (int i = 0; i < 8; i++) CHECK_MSG(same2(&o[i], &rm[i]), "fp2 ifma mul x8 aliased at %d", base + i);
            memcpy(o, b + base, sizeof o);
            cz__fp2_mul_x8_ifma(o, a + base, o);
            for (int i = 0; i < 8; i++) CHECK_MSG(same2(&o[i], &rm[i]), "fp2 ifma mul x8 aliased b at %d", base + i);
            memcpy(o, a + base, sizeof o);
            cz__fp2_sqr_x8_ifma(o, o);
            for (int i = 0; i < 8; i++) CHECK_MSG(same2(&o[i], &rs[i]), "fp2 ifma sqr x8 aliased at %d", base + i);
        }
#else
        (void)have_ifma;
#endif
    }
}

/* cz_fp2_chord_x8 (IFMA, fallback, dispatch; in place over a) against the
 * same steps written out with cz_fp2 operations, on the n / 8 groups of
 * points (x, y) = (a[i], b[i]), partner points taken further on, num and
 * inv from the arrays too */
static void check_chord(const cz_fp2 *a, const cz_fp2 *b, int n, int have_ifma)
{
    for (int base = 0; base + 32 <= n; base += 32) {
        cz_fp2 pa[16], pb[16], num[8], inv[8], ref[16], o[16];
        for (int i = 0; i < 8; i++) {
            pa[2 * i] = a[base + i];
            pa[2 * i + 1] = b[base + i];
            pb[2 * i] = a[base + 8 + i];
            pb[2 * i + 1] = b[base + 8 + i];
            num[i] = a[base + 16 + i];
            inv[i] = b[base + 24 + i];
            if (i == 3) pb[2 * i] = pa[2 * i]; /* a doubling lane: bx = ax */
            cz_fp2 l, x3, d;
            cz_fp2_mul(&l, &num[i], &inv[i]);
            cz_fp2_sqr(&x3, &l);
            cz_fp2_sub(&x3, &x3, &pa[2 * i]);
            cz_fp2_sub(&x3, &x3, &pb[2 * i]);
            cz_fp2_sub(&d, &pa[2 * i], &x3);
            cz_fp2_mul(&d, &d, &l);
            cz_fp2_sub(&ref[2 * i + 1], &d, &pa[2 * i + 1]);
            ref[2 * i] = x3;
        }
        cz__fp2_chord_x8_scalar(o, pa, pb, num, inv);
        for (int i = 0; i < 16; i++) CHECK_MSG(same2(&o[i], &ref[i]), "fp2 chord scalar at %d", base + i);
        cz_fp2_chord_x8(o, pa, pb, num, inv);
        for (int i = 0; i < 16; i++) CHECK_MSG(same2(&o[i], &ref[i]), "fp2 chord dispatch at %d", base + i);
#if CZ_FP_X8_IFMA
        if (have_ifma) {
            cz__fp2_chord_x8_ifma(o, pa, pb, num, inv);
            for (int i = 0; i < 16; i++) CHECK_MSG(same2(&o[i], &ref[i]), "fp2 chord ifma at %d", base + i);
            memcpy(o, pa, sizeof o);
            cz__fp2_chord_x8_ifma(o, o, pb, num, inv);
            for (int i = 0; i < 16; i++) CHECK_MSG(same2(&o[i], &ref[i]), "fp2 chord ifma in place at %d", base + i);
        }
#else
        (void)have_ifma;
#endif
    }
}

/* cz_fp2_inv_x8 (IFMA, fallback, dispatch) against cz_fp2_inv entry by
 * entry, over runs of ng = 1..5 groups of the n (multiple of 8) non-zero
 * values (zero entries are replaced by one, as the MSM does) */
static void check_inv(const cz_fp2 *a, int n, int have_ifma)
{
    static cz_fp2 d[40], ref[40], o[40];
    static uint64_t scratch[40 * CZ_FP2_INV_X8_SCRATCH / 8 + 1];
    int ng = 1;
    for (int base = 0; base + 8 <= n; base += 8 * ng, ng = ng % 5 + 1) {
        if (base + 8 * ng > n) ng = (n - base) / 8;
        int m = 8 * ng;
        for (int i = 0; i < m; i++) {
            d[i] = a[base + i];
            if (cz_fp2_is_zero(&d[i])) cz_fp2_one(&d[i]);
            cz_fp2_inv(&ref[i], &d[i]);
        }
        memcpy(o, d, m * sizeof *o);
        cz__fp2_inv_x8_scalar(o, scratch, (size_t)ng);
        for (int i = 0; i < m; i++) CHECK_MSG(same2(&o[i], &ref[i]), "fp2 inv scalar at %d", base + i);
        memcpy(o, d, m * sizeof *o);
        cz_fp2_inv_x8(o, scratch, (size_t)ng);
        for (int i = 0; i < m; i++) CHECK_MSG(same2(&o[i], &ref[i]), "fp2 inv dispatch at %d", base + i);
#if CZ_FP_X8_IFMA
        if (have_ifma) {
            memcpy(o, d, m * sizeof *o);
            cz__fp2_inv_x8_ifma(o, (char *)scratch + 8, (size_t)ng); /* unaligned scratch */
            for (int i = 0; i < m; i++) CHECK_MSG(same2(&o[i], &ref[i]), "fp2 inv ifma at %d", base + i);
        }
#else
        (void)have_ifma;
#endif
    }
}

#define NPAIR2 4096
static cz_fp2 A2[NPAIR2], B2[NPAIR2];

static void run_suite_fp2(cz_rng *rng, int have_ifma)
{
    int n = 0;
    /* coordinates from the edge values: each with a few partners, and
     * a0 = a1, a1 = p - a0 type pairs through the value list */
    for (int i = 0; i < nvals && n + 3 <= NPAIR2; i++) {
        for (int t = 0; t < 3; t++) {
            A2[n].c0 = vals[i];
            A2[n].c1 = vals[(i * 5 + t * 97 + 1) % nvals];
            B2[n].c0 = vals[(i * 11 + t * 13 + 3) % nvals];
            B2[n].c1 = t == 0 ? vals[i] : vals[(i * 3 + t) % nvals];
            if (t == 2) cz_fp2_random(&B2[n], rng);
            if (t == 1) A2[n].c1 = A2[n].c0;
            n++;
        }
    }
    while (n % 8) { cz_fp2_random(&A2[n], rng); B2[n] = A2[n]; n++; }
    check_fp2(A2, B2, n, have_ifma);
    check_chord(A2, B2, n, have_ifma);
    check_inv(A2, n, have_ifma);
    check_inv(B2, n, have_ifma);
    for (int i = 0; i < 1024; i++) {
        cz_fp2_random(&A2[i], rng);
        if (i % 7 == 0) B2[i] = A2[i];
        else if (i % 7 == 1) cz_fp2_neg(&B2[i], &A2[i]);
        else cz_fp2_random(&B2[i], rng);
    }
    check_fp2(A2, B2, 1024, have_ifma);
    check_chord(A2, B2, 1024, have_ifma);
    check_inv(A2, 1024, have_ifma);
}

/* cz_fp_chord_x8 as check_chord, over Fp */
static void check_chord1(const cz_fp *a, const cz_fp *b, int n, int have_ifma)
{
    for (int base = 0; base + 32 <= n; base += 32) {
        cz_fp pa[16], pb[16], num[8], inv[8], ref[16], o[16];
        for (int i = 0; i < 8; i++) {
            pa[2 * i] = a[base + i];
            pa[2 * i + 1] = b[base + i];
            pb[2 * i] = a[base + 8 + i];
            pb[2 * i + 1] = b[base + 8 + i];
            num[i] = a[base + 16 + i];
            inv[i] = b[base + 24 + i];
            if (i == 5) pb[2 * i] = pa[2 * i]; /* a doubling lane: bx = ax */
            cz_fp l, x3, d;
            cz_fp_mul(&l, &num[i], &inv[i]);
            cz_fp_sqr(&x3, &l);
            cz_fp_sub(&x3, &x3, &pa[2 * i]);
            cz_fp_sub(&x3, &x3, &pb[2 * i]);
            cz_fp_sub(&d, &pa[2 * i], &x3);
            cz_fp_mul(&d, &d, &l);
            cz_fp_sub(&ref[2 * i + 1], &d, &pa[2 * i + 1]);
            ref[2 * i] = x3;
        }
        cz__fp_chord_x8_scalar(o, pa, pb, num, inv);
        for (int i = 0; i < 16; i++) CHECK_MSG(same(&o[i], &ref[i]), "fp chord scalar at %d", base + i);
        cz_fp_chord_x8(o, pa, pb, num, inv);
        for (int i = 0; i < 16; i++) CHECK_MSG(same(&o[i], &ref[i]), "fp chord dispatch at %d", base + i);
#if CZ_FP_X8_IFMA
        if (have_ifma) {
            cz__fp_chord_x8_ifma(o, pa, pb, num, inv);
            for (int i = 0; i < 16; i++) CHECK_MSG(same(&o[i], &ref[i]), "fp chord ifma at %d", base + i);
            memcpy(o, pa, sizeof o);
            cz__fp_chord_x8_ifma(o, o, pb, num, inv);
            for (int i = 0; i < 16; i++) CHECK_MSG(same(&o[i], &ref[i]), "fp chord ifma in place at %d", base + i);
        }
#else
        (void)have_ifma;
#endif
    }
}

/* cz_fp_inv_x8 as check_inv, over Fp */
static void check_inv1(const cz_fp *a, int n, int have_ifma)
{
    static cz_fp d[40], ref[40], o[40];
    static uint64_t scratch[40 * CZ_FP_INV_X8_SCRATCH / 8 + 1];
    int ng = 1;
    for (int base = 0; base + 8 <= n; base += 8 * ng, ng = ng % 5 + 1) {
        if (base + 8 * ng > n) ng = (n - base) / 8;
        int m = 8 * ng;
        for (int i = 0; i < m; i++) {
            d[i] = a[base + i];
            if (cz_fp_is_zero(&d[i])) cz_fp_one(&d[i]);
            cz_fp_inv(&ref[i], &d[i]);
        }
        memcpy(o, d, m * sizeof *o);
        cz__fp_inv_x8_scalar(o, scratch, (size_t)ng);
        for (int i = 0; i < m; i++) CHECK_MSG(same(&o[i], &ref[i]), "fp inv scalar at %d", base + i);
        memcpy(o, d, m * sizeof *o);
        cz_fp_inv_x8(o, scratch, (size_t)ng);
        for (int i = 0; i < m; i++) CHECK_MSG(same(&o[i], &ref[i]), "fp inv dispatch at %d", base + i);
#if CZ_FP_X8_IFMA
        if (have_ifma) {
            memcpy(o, d, m * sizeof *o);
            cz__fp_inv_x8_ifma(o, (char *)scratch + 8, (size_t)ng); /* unaligned scratch */
            for (int i = 0; i < m; i++) CHECK_MSG(same(&o[i], &ref[i]), "fp inv ifma at %d", base + i);
        }
#else
        (void)have_ifma;
#endif
    }
}

/* cz_fp_curve_x8 / cz_fp2_curve_x8: lane l gets x = a[i], y = b[i] and
 * b0 = y^2 - x^3 of lane 0, so lanes with the same (x, y) as lane 0, and
 * lane 0 itself, satisfy the equation; every third lane takes lane 0's
 * point with y + 1 (fails) and every other lane lane 0's point itself */
static void check_curve(const cz_fp *a, const cz_fp *b, int n, int have_ifma)
{
    static uint8_t buf[8 * 2 * sizeof(cz_fp2) + 8];
    uint8_t *pts = buf + 4;
    for (int base = 0; base + 8 <= n; base += 8) {
        cz_fp x0 = a[base], y0 = b[base], bb, t, one;
        cz_fp_sqr(&bb, &y0);
        cz_fp_sqr(&t, &x0);
        cz_fp_mul(&t, &t, &x0);
        cz_fp_sub(&bb, &bb, &t);
        cz_fp_one(&one);
        unsigned want = 0;
        for (int l = 0; l < 8; l++) {
            cz_fp x = x0, y = y0;
            if (l % 3 == 2) cz_fp_add(&y, &y, &one);
            else if (l % 3 == 1 && l != 0) { x = a[base + l]; y = b[base + l]; }
            cz_fp l2, r2;
            cz_fp_sqr(&l2, &y);
            cz_fp_sqr(&r2, &x);
            cz_fp_mul(&r2, &r2, &x);
            cz_fp_add(&r2, &r2, &bb);
            if (cz_fp_eq(&l2, &r2)) want |= 1u << l;
            memcpy(pts + l * 2 * sizeof(cz_fp), &x, sizeof x);
            memcpy(pts + l * 2 * sizeof(cz_fp) + sizeof x, &y, sizeof y);
        }
        CHECK_MSG(want & 1, "lane 0 at %d", base);
        CHECK_MSG(cz__fp_curve_x8_scalar(pts, 2 * sizeof(cz_fp), &bb) == want, "fp curve scalar at %d", base);
        CHECK_MSG(cz_fp_curve_x8(pts, 2 * sizeof(cz_fp), &bb) == want, "fp curve dispatch at %d", base);
#if CZ_FP_X8_IFMA
        if (have_ifma) CHECK_MSG(cz__fp_curve_x8_ifma(pts, 2 * sizeof(cz_fp), &bb) == want, "fp curve ifma at %d", base);
#else
        (void)have_ifma;
#endif
        /* Fp2: x = (a[i], b[i + 1]), y = (b[i], a[i + 1]) */
        cz_fp2 X0 = {a[base], b[base + 1]}, Y0 = {b[base], a[base + 1]}, B2, T2, ONE2;
        cz_fp2_sqr(&B2, &Y0);
        cz_fp2_sqr(&T2, &X0);
        cz_fp2_mul(&T2, &T2, &X0);
        cz_fp2_sub(&B2, &B2, &T2);
        cz_fp2_one(&ONE2);
        want = 0;
        for (int l = 0; l < 8; l++) {
            cz_fp2 x = X0, y = Y0;
            if (l % 3 == 2) cz_fp2_add(&y, &y, &ONE2);
            else if (l % 3 == 1 && l != 0) { x.c0 = a[base + l]; y.c1 = b[base + l]; }
            cz_fp2 l2, r2;
            cz_fp2_sqr(&l2, &y);
            cz_fp2_sqr(&r2, &x);
            cz_fp2_mul(&r2, &r2, &x);
            cz_fp2_add(&r2, &r2, &B2);
            if (cz_fp_eq(&l2.c0, &r2.c0) && cz_fp_eq(&l2.c1, &r2.c1)) want |= 1u << l;
            memcpy(pts + l * 2 * sizeof(cz_fp2), &x, sizeof x);
            memcpy(pts + l * 2 * sizeof(cz_fp2) + sizeof x, &y, sizeof y);
        }
        CHECK_MSG(want & 1, "fp2 lane 0 at %d", base);
        CHECK_MSG(cz__fp2_curve_x8_scalar(pts, 2 * sizeof(cz_fp2), &B2) == want, "fp2 curve scalar at %d", base);
        CHECK_MSG(cz_fp2_curve_x8(pts, 2 * sizeof(cz_fp2), &B2) == want, "fp2 curve dispatch at %d", base);
#if CZ_FP_X8_IFMA
        if (have_ifma)
            CHECK_MSG(cz__fp2_curve_x8_ifma(pts, 2 * sizeof(cz_fp2), &B2) == want, "fp2 curve ifma at %d", base);
#endif
    }
}

#define NPAIR 6400
static cz_fp A[NPAIR], B[NPAIR];

static void run_suite(cz_rng *rng, int have_ifma)
{
    int n = 0;
    /* each edge value times 4 edge values and times 4 random elements, and squared */
    for (int i = 0; i < nvals && n + 9 <= NPAIR; i++) {
        for (int t = 0; t < 4; t++) {
            A[n] = vals[i]; B[n] = vals[(i * 7 + t * 131) % nvals]; n++;
        }
        for (int t = 0; t < 4; t++) {
            A[n] = vals[i]; cz_fp_random(&B[n], rng);
            if (t & 1) { cz_fp tmp = A[n]; A[n] = B[n]; B[n] = tmp; }
            n++;
        }
        A[n] = vals[i]; B[n] = vals[i]; n++;
    }
    while (n % 16) { A[n] = vals[n % nvals]; B[n] = vals[(n * 3) % nvals]; n++; }
    check_all(A, B, n, have_ifma);
    check_chord1(A, B, n, have_ifma);
    check_inv1(A, n, have_ifma);
    check_inv1(B, n, have_ifma);
    check_curve(A, B, n, have_ifma);
    /* random pairs, some equal */
    for (int i = 0; i < 1024; i++) {
        cz_fp_random(&A[i], rng);
        if (i % 5 == 0) B[i] = A[i];
        else cz_fp_random(&B[i], rng);
    }
    check_all(A, B, 1024, have_ifma);
    check_chord1(A, B, 1024, have_ifma);
    check_inv1(A, 1024, have_ifma);
    check_curve(A, B, 1024, have_ifma);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_fp_x8", 0x1f3a));
    mpz_inits(P, RI, NULL);
    get(P, &cz_fp_modulus);
    mpz_set_ui(RI, 0);
    mpz_setbit(RI, 384);
    CHECK(mpz_invert(RI, RI, P));
    build_edges();
    printf("test_fp_x8: %d edge values\n", nvals);

    int have_ifma = cz_cpu_has_ifma();
    if (have_ifma && CZ_FP_X8_IFMA)
        printf("test_fp_x8: checking the AVX-512 IFMA path and the scalar fallback\n");
    else
        printf("test_fp_x8: SKIPPING the AVX-512 IFMA path: %s; checking the scalar "
               "fallback only\n",
               !CZ_FP_X8_IFMA ? "not built for this target/compiler"
                              : "the CPU/OS lacks AVX-512F+IFMA or CUZK_NO_ASM is set");
    run_suite(&rng, have_ifma && CZ_FP_X8_IFMA);
    run_suite_fp2(&rng, have_ifma && CZ_FP_X8_IFMA);

    /* the dispatch with the portable paths forced: cz_fp_mul_x8 must take the
     * fallback (and still agree with GMP) */
    cz_cpu_force_portable(1);
    CHECK(!cz_cpu_has_ifma());
    run_suite(&rng, 0);
    run_suite_fp2(&rng, 0);
    cz_cpu_force_portable(0);

    mpz_clears(P, RI, NULL);
    return cz_test_finish("test_fp_x8");
}
