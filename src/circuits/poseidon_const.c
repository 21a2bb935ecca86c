/* poseidon_const.c — builds a Poseidon parameter set from first principles.
 *
 * 1. Round numbers: the smallest-cost (t·RF + RP) pair that meets the four
 *    inequalities of the Poseidon paper for M = 128 bits and n = 256 (the
 *    255-bit field rounded up, as neptune does), then the security margin
 *    RF + 2, RP·1.075 rounded up. The arithmetic is single-precision float,
 *    as in the reference, so edge cases round identically.
 * 2. Round constants: the Grain LFSR seeded with 80 bits (field = 1 in 2
 *    bits, s-box = 1 in 4, n = 255 in 12, t in 12, RF in 10, RP in 10, thirty
 *    ones), 160 bits discarded, then self-shrinking (a pair (1, b) yields b,
 *    (0, b) nothing). Each candidate is n bits read most significant first;
 *    a value >= r is dropped and the next one taken.
 * 3. MDS: the Cauchy matrix M[i][j] = 1/(x_i + y_j), x_i = i, y_j = t + j.
 * 4. The optimised rounds (both the fast hash and the legacy circuit use
 *    them): constants pushed back through the linear layers so that each
 *    S-box is followed by one addition (compressed constants), and the
 *    partial rounds' matrix factored as M = M'·M'' repeatedly, M'' sparse
 *    (dense first row and column, identity elsewhere) and M' moved through
 *    the partial rounds until it merges into the last full round's matrix
 *    (the pre-sparse matrix). The steps and their order follow neptune's
 *    preprocessing exactly, so the tables are the same numbers.
 *
 * Matrices are row-major width×width arrays; "vector times matrix" is
 * s'[j] = sum_i s[i]·M[i][j]. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/poseidon.h"

/* ---- round numbers ---- */

static int rounds_secure(uint32_t t_, uint32_t rf, uint32_t rp_)
{
    const float n = 256.0f, m = 128.0f, t = (float)t_, rp = (float)rp_;
    float rf_stat = (m <= (n - 3.0f) * (t + 1.0f)) ? 6.0f : 10.0f;
    float rf_interp = 0.43f * m + log2f(t) - rp;
    float rf_grob_1 = 0.21f * n - rp;
    float rf_grob_2 = (0.14f * n - 1.0f - rp) / (t - 1.0f);
    float v[4] = {rf_stat, rf_interp, rf_grob_1, rf_grob_2};
    uint32_t mx = 0;
    for (int i = 0; i < 4; i++) {
        float c = ceilf(v[i]);
        uint32_t u = c > 0.0f ? (uint32_t)c : 0; /* negative saturates to 0 */
        if (u > mx) mx = u;
    }
    return rf >= mx;
}

void cz_poseidon_round_numbers(uint32_t t, uint32_t *rf_out, uint32_t *rp_out)
{
    uint32_t rf = 0, rp = 0;
    uint64_t best = UINT64_MAX;
    for (uint32_t rf_test = 2; rf_test <= 1000; rf_test += 2) {
        for (uint32_t rp_test = 4; rp_test < 200; rp_test++) {
            if (!rounds_secure(t, rf_test, rp_test)) continue;
            uint32_t rf_m = rf_test + 2;
            uint32_t rp_m = (uint32_t)ceilf(1.075f * (float)rp_test);
            uint64_t cost = (uint64_t)t * rf_m + rp_m;
            if (cost < best || (cost == best && rf_m < rf)) {
                rf = rf_m;
                rp = rp_m;
                best = cost;
            }
        }
    }
    *rf_out = rf;
    *rp_out = rp;
}

/* ---- Grain LFSR ---- */

typedef struct {
    uint8_t s[80]; /* circular: s[(head + i) % 80] is b_i */
    uint32_t head;
} grain;

static int grain_step(grain *g)
{
#define B(i) g->s[(g->head + (i)) % 80]
    int nb = B(62) ^ B(51) ^ B(38) ^ B(23) ^ B(13) ^ B(0);
#undef B
    g->s[g->head] = (uint8_t)nb; /* b_0 leaves, b_80 enters at the end */
    g->head = (g->head + 1) % 80;
    return nb;
}

static void grain_push(grain *g, uint32_t *pos, uint64_t v, int nbits)
{
    for (int i = nbits - 1; i >= 0; i--) g->s[(*pos)++] = (uint8_t)((v >> i) & 1);
}

/* one output bit of the self-shrinking generator */
static int grain_bit(grain *g)
{
    for (;;) {
        int a = grain_step(g);
        int b = grain_step(g);
        if (a) return b;
    }
}

cz_err cz_poseidon_grain_constants(cz_fr *out, size_t count, uint32_t n_bits,
                                   uint32_t t, uint32_t rf, uint32_t rp)
{
    if (n_bits == 0 || n_bits > 256) return CZ_ERR_INVALID_ARG;
    grain g;
    uint32_t pos = 0;
    g.head = 0;
    grain_push(&g, &pos, 1, 2);      /* field: GF(p) */
    grain_push(&g, &pos, 1, 4);      /* s-box: x^5 (old convention) */
    grain_push(&g, &pos, n_bits, 12);
    grain_push(&g, &pos, t, 12);
    grain_push(&g, &pos, rf, 10);
    grain_push(&g, &pos, rp, 10);
    grain_push(&g, &pos, 0x3fffffffu, 30);
    for (int i = 0; i < 160; i++) grain_step(&g);

    for (size_t k = 0; k < count;) {
        uint8_t be[32] = {0};
        /* n_bits bits, most significant first, right-aligned in 32 bytes */
        for (uint32_t i = 0; i < n_bits; i++) {
            uint32_t bitpos = n_bits - 1 - i; /* weight of this bit */
            if (grain_bit(&g)) be[31 - bitpos / 8] |= (uint8_t)(1u << (bitpos % 8));
        }
        if (cz_fr_from_bytes_be(&out[k], be) == CZ_OK) k++;
    }
    return CZ_OK;
}

/* ---- small dense matrices over Fr ---- */

static void vec_mat(cz_fr *out, const cz_fr *v, const cz_fr *m, uint32_t w)
{
    cz_fr tmp[CZ_POSEIDON_MAX_WIDTH];
    for (uint32_t j = 0; j < w; j++) {
        cz_fr acc, pr;
        cz_fr_zero(&acc);
        for (uint32_t i = 0; i < w; i++) {
            cz_fr_mul(&pr, &v[i], &m[i * w + j]);
            cz_fr_add(&acc, &acc, &pr);
        }
        tmp[j] = acc;
    }
    memcpy(out, tmp, w * sizeof(cz_fr));
}

/* out = a · b (out must not alias) */
static void mat_mul(cz_fr *out, const cz_fr *a, const cz_fr *b, uint32_t w)
{
    for (uint32_t i = 0; i < w; i++)
        for (uint32_t j = 0; j < w; j++) {
            cz_fr acc, pr;
            cz_fr_zero(&acc);
            for (uint32_t k = 0; k < w; k++) {
                cz_fr_mul(&pr, &a[i * w + k], &b[k * w + j]);
                cz_fr_add(&acc, &acc, &pr);
            }
            out[i * w + j] = acc;
        }
}

/* Gauss-Jordan inverse; CZ_ERR_INVALID_ARG if singular. out must not alias m. */
static cz_err mat_inv(cz_fr *out, const cz_fr *m, uint32_t w)
{
    cz_fr *a = malloc((size_t)w * w * sizeof(cz_fr));
    if (!a) return CZ_ERR_NOMEM;
    memcpy(a, m, (size_t)w * w * sizeof(cz_fr));
    for (uint32_t i = 0; i < w; i++)
        for (uint32_t j = 0; j < w; j++) {
            if (i == j) cz_fr_one(&out[i * w + j]);
            else cz_fr_zero(&out[i * w + j]);
        }
    cz_err e = CZ_OK;
    for (uint32_t c = 0; c < w; c++) {
        uint32_t piv = c;
        while (piv < w && cz_fr_is_zero(&a[piv * w + c])) piv++;
        if (piv == w) { e = CZ_ERR_INVALID_ARG; goto done; }
        if (piv != c)
            for (uint32_t j = 0; j < w; j++) {
                cz_fr t = a[c * w + j]; a[c * w + j] = a[piv * w + j]; a[piv * w + j] = t;
                t = out[c * w + j]; out[c * w + j] = out[piv * w + j]; out[piv * w + j] = t;
            }
        cz_fr inv;
        cz_fr_inv(&inv, &a[c * w + c]);
        for (uint32_t j = 0; j < w; j++) {
            cz_fr_mul(&a[c * w + j], &a[c * w + j], &inv);
            cz_fr_mul(&out[c * w + j], &out[c * w + j], &inv);
        }
        for (uint32_t r = 0; r < w; r++) {
            if (r == c || cz_fr_is_zero(&a[r * w + c])) continue;
            cz_fr f = a[r * w + c], pr;
            for (uint32_t j = 0; j < w; j++) {
                cz_fr_mul(&pr, &f, &a[c * w + j]);
                cz_fr_sub(&a[r * w + j], &a[r * w + j], &pr);
                cz_fr_mul(&pr, &f, &out[c * w + j]);
                cz_fr_sub(&out[r * w + j], &out[r * w + j], &pr);
            }
        }
    }
done:
    free(a);
    return e;
}

/* ---- the optimised rounds ---- */

/* neptune's compress_round_constants with every partial round preprocessed */
static void compress_constants(cz_poseidon *p)
{
    const uint32_t w = p->width, half = p->rf / 2, rp = p->rp;
    const cz_fr *rk = p->rc; /* round r's keys: rk + r * w */
    cz_fr *res = p->crc;
    size_t n = 0;

    memcpy(res, rk, w * sizeof(cz_fr)); /* the first keys stay as they are */
    n += w;
    /* the keys of full rounds 1 .. half-1 move before the preceding MDS */
    for (uint32_t i = 0; i + 1 < half; i++, n += w) vec_mat(&res[n], rk + (size_t)(i + 1) * w, p->m_inv, w);

    /* the partial rounds, from the last back: invert, keep element 0 as
     * that round's single key, carry the rest into the round before */
    cz_fr acc[CZ_POSEIDON_MAX_WIDTH], inv[CZ_POSEIDON_MAX_WIDTH];
    /* layout: [w first][(half-1)·w][w carried][rp partial][(half-1)·w] */
    cz_fr *partial = res + (size_t)(half + 1) * w;
    const uint32_t final_round = half + rp;
    memcpy(acc, rk + (size_t)final_round * w, w * sizeof(cz_fr));
    for (uint32_t i = 0; i < rp; i++) {
        const cz_fr *prev = rk + (size_t)(final_round - i - 1) * w;
        vec_mat(inv, acc, p->m_inv, w);
        partial[rp - 1 - i] = inv[0];
        cz_fr_zero(&inv[0]);
        for (uint32_t j = 0; j < w; j++) cz_fr_add(&acc[j], &prev[j], &inv[j]);
    }
    vec_mat(&res[n], acc, p->m_inv, w); /* the last first-half round's keys */
    n += w;
    /* the rp partial keys sit here (written above) */
    n += rp;
    /* the keys of the second half's full rounds 1 .. half-1 */
    for (uint32_t i = 1; i < half; i++, n += w) vec_mat(&res[n], rk + (size_t)(i + final_round) * w, p->m_inv, w);
    /* n == rf * w + rp */
    (void)n;
}

static cz_err factor_sparse(cz_poseidon *p)
{
    const uint32_t w = p->width, rp = p->rp;
    const size_t mm = (size_t)w * w;
    const uint32_t h = w - 1;
    cz_fr *curr = malloc(mm * sizeof(cz_fr));
    cz_fr *mprime = malloc(mm * sizeof(cz_fr));
    cz_fr *next = malloc(mm * sizeof(cz_fr));
    cz_fr *mhat = malloc((size_t)h * h * sizeof(cz_fr));
    cz_fr *mhat_inv = malloc((size_t)h * h * sizeof(cz_fr));
    cz_err e = CZ_OK;
    if (!curr || !mprime || !next || !mhat || !mhat_inv) { e = CZ_ERR_NOMEM; goto done; }
    memcpy(curr, p->m, mm * sizeof(cz_fr));
    for (uint32_t k = 0; k < rp; k++) {
        /* M̂: curr without row 0 and column 0 */
        for (uint32_t i = 0; i < h; i++)
            for (uint32_t j = 0; j < h; j++) mhat[i * h + j] = curr[(i + 1) * w + (j + 1)];
        if ((e = mat_inv(mhat_inv, mhat, h))) goto done;
        /* M'' of curr: row 0 as curr's, column 0 below it ŵ = w·M̂^-1
         * (w = curr's column 0 below row 0), identity elsewhere. Stored
         * reversed: the first factored is applied last. */
        uint32_t slot = rp - 1 - k;
        cz_fr *wh = p->w_hat + (size_t)slot * w, *vr = p->v_rest + (size_t)slot * h;
        wh[0] = curr[0];
        for (uint32_t j = 0; j < h; j++) {
            cz_fr acc, pr;
            cz_fr_zero(&acc);
            for (uint32_t i = 0; i < h; i++) {
                cz_fr_mul(&pr, &curr[(i + 1) * w], &mhat_inv[i * h + j]);
                cz_fr_add(&acc, &acc, &pr);
            }
            wh[j + 1] = acc;
            vr[j] = curr[j + 1];
        }
        /* M' of curr: 1 at (0,0), curr's rows 1.. from column 1, zero else */
        memset(mprime, 0, mm * sizeof(cz_fr));
        cz_fr_one(&mprime[0]);
        for (uint32_t i = 1; i < w; i++)
            for (uint32_t j = 1; j < w; j++) mprime[i * w + j] = curr[i * w + j];
        mat_mul(next, p->m, mprime, w);
        memcpy(curr, next, mm * sizeof(cz_fr));
    }
    memcpy(p->pre_sparse, curr, mm * sizeof(cz_fr));
done:
    free(curr); free(mprime); free(next); free(mhat); free(mhat_inv);
    return e;
}

/* ---- parameter sets ---- */

void cz_poseidon_free(cz_poseidon *p)
{
    if (!p) return;
    free(p->rc); free(p->m); free(p->m_inv); free(p->crc);
    free(p->pre_sparse); free(p->w_hat); free(p->v_rest);
    memset(p, 0, sizeof *p);
}

void cz_poseidon_custom_tag(cz_fr *out, uint64_t id)
{
    cz_fr two40, idf;
    cz_fr_from_u64(&two40, (uint64_t)1 << 40);
    cz_fr_from_u64(&idf, id);
    cz_fr_mul(out, &two40, &idf);
}

cz_err cz_poseidon_init(cz_poseidon *p, uint32_t arity)
{
    memset(p, 0, sizeof *p);
    if (arity < 1 || arity > CZ_POSEIDON_MAX_ARITY) return CZ_ERR_INVALID_ARG;
    const uint32_t w = arity + 1;
    p->arity = arity;
    p->width = w;
    cz_poseidon_round_numbers(w, &p->rf, &p->rp);
    if (p->rf < 2 || p->rf % 2) return CZ_ERR_INVALID_ARG;
    const size_t mm = (size_t)w * w, nrc = (size_t)(p->rf + p->rp) * w;
    p->rc = malloc(nrc * sizeof(cz_fr));
    p->m = malloc(mm * sizeof(cz_fr));
    p->m_inv = malloc(mm * sizeof(cz_fr));
    p->crc = malloc(((size_t)p->rf * w + p->rp) * sizeof(cz_fr));
    p->pre_sparse = malloc(mm * sizeof(cz_fr));
    p->w_hat = malloc((size_t)p->rp * w * sizeof(cz_fr));
    p->v_rest = malloc((size_t)p->rp * (w - 1) * sizeof(cz_fr));
    cz_err e = CZ_ERR_NOMEM;
    if (!p->rc || !p->m || !p->m_inv || !p->crc || !p->pre_sparse || !p->w_hat || !p->v_rest) goto fail;

    /* tag 2^arity - 1 (arity <= 36 fits a u64) */
    cz_fr_from_u64(&p->tag, ((uint64_t)1 << arity) - 1);
    if ((e = cz_poseidon_grain_constants(p->rc, nrc, 255, w, p->rf, p->rp))) goto fail;
    for (uint32_t i = 0; i < w; i++)
        for (uint32_t j = 0; j < w; j++) {
            cz_fr d;
            cz_fr_from_u64(&d, (uint64_t)i + w + j);
            cz_fr_inv(&p->m[i * w + j], &d);
        }
    if ((e = mat_inv(p->m_inv, p->m, w))) goto fail;
    compress_constants(p);
    if ((e = factor_sparse(p))) goto fail;
    return CZ_OK;
fail:
    cz_poseidon_free(p);
    return e;
}

static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static cz_poseidon *shared[CZ_POSEIDON_MAX_ARITY + 1];

const cz_poseidon *cz_poseidon_get(uint32_t arity)
{
    if (arity < 1 || arity > CZ_POSEIDON_MAX_ARITY) return NULL;
    cz_poseidon *p = __atomic_load_n(&shared[arity], __ATOMIC_ACQUIRE);
    if (p) return p;
    pthread_mutex_lock(&shared_lock);
    p = shared[arity];
    if (!p) {
        p = malloc(sizeof *p);
        if (p && cz_poseidon_init(p, arity) != CZ_OK) { free(p); p = NULL; }
        if (p) __atomic_store_n(&shared[arity], p, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&shared_lock);
    return p;
}
