/* fr_x8.c — out-of-line uses of the eight-lane Fr code of fr_x8.h on
 * ordinary cz_fr arrays: entry points for tests (one vector product, sum or
 * difference, to check element by element against cz_fr_mul / cz_fr_add /
 * cz_fr_sub), the prover's pointwise products (cz_fr_mul_sub_scale) and the
 * NTT domain's tables of powers (cz__fr_powers). Where IFMA is not there
 * (or CUZK_NO_ASM=1) they run the scalar loop instead. */
#include "ff/fr_x8.h"
#include "util/cpu.h"

#if CZ_FR_X8_IFMA
CZ_FR52_TGT static void op_x8(cz_fr out[8], const cz_fr a[8], const cz_fr b[8], int op)
{
    cz_v8 A[5], B[5], R[5];
    cz__fr52_load(A, a, 1, op == 0 ? 4 : 0);
    cz__fr52_load(B, b, 1, 0);
    if (op == 0) cz__fr52_mont(R, A, B);
    else if (op == 1) cz__fr52_add(R, A, B);
    else cz__fr52_sub(R, A, B);
    cz__fr52_store(out, 1, R);
}
#endif

static void op_dispatch(cz_fr out[8], const cz_fr a[8], const cz_fr b[8], int op)
{
#if CZ_FR_X8_IFMA
    if (cz_cpu_has_ifma()) { op_x8(out, a, b, op); return; }
#endif
    for (int i = 0; i < 8; i++) {
        if (op == 0) cz_fr_mul(&out[i], &a[i], &b[i]);
        else if (op == 1) cz_fr_add(&out[i], &a[i], &b[i]);
        else cz_fr_sub(&out[i], &a[i], &b[i]);
    }
}

void cz__fr_mul_x8(cz_fr out[8], const cz_fr a[8], const cz_fr b[8]) { op_dispatch(out, a, b, 0); }
void cz__fr_add_x8(cz_fr out[8], const cz_fr a[8], const cz_fr b[8]) { op_dispatch(out, a, b, 1); }
void cz__fr_sub_x8(cz_fr out[8], const cz_fr a[8], const cz_fr b[8]) { op_dispatch(out, a, b, 2); }

void cz__fr_mul_sub_scale_scalar(cz_fr *out, const cz_fr *a, const cz_fr *b, const cz_fr *c, const cz_fr *k,
                                 size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cz_fr t = a[i];
        if (b) cz_fr_mul(&t, &a[i], &b[i]);
        if (c) cz_fr_sub(&t, &t, &c[i]);
        if (k) cz_fr_mul(&t, &t, k);
        out[i] = t;
    }
}

#if CZ_FR_X8_IFMA
CZ_FR52_TGT static void mul_sub_scale_x8(cz_fr *out, const cz_fr *a, const cz_fr *b, const cz_fr *c,
                                         const cz_fr *k, size_t n)
{
    cz_v8 K[5];
    if (k) {
        uint64_t d[5];
        cz__fr52_pack(d, k, 4);
        for (int j = 0; j < 5; j++) K[j] = cz__fr52_bc(d[j]);
    }
    for (size_t i = 0; i < n; i += 8) {
        cz_v8 A[5], B[5], T[5];
        if (b) {
            cz__fr52_load(A, a + i, 1, 4);
            cz__fr52_load(B, b + i, 1, 0);
            cz__fr52_mont(T, A, B);
        } else {
            cz__fr52_load(T, a + i, 1, 0); /* the plain digits: a reduced value */
        }
        if (c) {
            cz__fr52_load(B, c + i, 1, 0);
            cz__fr52_sub(T, T, B);
        }
        if (k) cz__fr52_mont(T, K, T);
        cz__fr52_store(out + i, 1, T);
    }
}

/* four chains of eight lanes: chain c holds w^(c·n/4 + 8s + l) at step s */
CZ_FR52_TGT static void powers_x8(cz_fr *p, size_t n, const cz_fr *w)
{
    size_t q = n / 4;
    cz_fr w8, x;
    uint64_t e = 8, d[5];
    cz_fr_pow(&w8, w, &e, 1);
    cz__fr52_pack(d, &w8, 4);
    cz_v8 W8[5], P[4][5];
    for (int j = 0; j < 5; j++) W8[j] = cz__fr52_bc(d[j]);
    for (int c = 0; c < 4; c++) {
        e = c * q;
        cz_fr_pow(&x, w, &e, 1);
        for (int l = 0; l < 8; l++) {
            p[c * q + l] = x;
            cz_fr_mul(&x, &x, w);
        }
        cz__fr52_load(P[c], p + c * q, 1, 0);
    }
    for (size_t s = 0; s < q; s += 8)
        for (int c = 0; c < 4; c++) {
            cz__fr52_store(p + c * q + s, 1, P[c]);
            cz__fr52_mont(P[c], W8, P[c]);
        }
}
#endif

void cz_fr_mul_sub_scale(cz_fr *out, const cz_fr *a, const cz_fr *b, const cz_fr *c, const cz_fr *k, size_t n)
{
    size_t head = 0;
#if CZ_FR_X8_IFMA
    if (cz_cpu_has_ifma()) {
        head = n & ~(size_t)7;
        mul_sub_scale_x8(out, a, b, c, k, head);
    }
#endif
    cz__fr_mul_sub_scale_scalar(out + head, a + head, b ? b + head : NULL, c ? c + head : NULL, k, n - head);
}

void cz__fr_powers(cz_fr *p, size_t n, const cz_fr *w)
{
#if CZ_FR_X8_IFMA
    if (cz_cpu_has_ifma() && n % 32 == 0 && n) {
        powers_x8(p, n, w);
        return;
    }
#endif
    if (!n) return;
    cz_fr_one(&p[0]);
    for (size_t j = 1; j < n; j++) cz_fr_mul(&p[j], &p[j - 1], w);
}
