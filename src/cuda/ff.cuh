/* ff.cuh — BLS12-381 Fr, Fp and Fp2 for CUDA kernels, in the CPU's layout.
 *
 * API (stable; the MSM and NTT kernels build on it):
 *
 *   types     fr_t   4 x 64-bit limbs, Montgomery form x*2^256 mod r
 *             fp_t   6 x 64-bit limbs, Montgomery form x*2^384 mod p
 *             fp2_t  { fp_t c0, c1; }  = c0 + c1*u,  u^2 = -1
 *   Each is bit for bit the CPU's cz_fr / cz_fp / cz_fp2 (src/ff/ff.h,
 *   tower.h): little-endian 64-bit limbs, fully reduced, same size and
 *   alignment, so device buffers are the host buffers copied over PCIe.
 *   fr_t/fp_t keep the value as 32-bit words w[] (word 2k is the low half of
 *   the CPU's limb k); the member l(k) reads a 64-bit limb.
 *
 *   For F in {fr_t, fp_t} (all __host__ __device__, inline, out = result):
 *     F::zero(), F::one()             0 and 1 (Montgomery)
 *     F::load(ptr), F::store(ptr, x)  from/to a uint64_t[NL] (16-byte loads
 *                                     when ptr is 16-byte aligned is up to
 *                                     the caller: plain copies here)
 *     a + b, a - b, -a, a * b         (also add(a,b), sub, neg, mul)
 *     dbl(a), sqr(a)
 *     a == b, a != b, a.is_zero(), a.is_one()
 *     to_mont(plain), from_mont(a)    canonical integer <-> Montgomery
 *     mul_eo(a,b), mul_64(a,b)        multiplication schedules: CIOS
 *     mul_ka(a,b)                     rows (32-bit even/odd, 64-bit) and
 *                                     Karatsuba then a separate
 *                                     reduction (operator* is mul_eo for
 *                                     Fr and, as CZ_FP_MUL_KA says,
 *                                     mul_ka or mul_eo for Fp, chosen by
 *                                     measurement: docs/CUDA.md)
 *     mul2(a,b,c,d)                   (a b + c d) R^-1 with one reduction
 *                                     (Fp: mul2_ka or mul2_eo, as above)
 *     mul_eo_plain(a,b)               mul_eo without the shortcut for a
 *                                     modulus ending in words 1, 0xffffffff
 *                                     (Fr's r), for comparison
 *     pow(a, e)  a^e, e a uint64_t exponent (for twiddles, tests)
 *   For fp2_t: + - unary- * , dbl, sqr, conj, mul_by_xi (times u + 1),
 *     mul_fp(a, fp), ==, is_zero, zero(), one().
 *   ld_fr(p), ldg_fr(p), st_fr(p, x): one fr_t as two 16-byte accesses
 *     (ldg_fr through the read-only cache), p 16-byte aligned.
 *
 *   Inputs must be fully reduced (< modulus), as on the CPU; every output is
 *   fully reduced, so results are bit-identical to the CPU functions.
 *
 * How it works. One template (cz_mont<P>) serves every modulus; P gives the
 * limb count and the constants as constexpr functions, so after unrolling the
 * modulus words are immediates. The default multiplication is a 32-bit
 * CIOS Montgomery product with the partial products split by the parity of
 * the word index ("even/odd"): the products a[2k]*b_i cover words (2k, 2k+1)
 * exactly once, so they add into an accumulator as one uninterrupted
 * mad.lo.cc / madc.hi.cc carry chain, and the products a[2k+1]*b_i go into a
 * second accumulator shifted by one word. Each row of CIOS is then four
 * such chains (a*b_i even and odd, m*p even and odd) plus three single-word
 * fix-ups; the two accumulators trade roles every row. The inputs' top
 * words are small (r < 2^255, p < 2^381), which keeps every chain's final
 * carry zero (bounds in docs/CUDA.md). mul_64 is plain 64-bit CIOS for
 * comparison. Under a host compiler the PTX carry chains are emulated with
 * an explicit carry variable, so the very same schedule can be tested on a
 * machine with no GPU (ff_api.cu exports that as a host entry point). */
#ifndef CZ_CUDA_FF_CUH
#define CZ_CUDA_FF_CUH

#include <stdint.h>

#if defined(__CUDACC__)
#define CZ_HD __host__ __device__ __forceinline__
#else
#define CZ_HD inline
#endif

/* The Fp product of operator* and mul2: 1 = Karatsuba (mul_ka / mul2_ka),
 * 0 = the even/odd CIOS rows (mul_eo / mul2_eo); docs/CUDA.md has the
 * measurements. Fr always uses mul_eo. */
#ifndef CZ_FP_MUL_KA
#define CZ_FP_MUL_KA 0
#endif

#if defined(__CUDA_ARCH__)
#define CZ_UNROLL _Pragma("unroll")
#else
#define CZ_UNROLL
#endif

/* ---- carry chains: PTX on the device, emulated on the host ---- */
struct cz__chain {
#if !defined(__CUDA_ARCH__)
    uint32_t cf = 0;
#endif
#if defined(__CUDA_ARCH__)
#define CZ__ASM3(op, d, a, b) asm volatile(op " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))
#define CZ__ASM4(op, d, a, b, c) \
    asm volatile(op " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
    CZ_HD uint32_t add_cc(uint32_t a, uint32_t b) { uint32_t d; CZ__ASM3("add.cc.u32", d, a, b); return d; }
    CZ_HD uint32_t addc_cc(uint32_t a, uint32_t b) { uint32_t d; CZ__ASM3("addc.cc.u32", d, a, b); return d; }
    CZ_HD uint32_t addc(uint32_t a, uint32_t b) { uint32_t d; CZ__ASM3("addc.u32", d, a, b); return d; }
    CZ_HD uint32_t sub_cc(uint32_t a, uint32_t b) { uint32_t d; CZ__ASM3("sub.cc.u32", d, a, b); return d; }
    CZ_HD uint32_t subc_cc(uint32_t a, uint32_t b) { uint32_t d; CZ__ASM3("subc.cc.u32", d, a, b); return d; }
    CZ_HD uint32_t subc(uint32_t a, uint32_t b) { uint32_t d; CZ__ASM3("subc.u32", d, a, b); return d; }
    CZ_HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; CZ__ASM4("mad.lo.cc.u32", d, a, b, c); return d; }
    CZ_HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; CZ__ASM4("madc.lo.cc.u32", d, a, b, c); return d; }
    CZ_HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; CZ__ASM4("madc.hi.cc.u32", d, a, b, c); return d; }
#undef CZ__ASM3
#undef CZ__ASM4
#else
    CZ_HD uint32_t add_cc(uint32_t a, uint32_t b) { uint64_t t = (uint64_t)a + b; cf = (uint32_t)(t >> 32); return (uint32_t)t; }
    CZ_HD uint32_t addc_cc(uint32_t a, uint32_t b) { uint64_t t = (uint64_t)a + b + cf; cf = (uint32_t)(t >> 32); return (uint32_t)t; }
    CZ_HD uint32_t addc(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a + b + cf); }
    CZ_HD uint32_t sub_cc(uint32_t a, uint32_t b) { uint64_t t = (uint64_t)a - b; cf = (uint32_t)(t >> 63); return (uint32_t)t; }
    CZ_HD uint32_t subc_cc(uint32_t a, uint32_t b) { uint64_t t = (uint64_t)a - b - cf; cf = (uint32_t)(t >> 63); return (uint32_t)t; }
    CZ_HD uint32_t subc(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a - b - cf); }
    CZ_HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { uint64_t t = (uint64_t)(uint32_t)(a * b) + c; cf = (uint32_t)(t >> 32); return (uint32_t)t; }
    CZ_HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { uint64_t t = (uint64_t)(uint32_t)(a * b) + c + cf; cf = (uint32_t)(t >> 32); return (uint32_t)t; }
    CZ_HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) { uint64_t t = (((uint64_t)a * b) >> 32) + c + cf; cf = (uint32_t)(t >> 32); return (uint32_t)t; }
#endif
};

CZ_HD uint64_t cz__mulhi64(uint64_t a, uint64_t b)
{
#if defined(__CUDA_ARCH__)
    return __umul64hi(a, b);
#else
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
#endif
}

/* 2^32 - 1 where the compiler cannot see it (cz_mont::mfactor says why) */
#if defined(__CUDACC__)
static __constant__ uint32_t cz__ones32 = 0xffffffffu;
#endif

/* ---- the moduli ---- */
struct cz_fr_params {
    static constexpr int NL = 4; /* 64-bit limbs */
    CZ_HD static constexpr uint64_t mod(int k)
    {
        return k == 0 ? 0xffffffff00000001ULL : k == 1 ? 0x53bda402fffe5bfeULL
             : k == 2 ? 0x3339d80809a1d805ULL : 0x73eda753299d7d48ULL;
    }
    CZ_HD static constexpr uint64_t one(int k)
    {
        return k == 0 ? 0x00000001fffffffeULL : k == 1 ? 0x5884b7fa00034802ULL
             : k == 2 ? 0x998c4fefecbc4ff5ULL : 0x1824b159acc5056fULL;
    }
    CZ_HD static constexpr uint64_t r2(int k)
    {
        return k == 0 ? 0xc999e990f3f29c6dULL : k == 1 ? 0x2b6cedcb87925c23ULL
             : k == 2 ? 0x05d314967254398fULL : 0x0748d9d99f59ff11ULL;
    }
    static constexpr uint64_t N0 = 0xfffffffeffffffffULL; /* -m^-1 mod 2^64 */
};

struct cz_fp_params {
    static constexpr int NL = 6;
    CZ_HD static constexpr uint64_t mod(int k)
    {
        return k == 0 ? 0xb9feffffffffaaabULL : k == 1 ? 0x1eabfffeb153ffffULL
             : k == 2 ? 0x6730d2a0f6b0f624ULL : k == 3 ? 0x64774b84f38512bfULL
             : k == 4 ? 0x4b1ba7b6434bacd7ULL : 0x1a0111ea397fe69aULL;
    }
    CZ_HD static constexpr uint64_t one(int k)
    {
        return k == 0 ? 0x760900000002fffdULL : k == 1 ? 0xebf4000bc40c0002ULL
             : k == 2 ? 0x5f48985753c758baULL : k == 3 ? 0x77ce585370525745ULL
             : k == 4 ? 0x5c071a97a256ec6dULL : 0x15f65ec3fa80e493ULL;
    }
    CZ_HD static constexpr uint64_t r2(int k)
    {
        return k == 0 ? 0xf4df1f341c341746ULL : k == 1 ? 0x0a76e6a609d104f1ULL
             : k == 2 ? 0x8de5476c4c95b6d5ULL : k == 3 ? 0x67eb88a9939d83c0ULL
             : k == 4 ? 0x9a793e85b519952dULL : 0x11988fe592cae3aaULL;
    }
    static constexpr uint64_t N0 = 0x89f3fffcfffcfffdULL;
};

/* ---- one Montgomery field ---- */
template <class P>
struct __align__(8) cz_mont {
    static constexpr int NL = P::NL;
    static constexpr int N = 2 * P::NL; /* 32-bit words */
    static constexpr uint32_t N0 = (uint32_t)P::N0;
    uint32_t w[N];

    CZ_HD static constexpr uint32_t mw(int k) { return (uint32_t)(P::mod(k >> 1) >> (32 * (k & 1))); }

    CZ_HD uint64_t l(int k) const { return (uint64_t)w[2 * k] | ((uint64_t)w[2 * k + 1] << 32); }

    CZ_HD static cz_mont from_limbs(const uint64_t *x)
    {
        cz_mont r;
        CZ_UNROLL for (int k = 0; k < NL; k++) {
            r.w[2 * k] = (uint32_t)x[k];
            r.w[2 * k + 1] = (uint32_t)(x[k] >> 32);
        }
        return r;
    }
    CZ_HD static cz_mont load(const uint64_t *x) { return from_limbs(x); }
    CZ_HD static void store(uint64_t *x, const cz_mont &a)
    {
        CZ_UNROLL for (int k = 0; k < NL; k++) x[k] = a.l(k);
    }
    CZ_HD static cz_mont zero()
    {
        cz_mont r;
        CZ_UNROLL for (int k = 0; k < N; k++) r.w[k] = 0;
        return r;
    }
    CZ_HD static cz_mont one()
    {
        cz_mont r;
        CZ_UNROLL for (int k = 0; k < N; k++) r.w[k] = (uint32_t)(P::one(k >> 1) >> (32 * (k & 1)));
        return r;
    }
    CZ_HD static cz_mont r2()
    {
        cz_mont r;
        CZ_UNROLL for (int k = 0; k < N; k++) r.w[k] = (uint32_t)(P::r2(k >> 1) >> (32 * (k & 1)));
        return r;
    }

    CZ_HD bool is_zero() const
    {
        uint32_t t = 0;
        CZ_UNROLL for (int k = 0; k < N; k++) t |= w[k];
        return t == 0;
    }
    CZ_HD bool is_one() const { return *this == one(); }
    CZ_HD friend bool operator==(const cz_mont &a, const cz_mont &b)
    {
        uint32_t t = 0;
        CZ_UNROLL for (int k = 0; k < N; k++) t |= a.w[k] ^ b.w[k];
        return t == 0;
    }
    CZ_HD friend bool operator!=(const cz_mont &a, const cz_mont &b) { return !(a == b); }

    /* r = t - m if t >= m else t (t < 2m) */
    CZ_HD static void reduce_once(uint32_t *r, const uint32_t *t)
    {
        cz__chain c;
        uint32_t s[N];
        s[0] = c.sub_cc(t[0], mw(0));
        CZ_UNROLL for (int k = 1; k < N; k++) s[k] = c.subc_cc(t[k], mw(k));
        uint32_t keep = c.subc(0, 0); /* all ones when t < m */
        CZ_UNROLL for (int k = 0; k < N; k++) r[k] = (t[k] & keep) | (s[k] & ~keep);
    }

    CZ_HD friend cz_mont operator+(const cz_mont &a, const cz_mont &b)
    {
        cz__chain c;
        uint32_t t[N];
        t[0] = c.add_cc(a.w[0], b.w[0]);
        CZ_UNROLL for (int k = 1; k < N; k++) t[k] = c.addc_cc(a.w[k], b.w[k]);
        cz_mont r;
        reduce_once(r.w, t); /* m < 2^(32N-1): no carry out of the top word */
        return r;
    }
    /* a - b, with m (M2: 2m) added back on a borrow: operator- for
     * canonical values, sub_lt2 for values below 2m */
    template <bool M2>
    CZ_HD static cz_mont sub_wrap(const cz_mont &a, const cz_mont &b)
    {
        cz__chain c;
        cz_mont r;
        r.w[0] = c.sub_cc(a.w[0], b.w[0]);
        CZ_UNROLL for (int k = 1; k < N; k++) r.w[k] = c.subc_cc(a.w[k], b.w[k]);
        uint32_t bw = c.subc(0, 0); /* all ones on borrow: add the modulus (or 2m) back */
        r.w[0] = c.add_cc(r.w[0], (M2 ? mw2(0) : mw(0)) & bw);
        CZ_UNROLL for (int k = 1; k < N; k++) r.w[k] = c.addc_cc(r.w[k], (M2 ? mw2(k) : mw(k)) & bw);
        return r;
    }
    CZ_HD friend cz_mont operator-(const cz_mont &a, const cz_mont &b) { return sub_wrap<false>(a, b); }
    CZ_HD friend cz_mont operator-(const cz_mont &a)
    {
        cz__chain c;
        cz_mont r;
        uint32_t nz = a.is_zero() ? 0u : 0xffffffffu;
        r.w[0] = c.sub_cc(mw(0) & nz, a.w[0]);
        CZ_UNROLL for (int k = 1; k < N; k++) r.w[k] = c.subc_cc(mw(k) & nz, a.w[k]);
        return r;
    }
    CZ_HD friend cz_mont dbl(const cz_mont &a) { return a + a; }
    CZ_HD friend cz_mont add(const cz_mont &a, const cz_mont &b) { return a + b; }
    CZ_HD friend cz_mont sub(const cz_mont &a, const cz_mont &b) { return a - b; }
    CZ_HD friend cz_mont neg(const cz_mont &a) { return -a; }

    /* Values in [0, 2m) ("below 2m"): the NTT's butterflies keep their
     * values there between a transform's first load and its last store and
     * so skip the product's final subtraction (docs/CUDA.md, "Butterflies
     * below 2r"). 2m < 2^(32N) for both moduli; 4m is not for Fr, so a sum
     * keeps its carry word. */
    CZ_HD static constexpr uint32_t mw2(int k) { return (mw(k) << 1) | (k ? mw(k - 1) >> 31 : 0u); }
    /* a b R^-1 in [0, 2m), congruent to the product, for a < m and any b:
     * each row's total stays below a + m (it depends on the multiplicand a
     * only), and the result is below a b / R + m < 2m */
    CZ_HD static cz_mont mul_lt2(const cz_mont &a, const cz_mont &b) { return mul_eo_t<true, false>(a, b); }
    /* a + b in [0, 2m) for a, b < 2m: 2m subtracted when the sum (with its
     * carry word) reaches it */
    CZ_HD static cz_mont add_lt2(const cz_mont &a, const cz_mont &b)
    {
        cz__chain c;
        uint32_t t[N], s[N];
        t[0] = c.add_cc(a.w[0], b.w[0]);
        CZ_UNROLL for (int k = 1; k < N; k++) t[k] = c.addc_cc(a.w[k], b.w[k]);
        const uint32_t top = c.addc(0, 0);
        s[0] = c.sub_cc(t[0], mw2(0));
        CZ_UNROLL for (int k = 1; k < N; k++) s[k] = c.subc_cc(t[k], mw2(k));
        /* all ones when top:t < 2m (top = 1 with t >= 2m would need a + b
         * >= 2^(32N) + 2m > 4m, which cannot be) */
        const uint32_t keep = c.subc(top, 0);
        cz_mont r;
        CZ_UNROLL for (int k = 0; k < N; k++) r.w[k] = (t[k] & keep) | (s[k] & ~keep);
        return r;
    }
    /* a - b in [0, 2m) for a, b < 2m: 2m added back on a borrow */
    CZ_HD static cz_mont sub_lt2(const cz_mont &a, const cz_mont &b) { return sub_wrap<true>(a, b); }
    /* [0, 2m) -> [0, m) */
    CZ_HD static cz_mont canon_lt2(const cz_mont &a)
    {
        cz_mont r;
        reduce_once(r.w, a.w);
        return r;
    }

    /* acc += sum over even j of x[j] * bi * 2^(32j); the carry out stays in c */
    CZ_HD static void cmad_n(cz__chain &c, uint32_t *acc, const uint32_t *x, uint32_t bi)
    {
        acc[0] = c.mad_lo_cc(x[0], bi, acc[0]);
        acc[1] = c.madc_hi_cc(x[0], bi, acc[1]);
        CZ_UNROLL for (int j = 2; j < N; j += 2) {
            acc[j] = c.madc_lo_cc(x[j], bi, acc[j]);
            acc[j + 1] = c.madc_hi_cc(x[j], bi, acc[j + 1]);
        }
    }
    /* One CIOS row. On entry the running total is T = E + 2^32 O with
     * E[0] = 0, and the row works on T / 2^32 = E / 2^32 + O. On exit the
     * total is T' = O + 2^32 E, O[0] = 0: the arrays have traded roles. */
    /* Does the modulus end in the words 1, 0xffffffff (r does: its low limb
     * is 2^64 - 2^32 + 1)? Then -m^-1 = -1 mod 2^32, m = -x for the low word
     * x, and m * (1 + 0xffffffff 2^32) = x 2^32 + h 2^64 (mod the low word,
     * which becomes 0 with carry x != 0) with h = x ? ~x : 0: the first two
     * words of every m*p chain are additions, not products. */
    static constexpr bool LOW01 = mw(0) == 1u && mw(1) == 0xffffffffu;

    /* The Montgomery factor of a row, m = x N0 mod 2^32 for the row's low
     * word x. Where N0 = 2^32 - 1 (Fr) the compiler sees m = -x, and then
     * forms every product m p[j] of the row as a low and a high multiply
     * (IMAD.X + IMAD.HI.U32.X, six IMAD-pipe clocks a word) instead of one
     * IMAD.WIDE.U32.X (four): one Fr product took 336 instructions, 272
     * with this and the wide first row (mul_l). Read from constant memory,
     * N0 is opaque and the products stay whole (docs/CUDA.md, "Whole word
     * products"). */
    CZ_HD static uint32_t mfactor(uint32_t x)
    {
#if defined(__CUDA_ARCH__)
        if constexpr (N0 == 0xffffffffu) return x * cz__ones32;
#endif
        return x * N0;
    }

    /* T += m p for the low word x = lo[0] of T, where T = lo + 2^32 hi1
     * (lo holds the even words of p's products, hi1 the odd ones);
     * afterwards lo[0] = 0. FAST uses LOW01 when the modulus allows it. */
    template <bool FAST>
    CZ_HD static void reduce_step(cz__chain &c, uint32_t *lo, uint32_t *hi1, const uint32_t *p)
    {
        if (FAST && LOW01) {
            uint32_t x = lo[0], m = mfactor(x), h = x ? ~x : 0u; /* m = -x */
            hi1[0] = c.add_cc(hi1[0], x); /* m * p[1], low and high words */
            hi1[1] = c.addc_cc(hi1[1], h);
            CZ_UNROLL for (int j = 2; j < N; j += 2) {
                hi1[j] = c.madc_lo_cc(p[j + 1], m, hi1[j]);
                hi1[j + 1] = c.madc_hi_cc(p[j + 1], m, hi1[j + 1]);
            }                             /* carry out is zero (bounds) */
            lo[0] = c.add_cc(lo[0], m);   /* m * p[0] = m: lo[0] -> 0 */
            lo[1] = c.addc_cc(lo[1], 0);
            CZ_UNROLL for (int j = 2; j < N; j += 2) {
                lo[j] = c.madc_lo_cc(p[j], m, lo[j]);
                lo[j + 1] = c.madc_hi_cc(p[j], m, lo[j + 1]);
            }
        } else {
            uint32_t m = mfactor(lo[0]);
            cmad_n(c, hi1, p + 1, m);     /* carry out is zero (bounds) */
            cmad_n(c, lo, p, m);
        }
        hi1[N - 1] = c.addc(hi1[N - 1], 0);
    }

    template <bool FAST>
    CZ_HD static void row(uint32_t *E, uint32_t *O, const uint32_t *a, const uint32_t *p, uint32_t bi)
    {
        cz__chain c;
        row_prod_l<N>(E, O, a, bi); /* T / 2^32 + a bi, as O + 2^32 E */
        reduce_step<FAST>(c, O, E, p);
    }
    /* RED = false leaves the result in [0, 2m) (mul_lt2) */
    template <bool FAST, bool RED = true>
    CZ_HD static cz_mont mul_eo_t(const cz_mont &a, const cz_mont &b)
    {
        uint32_t p[N];
        CZ_UNROLL for (int k = 0; k < N; k++) p[k] = mw(k);
        uint32_t A[N], B[N];
        cz__chain c;
        mul_l<N>(A, a.w, b.w[0]);
        mul_l<N>(B, a.w + 1, b.w[0]);
        reduce_step<FAST>(c, A, B, p);
        /* total = A + 2^32 B, A[0] = 0 */
        CZ_UNROLL for (int i = 1; i + 1 < N; i += 2) {
            row<FAST>(A, B, a.w, p, b.w[i]);     /* -> B + 2^32 A, B[0] = 0 */
            row<FAST>(B, A, a.w, p, b.w[i + 1]); /* -> A + 2^32 B, A[0] = 0 */
        }
        row<FAST>(A, B, a.w, p, b.w[N - 1]);     /* -> B + 2^32 A, B[0] = 0 */
        /* result = B / 2^32 + A, < 2m */
        A[0] = c.add_cc(A[0], B[1]);
        CZ_UNROLL for (int k = 1; k < N - 1; k++) A[k] = c.addc_cc(A[k], B[k + 1]);
        A[N - 1] = c.addc(A[N - 1], 0);
        cz_mont r;
        if constexpr (RED) reduce_once(r.w, A);
        else {
            CZ_UNROLL for (int k = 0; k < N; k++) r.w[k] = A[k];
        }
        return r;
    }
    /* the default: with the additions for r's low words where they apply */
    CZ_HD static cz_mont mul_eo(const cz_mont &a, const cz_mont &b) { return mul_eo_t<true>(a, b); }
    /* the same schedule with every m*p word a product (for comparison) */
    CZ_HD static cz_mont mul_eo_plain(const cz_mont &a, const cz_mont &b) { return mul_eo_t<false>(a, b); }

    /* acc += x * di, with the even products in lo and the odd ones in hi1
     * (the layout of a CIOS row: total = lo + 2^32 hi1); the carry out of
     * lo goes to hi1's top word, hi1's own is zero (bounds below) */
    CZ_HD static void add_prod(uint32_t *lo, uint32_t *hi1, const uint32_t *x, uint32_t di)
    {
        cz__chain c;
        cmad_n(c, hi1, x + 1, di);
        cmad_n(c, lo, x, di);
        hi1[N - 1] = c.addc(hi1[N - 1], 0);
    }
    /* (x_0 y_0 + ... + x_(K-1) y_(K-1)) R^-1 mod m with one Montgomery
     * reduction for all K products: the CIOS rows of mul_eo with the rows
     * x_k y_(k,i) added to row i before its reduction step. Bounds: every
     * input < m and (K + 1) m < 3/4 2^(32 N) (the static_assert, on m's
     * top word; Fp's 0x1a0111ea allows K up to 6). A row adds below (K + 1) m 2^32 to a running total below
     * (K + 1) m (1 + 2^-31), so the total stays below 2^(32 (N + 1)), what
     * the two halves E + 2^32 O hold, and no chain carries out of the top
     * word; the result before the last subtraction is below
     * (K m^2 + m R) / R < 2 m. For Fp only (with Fr's top word even K = 1
     * leaves no room: mul_eo's own bounds differ). */
    template <int K>
    CZ_HD static cz_mont mulsum_eo(const cz_mont (&x)[K], const cz_mont (&y)[K])
    {
        static_assert((uint64_t)(mw(N - 1) + 1) * (K + 1) <= 3ull << 30, "mulsum_eo: (K + 1) m must be below 3/4 2^(32 N)");
        uint32_t p[N];
        CZ_UNROLL for (int k = 0; k < N; k++) p[k] = mw(k);
        uint32_t A[N], B[N];
        cz__chain c;
        mul_l<N>(A, x[0].w, y[0].w[0]);
        mul_l<N>(B, x[0].w + 1, y[0].w[0]);
        CZ_UNROLL for (int k = 1; k < K; k++) add_prod(A, B, x[k].w, y[k].w[0]);
        reduce_step<true>(c, A, B, p);
        CZ_UNROLL for (int i = 1; i + 1 < N; i += 2) {
            row_sum<K>(A, B, x, y, p, i);
            row_sum<K>(B, A, x, y, p, i + 1);
        }
        row_sum<K>(A, B, x, y, p, N - 1);
        A[0] = c.add_cc(A[0], B[1]);
        CZ_UNROLL for (int k = 1; k < N - 1; k++) A[k] = c.addc_cc(A[k], B[k + 1]);
        A[N - 1] = c.addc(A[N - 1], 0);
        cz_mont r;
        reduce_once(r.w, A);
        return r;
    }
    /* row() for K products: x_0 y_(0,i) as in row(), then the others, then
     * the reduction step */
    template <int K>
    CZ_HD static void row_sum(uint32_t *E, uint32_t *O, const cz_mont (&x)[K], const cz_mont (&y)[K],
                              const uint32_t *p, int i)
    {
        cz__chain c;
        row_prod_l<N>(E, O, x[0].w, y[0].w[i]);
        CZ_UNROLL for (int k = 1; k < K; k++) add_prod(O, E, x[k].w, y[k].w[i]);
        reduce_step<true>(c, O, E, p);
    }
    /* (a b + c d) R^-1 mod m, one reduction for both products */
    CZ_HD static cz_mont mul2_eo(const cz_mont &a, const cz_mont &b, const cz_mont &c2, const cz_mont &d)
    {
        const cz_mont x[2] = {a, c2}, y[2] = {b, d};
        return mulsum_eo<2>(x, y);
    }
    /* (a b + c d + e f + g h) R^-1 mod m, one reduction for the four */
    CZ_HD static cz_mont mul4_eo(const cz_mont &a, const cz_mont &b, const cz_mont &c2, const cz_mont &d,
                                 const cz_mont &e, const cz_mont &f, const cz_mont &g, const cz_mont &h)
    {
        const cz_mont x[4] = {a, c2, e, g}, y[4] = {b, d, f, h};
        return mulsum_eo<4>(x, y);
    }

    /* One row of m p alone, for the reduction of a square: on entry the
     * total is T = E + 2^32 O with E[0] = 0; on exit it is T / 2^32 + m p,
     * for the m that clears its low word, as O + 2^32 E with O[0] = 0
     * (the roles traded, as in row()). T / 2^32 = O + E[1] + 2^32 (E >> 64):
     * E[1] goes into O[0], whose carry starts the chain of the odd words
     * of m p into the shifted E; m comes first, from plain arithmetic,
     * so nothing runs between the links of a chain. */
    CZ_HD static void red_row(uint32_t *E, uint32_t *O, const uint32_t *p)
    {
        const uint32_t m = mfactor(O[0] + E[1]);
        row_prod_l<N>(E, O, p, m); /* the row of a product with p for x, m for bi */
    }
    /* X += a_i a_j 2^(32 (i + j)) for j = j0, j0 + 2, ... < N: one carry
     * chain over words i + j0 ... (each product's two words, no overlap),
     * its last carry into the next word (see sqr_eo for why that word
     * cannot carry further) */
    CZ_HD static void sq_row(uint32_t *X, const uint32_t *a, int i, int j0)
    {
        cz__chain c;
        int e = i + j0 + 1;
        X[i + j0] = c.mad_lo_cc(a[i], a[j0], X[i + j0]);
        X[i + j0 + 1] = c.madc_hi_cc(a[i], a[j0], X[i + j0 + 1]);
        CZ_UNROLL for (int j = j0 + 2; j < N; j += 2) {
            X[i + j] = c.madc_lo_cc(a[i], a[j], X[i + j]);
            X[i + j + 1] = c.madc_hi_cc(a[i], a[j], X[i + j + 1]);
            e = i + j + 1;
        }
        X[e + 1] = c.addc(X[e + 1], 0);
    }
    /* a^2 R^-1 mod m with each cross product once. The square's 2N words
     * are twice the sum of a_i a_j (i < j) plus the diagonal a_i^2: N(N-1)/2
     * + N products (78 for Fp) where mul_eo's rows make N^2 (144). The
     * cross products go to two arrays by the parity of i + j (Ev even: low
     * word at the even word i + j; Od odd), so each row of either is one
     * carry chain over words no other product of that row touches. A row's
     * final carry lands on a word past every earlier row's chain, which
     * holds at most the final carries of earlier rows (two at most), so it
     * cannot carry further. Then the low half T_lo is reduced by N rows of
     * m p alone, (T_lo + M p) / R <= m, and the high half added:
     * a^2 / R < m (m / R) < m, so the sum is below 2m and one subtraction
     * finishes. */
    CZ_HD static cz_mont sqr_eo(const cz_mont &a)
    {
        constexpr int W = 2 * N;
        uint32_t Ev[W], Od[W];
        CZ_UNROLL for (int k = 0; k < W; k++) Ev[k] = Od[k] = 0;
        /* row 0: the words of each array are disjoint, no carries */
        CZ_UNROLL for (int j = 1; j < N; j++) {
            uint64_t t = (uint64_t)a.w[0] * a.w[j]; /* one IMAD.WIDE.U32 */
            uint32_t lo = (uint32_t)t, hi = (uint32_t)(t >> 32);
            if (j & 1) { Od[j] = lo; Od[j + 1] = hi; }
            else { Ev[j] = lo; Ev[j + 1] = hi; }
        }
        CZ_UNROLL for (int i = 1; i < N - 1; i++) {
            sq_row(Od, a.w, i, i + 1);                /* Od: j = i + 1, i + 3, ... */
            if (i + 2 < N) sq_row(Ev, a.w, i, i + 2); /* Ev: j = i + 2, i + 4, ... */
        }
        /* T = 2 (Ev + Od) + the diagonal (Ev and Od start at words 2 and 1) */
        uint32_t T[W];
        {
            cz__chain c;
            T[0] = 0;
            T[1] = Od[1];
            T[2] = c.add_cc(Ev[2], Od[2]);
            CZ_UNROLL for (int k = 3; k < W; k++) T[k] = c.addc_cc(Ev[k], Od[k]);
        }
        {
            cz__chain c;
            T[1] = c.add_cc(T[1], T[1]);
            CZ_UNROLL for (int k = 2; k < W; k++) T[k] = c.addc_cc(T[k], T[k]);
        }
        {
            cz__chain c;
            T[0] = c.mad_lo_cc(a.w[0], a.w[0], T[0]);
            T[1] = c.madc_hi_cc(a.w[0], a.w[0], T[1]);
            CZ_UNROLL for (int i = 1; i < N; i++) {
                T[2 * i] = c.madc_lo_cc(a.w[i], a.w[i], T[2 * i]);
                T[2 * i + 1] = c.madc_hi_cc(a.w[i], a.w[i], T[2 * i + 1]);
            }
        }
        return redc_wide(T);
    }

    /* T R^-1 mod m for a 2N-word T whose high half T_hi = T >> 32N is
     * below m (a square or product of reduced values: T_hi < m (m / R) <
     * m / 8 for both moduli; a sum of two, < m / 4): the low half is reduced by
     * one reduction step and N - 1 rows of m p, (T_lo + M p) / R <= m, and
     * T_hi is added; the sum is below 2m and one subtraction finishes. */
    CZ_HD static cz_mont redc_wide(const uint32_t *T)
    {
        uint32_t p[N];
        CZ_UNROLL for (int k = 0; k < N; k++) p[k] = mw(k);
        uint32_t A[N], B[N];
        CZ_UNROLL for (int k = 0; k < N; k++) { A[k] = T[k]; B[k] = 0; }
        {
            cz__chain c;
            reduce_step<true>(c, A, B, p); /* total = A + 2^32 B, A[0] = 0 */
        }
        CZ_UNROLL for (int i = 1; i + 1 < N; i += 2) {
            red_row(A, B, p); /* -> B + 2^32 A, B[0] = 0 */
            red_row(B, A, p); /* -> A + 2^32 B, A[0] = 0 */
        }
        red_row(A, B, p);     /* -> B + 2^32 A, B[0] = 0 */
        cz__chain c;
        A[0] = c.add_cc(A[0], B[1]);
        CZ_UNROLL for (int k = 1; k < N - 1; k++) A[k] = c.addc_cc(A[k], B[k + 1]);
        A[N - 1] = c.addc(A[N - 1], 0);
        /* plus the high half */
        cz__chain c2;
        A[0] = c2.add_cc(A[0], T[N]);
        CZ_UNROLL for (int k = 1; k < N; k++) A[k] = c2.addc_cc(A[k], T[N + k]);
        cz_mont r;
        reduce_once(r.w, A);
        return r;
    }

    /* ---- Karatsuba products (separated operand scanning) ----
     * The product a b is formed in full (2N words) by one level of
     * Karatsuba over the halves a = a0 + W^H a1 (W = 2^32, H = N / 2):
     * z0 = a0 b0, z2 = a1 b1 and z1 = (a0 + a1)(b0 + b1) - z0 - z2, three
     * H x H products (3 N^2 / 4 word products where the rows of mul_eo
     * make N^2), then reduced by redc_wide (N^2 word products of m p, as
     * in mul_eo). */

    /* acc[j..j+1] = x[j] * bi for even j < L (x read with stride 2); a
     * 64-bit product is one IMAD.WIDE.U32 where x * bi and __umulhi make
     * an IMAD and an IMAD.HI (docs/CUDA.md) */
    template <int L>
    CZ_HD static void mul_l(uint32_t *acc, const uint32_t *x, uint32_t bi)
    {
        CZ_UNROLL for (int j = 0; j < L; j += 2) {
            uint64_t t = (uint64_t)x[j] * bi;
            acc[j] = (uint32_t)t;
            acc[j + 1] = (uint32_t)(t >> 32);
        }
    }
    /* The product part of a row for L-word operands (L = N in mul_eo):
     * on entry T = E + 2^32 O with E[0] = 0; on exit T / 2^32 + x bi as
     * O + 2^32 E. E[1] sits at word 0 of T / 2^32 and goes into O[0]; E
     * becomes the odd products plus E >> 64, O gains the even ones. Every
     * chain's last carry is zero as long as the total stays below
     * 2^(32 (L + 1)): the partial sums of an L-word by L-word product are
     * below x 2^32; in the rows of mul_eo the bounds of docs/CUDA.md ("why
     * the chains never lose a carry") hold. */
    template <int L>
    CZ_HD static void row_prod_l(uint32_t *E, uint32_t *O, const uint32_t *x, uint32_t bi)
    {
        cz__chain c;
        O[0] = c.add_cc(O[0], E[1]);
        CZ_UNROLL for (int j = 0; j < L - 2; j += 2) {
            E[j] = c.madc_lo_cc(x[j + 1], bi, E[j + 2]);
            E[j + 1] = c.madc_hi_cc(x[j + 1], bi, E[j + 3]);
        }
        E[L - 2] = c.madc_lo_cc(x[L - 1], bi, 0);
        E[L - 1] = c.madc_hi_cc(x[L - 1], bi, 0);
        cz__chain c2; /* O += the even products */
        O[0] = c2.mad_lo_cc(x[0], bi, O[0]);
        O[1] = c2.madc_hi_cc(x[0], bi, O[1]);
        CZ_UNROLL for (int j = 2; j < L; j += 2) {
            O[j] = c2.madc_lo_cc(x[j], bi, O[j]);
            O[j + 1] = c2.madc_hi_cc(x[j], bi, O[j + 1]);
        }
        E[L - 1] = c2.addc(E[L - 1], 0);
    }
    /* out[0 .. 2L) = x y for L-word x, y (L even, any word values): rows of
     * row_prod_l, one word of the product leaving the low end each row */
    template <int L>
    CZ_HD static void prod_l(uint32_t *out, const uint32_t *x, const uint32_t *y)
    {
        uint32_t E[L], O[L];
        mul_l<L>(E, x, y[0]);
        mul_l<L>(O, x + 1, y[0]); /* total = E + 2^32 O */
        out[0] = E[0];
        E[0] = 0;
        CZ_UNROLL for (int i = 1; i + 1 < L; i += 2) {
            row_prod_l<L>(E, O, x, y[i]); /* -> O + 2^32 E */
            out[i] = O[0];
            O[0] = 0;
            row_prod_l<L>(O, E, x, y[i + 1]); /* -> E + 2^32 O */
            out[i + 1] = E[0];
            E[0] = 0;
        }
        row_prod_l<L>(E, O, x, y[L - 1]); /* -> O + 2^32 E */
        out[L - 1] = O[0];
        cz__chain c; /* the rest: O / 2^32 + E */
        out[L] = c.add_cc(E[0], O[1]);
        CZ_UNROLL for (int k = 1; k < L - 1; k++) out[L + k] = c.addc_cc(E[k], O[k + 1]);
        out[2 * L - 1] = c.addc(E[L - 1], 0);
    }
    /* T[0 .. 2N) = a b by one level of Karatsuba */
    CZ_HD static void prod_ka(uint32_t *T, const uint32_t *a, const uint32_t *b)
    {
        constexpr int H = N / 2;
        static_assert(H % 2 == 0, "prod_ka needs an even half");
        uint32_t sa[H], sb[H], ca, cb;
        {
            cz__chain c;
            sa[0] = c.add_cc(a[0], a[H]);
            CZ_UNROLL for (int k = 1; k < H; k++) sa[k] = c.addc_cc(a[k], a[H + k]);
            ca = c.addc(0, 0);
        }
        {
            cz__chain c;
            sb[0] = c.add_cc(b[0], b[H]);
            CZ_UNROLL for (int k = 1; k < H; k++) sb[k] = c.addc_cc(b[k], b[H + k]);
            cb = c.addc(0, 0);
        }
        prod_l<H>(T, a, b);             /* z0 */
        prod_l<H>(T + N, a + H, b + H); /* z2 */
        uint32_t M[N + 1];
        prod_l<H>(M, sa, sb);
        { /* M += 2^(32H) (ca sb + cb sa) + 2^(32N) ca cb: the whole
           * (a0 + a1)(b0 + b1), below 2^(2 (32H + 1)) */
            const uint32_t ma = 0u - ca, mb = 0u - cb;
            cz__chain c;
            M[H] = c.add_cc(M[H], sb[0] & ma);
            CZ_UNROLL for (int k = 1; k < H; k++) M[H + k] = c.addc_cc(M[H + k], sb[k] & ma);
            M[N] = c.addc(ca & cb, 0);
            cz__chain c2;
            M[H] = c2.add_cc(M[H], sa[0] & mb);
            CZ_UNROLL for (int k = 1; k < H; k++) M[H + k] = c2.addc_cc(M[H + k], sa[k] & mb);
            M[N] = c2.addc(M[N], 0);
        }
        { /* z1 = M - z0 - z2 = a0 b1 + a1 b0 < 2^(64H + 1) */
            cz__chain c;
            M[0] = c.sub_cc(M[0], T[0]);
            CZ_UNROLL for (int k = 1; k < N; k++) M[k] = c.subc_cc(M[k], T[k]);
            M[N] = c.subc(M[N], 0);
            cz__chain c2;
            M[0] = c2.sub_cc(M[0], T[N]);
            CZ_UNROLL for (int k = 1; k < N; k++) M[k] = c2.subc_cc(M[k], T[N + k]);
            M[N] = c2.subc(M[N], 0);
        }
        { /* T += 2^(32H) z1; the total a b < 2^(64N) carries out of nothing */
            cz__chain c;
            T[H] = c.add_cc(T[H], M[0]);
            CZ_UNROLL for (int k = 1; k <= N; k++) T[H + k] = c.addc_cc(T[H + k], M[k]);
            CZ_UNROLL for (int k = H + N + 1; k < 2 * N - 1; k++) T[k] = c.addc_cc(T[k], 0);
            T[2 * N - 1] = c.addc(T[2 * N - 1], 0);
        }
    }
    /* a b R^-1 mod m: Karatsuba product, then redc_wide */
    CZ_HD static cz_mont mul_ka(const cz_mont &a, const cz_mont &b)
    {
        uint32_t T[2 * N];
        prod_ka(T, a.w, b.w);
        return redc_wide(T);
    }
    /* (a b + c d) R^-1 mod m with one reduction: two Karatsuba products
     * summed (below 2 m^2, so T_hi < m / 4: redc_wide's bound holds) */
    CZ_HD static cz_mont mul2_ka(const cz_mont &a, const cz_mont &b, const cz_mont &c2, const cz_mont &d)
    {
        uint32_t T[2 * N], U[2 * N];
        prod_ka(T, a.w, b.w);
        prod_ka(U, c2.w, d.w);
        cz__chain c;
        T[0] = c.add_cc(T[0], U[0]);
        CZ_UNROLL for (int k = 1; k < 2 * N - 1; k++) T[k] = c.addc_cc(T[k], U[k]);
        T[2 * N - 1] = c.addc(T[2 * N - 1], U[2 * N - 1]);
        return redc_wide(T);
    }

    /* 64-bit CIOS, the CPU's portable schedule, for comparison */
    CZ_HD static cz_mont mul_64(const cz_mont &a, const cz_mont &b)
    {
        uint64_t x[NL], y[NL], t[NL + 1];
        CZ_UNROLL for (int k = 0; k < NL; k++) { x[k] = a.l(k); y[k] = b.l(k); t[k] = 0; }
        t[NL] = 0;
        CZ_UNROLL for (int i = 0; i < NL; i++) {
            uint64_t carry = 0;
            CZ_UNROLL for (int j = 0; j < NL; j++) {
                uint64_t lo = x[j] * y[i], hi = cz__mulhi64(x[j], y[i]);
                uint64_t s = t[j] + lo;
                hi += s < lo;
                s += carry;
                hi += s < carry;
                t[j] = s;
                carry = hi;
            }
            t[NL] += carry; /* no overflow: the moduli leave the top bit clear */
            uint64_t m = t[0] * P::N0;
            uint64_t lo = m * P::mod(0), hi = cz__mulhi64(m, P::mod(0));
            uint64_t s = t[0] + lo;
            carry = hi + (s < lo);
            CZ_UNROLL for (int j = 1; j < NL; j++) {
                lo = m * P::mod(j);
                hi = cz__mulhi64(m, P::mod(j));
                s = t[j] + lo;
                hi += s < lo;
                s += carry;
                hi += s < carry;
                t[j - 1] = s;
                carry = hi;
            }
            t[NL - 1] = t[NL] + carry;
            t[NL] = 0;
        }
        cz_mont r;
        CZ_UNROLL for (int k = 0; k < NL; k++) {
            r.w[2 * k] = (uint32_t)t[k];
            r.w[2 * k + 1] = (uint32_t)(t[k] >> 32);
        }
        reduce_once(r.w, r.w);
        return r;
    }

    /* the default product: Karatsuba for Fp where CZ_FP_MUL_KA says so */
    static constexpr bool KA = CZ_FP_MUL_KA && N == 12;
    CZ_HD static cz_mont mul_d(const cz_mont &a, const cz_mont &b)
    {
        if constexpr (KA) return mul_ka(a, b);
        else return mul_eo(a, b);
    }
    /* (a b + c d) R^-1, one reduction (Fp only) */
    CZ_HD static cz_mont mul2(const cz_mont &a, const cz_mont &b, const cz_mont &c2, const cz_mont &d)
    {
        if constexpr (KA) return mul2_ka(a, b, c2, d);
        else return mul2_eo(a, b, c2, d);
    }
    CZ_HD friend cz_mont operator*(const cz_mont &a, const cz_mont &b) { return mul_d(a, b); }
    CZ_HD friend cz_mont mul(const cz_mont &a, const cz_mont &b) { return mul_d(a, b); }
    CZ_HD friend cz_mont sqr(const cz_mont &a) { return sqr_eo(a); }
    CZ_HD cz_mont &operator*=(const cz_mont &b) { return *this = mul_d(*this, b); }
    CZ_HD cz_mont &operator+=(const cz_mont &b) { return *this = *this + b; }
    CZ_HD cz_mont &operator-=(const cz_mont &b) { return *this = *this - b; }

    CZ_HD friend cz_mont to_mont(const cz_mont &plain) { return mul_eo(plain, r2()); }
    CZ_HD friend cz_mont from_mont(const cz_mont &a)
    {
        cz_mont u = zero();
        u.w[0] = 1;
        return mul_eo(a, u);
    }
    CZ_HD friend cz_mont pow(const cz_mont &a, uint64_t e)
    {
        cz_mont r = one(), b = a;
        while (e) {
            if (e & 1) r = mul_eo(r, b);
            b = mul_eo(b, b);
            e >>= 1;
        }
        return r;
    }
};

typedef cz_mont<cz_fr_params> fr_t;
typedef cz_mont<cz_fp_params> fp_t;

/* ---- Fp2 = Fp[u] / (u^2 + 1), the CPU's formulas (src/ff/fp2.c) ---- */
struct __align__(8) fp2_t {
    fp_t c0, c1;

    CZ_HD static fp2_t zero() { return fp2_t{fp_t::zero(), fp_t::zero()}; }
    CZ_HD static fp2_t one() { return fp2_t{fp_t::one(), fp_t::zero()}; }
    CZ_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    CZ_HD friend bool operator==(const fp2_t &a, const fp2_t &b) { return a.c0 == b.c0 && a.c1 == b.c1; }
    CZ_HD friend bool operator!=(const fp2_t &a, const fp2_t &b) { return !(a == b); }
    CZ_HD friend fp2_t operator+(const fp2_t &a, const fp2_t &b) { return fp2_t{a.c0 + b.c0, a.c1 + b.c1}; }
    CZ_HD friend fp2_t operator-(const fp2_t &a, const fp2_t &b) { return fp2_t{a.c0 - b.c0, a.c1 - b.c1}; }
    CZ_HD friend fp2_t operator-(const fp2_t &a) { return fp2_t{-a.c0, -a.c1}; }
    CZ_HD friend fp2_t dbl(const fp2_t &a) { return fp2_t{dbl(a.c0), dbl(a.c1)}; }
    CZ_HD friend fp2_t conj(const fp2_t &a) { return fp2_t{a.c0, -a.c1}; }
    CZ_HD friend fp2_t operator*(const fp2_t &a, const fp2_t &b)
    {
        fp_t t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
        fp_t s = (a.c0 + a.c1) * (b.c0 + b.c1);
        return fp2_t{t0 - t1, (s - t0) - t1};
    }
    CZ_HD friend fp2_t mul(const fp2_t &a, const fp2_t &b) { return a * b; }
    /* the schoolbook product with one reduction per half (fp_t::mul2_eo),
     * as the lane pairs of fp2_pair.cuh form it */
    CZ_HD friend fp2_t mul_lazy(const fp2_t &a, const fp2_t &b)
    {
        return fp2_t{fp_t::mul2_eo(a.c0, b.c0, -a.c1, b.c1), fp_t::mul2_eo(a.c0, b.c1, a.c1, b.c0)};
    }
    /* a b - c d with one reduction per half (fp_t::mul4_eo over the four
     * products of each half), as fp2_pair.cuh's fe_mul_sub forms it */
    CZ_HD friend fp2_t mul_sub_lazy(const fp2_t &a, const fp2_t &b, const fp2_t &c, const fp2_t &d)
    {
        return fp2_t{fp_t::mul4_eo(a.c0, b.c0, -a.c1, b.c1, -c.c0, d.c0, c.c1, d.c1),
                     fp_t::mul4_eo(a.c0, b.c1, a.c1, b.c0, -c.c0, d.c1, -c.c1, d.c0)};
    }
    /* the same over Karatsuba products (fp_t::mul2_ka) */
    CZ_HD friend fp2_t mul_lazy_ka(const fp2_t &a, const fp2_t &b)
    {
        return fp2_t{fp_t::mul2_ka(a.c0, b.c0, -a.c1, b.c1), fp_t::mul2_ka(a.c0, b.c1, a.c1, b.c0)};
    }
    CZ_HD friend fp2_t sqr(const fp2_t &a)
    {
        fp_t m = a.c0 * a.c1;
        return fp2_t{(a.c0 + a.c1) * (a.c0 - a.c1), dbl(m)};
    }
    CZ_HD friend fp2_t mul_fp(const fp2_t &a, const fp_t &b) { return fp2_t{a.c0 * b, a.c1 * b}; }
    /* times the non-residue xi = u + 1 */
    CZ_HD friend fp2_t mul_by_xi(const fp2_t &a) { return fp2_t{a.c0 - a.c1, a.c0 + a.c1}; }
    CZ_HD fp2_t &operator*=(const fp2_t &b) { return *this = *this * b; }
    CZ_HD fp2_t &operator+=(const fp2_t &b) { return *this = *this + b; }
    CZ_HD fp2_t &operator-=(const fp2_t &b) { return *this = *this - b; }
};

static_assert(sizeof(fr_t) == 32 && alignof(fr_t) == 8, "fr_t layout");
static_assert(sizeof(fp_t) == 48 && alignof(fp_t) == 8, "fp_t layout");
static_assert(sizeof(fp2_t) == 96 && alignof(fp2_t) == 8, "fp2_t layout");

/* ---- whole-element loads and stores for kernels: one Fr as two 16-byte
 * accesses (ldg_fr through the read-only cache); the pointer must be
 * 16-byte aligned, as cudaMalloc'd arrays of fr_t are. Under a host compiler
 * they are plain copies, for the emulated runs. ---- */
CZ_HD fr_t ld_fr(const fr_t *p)
{
#if defined(__CUDA_ARCH__)
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
    uint4 x = q[0], y = q[1];
    fr_t r;
    r.w[0] = x.x; r.w[1] = x.y; r.w[2] = x.z; r.w[3] = x.w;
    r.w[4] = y.x; r.w[5] = y.y; r.w[6] = y.z; r.w[7] = y.w;
    return r;
#else
    return *p;
#endif
}
CZ_HD fr_t ldg_fr(const fr_t *p)
{
#if defined(__CUDA_ARCH__)
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
    uint4 x = __ldg(q), y = __ldg(q + 1);
    fr_t r;
    r.w[0] = x.x; r.w[1] = x.y; r.w[2] = x.z; r.w[3] = x.w;
    r.w[4] = y.x; r.w[5] = y.y; r.w[6] = y.z; r.w[7] = y.w;
    return r;
#else
    return *p;
#endif
}
CZ_HD void st_fr(fr_t *p, const fr_t &v)
{
#if defined(__CUDA_ARCH__)
    uint4 *q = reinterpret_cast<uint4 *>(p);
    q[0] = make_uint4(v.w[0], v.w[1], v.w[2], v.w[3]);
    q[1] = make_uint4(v.w[4], v.w[5], v.w[6], v.w[7]);
#else
    *p = v;
#endif
}
#endif
