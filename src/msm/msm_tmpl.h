/* msm_tmpl.h — Pippenger for one group, included by msm.c once per group with
 * G (g1 or g2), FE (the coordinate field type) and FEP (its function prefix)
 * defined (see msm.h for the contract).
 *
 * Signed digits: a scalar k < r is cut into nw windows of c >= 2 bits
 * (nw * c >= 256, see num_windows). Adding H = sum_w 2^(c-1) 2^(wc) once
 * per scalar turns every window of k + H into d_w + 2^(c-1) with d_w in [-2^(c-1), 2^(c-1)),
 * so the digit of any window is one shift and one subtraction (no carry
 * chain), only 2^(c-1) buckets are needed, and a negative digit adds -P.
 *
 * Buckets, two strategies (msm.c picks; see cz__msm_config):
 *  - XYZZ buckets with mixed additions (8M + 2S each), for small windows;
 *  - batch-affine buckets for wide windows: buckets stay affine; additions
 *    are collected into a batch of distinct buckets and finished together
 *    with one shared inversion (Montgomery's trick: about 5M + 1S per
 *    addition). A point whose bucket is already in the batch waits in a small
 *    queue until the batch is flushed. P + P and P + (-P) are caught when the
 *    batch is built (x equal) and become a doubling or an empty bucket.
 * XYZZ prefetches the bucket of the next point; batch-affine touches a
 * bucket only when its batch is flushed and prefetches it there. The bucket sums
 * sum_j (j+1) b[j] use running sums in XYZZ. Scalars equal to 1 are summed
 * by levels of pairwise batch-affine additions (see ones_task). */

#define GCAT_(a, b, c) a##b##c
#define GCAT(a, b, c) GCAT_(a, b, c)
#define GF(name) GCAT(cz_, G, _##name)       /* cz_g1_add ... */
#define GT(kind) GCAT(cz_, G, _##kind)       /* cz_g1_aff ... */
#define LF(name) GCAT(G, _msm_, name)        /* file-local helpers */
#define FF(name) GCAT(FEP, _, name)          /* cz_fp_mul ... */

/* prefetches can be turned off to measure them (cz__msm_config) */
#define PREFETCH(p) do { if (cfg_prefetch) __builtin_prefetch(p); } while (0)

typedef struct {
    const GT(aff) *bases;
    const uint64_t *kh; /* 5 limbs per scalar: k + H */
    const size_t *idx;  /* which base each scalar belongs to */
    size_t n;
    int c, nw, batch_affine;
    size_t chunk, nchunks;
    GT(jac) *results;   /* nw * nchunks partial window sums */
    int oom;
} LF(job);

/* sum_j (j+1) b[j] by running sums from the top */
#define BUCKET_SUM(res, b, nb, ADD_RUN)                                    \
    do {                                                                   \
        GT(xyzz) run_, sum_;                                               \
        GF(xyzz_set_inf)(&run_);                                           \
        GF(xyzz_set_inf)(&sum_);                                           \
        for (size_t i_ = (nb); i_-- > 0;) {                                \
            ADD_RUN(&run_, &run_, &(b)[i_]);                               \
            GF(xyzz_add)(&sum_, &sum_, &run_);                             \
        }                                                                  \
        GF(xyzz_to_jac)(res, &sum_);                                       \
    } while (0)

static void LF(window_xyzz)(LF(job) *j, int w, size_t lo, size_t hi, GT(jac) *res)
{
    size_t nb = (size_t)1 << (j->c - 1);
    GT(xyzz) *b = malloc(nb * sizeof *b);
    if (!b) { j->oom = 1; GF(set_inf)(res); return; }
    for (size_t i = 0; i < nb; i++) GF(xyzz_set_inf)(&b[i]);
    int dn = lo < hi ? digit(j->kh + 5 * lo, w, j->c) : 0;
    for (size_t i = lo; i < hi; i++) {
        int d = dn;
        if (i + 1 < hi) {
            dn = digit(j->kh + 5 * (i + 1), w, j->c);
            if (dn) PREFETCH(&b[(dn > 0 ? dn : -dn) - 1]);
        }
        if (!d) continue;
        const GT(aff) *p = &j->bases[j->idx[i]];
        if (d > 0) GF(xyzz_add_mixed)(&b[d - 1], &b[d - 1], p);
        else GF(xyzz_sub_mixed)(&b[-d - 1], &b[-d - 1], p);
    }
    BUCKET_SUM(res, b, nb, GF(xyzz_add));
    free(b);
}

/* ---- batch-affine buckets ---- */

enum { LF(ADD), LF(DBL), LF(ZERO) };
enum { LF(EMPTY), LF(FULL), LF(BUSY) };
/* how far ahead the flush prefetches buckets */
#define BA_AHEAD 8

typedef struct {
    GT(aff) *bk;      /* nb affine buckets; (0, 0) is empty */
    uint8_t *st;      /* per bucket: EMPTY, FULL or BUSY (in the batch) */
    size_t cap, m;    /* batch capacity and fill */
    uint32_t *bb;     /* batch: bucket, */
    GT(aff) *pt;      /* the point to add (sign applied), */
    FE *den, *pre;    /* denominator, prefix product, */
    uint8_t *kind;    /* ADD, DBL or ZERO */
    size_t qcap, nq;  /* waiting queue */
    uint32_t *qb;
    const GT(aff) **qp;
    uint8_t *qneg;
} LF(ba);

/* put P (or -P) into bucket b, which is not busy: straight into an empty
 * bucket, else into the batch. Only the state byte is read here, so the
 * bucket itself is first touched in the flush, which prefetches it. */
static void LF(place)(LF(ba) *s, uint32_t b, const GT(aff) *p, int neg)
{
    if (s->st[b] == LF(EMPTY)) {
        GT(aff) *a = &s->bk[b];
        s->st[b] = LF(FULL);
        a->x = p->x;
        if (neg) FF(neg)(&a->y, &p->y);
        else a->y = p->y;
        return;
    }
    size_t t = s->m++;
    s->st[b] = LF(BUSY);
    s->bb[t] = b;
    GT(aff) *q = &s->pt[t];
    q->x = p->x;
    if (neg) FF(neg)(&q->y, &p->y);
    else q->y = p->y;
}

/* finish the batch with one inversion, then let the queue in */
static void LF(flush)(LF(ba) *s)
{
    size_t m = s->m;
    if (m) {
        FE acc;
        FF(one)(&acc);
        for (size_t t = 0; t < m; t++) {
            const GT(aff) *a = &s->bk[s->bb[t]], *p = &s->pt[t];
            if (t + BA_AHEAD < m) {
                const char *pb = (const char *)&s->bk[s->bb[t + BA_AHEAD]];
                PREFETCH(pb);
                PREFETCH(pb + sizeof(GT(aff)) - 1);
            }
            s->pre[t] = acc;
            FF(sub)(&s->den[t], &p->x, &a->x);
            if (!FF(is_zero)(&s->den[t])) s->kind[t] = LF(ADD);
            else if (FF(eq)(&p->y, &a->y) && !FF(is_zero)(&a->y)) {
                s->kind[t] = LF(DBL);
                FF(dbl)(&s->den[t], &a->y);
            } else {
                s->kind[t] = LF(ZERO);
                continue;
            }
            FF(mul)(&acc, &acc, &s->den[t]);
        }
        FF(inv)(&acc, &acc);
        for (size_t t = m; t-- > 0;) {
            GT(aff) *a = &s->bk[s->bb[t]];
            const GT(aff) *p = &s->pt[t];
            if (s->kind[t] == LF(ZERO)) {
                GF(aff_set_inf)(a);
                s->st[s->bb[t]] = LF(EMPTY);
                continue;
            }
            s->st[s->bb[t]] = LF(FULL);
            FE inv, l, x3;
            FF(mul)(&inv, &acc, &s->pre[t]);
            FF(mul)(&acc, &acc, &s->den[t]);
            if (s->kind[t] == LF(ADD)) {
                FF(sub)(&l, &p->y, &a->y);
                FF(mul)(&l, &l, &inv);
                FF(sqr)(&x3, &l);
                FF(sub)(&x3, &x3, &a->x);
                FF(sub)(&x3, &x3, &p->x);
            } else { /* lambda = 3x^2 / 2y */
                FE t3;
                FF(sqr)(&l, &a->x);
                FF(dbl)(&t3, &l);
                FF(add)(&l, &l, &t3);
                FF(mul)(&l, &l, &inv);
                FF(sqr)(&x3, &l);
                FF(sub)(&x3, &x3, &a->x);
                FF(sub)(&x3, &x3, &a->x);
            }
            FE dx;
            FF(sub)(&dx, &a->x, &x3);
            FF(mul)(&dx, &dx, &l);
            FF(sub)(&a->y, &dx, &a->y);
            a->x = x3;
        }
        s->m = 0;
    }
    /* the queue fits in the emptied batch (qcap < cap) */
    size_t keep = 0;
    for (size_t q = 0; q < s->nq; q++) {
        uint32_t b = s->qb[q];
        if (s->st[b] == LF(BUSY)) {
            s->qb[keep] = b;
            s->qp[keep] = s->qp[q];
            s->qneg[keep++] = s->qneg[q];
        } else {
            LF(place)(s, b, s->qp[q], s->qneg[q]);
        }
    }
    s->nq = keep;
}

static void LF(window_ba)(LF(job) *j, int w, size_t lo, size_t hi, GT(jac) *res)
{
    size_t nb = (size_t)1 << (j->c - 1);
    LF(ba) s = {0};
    s.cap = cz__msm_batch_size(nb);
    s.qcap = s.cap / 4;
    s.bk = malloc(nb * sizeof *s.bk);
    s.st = calloc(nb, 1); /* all EMPTY */
    s.bb = malloc(s.cap * sizeof *s.bb);
    s.pt = malloc(s.cap * sizeof *s.pt);
    s.den = malloc(s.cap * sizeof *s.den);
    s.pre = malloc(s.cap * sizeof *s.pre);
    s.kind = malloc(s.cap);
    s.qb = malloc(s.qcap * sizeof *s.qb);
    s.qp = malloc(s.qcap * sizeof *s.qp);
    s.qneg = malloc(s.qcap);
    if (!s.bk || !s.st || !s.bb || !s.pt || !s.den || !s.pre || !s.kind || !s.qb || !s.qp ||
        !s.qneg) {
        j->oom = 1;
        GF(set_inf)(res);
        goto out;
    }
    for (size_t i = 0; i < nb; i++) GF(aff_set_inf)(&s.bk[i]);
    for (size_t i = lo; i < hi; i++) {
        int d = digit(j->kh + 5 * i, w, j->c);
        if (!d) continue;
        uint32_t b = (uint32_t)((d > 0 ? d : -d) - 1);
        const GT(aff) *p = &j->bases[j->idx[i]];
        if (s.st[b] == LF(BUSY)) {
            s.qb[s.nq] = b;
            s.qp[s.nq] = p;
            s.qneg[s.nq++] = d < 0;
            if (s.nq == s.qcap) LF(flush)(&s);
        } else {
            LF(place)(&s, b, p, d < 0);
            if (s.m == s.cap) LF(flush)(&s);
        }
    }
    while (s.m || s.nq) LF(flush)(&s);
    BUCKET_SUM(res, s.bk, nb, GF(xyzz_add_mixed));
out:
    free(s.bk);
    free(s.st);
    free(s.bb);
    free(s.pt);
    free(s.den);
    free(s.pre);
    free(s.kind);
    free(s.qb);
    free(s.qp);
    free(s.qneg);
}

static void LF(window_task)(void *ctx, size_t t)
{
    LF(job) *j = ctx;
    int w = (int)(t / j->nchunks);
    size_t ch = t % j->nchunks;
    size_t lo = ch * j->chunk, hi = lo + j->chunk < j->n ? lo + j->chunk : j->n;
    if (j->batch_affine) LF(window_ba)(j, w, lo, hi, &j->results[t]);
    else LF(window_xyzz)(j, w, lo, hi, &j->results[t]);
}

/* ---- sums of many points (the scalars equal to 1) ----
 * Blocks of ONES_BLOCK points are copied out and halved level by level:
 * w[j] = w[2j] + w[2j+1], the additions of a level finished ONES_BATCH at a
 * time with one shared inversion (forward pass: prefix products; backward:
 * the single inverses; forward again: the sums, which only overwrite entries
 * already read). The last few points of a block go into an XYZZ sum. */
#define ONES_BLOCK 16384
#define ONES_BATCH 1024
#define ONES_TAIL 32

enum { LF(S_ADD), LF(S_DBL), LF(S_ZERO), LF(S_A), LF(S_B) };

static void LF(halve)(GT(aff) *w, size_t len, FE *den, FE *pre, uint8_t *kind)
{
    size_t half = len / 2;
    for (size_t j0 = 0; j0 < half; j0 += ONES_BATCH) {
        size_t m = half - j0 < ONES_BATCH ? half - j0 : ONES_BATCH;
        FE acc;
        FF(one)(&acc);
        for (size_t t = 0; t < m; t++) {
            const GT(aff) *a = &w[2 * (j0 + t)], *b = a + 1;
            pre[t] = acc;
            if (GF(aff_is_inf)(a)) { kind[t] = LF(S_B); continue; }
            if (GF(aff_is_inf)(b)) { kind[t] = LF(S_A); continue; }
            FF(sub)(&den[t], &b->x, &a->x);
            if (!FF(is_zero)(&den[t])) kind[t] = LF(S_ADD);
            else if (FF(eq)(&a->y, &b->y) && !FF(is_zero)(&a->y)) {
                kind[t] = LF(S_DBL);
                FF(dbl)(&den[t], &a->y);
            } else {
                kind[t] = LF(S_ZERO);
                continue;
            }
            FF(mul)(&acc, &acc, &den[t]);
        }
        FF(inv)(&acc, &acc);
        for (size_t t = m; t-- > 0;) {
            if (kind[t] != LF(S_ADD) && kind[t] != LF(S_DBL)) continue;
            FE d = den[t];
            FF(mul)(&den[t], &acc, &pre[t]); /* 1 / den */
            FF(mul)(&acc, &acc, &d);
        }
        for (size_t t = 0; t < m; t++) {
            const GT(aff) *a = &w[2 * (j0 + t)], *b = a + 1;
            GT(aff) *o = &w[j0 + t];
            if (kind[t] == LF(S_A)) { *o = *a; continue; }
            if (kind[t] == LF(S_B)) { *o = *b; continue; }
            if (kind[t] == LF(S_ZERO)) { GF(aff_set_inf)(o); continue; }
            FE l, x3, dx;
            if (kind[t] == LF(S_ADD)) {
                FF(sub)(&l, &b->y, &a->y);
            } else { /* lambda = 3x^2 / 2y */
                FE t3;
                FF(sqr)(&l, &a->x);
                FF(dbl)(&t3, &l);
                FF(add)(&l, &l, &t3);
            }
            FF(mul)(&l, &l, &den[t]);
            FF(sqr)(&x3, &l);
            FF(sub)(&x3, &x3, &a->x);
            FF(sub)(&x3, &x3, &b->x); /* b->x == a->x when doubling */
            FF(sub)(&dx, &a->x, &x3);
            FF(mul)(&dx, &dx, &l);
            FF(sub)(&o->y, &dx, &a->y);
            o->x = x3;
        }
    }
    if (len & 1) w[half] = w[len - 1];
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
    GT(aff) *w = NULL;
    FE *den = NULL, *pre = NULL;
    uint8_t *kind = NULL;
    if (hi - lo > 4 * ONES_TAIL) {
        w = malloc(ONES_BLOCK * sizeof *w);
        den = malloc(ONES_BATCH * sizeof *den);
        pre = malloc(ONES_BATCH * sizeof *pre);
        kind = malloc(ONES_BATCH);
        if (!w || !den || !pre || !kind) {
            free(w);
            w = NULL; /* fall back to XYZZ additions */
        }
    }
    for (size_t b0 = lo; b0 < hi; b0 += ONES_BLOCK) {
        size_t len = hi - b0 < ONES_BLOCK ? hi - b0 : ONES_BLOCK;
        if (!w || len <= 4 * ONES_TAIL) {
            for (size_t i = b0; i < b0 + len; i++)
                GF(xyzz_add_mixed)(&acc, &acc, &j->bases[j->idx[i]]);
            continue;
        }
        for (size_t i = 0; i < len; i++) w[i] = j->bases[j->idx[b0 + i]];
        while (len > ONES_TAIL) {
            LF(halve)(w, len, den, pre, kind);
            len = (len + 1) / 2;
        }
        for (size_t i = 0; i < len; i++) GF(xyzz_add_mixed)(&acc, &acc, &w[i]);
    }
    free(w);
    free(den);
    free(pre);
    free(kind);
    GF(xyzz_to_jac)(&j->results[t], &acc);
}

static cz_err GF(msm_impl)(GT(jac) *out, const GT(aff) *bases, const cz_fr *scalars, size_t n,
                    int scalars_mont, const uint64_t *density, cz_pool *pool)
{
    GF(set_inf)(out);
    cz_err err = CZ_OK;
    /* split scalars into ones and the rest (plain form); infinity bases
     * contribute nothing and are dropped here */
    size_t *ones = malloc((n ? n : 1) * sizeof *ones);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    uint64_t *kh = malloc((n ? n : 1) * 5 * sizeof *kh);
    GT(jac) *results = NULL;
    if (!ones || !idx || !kh) { err = CZ_ERR_NOMEM; goto done; }
    size_t n_ones = 0, n_big = 0, base = 0;
    for (size_t i = 0; i < n; i++) {
        if (density && !((density[i / 64] >> (i % 64)) & 1)) continue;
        size_t bi = density ? base++ : i;
        cz_fr s;
        if (scalars_mont) cz_fr_from_mont(&s, &scalars[i]);
        else s = scalars[i];
        if (s.l[3] == 0 && s.l[2] == 0 && s.l[1] == 0 && s.l[0] <= 1) {
            if (s.l[0] == 1 && !GF(aff_is_inf)(&bases[bi])) ones[n_ones++] = bi;
            continue;
        }
        if (GF(aff_is_inf)(&bases[bi])) continue;
        idx[n_big] = bi;
        memcpy(kh + 5 * n_big, s.l, 4 * sizeof *kh);
        kh[5 * n_big + 4] = 0;
        n_big++;
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
        int c = cz__msm_window_bits_for(n_big, sizeof(GT(aff)), th);
        int nw = num_windows(c);
        add_offset(kh, n_big, c, nw);
        size_t nchunks = num_chunks(nw, th, n_big);
        LF(job) j = {.bases = bases, .kh = kh, .idx = idx, .n = n_big, .c = c, .nw = nw,
                     .batch_affine = cz__msm_use_batch_affine(c, n_big / nchunks),
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
    free(kh);
    if (err) GF(set_inf)(out);
    return err;
}

#undef BUCKET_SUM
#undef BA_AHEAD
#undef ONES_BLOCK
#undef ONES_BATCH
#undef ONES_TAIL
#undef PREFETCH
#undef GCAT_
#undef GCAT
#undef GF
#undef GT
#undef LF
#undef FF
