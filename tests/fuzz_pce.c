/* fuzz_pce.c — the .pce reader under ASan/UBSan: a real file round-trips;
 * every truncation length is refused; random byte mutations (header and
 * payload) are either refused or, when the checksum is skipped, give a system
 * whose every index is in range (SpMV runs over it without a fault). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "testutil.h"
#include "r1cs/pce.h"

static uint8_t *slurp(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len);
    if (fread(b, 1, (size_t)len, f) != (size_t)len) { free(b); b = NULL; }
    fclose(f);
    *n = (size_t)len;
    return b;
}

static void spit(const char *p, const uint8_t *b, size_t n)
{
    FILE *f = fopen(p, "wb");
    fwrite(b, 1, n, f);
    fclose(f);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("fuzz_pce", 17));
    /* a small random system */
    cz_r1cs_builder *b;
    uint64_t n_in = 2, n_aux = 300, rows = 200;
    CHECK(cz_r1cs_builder_new(&b, n_in, n_aux) == CZ_OK);
    for (uint64_t r = 0; r < rows; r++) {
        for (int m = 0; m < 3; m++)
            for (int k = 0; k < 2; k++) {
                cz_fr c;
                if (cz_rng_u64(&rng) & 1) cz_fr_random(&c, &rng);
                else cz_fr_one(&c);
                cz_r1cs_builder_term(b, m, cz_rng_u64(&rng) % (n_in + n_aux), &c);
            }
        cz_r1cs_builder_end_constraint(b);
    }
    cz_r1cs r;
    CHECK(cz_r1cs_builder_finish(b, &r) == CZ_OK);
    char dir[] = "/tmp/cuzk_pce_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128], mpath[128];
    snprintf(path, sizeof path, "%s/c.pce", dir);
    snprintf(mpath, sizeof mpath, "%s/m.pce", dir);
    char msg[256];
    CHECK(cz_pce_write(path, &r, msg, sizeof msg) == CZ_OK);

    /* round trip: same matrices, same SpMV */
    cz_r1cs q;
    CHECK_MSG(cz_pce_open(&q, path, 1, msg, sizeof msg) == CZ_OK, "%s", msg);
    CHECK(q.n_vars == r.n_vars && q.n_inputs == r.n_inputs && q.n_constraints == r.n_constraints);
    size_t nv = r.n_vars;
    cz_fr *w = malloc(nv * sizeof *w), *o1 = malloc(rows * sizeof *o1), *o2 = malloc(rows * sizeof *o2);
    for (size_t i = 0; i < nv; i++) cz_fr_random(&w[i], &rng);
    for (int m = 0; m < 3; m++) {
        CHECK(q.m[m].nnz == r.m[m].nnz && q.m[m].n_coefs == r.m[m].n_coefs);
        cz_fr *outs1[3] = {NULL, NULL, NULL}, *outs2[3] = {NULL, NULL, NULL};
        outs1[m] = o1;
        outs2[m] = o2;
        cz_r1cs_spmv(&r, w, outs1[0], outs1[1], outs1[2], NULL);
        cz_r1cs_spmv(&q, w, outs2[0], outs2[1], outs2[2], NULL);
        CHECK(memcmp(o1, o2, rows * sizeof *o1) == 0);
    }
    cz_pce_close(&q);

    size_t n;
    uint8_t *orig = slurp(path, &n);
    CHECK(orig != NULL);
    /* every truncation is refused */
    for (size_t len = 0; len < n; len += 1 + len / 16) {
        spit(mpath, orig, len);
        CHECK_MSG(cz_pce_open(&q, mpath, 0, msg, sizeof msg) != CZ_OK, "truncated to %zu accepted", len);
    }
    /* mutations */
    uint8_t *mut = malloc(n);
    long accepted = 0, runs = 0;
    const long count = cz_fuzz_count("fuzz_pce", "mutated files", 12000);
    while (runs < count) {
        memcpy(mut, orig, n);
        int flips = 1 + (int)(cz_rng_u64(&rng) % 4);
        for (int i = 0; i < flips; i++) {
            size_t at = (cz_rng_u64(&rng) & 1) ? cz_rng_u64(&rng) % 128 : cz_rng_u64(&rng) % n;
            mut[at] ^= (uint8_t)(1u << (cz_rng_u64(&rng) % 8));
        }
        spit(mpath, mut, n);
        int verify = (int)(runs & 1);
        cz_err e = cz_pce_open(&q, mpath, verify, msg, sizeof msg);
        if (e == CZ_OK) {
            accepted++;
            if (verify) CHECK(memcmp(mut + 128, orig + 128, n - 128) == 0); /* payload intact */
            if (verify) CHECK(q.n_vars == r.n_vars && q.n_constraints == r.n_constraints);
            if (q.n_vars <= (1u << 20) && q.n_constraints <= (1u << 20)) {
                cz_fr *outs = malloc(q.n_constraints * sizeof(cz_fr) + 32);
                cz_fr *vw = calloc(q.n_vars + 1, sizeof(cz_fr));
                cz_r1cs_spmv(&q, vw, outs, NULL, NULL, NULL); /* must not fault */
                free(outs);
                free(vw);
            }
            cz_pce_close(&q);
        }
        runs++;
    }
    printf("fuzz_pce: %ld mutated files, %ld accepted\n", runs, accepted);
    CHECK(runs == count && accepted > 0);
    free(mut);
    free(orig);
    free(w); free(o1); free(o2);
    cz_r1cs_free(&r);
    remove(path);
    remove(mpath);
    remove(dir);
    return cz_test_finish("fuzz_pce");
}
