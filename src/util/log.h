/* log.h — the daemon's log lines on stderr, as text or as JSON.
 *
 * Text (the default): "cuzk-daemon: warning: message". JSON ([logging]
 * format = "json"): one object per line,
 *   {"ts":"2026-01-02T03:04:05.678Z","level":"warn","msg":"message",...}
 * with the call's fields after msg (a value that is a plain decimal
 * integer is written as a number, any other as a string). Fields appear
 * only in JSON; the text line is the message alone. TIMELINE lines are not
 * log lines: the engine writes them as they are in either format.
 *
 * cz_log_setup runs once at start, before threads; cz_log may be called
 * from any thread (each line is one write under the stream's lock). Until
 * cz_log_setup runs, lines are text at level info on stderr. */
#ifndef CZ_UTIL_LOG_H
#define CZ_UTIL_LOG_H

#include <stdio.h>

enum { CZ_LOG_TRACE, CZ_LOG_DEBUG, CZ_LOG_INFO, CZ_LOG_WARN, CZ_LOG_ERROR, CZ_LOG_OFF };
/* or'ed into CZ_LOG_ERROR: printed whatever the level (the reason a
 * program stops); its text line is "prog: message", without the level */
#define CZ_LOG_ALWAYS 0x100

/* trace, debug, info, warn, error, off -> CZ_LOG_*; -1 for another name */
int cz_log_level_of(const char *name);
/* prog prefixes text lines ("cuzk-daemon"); json 1 = JSON lines; f NULL = stderr */
void cz_log_setup(const char *prog, int level, int json, FILE *f);
int cz_log_enabled(int level);
/* kv: NULL or a NULL-terminated list of key, value, key, value, ... */
void cz_log(int level, const char *const *kv, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
