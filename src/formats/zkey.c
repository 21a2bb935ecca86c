/* zkey.c — the .zkey reader (see zkey.h). Parsing walks the header sections,
 * checks every section size against the counts before touching point data,
 * then validates the point arrays in parallel (coordinates < q, on the
 * curve; eight points at a time with ff/fp_x8.h, a group that fails point
 * by point so that the first bad point is named), and builds the A/B rows
 * from the coefficient section (zkey_qap.c). cz_zkey_open maps the file and
 * uses the point arrays where they are, at any alignment; cz_zkey_load_mem
 * copies them while they are checked. */
#include "formats/zkey.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ff/fp_x8.h"
#include "formats/fio.h"
#include "formats/iden3bin.h"
#include "formats/zkey_qap.h"
#include "util/mem.h"

#define fail cz_fail
#define G1B 96
#define G2B 192

_Static_assert(sizeof(cz_g1_aff) == G1B && sizeof(cz_g2_aff) == G2B, "affine points must be raw coordinates");

/* a coordinate: 48 LE bytes holding x * 2^384 mod q; CZ_ERR_NONCANONICAL if >= q */
static cz_err lem_fp(cz_fp *out, const uint8_t *in)
{
    for (int i = 0; i < CZ_FP_LIMBS; i++) out->l[i] = cz__get_le64(in + 8 * i);
    for (int i = CZ_FP_LIMBS - 1; i >= 0; i--) {
        if (out->l[i] < cz_fp_modulus.l[i]) return CZ_OK;
        if (out->l[i] > cz_fp_modulus.l[i]) return CZ_ERR_NONCANONICAL;
    }
    return CZ_ERR_NONCANONICAL; /* equal */
}

static cz_err lem_g1(cz_g1_aff *out, const uint8_t *in)
{
    cz_err e;
    if ((e = lem_fp(&out->x, in)) || (e = lem_fp(&out->y, in + 48))) return e;
    return cz_g1_aff_on_curve(out) ? CZ_OK : CZ_ERR_NOT_ON_CURVE;
}

static cz_err lem_g2(cz_g2_aff *out, const uint8_t *in)
{
    cz_err e;
    if ((e = lem_fp(&out->x.c0, in)) || (e = lem_fp(&out->x.c1, in + 48)) || (e = lem_fp(&out->y.c0, in + 96)) ||
        (e = lem_fp(&out->y.c1, in + 144)))
        return e;
    return cz_g2_aff_on_curve(out) ? CZ_OK : CZ_ERR_NOT_ON_CURVE;
}

static const char *point_err(cz_err e)
{
    return e == CZ_ERR_NONCANONICAL ? "a coordinate is not below q"
           : e == CZ_ERR_NOT_ON_CURVE ? "not on the curve"
                                      : "not in the order-r subgroup";
}

/* ---- parallel validation of the five point arrays (and copies) ----
 * One pool run covers all arrays, in chunks of VCHUNK points; each chunk
 * records its first bad point, and the first bad chunk in array order is
 * reported, which is the first bad point of the first bad array. */
#define VCHUNK 1024
typedef struct {
    const uint8_t *src;
    uint8_t *dst;      /* NULL: validate in place */
    uint64_t n;
    int g2;
    size_t ch0;        /* index of the array's first chunk */
    const char *name;
} varr;

typedef struct {
    varr a[5];
    uint64_t *bad;     /* per chunk: first bad index or UINT64_MAX */
    cz_err *bad_err;
} vjob;

/* eight points at src (g2: G2) with every coordinate below q that satisfy
 * the curve equation (the point at infinity does not: its group goes point
 * by point). The arrays hold our limbs in little-endian order, which is
 * cz_fp's layout on a little-endian host only. */
static int group_ok(const uint8_t *src, int g2, const cz_fp2 *b)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    size_t sz = g2 ? G2B : G1B;
    for (size_t k = 0; k < 8 * sz; k += 48) {
        cz_fp t;
        if (lem_fp(&t, src + k)) return 0;
    }
    return (g2 ? cz_fp2_curve_x8(src, sz, b) : cz_fp_curve_x8(src, sz, &b->c0)) == 0xffu;
#else
    (void)src;
    (void)g2;
    (void)b;
    return 0;
#endif
}

static void vtask(void *ctx, size_t ch)
{
    vjob *j = ctx;
    int k = 4;
    while (j->a[k].ch0 > ch) k--;
    const varr *a = &j->a[k];
    uint64_t lo = (uint64_t)(ch - a->ch0) * VCHUNK, hi = lo + VCHUNK < a->n ? lo + VCHUNK : a->n;
    size_t sz = a->g2 ? G2B : G1B;
    cz_fp2 b; /* the curves' b = 4 and 4 (1 + u) */
    cz_fp_from_u64(&b.c0, 4);
    b.c1 = b.c0;
    j->bad[ch] = UINT64_MAX;
    for (uint64_t g = lo; g < hi; g += 8) {
        uint64_t ge = g + 8 < hi ? g + 8 : hi;
        if (ge - g == 8 && group_ok(a->src + g * sz, a->g2, &b)) {
            if (a->dst) memcpy(a->dst + g * sz, a->src + g * sz, 8 * sz);
            continue;
        }
        for (uint64_t i = g; i < ge; i++) {
            cz_err e;
            if (a->g2) {
                cz_g2_aff p;
                e = lem_g2(&p, a->src + i * sz);
                if (!e && a->dst) memcpy(a->dst + i * sz, &p, sz);
            } else {
                cz_g1_aff p;
                e = lem_g1(&p, a->src + i * sz);
                if (!e && a->dst) memcpy(a->dst + i * sz, &p, sz);
            }
            if (e) { j->bad[ch] = i; j->bad_err[ch] = e; return; }
        }
    }
}

/* validates the arrays and sets out[k] to a usable copy of each: its source
 * when in_place (at any alignment: groth16.h), else a heap copy stored in
 * owned[k] */
static cz_err points(const void *out[5], void *owned[5], varr a[5], int in_place, cz_pool *pool, char *msg,
                     size_t msglen)
{
    vjob j = {.bad = NULL};
    size_t nch = 0;
    cz_err e = CZ_OK;
    for (int k = 0; k < 5; k++) {
        size_t sz = a[k].g2 ? G2B : G1B;
        out[k] = owned[k] = NULL;
        a[k].dst = NULL;
        a[k].ch0 = nch;
        nch += (size_t)((a[k].n + VCHUNK - 1) / VCHUNK);
        if (!in_place) {
            a[k].dst = owned[k] = cz_big_array(a[k].n, sz);
            if (!a[k].dst) {
                e = fail(CZ_ERR_NOMEM, msg, msglen, "out of memory for %llu %s points", (unsigned long long)a[k].n,
                         a[k].name);
                goto out;
            }
        }
        j.a[k] = a[k];
    }
    j.bad = malloc((nch ? nch : 1) * sizeof *j.bad);
    j.bad_err = malloc((nch ? nch : 1) * sizeof *j.bad_err);
    if (!j.bad || !j.bad_err) { e = fail(CZ_ERR_NOMEM, msg, msglen, "out of memory"); goto out; }
    cz_pool_run(pool, nch, vtask, &j);
    for (int k = 0; k < 5 && !e; k++)
        for (size_t c = a[k].ch0; c < (k < 4 ? a[k + 1].ch0 : nch); c++) {
            if (j.bad[c] == UINT64_MAX) continue;
            e = fail(j.bad_err[c], msg, msglen, "zkey %s point %llu: %s", a[k].name, (unsigned long long)j.bad[c],
                     point_err(j.bad_err[c]));
            break;
        }
out:
    free(j.bad);
    free(j.bad_err);
    for (int k = 0; k < 5; k++) {
        if (e) {
            cz_big_free(owned[k]);
            owned[k] = NULL;
        } else {
            out[k] = a[k].dst ? (const void *)a[k].dst : (const void *)a[k].src;
        }
    }
    return e;
}

/* a point that must also be in the subgroup: CZ_OK or the reason */
static cz_err vk_point(void *out, const uint8_t *in, int g2)
{
    cz_err e = g2 ? lem_g2(out, in) : lem_g1(out, in);
    if (!e && !(g2 ? cz_g2_aff_in_subgroup(out) : cz_g1_aff_in_subgroup(out))) e = CZ_ERR_NOT_IN_SUBGROUP;
    return e;
}

static cz_err vk_g1(cz_g1_aff *out, const uint8_t *in, const char *name, char *msg, size_t msglen)
{
    cz_err e = vk_point(out, in, 0);
    return e ? fail(e, msg, msglen, "zkey %s: %s", name, point_err(e)) : CZ_OK;
}

/* the six header points, checked in parallel (the subgroup checks are the
 * costly part), reported in file order */
typedef struct {
    void *out[6];
    const uint8_t *in[6];
    cz_err e[6];
} hjob;

static const int hdr_g2[6] = {0, 0, 1, 1, 0, 1};

static void htask(void *ctx, size_t i)
{
    hjob *j = ctx;
    j->e[i] = vk_point(j->out[i], j->in[i], hdr_g2[i]);
}

static cz_err vk_header(cz_groth16_vk *vk, const uint8_t *s, cz_pool *pool, char *msg, size_t msglen)
{
    static const char *names[6] = {"alpha1", "beta1", "beta2", "gamma2", "delta1", "delta2"};
    hjob j = {.out = {&vk->alpha_g1, &vk->beta_g1, &vk->beta_g2, &vk->gamma_g2, &vk->delta_g1, &vk->delta_g2}};
    size_t at = 0;
    for (int i = 0; i < 6; i++) {
        j.in[i] = s + at;
        at += hdr_g2[i] ? G2B : G1B;
    }
    cz_pool_run(pool, 6, htask, &j);
    for (int i = 0; i < 6; i++)
        if (j.e[i]) return fail(j.e[i], msg, msglen, "zkey %s: %s", names[i], point_err(j.e[i]));
    return CZ_OK;
}

/* section `id` must hold exactly `count` points of `elt` bytes, the count
 * the header gives as `field` (count < 2^33 and elt <= 192: no overflow) */
static cz_err section(const cz__binfile *bf, uint32_t id, const char *name, const char *field, uint64_t count,
                      uint64_t elt, const uint8_t **p, char *msg, size_t msglen)
{
    uint64_t size;
    cz_err e = cz__binfile_section(bf, id, p, &size, "zkey", msg, msglen);
    if (e) return e;
    if (size != count * elt)
        return fail(size < count * elt ? CZ_ERR_LENGTH : CZ_ERR_PARSE, msg, msglen,
                    "zkey: header says %s = %llu but section %u (%s) holds %llu points (%llu bytes each)%s", field,
                    (unsigned long long)count, id, name, (unsigned long long)(size / elt), (unsigned long long)elt,
                    size % elt ? ", plus a partial point" : "");
    return CZ_OK;
}

#define CSIZE CZ__ZKEY_CSIZE

/* parses the sections of a checked container (bf); frees bf */
static cz_err parse(cz_zkey *zk, cz__binfile bf, int in_place, cz_pool *pool, char *msg, size_t msglen)
{
    cz_err e;
    cz_groth16_zpk *pk = &zk->pk;
    const uint8_t *s;
    uint64_t size;
    if ((e = cz__binfile_section(&bf, 1, &s, &size, "zkey", msg, msglen))) goto out;
    if (size != 4) {
        e = fail(size < 4 ? CZ_ERR_LENGTH : CZ_ERR_PARSE, msg, msglen,
                 "zkey section 1 (header) has %llu bytes, want 4", (unsigned long long)size);
        goto out;
    }
    uint32_t proto = cz__get_le32(s);
    if (proto != 1) {
        e = fail(CZ_ERR_UNSUPPORTED, msg, msglen, "zkey protocol %u (%s) is not Groth16", proto,
                 proto == 2 ? "PLONK" : proto == 10 ? "FFLONK" : "unknown");
        goto out;
    }
    /* section 2: primes first, so that a wrong curve is named before sizes */
    if ((e = cz__binfile_section(&bf, 2, &s, &size, "zkey", msg, msglen))) goto out;
    uint64_t at = 0;
#define NEED(nb, what)                                                                                   \
    if (size - at < (uint64_t)(nb)) {                                                                    \
        e = fail(CZ_ERR_LENGTH, msg, msglen,                                                             \
                 "zkey section 2 (Groth16 header) has %llu bytes, too few for %s (%llu bytes at byte %llu)", \
                 (unsigned long long)size, what, (unsigned long long)(nb), (unsigned long long)at);      \
        goto out;                                                                                        \
    }
    NEED(4, "n8q");
    uint32_t n8q = cz__get_le32(s);
    at = 4;
    NEED(n8q, "q (n8q bytes)");
    if ((e = cz__iden3_check_prime(s + at, n8q, CZ__PRIME_Q, "zkey", msg, msglen))) goto out;
    at += n8q;
    NEED(4, "n8r");
    uint32_t n8r = cz__get_le32(s + at);
    at += 4;
    NEED(n8r, "r (n8r bytes)");
    if ((e = cz__iden3_check_prime(s + at, n8r, CZ__PRIME_R, "zkey", msg, msglen))) goto out;
    at += n8r;
    NEED(12 + 3 * G1B + 3 * G2B, "the counts and the six header points");
#undef NEED
    if (size - at != 12 + 3 * G1B + 3 * G2B) {
        e = fail(CZ_ERR_PARSE, msg, msglen, "zkey section 2 (Groth16 header) has %llu bytes, want %llu",
                 (unsigned long long)size, (unsigned long long)(at + 12 + 3 * G1B + 3 * G2B));
        goto out;
    }
    pk->n_vars = cz__get_le32(s + at);
    pk->n_public = cz__get_le32(s + at + 4);
    uint32_t dsize = cz__get_le32(s + at + 8);
    at += 12;
    if (pk->n_public + 1 > pk->n_vars) {
        e = fail(CZ_ERR_PARSE, msg, msglen, "zkey header: %llu public signals but only %llu signals",
                 (unsigned long long)pk->n_public, (unsigned long long)pk->n_vars);
        goto out;
    }
    if (dsize == 0 || (dsize & (dsize - 1)) || dsize > (1u << CZ_ZKEY_MAX_LOG_DOMAIN)) {
        e = fail(CZ_ERR_PARSE, msg, msglen, "zkey header: domain size %u is not a power of two <= 2^%d", dsize,
                 CZ_ZKEY_MAX_LOG_DOMAIN);
        goto out;
    }
    pk->log_domain = __builtin_ctz(dsize);
    cz_groth16_vk *vk = &pk->vk;
    if ((e = vk_header(vk, s + at, pool, msg, msglen))) goto out;

    uint64_t nv = pk->n_vars, np = pk->n_public, nd = dsize;
    const uint8_t *s3, *s4, *s5, *s6, *s7, *s8, *s9;
    if ((e = section(&bf, 3, "IC", "nPublic + 1", np + 1, G1B, &s3, msg, msglen))) goto out;
    if ((e = cz__binfile_section(&bf, 4, &s4, &size, "zkey", msg, msglen))) goto out;
    if (size < 4) {
        e = fail(CZ_ERR_LENGTH, msg, msglen, "zkey section 4 (coefficients) has %llu bytes, too few for its count",
                 (unsigned long long)size);
        goto out;
    }
    zk->n_coefs = cz__get_le32(s4); /* < 2^32: n_coefs * CSIZE cannot overflow */
    if (size - 4 != zk->n_coefs * CSIZE) {
        e = fail(size - 4 < zk->n_coefs * CSIZE ? CZ_ERR_LENGTH : CZ_ERR_PARSE, msg, msglen,
                 "zkey: section 4 says %llu coefficients but holds %llu (%u bytes each)%s",
                 (unsigned long long)zk->n_coefs, (unsigned long long)((size - 4) / CSIZE), (unsigned)CSIZE,
                 (size - 4) % CSIZE ? ", plus a partial entry" : "");
        goto out;
    }
    /* every count of the header stands behind a section of points, the
     * domain size too (H holds one point per row); nothing is allocated
     * before all of them are checked */
    if ((e = section(&bf, 5, "A", "nVars", nv, G1B, &s5, msg, msglen)) ||
        (e = section(&bf, 6, "B1", "nVars", nv, G1B, &s6, msg, msglen)) ||
        (e = section(&bf, 7, "B2", "nVars", nv, G2B, &s7, msg, msglen)) ||
        (e = section(&bf, 8, "C", "nVars - nPublic - 1", nv - np - 1, G1B, &s8, msg, msglen)) ||
        (e = section(&bf, 9, "H", "domainSize", nd, G1B, &s9, msg, msglen)))
        goto out;

    vk->n_ic = np + 1;
    vk->ic = malloc(vk->n_ic * sizeof *vk->ic);
    if (!vk->ic) { e = fail(CZ_ERR_NOMEM, msg, msglen, "out of memory"); goto out; }
    for (uint64_t i = 0; i < vk->n_ic; i++) {
        char name[32];
        snprintf(name, sizeof name, "IC point %llu", (unsigned long long)i);
        if ((e = vk_g1(&vk->ic[i], s3 + i * G1B, name, msg, msglen))) goto out;
    }
    const void *arr[5];
    varr va[5] = {{.src = s5, .n = nv, .name = "A"},
                  {.src = s6, .n = nv, .name = "B1"},
                  {.src = s7, .n = nv, .g2 = 1, .name = "B2"},
                  {.src = s8, .n = nv - np - 1, .name = "C"},
                  {.src = s9, .n = nd, .name = "H"}};
    if ((e = points(arr, zk->owned, va, in_place, pool, msg, msglen))) goto out;
    pk->a = arr[0];
    pk->b_g1 = arr[1];
    pk->b_g2 = arr[2];
    pk->c = arr[3];
    pk->h = arr[4];
    e = cz__zkey_qap(&pk->qap, &zk->n_constraints_used, s4 + 4, zk->n_coefs, nd, nv, np, pool, msg, msglen);
out:
    cz__binfile_free(&bf);
    return e;
}

void cz_zkey_close(cz_zkey *zk)
{
    free(zk->pk.vk.ic);
    cz_r1cs_free(&zk->pk.qap);
    for (int i = 0; i < 5; i++) cz_big_free(zk->owned[i]);
    if (zk->map) {
        cz__mapped m = {.p = zk->map, .len = zk->map_len, .map = zk->map};
        cz__unmap_file(&m);
    }
    memset(zk, 0, sizeof *zk);
}

cz_err cz_zkey_load_mem(cz_zkey *zk, const uint8_t *buf, size_t len, cz_pool *pool, char *msg, size_t msglen)
{
    memset(zk, 0, sizeof *zk);
    cz__binfile bf;
    cz_err e = cz__binfile_parse(&bf, buf, len, "zkey", 2, "zkey", msg, msglen);
    if (!e) e = parse(zk, bf, 0, pool, msg, msglen);
    if (e) cz_zkey_close(zk);
    return e;
}

/* The file is mapped with MAP_POPULATE: its pages are in the page cache
 * already (or read now), and mapping them costs no fresh memory, which on
 * the virtual machines we measured is what costs: a fresh page costs
 * ~15 us (4 KiB) or ~2 ms per MB (huge pages) the first time after the
 * memory sat free for a few seconds. No point array is copied, not even
 * those at an offset that is not a multiple of 8 (points()). */
cz_err cz_zkey_open(cz_zkey *zk, const char *path, cz_pool *pool, char *msg, size_t msglen)
{
    memset(zk, 0, sizeof *zk);
    cz__mapped m;
    cz_err e = cz__map_file_populate(&m, path, msg, msglen);
    if (e) return e;
    char why[400];
    cz__binfile bf;
    e = cz__binfile_parse(&bf, m.p, m.len, "zkey", 2, "zkey", why, sizeof why);
    if (!e) e = parse(zk, bf, 1, pool, why, sizeof why);
    zk->map = m.map;
    zk->map_len = m.len;
    if (!e) e = cz__mapped_check(&m, why, sizeof why);
    if (e) {
        fail(e, msg, msglen, "%s: %s", path, why);
        cz_zkey_close(zk);
        return e;
    }
    return CZ_OK;
}
