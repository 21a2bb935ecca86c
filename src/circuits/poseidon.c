/* poseidon.c — the Poseidon permutation and hash, natively (see poseidon.h).
 *
 * Two evaluations of the same function:
 *  - plain: RF/2 full rounds, RP partial rounds, RF/2 full rounds; a round
 *    adds its t constants, applies x^5 (to every element, or to element 0
 *    in a partial round) and multiplies by M;
 *  - fast (neptune's "optimized static"): the first constants are added
 *    up front, then every S-box is followed by one compressed constant; the
 *    last first-half full round multiplies by the pre-sparse matrix, each
 *    partial round by its sparse matrix (2t - 1 products instead of t^2),
 *    the remaining rounds by M, and the last S-box layer adds nothing.
 * The fast path is what the tree builders and the legacy circuit's witness
 * use; tests check it against the plain one. */
#include <string.h>

#include "circuits/poseidon.h"

static inline void sbox(cz_fr *x)
{
    cz_fr t;
    cz_fr_sqr(&t, x);
    cz_fr_sqr(&t, &t);
    cz_fr_mul(x, x, &t);
}

/* s = s · m (row vector times row-major matrix) */
static inline void mix(cz_fr *s, const cz_fr *m, uint32_t w)
{
    cz_fr out[CZ_POSEIDON_MAX_WIDTH];
    for (uint32_t j = 0; j < w; j++) {
        cz_fr acc, pr;
        cz_fr_mul(&acc, &s[0], &m[j]);
        for (uint32_t i = 1; i < w; i++) {
            cz_fr_mul(&pr, &s[i], &m[i * w + j]);
            cz_fr_add(&acc, &acc, &pr);
        }
        out[j] = acc;
    }
    memcpy(s, out, w * sizeof(cz_fr));
}

/* s = s · M'' with M'' given by its first column (wh) and first row from
 * column 1 (vr); the rest of M'' is the identity */
static inline void mix_sparse(cz_fr *s, const cz_fr *wh, const cz_fr *vr, uint32_t w)
{
    cz_fr s0 = s[0], acc, pr;
    cz_fr_mul(&acc, &s[0], &wh[0]);
    for (uint32_t i = 1; i < w; i++) {
        cz_fr_mul(&pr, &s[i], &wh[i]);
        cz_fr_add(&acc, &acc, &pr);
    }
    for (uint32_t j = 1; j < w; j++) {
        cz_fr_mul(&pr, &s0, &vr[j - 1]);
        cz_fr_add(&s[j], &s[j], &pr);
    }
    s[0] = acc;
}

void cz_poseidon_hash_tag(cz_fr *out, const cz_poseidon *p, const cz_fr *tag,
                          const cz_fr *in)
{
    const uint32_t w = p->width, half = p->rf / 2;
    cz_fr s[CZ_POSEIDON_MAX_WIDTH];
    s[0] = *tag;
    memcpy(&s[1], in, p->arity * sizeof(cz_fr));
    const cz_fr *k = p->crc;
    for (uint32_t i = 0; i < w; i++) cz_fr_add(&s[i], &s[i], &k[i]);
    k += w;
    for (uint32_t r = 0; r < half; r++) {
        for (uint32_t i = 0; i < w; i++) {
            sbox(&s[i]);
            cz_fr_add(&s[i], &s[i], &k[i]);
        }
        k += w;
        mix(s, r + 1 == half ? p->pre_sparse : p->m, w);
    }
    const cz_fr *wh = p->w_hat, *vr = p->v_rest;
    for (uint32_t r = 0; r < p->rp; r++) {
        sbox(&s[0]);
        cz_fr_add(&s[0], &s[0], k++);
        mix_sparse(s, wh, vr, w);
        wh += w;
        vr += w - 1;
    }
    for (uint32_t r = 0; r + 1 < half; r++) {
        for (uint32_t i = 0; i < w; i++) {
            sbox(&s[i]);
            cz_fr_add(&s[i], &s[i], &k[i]);
        }
        k += w;
        mix(s, p->m, w);
    }
    for (uint32_t i = 0; i < w; i++) sbox(&s[i]);
    mix(s, p->m, w);
    *out = s[1];
}

void cz_poseidon_hash(cz_fr *out, const cz_poseidon *p, const cz_fr *in)
{
    cz_poseidon_hash_tag(out, p, &p->tag, in);
}

void cz_poseidon_hash_plain(cz_fr *out, const cz_poseidon *p, const cz_fr *tag,
                            const cz_fr *in)
{
    const uint32_t w = p->width, half = p->rf / 2;
    cz_fr s[CZ_POSEIDON_MAX_WIDTH];
    s[0] = *tag;
    memcpy(&s[1], in, p->arity * sizeof(cz_fr));
    const cz_fr *k = p->rc;
    for (uint32_t r = 0; r < p->rf + p->rp; r++, k += w) {
        int full = r < half || r >= half + p->rp;
        for (uint32_t i = 0; i < w; i++) cz_fr_add(&s[i], &s[i], &k[i]);
        if (full)
            for (uint32_t i = 0; i < w; i++) sbox(&s[i]);
        else
            sbox(&s[0]);
        mix(s, p->m, w);
    }
    *out = s[1];
}
