/* msm_api.cu — the device MSM's context functions (cz_cuda_msm.h): create
 * and destroy, device buffers and the test knobs (the automatic window
 * width is msm_impl.cuh's plan_window). The MSMs themselves are msm_g1.cu
 * and msm_g2.cu; the host side they share is msm_impl.cuh, the kernels
 * msm_kernels.cuh. */
#include "cuda/msm_impl.cuh"

/* threads per block of the kernels that do point arithmetic (segment, run
 * and bucket sums): their register count, not the block, bounds how many
 * warps an SM holds, and a smaller block lets a partly filled SM take one
 * more (docs/CUDA_MSM.md). CZ_MSM_BLOCK (a multiple of 32 in 32..1024)
 * overrides the default, for measurements. */
static int heavy_block_size(int dflt)
{
    const char *s = getenv("CZ_MSM_BLOCK");
    int b = s ? atoi(s) : 0;
    return b >= 32 && b <= 1024 && b % 32 == 0 ? b : dflt;
}

/* ------------------------------------------------------------ entry points */

extern "C" cz_err cz_cuda_msm_create(cz_cuda_msm **out, int device, char *msg, size_t msglen)
{
    return cz__cuda_msm_create_prio(out, device, 0, msg, msglen);
}

extern "C" cz_err cz__cuda_msm_create_prio(cz_cuda_msm **out, int device, int priority, char *msg, size_t msglen)
{
    cz_err err = CZ_OK;
    int count = 0;
    cz_cuda_msm *ctx = (cz_cuda_msm *)calloc(1, sizeof *ctx);
    *out = NULL;
    if (!ctx) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "cuda msm: out of host memory");
    ctx->device = device;
    ctx->heavy_block = heavy_block_size(HEAVY_BLOCK);
    {
        /* CZ_MSM_BA: unset or 0 no batch-affine rounds (off until they are
         * measured to pay, docs/CUDA_MSM.md), "auto" the rounds the plan picks, "all"
         * every round that merges anything (for comparison) */
        const char *b = getenv("CZ_MSM_BA");
        ctx->ba_mode = b && !strcmp(b, "auto") ? 0 : b && !strcmp(b, "all") ? 1 : -1;
        /* CZ_MSM_BA_CHAIN: pairs a chain of a round (default BA_CHAIN) */
        const char *ch = getenv("CZ_MSM_BA_CHAIN");
        long chv = ch ? strtol(ch, NULL, 10) : 0;
        ctx->ba_chain = chv > 0 && chv <= 65536 ? (uint32_t)chv : 0;
        /* CZ_MSM_T0: entries a thread at level 0 (default T0) */
        const char *t0 = getenv("CZ_MSM_T0");
        long t0v = t0 ? strtol(t0, NULL, 10) : 0;
        ctx->t0 = t0v > 0 && t0v <= 65536 ? (uint32_t)t0v : T0;
        /* CZ_MSM_MAX_WINDOW: the widest window the plan may pick
         * (2..MAX_WINDOW, default MAX_WINDOW), for measurements */
        const char *cw = getenv("CZ_MSM_MAX_WINDOW");
        long cwv = cw ? strtol(cw, NULL, 10) : 0;
        ctx->max_window = cwv >= 2 && cwv <= MAX_WINDOW ? (int)cwv : MAX_WINDOW;
        /* CZ_MSM_COPIES: "on" sums through window copies whenever a call
         * has them, "off" never (the plain MSM on their first block), else
         * where the plan says they pay */
        const char *cp = getenv("CZ_MSM_COPIES");
        ctx->copies_mode = cp && !strcmp(cp, "on") ? 1 : cp && !strcmp(cp, "off") ? 2 : 0;
    }
    CK(cudaGetDeviceCount(&count));
    if (device < 0 || device >= count) {
        err = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cuda msm: no device %d (%d found)", device, count);
        goto fail;
    }
    CK(cudaSetDevice(device));
    CK(cudaStreamCreateWithPriority(&ctx->stream, cudaStreamNonBlocking, priority));
    CK(cudaMallocHost((void **)&ctx->host_counters, 64));
    CK(cudaMallocHost(&ctx->host_win, CZ_MSM_HOST_WIN_BYTES));
    *out = ctx;
    return CZ_OK;
fail:
    cz_cuda_msm_destroy(ctx);
    return err;
}

extern "C" void cz_cuda_msm_destroy(cz_cuda_msm *ctx)
{
    if (!ctx) return;
    cudaSetDevice(ctx->device);
    if (ctx->stream) cudaStreamSynchronize(ctx->stream);
    for (int i = 0; i < 2; i++)
        if (ctx->buf[i]) cz__vram_free(ctx->buf[i]);
    if (ctx->host_counters) cudaFreeHost(ctx->host_counters);
    if (ctx->host_win) cudaFreeHost(ctx->host_win);
    if (ctx->stream) cudaStreamDestroy(ctx->stream);
    cudaGetLastError();
    free(ctx);
}

extern "C" cz_err cz_cuda_msm_upload(cz_cuda_msm *ctx, void **dev, const void *host, size_t bytes, char *msg,
                                 size_t msglen)
{
    cz_err err = CZ_OK;
    *dev = NULL;
    CK(cudaSetDevice(ctx->device));
    CK(cz__vram_upload(dev, host, bytes));
fail:
    return err;
}

extern "C" void cz_cuda_msm_free(cz_cuda_msm *ctx, void *dev)
{
    if (!dev) return;
    cudaSetDevice(ctx->device);
    cz__vram_free(dev);
    cudaGetLastError();
}

extern "C" void *cz__cuda_msm_stream(cz_cuda_msm *ctx) { return (void *)ctx->stream; }

extern "C" void cz__cuda_msm_config(cz_cuda_msm *ctx, int window_bits, size_t max_entries)
{
    ctx->cfg_window = window_bits >= 2 && window_bits <= MAX_WINDOW ? window_bits : 0;
    ctx->cfg_max_entries = max_entries;
}

extern "C" void cz__cuda_msm_config_ba(cz_cuda_msm *ctx, int mode, unsigned threads)
{
    ctx->ba_mode = mode < 0 ? -1 : mode > 0 ? 1 : 0;
    ctx->ba_threads = threads;
}

extern "C" void cz__cuda_msm_config_t0(cz_cuda_msm *ctx, unsigned t0)
{
    ctx->t0 = t0 >= 1 && t0 <= 65536 ? t0 : T0;
}

extern "C" void cz__cuda_msm_config_wave(cz_cuda_msm *ctx, unsigned threads)
{
    ctx->bucket_wave[0] = ctx->bucket_wave[1] = threads;
}

extern "C" int cz__cuda_msm_last_ba_rounds(const cz_cuda_msm *ctx) { return ctx->last_ba_rounds; }

extern "C" void cz__cuda_msm_config_copies(cz_cuda_msm *ctx, int mode, size_t fill_chunk)
{
    ctx->copies_mode = mode == 1 || mode == 2 ? mode : 0;
    ctx->copies_chunk = fill_chunk;
}

extern "C" int cz__cuda_msm_last_copies(const cz_cuda_msm *ctx) { return ctx->last_copies; }
extern "C" int cz__cuda_msm_last_copies_span(const cz_cuda_msm *ctx) { return ctx->last_span; }

/* the rounds on the host, through the very code the kernel runs (ff.cuh
 * emulates its carry chains on the host), for tests without a device */
extern "C" cz_err cz__cuda_msm_ba_rounds_host(const cz_g1_aff *bases, const uint32_t *vals, const uint32_t *keys,
                                              uint32_t m, unsigned threads, unsigned inv_group, int rounds,
                                              cz_g1_aff *out_pts, uint32_t *out_keys, uint32_t *out_m, char *msg,
                                              size_t msglen)
{
    typedef cz_aff_t<fp_t> A;
    static_assert(sizeof(A) == sizeof(cz_g1_aff), "one layout on both sides");
    if (!threads) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cuda msm: no threads for the rounds");
    size_t cap = m ? m : 1;
    A *pts[2] = {(A *)malloc(cap * sizeof(A)), (A *)malloc(cap * sizeof(A))};
    uint32_t *ks[2] = {(uint32_t *)malloc(cap * 4), (uint32_t *)malloc(cap * 4)};
    uint32_t *incl = (uint32_t *)malloc(cap * 4);
    size_t tcap = threads < cap ? threads : cap;
    fp_t *tot = (fp_t *)malloc(tcap * sizeof(fp_t)), *pre = (fp_t *)malloc(tcap * sizeof(fp_t));
    cz_err err = CZ_OK;
    const uint32_t *rk = keys;
    const A *rp = NULL;
    uint32_t rm = m;
    if (!inv_group) inv_group = BA_INV_GROUP;
    if (!pts[0] || !pts[1] || !ks[0] || !ks[1] || !incl || !tot || !pre) {
        err = cz_fail(CZ_ERR_NOMEM, msg, msglen, "cuda msm: out of host memory");
        goto out;
    }
    for (int r = 0; r < rounds && rm >= 2; r++) {
        uint32_t npairs = (rm + 1) / 2, sum = 0;
        for (uint32_t i = 0; i < npairs; i++) incl[i] = sum += cz_ba_outputs(rk, rm, i);
        uint32_t T = threads < npairs ? threads : npairs;
        /* the three kernels' steps in their order: every chain forward, the
         * chains' products inverted (groups of inv_group), every chain back */
        uint32_t U = (T + inv_group - 1) / inv_group;
        for (uint32_t t = 0; t < T; t++) {
            if (rp) {
                cz_ba_points<fp_t> src = {rp};
                cz_ba_fwd_chain<fp_t>(src, rk, rm, incl, npairs, t, T, ks[r & 1], pts[r & 1], tot);
            } else {
                cz_ba_bases<fp_t> src = {(const A *)bases, vals};
                cz_ba_fwd_chain<fp_t>(src, rk, rm, incl, npairs, t, T, ks[r & 1], pts[r & 1], tot);
            }
        }
        for (uint32_t u = 0; u < U; u++) cz_ba_inv_group<fp_t>(tot, pre, T, u, U);
        for (uint32_t t = 0; t < T; t++) {
            if (rp) {
                cz_ba_points<fp_t> src = {rp};
                cz_ba_bwd_chain<fp_t>(src, rk, rm, incl, npairs, t, T, pts[r & 1], tot);
            } else {
                cz_ba_bases<fp_t> src = {(const A *)bases, vals};
                cz_ba_bwd_chain<fp_t>(src, rk, rm, incl, npairs, t, T, pts[r & 1], tot);
            }
        }
        rk = ks[r & 1];
        rp = pts[r & 1];
        rm = sum;
    }
    if (rp) {
        memcpy(out_pts, rp, (size_t)rm * sizeof(A));
        memcpy(out_keys, rk, (size_t)rm * 4);
    } else { /* no round ran: the entries as they came */
        for (uint32_t e = 0; e < rm; e++) {
            cz_ba_bases<fp_t> src = {(const A *)bases, vals};
            A a = src.pt(e);
            memcpy(&out_pts[e], &a, sizeof a);
            out_keys[e] = keys[e];
        }
    }
    *out_m = rm;
out:
    for (int i = 0; i < 2; i++) {
        free(pts[i]);
        free(ks[i]);
    }
    free(incl);
    free(tot);
    free(pre);
    return err;
}

extern "C" void cz__cuda_msm_last(const cz_cuda_msm *ctx, int *window_bits, int *windows, int *groups, size_t *ones,
                                  size_t *general)
{
    if (window_bits) *window_bits = ctx->last_c;
    if (windows) *windows = ctx->last_nw;
    if (groups) *groups = ctx->last_groups;
    if (ones) *ones = ctx->last_ones;
    if (general) *general = ctx->last_gen;
}
