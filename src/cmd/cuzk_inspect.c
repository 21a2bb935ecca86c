/* cuzk_inspect.c — `cuzk inspect FILE`: says what a file is (PCE, witness,
 * key cache, proof file, bellperson .params or .vk, circom/snarkjs .zkey,
 * .wtns or .r1cs) from its content, checks
 * it the way the loaders do, and prints its header, counts and sizes.
 * Exit 0 when the file is valid, 2 when it is unreadable or unrecognised. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cuzk_cmds.h"
#include "formats/params.h"
#include "formats/pkcache.h"
#include "formats/proof.h"
#include "formats/r1cs_file.h"
#include "formats/witness.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "r1cs/pce.h"

static void human(char *out, size_t len, double bytes)
{
    const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    while (bytes >= 1024 && i < 4) { bytes /= 1024; i++; }
    snprintf(out, len, "%.1f %s", bytes, u[i]);
}

static int inspect_pce(const char *path)
{
    char msg[512];
    cz_r1cs cs;
    if (cz_pce_open(&cs, path, 1, msg, sizeof msg)) { fprintf(stderr, "cuzk inspect: %s\n", msg); return 2; }
    printf("%s: pre-compiled constraint system (PCE), checksum ok%s\n", path,
           cs.ntt_generator == 5 ? "; roots of unity from 5 (exported from a snarkjs zkey)" : "");
    printf("  constraints %llu   variables %llu (inputs with ONE %llu, aux %llu)\n",
           (unsigned long long)cs.n_constraints, (unsigned long long)cs.n_vars, (unsigned long long)cs.n_inputs,
           (unsigned long long)(cs.n_vars - cs.n_inputs));
    uint64_t *bits = calloc((cs.n_vars + 63) / 64 + 1, 8);
    uint64_t nnz = 0;
    for (int k = 0; k < 3; k++) {
        const cz_csr *m = &cs.m[k];
        nnz += m->nnz;
        uint64_t dens = bits ? cz_r1cs_density(&cs, k, bits) : 0;
        printf("  %c: %llu non-zeros (%.3f per constraint), %u distinct coefficients (%u-byte index), "
               "%.2f bytes per non-zero, %llu variables used\n",
               "ABC"[k], (unsigned long long)m->nnz, cs.n_constraints ? (double)m->nnz / cs.n_constraints : 0.0,
               m->n_coefs, m->cidx_bytes, cz_csr_bytes_per_nnz(m), (unsigned long long)dens);
    }
    char h[32];
    human(h, sizeof h, (double)cs.map_len);
    printf("  file %s, %.2f bytes per non-zero overall\n", h, nnz ? (double)cs.map_len / nnz : 0.0);
    free(bits);
    cz_pce_close(&cs);
    return 0;
}

static int inspect_witness(const char *path)
{
    char msg[512];
    cz_fr *w;
    uint64_t nv, ni;
    if (cz_witness_read(&w, &nv, &ni, path, msg, sizeof msg)) { fprintf(stderr, "cuzk inspect: %s\n", msg); return 2; }
    uint64_t bits = 0;
    for (uint64_t i = 0; i < nv; i++) bits += cz_fr_is_zero(&w[i]) || cz_fr_is_one(&w[i]);
    printf("%s: witness (full assignment), checksum ok\n", path);
    printf("  variables %llu (inputs with ONE %llu, aux %llu); %.1f%% of values are 0 or 1\n", (unsigned long long)nv,
           (unsigned long long)ni, (unsigned long long)(nv - ni), nv ? 100.0 * bits / nv : 0.0);
    free(w);
    return 0;
}

static int inspect_pkcache(const char *path)
{
    char msg[512];
    cz_groth16_pk pk;
    cz_pkcache_info in;
    if (cz_pkcache_open(&pk, &in, path, 1, msg, sizeof msg)) { fprintf(stderr, "cuzk inspect: %s\n", msg); return 2; }
    char h[32];
    human(h, sizeof h, (double)in.size);
    printf("%s: converted proving-key cache (v%d, %s), checksum ok\n", path, CZ_PKCACHE_VERSION, h);
    printf("  ic %llu  h %llu  l %llu  a %llu  b_g1 %llu  b_g2 %llu\n", (unsigned long long)in.n_ic,
           (unsigned long long)in.n_h, (unsigned long long)in.n_l, (unsigned long long)in.n_a,
           (unsigned long long)in.n_b_g1, (unsigned long long)in.n_b_g2);
    printf("  vk tag %016llx; points %ssubgroup-checked at conversion\n", (unsigned long long)in.vk_tag,
           (in.flags & CZ_PKCACHE_SUBGROUP_CHECKED) ? "" : "not ");
    cz_groth16_pk_free(&pk);
    return 0;
}

static int inspect_proofs(const char *path)
{
    char msg[512];
    cz_groth16_proof *p;
    size_t n;
    if (cz_proofs_read(&p, &n, path, msg, sizeof msg)) { fprintf(stderr, "cuzk inspect: %s\n", msg); return 2; }
    printf("%s: %zu Groth16 proof%s (%d bytes each: A G1 | B G2 | C G1, compressed), all points valid\n", path, n,
           n == 1 ? "" : "s", CZ_GROTH16_PROOF_BYTES);
    free(p);
    return 0;
}

static int inspect_params(const char *path)
{
    char msg[512];
    cz_params_info pi;
    if (cz_params_peek(&pi, path, msg, sizeof msg)) {
        fprintf(stderr, "cuzk inspect: %s: not a PCE, witness, key cache, proof, .params or .vk file (%s)\n", path, msg);
        return 2;
    }
    char h[32];
    human(h, sizeof h, (double)pi.size);
    if (pi.is_vk) {
        printf("%s: bellperson verifying key (%s)\n  ic %llu points (public inputs with ONE)\n", path, h,
               (unsigned long long)pi.n_ic);
        return 0;
    }
    printf("%s: bellperson Groth16 parameters (%s; lengths checked, points not decoded)\n", path, h);
    printf("  vk: %llu bytes, ic %llu\n  h %llu  l %llu  a %llu  b_g1 %llu  b_g2 %llu\n",
           (unsigned long long)pi.vk_bytes, (unsigned long long)pi.n_ic, (unsigned long long)pi.n_h,
           (unsigned long long)pi.n_l, (unsigned long long)pi.n_a, (unsigned long long)pi.n_b_g1,
           (unsigned long long)pi.n_b_g2);
    return 0;
}

/* ---- circom / snarkjs files ---- */
static int inspect_zkey(const char *path)
{
    char msg[600];
    cz_zkey zk;
    if (cz_zkey_open(&zk, path, NULL, msg, sizeof msg)) { fprintf(stderr, "cuzk inspect: %s\n", msg); return 2; }
    const cz_groth16_zpk *k = &zk.pk;
    printf("%s: snarkjs Groth16 proving key (.zkey, BLS12-381), every point on its curve\n", path);
    printf("  signals %llu (public without ONE %llu, private %llu); domain 2^%d; %llu A/B coefficients over %llu rows\n",
           (unsigned long long)k->n_vars, (unsigned long long)k->n_public,
           (unsigned long long)(k->n_vars - k->n_public - 1), k->log_domain, (unsigned long long)zk.n_coefs,
           (unsigned long long)zk.n_constraints_used);
    printf("  constraints %llu (rows used minus the %llu input rows)\n",
           (unsigned long long)(zk.n_constraints_used - k->n_public - 1), (unsigned long long)k->n_public + 1);
    cz_zkey_close(&zk);
    return 0;
}

static int inspect_wtns(const char *path)
{
    char msg[600];
    cz_fr *w;
    uint64_t n;
    if (cz_wtns_read(&w, &n, path, msg, sizeof msg)) { fprintf(stderr, "cuzk inspect: %s\n", msg); return 2; }
    uint64_t bits = 0;
    for (uint64_t i = 0; i < n; i++) bits += cz_fr_is_zero(&w[i]) || cz_fr_is_one(&w[i]);
    printf("%s: circom witness (.wtns, BLS12-381)\n  values %llu; %.1f%% are 0 or 1\n", path, (unsigned long long)n,
           n ? 100.0 * bits / n : 0.0);
    free(w);
    return 0;
}

static int inspect_r1cs(const char *path)
{
    char msg[600];
    cz_r1cs cs;
    cz_r1cs_file_info fi;
    if (cz_r1cs_file_read(&cs, &fi, path, msg, sizeof msg)) { fprintf(stderr, "cuzk inspect: %s\n", msg); return 2; }
    printf("%s: circom constraint system (.r1cs, BLS12-381)\n", path);
    printf("  constraints %llu; wires %llu: outputs %llu, public inputs %llu, private inputs %llu; labels %llu\n",
           (unsigned long long)fi.n_constraints, (unsigned long long)fi.n_wires, (unsigned long long)fi.n_outputs,
           (unsigned long long)fi.n_pub_inputs, (unsigned long long)fi.n_prv_inputs, (unsigned long long)fi.n_labels);
    printf("  non-zeros A %llu, B %llu, C %llu\n", (unsigned long long)cs.m[0].nnz, (unsigned long long)cs.m[1].nnz,
           (unsigned long long)cs.m[2].nnz);
    cz_r1cs_free(&cs);
    return 0;
}

int cz_cmd_inspect(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: cuzk inspect FILE\n"); return 2; }
    const char *path = argv[1];
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cuzk inspect: cannot open %s: %s\n", path, strerror(errno));
        return 2;
    }
    char magic[8] = {0};
    size_t got = fread(magic, 1, 8, f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    if (got == 8 && !memcmp(magic, "CUZKPCE", 8)) return inspect_pce(path);
    if (got == 8 && !memcmp(magic, "CUZKWIT", 8)) return inspect_witness(path);
    if (got == 8 && !memcmp(magic, "CUZKPKC", 8)) return inspect_pkcache(path);
    if (got >= 4 && !memcmp(magic, "zkey", 4)) return inspect_zkey(path);
    if (got >= 4 && !memcmp(magic, "wtns", 4)) return inspect_wtns(path);
    if (got >= 4 && !memcmp(magic, "r1cs", 4)) return inspect_r1cs(path);
    if (size > 0 && size % CZ_GROTH16_PROOF_BYTES == 0 && ((unsigned char)magic[0] & 0x80)) {
        /* compressed points start with the compression flag; .params starts
           with an uncompressed one */
        return inspect_proofs(path);
    }
    return inspect_params(path);
}
