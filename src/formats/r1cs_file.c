/* r1cs_file.c — the .r1cs reader (see r1cs_file.h): one bounds-checked walk
 * over the constraints section feeding the shared r1cs builder. Counts are
 * bounded by the bytes behind them before they are used: nWires by the
 * wire-to-label section (8 bytes a wire), nConstraints by the constraints
 * section (12 bytes a constraint at least), each term count by what is left. */
#include "formats/r1cs_file.h"

#include <string.h>

#include "formats/fio.h"
#include "formats/iden3bin.h"

#define fail cz_fail

cz_err cz_r1cs_file_parse(cz_r1cs *out, cz_r1cs_file_info *info, const uint8_t *buf, size_t len, char *msg,
                          size_t msglen)
{
    memset(out, 0, sizeof *out);
    cz__binfile bf;
    cz_err e = cz__binfile_parse(&bf, buf, len, "r1cs", 1, "r1cs", msg, msglen);
    if (e) return e;
    cz_r1cs_builder *b = NULL;
    const uint8_t *h, *c;
    uint64_t hs, cs;
    if ((e = cz__binfile_section(&bf, 1, &h, &hs, "r1cs", msg, msglen))) goto out;
    if (hs < 4 || hs - 4 < cz__get_le32(h) || hs - 4 - cz__get_le32(h) != 28) {
        e = fail(hs < 32 ? CZ_ERR_LENGTH : CZ_ERR_PARSE, msg, msglen,
                 "r1cs section 1 (header): %llu bytes do not fit n8 = %u", (unsigned long long)hs,
                 hs >= 4 ? cz__get_le32(h) : 0);
        goto out;
    }
    uint32_t n8 = cz__get_le32(h);
    if ((e = cz__iden3_check_prime(h + 4, n8, CZ__PRIME_R, "r1cs", msg, msglen))) goto out;
    if (cz__binfile_has(&bf, 4) || cz__binfile_has(&bf, 5)) {
        e = fail(CZ_ERR_UNSUPPORTED, msg, msglen, "r1cs uses custom gates (PLONK only); Groth16 cannot prove it");
        goto out;
    }
    const uint8_t *q = h + 4 + n8;
    cz_r1cs_file_info fi = {cz__get_le32(q), cz__get_le32(q + 4), cz__get_le32(q + 8), cz__get_le32(q + 12),
                            cz__get_le64(q + 16), cz__get_le32(q + 24)};
    uint64_t n_in = 1 + fi.n_outputs + fi.n_pub_inputs;
    if (fi.n_wires == 0 || n_in + fi.n_prv_inputs > fi.n_wires) {
        e = fail(CZ_ERR_PARSE, msg, msglen, "r1cs header: %llu wires cannot hold ONE, %llu outputs and %llu + %llu inputs",
                 (unsigned long long)fi.n_wires, (unsigned long long)fi.n_outputs,
                 (unsigned long long)fi.n_pub_inputs, (unsigned long long)fi.n_prv_inputs);
        goto out;
    }
    /* every wire has its 8-byte label id in section 3: that bounds nWires */
    const uint8_t *lab;
    uint64_t ls;
    if ((e = cz__binfile_section(&bf, 3, &lab, &ls, "r1cs", msg, msglen))) goto out;
    if (ls != fi.n_wires * 8) {
        e = fail(ls < fi.n_wires * 8 ? CZ_ERR_LENGTH : CZ_ERR_PARSE, msg, msglen,
                 "r1cs: header says %llu wires but the wire-to-label section holds %llu (8 bytes each)%s",
                 (unsigned long long)fi.n_wires, (unsigned long long)(ls / 8),
                 ls % 8 ? ", plus a partial entry" : "");
        goto out;
    }
    /* a constraint is three linear combinations of at least a 4-byte term count */
    if ((e = cz__binfile_section(&bf, 2, &c, &cs, "r1cs", msg, msglen))) goto out;
    if (fi.n_constraints > cs / 12) {
        e = fail(CZ_ERR_LENGTH, msg, msglen,
                 "r1cs: header says %llu constraints but the constraints section (%llu bytes) holds at most %llu "
                 "(12 bytes each at least)",
                 (unsigned long long)fi.n_constraints, (unsigned long long)cs, (unsigned long long)(cs / 12));
        goto out;
    }
    if ((e = cz_r1cs_builder_new(&b, n_in, fi.n_wires - n_in))) {
        fail(e, msg, msglen, "r1cs: cannot start the constraint builder");
        goto out;
    }
    uint64_t at = 0;
    for (uint64_t k = 0; k < fi.n_constraints; k++) {
        for (int m = 0; m < 3; m++) {
            if (cs - at < 4) {
                e = fail(CZ_ERR_LENGTH, msg, msglen,
                         "r1cs constraint %llu, %c: the constraints section ends before its term count (%llu of "
                         "%llu constraints read)",
                         (unsigned long long)k, "ABC"[m], (unsigned long long)k, (unsigned long long)fi.n_constraints);
                goto out;
            }
            uint64_t nt = cz__get_le32(c + at);
            at += 4;
            if (nt > (cs - at) / (4 + (uint64_t)n8)) {
                e = fail(CZ_ERR_LENGTH, msg, msglen,
                         "r1cs constraint %llu, %c: %llu terms but the constraints section has %llu bytes left, "
                         "room for %llu (%u bytes each)",
                         (unsigned long long)k, "ABC"[m], (unsigned long long)nt, (unsigned long long)(cs - at),
                         (unsigned long long)((cs - at) / (4 + (uint64_t)n8)), 4 + n8);
                goto out;
            }
            for (uint64_t t = 0; t < nt; t++, at += 4 + n8) {
                uint32_t wire = cz__get_le32(c + at);
                cz_fr v;
                if (wire >= fi.n_wires) {
                    e = fail(CZ_ERR_PARSE, msg, msglen, "r1cs constraint %llu, %c term %llu: wire %u >= %llu wires",
                             (unsigned long long)k, "ABC"[m], (unsigned long long)t, wire,
                             (unsigned long long)fi.n_wires);
                    goto out;
                }
                if (cz_fr_from_bytes_le(&v, c + at + 4)) {
                    e = fail(CZ_ERR_NONCANONICAL, msg, msglen, "r1cs constraint %llu, %c term %llu: value not below r",
                             (unsigned long long)k, "ABC"[m], (unsigned long long)t);
                    goto out;
                }
                if ((e = cz_r1cs_builder_term(b, m, wire, &v))) { fail(e, msg, msglen, "r1cs: out of memory"); goto out; }
            }
        }
        if ((e = cz_r1cs_builder_end_constraint(b))) { fail(e, msg, msglen, "r1cs: out of memory"); goto out; }
    }
    if (at != cs) {
        e = fail(CZ_ERR_PARSE, msg, msglen, "r1cs section 2: %llu bytes after the last of %llu constraints",
                 (unsigned long long)(cs - at), (unsigned long long)fi.n_constraints);
        goto out;
    }
    e = cz_r1cs_builder_finish(b, out);
    b = NULL;
    if (e) { fail(e, msg, msglen, "r1cs: out of memory"); goto out; }
    if (info) *info = fi;
out:
    if (b) cz_r1cs_builder_free(b);
    cz__binfile_free(&bf);
    return e;
}

cz_err cz_r1cs_file_read(cz_r1cs *out, cz_r1cs_file_info *info, const char *path, char *msg, size_t msglen)
{
    memset(out, 0, sizeof *out);
    cz__mapped m;
    cz_err e = cz__map_file(&m, path, msg, msglen);
    if (e) return e;
    char why[300];
    e = cz_r1cs_file_parse(out, info, m.p, m.len, why, sizeof why);
    if (e) fail(e, msg, msglen, "%s: %s", path, why);
    if (!e && (e = cz__mapped_check(&m, msg, msglen))) cz_r1cs_free(out);
    cz__unmap_file(&m);
    return e;
}
