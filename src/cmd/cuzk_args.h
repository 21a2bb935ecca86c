/* cuzk_args.h — option parsing shared by the subcommands: `--name value`
 * pairs and `--flag` switches, each option declared up front; an unknown
 * option, a missing value or a repeated option is an error with a message. */
#ifndef CZ_CMD_ARGS_H
#define CZ_CMD_ARGS_H

#include <stdint.h>

typedef struct {
    const char *name;   /* without the leading "--" */
    int is_flag;        /* 1: takes no value */
    int required;
    const char *value;  /* filled by cz_args_parse; "1" for a set flag */
} cz_arg;

/* argv[0] is the subcommand name; returns 0, or prints "cuzk CMD: ..." and
 * returns 2 */
int cz_args_parse(const char *cmd, int argc, char **argv, cz_arg *opts, int nopts);
const char *cz_args_get(const cz_arg *opts, int nopts, const char *name);
/* parses a u64 given as decimal, 0x-hex or 2^k; 0 on success */
int cz_args_u64(const char *s, uint64_t *out);

#endif
