/* test_outpath.c — util/outpath: which output paths are writable (a file in
 * a writable folder, a bare name, an existing file) and which are refused
 * with a message naming the path (an empty path, a missing folder, a path
 * that is a folder, a folder that is a file, a folder without write
 * permission where the test is not run as root); nothing is created. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "util/outpath.h"

static char root[64];

static void ok(const char *path)
{
    char msg[600] = "";
    cz_err e = cz_out_path_check(path, msg, sizeof msg);
    CHECK_MSG(e == CZ_OK, "%s refused: %s", path, msg);
}

static void refused(const char *path, cz_err want, const char *say)
{
    char msg[600] = "";
    cz_err e = cz_out_path_check(path, msg, sizeof msg);
    CHECK_MSG(e == want, "%s: error %d, want %d (%s)", path, (int)e, (int)want, msg);
    CHECK_MSG(strstr(msg, "cannot write") != NULL, "%s: message does not say so: %s", path, msg);
    CHECK_MSG(strstr(msg, say) != NULL, "%s: message lacks '%s': %s", path, say, msg);
}

static void join(char *out, size_t len, const char *rel)
{
    snprintf(out, len, "%s/%s", root, rel);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/cz_outpath.XXXXXX");
    if (!mkdtemp(root)) {
        fprintf(stderr, "test_outpath: mkdtemp: %s\n", strerror(errno));
        return 1;
    }
    char p[256], q[256];
    join(p, sizeof p, "proof.bin");
    ok(p);
    struct stat st;
    CHECK_MSG(stat(p, &st) != 0 && errno == ENOENT, "the check created %s", p);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL);
    if (f) fclose(f);
    ok(p); /* an existing file is replaced */
    CHECK(chdir(root) == 0);
    ok("bare-name.json");
    ok("./x");

    refused("", CZ_ERR_INVALID_ARG, "empty");
    join(q, sizeof q, "missing/proof.bin");
    refused(q, CZ_ERR_IO, "missing");
    join(q, sizeof q, "missing/deeper/proof.bin");
    refused(q, CZ_ERR_IO, "No such file");
    refused(root, CZ_ERR_IO, "is a folder");
    join(q, sizeof q, "sub/");
    CHECK(mkdir(q, 0755) == 0);
    refused(q, CZ_ERR_IO, "is a folder");
    join(q, sizeof q, "proof.bin/x.json"); /* proof.bin is a file */
    refused(q, CZ_ERR_IO, "not a folder");
    join(q, sizeof q, "sub/missing/");
    refused(q, CZ_ERR_IO, "sub/missing");

    join(q, sizeof q, "ro");
    CHECK(mkdir(q, 0555) == 0);
    char r[300];
    snprintf(r, sizeof r, "%s/out.json", q);
    if (geteuid() != 0) refused(r, CZ_ERR_IO, "Permission denied");
    else printf("test_outpath: run as root, so the read-only folder case is not checked\n");

    /* nothing left behind but what the test made */
    join(q, sizeof q, "missing");
    CHECK_MSG(stat(q, &st) != 0, "a refused path created %s", q);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s' && rm -rf '%s'", root, root);
    if (system(cmd) != 0) fprintf(stderr, "test_outpath: could not remove %s\n", root);
    return cz_test_finish("test_outpath");
}
