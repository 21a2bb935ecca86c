/* test_cuda_spmv.c — the CUDA SpMV against cz_r1cs_spmv on random systems
 * built with the r1cs builder: rows of 0 to 12 non-zeros with a few dense
 * rows (31, 32, 33, 100, 256, 257, 2048, 2049, 5000 and 70000 wide: past
 * the one-thread-per-row limit, at and past the mid rows' limit, across
 * segment boundaries), columns anywhere, coefficients +1, -1, +2, -2 (a
 * doubling on the device, no product) and random; the three matrices get
 * 1-, 2- and 4-byte coefficient indices (A draws from a few coefficients,
 * B from about a thousand, C from more than 65536). One more system has rows of 0, 1, 2, 31, 32 and
 * 33 non-zeros only, at the short-row limit and across the warp kernels'
 * passes, one of packings (run_packing), and one at the 16-bit offsets'
 * limit (run_span). Every system runs through
 * every short-row mode (thread with 1, 2 and 4 gathers and rows of up to
 * 1, 4, 8 and 32 non-zeros a thread, 16-, 32- and 64-bit offsets; warp and split with their default
 * and with small, large and odd chunks, passes of 32 to 256 non-zeros, 32-
 * and 64-bit offsets) and every output element must match bit for bit.
 * Every mode's kernel code also runs compiled for the host
 * (cz__cuda_spmv_host: the short-row kernels, the mid and long rows cut as
 * on the device) on the systems of up to a few thousand rows, which needs
 * no device. Prints a
 * SKIP line without a CUDA build, or for the device runs without a device. */
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
    if (r % 10 < 6) { cz_fr_from_u64(c, 2); if (r & 16) cz_fr_neg(c, c); return; } /* doublings, no product */
    if (which == 0) *c = pool_a[(r >> 8) % 40];
    else if (which == 1) *c = pool_b[(r >> 8) % 1000];
    else cz_fr_random(c, &rng); /* distinct: many more than 65536 */
}

/* the modes every system runs through: {mode, gather, rows, npl, wide, tmax, bits}; bits 0 is the
 * default (a general coefficient on a 0 or a 1 without a product), 2 always the product; wide 0
 * the narrowest offsets (thread mode: 16-bit where a matrix's groups of 32 rows allow), 1 64-bit,
 * 2 at most 32-bit */
static const cz_cuda_spmv_opts MODES[] = {
    {CZ_SPMV_THREAD, 1, 0, 0, 0, 0, 0}, {CZ_SPMV_THREAD, 2, 0, 0, 0, 0, 0}, {CZ_SPMV_THREAD, 4, 0, 0, 0, 0, 0},
    {CZ_SPMV_THREAD, 2, 0, 0, 0, 1, 0}, {CZ_SPMV_THREAD, 1, 0, 0, 0, 4, 0}, {CZ_SPMV_THREAD, 4, 0, 0, 0, 8, 0},
    {CZ_SPMV_THREAD, 2, 0, 0, 0, 32, 0}, {CZ_SPMV_THREAD, 2, 0, 0, 1, 0, 0}, {CZ_SPMV_THREAD, 1, 0, 0, 1, 4, 0},
    {CZ_SPMV_THREAD, 4, 0, 0, 1, 32, 0}, {CZ_SPMV_THREAD, 2, 0, 0, 0, 0, 2}, {CZ_SPMV_THREAD, 1, 0, 0, 0, 4, 2},
    {CZ_SPMV_THREAD, 2, 0, 0, 2, 0, 0}, {CZ_SPMV_THREAD, 4, 0, 0, 2, 4, 0}, {CZ_SPMV_THREAD, 1, 0, 0, 2, 32, 2},
    {CZ_SPMV_WARP, 0, 0, 4, 0, 0, 0},   {CZ_SPMV_WARP, 0, 0, 8, 0, 0, 0},    {CZ_SPMV_WARP, 0, 32, 1, 0, 0, 0},
    {CZ_SPMV_WARP, 0, 100, 2, 1, 0, 0}, {CZ_SPMV_WARP, 0, 128, 4, 0, 0, 0},  {CZ_SPMV_WARP, 0, 7, 8, 1, 0, 0},
    {CZ_SPMV_SPLIT, 0, 0, 4, 0, 0, 0},  {CZ_SPMV_SPLIT, 0, 0, 8, 1, 0, 0},   {CZ_SPMV_SPLIT, 0, 32, 1, 1, 0, 0},
    {CZ_SPMV_SPLIT, 0, 128, 2, 0, 0, 0}, {CZ_SPMV_SPLIT, 0, 45, 4, 0, 0, 0}, {CZ_SPMV_SPLIT, 0, 1, 1, 0, 0, 0},
    {CZ_SPMV_WARP, 0, 0, 8, 0, 0, 2}, {CZ_SPMV_SPLIT, 0, 0, 4, 0, 0, 2},
};
#define NMODES ((int)(sizeof MODES / sizeof MODES[0]))
#define HOST_ROWS_MAX 5000 /* the host emulation is slow: small systems only */

static void mode_name(char *buf, size_t len, const cz_cuda_spmv_opts *o)
{
    const char *bits = o->bits == 2 ? " products on bits" : "";
    const char *width = o->wide == 1 ? "64-bit" : o->wide ? "32-bit" : o->mode == CZ_SPMV_THREAD ? "narrowest" : "32-bit";
    if (o->mode == CZ_SPMV_THREAD)
        snprintf(buf, len, "thread gather %d tmax %d %s%s", o->gather, o->tmax, width, bits);
    else snprintf(buf, len, "%s rows %d npl %d %s%s", o->mode == CZ_SPMV_WARP ? "warp" : "split", o->rows, o->npl,
                  width, bits);
}

static void compare(const char *where, const cz_fr *got, const cz_fr *want, uint64_t n_rows)
{
    for (int k = 0; k < 3; k++) {
        long bad = 0;
        for (uint64_t i = 0; i < n_rows; i++)
            bad += memcmp(&got[k * n_rows + i], &want[k * n_rows + i], sizeof(cz_fr)) != 0;
        CHECK_MSG(bad == 0, "spmv %s matrix %c: %ld of %llu rows differ", where, "ABC"[k], bad,
                  (unsigned long long)n_rows);
    }
}

static void run_device(const cz_r1cs *r, const cz_fr *w, const cz_fr *want, cz_fr *got, const cz_cuda_spmv_opts *o)
{
    uint64_t nv = r->n_vars, n_rows = r->n_constraints;
    char msg[256], name[64];
    cz_cuda_spmv *s = NULL;
    void *dw = NULL, *dout = NULL;
    mode_name(name, sizeof name, o);
    cz_err e = cz_cuda_spmv_create_opts(&s, r, o, msg, sizeof msg);
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
    CHECK_MSG(e == CZ_OK, "spmv %s: %s", name, msg);
    if (!e) {
        char where[96];
        snprintf(where, sizeof where, "gpu %s", name);
        compare(where, got, want, n_rows);
    }
    cz_cuda_free(dw);
    cz_cuda_free(dout);
    cz_cuda_spmv_destroy(s);
}

static void run_host(const cz_r1cs *r, const cz_fr *w, const cz_fr *want, cz_fr *got, const cz_cuda_spmv_opts *o)
{
    uint64_t n_rows = r->n_constraints;
    char msg[256], name[64], where[96];
    mode_name(name, sizeof name, o);
    memset(got, 0x5a, 3 * n_rows * sizeof *got);
    cz_err e = cz__cuda_spmv_host(r, o, w, got, got + n_rows, got + 2 * n_rows, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "spmv host %s: %s", name, msg);
    snprintf(where, sizeof where, "host %s", name);
    if (!e) compare(where, got, want, n_rows);
}

/* a w of random values, bits (0 and 1: no product), 2 and -1 (w[0] = 1),
 * the CPU's a, b, c, then every mode against them
 * (on the host for the small systems, on the device where there is one);
 * frees r */
static void check_system(cz_r1cs *r, int dev)
{
    const uint64_t nv = r->n_vars, n_rows = r->n_constraints;
    cz_fr *w = malloc(nv * sizeof *w), *want = malloc(3 * n_rows * sizeof *want), *got = malloc(3 * n_rows * sizeof *got);
    CHECK(w && want && got);
    for (uint64_t i = 0; i < nv; i++) {
        uint64_t k = cz_rng_u64(&rng) % 8;
        if (k < 4) cz_fr_random(&w[i], &rng);
        else if (k < 7) cz_fr_from_u64(&w[i], k - 4);
        else { cz_fr_one(&w[i]); cz_fr_neg(&w[i], &w[i]); }
    }
    cz_fr_one(&w[0]);
    cz_r1cs_spmv(r, w, want, want + n_rows, want + 2 * n_rows, NULL);
    for (int m = 0; m < NMODES; m++) {
        if (n_rows <= HOST_ROWS_MAX) run_host(r, w, want, got, &MODES[m]);
        if (dev) run_device(r, w, want, got, &MODES[m]);
    }
    cz_r1cs_free(r);
    free(w); free(want); free(got);
}

/* edge: row lengths from {0, 1, 2, 31, 32, 33} instead of 0..12 */
static void run_one(uint64_t n_inputs, uint64_t n_aux, uint64_t n_rows, const uint64_t *dense, int ndense, int edge,
                    int dev)
{
    static const uint64_t edge_len[] = {0, 1, 2, 31, 32, 33};
    static cz_fr pa[40], pb[1000];
    for (int i = 0; i < 40; i++) cz_fr_random(&pa[i], &rng);
    for (int i = 0; i < 1000; i++) cz_fr_random(&pb[i], &rng);
    cz_r1cs_builder *b;
    cz_r1cs r;
    CHECK(cz_r1cs_builder_new(&b, n_inputs, n_aux) == CZ_OK);
    uint64_t nv = n_inputs + n_aux;
    for (uint64_t row = 0; row < n_rows; row++) {
        for (int k = 0; k < 3; k++) {
            uint64_t len = edge ? edge_len[cz_rng_u64(&rng) % 6] : cz_rng_u64(&rng) % 13;
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
    check_system(&r, dev);
}

/* packings: rows whose coefficients double (or halve) from one non-zero to
 * the next, as sum 2^i b_i makes them, starting at 1, -1, 2 or a random
 * value, some broken in the middle by a random coefficient; lengths at the
 * short, mid and segment limits. The mid and long rows' kernels sum such a
 * run with one product (Horner); a wrong run boundary shows here. */
static void run_packing(int dev)
{
    static const uint64_t lens[] = {1, 3, 9, 33, 40, 100, 255, 256, 257, 300, 2047, 2049, 4100};
    const uint64_t n_rows = 1500, nv = 20000;
    cz_r1cs_builder *b;
    cz_r1cs r;
    CHECK(cz_r1cs_builder_new(&b, 1, nv - 1) == CZ_OK);
    for (uint64_t row = 0; row < n_rows; row++) {
        for (int k = 0; k < 3; k++) {
            uint64_t h = cz_rng_u64(&rng), len = lens[h % 13], col0 = (h >> 8) % nv;
            int start = (int)((h >> 40) % 4), down = (int)((h >> 44) & 1), broken = (h >> 45) % 3 == 0;
            if (k == 1 && row % 2) len = 1 + (h >> 50) % 4; /* some short rows too */
            cz_fr c;
            if (start == 0) cz_fr_one(&c);
            else if (start == 1) { cz_fr_one(&c); cz_fr_neg(&c, &c); }
            else if (start == 2) cz_fr_from_u64(&c, 2);
            else cz_fr_random(&c, &rng);
            /* down: the coefficients halve, so start at c 2^(len-1) */
            cz_fr cur = c;
            if (down)
                for (uint64_t t = 1; t < len; t++) cz_fr_add(&cur, &cur, &cur);
            cz_fr half; /* 1/2 = (r + 1) / 2: 2 half = 1 */
            cz_fr_from_u64(&half, 2);
            cz_fr_inv(&half, &half);
            for (uint64_t t = 0; t < len; t++) {
                cz_fr use = cur;
                if (broken && t == len / 2) cz_fr_random(&use, &rng);
                CHECK(cz_r1cs_builder_term(b, k, (col0 + t) % nv, &use) == CZ_OK);
                if (down) cz_fr_mul(&cur, &cur, &half);
                else cz_fr_add(&cur, &cur, &cur);
            }
        }
        CHECK(cz_r1cs_builder_end_constraint(b) == CZ_OK);
    }
    CHECK(cz_r1cs_builder_finish(b, &r) == CZ_OK);
    printf("test_cuda_spmv: packings, %llu rows, nnz %llu/%llu/%llu\n", (unsigned long long)n_rows,
           (unsigned long long)r.m[0].nnz, (unsigned long long)r.m[1].nnz, (unsigned long long)r.m[2].nnz);
    check_system(&r, dev);
}
/* thread mode's 16-bit offsets at their limit: in A the first group of 32
 * rows spans exactly 0xffff non-zeros (a 65505-wide row, then 30 rows of
 * one), in B one more (16 bits do not hold it, so B's offsets are 32-bit),
 * C's rows are short; n_rows not a multiple of 32, so the last group is
 * partial. The widths offset_bits picks are checked, then every mode's
 * sums. */
static void run_span(int dev)
{
    const uint64_t n_rows = 200, nv = 70000;
    cz_r1cs_builder *b;
    cz_r1cs r;
    CHECK(cz_r1cs_builder_new(&b, 1, nv - 1) == CZ_OK);
    for (uint64_t row = 0; row < n_rows; row++) {
        for (int k = 0; k < 3; k++) {
            uint64_t len = 1 + cz_rng_u64(&rng) % 6;
            if (row == 0 && k < 2) len = 65505 + (uint64_t)k;
            else if (row >= 1 && row <= 30 && k < 2) len = 1;
            for (uint64_t t = 0; t < len; t++) {
                cz_fr c;
                uint64_t h = cz_rng_u64(&rng);
                if (h % 4 == 0) cz_fr_random(&c, &rng);
                else cz_fr_from_u64(&c, 1 + h % 3);
                CHECK(cz_r1cs_builder_term(b, k, (row * 7 + t) % nv, &c) == CZ_OK);
            }
        }
        CHECK(cz_r1cs_builder_end_constraint(b) == CZ_OK);
    }
    CHECK(cz_r1cs_builder_finish(b, &r) == CZ_OK);
    const cz_cuda_spmv_opts narrow = {CZ_SPMV_THREAD, 2, 0, 0, 0, 0, 0}, o32 = {CZ_SPMV_THREAD, 2, 0, 0, 2, 0, 0},
                            o64 = {CZ_SPMV_THREAD, 2, 0, 0, 1, 0, 0}, warp = {CZ_SPMV_WARP, 0, 0, 8, 0, 0, 0};
    CHECK(r.m[0].row_ptr[31] - r.m[0].row_ptr[0] == 0xffff);
    CHECK(r.m[1].row_ptr[31] - r.m[1].row_ptr[0] == 0x10000);
    CHECK_MSG(cz__cuda_spmv_offset_bits(&r.m[0], &narrow) == 16, "A's offsets: %d bits, not 16",
              cz__cuda_spmv_offset_bits(&r.m[0], &narrow));
    CHECK_MSG(cz__cuda_spmv_offset_bits(&r.m[1], &narrow) == 32, "B's offsets: %d bits, not 32",
              cz__cuda_spmv_offset_bits(&r.m[1], &narrow));
    CHECK(cz__cuda_spmv_offset_bits(&r.m[2], &narrow) == 16);
    CHECK(cz__cuda_spmv_offset_bits(&r.m[0], &o32) == 32);
    CHECK(cz__cuda_spmv_offset_bits(&r.m[0], &o64) == 64);
    CHECK(cz__cuda_spmv_offset_bits(&r.m[2], &warp) == 32);
    printf("test_cuda_spmv: 16-bit offsets at their limit, %llu rows, nnz %llu/%llu/%llu\n",
           (unsigned long long)n_rows, (unsigned long long)r.m[0].nnz, (unsigned long long)r.m[1].nnz,
           (unsigned long long)r.m[2].nnz);
    check_system(&r, dev);
}
#endif

int main(void)
{
#if !CZ_HAVE_CUDA
    printf("test_cuda_spmv: SKIP (no CUDA device: built without nvcc)\n");
    return 0;
#else
    int dev = cz_cuda_device_count() > 0;
    cz_rng_seed(&rng, cz_test_seed("test_cuda_spmv", 5));
    static const uint64_t dense[] = {33, 2048, 2049, 5000, 32, 31, 100, 256, 257};
    run_one(1, 10, 7, dense, 0, 0, dev);
    run_one(3, 1000, 997, dense, 9, 0, dev);
    run_one(5, 200000, 150001, dense, 9, 0, dev);
    run_one(2, 3000, 3001, dense, 9, 1, dev);
    run_packing(dev);
    run_span(dev);
    if (!dev)
        printf("test_cuda_spmv: SKIP (no CUDA device); every mode's kernel code compiled for the host was "
               "checked\n");
    return cz_test_finish("test_cuda_spmv");
#endif
}
