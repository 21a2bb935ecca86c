/* config.c — defaults for cz_config and the TOML file that overrides them.
 *
 * The file is read with util/toml into entries, and each entry is looked up by
 * (section, key) in one table that says how to read its value into which
 * field. Unknown keys and the reference's deprecated keys produce a warning;
 * a value of the wrong type or out of range stops parsing with an error
 * naming the key and its line.
 *
 * Facts taken from the reference engine (curio, extern/cuzk/cuzk-core/src/
 * config.rs and cuzk.example.toml, read at curio e0294b0f), which a file
 * written for it relies on:
 *   - sections daemon, srs, memory, gpus, scheduler, synthesis, pipeline,
 *     logging; every key optional; unknown keys and sections are ignored;
 *   - daemon.listen "unix:///run/curio/cuzk.sock" (or "host:port"),
 *     daemon.status_listen "" (= off);
 *   - srs.param_cache "/data/zk/params";
 *   - memory.total_budget "auto" or a size string, safety_margin "5GiB",
 *     eviction_min_idle "5m"; sizes are strings: "<n>GiB", "<n>MiB",
 *     "<n>GB", "<n>MB" or "<n>" bytes; durations are strings: "<n>m",
 *     "<n>s" or "<n>" seconds (whitespace around the number allowed);
 *   - gpus.devices [] (= all), gpu_threads 0 (= all CPUs),
 *     gpu_workers_per_device 2 (0 is read as 1);
 *   - scheduler.max_batch_size 1, max_batch_wait_ms 10000, sort_by_type true;
 *   - synthesis.threads 0 (= auto);
 *   - pipeline.enabled true, synthesis_lookahead 1, synthesis_concurrency 1
 *     (both: 0 is read as 1), max_parallel_synthesis 18 (0 = 18),
 *     slot_size 0, max_gpu_queue_depth 0 (= no pacing);
 *   - logging.level "info" (a tracing filter: "debug" or
 *     "info,target=debug"), logging.format unset or "json";
 *   - deprecated and ignored: memory.pinned_budget,
 *     memory.working_memory_budget, synthesis.partition_workers, srs.preload.
 * Integers are unsigned 32-bit there (max_batch_wait_ms 64-bit) and booleans
 * are TOML booleans; we read the same types.
 *
 * Where we differ, on purpose: the reference silently replaces a size or
 * duration it cannot read with a fallback (50 GiB, 5 minutes); that is an
 * error here. We also accept KiB/TiB/KB/TB/B, any letter case in units,
 * bare integers for sizes (bytes) and durations (seconds), and "ms"/"h" for
 * durations (the reference would read "300ms" as 300 s). Per-target log
 * directives are accepted with a warning and only the global level is kept.
 *
 * Ours, not in the reference: daemon.state_dir, shutdown_timeout,
 * result_retention, verify_proofs, max_message_size, tls_cert, tls_key;
 * gpus.backend ("auto", "cpu", "cuda"; default "auto") and
 * gpus.vram_margin_mib (an integer count of MiB, default 512, 0 = the
 * default, at most 1048576), gpus.synth_cpu_setup (a boolean, default
 * false: on a CUDA backend the synthetic circuits' keys are made on the
 * GPU), gpus.h_copies (a boolean, default true: window copies of a key's H
 * bases on a CUDA device with room for them); synthesis.throttle;
 * logging.format "text". */
#include "server/config.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend/backend.h"
#include "util/toml.h"

#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)

void cz_config_defaults(cz_config *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->listen, sizeof c->listen, "unix:///run/curio/cuzk.sock");
    c->status_listen[0] = 0;
    snprintf(c->state_dir, sizeof c->state_dir, "/var/lib/cuzk");
    c->shutdown_timeout_ms = 60 * 1000;
    c->result_retention_ms = 30 * 60 * 1000;
    c->max_message_bytes = 256 * MIB;
    c->verify_proofs = 1;
    snprintf(c->param_cache, sizeof c->param_cache, "/data/zk/params");
    c->total_budget_bytes = 0;
    c->safety_margin_bytes = 5 * GIB;
    c->eviction_min_idle_ms = 5 * 60 * 1000;
    c->n_devices = 0;
    c->gpu_threads = 0;
    c->gpu_workers_per_device = 2;
    c->device_copies = 1;
    c->device_fail_limit = 3;
    c->device_rest_ms = 60 * 1000;
    c->max_batch_size = 1;
    c->max_batch_wait_ms = 10000;
    c->sort_by_type = 1;
    c->synthesis_threads = 0;
    c->pipeline_enabled = 1;
    c->synthesis_lookahead = 1;
    c->synthesis_concurrency = 1;
    c->max_parallel_synthesis = 18;
    c->max_gpu_queue_depth = 0;
    snprintf(c->log_level, sizeof c->log_level, "info");
    snprintf(c->log_format, sizeof c->log_format, "text");
    c->pipeline_slot_size = 0;
    c->synthesis_throttle = 1;
    c->backend = CZ_BACKEND_AUTO;
    c->vram_margin_bytes = CZ_BE_VRAM_MARGIN_DEFAULT;
    c->synth_cpu_setup = 0;
    c->h_copies = 1;
}

/* ---- value readers ---- */

typedef struct {
    const char *name;  /* "section.key" */
    int line;
    void (*warn)(void *, const char *);
    void *ctx;
    char *msg;
    size_t msglen;
} where;

static cz_err bad(const where *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static cz_err bad(const where *w, const char *fmt, ...)
{
    char buf[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return cz_fail(CZ_ERR_INVALID_ARG, w->msg, w->msglen, "line %d: %s: %s", w->line, w->name, buf);
}

static void warnf(const where *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warnf(const where *w, const char *fmt, ...)
{
    if (!w->warn)
        return;
    char buf[384], out[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    snprintf(out, sizeof out, "line %d: %s: %s", w->line, w->name, buf);
    w->warn(w->ctx, out);
}

static cz_err want_type(const where *w, const cz_toml_value *v, cz_toml_type t, const char *what)
{
    if (v->type == t)
        return CZ_OK;
    return bad(w, "expected %s, got %s %s", what,
               v->type == CZ_TOML_INT || v->type == CZ_TOML_ARRAY ? "an" : "a",
               cz_toml_type_name(v->type));
}

/* a value shown in messages, cut to fit */
static const char *shown(const cz_toml_value *v, char *buf, size_t cap)
{
    snprintf(buf, cap, "%.60s%s", v->str, v->len > 60 ? "..." : "");
    return buf;
}

/* "<n>[ ]<unit>" with n a plain decimal: *n, *unit and the unit's length, or
 * -1 (no number) / -2 (overflow) */
static int split_number(const char *s, uint64_t *n, const char **unit)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '+')
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    uint64_t x = 0;
    while (isdigit((unsigned char)*s)) {
        unsigned d = (unsigned)(*s - '0');
        if (x > (UINT64_MAX - d) / 10)
            return -2;
        x = x * 10 + d;
        s++;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    const char *u = s;
    size_t ul = strlen(u);
    while (ul && (u[ul - 1] == ' ' || u[ul - 1] == '\t'))
        ul--;
    *n = x;
    *unit = u;
    return (int)ul;
}

static int unit_is(const char *u, int ul, const char *name)
{
    return (size_t)ul == strlen(name) && strncasecmp(u, name, (size_t)ul) == 0;
}

static cz_err read_size(const where *w, const cz_toml_value *v, uint64_t *out)
{
    char sb[80];
    if (v->type == CZ_TOML_INT) {
        if (v->i < 0)
            return bad(w, "a size cannot be negative");
        *out = (uint64_t)v->i;
        return CZ_OK;
    }
    if (v->type != CZ_TOML_STRING)
        return bad(w, "expected a size like \"256GiB\", got %s %s",
                   v->type == CZ_TOML_ARRAY ? "an" : "a", cz_toml_type_name(v->type));
    uint64_t n;
    const char *u;
    int ul = split_number(v->str, &n, &u);
    if (ul == -2)
        return bad(w, "size \"%s\" is too large", shown(v, sb, sizeof sb));
    if (ul < 0)
        return bad(w, "\"%s\" is not a size (write it like \"256GiB\", \"512MiB\", \"50GB\" or a "
                      "byte count)", shown(v, sb, sizeof sb));
    static const struct { const char *u; uint64_t m; } units[] = {
        {"", 1}, {"B", 1}, {"KiB", KIB}, {"MiB", MIB}, {"GiB", GIB}, {"TiB", GIB * KIB},
        {"KB", 1000}, {"MB", 1000000}, {"GB", 1000000000}, {"TB", UINT64_C(1000000000000)},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (unit_is(u, ul, units[i].u)) {
            if (n > UINT64_MAX / units[i].m)
                return bad(w, "size \"%s\" is too large", shown(v, sb, sizeof sb));
            *out = n * units[i].m;
            return CZ_OK;
        }
    }
    return bad(w, "\"%s\" has an unknown unit (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)",
               shown(v, sb, sizeof sb));
}

static cz_err read_duration(const where *w, const cz_toml_value *v, uint64_t *out_ms)
{
    char sb[80];
    if (v->type == CZ_TOML_INT) {
        if (v->i < 0)
            return bad(w, "a duration cannot be negative");
        if ((uint64_t)v->i > UINT64_MAX / 1000)
            return bad(w, "duration is too large");
        *out_ms = (uint64_t)v->i * 1000;
        return CZ_OK;
    }
    if (v->type != CZ_TOML_STRING)
        return bad(w, "expected a duration like \"30s\" or \"5m\", got %s %s",
                   v->type == CZ_TOML_ARRAY ? "an" : "a", cz_toml_type_name(v->type));
    uint64_t n;
    const char *u;
    int ul = split_number(v->str, &n, &u);
    if (ul == -2)
        return bad(w, "duration \"%s\" is too large", shown(v, sb, sizeof sb));
    if (ul < 0)
        return bad(w, "\"%s\" is not a duration (write it like \"30s\", \"5m\", \"1h\", \"500ms\" "
                      "or whole seconds)", shown(v, sb, sizeof sb));
    static const struct { const char *u; uint64_t m; } units[] = {
        {"", 1000}, {"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (unit_is(u, ul, units[i].u)) {
            if (n > UINT64_MAX / units[i].m)
                return bad(w, "duration \"%s\" is too large", shown(v, sb, sizeof sb));
            *out_ms = n * units[i].m;
            return CZ_OK;
        }
    }
    return bad(w, "\"%s\" has an unknown unit (use ms, s, m or h)", shown(v, sb, sizeof sb));
}

static cz_err read_int(const where *w, const cz_toml_value *v, int *out)
{
    if (want_type(w, v, CZ_TOML_INT, "an integer"))
        return CZ_ERR_INVALID_ARG;
    if (v->i < 0)
        return bad(w, "must not be negative (got %lld)", (long long)v->i);
    if (v->i > INT_MAX)
        return bad(w, "%lld is too large (at most %d)", (long long)v->i, INT_MAX);
    *out = (int)v->i;
    return CZ_OK;
}

static cz_err read_bool(const where *w, const cz_toml_value *v, int *out)
{
    if (want_type(w, v, CZ_TOML_BOOL, "true or false"))
        return CZ_ERR_INVALID_ARG;
    *out = v->b;
    return CZ_OK;
}

static cz_err read_str(const where *w, const cz_toml_value *v, char *dst, size_t cap)
{
    if (want_type(w, v, CZ_TOML_STRING, "a string"))
        return CZ_ERR_INVALID_ARG;
    if (v->len >= cap)
        return bad(w, "string is too long (%zu bytes, at most %zu)", v->len, cap - 1);
    memcpy(dst, v->str, v->len + 1);
    return CZ_OK;
}

static cz_err read_devices(const where *w, const cz_toml_value *v, cz_config *c)
{
    if (want_type(w, v, CZ_TOML_ARRAY, "an array of GPU ordinals like [0, 1]"))
        return CZ_ERR_INVALID_ARG;
    int n = 0;
    for (size_t i = 0; i < v->n; i++) {
        const cz_toml_value *e = &v->items[i];
        if (e->type != CZ_TOML_INT)
            return bad(w, "element %zu: expected a GPU ordinal (integer), got %s %s", i,
                       e->type == CZ_TOML_INT || e->type == CZ_TOML_ARRAY ? "an" : "a",
                       cz_toml_type_name(e->type));
        if (e->i < 0 || e->i > INT_MAX)
            return bad(w, "element %zu: %lld is not a GPU ordinal", i, (long long)e->i);
        int dup = 0;
        for (int k = 0; k < n; k++)
            dup |= c->devices[k] == (int)e->i;
        if (dup) {
            warnf(w, "device %lld is listed twice; used once", (long long)e->i);
            continue;
        }
        if (n == CZ_CONFIG_MAX_DEVICES)
            return bad(w, "more than %d devices", CZ_CONFIG_MAX_DEVICES);
        c->devices[n++] = (int)e->i;
    }
    c->n_devices = n;
    return CZ_OK;
}

static cz_err read_backend(const where *w, const cz_toml_value *v, cz_config *c)
{
    if (want_type(w, v, CZ_TOML_STRING, "a string (\"auto\", \"cpu\" or \"cuda\")"))
        return CZ_ERR_INVALID_ARG;
    char sb[80];
    cz_backend_kind k;
    if (cz_backend_parse(v->str, &k, NULL, 0))
        return bad(w, "\"%s\" is not a backend (\"auto\", \"cpu\" or \"cuda\")", shown(v, sb, sizeof sb));
    c->backend = (int)k;
    return CZ_OK;
}

#define VRAM_MARGIN_MAX_MIB 1048576 /* 1 TiB */

static cz_err read_vram_margin(const where *w, const cz_toml_value *v, cz_config *c)
{
    if (want_type(w, v, CZ_TOML_INT, "an integer count of MiB"))
        return CZ_ERR_INVALID_ARG;
    if (v->i < 0)
        return bad(w, "must not be negative (got %lld)", (long long)v->i);
    if (v->i > VRAM_MARGIN_MAX_MIB)
        return bad(w, "%lld MiB is too large (at most %d, 1 TiB)", (long long)v->i, VRAM_MARGIN_MAX_MIB);
    c->vram_margin_bytes = v->i ? (uint64_t)v->i * MIB : CZ_BE_VRAM_MARGIN_DEFAULT;
    return CZ_OK;
}

static int is_level(const char *s, size_t n)
{
    static const char *levels[] = {"trace", "debug", "info", "warn", "error", "off"};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (n == strlen(levels[i]) && strncasecmp(s, levels[i], n) == 0)
            return (int)i;
    return -1;
}

/* a tracing-style filter: comma-separated; bare words are the global level */
static cz_err read_level(const where *w, const cz_toml_value *v, cz_config *c)
{
    static const char *levels[] = {"trace", "debug", "info", "warn", "error", "off"};
    if (want_type(w, v, CZ_TOML_STRING, "a string (trace, debug, info, warn, error or off)"))
        return CZ_ERR_INVALID_ARG;
    int level = -1, directives = 0;
    const char *s = v->str;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        const char *a = s;
        while (n && (*a == ' ' || *a == '\t')) {
            a++;
            n--;
        }
        while (n && (a[n - 1] == ' ' || a[n - 1] == '\t'))
            n--;
        if (n) {
            if (memchr(a, '=', n) || memchr(a, '[', n) || memchr(a, ':', n)) {
                directives++;
            } else {
                int l = is_level(a, n);
                if (l < 0)
                    return bad(w, "\"%.*s\" is not a log level (trace, debug, info, warn, error, "
                                  "off)", (int)(n > 40 ? 40 : n), a);
                level = l;
            }
        }
        s = e ? e + 1 : s + strlen(s);
    }
    if (directives)
        warnf(w, "per-target log directives are ignored; only the global level is used");
    if (level < 0) {
        if (!directives)
            return bad(w, "empty log level (trace, debug, info, warn, error, off)");
        return CZ_OK;
    }
    snprintf(c->log_level, sizeof c->log_level, "%s", levels[level]);
    return CZ_OK;
}

static cz_err read_format(const where *w, const cz_toml_value *v, cz_config *c)
{
    if (want_type(w, v, CZ_TOML_STRING, "a string (\"text\" or \"json\")"))
        return CZ_ERR_INVALID_ARG;
    char sb[80];
    if (strcasecmp(v->str, "json") == 0) {
        snprintf(c->log_format, sizeof c->log_format, "json");
        return CZ_OK;
    }
    /* the human-readable styles of the reference's logger all read as text */
    static const char *text[] = {"", "text", "pretty", "compact", "full"};
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++) {
        if (strcasecmp(v->str, text[i]) == 0) {
            snprintf(c->log_format, sizeof c->log_format, "text");
            return CZ_OK;
        }
    }
    return bad(w, "\"%s\" is not a log format (\"text\" or \"json\")", shown(v, sb, sizeof sb));
}

/* ---- the key table ---- */

typedef enum {
    K_STR, K_SIZE, K_BUDGET, K_MSGSIZE, K_DUR, K_INT, K_INT_MIN1, K_PARSYNTH, K_BOOL, K_DEVICES,
    K_LEVEL, K_FORMAT, K_DEPRECATED, K_BACKEND, K_VRAM_MARGIN
} kind;

typedef struct {
    const char *section, *key;
    kind k;
    size_t off, cap;
    const char *note; /* K_DEPRECATED: why */
} keydef;

#define F(field) offsetof(cz_config, field), sizeof(((cz_config *)0)->field)

static const keydef keys[] = {
    {"daemon", "listen", K_STR, F(listen), NULL},
    {"daemon", "status_listen", K_STR, F(status_listen), NULL},
    {"daemon", "state_dir", K_STR, F(state_dir), NULL},
    {"daemon", "shutdown_timeout", K_DUR, F(shutdown_timeout_ms), NULL},
    {"daemon", "result_retention", K_DUR, F(result_retention_ms), NULL},
    {"daemon", "verify_proofs", K_BOOL, F(verify_proofs), NULL},
    {"daemon", "max_message_size", K_MSGSIZE, F(max_message_bytes), NULL},
    {"daemon", "tls_cert", K_STR, F(tls_cert), NULL},
    {"daemon", "tls_key", K_STR, F(tls_key), NULL},
    {"srs", "param_cache", K_STR, F(param_cache), NULL},
    {"srs", "preload", K_DEPRECATED, 0, 0, "keys are loaded on demand"},
    {"memory", "total_budget", K_BUDGET, F(total_budget_bytes), NULL},
    {"memory", "safety_margin", K_SIZE, F(safety_margin_bytes), NULL},
    {"memory", "eviction_min_idle", K_DUR, F(eviction_min_idle_ms), NULL},
    {"memory", "pinned_budget", K_DEPRECATED, 0, 0, "memory.total_budget covers all memory"},
    {"memory", "working_memory_budget", K_DEPRECATED, 0, 0,
     "memory.total_budget covers all memory"},
    {"gpus", "devices", K_DEVICES, 0, 0, NULL},
    {"gpus", "gpu_threads", K_INT, F(gpu_threads), NULL},
    {"gpus", "gpu_workers_per_device", K_INT_MIN1, F(gpu_workers_per_device), NULL},
    {"gpus", "backend", K_BACKEND, 0, 0, NULL},
    {"gpus", "vram_margin_mib", K_VRAM_MARGIN, 0, 0, NULL},
    {"gpus", "synth_cpu_setup", K_BOOL, F(synth_cpu_setup), NULL},
    {"gpus", "h_copies", K_BOOL, F(h_copies), NULL},
    {"gpus", "device_copies", K_INT_MIN1, F(device_copies), NULL},
    {"gpus", "device_fail_limit", K_INT, F(device_fail_limit), NULL},
    {"gpus", "device_rest", K_DUR, F(device_rest_ms), NULL},
    {"scheduler", "max_batch_size", K_INT, F(max_batch_size), NULL},
    {"scheduler", "max_batch_wait_ms", K_INT, F(max_batch_wait_ms), NULL},
    {"scheduler", "sort_by_type", K_BOOL, F(sort_by_type), NULL},
    {"synthesis", "threads", K_INT, F(synthesis_threads), NULL},
    {"synthesis", "throttle", K_BOOL, F(synthesis_throttle), NULL},
    {"synthesis", "partition_workers", K_DEPRECATED, 0, 0,
     "concurrency follows the memory budget"},
    {"pipeline", "enabled", K_BOOL, F(pipeline_enabled), NULL},
    {"pipeline", "synthesis_lookahead", K_INT_MIN1, F(synthesis_lookahead), NULL},
    {"pipeline", "synthesis_concurrency", K_INT_MIN1, F(synthesis_concurrency), NULL},
    {"pipeline", "max_parallel_synthesis", K_PARSYNTH, F(max_parallel_synthesis), NULL},
    {"pipeline", "slot_size", K_INT, F(pipeline_slot_size), NULL},
    {"pipeline", "max_gpu_queue_depth", K_INT, F(max_gpu_queue_depth), NULL},
    {"logging", "level", K_LEVEL, 0, 0, NULL},
    {"logging", "format", K_FORMAT, 0, 0, NULL},
};

static cz_err apply(cz_config *c, const keydef *d, const cz_toml_value *v, const where *w)
{
    char *base = (char *)c;
    uint64_t u = 0;
    cz_err e;
    switch (d->k) {
    case K_STR:
        return read_str(w, v, base + d->off, d->cap);
    case K_SIZE:
        if ((e = read_size(w, v, &u)))
            return e;
        *(uint64_t *)(base + d->off) = u;
        return CZ_OK;
    case K_BUDGET:
        if (v->type == CZ_TOML_STRING && strcasecmp(v->str, "auto") == 0) {
            c->total_budget_bytes = 0;
            return CZ_OK;
        }
        if ((e = read_size(w, v, &u)))
            return e;
        if (u == 0)
            return bad(w, "a budget of 0 bytes (write \"auto\" for all memory less the margin)");
        c->total_budget_bytes = u;
        return CZ_OK;
    case K_MSGSIZE:
        if ((e = read_size(w, v, &u)))
            return e;
        if (u < 4 * KIB || u > (uint64_t)INT_MAX)
            return bad(w, "must be between 4KiB and 2GiB less one byte (gRPC's limit)");
        c->max_message_bytes = u;
        return CZ_OK;
    case K_DUR:
        if ((e = read_duration(w, v, &u)))
            return e;
        *(uint64_t *)(base + d->off) = u;
        return CZ_OK;
    case K_INT:
    case K_INT_MIN1:
    case K_PARSYNTH: {
        int x = 0;
        if ((e = read_int(w, v, &x)))
            return e;
        if (d->k == K_INT_MIN1 && x == 0)
            x = 1;
        if (d->k == K_PARSYNTH && x == 0)
            x = 18;
        *(int *)(base + d->off) = x;
        return CZ_OK;
    }
    case K_BOOL:
        return read_bool(w, v, (int *)(base + d->off));
    case K_DEVICES:
        return read_devices(w, v, c);
    case K_LEVEL:
        return read_level(w, v, c);
    case K_FORMAT:
        return read_format(w, v, c);
    case K_BACKEND:
        return read_backend(w, v, c);
    case K_VRAM_MARGIN:
        return read_vram_margin(w, v, c);
    case K_DEPRECATED:
        warnf(w, "deprecated and ignored (%s)", d->note);
        return CZ_OK;
    }
    return CZ_OK;
}

cz_err cz_config_parse(cz_config *c, const char *text, size_t len,
                       void (*warn)(void *ctx, const char *text), void *ctx, char *msg,
                       size_t msglen)
{
    if (msg && msglen)
        msg[0] = 0;
    cz_toml *t;
    cz_err e = cz_toml_parse(&t, text, len, msg, msglen);
    if (e)
        return e;
    for (size_t i = 0; i < t->n && !e; i++) {
        const cz_toml_entry *en = &t->entries[i];
        char name[160];
        cz_toml_path_str(en, name, sizeof name);
        where w = {name, en->line, warn, ctx, msg, msglen};
        const keydef *d = NULL;
        if (en->depth == 2)
            for (size_t k = 0; k < sizeof keys / sizeof keys[0] && !d; k++)
                if (strcmp(keys[k].section, en->path[0]) == 0 && strcmp(keys[k].key, en->path[1]) == 0)
                    d = &keys[k];
        if (!d) {
            warnf(&w, "unknown key, ignored");
            continue;
        }
        e = apply(c, d, &en->value, &w);
    }
    cz_toml_free(t);
    if (e)
        return e;
    if (!c->listen[0])
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                       "daemon.listen is empty (write \"unix:///path\" or \"host:port\")");
    if (!c->tls_cert[0] != !c->tls_key[0])
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                       "daemon.tls_cert and daemon.tls_key must be set together");
    return CZ_OK;
}

/* ---- files ---- */

typedef struct {
    void (*warn)(void *, const char *);
    void *ctx;
    const char *path;
} prefixed;

static void warn_with_path(void *ctx, const char *text)
{
    const prefixed *p = ctx;
    char buf[4096 + 600];
    snprintf(buf, sizeof buf, "%s: %s", p->path, text);
    p->warn(p->ctx, buf);
}

cz_err cz_config_load(cz_config *c, const char *path, void (*warn)(void *ctx, const char *text),
                      void *ctx, char *msg, size_t msglen)
{
    enum { MAX_FILE = 16 << 20 };
    FILE *f = fopen(path, "rb");
    if (!f)
        return cz_fail(CZ_ERR_IO, msg, msglen, "%s: cannot open: %m", path);
    char *text = NULL;
    size_t n = 0, cap = 0;
    cz_err e = CZ_OK;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 8192;
            if (cap > MAX_FILE + 1)
                cap = MAX_FILE + 1;
            char *nt = realloc(text, cap);
            if (!nt) {
                e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "%s: out of memory", path);
                goto done;
            }
            text = nt;
        }
        size_t r = fread(text + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
        if (n > MAX_FILE) {
            e = cz_fail(CZ_ERR_IO, msg, msglen, "%s: larger than %d MiB", path, MAX_FILE >> 20);
            goto done;
        }
    }
    if (ferror(f)) {
        e = cz_fail(CZ_ERR_IO, msg, msglen, "%s: read error", path);
        goto done;
    }
    prefixed pw = {warn, ctx, path};
    char inner[512];
    e = cz_config_parse(c, text, n, warn ? warn_with_path : NULL, &pw, inner, sizeof inner);
    if (e)
        cz_fail(e, msg, msglen, "%s: %s", path, inner);
done:
    free(text);
    fclose(f);
    return e;
}
