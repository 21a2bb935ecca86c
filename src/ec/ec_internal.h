/* ec_internal.h — helpers shared between the files of src/ec (not public). */
#ifndef CZ_EC_INTERNAL_H
#define CZ_EC_INTERNAL_H

#include "ec/ec.h"

/* out = [|x|]P for the BLS parameter x = -0xd201000000010000 */
void cz__g1_mul_by_abs_x(cz_g1_jac *out, const cz_g1_jac *p);
void cz__g2_mul_by_abs_x(cz_g2_jac *out, const cz_g2_jac *p);
/* psi = untwist, Frobenius, twist, on Jacobian coordinates */
void cz__g2_psi(cz_g2_jac *out, const cz_g2_jac *p);

#endif
