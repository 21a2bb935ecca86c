/* setup.cu — the insecure seeded Groth16 setup on the GPU (cz_cuda_setup.h),
 * bit-identical to the CPU's cz_groth16_setup_insecure.
 *
 * DESIGN
 * Scalars: cz__setup_make_scalars (src/groth16/setup_internal.h), the very
 * function the CPU setup calls, on the host pool: one array h | ic | l | a | b.
 * Points: every key point is k·G. The comb's tables (32 windows × 256
 * affine multiples of the generator, 0.8 MB for G1, 1.6 MB for G2) are
 * built on the host by the CPU setup's code and uploaded. The scalars go to
 * the device in chunks bounded by the scratch (1 GiB by default); per chunk
 * two kernels:
 *   k_fb_mul  one thread per point: k from Montgomery form, then for each
 *             of its 32 bytes d ≠ 0 one mixed addition of table[w][d] into
 *             an XYZZ sum (ec.cuh's madd-2008-s), written to the scratch;
 *   k_fb_aff  one thread per group of GA = 32 consecutive sums: Montgomery's
 *             trick over ZZ·ZZZ (one inversion per group, by Fermat), then
 *             x = X·ZZZ/(ZZ·ZZZ), y = Y·ZZ/(ZZ·ZZZ), written straight into
 *             the key's array (the prefix products wait in the output's x
 *             and y until the backward pass overwrites them).
 * The affine form of a point is unique, so the order of the additions does
 * not matter: the result is the CPU's bits. Runs: G1 over h, ic, l, a, b
 * (ic into a device buffer that is then downloaded into vk->ic), G2 over b;
 * the vk's other six points are made on the host.
 *
 * Memory: device, the key ((n_h + n_l + n_a + n_b)·96 + n_b·192 bytes), ic,
 * the tables and the scratch (224 bytes a G1 point, 416 a G2 point), all
 * through the budget allocator and checked against the budget before
 * anything is allocated; host, the scalar array (setup.c says how much).
 *
 * Emulation: the kernels' bodies (fb_mul_one, fb_aff_group) are __host__
 * __device__; cz__cuda_setup_insecure_emulated runs them on the host pool
 * over host buffers, through the same chunk loop (run_section), so a machine
 * without a GPU tests the arithmetic, the chunking and the layout.
 *
 * Files: the kernels, their bodies and run_section are setup_fb.cuh's,
 * compiled once a group by setup_g1.cu and setup_g2.cu (in parallel: as one
 * unit they were the build's longest); setup_run.cuh is what this file
 * shares with them.
 *
 * Errors: every CUDA call is checked (CZ_CK); a failure frees everything
 * this call allocated and returns a cz_err with a message. */
#include "cuda/setup_run.cuh"

#define SCRATCH_DEFAULT ((uint64_t)1 << 30)
#define SCRATCH_EMULATED ((uint64_t)16 << 20)

typedef cz_aff_t<fp_t> g1a_t;
typedef cz_aff_t<fp2_t> g2a_t;
static_assert(sizeof(g1a_t) == sizeof(cz_g1_aff) && sizeof(g2a_t) == sizeof(cz_g2_aff), "affine layouts");

struct targets {
    g1a_t *g1[5]; /* h, ic, l, a, b_g1 */
    g2a_t *b_g2;
};

/* every fixed-base run, timed */
static cz_err run_all(const runner &r, const targets &o, const cz__setup_scalars &s, const g1a_t *t1,
                      const g2a_t *t2, cz_cuda_setup_timings *t, char *msg, size_t msglen)
{
    const size_t off[5] = {0, s.ic_off, s.l_off, s.a_off, s.b_off}, len[5] = {s.n_h, s.n_ic, s.n_l, s.n_a, s.n_b};
    cz_err e;
    for (int i = 0; i < 5; i++) {
        double t0 = cz_now_ms();
        if ((e = run_section<fp_t>(r, o.g1[i], s.k + off[i], len[i], t1, msg, msglen))) return e;
        t->fb_ms[i] = cz_now_ms() - t0;
        t->fb_points[i] = len[i];
    }
    double t0 = cz_now_ms();
    if ((e = run_section<fp2_t>(r, o.b_g2, s.k + s.b_off, s.n_b, t2, msg, msglen))) return e;
    t->fb_ms[CZ_CUDA_SETUP_B_G2] = cz_now_ms() - t0;
    t->fb_points[CZ_CUDA_SETUP_B_G2] = s.n_b;
    t->chunk_points[0] = chunk_points<fp_t>(r.scratch_bytes);
    t->chunk_points[1] = chunk_points<fp2_t>(r.scratch_bytes);
    t->scratch_bytes = r.scratch_bytes;
    return CZ_OK;
}

static uint64_t nz(uint64_t b) { return b ? b : 1; }
static double mib(uint64_t b) { return (double)b / (1 << 20); }

/* the scratch to use: the request (or the default), at most what is left */
static uint64_t pick_scratch(const cz_cuda_setup_opts *o, uint64_t dflt, uint64_t left)
{
    uint64_t want = o && o->scratch_bytes ? o->scratch_bytes : dflt;
    return want < left ? want : left;
}
static uint64_t min_scratch(void) { return GA * per_point<fp2_t>(); }

/* the lengths the key will have, known before any evaluation (the scalars
 * are checked against them) */
static cz_err key_lengths(const cz_r1cs *cs, size_t *n_h, size_t *n_a, size_t *n_b, char *msg, size_t msglen)
{
    uint64_t *bits = (uint64_t *)malloc(((cs->n_vars + 63) / 64 + 1) * sizeof *bits);
    if (!bits) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    *n_a = (size_t)cz_groth16_density_a(cs, bits);
    *n_b = (size_t)cz_r1cs_density(cs, CZ_B, bits);
    free(bits);
    *n_h = ((size_t)1 << cz_groth16_domain_log(cs)) - 1;
    return CZ_OK;
}

extern "C" cz_err cz__cuda_setup_insecure_ex(cz_groth16_vk *vk, cz_cuda_pk_dev *out, const cz_r1cs *cs,
                                             uint64_t seed, int device, cz_pool *pool,
                                             const cz_cuda_setup_opts *opts, cz_cuda_setup_timings *t, char *msg,
                                             size_t msglen)
{
    cz_err e = CZ_OK;
    double t_start = cz_now_ms(), t0;
    cz_cuda_setup_timings tt;
    cz__setup_scalars s;
    cz_g1_aff *t1h = NULL;
    cz_g2_aff *t2h = NULL;
    g1a_t *d_t1 = NULL, *d_ic = NULL;
    g2a_t *d_t2 = NULL;
    char *d_scr = NULL;
    cudaStream_t st = NULL;
    int prev_dev = -1;
    uint64_t budget = 0, used = 0, key_bytes, fixed, left, scratch;
    size_t n_h = 0, n_a = 0, n_b = 0, n_ic = cs->n_inputs, n_l = cs->n_vars - cs->n_inputs;
    runner r;
    targets o;
    memset(&tt, 0, sizeof tt);
    memset(&s, 0, sizeof s);
    memset(vk, 0, sizeof *vk);
    memset(out, 0, sizeof *out);
    out->device = device;

    if ((e = key_lengths(cs, &n_h, &n_a, &n_b, msg, msglen))) return e;
    key_bytes = (uint64_t)(n_h + n_l + n_a + n_b) * sizeof(cz_g1_aff) + (uint64_t)n_b * sizeof(cz_g2_aff);
    /* everything but the scratch, as the allocator counts it (0 bytes as 1) */
    fixed = nz(n_h * sizeof(cz_g1_aff)) + nz(n_l * sizeof(cz_g1_aff)) + nz(n_a * sizeof(cz_g1_aff)) +
            nz(n_b * sizeof(cz_g1_aff)) + nz(n_b * sizeof(cz_g2_aff)) + nz(n_ic * sizeof(cz_g1_aff)) +
            CZ__SETUP_TABLE_POINTS * (sizeof(cz_g1_aff) + sizeof(cz_g2_aff));
    CZ_CK(cudaGetDevice(&prev_dev));
    CZ_CK(cudaSetDevice(device));
    if ((e = cz_cuda_vram_init(device, CZ_CUDA_VRAM_MARGIN_DEFAULT, NULL, msg, msglen))) goto fail;
    cz_cuda_vram_stats(device, &budget, &used, NULL);
    left = budget > used ? budget - used : 0;
    if (left < fixed + min_scratch()) {
        e = cz_fail(CZ_ERR_NOMEM, msg, msglen,
                    "cuda setup: the key needs %.1f MiB of device memory (%zu G1 and %zu G2 points), %.1f MiB with "
                    "ic, the tables and the least scratch; device %d's budget has %.1f MiB free of %.1f MiB",
                    mib(key_bytes), n_h + n_l + n_a + n_b, n_b, mib(fixed + min_scratch()), device, mib(left),
                    mib(budget));
        goto fail;
    }
    scratch = pick_scratch(opts, SCRATCH_DEFAULT, left - fixed);
    if (scratch < min_scratch()) scratch = min_scratch();

    t0 = cz_now_ms();
    out->n_h = n_h;
    out->n_l = n_l;
    out->n_a = n_a;
    out->n_b_g1 = n_b;
    out->n_b_g2 = n_b;
    CZ_CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    CZ_CK(cz__vram_malloc(&out->h, n_h * sizeof(cz_g1_aff)));
    CZ_CK(cz__vram_malloc(&out->l, n_l * sizeof(cz_g1_aff)));
    CZ_CK(cz__vram_malloc(&out->a, n_a * sizeof(cz_g1_aff)));
    CZ_CK(cz__vram_malloc(&out->b_g1, n_b * sizeof(cz_g1_aff)));
    CZ_CK(cz__vram_malloc(&out->b_g2, n_b * sizeof(cz_g2_aff)));
    CZ_CK(cz__vram_malloc(&d_ic, n_ic * sizeof(cz_g1_aff)));
    CZ_CK(cz__vram_malloc(&d_t1, CZ__SETUP_TABLE_POINTS * sizeof(cz_g1_aff)));
    CZ_CK(cz__vram_malloc(&d_t2, CZ__SETUP_TABLE_POINTS * sizeof(cz_g2_aff)));
    CZ_CK(cz__vram_malloc(&d_scr, scratch));
    t1h = cz__setup_table_g1();
    t2h = cz__setup_table_g2();
    if (!t1h || !t2h) { e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "cuda setup: out of host memory for the tables"); goto fail; }
    CZ_CK(cudaMemcpyAsync(d_t1, t1h, CZ__SETUP_TABLE_POINTS * sizeof(cz_g1_aff), cudaMemcpyHostToDevice, st));
    CZ_CK(cudaMemcpyAsync(d_t2, t2h, CZ__SETUP_TABLE_POINTS * sizeof(cz_g2_aff), cudaMemcpyHostToDevice, st));
    CZ_CK(cudaStreamSynchronize(st));
    free(t1h);
    free(t2h);
    t1h = NULL;
    t2h = NULL;
    tt.alloc_ms = cz_now_ms() - t0;

    t0 = cz_now_ms();
    if ((e = cz__setup_make_scalars(&s, cs, seed, pool, msg, msglen))) goto fail;
    tt.scalars_ms = cz_now_ms() - t0;
    if (s.n_h != n_h || s.n_a != n_a || s.n_b != n_b || s.n_ic != n_ic || s.n_l != n_l) {
        e = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cuda setup: the scalars do not match the key's lengths");
        goto fail;
    }

    r.emulate = false;
    r.pool = pool;
    r.st = st;
    r.scratch = d_scr;
    r.scratch_bytes = scratch;
    o.g1[0] = (g1a_t *)out->h;
    o.g1[1] = d_ic;
    o.g1[2] = (g1a_t *)out->l;
    o.g1[3] = (g1a_t *)out->a;
    o.g1[4] = (g1a_t *)out->b_g1;
    o.b_g2 = (g2a_t *)out->b_g2;
    if ((e = run_all(r, o, s, d_t1, d_t2, &tt, msg, msglen))) goto fail;

    t0 = cz_now_ms();
    vk->n_ic = n_ic;
    vk->ic = (cz_g1_aff *)malloc(nz(n_ic * sizeof(cz_g1_aff)));
    if (!vk->ic) { e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "cuda setup: out of host memory"); goto fail; }
    CZ_CK(cudaMemcpyAsync(vk->ic, d_ic, n_ic * sizeof(cz_g1_aff), cudaMemcpyDeviceToHost, st));
    CZ_CK(cudaStreamSynchronize(st));
    if ((e = cz__setup_vk_points(vk, &s))) { cz_fail(e, msg, msglen, "cuda setup: out of host memory"); goto fail; }
    tt.vk_ms = cz_now_ms() - t0;

    cz__vram_free(d_scr);
    cz__vram_free(d_t1);
    cz__vram_free(d_t2);
    cz__vram_free(d_ic);
    cudaStreamDestroy(st);
    cz__setup_scalars_free(&s);
    cudaSetDevice(prev_dev);
    tt.key_bytes = key_bytes;
    tt.total_ms = cz_now_ms() - t_start;
    if (t) *t = tt;
    return CZ_OK;
fail:
    if (st) cudaStreamSynchronize(st); /* nothing in flight reads what is freed below */
    cz__vram_free(d_scr);
    cz__vram_free(d_t1);
    cz__vram_free(d_t2);
    cz__vram_free(d_ic);
    if (st) cudaStreamDestroy(st);
    cz_cuda_pk_dev_free(out);
    cz_groth16_vk_free(vk);
    cz__setup_scalars_free(&s);
    free(t1h);
    free(t2h);
    if (prev_dev >= 0) cudaSetDevice(prev_dev);
    cudaGetLastError();
    return e;
}

extern "C" cz_err cz_cuda_setup_insecure(cz_groth16_vk *vk, cz_cuda_pk_dev *out, const cz_r1cs *cs, uint64_t seed,
                                         int device, cz_pool *pool, char *msg, size_t msglen)
{
    return cz__cuda_setup_insecure_ex(vk, out, cs, seed, device, pool, NULL, NULL, msg, msglen);
}

extern "C" cz_err cz_cuda_setup_insecure_host(cz_groth16_pk *pk, const cz_r1cs *cs, uint64_t seed, int device,
                                              cz_pool *pool, char *msg, size_t msglen)
{
    cz_groth16_vk vk;
    cz_cuda_pk_dev d;
    memset(pk, 0, sizeof *pk);
    cz_err e = cz_cuda_setup_insecure(&vk, &d, cs, seed, device, pool, msg, msglen);
    if (e) return e;
    e = cz_cuda_pk_dev_download(pk, &d, msg, msglen);
    cz_cuda_pk_dev_free(&d);
    if (e) {
        cz_groth16_vk_free(&vk);
        memset(pk, 0, sizeof *pk);
        return e;
    }
    pk->vk = vk;
    return CZ_OK;
}

extern "C" cz_err cz__cuda_setup_insecure_emulated(cz_groth16_pk *pk, const cz_r1cs *cs, uint64_t seed,
                                                   cz_pool *pool, const cz_cuda_setup_opts *opts, char *msg,
                                                   size_t msglen)
{
    cz_err e = CZ_OK;
    cz__setup_scalars s;
    cz_g1_aff *t1 = NULL;
    cz_g2_aff *t2 = NULL;
    char *scr = NULL;
    uint64_t scratch = pick_scratch(opts, SCRATCH_EMULATED, SCRATCH_EMULATED);
    cz_cuda_setup_timings tt;
    runner r;
    targets o;
    memset(pk, 0, sizeof *pk);
    memset(&tt, 0, sizeof tt);
    if (scratch < min_scratch()) scratch = min_scratch();
    if ((e = cz__setup_make_scalars(&s, cs, seed, pool, msg, msglen))) return e;
    t1 = cz__setup_table_g1();
    t2 = cz__setup_table_g2();
    scr = (char *)malloc(scratch);
    pk->n_h = s.n_h;
    pk->n_l = s.n_l;
    pk->n_a = s.n_a;
    pk->n_b_g1 = s.n_b;
    pk->n_b_g2 = s.n_b;
    pk->vk.n_ic = s.n_ic;
    pk->vk.ic = (cz_g1_aff *)malloc(nz(s.n_ic * sizeof(cz_g1_aff)));
    pk->h = (cz_g1_aff *)malloc(nz(s.n_h * sizeof(cz_g1_aff)));
    pk->l = (cz_g1_aff *)malloc(nz(s.n_l * sizeof(cz_g1_aff)));
    pk->a = (cz_g1_aff *)malloc(nz(s.n_a * sizeof(cz_g1_aff)));
    pk->b_g1 = (cz_g1_aff *)malloc(nz(s.n_b * sizeof(cz_g1_aff)));
    pk->b_g2 = (cz_g2_aff *)malloc(nz(s.n_b * sizeof(cz_g2_aff)));
    if (!t1 || !t2 || !scr || !pk->vk.ic || !pk->h || !pk->l || !pk->a || !pk->b_g1 || !pk->b_g2) {
        e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
        goto done;
    }
    r.emulate = true;
    r.pool = pool;
    r.st = NULL;
    r.scratch = scr;
    r.scratch_bytes = scratch;
    o.g1[0] = (g1a_t *)pk->h;
    o.g1[1] = (g1a_t *)pk->vk.ic;
    o.g1[2] = (g1a_t *)pk->l;
    o.g1[3] = (g1a_t *)pk->a;
    o.g1[4] = (g1a_t *)pk->b_g1;
    o.b_g2 = (g2a_t *)pk->b_g2;
    if ((e = run_all(r, o, s, (const g1a_t *)t1, (const g2a_t *)t2, &tt, msg, msglen))) goto done;
    if ((e = cz__setup_vk_points(&pk->vk, &s))) cz_fail(e, msg, msglen, "out of memory");
done:
    free(t1);
    free(t2);
    free(scr);
    cz__setup_scalars_free(&s);
    if (e) cz_groth16_pk_free(pk);
    return e;
}
