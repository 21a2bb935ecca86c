/* config.h — the daemon's configuration: defaults, and a TOML file on top.
 *
 * The file has the reference engine's sections and keys, so that a file it
 * accepts starts this daemon too; config.c lists them with their formats and
 * defaults. cz_config_defaults fills every field; cz_config_parse overlays a
 * file's text on whatever the struct already holds, so the caller runs
 * defaults first and command-line flags after.
 *
 * An unknown section or key is not an error: warn(ctx, text) is called with a
 * line naming "section.key" and the line number, and parsing goes on. A value
 * of the wrong type or out of range is an error whose message names the key and
 * the line (CZ_ERR_INVALID_ARG; a TOML syntax error is CZ_ERR_PARSE). Sizes are
 * in bytes, durations in milliseconds; log_level is one of trace, debug, info,
 * warn, error, off and log_format is "text" or "json". gpu_workers_per_device,
 * synthesis_lookahead and synthesis_concurrency are at least 1 and a
 * max_parallel_synthesis of 0 reads as 18, as in the reference; backend is
 * "auto", "cpu" or "cuda" and vram_margin_mib at most 1 TiB (1048576). Fields may be added
 * at the end of the struct; existing ones keep their names. */
#ifndef CZ_SERVER_CONFIG_H
#define CZ_SERVER_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define CZ_CONFIG_MAX_DEVICES 64

typedef struct cz_config {
    /* [daemon] */
    char listen[512], status_listen[512], state_dir[4096], tls_cert[4096], tls_key[4096];
    uint64_t shutdown_timeout_ms, result_retention_ms, max_message_bytes;
    int verify_proofs;
    /* [srs] */
    char param_cache[4096];
    /* [memory] */
    uint64_t total_budget_bytes /* 0 = auto */, safety_margin_bytes, eviction_min_idle_ms;
    /* [gpus] */
    int devices[CZ_CONFIG_MAX_DEVICES];
    int n_devices /* 0 = all */;
    int gpu_threads, gpu_workers_per_device;
    /* [scheduler] */
    int max_batch_size, max_batch_wait_ms, sort_by_type;
    /* [synthesis] */
    int synthesis_threads;
    /* [pipeline] */
    int pipeline_enabled, synthesis_lookahead, synthesis_concurrency, max_parallel_synthesis,
        max_gpu_queue_depth;
    /* [logging] */
    char log_level[16], log_format[8];
    /* added after the first version */
    int pipeline_slot_size;   /* [pipeline] slot_size: a reference key, 0 = off */
    int synthesis_throttle;   /* [synthesis] throttle: ours, the cooperative throttle, default on */
    int backend;              /* [gpus] backend: ours, a cz_backend_kind ("auto", "cpu", "cuda"), default auto */
    uint64_t vram_margin_bytes; /* [gpus] vram_margin_mib: ours, device memory kept out of the
                                 * CUDA budget, default 512 MiB (0 reads as the default) */
    int synth_cpu_setup;      /* [gpus] synth_cpu_setup: ours, the synthetic circuits' keys from the CPU
                               * setup on a CUDA backend too (default false: made on the GPU) */
    int h_copies;             /* [gpus] h_copies: ours, window copies of a key's H bases on a CUDA
                               * device where it has room (default true; false: never) */
    int device_copies;        /* [gpus] device_copies: ours, each device opened this many times as as many
                               * device slots sharing its memory (tests of the multi-device paths on one
                               * device), default 1 */
    int device_fail_limit;    /* [gpus] device_fail_limit: ours, failed partitions in a row after which a
                               * device rests (0 = never), default 3 */
    uint64_t device_rest_ms;  /* [gpus] device_rest: ours, how long it rests, default 60 s */
} cz_config;

/* every field to its documented default */
void cz_config_defaults(cz_config *c);

/* Overlays the TOML text on *c. warn may be NULL. On failure *c may be partly
 * updated and msg says which key on which line was wrong. */
cz_err cz_config_parse(cz_config *c, const char *text, size_t len,
                       void (*warn)(void *ctx, const char *text), void *ctx, char *msg,
                       size_t msglen);

/* reads path and calls cz_config_parse; messages are prefixed with the path */
cz_err cz_config_load(cz_config *c, const char *path, void (*warn)(void *ctx, const char *text),
                      void *ctx, char *msg, size_t msglen);

#endif
