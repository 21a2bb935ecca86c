/* ntt_x8.c — the NTT with its butterflies eight at a time in radix 2^52
 * (AVX-512 IFMA, ff/fr_x8.h), the same radix-2 decimation in time as the
 * scalar path in ntt.c and the same bits out.
 *
 * After the bit-reversal permutation:
 *
 * Blocks. The first bl = min(log n, 12) stages work inside blocks of
 * B = 2^bl consecutive elements, one pool item per block. A block is
 * converted once into a stack buffer (160 KiB for 2^12: the calling and
 * pool threads need that much stack) of G = B/8 groups of eight lanes in
 * radix 2^52, lane i of group g holding block element i·G + g. A stage with
 * half-size m < G pairs element e with e + m, i.e. group g with g + m in
 * every lane, and its twiddle w^(g mod m) is the same in all lanes: one
 * broadcast per (stage, g mod m), and no product where g mod m = 0. The last
 * three stages (m = G, 2G, 4G) pair lanes: eight groups g0..g0+7 are
 * transposed, digit by digit, so that register i holds elements i·G + g0 +
 * l in lane l; the three stages then pair registers, with per-lane
 * twiddles from tables (below), and register i is eight consecutive
 * elements, converted back and stored in place.
 *
 * Global passes. The stages with m >= B run in passes of up to three
 * stages (radix 8, then 4 or 2 for what remains): eight consecutive
 * positions k..k+7 form the lanes, and the 2^s operands e + t·m
 * (t < 2^s) are loaded and converted once, get their s stages (twiddles
 * tw[(k + l + c·m)·n/2M], loaded with the stride from the domain's table and
 * packed on the fly), and are stored back.
 *
 * Values. Between the stages and between the passes values are "lazy",
 * in [0, 2r) (the butterfly of fr_x8.h); a lazy value still fits the four
 * limbs of a cz_fr, so a pass may store it. The last pass reduces every
 * output below r, optionally after scaling it (cz__ntt_post): by a constant
 * (n^-1 of the inverse) or by f·c^e (the coset and snarkjs shifts), the
 * powers kept per register in x16 form and stepped by c^8. A product is a
 * product whatever the representative, so the outputs are exactly the
 * scalar path's.
 *
 * Tables, made at domain init (cz__ntt_x8_tables), per direction, in groups
 * of eight lanes: T4[t] = w_B^t (t < B/2; also the broadcast source), T2[t] =
 * w_B^2t (t < B/4), T1[t] = w_B^4t (t < B/8), all in x16 form. */
#include "poly/ntt_x8.h"
#include "ff/fr_x8.h"
#include "util/cpu.h"

#include <string.h>

#define BLK_MAX ((size_t)1 << CZ_NTT_X8_BLK_LOG)
#define GCHUNK 16   /* vector positions per pool item in a global pass */
#define SCHUNK 1024 /* elements per pool item of the powers scaling */

/* eight elements, digit j of lane i in d[j][i] */
typedef struct {
    _Alignas(64) uint64_t d[5][8];
} grp;

static void grp_set(grp *g, int lane, const cz_fr *x, unsigned sh)
{
    uint64_t t[5];
    cz__fr52_pack(t, x, sh);
    for (int j = 0; j < 5; j++) g->d[j][lane] = t[j];
}

size_t cz__ntt_x8_tables_size(int log_n)
{
    if (log_n < CZ_NTT_X8_MIN_LOG) return 0;
    int bl = log_n < CZ_NTT_X8_BLK_LOG ? log_n : CZ_NTT_X8_BLK_LOG;
    size_t B = (size_t)1 << bl;
    return 2 * (7 * B / 64) * sizeof(grp);
}

/* the tables of one direction: T4 (B/16 groups), T2 (B/32), T1 (B/64) */
static void tables_dir(grp *t, const cz_fr *tw, size_t n, size_t B)
{
    size_t step = n / B; /* tw[i·step] = w_B^i */
    grp *t4 = t, *t2 = t4 + B / 16, *t1 = t2 + B / 32;
    for (size_t i = 0; i < B / 2; i++) grp_set(&t4[i / 8], (int)(i % 8), &tw[i * step], 4);
    for (size_t i = 0; i < B / 4; i++) grp_set(&t2[i / 8], (int)(i % 8), &tw[2 * i * step], 4);
    for (size_t i = 0; i < B / 8; i++) grp_set(&t1[i / 8], (int)(i % 8), &tw[4 * i * step], 4);
}

void cz__ntt_x8_tables(void *tab, const cz_ntt_domain *d)
{
    int bl = d->log_n < CZ_NTT_X8_BLK_LOG ? d->log_n : CZ_NTT_X8_BLK_LOG;
    size_t B = (size_t)1 << bl;
    grp *t = tab;
    tables_dir(t, d->tw, d->n, B);
    tables_dir(t + 7 * B / 64, d->tw_inv, d->n, B);
}

#if CZ_FR_X8_IFMA

#define TGT CZ_FR52_TGT
typedef cz_v8 V;

/* out = 16 x mod r: the reduced x16 form, a valid second operand too */
static void x16(cz_fr *out, const cz_fr *x)
{
    cz_fr_add(out, x, x);
    for (int i = 0; i < 3; i++) cz_fr_add(out, out, out);
}

struct xjob {
    cz_fr *a;
    const cz_fr *tw;            /* omega^j or omega^-j */
    const grp *t4, *t2, *t1;    /* the block tables of that direction */
    size_t n, m;                /* m: the first half-size of a global pass */
    int bl, s;                  /* block log; stages of this global pass */
    int last;                   /* this pass writes the outputs (reduced below r) */
    int post;                   /* scaling done by this pass: 0, 1, 2 */
    grp f16;                    /* f, x16 form, in all lanes (kind 1) */
    cz_fr f, c;                 /* kind 2: f·c^e */
    grp c8;                     /* c^8, x16 form, in all lanes */
};

TGT static inline void get(V X[5], const grp *g)
{
    for (int j = 0; j < 5; j++) X[j] = _mm512_loadu_si512((const void *)g->d[j]);
}

TGT static inline void put(grp *g, const V X[5])
{
    for (int j = 0; j < 5; j++) _mm512_storeu_si512((void *)g->d[j], X[j]);
}

/* W = lane i of g in all lanes */
TGT static inline void bcast(V W[5], const grp *g, size_t i)
{
    for (int j = 0; j < 5; j++) W[j] = _mm512_set1_epi64((long long)g->d[j][i]);
}

/* P[t] lanes l = f·c^(e0 + t·step + l), reduced x16 form, for t < nt */
TGT static void powers_init(V P[][5], int nt, const cz_fr *f, const cz_fr *c, uint64_t e0, uint64_t step)
{
    cz_fr base, x, cs;
    grp g, gs;
    cz_fr_pow(&base, c, &e0, 1);
    cz_fr_mul(&base, &base, f);
    x16(&x, &base);
    for (int l = 0; l < 8; l++) {
        grp_set(&g, l, &x, 0);
        cz_fr_mul(&x, &x, c);
    }
    get(P[0], &g);
    cz_fr_pow(&cs, c, &step, 1);
    cz_fr p = cs;
    for (int t = 1; t < nt; t++) { /* P[t] = c^(t·step) · P[0] */
        V S[5];
        for (int l = 0; l < 8; l++) grp_set(&gs, l, &p, 4);
        get(S, &gs);
        cz__fr52_mont(P[t], S, P[0]);
        cz_fr_mul(&p, &p, &cs);
    }
}

/* the outputs X[0..nt) (lazy, < 2r) of the last pass: scaled as j->post
 * says (P: the powers, stepped by C8), and reduced below r */
TGT static inline void finish(V X[][5], int nt, const struct xjob *j, V P[][5], const V C8[5])
{
    if (j->post == 1) {
        V F[5];
        get(F, &j->f16);
        for (int t = 0; t < nt; t++) cz__fr52_mont(X[t], F, X[t]);
    } else if (j->post == 2) {
        for (int t = 0; t < nt; t++) {
            cz__fr52_mont(X[t], P[t], X[t]);
            cz__fr52_mont_raw(P[t], C8, P[t]);
            cz__fr52_norm(P[t], P[t]);
        }
    } else {
        for (int t = 0; t < nt; t++) cz__fr52_canon(X[t], X[t]);
    }
}

/* ---- blocks ---- */

TGT static void block_item(void *ctx, size_t item)
{
    const struct xjob *j = ctx;
    size_t B = (size_t)1 << j->bl, G = B / 8;
    grp S[BLK_MAX / 8];
    cz_fr *a = j->a + item * B;
    for (size_t g = 0; g < G; g++) {
        V D[5];
        cz__fr52_load(D, a + g, G, 0);
        put(&S[g], D);
    }
    /* stages m < G: groups g and g + m, twiddle w_B^((g mod m)·B/2m) */
    for (size_t m = 1; m < G; m <<= 1) {
        size_t ts = (B / 2) / m;
        for (size_t k = 0; k < m; k++) {
            V W[5];
            if (k) bcast(W, &j->t4[(k * ts) / 8], (k * ts) % 8);
            for (size_t g = k; g < G; g += 2 * m) {
                V X[5], Y[5];
                get(X, &S[g]);
                get(Y, &S[g + m]);
                if (k) cz__fr52_bfly(X, Y, W);
                else cz__fr52_bfly1(X, Y);
                put(&S[g], X);
                put(&S[g + m], Y);
            }
        }
    }
    /* stages G, 2G, 4G across the lanes */
    V P[8][5], C8[5];
    if (j->post == 2) {
        powers_init(P, 8, &j->f, &j->c, 0, G);
        get(C8, &j->c8);
    }
    for (size_t g0 = 0; g0 < G; g0 += 8) {
        V X[8][5], W[5];
        for (int dg = 0; dg < 5; dg++) {
            V r[8], c[8];
            for (int l = 0; l < 8; l++) r[l] = _mm512_loadu_si512((const void *)S[g0 + l].d[dg]);
            cz__fr52_transpose8(c, r);
            for (int i = 0; i < 8; i++) X[i][dg] = c[i];
        }
        get(W, &j->t1[g0 / 8]);
        for (int i = 0; i < 8; i += 2) cz__fr52_bfly(X[i], X[i + 1], W);
        for (int c = 0; c < 2; c++) {
            get(W, &j->t2[(c * G + g0) / 8]);
            cz__fr52_bfly(X[c], X[c + 2], W);
            cz__fr52_bfly(X[c + 4], X[c + 6], W);
        }
        for (int c = 0; c < 4; c++) {
            get(W, &j->t4[(c * G + g0) / 8]);
            cz__fr52_bfly(X[c], X[c + 4], W);
        }
        if (j->last) finish(X, 8, j, P, C8);
        for (int i = 0; i < 8; i++) cz__fr52_store(a + i * G + g0, 1, X[i]);
    }
}

/* ---- global passes of s stages ---- */

TGT static inline void glob_body(const struct xjob *j, size_t item, const int s)
{
    const int nt = 1 << s;
    size_t m0 = j->m, span = m0 << s, nv = (j->n >> s) / 8;
    size_t v = item * GCHUNK, v1 = v + GCHUNK < nv ? v + GCHUNK : nv;
    V P[8][5], C8[5];
    if (j->post == 2) { /* the last pass: span = n, one block */
        powers_init(P, nt, &j->f, &j->c, v * 8, m0);
        get(C8, &j->c8);
    }
    for (; v < v1; v++) {
        size_t pos = v * 8, blk = pos / m0, k = pos % m0;
        cz_fr *base = j->a + blk * span + k;
        V X[8][5], W[5];
        for (int t = 0; t < nt; t++) cz__fr52_load(X[t], base + t * m0, 1, 0);
        for (int st = 0; st < s; st++) {
            size_t M = m0 << st, ts = j->n / (2 * M);
            for (int c = 0; c < (1 << st); c++) {
                cz__fr52_load(W, j->tw + (k + (size_t)c * m0) * ts, ts, 1);
                for (int t = c; t < nt; t += 2 << st) cz__fr52_bfly(X[t], X[t + (1 << st)], W);
            }
        }
        if (j->last) finish(X, nt, j, P, C8);
        for (int t = 0; t < nt; t++) cz__fr52_store(base + t * m0, 1, X[t]);
    }
}

TGT static void glob1(void *ctx, size_t item) { glob_body(ctx, item, 1); }
TGT static void glob2(void *ctx, size_t item) { glob_body(ctx, item, 2); }
TGT static void glob3(void *ctx, size_t item) { glob_body(ctx, item, 3); }

static void set_post(struct xjob *j, int last, const cz__ntt_post *post)
{
    j->last = last;
    j->post = last && post ? post->kind : 0;
    if (j->post == 1) {
        for (int l = 0; l < 8; l++) grp_set(&j->f16, l, &post->f, 4);
    } else if (j->post == 2) {
        cz_fr c8, c8x;
        j->f = post->f;
        j->c = post->c;
        uint64_t e = 8;
        cz_fr_pow(&c8, &post->c, &e, 1);
        x16(&c8x, &c8);
        for (int l = 0; l < 8; l++) grp_set(&j->c8, l, &c8x, 0);
    }
}

void cz__ntt_x8_transform(const cz_ntt_domain *d, cz_fr *a, int inverse, const cz__ntt_post *post,
                          cz_pool *pool)
{
    size_t n = d->n;
    int bl = d->log_n < CZ_NTT_X8_BLK_LOG ? d->log_n : CZ_NTT_X8_BLK_LOG;
    size_t B = (size_t)1 << bl, tg = 7 * B / 64;
    const grp *tab = (const grp *)d->x8_tab + (inverse ? tg : 0);
    struct xjob j = {.a = a, .tw = inverse ? d->tw_inv : d->tw, .t4 = tab, .t2 = tab + B / 16,
                     .t1 = tab + B / 16 + B / 32, .n = n, .bl = bl};
    cz__ntt_bitrev(a, n, d->log_n, pool);
    int rest = d->log_n - bl; /* global stages */
    set_post(&j, rest == 0, post);
    cz_pool_run(pool, n / B, block_item, &j);
    for (size_t m = B; rest > 0;) {
        int s = rest >= 3 ? 3 : rest;
        rest -= s;
        j.m = m;
        j.s = s;
        set_post(&j, rest == 0, post);
        size_t nv = (n >> s) / 8;
        cz_pool_run(pool, (nv + GCHUNK - 1) / GCHUNK, s == 3 ? glob3 : s == 2 ? glob2 : glob1, &j);
        m <<= s;
    }
}

/* ---- a_i <- a_i c^i ---- */

struct sjob {
    cz_fr *a;
    size_t n;
    cz_fr c;
    grp c8;
};

TGT static void scale_item(void *ctx, size_t item)
{
    const struct sjob *j = ctx;
    size_t i = item * SCHUNK, end = i + SCHUNK < j->n ? i + SCHUNK : j->n;
    cz_fr one;
    cz_fr_one(&one);
    V P[1][5], C8[5];
    powers_init(P, 1, &one, &j->c, i, 0);
    get(C8, &j->c8);
    for (; i + 8 <= end; i += 8) {
        V X[5];
        cz__fr52_load(X, j->a + i, 1, 0);
        cz__fr52_mont(X, P[0], X);
        cz__fr52_mont(P[0], C8, P[0]);
        cz__fr52_store(j->a + i, 1, X);
    }
    if (i < end) { /* a tail of fewer than eight */
        cz_fr p;
        uint64_t e = i;
        cz_fr_pow(&p, &j->c, &e, 1);
        for (; i < end; i++) {
            cz_fr_mul(&j->a[i], &j->a[i], &p);
            cz_fr_mul(&p, &p, &j->c);
        }
    }
}

void cz__ntt_scale_powers_x8(cz_fr *a, size_t n, const cz_fr *c, cz_pool *pool)
{
    struct sjob j = {.a = a, .n = n, .c = *c};
    cz_fr c8, c8x;
    uint64_t e = 8;
    cz_fr_pow(&c8, c, &e, 1);
    x16(&c8x, &c8);
    for (int l = 0; l < 8; l++) grp_set(&j.c8, l, &c8x, 0);
    cz_pool_run(pool, (n + SCHUNK - 1) / SCHUNK, scale_item, &j);
}

#else /* no vector path: never called (d->x8 stays 0) */

void cz__ntt_x8_transform(const cz_ntt_domain *d, cz_fr *a, int inverse, const cz__ntt_post *post,
                          cz_pool *pool)
{
    (void)d; (void)a; (void)inverse; (void)post; (void)pool;
}

void cz__ntt_scale_powers_x8(cz_fr *a, size_t n, const cz_fr *c, cz_pool *pool)
{
    cz__ntt_scale_powers_scalar(a, n, c, pool);
}

#endif
