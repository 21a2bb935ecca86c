/* r1cs.c — building a CSR constraint system term by term, and evaluating it.
 *
 * The builder appends to growable arrays per matrix and interns coefficients
 * in an open-addressing hash table (keyed by the Montgomery limbs), so each
 * distinct value is stored once. finish() narrows the coefficient indices to
 * the smallest width that holds them. SpMV splits rows into chunks over the
 * pool; coefficient index 0 (+1) and 1 (-1) take the add/sub shortcut. */
#include "r1cs/r1cs.h"

#include <stdlib.h>
#include <string.h>

#define ROW_CHUNK 4096

typedef struct {
    uint64_t *row_ptr; size_t rows_cap;
    uint32_t *col; uint32_t *ci; size_t nnz, cap;
    cz__coef_table ct;
} mat_builder;

struct cz_r1cs_builder {
    uint64_t n_inputs, n_vars, n_rows;
    mat_builder m[3];
};

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 1024;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q) return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static uint64_t fr_hash(const cz_fr *c)
{
    uint64_t h = c->l[0] * 0x9e3779b97f4a7c15ULL ^ c->l[1] * 0xc2b2ae3d27d4eb4fULL ^
                 c->l[2] * 0x165667b19e3779f9ULL ^ c->l[3];
    return h ^ (h >> 29);
}

static int rehash(cz__coef_table *m, size_t cap)
{
    uint32_t *h = calloc(cap, sizeof *h);
    if (!h) return -1;
    for (uint32_t i = 0; i < m->n_coefs; i++) {
        size_t s = fr_hash(&m->coefs[i]) & (cap - 1);
        while (h[s]) s = (s + 1) & (cap - 1);
        h[s] = i + 1;
    }
    free(m->hash);
    m->hash = h;
    m->hash_cap = cap;
    return 0;
}

int cz__coef_intern(cz__coef_table *m, const cz_fr *c, uint32_t *idx)
{
    if ((size_t)(m->n_coefs + 1) * 2 > m->hash_cap && rehash(m, m->hash_cap ? m->hash_cap * 2 : 64))
        return -1;
    size_t s = fr_hash(c) & (m->hash_cap - 1);
    while (m->hash[s]) {
        uint32_t i = m->hash[s] - 1;
        if (cz_fr_eq(&m->coefs[i], c)) { *idx = i; return 0; }
        s = (s + 1) & (m->hash_cap - 1);
    }
    if (m->n_coefs == UINT32_MAX) return -1;
    if (grow((void **)&m->coefs, &m->coefs_cap, (size_t)m->n_coefs + 1, sizeof(cz_fr))) return -1;
    m->coefs[m->n_coefs] = *c;
    m->hash[s] = m->n_coefs + 1;
    *idx = m->n_coefs++;
    return 0;
}

cz_err cz_r1cs_builder_new(cz_r1cs_builder **out, uint64_t n_inputs, uint64_t n_aux)
{
    *out = NULL;
    if (n_inputs < 1 || n_inputs + n_aux > UINT32_MAX) return CZ_ERR_INVALID_ARG;
    cz_r1cs_builder *b = calloc(1, sizeof *b);
    if (!b) return CZ_ERR_NOMEM;
    b->n_inputs = n_inputs;
    b->n_vars = n_inputs + n_aux;
    for (int k = 0; k < 3; k++) {
        mat_builder *m = &b->m[k];
        cz_fr one, minus_one;
        uint32_t i0, i1;
        cz_fr_one(&one);
        cz_fr_neg(&minus_one, &one);
        if (grow((void **)&m->row_ptr, &m->rows_cap, 1, sizeof(uint64_t)) || cz__coef_intern(&m->ct, &one, &i0) ||
            cz__coef_intern(&m->ct, &minus_one, &i1)) {
            cz_r1cs_builder_free(b);
            return CZ_ERR_NOMEM;
        }
        m->row_ptr[0] = 0;
    }
    *out = b;
    return CZ_OK;
}

cz_err cz_r1cs_builder_term(cz_r1cs_builder *b, int which, uint64_t var, const cz_fr *coef)
{
    if (which < 0 || which > 2 || var >= b->n_vars) return CZ_ERR_INVALID_ARG;
    if (cz_fr_is_zero(coef)) return CZ_OK;
    mat_builder *m = &b->m[which];
    uint32_t idx;
    size_t cap = m->cap;
    if (grow((void **)&m->col, &cap, m->nnz + 1, sizeof(uint32_t))) return CZ_ERR_NOMEM;
    cap = m->cap;
    if (grow((void **)&m->ci, &cap, m->nnz + 1, sizeof(uint32_t))) return CZ_ERR_NOMEM;
    m->cap = cap;
    if (cz__coef_intern(&m->ct, coef, &idx)) return CZ_ERR_NOMEM;
    m->col[m->nnz] = (uint32_t)var;
    m->ci[m->nnz] = idx;
    m->nnz++;
    return CZ_OK;
}

cz_err cz_r1cs_builder_end_constraint(cz_r1cs_builder *b)
{
    for (int k = 0; k < 3; k++) {
        mat_builder *m = &b->m[k];
        if (grow((void **)&m->row_ptr, &m->rows_cap, b->n_rows + 2, sizeof(uint64_t))) return CZ_ERR_NOMEM;
        m->row_ptr[b->n_rows + 1] = m->nnz;
    }
    b->n_rows++;
    return CZ_OK;
}

void cz_r1cs_builder_free(cz_r1cs_builder *b)
{
    if (!b) return;
    for (int k = 0; k < 3; k++) {
        mat_builder *m = &b->m[k];
        free(m->row_ptr); free(m->col); free(m->ci); free(m->ct.coefs); free(m->ct.hash);
    }
    free(b);
}

cz_err cz_r1cs_builder_finish(cz_r1cs_builder *b, cz_r1cs *out)
{
    memset(out, 0, sizeof *out);
    out->n_vars = b->n_vars;
    out->n_inputs = b->n_inputs;
    out->n_constraints = b->n_rows;
    cz_err err = CZ_OK;
    for (int k = 0; k < 3; k++) {
        mat_builder *m = &b->m[k];
        cz_csr *c = &out->m[k];
        c->n_rows = b->n_rows;
        c->nnz = m->nnz;
        c->n_coefs = m->ct.n_coefs;
        c->cidx_bytes = m->ct.n_coefs <= 256 ? 1 : m->ct.n_coefs <= 65536 ? 2 : 4;
        c->row_ptr = m->row_ptr; m->row_ptr = NULL;
        c->coefs = m->ct.coefs; m->ct.coefs = NULL;
        c->col = m->nnz ? m->col : malloc(sizeof(uint32_t));
        if (m->nnz) m->col = NULL;
        c->cidx = malloc(m->nnz ? m->nnz * c->cidx_bytes : 1);
        if (!c->col || !c->cidx) { err = CZ_ERR_NOMEM; continue; }
        for (uint64_t i = 0; i < m->nnz; i++) cz_csr_set_cidx(c, i, m->ci[i]);
    }
    cz_r1cs_builder_free(b);
    if (err) cz_r1cs_free(out);
    return err;
}

void cz_r1cs_free(cz_r1cs *r)
{
    if (!r->map) {
        for (int k = 0; k < 3; k++) {
            cz_csr *c = &r->m[k];
            free(c->row_ptr); free(c->col); free(c->cidx); free(c->coefs);
        }
    }
    /* mapped systems are released by cz_pce_close */
    memset(r->m, 0, sizeof r->m);
}

/* row's sum <row, w>. Index 0 of the coefficient table is +1 and 1 is -1.
 * Another coefficient times a 0 adds nothing and times a 1 adds the
 * coefficient, without a product: most variables of a Filecoin witness are
 * bits (every one of a PoRep label's), so most of its products are of this
 * kind. The top limb is tested first, which a general value passes about
 * never. The sum is the products' exactly. */
static void row_dot(cz_fr *out, const cz_csr *m, uint64_t row, const cz_fr *w)
{
    cz_fr acc;
    cz_fr_zero(&acc);
    for (uint64_t k = m->row_ptr[row]; k < m->row_ptr[row + 1]; k++) {
        uint32_t ci = cz_csr_cidx(m, k);
        const cz_fr *x = &w[m->col[k]];
        if (ci == 0) cz_fr_add(&acc, &acc, x);
        else if (ci == 1) cz_fr_sub(&acc, &acc, x);
        else if (x->l[3] == 0 && cz_fr_is_zero(x)) continue;
        else if (x->l[3] == cz_fr_one_mont.l[3] && cz_fr_eq(x, &cz_fr_one_mont)) cz_fr_add(&acc, &acc, &m->coefs[ci]);
        else {
            cz_fr t;
            cz_fr_mul(&t, x, &m->coefs[ci]);
            cz_fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

struct spmv_job {
    const cz_r1cs *r;
    const cz_fr *w;
    cz_fr *out[3];
    uint64_t *bad; /* per chunk: first failing row + 1, or 0 */
};

static void spmv_chunk(void *ctx, size_t item)
{
    struct spmv_job *j = ctx;
    uint64_t lo = item * ROW_CHUNK, hi = lo + ROW_CHUNK;
    if (hi > j->r->n_constraints) hi = j->r->n_constraints;
    for (int k = 0; k < 3; k++) {
        if (!j->out[k]) continue;
        for (uint64_t row = lo; row < hi; row++) row_dot(&j->out[k][row], &j->r->m[k], row, j->w);
    }
}

void cz_r1cs_spmv(const cz_r1cs *r, const cz_fr *w, cz_fr *a, cz_fr *b, cz_fr *c, cz_pool *pool)
{
    struct spmv_job j = {.r = r, .w = w, .out = {a, b, c}};
    cz_pool_run(pool, (r->n_constraints + ROW_CHUNK - 1) / ROW_CHUNK, spmv_chunk, &j);
}

uint64_t cz_csr_general_terms(const cz_csr *m, const cz_fr *w, uint64_t *on_bits)
{
    cz_fr two, mtwo;
    cz_fr_from_u64(&two, 2);
    cz_fr_neg(&mtwo, &two);
    uint64_t n = 0, nb = 0;
    for (uint64_t k = 0; k < m->nnz; k++) {
        uint32_t ci = cz_csr_cidx(m, k);
        if (ci < 2 || cz_fr_eq(&m->coefs[ci], &two) || cz_fr_eq(&m->coefs[ci], &mtwo)) continue;
        const cz_fr *x = &w[m->col[k]];
        n++;
        nb += cz_fr_is_zero(x) || cz_fr_eq(x, &cz_fr_one_mont);
    }
    *on_bits = nb;
    return n;
}

/* first row in [lo, hi) with <A,w><B,w> != <C,w>, plus one; 0 when none */
static uint64_t first_bad(const cz_r1cs *r, const cz_fr *w, uint64_t lo, uint64_t hi)
{
    for (uint64_t row = lo; row < hi; row++) {
        cz_fr x, y, z;
        row_dot(&x, &r->m[CZ_A], row, w);
        row_dot(&y, &r->m[CZ_B], row, w);
        row_dot(&z, &r->m[CZ_C], row, w);
        cz_fr_mul(&x, &x, &y);
        if (!cz_fr_eq(&x, &z)) return row + 1;
    }
    return 0;
}

static void check_chunk(void *ctx, size_t item)
{
    struct spmv_job *j = ctx;
    uint64_t lo = item * ROW_CHUNK, hi = lo + ROW_CHUNK;
    if (hi > j->r->n_constraints) hi = j->r->n_constraints;
    j->bad[item] = first_bad(j->r, j->w, lo, hi);
}

int cz_r1cs_is_satisfied(const cz_r1cs *r, const cz_fr *w, uint64_t *bad_row, cz_pool *pool)
{
    size_t nch = (r->n_constraints + ROW_CHUNK - 1) / ROW_CHUNK;
    uint64_t *bad = calloc(nch ? nch : 1, sizeof *bad);
    uint64_t found = 0;
    if (bad) {
        struct spmv_job j = {.r = r, .w = w, .bad = bad};
        cz_pool_run(pool, nch, check_chunk, &j);
        for (size_t i = 0; i < nch && !found; i++) found = bad[i];
        free(bad);
    } else {
        found = first_bad(r, w, 0, r->n_constraints); /* no memory for slots: serial */
    }
    if (found && bad_row) *bad_row = found - 1;
    return found == 0;
}

uint64_t cz_r1cs_density(const cz_r1cs *r, int which, uint64_t *bits)
{
    const cz_csr *m = &r->m[which];
    size_t words = (r->n_vars + 63) / 64;
    memset(bits, 0, words * sizeof *bits);
    for (uint64_t k = 0; k < m->nnz; k++) bits[m->col[k] / 64] |= (uint64_t)1 << (m->col[k] % 64);
    uint64_t pop = 0;
    for (size_t i = 0; i < words; i++) pop += (uint64_t)__builtin_popcountll(bits[i]);
    return pop;
}

double cz_csr_bytes_per_nnz(const cz_csr *m)
{
    if (!m->nnz) return 0;
    double bytes = (double)m->nnz * (4 + m->cidx_bytes) + (double)(m->n_rows + 1) * 8 +
                   (double)m->n_coefs * sizeof(cz_fr);
    return bytes / (double)m->nnz;
}
