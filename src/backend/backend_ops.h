/* backend_ops.h — the table a device backend fills for backend.c (internal).
 *
 * backend.c owns what every backend shares (keys' reference counts, the
 * worker's CPU pool, the CPU fallback, statistics); a device backend
 * provides these operations. The CUDA build defines cz__be_cuda_ops
 * (src/cuda/backend_cuda.cu); a build without it leaves the weak reference
 * NULL and CZ_BACKEND_CUDA reports that it was not built. */
#ifndef CZ_BACKEND_BACKEND_OPS_H
#define CZ_BACKEND_BACKEND_OPS_H

#include "backend/backend.h"
#include "util/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int (*device_count)(void);
    /* name: "cuda:0 (NVIDIA H200)" */
    cz_err (*open)(void **self, const cz_backend_opts *o, char *name, size_t namelen, char *msg, size_t msglen);
    void (*close)(void *self);
    /* *bytes: device bytes held; CZ_ERR_NOMEM: does not fit (backend.c then
     * proves the circuit on the CPU) */
    cz_err (*load)(void *self, const cz_be_circuit *c, void **key, uint64_t *bytes, char *msg, size_t msglen);
    void (*unload)(void *self, void *key);
    cz_err (*worker_create)(void *self, void **w, char *msg, size_t msglen);
    void (*worker_destroy)(void *w);
    cz_fr *(*worker_buffer)(void *w, size_t n);
    /* CZ_ERR_NOMEM or CZ_ERR_DEVICE: backend.c retries on the CPU (when the
     * host key is there); the device backend has freed what this partition
     * held and keeps serving */
    cz_err (*prove)(void *w, void *key, const cz_fr *wit, const cz_fr *r, const cz_fr *s, cz_groth16_proof *out,
                    cz_groth16_timings *t, char *msg, size_t msglen);
    void (*vram)(void *self, uint64_t *budget, uint64_t *used, uint64_t *peak);
    /* 1 when key's points are in device memory (0: streamed from the host) */
    int (*key_resident)(void *self, void *key);
    /* compact (wbits.h) for a key loaded with a bit map; may be NULL (then
     * backend.c expands it on the host and calls prove). Errors as prove. */
    cz_err (*prove_bits)(void *w, void *key, const cz_fr *compact, const cz_fr *r, const cz_fr *s,
                         cz_groth16_proof *out, cz_groth16_timings *t, char *msg, size_t msglen);
    /* the insecure seeded test setup on `device` (cz_be_setup_insecure):
     * vk on the host, the five query arrays in a device key (*dev_pk, a
     * cz_cuda_pk_dev, freed with dev_pk_free), their lengths in n[0..4]
     * (h, l, a, b_g1, b_g2) */
    cz_err (*setup_insecure)(int device, cz_groth16_vk *vk, void **dev_pk, size_t n[5], const cz_r1cs *cs,
                             uint64_t seed, cz_pool *pool, char *msg, size_t msglen);
    void (*dev_pk_free)(void *dev_pk);
    /* a copy of a device key (from setup_insecure, on any device) in the
     * memory of `device`, freed with dev_pk_free */
    cz_err (*dev_pk_clone)(int device, const void *src, void **dev_pk, char *msg, size_t msglen);
} cz_be_ops;

#ifdef __CUDACC__
const cz_be_ops *cz__be_cuda_ops(void); /* the definition (backend_cuda.cu) */
#else
const cz_be_ops *cz__be_cuda_ops(void) __attribute__((weak));
#endif

#ifdef __cplusplus
}
#endif

#endif
