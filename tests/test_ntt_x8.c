/* test_ntt_x8.c — the NTT's eight-lane IFMA path (poly/ntt_x8.c) against the
 * scalar one, bit for bit: for generators 5 and 7 and every size 2^1 .. 2^16, a domain as
 * built (x8 set where the CPU has IFMA and n >= 2^6) and its copy with x8
 * cleared transform the same inputs (random; all zeros; all r-1 as raw
 * limbs; all -1; the edge residues in turn) forward, inverse, coset forward,
 * coset inverse and inverse_scaled (by a random c and by a primitive 2n-th
 * root, snarkjs's shift), serially and on a pool, and must agree; so must
 * the two forms of the powers scaling at lengths that are not multiples of
 * eight. Without IFMA the test says so, checks that no domain took the
 * vector path, and still runs the (then identical) comparisons. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "ff/fr_x8.h"
#include "poly/ntt.h"
#include "poly/ntt_x8.h"
#include "util/cpu.h"
#include "util/rng.h"

#include "fr_edges.inc"

static int same(const cz_fr *x, const cz_fr *y, size_t n) { return memcmp(x, y, n * sizeof *x) == 0; }

/* the domains' n-th roots are from g; c2n = a primitive 2n-th root */
static void root_2n(cz_fr *out, uint64_t g, int log2n)
{
    uint64_t e[4];
    memcpy(e, cz_fr_modulus.l, sizeof e);
    e[0] -= 1;
    for (int s = 0; s < log2n; s++) {
        for (int i = 0; i < 3; i++) e[i] = (e[i] >> 1) | (e[i + 1] << 63);
        e[3] >>= 1;
    }
    cz_fr gg;
    cz_fr_from_u64(&gg, g);
    cz_fr_pow(out, &gg, e, 4);
}

/* run op on a copy through each domain, compare */
static void compare_op(const cz_ntt_domain *dv, const cz_ntt_domain *ds, const cz_fr *in, cz_fr *x, cz_fr *y,
                       int op, const cz_fr *c, cz_pool *pool, const char *what)
{
    size_t n = dv->n;
    memcpy(x, in, n * sizeof *x);
    memcpy(y, in, n * sizeof *y);
    for (int p = 0; p < 2; p++) {
        const cz_ntt_domain *d = p ? ds : dv;
        cz_fr *a = p ? y : x;
        cz_pool *pl = p ? NULL : pool; /* the scalar path serially, the vector one on the pool */
        switch (op) {
        case 0: cz_ntt_forward(d, a, pl); break;
        case 1: cz_ntt_inverse(d, a, pl); break;
        case 2: cz_ntt_coset_forward(d, a, pl); break;
        case 3: cz_ntt_coset_inverse(d, a, pl); break;
        default: cz_ntt_inverse_scaled(d, a, c, pl); break;
        }
    }
    CHECK_MSG(same(x, y, n), "%s: op %d, 2^%d", what, op, dv->log_n);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_ntt_x8", 8));
    int ifma = CZ_FR_X8_IFMA && cz_cpu_has_ifma();
    if (!ifma) printf("test_ntt_x8: no AVX-512 IFMA here: only the scalar path runs\n");
    build_edges();
    CHECK(nedges > 700);

    cz_pool *pool;
    CHECK(cz_pool_create(&pool, 3) == CZ_OK);
    size_t nmax = (size_t)1 << 16;
    cz_fr *in = malloc(nmax * sizeof *in), *x = malloc(nmax * sizeof *x), *y = malloc(nmax * sizeof *y);
    CHECK(in && x && y);
    static const uint64_t gens[2] = {5, 7};
    for (int gi = 0; gi < 2; gi++)
        for (int log_n = 1; log_n <= 16; log_n++) {
            cz_ntt_domain dv, ds;
            CHECK(cz_ntt_domain_init(&dv, log_n, gens[gi]) == CZ_OK);
            CHECK_MSG(dv.x8 == (ifma && log_n >= CZ_NTT_X8_MIN_LOG), "x8 flag at 2^%d", log_n);
            ds = dv;
            ds.x8 = 0;
            size_t n = dv.n;
            cz_fr cr, c2n, m1;
            cz_fr_random(&cr, &rng);
            root_2n(&c2n, gens[gi], log_n + 1);
            cz_fr_neg(&m1, &cz_fr_one_mont);
            int kinds = log_n >= 15 ? 3 : 5;
            for (int kind = 0; kind < kinds; kind++) {
                for (size_t i = 0; i < n; i++) {
                    switch (kind) {
                    case 0: cz_fr_random(&in[i], &rng); break;
                    case 1: cz_fr_zero(&in[i]); break;
                    case 2: {
                        uint64_t one[4] = {1, 0, 0, 0};
                        r_minus(in[i].l, one); /* raw r - 1 */
                        break;
                    }
                    case 3: in[i] = m1; break;
                    default: in[i] = edges[(i * 13 + 5) % (size_t)nedges]; break;
                    }
                }
                for (int op = 0; op < 6; op++)
                    compare_op(&dv, &ds, in, x, y, op < 5 ? op : 4, op == 4 ? &cr : &c2n, pool,
                               gens[gi] == 5 ? "gen 5" : "gen 7");
            }
            cz_ntt_domain_free(&dv);
        }

    /* the powers scaling, lengths not multiples of eight, chunk edges */
    static const size_t lens[] = {1, 7, 8, 9, 63, 1023, 1024, 1025, 3000, 4104};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t n = lens[li];
        cz_fr c;
        cz_fr_random(&c, &rng);
        for (size_t i = 0; i < n; i++) cz_fr_random(&in[i], &rng);
        memcpy(x, in, n * sizeof *x);
        memcpy(y, in, n * sizeof *y);
        if (ifma) cz__ntt_scale_powers_x8(x, n, &c, pool);
        else cz__ntt_scale_powers_scalar(x, n, &c, pool);
        cz__ntt_scale_powers_scalar(y, n, &c, NULL);
        CHECK_MSG(same(x, y, n), "scale_powers n=%zu", n);
        cz_ntt_scale_powers(in, n, &c, NULL); /* the dispatching call */
        CHECK(same(in, y, n));
    }
    free(in);
    free(x);
    free(y);
    cz_pool_destroy(pool);
    return cz_test_finish("test_ntt_x8");
}
