/* zkey_export.c — .zkey -> bellperson proving key (see zkey_export.h). The H
 * change of basis is an iterative radix-2 NTT over Jacobian G1 points
 * (bit-reversal, then log n stages of butterflies u +- w^k v, each stage
 * split over the pool), the twiddles from the shared NTT domain (generator
 * 5), then one scalar multiplication per point and a batch conversion to
 * affine. */
#include "formats/zkey_export.h"

#include <stdlib.h>
#include <string.h>

#include "formats/fio.h"
#include "poly/ntt.h"
#include "formats/zkey.h"

#define fail cz_fail
#define SNARKJS_GENERATOR 5

typedef struct {
    cz_g1_jac *p;
    const cz_fr *tw;      /* plain twiddles w_n^k, k < n/2 */
    size_t n, half, step; /* butterfly span `half`, twiddle stride `step` */
} stage_job;

#define BCHUNK 256

static void butterfly_task(void *ctx, size_t item)
{
    stage_job *j = ctx;
    size_t nb = j->n / 2, lo = item * BCHUNK, hi = lo + BCHUNK < nb ? lo + BCHUNK : nb;
    for (size_t b = lo; b < hi; b++) {
        size_t grp = b / j->half, k = b % j->half;
        size_t i0 = grp * 2 * j->half + k, i1 = i0 + j->half;
        cz_g1_jac t;
        if (k == 0) t = j->p[i1];
        else cz_g1_mul(&t, &j->p[i1], j->tw[k * j->step].l, 255);
        cz_g1_jac u = j->p[i0];
        cz_g1_add(&j->p[i0], &u, &t);
        cz_g1_neg(&t, &t);
        cz_g1_add(&j->p[i1], &u, &t);
    }
}

typedef struct {
    cz_g1_jac *p;
    const cz_fr *pw; /* plain scalars per point */
    size_t n;
} scale_job;

static void scale_task(void *ctx, size_t item)
{
    scale_job *j = ctx;
    size_t lo = item * BCHUNK, hi = lo + BCHUNK < j->n ? lo + BCHUNK : j->n;
    for (size_t i = lo; i < hi; i++) cz_g1_mul(&j->p[i], &j->p[i], j->pw[i].l, 255);
}

/* in-place radix-2 DIT NTT over n = 2^log_n Jacobian points with the plain
 * twiddles tw[k] = root^k, k < n/2 (natural order in and out) */
static void g1_ntt(cz_g1_jac *p, int log_n, const cz_fr *tw, cz_pool *pool)
{
    size_t n = (size_t)1 << log_n;
    for (size_t i = 0; i < n; i++) {
        size_t r = 0;
        for (int b = 0; b < log_n; b++) r |= ((i >> b) & 1) << (log_n - 1 - b);
        if (r > i) { cz_g1_jac t = p[i]; p[i] = p[r]; p[r] = t; }
    }
    for (size_t half = 1; half < n; half *= 2) {
        stage_job j = {.p = p, .tw = tw, .n = n, .half = half, .step = n / (2 * half)};
        cz_pool_run(pool, (n / 2 + BCHUNK - 1) / BCHUNK, butterfly_task, &j);
    }
}

/* the scalars c_j = -2 w_2n^j (j < n), Montgomery */
static void h_scalars(cz_fr *c, const cz_ntt_domain *dom2, size_t n)
{
    cz_fr m2;
    cz_fr_from_u64(&m2, 2);
    cz_fr_neg(&m2, &m2);
    for (size_t j = 0; j < n; j++) cz_fr_mul(&c[j], &m2, &dom2->tw[j]);
}

cz_err cz_zkey_h_to_bellperson(cz_g1_aff *out, const void *h, int log_n, cz_pool *pool)
{
    size_t n = (size_t)1 << log_n;
    if (log_n < 1) return CZ_ERR_INVALID_ARG;
    cz_ntt_domain dom, dom2;
    cz_err e = cz_ntt_domain_init(&dom, log_n, SNARKJS_GENERATOR);
    if (e) return e;
    if ((e = cz_ntt_domain_init(&dom2, log_n + 1, SNARKJS_GENERATOR))) { cz_ntt_domain_free(&dom); return e; }
    cz_g1_jac *p = malloc(n * sizeof *p);
    cz_fr *tw = malloc(n * sizeof *tw);
    if (!p || !tw) { e = CZ_ERR_NOMEM; goto out; }
    for (size_t i = 0; i < n; i++) {
        cz_g1_aff a;
        memcpy(&a, (const uint8_t *)h + i * sizeof a, sizeof a);
        cz_g1_from_aff(&p[i], &a);
    }
    for (size_t k = 0; k < n / 2; k++) cz_fr_from_mont(&tw[k], &dom.tw[k]);
    g1_ntt(p, log_n, tw, pool);
    /* point j times -2 w_2n^j */
    h_scalars(tw, &dom2, n);
    for (size_t j = 0; j < n; j++) cz_fr_from_mont(&tw[j], &tw[j]);
    scale_job sj = {.p = p, .pw = tw, .n = n - 1};
    cz_pool_run(pool, (n - 1 + BCHUNK - 1) / BCHUNK, scale_task, &sj);
    cz_g1_batch_to_aff(out, p, n - 1);
out:
    free(p);
    free(tw);
    cz_ntt_domain_free(&dom);
    cz_ntt_domain_free(&dom2);
    return e;
}

cz_err cz_zkey_h_from_bellperson(cz_g1_aff *out, const cz_g1_aff *h, int log_n, cz_pool *pool)
{
    size_t n = (size_t)1 << log_n;
    if (log_n < 1) return CZ_ERR_INVALID_ARG;
    cz_ntt_domain dom, dom2;
    cz_err e = cz_ntt_domain_init(&dom, log_n, SNARKJS_GENERATOR);
    if (e) return e;
    if ((e = cz_ntt_domain_init(&dom2, log_n + 1, SNARKJS_GENERATOR))) { cz_ntt_domain_free(&dom); return e; }
    cz_g1_jac *p = malloc(n * sizeof *p);
    cz_fr *tw = malloc(n * sizeof *tw), *sc = malloc(n * sizeof *sc);
    if (!p || !tw || !sc) { e = CZ_ERR_NOMEM; goto out; }
    /* X_j = h_j / (-2 w_2n^j), X_{n-1} = 0 (the unused direction) */
    h_scalars(sc, &dom2, n);
    cz_fr_batch_inv(sc, sc, n, tw);
    for (size_t j = 0; j < n; j++) cz_fr_from_mont(&sc[j], &sc[j]);
    for (size_t j = 0; j + 1 < n; j++) cz_g1_from_aff(&p[j], &h[j]);
    cz_g1_set_inf(&p[n - 1]);
    scale_job sj = {.p = p, .pw = sc, .n = n - 1};
    cz_pool_run(pool, (n - 1 + BCHUNK - 1) / BCHUNK, scale_task, &sj);
    /* H_i = n^-1 sum_j w_n^(-ij) X_j */
    for (size_t k = 0; k < n / 2; k++) cz_fr_from_mont(&tw[k], &dom.tw_inv[k]);
    g1_ntt(p, log_n, tw, pool);
    for (size_t j = 0; j < n; j++) cz_fr_from_mont(&sc[j], &dom.n_inv);
    sj.n = n;
    cz_pool_run(pool, (n + BCHUNK - 1) / BCHUNK, scale_task, &sj);
    cz_g1_batch_to_aff(out, p, n);
out:
    free(p);
    free(tw);
    free(sc);
    cz_ntt_domain_free(&dom);
    cz_ntt_domain_free(&dom2);
    return e;
}

/* keeps the points of `src` (n entries) whose bit is set; refuses infinity
 * there and anything but infinity elsewhere */
static cz_err filter(void **out, size_t *cnt, const void *src, size_t sz, uint64_t n, const uint64_t *bits,
                     int (*is_inf)(const void *), const char *name, char *msg, size_t msglen)
{
    size_t k = 0;
    for (uint64_t i = 0; i < n; i++) k += (bits[i / 64] >> (i % 64)) & 1;
    uint8_t *d = malloc(k ? k * sz : 1);
    if (!d) return fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    k = 0;
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *p = (const uint8_t *)src + i * sz;
        int set = (bits[i / 64] >> (i % 64)) & 1;
        if (set && is_inf(p)) {
            free(d);
            return fail(CZ_ERR_UNSUPPORTED, msg, msglen,
                        "zkey %s point of signal %llu is the point at infinity, which bellperson parameters cannot hold",
                        name, (unsigned long long)i);
        }
        if (!set && !is_inf(p)) {
            free(d);
            return fail(CZ_ERR_INVALID_ARG, msg, msglen,
                        "zkey %s point of signal %llu is not infinity but the r1cs has no such term: not the same circuit",
                        name, (unsigned long long)i);
        }
        if (set) memcpy(d + sz * k++, p, sz);
    }
    *out = d;
    *cnt = k;
    return CZ_OK;
}

/* the points may sit at any byte address (groth16.h): copied first */
static int g1_inf(const void *p)
{
    cz_g1_aff q;
    memcpy(&q, p, sizeof q);
    return cz_g1_aff_is_inf(&q);
}
static int g2_inf(const void *p)
{
    cz_g2_aff q;
    memcpy(&q, p, sizeof q);
    return cz_g2_aff_is_inf(&q);
}

cz_err cz_zkey_to_params(cz_groth16_pk *pk, const cz_zkey *zk, cz_r1cs *cs, cz_pool *pool, char *msg,
                         size_t msglen)
{
    memset(pk, 0, sizeof *pk);
    const cz_groth16_zpk *z = &zk->pk;
    uint64_t nv = z->n_vars, nin = z->n_public + 1, n = (uint64_t)1 << z->log_domain;
    if (cs->n_vars != nv || cs->n_inputs != nin)
        return fail(CZ_ERR_INVALID_ARG, msg, msglen,
                    "the r1cs has %llu signals (%llu public), the zkey %llu (%llu public): not the same circuit",
                    (unsigned long long)cs->n_vars, (unsigned long long)cs->n_inputs - 1, (unsigned long long)nv,
                    (unsigned long long)nin - 1);
    if (cs->n_constraints + nin > n || 2 * (cs->n_constraints + nin) <= n || cs->n_constraints + nin != zk->n_constraints_used)
        return fail(CZ_ERR_INVALID_ARG, msg, msglen,
                    "the r1cs has %llu constraints, the zkey's coefficients use %llu rows of a 2^%d domain: not the same "
                    "circuit", (unsigned long long)cs->n_constraints, (unsigned long long)zk->n_constraints_used,
                    z->log_domain);
    /* A and B against the zkey's rows on a random assignment */
    cz_err e = CZ_OK;
    cz_fr *x = malloc(nv * sizeof *x), *a1 = malloc(n * sizeof *a1), *b1 = malloc(n * sizeof *b1);
    cz_fr *a2 = malloc((cs->n_constraints + 1) * sizeof *a2), *b2 = malloc((cs->n_constraints + 1) * sizeof *b2);
    uint64_t words = (nv + 63) / 64;
    uint64_t *da = calloc(words, 8), *db = calloc(words, 8);
    if (!x || !a1 || !b1 || !a2 || !b2 || !da || !db) { e = fail(CZ_ERR_NOMEM, msg, msglen, "out of memory"); goto out; }
    {
        cz_rng rng;
        uint8_t seed[8];
        uint64_t s = 0x5eed;
        if (cz_os_random(seed, sizeof seed) == CZ_OK) memcpy(&s, seed, sizeof s);
        cz_rng_seed(&rng, s);
        for (uint64_t i = 0; i < nv; i++) cz_fr_random(&x[i], &rng);
        cz_fr_one(&x[0]);
    }
    cz_r1cs_spmv(&z->qap, x, a1, b1, NULL, pool);
    cz_r1cs_spmv(cs, x, a2, b2, NULL, pool);
    for (uint64_t i = 0; i < cs->n_constraints; i++)
        if (!cz_fr_eq(&a1[i], &a2[i]) || !cz_fr_eq(&b1[i], &b2[i])) {
            e = fail(CZ_ERR_INVALID_ARG, msg, msglen,
                     "constraint %llu of the r1cs differs from the zkey's coefficients: not the same circuit",
                     (unsigned long long)i);
            goto out;
        }
    for (uint64_t i = 0; i < nin; i++)
        if (!cz_fr_eq(&a1[cs->n_constraints + i], &x[i]) || !cz_fr_is_zero(&b1[cs->n_constraints + i])) {
            e = fail(CZ_ERR_INVALID_ARG, msg, msglen, "the zkey's input row %llu is not `input * 0 = 0`",
                     (unsigned long long)i);
            goto out;
        }
    cz_r1cs_density(cs, CZ_A, da);
    for (uint64_t i = 0; i < nin; i++) da[i / 64] |= (uint64_t)1 << (i % 64);
    cz_r1cs_density(cs, CZ_B, db);

    pk->vk = z->vk;
    pk->vk.ic = malloc(nin * sizeof *pk->vk.ic);
    pk->h = malloc((n - 1 ? n - 1 : 1) * sizeof *pk->h);
    pk->l = malloc(((nv - nin) ? nv - nin : 1) * sizeof *pk->l);
    if (!pk->vk.ic || !pk->h || !pk->l) { e = fail(CZ_ERR_NOMEM, msg, msglen, "out of memory"); goto out; }
    memcpy(pk->vk.ic, z->vk.ic, nin * sizeof *pk->vk.ic);
    for (uint64_t i = 0; i < nin; i++)
        if (cz_g1_aff_is_inf(&pk->vk.ic[i])) {
            e = fail(CZ_ERR_UNSUPPORTED, msg, msglen, "zkey IC point %llu is infinity, which bellperson parameters "
                     "cannot hold", (unsigned long long)i);
            goto out;
        }
    pk->n_l = nv - nin;
    memcpy(pk->l, z->c, pk->n_l * sizeof *pk->l);
    for (uint64_t i = 0; i < pk->n_l; i++)
        if (cz_g1_aff_is_inf(&pk->l[i])) {
            e = fail(CZ_ERR_UNSUPPORTED, msg, msglen,
                     "signal %llu appears in no constraint (its C point is infinity), which bellperson parameters "
                     "cannot hold", (unsigned long long)(i + nin));
            goto out;
        }
    {
        void *fa = NULL, *fb1 = NULL, *fb2 = NULL;
        e = filter(&fa, &pk->n_a, z->a, sizeof(cz_g1_aff), nv, da, g1_inf, "A", msg, msglen);
        pk->a = fa;
        if (!e) e = filter(&fb1, &pk->n_b_g1, z->b_g1, sizeof(cz_g1_aff), nv, db, g1_inf, "B1", msg, msglen);
        pk->b_g1 = fb1;
        if (!e) e = filter(&fb2, &pk->n_b_g2, z->b_g2, sizeof(cz_g2_aff), nv, db, g2_inf, "B2", msg, msglen);
        pk->b_g2 = fb2;
        if (e) goto out;
    }
    pk->n_h = n - 1;
    if ((e = cz_zkey_h_to_bellperson(pk->h, z->h, z->log_domain, pool))) {
        fail(e, msg, msglen, "H change of basis failed: %s", cz_strerror(e));
        goto out;
    }
    for (uint64_t i = 0; i < pk->n_h; i++)
        if (cz_g1_aff_is_inf(&pk->h[i])) {
            e = fail(CZ_ERR_UNSUPPORTED, msg, msglen, "bellperson H point %llu is infinity", (unsigned long long)i);
            goto out;
        }
    cs->ntt_generator = SNARKJS_GENERATOR;
out:
    if (e) cz_groth16_pk_free(pk);
    free(x); free(a1); free(b1); free(a2); free(b2); free(da); free(db);
    return e;
}

/* ---------------------------------------------------- the reverse: .zkey */
static void put_u32(cz__writer *w, uint32_t v)
{
    uint8_t b[4];
    cz__put_le32(b, v);
    cz__writer_put(w, b, 4);
}

static void section_head(cz__writer *w, uint32_t id, uint64_t size)
{
    uint8_t b[12];
    cz__put_le32(b, id);
    cz__put_le64(b + 4, size);
    cz__writer_put(w, b, 12);
}

/* points of the variables with their density bit set, infinity elsewhere */
static void expand(cz__writer *w, const void *pts, size_t sz, uint64_t nv, const uint64_t *bits)
{
    static const uint8_t zero[192];
    size_t k = 0;
    for (uint64_t i = 0; i < nv; i++) {
        if ((bits[i / 64] >> (i % 64)) & 1) cz__writer_put(w, (const uint8_t *)pts + sz * k++, sz);
        else cz__writer_put(w, zero, sz);
    }
}

static void coef(cz__writer *w, uint32_t m, uint64_t c, uint32_t sig, const cz_fr *v)
{
    cz_fr raw; /* c R^2 mod r: the Montgomery form of (c R) */
    cz_fr_to_mont(&raw, v);
    uint8_t b[44];
    cz__put_le32(b, m);
    cz__put_le32(b + 4, (uint32_t)c);
    cz__put_le32(b + 8, sig);
    for (int i = 0; i < 4; i++) cz__put_le64(b + 12 + 8 * i, raw.l[i]);
    cz__writer_put(w, b, 44);
}

static cz_err zkey_emit(cz__writer *w, uint64_t *size, const cz_groth16_pk *pk, const cz_r1cs *cs, cz_pool *pool,
                        char *msg, size_t msglen)
{
    uint64_t nv = cs->n_vars, nin = cs->n_inputs, nc = cs->n_constraints;
    int log_n = 0;
    while (((uint64_t)1 << log_n) < nc + nin) log_n++;
    uint64_t n = (uint64_t)1 << log_n;
    if (cs->ntt_generator != SNARKJS_GENERATOR)
        return fail(CZ_ERR_INVALID_ARG, msg, msglen, "the key must be made for roots from 5 (ntt_generator = 5)");
    if (log_n < 1 || log_n > CZ_ZKEY_MAX_LOG_DOMAIN || nv > UINT32_MAX)
        return fail(CZ_ERR_UNSUPPORTED, msg, msglen, "domain 2^%d or %llu signals do not fit a zkey", log_n,
                    (unsigned long long)nv);
    uint64_t words = (nv + 63) / 64;
    uint64_t *da = calloc(words + 1, 8), *db = calloc(words + 1, 8);
    cz_g1_aff *h = malloc(n * sizeof *h);
    cz_err e = CZ_OK;
    if (!da || !db || !h) { e = fail(CZ_ERR_NOMEM, msg, msglen, "out of memory"); goto out; }
    uint64_t na = cz_groth16_density_a(cs, da), nb = cz_r1cs_density(cs, CZ_B, db);
    if (pk->vk.n_ic != nin || pk->n_l != nv - nin || pk->n_h != n - 1 || pk->n_a != na || pk->n_b_g1 != nb ||
        pk->n_b_g2 != nb) {
        e = fail(CZ_ERR_INVALID_ARG, msg, msglen, "the key does not fit the constraint system");
        goto out;
    }
    if (size) { /* only the size */
        uint64_t ncoef = cs->m[CZ_A].nnz + cs->m[CZ_B].nnz + nin;
        *size = 12 + 10 * 12 + 4 + 964 + nin * 96 + 4 + ncoef * 44 + 2 * nv * 96 + nv * 192 + (nv - nin) * 96 +
                n * 96 + 68;
        goto out;
    }
    if ((e = cz_zkey_h_from_bellperson(h, pk->h, log_n, pool))) { fail(e, msg, msglen, "H change of basis failed"); goto out; }
    uint8_t b[48];
    cz__writer_put(w, "zkey", 4);
    put_u32(w, 1);
    put_u32(w, 10);
    section_head(w, 1, 4);
    put_u32(w, 1);
    section_head(w, 2, 964);
    put_u32(w, 48);
    for (int i = 0; i < 6; i++) cz__put_le64(b + 8 * i, cz_fp_modulus.l[i]);
    cz__writer_put(w, b, 48);
    put_u32(w, 32);
    for (int i = 0; i < 4; i++) cz__put_le64(b + 8 * i, cz_fr_modulus.l[i]);
    cz__writer_put(w, b, 32);
    put_u32(w, (uint32_t)nv);
    put_u32(w, (uint32_t)(nin - 1));
    put_u32(w, (uint32_t)n);
    cz__writer_put(w, &pk->vk.alpha_g1, 96);
    cz__writer_put(w, &pk->vk.beta_g1, 96);
    cz__writer_put(w, &pk->vk.beta_g2, 192);
    cz__writer_put(w, &pk->vk.gamma_g2, 192);
    cz__writer_put(w, &pk->vk.delta_g1, 96);
    cz__writer_put(w, &pk->vk.delta_g2, 192);
    section_head(w, 3, nin * 96);
    cz__writer_put(w, pk->vk.ic, nin * 96);
    uint64_t ncoef = cs->m[CZ_A].nnz + cs->m[CZ_B].nnz + nin;
    section_head(w, 4, 4 + ncoef * 44);
    put_u32(w, (uint32_t)ncoef);
    for (uint64_t row = 0; row < nc; row++) {
        for (int m = 0; m < 2; m++) {
            const cz_csr *c = &cs->m[m];
            for (uint64_t k = c->row_ptr[row]; k < c->row_ptr[row + 1]; k++) {
                coef(w, (uint32_t)m, row, c->col[k], &c->coefs[cz_csr_cidx(c, k)]);
            }
        }
    }
    cz_fr one;
    cz_fr_one(&one);
    for (uint64_t i = 0; i < nin; i++) coef(w, 0, nc + i, (uint32_t)i, &one);
    section_head(w, 5, nv * 96);
    expand(w, pk->a, 96, nv, da);
    section_head(w, 6, nv * 96);
    expand(w, pk->b_g1, 96, nv, db);
    section_head(w, 7, nv * 192);
    expand(w, pk->b_g2, 192, nv, db);
    section_head(w, 8, (nv - nin) * 96);
    cz__writer_put(w, pk->l, (nv - nin) * 96);
    section_head(w, 9, n * 96);
    cz__writer_put(w, h, n * 96);
    section_head(w, 10, 68); /* contributions: a zero circuit hash, none */
    cz__writer_zeros(w, 68);
out:
    free(da);
    free(db);
    free(h);
    return e;
}

cz_err cz_zkey_encode_from_params(uint8_t **out, size_t *len, const cz_groth16_pk *pk, const cz_r1cs *cs,
                                  cz_pool *pool, char *msg, size_t msglen)
{
    *out = NULL;
    *len = 0;
    uint64_t size = 0;
    cz_err e = zkey_emit(NULL, &size, pk, cs, pool, msg, msglen);
    if (e) return e;
    uint8_t *buf = malloc(size);
    if (!buf) return fail(CZ_ERR_NOMEM, msg, msglen, "out of memory for %llu bytes", (unsigned long long)size);
    cz__writer w;
    cz__writer_mem(&w, buf, size);
    if (!(e = zkey_emit(&w, NULL, pk, cs, pool, msg, msglen))) e = cz__writer_commit(&w, msg, msglen);
    else cz__writer_abort(&w);
    if (!e && w.pos != size) e = fail(CZ_ERR_INVALID_ARG, msg, msglen, "zkey size mismatch");
    if (e) { free(buf); return e; }
    *out = buf;
    *len = size;
    return CZ_OK;
}

cz_err cz_zkey_write_from_params(const char *path, const cz_groth16_pk *pk, const cz_r1cs *cs, cz_pool *pool,
                                 char *msg, size_t msglen)
{
    cz_err e = zkey_emit(NULL, &(uint64_t){0}, pk, cs, pool, msg, msglen);
    if (e) return e;
    cz__writer w;
    if ((e = cz__writer_open(&w, path, msg, msglen))) return e;
    if ((e = zkey_emit(&w, NULL, pk, cs, pool, msg, msglen))) { cz__writer_abort(&w); return e; }
    return cz__writer_commit(&w, msg, msglen);
}
