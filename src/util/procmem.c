/* procmem.c — VmRSS / VmHWM / MemTotal readers (procmem.h). */
#include "util/procmem.h"

#include <stdio.h>
#include <sys/resource.h>

void cz_proc_memory(uint64_t *rss, uint64_t *peak)
{
    unsigned long long r = 0, h = 0, kb;
    FILE *f = fopen("/proc/self/status", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "VmRSS: %llu kB", &kb) == 1) r = kb << 10;
            else if (sscanf(line, "VmHWM: %llu kB", &kb) == 1) h = kb << 10;
        }
        fclose(f);
    }
    if (!h) {
        struct rusage ru;
        if (getrusage(RUSAGE_SELF, &ru) == 0) h = (unsigned long long)ru.ru_maxrss << 10;
    }
    if (rss) *rss = r;
    if (peak) *peak = h;
}

uint64_t cz_proc_mem_total(void)
{
    unsigned long long kb = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[256];
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) break;
    fclose(f);
    return (uint64_t)kb << 10;
}
