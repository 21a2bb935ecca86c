/* test_config.c — the TOML subset reader and the daemon configuration.
 *
 * Covers every key of every section with its default and a changed value,
 * the size and duration units, the reference engine's own example file, the
 * deprecated keys, unknown-key warnings with their line numbers, and errors
 * for bad values and bad syntax, each checked for the key and line it names;
 * our own keys (gpus.backend, gpus.vram_margin_mib) with their limits. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "server/config.h"
#include "testutil.h"
#include "util/toml.h"

typedef struct {
    int n;
    char all[4096];
} warnings;

static void collect(void *ctx, const char *text)
{
    warnings *w = ctx;
    w->n++;
    size_t l = strlen(w->all);
    snprintf(w->all + l, sizeof w->all - l, "%s\n", text);
}

/* parse text over the defaults; returns the error, fills msg and warnings */
static cz_err parse(cz_config *c, const char *text, warnings *w, char *msg, size_t msglen)
{
    cz_config_defaults(c);
    if (w)
        memset(w, 0, sizeof *w);
    return cz_config_parse(c, text, strlen(text), w ? collect : NULL, w, msg, msglen);
}

#define GIB (UINT64_C(1) << 30)
#define MIB (UINT64_C(1) << 20)

static void test_defaults(void)
{
    cz_config c;
    cz_config_defaults(&c);
    CHECK(strcmp(c.listen, "unix:///run/curio/cuzk.sock") == 0);
    CHECK(c.status_listen[0] == 0);
    CHECK(strcmp(c.state_dir, "/var/lib/cuzk") == 0);
    CHECK(c.tls_cert[0] == 0 && c.tls_key[0] == 0);
    CHECK(c.shutdown_timeout_ms == 60000);
    CHECK(c.result_retention_ms == 30 * 60000);
    CHECK(c.max_message_bytes == 256 * MIB);
    CHECK(c.verify_proofs == 1);
    CHECK(strcmp(c.param_cache, "/data/zk/params") == 0);
    CHECK(c.total_budget_bytes == 0);
    CHECK(c.safety_margin_bytes == 5 * GIB);
    CHECK(c.eviction_min_idle_ms == 300000);
    CHECK(c.n_devices == 0);
    CHECK(c.gpu_threads == 0);
    CHECK(c.gpu_workers_per_device == 2);
    CHECK(c.backend == CZ_BACKEND_AUTO);
    CHECK(c.vram_margin_bytes == 512 * MIB);
    CHECK(c.max_batch_size == 1);
    CHECK(c.max_batch_wait_ms == 10000);
    CHECK(c.sort_by_type == 1);
    CHECK(c.synthesis_threads == 0);
    CHECK(c.synthesis_throttle == 1);
    CHECK(c.pipeline_enabled == 1);
    CHECK(c.synthesis_lookahead == 1);
    CHECK(c.synthesis_concurrency == 1);
    CHECK(c.max_parallel_synthesis == 18);
    CHECK(c.pipeline_slot_size == 0);
    CHECK(c.max_gpu_queue_depth == 0);
    CHECK(strcmp(c.log_level, "info") == 0);
    CHECK(strcmp(c.log_format, "text") == 0);

    /* an empty file and a file of comments change nothing */
    cz_config d;
    char msg[256];
    warnings w;
    CHECK(parse(&d, "", &w, msg, sizeof msg) == CZ_OK && w.n == 0);
    CHECK(memcmp(&c, &d, sizeof c) == 0);
    CHECK(parse(&d, "# nothing\n\n   # here\r\n[daemon]\n", &w, msg, sizeof msg) == CZ_OK);
    CHECK(memcmp(&c, &d, sizeof c) == 0);
}

static void test_every_key(void)
{
    const char *text =
        "[daemon]\n"
        "listen = \"127.0.0.1:9820\"\n"
        "status_listen = '127.0.0.1:9821'\n"
        "state_dir = \"/srv/cuzk\"\n"
        "shutdown_timeout = \"45s\"\n"
        "result_retention = \"2h\"\n"
        "verify_proofs = false\n"
        "max_message_size = \"512MiB\"\n"
        "tls_cert = \"/etc/cuzk/cert.pem\"\n"
        "tls_key = \"/etc/cuzk/key.pem\"\n"
        "[srs]\n"
        "param_cache = \"/var/tmp/filecoin-proof-parameters\"\n"
        "[memory]\n"
        "total_budget = \"256GiB\"\n"
        "safety_margin = \"8GiB\"\n"
        "eviction_min_idle = \"10m\"\n"
        "[gpus]\n"
        "devices = [0, 2, 3]\n"
        "gpu_threads = 32\n"
        "gpu_workers_per_device = 3\n"
        "backend = \"cuda\"\n"
        "vram_margin_mib = 2048\n"
        "[scheduler]\n"
        "max_batch_size = 2\n"
        "max_batch_wait_ms = 30_000\n"
        "sort_by_type = false\n"
        "[synthesis]\n"
        "threads = 64\n"
        "throttle = false\n"
        "[pipeline]\n"
        "enabled = false\n"
        "synthesis_lookahead = 4\n"
        "synthesis_concurrency = 2\n"
        "max_parallel_synthesis = 12\n"
        "slot_size = 3\n"
        "max_gpu_queue_depth = 8\n"
        "[logging]\n"
        "level = \"debug\"\n"
        "format = \"json\"\n";
    cz_config c;
    char msg[256] = "";
    warnings w;
    cz_err e = parse(&c, text, &w, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "%s", msg);
    CHECK_MSG(w.n == 0, "%s", w.all);
    CHECK(strcmp(c.listen, "127.0.0.1:9820") == 0);
    CHECK(strcmp(c.status_listen, "127.0.0.1:9821") == 0);
    CHECK(strcmp(c.state_dir, "/srv/cuzk") == 0);
    CHECK(c.shutdown_timeout_ms == 45000);
    CHECK(c.result_retention_ms == 2 * 3600000);
    CHECK(c.verify_proofs == 0);
    CHECK(c.max_message_bytes == 512 * MIB);
    CHECK(strcmp(c.tls_cert, "/etc/cuzk/cert.pem") == 0);
    CHECK(strcmp(c.tls_key, "/etc/cuzk/key.pem") == 0);
    CHECK(strcmp(c.param_cache, "/var/tmp/filecoin-proof-parameters") == 0);
    CHECK(c.total_budget_bytes == 256 * GIB);
    CHECK(c.safety_margin_bytes == 8 * GIB);
    CHECK(c.eviction_min_idle_ms == 600000);
    CHECK(c.n_devices == 3 && c.devices[0] == 0 && c.devices[1] == 2 && c.devices[2] == 3);
    CHECK(c.gpu_threads == 32);
    CHECK(c.gpu_workers_per_device == 3);
    CHECK(c.backend == CZ_BACKEND_CUDA);
    CHECK(c.vram_margin_bytes == 2048 * MIB);
    CHECK(c.max_batch_size == 2);
    CHECK(c.max_batch_wait_ms == 30000);
    CHECK(c.sort_by_type == 0);
    CHECK(c.synthesis_threads == 64);
    CHECK(c.synthesis_throttle == 0);
    CHECK(c.pipeline_enabled == 0);
    CHECK(c.synthesis_lookahead == 4);
    CHECK(c.synthesis_concurrency == 2);
    CHECK(c.max_parallel_synthesis == 12);
    CHECK(c.pipeline_slot_size == 3);
    CHECK(c.max_gpu_queue_depth == 8);
    CHECK(strcmp(c.log_level, "debug") == 0);
    CHECK(strcmp(c.log_format, "json") == 0);
}

/* the reference's zero-means-default rules, and the values it clamps */
static void test_reference_zeroes(void)
{
    cz_config c;
    char msg[256];
    CHECK(parse(&c, "[gpus]\ngpu_workers_per_device = 0\n[pipeline]\nsynthesis_lookahead = 0\n"
                    "synthesis_concurrency = 0\nmax_parallel_synthesis = 0\n",
                NULL, msg, sizeof msg) == CZ_OK);
    CHECK(c.gpu_workers_per_device == 1);
    CHECK(c.synthesis_lookahead == 1);
    CHECK(c.synthesis_concurrency == 1);
    CHECK(c.max_parallel_synthesis == 18);
    CHECK(parse(&c, "[gpus]\ndevices = []\n", NULL, msg, sizeof msg) == CZ_OK && c.n_devices == 0);
    CHECK(parse(&c, "[memory]\ntotal_budget = \"auto\"\n", NULL, msg, sizeof msg) == CZ_OK &&
          c.total_budget_bytes == 0);
}

/* ours: gpus.backend, gpus.vram_margin_mib, gpus.synth_cpu_setup, gpus.h_copies and gpus.device_copies */
static void test_backend_keys(void)
{
    cz_config c;
    char msg[256];
    static const struct { const char *v; int kind; } ok[] = {
        {"auto", CZ_BACKEND_AUTO}, {"cpu", CZ_BACKEND_CPU}, {"cuda", CZ_BACKEND_CUDA}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "[gpus]\nbackend = \"%s\"\n", ok[i].v);
        CHECK_MSG(parse(&c, text, NULL, msg, sizeof msg) == CZ_OK && c.backend == ok[i].kind, "%s: %s", ok[i].v, msg);
    }
    CHECK(parse(&c, "[gpus]\nvram_margin_mib = 0\n", NULL, msg, sizeof msg) == CZ_OK &&
          c.vram_margin_bytes == 512 * MIB); /* 0 reads as the default */
    CHECK(parse(&c, "[gpus]\nvram_margin_mib = 1\n", NULL, msg, sizeof msg) == CZ_OK && c.vram_margin_bytes == MIB);
    CHECK(parse(&c, "[gpus]\nvram_margin_mib = 1048576\n", NULL, msg, sizeof msg) == CZ_OK &&
          c.vram_margin_bytes == 1048576 * MIB);
    /* the synthetic circuits' keys: on the GPU unless synth_cpu_setup */
    CHECK(parse(&c, "", NULL, msg, sizeof msg) == CZ_OK && c.synth_cpu_setup == 0);
    CHECK(parse(&c, "[gpus]\nsynth_cpu_setup = true\n", NULL, msg, sizeof msg) == CZ_OK && c.synth_cpu_setup == 1);
    CHECK(parse(&c, "[gpus]\nsynth_cpu_setup = 1\n", NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK_MSG(strstr(msg, "gpus.synth_cpu_setup"), "%s", msg);
    /* the H bases' window copies: on unless h_copies = false */
    CHECK(parse(&c, "", NULL, msg, sizeof msg) == CZ_OK && c.h_copies == 1);
    CHECK(parse(&c, "[gpus]\nh_copies = false\n", NULL, msg, sizeof msg) == CZ_OK && c.h_copies == 0);
    CHECK(parse(&c, "[gpus]\nh_copies = true\n", NULL, msg, sizeof msg) == CZ_OK && c.h_copies == 1);
    CHECK(parse(&c, "[gpus]\nh_copies = \"no\"\n", NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK_MSG(strstr(msg, "gpus.h_copies"), "%s", msg);
    /* device slots per device: 1 unless device_copies (0 reads as 1) */
    CHECK(parse(&c, "", NULL, msg, sizeof msg) == CZ_OK && c.device_copies == 1);
    CHECK(parse(&c, "[gpus]\ndevice_copies = 3\n", NULL, msg, sizeof msg) == CZ_OK && c.device_copies == 3);
    CHECK(parse(&c, "[gpus]\ndevice_copies = 0\n", NULL, msg, sizeof msg) == CZ_OK && c.device_copies == 1);
    CHECK(parse(&c, "[gpus]\ndevice_copies = true\n", NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK_MSG(strstr(msg, "gpus.device_copies"), "%s", msg);
    /* a failing device's rest: 3 failures in a row, 60 s, unless set; 0 = never */
    CHECK(parse(&c, "", NULL, msg, sizeof msg) == CZ_OK && c.device_fail_limit == 3 && c.device_rest_ms == 60000);
    CHECK(parse(&c, "[gpus]\ndevice_fail_limit = 0\ndevice_rest = \"5m\"\n", NULL, msg, sizeof msg) == CZ_OK &&
          c.device_fail_limit == 0 && c.device_rest_ms == 300000);
    CHECK(parse(&c, "[gpus]\ndevice_fail_limit = -1\n", NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK_MSG(strstr(msg, "gpus.device_fail_limit") && strstr(msg, "negative"), "%s", msg);
    CHECK(parse(&c, "[gpus]\ndevice_rest = \"soon\"\n", NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK_MSG(strstr(msg, "gpus.device_rest"), "%s", msg);
    /* bad values name the key, the line and the choices */
    CHECK(parse(&c, "[gpus]\nbackend = \"gpu\"\n", NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK_MSG(strstr(msg, "line 2: gpus.backend") && strstr(msg, "\"gpu\"") && strstr(msg, "cuda"), "%s", msg);
    CHECK(parse(&c, "[gpus]\nbackend = \"CPU\"\n", NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK(parse(&c, "[gpus]\nbackend = 1\n", NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK_MSG(strstr(msg, "gpus.backend") && strstr(msg, "string"), "%s", msg);
    CHECK(parse(&c, "[gpus]\nvram_margin_mib = 1048577\n", NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK_MSG(strstr(msg, "line 2: gpus.vram_margin_mib") && strstr(msg, "too large"), "%s", msg);
    CHECK(parse(&c, "[gpus]\nvram_margin_mib = -1\n", NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK_MSG(strstr(msg, "gpus.vram_margin_mib") && strstr(msg, "negative"), "%s", msg);
    CHECK(parse(&c, "[gpus]\nvram_margin_mib = \"512MiB\"\n", NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
    CHECK_MSG(strstr(msg, "gpus.vram_margin_mib") && strstr(msg, "integer"), "%s", msg);
}

static uint64_t size_of(const char *lit, cz_err *e)
{
    char text[256], msg[256];
    snprintf(text, sizeof text, "[memory]\nsafety_margin = %s\n", lit);
    cz_config c;
    *e = parse(&c, text, NULL, msg, sizeof msg);
    return c.safety_margin_bytes;
}

static uint64_t dur_of(const char *lit, cz_err *e)
{
    char text[256], msg[256];
    snprintf(text, sizeof text, "[memory]\neviction_min_idle = %s\n", lit);
    cz_config c;
    *e = parse(&c, text, NULL, msg, sizeof msg);
    return c.eviction_min_idle_ms;
}

static void test_units(void)
{
    struct { const char *lit; uint64_t v; } sizes[] = {
        {"\"50GiB\"", 50 * GIB}, {"\"140GiB\"", 140 * GIB}, {"\"626MiB\"", 626 * MIB},
        {"\"50GB\"", 50000000000ull}, {"\"300MB\"", 300000000ull}, {"\"1024\"", 1024},
        {"\"8 GiB\"", 8 * GIB}, {"\" 8GiB \"", 8 * GIB}, {"\"2TiB\"", 2048 * GIB},
        {"\"4KiB\"", 4096}, {"\"3KB\"", 3000}, {"\"7B\"", 7}, {"\"1gib\"", GIB},
        {"\"2TB\"", 2000000000000ull}, {"4096", 4096}, {"0", 0},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        cz_err e;
        uint64_t v = size_of(sizes[i].lit, &e);
        CHECK_MSG(e == CZ_OK && v == sizes[i].v, "size %s -> %llu (err %d)", sizes[i].lit,
                  (unsigned long long)v, e);
    }
    const char *bad_sizes[] = {"\"lots\"", "\"1.5GiB\"", "\"-1GiB\"", "\"5 parsecs\"", "\"\"",
                               "\"GiB\"", "-5", "1.5", "true", "[1]",
                               "\"99999999999999999999\"", "\"20000000000GiB\""};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
        cz_err e;
        size_of(bad_sizes[i], &e);
        CHECK_MSG(e == CZ_ERR_INVALID_ARG, "size %s accepted", bad_sizes[i]);
    }
    struct { const char *lit; uint64_t ms; } durs[] = {
        {"\"5m\"", 300000}, {"\"300s\"", 300000}, {"\"10m\"", 600000}, {"\"60\"", 60000},
        {"60", 60000}, {"\"500ms\"", 500}, {"\"2h\"", 7200000}, {"\"1 m\"", 60000},
        {"\"0s\"", 0}, {"\"30S\"", 30000},
    };
    for (size_t i = 0; i < sizeof durs / sizeof durs[0]; i++) {
        cz_err e;
        uint64_t v = dur_of(durs[i].lit, &e);
        CHECK_MSG(e == CZ_OK && v == durs[i].ms, "duration %s -> %llu (err %d)", durs[i].lit,
                  (unsigned long long)v, e);
    }
    const char *bad_durs[] = {"\"soon\"", "\"5 minutes\"", "\"1.5h\"", "\"-3s\"", "\"\"",
                              "-1", "2.0", "false", "\"5d\""};
    for (size_t i = 0; i < sizeof bad_durs / sizeof bad_durs[0]; i++) {
        cz_err e;
        dur_of(bad_durs[i], &e);
        CHECK_MSG(e == CZ_ERR_INVALID_ARG, "duration %s accepted", bad_durs[i]);
    }
}

/* the error names the key and the line */
static void expect_error(const char *text, const char *key, int line)
{
    cz_config c;
    char msg[512] = "";
    cz_err e = parse(&c, text, NULL, msg, sizeof msg);
    char want_line[32];
    snprintf(want_line, sizeof want_line, "line %d:", line);
    CHECK_MSG(e != CZ_OK, "accepted: %s", text);
    CHECK_MSG(strstr(msg, want_line) != NULL, "'%s' lacks '%s'", msg, want_line);
    if (key)
        CHECK_MSG(strstr(msg, key) != NULL, "'%s' lacks '%s'", msg, key);
}

static void test_bad_values(void)
{
    expect_error("[daemon]\nlisten = 9820\n", "daemon.listen", 2);
    expect_error("\n\n[daemon]\nverify_proofs = \"yes\"\n", "daemon.verify_proofs", 4);
    expect_error("[daemon]\nmax_message_size = \"10B\"\n", "daemon.max_message_size", 2);
    expect_error("[daemon]\nmax_message_size = \"4GiB\"\n", "daemon.max_message_size", 2);
    expect_error("[daemon]\nshutdown_timeout = \"a while\"\n", "daemon.shutdown_timeout", 2);
    expect_error("[daemon]\nresult_retention = [1]\n", "daemon.result_retention", 2);
    expect_error("[srs]\nparam_cache = 1\n", "srs.param_cache", 2);
    expect_error("[memory]\ntotal_budget = \"most\"\n", "memory.total_budget", 2);
    expect_error("[memory]\ntotal_budget = \"0GiB\"\n", "memory.total_budget", 2);
    expect_error("[memory]\n# c\nsafety_margin = \"5 GiBs\"\n", "memory.safety_margin", 3);
    expect_error("[memory]\neviction_min_idle = true\n", "memory.eviction_min_idle", 2);
    expect_error("[gpus]\ndevices = 0\n", "gpus.devices", 2);
    expect_error("[gpus]\ndevices = [0, \"1\"]\n", "gpus.devices", 2);
    expect_error("[gpus]\ndevices = [-1]\n", "gpus.devices", 2);
    expect_error("[gpus]\ngpu_threads = -4\n", "gpus.gpu_threads", 2);
    expect_error("[gpus]\ngpu_threads = 4.0\n", "gpus.gpu_threads", 2);
    expect_error("[gpus]\ngpu_workers_per_device = \"2\"\n", "gpus.gpu_workers_per_device", 2);
    expect_error("[gpus]\n\nbackend = \"opencl\"\n", "gpus.backend", 3);
    expect_error("[gpus]\nvram_margin_mib = 1.5\n", "gpus.vram_margin_mib", 2);
    expect_error("[scheduler]\nmax_batch_size = 3000000000\n", "scheduler.max_batch_size", 2);
    expect_error("[scheduler]\nmax_batch_wait_ms = \"10s\"\n", "scheduler.max_batch_wait_ms", 2);
    expect_error("[scheduler]\nsort_by_type = 1\n", "scheduler.sort_by_type", 2);
    expect_error("[synthesis]\nthreads = true\n", "synthesis.threads", 2);
    expect_error("[pipeline]\nenabled = \"true\"\n", "pipeline.enabled", 2);
    expect_error("[pipeline]\nsynthesis_lookahead = -1\n", "pipeline.synthesis_lookahead", 2);
    expect_error("[pipeline]\nmax_gpu_queue_depth = []\n", "pipeline.max_gpu_queue_depth", 2);
    expect_error("[logging]\nlevel = \"loud\"\n", "logging.level", 2);
    expect_error("[logging]\nlevel = \"\"\n", "logging.level", 2);
    expect_error("[logging]\nformat = \"xml\"\n", "logging.format", 2);
    expect_error("[logging]\nformat = 1\n", "logging.format", 2);
    /* too long for its field */
    char big[5000] = "[daemon]\nlisten = \"";
    memset(big + strlen(big), 'a', 600);
    strcat(big, "\"\n");
    expect_error(big, "daemon.listen", 2);

    /* cross-field rules */
    cz_config c;
    char msg[256];
    CHECK(parse(&c, "[daemon]\ntls_cert = \"/c.pem\"\n", NULL, msg, sizeof msg) != CZ_OK);
    CHECK(strstr(msg, "tls_key") != NULL);
    CHECK(parse(&c, "[daemon]\nlisten = \"\"\n", NULL, msg, sizeof msg) != CZ_OK);
    CHECK(strstr(msg, "daemon.listen") != NULL);
}

static void test_warnings(void)
{
    cz_config c;
    char msg[256];
    warnings w;
    const char *text = "[daemon]\n"
                       "listen = \"0.0.0.0:9820\"\n"
                       "colour = \"blue\"\n"
                       "[extras]\n"
                       "x = 1\n"
                       "top.level = 2\n"
                       "[memory]\n"
                       "pinned_budget = \"50GiB\"\n"
                       "working_memory_budget = \"80GiB\"\n"
                       "[synthesis]\n"
                       "partition_workers = 12\n"
                       "[srs]\n"
                       "preload = [\"porep-32g\"]\n"
                       "[gpus]\n"
                       "devices = [1, 1, 0]\n"
                       "[logging]\n"
                       "level = \"info,cuzk_core=debug\"\n";
    CHECK(parse(&c, text, &w, msg, sizeof msg) == CZ_OK);
    CHECK_MSG(w.n == 9, "%d warnings:\n%s", w.n, w.all);
    CHECK(strstr(w.all, "line 3: daemon.colour: unknown key") != NULL);
    CHECK(strstr(w.all, "line 5: extras.x: unknown key") != NULL);
    CHECK(strstr(w.all, "line 6: extras.top.level: unknown key") != NULL);
    CHECK(strstr(w.all, "line 8: memory.pinned_budget: deprecated") != NULL);
    CHECK(strstr(w.all, "line 9: memory.working_memory_budget: deprecated") != NULL);
    CHECK(strstr(w.all, "line 11: synthesis.partition_workers: deprecated") != NULL);
    CHECK(strstr(w.all, "line 13: srs.preload: deprecated") != NULL);
    CHECK(strstr(w.all, "line 15: gpus.devices: device 1 is listed twice") != NULL);
    CHECK(strstr(w.all, "line 17: logging.level: per-target") != NULL);
    CHECK(c.n_devices == 2 && c.devices[0] == 1 && c.devices[1] == 0);
    CHECK(strcmp(c.log_level, "info") == 0);
    CHECK(strcmp(c.listen, "0.0.0.0:9820") == 0);

    /* the reference's design notes show an optional [gpus.affinity] table */
    CHECK(parse(&c, "[gpus]\ndevices = []\n[gpus.affinity]\n0 = \"porep-32g\"\n1 = \"any\"\n", &w, msg,
                sizeof msg) == CZ_OK);
    CHECK_MSG(w.n == 2 && strstr(w.all, "line 4: gpus.affinity.0: unknown key"), "%s", w.all);

    /* a root-level key, a dotted key naming a known key */
    CHECK(parse(&c, "verbose = true\nmemory.total_budget = \"64GiB\"\n", &w, msg, sizeof msg) ==
          CZ_OK);
    CHECK(w.n == 1 && strstr(w.all, "line 1: verbose: unknown key") != NULL);
    CHECK(c.total_budget_bytes == 64 * GIB);

    /* warn may be NULL */
    cz_config_defaults(&c);
    CHECK(cz_config_parse(&c, "[x]\ny=1\n", 8, NULL, NULL, msg, sizeof msg) == CZ_OK);

    /* log levels and formats the reference's logger takes */
    CHECK(parse(&c, "[logging]\nlevel = \"WARN\"\nformat = \"pretty\"\n", &w, msg, sizeof msg) ==
          CZ_OK);
    CHECK(strcmp(c.log_level, "warn") == 0 && strcmp(c.log_format, "text") == 0);
    CHECK(parse(&c, "[logging]\nlevel = \"cuzk=trace\"\n", &w, msg, sizeof msg) == CZ_OK);
    CHECK(strcmp(c.log_level, "info") == 0 && w.n == 1);
}

/* the keys and values of the reference's cuzk.example.toml, in its order,
 * with comments of our own in the places it has them */
static const char reference_example[] =
    "# a file written for the reference engine\n"
    "[daemon]\n"
    "# TCP here\n"
    "listen = \"0.0.0.0:9820\"\n"
    "# status_listen left out\n"
    "\n"
    "[srs]\n"
    "param_cache = \"/data/zk/params\"\n"
    "\n"
    "[memory]\n"
    "total_budget = \"auto\"\n"
    "safety_margin = \"5GiB\"\n"
    "eviction_min_idle = \"5m\"\n"
    "\n"
    "[gpus]\n"
    "devices = []\n"
    "gpu_threads = 32\n"
    "gpu_workers_per_device = 2\n"
    "\n"
    "[scheduler]\n"
    "max_batch_size = 1\n"
    "max_batch_wait_ms = 10000\n"
    "sort_by_type = true\n"
    "\n"
    "[synthesis]\n"
    "threads = 0\n"
    "\n"
    "[pipeline]\n"
    "enabled = true\n"
    "synthesis_lookahead = 1\n"
    "synthesis_concurrency = 1\n"
    "\n"
    "[logging]\n"
    "level = \"info\"\n"
    "# format left unset\n";

static void test_reference_files(void)
{
    cz_config c;
    char msg[256] = "";
    warnings w;
    CHECK_MSG(parse(&c, reference_example, &w, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK_MSG(w.n == 0, "%s", w.all);
    CHECK(strcmp(c.listen, "0.0.0.0:9820") == 0);
    CHECK(c.gpu_threads == 32 && c.gpu_workers_per_device == 2);
    CHECK(c.total_budget_bytes == 0 && c.safety_margin_bytes == 5 * GIB);

    /* the minimal file from the reference's documentation, old keys included */
    const char *minimal = "[daemon]\nlisten = \"0.0.0.0:9820\"\n\n[srs]\n"
                          "param_cache = \"/var/tmp/filecoin-proof-parameters\"\n"
                          "preload = [\"porep-32g\"]\n\n[synthesis]\n"
                          "partition_workers = 7   # an old key\n";
    CHECK(parse(&c, minimal, &w, msg, sizeof msg) == CZ_OK && w.n == 2);
    CHECK(strcmp(c.param_cache, "/var/tmp/filecoin-proof-parameters") == 0);

    /* the reference's own config tests */
    const char *t2 = "\n[daemon]\nlisten = \"0.0.0.0:9820\"\n\n[srs]\nparam_cache = "
                     "\"/data/zk/params\"\n\n[memory]\ntotal_budget = \"256GiB\"\nsafety_margin = "
                     "\"8GiB\"\neviction_min_idle = \"10m\"\n\n[scheduler]\nmax_batch_size = 1\n"
                     "sort_by_type = true\n";
    CHECK(parse(&c, t2, &w, msg, sizeof msg) == CZ_OK && w.n == 0);
    CHECK(c.total_budget_bytes == 256 * GIB && c.eviction_min_idle_ms == 600000);
    const char *t3 = "\n[srs]\nparam_cache = \"/data/zk/params\"\npreload = [\"porep-32g\"]\n\n"
                     "[memory]\npinned_budget = \"50GiB\"\nworking_memory_budget = \"80GiB\"\n\n"
                     "[synthesis]\nthreads = 0\npartition_workers = 12\n";
    CHECK(parse(&c, t3, &w, msg, sizeof msg) == CZ_OK && w.n == 4);
    CHECK(c.total_budget_bytes == 0);

    /* the shipped example file parses without a warning and equals the defaults */
    const char *src = getenv("CUZK_SRC");
    char path[4096];
    snprintf(path, sizeof path, "%s/cuzk.example.toml", src ? src : CUZK_SOURCE_DIR);
    cz_config d, ex;
    cz_config_defaults(&d);
    cz_config_defaults(&ex);
    memset(&w, 0, sizeof w);
    cz_err e = cz_config_load(&ex, path, collect, &w, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "%s", msg);
    CHECK_MSG(w.n == 0, "%s", w.all);
    CHECK_MSG(memcmp(&d, &ex, sizeof d) == 0, "cuzk.example.toml differs from the defaults");
}

static void test_load(void)
{
    char dir[] = "/tmp/cz_test_config_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/c.toml", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("[daemon]\nlisten = \"unix:///tmp/x.sock\"\nwhat = 1\n[gpus]\ngpu_threads = \"x\"\n", f);
    fclose(f);
    cz_config c;
    cz_config_defaults(&c);
    warnings w;
    memset(&w, 0, sizeof w);
    char msg[512];
    cz_err e = cz_config_load(&c, path, collect, &w, msg, sizeof msg);
    CHECK(e == CZ_ERR_INVALID_ARG);
    CHECK_MSG(strstr(msg, path) && strstr(msg, "line 5: gpus.gpu_threads"), "%s", msg);
    CHECK_MSG(w.n == 1 && strstr(w.all, path) && strstr(w.all, "line 3: daemon.what"), "%s", w.all);
    unlink(path);
    CHECK(cz_config_load(&c, path, NULL, NULL, msg, sizeof msg) == CZ_ERR_IO);
    CHECK(strstr(msg, path) != NULL);
    rmdir(dir);
}

/* ---- the TOML reader on its own ---- */

static void toml_ok(const char *text, cz_toml **out)
{
    char msg[256] = "";
    cz_err e = cz_toml_parse(out, text, strlen(text), msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "%s: %s", text, msg);
}

static void toml_bad(const char *text, size_t len, int line, const char *needle)
{
    cz_toml *t = (cz_toml *)1;
    char msg[256] = "";
    cz_err e = cz_toml_parse(&t, text, len, msg, sizeof msg);
    char want[32];
    snprintf(want, sizeof want, "line %d: ", line);
    CHECK_MSG(e == CZ_ERR_PARSE && t == NULL, "accepted: %s", text);
    CHECK_MSG(strncmp(msg, want, strlen(want)) == 0, "'%s' lacks '%s'", msg, want);
    CHECK_MSG(strstr(msg, needle) != NULL, "'%s' lacks '%s'", msg, needle);
}
#define BAD(text, line, needle) toml_bad(text, sizeof(text) - 1, line, needle)

static void test_toml(void)
{
    cz_toml *t = NULL;
    toml_ok("a = \"tab\\there \\\"q\\\" \\\\ \\u00e9 \\U0001F600 \\b\\f\\r\\n\"\n"
            "b = 'C:\\path\\no escapes'\n"
            "c = -42\nd = +1_000\ne = 0xff_ff\nf = 0o17\ng = 0b101\nh = 3.5e2\ni = -inf\n"
            "j = true\nk = [ 1, [2, 3], \"x\", ]\n"
            "l = [\n  1, # one\n  2\n]\n\"quoted key\" = 1\n'lit.key' = 2\n"
            "a1.b1 . c1 = 3\nm = 9223372036854775807\nn = -9223372036854775808\no = \"\"\n"
            "p = nan\nq = 1e-3\nr = 0\n",
            &t);
    if (t) {
        CHECK(t->n == 21);
        const cz_toml_entry *e = t->entries;
        CHECK(e[0].value.type == CZ_TOML_STRING &&
              strcmp(e[0].value.str, "tab\there \"q\" \\ \xc3\xa9 \xf0\x9f\x98\x80 \b\f\r\n") == 0);
        CHECK(strcmp(e[1].value.str, "C:\\path\\no escapes") == 0);
        CHECK(e[2].value.type == CZ_TOML_INT && e[2].value.i == -42);
        CHECK(e[3].value.i == 1000);
        CHECK(e[4].value.i == 0xffff);
        CHECK(e[5].value.i == 017);
        CHECK(e[6].value.i == 5);
        CHECK(e[7].value.type == CZ_TOML_FLOAT && e[7].value.f == 350.0);
        CHECK(e[8].value.type == CZ_TOML_FLOAT && e[8].value.f < -1e308);
        CHECK(e[9].value.type == CZ_TOML_BOOL && e[9].value.b == 1);
        CHECK(e[10].value.type == CZ_TOML_ARRAY && e[10].value.n == 3 &&
              e[10].value.items[1].type == CZ_TOML_ARRAY && e[10].value.items[1].n == 2 &&
              e[10].value.items[1].items[1].i == 3);
        CHECK(e[11].value.n == 2 && e[11].line == 12 && e[11].value.items[1].line == 14);
        CHECK(e[12].depth == 1 && strcmp(e[12].path[0], "quoted key") == 0 && e[12].line == 16);
        CHECK(strcmp(e[13].path[0], "lit.key") == 0);
        CHECK(e[14].depth == 3 && strcmp(e[14].path[2], "c1") == 0);
        CHECK(e[15].value.i == INT64_MAX);
        CHECK(e[16].value.i == INT64_MIN);
        CHECK(e[17].value.type == CZ_TOML_STRING && e[17].value.len == 0);
        CHECK(e[18].value.type == CZ_TOML_FLOAT && e[18].value.f != e[18].value.f);
        CHECK(e[19].value.f == 1e-3);
        CHECK(e[20].value.i == 0);
        char name[64];
        CHECK(strcmp(cz_toml_path_str(&e[14], name, sizeof name), "a1.b1.c1") == 0);
        cz_toml_free(t);
    }
    /* multi-line strings and inline tables */
    t = NULL;
    toml_ok("a = \"\"\"\nline one\n  line \\\"two\\\"\"\"\"\n"
            "b = \"\"\"x \\\n\n     y\"\"\"\n"
            "c = \'\'\'C:\\raw\\\'\'b\'\'\'\n"
            "d = \"\"\"\"\"q\"\"\"\"\"\n"
            "e = \"\"\"\r\ncr\r\nlf\"\"\"\n"
            "p = { a = 1, b . c = \"x\", d = { e = true }, f = [1,\n 2] }\n"
            "q = {}\n"
            "z = 1\n",
            &t);
    if (t) {
        const cz_toml_entry *e = t->entries;
        CHECK_MSG(t->n == 10, "%zu entries", t->n);
        CHECK_MSG(strcmp(e[0].value.str, "line one\n  line \"two\"") == 0, "[%s]", e[0].value.str);
        CHECK_MSG(strcmp(e[1].value.str, "x y") == 0, "[%s]", e[1].value.str);
        CHECK_MSG(strcmp(e[2].value.str, "C:\\raw\\\'\'b") == 0, "[%s]", e[2].value.str);
        CHECK_MSG(strcmp(e[3].value.str, "\"\"q\"\"") == 0, "[%s]", e[3].value.str);
        CHECK_MSG(strcmp(e[4].value.str, "cr\nlf") == 0, "[%s]", e[4].value.str);
        CHECK(e[5].depth == 2 && strcmp(e[5].path[0], "p") == 0 && strcmp(e[5].path[1], "a") == 0);
        CHECK(e[5].line == 12 && e[5].value.i == 1);
        CHECK(e[9].line == 15 && strcmp(e[9].path[0], "z") == 0);
        CHECK(e[6].depth == 3 && strcmp(e[6].path[2], "c") == 0 && strcmp(e[6].value.str, "x") == 0);
        CHECK(e[7].depth == 3 && strcmp(e[7].path[1], "d") == 0 && e[7].value.b == 1);
        CHECK(e[8].depth == 2 && strcmp(e[8].path[1], "f") == 0 && e[8].value.n == 2);
        cz_toml_free(t);
    }
    t = NULL;
    toml_ok("a = 1979-05-27T07:32:00Z\nb = 1979-05-27 07:32:00.999-07:00\nc = 2000-02-29\n"
            "d = 00:32:00.5\ne = 1979-05-27 # a date\nf = [07:32:00, 1979-05-27t07:32:00z]\n",
            &t);
    if (t) {
        const cz_toml_entry *e = t->entries;
        CHECK(t->n == 6);
        CHECK(e[0].value.type == CZ_TOML_DATETIME && strcmp(e[0].value.str, "1979-05-27T07:32:00Z") == 0);
        CHECK(strcmp(e[1].value.str, "1979-05-27 07:32:00.999-07:00") == 0);
        CHECK(strcmp(e[2].value.str, "2000-02-29") == 0 && strcmp(e[3].value.str, "00:32:00.5") == 0);
        CHECK(strcmp(e[4].value.str, "1979-05-27") == 0);
        CHECK(e[5].value.n == 2 && e[5].value.items[1].type == CZ_TOML_DATETIME);
        cz_toml_free(t);
    }
    {
        cz_config c;
        char msg[256];
        CHECK(parse(&c, "[daemon]\nlisten = 1979-05-27\n", NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
        CHECK_MSG(strstr(msg, "got a date-time") != NULL, "%s", msg);
        warnings w;
        CHECK(parse(&c, "[extra]\nwhen = 1979-05-27T07:32:00Z\n", &w, msg, sizeof msg) == CZ_OK && w.n == 1);
    }

    t = NULL;
    toml_ok("[[srv]]\nname = \"a\"\n[srv.sub]\nx = 1\n[[srv]]\nname = \"b\"\n[[srv.port]]\nn = 2\n", &t);
    if (t) {
        char name[64];
        CHECK(t->n == 4);
        if (t->n == 4) {
            CHECK(strcmp(cz_toml_path_str(&t->entries[0], name, sizeof name), "srv.[0].name") == 0);
            CHECK(strcmp(cz_toml_path_str(&t->entries[1], name, sizeof name), "srv.[0].sub.x") == 0);
            CHECK(strcmp(cz_toml_path_str(&t->entries[2], name, sizeof name), "srv.[1].name") == 0);
            CHECK(strcmp(cz_toml_path_str(&t->entries[3], name, sizeof name), "srv.[1].port.[0].n") == 0);
        }
        cz_toml_free(t);
    }
    {
        cz_config c;
        char msg[256];
        warnings w;
        CHECK(parse(&c, "[[gpus]]\ndevices = [0]\n", &w, msg, sizeof msg) == CZ_OK && w.n == 1 &&
              c.n_devices == 0);
        CHECK_MSG(strstr(w.all, "line 2: gpus.[0].devices: unknown key") != NULL, "%s", w.all);
    }

    t = NULL;
    toml_ok("[z]\ny = 1\n", &t);
    cz_toml_free(t);

    t = NULL;
    toml_ok("\xEF\xBB\xBF[a . \"b\"]\r\nx = 1 # c\r\n[c]\n[a]\ny = 2\n", &t);
    if (t) {
        CHECK(t->n == 2 && t->entries[0].depth == 3 && strcmp(t->entries[0].path[1], "b") == 0);
        CHECK(t->entries[1].line == 5 && strcmp(t->entries[1].path[0], "a") == 0);
        cz_toml_free(t);
    }

    BAD("\"\"\"k\"\"\" = 1\n", 1, "cannot be a key");
    BAD("x = \"\"\"abc\ndef\n", 3, "unterminated string");
    BAD("x = \"\"\"a\"\"\"\"\"\"\n", 1, "more than five quotes");
    BAD("x = \"\"\"a\rb\"\"\"\n", 1, "control character");
    BAD("x = \"\"\"a \\ b\"\"\"\n", 1, "unknown escape");
    BAD("x = [{ a = 1 }]\n", 1, "inline tables inside arrays");
    BAD("x = { a = 1, }\n", 1, "trailing comma");
    BAD("x = { a = 1\n}\n", 1, "must close on the line");
    BAD("x = { a = 1 b = 2 }\n", 1, "expected ',' or '}'");
    BAD("x = { a = 1, a = 2 }\n", 1, "duplicate key 'x.a'");
    BAD("x = { a = 1 }\n[x]\n", 2, "defined twice");
    BAD("[y.x]\n[y]\nx = {}\n", 3, "already a table");
    BAD("[a]\n[[a]]\n", 2, "already a table");
    BAD("[[a]]\n[a]\n", 2, "already an array of tables");
    BAD("a = 1\n[[a]]\n", 2, "conflicts");
    BAD("[[a]\n", 1, "expected ']]'");
    BAD("[[a]]\nx = 1\nx = 2\n", 3, "duplicate key");
    BAD("\n\nx = 1979-13-27\n", 3, "invalid date or time");
    BAD("x = 1979-02-29\n", 1, "invalid date or time");
    BAD("x = 24:00:00\n", 1, "invalid date or time");
    BAD("x = 1979-05-27T07:32\n", 1, "invalid date or time");
    BAD("x = 1979-05-27T07:32:00+7\n", 1, "invalid date or time");
    BAD("x = 1979-05-27T07:32:00.\n", 1, "invalid date or time");
    BAD("x = 1979-05-27 07:32:00 x\n", 1, "after the value");
    BAD("x = 1\nx = 2\n", 2, "duplicate key 'x' (first set on line 1)");
    BAD("[a]\nb = 1\n[a]\n", 3, "defined twice");
    BAD("a = 1\n[a]\n", 2, "conflicts");
    BAD("a.b = 1\na = 2\n", 2, "conflicts");
    BAD("[a.b]\n[a]\nb = 1\n", 3, "already a table");
    BAD("x = \"abc\n", 1, "unterminated string");
    BAD("x = \"a\\qb\"\n", 1, "unknown escape \\q");
    BAD("x = \"\\u12\"\n", 1, "hex digits");
    BAD("x = \"\\uD800\"\n", 1, "not a Unicode scalar");
    BAD("x = \"\\u0000\"\n", 1, "U+0000");
    BAD("x = \"a\x01b\"\n", 1, "control character");
    BAD("x = 1\n# bell \x07\n", 2, "control character in a comment");
    BAD("x = 1 2\n", 1, "after the value");
    BAD("x = yes\n", 1, "strings need quotes");
    BAD("x = 012\n", 1, "leading zeros");
    BAD("x = 1__0\n", 1, "invalid number");
    BAD("x = _1\n", 1, "invalid");
    BAD("x = 1_\n", 1, "invalid number");
    BAD("x = 9223372036854775808\n", 1, "64 bits");
    BAD("x = 0xfffffffffffffffff\n", 1, "64 bits");
    BAD("x = 1.\n", 1, "invalid number");
    BAD("x = .5\n", 1, "invalid value");
    BAD("x = 0x\n", 1, "invalid integer");
    BAD("x =\n", 1, "missing value");
    BAD("x = # nothing\n", 1, "missing value");
    BAD("x\n", 1, "expected '='");
    BAD("= 1\n", 1, "cannot start a key");
    BAD("[a\n", 1, "expected ']'");
    BAD("[a] x = 1\n", 1, "after a table header");
    BAD("[]\n", 1, "cannot start a key");
    BAD("x = [1, 2\n", 2, "unterminated array");
    BAD("x = [1 2]\n", 1, "expected ',' or ']'");
    BAD("x = [,]\n", 1, "invalid value");
    BAD("x = 1\ry = 2\n", 1, "carriage return");
    BAD("x = \"\xff\"\n", 1, "UTF-8");
    BAD("a = 1\nb = \"\xc3\"\n", 2, "UTF-8");
    BAD("a = 1\nb = \"\xe0\x80\x80\"\n", 2, "UTF-8");
    BAD("a = \"x\x00\"\n", 1, "NUL byte");
    BAD("\xc3\xa9 = 1\n", 1, "bare key");
    char deep[200] = "x = ";
    for (int i = 0; i < 40; i++)
        strcat(deep, "[");
    toml_bad(deep, strlen(deep), 1, "nested deeper");

    /* a config-level syntax error is CZ_ERR_PARSE with the line */
    cz_config c;
    char msg[256];
    CHECK(parse(&c, "[daemon]\nlisten = unix\n", NULL, msg, sizeof msg) == CZ_ERR_PARSE);
    CHECK(strncmp(msg, "line 2: ", 8) == 0);
}

int main(void)
{
    test_defaults();
    test_every_key();
    test_reference_zeroes();
    test_backend_keys();
    test_units();
    test_bad_values();
    test_warnings();
    test_reference_files();
    test_load();
    test_toml();
    return cz_test_finish("test_config");
}
