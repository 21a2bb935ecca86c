/* rng.c — xoshiro256** seeded through splitmix64, plus kernel randomness. */
#include "util/rng.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void cz_rng_seed(cz_rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&seed);
}

cz_err cz_os_random(void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return CZ_ERR_IO;
        }
        p += got;
        n -= (size_t)got;
    }
    return CZ_OK;
}

cz_err cz_rng_seed_os(cz_rng *rng)
{
    uint64_t seed;
    cz_err e = cz_os_random(&seed, sizeof seed);
    if (e) return e;
    cz_rng_seed(rng, seed);
    return CZ_OK;
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t cz_rng_u64(cz_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void cz_rng_bytes(cz_rng *rng, void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n >= 8) {
        uint64_t v = cz_rng_u64(rng);
        memcpy(p, &v, 8);
        p += 8;
        n -= 8;
    }
    if (n) {
        uint64_t v = cz_rng_u64(rng);
        memcpy(p, &v, n);
    }
}
