/* post_sector.c — one sector of the fallback PoSt circuit (see
 * post_sector.h): the comm_r check over the legacy Poseidon-2 circuit and
 * the PoR inclusions of merkle.c, in the reference's order. */
#include "circuits/post_sector.h"

#include "circuits/poseidon_circuit.h"

void cz_comm_r(cz_fr *out, const cz_fr *comm_c, const cz_fr *comm_r_last)
{
    cz_fr in[2] = {*comm_c, *comm_r_last};
    cz_poseidon_hash(out, cz_poseidon_get(2), in);
}

cz_num cz_comm_r_check_circuit(cz_cs *cs, const cz_fr *comm_c, const cz_fr *comm_r_last, const cz_fr *comm_r)
{
    cz_num rl = cz_num_alloc(cs, comm_r_last);
    cz_num c = cz_num_alloc(cs, comm_c);
    cz_num r = cz_num_alloc(cs, comm_r);
    (void)cz_num_inputize(cs, &r);
    const cz_poseidon *p = cz_poseidon_get(2);
    if (!p) {
        if (cs->err == CZ_OK) cs->err = CZ_ERR_NOMEM;
        return rl;
    }
    cz_num pre[2] = {c, rl};
    cz_num h = cz_poseidon_circuit(cs, p, NULL, pre);
    if (cz_cs_rec(cs)) { /* constraint::equal(comm_r, h): comm_r * ONE = h */
        cz_lc *A = cz_cs_lc(cs, 0), *B = cz_cs_lc(cs, 1), *C = cz_cs_lc(cs, 2);
        cz_lc_add(cs, A, r.var, NULL);
        cz_lc_add(cs, B, CZ_ONE, NULL);
        cz_lc_add(cs, C, h.var, NULL);
        cz_cs_enforce(cs, A, B, C);
    }
    return rl;
}

void cz_post_sector_circuit(cz_cs *cs, const cz_tree_shape *t, const cz_fr *comm_c, const cz_fr *comm_r_last,
                            const cz_fr *comm_r, uint32_t n, const cz_fr *leaves, const uint64_t *indices,
                            const cz_fr *paths)
{
    if (cz_tree_shape_check(t) != CZ_OK) {
        if (cs->err == CZ_OK) cs->err = CZ_ERR_INVALID_ARG;
        return;
    }
    cz_num rl = cz_comm_r_check_circuit(cs, comm_c, comm_r_last, comm_r);
    uint32_t plen = cz_tree_path_len(t);
    for (uint32_t k = 0; k < n; k++)
        cz_por_circuit_root(cs, t, &leaves[k], indices[k], paths + (uint64_t)k * plen, &rl, 1);
}

void cz_post_sector_inputs(cz_fr *out, const cz_fr *comm_r, uint32_t n, const uint64_t *indices)
{
    out[0] = *comm_r;
    for (uint32_t k = 0; k < n; k++) cz_fr_from_u64(&out[1 + k], indices[k]);
}
