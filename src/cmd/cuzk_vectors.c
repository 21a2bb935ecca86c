/* cuzk_vectors.c — placeholder until the vector runner lands. */
#include <stdio.h>
#include "cmd/cuzk_cmds.h"
int cz_cmd_vectors(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "not yet\n"); return 2; }
