/* err.c — text for each cz_err code, and formatted failure messages. */
#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>

cz_err cz_fail(cz_err e, char *msg, size_t msglen, const char *fmt, ...)
{
    if (msg && msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msglen, fmt, ap);
        va_end(ap);
    }
    return e;
}

const char *cz_strerror(cz_err e)
{
    switch (e) {
    case CZ_OK: return "ok";
    case CZ_ERR_INVALID_ARG: return "invalid argument";
    case CZ_ERR_LENGTH: return "wrong length";
    case CZ_ERR_NONCANONICAL: return "field element not canonical (>= modulus)";
    case CZ_ERR_FLAGS: return "bad flag bits in point encoding";
    case CZ_ERR_NOT_ON_CURVE: return "point not on curve";
    case CZ_ERR_NOT_IN_SUBGROUP: return "point not in prime-order subgroup";
    case CZ_ERR_NO_SQRT: return "no point with this x coordinate";
    case CZ_ERR_PARSE: return "parse error";
    case CZ_ERR_IO: return "I/O error";
    case CZ_ERR_NOMEM: return "out of memory";
    case CZ_ERR_UNSUPPORTED: return "unsupported";
    case CZ_ERR_DEVICE: return "GPU error";
    default: return "unknown error";
    }
}
