/* bench_pairing.c — pairing timings: one full pairing, a 2-pair
 * multi-pairing (shared final exponentiation), and the Miller loop and final
 * exponentiation alone. The pairing chains pick the next input pair from a
 * limb of the previous result, so every call depends on the one before. */
#include "bench.h"
#include "ec/ec.h"
#include "pairing/pairing.h"
#include "util/rng.h"

#define NPTS 8

typedef struct {
    cz_g1_aff p[NPTS + 1];
    cz_g2_aff q[NPTS + 1];
    cz_fp12 f;
    unsigned idx;
} pair_state;

static void next_idx(pair_state *s) { s->idx = (unsigned)(s->f.c0.c0.c0.l[0] % NPTS); }

static void pairing(void *s_, uint64_t n)
{
    pair_state *s = s_;
    for (uint64_t i = 0; i < n; i++) {
        cz_pairing(&s->f, &s->p[s->idx], &s->q[s->idx]);
        next_idx(s);
    }
}

static void multi_pairing_2(void *s_, uint64_t n)
{
    pair_state *s = s_;
    for (uint64_t i = 0; i < n; i++) {
        cz_multi_pairing(&s->f, &s->p[s->idx], &s->q[s->idx], 2);
        next_idx(s);
    }
}

static void miller_loop(void *s_, uint64_t n)
{
    pair_state *s = s_;
    for (uint64_t i = 0; i < n; i++) {
        cz_miller_loop(&s->f, &s->p[s->idx], &s->q[s->idx]);
        next_idx(s);
    }
}

static void final_exp(void *s_, uint64_t n)
{
    pair_state *s = s_;
    for (uint64_t i = 0; i < n; i++) cz_final_exp(&s->f, &s->f);
}

static void bench_pairing(cz_bench *b)
{
    if (!cz__bench_wants(b, "pairing") && !cz__bench_wants(b, "multi_pairing_2") &&
        !cz__bench_wants(b, "miller_loop") && !cz__bench_wants(b, "final_exp"))
        return; /* skip the set-up */

    static pair_state s;
    cz_rng rng;
    cz_rng_seed(&rng, 0x62656e6368706101ULL);
    cz_g1_jac g1, t1;
    cz_g2_jac g2, t2;
    cz_g1_generator_jac(&g1);
    cz_g2_generator_jac(&g2);
    for (int i = 0; i < NPTS + 1; i++) {
        uint64_t k[4];
        for (int j = 0; j < 4; j++) k[j] = cz_rng_u64(&rng);
        k[3] >>= 2; /* below r */
        cz_g1_mul(&t1, &g1, k, 254);
        cz_g2_mul(&t2, &g2, k, 254);
        cz_g1_to_aff(&s.p[i], &t1);
        cz_g2_to_aff(&s.q[i], &t2);
    }

    /* one bilinearity check, so a broken build does not time nonsense:
     * e(3P, Q) == e(P, 3Q) */
    static const uint64_t three[1] = {3};
    cz_g1_jac p3;
    cz_g2_jac q3;
    cz_g1_aff p3a;
    cz_g2_aff q3a;
    cz_fp12 e1, e2;
    cz_g1_from_aff(&t1, &s.p[0]);
    cz_g2_from_aff(&t2, &s.q[0]);
    cz_g1_mul(&p3, &t1, three, 2);
    cz_g2_mul(&q3, &t2, three, 2);
    cz_g1_to_aff(&p3a, &p3);
    cz_g2_to_aff(&q3a, &q3);
    cz_pairing(&e1, &p3a, &s.q[0]);
    cz_pairing(&e2, &s.p[0], &q3a);
    if (!cz_gt_eq(&e1, &e2)) cz__bench_note(b, "WARNING: e(3P,Q) != e(P,3Q)");

    s.idx = 0;
    cz__bench_op(b, "pairing", "miller loop + final exp", pairing, &s);
    cz__bench_op(b, "multi_pairing_2", "2 pairs, one final exp", multi_pairing_2, &s);
    cz__bench_op(b, "miller_loop", "one pair", miller_loop, &s);
    cz__bench_op(b, "final_exp", "final exponentiation alone", final_exp, &s);
}

CZ_BENCH_GROUP(30, "pairing", bench_pairing)
