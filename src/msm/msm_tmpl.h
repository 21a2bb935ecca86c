/* msm_tmpl.h — Pippenger for one group, included by msm.c once per group with
 * G (g1 or g2), FE (the coordinate field type), FEP (its function prefix)
 * and MSM_G1 (1 for G1: the split uses sigma; 0 for G2: psi^2) (see msm.h).
 *
 * Entries: every scalar other than 0 and 1 becomes an entry (base pointer,
 * scalar of kl limbs); the scan that converts and sorts the scalars runs
 * in chunks over the pool (scan_task). With the endomorphism split each scalar k gives two
 * entries of 128 bits, k mod z on P and k div z on [z]P, which is -sigma(P)
 * on G1 and psi^2(P) on G2 (z = x^2).
 *
 * Signed digits: a scalar k is cut into nw windows of c >= 2 bits
 * (see num_windows). Adding H = sum_w 2^(c-1) 2^(wc) once
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
 * bucket only when its batch is flushed and prefetches it there. The bucket
 * sums sum_j (j+1) b[j] use running sums: in XYZZ for XYZZ buckets, and for
 * affine buckets as RED_SEGS running sums side by side whose additions share
 * inversions (bucket_sum_ba). Scalars equal to 1 are summed by levels of
 * pairwise batch-affine additions (see ones_task). */

#define GCAT_(a, b, c) a##b##c
#define GCAT(a, b, c) GCAT_(a, b, c)
#define GF(name) GCAT(cz_, G, _##name)       /* cz_g1_add ... */
#define GT(kind) GCAT(cz_, G, _##kind)       /* cz_g1_aff ... */
#define LF(name) GCAT(G, _msm_, name)        /* file-local helpers */
#define FF(name) GCAT(FEP, _, name)          /* cz_fp_mul ... */
#define MT GCAT(cz_msm_, G, _term)           /* cz_msm_g1_term */

/* prefetches can be turned off to measure them (cz__msm_config) */
#define PREFETCH(p) do { if (cfg_prefetch) __builtin_prefetch(p); } while (0)

/* the bases may sit at any byte address (msm.h): every read of one is a
 * copy into an aligned point */
static inline void LF(load)(GT(aff) *o, const uint8_t *p) { memcpy(o, p, sizeof *o); }
static inline int LF(inf_at)(const uint8_t *p)
{
    GT(aff) q;
    LF(load)(&q, p);
    return GF(aff_is_inf)(&q);
}

typedef struct {
    const uint8_t *const *pp; /* the base of each entry (msm.h: any alignment) */
    const uint64_t *kh;       /* kl limbs per entry: k + H */
    int kl;
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
    size_t kl = (size_t)j->kl;
    int dn = lo < hi ? digit(j->kh + kl * lo, w, j->c) : 0;
    for (size_t i = lo; i < hi; i++) {
        int d = dn;
        if (i + 1 < hi) {
            dn = digit(j->kh + kl * (i + 1), w, j->c);
            if (dn) PREFETCH(&b[(dn > 0 ? dn : -dn) - 1]);
        }
        if (!d) continue;
        GT(aff) p;
        LF(load)(&p, j->pp[i]);
        if (d > 0) GF(xyzz_add_mixed)(&b[d - 1], &b[d - 1], &p);
        else GF(xyzz_sub_mixed)(&b[-d - 1], &b[-d - 1], &p);
    }
    BUCKET_SUM(res, b, nb, GF(xyzz_add));
    free(b);
}

/* ---- batched affine additions ----
 * o[t] = a[t] + b[t] for t < m (arrays with strides os, as, bs), infinity
 * being (0, 0), with one shared inversion: a forward pass of prefix
 * products, a backward pass of single inverses, a forward pass of sums. Each
 * o[t] is written after a[u], b[u] for u <= t are read, so o may overlap a or
 * b when it never runs ahead of them (o[t] at or before a[t], b[t]). den,
 * pre and kind are m-entry scratch. */
enum { LF(S_ADD), LF(S_DBL), LF(S_ZERO), LF(S_A), LF(S_B) };

/* what a + b needs: S_A / S_B when the other one is infinity, S_ADD with
 * *den = b.x - a.x, S_DBL (b = a) with *den = 2 a.y, or S_ZERO (b = -a) */
static inline int LF(is_inf)(const GT(aff) *p) { return FF(is_zero)(&p->x) & FF(is_zero)(&p->y); }

static uint8_t LF(pair_kind)(FE *den, const GT(aff) *a, const GT(aff) *b)
{
    if (LF(is_inf)(a)) return LF(S_B);
    if (LF(is_inf)(b)) return LF(S_A);
    FF(sub)(den, &b->x, &a->x);
    if (!FF(is_zero)(den)) return LF(S_ADD);
    if (FF(eq)(&a->y, &b->y) && !FF(is_zero)(&a->y)) {
        FF(dbl)(den, &a->y);
        return LF(S_DBL);
    }
    return LF(S_ZERO);
}

/* ---- eight products at a time (cz_fp_chord_x8 and cz_fp_inv_x8 on G1,
 * cz_fp2_chord_x8 and cz_fp2_inv_x8 on G2: AVX-512 IFMA where present) ----
 * Entry t of a batch sits in lane t mod 8 and every lane keeps its own prefix
 * product, so each step is eight independent products; the eight lane
 * products are inverted together (one inversion, prefix/suffix products of
 * the lanes). Callers give den and pre room for whole groups of eight and
 * set padding entries, and entries that need no inversion, to one. */
#if MSM_G1
/* den[t] <- 1 / den[t] for t < 8 ng (every den[t] non-zero); pre holds
 * PRE_BYTES per entry (cz_fp_inv_x8: in radix 2^52 with IFMA) */
static void LF(inv8)(FE *den, FE *pre, size_t ng) { cz_fp_inv_x8(den, pre, ng); }
#define CHORD8 cz_fp_chord_x8
#else
/* G2: 1 / d = conj(d) / N(d) with the norm N(d) = d0^2 + d1^2 in Fp, so
 * the lane prefix products and the one inversion run over the Fp norms
 * (cz_fp2_inv_x8; in radix 2^52 throughout with IFMA). pre holds
 * PRE_BYTES per entry. */
static void LF(inv8)(FE *den, FE *pre, size_t ng) { cz_fp2_inv_x8(den, pre, ng); }
#define CHORD8 cz_fp2_chord_x8
#endif

/* scratch bytes per entry of pre (pair_add, batch8) */
#undef PRE_BYTES
#if MSM_G1
#define PRE_BYTES (sizeof(FE) > CZ_FP_INV_X8_SCRATCH ? sizeof(FE) : (size_t)CZ_FP_INV_X8_SCRATCH)
#else
#define PRE_BYTES (sizeof(FE) > CZ_FP2_INV_X8_SCRATCH ? sizeof(FE) : (size_t)CZ_FP2_INV_X8_SCRATCH)
#endif

enum { LF(L_SKIP), LF(L_ADD), LF(L_DBL) };

/* out[l] = a[l] + b[l] for op[l] L_ADD (inv[l] = 1 / (b.x - a.x)) and
 * 2 a[l] for L_DBL (inv[l] = 1 / (2 a.y)); L_SKIP lanes are not written */
static void LF(sum8)(GT(aff) out[8], const GT(aff) a[8], const GT(aff) b[8], const FE inv[8], const uint8_t op[8])
{
    FE num[8];
    for (int l = 0; l < 8; l++) {
        if (op[l] == LF(L_ADD)) {
            FF(sub)(&num[l], &b[l].y, &a[l].y);
        } else if (op[l] == LF(L_DBL)) { /* lambda = 3x^2 / 2y */
            FE t3;
            FF(sqr)(&num[l], &a[l].x);
            FF(dbl)(&t3, &num[l]);
            FF(add)(&num[l], &num[l], &t3);
        } else {
            FF(zero)(&num[l]);
        }
    }
    /* the rest in radix 2^52 from the loads to the stores (with IFMA; every
     * lane is written; b.x = a.x when doubling) */
    _Static_assert(sizeof(GT(aff)) == 2 * sizeof(FE) && offsetof(GT(aff), y) == sizeof(FE), "aff = (x, y)");
    CHORD8(&out[0].x, &a[0].x, &b[0].x, num, inv);
}

/* pair_add with eight products at a time; den and pre must hold m rounded
 * up to a multiple of 8. Each group's inputs are copied before its outputs
 * are written, so the overlap rule of pair_add holds group by group. */
static void LF(pair_add8)(GT(aff) *o, size_t os, const GT(aff) *a, size_t as, const GT(aff) *b, size_t bs,
                          size_t m, FE *den, FE *pre, uint8_t *kind)
{
    size_t ng = (m + 7) / 8;
    FE one;
    FF(one)(&one);
    for (size_t t = 0; t < 8 * ng; t++) {
        if (t < m) kind[t] = LF(pair_kind)(&den[t], a + t * as, b + t * bs);
        if (t >= m || (kind[t] != LF(S_ADD) && kind[t] != LF(S_DBL))) den[t] = one;
    }
    LF(inv8)(den, pre, ng);
    for (size_t g = 0; g < ng; g++) {
        GT(aff) ca[8], cb[8], sum[8];
        uint8_t op[8];
        for (int l = 0; l < 8; l++) {
            size_t t = 8 * g + (size_t)l;
            op[l] = LF(L_SKIP);
            if (t >= m) {
                GF(aff_set_inf)(&ca[l]); /* padding lanes: defined inputs */
                GF(aff_set_inf)(&cb[l]);
                continue;
            }
            ca[l] = a[t * as];
            cb[l] = b[t * bs];
            if (kind[t] == LF(S_ADD)) op[l] = LF(L_ADD);
            if (kind[t] == LF(S_DBL)) op[l] = LF(L_DBL);
        }
        LF(sum8)(sum, ca, cb, &den[8 * g], op);
        for (int l = 0; l < 8; l++) {
            size_t t = 8 * g + (size_t)l;
            if (t >= m) continue;
            GT(aff) *po = o + t * os;
            if (kind[t] == LF(S_A)) *po = ca[l];
            else if (kind[t] == LF(S_B)) *po = cb[l];
            else if (kind[t] == LF(S_ZERO)) GF(aff_set_inf)(po);
            else *po = sum[l];
        }
    }
}

static void LF(pair_add)(GT(aff) *o, size_t os, const GT(aff) *a, size_t as, const GT(aff) *b, size_t bs,
                         size_t m, FE *den, FE *pre, uint8_t *kind)
{
    if (use_x8()) {
        LF(pair_add8)(o, os, a, as, b, bs, m, den, pre, kind);
        return;
    }
    FE acc;
    FF(one)(&acc);
    for (size_t t = 0; t < m; t++) {
        pre[t] = acc;
        kind[t] = LF(pair_kind)(&den[t], a + t * as, b + t * bs);
        if (kind[t] == LF(S_ADD) || kind[t] == LF(S_DBL)) FF(mul)(&acc, &acc, &den[t]);
    }
    FF(inv)(&acc, &acc);
    for (size_t t = m; t-- > 0;) {
        if (kind[t] != LF(S_ADD) && kind[t] != LF(S_DBL)) continue;
        FE d = den[t];
        FF(mul)(&den[t], &acc, &pre[t]); /* 1 / den */
        FF(mul)(&acc, &acc, &d);
    }
    for (size_t t = 0; t < m; t++) {
        const GT(aff) *pa = a + t * as, *pb = b + t * bs;
        GT(aff) *po = o + t * os;
        if (kind[t] == LF(S_A)) { *po = *pa; continue; }
        if (kind[t] == LF(S_B)) { *po = *pb; continue; }
        if (kind[t] == LF(S_ZERO)) { GF(aff_set_inf)(po); continue; }
        FE l, x3, dx;
        if (kind[t] == LF(S_ADD)) {
            FF(sub)(&l, &pb->y, &pa->y);
        } else { /* lambda = 3x^2 / 2y */
            FE t3;
            FF(sqr)(&l, &pa->x);
            FF(dbl)(&t3, &l);
            FF(add)(&l, &l, &t3);
        }
        FF(mul)(&l, &l, &den[t]);
        FF(sqr)(&x3, &l);
        FF(sub)(&x3, &x3, &pa->x);
        FF(sub)(&x3, &x3, &pb->x); /* pb->x == pa->x when doubling */
        FF(sub)(&dx, &pa->x, &x3);
        FF(mul)(&dx, &dx, &l);
        FF(sub)(&po->y, &dx, &pa->y);
        po->x = x3;
    }
}

/* sum_{i < nb} (i+1) b[i] over affine buckets (infinity (0, 0)): RED_SEGS
 * segments of L = nb / RED_SEGS buckets run their running sums from the top
 * side by side (run_s += b[s L + i], then sum_s += run_s, each step's
 * additions sharing one inversion); bucket s L + i weighs (i + 1) + s L, so
 * the total is sum_s sum_s + L sum_s s run_s, the last by XYZZ running sums
 * and log2(L) doublings. Returns 0 (nothing done) when nb is too small or
 * memory is short. */
#define RED_SEGS 128

static int LF(bucket_sum_ba)(GT(jac) *res, const GT(aff) *b, size_t nb)
{
    size_t S = RED_SEGS;
    if (nb < 8 * S) return 0;
    size_t L = nb / S;
    GT(aff) *run = malloc(2 * S * sizeof *run);
    FE *den = malloc(S * sizeof *den), *pre = malloc(S * PRE_BYTES);
    uint8_t *kind = malloc(S);
    if (!run || !den || !pre || !kind) {
        free(run); free(den); free(pre); free(kind);
        return 0;
    }
    GT(aff) *sum = run + S;
    for (size_t s = 0; s < 2 * S; s++) GF(aff_set_inf)(&run[s]);
    for (size_t i = L; i-- > 0;) {
        LF(pair_add)(run, 1, run, 1, b + i, L, S, den, pre, kind);
        LF(pair_add)(sum, 1, sum, 1, run, 1, S, den, pre, kind);
    }
    GT(xyzz) tot, r2, acc;
    GF(xyzz_set_inf)(&tot);
    GF(xyzz_set_inf)(&r2);
    GF(xyzz_set_inf)(&acc);
    for (size_t s = S; s-- > 0;) {
        GF(xyzz_add_mixed)(&tot, &tot, &sum[s]);
        if (s == 0) break;
        GF(xyzz_add_mixed)(&r2, &r2, &run[s]);
        GF(xyzz_add)(&acc, &acc, &r2);
    }
    GT(jac) w, t;
    GF(xyzz_to_jac)(&w, &acc);
    for (size_t l = L; l > 1; l >>= 1) GF(dbl)(&w, &w);
    GF(xyzz_to_jac)(&t, &tot);
    GF(add)(res, &w, &t);
    free(run); free(den); free(pre); free(kind);
    return 1;
}

/* ---- batch-affine buckets ---- */

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
    uint8_t *kind;    /* S_ADD, S_DBL or S_ZERO (pair_kind) */
    size_t qcap, nq;  /* waiting queue */
    uint32_t *qb;
    const uint8_t **qp;
    uint8_t *qneg;
    int x8;           /* flush with eight products at a time */
} LF(ba);

/* put P (or -P) into bucket b, which is not busy: straight into an empty
 * bucket, else into the batch. Only the state byte is read here, so the
 * bucket itself is first touched in the flush, which prefetches it. */
static void LF(place)(LF(ba) *s, uint32_t b, const uint8_t *p, int neg)
{
    GT(aff) *q;
    if (s->st[b] == LF(EMPTY)) {
        q = &s->bk[b];
        s->st[b] = LF(FULL);
    } else {
        size_t t = s->m++;
        s->st[b] = LF(BUSY);
        s->bb[t] = b;
        q = &s->pt[t];
    }
    LF(load)(q, p);
    if (neg) FF(neg)(&q->y, &q->y);
}

/* The batch of a flush with eight products at a time (inv8, sum8 above);
 * cap is a multiple of 8 (cz__msm_batch_size), so den and pre hold whole
 * groups. */
static void LF(batch8)(LF(ba) *s, size_t m)
{
    size_t ng = (m + 7) / 8;
    FE one;
    FF(one)(&one);
    for (size_t t = 0; t < 8 * ng; t++) {
        if (t >= m) { s->den[t] = one; continue; }
        const GT(aff) *a = &s->bk[s->bb[t]], *p = &s->pt[t];
        if (t + BA_AHEAD < m) {
            const char *pb = (const char *)&s->bk[s->bb[t + BA_AHEAD]];
            PREFETCH(pb);
            PREFETCH(pb + sizeof(GT(aff)) - 1);
        }
        s->kind[t] = LF(pair_kind)(&s->den[t], a, p);
        if (s->kind[t] == LF(S_ZERO)) s->den[t] = one;
    }
    LF(inv8)(s->den, s->pre, ng);
    for (size_t g = 0; g < ng; g++) {
        GT(aff) ca[8], sum[8];
        uint8_t op[8];
        for (int l = 0; l < 8; l++) {
            size_t t = 8 * g + (size_t)l;
            op[l] = LF(L_SKIP);
            if (t >= m) {
                GF(aff_set_inf)(&ca[l]);
                continue;
            }
            ca[l] = s->bk[s->bb[t]];
            if (s->kind[t] == LF(S_ADD)) op[l] = LF(L_ADD);
            if (s->kind[t] == LF(S_DBL)) op[l] = LF(L_DBL);
        }
        LF(sum8)(sum, ca, &s->pt[8 * g], &s->den[8 * g], op);
        for (int l = 0; l < 8; l++) {
            size_t t = 8 * g + (size_t)l;
            if (t >= m) continue;
            GT(aff) *a = &s->bk[s->bb[t]];
            if (s->kind[t] == LF(S_ZERO)) {
                GF(aff_set_inf)(a);
                s->st[s->bb[t]] = LF(EMPTY);
            } else {
                *a = sum[l];
                s->st[s->bb[t]] = LF(FULL);
            }
        }
    }
}

/* finish the batch with one inversion, then let the queue in */
static void LF(flush)(LF(ba) *s)
{
    size_t m = s->m;
    if (s->x8 && m) {
        LF(batch8)(s, m);
        s->m = m = 0;
    }
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
            s->kind[t] = LF(pair_kind)(&s->den[t], a, p);
            if (s->kind[t] != LF(S_ZERO)) FF(mul)(&acc, &acc, &s->den[t]);
        }
        FF(inv)(&acc, &acc);
        for (size_t t = m; t-- > 0;) {
            GT(aff) *a = &s->bk[s->bb[t]];
            const GT(aff) *p = &s->pt[t];
            if (s->kind[t] == LF(S_ZERO)) {
                GF(aff_set_inf)(a);
                s->st[s->bb[t]] = LF(EMPTY);
                continue;
            }
            s->st[s->bb[t]] = LF(FULL);
            FE inv, l, x3;
            FF(mul)(&inv, &acc, &s->pre[t]);
            FF(mul)(&acc, &acc, &s->den[t]);
            if (s->kind[t] == LF(S_ADD)) {
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
    s.x8 = use_x8();
    s.cap = cz__msm_batch_size(nb);
    s.qcap = s.cap / 4;
    /* one zeroed block (util/mem.h: huge pages, reused by later tasks):
     * zero bytes are the empty bucket (0, 0) and the EMPTY state */
    size_t sz[10] = {nb * sizeof *s.bk, nb, s.cap * sizeof *s.bb, s.cap * sizeof *s.pt, s.cap * sizeof *s.den,
                     s.cap * PRE_BYTES, s.cap, s.qcap * sizeof *s.qb, s.qcap * sizeof *s.qp, s.qcap};
    size_t off[10], tot = 0;
    for (int k = 0; k < 10; k++) {
        off[k] = tot;
        tot += (sz[k] + 63) & ~(size_t)63;
    }
    uint8_t *blk = cz_big_alloc(tot);
    if (!blk) {
        j->oom = 1;
        GF(set_inf)(res);
        return;
    }
    s.bk = (GT(aff) *)(blk + off[0]);
    s.st = blk + off[1];
    s.bb = (uint32_t *)(blk + off[2]);
    s.pt = (GT(aff) *)(blk + off[3]);
    s.den = (FE *)(blk + off[4]);
    s.pre = (FE *)(blk + off[5]);
    s.kind = blk + off[6];
    s.qb = (uint32_t *)(blk + off[7]);
    s.qp = (const uint8_t **)(blk + off[8]);
    s.qneg = blk + off[9];
    for (size_t i = lo; i < hi; i++) {
        int d = digit(j->kh + (size_t)j->kl * i, w, j->c);
        if (!d) continue;
        uint32_t b = (uint32_t)((d > 0 ? d : -d) - 1);
        const uint8_t *p = j->pp[i];
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
    if (!LF(bucket_sum_ba)(res, s.bk, nb)) BUCKET_SUM(res, s.bk, nb, GF(xyzz_add_mixed));
    cz_big_free(blk);
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

static void LF(halve)(GT(aff) *w, size_t len, FE *den, FE *pre, uint8_t *kind)
{
    size_t half = len / 2;
    for (size_t j0 = 0; j0 < half; j0 += ONES_BATCH) {
        size_t m = half - j0 < ONES_BATCH ? half - j0 : ONES_BATCH;
        LF(pair_add)(w + j0, 1, w + 2 * j0, 2, w + 2 * j0 + 1, 2, m, den, pre, kind);
    }
    if (len & 1) w[half] = w[len - 1];
}

typedef struct {
    const uint8_t *const *pp;
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
        pre = malloc(ONES_BATCH * PRE_BYTES);
        kind = malloc(ONES_BATCH);
        if (!w || !den || !pre || !kind) {
            free(w);
            w = NULL; /* fall back to XYZZ additions */
        }
    }
    for (size_t b0 = lo; b0 < hi; b0 += ONES_BLOCK) {
        size_t len = hi - b0 < ONES_BLOCK ? hi - b0 : ONES_BLOCK;
        if (!w || len <= 4 * ONES_TAIL) {
            for (size_t i = b0; i < b0 + len; i++) {
                GT(aff) p;
                LF(load)(&p, j->pp[i]);
                GF(xyzz_add_mixed)(&acc, &acc, &p);
            }
            continue;
        }
        for (size_t i = 0; i < len; i++) LF(load)(&w[i], j->pp[b0 + i]);
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

/* ---- entries: scalars + H, or the endomorphism split ---- */
#define PREP_CHUNK 4096

typedef struct {
    const uint8_t *const *pp;
    uint64_t *kh;        /* 5 limbs per scalar, plain; + H in place unless split */
    size_t n;
    uint64_t h[5];
    GT(aff) *ext;        /* split: [z]P per scalar */
    const uint8_t **pp2; /* split: two entries per scalar */
    uint64_t *k2;        /* split: SPLIT_KL limbs per entry, + H */
} LF(prep_job);

/* the split of one scalar: its halves (SPLIT_KL limbs each) and [z]P, the
 * base of the high half (msm.h, ec.h) */
static void LF(split_one)(uint64_t *d, GT(aff) *e, const uint64_t *k, const uint8_t *pb)
{
    GT(aff) p;
    LF(load)(&p, pb);
    cz__msm_glv_split(d, d + 3, k);
    d[2] = d[5] = 0;
#if MSM_G1 /* [z] = -sigma on G1: k mod z on P, k div z on -sigma(P) */
    GF(aff_sigma)(&e[0], &p);
    FF(neg)(&e[0].y, &e[0].y);
#else /* [z] = psi^2 on G2: k div z on psi^2(P) */
    GF(aff_psi2)(&e[0], &p);
#endif
}

static void LF(prep_task)(void *ctx, size_t t)
{
    LF(prep_job) *j = ctx;
    size_t lo = t * PREP_CHUNK, hi = lo + PREP_CHUNK < j->n ? lo + PREP_CHUNK : j->n;
    if (j->k2) {
        for (size_t i = lo; i < hi; i++) {
            uint64_t *d = j->k2 + (size_t)2 * SPLIT_KL * i;
            GT(aff) *e = j->ext + i;
            const uint8_t **q = j->pp2 + 2 * i;
            LF(split_one)(d, e, j->kh + 5 * i, j->pp[i]);
            q[0] = j->pp[i];
            q[1] = (const uint8_t *)e;
            add_h(d, SPLIT_KL, j->h);
            add_h(d + SPLIT_KL, SPLIT_KL, j->h);
        }
        return;
    }
    for (size_t i = lo; i < hi; i++) add_h(j->kh + 5 * i, 5, j->h);
}

/* ---- the scan: scalars to plain form, sorted into ones and the rest ----
 * Chunks of SCAN_CHUNK entries of one term; a chunk writes its ones and its
 * other entries from its own offset `at` in the entry numbering (every
 * term's entries one after the other), so chunks never overlap, and counts
 * them; msm_impl then moves them down in chunk order, which gives the
 * order of one serial pass. */
#define SCAN_CHUNK 8192

typedef struct {
    size_t term, lo, hi, at, base; /* base: index into the term's bases at lo */
    size_t n_ones, n_big;
} LF(scan_chunk);

typedef struct {
    const MT *terms;
    int mont;
    uint64_t *kh;
    const uint8_t **ones, **pp;
    LF(scan_chunk) *ch;
} LF(scan_job);

static void LF(scan_task)(void *ctx, size_t c)
{
    LF(scan_job) *j = ctx;
    LF(scan_chunk) *ch = &j->ch[c];
    const MT *tm = &j->terms[ch->term];
    const uint8_t **ones = j->ones + ch->at, **pp = j->pp + ch->at;
    uint64_t *kh = j->kh + 5 * ch->at;
    size_t base = ch->base, n1 = 0, nb = 0;
    for (size_t i = ch->lo; i < ch->hi; i++) {
        if (tm->density && !((tm->density[i / 64] >> (i % 64)) & 1)) continue;
        const uint8_t *bp = (const uint8_t *)tm->bases + (tm->density ? base++ : i) * sizeof(GT(aff));
        cz_fr s;
        if (j->mont) cz_fr_from_mont(&s, &tm->scalars[i]);
        else s = tm->scalars[i];
        if (s.l[3] == 0 && s.l[2] == 0 && s.l[1] == 0 && s.l[0] <= 1) {
            if (s.l[0] == 1 && !LF(inf_at)(bp)) ones[n1++] = bp;
            continue;
        }
        if (LF(inf_at)(bp)) continue;
        pp[nb] = bp;
        memcpy(kh + 5 * nb, s.l, 4 * sizeof *kh);
        kh[5 * nb + 4] = 0;
        nb++;
    }
    ch->n_ones = n1;
    ch->n_big = nb;
}

static cz_err GF(msm_impl)(GT(jac) *out, const MT *terms, size_t nterms, int scalars_mont,
                           cz_pool *pool)
{
    GF(set_inf)(out);
    cz_err err = CZ_OK;
    size_t n = 0;
    for (size_t t = 0; t < nterms; t++) n += terms[t].n;
    /* split scalars into ones and the rest (plain form); infinity bases
     * contribute nothing and are dropped here (scan_task, in chunks over the
     * pool, each chunk's entries then moved down behind the previous ones) */
    /* one block each for the scan's arrays and the split's (fewer, fuller
     * huge pages; see util/mem.h) */
    uint8_t *blk = cz_big_array(n, 2 * sizeof(void *) + 5 * sizeof(uint64_t)), *blk2 = NULL;
    const uint8_t **ones = NULL, **pp = NULL, **pp2 = NULL;
    uint64_t *kh = NULL, *k2 = NULL;
    GT(aff) *ext = NULL;
    GT(jac) *results = NULL;
    LF(scan_job) sj = {.terms = terms, .mont = scalars_mont};
    if (!blk) { err = CZ_ERR_NOMEM; goto done; }
    kh = (uint64_t *)blk;
    ones = (const uint8_t **)(kh + 5 * n);
    pp = ones + n;
    sj.kh = kh;
    sj.ones = ones;
    sj.pp = pp;
    size_t nch = 0;
    for (size_t t = 0; t < nterms; t++) nch += (terms[t].n + SCAN_CHUNK - 1) / SCAN_CHUNK;
    sj.ch = malloc((nch ? nch : 1) * sizeof *sj.ch);
    if (!sj.ch) { err = CZ_ERR_NOMEM; goto done; }
    {   /* the chunks, with their first base (the set density bits before them) */
        size_t c = 0, g = 0;
        for (size_t t = 0; t < nterms; t++) {
            const MT *tm = &terms[t];
            size_t base = 0;
            for (size_t lo = 0; lo < tm->n; lo += SCAN_CHUNK, c++) {
                size_t hi = lo + SCAN_CHUNK < tm->n ? lo + SCAN_CHUNK : tm->n;
                sj.ch[c] = (LF(scan_chunk)){.term = t, .lo = lo, .hi = hi, .at = g + lo, .base = base};
                if (tm->density && hi < tm->n) /* SCAN_CHUNK is a multiple of 64 */
                    for (size_t w = lo / 64; w < hi / 64; w++) base += (size_t)__builtin_popcountll(tm->density[w]);
            }
            g += tm->n;
        }
    }
    cz_pool_run(pool, nch, LF(scan_task), &sj);
    size_t n_ones = 0, n_big = 0;
    for (size_t c = 0; c < nch; c++) {
        const LF(scan_chunk) *ch = &sj.ch[c];
        memmove(ones + n_ones, ones + ch->at, ch->n_ones * sizeof *ones);
        memmove(pp + n_big, pp + ch->at, ch->n_big * sizeof *pp);
        memmove(kh + 5 * n_big, kh + 5 * ch->at, ch->n_big * 5 * sizeof *kh);
        n_ones += ch->n_ones;
        n_big += ch->n_big;
    }
    unsigned th = cz_pool_threads(pool);
    if (n_ones) {
        size_t nt = n_ones < 4096 ? 1 : 4 * (size_t)th;
        LF(ones_job) oj = {.pp = ones, .n = n_ones, .chunk = (n_ones + nt - 1) / nt};
        results = malloc(nt * sizeof *results);
        if (!results) { err = CZ_ERR_NOMEM; goto done; }
        oj.results = results;
        cz_pool_run(pool, nt, LF(ones_task), &oj);
        for (size_t t = 0; t < nt; t++) GF(add)(out, out, &results[t]);
        free(results);
        results = NULL;
    }
    if (n_big) {
        int split;
        size_t nchunks;
        int c = cz__msm_plan(n_big, sizeof(GT(aff)), th, 2, &split, &nchunks);
        LF(prep_job) pj = {.pp = pp, .kh = kh, .n = n_big};
        LF(job) j = {.c = c};
        if (split) {
            blk2 = cz_big_array(n_big, sizeof *ext + 2 * (sizeof *pp2 + SPLIT_KL * sizeof *k2));
            if (!blk2) { err = CZ_ERR_NOMEM; goto done; }
            ext = (GT(aff) *)blk2;
            k2 = (uint64_t *)(ext + n_big);
            pp2 = (const uint8_t **)(k2 + 2 * SPLIT_KL * n_big);
            pj.ext = ext;
            pj.pp2 = pp2;
            pj.k2 = k2;
            j.pp = pp2;
            j.kh = k2;
            j.kl = SPLIT_KL;
            j.n = 2 * n_big;
            j.nw = num_windows_split(c);
        } else {
            j.pp = pp;
            j.kh = kh;
            j.kl = 5;
            j.n = n_big;
            j.nw = num_windows(c);
        }
        offset_h(pj.h, c, j.nw);
        cz_pool_run(pool, (n_big + PREP_CHUNK - 1) / PREP_CHUNK, LF(prep_task), &pj);
        int nw = j.nw;
        if (nchunks > j.n) nchunks = 1;
        j.nchunks = nchunks;
        j.chunk = (j.n + nchunks - 1) / nchunks;
        j.batch_affine = cz__msm_use_batch_affine(c, j.n / nchunks);
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
    free(sj.ch);
    cz_big_free(blk);
    cz_big_free(blk2);
    if (err) GF(set_inf)(out);
    return err;
}

#undef BUCKET_SUM
#undef CHORD8
#undef RED_SEGS
#undef PREP_CHUNK
#undef SCAN_CHUNK
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
#undef MT
