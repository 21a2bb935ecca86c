/* outpath.c — the writability check of an output path (outpath.h). */
#include "util/outpath.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

cz_err cz_out_path_check(const char *path, char *msg, size_t msglen)
{
    if (!path || !*path) return cz_fail(CZ_ERR_INVALID_ARG, msg, msglen, "cannot write an empty path");
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return cz_fail(CZ_ERR_IO, msg, msglen, "cannot write %s: it is a folder", path);
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 1;
    char *dir = malloc(dl + 1);
    if (!dir) return cz_fail(CZ_ERR_NOMEM, msg, msglen, "out of memory");
    if (slash) memcpy(dir, path, dl);
    else dir[0] = '.';
    dir[dl] = 0;
    cz_err e = CZ_OK;
    if (stat(dir, &st) != 0)
        e = cz_fail(CZ_ERR_IO, msg, msglen, "cannot write %s: folder %s: %s", path, dir, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        e = cz_fail(CZ_ERR_IO, msg, msglen, "cannot write %s: %s is not a folder", path, dir);
    else if (access(dir, W_OK | X_OK) != 0)
        e = cz_fail(CZ_ERR_IO, msg, msglen, "cannot write %s: folder %s: %s", path, dir, strerror(errno));
    free(dir);
    return e;
}
