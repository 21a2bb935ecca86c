/* witness_bits.cu — the compact witness expanded on the device
 * (cz_cuda_wbits.h), so that bits cross PCIe as bits.
 *
 * How it works. One thread per variable i (grid-stride): its mask word
 * says whether i is a bit; rank[i / 64] plus the popcount of the mask bits
 * below i in that word is r, the number of bits before it. A bit is bit r
 * of the bit words and becomes 0 or Montgomery one (fr_t::one(), R mod r,
 * what the CPU's cz_fr_one_mont is); any other variable is field i - r.
 * Consecutive threads write consecutive Fr (two 16-byte stores each) and
 * read nearly consecutive fields, so the kernel moves about 32 bytes out
 * and at most 32 in per variable: a memory-bound copy (4.3 GB written at
 * 2^27, 1.2 to 2.4 ms at HBM copy speed). The body (expand_one) is __host__
 * __device__; cz_cuda_wbits_expand_host runs it in a plain loop.
 *
 * Errors: the launch is checked (cz__launch_check, which also serves the
 * injected-failure knob); the test entry point checks every call. */
#include "cuda/cuda_util.cuh"
#include "cuda/ff.cuh"
#include "cuda/cz_cuda_wbits.h"

#define NTHR 256

static_assert(sizeof(fr_t) == sizeof(cz_fr), "Fr layout");

CZ_HD uint32_t popc64(uint64_t x)
{
#if defined(__CUDA_ARCH__)
    return (uint32_t)__popcll(x);
#else
    return (uint32_t)__builtin_popcountll(x);
#endif
}

struct expand_args {
    fr_t *out;
    const uint64_t *mask, *rank, *bits;
    const fr_t *fields;
};

CZ_HD void expand_one(const expand_args &a, uint64_t i)
{
    uint64_t word = a.mask[i >> 6];
    uint64_t r = a.rank[i >> 6] + popc64(word & (((uint64_t)1 << (i & 63)) - 1));
    if ((word >> (i & 63)) & 1) {
        int v = (int)((a.bits[r >> 6] >> (r & 63)) & 1);
        st_fr(a.out + i, v ? fr_t::one() : fr_t::zero());
    } else {
        st_fr(a.out + i, ld_fr(a.fields + (i - r)));
    }
}

__global__ void k_wbits_expand(expand_args a, uint64_t n)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        expand_one(a, i);
}

static expand_args make_args(void *out, const uint64_t *mask, const uint64_t *rank, const void *compact,
                             uint64_t n_fields)
{
    expand_args a;
    a.out = (fr_t *)out;
    a.mask = mask;
    a.rank = rank;
    a.fields = (const fr_t *)compact;
    a.bits = (const uint64_t *)((const fr_t *)compact + n_fields);
    return a;
}

extern "C" cz_err cz_cuda_wbits_expand(void *d_out, const uint64_t *d_mask, const uint64_t *d_rank,
                                       const void *d_compact, uint64_t n_vars, uint64_t n_fields, void *stream,
                                       char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    if (!n_vars) return CZ_OK;
    {
        expand_args a = make_args(d_out, d_mask, d_rank, d_compact, n_fields);
        uint64_t blocks = (n_vars + NTHR - 1) / NTHR;
        if (blocks > (1u << 20)) blocks = 1u << 20; /* grid-stride beyond that */
        k_wbits_expand<<<(unsigned)blocks, NTHR, 0, (cudaStream_t)stream>>>(a, n_vars);
        CZ_CK_LAUNCH();
    }
fail:
    return e;
}

extern "C" void cz_cuda_wbits_expand_host(cz_fr *out, const uint64_t *mask, const uint64_t *rank,
                                          const cz_fr *compact, uint64_t n_vars, uint64_t n_fields)
{
    expand_args a = make_args(out, mask, rank, compact, n_fields);
    for (uint64_t i = 0; i < n_vars; i++) expand_one(a, i);
}

extern "C" cz_err cz_cuda_wbits_expand_copy(cz_fr *out, const uint64_t *mask, const uint64_t *rank,
                                            const cz_fr *compact, uint64_t n_vars, uint64_t n_fields,
                                            uint64_t compact_len, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    uint64_t words = (n_vars + 63) / 64;
    uint64_t *d_mask = NULL, *d_rank = NULL;
    cz_fr *d_c = NULL;
    void *d_out = NULL;
    CZ_CK(cz__vram_upload(&d_mask, mask, words * sizeof *mask));
    CZ_CK(cz__vram_upload(&d_rank, rank, (words + 1) * sizeof *rank));
    CZ_CK(cz__vram_upload(&d_c, compact, compact_len * sizeof *compact));
    CZ_CK(cz__vram_malloc(&d_out, (n_vars ? n_vars : 1) * sizeof(cz_fr)));
    if ((e = cz_cuda_wbits_expand(d_out, d_mask, d_rank, d_c, n_vars, n_fields, NULL, msg, msglen))) goto fail;
    CZ_CK(cudaStreamSynchronize(NULL));
    CZ_CK(cudaMemcpy(out, d_out, n_vars * sizeof(cz_fr), cudaMemcpyDeviceToHost));
fail:
    cz__vram_free(d_mask);
    cz__vram_free(d_rank);
    cz__vram_free(d_c);
    cz__vram_free(d_out);
    if (e) cudaGetLastError();
    return e;
}
