/* ff_f64.cuh — Montgomery multiplication on the FP64 units, an alternative
 * schedule to ff.cuh's 32-bit IMAD chains, measured against them
 * (docs/CUDA.md "Products on the FP64 units").
 *
 * Why. The IMAD schedule is bound by the one pipe that runs IMAD (half the
 * issue rate); the FP64 pipe of an H100/H200 SM runs as many fused
 * multiply-adds a clock and sits idle. A double holds a 52-bit integer
 * exactly, and two round-towards-zero FMAs split the 104-bit product of two
 * such limbs into its high and low 52 bits exactly:
 *   h = fma_rz(x, y, 2^104)            = 2^104 + floor(xy / 2^52) 2^52
 *   s = (2^104 + 2^52) - h             (exact: multiples of 2^52 below 2^105)
 *   l = fma_rz(x, y, s)                = 2^52 + (xy mod 2^52)
 * With the exponent fixed, the bit patterns of h and l are the two halves
 * plus a constant (the bits of 2^104 and of 2^52, multiples of 2^52), so
 * they are summed as 64-bit integers and the constants taken off once a
 * column is used. 52 bits a limb: Fr in 5 limbs (25 limb products a
 * product against 64 32-bit ones), Fp in 8 (64 against 144).
 *
 * Form. A value is L limbs of 52 bits, each a double holding an integer
 * < 2^52, little-endian; mul(a, b) = a b 2^(-52 L) mod m as such limbs,
 * below 2m when a and b are below 2m (4m < 2^(52 L) for both fields), so
 * chains of products need no subtraction. The 2^(-52 L) is a different
 * Montgomery radix from ff.cuh's 2^(32 N): values enter and leave through
 * from_mont_words / to_words and a correction by 2^(52 L) (see
 * cz_f64_mul_words, which gives exactly fr_t / fp_t's product).
 *
 * Columns: int64 sums of the bit patterns, wrapping; the true column is
 * below 2^58. Each row of limb products (fixed i) adds l(i, j) and
 * h(i, j - 1) to column i + j together (one three-input 64-bit add), so a
 * product costs 3 FP64 operations and one 64-bit add. */
#ifndef CZ_CUDA_FF_F64_CUH
#define CZ_CUDA_FF_F64_CUH

#include <string.h>
#include "cuda/ff.cuh"

#define CZ_F64_M52 0xfffffffffffffULL
#define CZ_F64_B52 0x4330000000000000ULL  /* bits of 2^52 */
#define CZ_F64_B104 0x4670000000000000ULL /* bits of 2^104 */

CZ_HD uint64_t cz__dbits(double x)
{
#if defined(__CUDA_ARCH__)
    return (uint64_t)__double_as_longlong(x);
#else
    uint64_t u;
    memcpy(&u, &x, 8);
    return u;
#endif
}
CZ_HD double cz__bitsd(uint64_t u)
{
#if defined(__CUDA_ARCH__)
    return __longlong_as_double((long long)u);
#else
    double x;
    memcpy(&x, &u, 8);
    return x;
#endif
}
/* an integer < 2^52 as a double, by its bits: (2^52 + v) - 2^52 */
CZ_HD double cz__u52_to_d(uint64_t v)
{
#if defined(__CUDA_ARCH__)
    return __dsub_rn(cz__bitsd(v | CZ_F64_B52), 0x1p52);
#else
    return (double)v;
#endif
}

/* the bit patterns of h and l above for integers x, y < 2^52 in doubles */
CZ_HD void cz__prod52(double x, double y, uint64_t &hb, uint64_t &lb)
{
#if defined(__CUDA_ARCH__)
    double h = __fma_rz(x, y, 0x1p104);
    double s = __dsub_rn(0x1.0000000000001p104, h);
    double l = __fma_rz(x, y, s);
    hb = cz__dbits(h);
    lb = cz__dbits(l);
#else
    unsigned __int128 p = (unsigned __int128)(uint64_t)x * (uint64_t)y;
    hb = CZ_F64_B104 + (uint64_t)(p >> 52);
    lb = CZ_F64_B52 + ((uint64_t)p & CZ_F64_M52);
#endif
}

/* the field of P (cz_fr_params / cz_fp_params) in L limbs of 52 bits */
template <class P, int L>
struct cz_f64_field {
    /* the moduli leave their top two bits clear (r < 2^255, p < 2^381), so
     * with 52 L >= 64 NL there is room for 4m */
    static_assert(52 * L >= 64 * P::NL, "the limbs must hold every value of the 64-bit limbs");
    static constexpr int LIMBS = L;
    double v[L];

    /* limb j of an integer in 64-bit limbs x0 = x[q], x1 = x[q + 1] with
     * q = 52 j / 64 (x1 = 0 past the top): bits [52 j, 52 j + 52) */
    CZ_HD static constexpr uint64_t slice52(uint64_t x0, uint64_t x1, int j)
    {
        return ((x0 >> ((52 * j) % 64)) | ((52 * j) % 64 > 12 ? x1 << (64 - (52 * j) % 64) : 0)) & CZ_F64_M52;
    }
    CZ_HD static constexpr uint64_t mod_limb(int q) { return q < P::NL ? P::mod(q) : 0; }
    /* limb j of the modulus */
    CZ_HD static constexpr uint64_t mod52(int j)
    {
        return slice52(mod_limb((52 * j) / 64), mod_limb((52 * j) / 64 + 1), j);
    }
    /* -m^-1 mod 2^52 (Newton on 64 bits, from m's low limb) */
    CZ_HD static constexpr uint64_t inv64(uint64_t m0, uint64_t x, int k)
    {
        return k == 0 ? x : inv64(m0, x * (2 - m0 * x), k - 1);
    }
    CZ_HD static constexpr uint64_t minv52() { return (0 - inv64(P::mod(0), 1, 6)) & CZ_F64_M52; }

    /* from the 64-bit limbs of an integer below 2^(52 L) */
    CZ_HD static cz_f64_field from_limbs(const uint64_t *x)
    {
        cz_f64_field r;
        CZ_UNROLL for (int j = 0; j < L; j++) {
            const int q = (52 * j) / 64;
            r.v[j] = cz__u52_to_d(slice52(q < P::NL ? x[q] : 0, q + 1 < P::NL ? x[q + 1] : 0, j));
        }
        return r;
    }
    /* back to 64-bit limbs (the value must be below 2^(64 NL)) */
    CZ_HD void to_limbs(uint64_t *x) const
    {
        CZ_UNROLL for (int q = 0; q < P::NL; q++) x[q] = 0;
        CZ_UNROLL for (int j = 0; j < L; j++) {
            const int q = (52 * j) / 64, s = (52 * j) % 64;
            uint64_t w = (uint64_t)v[j];
            if (q < P::NL) x[q] |= w << s;
            if (s > 12 && q + 1 < P::NL) x[q + 1] |= w >> (64 - s);
        }
    }

    /* a b 2^(-52 L) mod m, below 2m for a, b below 2m */
    CZ_HD friend cz_f64_field mul(const cz_f64_field &a, const cz_f64_field &b)
    {
        uint64_t c[2 * L + 1], bias[2 * L + 1];
        CZ_UNROLL for (int k = 0; k < 2 * L + 1; k++) c[k] = bias[k] = 0;
        /* rows of a_i b_j: column i + j gets l(i, j) + h(i, j - 1) */
        CZ_UNROLL for (int i = 0; i < L; i++) {
            uint64_t hp = CZ_F64_B104;
            CZ_UNROLL for (int j = 0; j < L; j++) {
                uint64_t hb, lb;
                cz__prod52(a.v[i], b.v[j], hb, lb);
                c[i + j] += lb + hp;
                bias[i + j] += CZ_F64_B52 + CZ_F64_B104;
                hp = hb;
            }
            c[i + L] += hp;
            bias[i + L] += CZ_F64_B104;
        }
        /* reduction: q_i clears column i's low 52 bits (the biases are
         * multiples of 2^52 and do not touch them), then column i's carry
         * goes up, its bias taken off first */
        constexpr double minv = (double)minv52(); /* < 2^52: exact, folded */
        CZ_UNROLL for (int i = 0; i < L; i++) {
            uint64_t qh, ql;
            cz__prod52(cz__u52_to_d(c[i] & CZ_F64_M52), minv, qh, ql);
            (void)qh;
            const double q = cz__u52_to_d(ql & CZ_F64_M52);
            uint64_t hp = CZ_F64_B104;
            CZ_UNROLL for (int j = 0; j < L; j++) {
                uint64_t hb, lb;
                cz__prod52(q, (double)mod52(j), hb, lb);
                c[i + j] += lb + hp;
                bias[i + j] += CZ_F64_B52 + CZ_F64_B104;
                hp = hb;
            }
            c[i + L] += hp;
            bias[i + L] += CZ_F64_B104;
            c[i + 1] += (uint64_t)((int64_t)(c[i] - bias[i]) >> 52);
        }
        cz_f64_field r;
        uint64_t carry = 0;
        CZ_UNROLL for (int k = L; k < 2 * L; k++) {
            uint64_t t = c[k] - bias[k] + carry;
            r.v[k - L] = cz__u52_to_d(t & CZ_F64_M52);
            carry = t >> 52;
        }
        return r;
    }
};

typedef cz_f64_field<cz_fr_params, 5> fr_f64_t;
typedef cz_f64_field<cz_fp_params, 8> fp_f64_t;

template <class F> struct cz_f64_of;
template <> struct cz_f64_of<fr_t> { typedef fr_f64_t type; static constexpr uint32_t K_WORD = 0, K_VAL = 16; };
template <> struct cz_f64_of<fp_t> { typedef fp_f64_t type; static constexpr uint32_t K_WORD = 1, K_VAL = 1; };

/* fr_t / fp_t's own product a b R^-1 through the FP64 schedule: the
 * operands' words into limbs, mul, the result fully reduced and back to
 * words, times 2^(52 L) mod m with one ff.cuh product (to_mont of
 * 2^(52 L - 32 N), i.e. 2^4 for Fr and 2^32 for Fp) to undo the radix.
 * For tests; a kernel would keep its values in limbs. */
template <class F>
CZ_HD F cz_f64_mul_words(const F &a, const F &b)
{
    typedef typename cz_f64_of<F>::type G;
    uint64_t x[F::NL], y[F::NL];
    CZ_UNROLL for (int k = 0; k < F::NL; k++) { x[k] = a.l(k); y[k] = b.l(k); }
    G r = mul(G::from_limbs(x), G::from_limbs(y));
    r.to_limbs(x);
    F u = F::from_limbs(x);
    F::reduce_once(u.w, u.w); /* r < 2m */
    F k = F::zero();
    k.w[cz_f64_of<F>::K_WORD] = cz_f64_of<F>::K_VAL;
    return F::mul_eo(u, to_mont(k));
}

#endif
