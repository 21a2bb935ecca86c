/* cpu.h — run-time CPU feature detection.
 *
 * cz_cpu_has_adx() is true on x86-64 CPUs with both BMI2 (MULX) and ADX
 * (ADCX/ADOX); the field code uses it to pick its assembly path.
 * cz_cpu_has_ifma() is true where AVX-512F and AVX-512 IFMA (VPMADD52LUQ/HUQ)
 * are present and the OS saves the ZMM and mask registers (XCR0); the 8-lane
 * Fp multiplication (ff/fp_x8.c) uses it. The answers are computed once,
 * before main (GCC, Clang); setting the environment variable CUZK_NO_ASM=1
 * forces the portable paths for both (for testing both paths on one
 * machine). */
#ifndef CZ_UTIL_CPU_H
#define CZ_UTIL_CPU_H

extern int cz__cpu_adx;  /* -1 unknown, 0 no, 1 yes; read via cz_cpu_has_adx */
extern int cz__cpu_ifma; /* -1 unknown, 0 no, 1 yes; read via cz_cpu_has_ifma */
int cz__cpu_detect(void); /* fills both; returns the ADX answer */

static inline int cz_cpu_has_adx(void)
{
    int v = cz__cpu_adx;
    return v >= 0 ? v : cz__cpu_detect();
}

static inline int cz_cpu_has_ifma(void)
{
    int v = cz__cpu_ifma;
    if (v >= 0) return v;
    cz__cpu_detect();
    return cz__cpu_ifma;
}

/* Force the portable paths (no ADX, no IFMA) on (1) or restore detection (0).
 * Tests only. */
void cz_cpu_force_portable(int on);

#endif
