/* backend.h — what proves a partition: one interface, implemented by the
 * CPU code (groth16/prover.c, prover_zkey.c) and by CUDA (src/cuda/prover.cu).
 *
 * A backend (cz_be) is one place to prove: the CPU, or one CUDA device. It
 * holds the circuits loaded into it (cz_be_key: for CUDA the proving key in
 * device layout and the constraint system, resident in VRAM until the last
 * reference is released; loading the same circuit again returns the same key
 * with one more reference). A worker (cz_be_worker) is one proving thread's
 * state on it (CPU: a thread pool; CUDA: streams, pinned host buffers and
 * the device scratch, reused from one partition to the next). A worker is
 * used by one thread at a time; a backend and its keys by any number of
 * workers at once.
 *
 * Circuits come in the two forms the provers take:
 *   bellperson: pk + cs (a .params key and its .pce, or the test setup's);
 *   snarkjs:    zpk (a .zkey key; its A/B rows are in zpk->qap).
 * The caller keeps them alive and unchanged while a key made from them is
 * loaded: the CPU backend proves from them directly, and the CUDA backend
 * falls back to them (proving on the CPU, with a warning on stderr) for a
 * partition that does not fit in device memory or meets a CUDA error. A
 * key made on the device (cz_be_setup_insecure, cz_be_circuit.dev_pk) has
 * no host copy of its points and no such fallback: such a partition fails
 * with an error that says so, and loading a pk without its query arrays
 * anywhere but on a device is refused.
 *
 * Proofs are bit-identical between backends for the same witness and r, s.
 * Callers verify proofs as before (the engine, the CLI); the backend does not.
 *
 * Without a CUDA build (or where no device is present) CZ_BACKEND_CUDA fails
 * to open with CZ_ERR_UNSUPPORTED / CZ_ERR_DEVICE and a message saying why,
 * and CZ_BACKEND_AUTO opens the CPU; so does AUTO where a device is present
 * but the CUDA backend fails to open on it (with a warning on stderr unless
 * quiet). */
#ifndef CZ_BACKEND_BACKEND_H
#define CZ_BACKEND_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "backend/wbits.h"
#include "groth16/groth16.h"
#include "r1cs/r1cs.h"
#include "util/err.h"

typedef enum { CZ_BACKEND_AUTO = 0, CZ_BACKEND_CPU = 1, CZ_BACKEND_CUDA = 2 } cz_backend_kind;

/* "auto", "cpu", "cuda" -> kind; anything else is CZ_ERR_INVALID_ARG naming
 * the choices */
cz_err cz_backend_parse(const char *s, cz_backend_kind *out, char *msg, size_t msglen);
const char *cz_backend_kind_name(cz_backend_kind k);
/* 1 when this build has the CUDA backend */
int cz_backend_cuda_built(void);
/* CUDA devices this process sees (0 without a CUDA build, driver or device) */
int cz_backend_cuda_devices(void);

typedef struct {
    cz_backend_kind kind;
    int device;            /* CUDA device index (default 0) */
    unsigned threads;      /* host threads per worker: CPU proving, and the
                            * CUDA worker's host work and CPU fallback; 0 = one
                            * per CPU */
    uint64_t vram_margin;  /* CUDA: device bytes kept out of the budget;
                            * 0 = CZ_BE_VRAM_MARGIN_DEFAULT */
    int quiet;             /* no warnings on stderr */
    int no_h_copies;       /* CUDA: never make window copies of a key's H
                            * bases (made by default where the device has
                            * room: docs/GPU_PROVER.md; CZ_PROVER_H_COPIES=0
                            * in the environment does the same) */
    /* called with on = 1 before and on = 0 after each partition proved on
     * the host (the CPU backend, and a CUDA backend's CPU fallback): the
     * bandwidth-heavy host stage the engine's synthesis throttle watches;
     * may be NULL; on CUDA also around the host-side copy of each witness
     * into the pinned staging buffers. Runs on the proving thread, possibly
     * with the device's kernel lock held: it must not call the backend. */
    void (*host_stage)(void *ctx, int on);
    void *host_stage_ctx;
} cz_backend_opts;

#define CZ_BE_VRAM_MARGIN_DEFAULT ((uint64_t)512 << 20)

typedef struct cz_be cz_be;
typedef struct cz_be_key cz_be_key;
typedef struct cz_be_worker cz_be_worker;

cz_err cz_be_open(cz_be **out, const cz_backend_opts *o, char *msg, size_t msglen);
void cz_be_close(cz_be *b); /* releases every key; no worker may remain */
cz_backend_kind cz_be_kind(const cz_be *b);
/* "cpu" or "cuda:0 (NVIDIA H200)" */
const char *cz_be_name(const cz_be *b);

typedef struct {
    const cz_groth16_pk *pk;   /* bellperson: pk and cs */
    const cz_r1cs *cs;
    const cz_groth16_zpk *zpk; /* snarkjs */
    /* CUDA only: a bellperson key already in device memory (a
     * cz_cuda_pk_dev, from the GPU setup), adopted as it is, with pk
     * giving its vk (pk's query arrays may then be NULL: no CPU fallback);
     * the caller frees it after the last release */
    const void *dev_pk;
    /* the circuit's bit map (wbits.h), or NULL: variables that are 0 or 1
     * in every witness of the circuit, as the circuit itself says (its
     * recording or generator, never guessed from a witness). With it the
     * key also takes compact witnesses (cz_be_prove_bits); a CUDA key keeps
     * the map in device memory with the rest. Kept alive by the caller. */
    const cz_wbits_map *bits;
} cz_be_circuit;

/* loads c (a no-op with one more reference if the same c is loaded) */
cz_err cz_be_load(cz_be *b, const cz_be_circuit *c, cz_be_key **out, char *msg, size_t msglen);
void cz_be_release(cz_be *b, cz_be_key *k);
/* device bytes the key holds resident (0 on the CPU, or where it did not
 * fit and is proved on the CPU) */
uint64_t cz_be_key_device_bytes(const cz_be_key *k);
/* 1 when the key's points are resident in device memory, ready for a
 * partition (the HOT tier); 0 on the CPU backend, for a key a CUDA backend
 * proves on the CPU (it did not fit), and for one whose points a CUDA
 * backend streams from host memory for every partition */
int cz_be_key_resident(const cz_be_key *k);

/* The insecure seeded test setup made on the backend's device, for a CUDA
 * backend: the same key as cz_groth16_setup_insecure (groth16.h) for the
 * same cs and seed, bit for bit, but its points exist only in device
 * memory. pk gets the vk (heap-owned ic) and the five query lengths; its
 * query arrays stay NULL, so the key has NO HOST COPY: loaded with
 * cz_be_circuit.dev_pk = *dev_pk it is proved on the device only, and a
 * partition the device cannot prove fails with a message saying so
 * instead of falling back to the CPU. *dev_pk is freed with
 * cz_be_dev_pk_free after the last release of a key loaded from it; *dev_bytes
 * (may be NULL) gets its device bytes. Host memory: the setup's scalars,
 * (m + 3 n_vars) * 32 bytes for a domain of m, during the call only.
 * CZ_ERR_UNSUPPORTED on another backend; CZ_ERR_NOMEM when the key does not
 * fit the device budget. INSECURE: tests and benchmarks only. */
cz_err cz_be_setup_insecure(cz_be *b, cz_groth16_pk *pk, void **dev_pk, uint64_t *dev_bytes, const cz_r1cs *cs,
                            uint64_t seed, cz_pool *pool, char *msg, size_t msglen);
void cz_be_dev_pk_free(cz_be *b, void *dev_pk);
/* a copy of a device key that cz_be_setup_insecure made (on this backend's
 * device or another's) in this backend's device memory, device to device
 * (peer to peer where the devices allow it), so every device of an engine
 * holds the key without running the setup again; freed with
 * cz_be_dev_pk_free on this backend. CZ_ERR_UNSUPPORTED on the CPU,
 * CZ_ERR_NOMEM when it does not fit the budget. */
cz_err cz_be_dev_pk_clone(cz_be *b, const void *src, void **dev_pk, char *msg, size_t msglen);

cz_err cz_be_worker_create(cz_be *b, cz_be_worker **out, char *msg, size_t msglen);
void cz_be_worker_destroy(cz_be_worker *w);
/* a host buffer of n values that this worker uploads fastest (pinned memory
 * on CUDA, allocated once and reused: the same buffer until a larger n is
 * asked for); NULL when out of memory. Valid until the next call or the
 * worker's destruction. */
cz_fr *cz_be_worker_buffer(cz_be_worker *w, size_t n);
/* stage reports of this worker's proofs made on the CPU (the CPU backend,
 * or a device backend's fallback), as cz_groth16_prove_progress gives them;
 * a device proof (well under a second a stage) reports none. fn NULL: none
 * (the default). Called on the proving thread. */
void cz_be_worker_set_progress(cz_be_worker *w, cz_progress_fn fn, void *ctx);

/* proves one partition: witness w (n_vars values, Montgomery, w[0] = 1; a
 * host array, best the worker's buffer), randomness r, s; t (may be NULL)
 * gets the per-stage times. */
cz_err cz_be_prove(cz_be_worker *w, cz_be_key *k, const cz_fr *wit, const cz_fr *r, const cz_fr *s,
                   cz_groth16_proof *out, cz_groth16_timings *t, char *msg, size_t msglen);

/* the same with the witness in compact form (wbits.h): compact holds
 * cz_wbits_len(map) Fr in the layout of the key's bit map (the circuit's
 * `bits`; CZ_ERR_INVALID_ARG when it has none), best in the worker's buffer
 * (cz_be_worker_buffer(w, cz_wbits_len(map))). On CUDA only the compact
 * form crosses PCIe and the device expands it (t->h2d_bytes says so); the
 * CPU, and a CUDA backend's CPU fallback, expand it on the host. The proof
 * is the same bytes as cz_be_prove's of the full witness. */
cz_err cz_be_prove_bits(cz_be_worker *w, cz_be_key *k, const cz_fr *compact, const cz_fr *r, const cz_fr *s,
                        cz_groth16_proof *out, cz_groth16_timings *t, char *msg, size_t msglen);

typedef struct {
    uint64_t proofs, cpu_fallbacks; /* proofs made; of them, proved on the CPU by a CUDA backend */
    uint64_t vram_budget, vram_used, vram_peak;
} cz_be_stats;
void cz_be_get_stats(cz_be *b, cz_be_stats *st);

#endif
