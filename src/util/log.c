/* log.c — text or JSON log lines (log.h). */
#include "util/log.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "util/textbuf.h"

static const char *g_prog = "cuzk";
static int g_level = CZ_LOG_INFO, g_json;
static FILE *g_f;

int cz_log_level_of(const char *name)
{
    static const char *n[] = {"trace", "debug", "info", "warn", "error", "off"};
    for (int i = 0; i < 6; i++)
        if (name && !strcmp(name, n[i])) return i;
    return -1;
}

void cz_log_setup(const char *prog, int level, int json, FILE *f)
{
    g_prog = prog ? prog : "cuzk";
    g_level = level;
    g_json = json;
    g_f = f;
}

int cz_log_enabled(int level) { return level >= g_level && level < CZ_LOG_OFF; }

static int plain_int(const char *v)
{
    if (*v == '-') v++;
    if (!*v || (*v == '0' && v[1]) || strlen(v) > 18) return 0;
    for (; *v; v++)
        if (*v < '0' || *v > '9') return 0;
    return 1;
}

void cz_log(int level, const char *const *kv, const char *fmt, ...)
{
    int always = level & CZ_LOG_ALWAYS;
    level &= ~CZ_LOG_ALWAYS;
    if (level < CZ_LOG_TRACE || level > CZ_LOG_ERROR) level = CZ_LOG_ERROR;
    if (!always && !cz_log_enabled(level)) return;
    static const char *text_name[] = {"trace", "debug", "info", "warning", "error"};
    static const char *json_name[] = {"trace", "debug", "info", "warn", "error"};
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    FILE *f = g_f ? g_f : stderr;
    if (!g_json) {
        if (always) fprintf(f, "%s: %s\n", g_prog, msg);
        else fprintf(f, "%s: %s: %s\n", g_prog, text_name[level], msg);
        return;
    }
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    time_t secs = tv.tv_sec;
    gmtime_r(&secs, &tm);
    cz_textbuf b = {0};
    cz_tb_put(&b, "{\"ts\":\"%04d-%02d-%02dT%02d:%02d:%02d.%03dZ\",\"level\":\"%s\",\"msg\":", tm.tm_year + 1900,
              tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(tv.tv_usec / 1000), json_name[level]);
    cz_tb_json_str(&b, msg);
    cz_tb_put(&b, ",\"prog\":");
    cz_tb_json_str(&b, g_prog);
    for (size_t i = 0; kv && kv[i] && kv[i + 1]; i += 2) {
        if (!strcmp(kv[i], "ts") || !strcmp(kv[i], "level") || !strcmp(kv[i], "msg") || !strcmp(kv[i], "prog"))
            continue; /* the line's own keys stay unique */
        cz_tb_put(&b, ",");
        cz_tb_json_str(&b, kv[i]);
        cz_tb_put(&b, ":");
        if (plain_int(kv[i + 1])) cz_tb_put(&b, "%s", kv[i + 1]);
        else cz_tb_json_str(&b, kv[i + 1]);
    }
    cz_tb_put(&b, "}\n");
    if (!b.oom && b.buf) fputs(b.buf, f);
    else fprintf(f, "{\"level\":\"error\",\"msg\":\"out of memory while logging\"}\n");
    cz_tb_free(&b);
}
