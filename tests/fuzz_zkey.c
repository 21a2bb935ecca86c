/* fuzz_zkey.c — the snarkjs readers under ASan/UBSan: .zkey, .wtns, .r1cs
 * and the proof / verification-key JSON, fed mutations of the committed
 * snarkjs files (tests/data/snarkjs). Mutations favour the structure: the
 * container and section headers, the Groth16 header counts, the coefficient
 * entries, each set to random or boundary values; plus random byte flips,
 * truncations and (for JSON) inserted tokens. Whatever is refused must come
 * with a message; whatever is accepted is used: an accepted zkey + witness is
 * proved with (and the key's arrays are read in full), an accepted r1cs is
 * evaluated, an accepted proof is re-encoded and parsed again to the same
 * value. Each target runs a fixed number of inputs from the printed seed
 * (CZ_FUZZ_SCALE scales them), never a time budget, so the verdict does not
 * depend on the machine's speed. Some zkeys go through a file, so the mapped,
 * in-place path is fuzzed too. Nothing here allocates by a count that a
 * mutated file claims without first checking it against the file's size. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"
#include "formats/r1cs_file.h"
#include "formats/snarkjs_json.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "groth16/groth16.h"

static char *path(const char *name)
{
    static char buf[4096];
    const char *f = __FILE__, *slash = strrchr(f, '/');
    snprintf(buf, sizeof buf, "%.*s/data/snarkjs/%s", slash ? (int)(slash - f) : 1, slash ? f : ".", name);
    return buf;
}

static uint8_t *slurp(const char *name, size_t *n)
{
    FILE *f = fopen(path(name), "rb");
    if (!f) { fprintf(stderr, "cannot open %s\n", path(name)); exit(2); }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len + 1);
    if (fread(b, 1, (size_t)len, f) != (size_t)len) exit(2);
    fclose(f);
    b[len] = 0;
    *n = (size_t)len;
    return b;
}

/* the 64-bit word at byte `at` of a point array */
static uint64_t word(const void *arr, uint64_t at)
{
    uint64_t v;
    memcpy(&v, (const uint8_t *)arr + at, sizeof v);
    return v;
}

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void wr32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }

/* a value that tends to hit edges */
static uint32_t edgy(cz_rng *rng, uint32_t cur)
{
    switch (cz_rng_u64(rng) % 8) {
    case 0: return 0;
    case 1: return 1;
    case 2: return 0xffffffffu;
    case 3: return cur + 1;
    case 4: return cur - 1;
    case 5: return cur * 2;
    case 6: return (uint32_t)1 << (cz_rng_u64(rng) % 32);
    default: return (uint32_t)cz_rng_u64(rng);
    }
}

/* offsets of the u32 fields worth mutating in an iden3 file: the header,
 * every section header (id, low and high size word) and the first words of
 * each section */
static size_t fields(const uint8_t *b, size_t len, size_t *out, size_t cap)
{
    size_t k = 0, at = 12;
    out[k++] = 4;
    out[k++] = 8;
    while (at + 12 <= len && k + 12 < cap) {
        uint64_t sz = rd32(b + at + 4) | (uint64_t)rd32(b + at + 8) << 32;
        out[k++] = at;
        out[k++] = at + 4;
        out[k++] = at + 8;
        for (size_t w = 0; w < 8 && at + 12 + 4 * w + 4 <= len; w++) out[k++] = at + 12 + 4 * w;
        at += 12 + sz;
    }
    return k;
}

static size_t mutate(uint8_t *m, const uint8_t *b, size_t len, cz_rng *rng, const size_t *f, size_t nf,
                     size_t extra_lo, size_t extra_hi)
{
    memcpy(m, b, len);
    size_t n = len;
    int k = 1 + (int)(cz_rng_u64(rng) % 3);
    for (int i = 0; i < k; i++) {
        switch (cz_rng_u64(rng) % 5) {
        case 0: case 1: { /* a structural field */
            size_t o = f[cz_rng_u64(rng) % nf];
            if (o + 4 <= n) wr32(m + o, edgy(rng, rd32(m + o)));
            break;
        }
        case 2: /* a word in a favoured region (e.g. coefficient entries) */
            if (extra_hi > extra_lo + 4) {
                size_t o = extra_lo + (cz_rng_u64(rng) % (extra_hi - extra_lo - 4)) / 4 * 4;
                if (o + 4 <= n) wr32(m + o, edgy(rng, rd32(m + o)));
            }
            break;
        case 3: /* byte flip anywhere */
            if (n) m[cz_rng_u64(rng) % n] ^= (uint8_t)(1u << (cz_rng_u64(rng) % 8));
            break;
        default: /* truncate */
            if (n) n = cz_rng_u64(rng) % n;
            break;
        }
    }
    return n;
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("fuzz_zkey", 44));
    char msg[600];
    size_t f[512], nf;
    const long n_zkey = cz_fuzz_count("fuzz_zkey", "zkeys", 3000), n_wtns = cz_fuzz_count("fuzz_zkey", "witnesses", 20000),
               n_r1cs = cz_fuzz_count("fuzz_zkey", "r1cs files", 20000), n_json = cz_fuzz_count("fuzz_zkey", "JSON texts", 20000);
    char tmp[64];
    snprintf(tmp, sizeof tmp, "/tmp/fuzz_zkey_%d.zkey", (int)getpid());

    size_t wl;
    uint8_t *wt = slurp("chain.wtns", &wl);
    cz_fr *w = NULL;
    uint64_t nw = 0;
    CHECK(cz_wtns_parse(&w, &nw, wt, wl, msg, sizeof msg) == CZ_OK);

    /* ---- zkey ---- */
    {
        size_t len;
        uint8_t *b = slurp("chain.zkey", &len), *m = malloc(len + 1);
        nf = fields(b, len, f, 512);
        size_t c4lo = 1412, c4hi = 1412 + 7352; /* section 4 (coefficients) of chain.zkey */
        long it = 0, acc = 0, proved = 0, silent = 0;
        while (it < n_zkey) {
            size_t n = mutate(m, b, len, &rng, f, nf, c4lo, c4hi);
            cz_zkey z;
            cz_err e;
            msg[0] = 0;
            if (it % 16 == 0) {
                FILE *o = fopen(tmp, "wb");
                if (o) { fwrite(m, 1, n, o); fclose(o); }
                e = cz_zkey_open(&z, tmp, NULL, msg, sizeof msg);
            } else {
                e = cz_zkey_load_mem(&z, m, n, NULL, msg, sizeof msg);
            }
            if (e) {
                silent += msg[0] == 0;
            } else {
                acc++;
                /* read every array in full */
                volatile uint64_t sink = 0;
                const cz_groth16_zpk *k = &z.pk;
                /* (points at any byte address: groth16.h) the first word
                 * of x, the last of y (G2: of y.c1), or the first of y */
                const uint64_t g1 = sizeof(cz_g1_aff), g2 = sizeof(cz_g2_aff);
                const uint64_t y_last = offsetof(cz_g1_aff, y.l[5]), y2_last = offsetof(cz_g2_aff, y.c1.l[5]);
                for (uint64_t i = 0; i < k->n_vars; i++)
                    sink += word(k->a, g1 * i) + word(k->b_g1, g1 * i + y_last) + word(k->b_g2, g2 * i + y2_last);
                for (uint64_t i = 0; i + k->n_public + 1 < k->n_vars; i++) sink += word(k->c, g1 * i);
                for (uint64_t i = 0; i < ((uint64_t)1 << k->log_domain); i++)
                    sink += word(k->h, g1 * i + offsetof(cz_g1_aff, y));
                (void)sink;
                if (k->n_vars == nw && (it % 4 == 0)) {
                    cz_fr r, s;
                    cz_groth16_proof pr;
                    cz_fr_random(&r, &rng);
                    cz_fr_random(&s, &rng);
                    CHECK(cz_groth16_prove_zkey(&pr, k, w, &r, &s, NULL, NULL, msg, sizeof msg) == CZ_OK);
                    proved++;
                }
                cz_zkey_close(&z);
            }
            it++;
        }
        unlink(tmp);
        CHECK(silent == 0);
        printf("fuzz_zkey: zkey %ld inputs, %ld accepted, %ld proved\n", it, acc, proved);
        free(b);
        free(m);
    }

    /* ---- wtns ---- */
    {
        uint8_t *m = malloc(wl + 1);
        nf = fields(wt, wl, f, 512);
        long it = 0, acc = 0, silent = 0, bad = 0;
        while (it < n_wtns) {
            size_t n = mutate(m, wt, wl, &rng, f, nf, 76, wl);
            cz_fr *v;
            uint64_t cnt;
            msg[0] = 0;
            if (cz_wtns_parse(&v, &cnt, m, n, msg, sizeof msg)) { silent += msg[0] == 0; }
            else { acc++; bad += !cz_fr_is_one(&v[0]) || cnt == 0 || cnt > n / 32; free(v); }
            it++;
        }
        CHECK(silent == 0 && bad == 0);
        printf("fuzz_zkey: wtns %ld inputs, %ld accepted\n", it, acc);
        free(m);
    }

    /* ---- r1cs ---- */
    {
        size_t len;
        uint8_t *b = slurp("chain.r1cs", &len), *m = malloc(len + 1);
        nf = fields(b, len, f, 512);
        long it = 0, acc = 0, silent = 0;
        while (it < n_r1cs) {
            size_t n = mutate(m, b, len, &rng, f, nf, 24, 24 + 7884);
            cz_r1cs r;
            msg[0] = 0;
            if (cz_r1cs_file_parse(&r, NULL, m, n, msg, sizeof msg)) { silent += msg[0] == 0; }
            else {
                acc++;
                /* the wire-to-label map holds 8 bytes per wire, so an
                 * accepted file cannot claim more wires than n / 8 */
                cz_fr *x = r.n_vars <= n / 8 ? calloc(r.n_vars, sizeof *x) : NULL;
                CHECK_MSG(x != NULL, "accepted r1cs claims %llu wires in %zu bytes", (unsigned long long)r.n_vars, n);
                if (x) {
                    uint64_t row;
                    cz_fr_one(&x[0]);
                    (void)cz_r1cs_is_satisfied(&r, x, &row, NULL);
                    free(x);
                }
                cz_r1cs_free(&r);
            }
            it++;
        }
        CHECK(silent == 0);
        printf("fuzz_zkey: r1cs %ld inputs, %ld accepted\n", it, acc);
        free(b);
        free(m);
    }

    /* ---- JSON: proof and verification key ---- */
    static const char *tokens[] = {"\"", "[", "]", "{", "}", ",", ":", "0", "1", "00", "0x", "-", " ", "\\u0000",
                                   "\"1\"", "\"0\"", "null", "1e5", "\"bn128\"", "\"plonk\"", "[\"1\",\"0\"]",
                                   "999999999999999999999999999999999999999999999999999999999999999999999999999999"
                                   "9999999999999999999999999999999999999999"};
    const char *names[2] = {"proof.json", "verification_key.json"};
    for (int which = 0; which < 2; which++) {
        size_t len;
        char *b = (char *)slurp(names[which], &len), *m = malloc(len + 256);
        long it = 0, acc = 0, silent = 0, mismatch = 0;
        while (it < n_json) {
            size_t n = len;
            memcpy(m, b, len);
            int k = 1 + (int)(cz_rng_u64(&rng) % 3);
            for (int i = 0; i < k; i++) {
                size_t at = n ? cz_rng_u64(&rng) % n : 0;
                switch (cz_rng_u64(&rng) % 4) {
                case 0: if (n) m[at] = (char)(cz_rng_u64(&rng) & 0xff); break;
                case 1: if (n) { memmove(m + at, m + at + 1, n - at - 1); n--; } break;
                case 2: {
                    const char *t = tokens[cz_rng_u64(&rng) % (sizeof tokens / sizeof tokens[0])];
                    size_t tl = strlen(t);
                    if (n + tl < len + 200) { memmove(m + at + tl, m + at, n - at); memcpy(m + at, t, tl); n += tl; }
                    break;
                }
                default: /* swap a digit */
                    if (n && m[at] >= '0' && m[at] <= '9') m[at] = (char)('0' + cz_rng_u64(&rng) % 10);
                    break;
                }
            }
            msg[0] = 0;
            cz_err e;
            if (which == 0) {
                cz_groth16_proof p, q;
                e = cz_snarkjs_proof_parse(&p, m, n, msg, sizeof msg);
                if (!e) {
                    char *t;
                    size_t tl;
                    CHECK(cz_snarkjs_proof_encode(&t, &tl, &p) == CZ_OK);
                    mismatch += cz_snarkjs_proof_parse(&q, t, tl, msg, sizeof msg) != CZ_OK || memcmp(&p, &q, sizeof p);
                    free(t);
                }
            } else {
                cz_groth16_vk vk;
                e = cz_snarkjs_vk_parse(&vk, m, n, msg, sizeof msg);
                if (!e) { mismatch += vk.n_ic != 4; cz_groth16_vk_free(&vk); }
            }
            if (e) silent += msg[0] == 0;
            else acc++;
            it++;
        }
        CHECK(silent == 0 && mismatch == 0);
        printf("fuzz_zkey: %s %ld inputs, %ld accepted\n", names[which], it, acc);
        free(b);
        free(m);
    }
    free(w);
    free(wt);
    return cz_test_finish("fuzz_zkey");
}
