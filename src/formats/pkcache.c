/* pkcache.c — write, check and map the converted proving-key cache (layout in
 * pkcache.h). One function computes the part offsets from the counts; the
 * writer and both readers share it, so they cannot disagree. A reader bounds
 * every count by the file (each below 2^32, each array inside the file)
 * before any offset is trusted or anything allocated. */
#include "formats/pkcache.h"

#include <stdlib.h>
#include <string.h>

#include "formats/fio.h"
#include "formats/params.h"
#include "util/hash.h"

static const char MAGIC[8] = {'C', 'U', 'Z', 'K', 'P', 'K', 'C', 0};

#define G1S sizeof(cz_g1_aff)
#define G2S sizeof(cz_g2_aff)

static const char *const COUNT_NAMES[6] = {"n_ic", "n_h", "n_l", "n_a", "n_b_g1", "n_b_g2"};

static uint64_t pad64(uint64_t x) { return (x + 63) & ~(uint64_t)63; }

/* file offsets of: vk G1 triple, vk G2 triple, ic, h, l, a, b_g1, b_g2; end */
typedef struct { uint64_t off[8], end; } layout;

static int make_layout(layout *l, const uint64_t n[6])
{
    for (int k = 0; k < 6; k++)
        if (n[k] > UINT32_MAX) return 0;
    uint64_t pos = CZ_PKCACHE_HEADER;
    l->off[0] = pos;
    pos = pad64(pos + 3 * G1S);
    l->off[1] = pos;
    pos = pad64(pos + 3 * G2S);
    for (int k = 0; k < 6; k++) {
        l->off[2 + k] = pos;
        pos = pad64(pos + n[k] * (k == 5 ? G2S : G1S));
    }
    l->end = pos;
    return 1;
}

cz_err cz_pkcache_vk_tag(uint64_t *tag, const cz_groth16_vk *vk)
{
    uint64_t n = cz_vk_encoded_size(vk);
    *tag = 0;
    if (!n) return CZ_ERR_INVALID_ARG;
    uint8_t *b = malloc((size_t)n);
    if (!b) return CZ_ERR_NOMEM;
    cz_err e = cz_vk_encode(b, (size_t)n, vk, NULL, 0);
    if (!e) *tag = cz_hash64(b, (size_t)n, 0);
    free(b);
    return e;
}

cz_err cz_pkcache_params_tag(uint64_t *tag, const char *params_path, char *msg, size_t msglen)
{
    cz__mapped m;
    *tag = 0;
    cz_err e = cz__map_file(&m, params_path, msg, msglen);
    if (e) return e;
    cz_params_info in;
    char sub[256] = "";
    e = cz_params_peek_mem(&in, m.p, m.len, sub, sizeof sub);
    if (e) cz_fail(e, msg, msglen, "%s: %s", params_path, sub);
    else *tag = cz_hash64(m.p, (size_t)in.vk_bytes, 0);
    if (!e && (e = cz__mapped_check(&m, msg, msglen))) *tag = 0;
    cz__unmap_file(&m);
    return e;
}

/* ---------------------------------------------------------------- writing */

cz_err cz_pkcache_write(const char *path, const cz_groth16_pk *pk, uint32_t flags, char *msg, size_t msglen)
{
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    (void)path; (void)pk; (void)flags;
    return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "the pk cache needs a little-endian host");
#else
    const uint64_t n[6] = {pk->vk.n_ic, pk->n_h, pk->n_l, pk->n_a, pk->n_b_g1, pk->n_b_g2};
    layout l;
    if (!make_layout(&l, n) || flags & ~CZ_PKCACHE_SUBGROUP_CHECKED)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "count above 2^32-1 or unknown flags");
    uint64_t tag;
    cz_err e = cz_pkcache_vk_tag(&tag, &pk->vk);
    if (e) return cz_fail(e, msg, msglen, "cannot encode the verifying key");
    cz__writer w;
    if ((e = cz__writer_open(&w, path, msg, msglen))) return e;
    cz_hash64_state h;
    cz_hash64_init(&h, 0);
    cz__writer_zeros(&w, CZ_PKCACHE_HEADER); /* the header is written last */
    w.hash = &h;
    const cz_g1_aff g1s[3] = {pk->vk.alpha_g1, pk->vk.beta_g1, pk->vk.delta_g1};
    const cz_g2_aff g2s[3] = {pk->vk.beta_g2, pk->vk.gamma_g2, pk->vk.delta_g2};
    const void *parts[8] = {g1s, g2s, pk->vk.ic, pk->h, pk->l, pk->a, pk->b_g1, pk->b_g2};
    const uint64_t bytes[8] = {3 * G1S, 3 * G2S, n[0] * G1S, n[1] * G1S, n[2] * G1S,
                               n[3] * G1S, n[4] * G1S, n[5] * G2S};
    for (int k = 0; k < 8; k++) {
        cz__writer_zeros(&w, (size_t)(l.off[k] - w.pos));
        if (bytes[k]) cz__writer_put(&w, parts[k], (size_t)bytes[k]);
    }
    cz__writer_zeros(&w, (size_t)(l.end - w.pos));
    uint8_t hdr[CZ_PKCACHE_HEADER] = {0};
    memcpy(hdr, MAGIC, 8);
    cz__put_le32(hdr + 8, CZ_PKCACHE_VERSION);
    cz__put_le32(hdr + 12, CZ_PKCACHE_HEADER);
    cz__put_le32(hdr + 16, (uint32_t)G1S);
    cz__put_le32(hdr + 20, (uint32_t)G2S);
    for (int k = 0; k < 6; k++) cz__put_le64(hdr + 24 + 8 * k, n[k]);
    cz__put_le32(hdr + 72, flags);
    cz__put_le64(hdr + 80, tag);
    cz__put_le64(hdr + 88, l.end - CZ_PKCACHE_HEADER);
    cz_hash64_update(&h, hdr, 96);
    cz__put_le64(hdr + 96, cz_hash64_final(&h));
    w.hash = NULL;
    cz__writer_pwrite(&w, hdr, sizeof hdr, 0);
    return cz__writer_commit(&w, msg, msglen);
#endif
}

/* ---------------------------------------------------------------- reading */

/* checks the header against len; fills info and the layout */
static cz_err parse(cz_pkcache_info *info, layout *l, const uint8_t *buf, size_t len, int verify, char *msg,
                    size_t msglen)
{
    memset(info, 0, sizeof *info);
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    (void)l; (void)buf; (void)len; (void)verify;
    return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "the pk cache needs a little-endian host");
#else
    if (len < CZ_PKCACHE_HEADER)
        return cz_fail(CZ_ERR_LENGTH, msg, msglen, "%zu bytes, shorter than a pk cache header", len);
    if (memcmp(buf, MAGIC, 8) != 0) return cz_fail(CZ_ERR_PARSE, msg, msglen, "not a pk cache (bad magic)");
    if (cz__get_le32(buf + 8) != CZ_PKCACHE_VERSION || cz__get_le32(buf + 12) != CZ_PKCACHE_HEADER ||
        cz__get_le32(buf + 16) != G1S || cz__get_le32(buf + 20) != G2S)
        return cz_fail(CZ_ERR_UNSUPPORTED, msg, msglen, "pk cache version %u / layout not supported (want %u)",
                            cz__get_le32(buf + 8), CZ_PKCACHE_VERSION);
    uint64_t n[6];
    for (int k = 0; k < 6; k++) n[k] = cz__get_le64(buf + 24 + 8 * k);
    info->flags = cz__get_le32(buf + 72);
    int reserved = cz__get_le32(buf + 76) != 0;
    for (int i = 104; i < CZ_PKCACHE_HEADER; i++) reserved |= buf[i];
    if (info->flags & ~CZ_PKCACHE_SUBGROUP_CHECKED || reserved)
        return cz_fail(CZ_ERR_PARSE, msg, msglen, "unknown flags or non-zero reserved bytes in the pk cache header");
    for (int k = 0; k < 6; k++)
        if (n[k] > UINT32_MAX)
            return cz_fail(CZ_ERR_LENGTH, msg, msglen, "pk cache: header says %s = %llu, above 2^32-1",
                           COUNT_NAMES[k], (unsigned long long)n[k]);
    make_layout(l, n); /* counts < 2^32: the offsets cannot overflow */
    /* each array must lie inside the file, checked in file order so the
     * message names the first count that does not fit */
    if (l->off[2] > len)
        return cz_fail(CZ_ERR_LENGTH, msg, msglen, "pk cache: %zu bytes, too short for its verifying key (%llu)", len,
                       (unsigned long long)l->off[2]);
    for (int k = 0; k < 6; k++) {
        uint64_t w = k == 5 ? G2S : G1S, at = l->off[2 + k], room = at <= len ? (len - at) / w : 0;
        if (n[k] > room)
            return cz_fail(CZ_ERR_LENGTH, msg, msglen,
                           "pk cache: header says %s = %llu but the file holds %llu points from byte %llu "
                           "(%llu bytes each)",
                           COUNT_NAMES[k], (unsigned long long)n[k], (unsigned long long)room,
                           (unsigned long long)at, (unsigned long long)w);
    }
    uint64_t plen = cz__get_le64(buf + 88);
    if (plen != l->end - CZ_PKCACHE_HEADER)
        return cz_fail(CZ_ERR_LENGTH, msg, msglen,
                       "pk cache: header says the payload is %llu bytes but its counts imply %llu",
                       (unsigned long long)plen, (unsigned long long)(l->end - CZ_PKCACHE_HEADER));
    if ((uint64_t)len != l->end)
        return cz_fail(CZ_ERR_LENGTH, msg, msglen,
                            "pk cache is %zu bytes, its counts imply %llu (truncated or padded?)", len,
                            (unsigned long long)l->end);
    if (verify) {
        cz_hash64_state h;
        cz_hash64_init(&h, 0);
        cz_hash64_update(&h, buf + CZ_PKCACHE_HEADER, (size_t)plen);
        cz_hash64_update(&h, buf, 96);
        if (cz_hash64_final(&h) != cz__get_le64(buf + 96))
            return cz_fail(CZ_ERR_PARSE, msg, msglen, "pk cache checksum mismatch (file corrupt)");
    }
    info->n_ic = n[0];
    info->n_h = n[1];
    info->n_l = n[2];
    info->n_a = n[3];
    info->n_b_g1 = n[4];
    info->n_b_g2 = n[5];
    info->vk_tag = cz__get_le64(buf + 80);
    info->size = len;
    return CZ_OK;
#endif
}

cz_err cz_pkcache_peek(cz_pkcache_info *out, const char *path, char *msg, size_t msglen)
{
    cz__mapped m;
    memset(out, 0, sizeof *out);
    cz_err e = cz__map_file(&m, path, msg, msglen);
    if (e) return e;
    layout l;
    char sub[256] = "";
    if ((e = parse(out, &l, m.p, m.len, 0, sub, sizeof sub))) cz_fail(e, msg, msglen, "%s: %s", path, sub);
    if (!e && (e = cz__mapped_check(&m, msg, msglen))) memset(out, 0, sizeof *out);
    cz__unmap_file(&m);
    return e;
}

/* copies the vk (ic to the heap) and sets the counts */
static cz_err take_vk(cz_groth16_pk *pk, const cz_pkcache_info *in, const layout *l, const uint8_t *buf)
{
    cz_g1_aff g1s[3]; /* copied: buf need not be aligned */
    cz_g2_aff g2s[3];
    memcpy(g1s, buf + l->off[0], sizeof g1s);
    memcpy(g2s, buf + l->off[1], sizeof g2s);
    pk->vk.alpha_g1 = g1s[0];
    pk->vk.beta_g1 = g1s[1];
    pk->vk.delta_g1 = g1s[2];
    pk->vk.beta_g2 = g2s[0];
    pk->vk.gamma_g2 = g2s[1];
    pk->vk.delta_g2 = g2s[2];
    pk->vk.n_ic = in->n_ic;
    pk->n_h = in->n_h;
    pk->n_l = in->n_l;
    pk->n_a = in->n_a;
    pk->n_b_g1 = in->n_b_g1;
    pk->n_b_g2 = in->n_b_g2;
    if (in->n_ic) {
        pk->vk.ic = malloc((size_t)in->n_ic * G1S);
        if (!pk->vk.ic) return CZ_ERR_NOMEM;
        memcpy(pk->vk.ic, buf + l->off[2], (size_t)in->n_ic * G1S);
    }
    return CZ_OK;
}

static void *dup_part(const uint8_t *buf, uint64_t off, uint64_t bytes, int *nomem)
{
    if (!bytes) return NULL;
    void *p = malloc((size_t)bytes);
    if (!p) { *nomem = 1; return NULL; }
    memcpy(p, buf + off, (size_t)bytes);
    return p;
}

cz_err cz_pkcache_load_mem(cz_groth16_pk *pk, cz_pkcache_info *info, const uint8_t *buf, size_t len,
                           int verify_checksum, char *msg, size_t msglen)
{
    memset(pk, 0, sizeof *pk);
    cz_pkcache_info in;
    layout l;
    cz_err e = parse(&in, &l, buf, len, verify_checksum, msg, msglen);
    if (e) return e;
    int nomem = take_vk(pk, &in, &l, buf) != CZ_OK;
    pk->h = dup_part(buf, l.off[3], in.n_h * G1S, &nomem);
    pk->l = dup_part(buf, l.off[4], in.n_l * G1S, &nomem);
    pk->a = dup_part(buf, l.off[5], in.n_a * G1S, &nomem);
    pk->b_g1 = dup_part(buf, l.off[6], in.n_b_g1 * G1S, &nomem);
    pk->b_g2 = dup_part(buf, l.off[7], in.n_b_g2 * G2S, &nomem);
    if (nomem) {
        cz_groth16_pk_free(pk);
        return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    }
    if (info) *info = in;
    return CZ_OK;
}

cz_err cz_pkcache_open(cz_groth16_pk *pk, cz_pkcache_info *info, const char *path, int verify_checksum, char *msg,
                       size_t msglen)
{
    memset(pk, 0, sizeof *pk);
    cz__mapped m;
    cz_err e = cz__map_file(&m, path, msg, msglen);
    if (e) return e;
    cz_pkcache_info in;
    layout l;
    char sub[256] = "";
    if ((e = parse(&in, &l, m.p, m.len, verify_checksum, sub, sizeof sub))) {
        cz__unmap_file(&m);
        return cz_fail(e, msg, msglen, "%s: %s", path, sub);
    }
    if (take_vk(pk, &in, &l, m.p) != CZ_OK) {
        cz__unmap_file(&m);
        memset(pk, 0, sizeof *pk);
        return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    }
    uint8_t *base = m.map; /* non-NULL: a valid cache is never empty */
    pk->h = (cz_g1_aff *)(base + l.off[3]);
    pk->l = (cz_g1_aff *)(base + l.off[4]);
    pk->a = (cz_g1_aff *)(base + l.off[5]);
    pk->b_g1 = (cz_g1_aff *)(base + l.off[6]);
    pk->b_g2 = (cz_g2_aff *)(base + l.off[7]);
    pk->map = m.map;
    pk->map_len = m.len;
    if ((e = cz__mapped_check(&m, msg, msglen))) {
        cz_groth16_pk_free(pk);
        return e;
    }
    if (info) *info = in;
    return CZ_OK;
}

cz_err cz_pkcache_convert(const char *cache_path, const char *params_path, int check_subgroup, cz_pool *pool,
                          char *msg, size_t msglen)
{
    cz_groth16_pk pk;
    cz_err e = cz_params_read(&pk, params_path, check_subgroup, pool, msg, msglen);
    if (e) return e;
    e = cz_pkcache_write(cache_path, &pk, check_subgroup ? CZ_PKCACHE_SUBGROUP_CHECKED : 0, msg, msglen);
    cz_groth16_pk_free(&pk);
    return e;
}
