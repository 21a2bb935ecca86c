/* cuzk_groth16.c — `cuzk setup`, `cuzk prove`, `cuzk verify`: the bellperson-
 * format Groth16 path from the command line. Each prints its timings per
 * stage. Exit codes: 0 success / valid proof, 1 invalid proof, 2 error.
 *
 * prove checks the witness against every constraint before proving, proves
 * through the backend of --backend cpu|cuda|auto on --device N
 * (backend/backend.h; auto takes CUDA where a device is found), and
 * verifies the proof against the key's own vk before writing it.
 *
 * prove keeps a converted copy of the .params file (formats/pkcache.h) in a
 * cache folder ($CUZK_CACHE_DIR, else $XDG_CACHE_HOME/cuzk, else
 * ~/.cache/cuzk), named by the hash of the key's verifying part, so the next
 * prove with the same parameters maps it instead of decoding every point. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd/cuzk_args.h"
#include "util/clock.h"
#include "cmd/cuzk_cmds.h"
#include "formats/params.h"
#include "formats/pkcache.h"
#include "formats/proof.h"
#include "formats/public_json.h"
#include "formats/witness.h"
#include "formats/wtns.h"
#include "backend/backend.h"
#include "groth16/groth16.h"
#include "r1cs/pce.h"


int cz_cmd_setup(int argc, char **argv)
{
    cz_arg o[] = {{"pce", 0, 1, 0}, {"out-params", 0, 1, 0}, {"out-vk", 0, 1, 0}, {"seed", 0, 0, 0}, {"threads", 0, 0, 0}};
    int rc = cz_args_parse("setup", argc, argv, o, CZ_N_OPTS(o));
    if (rc) return rc;
    uint64_t seed = 1;
    const char *ss = cz_args_get(o, CZ_N_OPTS(o), "seed");
    if (ss && cz_args_u64(ss, &seed)) return cz_cmd_err("setup", "bad --seed");
    const char *outs[] = {cz_args_get(o, CZ_N_OPTS(o), "out-params"), cz_args_get(o, CZ_N_OPTS(o), "out-vk")};
    if ((rc = cz_cmd_outs("setup", 2, outs))) return rc;
    cz_pool *pool;
    if ((rc = cz_cmd_pool("setup", cz_args_get(o, CZ_N_OPTS(o), "threads"), &pool))) return rc;
    char msg[512];
    cz_r1cs cs;
    cz_groth16_pk pk;
    printf("cuzk setup: WARNING: INSECURE test setup. The toxic waste is derived from seed %llu;\n"
           "  anyone who knows the seed can forge proofs. Never use these parameters for real value.\n",
           (unsigned long long)seed);
    double t0 = cz_now_ms(), t;
    if (cz_pce_open(&cs, cz_args_get(o, CZ_N_OPTS(o), "pce"), 1, msg, sizeof msg)) { rc = cz_cmd_err("setup", msg); goto out0; }
    cz_cmd_stage("load constraint system", cz_now_ms() - t0);
    t = cz_now_ms();
    cz_cmd_progress pr;
    cz_cmd_progress_init(&pr, "setup");
    if (cz_groth16_setup_insecure_progress(&pk, &cs, seed, pool, cz_cmd_progress_cb, &pr, msg, sizeof msg)) {
        rc = cz_cmd_err("setup", msg);
        goto out1;
    }
    cz_cmd_stage("generate keys", cz_now_ms() - t);
    t = cz_now_ms();
    if (cz_params_write(cz_args_get(o, CZ_N_OPTS(o), "out-params"), &pk, msg, sizeof msg) ||
        cz_vk_write(cz_args_get(o, CZ_N_OPTS(o), "out-vk"), &pk.vk, msg, sizeof msg)) {
        rc = cz_cmd_err("setup", msg);
        goto out2;
    }
    cz_cmd_stage("write params + vk", cz_now_ms() - t);
    cz_cmd_stage("total", cz_now_ms() - t0);
    printf("cuzk setup: %zu h, %zu l, %zu a, %zu b points; %zu public inputs (with ONE)\n", pk.n_h, pk.n_l, pk.n_a,
           pk.n_b_g1, pk.vk.n_ic);
out2:
    cz_groth16_pk_free(&pk);
out1:
    cz_pce_close(&cs);
out0:
    cz_pool_destroy(pool);
    return rc;
}

static void cache_dir(char *out, size_t len, const char *opt)
{
    const char *e;
    if (opt) snprintf(out, len, "%s", opt);
    else if ((e = getenv("CUZK_CACHE_DIR")) && *e) snprintf(out, len, "%s", e);
    else if ((e = getenv("XDG_CACHE_HOME")) && *e) snprintf(out, len, "%s/cuzk", e);
    else if ((e = getenv("HOME")) && *e) snprintf(out, len, "%s/.cache/cuzk", e);
    else snprintf(out, len, "/tmp/cuzk-cache");
}

/* load the proving key: from the cache when it matches, else decode the
 * .params file (and write the cache unless no_cache) */
static cz_err load_pk(cz_groth16_pk *pk, const char *params, const char *dir_opt, int no_cache, cz_pool *pool,
                      char *msg, size_t msglen)
{
    cz_params_info pi;
    cz_err e = cz_params_peek(&pi, params, msg, msglen);
    if (e) return e;
    if (pi.is_vk) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "%s holds only a verifying key", params);
    uint64_t tag;
    if ((e = cz_pkcache_params_tag(&tag, params, msg, msglen))) return e;
    char dir[768], path[1024];
    cache_dir(dir, sizeof dir, dir_opt);
    snprintf(path, sizeof path, "%s/%016llx.pkc", dir, (unsigned long long)tag);
    cz_pkcache_info ci;
    if (!no_cache && cz_pkcache_peek(&ci, path, NULL, 0) == CZ_OK && ci.vk_tag == tag && ci.n_h == pi.n_h &&
        ci.n_l == pi.n_l && ci.n_a == pi.n_a && ci.n_b_g1 == pi.n_b_g1 && ci.n_b_g2 == pi.n_b_g2 &&
        ci.n_ic == pi.n_ic && cz_pkcache_open(pk, NULL, path, 1, NULL, 0) == CZ_OK) {
        printf("  (parameters from cache %s, checksum ok)\n", path);
        return CZ_OK;
    }
    if ((e = cz_params_read(pk, params, 0, pool, msg, msglen))) return e;
    if (!no_cache) {
        char wmsg[256];
        cz_cmd_mkdirs(dir);
        if (cz_pkcache_write(path, pk, 0, wmsg, sizeof wmsg))
            fprintf(stderr, "cuzk prove: note: parameter cache not written (%s)\n", wmsg);
    }
    return CZ_OK;
}

/* does the file start with the .wtns magic? */
static int is_wtns(const char *path)
{
    char m[4] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(m, 1, 4, f);
    fclose(f);
    return n == 4 && !memcmp(m, "wtns", 4);
}

int cz_cmd_prove(int argc, char **argv)
{
    cz_arg o[] = {{"params", 0, 1, 0},  {"pce", 0, 1, 0},       {"witness", 0, 1, 0}, {"out", 0, 1, 0},
                  {"seed", 0, 0, 0},    {"threads", 0, 0, 0},   {"cache-dir", 0, 0, 0}, {"no-cache", 1, 0, 0},
                  {"backend", 0, 0, 0}, {"device", 0, 0, 0}};
    int rc = cz_args_parse("prove", argc, argv, o, CZ_N_OPTS(o));
    if (rc) return rc;
    const char *ss = cz_args_get(o, CZ_N_OPTS(o), "seed");
    uint64_t seed = 0;
    if (ss && cz_args_u64(ss, &seed)) return cz_cmd_err("prove", "bad --seed");
    const char *out_path = cz_args_get(o, CZ_N_OPTS(o), "out");
    if ((rc = cz_cmd_outs("prove", 1, &out_path))) return rc;
    unsigned threads;
    if ((rc = cz_cmd_threads("prove", cz_args_get(o, CZ_N_OPTS(o), "threads"), &threads))) return rc;
    /* the backend first, so that one that cannot open fails before any loading */
    cz_be *be;
    if ((rc = cz_cmd_backend("prove", cz_args_get(o, CZ_N_OPTS(o), "backend"), cz_args_get(o, CZ_N_OPTS(o), "device"),
                             threads, &be)))
        return rc;
    cz_pool *pool = NULL; /* loading and the witness check; the backend's worker has its own */
    if (cz_pool_create(&pool, threads)) {
        cz_be_close(be);
        return cz_cmd_err("prove", "cannot start worker threads");
    }
    char msg[512];
    cz_r1cs cs = {0};
    cz_groth16_pk pk = {0};
    cz_be_key *key = NULL;
    cz_be_worker *bw = NULL;
    cz_fr *w = NULL;
    uint64_t n_vars = 0, n_inputs = 0, bad = 0;
    double t0 = cz_now_ms(), t = t0;
    printf("cuzk prove:\n");
    if (cz_pce_open(&cs, cz_args_get(o, CZ_N_OPTS(o), "pce"), 1, msg, sizeof msg)) { rc = cz_cmd_err("prove", msg); goto out; }
    cz_cmd_stage("load constraint system", cz_now_ms() - t);
    t = cz_now_ms();
    const char *wpath = cz_args_get(o, CZ_N_OPTS(o), "witness");
    if (is_wtns(wpath)) { /* a circom/snarkjs .wtns: same variable order, no input count */
        if (cz_wtns_read(&w, &n_vars, wpath, msg, sizeof msg)) { rc = cz_cmd_err("prove", msg); goto out; }
        n_inputs = cs.n_inputs;
    } else if (cz_witness_read(&w, &n_vars, &n_inputs, wpath, msg, sizeof msg)) {
        rc = cz_cmd_err("prove", msg);
        goto out;
    }
    if (n_vars != cs.n_vars || n_inputs != cs.n_inputs) {
        snprintf(msg, sizeof msg, "witness has %llu variables (%llu inputs), the circuit %llu (%llu inputs)",
                 (unsigned long long)n_vars, (unsigned long long)n_inputs, (unsigned long long)cs.n_vars,
                 (unsigned long long)cs.n_inputs);
        rc = cz_cmd_err("prove", msg);
        goto out;
    }
    cz_cmd_stage("load witness", cz_now_ms() - t);
    t = cz_now_ms();
    if (!cz_r1cs_is_satisfied(&cs, w, &bad, pool)) {
        snprintf(msg, sizeof msg, "the witness does not satisfy constraint %llu of %llu; no proof written",
                 (unsigned long long)bad, (unsigned long long)cs.n_constraints);
        rc = cz_cmd_err("prove", msg);
        goto out;
    }
    cz_cmd_stage("check witness", cz_now_ms() - t);
    t = cz_now_ms();
    if (load_pk(&pk, cz_args_get(o, CZ_N_OPTS(o), "params"), cz_args_get(o, CZ_N_OPTS(o), "cache-dir"),
                cz_args_get(o, CZ_N_OPTS(o), "no-cache") != NULL, pool, msg, sizeof msg)) {
        rc = cz_cmd_err("prove", msg);
        goto out;
    }
    cz_cmd_stage("load parameters", cz_now_ms() - t);
    cz_pool_destroy(pool); /* its threads are not needed any more */
    pool = NULL;
    t = cz_now_ms();
    cz_be_circuit bc = {.pk = &pk, .cs = &cs};
    if (cz_be_load(be, &bc, &key, msg, sizeof msg) || cz_be_worker_create(be, &bw, msg, sizeof msg)) {
        rc = cz_cmd_err("prove", msg);
        goto out;
    }
    const cz_fr *wit = w;
    if (cz_be_kind(be) == CZ_BACKEND_CUDA) { /* the worker's own (pinned) buffer uploads fastest */
        cz_fr *buf = cz_be_worker_buffer(bw, cs.n_vars);
        if (!buf) { rc = cz_cmd_err("prove", "out of memory for the witness buffer"); goto out; }
        memcpy(buf, w, cs.n_vars * sizeof *buf);
        wit = buf;
    }
    cz_cmd_stage("load into the backend", cz_now_ms() - t);
    cz_fr r, s;
    if ((rc = cz_cmd_randomness("prove", ss != NULL, seed, &r, &s))) goto out;
    cz_groth16_proof proof;
    cz_groth16_timings tm;
    cz_cmd_progress pr; /* a CPU proof's stages on stderr, when it is long */
    cz_cmd_progress_init(&pr, "prove");
    cz_be_worker_set_progress(bw, cz_cmd_progress_cb, &pr);
    if (cz_be_prove(bw, key, wit, &r, &s, &proof, &tm, msg, sizeof msg)) { rc = cz_cmd_err("prove", msg); goto out; }
    cz_cmd_prove_stages(be, &tm, 0);
    t = cz_now_ms();
    {   /* self-check: a proof that does not verify is never written */
        cz_groth16_pvk pvk;
        int ok = cz_groth16_prepare_vk(&pvk, &pk.vk) == CZ_OK &&
                 cz_groth16_verify(&pvk, &proof, w + 1, cs.n_inputs - 1);
        cz_groth16_pvk_free(&pvk);
        if (!ok) { rc = cz_cmd_err("prove", "the proof failed its self-check against the key's vk; nothing written"); goto out; }
    }
    cz_cmd_stage("self-verify", cz_now_ms() - t);
    t = cz_now_ms();
    if (cz_proofs_write(cz_args_get(o, CZ_N_OPTS(o), "out"), &proof, 1, msg, sizeof msg)) { rc = cz_cmd_err("prove", msg); goto out; }
    cz_cmd_stage("write proof", cz_now_ms() - t);
    cz_cmd_stage("total", cz_now_ms() - t0);
    printf("cuzk prove: wrote %s (%d bytes)\n", cz_args_get(o, CZ_N_OPTS(o), "out"), CZ_GROTH16_PROOF_BYTES);
out:
    cz_be_worker_destroy(bw);
    cz_be_release(be, key);
    cz_be_close(be);
    free(w);
    cz_groth16_pk_free(&pk);
    cz_pce_close(&cs);
    cz_pool_destroy(pool);
    return rc;
}

int cz_cmd_verify(int argc, char **argv)
{
    cz_arg o[] = {{"vk", 0, 1, 0}, {"public", 0, 1, 0}, {"proof", 0, 1, 0}};
    int rc = cz_args_parse("verify", argc, argv, o, CZ_N_OPTS(o));
    if (rc) return rc;
    char msg[512];
    cz_groth16_vk vk = {0};
    cz_groth16_pvk pvk = {0};
    cz_fr *pub = NULL;
    size_t n_pub = 0, n_proofs = 0;
    cz_groth16_proof *proofs = NULL;
    double t0 = cz_now_ms(), t = t0;
    printf("cuzk verify:\n");
    if (cz_vk_read(&vk, cz_args_get(o, CZ_N_OPTS(o), "vk"), NULL, msg, sizeof msg)) { rc = cz_cmd_err("verify", msg); goto out; }
    if (cz_public_json_read(&pub, &n_pub, cz_args_get(o, CZ_N_OPTS(o), "public"), msg, sizeof msg)) {
        rc = cz_cmd_err("verify", msg);
        goto out;
    }
    if (cz_proofs_read(&proofs, &n_proofs, cz_args_get(o, CZ_N_OPTS(o), "proof"), msg, sizeof msg)) {
        /* a proof file that does not decode is an invalid proof, not an I/O error */
        printf("cuzk verify: proof INVALID (%s)\n", msg);
        rc = 1;
        goto out;
    }
    cz_cmd_stage("load vk, inputs, proof", cz_now_ms() - t);
    if (n_pub + 1 != vk.n_ic) {
        snprintf(msg, sizeof msg, "%zu public inputs given, the verifying key expects %zu", n_pub, vk.n_ic - 1);
        rc = cz_cmd_err("verify", msg);
        goto out;
    }
    t = cz_now_ms();
    if (cz_groth16_prepare_vk(&pvk, &vk)) { rc = cz_cmd_err("verify", "out of memory"); goto out; }
    cz_cmd_stage("prepare vk", cz_now_ms() - t);
    t = cz_now_ms();
    int ok = 1;
    for (size_t i = 0; i < n_proofs; i++) ok &= cz_groth16_verify(&pvk, &proofs[i], pub, n_pub);
    cz_cmd_stage("verify", cz_now_ms() - t);
    printf("cuzk verify: %s\n", ok ? "proof valid" : "proof INVALID");
    rc = ok ? 0 : 1;
out:
    cz_groth16_pvk_free(&pvk);
    cz_groth16_vk_free(&vk);
    free(pub);
    free(proofs);
    return rc;
}
