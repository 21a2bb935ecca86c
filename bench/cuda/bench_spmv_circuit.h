/* bench_spmv_circuit.h — the `spmv-circuit` subcommand of cuzk-cuda-bench
 * (bench_spmv_circuit.c): the device SpMV on a real gadget circuit's system. */
#ifndef CZ_BENCH_CUDA_BENCH_SPMV_CIRCUIT_H
#define CZ_BENCH_CUDA_BENCH_SPMV_CIRCUIT_H

/* cuzk-cuda-bench spmv-circuit NAME [--copies N] [--reps R] [--modes LIST] [--rounds K]
 *                               [--key value ...];
 * argv[0] is NAME; returns the exit status */
int cz_bench_spmv_circuit(int argc, char **argv);

/* 1 when a CUDA device is present, else 0 after saying so (cuda_bench.c) */
int cz_bench_have_device(void);

#endif
