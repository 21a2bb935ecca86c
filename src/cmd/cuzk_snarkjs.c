/* cuzk_snarkjs.c — the snarkjs-compatible commands, with snarkjs's
 * positional arguments:
 *   cuzk groth16 prove  <circuit.zkey> <witness.wtns> <proof.json> <public.json>
 *                       [--r1cs circuit.r1cs] [--seed S] [--threads N]
 *                       [--backend cpu|cuda|auto] [--device N]
 *   cuzk groth16 verify <verification_key.json> <public.json> <proof.json>
 *   cuzk zkey export-params <circuit.zkey> <out.params> --r1cs <circuit.r1cs>
 *                       [--pce out.pce] (see formats/zkey_export.h)
 *   cuzk zkey export verificationkey <circuit.zkey> <verification_key.json>
 *   cuzk zkey synth --constraints N --out DIR [--seed S]: an INSECURE
 *       synthetic workload (cuzk synth's circuit, seeded setup) as
 *       circuit.zkey, witness.wtns, verification_key.json, public.json, so
 *       that snarkjs and cuzk can be compared at any size without a ceremony
 * prove proves through the chosen backend (backend/backend.h; auto takes CUDA
 * where a device is found) and prints the backend and its timings per stage;
 * verify prints "OK!" (exit 0) or
 * "[ERROR] cuzk: Invalid proof" (exit 1), as snarkjs does. Unreadable or
 * malformed input is exit 2.
 *
 * Witness check: the zkey carries only A and B, so with --r1cs the witness
 * is checked against every constraint first (the failing one is named);
 * without it, prove verifies its own proof against the zkey's key before
 * writing anything, which catches any unsatisfying witness but cannot name
 * the constraint. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cuzk_args.h"
#include "util/clock.h"
#include "circuits/synth.h"
#include "cmd/cuzk_cmds.h"
#include "formats/params.h"
#include "formats/public_json.h"
#include "formats/r1cs_file.h"
#include "formats/snarkjs_json.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "formats/zkey_export.h"
#include "backend/backend.h"
#include "groth16/groth16.h"
#include "r1cs/pce.h"

#define MAX_ARGS 32

/* splits argv (argv[0] = the command) into positionals and options, then
 * parses the options; returns 0 or the exit code */
static int split_args(const char *cmd, int argc, char **argv, char **pos, int *npos, int want, cz_arg *o, int no)
{
    char *opt_argv[MAX_ARGS];
    int nopt = 1;
    opt_argv[0] = argv[0];
    *npos = 0;
    for (int i = 1; i < argc; i++) {
        if (nopt >= MAX_ARGS - 1 || *npos >= MAX_ARGS) return cz_cmd_err(cmd, "too many arguments");
        if (!strcmp(argv[i], "-v")) { /* snarkjs's short verbose flag */
            static char verbose[] = "--verbose";
            opt_argv[nopt++] = verbose;
        } else if (!strncmp(argv[i], "--", 2)) {
            opt_argv[nopt++] = argv[i];
            for (int k = 0; k < no; k++)
                if (!strcmp(o[k].name, argv[i] + 2) && !o[k].is_flag && i + 1 < argc) opt_argv[nopt++] = argv[++i];
        } else {
            pos[(*npos)++] = argv[i];
        }
    }
    int rc = cz_args_parse(cmd, nopt, opt_argv, o, no);
    if (rc) return rc;
    if (*npos != want) {
        fprintf(stderr, "cuzk %s: expected %d file arguments, got %d\n", cmd, want, *npos);
        return 2;
    }
    return 0;
}

static int groth16_prove(int argc, char **argv)
{
    const char *cmd = "groth16 prove";
    cz_arg o[] = {{"r1cs", 0, 0, 0},    {"seed", 0, 0, 0},   {"threads", 0, 0, 0},
                  {"verbose", 1, 0, 0}, {"backend", 0, 0, 0}, {"device", 0, 0, 0}};
    char *pos[MAX_ARGS];
    int npos, rc = split_args(cmd, argc, argv, pos, &npos, 4, o, CZ_N_OPTS(o));
    if (rc) return rc;
    const char *ss = cz_args_get(o, CZ_N_OPTS(o), "seed"), *r1cs_path = cz_args_get(o, CZ_N_OPTS(o), "r1cs");
    uint64_t seed = 0;
    if (ss && cz_args_u64(ss, &seed)) return cz_cmd_err(cmd, "bad --seed");
    if ((rc = cz_cmd_outs(cmd, 2, (const char *const *)pos + 2))) return rc;
    unsigned threads;
    if ((rc = cz_cmd_threads(cmd, cz_args_get(o, CZ_N_OPTS(o), "threads"), &threads))) return rc;
    /* the backend first, so that one that cannot open fails before any loading */
    cz_be *be;
    if ((rc = cz_cmd_backend(cmd, cz_args_get(o, CZ_N_OPTS(o), "backend"), cz_args_get(o, CZ_N_OPTS(o), "device"),
                             threads, &be)))
        return rc;
    cz_pool *pool = NULL; /* loading and the witness check; the backend's worker has its own */
    if (cz_pool_create(&pool, threads)) {
        cz_be_close(be);
        return cz_cmd_err(cmd, "cannot start worker threads");
    }
    char msg[600];
    cz_be_key *key = NULL;
    cz_be_worker *bw = NULL;
    cz_zkey zk = {0};
    cz_r1cs cs = {0};
    cz_groth16_pvk pvk = {0};
    cz_fr *w = NULL;
    uint64_t nw = 0;
    double t0 = cz_now_ms(), t = t0;
    printf("cuzk groth16 prove:\n");
    if (cz_zkey_open(&zk, pos[0], pool, msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    cz_cmd_stage("load zkey", cz_now_ms() - t);
    t = cz_now_ms();
    if (cz_wtns_read(&w, &nw, pos[1], msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    if (nw != zk.pk.n_vars) {
        snprintf(msg, sizeof msg, "invalid witness length: the circuit (%s) has %llu signals, the witness (%s) %llu",
                 pos[0], (unsigned long long)zk.pk.n_vars, pos[1], (unsigned long long)nw);
        rc = cz_cmd_err(cmd, msg);
        goto out;
    }
    cz_cmd_stage("load witness", cz_now_ms() - t);
    if (r1cs_path) {
        t = cz_now_ms();
        cz_r1cs_file_info fi;
        uint64_t bad = 0;
        if (cz_r1cs_file_read(&cs, &fi, r1cs_path, msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
        if (cs.n_vars != zk.pk.n_vars || cs.n_inputs != zk.pk.n_public + 1) {
            snprintf(msg, sizeof msg, "%s has %llu signals (%llu public), the zkey %llu (%llu public): not the same circuit",
                     r1cs_path, (unsigned long long)cs.n_vars, (unsigned long long)cs.n_inputs - 1,
                     (unsigned long long)zk.pk.n_vars, (unsigned long long)zk.pk.n_public);
            rc = cz_cmd_err(cmd, msg);
            goto out;
        }
        if (!cz_r1cs_is_satisfied(&cs, w, &bad, pool)) {
            snprintf(msg, sizeof msg, "the witness does not satisfy constraint %llu of %llu (%s); no proof written",
                     (unsigned long long)bad, (unsigned long long)cs.n_constraints, r1cs_path);
            rc = cz_cmd_err(cmd, msg);
            goto out;
        }
        cz_cmd_stage("check witness (r1cs)", cz_now_ms() - t);
    }
    cz_pool_destroy(pool); /* its threads are not needed any more */
    pool = NULL;
    t = cz_now_ms();
    cz_be_circuit bc = {.zpk = &zk.pk};
    if (cz_be_load(be, &bc, &key, msg, sizeof msg) || cz_be_worker_create(be, &bw, msg, sizeof msg)) {
        rc = cz_cmd_err(cmd, msg);
        goto out;
    }
    const cz_fr *wit = w;
    if (cz_be_kind(be) == CZ_BACKEND_CUDA) { /* the worker's own (pinned) buffer uploads fastest */
        cz_fr *buf = cz_be_worker_buffer(bw, zk.pk.n_vars);
        if (!buf) { rc = cz_cmd_err(cmd, "out of memory for the witness buffer"); goto out; }
        memcpy(buf, w, zk.pk.n_vars * sizeof *buf);
        wit = buf;
    }
    cz_cmd_stage("load into the backend", cz_now_ms() - t);
    cz_fr r, s;
    if ((rc = cz_cmd_randomness(cmd, ss != NULL, seed, &r, &s))) goto out;
    cz_groth16_proof proof;
    cz_groth16_timings tm;
    cz_cmd_progress pr; /* a CPU proof's stages on stderr, when it is long */
    cz_cmd_progress_init(&pr, cmd);
    cz_be_worker_set_progress(bw, cz_cmd_progress_cb, &pr);
    if (cz_be_prove(bw, key, wit, &r, &s, &proof, &tm, msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    cz_cmd_prove_stages(be, &tm, 1);
    t = cz_now_ms();
    if (cz_groth16_prepare_vk(&pvk, &zk.pk.vk)) { rc = cz_cmd_err(cmd, "out of memory"); goto out; }
    if (!cz_groth16_verify(&pvk, &proof, w + 1, zk.pk.n_public)) {
        /* with --r1cs the witness was checked, so the key itself is at fault
         * (a point outside the subgroup, a damaged section, a key of another
         * setup); without it either may be */
        rc = cz_cmd_err(cmd, r1cs_path ? "the proof does not verify against the zkey's own key although the witness "
                                         "satisfies the circuit: the zkey is damaged or inconsistent (e.g. a point "
                                         "outside the subgroup); no proof written"
                                       : "the proof does not verify against the zkey's key: the witness does not "
                                         "satisfy the circuit, or the zkey is damaged; no proof written. Pass --r1cs "
                                         "circuit.r1cs to check the witness and name the failing constraint");
        goto out;
    }
    cz_cmd_stage("self-check (verify)", cz_now_ms() - t);
    t = cz_now_ms();
    if (cz_snarkjs_proof_write(pos[2], &proof, msg, sizeof msg) ||
        cz_snarkjs_public_write(pos[3], w + 1, zk.pk.n_public, msg, sizeof msg)) {
        rc = cz_cmd_err(cmd, msg);
        goto out;
    }
    cz_cmd_stage("write proof + public", cz_now_ms() - t);
    cz_cmd_stage("total", cz_now_ms() - t0);
out:
    cz_be_worker_destroy(bw);
    cz_be_release(be, key);
    cz_be_close(be);
    cz_groth16_pvk_free(&pvk);
    cz_r1cs_free(&cs);
    free(w);
    cz_zkey_close(&zk);
    cz_pool_destroy(pool);
    return rc;
}

static int invalid(const char *why)
{
    if (why) fprintf(stderr, "[ERROR] cuzk: Invalid proof: %s\n", why);
    else fprintf(stderr, "[ERROR] cuzk: Invalid proof\n");
    return 1;
}

static int groth16_verify(int argc, char **argv)
{
    const char *cmd = "groth16 verify";
    cz_arg o[] = {{"verbose", 1, 0, 0}};
    char *pos[MAX_ARGS];
    int npos, rc = split_args(cmd, argc, argv, pos, &npos, 3, o, CZ_N_OPTS(o));
    if (rc) return rc;
    int verbose = cz_args_get(o, CZ_N_OPTS(o), "verbose") != NULL;
    char msg[600];
    cz_groth16_vk vk = {0};
    cz_groth16_pvk pvk = {0};
    cz_groth16_proof proof;
    cz_fr *pub = NULL;
    size_t n_pub = 0;
    double t0 = cz_now_ms();
    if (cz_snarkjs_vk_read(&vk, pos[0], msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    if (cz_public_json_read(&pub, &n_pub, pos[1], msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    cz_err e = cz_snarkjs_proof_read(&proof, pos[2], msg, sizeof msg);
    if (e == CZ_ERR_IO || e == CZ_ERR_LENGTH || e == CZ_ERR_NOMEM ||
        (e == CZ_ERR_PARSE && strstr(msg, "not valid JSON"))) {
        rc = cz_cmd_err(cmd, msg);
        goto out;
    }
    if (e) { rc = invalid(msg); goto out; }       /* a proof that does not decode is an invalid proof */
    if (n_pub + 1 != vk.n_ic) {
        snprintf(msg, sizeof msg, "%zu public signals given, the verification key expects %zu", n_pub, vk.n_ic - 1);
        rc = invalid(msg);
        goto out;
    }
    if (verbose) cz_cmd_stage("load vk, public, proof", cz_now_ms() - t0);
    double t = cz_now_ms();
    if (cz_groth16_prepare_vk(&pvk, &vk)) { rc = cz_cmd_err(cmd, "out of memory"); goto out; }
    int ok = cz_groth16_verify(&pvk, &proof, pub, n_pub);
    if (verbose) cz_cmd_stage("verify", cz_now_ms() - t);
    if (ok) printf("OK!\n");
    rc = ok ? 0 : invalid(NULL);
out:
    cz_groth16_pvk_free(&pvk);
    cz_groth16_vk_free(&vk);
    free(pub);
    return rc;
}

int cz_cmd_groth16(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "prove")) return groth16_prove(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "verify")) return groth16_verify(argc - 1, argv + 1);
    fprintf(stderr, "usage: cuzk groth16 prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> "
                    "[--r1cs F] [--seed S] [--threads N] [--backend cpu|cuda|auto] [--device N]\n"
                    "       cuzk groth16 verify <verification_key.json> <public.json> <proof.json> [--verbose]\n");
    return 2;
}

static int zkey_export_params(int argc, char **argv)
{
    const char *cmd = "zkey export-params";
    cz_arg o[] = {{"r1cs", 0, 1, 0}, {"pce", 0, 0, 0}, {"threads", 0, 0, 0}};
    char *pos[MAX_ARGS];
    int npos, rc = split_args(cmd, argc, argv, pos, &npos, 2, o, CZ_N_OPTS(o));
    if (rc) return rc;
    char pce_path[4096];
    const char *pce_opt = cz_args_get(o, CZ_N_OPTS(o), "pce");
    size_t pl = strlen(pos[1]);
    if (pce_opt) snprintf(pce_path, sizeof pce_path, "%s", pce_opt);
    else if (pl > 7 && !strcmp(pos[1] + pl - 7, ".params")) snprintf(pce_path, sizeof pce_path, "%.*s.pce", (int)(pl - 7), pos[1]);
    else snprintf(pce_path, sizeof pce_path, "%s.pce", pos[1]);
    const char *outs[] = {pos[1], pce_path};
    if ((rc = cz_cmd_outs(cmd, 2, outs))) return rc;
    cz_pool *pool;
    if ((rc = cz_cmd_pool(cmd, cz_args_get(o, CZ_N_OPTS(o), "threads"), &pool))) return rc;
    char msg[600];
    cz_zkey zk = {0};
    cz_r1cs cs = {0};
    cz_groth16_pk pk = {0};
    double t0 = cz_now_ms(), t = t0;
    printf("cuzk zkey export-params:\n");
    if (cz_zkey_open(&zk, pos[0], pool, msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    if (cz_r1cs_file_read(&cs, NULL, cz_args_get(o, CZ_N_OPTS(o), "r1cs"), msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    cz_cmd_stage("load zkey + r1cs", cz_now_ms() - t);
    t = cz_now_ms();
    if (cz_zkey_to_params(&pk, &zk, &cs, pool, msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    cz_cmd_stage("convert (H change of basis)", cz_now_ms() - t);
    t = cz_now_ms();
    if (cz_params_write(pos[1], &pk, msg, sizeof msg) || cz_pce_write(pce_path, &cs, msg, sizeof msg)) {
        rc = cz_cmd_err(cmd, msg);
        goto out;
    }
    cz_cmd_stage("write params + pce", cz_now_ms() - t);
    cz_cmd_stage("total", cz_now_ms() - t0);
    printf("cuzk zkey export-params: wrote %s and %s (prove with: cuzk prove --params %s --pce %s --witness W)\n",
           pos[1], pce_path, pos[1], pce_path);
out:
    cz_groth16_pk_free(&pk);
    cz_r1cs_free(&cs);
    cz_zkey_close(&zk);
    cz_pool_destroy(pool);
    return rc;
}

static int zkey_export_vk(int argc, char **argv)
{
    const char *cmd = "zkey export verificationkey";
    cz_arg o[] = {{"verbose", 1, 0, 0}};
    char *pos[MAX_ARGS];
    int npos, rc = split_args(cmd, argc, argv, pos, &npos, 2, o, CZ_N_OPTS(o));
    if (rc) return rc;
    if ((rc = cz_cmd_outs(cmd, 1, (const char *const *)pos + 1))) return rc;
    char msg[600];
    cz_zkey zk;
    if (cz_zkey_open(&zk, pos[0], NULL, msg, sizeof msg)) return cz_cmd_err(cmd, msg);
    if (cz_snarkjs_vk_write(pos[1], &zk.pk.vk, msg, sizeof msg)) rc = cz_cmd_err(cmd, msg);
    cz_zkey_close(&zk);
    return rc;
}

/* an INSECURE synthetic snarkjs workload: cuzk synth's circuit, the seeded
 * test setup with roots from 5, written as circuit.zkey + witness.wtns +
 * verification_key.json + public.json (+ circuit.r1cs is not produced) */
static int zkey_synth(int argc, char **argv)
{
    const char *cmd = "zkey synth";
    cz_arg o[] = {{"constraints", 0, 1, 0}, {"out", 0, 1, 0}, {"seed", 0, 0, 0}, {"threads", 0, 0, 0}};
    char *pos[MAX_ARGS];
    int npos, rc = split_args(cmd, argc, argv, pos, &npos, 0, o, CZ_N_OPTS(o));
    if (rc) return rc;
    cz_synth_params sp;
    cz_synth_params_init(&sp);
    const char *ss = cz_args_get(o, CZ_N_OPTS(o), "seed");
    if (cz_args_u64(cz_args_get(o, CZ_N_OPTS(o), "constraints"), &sp.n_constraints) ||
        sp.n_constraints < CZ_SYNTH_MIN_CONSTRAINTS || sp.n_constraints > ((uint64_t)1 << CZ_ZKEY_MAX_LOG_DOMAIN) - 16)
        return cz_cmd_err(cmd, "bad --constraints");
    if (ss && cz_args_u64(ss, &sp.seed)) return cz_cmd_err(cmd, "bad --seed");
    const char *dir = cz_args_get(o, CZ_N_OPTS(o), "out");
    char msg[600], p[4096];
    if (!*dir) return cz_cmd_err(cmd, "--out is empty");
    if (cz_cmd_mkdirs(dir) != 0) {
        snprintf(msg, sizeof msg, "cannot create directory %s: %s", dir, strerror(errno));
        return cz_cmd_err(cmd, msg);
    }
    snprintf(p, sizeof p, "%s/circuit.zkey", dir);
    const char *probe = p;
    if ((rc = cz_cmd_outs(cmd, 1, &probe))) return rc;
    cz_pool *pool;
    if ((rc = cz_cmd_pool(cmd, cz_args_get(o, CZ_N_OPTS(o), "threads"), &pool))) return rc;
    cz_r1cs cs = {0};
    cz_fr *w = NULL;
    cz_groth16_pk pk = {0};
    double t0 = cz_now_ms(), t = t0;
    printf("cuzk zkey synth: WARNING: INSECURE test key (toxic waste from seed %llu); for benchmarks only\n",
           (unsigned long long)sp.seed);
    if (cz_synth_generate(&cs, &w, &sp, msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    cs.ntt_generator = 5;
    cz_cmd_stage("synthesize circuit", cz_now_ms() - t);
    t = cz_now_ms();
    cz_cmd_progress pr;
    cz_cmd_progress_init(&pr, cmd);
    if (cz_groth16_setup_insecure_progress(&pk, &cs, sp.seed, pool, cz_cmd_progress_cb, &pr, msg, sizeof msg)) {
        rc = cz_cmd_err(cmd, msg);
        goto out;
    }
    cz_cmd_stage("setup (insecure)", cz_now_ms() - t);
    t = cz_now_ms();
    snprintf(p, sizeof p, "%s/circuit.zkey", dir);
    if (cz_zkey_write_from_params(p, &pk, &cs, pool, msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    snprintf(p, sizeof p, "%s/witness.wtns", dir);
    if (cz_wtns_write(p, w, cs.n_vars, msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    snprintf(p, sizeof p, "%s/verification_key.json", dir);
    if (cz_snarkjs_vk_write(p, &pk.vk, msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    snprintf(p, sizeof p, "%s/public.json", dir);
    if (cz_snarkjs_public_write(p, w + 1, cs.n_inputs - 1, msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    cz_cmd_stage("write zkey, wtns, vk, public", cz_now_ms() - t);
    cz_cmd_stage("total", cz_now_ms() - t0);
    printf("cuzk zkey synth: %llu constraints, %llu signals, in %s\n", (unsigned long long)cs.n_constraints,
           (unsigned long long)cs.n_vars, dir);
out:
    cz_groth16_pk_free(&pk);
    cz_r1cs_free(&cs);
    free(w);
    cz_pool_destroy(pool);
    return rc;
}

/* an INSECURE key for a circom circuit: its .r1cs, the seeded test setup
 * with roots from 5 (as snarkjs places the constraints), written as a zkey
 * that snarkjs and cuzk prove with (+ the verification key, --vk) */
static int zkey_setup(int argc, char **argv)
{
    const char *cmd = "zkey setup";
    cz_arg o[] = {{"seed", 0, 0, 0}, {"threads", 0, 0, 0}, {"vk", 0, 0, 0}};
    char *pos[MAX_ARGS];
    int npos, rc = split_args(cmd, argc, argv, pos, &npos, 2, o, CZ_N_OPTS(o));
    if (rc) return rc;
    uint64_t seed = 1;
    const char *ss = cz_args_get(o, CZ_N_OPTS(o), "seed"), *vkp = cz_args_get(o, CZ_N_OPTS(o), "vk");
    if (ss && cz_args_u64(ss, &seed)) return cz_cmd_err(cmd, "bad --seed");
    const char *outs[] = {pos[1], vkp};
    if ((rc = cz_cmd_outs(cmd, 2, outs))) return rc;
    cz_pool *pool;
    if ((rc = cz_cmd_pool(cmd, cz_args_get(o, CZ_N_OPTS(o), "threads"), &pool))) return rc;
    char msg[600];
    cz_r1cs cs = {0};
    cz_groth16_pk pk = {0};
    double t0 = cz_now_ms(), t = t0;
    printf("cuzk zkey setup: WARNING: INSECURE test key (toxic waste from seed %llu); for tests and benchmarks "
           "only\n", (unsigned long long)seed);
    if (cz_r1cs_file_read(&cs, NULL, pos[0], msg, sizeof msg)) { rc = cz_cmd_err(cmd, msg); goto out; }
    cs.ntt_generator = 5;
    cz_cmd_stage("load r1cs", cz_now_ms() - t);
    t = cz_now_ms();
    cz_cmd_progress pr;
    cz_cmd_progress_init(&pr, cmd);
    if (cz_groth16_setup_insecure_progress(&pk, &cs, seed, pool, cz_cmd_progress_cb, &pr, msg, sizeof msg)) {
        rc = cz_cmd_err(cmd, msg);
        goto out;
    }
    cz_cmd_stage("setup (insecure)", cz_now_ms() - t);
    t = cz_now_ms();
    if (cz_zkey_write_from_params(pos[1], &pk, &cs, pool, msg, sizeof msg) ||
        (vkp && cz_snarkjs_vk_write(vkp, &pk.vk, msg, sizeof msg))) {
        rc = cz_cmd_err(cmd, msg);
        goto out;
    }
    cz_cmd_stage(vkp ? "write zkey + vk" : "write zkey", cz_now_ms() - t);
    cz_cmd_stage("total", cz_now_ms() - t0);
    printf("cuzk zkey setup: %llu constraints, %llu signals, domain 2^%d: wrote %s%s%s\n",
           (unsigned long long)cs.n_constraints, (unsigned long long)cs.n_vars, cz_groth16_domain_log(&cs), pos[1],
           vkp ? " and " : "", vkp ? vkp : "");
out:
    cz_groth16_pk_free(&pk);
    cz_r1cs_free(&cs);
    cz_pool_destroy(pool);
    return rc;
}

int cz_cmd_zkey(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "setup")) return zkey_setup(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "synth")) return zkey_synth(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "export-params")) return zkey_export_params(argc - 1, argv + 1);
    if (argc >= 3 && !strcmp(argv[1], "export") && !strcmp(argv[2], "verificationkey"))
        return zkey_export_vk(argc - 2, argv + 2);
    fprintf(stderr, "usage: cuzk zkey export-params <circuit.zkey> <out.params> --r1cs <circuit.r1cs> "
                    "[--pce out.pce] [--threads N]\n"
                    "       cuzk zkey export verificationkey <circuit.zkey> <verification_key.json>\n"
                    "       cuzk zkey synth --constraints N --out DIR [--seed S]   (INSECURE synthetic workload)\n"
                    "       cuzk zkey setup <circuit.r1cs> <out.zkey> [--vk verification_key.json] [--seed S] "
                    "[--threads N]   (INSECURE test key)\n");
    return 2;
}
