/* fp_x8.c — eight Fp Montgomery products per call with AVX-512 IFMA.
 *
 * Each 512-bit register holds one radix-2^52 digit of eight elements (lane i =
 * element i), so the eight products run in lock-step with no cross-lane work.
 * VPMADD52LUQ / VPMADD52HUQ add the low / high 52 bits of a 52x52-bit product
 * to a 64-bit accumulator; the accumulators are left unnormalised (they grow
 * by < 2^54 per round, < 2^58 in all) until the end.
 *
 * Domain. Our elements are x·2^384 mod p; eight 52-bit digits span 416 bits.
 * Eight full reduction rounds divide by 2^416, so the first operand is packed
 * as the integer a·2^32 (a < p < 2^381, so a·2^32 < 2^413 still fits eight
 * digits: the shift costs nothing, it is part of the repacking) and
 *   (a·2^32 · b + Q·p) / 2^416 ≡ a·b / 2^384 (mod p),
 * exactly cz_fp_mul's result once reduced. With Q < 2^416 the sum over 2^416
 * is < p/8 + p < 2p, so one conditional subtraction finishes.
 *
 * Rounds (operand scanning): for digit b_i of b,
 *   T += a·b_i;  q = T_0·(-p^-1) mod 2^52;  T += q·p;
 * now T_0 ≡ 0 mod 2^52: its carry T_0 >> 52 goes into T_1 and the digits
 * shift down one place. Afterwards the carries are propagated once, p is
 * subtracted where that leaves no borrow, and the digits are repacked into six
 * 64-bit limbs. Loading and storing transpose the eight cz_fp (six limbs
 * each) with masked loads / stores and an 8x8 word transpose (unpack, two-
 * source permute, 128-bit-lane shuffle); on the AMD EPYC measured this is
 * faster than gathers / scatters.
 *
 * The G1 chord steps and batch inversion (cz_fp_chord_x8, cz_fp_inv_x8)
 * and the curve-equation checks (cz_fp_curve_x8, cz_fp2_curve_x8) chain
 * their products on digits, repacking only at their loads and stores.
 *
 * Fp2 products (cz_fp2_mul_x8, the chord steps) reduce lazily: Karatsuba's
 * three products double width, combined, then one reduction per coordinate
 * (redc16 below). The batch inversion over Fp2 (cz_fp2_inv_x8) keeps the
 * norms, their prefix chains and conj(d) / N(d) in radix 2^52, repacking
 * only where it loads den and stores the inverses.
 *
 * The vector functions carry __attribute__((target)), so the file builds with
 * any x86-64 GCC/clang flags; they run only after cz_cpu_has_ifma(). */
#include "ff/fp_x8.h"

#include <string.h>
#include "util/cpu.h"

void cz__fp_mul_x8_scalar(cz_fp out[8], const cz_fp a[8], const cz_fp b[8])
{
    for (int i = 0; i < 8; i++) cz_fp_mul(&out[i], &a[i], &b[i]);
}

/* the eight lane products acc[l] -> 1 / acc[l] = (product of the others) /
 * (product of all): one inversion, prefix and suffix products */
static void inv_lanes(cz_fp ai[8], const cz_fp acc[8])
{
    cz_fp pre9[9], suf9[9], ip;
    cz_fp_one(&pre9[0]);
    suf9[8] = pre9[0];
    for (int l = 0; l < 8; l++) cz_fp_mul(&pre9[l + 1], &pre9[l], &acc[l]);
    for (int l = 8; l-- > 0;) cz_fp_mul(&suf9[l], &suf9[l + 1], &acc[l]);
    cz_fp_inv(&ip, &pre9[8]);
    for (int l = 0; l < 8; l++) {
        cz_fp_mul(&ai[l], &ip, &pre9[l]);
        cz_fp_mul(&ai[l], &ai[l], &suf9[l + 1]);
    }
}

/* The scalar chord step and curve check, one definition for F = cz_fp (P =
 * fp) and F = cz_fp2 (P = fp2): the fallbacks of the vector code and its
 * test reference.
 *   chord: for each of 8 points a_i = (a[2i], a[2i+1]) and x-coordinates
 *          b[2i], with l = num[i] inv[i]: x3 = l^2 - a.x - b.x and
 *          y3 = l (a.x - x3) - a.y into o[2i], o[2i+1];
 *   curve: bit i set when point i (stride bytes apart at pts) is on
 *          y^2 = x^3 + b. */
#define CZ__X8_SCALAR_FNS(F, P)                                                                        \
    void cz__##P##_chord_x8_scalar(F *o, const F *a, const F *b, const F num[8], const F inv[8])       \
    {                                                                                                  \
        for (int i = 0; i < 8; i++) {                                                                  \
            const F *ax = &a[2 * i], *ay = &a[2 * i + 1], *bx = &b[2 * i];                             \
            F l, x3, d;                                                                                \
            cz_##P##_mul(&l, &num[i], &inv[i]);                                                        \
            cz_##P##_sqr(&x3, &l);                                                                     \
            cz_##P##_sub(&x3, &x3, ax);                                                                \
            cz_##P##_sub(&x3, &x3, bx);                                                                \
            cz_##P##_sub(&d, ax, &x3);                                                                 \
            cz_##P##_mul(&d, &d, &l);                                                                  \
            cz_##P##_sub(&o[2 * i + 1], &d, ay);                                                       \
            o[2 * i] = x3;                                                                             \
        }                                                                                              \
    }                                                                                                  \
    unsigned cz__##P##_curve_x8_scalar(const void *pts, size_t stride, const F *b)                     \
    {                                                                                                  \
        unsigned ok = 0;                                                                               \
        for (int i = 0; i < 8; i++) {                                                                  \
            F x, y, l, r;                                                                              \
            memcpy(&x, (const uint8_t *)pts + stride * (size_t)i, sizeof x);                           \
            memcpy(&y, (const uint8_t *)pts + stride * (size_t)i + sizeof x, sizeof y);                \
            cz_##P##_sqr(&l, &y);                                                                      \
            cz_##P##_sqr(&r, &x);                                                                      \
            cz_##P##_mul(&r, &r, &x);                                                                  \
            cz_##P##_add(&r, &r, b);                                                                   \
            ok |= (unsigned)cz_##P##_eq(&l, &r) << i;                                                  \
        }                                                                                              \
        return ok;                                                                                     \
    }

CZ__X8_SCALAR_FNS(cz_fp, fp)
CZ__X8_SCALAR_FNS(cz_fp2, fp2)

void cz__fp_inv_x8_scalar(cz_fp *den, void *scratch, size_t ng)
{
    cz_fp *pre = scratch, acc[8], ai[8];
    for (int l = 0; l < 8; l++) cz_fp_one(&acc[l]);
    for (size_t t = 0; t < 8 * ng; t++) {
        pre[t] = acc[t % 8];
        cz_fp_mul(&acc[t % 8], &acc[t % 8], &den[t]);
    }
    inv_lanes(ai, acc);
    for (size_t t = 8 * ng; t-- > 0;) {
        cz_fp d = den[t];
        cz_fp_mul(&den[t], &ai[t % 8], &pre[t]);
        cz_fp_mul(&ai[t % 8], &ai[t % 8], &d);
    }
}

#if CZ_FP_X8_IFMA

#include <immintrin.h>

#define TGT __attribute__((target("avx512f,avx512ifma")))
typedef __m512i V;

/* p in radix 2^52, and -p^-1 mod 2^52 */
static const uint64_t P52[8] = {
    0xeffffffffaaabULL, 0xfeb153ffffb9fULL, 0x6b0f6241eabffULL, 0x12bf6730d2a0fULL,
    0x764774b84f385ULL, 0x1ba7b6434bacdULL, 0x1ea397fe69a4bULL, 0x1a011ULL};
#define N0_52 0x3fffcfffcfffdULL
#define MASK52 0xfffffffffffffULL

/* shift left by n (n may be negative: shift right); n is a constant after
 * unrolling */
#define SHL(x, n) ((n) >= 0 ? _mm512_slli_epi64((x), (unsigned)(n)) \
                            : _mm512_srli_epi64((x), (unsigned)-(n)))

/* 8x8 transpose of 64-bit words: out[c][r] = in[r][c], in three stages that
 * swap 1x1, 2x2 and 4x4 blocks */
TGT static inline void transpose8(V out[8], const V in[8])
{
    const V lo2 = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    const V hi2 = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    V u[8], v[8];
    for (int r = 0; r < 8; r += 2) {
        u[r] = _mm512_unpacklo_epi64(in[r], in[r + 1]);
        u[r + 1] = _mm512_unpackhi_epi64(in[r], in[r + 1]);
    }
    for (int r = 0; r < 8; r += 4)
        for (int t = 0; t < 2; t++) {
            v[r + t] = _mm512_permutex2var_epi64(u[r + t], lo2, u[r + t + 2]);
            v[r + t + 2] = _mm512_permutex2var_epi64(u[r + t], hi2, u[r + t + 2]);
        }
    for (int t = 0; t < 4; t++) {
        out[t] = _mm512_shuffle_i64x2(v[t], v[t + 4], 0x44);
        out[t + 4] = _mm512_shuffle_i64x2(v[t], v[t + 4], 0xee);
    }
}

/* L[k] = limb k of the eight elements at in + i·stride (in words): eight
 * masked loads of six words, transposed */
TGT static inline void load_limbs_st(V L[6], const uint64_t *in, size_t stride)
{
    V r[8], c[8];
    for (int i = 0; i < 8; i++) r[i] = _mm512_maskz_loadu_epi64(0x3f, (const void *)(in + stride * (size_t)i));
    transpose8(c, r);
    for (int k = 0; k < 6; k++) L[k] = c[k];
}

TGT static inline void store_limbs_st(uint64_t *out, size_t stride, const V L[6])
{
    V c[8], r[8];
    for (int k = 0; k < 6; k++) c[k] = L[k];
    c[6] = c[7] = _mm512_setzero_si512();
    transpose8(r, c);
    for (int i = 0; i < 8; i++) _mm512_mask_storeu_epi64((void *)(out + stride * (size_t)i), 0x3f, r[i]);
}

TGT static inline void load_limbs(V L[6], const cz_fp in[8]) { load_limbs_st(L, in[0].l, CZ_FP_LIMBS); }
TGT static inline void store_limbs(cz_fp out[8], const V L[6]) { store_limbs_st(out[0].l, CZ_FP_LIMBS, L); }

/* D = digits of (L as a 384-bit integer)·2^sh */
TGT static inline void limbs_to_52(V D[8], const V L[6], int sh)
{
    const V mask = _mm512_set1_epi64((long long)MASK52);
    for (int j = 0; j < 8; j++) {
        V d = _mm512_setzero_si512();
        for (int k = 0; k < 6; k++) {
            int n = 64 * k + sh - 52 * j; /* where bit 0 of limb k lands in digit j */
            if (n >= 52 || n <= -64) continue;
            d = _mm512_or_si512(d, SHL(L[k], n));
        }
        D[j] = _mm512_and_si512(d, mask);
    }
}

/* L = the six 64-bit limbs of the integer with digits D (< 2^384) */
TGT static inline void limbs_from_52(V L[6], const V D[8])
{
    for (int k = 0; k < 6; k++) {
        V l = _mm512_setzero_si512();
        for (int j = 0; j < 8; j++) {
            int n = 52 * j - 64 * k; /* where bit 0 of digit j lands in limb k */
            if (n >= 64 || n <= -52) continue;
            l = _mm512_or_si512(l, SHL(D[j], n));
        }
        L[k] = l;
    }
}

/* ai = 1 / acc lane by lane, both held as radix-2^52 digit vectors (the
 * batch inversions' one inversion, through inv_lanes) */
TGT static void inv_lanes_52(V ai[8], const V acc[8])
{
    cz_fp accf[8], aif[8];
    V L[6];
    limbs_from_52(L, acc);
    store_limbs(accf, L);
    inv_lanes(aif, accf);
    load_limbs(L, aif);
    limbs_to_52(ai, L, 0);
}

/* R = A·B / 2^416 mod p, fully reduced, for NG independent groups side by
 * side (the loops over g let the compiler interleave them). A, B digits
 * < 2^52, A < 2^413, B < p. */
#define MONT_BODY(NG)                                                          \
    const V zero = _mm512_setzero_si512();                                     \
    const V mask = _mm512_set1_epi64((long long)MASK52);                       \
    const V n0 = _mm512_set1_epi64((long long)N0_52);                          \
    V P[8];                                                                    \
    for (int j = 0; j < 8; j++) P[j] = _mm512_set1_epi64((long long)P52[j]);   \
    V T[NG][9];                                                                \
    for (int g = 0; g < NG; g++)                                               \
        for (int j = 0; j < 9; j++) T[g][j] = zero;                            \
    _Pragma("GCC unroll 8")                                                    \
    for (int i = 0; i < 8; i++) {                                              \
        V q[NG];                                                               \
        for (int g = 0; g < NG; g++) {                                         \
            V bi = B[g][i];                                                    \
            for (int j = 0; j < 8; j++)                                        \
                T[g][j] = _mm512_madd52lo_epu64(T[g][j], A[g][j], bi);        \
            for (int j = 0; j < 8; j++)                                        \
                T[g][j + 1] = _mm512_madd52hi_epu64(T[g][j + 1], A[g][j], bi); \
            q[g] = _mm512_madd52lo_epu64(zero, T[g][0], n0);                   \
        }                                                                      \
        for (int g = 0; g < NG; g++) {                                         \
            T[g][0] = _mm512_madd52lo_epu64(T[g][0], q[g], P[0]);             \
            for (int j = 1; j < 8; j++)                                        \
                T[g][j] = _mm512_madd52lo_epu64(T[g][j], q[g], P[j]);         \
            for (int j = 0; j < 8; j++)                                        \
                T[g][j + 1] = _mm512_madd52hi_epu64(T[g][j + 1], q[g], P[j]); \
            T[g][1] = _mm512_add_epi64(T[g][1], _mm512_srli_epi64(T[g][0], 52)); \
            for (int j = 0; j < 8; j++) T[g][j] = T[g][j + 1];                 \
            T[g][8] = zero;                                                    \
        }                                                                      \
    }                                                                          \
    for (int g = 0; g < NG; g++) {                                             \
        /* carries; the value is < 2p < 2^382, so T[7] ends < 2^18 */          \
        for (int j = 0; j < 7; j++) {                                          \
            T[g][j + 1] = _mm512_add_epi64(T[g][j + 1], _mm512_srli_epi64(T[g][j], 52)); \
            T[g][j] = _mm512_and_si512(T[g][j], mask);                         \
        }                                                                      \
        /* S = T - p; keep T where that borrows */                             \
        V S[8], br = zero;                                                     \
        for (int j = 0; j < 8; j++) {                                          \
            V s = _mm512_sub_epi64(_mm512_sub_epi64(T[g][j], P[j]), br);       \
            br = _mm512_srli_epi64(s, 63);                                     \
            S[j] = _mm512_and_si512(s, mask);                                  \
        }                                                                      \
        __mmask8 keep = _mm512_cmpneq_epi64_mask(br, zero);                    \
        for (int j = 0; j < 8; j++)                                            \
            R[g][j] = _mm512_mask_blend_epi64(keep, S[j], T[g][j]);            \
    }

TGT static inline void mont_x8(V R[1][8], const V A[1][8], const V B[1][8])
{
    MONT_BODY(1)
}

TGT static inline void mont_x16(V R[2][8], const V A[2][8], const V B[2][8])
{
    MONT_BODY(2)
}

/* ---- Fp2 helpers on radix-2^52 digits (eight lanes) ---- */

/* R = X + Y as an integer, digits normalised (X, Y digits < 2^52; the sum
 * stays below 2^416) */
TGT static inline void add52(V R[8], const V X[8], const V Y[8])
{
    const V mask = _mm512_set1_epi64((long long)MASK52);
    V c = _mm512_setzero_si512();
    for (int j = 0; j < 8; j++) {
        V t = _mm512_add_epi64(_mm512_add_epi64(X[j], Y[j]), c);
        c = _mm512_srli_epi64(t, 52);
        R[j] = _mm512_and_si512(t, mask);
    }
}

/* R = X - Y mod p for X, Y < p (fully reduced digits): the difference with
 * borrows, then p added in the lanes where it went negative */
TGT static inline void sub52(V R[8], const V X[8], const V Y[8])
{
    const V mask = _mm512_set1_epi64((long long)MASK52);
    const V zero = _mm512_setzero_si512();
    V br = zero, D[8];
    for (int j = 0; j < 8; j++) {
        V d = _mm512_sub_epi64(_mm512_sub_epi64(X[j], Y[j]), br);
        br = _mm512_srli_epi64(d, 63);
        D[j] = _mm512_and_si512(d, mask);
    }
    __mmask8 neg = _mm512_cmpneq_epi64_mask(br, zero);
    V c = zero;
    for (int j = 0; j < 8; j++) {
        V t = _mm512_add_epi64(_mm512_add_epi64(D[j], _mm512_set1_epi64((long long)P52[j])), c);
        c = _mm512_srli_epi64(t, 52);
        R[j] = _mm512_mask_blend_epi64(neg, D[j], _mm512_and_si512(t, mask));
    }
}

/* digits of coordinate c (0 or 1) of eight cz_fp2, shifted by sh */
TGT static inline void fp2_digits(V D[8], const cz_fp2 in[8], int c, int sh)
{
    V L[6];
    load_limbs_st(L, (c ? in[0].c1.l : in[0].c0.l), 2 * CZ_FP_LIMBS);
    if (sh == 32) limbs_to_52(D, L, 32);
    else limbs_to_52(D, L, 0);
}

TGT static inline void fp2_store(cz_fp2 out[8], const V D0[8], const V D1[8])
{
    V L[6];
    limbs_from_52(L, D0);
    store_limbs_st(out[0].c0.l, 2 * CZ_FP_LIMBS, L);
    limbs_from_52(L, D1);
    store_limbs_st(out[0].c1.l, 2 * CZ_FP_LIMBS, L);
}

/* ---- lazy reduction: double-width products, one reduction per output ----
 * T (sixteen digits, each a signed 64-bit accumulator) holds an integer
 * with a multiple of 2^32 folded in (one operand is packed shifted by 32),
 * and redc16 returns T / 2^416 mod p: eight rounds that add q·p·2^(52 i) to
 * clear digit i, then the top eight digits. The accumulators may go
 * negative digit by digit (differences of products); the carries are then
 * arithmetic shifts, which divide exactly since a cleared digit is a
 * multiple of 2^52, and the low 52 bits that VPMADD52LUQ takes for q are
 * the digit mod 2^52 either way. Only the whole value must be >= 0, and
 * below 2^416·p so that the result (T + Q p) / 2^416 < 2p and one
 * conditional subtraction reduces it fully. */

/* T += A·B (A, B digits < 2^52) */
TGT static inline void mac8x8(V T[16], const V A[8], const V B[8])
{
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) T[i + j] = _mm512_madd52lo_epu64(T[i + j], A[j], B[i]);
        for (int j = 0; j < 8; j++) T[i + j + 1] = _mm512_madd52hi_epu64(T[i + j + 1], A[j], B[i]);
    }
}

/* R[g] = T[g] / 2^416 mod p, fully reduced, for NG values side by side */
#define REDC_BODY(NG)                                                          \
    const V zero = _mm512_setzero_si512();                                     \
    const V mask = _mm512_set1_epi64((long long)MASK52);                       \
    const V n0 = _mm512_set1_epi64((long long)N0_52);                          \
    V P[8];                                                                    \
    for (int j = 0; j < 8; j++) P[j] = _mm512_set1_epi64((long long)P52[j]);   \
    _Pragma("GCC unroll 8")                                                    \
    for (int i = 0; i < 8; i++) {                                              \
        for (int g = 0; g < NG; g++) {                                         \
            V q = _mm512_madd52lo_epu64(zero, T[g][i], n0);                    \
            for (int j = 0; j < 8; j++)                                        \
                T[g][i + j] = _mm512_madd52lo_epu64(T[g][i + j], q, P[j]);     \
            for (int j = 0; j < 8; j++)                                        \
                T[g][i + j + 1] = _mm512_madd52hi_epu64(T[g][i + j + 1], q, P[j]); \
            T[g][i + 1] = _mm512_add_epi64(T[g][i + 1], _mm512_srai_epi64(T[g][i], 52)); \
        }                                                                      \
    }                                                                          \
    for (int g = 0; g < NG; g++) {                                             \
        V *U = &T[g][8];                                                       \
        for (int j = 0; j < 7; j++) {                                          \
            U[j + 1] = _mm512_add_epi64(U[j + 1], _mm512_srai_epi64(U[j], 52)); \
            U[j] = _mm512_and_si512(U[j], mask);                               \
        }                                                                      \
        V S[8], br = zero;                                                     \
        for (int j = 0; j < 8; j++) {                                          \
            V s = _mm512_sub_epi64(_mm512_sub_epi64(U[j], P[j]), br);          \
            br = _mm512_srli_epi64(s, 63);                                     \
            S[j] = _mm512_and_si512(s, mask);                                  \
        }                                                                      \
        __mmask8 keep = _mm512_cmpneq_epi64_mask(br, zero);                    \
        for (int j = 0; j < 8; j++)                                            \
            R[g][j] = _mm512_mask_blend_epi64(keep, S[j], U[j]);               \
    }

TGT static inline void redc16_x1(V R[1][8], V T[1][16]) { REDC_BODY(1) }
TGT static inline void redc16_x2(V R[2][8], V T[2][16]) { REDC_BODY(2) }

/* p·2^413 in radix 2^52: a multiple of p above any a1·b1·2^32 (a1, b1 < p),
 * added to c0 = t0 - t1 to keep it non-negative */
static const uint64_t K52[16] = {
    0, 0, 0, 0, 0, 0, 0, 0x6000000000000ULL,
    0xfdffffffff555ULL, 0xffd62a7ffff73ULL, 0xed61ec483d57fULL, 0xa257ece61a541ULL,
    0xaec8ee9709e70ULL, 0x6374f6c869759ULL, 0x23d472ffcd349ULL, 0x3402ULL};

/* R = A·B in Fp2 on digits, A = (A0, A1) packed shifted by 32 (each < p·2^32),
 * B = (B0, B1) reduced. Karatsuba with lazy reduction: the double-width
 * t0 = A0 B0, t1 = A1 B1, then c1 = (A0 + A1)(B0 + B1) - t0 - t1 (accumulated
 * onto -(t0 + t1)) and c0 = t0 - t1 + p·2^413, and two reductions instead of
 * three, with no modular subtractions. Bounds: c1 = (a0 b1 + a1 b0)·2^32 <
 * 2p²·2^32 and c0 < p²·2^32 + p·2^413 < p·2^414, both below 2^416·p. */
TGT static inline void fp2mul52(V R0[8], V R1[8], const V A0[8], const V A1[8], const V B0[8], const V B1[8])
{
    const V zero = _mm512_setzero_si512();
    V T0[16], T1[16], C[2][16], SA[8], SB[8], R[2][8];
    for (int k = 0; k < 16; k++) T0[k] = T1[k] = zero;
    mac8x8(T0, A0, B0);
    mac8x8(T1, A1, B1);
    add52(SA, A0, A1); /* < 2^414 */
    add52(SB, B0, B1); /* < 2p */
    for (int k = 0; k < 16; k++) {
        C[0][k] = _mm512_add_epi64(_mm512_sub_epi64(T0[k], T1[k]), _mm512_set1_epi64((long long)K52[k]));
        C[1][k] = _mm512_sub_epi64(zero, _mm512_add_epi64(T0[k], T1[k]));
    }
    mac8x8(C[1], SA, SB);
    redc16_x2(R, C);
    for (int j = 0; j < 8; j++) {
        R0[j] = R[0][j];
        R1[j] = R[1][j];
    }
}

/* R = D 2^sh on digits (sh 32 or 33; D < p, so the result < 2^414 fits
 * eight digits) */
TGT static inline void shl_52(V R[8], const V D[8], int sh)
{
    const V mask = _mm512_set1_epi64((long long)MASK52);
    R[0] = _mm512_and_si512(SHL(D[0], sh), mask);
    for (int j = 1; j < 8; j++)
        R[j] = _mm512_and_si512(_mm512_or_si512(SHL(D[j], sh), SHL(D[j - 1], sh - 52)), mask);
}
#define shl32_52(R, D) shl_52((R), (D), 32)

/* R = X^2 for X (reduced digits, not shifted) in Fp2: (x0 + x1)(x0 - x1)
 * and (2 x0) x1, the doubling folded into the shift (x0 2^33 < 2^414) */
TGT static inline void fp2sqr52(V R0[8], V R1[8], const V X0[8], const V X1[8])
{
    V A[2][8], B[2][8], R[2][8], S0[8], S1[8];
    shl32_52(S0, X0);
    shl32_52(S1, X1);
    add52(A[0], S0, S1);
    shl_52(A[1], X0, 33);
    sub52(B[0], X0, X1);
    for (int j = 0; j < 8; j++) B[1][j] = X1[j];
    mont_x16(R, (const V(*)[8])A, (const V(*)[8])B);
    for (int j = 0; j < 8; j++) {
        R0[j] = R[0][j];
        R1[j] = R[1][j];
    }
}

/* digits of the eight cz_fp at p + i·stride words */
TGT static inline void ld52(V D[8], const uint64_t *p, size_t stride, int sh)
{
    V L[6];
    load_limbs_st(L, p, stride);
    if (sh == 32) limbs_to_52(D, L, 32);
    else limbs_to_52(D, L, 0);
}

TGT static inline void st52(uint64_t *p, size_t stride, const V D[8])
{
    V L[6];
    limbs_from_52(L, D);
    store_limbs_st(p, stride, L);
}

TGT void cz__fp2_chord_x8_ifma(cz_fp2 *o, const cz_fp2 *a, const cz_fp2 *b, const cz_fp2 num[8], const cz_fp2 inv[8])
{
    const size_t ps = 4 * CZ_FP_LIMBS, fs = 2 * CZ_FP_LIMBS; /* point and Fp2 strides in words */
    V N0[8], N1[8], I0[8], I1[8], AX0[8], AX1[8], AY0[8], AY1[8], BX0[8], BX1[8];
    ld52(N0, num[0].c0.l, fs, 32);
    ld52(N1, num[0].c1.l, fs, 32);
    ld52(I0, inv[0].c0.l, fs, 0);
    ld52(I1, inv[0].c1.l, fs, 0);
    ld52(AX0, a[0].c0.l, ps, 0);
    ld52(AX1, a[0].c1.l, ps, 0);
    ld52(AY0, a[1].c0.l, ps, 0);
    ld52(AY1, a[1].c1.l, ps, 0);
    ld52(BX0, b[0].c0.l, ps, 0);
    ld52(BX1, b[0].c1.l, ps, 0);
    V L0[8], L1[8], Q0[8], Q1[8], X0[8], X1[8], D0[8], D1[8], Y0[8], Y1[8];
    fp2mul52(L0, L1, N0, N1, I0, I1); /* lambda */
    fp2sqr52(Q0, Q1, L0, L1);
    sub52(X0, Q0, AX0);
    sub52(X0, X0, BX0);
    sub52(X1, Q1, AX1);
    sub52(X1, X1, BX1);
    sub52(Q0, AX0, X0); /* ax - x3 */
    sub52(Q1, AX1, X1);
    shl32_52(D0, Q0);
    shl32_52(D1, Q1);
    fp2mul52(Y0, Y1, D0, D1, L0, L1);
    sub52(Y0, Y0, AY0);
    sub52(Y1, Y1, AY1);
    st52(o[0].c0.l, ps, X0);
    st52(o[0].c1.l, ps, X1);
    st52(o[1].c0.l, ps, Y0);
    st52(o[1].c1.l, ps, Y1);
}

/* the G1 chord: lambda, lambda^2 and lambda (ax - x3), the subtractions
 * between them on digits */
TGT void cz__fp_chord_x8_ifma(cz_fp *o, const cz_fp *a, const cz_fp *b, const cz_fp num[8], const cz_fp inv[8])
{
    const size_t ps = 2 * CZ_FP_LIMBS; /* point stride in words */
    V N[1][8], I[1][8], L[1][8], S[1][8], Q[1][8], Y[1][8], AX[8], AY[8], BX[8], X[8], D[8];
    ld52(N[0], num[0].l, CZ_FP_LIMBS, 32);
    ld52(I[0], inv[0].l, CZ_FP_LIMBS, 0);
    ld52(AX, a[0].l, ps, 0);
    ld52(AY, a[1].l, ps, 0);
    ld52(BX, b[0].l, ps, 0);
    mont_x8(L, (const V(*)[8])N, (const V(*)[8])I); /* lambda */
    shl32_52(S[0], L[0]);
    mont_x8(Q, (const V(*)[8])S, (const V(*)[8])L);
    sub52(X, Q[0], AX);
    sub52(X, X, BX);
    sub52(D, AX, X);
    shl32_52(S[0], D);
    mont_x8(Y, (const V(*)[8])S, (const V(*)[8])L);
    sub52(Y[0], Y[0], AY);
    st52(o[0].l, ps, X);
    st52(o[1].l, ps, Y[0]);
}

/* the G1 batch inversion: the lane prefix products in radix 2^52 (kept in
 * scratch as digits), one inversion of the eight lane products, and on the
 * way back the inverse and the next chain value as one interleaved pair of
 * products */
TGT void cz__fp_inv_x8_ifma(cz_fp *den, void *scratch, size_t ng)
{
    uint64_t *pre = scratch;
    V acc[1][8];
    cz_fp onef[8];
    for (int l = 0; l < 8; l++) cz_fp_one(&onef[l]);
    {
        V L[6];
        load_limbs(L, onef);
        limbs_to_52(acc[0], L, 0);
    }
    for (size_t g = 0; g < ng; g++) {
        V D[1][8], A[1][8];
        ld52(D[0], den[8 * g].l, CZ_FP_LIMBS, 0);
        for (int j = 0; j < 8; j++) _mm512_storeu_si512((void *)(pre + 64 * g + 8 * j), acc[0][j]);
        shl32_52(A[0], acc[0]);
        mont_x8(acc, (const V(*)[8])A, (const V(*)[8])D);
    }
    V ai[8];
    inv_lanes_52(ai, acc[0]);
    for (size_t g = ng; g-- > 0;) {
        V A[2][8], B[2][8], R[2][8];
        shl32_52(A[0], ai);
        for (int j = 0; j < 8; j++) {
            A[1][j] = A[0][j];
            B[0][j] = _mm512_loadu_si512((const void *)(pre + 64 * g + 8 * j));
        }
        ld52(B[1], den[8 * g].l, CZ_FP_LIMBS, 0);
        mont_x16(R, (const V(*)[8])A, (const V(*)[8])B); /* 1 / den, and the chain back */
        st52(den[8 * g].l, CZ_FP_LIMBS, R[0]);
        for (int j = 0; j < 8; j++) ai[j] = R[1][j];
    }
}

/* digits of the eight cz_fp at byte address p + i·stride + off (any
 * alignment) */
TGT static inline void ld52_bytes(V D[8], const void *p, size_t stride, size_t off)
{
    V r[8], c[8], L[6];
    for (int i = 0; i < 8; i++)
        r[i] = _mm512_maskz_loadu_epi64(0x3f, (const void *)((const uint8_t *)p + stride * (size_t)i + off));
    transpose8(c, r);
    for (int k = 0; k < 6; k++) L[k] = c[k];
    limbs_to_52(D, L, 0);
}

/* the lanes where D equals E (both fully reduced) */
TGT static inline unsigned eq52(const V D[8], const V E[8])
{
    __mmask8 m = 0xff;
    for (int j = 0; j < 8; j++) m &= _mm512_cmpeq_epi64_mask(D[j], E[j]);
    return m;
}

/* y^2 = x^3 + b over Fp: x^2, x^3 and y^2 on digits (the last two as one
 * interleaved pair), then y^2 - x^3 against b */
TGT unsigned cz__fp_curve_x8_ifma(const void *pts, size_t stride, const cz_fp *b)
{
    V X[1][8], Y[8], S[1][8], Q[1][8], A[2][8], B[2][8], R[2][8], D[8], Bb[8];
    ld52_bytes(X[0], pts, stride, 0);
    ld52_bytes(Y, pts, stride, sizeof(cz_fp));
    shl32_52(S[0], X[0]);
    mont_x8(Q, (const V(*)[8])S, (const V(*)[8])X); /* x^2 */
    shl32_52(A[0], Q[0]);
    shl32_52(A[1], Y);
    for (int j = 0; j < 8; j++) {
        B[0][j] = X[0][j];
        B[1][j] = Y[j];
    }
    mont_x16(R, (const V(*)[8])A, (const V(*)[8])B); /* x^3, y^2 */
    sub52(D, R[1], R[0]);
    {
        cz_fp bl[8];
        for (int l = 0; l < 8; l++) bl[l] = *b;
        V L[6];
        load_limbs(L, bl);
        limbs_to_52(Bb, L, 0);
    }
    return eq52(D, Bb);
}

/* the same over Fp2 (fp2sqr52, fp2mul52) */
TGT unsigned cz__fp2_curve_x8_ifma(const void *pts, size_t stride, const cz_fp2 *b)
{
    V X0[8], X1[8], Y0[8], Y1[8], Q0[8], Q1[8], S0[8], S1[8], C0[8], C1[8], L0[8], L1[8], D0[8], D1[8];
    ld52_bytes(X0, pts, stride, 0);
    ld52_bytes(X1, pts, stride, sizeof(cz_fp));
    ld52_bytes(Y0, pts, stride, 2 * sizeof(cz_fp));
    ld52_bytes(Y1, pts, stride, 3 * sizeof(cz_fp));
    fp2sqr52(Q0, Q1, X0, X1); /* x^2 */
    shl32_52(S0, Q0);
    shl32_52(S1, Q1);
    fp2mul52(C0, C1, S0, S1, X0, X1); /* x^3 */
    fp2sqr52(L0, L1, Y0, Y1); /* y^2 */
    sub52(D0, L0, C0);
    sub52(D1, L1, C1);
    V B0[8], B1[8];
    {
        cz_fp bl[8];
        V L[6];
        for (int l = 0; l < 8; l++) bl[l] = b->c0;
        load_limbs(L, bl);
        limbs_to_52(B0, L, 0);
        for (int l = 0; l < 8; l++) bl[l] = b->c1;
        load_limbs(L, bl);
        limbs_to_52(B1, L, 0);
    }
    return eq52(D0, B0) & eq52(D1, B1);
}

/* Karatsuba with lazy reduction (fp2mul52) */
TGT void cz__fp2_mul_x8_ifma(cz_fp2 out[8], const cz_fp2 a[8], const cz_fp2 b[8])
{
    V A0[8], A1[8], B0[8], B1[8], C0[8], C1[8];
    fp2_digits(A0, a, 0, 32);
    fp2_digits(A1, a, 1, 32);
    fp2_digits(B0, b, 0, 0);
    fp2_digits(B1, b, 1, 0);
    fp2mul52(C0, C1, A0, A1, B0, B1);
    fp2_store(out, C0, C1);
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u: two products side by side
 * (fp2sqr52) */
TGT void cz__fp2_sqr_x8_ifma(cz_fp2 out[8], const cz_fp2 a[8])
{
    V X0[8], X1[8], C0[8], C1[8];
    fp2_digits(X0, a, 0, 0);
    fp2_digits(X1, a, 1, 0);
    fp2sqr52(C0, C1, X0, X1);
    fp2_store(out, C0, C1);
}

/* scratch: the norms, then their lane prefix products, eight digit vectors
 * per group each (unaligned loads and stores) */
TGT void cz__fp2_inv_x8_ifma(cz_fp2 *den, void *scratch, size_t ng)
{
    const size_t fs = 2 * CZ_FP_LIMBS;
    uint64_t *nrm = scratch, *fpre = nrm + 64 * ng;
    const V zero = _mm512_setzero_si512();
    V acc[1][8];
    cz_fp onef[8];
    for (int l = 0; l < 8; l++) cz_fp_one(&onef[l]);
    {
        V L[6];
        load_limbs(L, onef);
        limbs_to_52(acc[0], L, 0);
    }
    for (size_t g = 0; g < ng; g++) {
        V D0[8], D1[8], S0[8], S1[8], T[1][16], N[1][8], A[1][8];
        ld52(D0, den[8 * g].c0.l, fs, 0);
        ld52(D1, den[8 * g].c1.l, fs, 0);
        shl32_52(S0, D0);
        shl32_52(S1, D1);
        for (int k = 0; k < 16; k++) T[0][k] = zero;
        mac8x8(T[0], S0, D0);
        mac8x8(T[0], S1, D1); /* (d0^2 + d1^2) 2^32 < 2p^2 2^32 */
        redc16_x1(N, T);
        for (int j = 0; j < 8; j++) {
            _mm512_storeu_si512((void *)(nrm + 64 * g + 8 * j), N[0][j]);
            _mm512_storeu_si512((void *)(fpre + 64 * g + 8 * j), acc[0][j]);
        }
        shl32_52(A[0], acc[0]);
        mont_x8(acc, (const V(*)[8])A, (const V(*)[8])N);
    }
    V ai[8];
    inv_lanes_52(ai, acc[0]);
    for (size_t g = ng; g-- > 0;) {
        V A[2][8], B[2][8], R[2][8];
        shl32_52(A[0], ai);
        for (int j = 0; j < 8; j++) {
            A[1][j] = A[0][j];
            B[0][j] = _mm512_loadu_si512((const void *)(fpre + 64 * g + 8 * j));
            B[1][j] = _mm512_loadu_si512((const void *)(nrm + 64 * g + 8 * j));
        }
        mont_x16(R, (const V(*)[8])A, (const V(*)[8])B); /* 1 / N(d), and the chain back */
        for (int j = 0; j < 8; j++) {
            ai[j] = R[1][j];
            B[0][j] = B[1][j] = R[0][j];
        }
        ld52(A[0], den[8 * g].c0.l, fs, 32);
        ld52(A[1], den[8 * g].c1.l, fs, 32);
        mont_x16(R, (const V(*)[8])A, (const V(*)[8])B);
        V Z[8], C1[8];
        for (int j = 0; j < 8; j++) Z[j] = zero;
        sub52(C1, Z, R[1]); /* -d1 / N(d) */
        st52(den[8 * g].c0.l, fs, R[0]);
        st52(den[8 * g].c1.l, fs, C1);
    }
}

TGT void cz__fp_mul_x8_ifma(cz_fp out[8], const cz_fp a[8], const cz_fp b[8])
{
    V L[6], A[1][8], B[1][8], R[1][8];
    load_limbs(L, a);
    limbs_to_52(A[0], L, 32);
    load_limbs(L, b);
    limbs_to_52(B[0], L, 0);
    mont_x8(R, (const V(*)[8])A, (const V(*)[8])B);
    limbs_from_52(L, R[0]);
    store_limbs(out, L);
}

TGT void cz__fp_mul_x16_ifma(cz_fp out[16], const cz_fp a[16], const cz_fp b[16])
{
    V L[6], A[2][8], B[2][8], R[2][8];
    for (int g = 0; g < 2; g++) {
        load_limbs(L, a + 8 * g);
        limbs_to_52(A[g], L, 32);
        load_limbs(L, b + 8 * g);
        limbs_to_52(B[g], L, 0);
    }
    mont_x16(R, (const V(*)[8])A, (const V(*)[8])B);
    for (int g = 0; g < 2; g++) {
        limbs_from_52(L, R[g]);
        store_limbs(out + 8 * g, L);
    }
}

TGT void cz__fp52x8_pack(cz_fp52x8 *out, const cz_fp in[8], unsigned shift)
{
    V L[6], D[8];
    load_limbs(L, in);
    if (shift == 32) limbs_to_52(D, L, 32);
    else limbs_to_52(D, L, 0);
    for (int j = 0; j < 8; j++) _mm512_store_si512((void *)out->d[j], D[j]);
}

TGT void cz__fp52x8_unpack(cz_fp out[8], const cz_fp52x8 *in)
{
    V L[6], D[8];
    for (int j = 0; j < 8; j++) D[j] = _mm512_load_si512((const void *)in->d[j]);
    limbs_from_52(L, D);
    store_limbs(out, L);
}

TGT void cz__fp52x8_mul(cz_fp52x8 *out, const cz_fp52x8 *a32, const cz_fp52x8 *b)
{
    V A[1][8], B[1][8], R[1][8];
    for (int j = 0; j < 8; j++) {
        A[0][j] = _mm512_load_si512((const void *)a32->d[j]);
        B[0][j] = _mm512_load_si512((const void *)b->d[j]);
    }
    mont_x8(R, (const V(*)[8])A, (const V(*)[8])B);
    for (int j = 0; j < 8; j++) _mm512_store_si512((void *)out->d[j], R[0][j]);
}

#endif /* CZ_FP_X8_IFMA */

void cz__fp2_mul_x8_scalar(cz_fp2 out[8], const cz_fp2 a[8], const cz_fp2 b[8])
{
    for (int i = 0; i < 8; i++) cz_fp2_mul(&out[i], &a[i], &b[i]);
}

void cz__fp2_sqr_x8_scalar(cz_fp2 out[8], const cz_fp2 a[8])
{
    for (int i = 0; i < 8; i++) cz_fp2_sqr(&out[i], &a[i]);
}

void cz__fp2_inv_x8_scalar(cz_fp2 *den, void *scratch, size_t ng)
{
    cz_fp *nrm = scratch, *fpre = nrm + 8 * ng, acc[8], ai[8];
    for (int l = 0; l < 8; l++) cz_fp_one(&acc[l]);
    for (size_t t = 0; t < 8 * ng; t++) {
        cz_fp s;
        cz_fp_sqr(&nrm[t], &den[t].c0);
        cz_fp_sqr(&s, &den[t].c1);
        cz_fp_add(&nrm[t], &nrm[t], &s);
        fpre[t] = acc[t % 8];
        cz_fp_mul(&acc[t % 8], &acc[t % 8], &nrm[t]);
    }
    inv_lanes(ai, acc);
    for (size_t t = 8 * ng; t-- > 0;) {
        cz_fp u;
        cz_fp_mul(&u, &ai[t % 8], &fpre[t]); /* 1 / N(d) */
        cz_fp_mul(&ai[t % 8], &ai[t % 8], &nrm[t]);
        cz_fp_mul(&den[t].c0, &den[t].c0, &u);
        cz_fp_mul(&den[t].c1, &den[t].c1, &u);
        cz_fp_neg(&den[t].c1, &den[t].c1);
    }
}

unsigned cz_fp_curve_x8(const void *pts, size_t stride, const cz_fp *b)
{
#if CZ_FP_X8_IFMA
    if (cz_cpu_has_ifma()) return cz__fp_curve_x8_ifma(pts, stride, b);
#endif
    return cz__fp_curve_x8_scalar(pts, stride, b);
}

unsigned cz_fp2_curve_x8(const void *pts, size_t stride, const cz_fp2 *b)
{
#if CZ_FP_X8_IFMA
    if (cz_cpu_has_ifma()) return cz__fp2_curve_x8_ifma(pts, stride, b);
#endif
    return cz__fp2_curve_x8_scalar(pts, stride, b);
}

void cz_fp_chord_x8(cz_fp *o, const cz_fp *a, const cz_fp *b, const cz_fp num[8], const cz_fp inv[8])
{
#if CZ_FP_X8_IFMA
    if (cz_cpu_has_ifma()) {
        cz__fp_chord_x8_ifma(o, a, b, num, inv);
        return;
    }
#endif
    cz__fp_chord_x8_scalar(o, a, b, num, inv);
}

void cz_fp_inv_x8(cz_fp *den, void *scratch, size_t ng)
{
#if CZ_FP_X8_IFMA
    if (cz_cpu_has_ifma()) {
        cz__fp_inv_x8_ifma(den, scratch, ng);
        return;
    }
#endif
    cz__fp_inv_x8_scalar(den, scratch, ng);
}

void cz_fp2_inv_x8(cz_fp2 *den, void *scratch, size_t ng)
{
#if CZ_FP_X8_IFMA
    if (cz_cpu_has_ifma()) {
        cz__fp2_inv_x8_ifma(den, scratch, ng);
        return;
    }
#endif
    cz__fp2_inv_x8_scalar(den, scratch, ng);
}

void cz_fp2_chord_x8(cz_fp2 *o, const cz_fp2 *a, const cz_fp2 *b, const cz_fp2 num[8], const cz_fp2 inv[8])
{
#if CZ_FP_X8_IFMA
    if (cz_cpu_has_ifma()) {
        cz__fp2_chord_x8_ifma(o, a, b, num, inv);
        return;
    }
#endif
    cz__fp2_chord_x8_scalar(o, a, b, num, inv);
}

void cz_fp2_mul_x8(cz_fp2 out[8], const cz_fp2 a[8], const cz_fp2 b[8])
{
#if CZ_FP_X8_IFMA
    if (cz_cpu_has_ifma()) {
        cz__fp2_mul_x8_ifma(out, a, b);
        return;
    }
#endif
    cz__fp2_mul_x8_scalar(out, a, b);
}

void cz_fp2_sqr_x8(cz_fp2 out[8], const cz_fp2 a[8])
{
#if CZ_FP_X8_IFMA
    if (cz_cpu_has_ifma()) {
        cz__fp2_sqr_x8_ifma(out, a);
        return;
    }
#endif
    cz__fp2_sqr_x8_scalar(out, a);
}

void cz_fp_mul_x8(cz_fp out[8], const cz_fp a[8], const cz_fp b[8])
{
#if CZ_FP_X8_IFMA
    if (cz_cpu_has_ifma()) {
        cz__fp_mul_x8_ifma(out, a, b);
        return;
    }
#endif
    cz__fp_mul_x8_scalar(out, a, b);
}

void cz_fp_mul_x16(cz_fp out[16], const cz_fp a[16], const cz_fp b[16])
{
#if CZ_FP_X8_IFMA
    if (cz_cpu_has_ifma()) {
        cz__fp_mul_x16_ifma(out, a, b);
        return;
    }
#endif
    cz__fp_mul_x8_scalar(out, a, b);
    cz__fp_mul_x8_scalar(out + 8, a + 8, b + 8);
}
