/* textbuf.c — the growable text buffer and JSON string escaper (textbuf.h). */
#include "util/textbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grow(cz_textbuf *b, size_t need)
{
    if (b->oom) return 0;
    if (b->len + need < b->cap) return 1;
    size_t cap = (b->cap ? b->cap * 2 : 4096) + need;
    char *p = realloc(b->buf, cap);
    if (!p) {
        b->oom = 1;
        return 0;
    }
    b->buf = p;
    b->cap = cap;
    return 1;
}

void cz_tb_put(cz_textbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !grow(b, (size_t)n + 1)) return;
    va_start(ap, fmt);
    vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* length of the valid UTF-8 sequence at s (1..4), 0 when it is not one */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (!n || (n == 2 && c < 0xc2) || (n == 4 && c > 0xf4)) return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if (n == 3 && ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0))) return 0; /* overlong, surrogate */
    if (n == 4 && ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))) return 0;
    return n;
}

void cz_tb_json_str(cz_textbuf *b, const char *s)
{
    cz_tb_put(b, "\"");
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        size_t run = 0; /* plain bytes copied in one go */
        while (p[run] >= 0x20 && p[run] < 0x80 && p[run] != '"' && p[run] != '\\') run++;
        if (run) {
            cz_tb_put(b, "%.*s", (int)run, (const char *)p);
            p += run;
            continue;
        }
        unsigned c = *p;
        if (c == '"' || c == '\\') cz_tb_put(b, "\\%c", (char)c), p++;
        else if (c == '\n') cz_tb_put(b, "\\n"), p++;
        else if (c == '\t') cz_tb_put(b, "\\t"), p++;
        else if (c == '\r') cz_tb_put(b, "\\r"), p++;
        else if (c < 0x20) cz_tb_put(b, "\\u%04x", c), p++;
        else {
            size_t n = utf8_len(p);
            if (n) cz_tb_put(b, "%.*s", (int)n, (const char *)p), p += n;
            else cz_tb_put(b, "\\ufffd"), p++;
        }
    }
    cz_tb_put(b, "\"");
}

char *cz_tb_take(cz_textbuf *b)
{
    char *s = b->buf ? b->buf : calloc(1, 1);
    b->buf = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
    return s;
}

void cz_tb_free(cz_textbuf *b)
{
    free(b->buf);
    b->buf = NULL;
    b->len = b->cap = 0;
}
