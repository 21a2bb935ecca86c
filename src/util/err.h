/* err.h — error codes shared by every layer.
 *
 * Functions that can fail return cz_err (0 = CZ_OK). Each distinct failure a
 * caller may want to tell apart has its own code; cz_strerror gives a short
 * human-readable text for any code. */
#ifndef CZ_UTIL_ERR_H
#define CZ_UTIL_ERR_H

#include <stddef.h>

typedef int cz_err;

enum {
    CZ_OK = 0,
    CZ_ERR_INVALID_ARG,      /* a caller passed something meaningless */
    CZ_ERR_LENGTH,           /* input has the wrong length */
    CZ_ERR_NONCANONICAL,     /* a field element is >= the modulus */
    CZ_ERR_FLAGS,            /* point encoding: bad flag bits */
    CZ_ERR_NOT_ON_CURVE,     /* point encoding: coordinates not on the curve */
    CZ_ERR_NOT_IN_SUBGROUP,  /* point on the curve but outside the r-torsion */
    CZ_ERR_NO_SQRT,          /* compressed x has no matching y */
    CZ_ERR_PARSE,            /* malformed text / JSON */
    CZ_ERR_IO,               /* file could not be read or written */
    CZ_ERR_NOMEM,            /* allocation failed */
    CZ_ERR_UNSUPPORTED,      /* valid input that this build cannot handle */
    CZ_ERR_DEVICE,           /* a GPU call failed (no device, CUDA error) */
    CZ_ERR__COUNT
};

const char *cz_strerror(cz_err e);

/* Writes a printf-style message into msg (when msg is non-NULL and msglen > 0)
 * and returns e, so failures read `return cz_fail(CZ_ERR_IO, msg, len, ...)`. */
cz_err cz_fail(cz_err e, char *msg, size_t msglen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
