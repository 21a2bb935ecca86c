/* ff_x86_adx.c — Montgomery multiplication for Fp (6 limbs) and Fr (4 limbs)
 * with the x86-64 BMI2/ADX instructions MULX, ADCX and ADOX (GCC/clang
 * extended inline assembly, AT&T syntax).
 *
 * The algorithm is CIOS ("coarsely integrated operand scanning") in the form
 * that needs no extra carry word: both BLS12-381 moduli have the top bit of
 * the top limb clear, so the running sum t always fits in NL+1 limbs and the
 * result before the last step is < 2m. One round per limb b[i]:
 *
 *   A:  t += a * b[i]                (NL MULX, two carry chains: the low
 *                                     halves ride ADOX/OF, the high halves
 *                                     ride ADCX/CF, so they run in parallel)
 *   B:  q = t[0] * (-m^-1) mod 2^64;  t = (t + q*m) / 2^64
 *
 * Step B makes t[0] zero, so instead of shifting we rename: the register that
 * held t[0] becomes the (zero) top limb of the next round. The rounds are
 * written out with the register names rotated by hand. A final branch-free
 * conditional subtraction (SUB/SBB, then CMOVNC) brings t into [0, m).
 *
 * Bounds: with a < m and any 64-bit b[i], t < 2m after every round (by
 * induction, t' < (2m + (2^64 - 1) 2m) / 2^64), so t fits NL limbs and t plus
 * a*b[i] plus q*m fits NL+1; inputs must therefore be reduced, as every
 * element is.
 *
 * Squaring uses the same routine with b = a: on the machine measured (AMD
 * EPYC) blst's dedicated squaring is no faster than its multiplication, and
 * ours runs at the speed of blst's squaring. Callers check cz_cpu_has_adx()
 * first (ff_inline.h and field_tmpl.h do). */
#include "ff/ff_asm.h"

#if CZ_HAVE_ADX_ASM

static const uint64_t FP_M[6] = {
    0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
    0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
static const uint64_t FP_N0 = 0x89f3fffcfffcfffdULL;
static const uint64_t FR_M[4] = {
    0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
    0x73eda753299d7d48ULL};
static const uint64_t FR_N0 = 0xfffffffeffffffffULL;

/* one multiply-accumulate: X += lo(src*rdx) on the OF chain,
 * Y += hi(src*rdx) on the CF chain */
#define MAC(src, X, Y)                                                          \
    "mulx " src ", %[lo], %[hi]\n\t"                                           \
    "adox %[lo], " X "\n\t"                                                    \
    "adcx %[hi], " Y "\n\t"

/* round 0, step A: X0..X(NL) = a * b[0] (one carry chain) */
#define FIRST6(X0, X1, X2, X3, X4, X5, X6)                                      \
    "mov 0(%[b]), %%rdx\n\t"                                                   \
    "mulx 0(%[a]), " X0 ", " X1 "\n\t"                                         \
    "mulx 8(%[a]), %[lo], " X2 "\n\t"                                          \
    "add %[lo], " X1 "\n\t"                                                    \
    "mulx 16(%[a]), %[lo], " X3 "\n\t"                                         \
    "adc %[lo], " X2 "\n\t"                                                    \
    "mulx 24(%[a]), %[lo], " X4 "\n\t"                                         \
    "adc %[lo], " X3 "\n\t"                                                    \
    "mulx 32(%[a]), %[lo], " X5 "\n\t"                                         \
    "adc %[lo], " X4 "\n\t"                                                    \
    "mulx 40(%[a]), %[lo], " X6 "\n\t"                                         \
    "adc %[lo], " X5 "\n\t"                                                    \
    "adc $0, " X6 "\n\t"

/* round i > 0, step A: X0..X6 += a * b[i]; X6 is zero on entry */
#define ROWA6(off, X0, X1, X2, X3, X4, X5, X6)                                  \
    "mov " off "(%[b]), %%rdx\n\t"                                             \
    "xor %k[lo], %k[lo]\n\t" /* clears CF and OF */                           \
    MAC("0(%[a])", X0, X1) MAC("8(%[a])", X1, X2) MAC("16(%[a])", X2, X3)      \
    MAC("24(%[a])", X3, X4) MAC("32(%[a])", X4, X5) MAC("40(%[a])", X5, X6)    \
    "mov $0, %k[lo]\n\t"                                                       \
    "adox %[lo], " X6 "\n\t"

/* step B: X0..X6 += q*m with q = X0*n0; X0 ends zero and is reused as the
 * next round's top limb */
#define ROWB6(X0, X1, X2, X3, X4, X5, X6)                                       \
    "mov " X0 ", %%rdx\n\t"                                                    \
    "imul %[n0], %%rdx\n\t"                                                    \
    "xor %k[lo], %k[lo]\n\t"                                                   \
    MAC("%[m0]", X0, X1) MAC("%[m1]", X1, X2) MAC("%[m2]", X2, X3)             \
    MAC("%[m3]", X3, X4) MAC("%[m4]", X4, X5) MAC("%[m5]", X5, X6)             \
    "adox " X0 ", " X6 "\n\t"

/* out = R - m if that does not borrow, else R; S* are scratch */
#define FINAL6(R0, R1, R2, R3, R4, R5, S0, S1, S2, S3, S4, S5)                  \
    "mov " R0 ", " S0 "\n\tsub %[m0], " S0 "\n\t"                              \
    "mov " R1 ", " S1 "\n\tsbb %[m1], " S1 "\n\t"                              \
    "mov " R2 ", " S2 "\n\tsbb %[m2], " S2 "\n\t"                              \
    "mov " R3 ", " S3 "\n\tsbb %[m3], " S3 "\n\t"                              \
    "mov " R4 ", " S4 "\n\tsbb %[m4], " S4 "\n\t"                              \
    "mov " R5 ", " S5 "\n\tsbb %[m5], " S5 "\n\t"                              \
    "cmovnc " S0 ", " R0 "\n\t" "cmovnc " S1 ", " R1 "\n\t"                    \
    "cmovnc " S2 ", " R2 "\n\t" "cmovnc " S3 ", " R3 "\n\t"                    \
    "cmovnc " S4 ", " R4 "\n\t" "cmovnc " S5 ", " R5 "\n\t"                    \
    "mov " R0 ", 0(%[out])\n\t" "mov " R1 ", 8(%[out])\n\t"                    \
    "mov " R2 ", 16(%[out])\n\t" "mov " R3 ", 24(%[out])\n\t"                  \
    "mov " R4 ", 32(%[out])\n\t" "mov " R5 ", 40(%[out])\n\t"

#define T0 "%[t0]"
#define T1 "%[t1]"
#define T2 "%[t2]"
#define T3 "%[t3]"
#define T4 "%[t4]"
#define T5 "%[t5]"
#define T6 "%[t6]"

void cz__fp_mul_adx(uint64_t out[6], const uint64_t a[6], const uint64_t b[6])
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, dx;
    const uint64_t *ap = a, *bp = b;
    __asm__ volatile(
        FIRST6(T0, T1, T2, T3, T4, T5, T6)
        ROWB6(T0, T1, T2, T3, T4, T5, T6)
        ROWA6("8", T1, T2, T3, T4, T5, T6, T0)
        ROWB6(T1, T2, T3, T4, T5, T6, T0)
        ROWA6("16", T2, T3, T4, T5, T6, T0, T1)
        ROWB6(T2, T3, T4, T5, T6, T0, T1)
        ROWA6("24", T3, T4, T5, T6, T0, T1, T2)
        ROWB6(T3, T4, T5, T6, T0, T1, T2)
        ROWA6("32", T4, T5, T6, T0, T1, T2, T3)
        ROWB6(T4, T5, T6, T0, T1, T2, T3)
        ROWA6("40", T5, T6, T0, T1, T2, T3, T4)
        ROWB6(T5, T6, T0, T1, T2, T3, T4)
        FINAL6(T6, T0, T1, T2, T3, T4, T5, "%[lo]", "%[hi]", "%%rdx", "%[a]", "%[b]")
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
          [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo),
          [hi] "=&r"(hi), "=&d"(dx), [a] "+r"(ap), [b] "+r"(bp)
        : [out] "r"(out), [m0] "m"(FP_M[0]), [m1] "m"(FP_M[1]), [m2] "m"(FP_M[2]),
          [m3] "m"(FP_M[3]), [m4] "m"(FP_M[4]), [m5] "m"(FP_M[5]), [n0] "m"(FP_N0)
        : "cc", "memory");
    (void)t0; (void)t1; (void)t2; (void)t3; (void)t4; (void)t5; (void)t6;
    (void)lo; (void)hi; (void)dx; (void)ap; (void)bp;
}

void cz__fp_sqr_adx(uint64_t out[6], const uint64_t a[6]) { cz__fp_mul_adx(out, a, a); }

/* ---- Fr: the same with 4 limbs ---- */

#define FIRST4(X0, X1, X2, X3, X4)                                              \
    "mov 0(%[b]), %%rdx\n\t"                                                   \
    "mulx 0(%[a]), " X0 ", " X1 "\n\t"                                         \
    "mulx 8(%[a]), %[lo], " X2 "\n\t"                                          \
    "add %[lo], " X1 "\n\t"                                                    \
    "mulx 16(%[a]), %[lo], " X3 "\n\t"                                         \
    "adc %[lo], " X2 "\n\t"                                                    \
    "mulx 24(%[a]), %[lo], " X4 "\n\t"                                         \
    "adc %[lo], " X3 "\n\t"                                                    \
    "adc $0, " X4 "\n\t"

#define ROWA4(off, X0, X1, X2, X3, X4)                                          \
    "mov " off "(%[b]), %%rdx\n\t"                                             \
    "xor %k[lo], %k[lo]\n\t"                                                   \
    MAC("0(%[a])", X0, X1) MAC("8(%[a])", X1, X2) MAC("16(%[a])", X2, X3)      \
    MAC("24(%[a])", X3, X4)                                                    \
    "mov $0, %k[lo]\n\t"                                                       \
    "adox %[lo], " X4 "\n\t"

#define ROWB4(X0, X1, X2, X3, X4)                                               \
    "mov " X0 ", %%rdx\n\t"                                                    \
    "imul %[n0], %%rdx\n\t"                                                    \
    "xor %k[lo], %k[lo]\n\t"                                                   \
    MAC("%[m0]", X0, X1) MAC("%[m1]", X1, X2) MAC("%[m2]", X2, X3)             \
    MAC("%[m3]", X3, X4)                                                       \
    "adox " X0 ", " X4 "\n\t"

#define FINAL4(R0, R1, R2, R3, S0, S1, S2, S3)                                  \
    "mov " R0 ", " S0 "\n\tsub %[m0], " S0 "\n\t"                              \
    "mov " R1 ", " S1 "\n\tsbb %[m1], " S1 "\n\t"                              \
    "mov " R2 ", " S2 "\n\tsbb %[m2], " S2 "\n\t"                              \
    "mov " R3 ", " S3 "\n\tsbb %[m3], " S3 "\n\t"                              \
    "cmovnc " S0 ", " R0 "\n\t" "cmovnc " S1 ", " R1 "\n\t"                    \
    "cmovnc " S2 ", " R2 "\n\t" "cmovnc " S3 ", " R3 "\n\t"                    \
    "mov " R0 ", 0(%[out])\n\t" "mov " R1 ", 8(%[out])\n\t"                    \
    "mov " R2 ", 16(%[out])\n\t" "mov " R3 ", 24(%[out])\n\t"

void cz__fr_mul_adx(uint64_t out[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0, t1, t2, t3, t4, lo, hi, dx;
    __asm__ volatile(
        FIRST4(T0, T1, T2, T3, T4)
        ROWB4(T0, T1, T2, T3, T4)
        ROWA4("8", T1, T2, T3, T4, T0)
        ROWB4(T1, T2, T3, T4, T0)
        ROWA4("16", T2, T3, T4, T0, T1)
        ROWB4(T2, T3, T4, T0, T1)
        ROWA4("24", T3, T4, T0, T1, T2)
        ROWB4(T3, T4, T0, T1, T2)
        FINAL4(T4, T0, T1, T2, T3, "%[lo]", "%[hi]", "%%rdx")
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
          [t4] "=&r"(t4), [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(dx)
        : [a] "r"(a), [b] "r"(b), [out] "r"(out), [m0] "m"(FR_M[0]),
          [m1] "m"(FR_M[1]), [m2] "m"(FR_M[2]), [m3] "m"(FR_M[3]), [n0] "m"(FR_N0)
        : "cc", "memory");
    (void)t0; (void)t1; (void)t2; (void)t3; (void)t4; (void)lo; (void)hi; (void)dx;
}

void cz__fr_sqr_adx(uint64_t out[4], const uint64_t a[4]) { cz__fr_mul_adx(out, a, a); }

#else
typedef int cz__ff_x86_adx_unused; /* ISO C: a translation unit must not be empty */
#endif
