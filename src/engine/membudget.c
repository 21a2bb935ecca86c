/* membudget.c — arithmetic of the host-RAM budget (contract in membudget.h). */
#include "engine/membudget.h"

#include <stdio.h>
#include <string.h>

uint64_t cz_mem_ws_total(const cz_mem_ws *ws)
{
    return ws->witness + (ws->synth > ws->prove ? ws->synth : ws->prove);
}

uint64_t cz_mem_ws_step1(const cz_mem_ws *ws) { return ws->synth > ws->prove ? ws->synth - ws->prove : 0; }

uint64_t cz_mem_ws_step2(const cz_mem_ws *ws) { return ws->witness + ws->prove; }

void cz_mem_init(cz_mem *m, uint64_t budget)
{
    memset(m, 0, sizeof *m);
    m->budget = budget;
}

uint64_t cz_mem_used(const cz_mem *m) { return m->parts + m->keys + m->keys_pending; }

static void note_peak(cz_mem *m)
{
    uint64_t u = cz_mem_used(m);
    if (u > m->peak) m->peak = u;
}

int cz_mem_fits(const cz_mem *m, uint64_t n)
{
    if (!m->budget) return 1;
    uint64_t u = cz_mem_used(m);
    return u <= m->budget && n <= m->budget - u;
}

void cz_mem_take(cz_mem *m, uint64_t n)
{
    m->parts += n;
    m->admitted++;
    note_peak(m);
}

void cz_mem_give(cz_mem *m, uint64_t n)
{
    m->parts = n > m->parts ? 0 : m->parts - n;
    m->released_bytes += n;
}

void cz_mem_pending(cz_mem *m, uint64_t add, uint64_t sub)
{
    m->keys_pending += add;
    m->keys_pending = sub > m->keys_pending ? 0 : m->keys_pending - sub;
    note_peak(m);
}

void cz_mem_set_keys(cz_mem *m, uint64_t keys)
{
    m->keys = keys;
    note_peak(m);
}

uint64_t cz_mem_auto_budget(uint64_t total, uint64_t margin) { return total > margin ? total - margin : 0; }

uint64_t cz_mem_total_ram(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) break;
    fclose(f);
    return (uint64_t)kb * 1024;
}
