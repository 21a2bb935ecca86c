/* cz_cuda_ntt.h — plain C entry points of the CUDA NTT over Fr (ntt_api.cu)
 * and the two H pipelines of the Groth16 provers, on device buffers.
 *
 * A domain holds n = 2^log_n (1 <= log_n <= 30; 2^27 is the target), omega = g^((r-1)/n) for the generator g (7 bellperson, 5 snarkjs:
 * exactly src/poly/ntt.c's roots and coset shift), and its device tables.
 * Every transform takes and gives natural order, in place; results are
 * bit-identical to cz_ntt_forward / _inverse / _coset_forward /
 * _coset_inverse. Buffers are device pointers to n cz_fr (Montgomery form,
 * reduced). stream is a cudaStream_t passed as void* (NULL: the default
 * stream); the calls are asynchronous on it except where noted. */
#ifndef CZ_CUDA_NTT_H
#define CZ_CUDA_NTT_H

#include <stddef.h>
#include <stdint.h>
#include "util/err.h"
#include "cuda/cz_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_cuda_ntt_domain cz_cuda_ntt_domain;

enum {
    CZ_CUDA_NTT_FORWARD = 0,   /* a_i <- sum_j a_j omega^(ij) */
    CZ_CUDA_NTT_INVERSE,       /* a_i <- n^-1 sum_j a_j omega^(-ij) */
    CZ_CUDA_NTT_COSET_FORWARD, /* a_j <- a_j g^j, then forward */
    CZ_CUDA_NTT_COSET_INVERSE  /* inverse, then a_j <- a_j g^-j */
};

/* builds the tables on the current device (synchronous) */
cz_err cz_cuda_ntt_domain_create(cz_cuda_ntt_domain **out, int log_n, uint64_t generator, char *msg,
                                 size_t msglen);
/* the same domain with its tables in host memory: every call on it runs the
 * kernels' code on the host (one tile at a time), on host buffers; slow,
 * for checking the kernels' indexing where there is no GPU */
cz_err cz_cuda_ntt_domain_create_host(cz_cuda_ntt_domain **out, int log_n, uint64_t generator, char *msg,
                                      size_t msglen);
void cz_cuda_ntt_domain_destroy(cz_cuda_ntt_domain *d);
/* Reserves a scratch buffer of n elements in the domain (device memory, or
 * host memory for a host domain; freed with it), with which cz_cuda_ntt
 * folds the bit reversal into its last pass (DIF from natural order, the
 * last pass storing at the bit-reversed positions): one pass over memory
 * fewer. Without it (or with CZ_NTT_FOLD=0) a transform of more than one
 * pass runs a bit-reversal pass first. Not needed by the H pipelines. Not
 * thread-safe against calls on the same domain. */
cz_err cz_cuda_ntt_domain_reserve(cz_cuda_ntt_domain *d, char *msg, size_t msglen);
size_t cz_cuda_ntt_domain_size(const cz_cuda_ntt_domain *d);

cz_err cz_cuda_ntt(const cz_cuda_ntt_domain *d, void *d_a, int kind, void *stream, char *msg, size_t msglen);

/* bellperson's H (src/groth16/prover.c): for each of a, b, c: inverse, coset
 * forward; then a <- (a b - c) / (g^n - 1); then coset inverse of a. On
 * return a holds the n coefficients of h (the prover keeps the first n - 1);
 * b and c are overwritten. */
cz_err cz_cuda_h_bellperson(const cz_cuda_ntt_domain *d, void *d_a, void *d_b, void *d_c, void *stream,
                            char *msg, size_t msglen);

/* snarkjs's H (src/groth16/prover_zkey.c): c <- a b; for each of a, b, c:
 * inverse, times w_2n^i, forward (the odd points of the 2n domain); then
 * a <- a b - c. No division. The domain must use generator 5 as snarkjs
 * does (any generator is accepted). */
cz_err cz_cuda_h_snarkjs(const cz_cuda_ntt_domain *d, void *d_a, void *d_b, void *d_c, void *stream,
                         char *msg, size_t msglen);

/* host-side helpers for tests and benchmarks (synchronous) */
cz_err cz_cuda_malloc(void **d_ptr, size_t bytes, char *msg, size_t msglen);
void cz_cuda_free(void *d_ptr);
cz_err cz_cuda_upload(void *d_dst, const void *src, size_t bytes, char *msg, size_t msglen);
cz_err cz_cuda_download(void *dst, const void *d_src, size_t bytes, char *msg, size_t msglen);
cz_err cz_cuda_sync(char *msg, size_t msglen);

/* Median time in ms over reps runs of one transform (kind as above, or
 * 4 = bellperson H over three vectors, 5 = snarkjs H) at 2^log_n on random
 * device data, the domain's creation not counted. */
cz_err cz_cuda_ntt_bench(int log_n, uint64_t generator, int kind, int reps, double *ms, char *msg,
                         size_t msglen);

/* Test hook: the domain's passes (levels of each, from level 0 up, into
 * levels[0 .. return - 1]), as CZ_NTT_PASSES or the plan set them. */
int cz__cuda_ntt_domain_passes(const cz_cuda_ntt_domain *d, int levels[8]);

#ifdef __cplusplus
}
#endif

#endif
