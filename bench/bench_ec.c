/* bench_ec.c — G1/G2 timings: Jacobian full and mixed addition, XYZZ mixed
 * addition, doubling, and scalar multiplication by random 255-bit scalars
 * (wNAF and constant-time). Additions run acc <- acc + P[i mod 16] over 16
 * random points (Jacobian ones with Z != 1); multiplications run
 * acc <- k[i mod 8] * acc. */
#include "bench.h"
#include "ec/ec.h"
#include "util/rng.h"

#define NPTS 16
#define NSC 8

typedef struct {
    cz_g1_jac acc, p[NPTS];
    cz_g1_xyzz xacc;
    cz_g1_aff a[NPTS];
    uint64_t k[NSC][4];
} g1_state;

typedef struct {
    cz_g2_jac acc, p[NPTS];
    cz_g2_xyzz xacc;
    cz_g2_aff a[NPTS];
    uint64_t k[NSC][4];
} g2_state;

/* 255-bit scalars below r, plain little-endian limbs */
static void random_scalars(uint64_t k[NSC][4], cz_rng *rng)
{
    static const uint64_t r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                  0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
    for (int i = 0; i < NSC; i++) {
        int lt;
        do {
            for (int j = 0; j < 4; j++) k[i][j] = cz_rng_u64(rng);
            k[i][3] >>= 1;
            lt = 0;
            for (int j = 3; j >= 0; j--)
                if (k[i][j] != r[j]) { lt = k[i][j] < r[j]; break; }
        } while (!lt);
    }
}

/* ---- G1 ---- */

static void g1_add(void *s_, uint64_t n)
{
    g1_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_g1_add(&s->acc, &s->acc, &s->p[i % NPTS]);
}

static void g1_add_mixed(void *s_, uint64_t n)
{
    g1_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_g1_add_mixed(&s->acc, &s->acc, &s->a[i % NPTS]);
}

static void g1_xyzz_add_mixed(void *s_, uint64_t n)
{
    g1_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_g1_xyzz_add_mixed(&s->xacc, &s->xacc, &s->a[i % NPTS]);
}

static void g1_dbl(void *s_, uint64_t n)
{
    g1_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_g1_dbl(&s->acc, &s->acc);
}

static void g1_mul(void *s_, uint64_t n)
{
    g1_state *s = s_;
    for (uint64_t i = 0; i < n; i++) {
        cz_g1_jac t;
        cz_g1_mul(&t, &s->acc, s->k[i % NSC], 255);
        s->acc = t;
    }
}

static void g1_mul_ct(void *s_, uint64_t n)
{
    g1_state *s = s_;
    for (uint64_t i = 0; i < n; i++) {
        cz_g1_jac t;
        cz_g1_mul_ct(&t, &s->acc, s->k[i % NSC], 255);
        s->acc = t;
    }
}

/* ---- G2 ---- */

static void g2_add(void *s_, uint64_t n)
{
    g2_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_g2_add(&s->acc, &s->acc, &s->p[i % NPTS]);
}

static void g2_add_mixed(void *s_, uint64_t n)
{
    g2_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_g2_add_mixed(&s->acc, &s->acc, &s->a[i % NPTS]);
}

static void g2_xyzz_add_mixed(void *s_, uint64_t n)
{
    g2_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_g2_xyzz_add_mixed(&s->xacc, &s->xacc, &s->a[i % NPTS]);
}

static void g2_dbl(void *s_, uint64_t n)
{
    g2_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_g2_dbl(&s->acc, &s->acc);
}

static void g2_mul(void *s_, uint64_t n)
{
    g2_state *s = s_;
    for (uint64_t i = 0; i < n; i++) {
        cz_g2_jac t;
        cz_g2_mul(&t, &s->acc, s->k[i % NSC], 255);
        s->acc = t;
    }
}

static void bench_ec(cz_bench *b)
{
    static const char *const ops[] = {"g1_add_jac", "g1_add_mixed_jac", "g1_add_mixed_xyzz",
                                      "g1_dbl", "g1_mul_wnaf", "g1_mul_ct", "g2_add_jac",
                                      "g2_add_mixed_jac", "g2_add_mixed_xyzz", "g2_dbl",
                                      "g2_mul_wnaf"};
    int any = 0;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) any |= cz__bench_wants(b, ops[i]);
    if (!any) return; /* skip the set-up */

    static g1_state s1;
    static g2_state s2;
    cz_rng rng;
    cz_rng_seed(&rng, 0x62656e6368656301ULL);

    /* random points k*G with Z != 1, and their affine forms */
    uint64_t k[NSC][4];
    cz_g1_jac g1;
    cz_g2_jac g2;
    cz_g1_generator_jac(&g1);
    cz_g2_generator_jac(&g2);
    for (int i = 0; i < NPTS; i++) {
        random_scalars(k, &rng);
        cz_g1_mul(&s1.p[i], &g1, k[0], 255);
        cz_g2_mul(&s2.p[i], &g2, k[1], 255);
    }
    cz_g1_batch_to_aff(s1.a, s1.p, NPTS);
    cz_g2_batch_to_aff(s2.a, s2.p, NPTS);
    random_scalars(s1.k, &rng);
    random_scalars(s2.k, &rng);

    /* one consistency check, so a broken build does not time nonsense */
    cz_g1_jac w, c;
    cz_g1_mul(&w, &s1.p[0], s1.k[0], 255);
    cz_g1_mul_ct(&c, &s1.p[0], s1.k[0], 255);
    if (!cz_g1_eq(&w, &c)) cz__bench_note(b, "WARNING: g1 wNAF and constant-time products differ");

    s1.acc = s1.p[0];
    cz_g1_xyzz_from_aff(&s1.xacc, &s1.a[0]);
    cz__bench_op(b, "g1_add_jac", "Jacobian + Jacobian", g1_add, &s1);
    cz__bench_op(b, "g1_add_mixed_jac", "Jacobian + affine", g1_add_mixed, &s1);
    cz__bench_op(b, "g1_add_mixed_xyzz", "XYZZ + affine", g1_xyzz_add_mixed, &s1);
    cz__bench_op(b, "g1_dbl", "Jacobian doubling", g1_dbl, &s1);
    s1.acc = s1.p[1];
    cz__bench_op(b, "g1_mul_wnaf", "255-bit scalar, wNAF", g1_mul, &s1);
    s1.acc = s1.p[1];
    cz__bench_op(b, "g1_mul_ct", "255-bit scalar, constant time", g1_mul_ct, &s1);

    s2.acc = s2.p[0];
    cz_g2_xyzz_from_aff(&s2.xacc, &s2.a[0]);
    cz__bench_op(b, "g2_add_jac", "Jacobian + Jacobian", g2_add, &s2);
    cz__bench_op(b, "g2_add_mixed_jac", "Jacobian + affine", g2_add_mixed, &s2);
    cz__bench_op(b, "g2_add_mixed_xyzz", "XYZZ + affine", g2_xyzz_add_mixed, &s2);
    cz__bench_op(b, "g2_dbl", "Jacobian doubling", g2_dbl, &s2);
    s2.acc = s2.p[1];
    cz__bench_op(b, "g2_mul_wnaf", "255-bit scalar, wNAF", g2_mul, &s2);
}

CZ_BENCH_GROUP(20, "ec", bench_ec)
