/* cuda_bench.c — cuzk-cuda-bench: kernel benchmarks on device 0.
 *
 *   cuzk-cuda-bench ff               Fr / Fp / Fp2 multiplications per second
 *                                    for each schedule, against the IMAD
 *                                    ceiling (SMs x 64 x measured clock)
 *   cuzk-cuda-bench ntt [k ...]      forward NTT, natural order, 2^k
 *                                    (default 10 16 20 22 24 26 27), plus the
 *                                    H pipelines at 2^20, 2^24 and the largest k
 *   cuzk-cuda-bench spmv [k ...]     synthetic Filecoin-shaped SpMV, 2^k rows
 *                                    (default 20 24 27), the short-row kernel
 *                                    from CZ_SPMV_MODE and its knobs
 *                                    (cz_cuda_spmv.h), named in the line
 *   cuzk-cuda-bench spmv-circuit NAME [--copies N] [--key value ...]
 *                                    the same on a real gadget circuit's
 *                                    system, N copies (bench_spmv_circuit.c)
 *   cuzk-cuda-bench setup [k ...]    the insecure Groth16 setup of a synthetic
 *                                    circuit with a 2^k domain (default 20;
 *                                    bench_setup.c)
 *
 * Every result is one line "RESULT kernel size ms note" (scripts/gpu-check.sh
 * collects them into its table) after the human-readable lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda/cz_cuda_ff.h"
#include "cuda/cz_cuda_ntt.h"
#include "cuda/cz_cuda_spmv.h"
#include "bench_setup.h"
#include "bench_spmv_circuit.h"

static int bench_ff(void)
{
    static const struct { int field, op; const char *name; int words; } cases[] = {
        {CZ_CUDA_FR, CZ_CUDA_OP_MUL_EO, "fr_mul_eo", 8},  {CZ_CUDA_FR, CZ_CUDA_OP_MUL_EO_PLAIN, "fr_mul_plain", 8},
        {CZ_CUDA_FR, CZ_CUDA_OP_MUL_64, "fr_mul_64", 8},
        {CZ_CUDA_FR, CZ_CUDA_OP_SQR, "fr_sqr", 8},        {CZ_CUDA_FP, CZ_CUDA_OP_MUL_EO, "fp_mul_eo", 12},
        {CZ_CUDA_FP, CZ_CUDA_OP_MUL_64, "fp_mul_64", 12}, {CZ_CUDA_FP, CZ_CUDA_OP_SQR, "fp_sqr", 12},
        {CZ_CUDA_FP2, CZ_CUDA_OP_MUL, "fp2_mul", 12},
        /* the FP64 schedule (ff_f64.cuh): the ceiling column is still the IMAD one */
        {CZ_CUDA_FR, CZ_CUDA_OP_MUL_F64, "fr_mul_f64", 8}, {CZ_CUDA_FP, CZ_CUDA_OP_MUL_F64, "fp_mul_f64", 12},
        /* Karatsuba products (ff.cuh mul_ka / mul2_ka) and the schoolbook
         * Fp2 product with one reduction a half (the lane pairs' form) */
        {CZ_CUDA_FR, CZ_CUDA_OP_MUL_KA, "fr_mul_ka", 8},  {CZ_CUDA_FP, CZ_CUDA_OP_MUL_KA, "fp_mul_ka", 12},
        {CZ_CUDA_FP2, CZ_CUDA_OP_MUL_LAZY, "fp2_lazy", 12}, {CZ_CUDA_FP2, CZ_CUDA_OP_MUL_LAZY_KA, "fp2_lazy_ka", 12},
    };
    char msg[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double per_s, ms, mhz;
        int sms;
        cz_err e = cz_cuda_ff_bench(cases[i].field, cases[i].op, &per_s, &ms, &mhz, &sms, msg, sizeof msg);
        if (e) { fprintf(stderr, "ff bench %s: %s\n", cases[i].name, msg); return 1; }
        /* ceiling: IMAD/s over the 4 n^2 multiply-adds a CIOS product needs
         * (n 32-bit words; Fp2 counts its 3 Fp products) */
        double imad = (double)sms * 64 * mhz * 1e6;
        double need = 4.0 * cases[i].words * cases[i].words * (cases[i].field == CZ_CUDA_FP2 ? 3 : 1);
        double ceil = imad / need;
        printf("%-10s %8.2f G/s  clock %4.0f MHz, %d SMs, IMAD %.2f T/s, ceiling %.2f G/s -> %.1f%%\n",
               cases[i].name, per_s / 1e9, mhz, sms, imad / 1e12, ceil / 1e9, 100 * per_s / ceil);
        printf("RESULT %s - %.3f %.2fG/s=%.1f%%ceil\n", cases[i].name, ms, per_s / 1e9, 100 * per_s / ceil);
    }
    return 0;
}

static int bench_ntt(const int *ks, int nk)
{
    char msg[256];
    int kmax = 0;
    for (int i = 0; i < nk; i++) {
        double ms;
        int reps = ks[i] >= 26 ? 5 : 11;
        cz_err e = cz_cuda_ntt_bench(ks[i], 7, CZ_CUDA_NTT_FORWARD, reps, &ms, msg, sizeof msg);
        if (e) { fprintf(stderr, "ntt 2^%d: %s\n", ks[i], msg); return 1; }
        double bytes = 32.0 * ((double)(1ull << ks[i])); /* one element */
        printf("ntt 2^%-2d forward   %9.3f ms\n", ks[i], ms);
        printf("RESULT ntt_fwd 2^%d %.3f %.0fGB/s-per-pass\n", ks[i], ms, 2 * bytes / (ms * 1e-3) / 1e9);
        if (ks[i] > kmax) kmax = ks[i];
        if (ks[i] == 24 || ks[i] == kmax) {
            e = cz_cuda_ntt_bench(ks[i], 7, CZ_CUDA_NTT_COSET_INVERSE, reps, &ms, msg, sizeof msg);
            if (e) { fprintf(stderr, "ntt coset inverse 2^%d: %s\n", ks[i], msg); return 1; }
            printf("RESULT ntt_coset_inv 2^%d %.3f -\n", ks[i], ms);
        }
    }
    static const int hk[] = {20, 24, 27};
    const char *hv = getenv("CUZK_BENCH_H"); /* CUZK_BENCH_H=0: transforms only */
    for (size_t i = 0; i < sizeof hk / sizeof hk[0]; i++) {
        if (hk[i] > kmax || (hv && !strcmp(hv, "0"))) continue;
        double ms;
        cz_err e = cz_cuda_ntt_bench(hk[i], 7, 4, 5, &ms, msg, sizeof msg);
        if (e) { fprintf(stderr, "h bellperson 2^%d: %s\n", hk[i], msg); return 1; }
        const char *seven = getenv("CZ_H_SEVEN"); /* =1: the seven-transform order */
        printf("RESULT h_bellperson 2^%d %.3f %s\n", hk[i], ms, seven && !strcmp(seven, "1") ? "7-NTTs" : "6-NTTs");
        e = cz_cuda_ntt_bench(hk[i], 5, 5, 5, &ms, msg, sizeof msg);
        if (e) { fprintf(stderr, "h snarkjs 2^%d: %s\n", hk[i], msg); return 1; }
        printf("RESULT h_snarkjs 2^%d %.3f 6-NTTs\n", hk[i], ms);
    }
    return 0;
}

static int bench_spmv(const int *ks, int nk)
{
    char msg[256], desc[256];
    for (int i = 0; i < nk; i++) {
        double ms, bytes, gbytes;
        uint64_t nnz;
        cz_err e = cz_cuda_spmv_bench_opts(ks[i], 5, NULL, &ms, &bytes, &gbytes, &nnz, desc, sizeof desc, msg,
                                           sizeof msg);
        if (e) { fprintf(stderr, "spmv 2^%d: %s\n", ks[i], msg); return 1; }
        double floor_ms = bytes / 4.8e12 * 1e3, gfloor_ms = (bytes + gbytes) / 4.8e12 * 1e3;
        printf("spmv 2^%d [%s]: %llu nnz, %.3f ms, floor %.3f ms (%.1f GB at 4.8 TB/s) -> %.2fx; with the random "
               "gathers as 32-byte sectors %.3f ms (%.1f GB) -> %.2fx\n", ks[i], desc,
               (unsigned long long)nnz, ms, floor_ms, bytes / 1e9, ms / floor_ms, gfloor_ms, (bytes + gbytes) / 1e9,
               ms / gfloor_ms);
        char mode[16];
        sscanf(desc, "%15s", mode);
        printf("RESULT spmv 2^%d %.3f %.2fx-floor,%.2fx-gather-floor,%lluM-nnz,%s\n", ks[i], ms, ms / floor_ms,
               ms / gfloor_ms, (unsigned long long)(nnz / 1000000), mode);
    }
    return 0;
}

#define MAX_SIZES 32

/* the sizes k of a benchmark's arguments, each an integer in lo..hi; none
 * given: dflt. Returns the count, or -1 after a message. */
static int sizes(const char *bench, int argc, char **argv, int lo, int hi, const int *dflt, int ndflt, int *ks)
{
    if (argc > MAX_SIZES) {
        fprintf(stderr, "cuzk-cuda-bench %s: at most %d sizes\n", bench, MAX_SIZES);
        return -1;
    }
    for (int i = 0; i < argc; i++) {
        char *end;
        long v = strtol(argv[i], &end, 10);
        if (end == argv[i] || *end || v < lo || v > hi) {
            fprintf(stderr, "cuzk-cuda-bench %s: size '%s' is not an integer in %d..%d\n", bench, argv[i], lo, hi);
            return -1;
        }
        ks[i] = (int)v;
    }
    if (argc) return argc;
    memcpy(ks, dflt, (size_t)ndflt * sizeof *ks);
    return ndflt;
}

int cz_bench_have_device(void)
{
    if (cz_cuda_device_count() > 0) return 1;
    printf("cuzk-cuda-bench: no CUDA device\n");
    return 0;
}

/* the arguments are checked first, so that a mistake is named on a machine
 * without a device too; then the device is looked for */
int main(int argc, char **argv)
{
    static const int ntt_sizes[] = {10, 16, 20, 22, 24, 26, 27}, spmv_sizes[] = {20, 24, 27}, setup_sizes[] = {20};
    const char *b = argc >= 2 ? argv[1] : "";
    int ks[MAX_SIZES], nk = 0;
    if (!strcmp(b, "spmv-circuit")) return cz_bench_spmv_circuit(argc - 2, argv + 2); /* the same, inside */
    if (!strcmp(b, "ff")) {
        if (argc > 2) {
            fprintf(stderr, "cuzk-cuda-bench ff: takes no arguments\n");
            return 2;
        }
    } else if (!strcmp(b, "ntt")) {
        nk = sizes(b, argc - 2, argv + 2, 1, 30, ntt_sizes, sizeof ntt_sizes / sizeof *ntt_sizes, ks);
    } else if (!strcmp(b, "spmv")) {
        nk = sizes(b, argc - 2, argv + 2, 10, 30, spmv_sizes, sizeof spmv_sizes / sizeof *spmv_sizes, ks);
    } else if (!strcmp(b, "setup")) {
        nk = sizes(b, argc - 2, argv + 2, 5, 30, setup_sizes, 1, ks);
    } else {
        if (*b) fprintf(stderr, "cuzk-cuda-bench: unknown benchmark %s\n", b);
        fprintf(stderr, "usage: cuzk-cuda-bench ff | ntt [k...] | spmv [k...] | "
                        "spmv-circuit NAME [--copies N] [--key v ...] | setup [k...]\n");
        return 2;
    }
    if (nk < 0) return 2;
    if (!cz_bench_have_device()) return 2;
    if (!strcmp(b, "ff")) return bench_ff();
    if (!strcmp(b, "ntt")) return bench_ntt(ks, nk);
    if (!strcmp(b, "spmv")) return bench_spmv(ks, nk);
    return cz_bench_setup(ks, nk);
}
