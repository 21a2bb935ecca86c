/* backend_cpu.c — the CPU proving backend: each worker owns a thread pool
 * and proves with the reference prover (groth16/prover.c, prover_zkey.c). */
#include "engine/backend.h"

#include <stdint.h>

static cz_err cpu_init(cz_backend *b, unsigned worker, void **state, char *msg, size_t msglen)
{
    (void)worker;
    cz_pool *pool;
    cz_err e = cz_pool_create(&pool, (unsigned)(uintptr_t)b->self);
    if (e) return cz_fail(e, msg, msglen, "cannot start the proving thread pool");
    *state = pool;
    return CZ_OK;
}

static void cpu_fini(cz_backend *b, unsigned worker, void *state)
{
    (void)b, (void)worker;
    cz_pool_destroy(state);
}

static cz_err cpu_prove(void *state, const cz_circuit *ci, const cz_fr *w, cz_groth16_proof *out,
                        cz_groth16_timings *t, char *msg, size_t msglen)
{
    return cz__circuit_prove_cpu(ci, w, out, state, t, msg, msglen);
}

void cz__backend_cpu(cz_backend *b, unsigned n_workers, unsigned threads)
{
    b->name = "cpu";
    b->n_workers = n_workers ? n_workers : 1;
    b->self = (void *)(uintptr_t)threads;
    b->worker_init = cpu_init;
    b->worker_fini = cpu_fini;
    b->prove = cpu_prove;
}
