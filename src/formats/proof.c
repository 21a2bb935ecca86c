/* proof.c — 192-byte Groth16 proofs and proof files (see proof.h). */
#include "formats/proof.h"

#include <stdlib.h>
#include <string.h>

#include "formats/fio.h"

#define G1C CZ_G1_COMPRESSED
#define G2C CZ_G2_COMPRESSED

void cz_proof_encode(uint8_t out[CZ_GROTH16_PROOF_BYTES], const cz_groth16_proof *p)
{
    cz_g1_compress(out, &p->a);
    cz_g2_compress(out + G1C, &p->b);
    cz_g1_compress(out + G1C + G2C, &p->c);
}

/* which point failed: 0 A, 1 B, 2 C */
static cz_err decode_one(cz_groth16_proof *out, const uint8_t *in, int *which)
{
    cz_groth16_proof p;
    cz_err e;
    *which = 0;
    if ((e = cz_g1_decode(&p.a, in, G1C, 1))) return e;
    if (cz_g1_aff_is_inf(&p.a)) return CZ_ERR_NOT_ON_CURVE;
    *which = 1;
    if ((e = cz_g2_decode(&p.b, in + G1C, G2C, 1))) return e;
    if (cz_g2_aff_is_inf(&p.b)) return CZ_ERR_NOT_ON_CURVE;
    *which = 2;
    if ((e = cz_g1_decode(&p.c, in + G1C + G2C, G1C, 1))) return e;
    if (cz_g1_aff_is_inf(&p.c)) return CZ_ERR_NOT_ON_CURVE;
    *out = p;
    return CZ_OK;
}

cz_err cz_proof_decode(cz_groth16_proof *out, const uint8_t in[CZ_GROTH16_PROOF_BYTES])
{
    int which;
    return decode_one(out, in, &which);
}

cz_err cz_proofs_decode(cz_groth16_proof **out, size_t *n, const uint8_t *buf, size_t len, char *msg,
                        size_t msglen)
{
    *out = NULL;
    *n = 0;
    if (len == 0 || len % CZ_GROTH16_PROOF_BYTES)
        return cz_fail(CZ_ERR_LENGTH, msg, msglen, "%zu bytes: not a non-zero multiple of %d", len,
                            CZ_GROTH16_PROOF_BYTES);
    size_t k = len / CZ_GROTH16_PROOF_BYTES;
    cz_groth16_proof *p = malloc(k * sizeof *p);
    if (!p) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    for (size_t i = 0; i < k; i++) {
        int which;
        cz_err e = decode_one(&p[i], buf + i * CZ_GROTH16_PROOF_BYTES, &which);
        if (e) {
            int inf = e == CZ_ERR_NOT_ON_CURVE; /* compressed decoding reports only infinity this way */
            free(p);
            return cz_fail(e, msg, msglen, "proof %zu, point %c: %s", i, "ABC"[which],
                                inf ? "point at infinity not allowed" : cz_strerror(e));
        }
    }
    *out = p;
    *n = k;
    return CZ_OK;
}

cz_err cz_proofs_read(cz_groth16_proof **out, size_t *n, const char *path, char *msg, size_t msglen)
{
    cz__mapped m;
    *out = NULL;
    *n = 0;
    cz_err e = cz__map_file(&m, path, msg, msglen);
    if (e) return e;
    char sub[256] = "";
    e = cz_proofs_decode(out, n, m.p, m.len, sub, sizeof sub);
    if (e) cz_fail(e, msg, msglen, "%s: %s", path, sub);
    if (!e && (e = cz__mapped_check(&m, msg, msglen))) { free(*out); *out = NULL; *n = 0; }
    cz__unmap_file(&m);
    return e;
}

cz_err cz_proofs_write(const char *path, const cz_groth16_proof *p, size_t n, char *msg, size_t msglen)
{
    if (n == 0) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "no proofs to write");
    cz__writer w;
    cz_err e = cz__writer_open(&w, path, msg, msglen);
    if (e) return e;
    for (size_t i = 0; i < n; i++) {
        uint8_t b[CZ_GROTH16_PROOF_BYTES];
        cz_proof_encode(b, &p[i]);
        cz__writer_put(&w, b, sizeof b);
    }
    return cz__writer_commit(&w, msg, msglen);
}
