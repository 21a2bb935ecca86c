/* cz_cuda.h — what host C code may ask of the CUDA build as a whole. Each
 * kernel family has its own plain C header beside this one (cz_cuda_ff.h,
 * cz_cuda_ntt.h, ...); none of them includes a CUDA header. */
#ifndef CZ_CUDA_H
#define CZ_CUDA_H

#ifdef __cplusplus
extern "C" {
#endif

/* number of CUDA devices this process sees (0 when none or no driver) */
int cz_cuda_device_count(void);

#ifdef __cplusplus
}
#endif

#endif
