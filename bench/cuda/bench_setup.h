/* bench_setup.h — the `setup` subcommand of cuzk-cuda-bench (bench_setup.c). */
#ifndef CZ_BENCH_CUDA_BENCH_SETUP_H
#define CZ_BENCH_CUDA_BENCH_SETUP_H

/* cuzk-cuda-bench setup [k ...]; returns the exit status */
int cz_bench_setup(const int *ks, int nk);

#endif
