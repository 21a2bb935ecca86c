/* hash.h — a fast non-cryptographic 64-bit checksum for file integrity
 * (detects truncation, bit rot and partial writes; not tampering).
 *
 * The algorithm is XXH64 (Yann Collet's published design: four
 * multiply-rotate lanes over 32-byte stripes, then a tail and an avalanche),
 * so values can be cross-checked with any xxhsum tool. Streaming form:
 * init, update any number of times, final. */
#ifndef CZ_UTIL_HASH_H
#define CZ_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t v[4];
    uint64_t total;
    uint8_t buf[32];
    size_t buf_len;
    uint64_t seed;
} cz_hash64_state;

void cz_hash64_init(cz_hash64_state *s, uint64_t seed);
void cz_hash64_update(cz_hash64_state *s, const void *data, size_t len);
uint64_t cz_hash64_final(const cz_hash64_state *s);
uint64_t cz_hash64(const void *data, size_t len, uint64_t seed);

#endif
