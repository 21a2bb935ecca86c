/* test_cuda_spmv.c — the CUDA SpMV against cz_r1cs_spmv on random systems
 * built with the r1cs builder: rows of 0 to 12 non-zeros with a few dense
 * rows (33, 2048, 2049, 5000 and 70000 wide, past the one-thread-per-row
 * limit and across segment boundaries), columns anywhere, coefficients +1,
 * -1 and random; the three matrices get 1-, 2- and 4-byte coefficient
 * indices (A draws from a few coefficients, B from about a thousand, C
 * from more than 65536). Every output element must match bit for bit.
 * Prints a SKIP line without a CUDA build or without a device. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "ff/ff.h"
#include "r1cs/r1cs.h"
#if CZ_HAVE_CUDA
#include "cuda/cz_cuda_spmv.h"
#include "cuda/cz_cuda_ntt.h"
#endif

#if CZ_HAVE_CUDA
static cz_rng rng;

static void coef_for(cz_fr *c, int which, cz_fr *pool_a, cz_fr *pool_b)
{
    uint64_t r = cz_rng_u64(&rng);
    if (r % 10 < 4) { cz_fr_one(c); if (r & 16) cz_fr_neg(c, c); return; }
    if (which == 0) *c = pool_a[(r >> 8) % 40];
    else if (which == 1) *c = pool_b[(r >> 8) % 1000];
    else cz_fr_random(c, &rng); /* distinct: many more than 65536 */
}

static void run_one(uint64_t n_inputs, uint64_t n_aux, uint64_t n_rows, const uint64_t *dense, int ndense)
{
    static cz_fr pa[40], pb[1000];
    for (int i = 0; i < 40; i++) cz_fr_random(&pa[i], &rng);
    for (int i = 0; i < 1000; i++) cz_fr_random(&pb[i], &rng);
    cz_r1cs_builder *b;
    cz_r1cs r;
    CHECK(cz_r1cs_builder_new(&b, n_inputs, n_aux) == CZ_OK);
    uint64_t nv = n_inputs + n_aux;
    for (uint64_t row = 0; row < n_rows; row++) {
        for (int k = 0; k < 3; k++) {
            uint64_t len = cz_rng_u64(&rng) % 13;
            for (int d = 0; d < ndense; d++)
                if (row == (uint64_t)d * 97 + 3) len = dense[d];
            if (k == 2 && row == 5) len = 70000;
            for (uint64_t t = 0; t < len; t++) {
                cz_fr c;
                coef_for(&c, k, pa, pb);
                uint64_t var = t == 0 && row % 7 == 0 ? 0 : cz_rng_u64(&rng) % nv;
                CHECK(cz_r1cs_builder_term(b, k, var, &c) == CZ_OK);
            }
        }
        CHECK(cz_r1cs_builder_end_constraint(b) == CZ_OK);
    }
    CHECK(cz_r1cs_builder_finish(b, &r) == CZ_OK);
    printf("test_cuda_spmv: %llu rows, nnz %llu/%llu/%llu, index bytes %u/%u/%u\n", (unsigned long long)n_rows,
           (unsigned long long)r.m[0].nnz, (unsigned long long)r.m[1].nnz, (unsigned long long)r.m[2].nnz,
           r.m[0].cidx_bytes, r.m[1].cidx_bytes, r.m[2].cidx_bytes);

    cz_fr *w = malloc(nv * sizeof *w), *want = malloc(3 * n_rows * sizeof *want), *got = malloc(3 * n_rows * sizeof *got);
    CHECK(w && want && got);
    for (uint64_t i = 0; i < nv; i++) cz_fr_random(&w[i], &rng);
    cz_fr_one(&w[0]);
    cz_r1cs_spmv(&r, w, want, want + n_rows, want + 2 * n_rows, NULL);

    char msg[256];
    cz_cuda_spmv *s = NULL;
    void *dw = NULL, *dout = NULL;
    cz_err e = cz_cuda_spmv_create(&s, &r, msg, sizeof msg);
    if (!e) e = cz_cuda_malloc(&dw, nv * sizeof *w, msg, sizeof msg);
    if (!e) e = cz_cuda_malloc(&dout, 3 * n_rows * sizeof *w, msg, sizeof msg);
    if (!e) e = cz_cuda_upload(dw, w, nv * sizeof *w, msg, sizeof msg);
    if (!e) {
        memset(got, 0x5a, 3 * n_rows * sizeof *got); /* poison */
        e = cz_cuda_upload(dout, got, 3 * n_rows * sizeof *got, msg, sizeof msg);
    }
    if (!e) e = cz_cuda_spmv_run(s, dw, dout, (cz_fr *)dout + n_rows, (cz_fr *)dout + 2 * n_rows, NULL, msg, sizeof msg);
    if (!e) e = cz_cuda_sync(msg, sizeof msg);
    if (!e) e = cz_cuda_download(got, dout, 3 * n_rows * sizeof *got, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "spmv: %s", msg);
    for (int k = 0; k < 3 && !e; k++) {
        long bad = 0;
        for (uint64_t i = 0; i < n_rows; i++)
            bad += memcmp(&got[k * n_rows + i], &want[k * n_rows + i], sizeof(cz_fr)) != 0;
        CHECK_MSG(bad == 0, "spmv matrix %c: %ld of %llu rows differ", "ABC"[k], bad, (unsigned long long)n_rows);
    }
    cz_cuda_free(dw);
    cz_cuda_free(dout);
    cz_cuda_spmv_destroy(s);
    cz_r1cs_free(&r);
    free(w); free(want); free(got);
}
#endif

int main(void)
{
#if !CZ_HAVE_CUDA
    printf("test_cuda_spmv: SKIP (no CUDA device: built without nvcc)\n");
    return 0;
#else
    if (cz_cuda_device_count() == 0) {
        printf("test_cuda_spmv: SKIP (no CUDA device)\n");
        return 0;
    }
    cz_rng_seed(&rng, cz_test_seed("test_cuda_spmv", 5));
    static const uint64_t dense[] = {33, 2048, 2049, 5000, 32, 31};
    run_one(1, 10, 7, dense, 0);
    run_one(3, 1000, 997, dense, 6);
    run_one(5, 200000, 150001, dense, 6);
    return cz_test_finish("test_cuda_spmv");
#endif
}
