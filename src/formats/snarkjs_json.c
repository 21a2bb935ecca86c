/* snarkjs_json.c — snarkjs proof / public / verification-key JSON (see
 * snarkjs_json.h). Readers go through util/json's strict DOM parser, then
 * check the shape and every number; writers print into a growing buffer in
 * the layout snarkjs's writer (bfj, one space per level) produces. */
#include "formats/snarkjs_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/decimal.h"
#include "formats/fio.h"
#include "pairing/pairing.h"
#include "util/json.h"

#define fail cz_fail

/* ---------------------------------------------------------------- writing */
typedef struct {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;

static void put(sbuf *b, const char *s, size_t len)
{
    if (b->oom) return;
    if (b->n + len + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 1024;
        while (b->n + len + 1 > nc) nc *= 2;
        char *q = realloc(b->p, nc);
        if (!q) { b->oom = 1; return; }
        b->p = q;
        b->cap = nc;
    }
    memcpy(b->p + b->n, s, len);
    b->n += len;
    b->p[b->n] = 0;
}

static void puts_(sbuf *b, const char *s) { put(b, s, strlen(s)); }

static void indent(sbuf *b, int level)
{
    puts_(b, "\n");
    for (int i = 0; i < level; i++) puts_(b, " ");
}

/* an array of decimal strings at nesting `level` (its items at level + 1) */
static void str_array(sbuf *b, const char *const *items, int n, int level)
{
    puts_(b, "[");
    for (int i = 0; i < n; i++) {
        indent(b, level + 1);
        puts_(b, "\"");
        puts_(b, items[i]);
        puts_(b, i + 1 < n ? "\"," : "\"");
    }
    indent(b, level);
    puts_(b, "]");
}

static void g1_json(sbuf *b, const cz_g1_aff *p, int level)
{
    char x[CZ_FP_DECIMAL_MAX], y[CZ_FP_DECIMAL_MAX];
    const char *it[3] = {x, y, "1"};
    if (cz_g1_aff_is_inf(p)) {
        it[0] = "0"; it[1] = "1"; it[2] = "0";
    } else {
        cz_fp_to_decimal(x, &p->x);
        cz_fp_to_decimal(y, &p->y);
    }
    str_array(b, it, 3, level);
}

static void g2_json(sbuf *b, const cz_g2_aff *p, int level)
{
    char d[4][CZ_FP_DECIMAL_MAX];
    const char *x[2] = {d[0], d[1]}, *y[2] = {d[2], d[3]}, *z[2] = {"1", "0"};
    if (cz_g2_aff_is_inf(p)) {
        x[0] = x[1] = "0"; y[0] = "1"; y[1] = "0"; z[0] = "0";
    } else {
        cz_fp_to_decimal(d[0], &p->x.c0);
        cz_fp_to_decimal(d[1], &p->x.c1);
        cz_fp_to_decimal(d[2], &p->y.c0);
        cz_fp_to_decimal(d[3], &p->y.c1);
    }
    puts_(b, "[");
    indent(b, level + 1);
    str_array(b, x, 2, level + 1);
    puts_(b, ",");
    indent(b, level + 1);
    str_array(b, y, 2, level + 1);
    puts_(b, ",");
    indent(b, level + 1);
    str_array(b, z, 2, level + 1);
    indent(b, level);
    puts_(b, "]");
}

cz_err cz_snarkjs_proof_encode(char **out, size_t *len, const cz_groth16_proof *p)
{
    sbuf b = {0};
    puts_(&b, "{\n \"pi_a\": ");
    g1_json(&b, &p->a, 1);
    puts_(&b, ",\n \"pi_b\": ");
    g2_json(&b, &p->b, 1);
    puts_(&b, ",\n \"pi_c\": ");
    g1_json(&b, &p->c, 1);
    puts_(&b, ",\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\"\n}");
    if (b.oom) { free(b.p); *out = NULL; *len = 0; return CZ_ERR_NOMEM; }
    *out = b.p;
    *len = b.n;
    return CZ_OK;
}

cz_err cz_snarkjs_public_encode(char **out, size_t *len, const cz_fr *v, size_t n)
{
    sbuf b = {0};
    puts_(&b, "[");
    for (size_t i = 0; i < n; i++) {
        char d[CZ_FR_DECIMAL_MAX];
        cz_fr_to_decimal(d, &v[i]);
        puts_(&b, "\n \"");
        puts_(&b, d);
        puts_(&b, i + 1 < n ? "\"," : "\"");
    }
    puts_(&b, "\n]"); /* snarkjs's CLI writes an empty list as "[\n]" too */
    if (b.oom) { free(b.p); *out = NULL; *len = 0; return CZ_ERR_NOMEM; }
    *out = b.p;
    *len = b.n;
    return CZ_OK;
}

static void fp2_pair(sbuf *b, const cz_fp2 *x, int level)
{
    char d0[CZ_FP_DECIMAL_MAX], d1[CZ_FP_DECIMAL_MAX];
    const char *it[2] = {d0, d1};
    cz_fp_to_decimal(d0, &x->c0);
    cz_fp_to_decimal(d1, &x->c1);
    str_array(b, it, 2, level);
}

cz_err cz_snarkjs_vk_encode(char **out, size_t *len, const cz_groth16_vk *vk)
{
    sbuf b = {0};
    char np[24];
    snprintf(np, sizeof np, "%zu", vk->n_ic ? vk->n_ic - 1 : 0);
    puts_(&b, "{\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\",\n \"nPublic\": ");
    puts_(&b, np);
    puts_(&b, ",\n \"vk_alpha_1\": ");
    g1_json(&b, &vk->alpha_g1, 1);
    puts_(&b, ",\n \"vk_beta_2\": ");
    g2_json(&b, &vk->beta_g2, 1);
    puts_(&b, ",\n \"vk_gamma_2\": ");
    g2_json(&b, &vk->gamma_g2, 1);
    puts_(&b, ",\n \"vk_delta_2\": ");
    g2_json(&b, &vk->delta_g2, 1);
    puts_(&b, ",\n \"vk_alphabeta_12\": [");
    cz_fp12 ab;
    cz_pairing(&ab, &vk->alpha_g1, &vk->beta_g2);
    const cz_fp6 *h[2] = {&ab.c0, &ab.c1};
    for (int i = 0; i < 2; i++) {
        const cz_fp2 *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        indent(&b, 2);
        puts_(&b, "[");
        for (int k = 0; k < 3; k++) {
            indent(&b, 3);
            fp2_pair(&b, c[k], 3);
            if (k < 2) puts_(&b, ",");
        }
        indent(&b, 2);
        puts_(&b, i ? "]" : "],");
    }
    puts_(&b, "\n ],\n \"IC\": [");
    for (size_t i = 0; i < vk->n_ic; i++) {
        indent(&b, 2);
        g1_json(&b, &vk->ic[i], 2);
        if (i + 1 < vk->n_ic) puts_(&b, ",");
    }
    puts_(&b, vk->n_ic ? "\n ]\n}" : "]\n}");
    if (b.oom) { free(b.p); *out = NULL; *len = 0; return CZ_ERR_NOMEM; }
    *out = b.p;
    *len = b.n;
    return CZ_OK;
}

static cz_err write_text(const char *path, char *text, size_t len, cz_err e, char *msg, size_t msglen)
{
    if (e) return fail(e, msg, msglen, "out of memory");
    cz__writer wr;
    if ((e = cz__writer_open(&wr, path, msg, msglen))) { free(text); return e; }
    cz__writer_put(&wr, text, len);
    free(text);
    return cz__writer_commit(&wr, msg, msglen);
}

cz_err cz_snarkjs_proof_write(const char *path, const cz_groth16_proof *p, char *msg, size_t msglen)
{
    char *t;
    size_t n;
    cz_err e = cz_snarkjs_proof_encode(&t, &n, p);
    return write_text(path, t, n, e, msg, msglen);
}

cz_err cz_snarkjs_vk_write(const char *path, const cz_groth16_vk *vk, char *msg, size_t msglen)
{
    char *t;
    size_t n;
    cz_err e = cz_snarkjs_vk_encode(&t, &n, vk);
    return write_text(path, t, n, e, msg, msglen);
}

cz_err cz_snarkjs_public_write(const char *path, const cz_fr *v, size_t n, char *msg, size_t msglen)
{
    char *t;
    size_t len;
    cz_err e = cz_snarkjs_public_encode(&t, &len, v, n);
    return write_text(path, t, len, e, msg, msglen);
}

/* ---------------------------------------------------------------- reading */
static int is_str(const cz_json *v, const char *s) { return v && v->type == CZ_JSON_STRING && !strcmp(v->str, s); }

/* one coordinate: a canonical decimal string below p */
static cz_err fp_num(cz_fp *out, const cz_json *v, const char *where, const char *part, char *msg, size_t msglen)
{
    if (!v || v->type != CZ_JSON_STRING)
        return fail(CZ_ERR_PARSE, msg, msglen, "%s%s: expected a decimal string, found %s", where, part,
                    v ? cz_json_type_name(v->type) : "nothing");
    cz_err e = cz_fp_from_decimal(out, v->str, v->len);
    if (e == CZ_ERR_NONCANONICAL)
        return fail(e, msg, msglen, "%s%s: \"%.40s%s\" is not below the field modulus p", where, part, v->str,
                    v->len > 40 ? "..." : "");
    if (e)
        return fail(e, msg, msglen, "%s%s: \"%.40s%s\" is not a canonical decimal number (digits only, no sign, "
                    "no leading zeros)", where, part, v->str, v->len > 40 ? "..." : "");
    return CZ_OK;
}

static const cz_json *item(const cz_json *a, size_t i) { return a && a->type == CZ_JSON_ARRAY && i < a->n ? a->items[i] : NULL; }

static cz_err shape(const cz_json *v, size_t n, const char *where, const char *part, char *msg, size_t msglen)
{
    if (!v || v->type != CZ_JSON_ARRAY || v->n != n)
        return fail(CZ_ERR_PARSE, msg, msglen, "%s%s: expected an array of %zu elements", where, part, n);
    return CZ_OK;
}

static cz_err g1_parse(cz_g1_aff *out, const cz_json *v, int allow_inf, const char *where, char *msg, size_t msglen)
{
    cz_err e;
    cz_fp z;
    if ((e = shape(v, 3, where, "", msg, msglen)) || (e = fp_num(&out->x, item(v, 0), where, "[0]", msg, msglen)) ||
        (e = fp_num(&out->y, item(v, 1), where, "[1]", msg, msglen)) ||
        (e = fp_num(&z, item(v, 2), where, "[2]", msg, msglen)))
        return e;
    cz_fp one;
    cz_fp_one(&one);
    if (cz_fp_is_zero(&z)) {
        if (!cz_fp_is_zero(&out->x) || !cz_fp_eq(&out->y, &one))
            return fail(CZ_ERR_PARSE, msg, msglen, "%s: z = 0 but the point is not [\"0\",\"1\",\"0\"]", where);
        if (!allow_inf) return fail(CZ_ERR_NOT_ON_CURVE, msg, msglen, "%s: the point at infinity is not allowed here", where);
        cz_g1_aff_set_inf(out);
        return CZ_OK;
    }
    if (!cz_fp_eq(&z, &one)) return fail(CZ_ERR_PARSE, msg, msglen, "%s: z must be \"1\" (affine)", where);
    if (!cz_g1_aff_on_curve(out) || cz_g1_aff_is_inf(out))
        return fail(CZ_ERR_NOT_ON_CURVE, msg, msglen, "%s: the point is not on the BLS12-381 G1 curve", where);
    if (!cz_g1_aff_in_subgroup(out))
        return fail(CZ_ERR_NOT_IN_SUBGROUP, msg, msglen, "%s: the point is not in the order-r subgroup of G1", where);
    return CZ_OK;
}

static cz_err fp2_parse(cz_fp2 *out, const cz_json *v, const char *where, const char *part, char *msg, size_t msglen)
{
    cz_err e;
    char p0[16], p1[16];
    snprintf(p0, sizeof p0, "%s[0]", part);
    snprintf(p1, sizeof p1, "%s[1]", part);
    if ((e = shape(v, 2, where, part, msg, msglen)) || (e = fp_num(&out->c0, item(v, 0), where, p0, msg, msglen)) ||
        (e = fp_num(&out->c1, item(v, 1), where, p1, msg, msglen)))
        return e;
    return CZ_OK;
}

static cz_err g2_parse(cz_g2_aff *out, const cz_json *v, int allow_inf, const char *where, char *msg, size_t msglen)
{
    cz_err e;
    cz_fp2 z;
    if ((e = shape(v, 3, where, "", msg, msglen)) || (e = fp2_parse(&out->x, item(v, 0), where, "[0]", msg, msglen)) ||
        (e = fp2_parse(&out->y, item(v, 1), where, "[1]", msg, msglen)) ||
        (e = fp2_parse(&z, item(v, 2), where, "[2]", msg, msglen)))
        return e;
    cz_fp one;
    cz_fp_one(&one);
    if (cz_fp_is_zero(&z.c0) && cz_fp_is_zero(&z.c1)) {
        if (!cz_fp_is_zero(&out->x.c0) || !cz_fp_is_zero(&out->x.c1) || !cz_fp_eq(&out->y.c0, &one) ||
            !cz_fp_is_zero(&out->y.c1))
            return fail(CZ_ERR_PARSE, msg, msglen, "%s: z = 0 but the point is not the infinity form", where);
        if (!allow_inf) return fail(CZ_ERR_NOT_ON_CURVE, msg, msglen, "%s: the point at infinity is not allowed here", where);
        cz_g2_aff_set_inf(out);
        return CZ_OK;
    }
    if (!cz_fp_eq(&z.c0, &one) || !cz_fp_is_zero(&z.c1))
        return fail(CZ_ERR_PARSE, msg, msglen, "%s: z must be [\"1\",\"0\"] (affine)", where);
    if (!cz_g2_aff_on_curve(out) || cz_g2_aff_is_inf(out))
        return fail(CZ_ERR_NOT_ON_CURVE, msg, msglen, "%s: the point is not on the BLS12-381 G2 curve", where);
    if (!cz_g2_aff_in_subgroup(out))
        return fail(CZ_ERR_NOT_IN_SUBGROUP, msg, msglen, "%s: the point is not in the order-r subgroup of G2", where);
    return CZ_OK;
}

/* parses text into an object; refuses duplicate keys at the top level */
static cz_err object(cz_json **root, const char *text, size_t len, const char *what, char *msg, size_t msglen)
{
    cz_json_error je;
    *root = NULL;
    if (len > CZ_SNARKJS_JSON_MAX_BYTES) return fail(CZ_ERR_LENGTH, msg, msglen, "%s is larger than %zu bytes", what, CZ_SNARKJS_JSON_MAX_BYTES);
    if (cz_json_parse(root, text, len, 16, &je))
        return fail(CZ_ERR_PARSE, msg, msglen, "%s is not valid JSON: line %zu column %zu: %s", what, je.line, je.col,
                    je.msg);
    if ((*root)->type != CZ_JSON_OBJECT) {
        cz_json_free(*root);
        *root = NULL;
        return fail(CZ_ERR_PARSE, msg, msglen, "%s: expected a JSON object", what);
    }
    for (size_t i = 0; i < (*root)->n; i++)
        if (cz_json_key_count(*root, (*root)->items[i]->key) > 1) {
            cz_err e = fail(CZ_ERR_PARSE, msg, msglen, "%s: key \"%s\" appears more than once", what, (*root)->items[i]->key);
            cz_json_free(*root);
            *root = NULL;
            return e;
        }
    return CZ_OK;
}

/* protocol / curve members: absent is fine when !required */
static cz_err check_names(const cz_json *root, int required, const char *what, char *msg, size_t msglen)
{
    const cz_json *p = cz_json_get(root, "protocol"), *c = cz_json_get(root, "curve");
    if ((p || required) && !is_str(p, "groth16"))
        return fail(p ? CZ_ERR_UNSUPPORTED : CZ_ERR_PARSE, msg, msglen, "%s: protocol is %s%s%s, not \"groth16\"", what,
                    p && p->type == CZ_JSON_STRING ? "\"" : "", p ? (p->type == CZ_JSON_STRING ? p->str : cz_json_type_name(p->type)) : "missing",
                    p && p->type == CZ_JSON_STRING ? "\"" : "");
    if (c || required) {
        if (c && c->type == CZ_JSON_STRING && (!strcmp(c->str, "bn128") || !strcmp(c->str, "bn254")))
            return fail(CZ_ERR_UNSUPPORTED, msg, msglen,
                        "%s: curve \"%s\" (BN254) is not supported; cuzk verifies BLS12-381 (\"bls12381\") only", what,
                        c->str);
        if (!is_str(c, "bls12381"))
            return fail(c ? CZ_ERR_UNSUPPORTED : CZ_ERR_PARSE, msg, msglen, "%s: curve is %s, not \"bls12381\"", what,
                        c ? (c->type == CZ_JSON_STRING ? c->str : cz_json_type_name(c->type)) : "missing");
    }
    return CZ_OK;
}

cz_err cz_snarkjs_proof_parse(cz_groth16_proof *out, const char *text, size_t len, char *msg, size_t msglen)
{
    cz_json *root;
    memset(out, 0, sizeof *out);
    cz_err e = object(&root, text, len, "proof", msg, msglen);
    if (e) return e;
    if ((e = check_names(root, 0, "proof", msg, msglen)) ||
        (e = g1_parse(&out->a, cz_json_get(root, "pi_a"), 0, "proof pi_a", msg, msglen)) ||
        (e = g2_parse(&out->b, cz_json_get(root, "pi_b"), 0, "proof pi_b", msg, msglen)) ||
        (e = g1_parse(&out->c, cz_json_get(root, "pi_c"), 0, "proof pi_c", msg, msglen)))
        memset(out, 0, sizeof *out);
    cz_json_free(root);
    return e;
}

cz_err cz_snarkjs_vk_parse(cz_groth16_vk *out, const char *text, size_t len, char *msg, size_t msglen)
{
    cz_json *root;
    memset(out, 0, sizeof *out);
    cz_err e = object(&root, text, len, "verification key", msg, msglen);
    if (e) return e;
    const cz_json *np = cz_json_get(root, "nPublic"), *ic = cz_json_get(root, "IC");
    if ((e = check_names(root, 1, "verification key", msg, msglen))) goto out;
    if (!np || np->type != CZ_JSON_NUMBER || np->len > 9 || np->str[0] == '-' || strspn(np->str, "0123456789") != np->len) {
        e = fail(CZ_ERR_PARSE, msg, msglen, "verification key: nPublic must be a non-negative integer");
        goto out;
    }
    size_t n = (size_t)strtoul(np->str, NULL, 10);
    if (!ic || ic->type != CZ_JSON_ARRAY) {
        e = fail(CZ_ERR_PARSE, msg, msglen, "verification key: IC must be an array of nPublic + 1 = %zu points", n + 1);
        goto out;
    }
    if (ic->n != n + 1) { /* nPublic is bounded by the IC points actually there */
        e = fail(CZ_ERR_PARSE, msg, msglen, "verification key: nPublic = %zu needs %zu IC points but IC has %zu", n,
                 n + 1, (size_t)ic->n);
        goto out;
    }
    if ((e = g1_parse(&out->alpha_g1, cz_json_get(root, "vk_alpha_1"), 0, "verification key vk_alpha_1", msg, msglen)) ||
        (e = g2_parse(&out->beta_g2, cz_json_get(root, "vk_beta_2"), 0, "verification key vk_beta_2", msg, msglen)) ||
        (e = g2_parse(&out->gamma_g2, cz_json_get(root, "vk_gamma_2"), 0, "verification key vk_gamma_2", msg, msglen)) ||
        (e = g2_parse(&out->delta_g2, cz_json_get(root, "vk_delta_2"), 0, "verification key vk_delta_2", msg, msglen)))
        goto out;
    out->ic = malloc((n + 1) * sizeof *out->ic);
    if (!out->ic) { e = fail(CZ_ERR_NOMEM, msg, msglen, "out of memory"); goto out; }
    out->n_ic = n + 1;
    for (size_t i = 0; i <= n && !e; i++) {
        char where[48];
        snprintf(where, sizeof where, "verification key IC[%zu]", i);
        e = g1_parse(&out->ic[i], ic->items[i], 1, where, msg, msglen);
    }
out:
    if (e) cz_groth16_vk_free(out);
    cz_json_free(root);
    return e;
}

typedef cz_err (*parse_fn)(void *out, const char *text, size_t len, char *msg, size_t msglen);

/* drop (may be NULL) releases a parsed result that is discarded */
static cz_err read_file(void *out, parse_fn fn, void (*drop)(void *), const char *path, char *msg, size_t msglen)
{
    cz__mapped m;
    cz_err e = cz__map_file(&m, path, msg, msglen);
    if (e) return e;
    char why[400];
    e = fn(out, (const char *)m.p, m.len, why, sizeof why);
    if (e) fail(e, msg, msglen, "%s: %s", path, why);
    if (!e && (e = cz__mapped_check(&m, msg, msglen)) && drop) drop(out);
    cz__unmap_file(&m);
    return e;
}

static void vk_drop(void *o) { cz_groth16_vk_free(o); }
static cz_err proof_parse_v(void *o, const char *t, size_t l, char *m, size_t ml) { return cz_snarkjs_proof_parse(o, t, l, m, ml); }
static cz_err vk_parse_v(void *o, const char *t, size_t l, char *m, size_t ml) { return cz_snarkjs_vk_parse(o, t, l, m, ml); }

cz_err cz_snarkjs_proof_read(cz_groth16_proof *out, const char *path, char *msg, size_t msglen)
{
    return read_file(out, proof_parse_v, NULL, path, msg, msglen);
}

cz_err cz_snarkjs_vk_read(cz_groth16_vk *out, const char *path, char *msg, size_t msglen)
{
    return read_file(out, vk_parse_v, vk_drop, path, msg, msglen);
}
