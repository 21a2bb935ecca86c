/* batch.h — cuzk-bench's subcommands that talk to a cuzk-daemon over gRPC
 * (batch.c): batch, single, sweep, status, metrics, preload. */
#ifndef CZ_BENCH_BATCH_H
#define CZ_BENCH_BATCH_H

/* argv[0] is the subcommand's name; each returns the exit status (0 all
 * proofs completed / the call succeeded, 1 some failed or the daemon cannot
 * be reached, 2 usage) */
int cz_bench_batch_main(int argc, char **argv);
int cz_bench_single_main(int argc, char **argv);
int cz_bench_sweep_main(int argc, char **argv);
int cz_bench_status_main(int argc, char **argv);
int cz_bench_metrics_main(int argc, char **argv);
int cz_bench_preload_main(int argc, char **argv);

#endif
