/* partition.h — `cuzk-bench partition`: partitions of a synthetic circuit
 * proved back to back on one backend (see partition.c). */
#ifndef CZ_BENCH_PARTITION_H
#define CZ_BENCH_PARTITION_H

/* argv[0] is "partition"; returns the exit status (0 every proof verified,
 * 1 a proof failed verification or the JSON could not be written, 2 bad
 * arguments or an error before or while proving) */
int cz_bench_partition_main(int argc, char **argv);

#endif
