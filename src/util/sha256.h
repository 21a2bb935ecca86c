/* sha256.h — native SHA-256 (FIPS 180-4).
 *
 * The compression function has two paths behind one name: the x86 SHA
 * extensions (SHA-NI: SHA256RNDS2, SHA256MSG1/2) where CPUID reports them
 * (leaf 7, EBX bit 29, with SSE4.1), and portable C otherwise. The choice is
 * made once; CUZK_NO_ASM=1 in the environment, or cz_sha256_force_portable(1),
 * selects the portable path (tests run both). */
#ifndef CZ_UTIL_SHA256_H
#define CZ_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

extern const uint32_t cz_sha256_iv[8];
extern const uint32_t cz_sha256_k[64];

/* state = compress(state, block) for nblocks consecutive 64-byte blocks */
void cz_sha256_compress(uint32_t state[8], const uint8_t *blocks, size_t nblocks);
void cz_sha256_compress_portable(uint32_t state[8], const uint8_t *blocks, size_t nblocks);
/* 1 if the SHA-NI path is in use */
int cz_sha256_uses_shani(void);
/* tests: force the portable path (1) or restore detection (0) */
void cz_sha256_force_portable(int on);

typedef struct {
    uint32_t h[8];
    uint64_t len;        /* bytes absorbed */
    uint8_t buf[64];
    uint32_t nbuf;
} cz_sha256_ctx;

void cz_sha256_init(cz_sha256_ctx *c);
void cz_sha256_update(cz_sha256_ctx *c, const void *data, size_t len);
void cz_sha256_final(cz_sha256_ctx *c, uint8_t out[32]);
void cz_sha256(uint8_t out[32], const void *data, size_t len);

#endif
