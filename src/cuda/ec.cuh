/* ec.cuh — the BLS12-381 curve groups on the device: G1 over Fp and G2 over
 * Fp2, y^2 = x^3 + B (a = 0), for the MSM kernels.
 *
 * Forms, with the CPU's layouts (src/ec/ec.h) so buffers cross PCIe as they
 * are: affine (x, y), infinity written as x = y = 0; XYZZ (X, Y, ZZ, ZZZ) =
 * (X/ZZ, Y/ZZZ), infinity when ZZ = 0 (so an all-zero buffer is infinity).
 * One template over the coordinate field F serves both groups.
 *
 * Formulas from the Explicit-Formulas Database, as on the CPU: madd-2008-s
 * (XYZZ += affine), add-2008-s (XYZZ += XYZZ), dbl-2008-s-1 and its affine
 * form mdbl-2008-s-1. The generic additions fail for equal inputs, so each
 * checks P == R == 0 and switches to doubling; P == 0 alone means the inputs
 * are opposite and the sum is infinity.
 *
 * Doubling and the full addition are out of line (one copy per group, so
 * the kernels compile in seconds rather than minutes); the mixed addition,
 * the inner loop of the bucket sums, is inlined.
 *
 * The field comes from ff.cuh (fp_t, fp2_t) through the few fe_* names
 * below, the only place that knows that header's spelling; fe_inv (Fermat,
 * a^(p-2), and for Fp2 through the norm) is for conversions to affine.
 *
 * Every function is __host__ __device__: a host compiler runs the very same
 * code (ff.cuh emulates its carry chains there), so tests without a GPU can
 * check the kernels' arithmetic (setup.cu's emulated setup does). */
#ifndef CZ_CUDA_EC_CUH
#define CZ_CUDA_EC_CUH

#include <stdint.h>
#include "cuda/ff.cuh"

/* ---- the field, through one set of names ---- */
#define CZ_DEV CZ_HD /* __host__ __device__ __forceinline__ under nvcc */
#define CZ_EC __host__ __device__

template <class F> CZ_DEV bool fe_is_zero(const F &a) { return a.is_zero(); }
template <class F> CZ_DEV void fe_set_zero(F &a) { a = F::zero(); }
template <class F> CZ_DEV void fe_set_one(F &a) { a = F::one(); }
template <class F> CZ_DEV F fe_mul(const F &a, const F &b) { return a * b; }
template <class F> CZ_DEV F fe_sqr(const F &a) { return sqr(a); }
template <class F> CZ_DEV F fe_add(const F &a, const F &b) { return a + b; }
template <class F> CZ_DEV F fe_sub(const F &a, const F &b) { return a - b; }
template <class F> CZ_DEV F fe_dbl(const F &a) { return dbl(a); }
template <class F> CZ_DEV F fe_neg(const F &a) { return -a; }
/* a b - c d; over Fp both products share one Montgomery reduction
 * (fp_t::mul2), which saves about half a product; on G2 lane pairs each
 * lane's four products share one (fp2_pair.cuh) */
template <class F> CZ_DEV F fe_mul_sub(const F &a, const F &b, const F &c, const F &d) { return a * b - c * d; }
template <> CZ_DEV fp_t fe_mul_sub<fp_t>(const fp_t &a, const fp_t &b, const fp_t &c, const fp_t &d)
{
    return fp_t::mul2(a, b, -c, d);
}

/* 1/a = a^(m-2) for a prime field (0 for a = 0); variable time, for public
 * values only */
template <class P> CZ_EC __noinline__ cz_mont<P> fe_inv(const cz_mont<P> &a)
{
    uint64_t e[P::NL], borrow = 2;
    for (int k = 0; k < P::NL; k++) {
        uint64_t m = P::mod(k);
        e[k] = m - borrow;
        borrow = m < borrow;
    }
    cz_mont<P> r = cz_mont<P>::one();
    for (int b = 64 * P::NL - 1; b >= 0; b--) {
        r = sqr(r);
        if ((e[b / 64] >> (b % 64)) & 1) r = r * a;
    }
    return r;
}

/* Fp2: 1/(c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2) (u^2 = -1) */
template <int D = 0> CZ_EC __noinline__ fp2_t fe_inv(const fp2_t &a)
{
    fp_t t = fe_inv(sqr(a.c0) + sqr(a.c1));
    return fp2_t{a.c0 * t, -(a.c1 * t)};
}

/* ---- points ---- */
template <class F> struct cz_aff_t { F x, y; };
template <class F> struct cz_xyzz_t { F x, y, zz, zzz; };

template <class F> CZ_DEV bool aff_is_inf(const cz_aff_t<F> &a) { return fe_is_zero(a.x) && fe_is_zero(a.y); }
template <class F> CZ_DEV bool xyzz_is_inf(const cz_xyzz_t<F> &p) { return fe_is_zero(p.zz); }
template <class F> CZ_DEV void xyzz_set_inf(cz_xyzz_t<F> &p)
{
    fe_set_zero(p.x);
    fe_set_zero(p.y);
    fe_set_zero(p.zz);
    fe_set_zero(p.zzz);
}

/* p = 2 (x, y) for an affine point that is not infinity (mdbl-2008-s-1) */
template <class F> CZ_EC __noinline__ void xyzz_mdbl(cz_xyzz_t<F> &p, const F &x, const F &y)
{
    F u = fe_dbl(y), v = fe_sqr(u), w = fe_mul(u, v), s = fe_mul(x, v);
    F m = fe_sqr(x);
    m = fe_add(fe_dbl(m), m);
    F x3 = fe_sub(fe_sqr(m), fe_dbl(s));
    p.y = fe_mul_sub(m, fe_sub(s, x3), w, y);
    p.x = x3;
    p.zz = v;
    p.zzz = w;
}

/* p = 2 p (dbl-2008-s-1) */
template <class F> CZ_EC __noinline__ void xyzz_dbl(cz_xyzz_t<F> &p)
{
    if (xyzz_is_inf(p)) return;
    F u = fe_dbl(p.y), v = fe_sqr(u), w = fe_mul(u, v), s = fe_mul(p.x, v);
    F m = fe_sqr(p.x);
    m = fe_add(fe_dbl(m), m);
    F x3 = fe_sub(fe_sqr(m), fe_dbl(s));
    p.y = fe_mul_sub(m, fe_sub(s, x3), w, p.y);
    p.x = x3;
    p.zz = fe_mul(v, p.zz);
    p.zzz = fe_mul(w, p.zzz);
}

/* p += (x, y), the affine point given by coordinates, not infinity
 * (madd-2008-s) */
template <class F> CZ_EC void xyzz_madd_xy(cz_xyzz_t<F> &p, const F &x, const F &y)
{
    if (xyzz_is_inf(p)) {
        p.x = x;
        p.y = y;
        fe_set_one(p.zz);
        fe_set_one(p.zzz);
        return;
    }
    F pp = fe_sub(fe_mul(x, p.zz), p.x);  /* P = U2 - X1 */
    F r = fe_sub(fe_mul(y, p.zzz), p.y);  /* R = S2 - Y1 */
    if (fe_is_zero(pp)) {
        if (fe_is_zero(r)) {
            /* through copies: p itself never has its address taken, so it
             * stays in registers in the callers' loops */
            cz_xyzz_t<F> t;
            F xc = x, yc = y;
            xyzz_mdbl(t, xc, yc);
            p = t;
        } else {
            xyzz_set_inf(p);
        }
        return;
    }
    F ppp = fe_sqr(pp);         /* PP */
    F q = fe_mul(p.x, ppp);     /* Q = X1 PP */
    p.zz = fe_mul(p.zz, ppp);
    ppp = fe_mul(pp, ppp);      /* PPP */
    p.zzz = fe_mul(p.zzz, ppp);
    F x3 = fe_sub(fe_sub(fe_sqr(r), ppp), fe_dbl(q));
    p.y = fe_mul_sub(r, fe_sub(q, x3), p.y, ppp);
    p.x = x3;
}

/* p += a (a may be infinity), or p -= a when neg */
template <class F> CZ_EC void xyzz_madd(cz_xyzz_t<F> &p, const cz_aff_t<F> &a, bool neg)
{
    if (aff_is_inf(a)) return;
    xyzz_madd_xy(p, a.x, neg ? fe_neg(a.y) : a.y);
}

/* p += q (add-2008-s), inlined where the caller's loop is this addition
 * (the bucket sums); xyzz_add below is the out-of-line call */
template <class F> CZ_EC __forceinline__ void xyzz_add_inl(cz_xyzz_t<F> &p, const cz_xyzz_t<F> &q)
{
    if (xyzz_is_inf(q)) return;
    if (xyzz_is_inf(p)) {
        p = q;
        return;
    }
    F u1 = fe_mul(p.x, q.zz), s1 = fe_mul(p.y, q.zzz);
    F pp = fe_sub(fe_mul(q.x, p.zz), u1);  /* P = U2 - U1 */
    F r = fe_sub(fe_mul(q.y, p.zzz), s1);  /* R = S2 - S1 */
    if (fe_is_zero(pp)) {
        if (fe_is_zero(r)) xyzz_dbl(p);
        else xyzz_set_inf(p);
        return;
    }
    F ppp = fe_sqr(pp);
    F qq = fe_mul(u1, ppp);
    p.zz = fe_mul(fe_mul(p.zz, q.zz), ppp);
    ppp = fe_mul(pp, ppp);
    p.zzz = fe_mul(fe_mul(p.zzz, q.zzz), ppp);
    F x3 = fe_sub(fe_sub(fe_sqr(r), ppp), fe_dbl(qq));
    p.y = fe_mul_sub(r, fe_sub(qq, x3), s1, ppp);
    p.x = x3;
}

/* p += q (add-2008-s), out of line */
template <class F> CZ_EC __noinline__ void xyzz_add(cz_xyzz_t<F> &p, const cz_xyzz_t<F> &q) { xyzz_add_inl(p, q); }

/* p = k p for a small non-negative k (double-and-add from the top bit) */
template <class F> CZ_EC void xyzz_mul_small(cz_xyzz_t<F> &p, uint32_t k)
{
    cz_xyzz_t<F> base = p;
    int b = 31;
    while (b >= 0 && !((k >> b) & 1)) b--; /* the top set bit: p = base there */
    if (b < 0) xyzz_set_inf(p);
    for (b--; b >= 0; b--) {
        xyzz_dbl(p);
        if ((k >> b) & 1) xyzz_add(p, base);
    }
}

/* out[i] = the affine form of acc[i] for lo <= i < hi, with one inversion
 * for them all (Montgomery's trick over ZZ·ZZZ; out's slots hold the
 * prefix products until the backward pass replaces them, so out must not
 * overlap acc); infinity becomes (0, 0). The GPU setup's and the MSM's
 * window copies' conversions. */
template <class F> CZ_EC void xyzz_batch_to_aff(cz_aff_t<F> *out, const cz_xyzz_t<F> *acc, size_t lo, size_t hi)
{
    F prod;
    fe_set_one(prod);
    for (size_t i = lo; i < hi; i++) { /* out[i] = (prefix, ZZ·ZZZ) */
        const cz_xyzz_t<F> &p = acc[i];
        if (xyzz_is_inf(p)) continue;
        F t = fe_mul(p.zz, p.zzz);
        out[i].x = prod;
        out[i].y = t;
        prod = fe_mul(prod, t);
    }
    F inv = fe_inv(prod); /* 1 / the product of the ZZ·ZZZ */
    for (size_t i = hi; i-- > lo;) {
        cz_xyzz_t<F> p = acc[i];
        cz_aff_t<F> r;
        if (xyzz_is_inf(p)) {
            fe_set_zero(r.x);
            fe_set_zero(r.y);
        } else {
            F it = fe_mul(inv, out[i].x); /* 1 / (ZZ·ZZZ) */
            inv = fe_mul(inv, out[i].y);
            r.x = fe_mul(p.x, fe_mul(it, p.zzz));
            r.y = fe_mul(p.y, fe_mul(it, p.zz));
        }
        out[i] = r;
    }
}

typedef cz_aff_t<fp_t> cz_g1_aff_d;
typedef cz_xyzz_t<fp_t> cz_g1_xyzz_d;
typedef cz_aff_t<fp2_t> cz_g2_aff_d;
typedef cz_xyzz_t<fp2_t> cz_g2_xyzz_d;

#endif
