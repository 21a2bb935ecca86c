/* bench.h — the small timing harness behind cuzk-bench.
 *
 * Each bench_<group>.c file registers one group with CZ_BENCH_GROUP; the
 * registration runs before main (a constructor), so adding a group is adding a
 * file. A group calls cz__bench_op once per operation with a function that
 * runs the operation `iters` times as a dependent chain (each output is the
 * next input), so the compiler cannot hoist or drop work and the CPU cannot
 * overlap independent calls: the numbers are latencies.
 *
 * cz__bench_op calibrates a batch size (doubling until a batch takes the
 * target time, 2 ms by default, which doubles as warm-up), runs one more
 * warm-up batch, then times a number of batches (31 by default) with
 * CLOCK_MONOTONIC and records the median, min and max of the per-batch ns/op,
 * plus the median of the thread's CPU time per op (which leaves out time the
 * thread spent descheduled). Short batches and medians keep the numbers
 * usable on a busy machine: most batches run without being preempted. */
#ifndef CZ_BENCH_BENCH_H
#define CZ_BENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cz_bench cz_bench;

/* run the operation iters times on state (a dependent chain) */
typedef void (*cz_bench_fn)(void *state, uint64_t iters);
typedef void (*cz_bench_group_fn)(cz_bench *b);

/* does the filter select this op of the current group? Lets a group skip
 * costly set-up for ops that will not run. */
int cz__bench_wants(const cz_bench *b, const char *op);

/* time one op (skipped when the filter does not select it); note is a short
 * free-text description kept in the table and JSON */
void cz__bench_op(cz_bench *b, const char *op, const char *note, cz_bench_fn fn,
                  void *state);

/* time a big one-shot operation (an MSM, an NTT): fn(state, 1) runs it once.
 * One untimed warm-up run, then a fixed small number of timed runs (--reps,
 * default 5, quick 2; more, up to --batches, when a run is under 0.1 s).
 * Records the median / min / max wall ns per run and the median CPU time of
 * the whole process per run (all threads, so a 2-thread op shows up to twice
 * its wall time). The JSON marks these rows "mode": "once". */
void cz__bench_once(cz_bench *b, const char *op, const char *note, cz_bench_fn fn,
                    void *state);

/* record a line of context for this run (e.g. a result check) */
void cz__bench_note(cz_bench *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

void cz__bench_register(int order, const char *name, cz_bench_group_fn fn);

/* the git commit of the source tree (CUZK_GIT_COMMIT, $CUZK_COMMIT, or git
 * describe, best effort; "unknown") */
void cz__bench_git_commit(char *out, size_t n);
/* the median of v[0..n) (n > 0; sorts v) */
double cz__bench_median(double *v, size_t n);
/* s as a JSON string (quoted, escaped) */
void cz__bench_json_str(FILE *f, const char *s);

/* Register a group; order sorts groups (ff 10, ec 20, pairing 30, msm 40,
 * ntt 45). */
#define CZ_BENCH_GROUP(order, name, fn)                                        \
    __attribute__((constructor)) static void fn##_register(void)              \
    {                                                                          \
        cz__bench_register(order, name, fn);                                   \
    }

#endif
