/* cuzk_args.h — what the subcommands share: option parsing ( `--name value`
 * pairs and `--flag` switches, each option declared up front; an unknown
 * option, a missing value or a repeated option is an error with a message),
 * stage timing lines, error exits, the worker pool, the proving backend
 * (--backend, --device), mkdir -p. */
#ifndef CZ_CMD_ARGS_H
#define CZ_CMD_ARGS_H

#include <stdint.h>

#include "backend/backend.h"
#include "ff/ff.h"
#include "groth16/groth16.h"
#include "util/pool.h"

#define CZ_N_OPTS(a) ((int)(sizeof(a) / sizeof((a)[0])))

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

/* helpers shared by the subcommands */
/* prints "  NAME   MS ms", the per-stage timing line */
void cz_cmd_stage(const char *name, double ms);
/* prints "cuzk CMD: MSG" to stderr and returns 2 */
int cz_cmd_err(const char *cmd, const char *msg);
/* a --threads value (NULL: 0, one per CPU); 0 or exit code 2 */
int cz_cmd_threads(const char *cmd, const char *threads, unsigned *n);
/* a worker pool from a --threads value (NULL: one per CPU); 0 or exit code 2 */
int cz_cmd_pool(const char *cmd, const char *threads, cz_pool **pool);
/* opens the proving backend of --backend cpu|cuda|auto (NULL: auto) on
 * --device N (NULL: 0), `threads` host threads per worker; 0, or prints why
 * (a CUDA backend that is not built, no device) and returns 2 */
int cz_cmd_backend(const char *cmd, const char *backend, const char *device, unsigned threads, cz_be **out);
/* the stage lines of one proof: the backend that proved it, then upload,
 * SpMV, NTT, the MSMs (h and l apart when the backend ran them apart),
 * total; zkey picks snarkjs's names (H + C instead of h + l) */
void cz_cmd_prove_stages(const cz_be *b, const cz_groth16_timings *t, int zkey);
/* Groth16 r, s: from the kernel, or (fixed_seed) from `seed`, which makes
 * proofs reproducible and NOT zero-knowledge (says so on stdout). 0, or 2 */
int cz_cmd_randomness(const char *cmd, int fixed_seed, uint64_t seed, cz_fr *r, cz_fr *s);
/* each of the n output paths (NULL ones skipped) writable (util/outpath.h),
 * asked before the work that ends in writing them; 0, or prints "cuzk CMD:
 * cannot write PATH: ..." and returns 2 */
int cz_cmd_outs(const char *cmd, int n, const char *const *paths);
/* progress lines of a long library call (a cz_progress_fn and its context):
 * "cuzk CMD: STAGE DONE of TOTAL (P %), T s" on stderr, none in the first
 * 2 s, then at most one every 2 s, and a stage's last line (DONE = TOTAL)
 * when that stage printed an earlier one */
typedef struct {
    const char *cmd;
    double t0, last;
    char stage[32];
    int stage_printed;
} cz_cmd_progress;
void cz_cmd_progress_init(cz_cmd_progress *p, const char *cmd);
void cz_cmd_progress_cb(void *ctx, const char *stage, uint64_t done, uint64_t total);
/* mkdir -p; 0, or -1 with errno set (ENOTDIR when path is not a folder) */
int cz_cmd_mkdirs(const char *path);

#endif
