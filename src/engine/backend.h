/* backend.h — what a proving worker runs on (engine-internal).
 *
 * The engine owns n_workers proving threads; worker k calls
 * worker_init(b, k) once on its own thread, then prove() for each partition
 * it takes, then worker_fini(). Everything a worker needs across partitions
 * (a thread pool, a CUDA stream and its buffers) lives in its state. The
 * CPU backend is here now; the CUDA backend fills the same table (one
 * device per group of workers, a per-device kernel lock inside its state)
 * and the engine does not change. */
#ifndef CZ_ENGINE_BACKEND_H
#define CZ_ENGINE_BACKEND_H

#include "engine/circuit.h"

typedef struct cz_backend {
    const char *name;                    /* "cpu", "cuda" */
    unsigned n_workers;
    void *self;
    cz_err (*worker_init)(struct cz_backend *b, unsigned worker, void **state, char *msg, size_t msglen);
    void (*worker_fini)(struct cz_backend *b, unsigned worker, void *state);
    /* one partition: proof of w for circuit ci (loaded); t may be NULL */
    cz_err (*prove)(void *state, const cz_circuit *ci, const cz_fr *w, cz_groth16_proof *out, cz_groth16_timings *t,
                    char *msg, size_t msglen);
} cz_backend;

/* the CPU backend: n_workers workers with a pool of `threads` each (0 = one
 * per CPU) */
void cz__backend_cpu(cz_backend *b, unsigned n_workers, unsigned threads);

#endif
