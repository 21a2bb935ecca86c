/* msm_tmpl.h — Pippenger for one group, included by msm.c once per group with
 * G defined as g1 or g2 (see msm.h for the contract).
 *
 * Signed digits: a 255-bit scalar is cut into windows of c bits; a window value
 * above 2^(c-1) becomes value - 2^c with a carry into the next window, so only
 * 2^(c-1) buckets are needed and a negative digit adds -P. The digit of window
 * w is recomputed from window 0 up for each point (a few shifts per window,
 * nothing next to a point addition), so no digit table is stored. */

#define GCAT_(a, b, c) a##b##c
#define GCAT(a, b, c) GCAT_(a, b, c)
#define GF(name) GCAT(cz_, G, _##name)       /* cz_g1_add ... */
#define GT(kind) GCAT(cz_, G, _##kind)       /* cz_g1_aff ... */
#define LF(name) GCAT(G, _msm_, name)        /* file-local helpers */

typedef struct {
    const GT(aff) *bases;
    const cz_fr *k;     /* plain scalars of the Pippenger part */
    const size_t *idx;  /* which base each scalar belongs to */
    size_t n;
    int c, nw;
    size_t chunk, nchunks;
    GT(jac) *results;   /* nw * nchunks partial window sums */
    int oom;
} LF(job);

static void LF(window_task)(void *ctx, size_t t)
{
    LF(job) *j = ctx;
    int w = (int)(t / j->nchunks);
    size_t ch = t % j->nchunks;
    size_t lo = ch * j->chunk, hi = lo + j->chunk < j->n ? lo + j->chunk : j->n;
    size_t nb = (size_t)1 << (j->c - 1);
    GT(xyzz) *b = malloc(nb * sizeof *b);
    GT(jac) *res = &j->results[t];
    if (!b) { j->oom = 1; GF(set_inf)(res); return; }
    for (size_t i = 0; i < nb; i++) GF(xyzz_set_inf)(&b[i]);
    for (size_t i = lo; i < hi; i++) {
        int d = digit(&j->k[i], w, j->c);
        if (!d) continue;
        const GT(aff) *p = &j->bases[j->idx[i]];
        if (d > 0) GF(xyzz_add_mixed)(&b[d - 1], &b[d - 1], p);
        else {
            GT(aff) np;
            GF(aff_neg)(&np, p);
            GF(xyzz_add_mixed)(&b[-d - 1], &b[-d - 1], &np);
        }
    }
    /* sum_j (j+1) b[j] by running sums from the top */
    GT(xyzz) run, sum;
    GF(xyzz_set_inf)(&run);
    GF(xyzz_set_inf)(&sum);
    for (size_t i = nb; i-- > 0;) {
        GF(xyzz_add)(&run, &run, &b[i]);
        GF(xyzz_add)(&sum, &sum, &run);
    }
    GF(xyzz_to_jac)(res, &sum);
    free(b);
}

typedef struct {
    const GT(aff) *bases;
    const size_t *idx;
    size_t n, chunk;
    GT(jac) *results;
} LF(ones_job);

static void LF(ones_task)(void *ctx, size_t t)
{
    LF(ones_job) *j = ctx;
    size_t lo = t * j->chunk, hi = lo + j->chunk < j->n ? lo + j->chunk : j->n;
    GT(xyzz) acc;
    GF(xyzz_set_inf)(&acc);
    for (size_t i = lo; i < hi; i++) GF(xyzz_add_mixed)(&acc, &acc, &j->bases[j->idx[i]]);
    GF(xyzz_to_jac)(&j->results[t], &acc);
}

static cz_err GF(msm_impl)(GT(jac) *out, const GT(aff) *bases, const cz_fr *scalars, size_t n,
                    int scalars_mont, const uint64_t *density, cz_pool *pool)
{
    GF(set_inf)(out);
    cz_err err = CZ_OK;
    /* split scalars into ones and the rest (plain form) */
    size_t *ones = malloc((n ? n : 1) * sizeof *ones);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    cz_fr *k = malloc((n ? n : 1) * sizeof *k);
    GT(jac) *results = NULL;
    if (!ones || !idx || !k) { err = CZ_ERR_NOMEM; goto done; }
    size_t n_ones = 0, n_big = 0, base = 0;
    for (size_t i = 0; i < n; i++) {
        if (density && !((density[i / 64] >> (i % 64)) & 1)) continue;
        size_t bi = density ? base++ : i;
        cz_fr s;
        if (scalars_mont) cz_fr_from_mont(&s, &scalars[i]);
        else s = scalars[i];
        if (s.l[3] == 0 && s.l[2] == 0 && s.l[1] == 0 && s.l[0] <= 1) {
            if (s.l[0] == 1) ones[n_ones++] = bi;
            continue;
        }
        idx[n_big] = bi;
        k[n_big++] = s;
    }
    unsigned th = cz_pool_threads(pool);
    if (n_ones) {
        size_t nt = n_ones < 4096 ? 1 : 4 * (size_t)th;
        LF(ones_job) oj = {.bases = bases, .idx = ones, .n = n_ones, .chunk = (n_ones + nt - 1) / nt};
        results = malloc(nt * sizeof *results);
        if (!results) { err = CZ_ERR_NOMEM; goto done; }
        oj.results = results;
        cz_pool_run(pool, nt, LF(ones_task), &oj);
        for (size_t t = 0; t < nt; t++) GF(add)(out, out, &results[t]);
        free(results);
        results = NULL;
    }
    if (n_big) {
        int c = cz_msm_window_bits(n_big);
        int nw = (256 + c - 1) / c; /* 255 bits + room for the last carry */
        size_t nchunks = ((size_t)2 * th + nw - 1) / nw;
        if (nchunks > n_big) nchunks = 1;
        LF(job) j = {.bases = bases, .k = k, .idx = idx, .n = n_big, .c = c, .nw = nw,
                     .chunk = (n_big + nchunks - 1) / nchunks, .nchunks = nchunks};
        results = malloc((size_t)nw * nchunks * sizeof *results);
        if (!results) { err = CZ_ERR_NOMEM; goto done; }
        j.results = results;
        cz_pool_run(pool, (size_t)nw * nchunks, LF(window_task), &j);
        if (j.oom) { err = CZ_ERR_NOMEM; goto done; }
        GT(jac) acc;
        GF(set_inf)(&acc);
        for (int w = nw; w-- > 0;) {
            for (int s = 0; s < c; s++) GF(dbl)(&acc, &acc);
            for (size_t ch = 0; ch < nchunks; ch++) GF(add)(&acc, &acc, &results[(size_t)w * nchunks + ch]);
        }
        GF(add)(out, out, &acc);
    }
done:
    free(results);
    free(ones);
    free(idx);
    free(k);
    if (err) GF(set_inf)(out);
    return err;
}

#undef GCAT_
#undef GCAT
#undef GF
#undef GT
#undef LF
