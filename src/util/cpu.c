/* cpu.c — detect BMI2+ADX once, honour CUZK_NO_ASM. */
#include "util/cpu.h"

#include <stdlib.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

int cz__cpu_adx = -1;

int cz__cpu_detect(void)
{
    int v = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned a, b, c, d;
    /* leaf 7, sub-leaf 0: EBX bit 8 = BMI2 (MULX), bit 19 = ADX */
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
        v = ((b >> 8) & 1) && ((b >> 19) & 1);
#endif
    const char *no = getenv("CUZK_NO_ASM");
    if (no && *no && *no != '0') v = 0;
    cz__cpu_adx = v;
    return v;
}

void cz_cpu_force_portable(int on)
{
    if (on) cz__cpu_adx = 0;
    else cz__cpu_detect();
}
