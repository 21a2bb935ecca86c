/* progress.h — the callback a long library call reports its progress
 * through: progress(ctx, stage, done, total), stage a short name, done of
 * total its units (points, rows, stages). Each call says what it reports
 * and when; the command line prints them with cz_cmd_progress_cb. */
#ifndef CZ_UTIL_PROGRESS_H
#define CZ_UTIL_PROGRESS_H

#include <stdint.h>

typedef void (*cz_progress_fn)(void *ctx, const char *stage, uint64_t done, uint64_t total);

#endif
