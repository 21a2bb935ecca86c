/* params.h — bellperson Groth16 parameter files (.params) and verifying keys
 * (.vk), read into / written from cz_groth16_pk / cz_groth16_vk.
 *
 * Layout (docs/FORMATS.md has the byte table). Points are uncompressed ZCash
 * encodings (G1 96 bytes, G2 192 bytes, big-endian, flag bits), counts are
 * u32 big-endian:
 *   vk:      alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2,
 *            u32 n_ic, n_ic x G1
 *   .params: vk, then for h, l, a, b_g1 (G1) and b_g2 (G2): u32 n, n points.
 * A .vk file is exactly the vk part.
 *
 * What is accepted is what bellperson's Parameters::read / VerifyingKey::read
 * accept, with on-curve checks always on:
 *   - the six vk points: on the curve and in the subgroup (always checked,
 *     as bellperson's from_uncompressed does); the point at infinity is
 *     accepted there, as bellperson does;
 *   - ic: on the curve, in the subgroup (always), never infinity;
 *   - h, l, a, b_g1, b_g2: on the curve (always), in the subgroup only when
 *     check_subgroup is set (bellperson's `checked`), never infinity.
 * Infinity where it is not allowed is reported as CZ_ERR_NOT_ON_CURVE with
 * "point at infinity" in the message. Reading is strict about size: the file
 * must end exactly after the last array (trailing bytes are refused).
 *
 * Reading first walks the lengths and checks each against the bytes left, so
 * a truncated file or a lying count fails before anything is allocated; then
 * it decodes the points in parallel over the pool into heap arrays
 * (Montgomery affine). The error names the first bad array and index. Writing
 * is the exact inverse (read then write is byte-identical); files go to
 * PATH.tmp and are renamed into place. */
#ifndef CZ_FORMATS_PARAMS_H
#define CZ_FORMATS_PARAMS_H

#include <stddef.h>
#include <stdint.h>
#include "groth16/groth16.h"
#include "util/err.h"
#include "util/pool.h"

#define CZ_VK_HEAD_BYTES (3 * CZ_G1_UNCOMPRESSED + 3 * CZ_G2_UNCOMPRESSED) /* 864 */

/* The structure of a .params or .vk file, from its lengths only. */
typedef struct {
    uint64_t n_ic, n_h, n_l, n_a, n_b_g1, n_b_g2;
    /* byte offset of the first point of each array */
    uint64_t off_ic, off_h, off_l, off_a, off_b_g1, off_b_g2;
    uint64_t vk_bytes;   /* size of the vk part */
    uint64_t size;       /* size the file has (== what the counts imply) */
    int is_vk;           /* the data ends right after the vk: a .vk file */
} cz_params_info;

/* Walks the lengths without decoding any point. Succeeds for a well-sized
 * .vk or .params; otherwise returns CZ_ERR_LENGTH with a message saying which
 * count does not fit (the counts and offsets before that one are filled in,
 * the rest are 0). The file variant maps the file and touches only the pages
 * holding the counts. */
cz_err cz_params_peek_mem(cz_params_info *out, const uint8_t *buf, size_t len, char *msg, size_t msglen);
cz_err cz_params_peek(cz_params_info *out, const char *path, char *msg, size_t msglen);

/* Reads a .params image / file into *pk (heap arrays, pk->map = NULL; free
 * with cz_groth16_pk_free). pool may be NULL. On failure *pk is zeroed and
 * nothing is left allocated. */
cz_err cz_params_read_mem(cz_groth16_pk *pk, const uint8_t *buf, size_t len, int check_subgroup, cz_pool *pool,
                          char *msg, size_t msglen);
cz_err cz_params_read(cz_groth16_pk *pk, const char *path, int check_subgroup, cz_pool *pool, char *msg,
                      size_t msglen);

/* Reads a verifying key from a .vk image / file, or from the head of a
 * .params (which must be well-sized; its other arrays are not decoded).
 * Free with cz_groth16_vk_free. */
cz_err cz_vk_read_mem(cz_groth16_vk *vk, const uint8_t *buf, size_t len, cz_pool *pool, char *msg, size_t msglen);
cz_err cz_vk_read(cz_groth16_vk *vk, const char *path, cz_pool *pool, char *msg, size_t msglen);

/* Encoded sizes; 0 when a count does not fit the u32 length field. */
uint64_t cz_params_encoded_size(const cz_groth16_pk *pk);
uint64_t cz_vk_encoded_size(const cz_groth16_vk *vk);

/* Encodes into a caller buffer of at least the encoded size. */
cz_err cz_params_encode(uint8_t *out, size_t cap, const cz_groth16_pk *pk, char *msg, size_t msglen);
cz_err cz_vk_encode(uint8_t *out, size_t cap, const cz_groth16_vk *vk, char *msg, size_t msglen);

/* Writes PATH.tmp, fsyncs and renames it to path. */
cz_err cz_params_write(const char *path, const cz_groth16_pk *pk, char *msg, size_t msglen);
cz_err cz_vk_write(const char *path, const cz_groth16_vk *vk, char *msg, size_t msglen);

#endif
