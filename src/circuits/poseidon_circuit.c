/* poseidon_circuit.c — neptune's legacy Poseidon circuit (see
 * poseidon_circuit.h for the structure).
 *
 * The state is t elements, each either a variable (an allocated S-box
 * output or an input) or a linear combination ("Num") with its value. The
 * values are always those of the fast native evaluation; the linear
 * combinations are built only when constraints are (RECORD / COUNT), so in
 * witness modes the gadget is the native hash plus the stores of the
 * allocated powers. Linear combinations follow bellpepper's rules (cs.h):
 * merged by variable, zero coefficients kept; scaling a variable makes a
 * one-term combination. */
#include <string.h>

#include "circuits/poseidon_circuit.h"

typedef struct {
    uint32_t w;
    cz_fr v[CZ_POSEIDON_MAX_WIDTH];
    cz_var var[CZ_POSEIDON_MAX_WIDTH];
    uint8_t is_var[CZ_POSEIDON_MAX_WIDTH];
    cz_lc lc[CZ_POSEIDON_MAX_WIDTH];  /* the Num elements (RECORD / COUNT) */
    cz_lc nlc[CZ_POSEIDON_MAX_WIDTH]; /* the next state's */
} pstate;

static inline void lc1(cz_cs *cs, cz_lc *lc, cz_var v)
{
    cz_lc_clear(lc);
    cz_lc_add(cs, lc, v, NULL);
}

/* bellpepper's AllocatedNum::square: a * a = sq */
static inline cz_var square(cz_cs *cs, cz_var a, const cz_fr *sq, int rec)
{
    cz_var r = cz_cs_alloc(cs, sq);
    if (rec) {
        cz_lc *A = cz_cs_lc(cs, 0), *C = cz_cs_lc(cs, 2);
        cz_lc_add(cs, A, a, NULL);
        cz_lc_add(cs, C, r, NULL);
        cz_cs_enforce(cs, A, A, C);
    }
    return r;
}

/* neptune's quintic_s_box on element i: the input allocated (lc * ONE = v)
 * if it is a combination, then l^2, l^4, l^4 * l + post (post NULL: none) */
static void sbox_round(cz_cs *cs, pstate *s, uint32_t i, const cz_fr *post, int rec)
{
    cz_fr x = s->v[i], l2, l4, l5;
    cz_var xv;
    if (s->is_var[i]) {
        xv = s->var[i];
    } else {
        xv = cz_cs_alloc(cs, &x);
        if (rec) {
            cz_lc *B = cz_cs_lc(cs, 1), *C = cz_cs_lc(cs, 2);
            cz_lc_add(cs, B, CZ_ONE, NULL);
            cz_lc_add(cs, C, xv, NULL);
            cz_cs_enforce(cs, &s->lc[i], B, C);
        }
    }
    cz_fr_sqr(&l2, &x);
    cz_var v2 = square(cs, xv, &l2, rec);
    cz_fr_sqr(&l4, &l2);
    cz_var v4 = square(cs, v2, &l4, rec);
    cz_fr_mul(&l5, &l4, &x);
    if (post) cz_fr_add(&l5, &l5, post);
    cz_var v5 = cz_cs_alloc(cs, &l5);
    if (rec) { /* mul_sum: b * a = res - post, with b = l, a = l^4 */
        cz_lc *A = cz_cs_lc(cs, 0), *B = cz_cs_lc(cs, 1), *C = cz_cs_lc(cs, 2);
        cz_lc_add(cs, A, xv, NULL);
        cz_lc_add(cs, B, v4, NULL);
        cz_lc_add(cs, C, v5, NULL);
        if (post) cz_lc_sub(cs, C, CZ_ONE, post);
        cz_cs_enforce(cs, A, B, C);
    }
    s->v[i] = l5;
    s->var[i] = v5;
    s->is_var[i] = 1;
}

/* the first S-box layer on an input element i >= 1: (l + pre)^2, ^4, and
 * ^4 * (l + pre) + post (neptune's quintic_s_box_pre_add) */
static void sbox_first(cz_cs *cs, pstate *s, uint32_t i, const cz_fr *pre, const cz_fr *post, int rec)
{
    cz_var xv = s->var[i];
    cz_fr a, l2, l4, l5;
    cz_fr_add(&a, &s->v[i], pre);
    cz_fr_sqr(&l2, &a);
    cz_var v2 = cz_cs_alloc(cs, &l2);
    cz_lc *L = NULL;
    if (rec) {
        L = cz_cs_lc(cs, 3); /* l + pre·ONE */
        cz_lc_add(cs, L, xv, NULL);
        cz_lc_add(cs, L, CZ_ONE, pre);
        cz_lc *C = cz_cs_lc(cs, 2);
        cz_lc_add(cs, C, v2, NULL);
        cz_cs_enforce(cs, L, L, C);
    }
    cz_fr_sqr(&l4, &l2);
    cz_var v4 = square(cs, v2, &l4, rec);
    cz_fr_mul(&l5, &l4, &a);
    cz_fr_add(&l5, &l5, post);
    cz_var v5 = cz_cs_alloc(cs, &l5);
    if (rec) {
        cz_lc *B = cz_cs_lc(cs, 1), *C = cz_cs_lc(cs, 2);
        cz_lc_add(cs, B, v4, NULL);
        cz_lc_add(cs, C, v5, NULL);
        cz_lc_sub(cs, C, CZ_ONE, post);
        cz_cs_enforce(cs, L, B, C);
    }
    s->v[i] = l5;
    s->var[i] = v5;
    s->is_var[i] = 1;
}

/* scaled element i added into lc: a variable as one term, a Num term by term */
static inline void lc_add_elt(cz_cs *cs, cz_lc *lc, const pstate *s, uint32_t i, const cz_fr *coef)
{
    if (s->is_var[i]) cz_lc_add(cs, lc, s->var[i], coef);
    else cz_lc_add_lc(cs, lc, &s->lc[i], coef);
}

static void swap_lcs(pstate *s)
{
    for (uint32_t j = 0; j < s->w; j++) {
        cz_lc t = s->lc[j];
        s->lc[j] = s->nlc[j];
        s->nlc[j] = t;
        s->is_var[j] = 0;
    }
}

/* state = state · m (dense) */
static void mix_dense(cz_cs *cs, pstate *s, const cz_fr *m, int rec)
{
    const uint32_t w = s->w;
    cz_fr out[CZ_POSEIDON_MAX_WIDTH];
    for (uint32_t j = 0; j < w; j++) {
        cz_fr acc, pr;
        cz_fr_mul(&acc, &s->v[0], &m[j]);
        for (uint32_t i = 1; i < w; i++) {
            cz_fr_mul(&pr, &s->v[i], &m[i * w + j]);
            cz_fr_add(&acc, &acc, &pr);
        }
        out[j] = acc;
    }
    memcpy(s->v, out, w * sizeof(cz_fr));
    if (rec) {
        for (uint32_t j = 0; j < w; j++) {
            cz_lc_clear(&s->nlc[j]);
            for (uint32_t i = 0; i < w; i++) lc_add_elt(cs, &s->nlc[j], s, i, &m[i * w + j]);
        }
        swap_lcs(s);
    } else {
        memset(s->is_var, 0, w);
    }
}

/* state = state · M'' (first column wh, first row from column 1 vr); element
 * 0 is a variable here (the partial round's S-box output) */
static void mix_sparse(cz_cs *cs, pstate *s, const cz_fr *wh, const cz_fr *vr, int rec)
{
    const uint32_t w = s->w;
    cz_fr s0 = s->v[0], acc, pr;
    cz_fr_mul(&acc, &s->v[0], &wh[0]);
    for (uint32_t i = 1; i < w; i++) {
        cz_fr_mul(&pr, &s->v[i], &wh[i]);
        cz_fr_add(&acc, &acc, &pr);
    }
    if (rec) {
        cz_lc *n0 = &s->nlc[0];
        cz_lc_clear(n0);
        for (uint32_t i = 0; i < w; i++) lc_add_elt(cs, n0, s, i, &wh[i]);
        /* elements 1.. stay combinations and gain element 0's variable */
        for (uint32_t j = 1; j < w; j++) {
            if (s->is_var[j]) lc1(cs, &s->lc[j], s->var[j]);
            cz_lc_add(cs, &s->lc[j], s->var[0], &vr[j - 1]);
        }
        cz_lc t = s->lc[0];
        s->lc[0] = *n0;
        *n0 = t;
    }
    for (uint32_t j = 1; j < w; j++) {
        cz_fr_mul(&pr, &s0, &vr[j - 1]);
        cz_fr_add(&s->v[j], &s->v[j], &pr);
    }
    s->v[0] = acc;
    memset(s->is_var, 0, w);
}

static void mix_round(cz_cs *cs, pstate *s, const cz_poseidon *p, uint32_t round, int rec)
{
    const uint32_t half = p->rf / 2;
    if (round + 1 == half) {
        mix_dense(cs, s, p->pre_sparse, rec);
    } else if (round >= half && round < half + p->rp) {
        uint32_t k = round - half;
        mix_sparse(cs, s, p->w_hat + (size_t)k * p->width, p->v_rest + (size_t)k * (p->width - 1), rec);
    } else {
        mix_dense(cs, s, p->m, rec);
    }
}

cz_num cz_poseidon_circuit(cz_cs *cs, const cz_poseidon *p, const cz_fr *tag, const cz_num *in)
{
    const int rec = cz_cs_rec(cs);
    const uint32_t w = p->width, half = p->rf / 2;
    pstate s;
    s.w = w;
    if (!tag) tag = &p->tag;
    if (rec)
        for (uint32_t j = 0; j < w; j++) {
            cz_lc_init(&s.lc[j]);
            cz_lc_init(&s.nlc[j]);
        }
    const cz_fr *k = p->crc;
    uint32_t round = 0;

    /* first full round: the tag's S-box is a constant */
    {
        cz_fr c, t4;
        cz_fr_add(&c, tag, &k[0]);
        cz_fr_sqr(&t4, &c);
        cz_fr_sqr(&t4, &t4);
        cz_fr_mul(&c, &c, &t4);
        cz_fr_add(&c, &c, &k[w]);
        s.v[0] = c;
        s.is_var[0] = 0;
        if (rec) cz_lc_add(cs, &s.lc[0], CZ_ONE, &c);
        for (uint32_t i = 1; i < w; i++) {
            s.v[i] = in[i - 1].val;
            s.var[i] = in[i - 1].var;
            s.is_var[i] = 1;
            sbox_first(cs, &s, i, &k[i], &k[w + i], rec);
        }
        k += 2 * w;
        mix_round(cs, &s, p, round++, rec);
    }
    for (uint32_t r = 1; r < half; r++) {
        for (uint32_t i = 0; i < w; i++) sbox_round(cs, &s, i, &k[i], rec);
        k += w;
        mix_round(cs, &s, p, round++, rec);
    }
    for (uint32_t r = 0; r < p->rp; r++) {
        sbox_round(cs, &s, 0, k++, rec);
        mix_round(cs, &s, p, round++, rec);
    }
    for (uint32_t r = 0; r + 1 < half; r++) {
        for (uint32_t i = 0; i < w; i++) sbox_round(cs, &s, i, &k[i], rec);
        k += w;
        mix_round(cs, &s, p, round++, rec);
    }
    for (uint32_t i = 0; i < w; i++) sbox_round(cs, &s, i, NULL, rec);
    mix_round(cs, &s, p, round++, rec);

    /* the digest: state[1] allocated, lc * ONE = out */
    cz_num out;
    out.val = s.v[1];
    out.pad = 0;
    out.var = cz_cs_alloc(cs, &out.val);
    if (rec) {
        cz_lc *B = cz_cs_lc(cs, 1), *C = cz_cs_lc(cs, 2);
        cz_lc_add(cs, B, CZ_ONE, NULL);
        cz_lc_add(cs, C, out.var, NULL);
        cz_cs_enforce(cs, &s.lc[1], B, C);
        for (uint32_t j = 0; j < w; j++) {
            cz_lc_free(&s.lc[j]);
            cz_lc_free(&s.nlc[j]);
        }
    }
    return out;
}

uint64_t cz_poseidon_circuit_constraints(const cz_poseidon *p)
{
    return 3ull * p->arity + 4ull * p->width * (p->rf - 1) + 4ull * p->rp + 1;
}
