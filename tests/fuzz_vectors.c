/* fuzz_vectors.c — the `cuzk vectors check` runner under ASan/UBSan on
 * mutated vector files, a fixed number from the printed seed (CZ_FUZZ_SCALE
 * scales it).
 *
 * The runner lives in src/cmd (not in the library), so its sources are
 * compiled into this test directly. Each round takes 1..4 case lines of the
 * committed vectors/noble.json (one case per line there), mutates some of them
 * (bytes, hex digits, swapped members, hostile values), wraps them in a file
 * and runs it. Unmutated picks must pass (exit 0); anything else may pass or
 * fail but must give exit 0, 1 or 2 and never crash or trip a sanitizer.
 * CZ_FUZZ_VERBOSE=1 shows the runner's output. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "util/rng.h"

#include "../src/cmd/cuzk_vectors.c"
#include "../src/cmd/cuzk_vectors_ff.c"
#include "../src/cmd/cuzk_vectors_ec.c"

static const char *hostile[] = { "\"\"", "\"0x\"", "true", "null", "1e999", "-1", "[]", "{}",
                                 "\"zz\"", "\"0xc0\"", "\"c0\"", "[[\"c0\"]]", "[[]]", "[1,2]",
                                 "\"\\u0000\"", "123456789012345678901234567890123456789012",
                                 "\"00000000000000000000000000000000000000000000000000000000000000000000"
                                 "00000000000000000000000000000000000000000000000000000000000000001\"" };

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)sz + 1);
    *n = fread(b, 1, (size_t)sz, f);
    b[*n] = 0;
    fclose(f);
    return b;
}

static void mutate(cz_rng *r, char *line, size_t *n, size_t cap)
{
    int k = 1 + (int)(cz_rng_u64(r) % 4);
    while (k--) {
        size_t len = *n, pos = len ? cz_rng_u64(r) % len : 0;
        switch (cz_rng_u64(r) % 8) {
        case 0: case 5: case 6:
            if (len) line[pos] = "0123456789abcdefABCDEF"[cz_rng_u64(r) % 22];
            break;
        case 1: if (len && cz_rng_u64(r) % 4 == 0) line[pos] = (char)cz_rng_u64(r); break;
        case 2: { /* replace the value after a ':' with a hostile one */
            char *c = memchr(line + pos, ':', len - pos);
            if (!c) break;
            size_t at = (size_t)(c - line) + 1, end = at;
            int depth = 0, inq = 0;
            while (end < len) {
                char ch = line[end];
                if (inq) { if (ch == '\\') end++; else if (ch == '"') inq = 0; }
                else if (ch == '"') inq = 1;
                else if (ch == '[' || ch == '{') depth++;
                else if (ch == ']' || ch == '}') { if (!depth) break; depth--; }
                else if (ch == ',' && !depth) break;
                end++;
            }
            if (end > len) end = len;
            const char *h = hostile[cz_rng_u64(r) % (sizeof hostile / sizeof hostile[0])];
            size_t hl = strlen(h);
            if (len - (end - at) + hl >= cap) break;
            memmove(line + at + hl, line + end, len - end);
            memcpy(line + at, h, hl);
            *n = len - (end - at) + hl;
            break;
        }
        case 3: if (len > 4) { size_t d = 1 + cz_rng_u64(r) % 4; if (d > len - pos) d = len - pos;
                    memmove(line + pos, line + pos + d, len - pos - d); *n = len - d; } break;
        case 4: case 7: { /* rename the op to a sibling */
            static const char *ops[] = { "g1_add", "g2_add", "g1_mul", "g2_mul", "g1_decode",
                                         "g2_decode", "fp_mul", "fr_inv" };
            char *o = strstr(line, "\"op\":\"");
            if (!o) break;
            char *q = strchr(o + 6, '"');
            if (!q) break;
            const char *nm = ops[cz_rng_u64(r) % (sizeof ops / sizeof ops[0])];
            size_t old = (size_t)(q - (o + 6)), nl = strlen(nm);
            if (len - old + nl >= cap) break;
            memmove(o + 6 + nl, q, (size_t)(line + len - q));
            memcpy(o + 6, nm, nl);
            *n = len - old + nl;
            break;
        }
        }
    }
}

int main(void)
{
    cz_rng r;
    cz_rng_seed(&r, cz_test_seed("fuzz_vectors", 11));
    const long count = cz_fuzz_count("fuzz_vectors", "files", 20000);

    /* the committed file, found next to this source */
    char path[4096];
    snprintf(path, sizeof path, "%s", __FILE__);
    char *slash = strrchr(path, '/');
    snprintf(slash ? slash + 1 : path, sizeof path - (size_t)(slash ? slash + 1 - path : 0), "../vectors/noble.json");
    size_t flen;
    char *file = slurp(path, &flen);
    CHECK_MSG(file != NULL, "cannot read %s", path);
    if (!file) return cz_test_finish("fuzz_vectors");

    /* the case lines, skipping pairing checks (slow under the sanitizers) */
    char *lines[1024];
    size_t nl = 0;
    for (char *p = strtok(file, "\n"); p && nl < 1024; p = strtok(NULL, "\n")) {
        if (!strstr(p, "\"op\":") || strstr(p, "pairing_check")) continue;
        size_t l = strlen(p);
        while (l && (p[l - 1] == ',' || p[l - 1] == ' ')) p[--l] = 0;
        while (*p == ' ') p++;
        lines[nl++] = p;
    }
    CHECK(nl > 100);

    /* the runner's output goes to /dev/null unless CZ_FUZZ_VERBOSE is set (a
       sanitizer report during a run would go there too: replay the printed
       seed with CZ_FUZZ_VERBOSE=1 to see it) */
    int verbose = getenv("CZ_FUZZ_VERBOSE") != NULL;
    int saved = dup(1), saved2 = dup(2), devnull = open("/dev/null", O_WRONLY);
    long rounds = 0, clean = 0, rcs[3] = { 0, 0, 0 };
    enum { CAP = 8192 };
    char *buf = malloc(4 * CAP + 64), *line = malloc(CAP);
    for (; rounds < count; rounds++) {
        size_t pick = 1 + cz_rng_u64(&r) % 4, n = 0;
        int mutated = 0;
        n += (size_t)sprintf(buf, "{\"curve\":\"bls12-381\",\"cases\":[");
        for (size_t i = 0; i < pick; i++) {
            const char *src = lines[cz_rng_u64(&r) % nl];
            size_t ln = strlen(src);
            if (ln >= CAP) ln = CAP - 1;
            memcpy(line, src, ln);
            if (cz_rng_u64(&r) % 3) { mutate(&r, line, &ln, CAP); mutated = 1; }
            if (i) buf[n++] = ',';
            memcpy(buf + n, line, ln);
            n += ln;
        }
        n += (size_t)sprintf(buf + n, "]}");
        char *exact = malloc(n);                  /* exact size: over-reads show */
        memcpy(exact, buf, n);
        fflush(stdout);
        fflush(stderr);
        if (!verbose) { dup2(devnull, 1); dup2(devnull, 2); }
        int rc = cz__vectors_check_text("fuzz", exact, n, verbose);
        fflush(stdout);
        fflush(stderr);
        dup2(saved, 1);
        dup2(saved2, 2);
        free(exact);
        CHECK_MSG(rc >= 0 && rc <= 2, "rc %d", rc);
        if (rc >= 0 && rc <= 2) rcs[rc]++;
        if (!mutated) { clean++; CHECK_MSG(rc == 0, "unmutated cases failed: %.*s", (int)(n < 600 ? n : 600), buf); }
    }
    printf("fuzz_vectors: %ld files (%ld unmutated), exit 0/1/2: %ld/%ld/%ld\n", rounds, clean,
           rcs[0], rcs[1], rcs[2]);
    CHECK(rounds == count && rcs[1] > 0);
    free(buf);
    free(line);
    free(file);
    close(devnull);
    close(saved);
    close(saved2);
    return cz_test_finish("fuzz_vectors");
}
