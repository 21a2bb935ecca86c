/* bench_spmv.c — the CPU SpMV (cz_r1cs_spmv: a, b, c = A w, B w, C w, one
 * thread) on the constraint systems of two Filecoin gadgets of the registry,
 * recorded a few times into one system each:
 *   label_x2  two PoRep labels (SHA-256 over 37 parents): every variable is
 *             a bit, the coefficients 2 and -2 a quarter of A, and the other
 *             general coefficients sit on packings (sums of 2^i b_i);
 *   post_x8   eight WindowPoSt sectors (Poseidon-8 inclusion paths): general
 *             values under general coefficients.
 * Each result is checked after timing against a plain evaluation that
 * multiplies every term (a WARNING note if it differs), and a note gives the
 * system's shape: rows, non-zeros, the general-coefficient terms (not +-1,
 * not +-2) and how many of them multiply a 0 or a 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "circuits/gadget_registry.h"
#include "r1cs/r1cs.h"

typedef struct {
    cz_r1cs r;
    cz_fr *w, *out;
} spmv_state;

static void run_spmv(void *p, uint64_t iters)
{
    spmv_state *s = p;
    const uint64_t n = s->r.n_constraints;
    for (uint64_t i = 0; i < iters; i++) cz_r1cs_spmv(&s->r, s->w, s->out, s->out + n, s->out + 2 * n, NULL);
}

/* every term multiplied, no shortcut: what the result must equal */
static void plain_spmv(const cz_r1cs *r, const cz_fr *w, cz_fr *out)
{
    for (int k = 0; k < 3; k++) {
        const cz_csr *m = &r->m[k];
        for (uint64_t row = 0; row < m->n_rows; row++) {
            cz_fr acc, t;
            cz_fr_zero(&acc);
            for (uint64_t q = m->row_ptr[row]; q < m->row_ptr[row + 1]; q++) {
                cz_fr_mul(&t, &w[m->col[q]], &m->coefs[cz_csr_cidx(m, q)]);
                cz_fr_add(&acc, &acc, &t);
            }
            out[k * r->n_constraints + row] = acc;
        }
    }
}

static void one_system(cz_bench *b, const char *gadget, long copies, const char *op, const char *note)
{
    if (!cz__bench_wants(b, op)) return;
    const cz_gadget_def *g = cz_gadget_find(gadget);
    spmv_state s;
    memset(&s, 0, sizeof s);
    cz_fr *want = NULL;
    char msg[256] = "";
    cz_cs cs;
    cz_err e = g ? cz_cs_init_record(&cs) : CZ_ERR_INVALID_ARG;
    if (e) { cz__bench_note(b, "WARNING: spmv/%s: no gadget %s", op, gadget); return; }
    for (long c = 0; !e && c < copies; c++) {
        e = g->synth(&cs, NULL, 0, msg, sizeof msg);
        if (!e) e = cz_cs_status(&cs);
    }
    if (e) {
        cz_cs_free(&cs);
        cz__bench_note(b, "WARNING: spmv/%s: recording failed: %s", op, msg[0] ? msg : cz_strerror(e));
        return;
    }
    if ((e = cz_cs_finish_record(&cs, &s.r, &s.w, NULL))) {
        cz__bench_note(b, "WARNING: spmv/%s: recording failed: %s", op, cz_strerror(e));
        return;
    }
    const uint64_t n = s.r.n_constraints;
    s.out = malloc(3 * n * sizeof *s.out);
    want = malloc(3 * n * sizeof *want);
    if (!s.out || !want) {
        cz__bench_note(b, "WARNING: spmv/%s: out of memory", op);
        goto done;
    }
    plain_spmv(&s.r, s.w, want);
    cz__bench_once(b, op, note, run_spmv, &s);
    if (memcmp(s.out, want, 3 * n * sizeof *want)) cz__bench_note(b, "WARNING: spmv/%s result is wrong", op);
    uint64_t gen = 0, gen_bits = 0;
    for (int k = 0; k < 3; k++) {
        uint64_t nb;
        gen += cz_csr_general_terms(&s.r.m[k], s.w, &nb);
        gen_bits += nb;
    }
    cz__bench_note(b, "spmv/%s: %llu rows, %llu non-zeros, %llu general-coefficient terms (%.1f %% of them on a 0 "
                   "or a 1)", op, (unsigned long long)n,
                   (unsigned long long)(s.r.m[0].nnz + s.r.m[1].nnz + s.r.m[2].nnz), (unsigned long long)gen,
                   gen ? 100.0 * (double)gen_bits / (double)gen : 0.0);
done:
    free(want);
    free(s.out);
    free(s.w);
    cz_r1cs_free(&s.r);
}

static void bench_spmv(cz_bench *b)
{
    one_system(b, "label", 2, "label_x2", "PoRep labels (SHA-256 over bits), 1 thread");
    one_system(b, "post", 8, "post_x8", "WindowPoSt sectors (Poseidon), 1 thread");
}

CZ_BENCH_GROUP(47, "spmv", bench_spmv)
