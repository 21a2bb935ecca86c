/* cuzk_hash.c — `cuzk hash ALGO ...`: native hashes for independent checks.
 *   cuzk hash sha256 FILE | --hex DATA | -     prints the digest in hex
 *   cuzk hash poseidon --arity N [--tag T] X1 .. XN   (cuzk_hash_poseidon.c)
 * Each algorithm is one entry of the table below. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cuzk_cmds.h"
#include "util/hex.h"
#include "util/sha256.h"

static int hash_sha256(int argc, char **argv)
{
    uint8_t d[32];
    char hx[65];
    cz_sha256_ctx c;
    cz_sha256_init(&c);
    if (argc == 3 && !strcmp(argv[1], "--hex")) {
        size_t len = strlen(argv[2]), n = 0;
        uint8_t *buf = malloc(len / 2 + 1);
        if (!buf) return 2;
        if (cz_hex_to_bytes(buf, len / 2 + 1, &n, argv[2], len)) {
            fprintf(stderr, "cuzk hash sha256: --hex: not an even count of hex digits\n");
            free(buf);
            return 2;
        }
        cz_sha256_update(&c, buf, n);
        free(buf);
    } else if (argc == 2 && strncmp(argv[1], "--", 2)) {
        FILE *f = strcmp(argv[1], "-") ? fopen(argv[1], "rb") : stdin;
        if (!f) {
            fprintf(stderr, "cuzk hash sha256: cannot open %s: %s\n", argv[1], strerror(errno));
            return 2;
        }
        static uint8_t buf[1 << 16];
        size_t k;
        while ((k = fread(buf, 1, sizeof buf, f)) > 0) cz_sha256_update(&c, buf, k);
        int bad = ferror(f) ? errno : 0;
        if (f != stdin) fclose(f);
        if (bad) {
            fprintf(stderr, "cuzk hash sha256: cannot read %s: %s\n", argv[1], strerror(bad));
            return 2;
        }
    } else {
        fprintf(stderr, "usage: cuzk hash sha256 FILE | --hex DATA | -\n");
        return 2;
    }
    cz_sha256_final(&c, d);
    cz_hex_from_bytes(hx, d, 32);
    printf("%s\n", hx);
    return 0;
}

static const struct { const char *name; int (*run)(int, char **); } ALGOS[] = {
    {"sha256", hash_sha256},
    {"poseidon", cz_cmd_hash_poseidon},
};

int cz_cmd_hash(int argc, char **argv)
{
    if (argc >= 2)
        for (size_t i = 0; i < sizeof ALGOS / sizeof ALGOS[0]; i++)
            if (!strcmp(argv[1], ALGOS[i].name)) return ALGOS[i].run(argc - 1, argv + 1);
    fprintf(stderr, "usage: cuzk hash ALGO ARGS; ALGO one of:");
    for (size_t i = 0; i < sizeof ALGOS / sizeof ALGOS[0]; i++) fprintf(stderr, " %s", ALGOS[i].name);
    fprintf(stderr, "\n");
    return 2;
}
