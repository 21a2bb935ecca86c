/* cs.c — the constraint-system handle behind cs.h: linear combinations,
 * counting, and recording into CSR.
 *
 * An LC is a sorted array of (variable, coefficient) terms; since inputs are
 * encoded below aux (CZ_VAR_AUX is the top bit), sorting by the raw cz_var
 * orders inputs before aux, each by index, as bellpepper-core's LC iterates.
 * Adding a term appends when the variable is past the last one (the common
 * case: bits allocated in order) and otherwise binary-searches, merging into an
 * existing term (its coefficient may become zero; it stays in the LC, as
 * in bellpepper, and is skipped when the row is counted or recorded).
 *
 * RECORD mode appends each constraint's terms to per-matrix arrays holding
 * the raw variable and an index into a per-matrix table of distinct
 * coefficients (interned through an open-addressing hash, [0] = 1, [1] = -1,
 * as src/r1cs requires). cz_cs_finish_record maps aux variables to columns
 * n_inputs + j, narrows the coefficient indices and hands out a heap-owned
 * cz_r1cs. */
#include "circuits/cs.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t *row_ptr; size_t rows_cap;
    uint32_t *col, *ci; size_t nnz, cap;
    cz__coef_table ct;
} rec_mat;

struct cz__cs_rec {
    rec_mat m[3];
    cz_fr *w_in; size_t in_cap;
    cz_fr *w_aux; size_t aux_cap;
    uint64_t *mask; size_t mask_cap;
};

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 256;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q) return -1;
    *p = q;
    *cap = nc;
    return 0;
}

/* ---- LCs ---- */
void cz_lc_init(cz_lc *lc) { lc->t = NULL; lc->n = lc->cap = 0; }
void cz_lc_free(cz_lc *lc) { free(lc->t); cz_lc_init(lc); }

static cz_term *lc_slot(cz_cs *cs, cz_lc *lc, cz_var var, int *fresh)
{
    uint32_t n = lc->n, pos;
    if (n == 0 || lc->t[n - 1].var < var) {
        pos = n;
    } else {
        uint32_t lo = 0, hi = n;
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (lc->t[mid].var < var) lo = mid + 1; else hi = mid;
        }
        if (lc->t[lo].var == var) { *fresh = 0; return &lc->t[lo]; }
        pos = lo;
    }
    if (n == lc->cap) {
        size_t cap = lc->cap;
        if (grow((void **)&lc->t, &cap, (size_t)n + 1, sizeof(cz_term)) || cap > UINT32_MAX) {
            cs->err = CZ_ERR_NOMEM;
            return NULL;
        }
        lc->cap = (uint32_t)cap;
    }
    if (pos < n) memmove(&lc->t[pos + 1], &lc->t[pos], (n - pos) * sizeof(cz_term));
    lc->n = n + 1;
    lc->t[pos].var = var;
    lc->t[pos].pad = 0;
    *fresh = 1;
    return &lc->t[pos];
}

static void lc_addc(cz_cs *cs, cz_lc *lc, cz_var var, const cz_fr *c)
{
    int fresh;
    cz_term *t = lc_slot(cs, lc, var, &fresh);
    if (!t) return;
    if (fresh) t->coef = *c; else cz_fr_add(&t->coef, &t->coef, c);
}

void cz_lc_add(cz_cs *cs, cz_lc *lc, cz_var var, const cz_fr *coef)
{
    lc_addc(cs, lc, var, coef ? coef : &cz_fr_one_mont);
}

void cz_lc_sub(cz_cs *cs, cz_lc *lc, cz_var var, const cz_fr *coef)
{
    cz_fr m;
    cz_fr_neg(&m, coef ? coef : &cz_fr_one_mont);
    lc_addc(cs, lc, var, &m);
}

/* lc += sign * coef * src as one backward merge of the two sorted term lists
 * (O(n + m), no insertion shifts): the merged list is written from the end of
 * a buffer of n + m slots, then moved to the front when terms combined. */
static void lc_merge(cz_cs *cs, cz_lc *lc, const cz_lc *src, const cz_fr *coef, int negate)
{
    uint32_t n = lc->n, m = src->n;
    if (!m) return;
    if ((size_t)n + m > lc->cap) {
        size_t cap = lc->cap;
        if (grow((void **)&lc->t, &cap, (size_t)n + m, sizeof(cz_term)) || cap > UINT32_MAX) {
            cs->err = CZ_ERR_NOMEM;
            return;
        }
        lc->cap = (uint32_t)cap;
    }
    cz_term *t = lc->t;
    int64_t i = (int64_t)n - 1, j = (int64_t)m - 1, k = (int64_t)n + m - 1;
    while (j >= 0) {
        cz_fr c = src->t[j].coef;
        if (coef) cz_fr_mul(&c, &c, coef);
        if (negate) cz_fr_neg(&c, &c);
        cz_var v = src->t[j].var;
        while (i >= 0 && t[i].var > v) t[k--] = t[i--];
        if (i >= 0 && t[i].var == v) {
            cz_term x = t[i--];
            cz_fr_add(&x.coef, &x.coef, &c);
            t[k--] = x;
        } else {
            t[k].var = v;
            t[k].pad = 0;
            t[k].coef = c;
            k--;
        }
        j--;
    }
    /* the untouched prefix t[0..i] is already in place when nothing combined */
    uint64_t gap = (uint64_t)(k - i);
    if (gap) memmove(&t[i + 1], &t[k + 1], ((size_t)n + m - (size_t)(k + 1)) * sizeof(cz_term));
    lc->n = (uint32_t)((uint64_t)n + m - gap);
}

void cz_lc_add_lc(cz_cs *cs, cz_lc *lc, const cz_lc *src, const cz_fr *coef)
{
    lc_merge(cs, lc, src, coef, 0);
}

void cz_lc_sub_lc(cz_cs *cs, cz_lc *lc, const cz_lc *src, const cz_fr *coef)
{
    lc_merge(cs, lc, src, coef, 1);
}

/* ---- life cycle ---- */
static void init_common(cz_cs *cs, int mode)
{
    memset(cs, 0, offsetof(cz_cs, scratch));
    cs->mode = mode;
    cs->n_inputs = 1; /* ONE */
    for (int k = 0; k < CZ_CS_SCRATCH; k++) cz_lc_init(&cs->scratch[k]);
}

static void init_pow2(cz_cs *cs)
{
    cs->pow2[0] = cz_fr_one_mont;
    for (int k = 1; k < 256; k++) cz_fr_dbl(&cs->pow2[k], &cs->pow2[k - 1]);
}

void cz_cs_init_witness(cz_cs *cs, cz_fr *inputs, uint64_t inputs_cap, cz_fr *aux, uint64_t aux_cap)
{
    init_common(cs, CZ_CS_WITNESS);
    cs->inputs = inputs; cs->inputs_cap = inputs_cap;
    cs->aux = aux; cs->aux_cap = aux_cap;
    if (inputs_cap) inputs[0] = cz_fr_one_mont; else cs->err = CZ_ERR_LENGTH;
}

void cz_cs_init_compact(cz_cs *cs, cz_fr *inputs, uint64_t inputs_cap, uint64_t *bits,
                        uint64_t bits_cap, cz_fr *fields, uint64_t fields_cap)
{
    init_common(cs, CZ_CS_COMPACT);
    cs->inputs = inputs; cs->inputs_cap = inputs_cap;
    cs->bits = bits; cs->bits_cap = bits_cap;
    cs->fields = fields; cs->fields_cap = fields_cap;
    if (inputs_cap) inputs[0] = cz_fr_one_mont; else cs->err = CZ_ERR_LENGTH;
}

cz_err cz_cs_init_count(cz_cs *cs)
{
    init_common(cs, CZ_CS_COUNT);
    init_pow2(cs);
    return CZ_OK;
}

cz_err cz_cs_init_record(cz_cs *cs)
{
    init_common(cs, CZ_CS_RECORD);
    init_pow2(cs);
    cs->rec = calloc(1, sizeof *cs->rec);
    if (!cs->rec) return cs->err = CZ_ERR_NOMEM;
    cz__cs_rec *r = cs->rec;
    cz_fr minus_one;
    cz_fr_neg(&minus_one, &cz_fr_one_mont);
    for (int k = 0; k < 3; k++) {
        uint32_t i0, i1;
        if (grow((void **)&r->m[k].row_ptr, &r->m[k].rows_cap, 1, sizeof(uint64_t)) ||
            cz__coef_intern(&r->m[k].ct, &cz_fr_one_mont, &i0) || cz__coef_intern(&r->m[k].ct, &minus_one, &i1)) {
            cz_cs_free(cs);
            return cs->err = CZ_ERR_NOMEM;
        }
        r->m[k].row_ptr[0] = 0;
    }
    if (grow((void **)&r->w_in, &r->in_cap, 1, sizeof(cz_fr))) {
        cz_cs_free(cs);
        return cs->err = CZ_ERR_NOMEM;
    }
    r->w_in[0] = cz_fr_one_mont;
    return CZ_OK;
}

void cz_cs_free(cz_cs *cs)
{
    for (int k = 0; k < CZ_CS_SCRATCH; k++) cz_lc_free(&cs->scratch[k]);
    cz__cs_rec *r = cs->rec;
    if (r) {
        for (int k = 0; k < 3; k++) {
            rec_mat *m = &r->m[k];
            free(m->row_ptr); free(m->col); free(m->ci); free(m->ct.coefs); free(m->ct.hash);
        }
        free(r->w_in); free(r->w_aux); free(r->mask);
        free(r);
        cs->rec = NULL;
    }
}

/* RECORD: keep the value of a new variable (the counters already moved) */
void cz__cs_rec_value(cz_cs *cs, int input, const cz_fr *v, int is_bit)
{
    cz__cs_rec *r = cs->rec;
    if (!r) return;
    if (input) {
        uint64_t i = cs->n_inputs - 1;
        if (grow((void **)&r->w_in, &r->in_cap, i + 1, sizeof(cz_fr))) { cs->err = CZ_ERR_NOMEM; return; }
        r->w_in[i] = *v;
        return;
    }
    uint64_t j = cs->n_aux - 1;
    if (j >= CZ_VAR_AUX) { cs->err = CZ_ERR_UNSUPPORTED; return; }
    if (grow((void **)&r->w_aux, &r->aux_cap, j + 1, sizeof(cz_fr))) { cs->err = CZ_ERR_NOMEM; return; }
    r->w_aux[j] = *v;
    size_t old = r->mask_cap;
    if (grow((void **)&r->mask, &r->mask_cap, j / 64 + 1, sizeof(uint64_t))) { cs->err = CZ_ERR_NOMEM; return; }
    if (r->mask_cap > old) memset(r->mask + old, 0, (r->mask_cap - old) * sizeof(uint64_t));
    if (is_bit) r->mask[j / 64] |= 1ull << (j % 64);
}

cz_var cz_num_inputize(cz_cs *cs, const cz_num *x)
{
    cz_var in = cz_cs_alloc_input(cs, &x->val);
    if (cz_cs_rec(cs)) {
        cz_lc *a = cz_cs_lc(cs, 0), *b = cz_cs_lc(cs, 1), *c = cz_cs_lc(cs, 2);
        cz_lc_add(cs, a, in, NULL);
        cz_lc_add(cs, b, CZ_ONE, NULL);
        cz_lc_add(cs, c, x->var, NULL);
        cz_cs_enforce(cs, a, b, c);
    }
    return in;
}

/* ---- constraints ---- */
/* terms of lc with a non-zero coefficient */
static uint32_t lc_nonzeros(const cz_lc *lc)
{
    uint32_t n = 0;
    if (lc)
        for (uint32_t i = 0; i < lc->n; i++) n += !cz_fr_is_zero(&lc->t[i].coef);
    return n;
}

static void rec_row(cz_cs *cs, rec_mat *m, const cz_lc *lc, uint64_t row)
{
    uint32_t n = lc ? lc->n : 0;
    if (n) {
        size_t cap = m->cap;
        if (grow((void **)&m->col, &cap, m->nnz + n, sizeof(uint32_t))) { cs->err = CZ_ERR_NOMEM; return; }
        cap = m->cap;
        if (grow((void **)&m->ci, &cap, m->nnz + n, sizeof(uint32_t))) { cs->err = CZ_ERR_NOMEM; return; }
        m->cap = cap;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t idx;
            if (cz_fr_is_zero(&lc->t[i].coef)) continue;
            if (cz__coef_intern(&m->ct, &lc->t[i].coef, &idx)) { cs->err = CZ_ERR_NOMEM; return; }
            m->col[m->nnz] = lc->t[i].var;
            m->ci[m->nnz] = idx;
            m->nnz++;
        }
    }
    if (grow((void **)&m->row_ptr, &m->rows_cap, row + 2, sizeof(uint64_t))) { cs->err = CZ_ERR_NOMEM; return; }
    m->row_ptr[row + 1] = m->nnz;
}

void cz_cs_enforce(cz_cs *cs, const cz_lc *a, const cz_lc *b, const cz_lc *c)
{
    if (!cz_cs_rec(cs)) return;
    const cz_lc *l[3] = {a, b, c};
    uint64_t row = cs->n_constraints++;
    for (int k = 0; k < 3; k++) cs->nnz[k] += lc_nonzeros(l[k]);
    if (cs->mode != CZ_CS_RECORD || cs->err) return;
    for (int k = 0; k < 3; k++) rec_row(cs, &cs->rec->m[k], l[k], row);
}

cz_err cz_cs_finish_record(cz_cs *cs, cz_r1cs *out, cz_fr **w_out, uint64_t **mask_out)
{
    memset(out, 0, sizeof *out);
    if (w_out) *w_out = NULL;
    if (mask_out) *mask_out = NULL;
    cz_err err = cs->err;
    if (cs->mode != CZ_CS_RECORD || !cs->rec) err = err ? err : CZ_ERR_INVALID_ARG;
    if (!err && cs->n_inputs + cs->n_aux > UINT32_MAX) err = CZ_ERR_UNSUPPORTED;
    if (err) { cz_cs_free(cs); return err; }
    cz__cs_rec *r = cs->rec;
    uint64_t ni = cs->n_inputs, na = cs->n_aux, rows = cs->n_constraints;
    out->n_inputs = ni;
    out->n_vars = ni + na;
    out->n_constraints = rows;
    for (int k = 0; k < 3; k++) {
        rec_mat *m = &r->m[k];
        cz_csr *c = &out->m[k];
        c->n_rows = rows;
        c->nnz = m->nnz;
        c->n_coefs = m->ct.n_coefs;
        c->cidx_bytes = m->ct.n_coefs <= 256 ? 1 : m->ct.n_coefs <= 65536 ? 2 : 4;
        c->row_ptr = m->row_ptr; m->row_ptr = NULL;
        c->coefs = m->ct.coefs; m->ct.coefs = NULL;
        c->col = malloc(m->nnz ? m->nnz * sizeof(uint32_t) : 1);
        c->cidx = malloc(m->nnz ? m->nnz * c->cidx_bytes : 1);
        if (!c->row_ptr || !c->col || !c->cidx) { err = CZ_ERR_NOMEM; continue; }
        for (uint64_t i = 0; i < m->nnz; i++) {
            cz_var v = m->col[i];
            c->col[i] = cz_var_is_aux(v) ? (uint32_t)(ni + cz_var_index(v)) : v;
            cz_csr_set_cidx(c, i, m->ci[i]);
        }
    }
    if (!err && w_out) {
        cz_fr *w = malloc((ni + na) * sizeof(cz_fr));
        if (!w) err = CZ_ERR_NOMEM;
        else {
            memcpy(w, r->w_in, ni * sizeof(cz_fr));
            if (na) memcpy(w + ni, r->w_aux, na * sizeof(cz_fr));
            *w_out = w;
        }
    }
    if (!err && mask_out) {
        size_t words = (na + 63) / 64;
        uint64_t *mk = calloc(words ? words : 1, sizeof(uint64_t));
        if (!mk) err = CZ_ERR_NOMEM;
        else {
            if (words) memcpy(mk, r->mask, words * sizeof(uint64_t));
            *mask_out = mk;
        }
    }
    cz_cs_free(cs);
    if (err) {
        cz_r1cs_free(out);
        if (w_out) { free(*w_out); *w_out = NULL; }
        if (mask_out) { free(*mask_out); *mask_out = NULL; }
    }
    return err;
}
