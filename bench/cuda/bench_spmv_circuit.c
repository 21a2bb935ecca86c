/* bench_spmv_circuit.c — `cuzk-cuda-bench spmv-circuit NAME [--copies N]
 * [--reps R] [--modes LIST] [--rounds K] [--key value ...]`: the device
 * SpMV on the constraint system of
 * a real gadget circuit (circuits/gadget_registry.h: a PoSt sector, a PoRep
 * label, a PoR path, ...) instead of the synthetic one of `spmv`, whose
 * columns are half random. The gadget is recorded N times into one system
 * (N sectors of a WindowPoSt partition, N labels), its witness checked
 * against the constraints, a, b, c computed on the device, compared with
 * cz_r1cs_spmv element by element, and the median time set against two
 * floors at 4.8 TB/s:
 *   once   every input read once: three 64-bit row-offset arrays, columns
 *          and coefficient indices, w, and a, b, c written;
 *   model  the same, but w read per matrix as a 32 MiB direct-mapped cache
 *          of 64-byte lines would fetch it walking the non-zeros in row
 *          order (the device reads w in 64-byte pieces, docs/CUDA.md): what
 *          the circuit's column locality costs;
 * and a third, of arithmetic: the general coefficients' products (not +-1,
 * not +-2, which are additions; not on a 0 or a 1 of w, which adds nothing
 * or the coefficient, unless the mode multiplies those too) at the Fr
 * product rate cuzk-cuda-bench ff measures, here in the same process. The
 * binding floor is the larger of "once" and the products'. With --modes
 * (e.g. warp,thread:8,split,thread:8/mul,thread/wide) each
 * short-row mode runs in turn on the one recorded system, K rounds, each
 * checked against the CPU; every run prints a line and then
 * "RESULT spmv-circuit NAMExN ms notes". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_spmv_circuit.h"
#include "circuits/gadget_registry.h"
#include "cuda/cz_cuda_ff.h"
#include "cuda/cz_cuda_ntt.h"
#include "cuda/cz_cuda_spmv.h"
#include "util/clock.h"
#include "util/pool.h"

#define MAX_KV 16
#define LINE_LOG 6       /* 64-byte lines: two Fr */
#define CACHE_LINES_LOG 19 /* 2^19 lines of 64 bytes: 32 MiB */


/* bytes of w one matrix's walk in row order fetches through the cache model */
static double model_w_bytes(const cz_csr *m, uint64_t *tags)
{
    const uint64_t mask = (1ull << CACHE_LINES_LOG) - 1;
    uint64_t misses = 0;
    memset(tags, 0, sizeof(uint64_t) << CACHE_LINES_LOG);
    for (uint64_t i = 0; i < m->nnz; i++) {
        uint64_t line = ((uint64_t)m->col[i] * 32) >> LINE_LOG;
        uint64_t *t = &tags[line & mask];
        if (*t != line + 1) { *t = line + 1; misses++; }
    }
    return (double)misses * (1u << LINE_LOG);
}

static int usage(void)
{
    fprintf(stderr, "usage: cuzk-cuda-bench spmv-circuit NAME [--copies N (1)] [--reps R (5)] [--modes LIST]\n"
                    "                      [--rounds K (1)] [--key value ...]\n"
                    "  NAME and its keys as in `cuzk gadget list`, e.g. post --copies 300 (a 2^24-row\n"
                    "  WindowPoSt-shaped system) or label --copies 32; LIST: comma-separated short-row\n"
                    "  modes, each thread[:TMAX], warp or split, /mul after one to multiply the\n"
                    "  coefficients on bits too, /wide to keep 64-bit row offsets, /o32 32-bit ones, /g1, /g2 or /g4\n"
                    "  for thread mode's gathers in flight a thread (default: the environment's choice),\n"
                    "  run in turn K times on the one recorded system\n");
    return 2;
}

/* "thread:8" -> {CZ_SPMV_THREAD, tmax 8}; suffixes: "/mul" multiplies the
 * general coefficients on bits too (bits 2), "/wide" keeps 64-bit row
 * offsets (wide 1), "/o32" at most 32-bit ones (wide 2: not thread mode's
 * 16-bit ones), "/g1", "/g2", "/g4" set thread mode's gathers in flight
 * a thread (else CZ_SPMV_GATHER's, else 2); 0 on a bad item */
static int parse_mode(const char *it, size_t len, cz_cuda_spmv_opts *o)
{
    char buf[32];
    if (len >= sizeof buf) return 0;
    memcpy(buf, it, len);
    buf[len] = 0;
    memset(o, 0, sizeof *o);
    char *slash = strchr(buf, '/');
    if (slash) {
        *slash = 0;
        for (char *f = strtok(slash + 1, "/"); f; f = strtok(NULL, "/")) {
            if (!strcmp(f, "mul") && !o->bits) o->bits = 2;
            else if (!strcmp(f, "wide") && !o->wide) o->wide = 1;
            else if (!strcmp(f, "o32") && !o->wide) o->wide = 2;
            else if (f[0] == 'g' && (f[1] == '1' || f[1] == '2' || f[1] == '4') && !f[2] && !o->gather)
                o->gather = f[1] - '0';
            else return 0;
        }
        if (!o->bits && !o->wide && !o->gather) return 0; /* a bare "/" */
    }
    char *colon = strchr(buf, ':');
    if (colon) {
        *colon = 0;
        char *end;
        long t = strtol(colon + 1, &end, 10);
        if (*end || t < 1 || t > 32) return 0;
        o->tmax = (int)t;
    }
    if (!strcmp(buf, "thread")) o->mode = CZ_SPMV_THREAD;
    else if (!strcmp(buf, "warp") && !colon) o->mode = CZ_SPMV_WARP;
    else if (!strcmp(buf, "split") && !colon) o->mode = CZ_SPMV_SPLIT;
    else return 0;
    return 1;
}

#define MAX_MODES 16

int cz_bench_spmv_circuit(int argc, char **argv)
{
    if (argc < 1) return usage();
    const cz_gadget_def *g = cz_gadget_find(argv[0]);
    if (!g) {
        fprintf(stderr, "spmv-circuit: unknown gadget '%s' (see `cuzk gadget list`)\n", argv[0]);
        return 2;
    }
    cz_gadget_kv kv[MAX_KV];
    cz_cuda_spmv_opts modes[MAX_MODES];
    int nkv = 0, nmodes = 0;
    long copies = 1, reps = 5, rounds = 1;
    for (int i = 1; i < argc; i += 2) {
        if (strncmp(argv[i], "--", 2) || !argv[i][2] || i + 1 >= argc) {
            fprintf(stderr, "spmv-circuit: expected --key value pairs, got '%s'\n", argv[i]);
            return usage();
        }
        char *end;
        if (!strcmp(argv[i], "--copies") || !strcmp(argv[i], "--reps") || !strcmp(argv[i], "--rounds")) {
            long v = strtol(argv[i + 1], &end, 10);
            if (*end || v < 1 || v > 100000) {
                fprintf(stderr, "spmv-circuit: %s wants 1..100000, got '%s'\n", argv[i], argv[i + 1]);
                return 2;
            }
            *(!strcmp(argv[i], "--copies") ? &copies : !strcmp(argv[i], "--reps") ? &reps : &rounds) = v;
            continue;
        }
        if (!strcmp(argv[i], "--modes")) {
            for (const char *it = argv[i + 1]; *it;) {
                size_t len = strcspn(it, ",");
                if (nmodes == MAX_MODES || !parse_mode(it, len, &modes[nmodes])) {
                    fprintf(stderr, "spmv-circuit: --modes: bad or too many items in '%s'\n", argv[i + 1]);
                    return usage();
                }
                nmodes++;
                it += len + (it[len] == ',');
            }
            continue;
        }
        if (nkv == MAX_KV) { fprintf(stderr, "spmv-circuit: at most %d gadget keys\n", MAX_KV); return 2; }
        kv[nkv].key = argv[i] + 2;
        kv[nkv].val = argv[i + 1];
        nkv++;
    }
    if (!nmodes) { memset(&modes[0], 0, sizeof modes[0]); nmodes = 1; } /* the environment's */
    if (!cz_bench_have_device()) return 2; /* after the arguments, so that their mistakes are named anyway */

    char msg[256] = "", desc[256] = "";
    int rc = 1;
    cz_cs cs;
    cz_r1cs r;
    int have_r = 0;
    cz_fr *w = NULL, *got = NULL, *want = NULL;
    uint64_t *tags = NULL;
    cz_pool *pool = NULL;
    cz_cuda_spmv *s = NULL;
    void *dw = NULL, *dout = NULL;
    uint64_t bad_row = 0;
    double t0 = cz_now_ms();
    cz_err e = cz_cs_init_record(&cs);
    for (long c = 0; !e && c < copies; c++) {
        e = g->synth(&cs, kv, nkv, msg, sizeof msg);
        if (!e) e = cz_cs_status(&cs);
        if (!e && copies >= 10 && (c + 1) % (copies / 10) == 0)
            fprintf(stderr, "spmv-circuit: recorded %ld of %ld copies (%.1f s)\n", c + 1, copies,
                    (cz_now_ms() - t0) / 1e3);
    }
    if (e) {
        fprintf(stderr, "spmv-circuit: %s: %s\n", g->name, msg[0] ? msg : cz_strerror(e));
        cz_cs_free(&cs);
        return 2;
    }
    if ((e = cz_cs_finish_record(&cs, &r, &w, NULL))) {
        fprintf(stderr, "spmv-circuit: recording: %s\n", cz_strerror(e));
        return 1;
    }
    have_r = 1;
    const uint64_t n = r.n_constraints, nv = r.n_vars;
    const uint64_t nnz = r.m[0].nnz + r.m[1].nnz + r.m[2].nnz;
    printf("spmv-circuit %s x %ld: %llu constraints, %llu variables, nnz A/B/C %llu/%llu/%llu, index bytes %u/%u/%u "
           "(recorded in %.1f s)\n", g->name, copies, (unsigned long long)n, (unsigned long long)nv,
           (unsigned long long)r.m[0].nnz, (unsigned long long)r.m[1].nnz, (unsigned long long)r.m[2].nnz,
           r.m[0].cidx_bytes, r.m[1].cidx_bytes, r.m[2].cidx_bytes, (cz_now_ms() - t0) / 1e3);
    fflush(stdout);

    if ((e = cz_pool_create(&pool, 0))) { snprintf(msg, sizeof msg, "thread pool"); goto fail; }
    if (!cz_r1cs_is_satisfied(&r, w, &bad_row, pool)) {
        fprintf(stderr, "spmv-circuit: the recorded witness fails constraint %llu\n", (unsigned long long)bad_row);
        goto done;
    }
    got = malloc(3 * n * sizeof *got);
    want = malloc(3 * n * sizeof *want);
    tags = malloc(sizeof(uint64_t) << CACHE_LINES_LOG);
    if (!got || !want || !tags) { e = CZ_ERR_NOMEM; snprintf(msg, sizeof msg, "host buffers"); goto fail; }
    cz_r1cs_spmv(&r, w, want, want + n, want + 2 * n, pool);

    /* the floors, once for the system */
    double base = 3.0 * (n + 1) * 8 + 3.0 * n * 32, w_model = 0;
    uint64_t nprod = 0, nprod_bits = 0;
    for (int k = 0; k < 3; k++) {
        base += (double)r.m[k].nnz * (4 + r.m[k].cidx_bytes);
        if (r.m[k].nnz) w_model += model_w_bytes(&r.m[k], tags);
        uint64_t nb;
        nprod += cz_csr_general_terms(&r.m[k], w, &nb);
        nprod_bits += nb;
    }
    double fr_rate = 0, fr_ms, mhz;
    int sms;
    if ((e = cz_cuda_ff_bench(CZ_CUDA_FR, CZ_CUDA_OP_MUL_EO, &fr_rate, &fr_ms, &mhz, &sms, msg, sizeof msg))) goto fail;
    double once = base + (double)nv * 32, model = base + w_model;
    /* the products floor of the default (bits without a product); a /mul mode's is f_prod_all */
    double f_once = once / 4.8e12 * 1e3, f_model = model / 4.8e12 * 1e3;
    double f_prod_all = (double)nprod / fr_rate * 1e3, f_prod = (double)(nprod - nprod_bits) / fr_rate * 1e3;
    printf("spmv-circuit %s x %ld: floor once %.3f ms (%.2f GB at 4.8 TB/s); model (w through a 32 MiB cache of "
           "64-byte lines: %.2f GB of w, %.2f x once per matrix) %.3f ms (%.2f GB); products %.3f ms (%llu M at "
           "%.2f G/s; %.3f ms for all %llu M general terms, %.1f %% of them on a 0 or a 1); binding floor %.3f ms\n",
           g->name, copies, f_once, once / 1e9, w_model / 1e9, w_model / (3.0 * nv * 32), f_model, model / 1e9,
           f_prod, (unsigned long long)((nprod - nprod_bits) / 1000000), fr_rate / 1e9, f_prod_all,
           (unsigned long long)(nprod / 1000000), nprod ? 100.0 * (double)nprod_bits / (double)nprod : 0.0,
           f_once > f_prod ? f_once : f_prod);

    if ((e = cz_cuda_malloc(&dw, nv * sizeof *w, msg, sizeof msg))) goto fail;
    if ((e = cz_cuda_malloc(&dout, 3 * n * sizeof *w, msg, sizeof msg))) goto fail;
    if ((e = cz_cuda_upload(dw, w, nv * sizeof *w, msg, sizeof msg))) goto fail;
    for (long round = 0; round < rounds; round++) {
        for (int mi = 0; mi < nmodes; mi++) {
            const cz_cuda_spmv_opts *o = modes[mi].mode ? &modes[mi] : NULL;
            double ms = 0;
            if ((e = cz_cuda_spmv_create_opts(&s, &r, o, msg, sizeof msg))) goto fail;
            cz_cuda_spmv_describe(s, desc, sizeof desc);
            memset(got, 0x5a, 3 * n * sizeof *got);
            if ((e = cz_cuda_upload(dout, got, 3 * n * sizeof *got, msg, sizeof msg))) goto fail; /* poison */
            if ((e = cz_cuda_spmv_time(s, dw, dout, (cz_fr *)dout + n, (cz_fr *)dout + 2 * n, (int)reps, &ms, msg,
                                       sizeof msg)))
                goto fail;
            cz_cuda_spmv_destroy(s);
            s = NULL;
            if ((e = cz_cuda_download(got, dout, 3 * n * sizeof *got, msg, sizeof msg))) goto fail;
            uint64_t bad = 0, first = 0;
            for (uint64_t i = 0; i < 3 * n; i++)
                if (memcmp(&got[i], &want[i], sizeof *got) && !bad++) first = i;
            if (bad) {
                fprintf(stderr, "spmv-circuit [%s]: %llu of %llu outputs differ from cz_r1cs_spmv (first: matrix %c "
                        "row %llu)\n", desc, (unsigned long long)bad, (unsigned long long)(3 * n), "ABC"[first / n],
                        (unsigned long long)(first % n));
                goto done;
            }
            /* a mode that multiplies on bits too (describe says so) has all the products as its floor */
            const int mul_all = strstr(desc, "products on bits") != NULL;
            const double fp = mul_all ? f_prod_all : f_prod, f_bind = f_once > fp ? f_once : fp;
            printf("spmv-circuit %s x %ld [%s]: %.3f ms (median of %ld), all %llu outputs equal to the CPU's; "
                   "-> %.2fx once, %.2fx model, %.2fx products, %.2fx binding\n", g->name, copies, desc, ms, reps,
                   (unsigned long long)(3 * n), ms / f_once, ms / f_model, ms / fp, ms / f_bind);
            char mode[40];
            sscanf(desc, "%15s", mode);
            if (modes[mi].tmax) snprintf(mode + strlen(mode), sizeof mode - strlen(mode), ":%d", modes[mi].tmax);
            if (mul_all) snprintf(mode + strlen(mode), sizeof mode - strlen(mode), "/mul");
            if (strstr(desc, "64-bit offsets")) snprintf(mode + strlen(mode), sizeof mode - strlen(mode), "/wide");
            if (modes[mi].mode == CZ_SPMV_THREAD && strstr(desc, " 32-bit offsets"))
                snprintf(mode + strlen(mode), sizeof mode - strlen(mode), "/o32");
            if (modes[mi].gather) snprintf(mode + strlen(mode), sizeof mode - strlen(mode), "/g%d", modes[mi].gather);
            printf("RESULT spmv-circuit %sx%ld %.3f %.2fx-floor,%.2fx-model-floor,%.2fx-binding-floor,%lluM-nnz,"
                   "%lluM-products,%lluk-rows,%s\n", g->name, copies, ms, ms / f_once, ms / f_model, ms / f_bind,
                   (unsigned long long)(nnz / 1000000),
                   (unsigned long long)((mul_all ? nprod : nprod - nprod_bits) / 1000000), (unsigned long long)(n / 1000),
                   mode);
            fflush(stdout);
        }
    }
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "spmv-circuit: %s\n", msg[0] ? msg : cz_strerror(e));
    rc = 1;
done:
    cz_cuda_free(dw);
    cz_cuda_free(dout);
    if (s) cz_cuda_spmv_destroy(s);
    if (pool) cz_pool_destroy(pool);
    if (have_r) cz_r1cs_free(&r);
    free(w);
    free(got);
    free(want);
    free(tags);
    return rc;
}
