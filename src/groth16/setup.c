/* setup.c — an INSECURE, deterministic Groth16 setup for tests and
 * benchmarks. The toxic waste (tau, alpha, beta, gamma, delta) is derived from
 * a seed, so whoever knows the seed can forge proofs.
 *
 * The scalars (cz__setup_make_scalars, shared with the GPU setup through
 * setup_internal.h). Evaluations at tau of the QAP polynomials come from the
 * Lagrange basis of the domain: L_j(tau) = (tau^m - 1)/m · w^j / (tau - w^j)
 * (a batch inversion per block of 1024), then u = A^T L, v = B^T L,
 * w = C^T L (plus the input rows input_i * 0 = 0), then the query scalars
 *   h_i = tau^i t(tau) / delta, ic / l_i = (beta u_i + alpha v_i + w_i) /
 *   gamma (inputs) or / delta (aux), a = the non-zero u_i, b = the non-zero v_i.
 * Every loop runs on the pool in blocks. Field arithmetic is exact, so the
 * order of the additions does not matter and the result is the same bits for
 * any number of threads. The column sums are split by column range: every
 * task walks the whole matrix and adds only the entries of its own columns,
 * so no two tasks write the same sum (the walk is cheap next to the random
 * accesses of the sums themselves).
 *
 * Memory: one array of m + 3 n_vars Fr. The Lagrange basis lies in its first
 * m entries and u, v, w after it; l (with ic) is then made in place of w, a
 * and b are u and v moved down without their zeros, and h overwrites the
 * basis. Besides the constraint system the peak is that array plus two
 * density bitmaps: (m + 3 n_vars)·32 bytes, about 16 GiB at m = 2^27 with
 * n_vars ≈ m.
 *
 * Every key point is k·G for its scalar k, computed with a fixed-base comb:
 * 32 windows of 8 bits, 255 precomputed multiples per window, so one
 * multiplication is at most 32 mixed additions. */
#include "groth16/groth16.h"
#include "groth16/setup_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poly/ntt.h"

#define WBITS CZ__SETUP_WBITS
#define NWIN CZ__SETUP_NWIN
#define WSIZE CZ__SETUP_WSIZE
#define LAG_BLOCK 1024 /* Lagrange basis: one batch inversion per block */
#define BLOCK 4096     /* the other element-wise loops */

/* fixed-base multiplication of the generator by many Montgomery scalars */
#define DEFINE_FIXED_BASE(G)                                                           \
    typedef struct {                                                                   \
        const cz_##G##_aff *table; /* NWIN x WSIZE, entry 0 of each window unused */    \
        const cz_fr *k;                                                                \
        cz_##G##_aff *out;                                                             \
        size_t n;                                                                      \
    } G##_fb_job;                                                                      \
                                                                                       \
    static void G##_fb_chunk(void *ctx, size_t item)                                   \
    {                                                                                  \
        G##_fb_job *j = ctx;                                                           \
        size_t lo = item * 256, hi = lo + 256 < j->n ? lo + 256 : j->n;                 \
        cz_##G##_jac tmp[256];                                                         \
        for (size_t i = lo; i < hi; i++) {                                             \
            cz_fr plain;                                                               \
            cz_fr_from_mont(&plain, &j->k[i]);                                         \
            cz_##G##_xyzz acc;                                                         \
            cz_##G##_xyzz_set_inf(&acc);                                               \
            for (int w = 0; w < NWIN; w++) {                                           \
                unsigned d = (unsigned)(plain.l[w / 8] >> (8 * (w % 8))) & 0xff;       \
                if (d) cz_##G##_xyzz_add_mixed(&acc, &acc, &j->table[w * WSIZE + d]);  \
            }                                                                          \
            cz_##G##_xyzz_to_jac(&tmp[i - lo], &acc);                                  \
        }                                                                              \
        cz_##G##_batch_to_aff(&j->out[lo], tmp, hi - lo);                              \
    }                                                                                  \
                                                                                       \
    cz_##G##_aff *cz__setup_table_##G(void)                                            \
    {                                                                                  \
        cz_##G##_aff *table = malloc(CZ__SETUP_TABLE_POINTS * sizeof *table);          \
        cz_##G##_jac *row = malloc(WSIZE * sizeof *row);                               \
        if (!table || !row) { free(table); free(row); return NULL; }                   \
        cz_##G##_jac base;                                                             \
        cz_##G##_generator_jac(&base);                                                 \
        for (int w = 0; w < NWIN; w++) {                                               \
            cz_##G##_set_inf(&row[0]);                                                 \
            row[1] = base;                                                             \
            for (int d = 2; d < WSIZE; d++) cz_##G##_add(&row[d], &row[d - 1], &base); \
            cz_##G##_batch_to_aff(&table[w * WSIZE], row, WSIZE);                      \
            cz_##G##_dbl(&base, &row[WSIZE / 2]); /* 2^WBITS * base */                 \
        }                                                                              \
        free(row);                                                                     \
        return table;                                                                  \
    }                                                                                  \
                                                                                       \
    void cz__setup_fixed_base_##G(cz_##G##_aff *out, const cz_fr *k, size_t n,         \
                                  const cz_##G##_aff *table, cz_pool *pool)            \
    {                                                                                  \
        G##_fb_job j = {.table = table, .k = k, .out = out, .n = n};                   \
        cz_pool_run(pool, (n + 255) / 256, G##_fb_chunk, &j);                          \
    }

DEFINE_FIXED_BASE(g1)
DEFINE_FIXED_BASE(g2)

cz_err cz__setup_vk_points(cz_groth16_vk *vk, const cz__setup_scalars *s)
{
    cz_g1_aff *t1 = cz__setup_table_g1(), v1[3];
    cz_g2_aff *t2 = cz__setup_table_g2(), v2[3];
    if (!t1 || !t2) { free(t1); free(t2); return CZ_ERR_NOMEM; }
    cz__setup_fixed_base_g1(v1, s->vk_g1, 3, t1, NULL);
    cz__setup_fixed_base_g2(v2, s->vk_g2, 3, t2, NULL);
    free(t1);
    free(t2);
    vk->alpha_g1 = v1[0]; vk->beta_g1 = v1[1]; vk->delta_g1 = v1[2];
    vk->beta_g2 = v2[0]; vk->gamma_g2 = v2[1]; vk->delta_g2 = v2[2];
    return CZ_OK;
}

static void random_nonzero(cz_fr *x, cz_rng *rng)
{
    do cz_fr_random(x, rng);
    while (cz_fr_is_zero(x));
}

static size_t blocks(size_t n, size_t b) { return (n + b - 1) / b; }

/* ---- zeroing u, v, w (in parallel, so the pages are touched by the pool) */
typedef struct {
    cz_fr *p;
    size_t n;
} zero_job;

static void zero_block(void *ctx, size_t item)
{
    zero_job *j = ctx;
    size_t lo = item * BLOCK, hi = lo + BLOCK < j->n ? lo + BLOCK : j->n;
    memset(j->p + lo, 0, (hi - lo) * sizeof *j->p);
}

/* ---- the Lagrange basis at tau: L_j = c0 · w^j / (tau - w^j) ---- */
typedef struct {
    cz_fr *lag;
    size_t m;
    cz_fr tau, omega, c0;
} lag_job;

static void lag_block(void *ctx, size_t item)
{
    lag_job *j = ctx;
    size_t lo = item * LAG_BLOCK, hi = lo + LAG_BLOCK < j->m ? lo + LAG_BLOCK : j->m;
    cz_fr scr[LAG_BLOCK], w0, wj;
    uint64_t e = lo;
    cz_fr_pow(&w0, &j->omega, &e, 1);
    wj = w0;
    for (size_t i = lo; i < hi; i++) {
        cz_fr_sub(&j->lag[i], &j->tau, &wj);
        cz_fr_mul(&wj, &wj, &j->omega);
    }
    cz_fr_batch_inv(j->lag + lo, j->lag + lo, hi - lo, scr);
    wj = w0;
    for (size_t i = lo; i < hi; i++) {
        cz_fr_mul(&j->lag[i], &j->lag[i], &wj);
        cz_fr_mul(&j->lag[i], &j->lag[i], &j->c0);
        cz_fr_mul(&wj, &wj, &j->omega);
    }
}

/* ---- column sums: task (matrix, range) adds the entries of its columns ---- */
typedef struct {
    const cz_r1cs *cs;
    const cz_fr *lag;
    cz_fr *acc[3];
    size_t nranges;
} col_job;

static void col_task(void *ctx, size_t item)
{
    col_job *j = ctx;
    const cz_csr *mtx = &j->cs->m[item / j->nranges];
    cz_fr *acc = j->acc[item / j->nranges];
    uint64_t nv = j->cs->n_vars, r = item % j->nranges;
    uint64_t c0 = nv * r / j->nranges, span = nv * (r + 1) / j->nranges - c0;
    for (uint64_t row = 0; row < mtx->n_rows; row++)
        for (uint64_t k = mtx->row_ptr[row]; k < mtx->row_ptr[row + 1]; k++) {
            uint64_t c = mtx->col[k];
            if (c - c0 >= span) continue; /* also c < c0 (wraps) */
            uint32_t ci = cz_csr_cidx(mtx, k);
            if (ci == 0) cz_fr_add(&acc[c], &acc[c], &j->lag[row]);
            else if (ci == 1) cz_fr_sub(&acc[c], &acc[c], &j->lag[row]);
            else {
                cz_fr t;
                cz_fr_mul(&t, &mtx->coefs[ci], &j->lag[row]);
                cz_fr_add(&acc[c], &acc[c], &t);
            }
        }
}

/* ---- h_i = p tau^i for i in [0, n), p = t(tau) / delta ---- */
typedef struct {
    cz_fr *h;
    size_t n;
    cz_fr p, tau;
} h_job;

static void h_block(void *ctx, size_t item)
{
    h_job *j = ctx;
    size_t lo = item * BLOCK, hi = lo + BLOCK < j->n ? lo + BLOCK : j->n;
    cz_fr x;
    uint64_t e = lo;
    cz_fr_pow(&x, &j->tau, &e, 1);
    cz_fr_mul(&x, &x, &j->p);
    for (size_t i = lo; i < hi; i++) {
        j->h[i] = x;
        cz_fr_mul(&x, &x, &j->tau);
    }
}

/* ---- l_i = (beta u_i + alpha v_i + w_i) / (gamma or delta), in place of w */
typedef struct {
    cz_fr *w;
    const cz_fr *u, *v;
    size_t nv, ni;
    cz_fr alpha, beta, gamma_inv, delta_inv;
} l_job;

static void l_block(void *ctx, size_t item)
{
    l_job *j = ctx;
    size_t lo = item * BLOCK, hi = lo + BLOCK < j->nv ? lo + BLOCK : j->nv;
    for (size_t i = lo; i < hi; i++) {
        cz_fr x, y;
        cz_fr_mul(&x, &j->beta, &j->u[i]);
        cz_fr_mul(&y, &j->alpha, &j->v[i]);
        cz_fr_add(&x, &x, &y);
        cz_fr_add(&x, &x, &j->w[i]);
        cz_fr_mul(&j->w[i], &x, i < j->ni ? &j->gamma_inv : &j->delta_inv);
    }
}

/* moves the non-zero entries of src[0..n) down to dst (dst <= src, so the
 * walk from the left never overwrites an entry not yet read); returns how
 * many */
static size_t compact_nonzero(cz_fr *dst, const cz_fr *src, size_t n)
{
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (cz_fr_is_zero(&src[i])) continue;
        if (dst + out != src + i) dst[out] = src[i];
        out++;
    }
    return out;
}

void cz__setup_scalars_free(cz__setup_scalars *s)
{
    free(s->k);
    memset(s, 0, sizeof *s);
}

cz_err cz__setup_make_scalars(cz__setup_scalars *s, const cz_r1cs *cs, uint64_t seed, cz_pool *pool,
                              char *msg, size_t msglen)
{
    memset(s, 0, sizeof *s);
    cz_err err = CZ_OK;
    int log_m = cz_groth16_domain_log(cs);
    size_t m = (size_t)1 << log_m, nv = cs->n_vars, ni = cs->n_inputs, naux = nv - ni;
    cz_rng rng;
    cz_rng_seed(&rng, seed ^ 0x43555a4b53455455ULL);
    cz_fr tau, alpha, beta, gamma, delta, gamma_inv, delta_inv, one;
    cz_fr_one(&one);
    random_nonzero(&tau, &rng);
    random_nonzero(&alpha, &rng);
    random_nonzero(&beta, &rng);
    random_nonzero(&gamma, &rng);
    random_nonzero(&delta, &rng);
    cz_fr_inv(&gamma_inv, &gamma);
    cz_fr_inv(&delta_inv, &delta);

    cz_ntt_domain dom = {0};
    uint64_t *bits = NULL;
    /* k: [0, m) the Lagrange basis, then h | one unused entry | ic l (w) |
     * a (u) | b (v) */
    size_t u_at = m + nv, v_at = m + 2 * nv;
    s->n_k = m + 3 * nv;
    s->k = malloc(s->n_k * sizeof *s->k);
    bits = malloc(((nv + 63) / 64 + 1) * sizeof *bits);
    if (!s->k || !bits) { err = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory"); goto done; }
    cz_fr *k = s->k, *lag = s->k;
    /* constraint i at omega^i, omega from cs->ntt_generator (0: bellperson's 7) */
    if ((err = cz_ntt_domain_init(&dom, log_m, cs->ntt_generator ? cs->ntt_generator : 7))) {
        cz_fail(err, msg, msglen, "domain 2^%d", log_m);
        goto done;
    }
    /* the prover filters a and b by column density (A's counting every
     * input); known before any evaluation */
    uint64_t pa = cz_groth16_density_a(cs, bits);
    uint64_t pb = cz_r1cs_density(cs, CZ_B, bits);

    /* Lagrange basis at tau; t(tau) = tau^m - 1 */
    cz_fr tm, t_tau, minv;
    uint64_t e = m;
    cz_fr_pow(&tm, &tau, &e, 1);
    cz_fr_sub(&t_tau, &tm, &one);
    if (cz_fr_is_zero(&t_tau)) { err = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "seed puts tau in the domain; pick another seed"); goto done; }
    cz_fr_from_u64(&minv, m);
    cz_fr_inv(&minv, &minv);
    lag_job lj = {.lag = lag, .m = m, .tau = tau, .omega = dom.omega};
    cz_fr_mul(&lj.c0, &t_tau, &minv);
    cz_pool_run(pool, blocks(m, LAG_BLOCK), lag_block, &lj);

    /* u, v, w */
    zero_job zj = {.p = k + m, .n = 3 * nv};
    cz_pool_run(pool, blocks(zj.n, BLOCK), zero_block, &zj);
    unsigned threads = cz_pool_threads(pool);
    col_job cj = {.cs = cs, .lag = lag, .acc = {k + u_at, k + v_at, k + m}, .nranges = threads > 1 ? threads : 1};
    cz_pool_run(pool, 3 * cj.nranges, col_task, &cj);
    for (size_t i = 0; i < ni; i++) cz_fr_add(&k[u_at + i], &k[u_at + i], &lag[cs->n_constraints + i]);

    /* ic and l in place of w; a and b moved down from u and v */
    s->n_h = m - 1;
    s->n_ic = ni;
    s->n_l = naux;
    s->ic_off = m;
    s->l_off = m + ni;
    s->a_off = m + nv;
    l_job ljb = {.w = k + m, .u = k + u_at, .v = k + v_at, .nv = nv, .ni = ni,
                 .alpha = alpha, .beta = beta, .gamma_inv = gamma_inv, .delta_inv = delta_inv};
    cz_pool_run(pool, blocks(nv, BLOCK), l_block, &ljb);
    s->n_a = compact_nonzero(k + s->a_off, k + u_at, nv);
    s->b_off = s->a_off + s->n_a;
    s->n_b = compact_nonzero(k + s->b_off, k + v_at, nv);
    /* a column with entries whose evaluation vanishes would desynchronise
     * the key from the prover's density filter (negligible for a random
     * tau, but refuse rather than produce a broken key) */
    if (pa != s->n_a || pb != s->n_b) { err = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "a QAP column vanishes at tau; pick another seed"); goto done; }

    /* h over the basis, which is no longer needed */
    h_job hj = {.h = k, .n = m - 1, .tau = tau};
    cz_fr_mul(&hj.p, &t_tau, &delta_inv);
    cz_pool_run(pool, blocks(hj.n, BLOCK), h_block, &hj);

    s->vk_g1[0] = alpha; s->vk_g1[1] = beta; s->vk_g1[2] = delta;
    s->vk_g2[0] = beta; s->vk_g2[1] = gamma; s->vk_g2[2] = delta;
done:
    cz_ntt_domain_free(&dom);
    free(bits);
    if (err) cz__setup_scalars_free(s);
    return err;
}

/* the points a progress step makes (cz__setup_progress_chunks for tests) */
static size_t fb_chunk_g1 = (size_t)1 << 18, fb_chunk_g2 = (size_t)1 << 16;

void cz__setup_progress_chunks(size_t g1, size_t g2)
{
    fb_chunk_g1 = g1 ? g1 : (size_t)1 << 18;
    fb_chunk_g2 = g2 ? g2 : (size_t)1 << 16;
}

/* fixed-base multiplications of one point family (G2 when g2), in steps
 * when progress is reported (each point is independent: the same points
 * either way) */
static void fb_steps(int g2, void *out, const cz_fr *k, size_t n, const void *table, cz_pool *pool,
                     const char *stage, cz_progress_fn fn, void *ctx)
{
    size_t chunk = fn ? (g2 ? fb_chunk_g2 : fb_chunk_g1) : (n ? n : 1);
    for (size_t off = 0; off < n; off += chunk) {
        size_t c = n - off < chunk ? n - off : chunk;
        if (g2) cz__setup_fixed_base_g2((cz_g2_aff *)out + off, k + off, c, table, pool);
        else cz__setup_fixed_base_g1((cz_g1_aff *)out + off, k + off, c, table, pool);
        if (fn) fn(ctx, stage, off + c, n);
    }
}

cz_err cz_groth16_setup_insecure(cz_groth16_pk *pk, const cz_r1cs *cs, uint64_t seed, cz_pool *pool,
                                 char *msg, size_t msglen)
{
    return cz_groth16_setup_insecure_progress(pk, cs, seed, pool, NULL, NULL, msg, msglen);
}

cz_err cz_groth16_setup_insecure_progress(cz_groth16_pk *pk, const cz_r1cs *cs, uint64_t seed, cz_pool *pool,
                                          cz_progress_fn progress, void *progress_ctx, char *msg, size_t msglen)
{
    memset(pk, 0, sizeof *pk);
    cz__setup_scalars s;
    cz_err err = cz__setup_make_scalars(&s, cs, seed, pool, msg, msglen);
    if (err) return err;
    if (progress) progress(progress_ctx, "QAP at tau", 1, 1);
    cz_g1_aff *t1 = cz__setup_table_g1();
    cz_g2_aff *t2 = cz__setup_table_g2();
    pk->n_h = s.n_h; pk->n_l = s.n_l; pk->n_a = s.n_a; pk->n_b_g1 = s.n_b; pk->n_b_g2 = s.n_b;
    pk->vk.ic = malloc((s.n_ic ? s.n_ic : 1) * sizeof *pk->vk.ic);
    pk->h = malloc((s.n_h ? s.n_h : 1) * sizeof *pk->h);
    pk->l = malloc((s.n_l ? s.n_l : 1) * sizeof *pk->l);
    pk->a = malloc((s.n_a ? s.n_a : 1) * sizeof *pk->a);
    pk->b_g1 = malloc((s.n_b ? s.n_b : 1) * sizeof *pk->b_g1);
    pk->b_g2 = malloc((s.n_b ? s.n_b : 1) * sizeof *pk->b_g2);
    if (!t1 || !t2 || !pk->vk.ic || !pk->h || !pk->l || !pk->a || !pk->b_g1 || !pk->b_g2) {
        err = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
        goto done;
    }
    fb_steps(0, pk->h, s.k, s.n_h, t1, pool, "h points", progress, progress_ctx);
    cz__setup_fixed_base_g1(pk->vk.ic, s.k + s.ic_off, s.n_ic, t1, pool);
    fb_steps(0, pk->l, s.k + s.l_off, s.n_l, t1, pool, "l points", progress, progress_ctx);
    fb_steps(0, pk->a, s.k + s.a_off, s.n_a, t1, pool, "a points", progress, progress_ctx);
    fb_steps(0, pk->b_g1, s.k + s.b_off, s.n_b, t1, pool, "b points (G1)", progress, progress_ctx);
    fb_steps(1, pk->b_g2, s.k + s.b_off, s.n_b, t2, pool, "b points (G2)", progress, progress_ctx);
    pk->vk.n_ic = s.n_ic;
    if ((err = cz__setup_vk_points(&pk->vk, &s))) cz_fail(err, msg, msglen, "out of memory");
done:
    free(t1);
    free(t2);
    cz__setup_scalars_free(&s);
    if (err) cz_groth16_pk_free(pk);
    return err;
}
