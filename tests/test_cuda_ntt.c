/* test_cuda_ntt.c — the CUDA NTT and H pipelines against src/poly/ntt.c and
 * the provers' H steps (src/groth16/prover.c, prover_zkey.c), on fresh
 * random vectors: forward, inverse, coset forward and coset inverse for
 * generators 7 and 5 at sizes that take one, two and three passes, and both
 * H pipelines. Every output element must equal the CPU's bit for bit.
 *
 * Without a device the kernels' code runs on the host (a host-memory domain,
 * one tile at a time: small sizes and one three-pass size); with one, the
 * GPU runs sizes up to 2^22. The transforms run with and without a
 * reserved scratch (the bit reversal folded into a DIF's last pass, or a
 * pass of its own before a DIT). Both run the sizes again with two levels a
 * thread between barriers (CZ_NTT_LEVELS=2, radix 4: the default from 2^22,
 * so that the smaller sizes take it too), and once without level 1's
 * unit-twiddle shortcut (CZ_NTT_UNIT1=0). bellperson's H runs also with its
 * last transform in place and a bit-reversal pass (CZ_NTT_FOLD=0), and in
 * the seven-transform order (CZ_H_SEVEN=1). The butterflies keep their
 * values below 2r by default; a few sizes and both H run again with every
 * value canonical (CZ_NTT_LAZY=0), and a few other splits of the levels
 * into passes (CZ_NTT_PASSES). */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "ff/ff.h"
#include "poly/ntt.h"
#if CZ_HAVE_CUDA
#include "cuda/cz_cuda_ntt.h"
#endif

#if CZ_HAVE_CUDA
static cz_rng rng;
static cz_pool *pool;
static int on_gpu;

static void rand_vec(cz_fr *v, size_t n)
{
    for (size_t i = 0; i < n; i++) cz_fr_random(&v[i], &rng);
    if (n > 3) { cz_fr_zero(&v[1]); cz_fr_one(&v[2]); cz_fr_neg(&v[3], &v[2]); } /* 0, 1, -1 */
}

static long diff(const cz_fr *a, const cz_fr *b, size_t n)
{
    long bad = 0;
    for (size_t i = 0; i < n; i++) bad += memcmp(&a[i], &b[i], sizeof a[i]) != 0;
    return bad;
}

/* run fn on the device copy (or in place on the host for the host domain) */
static cz_err gpu_vecs(cz_fr **dv, cz_fr *const *hv, int nv, size_t n, char *msg, size_t msglen)
{
    for (int k = 0; k < nv; k++) {
        if (!on_gpu) { dv[k] = hv[k]; continue; }
        void *p;
        cz_err e = cz_cuda_malloc(&p, n * sizeof(cz_fr), msg, msglen);
        if (!e) e = cz_cuda_upload(p, hv[k], n * sizeof(cz_fr), msg, msglen);
        if (e) return e;
        dv[k] = p;
    }
    return CZ_OK;
}

static cz_err gpu_back(cz_fr *const *dv, cz_fr **hv, int nv, size_t n, char *msg, size_t msglen)
{
    if (!on_gpu) return CZ_OK;
    cz_err e = cz_cuda_sync(msg, msglen);
    for (int k = 0; k < nv && !e; k++) e = cz_cuda_download(hv[k], dv[k], n * sizeof(cz_fr), msg, msglen);
    for (int k = 0; k < nv; k++) cz_cuda_free(dv[k]);
    return e;
}

static cz_err make_domain(cz_cuda_ntt_domain **d, int log_n, uint64_t g, char *msg, size_t msglen)
{
    return on_gpu ? cz_cuda_ntt_domain_create(d, log_n, g, msg, msglen)
                  : cz_cuda_ntt_domain_create_host(d, log_n, g, msg, msglen);
}

/* transforms of more than one pass: with a reserved scratch the bit
 * reversal is folded into the last pass of a DIF, without one a pass of
 * its own before a DIT; both are checked */
static int with_scratch;

static const char *kname[] = {"forward", "inverse", "coset_forward", "coset_inverse"};

static void check_transforms(int log_n, uint64_t g, int kinds)
{
    size_t n = (size_t)1 << log_n;
    char msg[256];
    cz_ntt_domain cd;
    cz_cuda_ntt_domain *gd = NULL;
    cz_fr *x = malloc(n * sizeof *x), *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    CHECK(x && want && got);
    CHECK(cz_ntt_domain_init(&cd, log_n, g) == CZ_OK);
    cz_err e = make_domain(&gd, log_n, g, msg, sizeof msg);
    if (!e && with_scratch) e = cz_cuda_ntt_domain_reserve(gd, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "domain 2^%d g=%llu: %s", log_n, (unsigned long long)g, msg);
    for (int kind = 0; kind < 4 && !e; kind++) {
        if (!(kinds & (1 << kind))) continue;
        rand_vec(x, n);
        memcpy(want, x, n * sizeof *x);
        memcpy(got, x, n * sizeof *x);
        switch (kind) {
        case 0: cz_ntt_forward(&cd, want, pool); break;
        case 1: cz_ntt_inverse(&cd, want, pool); break;
        case 2: cz_ntt_coset_forward(&cd, want, pool); break;
        default: cz_ntt_coset_inverse(&cd, want, pool); break;
        }
        cz_fr *dv[1], *hv[1] = {got};
        e = gpu_vecs(dv, hv, 1, n, msg, sizeof msg);
        if (!e) e = cz_cuda_ntt(gd, dv[0], kind, NULL, msg, sizeof msg);
        if (!e) e = gpu_back(dv, hv, 1, n, msg, sizeof msg);
        CHECK_MSG(e == CZ_OK, "%s 2^%d: %s", kname[kind], log_n, msg);
        long bad = e ? -1 : diff(got, want, n);
        CHECK_MSG(bad == 0, "%s %s 2^%d g=%llu%s: %ld of %zu elements differ", on_gpu ? "gpu" : "host",
                  kname[kind], log_n, (unsigned long long)g, with_scratch ? " (folded bit reversal)" : "", bad, n);
    }
    cz_cuda_ntt_domain_destroy(gd);
    cz_ntt_domain_free(&cd);
    free(x); free(want); free(got);
}

/* the CPU H steps, as the provers run them */
static void cpu_h_bellperson(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c)
{
    size_t n = d->n;
    cz_fr *v[3] = {a, b, c};
    for (int k = 0; k < 3; k++) { cz_ntt_inverse(d, v[k], pool); cz_ntt_coset_forward(d, v[k], pool); }
    cz_fr zinv, one;
    uint64_t e = n;
    cz_fr_pow(&zinv, &d->gen, &e, 1);
    cz_fr_one(&one);
    cz_fr_sub(&zinv, &zinv, &one);
    cz_fr_inv(&zinv, &zinv);
    for (size_t i = 0; i < n; i++) {
        cz_fr_mul(&a[i], &a[i], &b[i]);
        cz_fr_sub(&a[i], &a[i], &c[i]);
        cz_fr_mul(&a[i], &a[i], &zinv);
    }
    cz_ntt_coset_inverse(d, a, pool);
}

static void cpu_h_snarkjs(const cz_ntt_domain *d, const cz_fr *w2n, cz_fr *a, cz_fr *b, cz_fr *c)
{
    size_t n = d->n;
    for (size_t i = 0; i < n; i++) cz_fr_mul(&c[i], &a[i], &b[i]);
    cz_fr *v[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        cz_ntt_inverse(d, v[k], pool);
        cz_ntt_scale_powers(v[k], n, w2n, pool);
        cz_ntt_forward(d, v[k], pool);
    }
    for (size_t i = 0; i < n; i++) {
        cz_fr_mul(&a[i], &a[i], &b[i]);
        cz_fr_sub(&a[i], &a[i], &c[i]);
    }
}

static void check_h(int log_n, uint64_t g, int snarkjs)
{
    size_t n = (size_t)1 << log_n;
    char msg[256];
    cz_ntt_domain cd, cd2;
    cz_cuda_ntt_domain *gd = NULL;
    cz_fr *w = malloc(3 * n * sizeof *w), *h = malloc(3 * n * sizeof *h);
    CHECK(w && h);
    CHECK(cz_ntt_domain_init(&cd, log_n, g) == CZ_OK);
    CHECK(cz_ntt_domain_init(&cd2, log_n + 1, g) == CZ_OK);
    rand_vec(w, 3 * n);
    memcpy(h, w, 3 * n * sizeof *w);
    if (snarkjs) cpu_h_snarkjs(&cd, &cd2.omega, w, w + n, w + 2 * n);
    else cpu_h_bellperson(&cd, w, w + n, w + 2 * n);
    cz_err e = make_domain(&gd, log_n, g, msg, sizeof msg);
    cz_fr *dv[3], *hv[3] = {h, h + n, h + 2 * n};
    if (!e) e = gpu_vecs(dv, hv, 3, n, msg, sizeof msg);
    if (!e) e = snarkjs ? cz_cuda_h_snarkjs(gd, dv[0], dv[1], dv[2], NULL, msg, sizeof msg)
                        : cz_cuda_h_bellperson(gd, dv[0], dv[1], dv[2], NULL, msg, sizeof msg);
    if (!e) e = gpu_back(dv, hv, 3, n, msg, sizeof msg);
    const char *name = snarkjs ? "h_snarkjs" : "h_bellperson";
    CHECK_MSG(e == CZ_OK, "%s 2^%d: %s", name, log_n, msg);
    long bad = e ? -1 : diff(h, w, n);
    CHECK_MSG(bad == 0, "%s %s 2^%d g=%llu: %ld of %zu elements of h differ", on_gpu ? "gpu" : "host", name,
              log_n, (unsigned long long)g, bad, n);
    cz_cuda_ntt_domain_destroy(gd);
    cz_ntt_domain_free(&cd);
    cz_ntt_domain_free(&cd2);
    free(w); free(h);
}
#endif

int main(void)
{
#if !CZ_HAVE_CUDA
    printf("test_cuda_ntt: SKIP (no CUDA device: built without nvcc)\n");
    return 0;
#else
    cz_rng_seed(&rng, cz_test_seed("test_cuda_ntt", 27));
    CHECK(cz_pool_create(&pool, 8) == CZ_OK);
    if (cz_cuda_device_count() == 0) {
        /* host run of the kernels' code: one pass (<= 2^11), two, three (2^21) */
        static const int host_sizes[] = {1, 2, 5, 10, 11, 12, 14};
        for (with_scratch = 0; with_scratch < 2; with_scratch++) {
            for (size_t i = 0; i < sizeof host_sizes / sizeof host_sizes[0]; i++) {
                check_transforms(host_sizes[i], 7, 15);
                check_transforms(host_sizes[i], 5, 15);
            }
            check_transforms(21, 7, with_scratch ? 1 : 1 << 3);
        }
        check_h(10, 7, 0);
        check_h(13, 7, 0);
        check_h(10, 5, 1);
        check_h(13, 5, 1);
        setenv("CZ_NTT_FOLD", "0", 1); /* H's last transform in place, then a bit-reversal pass */
        check_h(13, 7, 0);
        unsetenv("CZ_NTT_FOLD");
        setenv("CZ_H_SEVEN", "1", 1); /* the seven-transform order */
        check_h(13, 7, 0);
        unsetenv("CZ_H_SEVEN");
        /* two levels a shared round trip (the default from 2^22 only) */
        setenv("CZ_NTT_LEVELS", "2", 1);
        for (with_scratch = 0; with_scratch < 2; with_scratch++) {
            for (size_t i = 0; i < sizeof host_sizes / sizeof host_sizes[0]; i++)
                check_transforms(host_sizes[i], 7, 15);
            check_transforms(14, 5, 15);
            check_transforms(21, 5, 1 << (with_scratch ? 2 : 3));
        }
        check_h(13, 7, 0);
        check_h(13, 5, 1);
        /* radix 4 without level 1's unit-twiddle shortcut */
        setenv("CZ_NTT_UNIT1", "0", 1);
        check_transforms(14, 7, 15);
        check_h(13, 7, 0);
        unsetenv("CZ_NTT_UNIT1");
        unsetenv("CZ_NTT_LEVELS");
        /* every butterfly's values canonical (the default keeps them below 2r) */
        setenv("CZ_NTT_LAZY", "0", 1);
        for (with_scratch = 0; with_scratch < 2; with_scratch++) check_transforms(12, 7, 15);
        check_transforms(21, 5, 1 << 2);
        check_h(13, 7, 0);
        check_h(13, 5, 1);
        unsetenv("CZ_NTT_LAZY");
        /* other splits of the levels into passes (CZ_NTT_PASSES), one not
         * summing to k (the plan's own then) */
        static const char *splits[] = {"4,5,5", "6,8", "2,3,4,5", "5,5"};
        for (with_scratch = 0; with_scratch < 2; with_scratch++)
            for (size_t i = 0; i < sizeof splits / sizeof splits[0]; i++) {
                setenv("CZ_NTT_PASSES", splits[i], 1);
                check_transforms(14, 7, 15);
                setenv("CZ_NTT_LEVELS", "2", 1);
                check_transforms(14, 5, 15);
                unsetenv("CZ_NTT_LEVELS");
            }
        unsetenv("CZ_NTT_PASSES");
        {   /* the domain takes the split asked for, and the plan's own for one that does not fit */
            static const struct { const char *v; int np, l0, llast; } want[] = {
                {"4,5,5", 3, 4, 5}, {"2,3,4,5", 4, 2, 5}, {"5,5", 2, 9, 5}, {"4,x,5", 2, 9, 5}, {"10,4", 2, 9, 5},
                {"1,1,1,1,1,1,1,7,5", 2, 9, 5}};
            for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
                char msg[256];
                int lv[8] = {0};
                cz_cuda_ntt_domain *d = NULL;
                setenv("CZ_NTT_PASSES", want[i].v, 1);
                CHECK(cz_cuda_ntt_domain_create_host(&d, 14, 7, msg, sizeof msg) == CZ_OK);
                int np = d ? cz__cuda_ntt_domain_passes(d, lv) : 0;
                CHECK_MSG(np > 0 && np == want[i].np && lv[0] == want[i].l0 && lv[np - 1] == want[i].llast,
                          "CZ_NTT_PASSES=%s: %d passes, %d .. %d levels", want[i].v, np, lv[0], lv[np > 0 ? np - 1 : 0]);
                cz_cuda_ntt_domain_destroy(d);
            }
            unsetenv("CZ_NTT_PASSES");
        }
        {   /* the plan's own splits: the tile first, the rest even, the longer passes last, and
             * from 2^22 (two levels a step) no two passes of odd levels */
            static const struct { int k, np, lv[3]; } plan[] = {
                {14, 2, {9, 5, 0}}, {20, 3, {9, 5, 6}}, {21, 3, {9, 6, 6}}, {22, 3, {10, 6, 6}},
                {23, 3, {10, 6, 7}}, {24, 3, {10, 6, 8}}};
            for (size_t i = 0; i < sizeof plan / sizeof plan[0]; i++) {
                char msg[256];
                int lv[8] = {0};
                cz_cuda_ntt_domain *d = NULL;
                CHECK(cz_cuda_ntt_domain_create_host(&d, plan[i].k, 7, msg, sizeof msg) == CZ_OK);
                int np = d ? cz__cuda_ntt_domain_passes(d, lv) : 0, same = np == plan[i].np;
                for (int p = 0; same && p < np; p++) same = lv[p] == plan[i].lv[p];
                CHECK_MSG(same, "2^%d: the plan's split is %d passes (%d, %d, %d), not %d (%d, %d, %d)", plan[i].k, np,
                          lv[0], lv[1], lv[2], plan[i].np, plan[i].lv[0], plan[i].lv[1], plan[i].lv[2]);
                cz_cuda_ntt_domain_destroy(d);
            }
        }
        with_scratch = 0;
        printf("test_cuda_ntt: SKIP (no CUDA device); the kernels' code run on the host was checked\n");
        cz_pool_destroy(pool);
        return cz_test_finish("test_cuda_ntt");
    }
    on_gpu = 1;
    static const int gpu_sizes[] = {1, 2, 5, 10, 11, 12, 15, 16, 19, 20, 21, 22};
    with_scratch = 1; /* the folded bit reversal at every size */
    for (size_t i = 0; i < sizeof gpu_sizes / sizeof gpu_sizes[0]; i++) {
        check_transforms(gpu_sizes[i], 7, 15);
        check_transforms(gpu_sizes[i], 5, 15);
    }
    /* the bit-reversal pass: element-wise (below 2^8) and tiled, two and
     * three passes after it */
    with_scratch = 0;
    static const int br_sizes[] = {2, 5, 11, 16, 20, 22};
    for (size_t i = 0; i < sizeof br_sizes / sizeof br_sizes[0]; i++) {
        check_transforms(br_sizes[i], 7, 15);
        check_transforms(br_sizes[i], 5, 15);
    }
    static const int h_sizes[] = {10, 12, 16, 21};
    for (size_t i = 0; i < sizeof h_sizes / sizeof h_sizes[0]; i++) {
        check_h(h_sizes[i], 7, 0);
        check_h(h_sizes[i], 5, 1);
    }
    setenv("CZ_NTT_FOLD", "0", 1);
    check_h(16, 7, 0);
    unsetenv("CZ_NTT_FOLD");
    setenv("CZ_H_SEVEN", "1", 1);
    check_h(16, 7, 0);
    unsetenv("CZ_H_SEVEN");
    /* two levels a shared round trip (the default from 2^22 only) */
    setenv("CZ_NTT_LEVELS", "2", 1);
    with_scratch = 1;
    for (size_t i = 0; i < sizeof gpu_sizes / sizeof gpu_sizes[0]; i++) check_transforms(gpu_sizes[i], 7, 15);
    check_transforms(22, 5, 15);
    with_scratch = 0;
    for (size_t i = 0; i < sizeof br_sizes / sizeof br_sizes[0]; i++) check_transforms(br_sizes[i], 7, 15);
    check_h(16, 7, 0);
    check_h(21, 5, 1);
    setenv("CZ_NTT_UNIT1", "0", 1);
    check_transforms(22, 7, 15);
    check_h(16, 7, 0);
    unsetenv("CZ_NTT_UNIT1");
    unsetenv("CZ_NTT_LEVELS");
    setenv("CZ_NTT_LAZY", "0", 1);
    with_scratch = 1;
    check_transforms(16, 7, 15);
    check_transforms(22, 7, 15);
    with_scratch = 0;
    check_transforms(20, 5, 15);
    check_h(16, 7, 0);
    check_h(21, 5, 1);
    unsetenv("CZ_NTT_LAZY");
    with_scratch = 1;
    static const char *gpu_splits[] = {"10,5,7", "9,9,4", "7,7,8"};
    for (size_t i = 0; i < sizeof gpu_splits / sizeof gpu_splits[0]; i++) {
        setenv("CZ_NTT_PASSES", gpu_splits[i], 1);
        check_transforms(22, 7, 15);
        check_h(22, 7, 0);
    }
    unsetenv("CZ_NTT_PASSES");
    cz_pool_destroy(pool);
    return cz_test_finish("test_cuda_ntt");
#endif
}
