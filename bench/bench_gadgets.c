/* bench_gadgets.c — the SHA-256 gadget on one core: a full hash of a 64-byte
 * allocated message (two compressions, 45,386 constraints, 45,340 aux
 * variables) in witness-only mode (Fr written to a buffer), compact mode
 * (bits to a bit stream), counting mode and recording mode (CSR and
 * witness), against native SHA-256 of the same 64 bytes. After the timed
 * rows a note gives each mode's throughput in aux variables per second and
 * bytes of witness written per second (32 per Fr; compact: one bit per
 * boolean variable + 32 per other), from a separate timing (best of 7 runs, thread CPU time). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "circuits/sha256_gadget.h"
#include "util/sha256.h"

typedef struct {
    int mode;
    uint8_t msg[64];
    cz_fr in[4];
    cz_fr *aux;
    uint64_t aux_cap;
    uint64_t *bits;
    cz_fr *fields;
    uint64_t n_aux, n_bits, n_fields;
    uint8_t digest[32];
} g_state;

static void one(g_state *s)
{
    cz_cs cs;
    cz_r1cs r;
    cz_fr *w = NULL;
    switch (s->mode) {
    case CZ_CS_WITNESS: cz_cs_init_witness(&cs, s->in, 4, s->aux, s->aux_cap); break;
    case CZ_CS_COMPACT: cz_cs_init_compact(&cs, s->in, 4, s->bits, s->aux_cap, s->fields, s->aux_cap); break;
    case CZ_CS_COUNT: cz_cs_init_count(&cs); break;
    default: cz_cs_init_record(&cs); break;
    }
    cz_bool in[512], out[256];
    cz_bytes_to_bools_alloc(&cs, in, s->msg, 64);
    cz_sha256_gadget(&cs, out, in, 512);
    cz_bools_to_bytes(s->digest, out, 32);
    s->n_aux = cs.n_aux; s->n_bits = cs.n_bits; s->n_fields = cs.n_aux - cs.n_bits;
    if (s->mode == CZ_CS_RECORD) {
        if (cz_cs_finish_record(&cs, &r, &w, NULL) == CZ_OK) { cz_r1cs_free(&r); free(w); }
    } else {
        cz_cs_free(&cs);
    }
    s->msg[0] ^= s->digest[0]; /* chain */
}

static void run_gadget(void *p, uint64_t iters)
{
    for (uint64_t i = 0; i < iters; i++) one(p);
}

static void run_native(void *p, uint64_t iters)
{
    g_state *s = p;
    for (uint64_t i = 0; i < iters; i++) {
        cz_sha256(s->digest, s->msg, 64);
        s->msg[0] ^= s->digest[0];
    }
}

/* thread CPU ns per call, best of 7 runs (CPU time leaves out time the
 * thread spent descheduled on a busy machine) */
static double cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double best_ns(g_state *s, void (*fn)(void *, uint64_t), uint64_t iters)
{
    double best = 1e30;
    for (int k = 0; k < 7; k++) {
        double t0 = cpu_ns();
        fn(s, iters);
        double t = (cpu_ns() - t0) / (double)iters;
        if (t < best) best = t;
    }
    return best;
}

static void bench_gadgets(cz_bench *b)
{
    static const struct { const char *name, *note; int mode; } OPS[] = {
        {"sha256_gadget_witness", "64-byte hash, witness-only (Fr)", CZ_CS_WITNESS},
        {"sha256_gadget_compact", "64-byte hash, compact (bits + Fr)", CZ_CS_COMPACT},
        {"sha256_gadget_count", "64-byte hash, counting", CZ_CS_COUNT},
        {"sha256_gadget_record", "64-byte hash, recording (CSR + witness)", CZ_CS_RECORD},
    };
    g_state s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < 64; i++) s.msg[i] = (uint8_t)(i * 37 + 1);
    s.aux_cap = 1 << 16;
    s.aux = aligned_alloc(64, s.aux_cap * sizeof(cz_fr));
    s.fields = aligned_alloc(64, s.aux_cap * sizeof(cz_fr));
    s.bits = aligned_alloc(64, s.aux_cap / 8);
    if (!s.aux || !s.fields || !s.bits) {
        cz__bench_note(b, "WARNING: gadget set-up failed (out of memory)");
        goto done;
    }
    /* correctness first: the gadget's digest is native SHA-256 */
    s.mode = CZ_CS_WITNESS;
    uint8_t want[32], msg0[64];
    memcpy(msg0, s.msg, 64);
    cz_sha256(want, s.msg, 64);
    one(&s);
    if (memcmp(want, s.digest, 32)) cz__bench_note(b, "WARNING: gadget digest differs from native SHA-256");
    memcpy(s.msg, msg0, 64);

    double ns_native = 0, ns[4] = {0};
    if (cz__bench_wants(b, "sha256_native_64B")) {
        cz__bench_op(b, "sha256_native_64B", cz_sha256_uses_shani() ? "native, SHA-NI" : "native, portable",
                     run_native, &s);
        ns_native = best_ns(&s, run_native, 100000);
    }
    for (int k = 0; k < 4; k++) {
        if (!cz__bench_wants(b, OPS[k].name)) continue;
        s.mode = OPS[k].mode;
        cz__bench_op(b, OPS[k].name, OPS[k].note, run_gadget, &s);
        ns[k] = best_ns(&s, run_gadget, OPS[k].mode >= CZ_CS_COUNT ? 3 : 20);
    }
    double vars = (double)s.n_aux;
    for (int k = 0; k < 4; k++) {
        if (!ns[k]) continue;
        double bytes = OPS[k].mode == CZ_CS_COMPACT ? (double)s.n_bits / 8 + 32.0 * (double)s.n_fields
                     : 32.0 * vars;
        cz__bench_note(b, "%s: %.1f us/hash, %.1f M aux vars/s, %.2f GB/s of witness written (%.0f B/hash)%s",
                       OPS[k].name, ns[k] / 1e3, vars / ns[k] * 1e3, bytes / ns[k], bytes,
                       OPS[k].mode >= CZ_CS_COUNT ? " [Fr-equivalent]" : "");
    }
    if (ns_native) {
        cz__bench_note(b, "sha256_native_64B: %.0f ns/hash", ns_native);
        if (ns[0]) cz__bench_note(b, "witness-only gadget / native: %.0fx", ns[0] / ns_native);
    }
done:
    free(s.aux); free(s.fields); free(s.bits);
}

CZ_BENCH_GROUP(50, "gadgets", bench_gadgets)
