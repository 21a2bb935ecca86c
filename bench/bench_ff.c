/* bench_ff.c — field arithmetic timings: Fp add/mul/sqr/inverse, Fr mul/sqr
 * and Fp2 mul/sqr. Each op is a dependent chain x <- f(x, y) on random
 * Montgomery-form inputs from a fixed seed.
 *
 * The fp_mul_ind8 / fp_mul_x8 / fp_mul_x16 / fp52x8_mul ops run 8 (16)
 * independent chains x[i] <- x[i]*y[i] side by side and count one iteration
 * per field product, so their ns/op is ns per product with the latency of
 * one chain overlapped by the others: the scalar MULX/ADX code on 8 chains,
 * the AVX-512 IFMA code (ff/fp_x8.h) with its repacking from / to cz_fp, and
 * the IFMA core alone on radix-2^52 operands (no repacking). */
#include "bench.h"
#include "ff/ff.h"
#include "ff/fp_x8.h"
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

typedef struct { cz_fp x[16], y[16]; } fp16_state;

static void fp_mul_ind8(void *s_, uint64_t n)
{
    fp16_state *s = s_;
    for (uint64_t i = 0; i < n; i += 8)
        for (int j = 0; j < 8; j++) cz_fp_mul(&s->x[j], &s->x[j], &s->y[j]);
}

static void fp_mul_x8(void *s_, uint64_t n)
{
    fp16_state *s = s_;
    for (uint64_t i = 0; i < n; i += 8) cz_fp_mul_x8(s->x, s->x, s->y);
}

static void fp_mul_x16(void *s_, uint64_t n)
{
    fp16_state *s = s_;
    for (uint64_t i = 0; i < n; i += 16) cz_fp_mul_x16(s->x, s->x, s->y);
}

#if CZ_FP_X8_IFMA
typedef struct { cz_fp52x8 x, y32; } fp52_state;

static void fp52x8_mul(void *s_, uint64_t n)
{
    fp52_state *s = s_;
    for (uint64_t i = 0; i < n; i += 8) cz__fp52x8_mul(&s->x, &s->y32, &s->x);
}
#endif

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
    fp16_state f16;
    for (int i = 0; i < 16; i++) {
        cz_fp_random(&f16.x[i], &rng);
        cz_fp_random(&f16.y[i], &rng);
    }
    cz__bench_op(b, "fp_mul_ind8", "8 independent chains x[i] = x[i] * y[i], ns per product",
                 fp_mul_ind8, &f16);
    cz__bench_op(b, "fp_mul_x8",
                 cz_cpu_has_ifma() ? "cz_fp_mul_x8, AVX-512 IFMA incl. repacking, ns per product"
                                   : "cz_fp_mul_x8, no IFMA: scalar fallback, ns per product",
                 fp_mul_x8, &f16);
    cz__bench_op(b, "fp_mul_x16",
                 cz_cpu_has_ifma() ? "cz_fp_mul_x16, AVX-512 IFMA incl. repacking, ns per product"
                                   : "cz_fp_mul_x16, no IFMA: scalar fallback, ns per product",
                 fp_mul_x16, &f16);
#if CZ_FP_X8_IFMA
    if (cz_cpu_has_ifma()) {
        static fp52_state f52;
        cz__fp52x8_pack(&f52.x, f16.x, 0);
        cz__fp52x8_pack(&f52.y32, f16.y, 32);
        cz__bench_op(b, "fp52x8_mul", "IFMA core on radix-2^52 operands, no repacking, ns per product",
                     fp52x8_mul, &f52);
    }
#endif
    cz__bench_op(b, "fp_inv", "x = 1/x", fp_inv, &fp);
    cz__bench_op(b, "fr_mul", "x = x * y", fr_mul, &fr);
    cz__bench_op(b, "fr_sqr", "x = x^2", fr_sqr, &fr);
    cz__bench_op(b, "fp2_mul", "x = x * y", fp2_mul, &fp2);
    cz__bench_op(b, "fp2_sqr", "x = x^2", fp2_sqr, &fp2);
}

CZ_BENCH_GROUP(10, "ff", bench_ff)
