/* wbits.c — the compact witness on the host (wbits.h): the map's prefix
 * counts, packing a full witness (checking that every marked variable is a
 * bit) and unpacking one, the reference the device expansion
 * (src/cuda/witness_bits.cu) is tested against. Both walk the variables in
 * order with two cursors (next field, next bit), one pass, no allocation. */
#include "backend/wbits.h"

#include <stdlib.h>
#include <string.h>

static cz_err map_alloc(cz_wbits_map *m, uint64_t n_vars, uint64_t n_inputs, char *msg, size_t msglen)
{
    memset(m, 0, sizeof *m);
    m->n_vars = n_vars;
    m->n_inputs = n_inputs;
    m->words = (n_vars + 63) / 64;
    m->mask = calloc(m->words ? m->words : 1, sizeof *m->mask);
    m->rank = calloc(m->words + 1, sizeof *m->rank);
    if (!m->mask || !m->rank) {
        cz_wbits_map_free(m);
        return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory for the bit map of %llu variables",
                       (unsigned long long)n_vars);
    }
    return CZ_OK;
}

/* clears bits past n_vars, refuses marked inputs, fills rank */
static cz_err map_finish(cz_wbits_map *m, char *msg, size_t msglen)
{
    if (m->n_vars % 64) m->mask[m->words - 1] &= ((uint64_t)1 << (m->n_vars % 64)) - 1;
    if (m->n_inputs > m->n_vars) {
        cz_wbits_map_free(m);
        return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "bit map: %llu inputs of %llu variables",
                       (unsigned long long)m->n_inputs, (unsigned long long)m->n_vars);
    }
    for (uint64_t i = 0; i < m->n_inputs; i++)
        if (cz_wbits_is_bit(m, i)) {
            cz_wbits_map_free(m);
            return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "bit map: input %llu is marked as a bit (inputs are sent as Fr)",
                           (unsigned long long)i);
        }
    uint64_t r = 0;
    for (uint64_t j = 0; j < m->words; j++) {
        m->rank[j] = r;
        r += (uint64_t)__builtin_popcountll(m->mask[j]);
    }
    m->rank[m->words] = r;
    m->n_bits = r;
    m->n_fields = m->n_vars - r;
    return CZ_OK;
}

cz_err cz_wbits_map_init(cz_wbits_map *m, const uint64_t *mask, uint64_t n_vars, uint64_t n_inputs, char *msg,
                         size_t msglen)
{
    cz_err e = map_alloc(m, n_vars, n_inputs, msg, msglen);
    if (e) return e;
    if (m->words) memcpy(m->mask, mask, m->words * sizeof *m->mask);
    return map_finish(m, msg, msglen);
}

cz_err cz_wbits_map_from_aux(cz_wbits_map *m, const uint64_t *aux_mask, uint64_t n_inputs, uint64_t n_aux,
                             char *msg, size_t msglen)
{
    cz_err e = map_alloc(m, n_inputs + n_aux, n_inputs, msg, msglen);
    if (e) return e;
    for (uint64_t j = 0; j < n_aux; j++)
        if ((aux_mask[j >> 6] >> (j & 63)) & 1) {
            uint64_t i = n_inputs + j;
            m->mask[i >> 6] |= (uint64_t)1 << (i & 63);
        }
    return map_finish(m, msg, msglen);
}

void cz_wbits_map_free(cz_wbits_map *m)
{
    if (!m) return;
    free(m->mask);
    free(m->rank);
    memset(m, 0, sizeof *m);
}

cz_err cz_wbits_pack(cz_fr *c, const cz_wbits_map *m, const cz_fr *w, char *msg, size_t msglen)
{
    cz_fr *f = c;
    uint64_t *bits = cz_wbits_bits(m, c);
    uint64_t nbw = (cz_wbits_len(m) - m->n_fields) * 4; /* bit words with the padding */
    memset(bits, 0, nbw * sizeof *bits);
    uint64_t k = 0;
    for (uint64_t i = 0; i < m->n_vars; i++) {
        if (!cz_wbits_is_bit(m, i)) {
            *f++ = w[i];
            continue;
        }
        if (cz_fr_is_one(&w[i])) bits[k >> 6] |= (uint64_t)1 << (k & 63);
        else if (!cz_fr_is_zero(&w[i]))
            return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                           "compact witness: variable %llu is marked as a bit but is neither 0 nor 1",
                           (unsigned long long)i);
        k++;
    }
    return CZ_OK;
}

void cz_wbits_unpack(cz_fr *w, const cz_wbits_map *m, const cz_fr *c)
{
    const cz_fr *f = c;
    const uint64_t *bits = cz_wbits_bits_c(m, c);
    uint64_t k = 0;
    for (uint64_t i = 0; i < m->n_vars; i++) {
        if (!cz_wbits_is_bit(m, i)) {
            w[i] = *f++;
            continue;
        }
        if ((bits[k >> 6] >> (k & 63)) & 1) w[i] = cz_fr_one_mont;
        else cz_fr_zero(&w[i]);
        k++;
    }
}
