/* fp_x8.h — eight (or sixteen) independent Fp multiplications at once with
 * AVX-512 IFMA (VPMADD52LUQ/VPMADD52HUQ), and eight Fp2 multiplications or
 * squarings, for batch code such as the MSM's batch-affine additions (G1
 * over Fp, G2 over Fp2).
 *
 * cz_fp_mul_x8 takes and returns ordinary cz_fp elements in our Montgomery
 * form (x·2^384 mod p, fully reduced): out[i] = a[i]·b[i], bit-identical to
 * cz_fp_mul. Where the CPU (or the OS) lacks AVX-512F + IFMA, or CUZK_NO_ASM=1
 * is set (util/cpu.h), it makes eight cz_fp_mul calls instead. out may be the
 * same array as a or b; partial overlaps are not allowed.
 *
 * The cz__fp52x8 functions expose the vector core for tests and benchmarks:
 * eight elements in radix 2^52, "structure of arrays" (d[j][i] is digit j of
 * element i), so that a caller chaining several products can pay the
 * repacking once. They exist only where CZ_FP_X8_IFMA is 1 and may be called
 * only when cz_cpu_has_ifma() is true. */
#ifndef CZ_FF_FP_X8_H
#define CZ_FF_FP_X8_H

#include <stddef.h>
#include <stdint.h>
#include "ff/ff.h"
#include "ff/tower.h"

#ifdef __cplusplus
extern "C" {
#endif

void cz_fp_mul_x8(cz_fp out[8], const cz_fp a[8], const cz_fp b[8]);
/* two independent groups of eight, interleaved to hide latency */
void cz_fp_mul_x16(cz_fp out[16], const cz_fp a[16], const cz_fp b[16]);

/* the fallback: eight cz_fp_mul calls (tests) */
void cz__fp_mul_x8_scalar(cz_fp out[8], const cz_fp a[8], const cz_fp b[8]);

/* out[i] = a[i]·b[i] and out[i] = a[i]^2 in Fp2, bit-identical to
 * cz_fp2_mul / cz_fp2_sqr; the same dispatch and aliasing rules as
 * cz_fp_mul_x8 (the fallback: eight cz_fp2_mul / cz_fp2_sqr calls) */
void cz_fp2_mul_x8(cz_fp2 out[8], const cz_fp2 a[8], const cz_fp2 b[8]);
void cz_fp2_sqr_x8(cz_fp2 out[8], const cz_fp2 a[8]);
void cz__fp2_mul_x8_scalar(cz_fp2 out[8], const cz_fp2 a[8], const cz_fp2 b[8]);
void cz__fp2_sqr_x8_scalar(cz_fp2 out[8], const cz_fp2 a[8]);

/* The same two for G1 over Fp. cz_fp_chord_x8: eight chord (or tangent)
 * steps, x3 = lambda^2 - ax - bx, y3 = lambda (ax - x3) - ay with lambda =
 * num[i]·inv[i], a, b and o pointing at eight (x, y) pairs of cz_fp (b's y
 * is not read; o may equal a or b). cz_fp_inv_x8: den[t] <- 1 / den[t] for
 * t < 8 ng (every den[t] non-zero), lane t mod 8 keeping its own prefix
 * products, one inversion for the eight; scratch: CZ_FP_INV_X8_SCRATCH
 * bytes per entry, any alignment. With IFMA both stay in radix 2^52 between
 * their loads and stores; the fallbacks use cz_fp operations and give the
 * same bits. */
#define CZ_FP_INV_X8_SCRATCH 64
void cz_fp_chord_x8(cz_fp *o, const cz_fp *a, const cz_fp *b, const cz_fp num[8], const cz_fp inv[8]);
void cz__fp_chord_x8_scalar(cz_fp *o, const cz_fp *a, const cz_fp *b, const cz_fp num[8], const cz_fp inv[8]);
void cz_fp_inv_x8(cz_fp *den, void *scratch, size_t ng);
void cz__fp_inv_x8_scalar(cz_fp *den, void *scratch, size_t ng);

/* Eight chord (or tangent) steps of affine additions over Fp2, kept in
 * radix 2^52 from the loads to the stores: with lambda = num[i]·inv[i],
 *   x3 = lambda^2 - ax - bx,  y3 = lambda (ax - x3) - ay,
 * where a, b and o each point at eight points laid out as (x, y) pairs of
 * cz_fp2 (a[2i] = ax, a[2i+1] = ay; b's y is not read). Equal to the same
 * steps with cz_fp2 operations (the fallback). o may equal a or b. */
void cz_fp2_chord_x8(cz_fp2 *o, const cz_fp2 *a, const cz_fp2 *b, const cz_fp2 num[8], const cz_fp2 inv[8]);
void cz__fp2_chord_x8_scalar(cz_fp2 *o, const cz_fp2 *a, const cz_fp2 *b, const cz_fp2 num[8],
                             const cz_fp2 inv[8]);

/* den[t] <- 1 / den[t] for t < 8 ng (every den[t] non-zero) in Fp2, by
 * 1/d = conj(d) / N(d) with the norm N(d) = d0^2 + d1^2 in Fp (non-zero for
 * d != 0: -1 is not a square mod p): the norms' prefix products (lane t mod 8
 * keeps its own), one Fp inversion of the eight lane products, and the way
 * back. scratch: CZ_FP2_INV_X8_SCRATCH bytes per entry (8 ng entries), any
 * alignment. With IFMA the norms (d0^2 + d1^2 with one reduction), the
 * chains and conj(d) / N(d) stay in radix 2^52; the fallback does the same
 * with cz_fp operations. The inverses are unique, so both give the same
 * bits. */
#define CZ_FP2_INV_X8_SCRATCH 128
void cz_fp2_inv_x8(cz_fp2 *den, void *scratch, size_t ng);
void cz__fp2_inv_x8_scalar(cz_fp2 *den, void *scratch, size_t ng);

/* The curve equation y^2 = x^3 + b for eight affine points at pts +
 * i·stride bytes (any alignment), each x then y as cz_fp (cz_fp2 for the
 * Fp2 one), fully reduced: bit i of the result is set where point i
 * satisfies it. The point at infinity, (0, 0), does not (callers test it).
 * Same answers with and without IFMA (the fallbacks use cz_fp / cz_fp2). */
unsigned cz_fp_curve_x8(const void *pts, size_t stride, const cz_fp *b);
unsigned cz_fp2_curve_x8(const void *pts, size_t stride, const cz_fp2 *b);
unsigned cz__fp_curve_x8_scalar(const void *pts, size_t stride, const cz_fp *b);
unsigned cz__fp2_curve_x8_scalar(const void *pts, size_t stride, const cz_fp2 *b);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(CUZK_NO_ASM)
#define CZ_FP_X8_IFMA 1
#else
#define CZ_FP_X8_IFMA 0
#endif

#if CZ_FP_X8_IFMA
typedef struct {
    _Alignas(64) uint64_t d[8][8]; /* d[j][i]: digit j (52 bits) of element i */
} cz_fp52x8;

/* the vector paths of cz_fp_mul_x8 / _x16, without the dispatch */
void cz__fp_mul_x8_ifma(cz_fp out[8], const cz_fp a[8], const cz_fp b[8]);
void cz__fp_mul_x16_ifma(cz_fp out[16], const cz_fp a[16], const cz_fp b[16]);
/* out = the radix-2^52 digits of in[i]·2^shift (shift 0 or 32; the limbs are
 * taken as an integer, no reduction) */
void cz__fp52x8_pack(cz_fp52x8 *out, const cz_fp in[8], unsigned shift);
/* out[i] = the integer with digits in[.][i] (must be < 2^384) */
void cz__fp52x8_unpack(cz_fp out[8], const cz_fp52x8 *in);
/* out = a·b / 2^416 mod p, fully reduced, where a was packed with shift 32
 * and b with shift 0 (so out = a·b / 2^384: our Montgomery product). out may
 * alias a or b. */
void cz__fp52x8_mul(cz_fp52x8 *out, const cz_fp52x8 *a32, const cz_fp52x8 *b);
/* the vector paths of cz_fp2_mul_x8 / cz_fp2_sqr_x8 */
void cz__fp2_mul_x8_ifma(cz_fp2 out[8], const cz_fp2 a[8], const cz_fp2 b[8]);
void cz__fp2_sqr_x8_ifma(cz_fp2 out[8], const cz_fp2 a[8]);
void cz__fp2_chord_x8_ifma(cz_fp2 *o, const cz_fp2 *a, const cz_fp2 *b, const cz_fp2 num[8], const cz_fp2 inv[8]);
void cz__fp2_inv_x8_ifma(cz_fp2 *den, void *scratch, size_t ng);
void cz__fp_chord_x8_ifma(cz_fp *o, const cz_fp *a, const cz_fp *b, const cz_fp num[8], const cz_fp inv[8]);
void cz__fp_inv_x8_ifma(cz_fp *den, void *scratch, size_t ng);
unsigned cz__fp_curve_x8_ifma(const void *pts, size_t stride, const cz_fp *b);
unsigned cz__fp2_curve_x8_ifma(const void *pts, size_t stride, const cz_fp2 *b);
#endif

#ifdef __cplusplus
}
#endif

#endif
