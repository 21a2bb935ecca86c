/* mapguard.c — the registry of guarded file mappings and the SIGBUS handler
 * (see mapguard.h).
 *
 * DESIGN. Threads: any thread registers, removes or checks; the handler runs
 * on whichever thread faulted. State: slots[] (lo, hi, faulted are atomics,
 * the only fields the handler reads or writes); the rest of a slot (path,
 * identity, size) is read and written under `lock` alone. One lock, never
 * held while calling out. A slot is published by writing hi, then lo; it is
 * retired by clearing lo first, so the handler never sees a half-written
 * range. */
#include "util/mapguard.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    _Atomic uintptr_t lo, hi; /* [lo, hi), whole pages; lo == 0: free */
    _Atomic int faulted;
    char *path;
    dev_t dev;
    ino_t ino;
    off_t size;
} slot;

static slot slots[CZ_MAPGUARD_SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct sigaction prev;
static uintptr_t page = 4096;
static _Atomic unsigned long n_faults;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
    uintptr_t a = (uintptr_t)si->si_addr;
    for (int i = 0; i < CZ_MAPGUARD_SLOTS; i++) {
        uintptr_t lo = atomic_load(&slots[i].lo), hi = atomic_load(&slots[i].hi);
        if (lo == 0 || a < lo || a >= hi) continue;
        uintptr_t from = a & ~(page - 1);
        /* every page from the faulting one on lies past the file's new end */
        void *r = mmap((void *)from, hi - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (r == MAP_FAILED) break;
        atomic_store(&slots[i].faulted, 1);
        atomic_fetch_add(&n_faults, 1);
        return; /* the read is retried and now sees zeros */
    }
    /* not ours: whatever was there before */
    if ((prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction) {
        prev.sa_sigaction(sig, si, uc);
    } else if (prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN && prev.sa_handler) {
        prev.sa_handler(sig);
    } else {
        /* the default action: returning re-raises the fault, which now kills */
        signal(SIGBUS, SIG_DFL);
    }
}

static void install(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    if (pg > 0) page = (uintptr_t)pg;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, &prev);
}

int cz_mapguard_add(const void *addr, size_t len, int fd, const char *path)
{
    if (!addr || len == 0) return -1;
    pthread_once(&once, install);
    struct stat st;
    if (fstat(fd, &st) != 0) memset(&st, 0, sizeof st);
    char *p = strdup(path ? path : "(unnamed file)");
    if (!p) return -1;
    int got = -1;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < CZ_MAPGUARD_SLOTS; i++) {
        if (atomic_load(&slots[i].lo) != 0 || slots[i].path) continue;
        slot *s = &slots[i];
        s->path = p;
        s->dev = st.st_dev;
        s->ino = st.st_ino;
        s->size = st.st_size;
        atomic_store(&s->faulted, 0);
        atomic_store(&s->hi, ((uintptr_t)addr + len + page - 1) & ~(page - 1));
        atomic_store(&s->lo, (uintptr_t)addr);
        got = i;
        break;
    }
    pthread_mutex_unlock(&lock);
    if (got < 0) free(p);
    return got < 0 ? -1 : 0;
}

void cz_mapguard_remove(const void *addr)
{
    if (!addr) return;
    char *p = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < CZ_MAPGUARD_SLOTS; i++) {
        if (atomic_load(&slots[i].lo) != (uintptr_t)addr) continue;
        atomic_store(&slots[i].lo, 0);
        atomic_store(&slots[i].hi, 0);
        p = slots[i].path;
        slots[i].path = NULL;
        break;
    }
    pthread_mutex_unlock(&lock);
    free(p);
}

void cz_mapguard_unmap(void *addr, size_t len)
{
    if (!addr) return;
    cz_mapguard_remove(addr);
    munmap(addr, len);
}

cz_err cz_mapguard_check(const void *p, char *msg, size_t msglen)
{
    uintptr_t a = (uintptr_t)p;
    if (!p) return CZ_OK;
    int found = 0, faulted = 0;
    char path[4096];
    dev_t dev = 0;
    ino_t ino = 0;
    off_t size = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < CZ_MAPGUARD_SLOTS; i++) {
        uintptr_t lo = atomic_load(&slots[i].lo), hi = atomic_load(&slots[i].hi);
        if (lo == 0 || a < lo || a >= hi) continue;
        found = 1;
        faulted = atomic_load(&slots[i].faulted);
        snprintf(path, sizeof path, "%s", slots[i].path);
        dev = slots[i].dev;
        ino = slots[i].ino;
        size = slots[i].size;
        break;
    }
    pthread_mutex_unlock(&lock);
    if (!found) return CZ_OK;
    if (faulted)
        return cz_fail(CZ_ERR_IO, msg, msglen,
                       "%s was truncated while in use (reads past its new end); the result is discarded, "
                       "load the file again", path);
    struct stat st;
    if (stat(path, &st) == 0 && st.st_dev == dev && st.st_ino == ino && st.st_size != size)
        return cz_fail(CZ_ERR_IO, msg, msglen,
                       "%s changed size while in use (%lld bytes when loaded, %lld now); the result is discarded, "
                       "load the file again", path, (long long)size, (long long)st.st_size);
    return CZ_OK;
}

unsigned long cz_mapguard_faults(void)
{
    return atomic_load(&n_faults);
}
