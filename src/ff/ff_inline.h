/* ff_inline.h — the hot Fp/Fr operations (add, sub, dbl, neg, mul, sqr, eq,
 * is_zero) defined in the header so that callers in other translation units
 * (ec, tower, pairing, msm) inline them. Included by ff.h; not for direct use.
 *
 * These are C99 "inline" definitions of the public functions themselves, so
 * the names and signatures of ff.h are unchanged: fp.c and fr.c re-declare
 * them "extern inline", which makes those two files emit the one external
 * definition that un-inlined calls and function pointers use. (C forbids an
 * inline function with external linkage to touch anything static, so
 * everything referenced here is extern.)
 *
 * On x86-64 with GCC/clang and optimisation on, add/sub/neg are short inline
 * assembly blocks (ADD/ADC, SUB/SBB, then CMOV: branch-free, base x86-64, no
 * CPU check needed). Elsewhere, at -O0 (where GCC cannot find the registers
 * these blocks need), in nvcc's host pass (its front end would warn about the
 * asm's scratch outputs) or with -DCUZK_NO_ASM they call the portable C
 * versions cz__fp_add_c and friends in field_tmpl.h. Multiplication calls the MULX/ADX
 * routine directly when the CPU has it, else the portable CIOS. */
#ifndef CZ_FF_INLINE_H
#define CZ_FF_INLINE_H

#include "ff/ff_asm.h"

#if CZ_HAVE_ADX_ASM && defined(__OPTIMIZE__) && !defined(__CUDACC__)
#define CZ__FF_INLINE_ASM 1
#else
#define CZ__FF_INLINE_ASM 0
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CZ__LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define CZ__LIKELY(x) (x)
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CZ__HIDDEN __attribute__((visibility("hidden")))
#else
#define CZ__HIDDEN
#endif

extern int cz__cpu_adx; /* util/cpu.h: -1 not yet detected, 0 no, 1 MULX/ADX */
/* the moduli again as plain arrays, hidden so that even position-independent
 * code reaches them RIP-relative (the asm names them as memory operands) */
extern CZ__HIDDEN const uint64_t cz__fp_m[CZ_FP_LIMBS];
extern CZ__HIDDEN const uint64_t cz__fr_m[CZ_FR_LIMBS];

/* portable versions and the non-ADX multiplication (field_tmpl.h) */
void cz__fp_add_c(cz_fp *out, const cz_fp *a, const cz_fp *b);
void cz__fp_sub_c(cz_fp *out, const cz_fp *a, const cz_fp *b);
void cz__fp_neg_c(cz_fp *out, const cz_fp *a);
void cz__fp_mul_noadx(cz_fp *out, const cz_fp *a, const cz_fp *b);
void cz__fp_sqr_noadx(cz_fp *out, const cz_fp *a);
void cz__fr_add_c(cz_fr *out, const cz_fr *a, const cz_fr *b);
void cz__fr_sub_c(cz_fr *out, const cz_fr *a, const cz_fr *b);
void cz__fr_neg_c(cz_fr *out, const cz_fr *a);
void cz__fr_mul_noadx(cz_fr *out, const cz_fr *a, const cz_fr *b);
void cz__fr_sqr_noadx(cz_fr *out, const cz_fr *a);
/* Fermat inversion, a slow reference for tests and benchmarks */
void cz__fp_inv_fermat(cz_fp *out, const cz_fp *a);
void cz__fr_inv_fermat(cz_fr *out, const cz_fr *a);

#if CZ__FF_INLINE_ASM
/* AT&T fragments; S* hold the sum/difference, D* scratch, M the modulus */
#define CZ__LD(off, R) "mov " off "(%[a]), " R "\n\t"
#define CZ__ADC(op, off, R) op " " off "(%[b]), " R "\n\t"
#define CZ__SUBM(op, R, D, m) "mov " R ", " D "\n\t" op " " m ", " D "\n\t"
#define CZ__CMOV(cc, D, R) "cmov" cc " " D ", " R "\n\t"
#define CZ__ST(R, off) "mov " R ", " off "(%[o])\n\t"
#define CZ__MOPS6(M)                                                            \
    [m0] "m"(M[0]), [m1] "m"(M[1]), [m2] "m"(M[2]), [m3] "m"(M[3]),   \
    [m4] "m"(M[4]), [m5] "m"(M[5])
#define CZ__MOPS4(M) [m0] "m"(M[0]), [m1] "m"(M[1]), [m2] "m"(M[2]), [m3] "m"(M[3])
#endif

/* ---------------------------------------------------------------- Fp ---- */

inline int cz_fp_is_zero(const cz_fp *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3] | a->l[4] | a->l[5]) == 0;
}

inline int cz_fp_eq(const cz_fp *a, const cz_fp *b)
{
    uint64_t acc = 0;
    for (int i = 0; i < CZ_FP_LIMBS; i++) acc |= a->l[i] ^ b->l[i];
    return acc == 0;
}

/* out = a + b mod p: s = a + b (< 2p < 2^384, no carry out); d = s - p;
 * keep s if that borrowed */
inline void cz_fp_add(cz_fp *out, const cz_fp *a, const cz_fp *b)
{
#if CZ__FF_INLINE_ASM
    uint64_t s0, s1, s2, s3, s4, s5, d0, d1, d2, d3;
    const uint64_t *ap = a->l, *bp = b->l;
    __asm__ volatile(CZ__LD("0", "%[s0]") CZ__LD("8", "%[s1]") CZ__LD("16", "%[s2]")
            CZ__LD("24", "%[s3]") CZ__LD("32", "%[s4]") CZ__LD("40", "%[s5]")
            CZ__ADC("add", "0", "%[s0]") CZ__ADC("adc", "8", "%[s1]")
            CZ__ADC("adc", "16", "%[s2]") CZ__ADC("adc", "24", "%[s3]")
            CZ__ADC("adc", "32", "%[s4]") CZ__ADC("adc", "40", "%[s5]")
            CZ__SUBM("sub", "%[s0]", "%[d0]", "%[m0]") CZ__SUBM("sbb", "%[s1]", "%[d1]", "%[m1]")
            CZ__SUBM("sbb", "%[s2]", "%[d2]", "%[m2]") CZ__SUBM("sbb", "%[s3]", "%[d3]", "%[m3]")
            CZ__SUBM("sbb", "%[s4]", "%[a]", "%[m4]") CZ__SUBM("sbb", "%[s5]", "%[b]", "%[m5]")
            CZ__CMOV("nc", "%[d0]", "%[s0]") CZ__CMOV("nc", "%[d1]", "%[s1]")
            CZ__CMOV("nc", "%[d2]", "%[s2]") CZ__CMOV("nc", "%[d3]", "%[s3]")
            CZ__CMOV("nc", "%[a]", "%[s4]") CZ__CMOV("nc", "%[b]", "%[s5]")
            CZ__ST("%[s0]", "0") CZ__ST("%[s1]", "8") CZ__ST("%[s2]", "16")
            CZ__ST("%[s3]", "24") CZ__ST("%[s4]", "32") CZ__ST("%[s5]", "40")
            : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
              [s4] "=&r"(s4), [s5] "=&r"(s5), [d0] "=&r"(d0), [d1] "=&r"(d1),
              [d2] "=&r"(d2), [d3] "=&r"(d3), [a] "+&r"(ap), [b] "+&r"(bp)
            : [o] "r"(out), CZ__MOPS6(cz__fp_m)
            : "cc", "memory");
#else
    cz__fp_add_c(out, a, b);
#endif
}

/* out = a - b mod p: d = a - b; if that borrowed add p back (the addend is
 * p or 0, picked by CMOV before the additions start) */
inline void cz_fp_sub(cz_fp *out, const cz_fp *a, const cz_fp *b)
{
#if CZ__FF_INLINE_ASM
    uint64_t d0, d1, d2, d3, d4, d5, t0, t1, t2, t3;
    const uint64_t *ap = a->l, *bp = b->l;
    __asm__ volatile(CZ__LD("0", "%[d0]") CZ__LD("8", "%[d1]") CZ__LD("16", "%[d2]")
            CZ__LD("24", "%[d3]") CZ__LD("32", "%[d4]") CZ__LD("40", "%[d5]")
            CZ__ADC("sub", "0", "%[d0]") CZ__ADC("sbb", "8", "%[d1]")
            CZ__ADC("sbb", "16", "%[d2]") CZ__ADC("sbb", "24", "%[d3]")
            CZ__ADC("sbb", "32", "%[d4]") CZ__ADC("sbb", "40", "%[d5]")
            "mov $0, %[t0]\n\t" "cmovc %[m0], %[t0]\n\t"
            "mov $0, %[t1]\n\t" "cmovc %[m1], %[t1]\n\t"
            "mov $0, %[t2]\n\t" "cmovc %[m2], %[t2]\n\t"
            "mov $0, %[t3]\n\t" "cmovc %[m3], %[t3]\n\t"
            "mov $0, %[a]\n\t" "cmovc %[m4], %[a]\n\t"
            "mov $0, %[b]\n\t" "cmovc %[m5], %[b]\n\t"
            "add %[t0], %[d0]\n\t" "adc %[t1], %[d1]\n\t" "adc %[t2], %[d2]\n\t"
            "adc %[t3], %[d3]\n\t" "adc %[a], %[d4]\n\t" "adc %[b], %[d5]\n\t"
            CZ__ST("%[d0]", "0") CZ__ST("%[d1]", "8") CZ__ST("%[d2]", "16")
            CZ__ST("%[d3]", "24") CZ__ST("%[d4]", "32") CZ__ST("%[d5]", "40")
            : [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3),
              [d4] "=&r"(d4), [d5] "=&r"(d5), [t0] "=&r"(t0), [t1] "=&r"(t1),
              [t2] "=&r"(t2), [t3] "=&r"(t3), [a] "+&r"(ap), [b] "+&r"(bp)
            : [o] "r"(out), CZ__MOPS6(cz__fp_m)
            : "cc", "memory");
#else
    cz__fp_sub_c(out, a, b);
#endif
}

/* out = p - a, or 0 when a = 0 */
inline void cz_fp_neg(cz_fp *out, const cz_fp *a)
{
#if CZ__FF_INLINE_ASM
    uint64_t r0, r1, r2, r3, r4, r5, z;
    __asm__ volatile("mov 0(%[a]), %[z]\n\t" "or 8(%[a]), %[z]\n\t" "or 16(%[a]), %[z]\n\t"
            "or 24(%[a]), %[z]\n\t" "or 32(%[a]), %[z]\n\t" "or 40(%[a]), %[z]\n\t"
            "mov %[m0], %[r0]\n\t" "sub 0(%[a]), %[r0]\n\t"
            "mov %[m1], %[r1]\n\t" "sbb 8(%[a]), %[r1]\n\t"
            "mov %[m2], %[r2]\n\t" "sbb 16(%[a]), %[r2]\n\t"
            "mov %[m3], %[r3]\n\t" "sbb 24(%[a]), %[r3]\n\t"
            "mov %[m4], %[r4]\n\t" "sbb 32(%[a]), %[r4]\n\t"
            "mov %[m5], %[r5]\n\t" "sbb 40(%[a]), %[r5]\n\t"
            "test %[z], %[z]\n\t" /* z = 0 exactly when a = 0 */
            CZ__CMOV("z", "%[z]", "%[r0]") CZ__CMOV("z", "%[z]", "%[r1]")
            CZ__CMOV("z", "%[z]", "%[r2]") CZ__CMOV("z", "%[z]", "%[r3]")
            CZ__CMOV("z", "%[z]", "%[r4]") CZ__CMOV("z", "%[z]", "%[r5]")
            CZ__ST("%[r0]", "0") CZ__ST("%[r1]", "8") CZ__ST("%[r2]", "16")
            CZ__ST("%[r3]", "24") CZ__ST("%[r4]", "32") CZ__ST("%[r5]", "40")
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3),
              [r4] "=&r"(r4), [r5] "=&r"(r5), [z] "=&r"(z)
            : [a] "r"(a->l), [o] "r"(out), CZ__MOPS6(cz__fp_m)
            : "cc", "memory");
#else
    cz__fp_neg_c(out, a);
#endif
}

inline void cz_fp_dbl(cz_fp *out, const cz_fp *a) { cz_fp_add(out, a, a); }

inline void cz_fp_mul(cz_fp *out, const cz_fp *a, const cz_fp *b)
{
#if CZ_HAVE_ADX_ASM
    if (CZ__LIKELY(cz__cpu_adx > 0)) { cz__fp_mul_adx(out->l, a->l, b->l); return; }
#endif
    cz__fp_mul_noadx(out, a, b);
}

inline void cz_fp_sqr(cz_fp *out, const cz_fp *a)
{
#if CZ_HAVE_ADX_ASM
    if (CZ__LIKELY(cz__cpu_adx > 0)) { cz__fp_sqr_adx(out->l, a->l); return; }
#endif
    cz__fp_sqr_noadx(out, a);
}

/* ---------------------------------------------------------------- Fr ---- */

inline int cz_fr_is_zero(const cz_fr *a) { return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0; }

inline int cz_fr_eq(const cz_fr *a, const cz_fr *b)
{
    return ((a->l[0] ^ b->l[0]) | (a->l[1] ^ b->l[1]) | (a->l[2] ^ b->l[2]) |
            (a->l[3] ^ b->l[3])) == 0;
}

inline void cz_fr_add(cz_fr *out, const cz_fr *a, const cz_fr *b)
{
#if CZ__FF_INLINE_ASM
    uint64_t s0, s1, s2, s3, d0, d1, d2, d3;
    __asm__ volatile(CZ__LD("0", "%[s0]") CZ__LD("8", "%[s1]") CZ__LD("16", "%[s2]") CZ__LD("24", "%[s3]")
            CZ__ADC("add", "0", "%[s0]") CZ__ADC("adc", "8", "%[s1]")
            CZ__ADC("adc", "16", "%[s2]") CZ__ADC("adc", "24", "%[s3]")
            CZ__SUBM("sub", "%[s0]", "%[d0]", "%[m0]") CZ__SUBM("sbb", "%[s1]", "%[d1]", "%[m1]")
            CZ__SUBM("sbb", "%[s2]", "%[d2]", "%[m2]") CZ__SUBM("sbb", "%[s3]", "%[d3]", "%[m3]")
            CZ__CMOV("nc", "%[d0]", "%[s0]") CZ__CMOV("nc", "%[d1]", "%[s1]")
            CZ__CMOV("nc", "%[d2]", "%[s2]") CZ__CMOV("nc", "%[d3]", "%[s3]")
            CZ__ST("%[s0]", "0") CZ__ST("%[s1]", "8") CZ__ST("%[s2]", "16") CZ__ST("%[s3]", "24")
            : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
              [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3)
            : [a] "r"(a->l), [b] "r"(b->l), [o] "r"(out), 
              CZ__MOPS4(cz__fr_m)
            : "cc", "memory");
#else
    cz__fr_add_c(out, a, b);
#endif
}

inline void cz_fr_sub(cz_fr *out, const cz_fr *a, const cz_fr *b)
{
#if CZ__FF_INLINE_ASM
    uint64_t d0, d1, d2, d3, t0, t1, t2, t3;
    __asm__ volatile(CZ__LD("0", "%[d0]") CZ__LD("8", "%[d1]") CZ__LD("16", "%[d2]") CZ__LD("24", "%[d3]")
            CZ__ADC("sub", "0", "%[d0]") CZ__ADC("sbb", "8", "%[d1]")
            CZ__ADC("sbb", "16", "%[d2]") CZ__ADC("sbb", "24", "%[d3]")
            "mov $0, %[t0]\n\t" "cmovc %[m0], %[t0]\n\t"
            "mov $0, %[t1]\n\t" "cmovc %[m1], %[t1]\n\t"
            "mov $0, %[t2]\n\t" "cmovc %[m2], %[t2]\n\t"
            "mov $0, %[t3]\n\t" "cmovc %[m3], %[t3]\n\t"
            "add %[t0], %[d0]\n\t" "adc %[t1], %[d1]\n\t" "adc %[t2], %[d2]\n\t"
            "adc %[t3], %[d3]\n\t"
            CZ__ST("%[d0]", "0") CZ__ST("%[d1]", "8") CZ__ST("%[d2]", "16") CZ__ST("%[d3]", "24")
            : [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3),
              [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)
            : [a] "r"(a->l), [b] "r"(b->l), [o] "r"(out), 
              CZ__MOPS4(cz__fr_m)
            : "cc", "memory");
#else
    cz__fr_sub_c(out, a, b);
#endif
}

inline void cz_fr_neg(cz_fr *out, const cz_fr *a)
{
#if CZ__FF_INLINE_ASM
    uint64_t r0, r1, r2, r3, z;
    __asm__ volatile("mov 0(%[a]), %[z]\n\t" "or 8(%[a]), %[z]\n\t" "or 16(%[a]), %[z]\n\t"
            "or 24(%[a]), %[z]\n\t"
            "mov %[m0], %[r0]\n\t" "sub 0(%[a]), %[r0]\n\t"
            "mov %[m1], %[r1]\n\t" "sbb 8(%[a]), %[r1]\n\t"
            "mov %[m2], %[r2]\n\t" "sbb 16(%[a]), %[r2]\n\t"
            "mov %[m3], %[r3]\n\t" "sbb 24(%[a]), %[r3]\n\t"
            "test %[z], %[z]\n\t"
            CZ__CMOV("z", "%[z]", "%[r0]") CZ__CMOV("z", "%[z]", "%[r1]")
            CZ__CMOV("z", "%[z]", "%[r2]") CZ__CMOV("z", "%[z]", "%[r3]")
            CZ__ST("%[r0]", "0") CZ__ST("%[r1]", "8") CZ__ST("%[r2]", "16") CZ__ST("%[r3]", "24")
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3),
              [z] "=&r"(z)
            : [a] "r"(a->l), [o] "r"(out), CZ__MOPS4(cz__fr_m)
            : "cc", "memory");
#else
    cz__fr_neg_c(out, a);
#endif
}

inline void cz_fr_dbl(cz_fr *out, const cz_fr *a) { cz_fr_add(out, a, a); }

inline void cz_fr_mul(cz_fr *out, const cz_fr *a, const cz_fr *b)
{
#if CZ_HAVE_ADX_ASM
    if (CZ__LIKELY(cz__cpu_adx > 0)) { cz__fr_mul_adx(out->l, a->l, b->l); return; }
#endif
    cz__fr_mul_noadx(out, a, b);
}

inline void cz_fr_sqr(cz_fr *out, const cz_fr *a)
{
#if CZ_HAVE_ADX_ASM
    if (CZ__LIKELY(cz__cpu_adx > 0)) { cz__fr_sqr_adx(out->l, a->l); return; }
#endif
    cz__fr_sqr_noadx(out, a);
}

#if CZ__FF_INLINE_ASM
#undef CZ__LD
#undef CZ__ADC
#undef CZ__SUBM
#undef CZ__CMOV
#undef CZ__ST
#undef CZ__MOPS6
#undef CZ__MOPS4
#endif

#endif
