/* miller.c — the Miller loop of the optimal ate pairing on BLS12-381.
 *
 * f_{|x|,Q}(P) with x = -0xd201000000010000: for each bit of |x| below the
 * top one, f = f^2 · l_{T,T}(P), T = 2T, and where the bit is set
 * f = f · l_{T,Q}(P), T = T + Q; at the end f is conjugated because x < 0
 * (conjugation is inversion up to a factor the final exponentiation kills).
 * T runs on the twist E': y^2 = x^3 + 4(u + 1) in homogeneous projective
 * coordinates (x = X/Z, y = Y/Z), so the loop needs no inversion.
 *
 * Line shape: E' is an M-type twist, untwisted by (x, y) -> (x w^-2, y w^-3)
 * (w^6 = u + 1). The line through twist points with slope s, evaluated at
 * P = (xP, yP) and scaled by w^3, is (s xT - yT) - s xP w^2 + yP w^3, which
 * touches the coefficients 0, 1 and 4 of Fp12 (see cz_fp12_mul_by_014). The
 * factor w^3 is harmless: (w^3)^(p^6 - 1) = -1 and p^2 + 1 is even, so the
 * easy part of the final exponentiation removes it. Likewise every line may
 * be scaled by any Fp2 factor (the final exponentiation maps Fp2^* to 1),
 * which is what lets the projective forms below drop denominators:
 *   doubling (Costello–Lange–Naehrig): (3b'Z^2 - Y^2) + 3X^2 xP w^2 - 2YZ yP w^3
 *   mixed addition with affine Q: (θ xQ - λ yQ) - θ xP w^2 + λ yP w^3,
 *     θ = Y - yQ Z, λ = X - xQ Z.
 * b' = 4(u + 1). The doubled point is kept scaled by 4 to avoid halvings.
 *
 * The multi-pairing runs all pairs through one loop, so the squarings of f
 * are shared. Pairs are taken in chunks of MAX_CHUNK (no allocation); chunk
 * results are multiplied. Pairs with P or Q at infinity are skipped, i.e.
 * contribute 1. */
#include "pairing/pairing.h"

#define X_ABS 0xd201000000010000ULL
#define MAX_CHUNK 16

typedef struct {
    cz_fp2 qx, qy;     /* Q, affine */
    cz_fp2 tx, ty, tz; /* T, projective */
    cz_fp xp3, nxp, yp, nyp; /* 3 xP, -xP, yP, -yP */
} pair_state;

/* out = 3b' a = 12 (u + 1) a */
static void fp2_mul_by_3b(cz_fp2 *out, const cz_fp2 *a)
{
    cz_fp2 t, e;
    cz_fp2_mul_by_xi(&t, a);
    cz_fp2_dbl(&t, &t);
    cz_fp2_dbl(&t, &t);  /* 4 */
    cz_fp2_dbl(&e, &t);  /* 8 */
    cz_fp2_add(out, &e, &t);
}

/* T = 2T (times 4, projectively the same point); l = tangent line at P */
static void dbl_step(cz_fp2 l[3], pair_state *s)
{
    cz_fp2 A, B, C, E, F, H, J, t, u;
    cz_fp2_mul(&A, &s->tx, &s->ty); /* XY */
    cz_fp2_sqr(&B, &s->ty);         /* Y^2 */
    cz_fp2_sqr(&C, &s->tz);         /* Z^2 */
    fp2_mul_by_3b(&E, &C);          /* 3b'Z^2 */
    cz_fp2_dbl(&F, &E);
    cz_fp2_add(&F, &F, &E);         /* 9b'Z^2 */
    cz_fp2_add(&H, &s->ty, &s->tz);
    cz_fp2_sqr(&H, &H);
    cz_fp2_sub(&H, &H, &B);
    cz_fp2_sub(&H, &H, &C);         /* 2YZ */
    cz_fp2_sqr(&J, &s->tx);         /* X^2 */
    /* line */
    cz_fp2_sub(&l[0], &E, &B);
    cz_fp2_mul_fp(&l[1], &J, &s->xp3);
    cz_fp2_mul_fp(&l[2], &H, &s->nyp);
    /* X' = 2XY(Y^2 - 9b'Z^2), Y' = (Y^2 + 9b'Z^2)^2 - 12(3b'Z^2)^2, Z' = 4Y^2 2YZ */
    cz_fp2_sub(&t, &B, &F);
    cz_fp2_mul(&s->tx, &A, &t);
    cz_fp2_dbl(&s->tx, &s->tx);
    cz_fp2_add(&t, &B, &F);
    cz_fp2_sqr(&t, &t);
    cz_fp2_sqr(&E, &E);
    cz_fp2_dbl(&u, &E);
    cz_fp2_add(&u, &u, &E);
    cz_fp2_dbl(&u, &u);
    cz_fp2_dbl(&u, &u);
    cz_fp2_sub(&s->ty, &t, &u);
    cz_fp2_mul(&s->tz, &B, &H);
    cz_fp2_dbl(&s->tz, &s->tz);
    cz_fp2_dbl(&s->tz, &s->tz);
}

/* T = T + Q; l = line through T and Q at P */
static void add_step(cz_fp2 l[3], pair_state *s)
{
    cz_fp2 th, la, C, D, E, F, G, H, t;
    cz_fp2_mul(&t, &s->qy, &s->tz);
    cz_fp2_sub(&th, &s->ty, &t);     /* θ = Y - yQ Z */
    cz_fp2_mul(&t, &s->qx, &s->tz);
    cz_fp2_sub(&la, &s->tx, &t);     /* λ = X - xQ Z */
    cz_fp2_sqr(&C, &th);
    cz_fp2_sqr(&D, &la);
    cz_fp2_mul(&E, &la, &D);         /* λ^3 */
    cz_fp2_mul(&F, &s->tz, &C);      /* Z θ^2 */
    cz_fp2_mul(&G, &s->tx, &D);      /* X λ^2 */
    cz_fp2_add(&H, &E, &F);
    cz_fp2_sub(&H, &H, &G);
    cz_fp2_sub(&H, &H, &G);          /* λ^3 + Zθ^2 - 2Xλ^2 */
    /* line */
    cz_fp2_mul(&l[0], &th, &s->qx);
    cz_fp2_mul(&t, &la, &s->qy);
    cz_fp2_sub(&l[0], &l[0], &t);
    cz_fp2_mul_fp(&l[1], &th, &s->nxp);
    cz_fp2_mul_fp(&l[2], &la, &s->yp);
    /* X' = λH, Y' = θ(G - H) - λ^3 Y, Z' = λ^3 Z */
    cz_fp2_mul(&s->tx, &la, &H);
    cz_fp2_sub(&G, &G, &H);
    cz_fp2_mul(&G, &G, &th);
    cz_fp2_mul(&t, &E, &s->ty);
    cz_fp2_sub(&s->ty, &G, &t);
    cz_fp2_mul(&s->tz, &s->tz, &E);
}

/* f = prod over the n (<= MAX_CHUNK) prepared pairs of f_{x,Q}(P) */
static void miller_chunk(cz_fp12 *f, pair_state *s, size_t n)
{
    cz_fp2 l[3];
    cz_fp12_zero(f);
    if (n == 0) { cz_fp12_one(f); return; }
    for (int bit = 62; bit >= 0; bit--) {
        if (bit != 62) cz_fp12_sqr(f, f); /* f is still 1 on the first pass */
        for (size_t i = 0; i < n; i++) {
            dbl_step(l, &s[i]);
            if (bit == 62 && i == 0) { /* 1 times the line is the line */
                f->c0.c0 = l[0];
                f->c0.c1 = l[1];
                f->c1.c1 = l[2];
            } else {
                cz_fp12_mul_by_014(f, f, &l[0], &l[1], &l[2]);
            }
        }
        if ((X_ABS >> bit) & 1)
            for (size_t i = 0; i < n; i++) {
                add_step(l, &s[i]);
                cz_fp12_mul_by_014(f, f, &l[0], &l[1], &l[2]);
            }
    }
    cz_fp12_conj(f, f);
}

void cz_miller_loop_multi(cz_fp12 *out, const cz_g1_aff *p, const cz_g2_aff *q, size_t n)
{
    pair_state s[MAX_CHUNK];
    cz_fp12 acc, f;
    size_t k = 0;
    int have = 0;
    cz_fp12_one(&acc);
    for (size_t i = 0; i <= n; i++) {
        if (i < n && !cz_g1_aff_is_inf(&p[i]) && !cz_g2_aff_is_inf(&q[i])) {
            pair_state *t = &s[k++];
            t->qx = t->tx = q[i].x;
            t->qy = t->ty = q[i].y;
            cz_fp2_one(&t->tz);
            cz_fp_dbl(&t->xp3, &p[i].x);
            cz_fp_add(&t->xp3, &t->xp3, &p[i].x);
            cz_fp_neg(&t->nxp, &p[i].x);
            t->yp = p[i].y;
            cz_fp_neg(&t->nyp, &p[i].y);
        }
        if (k == MAX_CHUNK || (i == n && k > 0)) {
            miller_chunk(&f, s, k);
            if (have) cz_fp12_mul(&acc, &acc, &f);
            else acc = f;
            have = 1;
            k = 0;
        }
    }
    *out = acc;
}

void cz_miller_loop(cz_fp12 *out, const cz_g1_aff *p, const cz_g2_aff *q)
{
    cz_miller_loop_multi(out, p, q, 1);
}
