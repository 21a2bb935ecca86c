/* bench_ntt.c — NTT timings over Fr (one-shot ops, see cz__bench_once):
 * forward, coset-forward and inverse transforms of 2^12 ... 2^22 random
 * elements, in place, on 1 and 2 threads. Where the CPU has AVX-512 IFMA the
 * default rows take the eight-lane path (poly/ntt_x8.c) and, up to 2^18 on
 * one thread, a row ending in _scalar right after each times the scalar
 * path on the same domain (x8 cleared). Each run transforms the previous
 * run's output (the values do not matter to the time). Before timing, the
 * smallest selected size is checked once: coset forward then coset inverse
 * gives the input back, and both paths give the same forward transform (a
 * WARNING note if not). Only selected sizes get a domain. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "poly/ntt.h"
#include "util/rng.h"

#define LOG_MIN 12
#define LOG_MAX 22
#define SCALAR_LOG_MAX 18 /* largest size with a _scalar row */
#define NKIND 3           /* forward, coset forward, inverse */

typedef struct {
    const cz_ntt_domain *d;
    cz_fr *a;
    cz_pool *pool;
    int kind;
} ntt_state;

static void run_ntt(void *s_, uint64_t iters)
{
    ntt_state *s = s_;
    for (uint64_t i = 0; i < iters; i++) {
        if (s->kind == 1) cz_ntt_coset_forward(s->d, s->a, s->pool);
        else if (s->kind == 2) cz_ntt_inverse(s->d, s->a, s->pool);
        else cz_ntt_forward(s->d, s->a, s->pool);
    }
}

static const char *const kind_op[NKIND] = {"fwd", "coset", "inv"};
static const char *const kind_note[NKIND] = {"forward", "coset forward", "inverse"};

/* scalar: the _scalar row (0 or 1) */
static void op_name(char *out, size_t len, int log_n, int kind, int threads, int scalar)
{
    snprintf(out, len, "ntt_2^%d_%s_t%d%s", log_n, kind_op[kind], threads, scalar ? "_scalar" : "");
}

/* does this size have a _scalar row for this thread count */
static int has_scalar(int log_n, int threads) { return threads == 1 && log_n <= SCALAR_LOG_MAX; }

static void bench_ntt(cz_bench *b)
{
    char name[48];
    int lo = 0, hi = 0;
    for (int l = LOG_MIN; l <= LOG_MAX; l++)
        for (int kind = 0; kind < NKIND; kind++)
            for (int t = 1; t <= 2; t++)
                for (int sc = 0; sc <= has_scalar(l, t); sc++) {
                    op_name(name, sizeof name, l, kind, t, sc);
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
        for (int kind = 0; kind < NKIND; kind++)
            for (int t = 1; t <= 2; t++)
                for (int sc = 0; sc <= has_scalar(l, t); sc++) {
                    op_name(name, sizeof name, l, kind, t, sc);
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
            if (d.x8) {
                cz_ntt_domain ds = d;
                ds.x8 = 0;
                cz_fr *c2 = malloc(n * sizeof *a);
                if (c2) {
                    memcpy(c2, a, n * sizeof *a);
                    cz_ntt_forward(&d, a, pools[2]);
                    cz_ntt_forward(&ds, c2, pools[2]);
                    if (memcmp(c2, a, n * sizeof *a) != 0)
                        cz__bench_note(b, "WARNING: ntt 2^%d: the IFMA and scalar paths differ", l);
                    free(c2);
                }
            }
        }
        cz_ntt_domain ds = d;
        ds.x8 = 0;
        for (int kind = 0; kind < NKIND; kind++)
            for (int t = 1; t <= 2; t++)
                for (int sc = 0; sc <= has_scalar(l, t); sc++) {
                    op_name(name, sizeof name, l, kind, t, sc);
                    ntt_state s = {.d = sc ? &ds : &d, .a = a, .pool = pools[t], .kind = kind};
                    char note[112];
                    snprintf(note, sizeof note, "%s NTT, 2^%d elements, %d thread%s, %s", kind_note[kind], l, t,
                             t > 1 ? "s" : "", (sc || !d.x8) ? "scalar" : "IFMA x8");
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
