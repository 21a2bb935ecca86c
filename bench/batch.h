/* batch.h — `cuzk-bench batch`: proofs through a cuzk-daemon over gRPC
 * (see batch.c). */
#ifndef CZ_BENCH_BATCH_H
#define CZ_BENCH_BATCH_H

/* argv[0] is "batch"; returns the exit status (0 all completed, 1 some
 * failed or the daemon cannot be reached, 2 usage) */
int cz_bench_batch_main(int argc, char **argv);

#endif
