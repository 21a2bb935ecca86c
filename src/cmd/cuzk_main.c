/* cuzk_main.c — the `cuzk` command line: dispatches the first argument to a
 * subcommand. Exit codes: 0 success, 1 a check failed (invalid proof, failing
 * vector), 2 an error (bad usage, unreadable input). */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cuzk_cmds.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk <command> [args]\n"
            "commands:\n"
            "  setup  --pce F --out-params P --out-vk V [--seed S] [--threads N]\n"
            "                            INSECURE test setup (toxic waste from the seed)\n"
            "  prove  --params P --pce F --witness W --out proof.bin [--seed S] [--threads N]\n"
            "         (W: witness.bin or a circom .wtns)\n"
            "         [--cache-dir D] [--no-cache] [--backend cpu|cuda|auto] [--device N]\n"
            "                            prove; --seed gives reproducible (not zero-knowledge) proofs;\n"
            "                            --backend: where to prove (auto: CUDA when a device is found)\n"
            "  verify --vk V --public public.json --proof proof.bin\n"
            "                            exit 0 valid, 1 invalid, 2 error\n"
            "  inspect FILE              what a PCE/witness/params/vk/proof/cache file holds\n"
            "  vectors check FILE.json   run known-answer vectors, print 'N passed, N failed'\n"
            "  synth  --constraints N --out DIR [--seed S]\n"
            "                            synthetic circuit: circuit.pce, witness.bin, public.json\n"
            "  groth16 prove CIRCUIT.zkey WITNESS.wtns PROOF.json PUBLIC.json [--r1cs F] [--seed S]\n"
            "         [--threads N] [--backend cpu|cuda|auto] [--device N]\n"
            "                            snarkjs-compatible prove (circom/snarkjs BLS12-381 files)\n"
            "  groth16 verify VERIFICATION_KEY.json PUBLIC.json PROOF.json\n"
            "                            prints OK! (exit 0) or Invalid proof (exit 1)\n"
            "  zkey export-params CIRCUIT.zkey OUT.params --r1cs CIRCUIT.r1cs [--pce OUT.pce]\n"
            "                            snarkjs key -> bellperson .params + .pce for cuzk prove\n"
            "  zkey export verificationkey CIRCUIT.zkey VERIFICATION_KEY.json\n"
            "                            the snarkjs verification key of a zkey\n"
            "  zkey synth --constraints N --out DIR [--seed S]\n"
            "                            INSECURE synthetic snarkjs workload (zkey, wtns, vk, public)\n"
            "  zkey setup CIRCUIT.r1cs OUT.zkey [--vk VERIFICATION_KEY.json] [--seed S] [--threads N]\n"
            "                            INSECURE test key for a circom circuit (no ptau needed)\n"
            "  hash sha256 FILE|--hex DATA|-\n"
            "                            native hash, printed in hex\n"
            "  hash poseidon --arity N [--tag T] X1 .. XN\n"
            "                            Poseidon hash (neptune, Filecoin) of N Fr values, in decimal\n"
            "  gadget count NAME [--key value ...] | gadget list\n"
            "                            constraints, inputs, aux, non-zeros of one gadget instance\n"
            "  demo                      arithmetic self-check (scalar mul, encodings, pairing)\n"
            "  help                      this text\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) { usage(stderr); return 2; }
    /* The provers allocate and free scratch of 0.1-50 MB per stage and per
     * MSM task; served from fresh mappings each time, every page faults
     * again (~1 ms per 2^14 MSM). Keep such blocks in the heap instead; far
     * larger arrays (big circuits) still get their own mappings. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) { usage(stdout); return 0; }
    if (!strcmp(cmd, "vectors")) return cz_cmd_vectors(argc - 1, argv + 1);
    if (!strcmp(cmd, "demo")) return cz_cmd_demo(argc - 1, argv + 1);
    if (!strcmp(cmd, "synth")) return cz_cmd_synth(argc - 1, argv + 1);
    if (!strcmp(cmd, "setup")) return cz_cmd_setup(argc - 1, argv + 1);
    if (!strcmp(cmd, "prove")) return cz_cmd_prove(argc - 1, argv + 1);
    if (!strcmp(cmd, "verify")) return cz_cmd_verify(argc - 1, argv + 1);
    if (!strcmp(cmd, "inspect")) return cz_cmd_inspect(argc - 1, argv + 1);
    if (!strcmp(cmd, "groth16")) return cz_cmd_groth16(argc - 1, argv + 1);
    if (!strcmp(cmd, "zkey")) return cz_cmd_zkey(argc - 1, argv + 1);
    if (!strcmp(cmd, "hash")) return cz_cmd_hash(argc - 1, argv + 1);
    if (!strcmp(cmd, "gadget")) return cz_cmd_gadget(argc - 1, argv + 1);
    fprintf(stderr, "cuzk: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
