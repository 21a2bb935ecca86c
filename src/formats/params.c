/* params.c — bellperson .params / .vk reading and writing (see params.h).
 *
 * Reading: cz_params_peek_mem walks the counts, checking each against the
 * bytes that remain; only then are arrays allocated. The points of ic, h, l,
 * a, b_g1 and b_g2 form one index space that the pool decodes point by point;
 * a failing point lowers an atomic "first bad" word (index << 8 | code), and
 * points past it are skipped, so the error reported is always the one with
 * the lowest index, whatever the thread timing. */
#include "formats/params.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "formats/fio.h"

#define G1U CZ_G1_UNCOMPRESSED
#define G2U CZ_G2_UNCOMPRESSED
#define CODE_INF 0xff /* pseudo error code: point at infinity where not allowed */

static const char *const ARRAY_NAMES[6] = {"ic", "h", "l", "a", "b_g1", "b_g2"};

/* ---------------------------------------------------------------- peek */

cz_err cz_params_peek_mem(cz_params_info *out, const uint8_t *buf, size_t len, char *msg, size_t msglen)
{
    memset(out, 0, sizeof *out);
    uint64_t size = len, pos = CZ_VK_HEAD_BYTES;
    if (size < pos + 4)
        return cz_fail(CZ_ERR_LENGTH, msg, msglen,
                            "%llu bytes: too short for a verifying key (at least %u bytes)",
                            (unsigned long long)size, (unsigned)(pos + 4));
    uint64_t *counts[6] = {&out->n_ic, &out->n_h, &out->n_l, &out->n_a, &out->n_b_g1, &out->n_b_g2};
    uint64_t *offs[6] = {&out->off_ic, &out->off_h, &out->off_l, &out->off_a, &out->off_b_g1, &out->off_b_g2};
    for (int k = 0; k < 6; k++) {
        if (k == 1) {
            out->vk_bytes = pos;
            if (pos == size) {
                out->is_vk = 1;
                out->size = size;
                return CZ_OK;
            }
        }
        if (size - pos < 4)
            return cz_fail(CZ_ERR_LENGTH, msg, msglen,
                                "truncated: the length of %s at byte %llu needs 4 bytes, %llu left", ARRAY_NAMES[k],
                                (unsigned long long)pos, (unsigned long long)(size - pos));
        uint64_t n = cz__get_be32(buf + pos);
        uint64_t w = k == 5 ? G2U : G1U;
        pos += 4;
        if (n > (size - pos) / w) /* n < 2^32, w <= 192: n * w cannot overflow */
            return cz_fail(CZ_ERR_LENGTH, msg, msglen,
                                "the length of %s says %llu points (%llu bytes each) but the %llu bytes left at "
                                "byte %llu hold %llu (truncated or corrupt)",
                                ARRAY_NAMES[k], (unsigned long long)n, (unsigned long long)w,
                                (unsigned long long)(size - pos), (unsigned long long)pos,
                                (unsigned long long)((size - pos) / w));
        *counts[k] = n;
        *offs[k] = pos;
        pos += n * w;
    }
    out->size = pos;
    if (pos != size)
        return cz_fail(CZ_ERR_LENGTH, msg, msglen, "%llu trailing bytes after b_g2 (file is %llu bytes, counts imply %llu)",
                            (unsigned long long)(size - pos), (unsigned long long)size, (unsigned long long)pos);
    return CZ_OK;
}

cz_err cz_params_peek(cz_params_info *out, const char *path, char *msg, size_t msglen)
{
    cz__mapped m;
    memset(out, 0, sizeof *out);
    cz_err e = cz__map_file(&m, path, msg, msglen);
    if (e) return e;
    e = cz_params_peek_mem(out, m.p, m.len, msg, msglen);
    if (!e && (e = cz__mapped_check(&m, msg, msglen))) memset(out, 0, sizeof *out);
    cz__unmap_file(&m);
    return e;
}

/* ---------------------------------------------------------------- decoding */

typedef struct {
    const uint8_t *src;
    void *dst;
    uint64_t n;
    int g2, sub;
} seg;

typedef struct {
    seg s[6];
    uint64_t start[7]; /* start[k] = first global index of segment k */
    uint64_t total;
    _Atomic uint64_t first_bad;
} dec_ctx;

#define CHUNK 64

static void record_bad(dec_ctx *c, uint64_t g, unsigned code)
{
    uint64_t v = g << 8 | code, cur = atomic_load_explicit(&c->first_bad, memory_order_relaxed);
    while (v < cur && !atomic_compare_exchange_weak(&c->first_bad, &cur, v)) {}
}

static void dec_chunk(void *vctx, size_t ci)
{
    dec_ctx *c = vctx;
    uint64_t lo = (uint64_t)ci * CHUNK, hi = lo + CHUNK < c->total ? lo + CHUNK : c->total;
    int k = 0;
    while (lo >= c->start[k + 1]) k++;
    for (uint64_t g = lo; g < hi; g++) {
        if ((atomic_load_explicit(&c->first_bad, memory_order_relaxed) >> 8) <= g) return;
        while (g >= c->start[k + 1]) k++;
        const seg *s = &c->s[k];
        uint64_t i = g - c->start[k];
        cz_err e;
        int inf;
        if (s->g2) {
            cz_g2_aff *p = (cz_g2_aff *)s->dst + i;
            e = cz_g2_decode(p, s->src + i * G2U, G2U, s->sub);
            inf = !e && cz_g2_aff_is_inf(p);
        } else {
            cz_g1_aff *p = (cz_g1_aff *)s->dst + i;
            e = cz_g1_decode(p, s->src + i * G1U, G1U, s->sub);
            inf = !e && cz_g1_aff_is_inf(p);
        }
        if (e || inf) {
            record_bad(c, g, e ? (unsigned)e : CODE_INF);
            return;
        }
    }
}

/* decodes the segments (those with n > 0 need dst); reports the first bad point */
static cz_err decode_all(dec_ctx *c, cz_pool *pool, char *msg, size_t msglen)
{
    c->start[0] = 0;
    for (int k = 0; k < 6; k++) c->start[k + 1] = c->start[k] + c->s[k].n;
    c->total = c->start[6];
    atomic_init(&c->first_bad, UINT64_MAX);
    if (c->total) cz_pool_run(pool, (size_t)((c->total + CHUNK - 1) / CHUNK), dec_chunk, c);
    uint64_t bad = atomic_load(&c->first_bad);
    if (bad == UINT64_MAX) return CZ_OK;
    uint64_t g = bad >> 8;
    unsigned code = (unsigned)(bad & 0xff);
    int k = 0;
    while (g >= c->start[k + 1]) k++;
    if (code == CODE_INF)
        return cz_fail(CZ_ERR_NOT_ON_CURVE, msg, msglen, "%s[%llu]: point at infinity not allowed",
                            ARRAY_NAMES[k], (unsigned long long)(g - c->start[k]));
    return cz_fail((cz_err)code, msg, msglen, "%s[%llu]: %s", ARRAY_NAMES[k],
                        (unsigned long long)(g - c->start[k]), cz_strerror((cz_err)code));
}

static cz_err decode_vk_head(cz_groth16_vk *vk, const uint8_t *p, char *msg, size_t msglen)
{
    static const char *const names[6] = {"alpha_g1", "beta_g1", "beta_g2", "gamma_g2", "delta_g1", "delta_g2"};
    cz_g1_aff *g1s[6] = {&vk->alpha_g1, &vk->beta_g1, NULL, NULL, &vk->delta_g1, NULL};
    cz_g2_aff *g2s[6] = {NULL, NULL, &vk->beta_g2, &vk->gamma_g2, NULL, &vk->delta_g2};
    for (int k = 0; k < 6; k++) {
        cz_err e = g1s[k] ? cz_g1_decode(g1s[k], p, G1U, 1) : cz_g2_decode(g2s[k], p, G2U, 1);
        if (e) return cz_fail(e, msg, msglen, "vk %s: %s", names[k], cz_strerror(e));
        p += g1s[k] ? G1U : G2U;
    }
    return CZ_OK;
}

static void *alloc_points(uint64_t n, size_t w, int *fail)
{
    if (!n) return NULL;
    void *p = malloc((size_t)n * w);
    if (!p) *fail = 1;
    return p;
}

cz_err cz_params_read_mem(cz_groth16_pk *pk, const uint8_t *buf, size_t len, int check_subgroup, cz_pool *pool,
                          char *msg, size_t msglen)
{
    memset(pk, 0, sizeof *pk);
    cz_params_info in;
    cz_err e = cz_params_peek_mem(&in, buf, len, msg, msglen);
    if (e) return e;
    if (in.is_vk)
        return cz_fail(CZ_ERR_LENGTH, msg, msglen, "a verifying key only (%llu bytes), not a .params file",
                            (unsigned long long)in.size);
    if ((e = decode_vk_head(&pk->vk, buf, msg, msglen))) goto fail;
    int nomem = 0;
    pk->vk.n_ic = in.n_ic;
    pk->n_h = in.n_h;
    pk->n_l = in.n_l;
    pk->n_a = in.n_a;
    pk->n_b_g1 = in.n_b_g1;
    pk->n_b_g2 = in.n_b_g2;
    pk->vk.ic = alloc_points(in.n_ic, sizeof(cz_g1_aff), &nomem);
    pk->h = alloc_points(in.n_h, sizeof(cz_g1_aff), &nomem);
    pk->l = alloc_points(in.n_l, sizeof(cz_g1_aff), &nomem);
    pk->a = alloc_points(in.n_a, sizeof(cz_g1_aff), &nomem);
    pk->b_g1 = alloc_points(in.n_b_g1, sizeof(cz_g1_aff), &nomem);
    pk->b_g2 = alloc_points(in.n_b_g2, sizeof(cz_g2_aff), &nomem);
    if (nomem) {
        e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory for %llu points",
                         (unsigned long long)(in.n_ic + in.n_h + in.n_l + in.n_a + in.n_b_g1 + in.n_b_g2));
        goto fail;
    }
    dec_ctx c = {.s = {
                     {buf + in.off_ic, pk->vk.ic, in.n_ic, 0, 1},
                     {buf + in.off_h, pk->h, in.n_h, 0, check_subgroup},
                     {buf + in.off_l, pk->l, in.n_l, 0, check_subgroup},
                     {buf + in.off_a, pk->a, in.n_a, 0, check_subgroup},
                     {buf + in.off_b_g1, pk->b_g1, in.n_b_g1, 0, check_subgroup},
                     {buf + in.off_b_g2, pk->b_g2, in.n_b_g2, 1, check_subgroup},
                 }};
    if ((e = decode_all(&c, pool, msg, msglen))) goto fail;
    return CZ_OK;
fail:
    cz_groth16_pk_free(pk);
    return e;
}

cz_err cz_params_read(cz_groth16_pk *pk, const char *path, int check_subgroup, cz_pool *pool, char *msg,
                      size_t msglen)
{
    cz__mapped m;
    memset(pk, 0, sizeof *pk);
    cz_err e = cz__map_file(&m, path, msg, msglen);
    if (e) return e;
    char sub[256] = "";
    e = cz_params_read_mem(pk, m.p, m.len, check_subgroup, pool, sub, sizeof sub);
    if (e) cz_fail(e, msg, msglen, "%s: %s", path, sub);
    if (!e && (e = cz__mapped_check(&m, msg, msglen))) cz_groth16_pk_free(pk);
    cz__unmap_file(&m);
    return e;
}

cz_err cz_vk_read_mem(cz_groth16_vk *vk, const uint8_t *buf, size_t len, cz_pool *pool, char *msg, size_t msglen)
{
    memset(vk, 0, sizeof *vk);
    cz_params_info in;
    cz_err e = cz_params_peek_mem(&in, buf, len, msg, msglen);
    if (e) return e;
    if ((e = decode_vk_head(vk, buf, msg, msglen))) goto fail;
    int nomem = 0;
    vk->n_ic = in.n_ic;
    vk->ic = alloc_points(in.n_ic, sizeof(cz_g1_aff), &nomem);
    if (nomem) {
        e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
        goto fail;
    }
    dec_ctx c = {.s = {{buf + in.off_ic, vk->ic, in.n_ic, 0, 1}}};
    if ((e = decode_all(&c, pool, msg, msglen))) goto fail;
    return CZ_OK;
fail:
    cz_groth16_vk_free(vk);
    return e;
}

cz_err cz_vk_read(cz_groth16_vk *vk, const char *path, cz_pool *pool, char *msg, size_t msglen)
{
    cz__mapped m;
    memset(vk, 0, sizeof *vk);
    cz_err e = cz__map_file(&m, path, msg, msglen);
    if (e) return e;
    char sub[256] = "";
    e = cz_vk_read_mem(vk, m.p, m.len, pool, sub, sizeof sub);
    if (e) cz_fail(e, msg, msglen, "%s: %s", path, sub);
    if (!e && (e = cz__mapped_check(&m, msg, msglen))) cz_groth16_vk_free(vk);
    cz__unmap_file(&m);
    return e;
}

/* ---------------------------------------------------------------- writing */

uint64_t cz_vk_encoded_size(const cz_groth16_vk *vk)
{
    if (vk->n_ic > UINT32_MAX) return 0;
    return CZ_VK_HEAD_BYTES + 4 + vk->n_ic * G1U;
}

uint64_t cz_params_encoded_size(const cz_groth16_pk *pk)
{
    uint64_t v = cz_vk_encoded_size(&pk->vk);
    const size_t n[5] = {pk->n_h, pk->n_l, pk->n_a, pk->n_b_g1, pk->n_b_g2};
    if (!v) return 0;
    for (int k = 0; k < 5; k++) {
        if (n[k] > UINT32_MAX) return 0;
        v += 4 + (uint64_t)n[k] * (k == 4 ? G2U : G1U);
    }
    return v;
}

static void put_g1s(cz__writer *w, const cz_g1_aff *p, size_t n, int with_len)
{
    uint8_t b[G1U];
    if (with_len) {
        cz__put_be32(b, (uint32_t)n);
        cz__writer_put(w, b, 4);
    }
    for (size_t i = 0; i < n && !w->err; i++) {
        cz_g1_serialize(b, &p[i]);
        cz__writer_put(w, b, G1U);
    }
}

static void put_g2s(cz__writer *w, const cz_g2_aff *p, size_t n, int with_len)
{
    uint8_t b[G2U];
    if (with_len) {
        cz__put_be32(b, (uint32_t)n);
        cz__writer_put(w, b, 4);
    }
    for (size_t i = 0; i < n && !w->err; i++) {
        cz_g2_serialize(b, &p[i]);
        cz__writer_put(w, b, G2U);
    }
}

static void emit_vk(cz__writer *w, const cz_groth16_vk *vk)
{
    put_g1s(w, &vk->alpha_g1, 1, 0);
    put_g1s(w, &vk->beta_g1, 1, 0);
    put_g2s(w, &vk->beta_g2, 1, 0);
    put_g2s(w, &vk->gamma_g2, 1, 0);
    put_g1s(w, &vk->delta_g1, 1, 0);
    put_g2s(w, &vk->delta_g2, 1, 0);
    put_g1s(w, vk->ic, vk->n_ic, 1);
}

static void emit_params(cz__writer *w, const cz_groth16_pk *pk)
{
    emit_vk(w, &pk->vk);
    put_g1s(w, pk->h, pk->n_h, 1);
    put_g1s(w, pk->l, pk->n_l, 1);
    put_g1s(w, pk->a, pk->n_a, 1);
    put_g1s(w, pk->b_g1, pk->n_b_g1, 1);
    put_g2s(w, pk->b_g2, pk->n_b_g2, 1);
}

cz_err cz_params_encode(uint8_t *out, size_t cap, const cz_groth16_pk *pk, char *msg, size_t msglen)
{
    uint64_t need = cz_params_encoded_size(pk);
    if (!need) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "an array has more than 2^32-1 points");
    if (need > cap) return cz_fail(CZ_ERR_LENGTH, msg, msglen, "need %llu bytes", (unsigned long long)need);
    cz__writer w;
    cz__writer_mem(&w, out, cap);
    emit_params(&w, pk);
    return cz__writer_commit(&w, msg, msglen);
}

cz_err cz_vk_encode(uint8_t *out, size_t cap, const cz_groth16_vk *vk, char *msg, size_t msglen)
{
    uint64_t need = cz_vk_encoded_size(vk);
    if (!need) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "ic has more than 2^32-1 points");
    if (need > cap) return cz_fail(CZ_ERR_LENGTH, msg, msglen, "need %llu bytes", (unsigned long long)need);
    cz__writer w;
    cz__writer_mem(&w, out, cap);
    emit_vk(&w, vk);
    return cz__writer_commit(&w, msg, msglen);
}

cz_err cz_params_write(const char *path, const cz_groth16_pk *pk, char *msg, size_t msglen)
{
    if (!cz_params_encoded_size(pk))
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "an array has more than 2^32-1 points");
    cz__writer w;
    cz_err e = cz__writer_open(&w, path, msg, msglen);
    if (e) return e;
    emit_params(&w, pk);
    return cz__writer_commit(&w, msg, msglen);
}

cz_err cz_vk_write(const char *path, const cz_groth16_vk *vk, char *msg, size_t msglen)
{
    if (!cz_vk_encoded_size(vk))
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "ic has more than 2^32-1 points");
    cz__writer w;
    cz_err e = cz__writer_open(&w, path, msg, msglen);
    if (e) return e;
    emit_vk(&w, vk);
    return cz__writer_commit(&w, msg, msglen);
}
