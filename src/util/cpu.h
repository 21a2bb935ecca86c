/* cpu.h — run-time CPU feature detection.
 *
 * cz_cpu_has_adx() is true on x86-64 CPUs with both BMI2 (MULX) and ADX
 * (ADCX/ADOX); the field code uses it to pick its assembly path. The answer
 * is computed once; setting the environment variable CUZK_NO_ASM=1 forces the
 * portable path (for testing both paths on one machine). */
#ifndef CZ_UTIL_CPU_H
#define CZ_UTIL_CPU_H

extern int cz__cpu_adx; /* -1 unknown, 0 no, 1 yes; read via cz_cpu_has_adx */
int cz__cpu_detect(void);

static inline int cz_cpu_has_adx(void)
{
    int v = cz__cpu_adx;
    return v >= 0 ? v : cz__cpu_detect();
}

/* Force the portable path on (1) or restore detection (0). Tests only. */
void cz_cpu_force_portable(int on);

#endif
