/* test_ntt.c — the NTT against the definition: a naive O(n^2) evaluation at
 * the powers of omega (and of g·omega for cosets), the order of omega, the
 * round trips, polynomial products against schoolbook multiplication, sampled
 * outputs of larger transforms (past the block-by-block stages) against
 * Horner evaluation, and the pool-parallel run against the serial one. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "poly/ntt.h"

static void naive_eval(cz_fr *out, const cz_fr *a, size_t n, const cz_fr *x0, const cz_fr *omega)
{
    /* out_i = sum_j a_j (x0 omega^i)^j */
    cz_fr x = *x0;
    for (size_t i = 0; i < n; i++) {
        cz_fr acc, p;
        cz_fr_zero(&acc);
        cz_fr_one(&p);
        for (size_t j = 0; j < n; j++) {
            cz_fr t;
            cz_fr_mul(&t, &a[j], &p);
            cz_fr_add(&acc, &acc, &t);
            cz_fr_mul(&p, &p, &x);
        }
        out[i] = acc;
        cz_fr_mul(&x, &x, omega);
    }
}

static int vec_eq(const cz_fr *a, const cz_fr *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!cz_fr_eq(&a[i], &b[i])) return 0;
    return 1;
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_ntt", 3));
    cz_pool *pool;
    CHECK(cz_pool_create(&pool, 3) == CZ_OK);

    static const uint64_t gens[2] = {7, 5};
    for (int gi = 0; gi < 2; gi++) {
        /* omega of the largest domain has order exactly 2^32 */
        cz_ntt_domain big;
        CHECK(cz_ntt_domain_init(&big, 0, gens[gi]) == CZ_OK);
        cz_ntt_domain_free(&big);
        cz_fr g, w, t;
        cz_fr_from_u64(&g, gens[gi]);
        uint64_t e[4];
        memcpy(e, cz_fr_modulus.l, sizeof e);
        e[0] -= 1;
        for (int s = 0; s < 32; s++) {
            for (int i = 0; i < 3; i++) e[i] = (e[i] >> 1) | (e[i + 1] << 63);
            e[3] >>= 1;
        }
        cz_fr_pow(&w, &g, e, 4);
        t = w;
        for (int s = 0; s < 31; s++) cz_fr_sqr(&t, &t);
        cz_fr minus1;
        cz_fr_one(&minus1);
        cz_fr_neg(&minus1, &minus1);
        CHECK(cz_fr_eq(&t, &minus1));

        for (int log_n = 0; log_n <= 7; log_n++) {
            cz_ntt_domain d;
            CHECK(cz_ntt_domain_init(&d, log_n, gens[gi]) == CZ_OK);
            size_t n = d.n;
            cz_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *ref = malloc(n * sizeof *ref);
            for (size_t i = 0; i < n; i++) cz_fr_random(&a[i], &rng);
            cz_fr one;
            cz_fr_one(&one);
            memcpy(b, a, n * sizeof *a);
            cz_ntt_forward(&d, b, NULL);
            naive_eval(ref, a, n, &one, &d.omega);
            CHECK_MSG(vec_eq(b, ref, n), "forward log_n=%d gen=%d", log_n, (int)gens[gi]);
            cz_ntt_inverse(&d, b, pool);
            CHECK_MSG(vec_eq(b, a, n), "inverse log_n=%d", log_n);
            cz_ntt_coset_forward(&d, b, pool);
            naive_eval(ref, a, n, &d.gen, &d.omega);
            CHECK_MSG(vec_eq(b, ref, n), "coset forward log_n=%d", log_n);
            cz_ntt_coset_inverse(&d, b, NULL);
            CHECK_MSG(vec_eq(b, a, n), "coset inverse log_n=%d", log_n);
            /* omega^n == 1, omega^(n/2) == -1 */
            uint64_t nn = n;
            cz_fr_pow(&t, &d.omega, &nn, 1);
            CHECK(cz_fr_is_one(&t));
            if (n > 1) {
                nn = n / 2;
                cz_fr_pow(&t, &d.omega, &nn, 1);
                CHECK(cz_fr_eq(&t, &minus1));
            }
            free(a); free(b); free(ref);
            cz_ntt_domain_free(&d);
        }
    }

    /* polynomial product of two degree < n/2 polynomials, n = 2^12 */
    {
        int log_n = 12;
        cz_ntt_domain d;
        CHECK(cz_ntt_domain_init(&d, log_n, 7) == CZ_OK);
        size_t n = d.n, h = n / 2;
        cz_fr *p = calloc(n, sizeof *p), *q = calloc(n, sizeof *q), *ref = calloc(n, sizeof *ref);
        for (size_t i = 0; i < h; i++) { cz_fr_random(&p[i], &rng); cz_fr_random(&q[i], &rng); }
        for (size_t i = 0; i < h; i += 37)
            for (size_t j = 0; j < h; j++) {
                cz_fr t;
                cz_fr_mul(&t, &p[i], &q[j]);
                cz_fr_add(&ref[i + j], &ref[i + j], &t);
            }
        /* ref holds only the contributions of rows i = 0, 37, 74, ...; build the
           same partial product through the NTT: zero the other rows of p */
        cz_fr *ps = calloc(n, sizeof *ps);
        for (size_t i = 0; i < h; i += 37) ps[i] = p[i];
        cz_ntt_forward(&d, ps, pool);
        cz_ntt_forward(&d, q, pool);
        for (size_t i = 0; i < n; i++) cz_fr_mul(&ps[i], &ps[i], &q[i]);
        cz_ntt_inverse(&d, ps, pool);
        CHECK(vec_eq(ps, ref, n));
        free(p); free(q); free(ref); free(ps);
        cz_ntt_domain_free(&d);
    }

    /* parallel == serial at 2^16, and round trip */
    {
        cz_ntt_domain d;
        CHECK(cz_ntt_domain_init(&d, 16, 7) == CZ_OK);
        size_t n = d.n;
        cz_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
        for (size_t i = 0; i < n; i++) cz_fr_random(&a[i], &rng);
        memcpy(b, a, n * sizeof *a);
        memcpy(c, a, n * sizeof *a);
        cz_ntt_coset_forward(&d, b, NULL);
        cz_ntt_coset_forward(&d, c, pool);
        CHECK(vec_eq(b, c, n));
        cz_ntt_coset_inverse(&d, c, pool);
        CHECK(vec_eq(a, c, n));
        free(a); free(b); free(c);
        cz_ntt_domain_free(&d);
    }

    /* sizes past the block-by-block stages (2^12): forward and coset forward
     * against Horner evaluation at sampled points */
    for (int log_n = 13; log_n <= 15; log_n++) {
        cz_ntt_domain d;
        CHECK(cz_ntt_domain_init(&d, log_n, 7) == CZ_OK);
        size_t n = d.n;
        cz_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        for (size_t i = 0; i < n; i++) cz_fr_random(&a[i], &rng);
        for (int coset = 0; coset < 2; coset++) {
            memcpy(b, a, n * sizeof *a);
            if (coset) cz_ntt_coset_forward(&d, b, log_n == 14 ? NULL : pool);
            else cz_ntt_forward(&d, b, log_n == 14 ? NULL : pool);
            for (int s = 0; s < 12; s++) {
                size_t i = s < 4 ? (size_t)s : s < 8 ? n - 1 - (size_t)(s - 4) : cz_rng_u64(&rng) % n;
                cz_fr x, acc;
                uint64_t e = i;
                cz_fr_pow(&x, &d.omega, &e, 1);
                if (coset) cz_fr_mul(&x, &x, &d.gen);
                cz_fr_zero(&acc);
                for (size_t k = n; k-- > 0;) {
                    cz_fr_mul(&acc, &acc, &x);
                    cz_fr_add(&acc, &acc, &a[k]);
                }
                CHECK_MSG(cz_fr_eq(&acc, &b[i]), "log_n=%d coset=%d i=%zu", log_n, coset, i);
            }
        }
        free(a); free(b);
        cz_ntt_domain_free(&d);
    }

    /* bad parameters are refused */
    cz_ntt_domain d;
    CHECK(cz_ntt_domain_init(&d, 33, 7) == CZ_ERR_INVALID_ARG);
    CHECK(cz_ntt_domain_init(&d, 4, 4) == CZ_ERR_INVALID_ARG); /* 4 is a square */
    cz_pool_destroy(pool);
    return cz_test_finish("test_ntt");
}
