/* test_fr_x8.c — the eight-lane Fr code of ff/fr_x8.h against the scalar
 * field code, bit for bit: one vector product, sum and difference
 * (cz__fr_mul_x8 / _add_x8 / _sub_x8, through the vector code where the CPU
 * has IFMA) against cz_fr_mul / add / sub on the edge residues of
 * fr_edges.inc (each against a seventh of the others, so every residue
 * meets the extremes) and on random ones, equal operands and an aliased
 * output included; the prover's pointwise (a·b - c)·k (cz_fr_mul_sub_scale,
 * with and without c and k, aliased, lengths that are not multiples of
 * eight) and the tables of powers (cz__fr_powers) against scalar loops. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "ff/fr_x8.h"
#include "util/cpu.h"
#include "util/rng.h"

#include "fr_edges.inc"

static int same(const cz_fr *x, const cz_fr *y, size_t n) { return memcmp(x, y, n * sizeof *x) == 0; }

static void check_lanes(const cz_fr a[8], const cz_fr b[8])
{
    cz_fr ref[8], o[8];
    for (int op = 0; op < 3; op++) {
        for (int i = 0; i < 8; i++) {
            if (op == 0) cz_fr_mul(&ref[i], &a[i], &b[i]);
            else if (op == 1) cz_fr_add(&ref[i], &a[i], &b[i]);
            else cz_fr_sub(&ref[i], &a[i], &b[i]);
        }
        if (op == 0) cz__fr_mul_x8(o, a, b);
        else if (op == 1) cz__fr_add_x8(o, a, b);
        else cz__fr_sub_x8(o, a, b);
        CHECK_MSG(same(o, ref, 8), "lane op %d", op);
    }
    memcpy(o, a, sizeof o); /* aliased output */
    cz__fr_mul_x8(o, o, b);
    for (int i = 0; i < 8; i++) cz_fr_mul(&ref[i], &a[i], &b[i]);
    CHECK(same(o, ref, 8));
}

static void test_lanes(cz_rng *rng)
{
    cz_fr a[8], b[8];
    /* every edge against every edge: lane i takes the next pair */
    int k = 0;
    for (int x = 0; x < nedges; x++)
        for (int y = 0; y < nedges; y += 7) {
            a[k] = edges[x];
            b[k] = edges[(y + x) % nedges];
            if (++k == 8) { check_lanes(a, b); k = 0; }
        }
    for (int t = 0; t < 20000; t++) {
        for (int i = 0; i < 8; i++) {
            cz_fr_random(&a[i], rng);
            cz_fr_random(&b[i], rng);
            if ((t + i) % 5 == 0) b[i] = a[i];
        }
        check_lanes(a, b);
    }
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_fr_x8", 52));
    if (!(CZ_FR_X8_IFMA && cz_cpu_has_ifma())) printf("test_fr_x8: no AVX-512 IFMA here: only the scalar path runs\n");
    build_edges();
    CHECK(nedges > 700);
    test_lanes(&rng);
    size_t nmax = 32768;
    cz_fr *in = malloc(nmax * sizeof *in), *x = malloc(nmax * sizeof *x), *y = malloc(nmax * sizeof *y);
    CHECK(in && x && y);
    /* the pointwise products and the tables of powers */
    static const size_t plens[] = {0, 1, 7, 8, 9, 63, 64, 100, 1000};
    cz_fr *bb = malloc(1024 * sizeof *bb), *cc = malloc(1024 * sizeof *cc);
    CHECK(bb && cc);
    for (size_t li = 0; li < sizeof plens / sizeof plens[0]; li++) {
        size_t n = plens[li];
        for (int mode = 0; mode < 8; mode++) {
            cz_fr k;
            cz_fr_random(&k, &rng);
            for (size_t i = 0; i < n; i++) {
                in[i] = edges[(i * 7 + li) % (size_t)nedges];
                if (i % 3 == 0) cz_fr_random(&in[i], &rng);
                bb[i] = edges[(i * 11 + mode) % (size_t)nedges];
                cz_fr_random(&cc[i], &rng);
            }
            const cz_fr *c = (mode & 1) ? cc : NULL, *kk = (mode & 2) ? &k : NULL, *b = (mode & 4) ? NULL : bb;
            cz__fr_mul_sub_scale_scalar(y, in, b, c, kk, n);
            cz_fr_mul_sub_scale(x, in, b, c, kk, n);
            CHECK_MSG(same(x, y, n), "mul_sub_scale n=%zu mode %d", n, mode);
            memcpy(x, in, n * sizeof *x); /* out = a */
            cz_fr_mul_sub_scale(x, x, b, c, kk, n);
            CHECK(same(x, y, n));
            if (!b) { /* no product: (a - c) k, the scalar loop too */
                size_t bad = 0;
                for (size_t i = 0; i < n; i++) {
                    cz_fr t = in[i];
                    if (c) cz_fr_sub(&t, &t, &c[i]);
                    if (kk) cz_fr_mul(&t, &t, kk);
                    bad += !same(&t, &y[i], 1);
                }
                CHECK_MSG(bad == 0, "mul_sub_scale without b, n=%zu mode %d: %zu wrong", n, mode, bad);
            }
        }
    }
    static const size_t wlens[] = {1, 2, 16, 32, 64, 96, 1024, 32768};
    for (size_t li = 0; li < sizeof wlens / sizeof wlens[0]; li++) {
        size_t n = wlens[li];
        cz_fr w;
        cz_fr_random(&w, &rng);
        if (li == 0) w = edges[3];
        cz__fr_powers(x, n, &w);
        cz_fr_one(&y[0]);
        for (size_t i = 1; i < n; i++) cz_fr_mul(&y[i], &y[i - 1], &w);
        CHECK_MSG(same(x, y, n), "powers n=%zu", n);
    }
    free(bb);
    free(cc);
    free(in);
    free(x);
    free(y);
    return cz_test_finish("test_fr_x8");
}
