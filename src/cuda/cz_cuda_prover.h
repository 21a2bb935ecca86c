/* cz_cuda_prover.h — device-resident proving keys, for host C code (no CUDA
 * header needed). The partition prover itself is reached through the
 * backend interface (src/backend/backend.h, CZ_BACKEND_CUDA); this header
 * is what the GPU setup (cz_cuda_setup.h) and benchmarks share with it.
 *
 * A cz_cuda_pk_dev is a bellperson-layout proving key's five query arrays
 * in device memory of one device, allocated through the budget allocator
 * (cz_cuda_vram.h), in the CPU's layout (cz_g1_aff / cz_g2_aff, Montgomery,
 * infinity all-zero), with the lengths of cz_groth16_pk. The vk stays on
 * the host. */
#ifndef CZ_CUDA_PROVER_H
#define CZ_CUDA_PROVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "ec/ec.h"
#include "groth16/groth16.h"
#include "util/err.h"

typedef struct cz_cuda_pk_dev {
    int device;
    size_t n_h, n_l, n_a, n_b_g1, n_b_g2;
    cz_g1_aff *h, *l, *a, *b_g1; /* device pointers */
    cz_g2_aff *b_g2;
} cz_cuda_pk_dev;

/* copies pk's query arrays to device (synchronous) */
cz_err cz_cuda_pk_dev_upload(cz_cuda_pk_dev *out, const cz_groth16_pk *pk, int device, char *msg, size_t msglen);
/* copies the device arrays into pk's (allocated here, heap-owned; pk->vk
 * untouched) */
cz_err cz_cuda_pk_dev_download(cz_groth16_pk *pk, const cz_cuda_pk_dev *d, char *msg, size_t msglen);
/* a copy of src in the memory of `device` (any device, src's own too),
 * device to device (peer to peer where the devices allow it, else through
 * the host); synchronous; nothing allocated on failure */
cz_err cz_cuda_pk_dev_clone(cz_cuda_pk_dev *out, const cz_cuda_pk_dev *src, int device, char *msg, size_t msglen);
/* device bytes the arrays take */
uint64_t cz_cuda_pk_dev_bytes(const cz_cuda_pk_dev *d);
void cz_cuda_pk_dev_free(cz_cuda_pk_dev *d);

/* Tests: force == 1 makes the CUDA backend load keys in the streamed mode
 * (their points stay in host memory and go to the device chunk by chunk in
 * every MSM, as when they do not fit the budget), -1 restores the default;
 * chunk_points (rounded up to a multiple of 64; 0 = default 2^22) sets the
 * chunk. */
void cz__cuda_prover_stream_knob(int force, size_t chunk_points);
/* the most blocks of the H bases' window copies that CZ_PROVER_H_COPIES=v
 * allows (v NULL: unset): 0 none ("0", "off"), K for 2..256, 256 for
 * unset, "1" and "on"; anything else 256 with a warning unless quiet */
int cz__cuda_prover_h_copies_knob(const char *v, int quiet);

#ifdef __cplusplus
}
#endif

#endif
