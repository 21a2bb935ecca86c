/* cz_cuda_wbits.h — plain C entry points of the compact-witness expansion
 * (witness_bits.cu): a compact witness (src/backend/wbits.h: the unmarked
 * variables as Fr, then one bit per marked variable) becomes the full
 * Montgomery-form witness the prover's SpMV and MSMs read, a marked
 * variable 0 or Montgomery one (R mod r), every other its Fr.
 *
 * Inputs, by their meaning in wbits.h: mask (words = (n_vars + 63) / 64
 * words, the circuit's bit map), rank (words + 1 prefix counts of mask),
 * compact (n_fields Fr, then the bit words right after them). The same
 * per-variable code runs on the device (cz_cuda_wbits_expand) and on the
 * host (cz_cuda_wbits_expand_host), so a machine without a GPU tests it. */
#ifndef CZ_CUDA_WBITS_H
#define CZ_CUDA_WBITS_H

#include <stddef.h>
#include <stdint.h>
#include "util/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#include "ff/ff.h"

/* device: d_out (n_vars Fr, 16-byte aligned) from d_mask, d_rank and
 * d_compact (all device memory), asynchronous on stream (a cudaStream_t as
 * void *, NULL = the default stream). A launch failure is returned with a
 * message (CZ_ERR_DEVICE). */
cz_err cz_cuda_wbits_expand(void *d_out, const uint64_t *d_mask, const uint64_t *d_rank, const void *d_compact,
                            uint64_t n_vars, uint64_t n_fields, void *stream, char *msg, size_t msglen);

/* the kernel's code on the host, over host arrays */
void cz_cuda_wbits_expand_host(cz_fr *out, const uint64_t *mask, const uint64_t *rank, const cz_fr *compact,
                               uint64_t n_vars, uint64_t n_fields);

/* tests: copies the host arrays to the current device (through the budget
 * allocator), expands there and copies the result to out; synchronous, and
 * everything it allocated is freed on every path */
cz_err cz_cuda_wbits_expand_copy(cz_fr *out, const uint64_t *mask, const uint64_t *rank, const cz_fr *compact,
                                 uint64_t n_vars, uint64_t n_fields, uint64_t compact_len, char *msg,
                                 size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
