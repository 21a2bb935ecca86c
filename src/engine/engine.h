/* engine.h — the proving engine: jobs, priority queues, per-partition
 * dispatch to synthesis and proving workers, the circuit (SRS) cache,
 * TIMELINE lines and counters. No gRPC in here: src/server wraps it.
 *
 * A job is one proof request. It is split into partitions; each partition
 * is synthesized (its witness made) by a synthesis worker, then proved by a
 * proving worker on the engine's backend (backend/backend.h: the CPU or a
 * CUDA device, opts.backend), then verified. The job ends
 * COMPLETED when every partition has a verified proof (the proofs are
 * concatenated in partition order), FAILED at the first failed partition,
 * or CANCELLED. Job states:
 *   queued -> synthesizing -> proving -> completed | failed | cancelled
 * (a job is "synthesizing" from its first partition's synthesis on, and
 * "proving" from its first partition's proof on).
 *
 * Circuits (what a request names, see circuit.h): GROTH16_GENERIC with a
 * circuit_id naming files in the parameter cache, or the synthetic
 * benchmark circuit `synth-<log2>-<partitions>`. The Filecoin kinds are
 * refused with CZ_ERR_UNSUPPORTED until their circuits exist.
 *
 * With opts.state_dir set, accepted jobs are journaled before
 * cz_engine_submit returns and read back by cz_engine_create: jobs that
 * had not ended run again (same job id and request_id), ended ones stay
 * until their retention is over (journal.h).
 *
 * Memory: with opts.mem_budget set, keys and partitions in flight share one
 * host-RAM budget (membudget.h gives the working-set formula); a partition
 * starts synthesis only when it fits, idle keys are evicted under pressure,
 * and a job whose partition (with its circuit's keys) is larger than the
 * whole budget fails at once with the sizes in its error. Big buffers are
 * freed on a background thread. cz_engine_get_status reports the budget,
 * use, peak and counters.
 *
 * Waiting: cz_engine_await blocks (tests, simple callers); cz_engine_watch
 * registers a callback run once when the job ends (servers). Results of
 * ended jobs stay for result_retention_ms and are then pruned.
 *
 * Every function is thread-safe. */
#ifndef CZ_ENGINE_ENGINE_H
#define CZ_ENGINE_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "backend/backend.h"
#include "util/err.h"

/* values as in proto/cuzk/v1/proving.proto */
enum {
    CZ_KIND_UNSPECIFIED = 0,
    CZ_KIND_POREP_SEAL_COMMIT = 1,
    CZ_KIND_SNAP_DEALS_UPDATE = 2,
    CZ_KIND_WINDOW_POST_PARTITION = 3,
    CZ_KIND_WINNING_POST = 4,
    CZ_KIND_GROTH16_GENERIC = 100,
};
enum { CZ_PRIO_UNSPECIFIED = 0, CZ_PRIO_LOW = 1, CZ_PRIO_NORMAL = 2, CZ_PRIO_HIGH = 3, CZ_PRIO_CRITICAL = 4 };

typedef enum {
    CZ_JOB_QUEUED = 0,
    CZ_JOB_SYNTHESIZING,
    CZ_JOB_PROVING,
    CZ_JOB_COMPLETED,
    CZ_JOB_FAILED,
    CZ_JOB_CANCELLED,
} cz_job_state;

/* engine errors beyond util/err.h's: an unknown job id */
#define CZ_ERR_NOT_FOUND (CZ_ERR__COUNT + 1)
/* await ran out of time (the job goes on) */
#define CZ_ERR_TIMEOUT (CZ_ERR__COUNT + 2)

#define CZ_JOB_ID_MAX 48
#define CZ_CIRCUIT_ID_MAX 128
/* devices one engine drives (device slots: every device in use, times
 * device_copies) */
#define CZ_ENGINE_MAX_DEVICES 64

typedef struct {
    char param_cache[4096];     /* folder of <circuit_id>.params/.pce/.vk/.zkey */
    int synthesis_workers;      /* threads that make witnesses (>= 1) */
    int synthesis_threads;      /* pool threads per synthesis worker for its data-parallel parts
                                 * (key loading, the witness check); 0 or 1 = none */
    int prove_workers;          /* proving workers on the CPU backend (>= 1) */
    int prove_threads;          /* host threads per proving worker (the CPU prover's pool, a CUDA
                                 * worker's host work and CPU fallback); 0 = one per CPU */
    int max_queue_depth;        /* synthesized partitions waiting for a prover (>= 1) */
    uint64_t result_retention_ms;
    int verify_proofs;
    FILE *timeline;             /* TIMELINE lines go here; NULL = none */
    char state_dir[4096];       /* the job journal (journal.h); "" = none */
    /* the proving backend: CZ_BACKEND_AUTO (CUDA where a device is found,
     * else the CPU), CPU or CUDA (cz_engine_create fails where it cannot
     * open, with the backend's message) */
    cz_backend_kind backend;
    int device;                 /* CUDA device index, when n_devices is 0 */
    /* CUDA: the devices to prove on, each with its own backend (its key
     * copies, VRAM budget, kernel lock) and gpu_workers proving workers,
     * all taking partitions from one queue; n_devices 0 = `device` alone.
     * Ignored where the backend opens as the CPU (one backend). */
    int devices[CZ_ENGINE_MAX_DEVICES];
    int n_devices;
    /* each device opened this many times (>= 1; default 1), as that many
     * device slots with their own workers, key copies and kernel locks,
     * sharing the device's one memory budget; on the CPU backend, that
     * many CPU backends. For testing the multi-device paths with one
     * device; n_devices * device_copies <= CZ_ENGINE_MAX_DEVICES. */
    int device_copies;
    uint64_t vram_margin;       /* CUDA: device bytes kept out of the budget; 0 = the backend's default */
    int gpu_workers;            /* proving workers per device on a CUDA backend; 0 = prove_workers */
    /* the synthetic circuits' keys: on a CUDA backend made on the GPU (no
     * host copy of their points, so no CPU fallback: circuit.h) unless this
     * is 1, which makes them with the CPU setup as on the CPU backend */
    int synth_cpu_setup;
    /* 1: a CUDA backend never makes window copies of a key's H bases
     * (backend.h's no_h_copies; 0, the default, makes them where the
     * device has room) */
    int no_h_copies;
    /* host memory (membudget.h): the budget in bytes for keys and partitions
     * in flight (0 = no limit), and how long a loaded key must have been idle
     * before memory pressure evicts it */
    uint64_t mem_budget;
    uint64_t eviction_min_idle_ms;
    /* 1: synthesis workers yield, between chunks, while a proving worker runs
     * its bandwidth-heavy host stage (the cooperative throttle); 0: off */
    int synthesis_throttle;
    /* a device slot whose last device_fail_limit partitions in a row failed
     * there (a device error, or a proof that did not verify) rests for
     * device_rest_ms: its workers take no partition while another slot is
     * not resting (while every slot rests, they all work). 0 = never rest.
     * Defaults 3 and 60 s. */
    int device_fail_limit;
    uint64_t device_rest_ms;
    /* tests only: a proving worker that has taken a partition waits, before
     * proving it, until this many partitions are taken at once (or the
     * engine stops), so a test can tell that partitions spread over every
     * worker and device; 0 = off */
    unsigned test_gather;
    /* tests only: slot test_fail_slot - 1 fails every partition with a
     * device error instead of proving it; slot -test_fail_slot - 1 returns
     * a wrong proof (A replaced by C), which fails verification (0 = off) */
    int test_fail_slot;
} cz_engine_opts;

/* defaults: 1 synthesis worker, 1 proving worker on all CPUs, queue depth 2,
 * 30 min retention, verify on, no timeline, param_cache ".", backend auto on
 * device 0, no memory limit (eviction after 5 min idle), throttle on, a
 * slot rested for 60 s after 3 failed partitions in a row */
void cz_engine_opts_defaults(cz_engine_opts *o);

typedef struct {
    const char *request_id;     /* "" or NULL: no idempotency */
    int proof_kind;
    int priority;               /* CZ_PRIO_*; UNSPECIFIED takes the kind's default */
    const char *circuit_id;
    /* the witness (generic) or seed (synthetic); one partition per entry
     * of payloads when n_payloads > 0, else one partition with payload */
    const uint8_t *payload;
    size_t payload_len;
    const uint8_t *const *payloads;
    const size_t *payload_lens;
    size_t n_payloads;
} cz_job_request;

typedef struct {
    char job_id[CZ_JOB_ID_MAX];
    cz_job_state state;
    uint8_t *proof;             /* malloc'ed, proof_len bytes (COMPLETED only) */
    size_t proof_len;
    char error[512];
    uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, prove_ms, total_ms;
} cz_job_result;

void cz_job_result_free(cz_job_result *r);

typedef struct cz_engine cz_engine;

cz_err cz_engine_create(cz_engine **out, const cz_engine_opts *o, char *msg, size_t msglen);
/* cancels what is left, joins every thread, frees everything */
void cz_engine_destroy(cz_engine *e);

/* Accepts a job. A request_id seen before whose job is queued, running or
 * completed (and not yet pruned) returns that job (*attached = 1); a failed
 * or cancelled one starts a new attempt. Errors: CZ_ERR_INVALID_ARG with
 * msg naming the field ("circuit_id: ..."), CZ_ERR_UNSUPPORTED for a kind
 * that is not implemented (a circuit whose files are missing is an
 * INVALID_ARG naming circuit_id too). queue_pos: jobs that start before
 * this one (0 when it is running). Either out pointer may be NULL. */
cz_err cz_engine_submit(cz_engine *e, const cz_job_request *r, char job_id[CZ_JOB_ID_MAX], uint32_t *queue_pos,
                        int *attached, char *msg, size_t msglen);

/* the job's current result (state may be non-terminal); CZ_ERR_NOT_FOUND */
cz_err cz_engine_result(cz_engine *e, const char *job_id, cz_job_result *out);

/* Waits until the job ends or timeout_ms passes (0 = forever); fills *out
 * either way. CZ_ERR_NOT_FOUND, CZ_ERR_TIMEOUT or CZ_OK. */
cz_err cz_engine_await(cz_engine *e, const char *job_id, uint64_t timeout_ms, cz_job_result *out);

/* A watch: cb(w) runs once on an engine thread (without engine locks held)
 * after the job ends, or at once on the calling thread when it has ended
 * already. The caller owns w and keeps it alive until cb has run or
 * cz_engine_unwatch returned 1. */
typedef struct cz_watch {
    void (*cb)(struct cz_watch *w);
    void *ctx;
    struct cz_watch *next;
    int armed;                  /* engine-private */
    char job_id[CZ_JOB_ID_MAX];
} cz_watch;
cz_err cz_engine_watch(cz_engine *e, const char *job_id, cz_watch *w);
/* 1: removed, cb will not run; 0: cb has run or is running */
int cz_engine_unwatch(cz_engine *e, cz_watch *w);

/* Cancels a job: a queued one ends at once, a running one stops at its next
 * stage boundary (and is reported CANCELLED at once). *was_running says
 * whether it had started. Cancelling an ended job changes nothing.
 * CZ_ERR_NOT_FOUND. */
cz_err cz_engine_cancel(cz_engine *e, const char *job_id, int *was_running);

/* paused = 1: no partition starts synthesis (the ones under way go on, and
 * jobs are still accepted); 0: dispatch resumes. For maintenance and for
 * tests that need jobs to stay queued. */
void cz_engine_pause(cz_engine *e, int paused);

/* loads a circuit's keys now; *already = 1 when they were loaded */
cz_err cz_engine_preload(cz_engine *e, const char *circuit_id, int *already, uint64_t *load_ms, char *msg,
                         size_t msglen);
/* drops a circuit's keys (now, or when its last running job ends) */
cz_err cz_engine_evict(cz_engine *e, const char *circuit_id, int *was_loaded, uint64_t *freed_bytes, char *msg,
                       size_t msglen);

/* ---- status ---- */
#define CZ_N_KINDS 6 /* index: cz_kind_index */
/* where a circuit's keys are (the values of cuzk.v1 SRSStatus.Tier) */
typedef enum { CZ_TIER_HOT = 0, CZ_TIER_WARM = 1, CZ_TIER_COLD = 2 } cz_tier;
const char *cz_tier_name(cz_tier t); /* "hot", "warm", "cold" */
typedef struct {
    char circuit_id[CZ_CIRCUIT_ID_MAX];
    int loaded;
    /* HOT: loaded and its points resident on the GPU (cz_be_key_resident);
     * WARM: loaded in host memory (the CPU backend; a CUDA key proved on the
     * CPU or streamed from the host); COLD: not loaded (on disk) */
    cz_tier tier;
    uint64_t size_bytes;
    unsigned ref_count;
    uint64_t partition_bytes;  /* one partition's working set (membudget.h); 0 until loaded */
} cz_srs_status;

typedef struct {
    char current_job[CZ_JOB_ID_MAX];
    int current_kind;
    uint64_t busy_ms;
    int device;                /* its device slot (cz_engine_status.devs) */
} cz_worker_status;

/* one device slot: a backend the engine proves on */
typedef struct {
    char name[160];            /* "cpu", "cuda:0 (NVIDIA H200)" (", copy 2" for a device_copies copy) */
    int ordinal;               /* the CUDA device index; -1 on the CPU */
    unsigned workers;          /* its proving workers */
    uint64_t proofs, cpu_fallbacks, busy_ms;
    uint64_t partitions, failed; /* proved (and verified) here; failed here (a device error, or a proof that
                                  * did not verify) */
    uint64_t vram_budget, vram_used, vram_peak; /* of the physical device (copies share it) */
    uint64_t rests;            /* times it was rested after device_fail_limit failures in a row */
    uint64_t resting_ms;       /* the rest left now (0: it takes partitions) */
} cz_device_status;

typedef struct {
    uint64_t uptime_ms;
    uint64_t completed, failed, cancelled;
    uint64_t completed_by_kind[CZ_N_KINDS], failed_by_kind[CZ_N_KINDS];
    unsigned pending_by_kind[CZ_N_KINDS], running_by_kind[CZ_N_KINDS];
    unsigned queued_jobs, running_jobs, queued_partitions, prove_queue_depth;
    unsigned watching;         /* watches armed (cz_engine_watch): calls waiting for a job to end */
    unsigned n_workers;
    cz_worker_status *workers; /* n_workers, malloc'ed */
    size_t n_srs;
    cz_srs_status *srs;        /* malloc'ed */
    /* proof durations (submit to end) of completed jobs: Prometheus buckets */
    uint64_t dur_bucket[CZ_N_KINDS][12]; /* by kind index: counts <= cz_engine_dur_bounds[i] seconds */
    double dur_sum_s[CZ_N_KINDS];
    uint64_t synth_ms_total, prove_ms_total;
    /* per partition: synthesis and prove (+ verify) times, Prometheus
     * buckets (counts <= cz_engine_stage_bounds[i] seconds), count, sum */
    uint64_t synth_bucket[12], prove_bucket[12], n_synth, n_prove, synth_sum_ms, prove_sum_ms;
    /* the backend: its name ("cpu", "cuda:0 (NVIDIA H200)"), kind
     * (CZ_BACKEND_CPU or CUDA), device, and cz_be_get_stats's figures */
    char backend[160];
    int backend_kind, device;
    uint64_t backend_proofs, cpu_fallbacks, vram_budget, vram_used, vram_peak;
    /* every device slot (the figures above are slot 0's, except
     * backend_proofs and cpu_fallbacks: all slots'); malloc'ed */
    unsigned n_devs;
    cz_device_status *devs;
    /* partitions put back in the queue for another slot after failing on one */
    uint64_t retries;
    /* host memory (membudget.h): the budget (0 = no limit), bytes accounted
     * now (keys + loads under way + partitions), the peak, the keys' share;
     * partitions that had to wait for room, keys evicted under pressure,
     * jobs failed because a partition exceeds the whole budget */
    uint64_t mem_budget, mem_used, mem_peak, mem_keys, mem_waits, mem_evictions, mem_refused;
    /* the background free thread: buffers freed, bytes given back, queued */
    uint64_t bg_frees, bg_freed_bytes, bg_queued;
    /* the synthesis throttle: on/off, checks made between chunks, checks that
     * found a host stage running and waited, and the time they waited */
    int throttle_enabled;
    uint64_t throttle_checks, throttle_waits, throttle_wait_ms;
} cz_engine_status;

extern const double cz_engine_dur_bounds[12];
extern const double cz_engine_stage_bounds[12];

cz_err cz_engine_get_status(cz_engine *e, cz_engine_status *out);
void cz_engine_status_free(cz_engine_status *s);

/* ---- the job list (for the HTTP /status page) ----
 * cz_engine_jobs: every job not yet ended, newest first, plus the
 * max_ended most recently submitted ended ones (retained until pruned),
 * each with its partitions' progress. The caller frees with
 * cz_engine_jobs_free. A partition goes queued -> synthesizing ->
 * waiting_gpu -> proving -> done, or failed (its stage failed) or dropped
 * (its job ended first; one a worker still holds reads synthesizing or
 * proving until that stage ends); synth_ms / prove_ms are its stage times once
 * known, worker the proving worker (-1 before one took it). */
enum { CZ_PART_QUEUED, CZ_PART_SYNTHESIZING, CZ_PART_WAITING_GPU, CZ_PART_PROVING, CZ_PART_DONE, CZ_PART_FAILED,
       CZ_PART_DROPPED };
typedef struct {
    int state;
    int worker;
    uint64_t synth_ms, prove_ms;
} cz_part_info;

typedef struct {
    char job_id[CZ_JOB_ID_MAX];
    char request_id[256];
    char circuit_id[CZ_CIRCUIT_ID_MAX];
    char error[512];
    int proof_kind, priority;
    cz_job_state state;
    uint32_t n_parts, parts_done;
    uint64_t age_ms, queue_wait_ms, total_ms, srs_load_ms, synthesis_ms, prove_ms;
    cz_part_info *parts;        /* n_parts entries, or NULL when not tracked */
} cz_job_info;

cz_err cz_engine_jobs(cz_engine *e, size_t max_ended, cz_job_info **out, size_t *n);
void cz_engine_jobs_free(cz_job_info *v, size_t n);
const char *cz_part_state_name(int state); /* "queued", ..., "dropped" */

int cz_kind_index(int kind);            /* 0..CZ_N_KINDS-1, -1 for an unknown kind */
int cz_kind_from_index(int index);
const char *cz_kind_name(int kind);     /* the reference's labels: "porep-c2", ..., ours "groth16-generic" */
const char *cz_job_state_name(cz_job_state s);
/* the priority a job of this kind gets when the request leaves it UNSPECIFIED */
int cz_kind_default_priority(int kind);

#endif
