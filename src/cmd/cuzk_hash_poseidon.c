/* cuzk_hash_poseidon.c — `cuzk hash poseidon --arity N [--tag T] X1 .. XN`:
 * the Poseidon hash (neptune parameters, strength Standard) of N field
 * elements, printed in decimal. Values are decimal or 0x-hex (big-endian
 * number) and must be below r. The domain tag defaults to the Merkle-tree
 * tag 2^N - 1; --tag gives another tag value (SnapDeals' custom tag is
 * 2^40 = 0x10000000000). Exit 0, or 2 on bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/poseidon.h"
#include "cmd/cuzk_args.h"
#include "cmd/cuzk_cmds.h"
#include "formats/decimal.h"
#include "util/hex.h"

static const char *CMD = "hash poseidon";

/* decimal or 0x-hex into Fr; 0 on success */
static int parse_fr(cz_fr *out, const char *s)
{
    size_t len = strlen(s);
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        uint8_t be[32];
        if (cz_hex_to_be(be, sizeof be, s, len) != CZ_OK) return -1;
        return cz_fr_from_bytes_be(out, be) == CZ_OK ? 0 : -1;
    }
    return cz_fr_from_decimal(out, s, len) == CZ_OK ? 0 : -1;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk hash poseidon --arity N [--tag T] X1 .. XN\n"
               "  N in 1..%d (Filecoin uses 2, 8, 11); values decimal or 0x-hex, < r;\n"
               "  T: the domain tag value (default 2^N - 1, the Merkle-tree tag)\n",
            CZ_POSEIDON_MAX_ARITY);
}

int cz_cmd_hash_poseidon(int argc, char **argv)
{
    uint64_t arity = 0;
    const char *tag_s = NULL;
    const char *vals[CZ_POSEIDON_MAX_ARITY];
    int nvals = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { usage(stdout); return 0; }
        if (!strcmp(argv[i], "--arity")) {
            if (i + 1 >= argc || cz_args_u64(argv[i + 1], &arity)) return cz_cmd_err(CMD, "--arity needs a number");
            i++;
        } else if (!strcmp(argv[i], "--tag")) {
            if (i + 1 >= argc) return cz_cmd_err(CMD, "--tag needs a value");
            tag_s = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            fprintf(stderr, "cuzk %s: unknown option '%s'\n", CMD, argv[i]);
            usage(stderr);
            return 2;
        } else {
            if (nvals >= CZ_POSEIDON_MAX_ARITY) return cz_cmd_err(CMD, "too many values");
            vals[nvals++] = argv[i];
        }
    }
    if (arity < 1 || arity > CZ_POSEIDON_MAX_ARITY) {
        usage(stderr);
        return cz_cmd_err(CMD, "--arity N is required, 1 <= N <= 36");
    }
    if ((uint64_t)nvals != arity) {
        fprintf(stderr, "cuzk %s: --arity %llu needs %llu values, got %d\n", CMD,
                (unsigned long long)arity, (unsigned long long)arity, nvals);
        return 2;
    }
    const cz_poseidon *p = cz_poseidon_get((uint32_t)arity);
    if (!p) return cz_cmd_err(CMD, "could not build the parameters (out of memory)");
    cz_fr in[CZ_POSEIDON_MAX_ARITY], tag = p->tag, h;
    for (int i = 0; i < nvals; i++)
        if (parse_fr(&in[i], vals[i])) {
            fprintf(stderr, "cuzk %s: '%s' is not a field element (decimal or 0x-hex, below r)\n", CMD, vals[i]);
            return 2;
        }
    if (tag_s && parse_fr(&tag, tag_s)) {
        fprintf(stderr, "cuzk %s: --tag '%s' is not a field element\n", CMD, tag_s);
        return 2;
    }
    cz_poseidon_hash_tag(&h, p, &tag, in);
    char dec[CZ_FR_DECIMAL_MAX];
    cz_fr_to_decimal(dec, &h);
    printf("%s\n", dec);
    return 0;
}
