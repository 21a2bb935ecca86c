/* outpath.h — is an output path writable, asked before the long work that
 * ends in writing it (a setup, a proof, a benchmark's JSON), so a mistyped
 * folder fails at once instead of after the work. */
#ifndef CZ_UTIL_OUTPATH_H
#define CZ_UTIL_OUTPATH_H

#include <stddef.h>

#include "util/err.h"

/* CZ_OK when a file can be created or replaced at `path`: the path names no
 * folder, and its folder (the part before the last '/', "." without one)
 * exists, is a folder, and may be written and searched. The writers write
 * PATH.tmp and rename it, so the file's own mode does not matter.
 * Otherwise CZ_ERR_IO (CZ_ERR_INVALID_ARG for an empty path), with "cannot
 * write PATH: ..." in msg. Nothing is created. */
cz_err cz_out_path_check(const char *path, char *msg, size_t msglen);

#endif
