/* msm_copies.cu — window copies of G1 bases for the fixed-base MSM
 * (cz_cuda_msm_g1_copies in msm_g1.cu; docs/CUDA_MSM.md "Window copies").
 *
 * A table of `copies` blocks of nb points: block 0 the bases, block w
 * 2^(c w) times them, so that the MSM's window w takes its points from
 * block w and every window adds into one set of buckets. Block w comes from
 * block w - 1 by c doublings in XYZZ (one thread a point, k_copy_dbl) and a
 * conversion to affine that shares one inversion among CP_GA points
 * (k_copy_aff, xyzz_batch_to_aff), chunk by chunk through the context's
 * scratch buffer, on the context's stream. Affine points are unique, so
 * the table is the same whatever the order of operations, and the kernels'
 * bodies run on the host too (cz__cuda_msm_g1_copies_fill_host, for tests
 * without a device). The table is one allocation of the VRAM budget, freed
 * with cz_cuda_msm_free. */
#include "cuda/msm_impl.cuh"

#define CP_GA 32                   /* points a thread converts to affine */
#define CP_NTHR 128                /* threads a block */
#define CP_CHUNK ((size_t)1 << 22) /* points a chunk: 768 MB of XYZZ scratch */

/* acc[i] = 2^c src[i] */
template <class F> CZ_HD void copy_dbl_one(cz_xyzz_t<F> *acc, const cz_aff_t<F> *src, int c, size_t i)
{
    cz_aff_t<F> a = src[i];
    cz_xyzz_t<F> p;
    if (aff_is_inf(a)) {
        xyzz_set_inf(p);
    } else {
        xyzz_mdbl(p, a.x, a.y);
        for (int d = 1; d < c; d++) xyzz_dbl(p);
    }
    acc[i] = p;
}

__global__ void __launch_bounds__(CP_NTHR) k_copy_dbl(cz_g1_xyzz_d *acc, const cz_g1_aff_d *src, int c, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) copy_dbl_one(acc, src, c, i);
}

__global__ void __launch_bounds__(CP_NTHR) k_copy_aff(cz_g1_aff_d *dst, const cz_g1_xyzz_d *acc, size_t n)
{
    size_t lo = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CP_GA;
    if (lo < n) xyzz_batch_to_aff(dst, acc, lo, lo + CP_GA < n ? lo + CP_GA : n);
}

static cz_err check_table(size_t nb, int c, int copies, char *msg, size_t msglen)
{
    if (c < 2 || c > COPIES_MAX_WINDOW || copies < 1 || copies > 256 || nb == 0 ||
        (uint64_t)copies * nb > (uint64_t)CZ_MSM_SIGN - 1)
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                       "cuda msm: window copies of c = %d, %d copies of %zu points: not a table this MSM can use "
                       "(c in 2..%d, copies x points below 2^31)",
                       c, copies, nb, COPIES_MAX_WINDOW);
    return CZ_OK;
}

extern "C" cz_err cz__cuda_msm_copies_check(size_t nb, int c, int copies, char *msg, size_t msglen)
{
    return check_table(nb, c, copies, msg, msglen);
}

extern "C" int cz_cuda_msm_copies_plan(size_t nb, int *copies)
{
    int best = 8;
    double bc = 1e300;
    for (int c = 8; c <= MAX_WINDOW; c++) {
        double k = plan_cost_copies(nb ? nb : 1, 255, c, num_windows(255, c), DEFAULT_MAX_ENTRIES);
        if (k < bc) {
            bc = k;
            best = c;
        }
    }
    if (copies) *copies = num_windows(255, best);
    return best;
}

extern "C" int cz_cuda_msm_copies_plan_max(size_t nb, int max_copies, int *copies)
{
    size_t m = nb ? nb : 1;
    const char *v = getenv("CZ_MSM_COPIES_C"); /* one c only, for measurements */
    int only = v ? atoi(v) : 0;
    if (only < 8 || only > COPIES_MAX_WINDOW) only = 0;
    /* to beat: the plain MSM's plan (unless c is forced) */
    double bc = only ? 1e300 : plan_cost(m, 255, plan_window(m, 255, MAX_WINDOW));
    int best = 0, bk = 0;
    for (int c = only ? only : 8; c <= (only ? only : COPIES_MAX_WINDOW); c++) {
        int nw = num_windows(255, c);
        /* the fewest blocks of a cost: a set spans at most max_e / m blocks,
         * and past a block a window more buy nothing */
        for (int k = 2; k <= max_copies && k <= nw; k++) {
            double cost = plan_cost_copies(m, 255, c, k, DEFAULT_MAX_ENTRIES);
            if (cost < bc * (1 - 1e-12)) {
                bc = cost;
                best = c;
                bk = k;
            }
        }
    }
    if (copies) *copies = bk;
    return best;
}

extern "C" cz_err cz_cuda_msm_g1_copies_make(cz_cuda_msm *ctx, cz_g1_aff **dev_table, const cz_g1_aff *bases,
                                             size_t nb, int c, int copies, char *msg, size_t msglen)
{
    cz_err err = check_table(nb, c, copies, msg, msglen);
    *dev_table = NULL;
    if (err) return err;
    if (!bases) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cuda msm: NULL bases for window copies");
    cudaStream_t st = ctx->stream;
    cz_g1_aff_d *t = NULL;
    size_t chunk = ctx->copies_chunk ? ctx->copies_chunk : CP_CHUNK;
    if (chunk > nb) chunk = nb;
    CK(cudaSetDevice(ctx->device));
    CK(cz__vram_malloc((void **)&t, (size_t)copies * nb * sizeof *t));
    CK(cudaMemcpyAsync(t, bases, nb * sizeof *t, cudaMemcpyDefault, st));
    if ((err = ensure(ctx, 1, chunk * sizeof(cz_g1_xyzz_d), msg, msglen))) goto fail;
    for (int w = 1; w < copies; w++) {
        for (size_t off = 0; off < nb; off += chunk) {
            size_t m = nb - off < chunk ? nb - off : chunk, groups = (m + CP_GA - 1) / CP_GA;
            cz_g1_xyzz_d *acc = (cz_g1_xyzz_d *)ctx->buf[1];
            k_copy_dbl<<<(unsigned)((m + CP_NTHR - 1) / CP_NTHR), CP_NTHR, 0, st>>>(acc, t + (w - 1) * nb + off, c,
                                                                                   m);
            CKL();
            k_copy_aff<<<(unsigned)((groups + CP_NTHR - 1) / CP_NTHR), CP_NTHR, 0, st>>>(t + w * nb + off, acc, m);
            CKL();
        }
    }
    CK(cudaStreamSynchronize(st));
    *dev_table = (cz_g1_aff *)t;
    return CZ_OK;
fail:
    if (t) {
        cudaStreamSynchronize(st);
        cz__vram_free(t);
    }
    return err;
}

extern "C" cz_err cz__cuda_msm_g1_copies_fill_host(cz_g1_aff *table, size_t nb, int c, int copies, char *msg,
                                                   size_t msglen)
{
    cz_err err = check_table(nb, c, copies, msg, msglen);
    if (err) return err;
    cz_g1_xyzz_d *acc = (cz_g1_xyzz_d *)malloc(nb * sizeof *acc);
    if (!acc) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "cuda msm: out of host memory");
    cz_g1_aff_d *t = (cz_g1_aff_d *)table;
    for (int w = 1; w < copies; w++) {
        for (size_t i = 0; i < nb; i++) copy_dbl_one(acc, t + (w - 1) * nb, c, i);
        for (size_t lo = 0; lo < nb; lo += CP_GA)
            xyzz_batch_to_aff(t + w * nb, acc, lo, lo + CP_GA < nb ? lo + CP_GA : nb);
    }
    free(acc);
    return CZ_OK;
}

extern "C" void cz__cuda_msm_layout(size_t m, int bits, int c, int copies, size_t max_e, int out[5])
{
    int nw = num_windows(bits, c), sp = copies ? copies_span(m, bits, c, copies, max_e) : 0;
    msm_layout L = window_layout(m, nw, sp != 0, sp ? sp : 1, max_e);
    out[0] = nw;
    out[1] = sp;
    out[2] = L.g;
    out[3] = L.gb;
    out[4] = L.full;
}

extern "C" void cz__cuda_msm_digits_host(const uint64_t *k4, const uint32_t *idx, uint32_t m, int c, int w0, int g,
                                         uint32_t stride, int span, uint32_t sets, uint32_t *keys, uint32_t *vals)
{
    for (uint32_t j = 0; j < m; j++) {
        cz_scalar4 k;
        memcpy(k.l, k4 + 4 * (size_t)j, sizeof k.l);
        cz_digits_one(k, idx[j], j, m, c, w0, g, stride, span, sets, keys, vals);
    }
}
