/* bench_setup.c — cuzk-cuda-bench setup [k ...]: the insecure Groth16 setup
 * on device 0 (cz_cuda_setup.h) for a synthetic circuit (cz_synth_generate,
 * seed 1) of 2^k - 4 constraints, so that with its 4 input rows the domain
 * is exactly 2^k (default k = 20). The key stays on the device.
 *
 * Prints the time of each phase (synthesis, the scalars on the host, the
 * allocations and tables, each fixed-base run with its points per second,
 * the vk, the total), the key's device bytes, the device allocator's peak
 * and the peak host RSS, then "RESULT setup 2^k <setup ms> <note>". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_setup.h"
#include "circuits/synth.h"
#include "cuda/cz_cuda_setup.h"
#include "cuda/cz_cuda_vram.h"
#include "util/clock.h"
#include "util/pool.h"

static double gib(double b) { return b / (double)(1ull << 30); }

static double peak_rss_bytes(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru)) return 0;
    return (double)ru.ru_maxrss * 1024.0; /* Linux: kilobytes */
}

static int one(int k, cz_pool *pool)
{
    static const char *run_name[CZ_CUDA_SETUP__RUNS] = {"h", "ic", "l", "a", "b_g1", "b_g2 (G2)"};
    char msg[512];
    cz_synth_params p;
    cz_synth_params_init(&p);
    p.n_constraints = ((uint64_t)1 << k) - (1 + p.n_public);
    p.seed = 1;
    cz_r1cs cs;
    cz_fr *w;
    double t0 = cz_now_ms();
    if (cz_synth_generate(&cs, &w, &p, msg, sizeof msg)) {
        fprintf(stderr, "setup 2^%d: synthesis: %s\n", k, msg);
        return 1;
    }
    double synth_ms = cz_now_ms() - t0;
    free(w); /* the setup needs the constraint system only */
    printf("setup 2^%d: %llu constraints, %llu variables, non-zeros A/B/C %llu/%llu/%llu\n", k,
           (unsigned long long)cs.n_constraints, (unsigned long long)cs.n_vars, (unsigned long long)cs.m[0].nnz,
           (unsigned long long)cs.m[1].nnz, (unsigned long long)cs.m[2].nnz);
    printf("  synthesis          %10.1f ms\n", synth_ms);
    cz_groth16_vk vk;
    cz_cuda_pk_dev d;
    cz_cuda_setup_timings t;
    cz_err e = cz__cuda_setup_insecure_ex(&vk, &d, &cs, 1, 0, pool, NULL, &t, msg, sizeof msg);
    if (e) {
        fprintf(stderr, "setup 2^%d: %s\n", k, msg);
        cz_r1cs_free(&cs);
        return 1;
    }
    uint64_t budget = 0, used = 0, peak = 0;
    cz_cuda_vram_stats(0, &budget, &used, &peak);
    double g1_ms = 0, g2_ms = t.fb_ms[CZ_CUDA_SETUP_B_G2];
    printf("  allocs + tables    %10.1f ms\n", t.alloc_ms);
    printf("  scalars (host)     %10.1f ms  (%u threads)\n", t.scalars_ms, cz_pool_threads(pool));
    for (int i = 0; i < CZ_CUDA_SETUP__RUNS; i++) {
        double mps = t.fb_ms[i] > 0 ? (double)t.fb_points[i] / (t.fb_ms[i] * 1e3) : 0;
        printf("  fixed-base %-9s %9.1f ms  %11zu points  %8.2f M/s\n", run_name[i], t.fb_ms[i], t.fb_points[i], mps);
        if (i != CZ_CUDA_SETUP_B_G2) g1_ms += t.fb_ms[i];
    }
    printf("  vk                 %10.1f ms\n", t.vk_ms);
    printf("  setup total        %10.1f ms  (with synthesis %.1f ms)\n", t.total_ms, t.total_ms + synth_ms);
    printf("  key on the device  %10.2f GiB  (%llu bytes); scratch %.2f GiB, chunks of %zu G1 / %zu G2 points\n",
           gib((double)cz_cuda_pk_dev_bytes(&d)), (unsigned long long)cz_cuda_pk_dev_bytes(&d),
           gib((double)t.scratch_bytes), t.chunk_points[0], t.chunk_points[1]);
    printf("  device allocator   %10.2f GiB peak of a %.2f GiB budget\n", gib((double)peak), gib((double)budget));
    printf("  peak host RSS      %10.2f GiB\n", gib(peak_rss_bytes()));
    printf("RESULT setup 2^%d %.1f synth=%.0fms,scalars=%.0fms,g1=%.0fms,g2=%.0fms,key=%.1fGiB,rss=%.1fGiB\n", k,
           t.total_ms, synth_ms, t.scalars_ms, g1_ms, g2_ms, gib((double)cz_cuda_pk_dev_bytes(&d)),
           gib(peak_rss_bytes()));
    fflush(stdout);
    cz_cuda_pk_dev_free(&d);
    cz_groth16_vk_free(&vk);
    cz_r1cs_free(&cs);
    return 0;
}

int cz_bench_setup(const int *ks, int nk)
{
    cz_pool *pool;
    if (cz_pool_create(&pool, 0)) {
        fprintf(stderr, "setup: cannot start the thread pool\n");
        return 1;
    }
    int rc = 0;
    for (int i = 0; i < nk && !rc; i++) {
        rc = one(ks[i], pool);
    }
    cz_pool_destroy(pool);
    return rc;
}
