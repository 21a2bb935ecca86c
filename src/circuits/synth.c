/* synth.c — the synthetic circuit generator (shape and contract in synth.h).
 *
 * Generation runs the same gadget sequence twice. The first pass only counts
 * (rows, variables, non-zeros per matrix); then the CSR arrays of the result
 * and the witness are allocated once, at their exact sizes, and the second
 * pass writes terms and values straight into them (no builder, no hashing:
 * every coefficient is known in advance, so its index is a constant). Both
 * passes draw from the same seeded generators: `sched` shuffles a deck of
 * 256 gadget kinds (each kind as many times as its weight, so every 256
 * draws hold the exact mix and even small circuits keep the shape), `ops`
 * picks operands and random values, `wit` (witness_seed) flips the fresh
 * bits' values; so the passes walk identical sequences. cz_synth_witness
 * walks it a third time writing values only (no matrices), for another
 * witness of a system already made; cz_synth_bit_mask walks it marking
 * the variables made as bits, and cz_synth_witness_compact walks it
 * writing the compact witness (bits one bit each, the other values as Fr;
 * both are made in variable order, which the walk checks).
 *
 * Operands come from three rings of recently made variables (bits, 32-bit
 * packed words, field values), each slot holding a distinct variable and its
 * value. A kind whose operands are not yet available (early rows) or that
 * does not fit the rows left falls back to a simpler one. The last n_public
 * rows bind the public inputs to existing variables. */
#include "circuits/synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { K_BIT, K_XOR, K_AND, K_CH, K_PACK, K_ADD, K_LIN, K_LINC, K__N };

/* selection weights out of 256; tuned for A/B/C near 2.4/1.0/2.2 */
static const uint8_t WEIGHT[K__N] = {
    [K_BIT] = 6, [K_XOR] = 181, [K_AND] = 4, [K_CH] = 20,
    [K_PACK] = 12, [K_ADD] = 3, [K_LIN] = 4, [K_LINC] = 26,
};

#define BIT_RING 4096u
#define U32_RING 64u
#define FLD_RING 256u
#define N_CONST 64u   /* random constants for lin / linc */
#define PACK_BITS 32
#define ADD_ROWS 34   /* the sum row + 33 bit rows */
#define PROGRESS_ROWS (1u << 20)

/* coefficient tables: index 0 = +1, 1 = -1, then 2^1..2^POW_MAX, then the
 * N_CONST random constants */
#define POW_IDX(k) ((k) == 0 ? 0u : 1u + (k))
#define A_POW_MAX (PACK_BITS - 1)
#define C_POW_MAX 32
#define A_CONST_IDX(k) (2u + A_POW_MAX + (k))
#define C_CONST_IDX(k) (2u + C_POW_MAX + (k))
_Static_assert(2 + C_POW_MAX + N_CONST <= 256 && 2 + A_POW_MAX + N_CONST <= 256, "indices must fit one byte");

typedef struct {
    int emit;                 /* 0: count only (progress stage "count", else "build") */
    cz_csr *m;                /* the three matrices being filled, or NULL */
    cz_fr *w;                 /* the witness being filled (w_n values), or NULL */
    uint64_t w_n;
    /* the compact witness being filled (cz_synth_witness_compact): fields
     * (f_n: inputs at their index, aux fields from f_at on) and bits (b_n),
     * each in variable order; last_var checks that order */
    cz_fr *f;
    uint64_t f_n, f_at;
    uint64_t *b;
    uint64_t b_n, b_at;
    uint64_t last_var;
    int order_err;
    uint64_t *mask;           /* the bit map being filled (cz_synth_bit_mask), or NULL */
    cz_rng sched, ops, wit;   /* wit: the fresh bits' flips (witness_seed != 0) */
    uint8_t table[256];       /* the deck of kinds, WEIGHT[k] cards of kind k */
    uint32_t deck_at;
    uint64_t next_var, rows, nnz[3];
    uint64_t total_rows, warmup_bits;
    const cz_synth_params *p;
    cz_fr one, zero;
    cz_fr konst[N_CONST], konst_inv[N_CONST];
    /* rings: n_* counts pushes; slot = count % size */
    uint64_t n_bit, n_u32, n_fld;
    uint32_t bit_var[BIT_RING];
    uint8_t bit_val[BIT_RING];
    uint32_t u32_var[U32_RING], u32_val[U32_RING];
    uint32_t fld_var[FLD_RING];
    cz_fr fld_val[FLD_RING];
} gen;

/* ---- emitting (counting in the first pass) ---- */
static inline void term(gen *g, int which, uint64_t var, uint32_t idx)
{
    uint64_t k = g->nnz[which]++;
    if (g->m) {
        g->m[which].col[k] = (uint32_t)var;
        ((uint8_t *)g->m[which].cidx)[k] = (uint8_t)idx;
    }
}

static inline void end_row(gen *g)
{
    g->rows++;
    if (g->m)
        for (int k = 0; k < 3; k++) g->m[k].row_ptr[g->rows] = g->nnz[k];
    if (g->p->progress && g->rows % PROGRESS_ROWS == 0)
        g->p->progress(g->p->progress_ctx, g->emit ? "build" : "count", g->rows, g->total_rows);
}

static inline uint64_t new_var(gen *g) { return g->next_var++; }

static inline void set_w(gen *g, uint64_t var, const cz_fr *v)
{
    if (g->w && var < g->w_n) g->w[var] = *v;
}

/* compact: the next aux variable in order is var */
static inline void compact_next(gen *g, uint64_t var)
{
    if (var <= g->last_var) g->order_err = 1;
    g->last_var = var;
}

static inline void set_bit(gen *g, uint64_t var, int val)
{
    if (g->w) set_w(g, var, val ? &g->one : &g->zero);
    if (g->mask && var < g->w_n) g->mask[var >> 6] |= (uint64_t)1 << (var & 63);
    if (g->b) {
        compact_next(g, var);
        uint64_t k = g->b_at++;
        if (k < g->b_n) {
            uint64_t m = (uint64_t)(val != 0) << (k & 63);
            if (k & 63) g->b[k >> 6] |= m;
            else g->b[k >> 6] = m;
        }
    }
}

static inline void set_field(gen *g, uint64_t var, const cz_fr *v)
{
    set_w(g, var, v);
    if (g->f) {
        compact_next(g, var);
        uint64_t k = g->f_at++;
        if (k < g->f_n) g->f[k] = *v;
    }
}

static inline void set_input(gen *g, uint64_t input, const cz_fr *v)
{
    set_w(g, input, v);
    if (g->f && input < g->f_n) g->f[input] = *v;
}

static inline uint64_t ring_count(uint64_t pushed, uint32_t size) { return pushed < size ? pushed : size; }

static inline void push_bit(gen *g, uint64_t var, int val)
{
    uint32_t s = (uint32_t)(g->n_bit++ % BIT_RING);
    g->bit_var[s] = (uint32_t)var;
    g->bit_val[s] = (uint8_t)val;
    set_bit(g, var, val);
}

static inline void push_fld(gen *g, uint64_t var, const cz_fr *v)
{
    uint32_t s = (uint32_t)(g->n_fld++ % FLD_RING);
    g->fld_var[s] = (uint32_t)var;
    g->fld_val[s] = *v;
    set_field(g, var, v);
}

static inline void push_u32(gen *g, uint64_t var, uint32_t val)
{
    uint32_t s = (uint32_t)(g->n_u32++ % U32_RING);
    g->u32_var[s] = (uint32_t)var;
    g->u32_val[s] = val;
    cz_fr v;
    cz_fr_from_u64(&v, val);
    push_fld(g, var, &v); /* a packed word is also a field value */
}

/* k distinct slots of a ring holding cnt entries: a random run start..start+k-1 */
static inline uint32_t run_start(gen *g, uint64_t cnt, uint32_t k)
{
    return (uint32_t)(cz_rng_u64(&g->ops) % (cnt - k + 1));
}

/* ---- gadgets ---- */
static void g_bit(gen *g, uint64_t var, int val)
{
    term(g, CZ_A, 0, 0);   /* 1 */
    term(g, CZ_A, var, 1); /* - b */
    term(g, CZ_B, var, 0); /* * b = 0 */
    end_row(g);
    push_bit(g, var, val);
}

/* a fresh bit: drawn from ops either way, so the structure never depends on
 * witness_seed; flipped by a draw from wit when one is given */
static void g_bit_fresh(gen *g)
{
    int v = (int)(cz_rng_u64(&g->ops) >> 63);
    if (g->p->witness_seed) v ^= (int)(cz_rng_u64(&g->wit) >> 63);
    g_bit(g, new_var(g), v);
}

static void g_binop(gen *g, int kind)
{
    uint64_t cnt = ring_count(g->n_bit, BIT_RING);
    uint32_t i = run_start(g, cnt, 3);
    uint32_t va = g->bit_var[i], vb = g->bit_var[i + 1], vc = g->bit_var[i + 2];
    int a = g->bit_val[i], b = g->bit_val[i + 1], c = g->bit_val[i + 2];
    uint64_t out = new_var(g);
    int r;
    if (kind == K_XOR) { /* (2a) * b = a + b - out */
        term(g, CZ_A, va, POW_IDX(1));
        term(g, CZ_B, vb, 0);
        term(g, CZ_C, va, 0);
        term(g, CZ_C, vb, 0);
        term(g, CZ_C, out, 1);
        r = a ^ b;
    } else if (kind == K_AND) { /* a * b = out */
        term(g, CZ_A, va, 0);
        term(g, CZ_B, vb, 0);
        term(g, CZ_C, out, 0);
        r = a & b;
    } else { /* ch: (a - c) * b = out - c, out = b ? a : c */
        term(g, CZ_A, va, 0);
        term(g, CZ_A, vc, 1);
        term(g, CZ_B, vb, 0);
        term(g, CZ_C, out, 0);
        term(g, CZ_C, vc, 1);
        r = b ? a : c;
    }
    end_row(g);
    push_bit(g, out, r);
}

static void g_pack(gen *g)
{
    uint32_t s = run_start(g, ring_count(g->n_bit, BIT_RING), PACK_BITS);
    uint32_t v = 0;
    for (uint32_t k = 0; k < PACK_BITS; k++) {
        term(g, CZ_A, g->bit_var[s + k], POW_IDX(k));
        v |= (uint32_t)g->bit_val[s + k] << k;
    }
    uint64_t out = new_var(g);
    term(g, CZ_B, 0, 0);
    term(g, CZ_C, out, 0);
    end_row(g);
    push_u32(g, out, v);
}

static void g_add(gen *g)
{
    uint64_t cnt = ring_count(g->n_u32, U32_RING);
    uint32_t i = run_start(g, cnt, 2);
    uint32_t vp = g->u32_var[i], vq = g->u32_var[i + 1];
    uint64_t sum = (uint64_t)g->u32_val[i] + g->u32_val[i + 1];
    uint64_t first = g->next_var;
    g->next_var += 33;
    term(g, CZ_A, vp, 0);
    term(g, CZ_A, vq, 0);
    term(g, CZ_B, 0, 0);
    for (uint32_t k = 0; k < 33; k++) term(g, CZ_C, first + k, POW_IDX(k));
    end_row(g);
    for (uint32_t k = 0; k < 33; k++) g_bit(g, first + k, (int)((sum >> k) & 1));
}

static void g_lin(gen *g, int c_heavy)
{
    uint64_t cnt = ring_count(g->n_fld, FLD_RING);
    uint64_t r = cz_rng_u64(&g->ops);
    uint32_t s = run_start(g, cnt, 3);
    uint32_t y = (uint32_t)(r % cnt), x = (uint32_t)((r >> 20) % cnt);
    uint32_t k0 = (uint32_t)(r >> 40) % N_CONST, k1 = (uint32_t)(r >> 48) % N_CONST, k2 = (uint32_t)(r >> 56) % N_CONST;
    uint64_t out = new_var(g);
    cz_fr v, t;
    if (!c_heavy) { /* (c0 x0 + c1 x1 + c2 x2) * y = out */
        term(g, CZ_A, g->fld_var[s], A_CONST_IDX(k0));
        term(g, CZ_A, g->fld_var[s + 1], A_CONST_IDX(k1));
        term(g, CZ_A, g->fld_var[s + 2], A_CONST_IDX(k2));
        term(g, CZ_B, g->fld_var[y], 0);
        term(g, CZ_C, out, 0);
        cz_fr_mul(&v, &g->konst[k0], &g->fld_val[s]);
        cz_fr_mul(&t, &g->konst[k1], &g->fld_val[s + 1]);
        cz_fr_add(&v, &v, &t);
        cz_fr_mul(&t, &g->konst[k2], &g->fld_val[s + 2]);
        cz_fr_add(&v, &v, &t);
        cz_fr_mul(&v, &v, &g->fld_val[y]);
    } else { /* x * y = c0 z0 + c1 z1 + c2 out */
        term(g, CZ_A, g->fld_var[x], 0);
        term(g, CZ_B, g->fld_var[y], 0);
        term(g, CZ_C, g->fld_var[s], C_CONST_IDX(k0));
        term(g, CZ_C, g->fld_var[s + 1], C_CONST_IDX(k1));
        term(g, CZ_C, out, C_CONST_IDX(k2));
        cz_fr_mul(&v, &g->fld_val[x], &g->fld_val[y]);
        cz_fr_mul(&t, &g->konst[k0], &g->fld_val[s]);
        cz_fr_sub(&v, &v, &t);
        cz_fr_mul(&t, &g->konst[k1], &g->fld_val[s + 1]);
        cz_fr_sub(&v, &v, &t);
        cz_fr_mul(&v, &v, &g->konst_inv[k2]);
    }
    end_row(g);
    push_fld(g, out, &v);
}

/* x * 1 = input_j, x an existing variable */
static void g_public(gen *g, uint64_t input)
{
    uint64_t r = cz_rng_u64(&g->ops);
    uint64_t nf = ring_count(g->n_fld, FLD_RING), nb = ring_count(g->n_bit, BIT_RING);
    uint32_t var;
    cz_fr v;
    if (nf) {
        uint32_t s = (uint32_t)(r % nf);
        var = g->fld_var[s];
        v = g->fld_val[s];
    } else {
        uint32_t s = (uint32_t)(r % nb); /* at least one bit exists: row 0 is always a bit */
        var = g->bit_var[s];
        v = g->bit_val[s] ? g->one : g->zero;
    }
    term(g, CZ_A, var, 0);
    term(g, CZ_B, 0, 0);
    term(g, CZ_C, input, 0);
    end_row(g);
    set_input(g, input, &v);
}

/* the kind to run now: the drawn one, or a fallback when it cannot run */
static int pick(gen *g, uint64_t rows_left)
{
    if (g->deck_at == 256) { /* reshuffle the deck: exact mix per 256 draws */
        for (uint32_t i = 255; i > 0; i--) {
            uint32_t j = (uint32_t)(cz_rng_u64(&g->sched) % (i + 1));
            uint8_t t = g->table[i];
            g->table[i] = g->table[j];
            g->table[j] = t;
        }
        g->deck_at = 0;
    }
    int k = g->table[g->deck_at++];
    uint64_t nb = ring_count(g->n_bit, BIT_RING);
    if (g->n_bit < g->warmup_bits) return K_BIT; /* private input bits first */
    if (k == K_ADD && (g->n_u32 < 2 || rows_left < ADD_ROWS)) k = K_XOR;
    if ((k == K_LIN || k == K_LINC) && g->n_fld < 3) k = K_XOR;
    if (k == K_PACK && nb < PACK_BITS) k = K_BIT;
    if ((k == K_XOR || k == K_AND || k == K_CH) && nb < 3) k = K_BIT;
    return k;
}

static void run(gen *g)
{
    const cz_synth_params *p = g->p;
    uint64_t body = p->n_constraints - p->n_public;
    cz_rng_seed(&g->sched, p->seed ^ 0x5ced0000000000a1ull);
    cz_rng_seed(&g->ops, p->seed ^ 0x0b5000000000000full);
    cz_rng_seed(&g->wit, p->witness_seed ^ 0x3715000000000077ull);
    g->n_bit = g->n_u32 = g->n_fld = 0;
    for (int k = 0, at = 0; k < K__N; k++)
        for (int j = 0; j < WEIGHT[k]; j++) g->table[at++] = (uint8_t)k;
    g->deck_at = 256;
    g->warmup_bits = body / 32 < BIT_RING / 32 ? body / 32 : BIT_RING / 32;
    if (g->warmup_bits < 8) g->warmup_bits = body / 2 < 8 ? body / 2 : 8;
    g->rows = 0;
    g->next_var = 1 + p->n_public;
    memset(g->nnz, 0, sizeof g->nnz);
    while (g->rows < body) {
        switch (pick(g, body - g->rows)) {
        case K_BIT: g_bit_fresh(g); break;
        case K_XOR: g_binop(g, K_XOR); break;
        case K_AND: g_binop(g, K_AND); break;
        case K_CH: g_binop(g, K_CH); break;
        case K_PACK: g_pack(g); break;
        case K_ADD: g_add(g); break;
        case K_LIN: g_lin(g, 0); break;
        default: g_lin(g, 1); break;
        }
    }
    for (unsigned j = 0; j < p->n_public; j++) g_public(g, 1 + j);
}

/* a large array that cz_r1cs_free / free() can release; asks for huge pages
 * (fewer page faults while filling) where the system offers them */
static void *big_alloc(size_t n)
{
    const size_t huge = (size_t)2 << 20;
    void *p = NULL;
    if (n < 2 * huge) return malloc(n ? n : 1);
    if (posix_memalign(&p, huge, n)) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, n & ~(huge - 1), MADV_HUGEPAGE);
#endif
    return p;
}

cz_fr *cz_synth_witness_alloc(uint64_t n)
{
    if (!n || n > SIZE_MAX / sizeof(cz_fr)) return NULL;
    return big_alloc(n * sizeof(cz_fr));
}

/* allocate matrix k for n_rows rows and nnz non-zeros, with its coefficient
 * table: 1, -1, 2^1..2^pow_max, then the constants (none for B) */
static int alloc_matrix(cz_csr *m, const gen *g, uint64_t n_rows, uint64_t nnz, int pow_max, int consts)
{
    m->n_rows = n_rows;
    m->nnz = nnz;
    m->cidx_bytes = 1;
    m->n_coefs = 2 + (uint32_t)pow_max + (consts ? N_CONST : 0);
    m->row_ptr = big_alloc((n_rows + 1) * sizeof(uint64_t));
    m->col = big_alloc(nnz * sizeof(uint32_t));
    m->cidx = big_alloc(nnz);
    m->coefs = malloc(m->n_coefs * sizeof(cz_fr));
    if (!m->row_ptr || !m->col || !m->cidx || !m->coefs) return -1;
    m->row_ptr[0] = 0;
    cz_fr two;
    cz_fr_from_u64(&two, 2);
    m->coefs[0] = g->one;
    cz_fr_neg(&m->coefs[1], &g->one);
    if (pow_max) cz_fr_add(&m->coefs[2], &g->one, &g->one);
    for (int k = 2; k <= pow_max; k++) cz_fr_mul(&m->coefs[1 + k], &m->coefs[k], &two);
    if (consts) memcpy(&m->coefs[2 + pow_max], g->konst, sizeof g->konst);
    return 0;
}

void cz_synth_params_init(cz_synth_params *p)
{
    memset(p, 0, sizeof *p);
    p->n_constraints = 1ull << 16;
    p->seed = 1;
    p->n_public = CZ_SYNTH_DEFAULT_PUBLIC;
}

/* checks p and makes a generator for it (constants drawn); NULL: msg says why */
static gen *gen_new(const cz_synth_params *p, cz_err *e, char *msg, size_t msglen)
{
    if (p->n_constraints < CZ_SYNTH_MIN_CONSTRAINTS || p->n_constraints > CZ_SYNTH_MAX_CONSTRAINTS) {
        *e = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "constraint count %llu outside %llu..%llu",
                     (unsigned long long)p->n_constraints, CZ_SYNTH_MIN_CONSTRAINTS, CZ_SYNTH_MAX_CONSTRAINTS);
        return NULL;
    }
    if (p->n_public > CZ_SYNTH_MAX_PUBLIC) {
        *e = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "%u public inputs, at most %u", p->n_public,
                     CZ_SYNTH_MAX_PUBLIC);
        return NULL;
    }
    gen *g = calloc(1, sizeof *g);
    if (!g) {
        *e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
        return NULL;
    }
    g->p = p;
    g->total_rows = p->n_constraints;
    cz_fr_one(&g->one);
    cz_fr_zero(&g->zero);
    cz_rng crng;
    cz_rng_seed(&crng, p->seed ^ 0xc0457a0000000003ull);
    for (uint32_t k = 0; k < N_CONST; k++) {
        do cz_fr_random(&g->konst[k], &crng);
        while (cz_fr_is_zero(&g->konst[k]));
        cz_fr_inv(&g->konst_inv[k], &g->konst[k]);
    }
    return g;
}

cz_err cz_synth_witness(cz_fr *w, uint64_t n_vars, const cz_synth_params *p, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    gen *g = gen_new(p, &e, msg, msglen);
    if (!g) return e;
    /* one pass that writes values only; set_w keeps inside n_vars, and a
     * count that differs is an error (w then holds no witness) */
    g->emit = 1;
    g->w = w;
    g->w_n = n_vars;
    if (n_vars) w[0] = g->one;
    run(g);
    if (g->next_var != n_vars)
        e = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                    "the synthetic system of these parameters has %llu variables, the buffer %llu",
                    (unsigned long long)g->next_var, (unsigned long long)n_vars);
    else if (p->progress)
        p->progress(p->progress_ctx, "build", g->rows, g->total_rows);
    free(g);
    return e;
}

cz_err cz_synth_bit_mask(uint64_t *mask, uint64_t n_vars, const cz_synth_params *p, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    gen *g = gen_new(p, &e, msg, msglen);
    if (!g) return e;
    memset(mask, 0, (n_vars + 63) / 64 * sizeof *mask);
    g->emit = 1;
    g->mask = mask;
    g->w_n = n_vars;
    run(g);
    if (g->next_var != n_vars)
        e = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                    "the synthetic system of these parameters has %llu variables, the map %llu",
                    (unsigned long long)g->next_var, (unsigned long long)n_vars);
    else if (p->progress)
        p->progress(p->progress_ctx, "build", g->rows, g->total_rows);
    free(g);
    return e;
}

cz_err cz_synth_witness_compact(cz_fr *fields, uint64_t n_fields, uint64_t *bits, uint64_t n_bits,
                                const cz_synth_params *p, char *msg, size_t msglen)
{
    cz_err e = CZ_OK;
    gen *g = gen_new(p, &e, msg, msglen);
    if (!g) return e;
    g->emit = 1;
    g->f = fields;
    g->f_n = n_fields;
    g->f_at = 1 + p->n_public;
    g->b = bits;
    g->b_n = n_bits;
    g->last_var = p->n_public; /* aux variables start after the inputs */
    if (n_fields) fields[0] = g->one;
    run(g);
    if (g->f_at != n_fields || g->b_at != n_bits)
        e = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen,
                    "the synthetic system of these parameters has %llu field and %llu bit variables, the map %llu "
                    "and %llu", (unsigned long long)g->f_at, (unsigned long long)g->b_at,
                    (unsigned long long)n_fields, (unsigned long long)n_bits);
    else if (g->order_err)
        e = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "internal: synthetic variables were not made in order");
    else if (p->progress)
        p->progress(p->progress_ctx, "build", g->rows, g->total_rows);
    free(g);
    return e;
}

cz_err cz_synth_generate(cz_r1cs *r, cz_fr **w, const cz_synth_params *p, char *msg, size_t msglen)
{
    memset(r, 0, sizeof *r);
    *w = NULL;
    cz_err e0 = CZ_OK;
    gen *g = gen_new(p, &e0, msg, msglen);
    if (!g) return e0;

    /* pass 1: count */
    run(g);
    uint64_t n_vars = g->next_var, nnz[3] = {g->nnz[0], g->nnz[1], g->nnz[2]};
    cz_err e = CZ_OK;
    if (g->rows != p->n_constraints) {
        e = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "internal: counted %llu rows", (unsigned long long)g->rows);
        goto out;
    }
    /* pass 2: emit */
    *w = big_alloc(n_vars * sizeof(cz_fr));
    r->n_vars = n_vars;
    r->n_inputs = 1 + p->n_public;
    r->n_constraints = p->n_constraints;
    if (!*w || alloc_matrix(&r->m[CZ_A], g, p->n_constraints, nnz[CZ_A], A_POW_MAX, 1) ||
        alloc_matrix(&r->m[CZ_B], g, p->n_constraints, nnz[CZ_B], 0, 0) ||
        alloc_matrix(&r->m[CZ_C], g, p->n_constraints, nnz[CZ_C], C_POW_MAX, 1)) {
        e = cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory for %llu constraints, %llu variables",
                 (unsigned long long)p->n_constraints, (unsigned long long)n_vars);
        goto out;
    }
    (*w)[0] = g->one;
    g->emit = 1;
    g->w = *w;
    g->w_n = n_vars;
    g->m = r->m;
    run(g);
    if (g->next_var != n_vars || g->rows != p->n_constraints || memcmp(g->nnz, nnz, sizeof nnz) != 0) {
        e = cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "internal: the two passes disagree");
        goto out;
    }
    if (p->progress) p->progress(p->progress_ctx, "build", g->rows, g->total_rows);
out:
    if (e) {
        free(*w);
        *w = NULL;
        cz_r1cs_free(r);
        memset(r, 0, sizeof *r);
    }
    free(g);
    return e;
}
