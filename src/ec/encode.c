/* encode.c — ZCash / bellperson point encodings for G1 and G2.
 *
 * A coordinate is 48 big-endian bytes; a G2 coordinate is c1 then c0. The
 * top three bits of the first byte are flags: 0x80 compressed (x only),
 * 0x40 point at infinity (every other bit zero), 0x20 sign of y (set when y
 * is the lexicographically largest root; compressed form only).
 *
 * Decoding checks, in order, and stops at the first failure: the length;
 * the flags (compression flag must match the length, no sign flag on the
 * uncompressed form or on infinity, infinity with any other bit set);
 * every coordinate < p; for compressed input that x^3 + B has a square
 * root; for uncompressed input that the point is on the curve; finally,
 * unless told not to, that the point is in the r-torsion subgroup. The
 * accepted set is the one of zkcrypto's bls12_381 from_compressed /
 * from_uncompressed. */
#include <string.h>
#include "ec/ec.h"

#define FLAG_C 0x80
#define FLAG_I 0x40
#define FLAG_S 0x20

/* flag checks shared by both groups; *inf set when the encoding is the
 * (valid) point at infinity */
static cz_err check_flags(const uint8_t *in, size_t len, int compressed, int *inf)
{
    uint8_t f = in[0];
    *inf = 0;
    if (!(f & FLAG_C) != !compressed) return CZ_ERR_FLAGS;
    if (!compressed && (f & FLAG_S)) return CZ_ERR_FLAGS;
    if (f & FLAG_I) {
        if (f & FLAG_S) return CZ_ERR_FLAGS;
        uint8_t acc = f & 0x1f;
        for (size_t i = 1; i < len; i++) acc |= in[i];
        if (acc) return CZ_ERR_FLAGS;
        *inf = 1;
    }
    return CZ_OK;
}

/* big-endian Fp at in (48 bytes); strip = mask the flag bits of byte 0 */
static cz_err get_fp(cz_fp *out, const uint8_t *in, int strip)
{
    uint8_t b[CZ_FP_BYTES];
    memcpy(b, in, sizeof b);
    if (strip) b[0] &= 0x1f;
    return cz_fp_from_bytes_be(out, b) ? CZ_ERR_NONCANONICAL : CZ_OK;
}

static cz_err get_fp2(cz_fp2 *out, const uint8_t *in, int strip)
{
    cz_err e = get_fp(&out->c1, in, strip);
    if (e) return e;
    return get_fp(&out->c0, in + CZ_FP_BYTES, 0);
}

static void put_fp2(uint8_t *out, const cz_fp2 *a)
{
    cz_fp_to_bytes_be(out, &a->c1);
    cz_fp_to_bytes_be(out + CZ_FP_BYTES, &a->c0);
}

/* ---------------------------------------------------------------- G1 */

void cz_g1_compress(uint8_t out[CZ_G1_COMPRESSED], const cz_g1_aff *p)
{
    if (cz_g1_aff_is_inf(p)) {
        memset(out, 0, CZ_G1_COMPRESSED);
        out[0] = FLAG_C | FLAG_I;
        return;
    }
    cz_fp_to_bytes_be(out, &p->x);
    out[0] |= FLAG_C | (cz_fp_is_lex_largest(&p->y) ? FLAG_S : 0);
}

void cz_g1_serialize(uint8_t out[CZ_G1_UNCOMPRESSED], const cz_g1_aff *p)
{
    if (cz_g1_aff_is_inf(p)) {
        memset(out, 0, CZ_G1_UNCOMPRESSED);
        out[0] = FLAG_I;
        return;
    }
    cz_fp_to_bytes_be(out, &p->x);
    cz_fp_to_bytes_be(out + CZ_FP_BYTES, &p->y);
}

cz_err cz_g1_decode(cz_g1_aff *out, const uint8_t *in, size_t len, int check_subgroup)
{
    if (len != CZ_G1_COMPRESSED && len != CZ_G1_UNCOMPRESSED) return CZ_ERR_LENGTH;
    int compressed = len == CZ_G1_COMPRESSED, inf;
    cz_err e = check_flags(in, len, compressed, &inf);
    if (e) return e;
    if (inf) { cz_g1_aff_set_inf(out); return CZ_OK; }
    cz_g1_aff p;
    if ((e = get_fp(&p.x, in, 1))) return e;
    if (compressed) {
        cz_fp rhs, b;
        cz_fp_sqr(&rhs, &p.x);
        cz_fp_mul(&rhs, &rhs, &p.x);
        cz_fp_from_u64(&b, 4);
        cz_fp_add(&rhs, &rhs, &b);
        if (!cz_fp_sqrt(&p.y, &rhs)) return CZ_ERR_NO_SQRT;
        if (cz_fp_is_lex_largest(&p.y) != !!(in[0] & FLAG_S)) cz_fp_neg(&p.y, &p.y);
    } else {
        if ((e = get_fp(&p.y, in + CZ_FP_BYTES, 0))) return e;
        /* (0, 0) is our infinity but not a curve point: reject it here */
        if (cz_g1_aff_is_inf(&p) || !cz_g1_aff_on_curve(&p)) return CZ_ERR_NOT_ON_CURVE;
    }
    if (check_subgroup && !cz_g1_aff_in_subgroup(&p)) return CZ_ERR_NOT_IN_SUBGROUP;
    *out = p;
    return CZ_OK;
}

/* ---------------------------------------------------------------- G2 */

void cz_g2_compress(uint8_t out[CZ_G2_COMPRESSED], const cz_g2_aff *p)
{
    if (cz_g2_aff_is_inf(p)) {
        memset(out, 0, CZ_G2_COMPRESSED);
        out[0] = FLAG_C | FLAG_I;
        return;
    }
    put_fp2(out, &p->x);
    out[0] |= FLAG_C | (cz_fp2_is_lex_largest(&p->y) ? FLAG_S : 0);
}

void cz_g2_serialize(uint8_t out[CZ_G2_UNCOMPRESSED], const cz_g2_aff *p)
{
    if (cz_g2_aff_is_inf(p)) {
        memset(out, 0, CZ_G2_UNCOMPRESSED);
        out[0] = FLAG_I;
        return;
    }
    put_fp2(out, &p->x);
    put_fp2(out + 2 * CZ_FP_BYTES, &p->y);
}

cz_err cz_g2_decode(cz_g2_aff *out, const uint8_t *in, size_t len, int check_subgroup)
{
    if (len != CZ_G2_COMPRESSED && len != CZ_G2_UNCOMPRESSED) return CZ_ERR_LENGTH;
    int compressed = len == CZ_G2_COMPRESSED, inf;
    cz_err e = check_flags(in, len, compressed, &inf);
    if (e) return e;
    if (inf) { cz_g2_aff_set_inf(out); return CZ_OK; }
    cz_g2_aff p;
    if ((e = get_fp2(&p.x, in, 1))) return e;
    if (compressed) {
        cz_fp2 rhs, b;
        cz_fp2_sqr(&rhs, &p.x);
        cz_fp2_mul(&rhs, &rhs, &p.x);
        cz_fp_from_u64(&b.c0, 4);
        b.c1 = b.c0;
        cz_fp2_add(&rhs, &rhs, &b);
        if (!cz_fp2_sqrt(&p.y, &rhs)) return CZ_ERR_NO_SQRT;
        if (cz_fp2_is_lex_largest(&p.y) != !!(in[0] & FLAG_S)) cz_fp2_neg(&p.y, &p.y);
    } else {
        if ((e = get_fp2(&p.y, in + 2 * CZ_FP_BYTES, 0))) return e;
        if (cz_g2_aff_is_inf(&p) || !cz_g2_aff_on_curve(&p)) return CZ_ERR_NOT_ON_CURVE;
    }
    if (check_subgroup && !cz_g2_aff_in_subgroup(&p)) return CZ_ERR_NOT_IN_SUBGROUP;
    *out = p;
    return CZ_OK;
}
