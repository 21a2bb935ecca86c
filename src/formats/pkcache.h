/* pkcache.h — a converted cache of a .params file in our in-memory layout, so
 * that a warm load is one mmap with the query arrays pointing into it.
 *
 * Layout (integers little-endian; docs/FORMATS.md has the table):
 *   header, 128 bytes:
 *     0  magic "CUZKPKC\0"     8  u32 version (1)      12 u32 header size (128)
 *     16 u32 sizeof(cz_g1_aff) (96)                    20 u32 sizeof(cz_g2_aff) (192)
 *     24 u64 n_ic  32 n_h  40 n_l  48 n_a  56 n_b_g1  64 n_b_g2   (each <= 2^32-1)
 *     72 u32 flags (bit 0: points were subgroup-checked when converted)
 *     76 u32 zero
 *     80 u64 vk tag: XXH64 (seed 0) of the vk in bellperson encoding, i.e. of
 *        the first vk_bytes of the source .params (to spot a stale cache)
 *     88 u64 payload length (file size - 128)
 *     96 u64 XXH64 (seed 0) of the payload followed by header bytes 0..95
 *     104..127 zero
 *   payload, each part starting on a 64-byte boundary of the file:
 *     alpha_g1, beta_g1, delta_g1 (cz_g1_aff), beta_g2, gamma_g2, delta_g2
 *     (cz_g2_aff), then the arrays ic, h, l, a, b_g1 (cz_g1_aff) and b_g2
 *     (cz_g2_aff), zero padding between parts.
 * A point is its raw in-memory form: affine x then y, each coordinate
 * Montgomery form in 64-bit little-endian limbs (G2: c0 then c1), infinity
 * all-zero. Little-endian hosts only.
 *
 * Opening checks the header and every count against the file size before
 * touching the payload; the checksum only when asked (it reads every byte).
 * Point contents are not re-validated (the cache is our own output; use the
 * checksum to detect corruption). Writing goes to PATH.tmp and is renamed. */
#ifndef CZ_FORMATS_PKCACHE_H
#define CZ_FORMATS_PKCACHE_H

#include <stddef.h>
#include <stdint.h>
#include "groth16/groth16.h"
#include "util/err.h"
#include "util/pool.h"

#define CZ_PKCACHE_VERSION 1
#define CZ_PKCACHE_HEADER 128
#define CZ_PKCACHE_SUBGROUP_CHECKED 1u

typedef struct {
    uint64_t n_ic, n_h, n_l, n_a, n_b_g1, n_b_g2;
    uint32_t flags;
    uint64_t vk_tag;
    uint64_t size; /* file size */
} cz_pkcache_info;

/* XXH64 of a vk's bellperson encoding (what the header's vk tag holds) */
cz_err cz_pkcache_vk_tag(uint64_t *tag, const cz_groth16_vk *vk);
/* the same tag straight from a .params / .vk file: hashes its vk bytes only */
cz_err cz_pkcache_params_tag(uint64_t *tag, const char *params_path, char *msg, size_t msglen);

cz_err cz_pkcache_write(const char *path, const cz_groth16_pk *pk, uint32_t flags, char *msg, size_t msglen);

/* Header only (counts checked against the size; no checksum). */
cz_err cz_pkcache_peek(cz_pkcache_info *out, const char *path, char *msg, size_t msglen);

/* Maps the file read-only: pk->h, l, a, b_g1, b_g2 point into pk->map, the
 * vk is copied (vk.ic to the heap). Release with cz_groth16_pk_free. info may
 * be NULL. On failure *pk is zeroed and nothing stays mapped. */
cz_err cz_pkcache_open(cz_groth16_pk *pk, cz_pkcache_info *info, const char *path, int verify_checksum, char *msg,
                       size_t msglen);
/* The same from a buffer, copying everything to the heap (pk->map NULL). */
cz_err cz_pkcache_load_mem(cz_groth16_pk *pk, cz_pkcache_info *info, const uint8_t *buf, size_t len,
                           int verify_checksum, char *msg, size_t msglen);

/* Convenience: read params_path (cz_params_read) and write cache_path. */
cz_err cz_pkcache_convert(const char *cache_path, const char *params_path, int check_subgroup, cz_pool *pool,
                          char *msg, size_t msglen);

#endif
