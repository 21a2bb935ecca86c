/* daemon_main.c — cuzk-daemon: the proving engine behind the cuzk.v1 gRPC
 * service.
 *
 *   cuzk-daemon [-c cuzk.toml] [-l ADDR] [--log-level L]
 *
 * ADDR is unix:///path (the default, from [daemon] listen; the socket gets
 * mode 0660) or host:port (a warning when the host is not loopback and TLS
 * is off: the API has no authentication). It prints one ready line on stdout once the
 * socket accepts connections. An address in use is an error (exit 1): for a
 * unix socket, a live listener on the path; a stale socket file is removed.
 *
 * Signals: SIGTERM / SIGINT stop accepting, let the jobs under way finish
 * for up to [daemon] shutdown_timeout, cancel the rest and exit 0. SIGUSR1
 * pauses dispatch (no new partition starts; jobs are still accepted),
 * SIGUSR2 resumes it.
 *
 * How the configuration drives the engine: [srs] param_cache; [pipeline]
 * synthesis_concurrency = synthesis workers, each with a pool of
 * [synthesis] threads for key loading and the witness check; [gpus] backend
 * (auto: CUDA where a device is found, else the CPU) on the first of
 * devices (device 0 when empty; further devices are warned about and not
 * used yet), vram_margin_mib, synth_cpu_setup (the synthetic circuits'
 * keys from the CPU setup: by default a CUDA backend makes them on the GPU,
 * without a host copy), gpu_workers_per_device = proving workers on
 * CUDA (one on the CPU), gpu_threads = host threads per proving worker (0 =
 * all CPUs);
 * [pipeline] max_gpu_queue_depth = synthesized partitions that may wait for
 * the prover (0: synthesis_lookahead + synthesis_concurrency); [memory]
 * total_budget (auto: MemTotal less safety_margin; an error naming the keys
 * when the margin leaves nothing) and eviction_min_idle, the engine's host
 * budget; [synthesis] throttle; [daemon] result_retention, verify_proofs,
 * max_message_size, shutdown_timeout, state_dir (the job journal; "" turns
 * it off; left at its default /var/lib/cuzk, $STATE_DIRECTORY is used
 * instead when systemd sets it), status_listen (HTTP /status and /metrics,
 * http_status.h; a warning where libmicrohttpd was not built in), tls_cert +
 * tls_key (TLS on the gRPC listener); [logging] level and format ("text" or
 * "json": one JSON object per line, util/log.h; TIMELINE lines are the same
 * in both). The other keys are read and not used yet (batching). */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/membudget.h"
#include "server/config.h"
#include "server/rpc_server.h"
#include "server/http_status.h"
#include "util/clock.h"
#include "util/log.h"

#define logf_(level, ...) cz_log(level, NULL, __VA_ARGS__)
/* the reason the daemon stops: printed at any log level, in the log's format */
#define fatal(...) cz_log(CZ_LOG_ERROR | CZ_LOG_ALWAYS, NULL, __VA_ARGS__)

/* config warnings come while the file is read, before the log's format is
 * known: kept here and logged once it is */
#define MAX_HELD 64
static char *g_held[MAX_HELD];
static int g_n_held;

static void on_warn(void *ctx, const char *text)
{
    (void)ctx;
    if (g_n_held < MAX_HELD) g_held[g_n_held++] = strdup(text);
}

/* the whole of a PEM file, NUL-terminated (malloc'ed), or NULL with msg */
static char *read_pem(const char *key, const char *path, char *msg, size_t msglen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msglen, "%s: cannot open %s: %s", key, path, strerror(errno));
        return NULL;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[4096];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            char *p = len + n > (1u << 20) ? NULL : realloc(buf, cap);
            if (!p) {
                snprintf(msg, msglen, "%s: %s is larger than 1 MiB or memory ran out", key, path);
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (buf) buf[len] = 0; /* before the search: it reads up to the NUL */
    if (!buf || !strstr(buf, "-----BEGIN ")) {
        snprintf(msg, msglen, "%s: %s is not a PEM file", key, path);
        free(buf);
        return NULL;
    }
    return buf;
}

static void usage(void)
{
    fprintf(stderr, "usage: cuzk-daemon [-c cuzk.toml] [-l ADDR] [--log-level trace|debug|info|warn|error|off]\n"
                    "  ADDR: unix:///path/to.sock (default from the config) or host:port\n");
}

/* unix:///abs/path, unix:relative/path -> path; NULL when not a unix address */
static const char *unix_path(const char *addr)
{
    if (strncmp(addr, "unix:", 5)) return NULL;
    const char *p = addr + 5;
    if (!strncmp(p, "//", 2)) p += 2;
    return p;
}

static int connect_unix(const char *path)
{
    struct sockaddr_un sa;
    if (strlen(path) >= sizeof sa.sun_path) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    memcpy(sa.sun_path, path, strlen(path));
    int r = connect(fd, (struct sockaddr *)&sa, sizeof sa);
    int err = errno;
    close(fd);
    errno = err;
    return r;
}

static int split_host_port(const char *addr, char *host, size_t hl, char *port, size_t pl)
{
    const char *a = addr;
    if (!strncmp(a, "dns:", 4)) a += 4;
    if (!strncmp(a, "ipv4:", 5)) a += 5;
    if (!strncmp(a, "ipv6:", 5)) a += 5;
    const char *colon;
    if (a[0] == '[') {
        const char *rb = strchr(a, ']');
        if (!rb || rb[1] != ':') return -1;
        snprintf(host, hl, "%.*s", (int)(rb - a - 1), a + 1);
        colon = rb + 1;
    } else {
        colon = strrchr(a, ':');
        if (!colon) return -1;
        snprintf(host, hl, "%.*s", (int)(colon - a), a);
    }
    snprintf(port, pl, "%s", colon + 1);
    return 0;
}

static int connect_tcp(const char *host, const char *port)
{
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    const char *h = (!*host || !strcmp(host, "0.0.0.0")) ? "127.0.0.1" : !strcmp(host, "::") ? "::1" : host;
    if (getaddrinfo(h, port, &hints, &res)) return -1;
    int ok = -1;
    for (struct addrinfo *ai = res; ai && ok; ai = ai->ai_next) {
        int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) continue;
        ok = connect(fd, ai->ai_addr, ai->ai_addrlen);
        close(fd);
    }
    freeaddrinfo(res);
    return ok;
}

static int is_loopback(const char *host)
{
    return !strcmp(host, "localhost") || !strncmp(host, "127.", 4) || !strcmp(host, "::1");
}

int main(int argc, char **argv)
{
    const char *cfg_path = NULL, *listen_opt = NULL, *level_opt = NULL;
    for (int i = 1; i < argc; i++) {
        if ((!strcmp(argv[i], "-c") || !strcmp(argv[i], "--config")) && i + 1 < argc) cfg_path = argv[++i];
        else if ((!strcmp(argv[i], "-l") || !strcmp(argv[i], "--listen")) && i + 1 < argc) listen_opt = argv[++i];
        else if (!strcmp(argv[i], "--log-level") && i + 1 < argc) level_opt = argv[++i];
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) { usage(); return 0; }
        else { usage(); return 2; }
    }
    char msg[1024];
    cz_config cfg;
    cz_config_defaults(&cfg);
    if (cfg_path && cz_config_load(&cfg, cfg_path, on_warn, NULL, msg, sizeof msg)) {
        fprintf(stderr, "cuzk-daemon: %s\n", msg);
        return 2;
    }
    if (listen_opt) snprintf(cfg.listen, sizeof cfg.listen, "%s", listen_opt);
    if (level_opt) snprintf(cfg.log_level, sizeof cfg.log_level, "%s", level_opt);
    int level = cz_log_level_of(cfg.log_level);
    if (level < 0) {
        fprintf(stderr, "cuzk-daemon: --log-level: unknown level %s\n", cfg.log_level);
        return 2;
    }
    cz_log_setup("cuzk-daemon", level, !strcmp(cfg.log_format, "json"), stderr);
    for (int i = 0; i < g_n_held; i++) {
        if (g_held[i]) logf_(3, "config: %s", g_held[i]);
        free(g_held[i]);
    }
    int tls = cfg.tls_cert[0] || cfg.tls_key[0];
    if (tls && !(cfg.tls_cert[0] && cfg.tls_key[0])) {
        fatal("daemon.tls_cert and daemon.tls_key: set both (TLS on) or neither (plain)");
        return 2;
    }
    char *tls_cert = NULL, *tls_key = NULL;
    if (tls && (!(tls_cert = read_pem("daemon.tls_cert", cfg.tls_cert, msg, sizeof msg)) ||
                !(tls_key = read_pem("daemon.tls_key", cfg.tls_key, msg, sizeof msg)))) {
        fatal("%s", msg);
        free(tls_cert);
        return 2;
    }

    /* the address: refuse one in use before anything starts */
    const char *upath = unix_path(cfg.listen);
    char host[512] = "", port[64] = "";
    if (upath) {
        struct stat st;
        if (!*upath) { fatal("listen: empty unix socket path"); return 2; }
        char parent[sizeof cfg.listen];
        snprintf(parent, sizeof parent, "%.*s", (int)sizeof parent - 1, upath);
        char *slash = strrchr(parent, '/');
        if (slash && slash != parent) *slash = 0;
        else snprintf(parent, sizeof parent, "%s", slash ? "/" : ".");
        if (stat(parent, &st) || !S_ISDIR(st.st_mode)) {
            fatal("cannot listen on %s: folder %s does not exist", cfg.listen, parent);
            return 1;
        }
        if (lstat(upath, &st) == 0) {
            if (!S_ISSOCK(st.st_mode)) {
                fatal("cannot listen on %s: %s exists and is not a socket", cfg.listen, upath);
                return 1;
            }
            if (connect_unix(upath) == 0) {
                fatal("cannot listen on %s: address in use (another process accepts there)",
                        cfg.listen);
                return 1;
            }
            unlink(upath); /* a stale socket file */
        }
    } else {
        if (split_host_port(cfg.listen, host, sizeof host, port, sizeof port)) {
            fatal("listen: %s is neither unix:///path nor host:port", cfg.listen);
            return 2;
        }
        if (!is_loopback(host) && !tls)
            logf_(3, "listening on %s, which is not loopback, without TLS: the API is unauthenticated, anyone "
                     "who reaches it can submit and cancel work (set [daemon] tls_cert and tls_key for TLS)",
                  cfg.listen);
    }

    /* signals: handled by sigwait on this thread; every thread made from here on inherits the mask */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGUSR1);
    sigaddset(&sigs, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    /* the host budget */
    uint64_t budget = cfg.total_budget_bytes;
    if (!budget) {
        uint64_t total = cz_mem_total_ram();
        if (!total) {
            fprintf(stderr, "cuzk-daemon: memory.total_budget = \"auto\": cannot read MemTotal from /proc/meminfo; "
                            "give a size such as \"256GiB\"\n");
            return 2;
        }
        if (!(budget = cz_mem_auto_budget(total, cfg.safety_margin_bytes))) {
            fprintf(stderr,
                    "cuzk-daemon: memory.safety_margin: %llu bytes leave nothing of this machine's %llu bytes "
                    "for memory.total_budget = \"auto\"\n",
                    (unsigned long long)cfg.safety_margin_bytes, (unsigned long long)total);
            return 2;
        }
    }
    /* the default state_dir: systemd's StateDirectory= when it set one */
    const char *sd_state = getenv("STATE_DIRECTORY");
    if (sd_state && *sd_state && !strcmp(cfg.state_dir, "/var/lib/cuzk")) {
        snprintf(cfg.state_dir, sizeof cfg.state_dir, "%.*s", (int)strcspn(sd_state, ":"), sd_state);
    }

    cz_engine_opts eo;
    cz_engine_opts_defaults(&eo);
    eo.mem_budget = budget;
    eo.eviction_min_idle_ms = cfg.eviction_min_idle_ms;
    eo.synthesis_throttle = cfg.synthesis_throttle;
    snprintf(eo.param_cache, sizeof eo.param_cache, "%s", cfg.param_cache);
    eo.synthesis_workers = cfg.synthesis_concurrency > 0 ? cfg.synthesis_concurrency : 1;
    eo.synthesis_threads = cfg.synthesis_threads; /* 0: none beside the worker itself */
    eo.prove_workers = 1;
    eo.prove_threads = cfg.gpu_threads;
    eo.backend = (cz_backend_kind)cfg.backend;
    /* [gpus] devices: the listed ones, or every device found (none: the
     * CPU under auto; backend cuda then fails to start, saying so) */
    eo.device = cfg.n_devices ? cfg.devices[0] : 0;
    eo.n_devices = cfg.n_devices;
    for (int i = 0; i < cfg.n_devices && i < CZ_ENGINE_MAX_DEVICES; i++) eo.devices[i] = cfg.devices[i];
    if (!cfg.n_devices && eo.backend != CZ_BACKEND_CPU) {
        int found = cz_backend_cuda_devices();
        eo.n_devices = found < CZ_ENGINE_MAX_DEVICES ? found : CZ_ENGINE_MAX_DEVICES;
        for (int i = 0; i < eo.n_devices; i++) eo.devices[i] = i;
    }
    eo.device_copies = cfg.device_copies;
    eo.device_fail_limit = cfg.device_fail_limit;
    eo.device_rest_ms = cfg.device_rest_ms;
    eo.vram_margin = cfg.vram_margin_bytes;
    eo.synth_cpu_setup = cfg.synth_cpu_setup;
    eo.no_h_copies = !cfg.h_copies;
    eo.gpu_workers = cfg.gpu_workers_per_device;
    eo.max_queue_depth = cfg.max_gpu_queue_depth > 0 ? cfg.max_gpu_queue_depth
                                                      : cfg.synthesis_lookahead + eo.synthesis_workers;
    eo.result_retention_ms = cfg.result_retention_ms;
    eo.verify_proofs = cfg.verify_proofs;
    eo.timeline = stderr;
    snprintf(eo.state_dir, sizeof eo.state_dir, "%s", cfg.state_dir);
    cz_engine *e;
    if (cz_engine_create(&e, &eo, msg, sizeof msg)) {
        fatal("%s%s", msg,
              eo.state_dir[0] && strstr(msg, "state_dir")
                  ? " (set [daemon] state_dir to a writable folder, or \"\" for no journal)"
                  : "");
        free(tls_cert);
        free(tls_key);
        return 1;
    }
    cz_rpc_opts ro = {.listen = cfg.listen, .max_message_bytes = cfg.max_message_bytes,
                      .verbose = cz_log_enabled(CZ_LOG_DEBUG), .tls_cert_pem = tls_cert, .tls_key_pem = tls_key};
    cz_rpc_server *srv;
    cz_err rpc_err = cz_rpc_start(&srv, e, &ro, msg, sizeof msg);
    free(tls_cert);
    free(tls_key);
    if (rpc_err) {
        fatal("%s", msg);
        cz_engine_destroy(e);
        return 1;
    }
    /* the HTTP status page: where it is not built, the daemon runs without it and says so */
    cz_http_server *http = NULL;
    char status_url[600] = "";
    if (cfg.status_listen[0]) {
        cz_err he = cz_http_start(&http, e, cfg.status_listen, msg, sizeof msg);
        if (he == CZ_ERR_UNSUPPORTED) {
            logf_(3, "status_listen = %s: %s", cfg.status_listen, msg);
        } else if (he) {
            fatal("%s", msg);
            cz_rpc_stop_accepting(srv);
            cz_rpc_cancel_all(srv);
            cz_engine_destroy(e);
            cz_rpc_destroy(srv);
            return 1;
        } else {
            char sh[512] = "", sp[64];
            if (split_host_port(cfg.status_listen, sh, sizeof sh, sp, sizeof sp)) sh[0] = 0;
            const char *shown_host = !sh[0] || !strcmp(sh, "0.0.0.0") ? "127.0.0.1" : !strcmp(sh, "::") ? "::1" : sh;
            snprintf(status_url, sizeof status_url, "http://%s%s%s:%d", strchr(shown_host, ':') ? "[" : "", shown_host,
                     strchr(shown_host, ':') ? "]" : "", cz_http_port(http));
            if (sh[0] && !is_loopback(sh))
                logf_(3, "status_listen = %s is not loopback: /status and /metrics are readable by anyone who "
                         "reaches it", cfg.status_listen);
        }
    }
    /* ready only once the socket accepts */
    char shown[600];
    snprintf(shown, sizeof shown, "%s", cfg.listen);
    if (!upath && !strcmp(port, "0")) { /* port 0: the one the system chose */
        snprintf(port, sizeof port, "%d", cz_rpc_port(srv));
        snprintf(shown, sizeof shown, "%s%s%s:%s", strchr(host, ':') ? "[" : "", host, strchr(host, ':') ? "]" : "", port);
    }
    int up = -1;
    for (int i = 0; i < 500 && up; i++) {
        up = upath ? connect_unix(upath) : connect_tcp(host, port);
        if (up) {
            struct timespec ts = {0, 10 * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
    if (up) {
        fatal("%s does not accept connections after 5 s", cfg.listen);
        cz_http_stop(http);
        cz_rpc_stop_accepting(srv);
        cz_rpc_cancel_all(srv);
        cz_engine_destroy(e);
        cz_rpc_destroy(srv);
        return 1;
    }
    if (upath && chmod(upath, 0660)) logf_(3, "chmod 0660 %s: %s", upath, strerror(errno));
    cz_engine_status est;
    cz_engine_get_status(e, &est);
    /* the device slots by name: "cuda:0 (NVIDIA H200)", or several joined by "; " */
    char devnames[1024];
    snprintf(devnames, sizeof devnames, "%s", est.backend);
    for (unsigned d = 1; d < est.n_devs; d++) {
        size_t at = strlen(devnames);
        snprintf(devnames + at, sizeof devnames - at, "; %s", est.devs[d].name);
    }
    if (cfg.n_devices && est.backend_kind != CZ_BACKEND_CUDA)
        logf_(3, "gpus.devices lists %d device(s) but the daemon proves on the CPU (%s): the list is not used",
              cfg.n_devices, cz_backend_cuda_built() ? "no CUDA device found" : "this build has no CUDA backend");
    logf_(2, "param_cache %s, %d synthesis worker(s), %u proving worker(s) on %s (%s threads each), verify_proofs %s",
          eo.param_cache, eo.synthesis_workers, est.n_workers, devnames, eo.prove_threads ? "configured" : "all CPU",
          eo.verify_proofs ? "on" : "off");
    logf_(2, "memory budget %llu bytes (%s), keys evicted under pressure after %llu ms idle, synthesis throttle %s, "
             "state_dir %s",
          (unsigned long long)eo.mem_budget, cfg.total_budget_bytes ? "configured" : "auto",
          (unsigned long long)eo.eviction_min_idle_ms, eo.synthesis_throttle ? "on" : "off",
          eo.state_dir[0] ? eo.state_dir : "(none)");
    printf("cuzk-daemon: ready, listening on %s (pid %d, backend %s%s%s%s)\n", shown, (int)getpid(), devnames,
           tls ? ", TLS" : "", status_url[0] ? ", status " : "", status_url);
    {
        char pid[24];
        snprintf(pid, sizeof pid, "%d", (int)getpid());
        cz_log(CZ_LOG_INFO,
               (const char *const[]){"listen", shown, "backend", devnames, "pid", pid, "tls", tls ? "1" : "0",
                                     "status_url", status_url, NULL},
               "ready, listening on %s%s%s%s", shown, tls ? " (TLS)" : "", status_url[0] ? ", status page " : "",
               status_url);
    }
    cz_engine_status_free(&est);
    fflush(stdout);

    for (;;) {
        int sig = 0;
        if (sigwait(&sigs, &sig)) continue;
        if (sig == SIGUSR1) { cz_engine_pause(e, 1); logf_(2, "dispatch paused (SIGUSR1)"); continue; }
        if (sig == SIGUSR2) { cz_engine_pause(e, 0); logf_(2, "dispatch resumed (SIGUSR2)"); continue; }
        logf_(2, "%s: stopping; waiting up to %llu ms for the jobs under way", sig == SIGTERM ? "SIGTERM" : "SIGINT",
              (unsigned long long)cfg.shutdown_timeout_ms);
        break;
    }
    cz_rpc_stop_accepting(srv);
    double t0 = cz_now_ms();
    unsigned left = 0;
    for (;;) {
        cz_engine_status st;
        cz_engine_get_status(e, &st);
        left = st.queued_jobs + st.running_jobs;
        cz_engine_status_free(&st);
        if (!left || cz_now_ms() - t0 >= (double)cfg.shutdown_timeout_ms) break;
        struct timespec ts = {0, 20 * 1000000L};
        nanosleep(&ts, NULL);
    }
    if (left) {
        logf_(3, "shutdown timeout: cancelling %u job(s)", left);
    } else { /* let the last answers go out, within what shutdown_timeout leaves */
        double rest = (double)cfg.shutdown_timeout_ms - (cz_now_ms() - t0);
        if (!cz_rpc_wait_calls(srv, rest > 0 ? (uint64_t)rest : 0))
            logf_(3, "shutdown timeout: cancelling the calls still open");
    }
    cz_http_stop(http); /* before the engine goes */
    cz_rpc_cancel_all(srv);
    cz_engine_destroy(e);
    cz_rpc_destroy(srv);
    if (upath) unlink(upath);
    logf_(2, "stopped");
    return 0;
}
