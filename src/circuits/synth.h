/* synth.h — synthetic Filecoin-shaped constraint systems with a satisfying
 * witness, for tests and benchmarks until the real circuits exist.
 *
 * From (N, seed) cz_synth_generate builds a cz_r1cs with exactly N
 * constraints and a full assignment w (w[0] = 1, then the public inputs, then
 * the auxiliary variables) that satisfies it. The result is a pure function
 * of (N, seed, n_public, witness_seed): same arguments, same system and
 * witness, bit for bit.
 *
 * Other witnesses of one system: the structure depends only on (N, seed,
 * n_public), never on a variable's value, and the values all follow from the
 * fresh bits (the private input). witness_seed = 0 draws those bits from seed
 * (the witness of earlier versions); any other value flips each of them by a
 * bit drawn from witness_seed, so the same constraint system gets another
 * satisfying witness (used to prove many partitions of one circuit).
 *
 * Input constraints: a Groth16 prover (bellperson) appends one constraint
 * input_i * 0 = 0 per public input, ONE included. The synthetic system does
 * NOT contain them: its N constraints are the circuit's own, and the prover
 * appends the n_inputs input constraints itself (so a proving domain must
 * hold N + n_inputs rows).
 *
 * Shape (like SHA-256-heavy Filecoin circuits): most variables are bits,
 * made and combined by bellperson-style gadgets; per constraint (A, B, C)
 * non-zeros:
 *   bit       (1 - b) * b = 0                         (2, 1, 0)
 *   xor       (2a) * b = a + b - c                    (1, 1, 3)
 *   and       a * b = c                               (1, 1, 1)
 *   ch        (a - c) * b = h - c                     (2, 1, 2)
 *   pack      (sum 2^i b_i, 32 bits) * 1 = p          (32, 1, 1)
 *   add       (p + q) * 1 = sum 2^i r_i, 33 bits r_i  (2, 1, 33)  + 33 bit rows
 *   lin       (c1 x1 + c2 x2 + c3 x3) * y = z         (3, 1, 1)   field values
 *   linc      x * y = c1 z1 + c2 z2 + c3 z3           (1, 1, 3)   field values
 *   public    x * 1 = input_j                         (1, 1, 1)   last rows
 * mixed so that the averages come out near 2.4 / 1.0 / 2.2 (2.43 / 1.00 /
 * 2.19 from N = 2^16 up; small N a little lower in C), with close to nine in
 * ten auxiliary variables bits. The first rows allocate fresh random bits
 * (private input) so that the bit values are not degenerate. c1..c3 come from a small seeded table of
 * random constants, so every coefficient index fits one byte. Every variable
 * occurs in at least one constraint (each public input in its own row).
 *
 * Memory: the CSR arrays and the witness, each allocated once at its exact
 * size (a first pass only counts); nothing per constraint is allocated. At
 * N = 2^27 that is about 3.2 GB of row offsets, 3.7 GB of columns and
 * coefficient indices, and 4.3 GB of witness. */
#ifndef CZ_CIRCUITS_SYNTH_H
#define CZ_CIRCUITS_SYNTH_H

#include <stddef.h>
#include <stdint.h>
#include "r1cs/r1cs.h"
#include "util/progress.h"

#define CZ_SYNTH_MIN_CONSTRAINTS 16ull
#define CZ_SYNTH_MAX_CONSTRAINTS (1ull << 30)
#define CZ_SYNTH_DEFAULT_PUBLIC 3
#define CZ_SYNTH_MAX_PUBLIC 8

typedef struct {
    uint64_t n_constraints; /* N, CZ_SYNTH_MIN_CONSTRAINTS..CZ_SYNTH_MAX_CONSTRAINTS */
    uint64_t seed;
    unsigned n_public;      /* public inputs besides ONE, 0..CZ_SYNTH_MAX_PUBLIC */
    uint64_t witness_seed;  /* 0: the witness of seed; else another witness of the same system */
    /* called every 2^20 rows of each pass and once at the end of the last:
     * cz_synth_generate makes two passes (stage "count", then "build"); the
     * witness-only functions (cz_synth_witness, cz_synth_witness_compact,
     * cz_synth_bit_mask) make one, "build", and call it at its end only
     * when it succeeded. A caller may wait in it (the engine's synthesis
     * throttle does). May be NULL. */
    cz_progress_fn progress;
    void *progress_ctx;
} cz_synth_params;

/* defaults: N = 2^16, seed 1, CZ_SYNTH_DEFAULT_PUBLIC inputs, witness_seed 0,
 * no progress */
void cz_synth_params_init(cz_synth_params *p);

/* builds the system into *r (release with cz_r1cs_free) and the witness into
 * *w (n_vars elements, Montgomery form; release with free). On failure both
 * are left empty and msg says why. */
cz_err cz_synth_generate(cz_r1cs *r, cz_fr **w, const cz_synth_params *p, char *msg, size_t msglen);

/* writes the witness of p into w (n_vars values: the count of the system
 * cz_synth_generate makes from the same N, seed and n_public) without
 * building the system: one pass, no allocation. With another witness_seed
 * this is another witness of that same system. CZ_ERR_INVALID_ARG when p's
 * system has another variable count (w is then not a witness). */
cz_err cz_synth_witness(cz_fr *w, uint64_t n_vars, const cz_synth_params *p, char *msg, size_t msglen);

/* n Fr for a witness (full or compact) that free() releases; 2 MiB aligned
 * and marked for transparent huge pages when large (fewer page faults while
 * it is written), as cz_synth_generate's arrays are. NULL when out of memory
 * or for n = 0. */
cz_fr *cz_synth_witness_alloc(uint64_t n);

/* Bits as bits (the compact witness of src/backend/wbits.h). A variable
 * the generator makes as a bit (fresh bits, xor / and / ch outputs, the 33
 * bits of an add) is constrained boolean and is a bit in every witness of
 * the system, whatever witness_seed: the structure never depends on a
 * value. Public inputs and every other variable are field values.
 *
 * cz_synth_bit_mask writes that bit map over the n_vars variables of p's
 * system into mask ((n_vars + 63) / 64 words; bit i of mask[i / 64] set
 * when variable i is a bit). CZ_ERR_INVALID_ARG when the system has
 * another variable count.
 *
 * cz_synth_witness_compact writes p's witness in compact form without the
 * full one: fields (n_fields Fr: ONE, the inputs, then the other non-bit
 * variables in order) and bits (n_bits bits: the bit variables' values in
 * order, bit k = (bits[k / 64] >> k % 64) & 1; the words written are
 * cleared first, bits past n_bits in the last word are 0). n_fields and
 * n_bits must be the counts of the bit map (else CZ_ERR_INVALID_ARG). */
cz_err cz_synth_bit_mask(uint64_t *mask, uint64_t n_vars, const cz_synth_params *p, char *msg, size_t msglen);
cz_err cz_synth_witness_compact(cz_fr *fields, uint64_t n_fields, uint64_t *bits, uint64_t n_bits,
                                const cz_synth_params *p, char *msg, size_t msglen);

#endif
