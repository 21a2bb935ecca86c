/* bench_ntt.c — NTT timings over Fr (one-shot ops, see cz__bench_once):
 * forward and coset-forward transforms of 2^16 ... 2^22 random elements, in
 * place, on 1 and 2 threads. Each run transforms the previous run's output
 * (the values do not matter to the time). Before timing, the smallest
 * selected size is checked once: coset forward then coset inverse gives the
 * input back (a WARNING note if not). Only selected sizes get a domain. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "poly/ntt.h"
#include "util/rng.h"

#define LOG_MIN 16
#define LOG_MAX 22

typedef struct {
    const cz_ntt_domain *d;
    cz_fr *a;
    cz_pool *pool;
    int coset;
} ntt_state;

static void run_ntt(void *s_, uint64_t iters)
{
    ntt_state *s = s_;
    for (uint64_t i = 0; i < iters; i++) {
        if (s->coset) cz_ntt_coset_forward(s->d, s->a, s->pool);
        else cz_ntt_forward(s->d, s->a, s->pool);
    }
}

static void op_name(char *out, size_t len, int log_n, int coset, int threads)
{
    snprintf(out, len, "ntt_2^%d_%s_t%d", log_n, coset ? "coset" : "fwd", threads);
}

static void bench_ntt(cz_bench *b)
{
    char name[48];
    int lo = 0, hi = 0;
    for (int l = LOG_MIN; l <= LOG_MAX; l++)
        for (int coset = 0; coset < 2; coset++)
            for (int t = 1; t <= 2; t++) {
                op_name(name, sizeof name, l, coset, t);
                if (cz__bench_wants(b, name)) {
                    if (!lo) lo = l;
                    hi = l;
                }
            }
    if (!hi) return;

    cz_rng rng;
    cz_rng_seed(&rng, 0x62656e63686e7474ULL);
    size_t nmax = (size_t)1 << hi;
    cz_fr *a = malloc(nmax * sizeof *a), *copy = malloc(((size_t)1 << lo) * sizeof *a);
    cz_pool *pools[3] = {NULL, NULL, NULL};
    if (!a || !copy || cz_pool_create(&pools[1], 1) || cz_pool_create(&pools[2], 2)) {
        cz__bench_note(b, "WARNING: ntt set-up failed (out of memory)");
        goto done;
    }
    for (size_t i = 0; i < nmax; i++) cz_fr_random(&a[i], &rng);

    for (int l = lo; l <= hi; l++) {
        int any = 0;
        for (int coset = 0; coset < 2; coset++)
            for (int t = 1; t <= 2; t++) {
                op_name(name, sizeof name, l, coset, t);
                any |= cz__bench_wants(b, name);
            }
        if (!any) continue;
        cz_ntt_domain d;
        if (cz_ntt_domain_init(&d, l, 7) != CZ_OK) {
            cz__bench_note(b, "WARNING: ntt domain 2^%d failed", l);
            continue;
        }
        if (l == lo) {
            size_t n = d.n;
            memcpy(copy, a, n * sizeof *a);
            cz_ntt_coset_forward(&d, a, pools[2]);
            cz_ntt_coset_inverse(&d, a, pools[2]);
            if (memcmp(copy, a, n * sizeof *a) != 0)
                cz__bench_note(b, "WARNING: ntt 2^%d round trip failed", l);
        }
        for (int coset = 0; coset < 2; coset++)
            for (int t = 1; t <= 2; t++) {
                op_name(name, sizeof name, l, coset, t);
                ntt_state s = {.d = &d, .a = a, .pool = pools[t], .coset = coset};
                char note[96];
                snprintf(note, sizeof note, "%s NTT, 2^%d elements, %d thread%s",
                         coset ? "coset forward" : "forward", l, t, t > 1 ? "s" : "");
                cz__bench_once(b, name, note, run_ntt, &s);
            }
        cz_ntt_domain_free(&d);
    }
done:
    cz_pool_destroy(pools[1]);
    cz_pool_destroy(pools[2]);
    free(a);
    free(copy);
}

CZ_BENCH_GROUP(45, "ntt", bench_ntt)
