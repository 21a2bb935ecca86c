/* cuzk_demo.c — `cuzk demo`, the built-in default job that `make run` runs.
 *
 * Until the prover lands it exercises the arithmetic end to end and prints
 * what each stage cost: random Fr scalars a, b; A = [a]G1, B = [b]G2 (windowed
 * scalar multiplication); encode and decode both (ZCash format, with subgroup
 * checks); then the pairing equation e(A, B) = e([ab]G1, G2) as a
 * multi-pairing check, and a tampered version that must fail. Exit 0 when every
 * step gave the expected answer, 1 otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cmd/cuzk_cmds.h"
#include "util/clock.h"
#include "ec/ec.h"
#include "pairing/pairing.h"
#include "util/cpu.h"

static void fr_limbs(uint64_t out[4], const cz_fr *a)
{
    cz_fr plain;
    cz_fr_from_mont(&plain, a);
    for (int i = 0; i < 4; i++) out[i] = plain.l[i];
}

int cz_cmd_demo(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 0;
    cz_rng rng;
    if (seed) cz_rng_seed(&rng, seed);
    else if (cz_rng_seed_os(&rng)) { fprintf(stderr, "demo: no OS randomness\n"); return 2; }

    printf("cuzk demo: BLS12-381 arithmetic end to end (field path: %s)\n",
           cz_cpu_has_adx() ? "MULX/ADX" : "portable");
    int ok = 1;
    double t0 = cz_now_ms();
    cz_fr a, b, ab;
    cz_fr_random(&a, &rng);
    cz_fr_random(&b, &rng);
    cz_fr_mul(&ab, &a, &b);
    uint64_t ka[4], kb[4], kab[4];
    fr_limbs(ka, &a);
    fr_limbs(kb, &b);
    fr_limbs(kab, &ab);

    cz_g1_jac g1, A, C;
    cz_g2_jac g2, B;
    cz_g1_generator_jac(&g1);
    cz_g2_generator_jac(&g2);
    cz_g1_mul(&A, &g1, ka, 255);
    cz_g2_mul(&B, &g2, kb, 255);
    cz_g1_mul_ct(&C, &g1, kab, 255);
    double t1 = cz_now_ms();
    printf("  scalar mul      [a]G1, [b]G2, [ab]G1 (ct)   %8.2f ms\n", t1 - t0);

    cz_g1_aff Aa, Ca, Ad, g1a;
    cz_g2_aff Ba, Bd, g2a;
    cz_g1_to_aff(&Aa, &A);
    cz_g1_to_aff(&Ca, &C);
    cz_g2_to_aff(&Ba, &B);
    cz_g1_generator(&g1a);
    cz_g2_generator(&g2a);
    uint8_t ea[CZ_G1_COMPRESSED], eb[CZ_G2_COMPRESSED];
    cz_g1_compress(ea, &Aa);
    cz_g2_compress(eb, &Ba);
    cz_err e1 = cz_g1_decode(&Ad, ea, sizeof ea, 1);
    cz_err e2 = cz_g2_decode(&Bd, eb, sizeof eb, 1);
    double t2 = cz_now_ms();
    int dec_ok = !e1 && !e2 && cz_g1_aff_eq(&Ad, &Aa) && cz_g2_aff_eq(&Bd, &Ba);
    ok &= dec_ok;
    printf("  encode/decode   48 B + 96 B, subgroup checked %8.2f ms  %s\n", t2 - t1,
           dec_ok ? "ok" : "MISMATCH");

    /* e(A, B) * e(-[ab]G1, G2) == 1 */
    cz_g1_aff ps[2];
    cz_g2_aff qs[2];
    ps[0] = Ad;
    qs[0] = Bd;
    cz_g1_aff_neg(&ps[1], &Ca);
    qs[1] = g2a;
    int good = cz_pairing_check(ps, qs, 2);
    double t3 = cz_now_ms();
    printf("  pairing check   e(aG1,bG2) = e(abG1,G2)       %8.2f ms  %s\n", t3 - t2,
           good ? "holds" : "FAILS");
    ok &= good;

    ps[1] = g1a; /* tampered: e(A,B) * e(G1,G2) */
    int bad = cz_pairing_check(ps, qs, 2);
    double t4 = cz_now_ms();
    printf("  tampered check  must fail                     %8.2f ms  %s\n", t4 - t3,
           bad ? "WRONGLY HOLDS" : "rejected");
    ok &= !bad;
    printf("cuzk demo: %s (%.2f ms total)\n", ok ? "all checks passed" : "FAILED", t4 - t0);
    return ok ? 0 : 1;
}
