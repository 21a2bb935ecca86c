/* textbuf.h — a growable text buffer for the daemon's text outputs (the
 * Prometheus exposition, the /status JSON, JSON log lines), with a JSON
 * string escaper.
 *
 * cz_tb_put appends printf-style; when memory runs out the buffer stops
 * growing and `oom` is set (what was written stays valid text). The text
 * is always NUL-terminated once anything was put; cz_tb_take hands the
 * malloc'ed string over (an empty string when nothing was put). */
#ifndef CZ_UTIL_TEXTBUF_H
#define CZ_UTIL_TEXTBUF_H

#include <stddef.h>

typedef struct {
    char *buf;
    size_t len, cap;
    int oom;
} cz_textbuf;

void cz_tb_put(cz_textbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as a JSON string, quotes included: ", \, control characters escaped;
 * bytes that are not valid UTF-8 become U+FFFD */
void cz_tb_json_str(cz_textbuf *b, const char *s);
/* the text (malloc'ed, never NULL unless out of memory); b is empty after */
char *cz_tb_take(cz_textbuf *b);
void cz_tb_free(cz_textbuf *b);

#endif
