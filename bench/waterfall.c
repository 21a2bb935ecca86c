/* waterfall.c — `cuzk-bench waterfall LOG [--svg OUT.svg] [--json OUT.json]`.
 *
 * Reads the TIMELINE lines of a daemon log,
 *     TIMELINE,<ms since engine start>,<EVENT>,<job_id>,<k=v,k=v...>
 * (found anywhere in a line, so a journald or tee prefix is fine; every other
 * line is ignored), sorts the events by time (ties keep log order), and folds
 * them into one record per attempt of a partition, keyed (job_id, partition):
 * an event that the latest record of its key already has starts a new
 * attempt. A line without a partition (the reference's whole-proof mode) is
 * partition -1. Events: SYNTH_START, SYNTH_END (synth_ms), GPU_QUEUE,
 * GPU_PICKUP, GPU_START (worker, device), GPU_END (worker, device, gpu_ms,
 * and any further numeric <name>_ms=value pairs, reported as stages
 * "gpu.<name>_ms"; flags such as cpu=1 or error=1 are not stages). worker=
 * and device= (the slot of the GPU among those the daemon drives; older logs
 * have none) are non-negative integers; a partition's worker and device are
 * those of its GPU_START, else the first line of it that names one. Other
 * event names (the reference's CHAN_SEND) are counted and skipped. A TIMELINE line
 * that cannot be read (fields missing, a time or number that is not one, an
 * event without a key it needs) is counted as malformed, reported with its
 * line number, and skipped; it never stops the run.
 *
 * Definitions, so the numbers can be checked by hand:
 *   synthesis  = SYNTH_END - SYNTH_START (synth_ms when a start is missing)
 *   queue wait = GPU_PICKUP - GPU_QUEUE  (GPU_START when there is no pickup)
 *   gpu prep   = GPU_START - GPU_PICKUP
 *   gpu        = GPU_END - GPU_START     (gpu_ms when a start is missing)
 *   pN         = nearest rank: the ceil(N/100 * n)-th smallest value
 *   busy window = first GPU_START .. last GPU_END; a worker's busy time is the
 *     union of its [GPU_START, GPU_END] intervals, the overall busy time the
 *     union over all workers; busy % = busy time / window length
 *   per device (only for the devices some line names with device=): its
 *     partitions are those with a GPU bar (a GPU_END, and a GPU_START or
 *     gpu_ms) whose device it is, its workers the distinct workers of those,
 *     its busy time the union of their [GPU_START, GPU_END] intervals, and
 *     its busy % that over the same window; a partition without device= is
 *     in no device's numbers
 *   idle gaps  = the holes between merged busy intervals inside the window
 *   queue depth = the number of partitions between their GPU_QUEUE and their
 *     GPU_PICKUP (or GPU_START), as half-open intervals [queue, pickup), so
 *     a hand-off at one instant is not a peak and a partition picked up at
 *     once never counts; max, and the mean weighted by time over the log's
 *     span (first to last event)
 *   throughput = finished proofs (jobs whose every partition seen has a
 *     GPU_END) and partitions, per minute of the span from the first event
 *     to the last GPU_END.
 *
 * The SVG has one row per GPU worker (labelled with its device when known)
 * and per synthesis slot (synthesis bars are given to slots greedily: the
 * lowest slot free at the bar's start), one bar per partition coloured by
 * job, a time axis and a legend. */
#include "waterfall.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

enum { E_SYNTH_START, E_SYNTH_END, E_GPU_QUEUE, E_GPU_PICKUP, E_GPU_START, E_GPU_END, E_COUNT };
static const char *event_names[E_COUNT] = {"SYNTH_START", "SYNTH_END", "GPU_QUEUE",
                                           "GPU_PICKUP",  "GPU_START", "GPU_END"};

#define MAX_EXTRA 16     /* extra stage values kept per GPU_END */
#define MAX_STAGES 32    /* distinct extra stage names */
#define MAX_REPORTED 10  /* malformed lines shown */

typedef struct {
    double t;
    long line;
    int ev, job, part, worker, device; /* worker, device -1 when absent */
    double val;                        /* synth_ms / gpu_ms, NAN when absent */
    int nextra;
    int xstage[MAX_EXTRA];
    double xval[MAX_EXTRA];
} event;

typedef struct {
    int job, part, worker, device;
    double t[E_COUNT]; /* NAN when absent */
    double synth_ms, gpu_ms;
    int nextra;
    int xstage[MAX_EXTRA];
    double xval[MAX_EXTRA];
    int slot;
} record;

typedef struct {
    double *v;
    size_t n, cap;
} series;

typedef struct {
    double a, b;
} span;

typedef struct {
    /* input */
    event *ev;
    size_t nev, capev;
    char **jobs;
    size_t njobs, capjobs;
    size_t *jobhash; /* open addressing, index+1 */
    size_t jobhash_cap;
    char *stage_names[MAX_STAGES];
    int nstages;
    long lines, timeline_lines, malformed, unknown;
    char reported[MAX_REPORTED][160];
    int nreported;
    /* folded */
    record *rec;
    size_t nrec, caprec;
} wf;

/* ---- small helpers ---- */

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t nc = *cap ? *cap : 64;
    while (nc < need)
        nc *= 2;
    void *np = realloc(p, nc * elem);
    if (!np) {
        fprintf(stderr, "cuzk-bench waterfall: out of memory\n");
        exit(1);
    }
    *cap = nc;
    return np;
}

static void series_add(series *s, double v)
{
    s->v = grow(s->v, &s->cap, s->n + 1, sizeof *s->v);
    s->v[s->n++] = v;
}

/* qsort that accepts an empty (possibly NULL) array */
static void sort_n(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(base, n, size, cmp);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* nearest-rank percentile of a sorted series */
static double pct(const series *s, double p)
{
    if (!s->n)
        return NAN;
    size_t rank = (size_t)ceil(p / 100.0 * (double)s->n);
    if (rank < 1)
        rank = 1;
    if (rank > s->n)
        rank = s->n;
    return s->v[rank - 1];
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int intern_job(wf *w, const char *s, size_t n)
{
    char *k = malloc(n + 1);
    if (!k) {
        fprintf(stderr, "cuzk-bench waterfall: out of memory\n");
        exit(1);
    }
    memcpy(k, s, n);
    k[n] = 0;
    if (w->njobs * 2 + 2 > w->jobhash_cap) {
        size_t nc = w->jobhash_cap ? w->jobhash_cap * 2 : 256;
        size_t *nh = calloc(nc, sizeof *nh);
        if (!nh)
            exit(1);
        for (size_t i = 0; i < w->njobs; i++) {
            size_t h = (size_t)hash_str(w->jobs[i]) & (nc - 1);
            while (nh[h])
                h = (h + 1) & (nc - 1);
            nh[h] = i + 1;
        }
        free(w->jobhash);
        w->jobhash = nh;
        w->jobhash_cap = nc;
    }
    size_t h = (size_t)hash_str(k) & (w->jobhash_cap - 1);
    while (w->jobhash[h]) {
        if (strcmp(w->jobs[w->jobhash[h] - 1], k) == 0) {
            free(k);
            return (int)(w->jobhash[h] - 1);
        }
        h = (h + 1) & (w->jobhash_cap - 1);
    }
    w->jobs = grow(w->jobs, &w->capjobs, w->njobs + 1, sizeof *w->jobs);
    w->jobs[w->njobs] = k;
    w->jobhash[h] = w->njobs + 1;
    return (int)w->njobs++;
}

static int stage_index(wf *w, const char *s, size_t n)
{
    for (int i = 0; i < w->nstages; i++)
        if (strlen(w->stage_names[i]) == n && memcmp(w->stage_names[i], s, n) == 0)
            return i;
    if (w->nstages == MAX_STAGES)
        return -1;
    char *k = malloc(n + 1);
    if (!k)
        exit(1);
    memcpy(k, s, n);
    k[n] = 0;
    w->stage_names[w->nstages] = k;
    return w->nstages++;
}

static void malformed(wf *w, const char *why)
{
    w->malformed++;
    if (w->nreported < MAX_REPORTED)
        snprintf(w->reported[w->nreported++], sizeof w->reported[0], "line %ld: %s", w->lines,
                 why);
}

/* a plain non-negative decimal number, optionally with a fraction */
static int parse_num(const char *s, size_t n, double *out)
{
    if (!n || n > 40)
        return -1;
    char buf[48];
    int dot = 0, digits = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9')
            digits++;
        else if (s[i] == '.' && !dot && i > 0 && i + 1 < n)
            dot = 1;
        else
            return -1;
    }
    if (!digits)
        return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    *out = strtod(buf, NULL);
    return 0;
}

static int parse_int(const char *s, size_t n, int *out)
{
    if (!n || n > 9)
        return -1;
    int x = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        x = x * 10 + (s[i] - '0');
    }
    *out = x;
    return 0;
}

/* ---- reading ---- */

static void parse_line(wf *w, const char *line, size_t len)
{
    const char *p = NULL;
    for (size_t i = 0; i + 9 <= len; i++)
        if (memcmp(line + i, "TIMELINE,", 9) == 0) {
            p = line + i + 9;
            break;
        }
    if (!p)
        return;
    w->timeline_lines++;
    const char *end = line + len;
    while (end > p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    /* ms, event, job, detail (the detail keeps its commas) */
    const char *f[4];
    size_t fl[4];
    const char *q = p;
    for (int k = 0; k < 3; k++) {
        const char *c = memchr(q, ',', (size_t)(end - q));
        if (!c) {
            malformed(w, "fewer than 4 fields after TIMELINE");
            return;
        }
        f[k] = q;
        fl[k] = (size_t)(c - q);
        q = c + 1;
    }
    f[3] = q;
    fl[3] = (size_t)(end - q);

    event e;
    memset(&e, 0, sizeof e);
    e.line = w->lines;
    e.part = -1;
    e.worker = -1;
    e.device = -1;
    e.val = NAN;
    if (parse_num(f[0], fl[0], &e.t)) {
        malformed(w, "the time is not a number of milliseconds");
        return;
    }
    e.ev = -1;
    for (int k = 0; k < E_COUNT; k++)
        if (strlen(event_names[k]) == fl[1] && memcmp(event_names[k], f[1], fl[1]) == 0)
            e.ev = k;
    if (e.ev < 0) {
        int plain = fl[1] > 0;
        for (size_t i = 0; i < fl[1]; i++)
            plain &= (f[1][i] >= 'A' && f[1][i] <= 'Z') || f[1][i] == '_';
        if (plain)
            w->unknown++;
        else
            malformed(w, "the event name is not one");
        return;
    }
    if (fl[2] == 0) {
        malformed(w, "empty job id");
        return;
    }
    /* detail: k=v pairs; a bare word (the reference's "monolithic") is skipped */
    int have_worker = 0;
    const char *d = f[3], *dend = f[3] + fl[3];
    while (d < dend) {
        const char *c = memchr(d, ',', (size_t)(dend - d));
        const char *pe = c ? c : dend;
        const char *eq = memchr(d, '=', (size_t)(pe - d));
        if (eq) {
            const char *k = d, *v = eq + 1;
            size_t kl = (size_t)(eq - d), vl = (size_t)(pe - v);
            if (kl == 9 && memcmp(k, "partition", 9) == 0) {
                if (parse_int(v, vl, &e.part)) {
                    malformed(w, "partition is not a non-negative integer");
                    return;
                }
            } else if (kl == 6 && memcmp(k, "worker", 6) == 0) {
                if (parse_int(v, vl, &e.worker)) {
                    malformed(w, "worker is not a non-negative integer");
                    return;
                }
                have_worker = 1;
            } else if (kl == 6 && memcmp(k, "device", 6) == 0) {
                if (parse_int(v, vl, &e.device)) {
                    malformed(w, "device is not a non-negative integer");
                    return;
                }
            } else if ((kl == 8 && memcmp(k, "synth_ms", 8) == 0 && e.ev == E_SYNTH_END) ||
                       (kl == 6 && memcmp(k, "gpu_ms", 6) == 0 && e.ev == E_GPU_END)) {
                if (parse_num(v, vl, &e.val)) {
                    malformed(w, "synth_ms/gpu_ms is not a number");
                    return;
                }
            } else if (e.ev == E_GPU_END && e.nextra < MAX_EXTRA && kl > 3 && memcmp(k + kl - 3, "_ms", 3) == 0) {
                double x;
                if (parse_num(v, vl, &x) == 0) {
                    int s = stage_index(w, k, kl);
                    if (s >= 0) {
                        e.xstage[e.nextra] = s;
                        e.xval[e.nextra++] = x;
                    }
                }
            }
        } else if (pe > d && e.ev != E_GPU_QUEUE && e.ev != E_SYNTH_START) {
            malformed(w, "a detail field is not key=value");
            return;
        }
        d = c ? c + 1 : dend;
    }
    if ((e.ev == E_GPU_PICKUP || e.ev == E_GPU_START) && !have_worker) {
        malformed(w, "GPU_PICKUP/GPU_START without worker=");
        return;
    }
    e.job = intern_job(w, f[2], fl[2]);
    w->ev = grow(w->ev, &w->capev, w->nev + 1, sizeof *w->ev);
    w->ev[w->nev++] = e;
}

static int read_log(wf *w, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cuzk-bench waterfall: cannot open %s: %m\n", path);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) >= 0) {
        w->lines++;
        parse_line(w, line, (size_t)n);
    }
    free(line);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "cuzk-bench waterfall: read error on %s\n", path);
        return -1;
    }
    return 0;
}

/* ---- folding events into records ---- */

static int cmp_event(const void *a, const void *b)
{
    const event *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

static void fold(wf *w)
{
    sort_n(w->ev, w->nev, sizeof *w->ev, cmp_event);
    /* latest record per (job, part): a hash from key to record index + 1 */
    size_t hcap = 256;
    while (hcap < w->nev * 2 + 2)
        hcap *= 2;
    size_t *h = calloc(hcap, sizeof *h);
    if (!h)
        exit(1);
    for (size_t i = 0; i < w->nev; i++) {
        const event *e = &w->ev[i];
        uint64_t key = ((uint64_t)(uint32_t)e->job << 32) | (uint32_t)(e->part + 1);
        size_t slot = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (hcap - 1);
        while (h[slot]) {
            const record *r = &w->rec[h[slot] - 1];
            if (r->job == e->job && r->part == e->part)
                break;
            slot = (slot + 1) & (hcap - 1);
        }
        record *r = h[slot] ? &w->rec[h[slot] - 1] : NULL;
        if (!r || !isnan(r->t[e->ev])) {
            w->rec = grow(w->rec, &w->caprec, w->nrec + 1, sizeof *w->rec);
            r = &w->rec[w->nrec++];
            memset(r, 0, sizeof *r);
            r->job = e->job;
            r->part = e->part;
            r->worker = -1;
            r->device = -1;
            r->slot = -1;
            for (int k = 0; k < E_COUNT; k++)
                r->t[k] = NAN;
            r->synth_ms = r->gpu_ms = NAN;
            h[slot] = w->nrec;
        }
        r->t[e->ev] = e->t;
        if (e->worker >= 0 && (e->ev == E_GPU_START || r->worker < 0))
            r->worker = e->worker;
        if (e->device >= 0 && (e->ev == E_GPU_START || r->device < 0))
            r->device = e->device;
        if (e->ev == E_SYNTH_END)
            r->synth_ms = e->val;
        if (e->ev == E_GPU_END) {
            r->gpu_ms = e->val;
            r->nextra = e->nextra;
            memcpy(r->xstage, e->xstage, sizeof r->xstage);
            memcpy(r->xval, e->xval, sizeof r->xval);
        }
    }
    free(h);
}

/* a record's bars: NAN when the stage is unknown */
static int gpu_bar(const record *r, double *a, double *b)
{
    if (isnan(r->t[E_GPU_END]))
        return 0;
    *b = r->t[E_GPU_END];
    if (!isnan(r->t[E_GPU_START]))
        *a = r->t[E_GPU_START];
    else if (!isnan(r->gpu_ms))
        *a = *b - r->gpu_ms;
    else
        return 0;
    return 1;
}

static int synth_bar(const record *r, double *a, double *b)
{
    if (isnan(r->t[E_SYNTH_END]))
        return 0;
    *b = r->t[E_SYNTH_END];
    if (!isnan(r->t[E_SYNTH_START]))
        *a = r->t[E_SYNTH_START];
    else if (!isnan(r->synth_ms))
        *a = *b - r->synth_ms;
    else
        return 0;
    return 1;
}

/* ---- interval unions ---- */

static int cmp_span(const void *a, const void *b)
{
    const span *x = a, *y = b;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    return (x->b > y->b) - (x->b < y->b);
}

typedef struct {
    double busy;
    long gaps;
    double gap_total, gap_max;
} busy_stats;

/* sorts and merges s in place (n becomes the merged count); the busy time
 * and the holes between merged intervals */
static busy_stats merge(span *s, size_t *n)
{
    busy_stats st = {0, 0, 0, 0};
    sort_n(s, *n, sizeof *s, cmp_span);
    size_t m = 0;
    for (size_t i = 0; i < *n; i++) {
        if (m && s[i].a <= s[m - 1].b) {
            if (s[i].b > s[m - 1].b)
                s[m - 1].b = s[i].b;
        } else {
            s[m++] = s[i];
        }
    }
    *n = m;
    for (size_t i = 0; i < m; i++) {
        st.busy += s[i].b - s[i].a;
        if (i) {
            double g = s[i].a - s[i - 1].b;
            st.gaps++;
            st.gap_total += g;
            if (g > st.gap_max)
                st.gap_max = g;
        }
    }
    return st;
}

/* ---- the report ---- */

typedef struct {
    const char *name;
    series s;
} stage;

typedef struct {
    int worker, device; /* device -1 when none of its lines names one */
    long partitions;
    busy_stats st;
} worker_row;

typedef struct {
    int device, workers;
    long partitions;
    busy_stats st;
} device_row;

typedef struct {
    double t;
    int d;
} depth_pt;

typedef struct {
    stage stages[4 + MAX_STAGES];
    int nst;
    double t0, t1;           /* log span */
    double wa, wb;           /* busy window */
    int have_window;
    worker_row *workers;
    int nworkers;
    device_row *devices;     /* none when no line has device= */
    int ndevices;
    busy_stats overall;
    int nslots;
    int maxdepth;
    double meandepth;
    depth_pt *depth;
    size_t ndepth;
    long proofs, partitions, unfinished;
    double tp_span;          /* first event .. last GPU_END */
    char xnames[MAX_STAGES][48];
} report;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* the distinct worker numbers (device numbers with by_device) of the records
 * that have a GPU bar, of those on device dev only when dev >= 0: sorted into
 * *ids (grown as needed); returns how many */
static size_t gpu_ids(const wf *w, int by_device, int dev, int **ids, size_t *cap)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nrec; i++) {
        const record *c = &w->rec[i];
        int id = by_device ? c->device : c->worker;
        double a = 0, b = 0;
        if (id >= 0 && (dev < 0 || c->device == dev) && gpu_bar(c, &a, &b)) {
            *ids = grow(*ids, cap, n + 1, sizeof **ids);
            (*ids)[n++] = id;
        }
    }
    sort_n(*ids, n, sizeof **ids, cmp_int);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (!u || (*ids)[u - 1] != (*ids)[i])
            (*ids)[u++] = (*ids)[i];
    return u;
}

static int cmp_rec_synth(const void *a, const void *b)
{
    const record *const *x = a, *const *y = b;
    double xa = 0, xb = 0, ya = 0, yb = 0;
    synth_bar(*x, &xa, &xb);
    synth_bar(*y, &ya, &yb);
    if (xa != ya)
        return xa < ya ? -1 : 1;
    return (*x > *y) - (*x < *y);
}

static int cmp_depth(const void *a, const void *b)
{
    const depth_pt *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->d > y->d) - (x->d < y->d);
}

static void analyse(wf *w, report *r)
{
    memset(r, 0, sizeof *r);
    r->stages[0].name = "synthesis";
    r->stages[1].name = "queue wait";
    r->stages[2].name = "gpu prep";
    r->stages[3].name = "gpu";
    r->nst = 4 + w->nstages;
    for (int i = 0; i < w->nstages; i++) {
        snprintf(r->xnames[i], sizeof r->xnames[i], "gpu.%s", w->stage_names[i]);
        r->stages[4 + i].name = r->xnames[i];
    }
    r->t0 = w->nev ? w->ev[0].t : 0;
    r->t1 = w->nev ? w->ev[w->nev - 1].t : 0;
    double last_end = NAN, first_start = NAN;

    /* stage series, and the busy window */
    for (size_t i = 0; i < w->nrec; i++) {
        const record *c = &w->rec[i];
        double a = 0, b = 0;
        if (synth_bar(c, &a, &b))
            series_add(&r->stages[0].s, b - a);
        if (!isnan(c->t[E_GPU_QUEUE])) {
            double pick = !isnan(c->t[E_GPU_PICKUP]) ? c->t[E_GPU_PICKUP] : c->t[E_GPU_START];
            if (!isnan(pick))
                series_add(&r->stages[1].s, pick - c->t[E_GPU_QUEUE]);
        }
        if (!isnan(c->t[E_GPU_PICKUP]) && !isnan(c->t[E_GPU_START]))
            series_add(&r->stages[2].s, c->t[E_GPU_START] - c->t[E_GPU_PICKUP]);
        if (gpu_bar(c, &a, &b)) {
            series_add(&r->stages[3].s, b - a);
            if (isnan(first_start) || a < first_start)
                first_start = a;
            if (isnan(last_end) || b > last_end)
                last_end = b;
        }
        for (int k = 0; k < c->nextra; k++)
            series_add(&r->stages[4 + c->xstage[k]].s, c->xval[k]);
        int done = !isnan(c->t[E_GPU_END]);
        if (done)
            r->partitions++;
        else
            r->unfinished++;
    }
    for (int i = 0; i < r->nst; i++)
        sort_n(r->stages[i].s.v, r->stages[i].s.n, sizeof(double), cmp_double);

    /* workers and devices */
    int *ids = NULL, *devs = NULL;
    size_t capids = 0, capdevs = 0;
    size_t u = gpu_ids(w, 0, -1, &ids, &capids);
    size_t ndev = gpu_ids(w, 1, -1, &devs, &capdevs);
    r->nworkers = (int)u;
    r->workers = calloc(u ? u : 1, sizeof *r->workers);
    r->ndevices = (int)ndev;
    r->devices = calloc(ndev ? ndev : 1, sizeof *r->devices);
    span *all = malloc((w->nrec ? w->nrec : 1) * sizeof *all);
    span *one = malloc((w->nrec ? w->nrec : 1) * sizeof *one);
    if (!r->workers || !r->devices || !all || !one)
        exit(1);
    size_t nall = 0;
    r->have_window = !isnan(first_start);
    r->wa = r->have_window ? first_start : 0;
    r->wb = r->have_window ? last_end : 0;
    for (size_t k = 0; k < u; k++) {
        size_t n1 = 0;
        r->workers[k].worker = ids[k];
        r->workers[k].device = -1;
        for (size_t i = 0; i < w->nrec; i++) {
            double a = 0, b = 0;
            if (w->rec[i].worker == ids[k] && gpu_bar(&w->rec[i], &a, &b)) {
                one[n1].a = a;
                one[n1++].b = b;
                r->workers[k].partitions++;
                if (r->workers[k].device < 0)
                    r->workers[k].device = w->rec[i].device;
            }
        }
        r->workers[k].st = merge(one, &n1);
    }
    for (size_t k = 0; k < ndev; k++) {
        device_row *x = &r->devices[k];
        size_t n1 = 0;
        x->device = devs[k];
        x->workers = (int)gpu_ids(w, 0, devs[k], &ids, &capids);
        for (size_t i = 0; i < w->nrec; i++) {
            double a = 0, b = 0;
            if (w->rec[i].device == devs[k] && gpu_bar(&w->rec[i], &a, &b)) {
                one[n1].a = a;
                one[n1++].b = b;
                x->partitions++;
            }
        }
        x->st = merge(one, &n1);
    }
    for (size_t i = 0; i < w->nrec; i++) {
        double a = 0, b = 0;
        if (gpu_bar(&w->rec[i], &a, &b)) {
            all[nall].a = a;
            all[nall++].b = b;
        }
    }
    r->overall = merge(all, &nall);
    free(all);
    free(one);
    free(ids);
    free(devs);

    /* synthesis slots, greedy by start time */
    record **sr = malloc((w->nrec ? w->nrec : 1) * sizeof *sr);
    double *slot_end = malloc((w->nrec ? w->nrec : 1) * sizeof *slot_end);
    if (!sr || !slot_end)
        exit(1);
    size_t nsr = 0;
    for (size_t i = 0; i < w->nrec; i++) {
        double a = 0, b = 0;
        if (synth_bar(&w->rec[i], &a, &b))
            sr[nsr++] = &w->rec[i];
    }
    sort_n(sr, nsr, sizeof *sr, cmp_rec_synth);
    for (size_t i = 0; i < nsr; i++) {
        double a = 0, b = 0;
        synth_bar(sr[i], &a, &b);
        int s = 0;
        while (s < r->nslots && slot_end[s] > a)
            s++;
        if (s == r->nslots)
            r->nslots++;
        slot_end[s] = b;
        sr[i]->slot = s;
    }
    free(sr);
    free(slot_end);

    /* queue depth: a step function over the change points */
    r->depth = malloc((2 * w->nrec + 1) * sizeof *r->depth);
    if (!r->depth)
        exit(1);
    size_t nd = 0;
    for (size_t i = 0; i < w->nrec; i++) {
        const record *c = &w->rec[i];
        if (isnan(c->t[E_GPU_QUEUE]))
            continue;
        double pick = !isnan(c->t[E_GPU_PICKUP]) ? c->t[E_GPU_PICKUP] : c->t[E_GPU_START];
        if (!isnan(pick) && pick <= c->t[E_GPU_QUEUE])
            continue; /* never waited: not in the queue at any time */
        r->depth[nd].t = c->t[E_GPU_QUEUE];
        r->depth[nd++].d = +1;
        if (!isnan(pick)) {
            r->depth[nd].t = pick;
            r->depth[nd++].d = -1;
        }
    }
    /* at equal times the departures go first, so a hand-off is not a peak */
    sort_n(r->depth, nd, sizeof *r->depth, cmp_depth);
    int cur = 0;
    double area = 0, prev = r->t0;
    size_t m = 0;
    for (size_t i = 0; i < nd; i++) {
        area += cur * (r->depth[i].t - prev);
        prev = r->depth[i].t;
        cur += r->depth[i].d;
        if (cur > r->maxdepth)
            r->maxdepth = cur;
        /* keep one point per time: the depth after all changes at it */
        if (m && r->depth[m - 1].t == r->depth[i].t)
            r->depth[m - 1].d = cur;
        else {
            r->depth[m].t = r->depth[i].t;
            r->depth[m++].d = cur;
        }
    }
    area += cur * (r->t1 - prev);
    r->ndepth = m;
    r->meandepth = r->t1 > r->t0 ? area / (r->t1 - r->t0) : 0;

    /* proofs: jobs whose every record is finished */
    char *state = calloc(w->njobs ? w->njobs : 1, 1); /* 1 seen, 2 unfinished */
    if (!state)
        exit(1);
    for (size_t i = 0; i < w->nrec; i++) {
        const record *c = &w->rec[i];
        /* an earlier attempt that a later one superseded does not count */
        int superseded = 0;
        if (isnan(c->t[E_GPU_END]))
            for (size_t j = i + 1; j < w->nrec && !superseded; j++)
                superseded = w->rec[j].job == c->job && w->rec[j].part == c->part;
        state[c->job] |= 1;
        if (isnan(c->t[E_GPU_END]) && !superseded)
            state[c->job] |= 2;
    }
    for (size_t j = 0; j < w->njobs; j++)
        r->proofs += state[j] == 1;
    free(state);
    r->tp_span = isnan(last_end) ? 0 : last_end - r->t0;
}

/* ms values: integers as integers, others with three decimals */
static const char *ms(double v, char *buf)
{
    if (isnan(v))
        snprintf(buf, 32, "-");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, 32, "%.0f", v);
    else
        snprintf(buf, 32, "%.3f", v);
    return buf;
}

static double mean_of(const series *s)
{
    if (!s->n)
        return NAN;
    double t = 0;
    for (size_t i = 0; i < s->n; i++)
        t += s->v[i];
    return t / (double)s->n;
}

static double pct_of(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0; }

static void print_report(const wf *w, const report *r, const char *path)
{
    char b1[32], b2[32], b3[32], b4[32], b5[32];
    printf("waterfall: %s\n", path);
    printf("lines: %ld, TIMELINE: %ld, events used: %zu, malformed: %ld, unknown events: %ld\n",
           w->lines, w->timeline_lines, w->nev, w->malformed, w->unknown);
    for (int i = 0; i < w->nreported; i++)
        printf("  malformed %s\n", w->reported[i]);
    if (w->malformed > w->nreported)
        printf("  ... and %ld more malformed lines\n", w->malformed - w->nreported);
    printf("jobs: %zu, partitions finished: %ld, unfinished: %ld, GPU workers: %d, synthesis "
           "slots: %d\n",
           w->njobs, r->partitions, r->unfinished, r->nworkers, r->nslots);
    printf("span: %s .. %s ms\n\n", ms(r->t0, b1), ms(r->t1, b2));

    printf("%-22s %6s %10s %10s %10s %10s %10s\n", "stage (ms)", "n", "p50", "p90", "p99", "mean",
           "max");
    for (int i = 0; i < r->nst; i++) {
        const series *s = &r->stages[i].s;
        printf("%-22s %6zu %10s %10s %10s %10s %10s\n", r->stages[i].name, s->n,
               ms(pct(s, 50), b1), ms(pct(s, 90), b2), ms(pct(s, 99), b3), ms(mean_of(s), b4),
               ms(s->n ? s->v[s->n - 1] : NAN, b5));
    }
    double win = r->wb - r->wa;
    printf("\nGPU busy window: %s .. %s ms (%s ms)\n", ms(r->wa, b1), ms(r->wb, b2), ms(win, b3));
    for (int k = 0; k < r->nworkers; k++) {
        const worker_row *x = &r->workers[k];
        printf("  worker %-3d %4ld partitions, busy %s ms (%.1f%%), gaps %ld (total %s ms, "
               "largest %s ms)\n",
               x->worker, x->partitions, ms(x->st.busy, b1), pct_of(x->st.busy, win), x->st.gaps,
               ms(x->st.gap_total, b2), ms(x->st.gap_max, b3));
    }
    printf("  overall    busy %s ms (%.1f%%)\n", ms(r->overall.busy, b1),
           pct_of(r->overall.busy, win));
    if (r->ndevices)
        printf("  %6s %7s %10s %8s %7s\n", "device", "workers", "partitions", "busy s", "busy %");
    for (int k = 0; k < r->ndevices; k++) {
        const device_row *x = &r->devices[k];
        printf("  %6d %7d %10ld %8.3f %6.1f%%\n", x->device, x->workers, x->partitions,
               x->st.busy / 1000.0, pct_of(x->st.busy, win));
    }
    printf("idle gaps (no worker busy): %ld, total %s ms, largest %s ms\n", r->overall.gaps,
           ms(r->overall.gap_total, b1), ms(r->overall.gap_max, b2));
    printf("queue depth: max %d, mean %.3f\n", r->maxdepth, r->meandepth);
    if (r->tp_span > 0 && r->proofs > 0)
        printf("throughput: %ld proofs, %ld partitions in %s ms: %.3f proofs/min (%.3f s/proof), "
               "%.3f partitions/min\n",
               r->proofs, r->partitions, ms(r->tp_span, b1), r->proofs * 60000.0 / r->tp_span,
               r->tp_span / 1000.0 / (double)r->proofs, r->partitions * 60000.0 / r->tp_span);
    else
        printf("throughput: %ld proofs, %ld partitions finished\n", r->proofs, r->partitions);
}

/* length of the valid UTF-8 sequence at s (1..4), 0 when it is not one or
 * is a character XML does not allow (U+FFFE, U+FFFF) */
static int utf8_seq(const unsigned char *s)
{
    unsigned c = s[0], cp, min;
    int n;
    if (c < 0x80) return 1;
    if ((c & 0xE0) == 0xC0) { n = 2; cp = c & 0x1F; min = 0x80; }
    else if ((c & 0xF0) == 0xE0) { n = 3; cp = c & 0x0F; min = 0x800; }
    else if ((c & 0xF8) == 0xF0) { n = 4; cp = c & 0x07; min = 0x10000; }
    else return 0;
    for (int k = 1; k < n; k++) {
        if ((s[k] & 0xC0) != 0x80) return 0; /* also stops at the NUL */
        cp = (cp << 6) | (s[k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
        return 0;
    return n;
}

/* ---- JSON ---- */

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    while (*s) {
        unsigned char c = (unsigned char)*s;
        int n = utf8_seq((const unsigned char *)s);
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\u%04x", c);
        else if (n == 0)
            fputc('?', f);
        else
            fwrite(s, 1, (size_t)n, f);
        s += n ? n : 1;
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    char b[32];
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else
        fputs(ms(v, b), f);
}

static void json_gaps(FILE *f, const busy_stats *s)
{
    fprintf(f, "{\"count\": %ld, \"total_ms\": ", s->gaps);
    json_num(f, s->gap_total);
    fprintf(f, ", \"largest_ms\": ");
    json_num(f, s->gap_max);
    fputc('}', f);
}

static int write_json(const char *out, const wf *w, const report *r, const char *log)
{
    FILE *f = fopen(out, "w");
    if (!f)
        return -1;
    double win = r->wb - r->wa;
    fprintf(f, "{\n  \"schema\": \"cuzk-waterfall/1\",\n  \"log\": ");
    json_str(f, log);
    fprintf(f, ",\n  \"lines\": %ld, \"timeline_lines\": %ld, \"events\": %zu, \"malformed\": %ld, "
               "\"unknown_events\": %ld,\n  \"malformed_lines\": [",
            w->lines, w->timeline_lines, w->nev, w->malformed, w->unknown);
    for (int i = 0; i < w->nreported; i++) {
        if (i)
            fputs(", ", f);
        json_str(f, w->reported[i]);
    }
    fprintf(f, "],\n  \"jobs\": %zu, \"partitions\": %ld, \"unfinished\": %ld, "
               "\"synthesis_slots\": %d,\n  \"span_ms\": [",
            w->njobs, r->partitions, r->unfinished, r->nslots);
    json_num(f, r->t0);
    fputs(", ", f);
    json_num(f, r->t1);
    fputs("],\n  \"stages\": {", f);
    for (int i = 0; i < r->nst; i++) {
        const series *s = &r->stages[i].s;
        fprintf(f, "%s\n    ", i ? "," : "");
        json_str(f, r->stages[i].name);
        fprintf(f, ": {\"n\": %zu, \"p50\": ", s->n);
        json_num(f, pct(s, 50));
        fputs(", \"p90\": ", f);
        json_num(f, pct(s, 90));
        fputs(", \"p99\": ", f);
        json_num(f, pct(s, 99));
        fputs(", \"mean\": ", f);
        json_num(f, mean_of(s));
        fputs(", \"max\": ", f);
        json_num(f, s->n ? s->v[s->n - 1] : NAN);
        fputc('}', f);
    }
    fputs("\n  },\n  \"gpu\": {\"window_ms\": [", f);
    json_num(f, r->wa);
    fputs(", ", f);
    json_num(f, r->wb);
    fputs("], \"busy_ms\": ", f);
    json_num(f, r->overall.busy);
    fprintf(f, ", \"busy_pct\": %.3f, \"gaps\": ", pct_of(r->overall.busy, win));
    json_gaps(f, &r->overall);
    fputs(",\n    \"workers\": [", f);
    for (int k = 0; k < r->nworkers; k++) {
        const worker_row *x = &r->workers[k];
        fprintf(f, "%s\n      {\"worker\": %d, \"partitions\": %ld, \"busy_ms\": ", k ? "," : "",
                x->worker, x->partitions);
        json_num(f, x->st.busy);
        fprintf(f, ", \"busy_pct\": %.3f, \"gaps\": ", pct_of(x->st.busy, win));
        json_gaps(f, &x->st);
        fputc('}', f);
    }
    fprintf(f, "%s]},\n  \"devices\": [", r->nworkers ? "\n    " : "");
    for (int k = 0; k < r->ndevices; k++) {
        const device_row *x = &r->devices[k];
        char bs[64];
        /* seconds to the microsecond, without trailing zeros */
        snprintf(bs, sizeof bs, "%.6f", x->st.busy / 1000.0);
        size_t e = strlen(bs);
        while (e > 1 && bs[e - 1] == '0')
            bs[--e] = 0;
        if (e > 1 && bs[e - 1] == '.')
            bs[--e] = 0;
        fprintf(f, "%s\n    {\"device\": %d, \"workers\": %d, \"partitions\": %ld, "
                   "\"busy_s\": %s, \"busy_pct\": %.3f}",
                k ? "," : "", x->device, x->workers, x->partitions, bs, pct_of(x->st.busy, win));
    }
    fprintf(f, "%s],\n  \"queue_depth\": {\"max\": %d, \"mean\": %.3f, \"series\": [",
            r->ndevices ? "\n  " : "", r->maxdepth, r->meandepth);
    for (size_t i = 0; i < r->ndepth; i++) {
        fprintf(f, "%s[", i ? ", " : "");
        json_num(f, r->depth[i].t);
        fprintf(f, ", %d]", r->depth[i].d);
    }
    fprintf(f, "]},\n  \"throughput\": {\"proofs\": %ld, \"partitions\": %ld, \"span_ms\": ",
            r->proofs, r->partitions);
    json_num(f, r->tp_span);
    fputs(", \"proofs_per_min\": ", f);
    json_num(f, r->tp_span > 0 ? r->proofs * 60000.0 / r->tp_span : NAN);
    fputs(", \"s_per_proof\": ", f);
    json_num(f, r->proofs > 0 && r->tp_span > 0 ? r->tp_span / 1000.0 / (double)r->proofs : NAN);
    fputs(", \"partitions_per_min\": ", f);
    json_num(f, r->tp_span > 0 ? r->partitions * 60000.0 / r->tp_span : NAN);
    fputs("}\n}\n", f);
    return fclose(f) == 0 ? 0 : -1;
}

/* ---- SVG ---- */

static void xml_str(FILE *f, const char *s)
{
    while (*s) {
        unsigned char c = (unsigned char)*s;
        int n = utf8_seq((const unsigned char *)s);
        if (c == '<') fputs("&lt;", f);
        else if (c == '>') fputs("&gt;", f);
        else if (c == '&') fputs("&amp;", f);
        else if (c == '"') fputs("&quot;", f);
        else if (c < 0x20 || c == 0x7f || n == 0) fputc('?', f);
        else fwrite(s, 1, (size_t)n, f);
        s += n ? n : 1;
    }
}

static double nice_step(double span_ms)
{
    double step = 1;
    while (span_ms / step > 12) {
        if (span_ms / (step * 2) <= 12) return step * 2;
        if (span_ms / (step * 5) <= 12) return step * 5;
        step *= 10;
    }
    return step;
}

static int write_svg(const char *out, const wf *w, const report *r, const char *log)
{
    FILE *f = fopen(out, "w");
    if (!f)
        return -1;
    const double left = 110, right = 20, top = 40, row = 20, bar = 14, width = 1400;
    int rows = r->nworkers + r->nslots;
    int legend = w->njobs < 24 ? (int)w->njobs : 24;
    double axis_y = top + rows * row + 6;
    double height = axis_y + 38 + (legend + (w->njobs > 24)) * 16 + 10;
    double span_ms = r->t1 > r->t0 ? r->t1 - r->t0 : 1;
    double scale = (width - left - right) / span_ms;
    char b1[32];

    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n",
            width, height, width, height);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", width,
            height);
    fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\">cuzk waterfall: ");
    xml_str(f, log);
    fprintf(f, " (%ld partitions, %d GPU workers, busy %.1f%%)</text>\n", r->partitions,
            r->nworkers, pct_of(r->overall.busy, r->wb - r->wa));
    for (int k = 0; k < rows; k++) {
        double y = top + k * row;
        if (k < r->nworkers && r->workers[k].device >= 0)
            fprintf(f, "<text x=\"10\" y=\"%.1f\">dev %d worker %d</text>\n", y + bar - 3,
                    r->workers[k].device, r->workers[k].worker);
        else if (k < r->nworkers)
            fprintf(f, "<text x=\"10\" y=\"%.1f\">gpu worker %d</text>\n", y + bar - 3,
                    r->workers[k].worker);
        else
            fprintf(f, "<text x=\"10\" y=\"%.1f\">synthesis %d</text>\n", y + bar - 3,
                    k - r->nworkers);
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#eee\"/>\n",
                left, y + row - 2, width - right, y + row - 2);
    }
    for (size_t i = 0; i < w->nrec; i++) {
        const record *c = &w->rec[i];
        double hue = fmod((double)c->job * 137.508, 360.0);
        double a = 0, b = 0;
        for (int kind = 0; kind < 2; kind++) {
            int rowi;
            if (kind == 0) {
                if (!gpu_bar(c, &a, &b) || c->worker < 0)
                    continue;
                rowi = 0;
                while (rowi < r->nworkers && r->workers[rowi].worker != c->worker)
                    rowi++;
                if (rowi == r->nworkers)
                    continue;
            } else {
                if (!synth_bar(c, &a, &b) || c->slot < 0)
                    continue;
                rowi = r->nworkers + c->slot;
            }
            double x = left + (a - r->t0) * scale, wd = (b - a) * scale;
            if (wd < 0.5)
                wd = 0.5;
            fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" "
                       "fill=\"hsl(%.0f,65%%,%s)\" stroke=\"#333\" stroke-width=\"0.3\"><title>",
                    x, top + rowi * row, wd, bar, hue, kind ? "72%" : "50%");
            xml_str(f, w->jobs[c->job]);
            fprintf(f, " partition %d %s %s ms</title></rect>\n", c->part, kind ? "synthesis" : "gpu",
                    ms(b - a, b1));
            if (wd >= 24 && c->part >= 0)
                fprintf(f, "<text x=\"%.2f\" y=\"%.1f\" font-size=\"9\">p%d</text>\n", x + 3,
                        top + rowi * row + bar - 4, c->part);
        }
    }
    /* time axis */
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"black\"/>\n", left,
            axis_y, width - right, axis_y);
    double step = nice_step(span_ms);
    int secs = span_ms >= 10000;
    for (double t = 0; t <= span_ms + 1e-9; t += step) {
        double x = left + t * scale;
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"black\"/>\n", x,
                axis_y, x, axis_y + 4);
        if (secs)
            fprintf(f, "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">%gs</text>\n", x,
                    axis_y + 16, (r->t0 + t) / 1000.0);
        else
            fprintf(f, "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">%gms</text>\n", x,
                    axis_y + 16, r->t0 + t);
    }
    /* legend: the job of each colour */
    for (int j = 0; j < legend; j++) {
        double y = axis_y + 38 + j * 16;
        fprintf(f, "<rect x=\"10\" y=\"%.1f\" width=\"12\" height=\"10\" "
                   "fill=\"hsl(%.0f,65%%,50%%)\"/>\n",
                y - 9, fmod((double)j * 137.508, 360.0));
        fprintf(f, "<text x=\"28\" y=\"%.1f\">", y);
        xml_str(f, w->jobs[j]);
        fputs("</text>\n", f);
    }
    if (w->njobs > 24)
        fprintf(f, "<text x=\"28\" y=\"%.1f\">... and %zu more jobs</text>\n",
                axis_y + 38 + legend * 16, w->njobs - 24);
    fputs("</svg>\n", f);
    return fclose(f) == 0 ? 0 : -1;
}

/* ---- entry ---- */

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk-bench waterfall LOG [--svg OUT.svg] [--json OUT.json]\n"
               "  LOG   a daemon log holding TIMELINE,<ms>,<EVENT>,<job>,<detail> lines\n"
               "  prints per-stage p50/p90/p99, GPU busy %% per worker and per device, idle\n"
               "  gaps, queue depth and throughput; --svg draws the waterfall, --json writes\n"
               "  the numbers\n");
}

int cz_bench_waterfall_main(int argc, char **argv)
{
    const char *log = NULL, *svg = NULL, *json = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--svg") && i + 1 < argc) svg = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "cuzk-bench waterfall: unknown or incomplete option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (!log) log = argv[i];
        else {
            fprintf(stderr, "cuzk-bench waterfall: more than one LOG ('%s')\n", argv[i]);
            return 2;
        }
    }
    if (!log) {
        usage(stderr);
        return 2;
    }
    static wf w;
    memset(&w, 0, sizeof w);
    if (read_log(&w, log))
        return 1;
    fold(&w);
    report r;
    analyse(&w, &r);
    print_report(&w, &r, log);
    int rc = 0;
    if (!w.nev) {
        fprintf(stderr, "cuzk-bench waterfall: no usable TIMELINE events in %s\n", log);
        rc = 1;
    } else {
        if (svg) {
            if (write_svg(svg, &w, &r, log)) {
                fprintf(stderr, "cuzk-bench waterfall: cannot write %s\n", svg);
                rc = 1;
            } else {
                printf("svg: %s\n", svg);
            }
        }
        if (json) {
            if (write_json(json, &w, &r, log)) {
                fprintf(stderr, "cuzk-bench waterfall: cannot write %s\n", json);
                rc = 1;
            } else {
                printf("json: %s\n", json);
            }
        }
    }
    for (int i = 0; i < r.nst; i++)
        free(r.stages[i].s.v);
    free(r.workers);
    free(r.devices);
    free(r.depth);
    for (size_t i = 0; i < w.njobs; i++)
        free(w.jobs[i]);
    free(w.jobs);
    free(w.jobhash);
    for (int i = 0; i < w.nstages; i++)
        free(w.stage_names[i]);
    free(w.ev);
    free(w.rec);
    return rc;
}
