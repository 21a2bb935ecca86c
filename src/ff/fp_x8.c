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
 * The vector functions carry __attribute__((target)), so the file builds with
 * any x86-64 GCC/clang flags; they run only after cz_cpu_has_ifma(). */
#include "ff/fp_x8.h"
#include "util/cpu.h"

void cz__fp_mul_x8_scalar(cz_fp out[8], const cz_fp a[8], const cz_fp b[8])
{
    for (int i = 0; i < 8; i++) cz_fp_mul(&out[i], &a[i], &b[i]);
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

/* L[k] = limb k of in[0..7]: eight masked loads of six words, transposed */
TGT static inline void load_limbs(V L[6], const cz_fp in[8])
{
    V r[8], c[8];
    for (int i = 0; i < 8; i++) r[i] = _mm512_maskz_loadu_epi64(0x3f, (const void *)in[i].l);
    transpose8(c, r);
    for (int k = 0; k < 6; k++) L[k] = c[k];
}

TGT static inline void store_limbs(cz_fp out[8], const V L[6])
{
    V c[8], r[8];
    for (int k = 0; k < 6; k++) c[k] = L[k];
    c[6] = c[7] = _mm512_setzero_si512();
    transpose8(r, c);
    for (int i = 0; i < 8; i++) _mm512_mask_storeu_epi64((void *)out[i].l, 0x3f, r[i]);
}

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
