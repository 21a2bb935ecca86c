/* fr_x8.h — eight Fr elements at once in radix 2^52 with AVX-512 IFMA
 * (VPMADD52LUQ / VPMADD52HUQ), for loops with eight independent operations
 * side by side: the NTT butterflies (poly/ntt_x8.c).
 *
 * Form. A 512-bit register holds one 52-bit digit of eight elements (lane i
 * = element i); five digits span 260 bits, so eight elements are five
 * registers ("SoA"). The values are the integers of the cz_fr limbs (our
 * Montgomery residues x·2^256 mod r, fully reduced, every digit < 2^52), so
 * going from limbs to digits and back only re-slices bits, and the results
 * are bit-identical to the scalar code.
 *
 * Product (cz__fr52_mont_raw, _mont). Five operand-scanning rounds divide
 * by 2^260:
 *   T += a·b_i;  q = T_0·(-r^-1) mod 2^52;  T += q·r;  T >>= 52
 * (the accumulators stay unnormalised, < 2^58). The first operand is any
 * integer a < 2^260 with a ≡ 16·w (mod r), the "x16 form" of w, made once
 * for twiddles and constants (16·w as an integer: packed with shift 4; or
 * 16·w mod r). Then
 *   (a·b + Q·r) / 2^260 ≡ 16·w·b / 2^260 = w·b / 2^256 (mod r),
 * which is cz_fr_mul's product. With a·b < 2^260·r (a < 16r and b < 2r
 * will do) the quotient is below r + r: cz__fr52_mont_raw stops there
 * (unnormalised digits, value < 2r), cz__fr52_mont propagates the carries
 * and subtracts r once where that does not borrow (cz__fr52_canon). If b
 * is the reduced x16 form of v, the result is the x16 form of w·v, so
 * chains of constants (powers c^k) stay in that form. 105 VPMADD52 per
 * eight products.
 *
 * Sums (cz__fr52_addk / _subk): both candidates (x + y and x + y - K, or
 * x - y and x - y + K) are normalised side by side with signed carries and
 * a sign picks one. With K = r they are the field's sum and difference
 * (cz__fr52_add / _sub); with K = 2r they keep "lazy" values in [0, 2r),
 * which is what the NTT butterfly does (cz__fr52_bfly): the product is left
 * unnormalised and unreduced (< 2r, cz__fr52_mont_raw) and goes straight
 * into the two sums, and the transform's last pass brings every output
 * below r (cz__fr52_canon).
 *
 * Conversions: cz__fr52_load takes eight cz_fr at p, p + stride, ... (8
 * loads of 256 bits, a 8x4 word transpose, then the digits; shift 0 for a
 * plain value, 4 for the x16 form); cz__fr52_store is the way back.
 *
 * Everything here is static inline with __attribute__((target)), so the
 * including file builds with any x86-64 flags; call it only when
 * cz_cpu_has_ifma(). fr_x8.c holds the out-of-line uses on cz_fr arrays. */
#ifndef CZ_FF_FR_X8_H
#define CZ_FF_FR_X8_H

#include <stddef.h>
#include <stdint.h>
#include "ff/ff.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(CUZK_NO_ASM)
#define CZ_FR_X8_IFMA 1
#else
#define CZ_FR_X8_IFMA 0
#endif

#define CZ_FR52_MASK 0xfffffffffffffULL

/* d[0..5) = the digits of x·2^sh (x < r, sh 0 or 4: 16x < 2^259), scalar */
static inline void cz__fr52_pack(uint64_t d[5], const cz_fr *x, unsigned sh)
{
    const uint64_t *l = x->l, M = CZ_FR52_MASK;
    uint64_t s0 = l[0] << sh, s1 = l[1] << sh, s2 = l[2] << sh, s3 = l[3] << sh, s4 = 0;
    if (sh) {
        s1 |= l[0] >> (64 - sh);
        s2 |= l[1] >> (64 - sh);
        s3 |= l[2] >> (64 - sh);
        s4 = l[3] >> (64 - sh);
    }
    d[0] = s0 & M;
    d[1] = (s0 >> 52 | s1 << 12) & M;
    d[2] = (s1 >> 40 | s2 << 24) & M;
    d[3] = (s2 >> 28 | s3 << 36) & M;
    d[4] = (s3 >> 16 | s4 << 48) & M;
}

/* AoS entry points (fr_x8.c) for tests: out[i] = a[i]·b[i], a[i] + b[i],
 * a[i] - b[i] through the vector code, or the scalar loop where
 * CZ_FR_X8_IFMA is 0 or the CPU lacks IFMA. out may alias a or b. */
void cz__fr_mul_x8(cz_fr out[8], const cz_fr a[8], const cz_fr b[8]);
void cz__fr_add_x8(cz_fr out[8], const cz_fr a[8], const cz_fr b[8]);
void cz__fr_sub_x8(cz_fr out[8], const cz_fr a[8], const cz_fr b[8]);

/* out[i] = (a[i]·b[i] - c[i])·k for i < n; b, c and / or k may be NULL
 * (no product: a[i] itself; no difference; no factor). Eight lanes at a time where the CPU has IFMA,
 * the rest (and everything elsewhere) with cz_fr_mul / cz_fr_sub; the same
 * bits either way. out may be a, b or c. */
void cz_fr_mul_sub_scale(cz_fr *out, const cz_fr *a, const cz_fr *b, const cz_fr *c, const cz_fr *k, size_t n);
/* the scalar loop of cz_fr_mul_sub_scale (tests) */
void cz__fr_mul_sub_scale_scalar(cz_fr *out, const cz_fr *a, const cz_fr *b, const cz_fr *c, const cz_fr *k,
                                 size_t n);

/* p[j] = w^j for j < n: eight lanes and four chains side by side with IFMA
 * (n a multiple of 32), else one scalar chain */
void cz__fr_powers(cz_fr *p, size_t n, const cz_fr *w);

#if CZ_FR_X8_IFMA
#include <immintrin.h>

#define CZ_FR52_TGT __attribute__((target("avx512f,avx512ifma")))
typedef __m512i cz_v8;

/* r in radix 2^52, and -r^-1 mod 2^52 */
#define CZ_FR52_R0 0xfffff00000001ULL
#define CZ_FR52_R1 0x2fffe5bfefffULL
#define CZ_FR52_R2 0x9a1d80553bda4ULL
#define CZ_FR52_R3 0x7d483339d8080ULL
#define CZ_FR52_R4 0x73eda753299dULL
#define CZ_FR52_N0 0xffffeffffffffULL

/* shift left by n (negative: right); n is a constant after inlining */
#define CZ_FR52_SHL(x, n) ((n) >= 0 ? _mm512_slli_epi64((x), (unsigned)(n)) \
                                    : _mm512_srli_epi64((x), (unsigned)-(n)))

CZ_FR52_TGT static inline cz_v8 cz__fr52_bc(uint64_t v) { return _mm512_set1_epi64((long long)v); }

/* L[k] = limb k of the eight elements p, p + stride, ... (stride in cz_fr):
 * rows i and i + 4 share a register, then unpack and a two-source permute */
CZ_FR52_TGT static inline void cz__fr52_load_limbs(cz_v8 L[4], const cz_fr *p, size_t stride)
{
    cz_v8 z[4];
    for (int i = 0; i < 4; i++)
        z[i] = _mm512_inserti64x4(
            _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)p[stride * (size_t)i].l)),
            _mm256_loadu_si256((const __m256i *)p[stride * (size_t)(i + 4)].l), 1);
    const cz_v8 lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    const cz_v8 hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    cz_v8 u0 = _mm512_unpacklo_epi64(z[0], z[1]), u1 = _mm512_unpackhi_epi64(z[0], z[1]);
    cz_v8 u2 = _mm512_unpacklo_epi64(z[2], z[3]), u3 = _mm512_unpackhi_epi64(z[2], z[3]);
    L[0] = _mm512_permutex2var_epi64(u0, lo, u2);
    L[2] = _mm512_permutex2var_epi64(u0, hi, u2);
    L[1] = _mm512_permutex2var_epi64(u1, lo, u3);
    L[3] = _mm512_permutex2var_epi64(u1, hi, u3);
}

/* the inverse of cz__fr52_load_limbs */
CZ_FR52_TGT static inline void cz__fr52_store_limbs(cz_fr *p, size_t stride, const cz_v8 L[4])
{
    const cz_v8 lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    const cz_v8 hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    cz_v8 u0 = _mm512_permutex2var_epi64(L[0], lo, L[2]), u2 = _mm512_permutex2var_epi64(L[0], hi, L[2]);
    cz_v8 u1 = _mm512_permutex2var_epi64(L[1], lo, L[3]), u3 = _mm512_permutex2var_epi64(L[1], hi, L[3]);
    cz_v8 z[4] = {_mm512_unpacklo_epi64(u0, u1), _mm512_unpackhi_epi64(u0, u1),
                  _mm512_unpacklo_epi64(u2, u3), _mm512_unpackhi_epi64(u2, u3)};
    for (int i = 0; i < 4; i++) {
        _mm256_storeu_si256((__m256i *)p[stride * (size_t)i].l, _mm512_castsi512_si256(z[i]));
        _mm256_storeu_si256((__m256i *)p[stride * (size_t)(i + 4)].l, _mm512_extracti64x4_epi64(z[i], 1));
    }
}

/* 8x8 transpose of 64-bit words: out[c] lane r = in[r] lane c (swaps of
 * 1x1, 2x2 and 4x4 blocks) */
CZ_FR52_TGT static inline void cz__fr52_transpose8(cz_v8 out[8], const cz_v8 in[8])
{
    const cz_v8 lo2 = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    const cz_v8 hi2 = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    cz_v8 u[8], v[8];
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

/* D = the digits of (L as a 256-bit integer)·2^sh, sh 0 or 4 (the value
 * must stay below 2^260) */
CZ_FR52_TGT static inline void cz__fr52_from_limbs(cz_v8 D[5], const cz_v8 L[4], int sh)
{
    const cz_v8 mask = cz__fr52_bc(CZ_FR52_MASK);
    for (int j = 0; j < 5; j++) {
        cz_v8 d = _mm512_setzero_si512();
        for (int k = 0; k < 4; k++) {
            int n = 64 * k + sh - 52 * j; /* where bit 0 of limb k lands in digit j */
            if (n >= 52 || n <= -64) continue;
            d = _mm512_or_si512(d, CZ_FR52_SHL(L[k], n));
        }
        D[j] = _mm512_and_si512(d, mask);
    }
}

/* L = the four 64-bit limbs of the integer with digits D (< 2^256) */
CZ_FR52_TGT static inline void cz__fr52_to_limbs(cz_v8 L[4], const cz_v8 D[5])
{
    for (int k = 0; k < 4; k++) {
        cz_v8 l = _mm512_setzero_si512();
        for (int j = 0; j < 5; j++) {
            int n = 52 * j - 64 * k; /* where bit 0 of digit j lands in limb k */
            if (n >= 64 || n <= -52) continue;
            l = _mm512_or_si512(l, CZ_FR52_SHL(D[j], n));
        }
        L[k] = l;
    }
}

CZ_FR52_TGT static inline void cz__fr52_load(cz_v8 D[5], const cz_fr *p, size_t stride, int sh)
{
    cz_v8 L[4];
    cz__fr52_load_limbs(L, p, stride);
    if (sh) cz__fr52_from_limbs(D, L, 4);
    else cz__fr52_from_limbs(D, L, 0);
}

CZ_FR52_TGT static inline void cz__fr52_store(cz_fr *p, size_t stride, const cz_v8 D[5])
{
    cz_v8 L[4];
    cz__fr52_to_limbs(L, D);
    cz__fr52_store_limbs(p, stride, L);
}

/* the digits of r and of 2r */
#define CZ_FR52_RV                                                             \
    {cz__fr52_bc(CZ_FR52_R0), cz__fr52_bc(CZ_FR52_R1), cz__fr52_bc(CZ_FR52_R2), \
     cz__fr52_bc(CZ_FR52_R3), cz__fr52_bc(CZ_FR52_R4)}
#define CZ_FR52_2RV                                                            \
    {cz__fr52_bc(0xffffe00000002ULL), cz__fr52_bc(0x5fffcb7fdfffULL),           \
     cz__fr52_bc(0x343b00aa77b48ULL), cz__fr52_bc(0xfa906673b0101ULL),          \
     cz__fr52_bc(0xe7db4ea6533aULL)}

/* T = A·B / 2^260 mod r as unnormalised digits (each < 2^58) of a value
 * < 2r: A < 2^260 in x16 form, B < 2^256 with A·B < 2^260·r (A < 16r and
 * B < 2r will do), digits of both < 2^52 */
CZ_FR52_TGT static inline void cz__fr52_mont_raw(cz_v8 T[5], const cz_v8 A[5], const cz_v8 B[5])
{
    const cz_v8 zero = _mm512_setzero_si512(), n0 = cz__fr52_bc(CZ_FR52_N0);
    const cz_v8 P[5] = CZ_FR52_RV;
    cz_v8 a[5], t[6];
    for (int j = 0; j < 5; j++) a[j] = A[j];
    for (int j = 0; j < 6; j++) t[j] = zero;
    for (int i = 0; i < 5; i++) {
        cz_v8 bi = B[i];
        for (int j = 0; j < 5; j++) t[j] = _mm512_madd52lo_epu64(t[j], a[j], bi);
        for (int j = 0; j < 5; j++) t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a[j], bi);
        cz_v8 q = _mm512_madd52lo_epu64(zero, t[0], n0);
        for (int j = 0; j < 5; j++) t[j] = _mm512_madd52lo_epu64(t[j], q, P[j]);
        for (int j = 0; j < 5; j++) t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], q, P[j]);
        /* t_0 is now a multiple of 2^52: its carry moves up, digits shift down */
        t[1] = _mm512_add_epi64(t[1], _mm512_srli_epi64(t[0], 52));
        for (int j = 0; j < 5; j++) t[j] = t[j + 1];
        t[5] = zero;
    }
    for (int j = 0; j < 5; j++) T[j] = t[j];
}

/* R = T with its carries propagated (T >= 0 unnormalised, < 2^256) */
CZ_FR52_TGT static inline void cz__fr52_norm(cz_v8 R[5], const cz_v8 T[5])
{
    const cz_v8 mask = cz__fr52_bc(CZ_FR52_MASK);
    cz_v8 c = _mm512_setzero_si512();
    for (int j = 0; j < 4; j++) {
        cz_v8 t = _mm512_add_epi64(T[j], c);
        c = _mm512_srli_epi64(t, 52);
        R[j] = _mm512_and_si512(t, mask);
    }
    R[4] = _mm512_add_epi64(T[4], c);
}

/* R = X mod r for X < 2r, normalised: X - r where that does not borrow */
CZ_FR52_TGT static inline void cz__fr52_canon(cz_v8 R[5], const cz_v8 X[5])
{
    const cz_v8 zero = _mm512_setzero_si512(), mask = cz__fr52_bc(CZ_FR52_MASK);
    const cz_v8 P[5] = CZ_FR52_RV;
    cz_v8 S[5], br = zero;
    for (int j = 0; j < 5; j++) {
        cz_v8 s = _mm512_sub_epi64(_mm512_sub_epi64(X[j], P[j]), br);
        br = _mm512_srli_epi64(s, 63);
        S[j] = _mm512_and_si512(s, mask);
    }
    __mmask8 keep = _mm512_cmpneq_epi64_mask(br, zero);
    for (int j = 0; j < 5; j++) R[j] = _mm512_mask_blend_epi64(keep, S[j], X[j]);
}

/* R = A·B / 2^260 mod r, fully reduced (A, B as for cz__fr52_mont_raw);
 * R may alias A or B */
CZ_FR52_TGT static inline void cz__fr52_mont(cz_v8 R[5], const cz_v8 A[5], const cz_v8 B[5])
{
    cz_v8 T[5];
    cz__fr52_mont_raw(T, A, B);
    cz__fr52_norm(T, T);
    cz__fr52_canon(R, T);
}

/* R = X + Y or X + Y - K (K = r or 2r, normalised), whichever is in
 * [0, K), for X + Y < 2K: X normalised, Y's digits may be unnormalised
 * (< 2^58). R normalised; it may alias X or Y. */
CZ_FR52_TGT static inline void cz__fr52_addk(cz_v8 R[5], const cz_v8 X[5], const cz_v8 Y[5], const cz_v8 K[5])
{
    const cz_v8 mask = cz__fr52_bc(CZ_FR52_MASK);
    cz_v8 s[5], A[5], B[5], ca = _mm512_setzero_si512(), cb = ca;
    for (int j = 0; j < 5; j++) s[j] = _mm512_add_epi64(X[j], Y[j]);
    for (int j = 0; j < 5; j++) {
        cz_v8 t = _mm512_add_epi64(s[j], ca); /* x + y */
        cz_v8 u = _mm512_add_epi64(_mm512_sub_epi64(s[j], K[j]), cb); /* x + y - K */
        if (j < 4) {
            ca = _mm512_srli_epi64(t, 52);
            cb = _mm512_srai_epi64(u, 52);
            A[j] = _mm512_and_si512(t, mask);
            B[j] = _mm512_and_si512(u, mask);
        } else {
            A[j] = t;
            B[j] = u; /* negative iff x + y < K */
        }
    }
    __mmask8 neg = _mm512_cmplt_epi64_mask(B[4], _mm512_setzero_si512());
    for (int j = 0; j < 5; j++) R[j] = _mm512_mask_blend_epi64(neg, B[j], A[j]);
}

/* R = X - Y or X - Y + K, whichever is in [0, K), for -K <= X - Y < K,
 * the same rules as cz__fr52_addk */
CZ_FR52_TGT static inline void cz__fr52_subk(cz_v8 R[5], const cz_v8 X[5], const cz_v8 Y[5], const cz_v8 K[5])
{
    const cz_v8 mask = cz__fr52_bc(CZ_FR52_MASK);
    cz_v8 d[5], A[5], B[5], ca = _mm512_setzero_si512(), cb = ca;
    for (int j = 0; j < 5; j++) d[j] = _mm512_sub_epi64(X[j], Y[j]);
    for (int j = 0; j < 5; j++) {
        cz_v8 t = _mm512_add_epi64(d[j], ca); /* x - y */
        cz_v8 u = _mm512_add_epi64(_mm512_add_epi64(d[j], K[j]), cb); /* x - y + K */
        if (j < 4) {
            ca = _mm512_srai_epi64(t, 52);
            cb = _mm512_srai_epi64(u, 52);
            A[j] = _mm512_and_si512(t, mask);
            B[j] = _mm512_and_si512(u, mask);
        } else {
            A[j] = t; /* negative iff x < y */
            B[j] = u;
        }
    }
    __mmask8 neg = _mm512_cmplt_epi64_mask(A[4], _mm512_setzero_si512());
    for (int j = 0; j < 5; j++) R[j] = _mm512_mask_blend_epi64(neg, A[j], B[j]);
}

/* R = X ± Y mod r, fully reduced in and out */
CZ_FR52_TGT static inline void cz__fr52_add(cz_v8 R[5], const cz_v8 X[5], const cz_v8 Y[5])
{
    const cz_v8 K[5] = CZ_FR52_RV;
    cz__fr52_addk(R, X, Y, K);
}

CZ_FR52_TGT static inline void cz__fr52_sub(cz_v8 R[5], const cz_v8 X[5], const cz_v8 Y[5])
{
    const cz_v8 K[5] = CZ_FR52_RV;
    cz__fr52_subk(R, X, Y, K);
}

/* The NTT butterfly on lazy values: X, Y < 2r (normalised) stay < 2r and
 * ≡ X + W·Y, X - W·Y (mod r); W in x16 form below 16r. */
CZ_FR52_TGT static inline void cz__fr52_bfly(cz_v8 X[5], cz_v8 Y[5], const cz_v8 W[5])
{
    const cz_v8 K[5] = CZ_FR52_2RV;
    cz_v8 t[5];
    cz__fr52_mont_raw(t, W, Y); /* < 2r */
    cz__fr52_subk(Y, X, t, K);
    cz__fr52_addk(X, X, t, K);
}

/* the same with W = 1 */
CZ_FR52_TGT static inline void cz__fr52_bfly1(cz_v8 X[5], cz_v8 Y[5])
{
    const cz_v8 K[5] = CZ_FR52_2RV;
    cz_v8 t[5];
    for (int j = 0; j < 5; j++) t[j] = Y[j];
    cz__fr52_subk(Y, X, t, K);
    cz__fr52_addk(X, X, t, K);
}

#endif /* CZ_FR_X8_IFMA */

#endif
