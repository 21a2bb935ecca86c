/* poseidon_circuit.h — the legacy Poseidon circuit (the one Filecoin's
 * parameters were generated with), on the circuit-building API of cs.h.
 *
 * It follows neptune's legacy circuit step for step, so the variables, the
 * constraints and every term's matrix and coefficient come out as the
 * reference's: the state starts as (tag, x_1, .., x_a) with the tag a
 * constant; the first S-box layer adds the first and second compressed
 * constants around x^5 (3 constraints per input, the tag's S-box folded into
 * a constant); every later S-box first allocates its input with
 * lc * ONE = v unless it is already a variable, then l^2, l^4 and
 * l^4 * l + k (4 constraints); the linear layers (M, the pre-sparse matrix,
 * the sparse matrices) only combine linear combinations; the digest is
 * state[1] allocated by one last lc * ONE = v. Constraints:
 * 3a + 4t(RF - 1) + 4RP + 1 = 311, 505, 598 for arities 2, 8, 11.
 *
 * In witness modes only the values are computed (the fast native
 * evaluation, writing the intermediate powers as it goes). */
#ifndef CZ_CIRCUITS_POSEIDON_CIRCUIT_H
#define CZ_CIRCUITS_POSEIDON_CIRCUIT_H

#include "circuits/cs.h"
#include "circuits/poseidon.h"

/* hash p->arity allocated numbers with domain tag `tag` (NULL: the Merkle-tree
 * tag); returns the allocated digest */
cz_num cz_poseidon_circuit(cz_cs *cs, const cz_poseidon *p, const cz_fr *tag, const cz_num *in);

/* constraints the circuit adds for an arity's parameters */
uint64_t cz_poseidon_circuit_constraints(const cz_poseidon *p);

#endif
