/* fuzz_witness.c — the witness.bin and public.json readers under ASan/UBSan.
 *
 * witness.bin: random byte edits of a valid image, with the checksum left
 * stale or recomputed, are refused or, when accepted, re-encode to exactly
 * the same bytes (the encoding is canonical). public.json: random token soup
 * and random edits of a valid text never crash the parser; whatever it
 * accepts holds only brackets, commas, quotes, digits and whitespace, and
 * writing the parsed values back and reading them again gives the same
 * values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "formats/decimal.h"
#include "formats/public_json.h"
#include "formats/witness.h"
#include "util/hash.h"

static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }

static uint8_t *slurp(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len + 1);
    if (fread(b, 1, (size_t)len, f) != (size_t)len) { free(b); b = NULL; }
    fclose(f);
    *n = (size_t)len;
    return b;
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("fuzz_witness", 23));
    char dir[] = "/tmp/cuzk_fmt_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char wpath[128], jpath[128], msg[256];
    snprintf(wpath, sizeof wpath, "%s/w.bin", dir);
    snprintf(jpath, sizeof jpath, "%s/p.json", dir);

    /* ---- witness.bin ---- */
    uint64_t nv = 20;
    cz_fr w[20];
    cz_fr_one(&w[0]);
    for (uint64_t i = 1; i < nv; i++) {
        if (i % 3) cz_fr_from_u64(&w[i], i & 1);
        else cz_fr_random(&w[i], &rng);
    }
    CHECK(cz_witness_write(wpath, w, nv, 2, msg, sizeof msg) == CZ_OK);
    size_t n;
    uint8_t *img = slurp(wpath, &n);
    CHECK(img != NULL);
    uint8_t *b = malloc(n + 16);
    int consistent = 1;
    long accepted = 0;
    for (int t = 0; t < 20000 && img; t++) {
        memcpy(b, img, n);
        size_t len = n;
        int edits = 1 + (int)(cz_rng_u64(&rng) % 4);
        for (int e = 0; e < edits; e++) {
            uint64_t r = cz_rng_u64(&rng);
            size_t at = (size_t)(r % n);
            switch ((r >> 32) % 4) {
            case 0: b[at] ^= (uint8_t)(1u << ((r >> 40) % 8)); break;
            case 1: b[at] = (uint8_t)(r >> 48); break;
            case 2: b[at] = (r >> 48) & 1 ? 0xff : 0; break;
            default: len = at; break; /* truncate */
            }
        }
        if (len >= 8 && (cz_rng_u64(&rng) & 1)) put64(b + len - 8, cz_hash64(b, len - 8, 0));
        cz_fr *got;
        uint64_t gnv, gni;
        if (cz_witness_parse(&got, &gnv, &gni, b, len, msg, sizeof msg) != CZ_OK) {
            consistent &= got == NULL && msg[0] != 0;
            continue;
        }
        accepted++;
        consistent &= cz_fr_is_one(&got[0]) && gni >= 1 && gni <= gnv && len == cz_witness_file_size(gnv);
        for (uint64_t i = 0; i < gnv; i++) { /* each value re-encodes to its bytes */
            uint8_t le[32];
            cz_fr_to_bytes_le(le, &got[i]);
            consistent &= memcmp(le, b + CZ_WITNESS_HEADER + 32 * i, 32) == 0;
        }
        if (accepted > 50) { /* the whole file, through the writer (fsyncs: only a few) */
            free(got);
            continue;
        }
        if (cz_witness_write(wpath, got, gnv, gni, msg, sizeof msg) == CZ_OK) {
            size_t n2;
            uint8_t *again = slurp(wpath, &n2);
            consistent &= again && n2 == len && memcmp(again, b, len) == 0;
            free(again);
        } else {
            consistent = 0;
        }
        free(got);
    }
    CHECK(consistent);
    CHECK(accepted > 0); /* resealed edits of plain bits (0 <-> 1) are valid files */
    free(b);
    free(img);
    unlink(wpath);

    /* ---- public.json ---- */
    static const char *tok[] = {"[", "]", ",", "\"", "0", "1", "9", "12", " ", "\n", "-", "x", "\\", "e", ".",
                                "\"0\"", "\"07\"", "\"123\"", "\"\"", "null", "\t", "\r", "+", "{", "}",
                                "52435875175126190479447740508185965837690552500527637822603658699938581184513",
                                "52435875175126190479447740508185965837690552500527637822603658699938581184512"};
    const size_t ntok = sizeof tok / sizeof *tok;
    char text[1024];
    int pj_ok = 1;
    long pj_accepted = 0;
    for (int t = 0; t < 30000; t++) {
        size_t len = 0;
        if (t % 2) { /* soup */
            int k = (int)(cz_rng_u64(&rng) % 12);
            if (cz_rng_u64(&rng) & 1) text[len++] = '[';
            for (int i = 0; i < k; i++) {
                const char *s = tok[cz_rng_u64(&rng) % ntok];
                size_t sl = strlen(s);
                if (len + sl >= sizeof text) break;
                memcpy(text + len, s, sl);
                len += sl;
            }
            if (cz_rng_u64(&rng) & 1) text[len++] = ']';
        } else { /* a valid text with a few byte edits */
            len = (size_t)snprintf(text, sizeof text, "[\"%llu\", \"0\",\"%llu\"]\n",
                                   (unsigned long long)cz_rng_u64(&rng), (unsigned long long)(cz_rng_u64(&rng) >> 30));
            int edits = (int)(cz_rng_u64(&rng) % 3);
            for (int e = 0; e < edits; e++) {
                uint64_t r = cz_rng_u64(&rng);
                text[r % len] = (char)(r >> 40);
            }
        }
        cz_fr *v;
        size_t nvals;
        cz_err e = cz_public_json_parse(&v, &nvals, text, len, msg, sizeof msg);
        if (e) {
            pj_ok &= v == NULL && msg[0] != 0;
            continue;
        }
        pj_accepted++;
        for (size_t i = 0; i < len; i++) pj_ok &= strchr("[],\" \t\r\n0123456789", text[i]) != NULL && text[i] != 0;
        cz_fr *v2;
        size_t n2;
        for (size_t i = 0; i < nvals; i++) { /* printing and parsing again gives the value */
            char d[CZ_FR_DECIMAL_MAX];
            cz_fr x;
            size_t dl = cz_fr_to_decimal(d, &v[i]);
            pj_ok &= cz_fr_from_decimal(&x, d, dl) == CZ_OK && cz_fr_eq(&x, &v[i]);
        }
        if (pj_accepted > 50) { /* through the files only a few times (fsync) */
            free(v);
            continue;
        }
        pj_ok &= cz_public_json_write(jpath, v, nvals, msg, sizeof msg) == CZ_OK;
        pj_ok &= cz_public_json_read(&v2, &n2, jpath, msg, sizeof msg) == CZ_OK && n2 == nvals &&
                 (nvals == 0 || memcmp(v, v2, nvals * sizeof *v) == 0);
        free(v);
        free(v2);
    }
    CHECK(pj_ok);
    CHECK(pj_accepted > 100);
    unlink(jpath);
    rmdir(dir);
    return cz_test_finish("fuzz_witness");
}
