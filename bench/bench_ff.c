/* bench_ff.c — field arithmetic timings: Fp add/mul/sqr/inverse, Fr mul/sqr
 * and Fp2 mul/sqr. Each op is a dependent chain x <- f(x, y) on random
 * Montgomery-form inputs from a fixed seed. */
#include "bench.h"
#include "ff/ff.h"
#include "ff/tower.h"
#include "util/cpu.h"
#include "util/rng.h"

typedef struct { cz_fp x, y; } fp_state;
typedef struct { cz_fr x, y; } fr_state;
typedef struct { cz_fp2 x, y; } fp2_state;

static void fp_add(void *s_, uint64_t n)
{
    fp_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_fp_add(&s->x, &s->x, &s->y);
}

static void fp_mul(void *s_, uint64_t n)
{
    fp_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_fp_mul(&s->x, &s->x, &s->y);
}

static void fp_sqr(void *s_, uint64_t n)
{
    fp_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_fp_sqr(&s->x, &s->x);
}

static void fp_mul_portable(void *s_, uint64_t n)
{
    fp_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_fp_mul_portable(&s->x, &s->x, &s->y);
}

static void fp_inv(void *s_, uint64_t n)
{
    fp_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_fp_inv(&s->x, &s->x);
}

static void fr_mul(void *s_, uint64_t n)
{
    fr_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_fr_mul(&s->x, &s->x, &s->y);
}

static void fr_sqr(void *s_, uint64_t n)
{
    fr_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_fr_sqr(&s->x, &s->x);
}

static void fp2_mul(void *s_, uint64_t n)
{
    fp2_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_fp2_mul(&s->x, &s->x, &s->y);
}

static void fp2_sqr(void *s_, uint64_t n)
{
    fp2_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_fp2_sqr(&s->x, &s->x);
}

static void bench_ff(cz_bench *b)
{
    cz_rng rng;
    cz_rng_seed(&rng, 0x62656e6368666601ULL);
    fp_state fp;
    fr_state fr;
    fp2_state fp2;
    cz_fp_random(&fp.x, &rng);
    cz_fp_random(&fp.y, &rng);
    cz_fr_random(&fr.x, &rng);
    cz_fr_random(&fr.y, &rng);
    cz_fp2_random(&fp2.x, &rng);
    cz_fp2_random(&fp2.y, &rng);

    cz__bench_op(b, "fp_add", "x = x + y", fp_add, &fp);
    cz__bench_op(b, "fp_mul", "x = x * y", fp_mul, &fp);
    cz__bench_op(b, "fp_sqr", "x = x^2", fp_sqr, &fp);
    if (cz_cpu_has_adx())
        cz__bench_op(b, "fp_mul_portable", "x = x * y, portable C path", fp_mul_portable, &fp);
    cz__bench_op(b, "fp_inv", "x = 1/x", fp_inv, &fp);
    cz__bench_op(b, "fr_mul", "x = x * y", fr_mul, &fr);
    cz__bench_op(b, "fr_sqr", "x = x^2", fr_sqr, &fr);
    cz__bench_op(b, "fp2_mul", "x = x * y", fp2_mul, &fp2);
    cz__bench_op(b, "fp2_sqr", "x = x^2", fp2_sqr, &fp2);
}

CZ_BENCH_GROUP(10, "ff", bench_ff)
