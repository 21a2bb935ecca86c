/* membudget.h — the engine's host-RAM budget: what a partition's working
 * set is, and the accounting that admits it (engine-internal).
 *
 * One budget (bytes; 0 = no limit) covers everything big the engine holds
 * in host memory:
 *   keys:   the loaded circuits' keys and constraint systems (the cache's
 *           entries, their size_bytes), plus an estimate reserved for each
 *           load under way until the real size is known;
 *   parts:  the working sets of the partitions admitted to synthesis and
 *           not yet released.
 * used = keys + pending key loads + parts; peak is the largest used seen.
 *
 * A partition's working set (cz_mem_ws) has three parts:
 *   witness  W = the witness as the prover takes it: n_vars * 32 bytes (the
 *              full assignment, Montgomery Fr), or for a circuit with a bit
 *              map (the synthetic one) the compact form of backend/wbits.h,
 *              cz_wbits_bytes (32 per field value + one bit per bit);
 *   synth    S = scratch of the synthesis itself: 0 for every circuit now
 *              (the synthetic witness is written straight into W by one
 *              pass of its generator, whose state is a few KiB; a generic
 *              witness is parsed straight into W). The field stays for a
 *              circuit whose synthesis needs one;
 *   prove    P = host scratch of the prove: on the CPU, a, b, c over the
 *              domain (3 * 2^k * 32 bytes, 2^k = the proving domain) plus
 *              two density bitmaps (2 * ceil(n_vars / 64) * 8), plus, for a
 *              compact witness, its expansion to n_vars * 32 bytes (in the
 *              worker, which keeps that buffer for its next partition); 0
 *              for a key resident on a CUDA device (its scratch is in VRAM,
 *              the device expands a compact witness, and the worker's
 *              pinned buffers are fixed per worker).
 * Admission reserves W + max(S, P). Release is in two steps: when the
 * witness is handed to the prover (synthesis over, S freed) the reservation
 * drops to W + P (step 1 gives back max(S, P) - P); after the proof (and its
 * check) the rest, W + P, goes (step 2). A partition is refused outright,
 * never queued forever, when W + max(S, P) plus its own circuit's keys
 * exceed the whole budget.
 *
 * The functions here do arithmetic only and take no lock: the engine calls
 * them under its own lock (engine.c). */
#ifndef CZ_ENGINE_MEMBUDGET_H
#define CZ_ENGINE_MEMBUDGET_H

#include <stdint.h>

typedef struct {
    uint64_t witness, synth, prove;
} cz_mem_ws;

/* W + max(S, P): what admission reserves */
uint64_t cz_mem_ws_total(const cz_mem_ws *ws);
/* max(S, P) - P: what step 1 gives back */
uint64_t cz_mem_ws_step1(const cz_mem_ws *ws);
/* W + P: what step 2 gives back */
uint64_t cz_mem_ws_step2(const cz_mem_ws *ws);

typedef struct {
    uint64_t budget;        /* 0 = no limit */
    uint64_t parts;         /* admitted partitions' reservations */
    uint64_t keys;          /* loaded keys (the cache's accounted bytes) */
    uint64_t keys_pending;  /* estimates reserved for loads under way */
    uint64_t peak;
    uint64_t admitted, released_bytes;
} cz_mem;

void cz_mem_init(cz_mem *m, uint64_t budget);
uint64_t cz_mem_used(const cz_mem *m);
/* 1 when n more bytes fit (always with no limit) */
int cz_mem_fits(const cz_mem *m, uint64_t n);
/* reserves n bytes for a partition (the caller has checked cz_mem_fits) */
void cz_mem_take(cz_mem *m, uint64_t n);
/* gives back n bytes of partition reservations (never below 0) */
void cz_mem_give(cz_mem *m, uint64_t n);
/* a key load's estimate: reserve (+n) or drop (-n) */
void cz_mem_pending(cz_mem *m, uint64_t add, uint64_t sub);
/* the loaded keys' bytes as the cache now counts them */
void cz_mem_set_keys(cz_mem *m, uint64_t keys);

/* "auto": total - margin; 0 when the margin leaves nothing */
uint64_t cz_mem_auto_budget(uint64_t total, uint64_t margin);
/* MemTotal of /proc/meminfo in bytes, 0 when it cannot be read */
uint64_t cz_mem_total_ram(void);

#endif
