/* zkey_qap.c — the QAP's A and B matrices from a .zkey coefficient section
 * (see zkey_qap.h), built straight into CSR form:
 *  1. every entry is checked in parallel over the pool, each chunk keeping
 *     its first bad entry, so the first bad entry of the file is reported;
 *  2. the non-zero entries are counted per row of A and B (prefix sums give
 *     row_ptr), then placed in file order at their row's next slot (a stable
 *     counting sort), with the entry number kept in the index array;
 *  3. each matrix (A and B side by side, one pool task each) is walked in
 *     row order and its values interned in a hash table keyed by the
 *     stored limbs, sized once for the matrix's entries. A value is stored
 *     as c * R^2 mod r, a bijective image of the Montgomery form c * R the
 *     r1cs builder keys by, so the distinct values and their first-seen
 *     order (hence every index) are the builder's; only distinct values go
 *     through from_mont.
 *     Index 0 is +1 (stored R^2 mod r) and 1 is -1, as in the builder;
 *  4. the indices are narrowed to 1, 2 or 4 bytes as the builder does, in
 *     place. The large arrays are pre-faulted in one call each (fresh pages
 *     are costly to fault one by one under some hypervisors). */
#include "formats/zkey_qap.h"

#include <stdlib.h>
#include <string.h>

#include "formats/fio.h"

#define fail cz_fail
#define QCHUNK 4096

typedef struct {
    const uint8_t *ent;
    uint64_t n, rows, n_vars;
    uint64_t *bad;   /* per chunk: first bad entry or UINT64_MAX */
    int *bad_value;  /* 1: its value is not below r, 0: an index is out of range */
    uint64_t *used;  /* per chunk: 1 + its largest constraint */
} qjob;

static void raw_of(uint64_t l[4], const uint8_t *v)
{
    for (int i = 0; i < 4; i++) l[i] = cz__get_le64(v + 8 * i);
}

static int below_r(const uint64_t l[4])
{
    for (int i = 3; i >= 0; i--)
        if (l[i] != cz_fr_modulus.l[i]) return l[i] < cz_fr_modulus.l[i];
    return 0;
}

static void qtask(void *ctx, size_t ch)
{
    qjob *j = ctx;
    uint64_t lo = (uint64_t)ch * QCHUNK, hi = lo + QCHUNK < j->n ? lo + QCHUNK : j->n, used = 0;
    j->bad[ch] = UINT64_MAX;
    for (uint64_t i = lo; i < hi; i++) {
        const uint8_t *e = j->ent + i * CZ__ZKEY_CSIZE;
        uint32_t m = cz__get_le32(e), c = cz__get_le32(e + 4), s = cz__get_le32(e + 8);
        uint64_t l[4];
        raw_of(l, e + 12);
        int range = m > 1 || c >= j->rows || s >= j->n_vars;
        if (range || !below_r(l)) {
            j->bad[ch] = i;
            j->bad_value[ch] = !range;
            break;
        }
        if ((uint64_t)c + 1 > used) used = (uint64_t)c + 1;
    }
    j->used[ch] = used;
}

/* ---- interning of raw values (open addressing, slot = index + 1) ----
 * The table is sized once for the matrix's entries (at most nnz + 2
 * distinct values) and keeps, per distinct value, a pointer to its 32
 * bytes (the file's own, or the two constants): no value is copied and no
 * array grows, so the only fresh memory is two arrays faulted in one call
 * each. */
typedef struct {
    const uint8_t **val;
    uint32_t n;
    uint32_t *slot;
    size_t nslots;
} itab;

static size_t hash4(const uint64_t l[4])
{
    uint64_t h = l[0] * 0x9e3779b97f4a7c15ULL ^ l[1] * 0xc2b2ae3d27d4eb4fULL ^ l[2] * 0x165667b19e3779f9ULL ^ l[3];
    return (size_t)(h ^ (h >> 29));
}

static int itab_init(itab *t, uint64_t max_values)
{
    size_t ns = 64;
    while (ns < 2 * max_values) ns *= 2;
    t->n = 0;
    t->nslots = ns;
    t->slot = calloc(ns, sizeof *t->slot);
    t->val = malloc(max_values * sizeof *t->val);
    if (!t->slot || !t->val) return -1;
    cz__prefault(t->slot, ns * sizeof *t->slot);
    cz__prefault(t->val, max_values * sizeof *t->val);
    return 0;
}

/* the index of the 32 bytes at v (limbs l), interned on first sight; the
 * table has room for every value it is given */
static uint32_t intern(itab *t, const uint8_t *v, const uint64_t l[4])
{
    size_t k = hash4(l) & (t->nslots - 1);
    while (t->slot[k]) {
        uint32_t i = t->slot[k] - 1;
        if (!memcmp(t->val[i], v, 32)) return i;
        k = (k + 1) & (t->nslots - 1);
    }
    t->val[t->n] = v;
    t->slot[k] = t->n + 1;
    return t->n++;
}

/* interns matrix c's values (entry numbers in ci, replaced by value
 * indices), then fills its coefficient table and narrows the indices */
static int finish_matrix(cz_csr *c, uint32_t *ci, const uint8_t *ent)
{
    itab t = {0};
    uint8_t one[32], mone[32];
    cz_fr r2 = cz_fr_r2, nr2;
    cz_fr_neg(&nr2, &r2);
    for (int i = 0; i < 4; i++) {
        cz__put_le64(one + 8 * i, r2.l[i]);
        cz__put_le64(mone + 8 * i, nr2.l[i]);
    }
    int bad = itab_init(&t, c->nnz + 2);
    if (!bad) {
        intern(&t, one, r2.l);
        intern(&t, mone, nr2.l);
        for (uint64_t k = 0; k < c->nnz; k++) {
            const uint8_t *v = ent + (uint64_t)ci[k] * CZ__ZKEY_CSIZE + 12;
            uint64_t l[4];
            raw_of(l, v);
            ci[k] = intern(&t, v, l);
        }
    }
    c->n_coefs = t.n;
    c->coefs = bad ? NULL : malloc((size_t)t.n * sizeof *c->coefs);
    if (c->coefs) {
        cz__prefault(c->coefs, (size_t)t.n * sizeof *c->coefs);
        cz_fr_one(&c->coefs[0]);
        cz_fr_neg(&c->coefs[1], &c->coefs[0]);
        for (uint32_t i = 2; i < t.n; i++) {
            cz_fr raw;
            raw_of(raw.l, t.val[i]);
            cz_fr_from_mont(&c->coefs[i], &raw); /* c R^2 -> c R */
        }
    }
    free(t.val);
    free(t.slot);
    if (!c->coefs) return -1;
    c->cidx_bytes = t.n <= 256 ? 1 : t.n <= 65536 ? 2 : 4;
    c->cidx = ci;
    if (c->cidx_bytes == 4) return 0;
    /* narrowed in place (entry k is written at or below where it was read) */
    for (uint64_t k = 0; k < c->nnz; k++) cz_csr_set_cidx(c, k, ci[k]);
    void *shrunk = realloc(ci, c->nnz ? c->nnz * c->cidx_bytes : 1);
    c->cidx = shrunk ? shrunk : ci;
    return 0;
}

/* A and B are finished side by side, one pool task each */
typedef struct {
    cz_csr *c[2];
    uint32_t *ci[2];
    const uint8_t *ent;
    int bad[2];
} fjob;

static void ftask(void *ctx, size_t m)
{
    fjob *f = ctx;
    f->bad[m] = finish_matrix(f->c[m], f->ci[m], f->ent);
}

static int is_zero32(const uint8_t *v)
{
    uint64_t x = 0;
    for (int i = 0; i < 4; i++) x |= cz__get_le64(v + 8 * i);
    return x == 0;
}

cz_err cz__zkey_qap(cz_r1cs *out, uint64_t *n_used, const uint8_t *ent, uint64_t n, uint64_t rows,
                    uint64_t n_vars, uint64_t n_public, cz_pool *pool, char *msg, size_t msglen)
{
    memset(out, 0, sizeof *out);
    *n_used = 0;
    size_t nch = (size_t)((n + QCHUNK - 1) / QCHUNK);
    qjob j = {.ent = ent, .n = n, .rows = rows, .n_vars = n_vars};
    j.bad = malloc((nch ? nch : 1) * sizeof *j.bad);
    j.bad_value = malloc((nch ? nch : 1) * sizeof *j.bad_value);
    j.used = malloc((nch ? nch : 1) * sizeof *j.used);
    uint32_t *ci[2] = {NULL, NULL};
    cz_err err = CZ_OK;
    if (!j.bad || !j.bad_value || !j.used) goto nomem;
    cz_pool_run(pool, nch, qtask, &j);
    for (size_t c = 0; c < nch; c++) {
        if (j.bad[c] == UINT64_MAX) {
            if (j.used[c] > *n_used) *n_used = j.used[c];
            continue;
        }
        const uint8_t *e = ent + j.bad[c] * CZ__ZKEY_CSIZE;
        if (j.bad_value[c])
            err = fail(CZ_ERR_NONCANONICAL, msg, msglen, "zkey coefficient %llu: value not below r",
                       (unsigned long long)j.bad[c]);
        else
            err = fail(CZ_ERR_PARSE, msg, msglen,
                       "zkey coefficient %llu: matrix %u, constraint %u, signal %u out of range (matrices 0..1, "
                       "constraints < %llu, signals < %llu)",
                       (unsigned long long)j.bad[c], cz__get_le32(e), cz__get_le32(e + 4), cz__get_le32(e + 8),
                       (unsigned long long)rows, (unsigned long long)n_vars);
        *n_used = 0;
        goto out;
    }

    out->n_vars = n_vars;
    out->n_inputs = n_public + 1;
    out->n_constraints = rows;
    for (int m = 0; m < 3; m++) {
        out->m[m].n_rows = rows;
        if (!(out->m[m].row_ptr = calloc(rows + 1, sizeof(uint64_t)))) goto nomem;
        if (m < 2) cz__prefault(out->m[m].row_ptr, (rows + 1) * sizeof(uint64_t)); /* C's is never written */
    }
    /* count per row (at r + 1), prefix sums: row_ptr[r] = start of row r */
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *e = ent + i * CZ__ZKEY_CSIZE;
        if (!is_zero32(e + 12)) out->m[cz__get_le32(e)].row_ptr[cz__get_le32(e + 4) + 1]++;
    }
    for (int m = 0; m < 2; m++) {
        cz_csr *c = &out->m[m];
        for (uint64_t r = 0; r < rows; r++) c->row_ptr[r + 1] += c->row_ptr[r];
        c->nnz = c->row_ptr[rows];
        c->col = malloc(c->nnz ? c->nnz * sizeof *c->col : sizeof *c->col);
        ci[m] = malloc(c->nnz ? c->nnz * sizeof *ci[m] : sizeof *ci[m]);
        if (!c->col || !ci[m]) goto nomem;
        cz__prefault(c->col, c->nnz * sizeof *c->col);
        cz__prefault(ci[m], c->nnz * sizeof *ci[m]);
    }
    /* place in file order; row_ptr[r] runs to the end of row r, then shifts back */
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *e = ent + i * CZ__ZKEY_CSIZE;
        if (is_zero32(e + 12)) continue;
        uint32_t m = cz__get_le32(e);
        uint64_t k = out->m[m].row_ptr[cz__get_le32(e + 4)]++;
        out->m[m].col[k] = cz__get_le32(e + 8);
        ci[m][k] = (uint32_t)i;
    }
    fjob f = {.ent = ent};
    for (int m = 0; m < 2; m++) {
        uint64_t *rp = out->m[m].row_ptr;
        memmove(rp + 1, rp, rows * sizeof *rp);
        rp[0] = 0;
        f.c[m] = &out->m[m];
        f.ci[m] = ci[m];
    }
    cz_pool_run(pool, 2, ftask, &f);
    for (int m = 0; m < 2; m++)
        if (!f.bad[m]) ci[m] = NULL; /* on failure it is still ours (freed below) */
    if (f.bad[0] || f.bad[1]) goto nomem;
    {
        cz_csr *c = &out->m[2]; /* C is empty: no entries, the table {1, -1} */
        c->col = malloc(sizeof *c->col);
        c->cidx = malloc(1);
        c->coefs = malloc(2 * sizeof *c->coefs);
        c->cidx_bytes = 1;
        c->n_coefs = 2;
        if (!c->col || !c->cidx || !c->coefs) goto nomem;
        cz_fr_one(&c->coefs[0]);
        cz_fr_neg(&c->coefs[1], &c->coefs[0]);
    }
    goto out;
nomem:
    err = fail(CZ_ERR_NOMEM, msg, msglen, "cannot build the coefficient matrices: %s", cz_strerror(CZ_ERR_NOMEM));
out:
    if (err) cz_r1cs_free(out);
    free(ci[0]);
    free(ci[1]);
    free(j.bad);
    free(j.bad_value);
    free(j.used);
    return err;
}
