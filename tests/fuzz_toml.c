/* fuzz_toml.c — util/toml and the daemon config under ASan/UBSan with a fixed
 * number of mutated inputs, so the verdict never depends on machine speed.
 *
 * The inputs derive from a printed seed (CZ_TEST_SEED replays one run) and a
 * corpus of config-like texts; each is copied into an exact-size heap buffer
 * so a read past the end is caught. Properties: nothing crashes or leaks;
 * every refusal carries a message starting "line N: " with N within the text;
 * every accepted text, written back out as one dotted-key line per entry,
 * parses again to the same entries; the config layer on top either accepts
 * or refuses with a message, and every warning it gives has text. Accepted
 * mutants join the corpus, so mutations build on deeper structure. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "server/config.h"
#include "testutil.h"
#include "util/rng.h"
#include "util/toml.h"

#define ITERATIONS 40000
#define MAX_INPUT 4096
#define MAX_CORPUS 256

typedef struct { char *p; size_t n, cap; } sbuf;

static void put(sbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t nc = (b->n + n + 1) * 2;
        b->p = realloc(b->p, nc);
        b->cap = nc;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void puts_(sbuf *b, const char *s) { put(b, s, strlen(s)); }

static void put_str(sbuf *b, const char *s, size_t n)
{
    put(b, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\' || c < 0x20 || c == 0x7F) {
            char e[8];
            snprintf(e, sizeof e, "\\u%04x", c);
            put(b, e, 6);
        } else {
            put(b, s + i, 1);
        }
    }
    put(b, "\"", 1);
}

static void ser_value(sbuf *b, const cz_toml_value *v)
{
    char t[64];
    switch (v->type) {
    case CZ_TOML_STRING: put_str(b, v->str, v->len); break;
    case CZ_TOML_DATETIME: puts_(b, v->str); break;
    case CZ_TOML_INT: snprintf(t, sizeof t, "%lld", (long long)v->i); puts_(b, t); break;
    case CZ_TOML_BOOL: puts_(b, v->b ? "true" : "false"); break;
    case CZ_TOML_FLOAT:
        if (isnan(v->f)) snprintf(t, sizeof t, "nan");
        else if (isinf(v->f)) snprintf(t, sizeof t, "%sinf", v->f < 0 ? "-" : "");
        else {
            snprintf(t, sizeof t, "%.17g", v->f);
            if (!strpbrk(t, ".e")) strcat(t, ".0");
        }
        puts_(b, t);
        break;
    case CZ_TOML_ARRAY:
        puts_(b, "[");
        for (size_t i = 0; i < v->n; i++) {
            if (i) puts_(b, ", ");
            ser_value(b, &v->items[i]);
        }
        puts_(b, "]");
        break;
    }
}

static void ser(sbuf *b, const cz_toml *t)
{
    b->n = 0;
    put(b, "", 0);
    for (size_t i = 0; i < t->n; i++) {
        const cz_toml_entry *e = &t->entries[i];
        for (size_t k = 0; k < e->depth; k++) {
            if (k) puts_(b, ".");
            put_str(b, e->path[k], strlen(e->path[k]));
        }
        puts_(b, " = ");
        ser_value(b, &e->value);
        puts_(b, "\n");
    }
}

static int same_value(const cz_toml_value *a, const cz_toml_value *b)
{
    if (a->type != b->type) return 0;
    switch (a->type) {
    case CZ_TOML_STRING:
    case CZ_TOML_DATETIME: return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
    case CZ_TOML_INT: return a->i == b->i;
    case CZ_TOML_BOOL: return a->b == b->b;
    case CZ_TOML_FLOAT: return (isnan(a->f) && isnan(b->f)) || a->f == b->f;
    case CZ_TOML_ARRAY:
        if (a->n != b->n) return 0;
        for (size_t i = 0; i < a->n; i++)
            if (!same_value(&a->items[i], &b->items[i])) return 0;
        return 1;
    }
    return 0;
}

static int same(const cz_toml *a, const cz_toml *b)
{
    if (a->n != b->n) return 0;
    for (size_t i = 0; i < a->n; i++) {
        const cz_toml_entry *x = &a->entries[i], *y = &b->entries[i];
        if (x->depth != y->depth) return 0;
        for (size_t k = 0; k < x->depth; k++)
            if (strcmp(x->path[k], y->path[k]) != 0) return 0;
        if (!same_value(&x->value, &y->value)) return 0;
    }
    return 1;
}

static const char *seeds[] = {
    "[daemon]\nlisten = \"0.0.0.0:9820\"\n# status_listen = \"0.0.0.0:9821\"\n[srs]\n"
    "param_cache = \"/data/zk/params\"\n[memory]\ntotal_budget = \"auto\"\n"
    "safety_margin = \"5GiB\"\neviction_min_idle = \"5m\"\n[gpus]\ndevices = []\n"
    "gpu_threads = 32\ngpu_workers_per_device = 2\n[scheduler]\nmax_batch_size = 1\n"
    "max_batch_wait_ms = 10000\nsort_by_type = true\n[synthesis]\nthreads = 0\n"
    "[pipeline]\nenabled = true\nsynthesis_lookahead = 1\nsynthesis_concurrency = 1\n"
    "[logging]\nlevel = \"info\"\n",
    "a = \"x\\ty\\u00e9\\U0001F600\"\nb = 'lit'\nc = [1, [2, 3], \"s\",]\nd = -1_000\n"
    "e = 0xff\nf = 1.5e-3\ng = inf\nh = false\n\"q k\".'l k' = 1\n",
    "[a.b]\nx = 1\r\n[a]\ny = [\n 1, # c\n 2\n]\n",
    "[daemon]\nshutdown_timeout = \"45s\"\nresult_retention = 1800\nverify_proofs = false\n"
    "max_message_size = \"512MiB\"\ntls_cert = \"/c\"\ntls_key = \"/k\"\n[gpus]\n"
    "devices = [0, 1, 1]\n[logging]\nlevel = \"info,cuzk=debug\"\nformat = \"json\"\n",
    "[memory]\npinned_budget = \"50GiB\"\n[synthesis]\npartition_workers = 12\n"
    "[srs]\npreload = [\"porep-32g\"]\n[x]\ny = 1\n",
    "s = \"\"\"\nml \\\n  x\"\"\"\"\nl = \'\'\'raw\'\'\'\n"
    "[gpus]\naffinity = { 0 = \"porep-32g\", n = { a = [1, 2] } }\ne = {}\n",
    "d1 = 1979-05-27T07:32:00Z\nd2 = 1979-05-27 07:32:00.5-07:00\nd3 = 2000-02-29\n"
    "d4 = 07:32:00\nd5 = [1979-05-27, 00:00:00.25]\n",
    "[[srv]]\nname = \"a\"\n[srv.sub]\nx = 1\n[[srv]]\n[[srv.port]]\nn = 2\n",
};

static const char *dict[] = {
    "[", "]", "[[", "]]", "\"", "'", "\"\"\"", "'''", "=", " = ", "\n", "\r\n", "\r", "#", ",",
    ".", "\\", "\\u", "\\U0010FFFF", "\\uD800", "\\u0000", "0x", "0o", "0b", "_", "+", "-",
    "true", "false", "inf", "nan", "1e", "1.5", "9223372036854775807", "99999999999999999999",
    "{", "}", "1979-05-27", "07:32:00", "\t", "\xff", "\xc3", "\xe2\x82\xac", "\xef\xbb\xbf",
    "GiB", "MiB", "ms", "auto", "[daemon]\n", "[memory]\n", "[gpus]\ndevices = [", "\x01",
    "\x7f", "\x00", "{ a = 1 }", " = {", "}", "\\\n", "\"\"\"\n",
};

static size_t mutate(cz_rng *r, char *buf, size_t n, char **corpus, size_t *clen, size_t ncorpus)
{
    int steps = 1 + (int)(cz_rng_u64(r) % 4);
    for (int s = 0; s < steps; s++) {
        size_t pos = n ? (size_t)(cz_rng_u64(r) % (n + 1)) : 0;
        switch (cz_rng_u64(r) % 6) {
        case 0: /* flip a byte */
            if (n) buf[pos % n] ^= (char)(1u << (cz_rng_u64(r) % 8));
            break;
        case 1: /* random byte */
            if (n) buf[pos % n] = (char)cz_rng_u64(r);
            break;
        case 2: { /* insert a dictionary token */
            const char *d = dict[cz_rng_u64(r) % (sizeof dict / sizeof dict[0])];
            size_t dl = strlen(d);
            if (d[0] == 0) dl = 1; /* the NUL entry */
            if (n + dl > MAX_INPUT) break;
            memmove(buf + pos + dl, buf + pos, n - pos);
            memcpy(buf + pos, d, dl);
            n += dl;
            break;
        }
        case 3: { /* delete a range */
            if (!n) break;
            size_t l = 1 + (size_t)(cz_rng_u64(r) % 16);
            if (pos >= n) pos = n - 1;
            if (l > n - pos) l = n - pos;
            memmove(buf + pos, buf + pos + l, n - pos - l);
            n -= l;
            break;
        }
        case 4: { /* duplicate a range */
            if (!n) break;
            size_t a = (size_t)(cz_rng_u64(r) % n);
            size_t l = 1 + (size_t)(cz_rng_u64(r) % 32);
            if (l > n - a) l = n - a;
            if (n + l > MAX_INPUT) break;
            char tmp[64];
            memcpy(tmp, buf + a, l);
            memmove(buf + pos + l, buf + pos, n - pos);
            memcpy(buf + pos, tmp, l);
            n += l;
            break;
        }
        case 5: { /* splice in part of another corpus entry */
            size_t k = (size_t)(cz_rng_u64(r) % ncorpus);
            if (!clen[k]) break;
            size_t a = (size_t)(cz_rng_u64(r) % clen[k]);
            size_t l = 1 + (size_t)(cz_rng_u64(r) % 64);
            if (l > clen[k] - a) l = clen[k] - a;
            if (n + l > MAX_INPUT) break;
            memmove(buf + pos + l, buf + pos, n - pos);
            memcpy(buf + pos, corpus[k] + a, l);
            n += l;
            break;
        }
        }
    }
    return n;
}

static int count_lines(const char *s, size_t n)
{
    int l = 1;
    for (size_t i = 0; i < n; i++)
        l += s[i] == '\n';
    return l;
}

static long warnings_seen;
static void on_warn(void *ctx, const char *text)
{
    (void)ctx;
    CHECK(text && text[0]);
    warnings_seen++;
}

int main(void)
{
    uint64_t seed = cz_test_seed("fuzz_toml", 0x70a1c0f1ull);
    cz_rng r;
    cz_rng_seed(&r, seed);

    char *corpus[MAX_CORPUS];
    size_t clen[MAX_CORPUS];
    size_t ncorpus = 0;
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        clen[ncorpus] = strlen(seeds[i]);
        corpus[ncorpus] = malloc(clen[ncorpus] + 1);
        memcpy(corpus[ncorpus], seeds[i], clen[ncorpus] + 1);
        ncorpus++;
    }

    long accepted = 0, refused = 0, cfg_ok = 0, cfg_bad = 0;
    char work[MAX_INPUT + 64];
    sbuf out = {0};
    for (long it = 0; it < ITERATIONS; it++) {
        size_t k = (size_t)(cz_rng_u64(&r) % ncorpus);
        size_t n = clen[k];
        memcpy(work, corpus[k], n);
        n = mutate(&r, work, n, corpus, clen, ncorpus);

        char *in = malloc(n ? n : 1); /* exact size: ASan sees any overread */
        memcpy(in, work, n);

        cz_toml *t = NULL;
        char msg[256];
        memset(msg, 0, sizeof msg);
        cz_err e = cz_toml_parse(&t, in, n, msg, sizeof msg);
        if (e) {
            refused++;
            int line = 0;
            CHECK_MSG(e == CZ_ERR_PARSE && t == NULL, "iteration %ld: err %d", it, e);
            CHECK_MSG(sscanf(msg, "line %d: ", &line) == 1 && strstr(msg, ": ")[2] != 0,
                      "iteration %ld: refusal without a message: '%s'", it, msg);
            CHECK_MSG(line >= 1 && line <= count_lines(in, n), "iteration %ld: line %d of %d",
                      it, line, count_lines(in, n));
        } else {
            accepted++;
            ser(&out, t);
            cz_toml *t2 = NULL;
            char msg2[256];
            cz_err e2 = cz_toml_parse(&t2, out.p, out.n, msg2, sizeof msg2);
            CHECK_MSG(e2 == CZ_OK, "iteration %ld: re-parse failed: %s\n%s", it, msg2, out.p);
            if (e2 == CZ_OK) {
                CHECK_MSG(same(t, t2), "iteration %ld: round trip differs\n%s", it, out.p);
                cz_toml_free(t2);
            }
            cz_toml_free(t);
            if (ncorpus < MAX_CORPUS && n && cz_rng_u64(&r) % 4 == 0) {
                corpus[ncorpus] = malloc(n);
                memcpy(corpus[ncorpus], in, n);
                clen[ncorpus++] = n;
            }
        }

        cz_config c;
        cz_config_defaults(&c);
        memset(msg, 0, sizeof msg);
        e = cz_config_parse(&c, in, n, on_warn, NULL, msg, sizeof msg);
        if (e) {
            cfg_bad++;
            CHECK_MSG(msg[0] != 0, "iteration %ld: config refusal without a message", it);
        } else {
            cfg_ok++;
            CHECK(c.listen[0] != 0 && c.n_devices >= 0 && c.n_devices <= CZ_CONFIG_MAX_DEVICES);
            CHECK(memchr(c.log_level, 0, sizeof c.log_level) && memchr(c.log_format, 0, sizeof c.log_format));
        }
        free(in);
    }
    free(out.p);
    for (size_t i = 0; i < ncorpus; i++)
        free(corpus[i]);
    printf("fuzz_toml: %d inputs: toml %ld accepted, %ld refused; config %ld accepted, %ld refused, "
           "%ld warnings; corpus %zu\n",
           ITERATIONS, accepted, refused, cfg_ok, cfg_bad, warnings_seen, ncorpus);
    CHECK(accepted > ITERATIONS / 50 && refused > ITERATIONS / 50);
    return cz_test_finish("fuzz_toml");
}
