/* post_sector.h — the per-sector piece of Filecoin's fallback PoSt circuit
 * (storage-proofs-post fallback/circuit.rs, Sector::synthesize), on the
 * shared gadgets: the comm_r check and one PoR inclusion per challenge.
 *
 * Order of variables, constraints and inputs, as the reference's:
 *   comm_r_last, comm_c, comm_r allocated (aux, in that order);
 *   comm_r inputized (input * ONE = comm_r);
 *   h = legacy Poseidon-2 (Merkle tag) of (comm_c, comm_r_last), 311;
 *   comm_r * ONE = h;
 * that is the comm_r check, 313 constraints and one input. Then, per
 * challenge, por.rs with the leaf allocated there (Root::Val), comm_r_last
 * as the root (Root::Var) and a private root: 5,302 constraints and one
 * input (the leaf index) in the 32 GiB shape (8-8-0).
 *
 * A WindowPoSt partition of 32 GiB sectors is 2,349 such sectors of 10
 * challenges (53,333 each); a WinningPoSt circuit 66 sectors of one
 * challenge (filecoin-proofs' winning_post_setup_params turns 66 challenges
 * of one sector into 66 circuit sectors of one challenge): 370,590. The
 * public inputs are ONE, then per sector comm_r and the challenges' leaf
 * indices (cz_post_sector_inputs). */
#ifndef CZ_CIRCUITS_POST_SECTOR_H
#define CZ_CIRCUITS_POST_SECTOR_H

#include "circuits/merkle.h"

/* comm_r = Poseidon-2(comm_c, comm_r_last) natively (Merkle tag) */
void cz_comm_r(cz_fr *out, const cz_fr *comm_c, const cz_fr *comm_r_last);

/* the comm_r check in-circuit (313 constraints, one input); returns the
 * allocated comm_r_last for the inclusions */
cz_num cz_comm_r_check_circuit(cz_cs *cs, const cz_fr *comm_c, const cz_fr *comm_r_last, const cz_fr *comm_r);

/* one sector: the comm_r check, then n challenges; challenge k is the leaf
 * leaves[k] at index indices[k] with path paths[k * cz_tree_path_len(t) ..]
 * in the tree of root comm_r_last */
void cz_post_sector_circuit(cz_cs *cs, const cz_tree_shape *t, const cz_fr *comm_c, const cz_fr *comm_r_last,
                            const cz_fr *comm_r, uint32_t n, const cz_fr *leaves, const uint64_t *indices,
                            const cz_fr *paths);

/* the sector's public inputs, 1 + n Fr: comm_r, then each leaf index */
void cz_post_sector_inputs(cz_fr *out, const cz_fr *comm_r, uint32_t n, const uint64_t *indices);

#endif
