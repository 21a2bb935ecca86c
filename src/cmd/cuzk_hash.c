/* cuzk_hash.c — `cuzk hash ALGO ...`: native hashes for independent checks
 * (dispatches to one file per algorithm). */
#include <stdio.h>
#include <string.h>

#include "cmd/cuzk_cmds.h"

int cz_cmd_hash(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "poseidon")) return cz_cmd_hash_poseidon(argc - 1, argv + 1);
    fprintf(stderr, "usage: cuzk hash poseidon --arity N [--tag T] X1 .. XN\n");
    return 2;
}
