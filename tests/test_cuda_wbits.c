/* test_cuda_wbits.c — the compact witness expanded by the device code
 * (src/cuda/cz_cuda_wbits.h, witness_bits.cu) and proved through the CUDA
 * backend (cz_be_prove_bits).
 *
 * Everywhere with a CUDA build: the kernel's code run on the host
 * (cz_cuda_wbits_expand_host) against the plain witness, for random maps
 * (empty, sparse, dense, full; sizes around word edges) and for the
 * synthetic circuit's map and witnesses; a bit comes out as the CPU's
 * Montgomery one. Then, with a device: the same on the GPU
 * (cz_cuda_wbits_expand_copy); for synthetic circuits of several sizes, a
 * key loaded with the bit map proves the compact witness (from pageable
 * memory and from the worker's pinned buffer) to the same bytes as the CPU
 * backend and as the CUDA backend with the full witness, each proof
 * verifies, none falls back, and h2d_bytes is the compact size (the full
 * size for the full witness); an injected launch or allocation failure
 * during a compact proof makes that partition prove on the CPU (same
 * bytes) and the next one on the GPU, and a failed witness allocation
 * proves it unstaged (the compact witness crossing under the lock).
 * Without a device it prints a SKIP line after the host checks. The seed
 * is printed (CZ_TEST_SEED). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "backend/backend.h"
#include "backend/wbits.h"
#include "circuits/synth.h"
#include "formats/proof.h"
#include "groth16/groth16.h"
#include "util/pool.h"
#include "util/rng.h"
#if CZ_HAVE_CUDA
#include "cuda/cz_cuda.h"
#include "cuda/cz_cuda_vram.h"
#include "cuda/cz_cuda_wbits.h"
#endif

#if CZ_HAVE_CUDA

static cz_rng rng;
static int have_gpu;

/* a random map and a witness that fits it, packed; 0 on failure */
static int make_case(cz_wbits_map *m, cz_fr **w, cz_fr **c, uint64_t n, uint64_t ni, int density)
{
    char msg[256];
    uint64_t words = (n + 63) / 64;
    uint64_t *mask = calloc(words + 1, 8);
    for (uint64_t i = ni; i < n; i++)
        if ((int)(cz_rng_u64(&rng) & 255) < density) mask[i >> 6] |= (uint64_t)1 << (i & 63);
    cz_err e = cz_wbits_map_init(m, mask, n, ni, msg, sizeof msg);
    free(mask);
    CHECK_MSG(e == CZ_OK, "map: %s", msg);
    if (e) return 0;
    *w = malloc((n ? n : 1) * sizeof **w);
    *c = malloc(cz_wbits_bytes(m) + sizeof **c);
    for (uint64_t i = 0; i < n; i++) {
        if (cz_wbits_is_bit(m, i)) {
            if (cz_rng_u64(&rng) & 1) (*w)[i] = cz_fr_one_mont;
            else cz_fr_zero(&(*w)[i]);
        } else {
            cz_fr_random(&(*w)[i], &rng);
        }
    }
    e = cz_wbits_pack(*c, m, *w, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "pack: %s", msg);
    return e == CZ_OK;
}

/* the expansion of c (host emulation, or the GPU) against w */
static void check_expand(const cz_wbits_map *m, const cz_fr *w, const cz_fr *c, int on_gpu, const char *what)
{
    char msg[300];
    cz_fr *out = malloc((m->n_vars ? m->n_vars : 1) * sizeof *out);
    memset(out, 0x5a, (m->n_vars ? m->n_vars : 1) * sizeof *out);
    if (on_gpu) {
        cz_err e = cz_cuda_wbits_expand_copy(out, m->mask, m->rank, c, m->n_vars, m->n_fields, cz_wbits_len(m), msg,
                                             sizeof msg);
        CHECK_MSG(e == CZ_OK, "%s: GPU expansion: %s", what, msg);
    } else {
        cz_cuda_wbits_expand_host(out, m->mask, m->rank, c, m->n_vars, m->n_fields);
    }
    uint64_t bad = 0, first = 0;
    for (uint64_t i = 0; i < m->n_vars; i++)
        if (memcmp(&out[i], &w[i], sizeof *out) && !bad++) first = i;
    CHECK_MSG(bad == 0, "%s (%s): %llu of %llu values differ, the first at %llu", what, on_gpu ? "GPU" : "host",
              (unsigned long long)bad, (unsigned long long)m->n_vars, (unsigned long long)first);
    free(out);
}

static void check_random(int on_gpu)
{
    const uint64_t sizes[] = {1, 63, 64, 65, 200, 4097, 100003, (1u << 20) + 17};
    const int dens[] = {0, 10, 230, 256};
    for (size_t a = 0; a < sizeof sizes / sizeof sizes[0]; a++)
        for (size_t d = 0; d < sizeof dens / sizeof dens[0]; d++) {
            if (!on_gpu && sizes[a] > 200000) continue;
            cz_wbits_map m;
            cz_fr *w = NULL, *c = NULL;
            char what[80];
            snprintf(what, sizeof what, "n=%llu density %d/256", (unsigned long long)sizes[a], dens[d]);
            if (make_case(&m, &w, &c, sizes[a], 1, dens[d])) check_expand(&m, w, c, on_gpu, what);
            free(w);
            free(c);
            cz_wbits_map_free(&m);
        }
}

/* the synthetic circuit's map and one of its witnesses, made compact by the
 * generator */
typedef struct {
    cz_r1cs cs;
    cz_fr *w;
    cz_wbits_map m;
    cz_fr *c;
    cz_synth_params p;
} synth_case;

static int make_synth(synth_case *s, uint64_t n, uint64_t seed, uint64_t witness_seed)
{
    char msg[600];
    memset(s, 0, sizeof *s);
    cz_synth_params_init(&s->p);
    s->p.n_constraints = n;
    s->p.seed = seed;
    cz_err e = cz_synth_generate(&s->cs, &s->w, &s->p, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "synth: %s", msg);
    if (e) return 0;
    uint64_t nv = s->cs.n_vars;
    uint64_t *mask = malloc((nv + 63) / 64 * 8);
    e = cz_synth_bit_mask(mask, nv, &s->p, msg, sizeof msg);
    if (!e) e = cz_wbits_map_init(&s->m, mask, nv, s->cs.n_inputs, msg, sizeof msg);
    free(mask);
    CHECK_MSG(e == CZ_OK, "bit map: %s", msg);
    if (e) return 0;
    s->p.witness_seed = witness_seed;
    if (witness_seed) CHECK(cz_synth_witness(s->w, nv, &s->p, msg, sizeof msg) == CZ_OK);
    s->c = malloc(cz_wbits_bytes(&s->m));
    e = cz_synth_witness_compact(s->c, s->m.n_fields, cz_wbits_bits(&s->m, s->c), s->m.n_bits, &s->p, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "compact witness: %s", msg);
    return e == CZ_OK;
}

static void free_synth(synth_case *s)
{
    cz_r1cs_free(&s->cs);
    free(s->w);
    free(s->c);
    cz_wbits_map_free(&s->m);
}

static void check_synth_expand(int on_gpu)
{
    const uint64_t sizes[] = {100, 5000, (1 << 16) - 4};
    for (size_t a = 0; a < sizeof sizes / sizeof sizes[0]; a++) {
        synth_case s;
        char what[80];
        snprintf(what, sizeof what, "synthetic n=%llu", (unsigned long long)sizes[a]);
        if (make_synth(&s, sizes[a], 11 + a, a * 5 + 1)) check_expand(&s.m, s.w, s.c, on_gpu, what);
        free_synth(&s);
    }
}

/* ---- through the backends ---- */

static cz_be *cpu, *gpu;
static cz_be_worker *wc, *wg;

static int same_bytes(const cz_groth16_proof *a, const cz_groth16_proof *b)
{
    uint8_t x[CZ_GROTH16_PROOF_BYTES], y[CZ_GROTH16_PROOF_BYTES];
    cz_proof_encode(x, a);
    cz_proof_encode(y, b);
    return !memcmp(x, y, sizeof x);
}

static void case_prove(uint64_t n, uint64_t seed, cz_pool *pool)
{
    char msg[600], what[80];
    snprintf(what, sizeof what, "proof n=%llu", (unsigned long long)n);
    synth_case s;
    cz_groth16_pk pk = {0};
    cz_groth16_pvk pvk = {0};
    if (!make_synth(&s, n, seed, seed * 3 + 1)) goto out;
    CHECK(cz_groth16_setup_insecure(&pk, &s.cs, seed + 99, pool, msg, sizeof msg) == CZ_OK);
    CHECK(cz_groth16_prepare_vk(&pvk, &pk.vk) == CZ_OK);
    {
        cz_be_circuit plain = {.pk = &pk, .cs = &s.cs}, bits = {.pk = &pk, .cs = &s.cs, .bits = &s.m};
        cz_be_key *kc = NULL, *kf = NULL, *kb = NULL;
        CHECK_MSG(cz_be_load(cpu, &plain, &kc, msg, sizeof msg) == CZ_OK, "%s", msg);
        CHECK_MSG(cz_be_load(gpu, &plain, &kf, msg, sizeof msg) == CZ_OK, "%s", msg);
        CHECK_MSG(cz_be_load(gpu, &bits, &kb, msg, sizeof msg) == CZ_OK, "%s", msg);
        if (kc && kf && kb) {
            cz_fr r, sr;
            cz_fr_random(&r, &rng);
            cz_fr_random(&sr, &rng);
            cz_groth16_proof pc, pf, pb, pp;
            cz_groth16_timings tf, tb, tp;
            CHECK_MSG(cz_be_prove(wc, kc, s.w, &r, &sr, &pc, NULL, msg, sizeof msg) == CZ_OK, "%s", msg);
            CHECK_MSG(cz_be_prove(wg, kf, s.w, &r, &sr, &pf, &tf, msg, sizeof msg) == CZ_OK, "%s", msg);
            CHECK_MSG(cz_be_prove_bits(wg, kb, s.c, &r, &sr, &pb, &tb, msg, sizeof msg) == CZ_OK, "%s", msg);
            CHECK_MSG(same_bytes(&pc, &pf), "%s: full witness on the GPU differs from the CPU", what);
            CHECK_MSG(same_bytes(&pc, &pb), "%s: compact witness on the GPU differs from the CPU", what);
            CHECK_MSG(cz_groth16_verify(&pvk, &pb, s.c + 1, s.cs.n_inputs - 1), "%s: does not verify", what);
            CHECK_MSG(!tf.on_cpu && !tb.on_cpu, "%s: fell back to the CPU", what);
            CHECK_MSG(tf.h2d_bytes == s.cs.n_vars * sizeof(cz_fr), "%s: full h2d %llu", what,
                      (unsigned long long)tf.h2d_bytes);
            CHECK_MSG(tb.h2d_bytes == cz_wbits_bytes(&s.m), "%s: compact h2d %llu, expected %llu", what,
                      (unsigned long long)tb.h2d_bytes, (unsigned long long)cz_wbits_bytes(&s.m));
            printf("test_cuda_wbits: %s: h2d %llu bytes compact, %llu full; upload %.3f / %.3f ms\n", what,
                   (unsigned long long)tb.h2d_bytes, (unsigned long long)tf.h2d_bytes, tb.upload_ms, tf.upload_ms);
            /* from the worker's pinned buffer */
            cz_fr *buf = cz_be_worker_buffer(wg, cz_wbits_len(&s.m));
            CHECK(buf != NULL);
            if (buf) {
                memcpy(buf, s.c, cz_wbits_bytes(&s.m));
                CHECK_MSG(cz_be_prove_bits(wg, kb, buf, &r, &sr, &pp, &tp, msg, sizeof msg) == CZ_OK, "%s", msg);
                CHECK_MSG(same_bytes(&pc, &pp) && !tp.on_cpu, "%s: pinned compact witness differs", what);
            }
            /* injected failures during a compact proof: that partition on
             * the CPU, the next on the GPU, all the same bytes */
            /* a proof in steady state allocates nothing: an allocation
             * injection right after a launch failure (which freed the
             * scratch) hits the witness buffer, making the partition
             * unstaged (its compact witness crosses under the lock) */
            int fell = 0, unstaged = 0;
            for (long nth = 1; nth <= 4; nth++)
                for (int kind = 1; kind >= 0; kind--) {
                    long before = cz_cuda_injected();
                    cz_cuda_inject(kind ? 0 : nth, kind ? nth : 0);
                    cz_err e = cz_be_prove_bits(wg, kb, s.c, &r, &sr, &pp, &tp, msg, sizeof msg);
                    cz_cuda_inject(0, 0);
                    CHECK_MSG(e == CZ_OK && same_bytes(&pc, &pp), "%s: inject %s #%ld: %s", what,
                              kind ? "launch" : "alloc", nth, e ? msg : "the proof differs");
                    if (cz_cuda_injected() > before) fell += tp.on_cpu;
                    unstaged += tp.stage == CZ_STAGE_UNSTAGED;
                    e = cz_be_prove_bits(wg, kb, s.c, &r, &sr, &pp, &tp, msg, sizeof msg);
                    CHECK_MSG(e == CZ_OK && same_bytes(&pc, &pp) && !tp.on_cpu, "%s: after inject %s #%ld", what,
                              kind ? "launch" : "alloc", nth);
                }
            CHECK_MSG(fell >= 1, "%s: no injected failure hit a compact proof", what);
            /* which allocation an injection hits there depends on what the
             * device already holds, so this only reports */
            printf("test_cuda_wbits: %s: %d compact proofs unstaged by injected failures\n", what, unstaged);
            /* the unstaged compact path, forced: a fresh worker whose first
             * allocation (its own witness buffer, in the stage choice) fails;
             * a compact witness is never staged in part, so it crosses under
             * the lock into the shared buffer */
            cz_be_worker *w2 = NULL;
            CHECK_MSG(cz_be_worker_create(gpu, &w2, msg, sizeof msg) == CZ_OK, "%s", msg);
            if (w2) {
                long before = cz_cuda_injected();
                cz_cuda_inject(1, 0);
                cz_err e = cz_be_prove_bits(w2, kb, s.c, &r, &sr, &pp, &tp, msg, sizeof msg);
                cz_cuda_inject(0, 0);
                CHECK_MSG(cz_cuda_injected() == before + 1, "%s: the forced allocation failure did not fire", what);
                CHECK_MSG(e == CZ_OK && same_bytes(&pc, &pp), "%s: forced unstaged compact proof: %s", what,
                          e ? msg : "the proof differs");
                CHECK_MSG(!tp.on_cpu && tp.stage == CZ_STAGE_UNSTAGED, "%s: stage %d (cpu %d), expected unstaged", what,
                          tp.stage, tp.on_cpu);
                cz_be_worker_destroy(w2);
            }
        }
        cz_be_release(cpu, kc);
        cz_be_release(gpu, kf);
        cz_be_release(gpu, kb);
    }
out:
    cz_groth16_pvk_free(&pvk);
    cz_groth16_pk_free(&pk);
    free_synth(&s);
}

int main(void)
{
    char msg[600];
    uint64_t seed = cz_test_seed("test_cuda_wbits", 777);
    cz_rng_seed(&rng, seed);
    /* the kernel's code on the host */
    check_random(0);
    check_synth_expand(0);
    have_gpu = cz_cuda_device_count() > 0 && cz_backend_cuda_devices() > 0;
    if (!have_gpu) {
        printf("test_cuda_wbits: SKIP (no CUDA device); the kernel's code run on the host was checked\n");
        return cz_test_finish("test_cuda_wbits");
    }
    check_random(1);
    check_synth_expand(1);
    cz_pool *pool = NULL;
    CHECK(cz_pool_create(&pool, 0) == CZ_OK);
    cz_backend_opts oc = {.kind = CZ_BACKEND_CPU}, og = {.kind = CZ_BACKEND_CUDA, .quiet = 1};
    CHECK_MSG(cz_be_open(&cpu, &oc, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK_MSG(cz_be_open(&gpu, &og, msg, sizeof msg) == CZ_OK, "%s", msg);
    if (cpu && gpu) {
        CHECK(cz_be_worker_create(cpu, &wc, msg, sizeof msg) == CZ_OK);
        CHECK_MSG(cz_be_worker_create(gpu, &wg, msg, sizeof msg) == CZ_OK, "%s", msg);
        if (wc && wg) {
            case_prove(1000, seed + 1, pool);
            case_prove((1 << 12) - 4, seed + 2, pool);
            case_prove((1 << 16) - 4, seed + 3, pool);
        }
        cz_be_worker_destroy(wg);
        cz_be_worker_destroy(wc);
    }
    cz_be_close(gpu);
    cz_be_close(cpu);
    cz_pool_destroy(pool);
    return cz_test_finish("test_cuda_wbits");
}

#else

int main(void)
{
    printf("test_cuda_wbits: SKIP (no CUDA build)\n");
    return 0;
}

#endif
