/* g2.c — G2: y^2 = x^3 + 4(u + 1) over Fp2 (the M-type sextic twist). The
 * group law and scalar multiplication come from group_tmpl.h; this file
 * supplies B and the standard generator (BLS12-381 specification), both in
 * Montgomery form. */
#include "ec/ec_internal.h"

static const cz_fp2 curve_b = {
    {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
      0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}},
    {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
      0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}}};

/* x = 0x024aa2b2...c121bdb8 + 0x13e02b60...5d042b7e u,
 * y = 0x0ce5d527...08b82801 + 0x0606c4a0...f05f79be u */
static const cz_g2_aff g2_gen = {
    {{{0xf5f28fa202940a10ULL, 0xb3f5fb2687b4961aULL, 0xa1a893b53e2ae580ULL,
       0x9894999d1a3caee9ULL, 0x6f67b7631863366bULL, 0x058191924350bcd7ULL}},
     {{0xa5a9c0759e23f606ULL, 0xaaa0c59dbccd60c3ULL, 0x3bb17e18e2867806ULL,
       0x1b1ab6cc8541b367ULL, 0xc2b6ed0ef2158547ULL, 0x11922a097360edf3ULL}}},
    {{{0x4c730af860494c4aULL, 0x597cfa1f5e369c5aULL, 0xe7e6856caa0a635aULL,
       0xbbefb5e96e0d495fULL, 0x07d3a975f0ef25a2ULL, 0x0083fd8e7e80dae5ULL}},
     {{0xadc0fc92df64b05dULL, 0x18aa270a2b1461dcULL, 0x86adac6a3be4eba0ULL,
       0x79495c4ec93da33aULL, 0xe7175850a43ccaedULL, 0x0b2bc2a163de1bf2ULL}}}};

void cz_g2_generator(cz_g2_aff *out) { *out = g2_gen; }

void cz_g2_generator_jac(cz_g2_jac *out) { cz_g2_from_aff(out, &g2_gen); }

static void fp2_half(cz_fp2 *out, const cz_fp2 *a)
{
    cz_fp_half(&out->c0, &a->c0);
    cz_fp_half(&out->c1, &a->c1);
}

#define FE_HALF fp2_half
#define G g2
#define FE cz_fp2
#define FEP cz_fp2
#include "ec/group_tmpl.h"
