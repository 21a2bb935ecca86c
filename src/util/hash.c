/* hash.c — XXH64 (see hash.h), streaming. */
#include "util/hash.h"

#include <string.h>

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
static inline uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t round1(uint64_t acc, uint64_t in) { return rotl(acc + in * P2, 31) * P1; }
static inline uint64_t merge(uint64_t acc, uint64_t v) { return (acc ^ round1(0, v)) * P1 + P4; }

void cz_hash64_init(cz_hash64_state *s, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->seed = seed;
    s->v[0] = seed + P1 + P2;
    s->v[1] = seed + P2;
    s->v[2] = seed;
    s->v[3] = seed - P1;
}

static void stripe(cz_hash64_state *s, const uint8_t *p)
{
    for (int i = 0; i < 4; i++) s->v[i] = round1(s->v[i], rd64(p + 8 * i));
}

void cz_hash64_update(cz_hash64_state *s, const void *data, size_t len)
{
    const uint8_t *p = data;
    s->total += len;
    if (s->buf_len) {
        size_t take = 32 - s->buf_len < len ? 32 - s->buf_len : len;
        memcpy(s->buf + s->buf_len, p, take);
        s->buf_len += take;
        p += take;
        len -= take;
        if (s->buf_len < 32) return;
        stripe(s, s->buf);
        s->buf_len = 0;
    }
    while (len >= 32) { stripe(s, p); p += 32; len -= 32; }
    memcpy(s->buf, p, len);
    s->buf_len = len;
}

uint64_t cz_hash64_final(const cz_hash64_state *s)
{
    uint64_t h;
    if (s->total >= 32) {
        h = rotl(s->v[0], 1) + rotl(s->v[1], 7) + rotl(s->v[2], 12) + rotl(s->v[3], 18);
        for (int i = 0; i < 4; i++) h = merge(h, s->v[i]);
    } else {
        h = s->seed + P5;
    }
    h += s->total;
    const uint8_t *p = s->buf;
    size_t len = s->buf_len;
    while (len >= 8) { h ^= round1(0, rd64(p)); h = rotl(h, 27) * P1 + P4; p += 8; len -= 8; }
    if (len >= 4) { h ^= (uint64_t)rd32(p) * P1; h = rotl(h, 23) * P2 + P3; p += 4; len -= 4; }
    while (len) { h ^= (*p) * P5; h = rotl(h, 11) * P1; p++; len--; }
    h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32;
    return h;
}

uint64_t cz_hash64(const void *data, size_t len, uint64_t seed)
{
    cz_hash64_state s;
    cz_hash64_init(&s, seed);
    cz_hash64_update(&s, data, len);
    return cz_hash64_final(&s);
}
