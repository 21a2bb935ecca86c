/* public_json.h — public.json: a circuit's public inputs (without the leading
 * ONE) as a JSON array of decimal strings, e.g. ["12", "0", "5234..."].
 *
 * The writer emits one line, ["a","b",...] and a newline, via PATH.tmp and a
 * rename. The reader accepts exactly that shape: JSON whitespace between
 * tokens, then an array (possibly empty) of strings whose contents are
 * decimal integers below r with no sign and no leading zeros (cz_fr_from_decimal);
 * no escapes, nothing after the closing bracket but whitespace. Anything
 * else is refused with CZ_ERR_PARSE (CZ_ERR_NONCANONICAL for a value >= r)
 * and a message that names the element and the byte offset. */
#ifndef CZ_FORMATS_PUBLIC_JSON_H
#define CZ_FORMATS_PUBLIC_JSON_H

#include <stddef.h>
#include "ff/ff.h"

/* largest public.json the reader takes */
#define CZ_PUBLIC_JSON_MAX_BYTES ((size_t)64 << 20)

cz_err cz_public_json_write(const char *path, const cz_fr *inputs, size_t n, char *msg, size_t msglen);
/* *out: a new heap array of *n elements (Montgomery form; NULL when empty),
 * freed by the caller */
cz_err cz_public_json_parse(cz_fr **out, size_t *n, const char *text, size_t len, char *msg, size_t msglen);
cz_err cz_public_json_read(cz_fr **out, size_t *n, const char *path, char *msg, size_t msglen);

#endif
