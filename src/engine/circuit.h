/* circuit.h — the circuits a job can name, and the cache that keeps their
 * keys loaded between jobs (the "SRS cache"; engine-internal).
 *
 * A circuit_id is resolved, without reading the files, to one of:
 *   CZ_CIRC_PARAMS  <dir>/<id>.params + <dir>/<id>.pce (+ <id>.vk, used for
 *                   the self-check when present; else the vk in .params)
 *   CZ_CIRC_ZKEY    <dir>/<id>.zkey (a snarkjs key)
 *   CZ_CIRC_SYNTH   "synth-<log2>-<partitions>": the synthetic circuit of
 *                   circuits/synth.h with 2^log2 - 4 constraints (domain
 *                   2^log2), keys from the INSECURE seeded test setup,
 *                   made in memory on first use. Benchmark-only. Its cache
 *                   key is "synth-<log2>" (every partition count shares it).
 *                   On a CUDA backend the key is made on the GPU
 *                   (cz_be_setup_insecure: the same key for the same seed)
 *                   and adopted there: its points have NO HOST COPY (the
 *                   host keeps the vk, the sizes and the constraint system),
 *                   so the circuit has no CPU fallback and a partition the
 *                   device cannot prove fails with a message saying so.
 *                   The cache's synth_cpu_setup = 1 makes it on the CPU
 *                   (and uploads it) as on the CPU backend. The key is
 *                   loaded with the generator's bit map, and partition i
 *                   proves the witness of witness_seed 1 + i, made in the
 *                   compact form without the constraint system
 *                   (cz__circuit_witness).
 * A circuit_id that is not a plain file name (a '/', "..", a leading '.',
 * control characters, more than 100 bytes) is refused.
 *
 * Each cache entry holds a reference count (jobs holding it), a loaded flag
 * and, while one thread loads it, a loading flag the others wait on (they
 * wait on the cache's condition variable). A loaded entry holds its host
 * keys (pk + cs, or the zkey) and their key in the engine's proving backend
 * (bk, one reference, backend/backend.h: for CUDA the device-resident copy),
 * loaded right after the host keys and released before them. Loading and
 * freeing run without the cache lock held. An evicted entry in use is freed
 * when its last holder releases it; a partition being proved holds its job's
 * reference, so a key is never released under a prove.
 *
 * Lock order: the engine lock, if held, before the cache lock. The
 * backend's locks (backend.c: load_mu, then mu) are taken only with the
 * cache lock not held: cz_be_load by the loading thread with no lock held,
 * cz_be_release by whoever frees the entry, which may hold the engine lock
 * (the last cz__cache_release of an evicted entry runs under it) and may
 * then wait for another circuit's device upload to finish. The backend
 * never calls back into the engine or the cache, so no cycle exists. */
#ifndef CZ_ENGINE_CIRCUIT_H
#define CZ_ENGINE_CIRCUIT_H

#include <pthread.h>
#include <stdint.h>

#include "backend/backend.h"
#include "backend/wbits.h"
#include "circuits/synth.h"
#include "engine/engine.h"
#include "engine/membudget.h"
#include "formats/zkey.h"
#include "groth16/groth16.h"
#include "r1cs/r1cs.h"
#include "util/pool.h"

typedef enum { CZ_CIRC_PARAMS, CZ_CIRC_ZKEY, CZ_CIRC_SYNTH } cz_circuit_type;

#define CZ_SYNTH_MIN_LOG2 5
#define CZ_SYNTH_MAX_LOG2 30
#define CZ_SYNTH_MAX_PARTITIONS 1024
#define CZ_SYNTH_PUBLIC 3

typedef struct cz_circuit {
    char key[CZ_CIRCUIT_ID_MAX];
    cz_circuit_type type;
    int log2;                 /* synthetic only */
    unsigned refs;
    int loaded, loading, evict_pending; /* cache lock */
    int on_device;            /* loaded with its points resident on the GPU (cache lock) */
    uint64_t last_used_ms;    /* cache lock */
    /* size_bytes and the loaded data below are written without the lock by
     * the thread that set loading (a load or an unload): others read them
     * only while loaded && !loading, or through acct_bytes */
    uint64_t size_bytes;
    /* loaded data */
    cz_r1cs cs;               /* PARAMS: mapped .pce; SYNTH: heap */
    cz_groth16_pk pk;         /* PARAMS, SYNTH */
    cz_zkey zk;               /* ZKEY */
    cz_groth16_pvk pvk;
    cz_be_key *bk[CZ_ENGINE_MAX_DEVICES];  /* the keys in the cache's backends, bk[d] in be[d] */
    void *dev_pk[CZ_ENGINE_MAX_DEVICES];   /* SYNTH on CUDA: the key's points, made on device d
                                            * (cz_be_setup_insecure; pk then holds the vk and lengths
                                            * only); freed after bk[d]'s release */
    uint64_t dev_key_bytes;   /* their device bytes on one device */
    uint64_t n_vars, n_inputs;
    cz_wbits_map bits;        /* SYNTH: the generator's bit map (cz_synth_bit_mask), loaded into bk with the
                               * key, so its partitions' witnesses are compact (wbits.h); mask NULL: full */
    uint64_t wit_len;         /* Fr in one partition's witness: cz_wbits_len(&bits), else n_vars */
    cz_mem_ws ws;             /* one partition's working set (membudget.h), set by the load */
    uint64_t acct_bytes;      /* size_bytes while loaded, as the budget counts it (cache lock) */
    /* the engine's, under its lock: partitions admitted and not yet
     * released, and the estimate it reserved for a load under way */
    unsigned active;
    uint64_t key_reserved;
    struct cz_circuit *next;
} cz_circuit;

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    cz_circuit *head;
    cz_be *be[CZ_ENGINE_MAX_DEVICES]; /* where loaded keys go: every one of them (set before the first
                                       * load; all CUDA, or one CPU backend) */
    unsigned n_be;
    int synth_cpu_setup;      /* 1: synthetic keys from the CPU setup even on a CUDA backend */
    int synth_full_witness;   /* 1: synthetic keys without their bit map, so full witnesses (for tests and
                               * comparisons; set before the first load) */
    char dir[4096];
} cz_circuit_cache;

/* be (may be NULL: set be[] and n_be before the first load) becomes be[0] */
void cz__cache_init(cz_circuit_cache *c, const char *dir, cz_be *be);
void cz__cache_destroy(cz_circuit_cache *c);

/* checks the id's syntax (msg starts "circuit_id: "); for a synthetic id
 * fills *log2 and *partitions, else sets *partitions = 0 */
cz_err cz__circuit_check_id(const char *id, cz_circuit_type *type, int *log2, int *partitions, char *msg,
                            size_t msglen);
/* resolves id (finding its files: CZ_ERR_INVALID_ARG naming circuit_id if there
 * are none) and
 * takes a reference to its entry, creating it unloaded if new */
cz_err cz__cache_acquire(cz_circuit_cache *c, const char *id, cz_circuit **out, char *msg, size_t msglen);
void cz__cache_release(cz_circuit_cache *c, cz_circuit *ci);
/* loads ci's keys unless loaded (the files, then into the backend);
 * *load_ms: time spent here (0 if loaded);
 * *already (may be NULL) = 1 when nothing had to be loaded */
cz_err cz__cache_load(cz_circuit_cache *c, cz_circuit *ci, cz_pool *pool, uint64_t *load_ms, int *already, char *msg,
                      size_t msglen);
/* drops the keys of the entry named id (or marks it for dropping) */
cz_err cz__cache_evict(cz_circuit_cache *c, const char *id, int *was_loaded, uint64_t *freed, char *msg,
                       size_t msglen);
/* 1 when ci is loaded and no load or unload of it is under way */
int cz__cache_ready(cz_circuit_cache *c, cz_circuit *ci);
/* bytes of the loaded entries (their acct_bytes) */
uint64_t cz__cache_accounted(cz_circuit_cache *c);
/* Memory pressure: claims one loaded entry other than `exclude` that no
 * partition uses (active == 0, read under the engine lock the caller holds),
 * no load is reserved for, and that has been idle (last released or loaded)
 * for at least min_idle_ms; NULL when there is none. The claimed entry is
 * marked loading, so nobody else loads or frees it until the caller runs
 * cz__cache_unload_claimed (with no lock held). */
cz_circuit *cz__cache_claim_idle(cz_circuit_cache *c, uint64_t min_idle_ms, const cz_circuit *exclude);
/* frees a claimed entry's keys; returns the bytes freed */
uint64_t cz__cache_unload_claimed(cz_circuit_cache *c, cz_circuit *ci);
/* what loading ci will take, before it is loaded: the file sizes (.params +
 * .pce, or .zkey), or for the synthetic circuit of 2^log2 rows 2^log2 *
 * CZ_SYNTH_KEY_BYTES_PER_ROW (its keys and system measured 477 bytes a row
 * at 2^10 and 2^11), or with its key made on the GPU (nothing of the key's
 * points on the host) 2^log2 * CZ_SYNTH_DEVKEY_BYTES_PER_ROW: the system
 * (about 56 bytes a row) and the setup's scalars while it runs ((m + 3
 * n_vars) * 32, about 128 bytes a row): an estimate the real size replaces
 * once loaded */
#define CZ_SYNTH_KEY_BYTES_PER_ROW 480
#define CZ_SYNTH_DEVKEY_BYTES_PER_ROW 192
uint64_t cz__circuit_key_estimate(cz_circuit_cache *c, const cz_circuit *ci);
/* a malloc'ed snapshot of the entries */
size_t cz__cache_snapshot(cz_circuit_cache *c, cz_srs_status **out);

/* what a synthesis lets its caller do (each may be NULL): yield(ctx) is
 * called between chunks of a long synthesis (the synthetic generator's
 * 2^20-row chunks, and once at its end), where the engine's throttle may
 * hold it; defer_free(ctx, p, fn) takes over a synthesis scratch, to be
 * freed by fn(p) on the background free thread (without it the scratch is
 * freed before cz__circuit_witness returns). No circuit has such a scratch
 * now: the synthetic witness is made without its constraint system, and a
 * generic one is parsed straight into w. */
typedef struct {
    void (*yield)(void *ctx);
    void (*defer_free)(void *ctx, void *p, void (*fn)(void *));
    void *ctx;
} cz_synth_hooks;

/* the generator parameters of partition `partition` of the synthetic
 * circuit of 2^log2 rows: 2^log2 - 4 constraints, CZ_SYNTH_PUBLIC inputs,
 * seed 1 (the keys' system), witness_seed 1 + partition: each partition
 * proves another witness of the one system, so its public inputs differ
 * (a verifier outside the engine makes them with cz_synth_witness from
 * these parameters); no progress hook */
void cz__circuit_synth_params(int log2, uint32_t partition, cz_synth_params *sp);

/* the witness of partition `partition`: parses payload (.wtns or
 * witness.bin) for a file circuit, checking it against the circuit (and,
 * with a .pce, against every constraint), or makes the synthetic witness
 * (cz__circuit_synth_params; payload ignored) in one pass of the generator
 * without its constraint system: compact (cz_synth_witness_compact, the
 * layout of wbits.h) when ci->bits has a mask, else full (cz_synth_witness).
 * *w: ci->wit_len values (free()), public inputs at w[1..n_inputs-1] in
 * either form (ONE and the inputs are never bits, so they open the compact
 * form too). ci must be loaded. hooks may be NULL. */
cz_err cz__circuit_witness(const cz_circuit *ci, uint32_t partition, const uint8_t *payload, size_t len, cz_fr **w,
                           cz_pool *pool, const cz_synth_hooks *hooks, char *msg, size_t msglen);
/* cheap checks of a generic payload's header at submit time (msg names the
 * field given) */
cz_err cz__payload_check(const uint8_t *payload, size_t len, const char *field, char *msg, size_t msglen);
/* proves one partition with fresh randomness on a worker of the cache's
 * backend be[dev] (ci loaded and held); w as cz__circuit_witness made it
 * (compact, through cz_be_prove_bits, when ci->bits has a mask) */
cz_err cz__circuit_prove(const cz_circuit *ci, unsigned dev, cz_be_worker *bw, const cz_fr *w, cz_groth16_proof *out,
                         cz_groth16_timings *t, char *msg, size_t msglen);
/* 1 if the proof verifies against the circuit's vk and the public inputs
 * w[1..n_inputs-1] of the witness it was made from (either form) */
int cz__circuit_verify(const cz_circuit *ci, const cz_groth16_proof *p, const cz_fr *w);

#endif
