/* test_cuda_ff.c — the CUDA field arithmetic (src/cuda/ff.cuh) against the
 * CPU functions: every operation of Fr, Fp and Fp2 on random elements and
 * on the edges (0, 1, 2, m-1, m-2, values just under the modulus and powers
 * of two), all pairs of edges included. Two runs: the device code compiled
 * for the host (the PTX carry chains emulated), which needs no GPU, and the
 * kernels on device 0 when there is one. Without a CUDA build, or without a
 * device, it prints a SKIP line for what it could not run. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "ff/ff.h"
#include "ff/tower.h"
#if CZ_HAVE_CUDA
#include "cuda/cz_cuda_ff.h"
#endif

#if CZ_HAVE_CUDA
#define NEDGE 12
#define NRAND 3000
#define NTOT (NRAND + NEDGE * NEDGE)

/* edges as raw limbs (the Montgomery representation itself) */
static void edges(uint64_t out[NEDGE][6], const uint64_t *m, int nl)
{
    memset(out, 0, sizeof(uint64_t) * NEDGE * 6);
    out[1][0] = 1;
    out[2][0] = 2;
    for (int k = 3; k <= 6; k++) { /* m-1, m-2, m-2^32, m-2^64 */
        memcpy(out[k], m, 8 * nl);
        uint64_t d = k == 3 ? 1 : k == 4 ? 2 : k == 5 ? (1ull << 32) : 0;
        if (k == 6) out[k][1] -= 1;
        else out[k][0] -= d;
    }
    memcpy(out[7], m, 8 * nl); /* top limb of m, rest zero */
    memset(out[7], 0, 8 * (nl - 1));
    for (int k = 0; k < nl - 1; k++) out[8][k] = ~0ull; /* 2^(64(nl-1)) - 1 */
    out[9][nl - 1] = 1;                             /* 2^(64(nl-1)) */
    for (int k = 0; k < nl; k++) out[10][k] = m[k] >> 1; /* about m/2 */
    out[11][0] = 0xffffffffull;                     /* 2^32 - 1 */
}

static cz_rng rng;

static void fill_fr(cz_fr *a, cz_fr *b)
{
    uint64_t e[NEDGE][6];
    edges(e, cz_fr_modulus.l, 4);
    for (int i = 0; i < NRAND; i++) { cz_fr_random(&a[i], &rng); cz_fr_random(&b[i], &rng); }
    for (int i = 0; i < NEDGE; i++)
        for (int j = 0; j < NEDGE; j++) {
            memcpy(a[NRAND + i * NEDGE + j].l, e[i], 32);
            memcpy(b[NRAND + i * NEDGE + j].l, e[j], 32);
        }
}

static void fill_fp(cz_fp *a, cz_fp *b)
{
    uint64_t e[NEDGE][6];
    edges(e, cz_fp_modulus.l, 6);
    for (int i = 0; i < NRAND; i++) { cz_fp_random(&a[i], &rng); cz_fp_random(&b[i], &rng); }
    for (int i = 0; i < NEDGE; i++)
        for (int j = 0; j < NEDGE; j++) {
            memcpy(a[NRAND + i * NEDGE + j].l, e[i], 48);
            memcpy(b[NRAND + i * NEDGE + j].l, e[j], 48);
        }
}

typedef cz_err (*batch_fn)(int, int, void *, const void *, const void *, size_t, char *, size_t);

static const char *opname[] = {"mul", "sqr", "add", "sub", "neg", "dbl", "to_mont", "from_mont",
                               "mul_eo", "mul_64", "mul_xi", "mul_eo_plain", "mul_lazy", "mul_f64",
                               "mul_ka", "mul_lazy_ka", "mul_sub_lazy", "mul_pair", "mul_sub_pair",
                               "mul_lt2", "add_lt2", "sub_lt2"};

static void run_fr(batch_fn fn, const char *where)
{
    static cz_fr a[NTOT], b[NTOT], got[NTOT], want[NTOT];
    char msg[256];
    fill_fr(a, b);
    for (int op = CZ_CUDA_OP_MUL; op <= CZ_CUDA_OP_MUL_KA; op++) {
        if (op == CZ_CUDA_OP_MUL_XI || op == CZ_CUDA_OP_MUL_LAZY) continue; /* Fp2 only */
        cz_err e = fn(CZ_CUDA_FR, op, got, a, b, NTOT, msg, sizeof msg);
        CHECK_MSG(e == CZ_OK, "%s fr %s: %s", where, opname[op], msg);
        if (e) return;
        long bad = 0;
        for (int i = 0; i < NTOT; i++) {
            switch (op) {
            case CZ_CUDA_OP_SQR: cz_fr_sqr(&want[i], &a[i]); break;
            case CZ_CUDA_OP_ADD: cz_fr_add(&want[i], &a[i], &b[i]); break;
            case CZ_CUDA_OP_SUB: cz_fr_sub(&want[i], &a[i], &b[i]); break;
            case CZ_CUDA_OP_NEG: cz_fr_neg(&want[i], &a[i]); break;
            case CZ_CUDA_OP_DBL: cz_fr_dbl(&want[i], &a[i]); break;
            case CZ_CUDA_OP_TO_MONT: cz_fr_to_mont(&want[i], &a[i]); break;
            case CZ_CUDA_OP_FROM_MONT: cz_fr_from_mont(&want[i], &a[i]); break;
            default: cz_fr_mul(&want[i], &a[i], &b[i]); break;
            }
            if (memcmp(&got[i], &want[i], sizeof want[i])) {
                if (bad++ < 3)
                    fprintf(stderr, "%s fr %s: element %d differs (a limb0 %016llx b limb0 %016llx)\n", where,
                            opname[op], i, (unsigned long long)a[i].l[0], (unsigned long long)b[i].l[0]);
            }
        }
        CHECK_MSG(bad == 0, "%s fr %s: %ld of %d wrong", where, opname[op], bad, NTOT);
    }
}

static void run_fp(batch_fn fn, const char *where)
{
    static cz_fp a[NTOT], b[NTOT], got[NTOT], want[NTOT];
    char msg[256];
    fill_fp(a, b);
    for (int op = CZ_CUDA_OP_MUL; op <= CZ_CUDA_OP_MUL_KA; op++) {
        if (op == CZ_CUDA_OP_MUL_XI || op == CZ_CUDA_OP_MUL_LAZY) continue; /* Fp2 only */
        cz_err e = fn(CZ_CUDA_FP, op, got, a, b, NTOT, msg, sizeof msg);
        CHECK_MSG(e == CZ_OK, "%s fp %s: %s", where, opname[op], msg);
        if (e) return;
        long bad = 0;
        for (int i = 0; i < NTOT; i++) {
            switch (op) {
            case CZ_CUDA_OP_SQR: cz_fp_sqr(&want[i], &a[i]); break;
            case CZ_CUDA_OP_ADD: cz_fp_add(&want[i], &a[i], &b[i]); break;
            case CZ_CUDA_OP_SUB: cz_fp_sub(&want[i], &a[i], &b[i]); break;
            case CZ_CUDA_OP_NEG: cz_fp_neg(&want[i], &a[i]); break;
            case CZ_CUDA_OP_DBL: cz_fp_dbl(&want[i], &a[i]); break;
            case CZ_CUDA_OP_TO_MONT: cz_fp_to_mont(&want[i], &a[i]); break;
            case CZ_CUDA_OP_FROM_MONT: cz_fp_from_mont(&want[i], &a[i]); break;
            default: cz_fp_mul(&want[i], &a[i], &b[i]); break;
            }
            if (memcmp(&got[i], &want[i], sizeof want[i])) {
                if (bad++ < 3)
                    fprintf(stderr, "%s fp %s: element %d differs\n", where, opname[op], i);
            }
        }
        CHECK_MSG(bad == 0, "%s fp %s: %ld of %d wrong", where, opname[op], bad, NTOT);
    }
}

static void run_fp2(batch_fn fn, const char *where)
{
    static cz_fp2 a[NTOT], b[NTOT], got[NTOT], want[NTOT];
    static cz_fp x[NTOT], y[NTOT];
    char msg[256];
    fill_fp(x, y); /* c0 from the edges/random, c1 from the same set shifted */
    for (int i = 0; i < NTOT; i++) {
        a[i].c0 = x[i];
        a[i].c1 = y[(i + 7) % NTOT];
        b[i].c0 = y[i];
        b[i].c1 = x[(i * 13 + 5) % NTOT];
    }
    /* the lane-pair ops run on the device only (they need a warp) */
    static const int ops[] = {CZ_CUDA_OP_MUL, CZ_CUDA_OP_SQR, CZ_CUDA_OP_ADD, CZ_CUDA_OP_SUB,
                              CZ_CUDA_OP_NEG, CZ_CUDA_OP_DBL, CZ_CUDA_OP_MUL_XI, CZ_CUDA_OP_MUL_LAZY,
                              CZ_CUDA_OP_MUL_LAZY_KA, CZ_CUDA_OP_MUL_SUB_LAZY, CZ_CUDA_OP_MUL_PAIR,
                              CZ_CUDA_OP_MUL_SUB_PAIR};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        int op = ops[k];
        if ((op == CZ_CUDA_OP_MUL_PAIR || op == CZ_CUDA_OP_MUL_SUB_PAIR) && fn == cz_cuda_ff_batch_host) {
            cz_err e = fn(CZ_CUDA_FP2, op, got, a, b, NTOT, msg, sizeof msg);
            CHECK_MSG(e == CZ_ERR_UNSUPPORTED, "%s fp2 %s: the host refuses lane-pair ops (got %d)", where,
                      opname[op], (int)e);
            continue;
        }
        cz_err e = fn(CZ_CUDA_FP2, op, got, a, b, NTOT, msg, sizeof msg);
        CHECK_MSG(e == CZ_OK, "%s fp2 %s: %s", where, opname[op], msg);
        if (e) return;
        long bad = 0;
        for (int i = 0; i < NTOT; i++) {
            switch (op) {
            case CZ_CUDA_OP_SQR: cz_fp2_sqr(&want[i], &a[i]); break;
            case CZ_CUDA_OP_ADD: cz_fp2_add(&want[i], &a[i], &b[i]); break;
            case CZ_CUDA_OP_SUB: cz_fp2_sub(&want[i], &a[i], &b[i]); break;
            case CZ_CUDA_OP_NEG: cz_fp2_neg(&want[i], &a[i]); break;
            case CZ_CUDA_OP_DBL: cz_fp2_dbl(&want[i], &a[i]); break;
            case CZ_CUDA_OP_MUL_XI: cz_fp2_mul_by_xi(&want[i], &a[i]); break;
            case CZ_CUDA_OP_MUL_SUB_LAZY:
            case CZ_CUDA_OP_MUL_SUB_PAIR: { /* a b - (a + b)(a - b) */
                cz_fp2 c, d, ab, cd;
                cz_fp2_add(&c, &a[i], &b[i]);
                cz_fp2_sub(&d, &a[i], &b[i]);
                cz_fp2_mul(&ab, &a[i], &b[i]);
                cz_fp2_mul(&cd, &c, &d);
                cz_fp2_sub(&want[i], &ab, &cd);
                break;
            }
            default: cz_fp2_mul(&want[i], &a[i], &b[i]); break;
            }
            if (memcmp(&got[i], &want[i], sizeof want[i])) {
                if (bad++ < 3) fprintf(stderr, "%s fp2 %s: element %d differs\n", where, opname[op], i);
            }
        }
        CHECK_MSG(bad == 0, "%s fp2 %s: %ld of %d wrong", where, opname[op], bad, NTOT);
    }
}

/* limbs of nl words: a < b; r = a + b and r = a - b (no carry out: the
 * callers stay below 2m < 2^(64 nl)) */
static int lt_limbs(const uint64_t *a, const uint64_t *b, int nl)
{
    for (int k = nl - 1; k >= 0; k--)
        if (a[k] != b[k]) return a[k] < b[k];
    return 0;
}
static void add_limbs(uint64_t *r, const uint64_t *a, const uint64_t *b, int nl)
{
    unsigned __int128 c = 0;
    for (int k = 0; k < nl; k++) {
        c += (unsigned __int128)a[k] + b[k];
        r[k] = (uint64_t)c;
        c >>= 64;
    }
}
static void sub_limbs(uint64_t *r, const uint64_t *a, const uint64_t *b, int nl)
{
    uint64_t br = 0;
    for (int k = 0; k < nl; k++) {
        uint64_t d = a[k] - b[k] - br;
        br = (a[k] < b[k]) || (a[k] == b[k] && br);
        r[k] = d;
    }
}

/* The ops that keep values below 2m (the NTT's butterflies): inputs lifted
 * by m for about half the elements (so the edges reach 2m - 1, 2m - 2, m,
 * ...), each output checked below 2m and, less m where it is not below m,
 * against the CPU's result for the canonical inputs. MUL_LT2 lifts only
 * its second operand (the first is a twiddle, canonical). */
static void run_lt2(batch_fn fn, const char *where, int field)
{
    static cz_fp ea[NTOT], eb[NTOT]; /* cz_fp is the larger: Fr uses the first 4 limbs */
    static uint64_t a[NTOT][6], b[NTOT][6], a2[NTOT][6], b2[NTOT][6], got[NTOT][6];
    const int nl = field == CZ_CUDA_FR ? 4 : 6;
    const uint64_t *m = field == CZ_CUDA_FR ? cz_fr_modulus.l : cz_fp_modulus.l;
    const char *fname = field == CZ_CUDA_FR ? "fr" : "fp";
    uint64_t m2[6] = {0};
    char msg[256];
    add_limbs(m2, m, m, nl);
    if (field == CZ_CUDA_FR) {
        static cz_fr ra[NTOT], rb[NTOT];
        fill_fr(ra, rb);
        for (int i = 0; i < NTOT; i++) { memcpy(ea[i].l, ra[i].l, 32); memcpy(eb[i].l, rb[i].l, 32); }
    } else {
        fill_fp(ea, eb);
    }
    for (int i = 0; i < NTOT; i++) {
        memcpy(a[i], ea[i].l, 8 * nl);
        memcpy(b[i], eb[i].l, 8 * nl);
    }
    static const int ops[] = {CZ_CUDA_OP_MUL_LT2, CZ_CUDA_OP_ADD_LT2, CZ_CUDA_OP_SUB_LT2};
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        const int op = ops[o];
        /* packed arrays of nl limbs an element, as the batch expects */
        static uint64_t pa[NTOT * 6], pb[NTOT * 6], pg[NTOT * 6];
        for (int i = 0; i < NTOT; i++) {
            const int lift_a = op != CZ_CUDA_OP_MUL_LT2 && (i & 1), lift_b = (i >> 1) & 1;
            if (lift_a) add_limbs(a2[i], a[i], m, nl); else memcpy(a2[i], a[i], 8 * nl);
            if (lift_b) add_limbs(b2[i], b[i], m, nl); else memcpy(b2[i], b[i], 8 * nl);
            memcpy(pa + i * nl, a2[i], 8 * nl);
            memcpy(pb + i * nl, b2[i], 8 * nl);
        }
        cz_err e = fn(field, op, pg, pa, pb, NTOT, msg, sizeof msg);
        CHECK_MSG(e == CZ_OK, "%s %s %s: %s", where, fname, opname[op], msg);
        if (e) return;
        long bad = 0, above = 0, lifted_out = 0;
        for (int i = 0; i < NTOT; i++) {
            uint64_t want[6] = {0}, g[6] = {0};
            memcpy(got[i], pg + i * nl, 8 * nl);
            if (field == CZ_CUDA_FR) {
                cz_fr x, y, w;
                memcpy(x.l, a[i], 32);
                memcpy(y.l, b[i], 32);
                if (op == CZ_CUDA_OP_MUL_LT2) cz_fr_mul(&w, &x, &y);
                else if (op == CZ_CUDA_OP_ADD_LT2) cz_fr_add(&w, &x, &y);
                else cz_fr_sub(&w, &x, &y);
                memcpy(want, w.l, 32);
            } else {
                cz_fp x, y, w;
                memcpy(x.l, a[i], 48);
                memcpy(y.l, b[i], 48);
                if (op == CZ_CUDA_OP_MUL_LT2) cz_fp_mul(&w, &x, &y);
                else if (op == CZ_CUDA_OP_ADD_LT2) cz_fp_add(&w, &x, &y);
                else cz_fp_sub(&w, &x, &y);
                memcpy(want, w.l, 48);
            }
            if (!lt_limbs(got[i], m2, nl)) {
                if (above++ < 3) fprintf(stderr, "%s %s %s: element %d not below 2m\n", where, fname, opname[op], i);
                continue;
            }
            if (lt_limbs(got[i], m, nl)) memcpy(g, got[i], 8 * nl);
            else { sub_limbs(g, got[i], m, nl); lifted_out++; }
            if (memcmp(g, want, 8 * nl) && bad++ < 3)
                fprintf(stderr, "%s %s %s: element %d differs\n", where, fname, opname[op], i);
        }
        CHECK_MSG(above == 0, "%s %s %s: %ld of %d outputs not below 2m", where, fname, opname[op], above, NTOT);
        CHECK_MSG(bad == 0, "%s %s %s: %ld of %d wrong", where, fname, opname[op], bad, NTOT);
        /* the ops must leave values in [m, 2m) (else they reduce fully and
         * the test does not see the bound it is for) */
        CHECK_MSG(lifted_out > 0, "%s %s %s: no output in [m, 2m)", where, fname, opname[op]);
    }
}
#endif

int main(void)
{
#if !CZ_HAVE_CUDA
    printf("test_cuda_ff: SKIP (no CUDA device: built without nvcc)\n");
    return 0;
#else
    cz_rng_seed(&rng, cz_test_seed("test_cuda_ff", 9));
    run_fr(cz_cuda_ff_batch_host, "host");
    run_fp(cz_cuda_ff_batch_host, "host");
    run_fp2(cz_cuda_ff_batch_host, "host");
    run_lt2(cz_cuda_ff_batch_host, "host", CZ_CUDA_FR);
    run_lt2(cz_cuda_ff_batch_host, "host", CZ_CUDA_FP);
    if (cz_cuda_device_count() == 0) {
        printf("test_cuda_ff: SKIP (no CUDA device); the kernels' code compiled for the host was checked\n");
        return cz_test_finish("test_cuda_ff");
    }
    run_fr(cz_cuda_ff_batch, "gpu");
    run_fp(cz_cuda_ff_batch, "gpu");
    run_fp2(cz_cuda_ff_batch, "gpu");
    run_lt2(cz_cuda_ff_batch, "gpu", CZ_CUDA_FR);
    run_lt2(cz_cuda_ff_batch, "gpu", CZ_CUDA_FP);
    return cz_test_finish("test_cuda_ff");
#endif
}
