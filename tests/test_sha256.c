/* test_sha256.c — native SHA-256: FIPS 180-4 known answers (empty, "abc",
 * the 448-bit two-block message, a million 'a') on the SHA-NI path (when
 * the CPU has it) and the portable path, and both paths agreeing on random
 * lengths fed in random pieces. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/hex.h"
#include "util/rng.h"
#include "util/sha256.h"

static void tohex(char *out, const uint8_t *b, size_t n)
{
    static const char H[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) { out[2 * i] = H[b[i] >> 4]; out[2 * i + 1] = H[b[i] & 15]; }
    out[2 * n] = 0;
}

static void kats(void)
{
    static const struct { const char *msg; const char *hex; } K[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    uint8_t d[32];
    char hx[65];
    for (size_t i = 0; i < sizeof K / sizeof K[0]; i++) {
        cz_sha256(d, K[i].msg, strlen(K[i].msg));
        tohex(hx, d, 32);
        CHECK_MSG(!strcmp(hx, K[i].hex), "kat %zu: %s", i, hx);
    }
    cz_sha256_ctx c;
    cz_sha256_init(&c);
    uint8_t a[1000];
    memset(a, 'a', sizeof a);
    for (int i = 0; i < 1000; i++) cz_sha256_update(&c, a, sizeof a);
    cz_sha256_final(&c, d);
    tohex(hx, d, 32);
    CHECK_MSG(!strcmp(hx, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"), "million a: %s", hx);
}

int main(void)
{
    uint64_t seed = cz_test_seed("test_sha256", 12);
    int shani = cz_sha256_uses_shani();
    printf("test_sha256: SHA-NI %s\n", shani ? "in use" : "not available");
    kats();
    cz_sha256_force_portable(1);
    CHECK(!cz_sha256_uses_shani());
    kats();
    cz_sha256_force_portable(0);
    CHECK(cz_sha256_uses_shani() == shani);

    cz_rng rng;
    cz_rng_seed(&rng, seed);
    static uint8_t buf[5000];
    for (int t = 0; t < 200; t++) {
        size_t n = cz_rng_u64(&rng) % sizeof buf;
        for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)cz_rng_u64(&rng);
        uint8_t d1[32], d2[32];
        cz_sha256_ctx c;
        cz_sha256_init(&c);
        size_t at = 0;
        while (at < n) {
            size_t k = cz_rng_u64(&rng) % 200;
            if (k > n - at) k = n - at;
            cz_sha256_update(&c, buf + at, k);
            at += k;
        }
        cz_sha256_final(&c, d1);
        cz_sha256_force_portable(1);
        cz_sha256(d2, buf, n);
        cz_sha256_force_portable(0);
        CHECK_MSG(!memcmp(d1, d2, 32), "len %zu", n);
        /* raw compression, several blocks at once */
        uint32_t s1[8], s2[8];
        memcpy(s1, cz_sha256_iv, 32);
        memcpy(s2, cz_sha256_iv, 32);
        cz_sha256_compress(s1, buf, n / 64);
        cz_sha256_compress_portable(s2, buf, n / 64);
        CHECK(!memcmp(s1, s2, 32));
    }
    return cz_test_finish("test_sha256");
}
