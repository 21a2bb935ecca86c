/* cuzk_main.c — the `cuzk` command line: dispatches the first argument to a
 * subcommand. Exit codes: 0 success, 1 a check failed (invalid proof, failing
 * vector), 2 an error (bad usage, unreadable input). */
#include <stdio.h>
#include <string.h>

#include "cmd/cuzk_cmds.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk <command> [args]\n"
            "commands:\n"
            "  vectors check FILE.json   run known-answer vectors, print 'N passed, N failed'\n"
            "  demo                      built-in default job (what `make run` runs)\n"
            "  synth --constraints N --out DIR   synthetic circuit: circuit.pce, witness.bin, public.json\n"
            "  help                      this text\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) { usage(stderr); return 2; }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) { usage(stdout); return 0; }
    if (!strcmp(cmd, "vectors")) return cz_cmd_vectors(argc - 1, argv + 1);
    if (!strcmp(cmd, "demo")) return cz_cmd_demo(argc - 1, argv + 1);
    if (!strcmp(cmd, "synth")) return cz_cmd_synth(argc - 1, argv + 1);
    fprintf(stderr, "cuzk: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
