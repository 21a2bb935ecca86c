/* prover_impl.h — the CUDA partition prover's functions (prover.cu), which
 * backend_cuda.cu puts in the backend table (backend_ops.h). Internal. */
#ifndef CZ_CUDA_PROVER_IMPL_H
#define CZ_CUDA_PROVER_IMPL_H

#ifdef __cplusplus
extern "C" {
#endif
#include "backend/backend_ops.h"

cz_err cz__cuda_prover_open(void **self, const cz_backend_opts *o, char *name, size_t namelen, char *msg,
                            size_t msglen);
void cz__cuda_prover_close(void *self);
void cz__cuda_prover_vram(void *self, uint64_t *budget, uint64_t *used, uint64_t *peak);
cz_err cz__cuda_prover_load(void *self, const cz_be_circuit *c, void **key, uint64_t *bytes, char *msg,
                            size_t msglen);
void cz__cuda_prover_unload(void *self, void *key);
int cz__cuda_prover_key_resident(void *self, void *key);
cz_err cz__cuda_prover_worker_create(void *self, void **w, char *msg, size_t msglen);
void cz__cuda_prover_worker_destroy(void *w);
cz_fr *cz__cuda_prover_worker_buffer(void *w, size_t n);
cz_err cz__cuda_prover_prove(void *w, void *key, const cz_fr *wit, const cz_fr *r, const cz_fr *s,
                             cz_groth16_proof *out, cz_groth16_timings *t, char *msg, size_t msglen);
cz_err cz__cuda_prover_prove_bits(void *w, void *key, const cz_fr *compact, const cz_fr *r, const cz_fr *s,
                                  cz_groth16_proof *out, cz_groth16_timings *t, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
