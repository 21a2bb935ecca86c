/* test_mapguard.c — a file truncated while it is mapped (util/mapguard.h):
 * reads past the new end see zeros instead of killing the process, on the
 * calling thread and on pool workers; cz_mapguard_check reports the fault
 * or a change of size, and not a replacement by rename; a fault outside
 * every guarded mapping still kills (checked in a child). Then the real
 * users: a zkey, a .pkc parameter cache and a .pce each truncated between
 * loading and proving, and the prover refuses to return a proof. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "circuits/synth.h"
#include "formats/fio.h"
#include "formats/pkcache.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "groth16/groth16.h"
#include "r1cs/pce.h"
#include "util/mapguard.h"
#include "util/pool.h"

#define PAGES 16

static char dir[] = "/tmp/cuzk_mapguard_XXXXXX";
static size_t pg;

static void write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(p, 1, n, f) == n);
    fclose(f);
}

static uint8_t *map_pages(const char *path, int *fd_out)
{
    uint8_t *buf = malloc(PAGES * pg);
    memset(buf, 0xab, PAGES * pg);
    write_file(path, buf, PAGES * pg);
    free(buf);
    int fd = open(path, O_RDWR);
    CHECK(fd >= 0);
    uint8_t *m = mmap(NULL, PAGES * pg, PROT_READ, MAP_PRIVATE, fd, 0);
    CHECK(m != MAP_FAILED);
    *fd_out = fd;
    return m == MAP_FAILED ? NULL : m;
}

/* the pool's faults: mapping i is read by task i alone, its first page (the
 * file's bytes) and its second (past the end: a fault, then zeros). One
 * mapping a task, so that the zeros a fault maps are read by the thread
 * whose handler mapped them: the handler maps over the rest of the faulted
 * mapping, and a read of those pages from another thread is ordered by the
 * kernel, which ThreadSanitizer cannot see (it reported such a read as a
 * race with the handler's mmap, on some runs) */
#define NMAP 8
struct sweep { uint8_t *m[NMAP]; unsigned long bytes, zeros; };

static void sweep_task(void *ctx, size_t i)
{
    struct sweep *s = ctx;
    volatile uint8_t v0 = s->m[i][7], v1 = s->m[i][pg + 7];
    if (v0 == 0xab) __atomic_add_fetch(&s->bytes, 1, __ATOMIC_RELAXED);
    if (v1 == 0) __atomic_add_fetch(&s->zeros, 1, __ATOMIC_RELAXED);
}

static void test_util(void)
{
    char path[256], msg[512];
    int fd;

    /* a fault on this thread */
    snprintf(path, sizeof path, "%s/a.bin", dir);
    uint8_t *m = map_pages(path, &fd);
    if (!m) return;
    CHECK(cz_mapguard_add(m, PAGES * pg, fd, path) == 0);
    CHECK(cz_mapguard_check(m + 3, msg, sizeof msg) == CZ_OK);
    CHECK(m[10 * pg] == 0xab);
    unsigned long f0 = cz_mapguard_faults();
    CHECK(ftruncate(fd, 2 * pg) == 0);
    volatile uint8_t past = m[12 * pg + 5];
    CHECK(past == 0);
    CHECK(m[pg + 1] == 0xab); /* before the new end: the file's bytes */
    CHECK(cz_mapguard_faults() > f0);
    msg[0] = 0;
    CHECK(cz_mapguard_check(m + 5 * pg, msg, sizeof msg) == CZ_ERR_IO);
    CHECK_MSG(strstr(msg, path) && strstr(msg, "truncated"), "message: %s", msg);
    CHECK(cz_mapguard_check(&fd, msg, sizeof msg) == CZ_OK); /* not a guarded address */
    cz_mapguard_unmap(m, PAGES * pg);
    close(fd);
    CHECK(cz_mapguard_check(m, msg, sizeof msg) == CZ_OK); /* forgotten */

    /* faults on pool workers: NMAP files, each cut to one page */
    struct sweep s = {{NULL}, 0, 0};
    int fds[NMAP];
    for (int i = 0; i < NMAP; i++) {
        snprintf(path, sizeof path, "%s/b%d.bin", dir, i);
        s.m[i] = map_pages(path, &fds[i]);
        if (!s.m[i]) return;
        CHECK(cz_mapguard_add(s.m[i], PAGES * pg, fds[i], path) == 0);
        CHECK(ftruncate(fds[i], pg) == 0);
    }
    cz_pool *pool;
    CHECK(cz_pool_create(&pool, 4) == CZ_OK);
    f0 = cz_mapguard_faults();
    cz_pool_run(pool, NMAP, sweep_task, &s);
    CHECK_MSG(s.bytes == NMAP && s.zeros == NMAP, "%lu first pages read as the file's bytes, %lu second pages as "
              "zeros, want %d each", s.bytes, s.zeros, NMAP);
    CHECK(cz_mapguard_faults() >= f0 + NMAP);
    for (int i = 0; i < NMAP; i++) {
        CHECK(cz_mapguard_check(s.m[i], msg, sizeof msg) == CZ_ERR_IO);
        cz_mapguard_unmap(s.m[i], PAGES * pg);
        close(fds[i]);
    }
    cz_pool_destroy(pool);

    /* a file that grew: no fault, but its size changed */
    snprintf(path, sizeof path, "%s/c.bin", dir);
    m = map_pages(path, &fd);
    if (!m) return;
    CHECK(cz_mapguard_add(m, PAGES * pg, fd, path) == 0);
    CHECK(ftruncate(fd, (PAGES + 3) * pg) == 0);
    msg[0] = 0;
    CHECK(cz_mapguard_check(m, msg, sizeof msg) == CZ_ERR_IO);
    CHECK_MSG(strstr(msg, "changed size"), "message: %s", msg);
    cz_mapguard_unmap(m, PAGES * pg);
    close(fd);

    /* replaced by rename: the mapping keeps the old pages, which stay valid */
    snprintf(path, sizeof path, "%s/d.bin", dir);
    m = map_pages(path, &fd);
    if (!m) return;
    CHECK(cz_mapguard_add(m, PAGES * pg, fd, path) == 0);
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    write_file(tmp, "short", 5);
    CHECK(rename(tmp, path) == 0);
    CHECK(m[PAGES * pg - 1] == 0xab);
    CHECK(cz_mapguard_check(m, msg, sizeof msg) == CZ_OK);
    cz_mapguard_unmap(m, PAGES * pg);
    close(fd);

    /* the readers' own mappings (formats/fio.h) are guarded too */
    snprintf(path, sizeof path, "%s/f.bin", dir);
    {
        uint8_t *buf = calloc(PAGES, pg);
        write_file(path, buf, PAGES * pg);
        free(buf);
        cz__mapped fm;
        CHECK(cz__map_file(&fm, path, msg, sizeof msg) == CZ_OK);
        CHECK(cz__mapped_check(&fm, msg, sizeof msg) == CZ_OK);
        CHECK(truncate(path, pg) == 0);
        volatile uint8_t v = fm.p[9 * pg];
        CHECK(v == 0);
        msg[0] = 0;
        CHECK(cz__mapped_check(&fm, msg, sizeof msg) == CZ_ERR_IO);
        CHECK_MSG(strstr(msg, "truncated"), "message: %s", msg);
        cz__unmap_file(&fm);
    }

    /* outside every guarded mapping a SIGBUS still kills */
    pid_t pid = fork();
    if (pid == 0) {
        snprintf(path, sizeof path, "%s/e.bin", dir);
        uint8_t *u = map_pages(path, &fd);
        if (!u || ftruncate(fd, pg) != 0) _exit(3);
        volatile uint8_t v = u[8 * pg];
        (void)v;
        _exit(4);
    }
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid);
    CHECK_MSG(WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS, "child status %#x", st);
}

static char *data_path(const char *name)
{
    static char buf[4096];
    const char *f = __FILE__, *slash = strrchr(f, '/');
    snprintf(buf, sizeof buf, "%.*s/data/snarkjs/%s", slash ? (int)(slash - f) : 1, slash ? f : ".", name);
    return buf;
}

static void copy_file(const char *to, const char *from)
{
    FILE *f = fopen(from, "rb");
    CHECK(f != NULL);
    if (!f) return;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n);
    CHECK(fread(b, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    write_file(to, b, (size_t)n);
    free(b);
}

static void test_zkey(cz_pool *pool, cz_rng *rng)
{
    char path[256], msg[512];
    snprintf(path, sizeof path, "%s/chain.zkey", dir);
    copy_file(path, data_path("chain.zkey"));
    cz_fr *w = NULL;
    uint64_t nw = 0;
    CHECK_MSG(cz_wtns_read(&w, &nw, data_path("chain.wtns"), msg, sizeof msg) == CZ_OK, "%s", msg);
    cz_fr r, s;
    cz_fr_random(&r, rng);
    cz_fr_random(&s, rng);
    cz_groth16_proof pr;
    for (int trunc = 0; trunc < 2; trunc++) {
        cz_zkey zk;
        CHECK_MSG(cz_zkey_open(&zk, path, pool, msg, sizeof msg) == CZ_OK, "%s", msg);
        CHECK(zk.map != NULL);
        if (trunc) CHECK(truncate(path, 2048) == 0);
        msg[0] = 0;
        cz_err e = cz_groth16_prove_zkey(&pr, &zk.pk, w, &r, &s, pool, NULL, msg, sizeof msg);
        if (trunc) {
            CHECK_MSG(e == CZ_ERR_IO && strstr(msg, path), "truncated zkey: error %d, %s", e, msg);
        } else {
            CHECK_MSG(e == CZ_OK, "%s", msg);
        }
        cz_zkey_close(&zk);
    }
    free(w);
}

static void test_pkc_pce(cz_pool *pool, cz_rng *rng)
{
    char pce[256], pkc[256], msg[512];
    snprintf(pce, sizeof pce, "%s/c.pce", dir);
    snprintf(pkc, sizeof pkc, "%s/c.pkc", dir);
    cz_synth_params sp;
    cz_synth_params_init(&sp);
    sp.n_constraints = 1000;
    cz_r1cs cs;
    cz_fr *w;
    CHECK_MSG(cz_synth_generate(&cs, &w, &sp, msg, sizeof msg) == CZ_OK, "%s", msg);
    cz_groth16_pk pk;
    CHECK_MSG(cz_groth16_setup_insecure(&pk, &cs, 5, pool, msg, sizeof msg) == CZ_OK, "%s", msg);
    cz_fr r, s;
    cz_fr_random(&r, rng);
    cz_fr_random(&s, rng);
    cz_groth16_proof pr;
    /* which: 0 nothing truncated, 1 the parameter cache, 2 the PCE */
    for (int which = 0; which < 3; which++) {
        CHECK(cz_pce_write(pce, &cs, msg, sizeof msg) == CZ_OK);
        CHECK(cz_pkcache_write(pkc, &pk, 0, msg, sizeof msg) == CZ_OK);
        cz_r1cs mcs;
        cz_groth16_pk mpk;
        CHECK_MSG(cz_pce_open(&mcs, pce, 1, msg, sizeof msg) == CZ_OK, "%s", msg);
        CHECK_MSG(cz_pkcache_open(&mpk, NULL, pkc, 1, msg, sizeof msg) == CZ_OK, "%s", msg);
        CHECK(mcs.map != NULL && mpk.map != NULL);
        if (which == 1) CHECK(truncate(pkc, 4096) == 0);
        if (which == 2) CHECK(truncate(pce, 200) == 0);
        msg[0] = 0;
        cz_err e = cz_groth16_prove(&pr, &mpk, &mcs, w, &r, &s, pool, NULL, msg, sizeof msg);
        if (which) {
            const char *p = which == 1 ? pkc : pce;
            CHECK_MSG(e == CZ_ERR_IO && strstr(msg, p), "truncated %s: error %d, %s", p, e, msg);
        } else {
            CHECK_MSG(e == CZ_OK, "%s", msg);
        }
        cz_groth16_pk_free(&mpk);
        cz_pce_close(&mcs);
    }
    cz_groth16_pk_free(&pk);
    cz_r1cs_free(&cs);
    free(w);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("test_mapguard", 3));
    pg = (size_t)sysconf(_SC_PAGESIZE);
    CHECK(mkdtemp(dir) != NULL);
    test_util();
    cz_pool *pool;
    CHECK(cz_pool_create(&pool, 2) == CZ_OK);
    test_zkey(pool, &rng);
    test_pkc_pce(pool, &rng);
    cz_pool_destroy(pool);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return cz_test_finish("test_mapguard");
}
