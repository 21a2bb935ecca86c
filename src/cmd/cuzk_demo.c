/* cuzk_demo.c — placeholder. */
#include <stdio.h>
#include "cmd/cuzk_cmds.h"
int cz_cmd_demo(int argc, char **argv) { (void)argc; (void)argv; return 0; }
