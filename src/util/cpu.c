/* cpu.c — detect BMI2+ADX and AVX-512F+IFMA once, honour CUZK_NO_ASM. */
#include "util/cpu.h"

#include <stdint.h>
#include <stdlib.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define CZ_CPU_X86 1
#else
#define CZ_CPU_X86 0
#endif

int cz__cpu_adx = -1;
int cz__cpu_ifma = -1;

#if CZ_CPU_X86
/* XCR0 through XGETBV (encoded by hand: no -mxsave needed); only call it when
 * CPUID says OSXSAVE */
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
#endif

int cz__cpu_detect(void)
{
    int adx = 0, ifma = 0;
#if CZ_CPU_X86
    unsigned a, b, c, d;
    /* leaf 7, sub-leaf 0: EBX bit 8 = BMI2 (MULX), bit 19 = ADX,
     * bit 16 = AVX512F, bit 21 = AVX512IFMA */
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
        adx = ((b >> 8) & 1) && ((b >> 19) & 1);
        ifma = ((b >> 16) & 1) && ((b >> 21) & 1);
    }
    /* the OS must save the AVX-512 state: CPUID.1:ECX bit 27 (OSXSAVE), then
     * XCR0 bits 1, 2 (SSE, AVX) and 5, 6, 7 (opmask, ZMM0-15 high, ZMM16-31) */
    if (ifma) {
        unsigned a1, b1, c1, d1;
        if (!__get_cpuid(1, &a1, &b1, &c1, &d1) || !((c1 >> 27) & 1))
            ifma = 0;
        else if ((xgetbv0() & 0xe6) != 0xe6)
            ifma = 0;
    }
#endif
    const char *no = getenv("CUZK_NO_ASM");
    if (no && *no && *no != '0') adx = ifma = 0;
    cz__cpu_ifma = ifma;
    cz__cpu_adx = adx;
    return adx;
}

#if defined(__GNUC__) || defined(__clang__)
/* detected before main, while there is one thread: the field code on many
 * threads then only reads the answers (the lazy detection of cpu.h remains
 * for other compilers; CUZK_NO_ASM is read here, so it must be set before
 * the program starts) */
__attribute__((constructor)) static void detect_at_start(void) { cz__cpu_detect(); }
#endif

void cz_cpu_force_portable(int on)
{
    if (on) cz__cpu_adx = cz__cpu_ifma = 0;
    else cz__cpu_detect();
}
