/* g1.c — G1: y^2 = x^3 + 4 over Fp. The group law and scalar multiplication
 * come from group_tmpl.h; this file supplies B and the generator (the
 * standard one from the BLS12-381 specification, stored in Montgomery form). */
#include "ec/ec_internal.h"

static const cz_fp curve_b = {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                               0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}};

/* x = 0x17f1d3a7...db22c6bb, y = 0x08b3f481...46c5e7e1 */
static const cz_g1_aff g1_gen = {
    {{0x5cb38790fd530c16ULL, 0x7817fc679976fff5ULL, 0x154f95c7143ba1c1ULL,
      0xf0ae6acdf3d0e747ULL, 0xedce6ecc21dbf440ULL, 0x120177419e0bfb75ULL}},
    {{0xbaac93d50ce72271ULL, 0x8c22631a7918fd8eULL, 0xdd595f13570725ceULL,
      0x51ac582950405194ULL, 0x0e1c8c3fad0059c0ULL, 0x0bbc3efc5008a26aULL}}};

void cz_g1_generator(cz_g1_aff *out) { *out = g1_gen; }

void cz_g1_generator_jac(cz_g1_jac *out) { cz_g1_from_aff(out, &g1_gen); }

#define G g1
#define FE cz_fp
#define FEP cz_fp
#include "ec/group_tmpl.h"
