/* testutil.h — a minimal assertion harness for the ctest executables.
 *
 * CHECK(cond) records a failure with file:line and keeps going; a test's main
 * returns cz_test_finish(), which prints "name: N checks, M failed" and gives
 * the exit status ctest reads. CZ_TEST_SEED (environment) overrides the seed
 * of randomized tests; the seed in use is always printed so a failure can be
 * replayed. CZ_FUZZ_SCALE scales the input counts of the fuzz targets. */
#ifndef CZ_TESTUTIL_H
#define CZ_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>

extern long cz_test_checks, cz_test_failed;

#define CHECK(cond)                                                              \
    do {                                                                         \
        cz_test_checks++;                                                        \
        if (!(cond)) {                                                           \
            cz_test_failed++;                                                    \
            if (cz_test_failed <= 20)                                            \
                fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

#define CHECK_MSG(cond, ...)                                                     \
    do {                                                                         \
        cz_test_checks++;                                                        \
        if (!(cond)) {                                                           \
            cz_test_failed++;                                                    \
            if (cz_test_failed <= 20) {                                          \
                fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
                fprintf(stderr, __VA_ARGS__);                                    \
                fputc('\n', stderr);                                             \
            }                                                                    \
        }                                                                        \
    } while (0)

/* seed for randomized tests: CZ_TEST_SEED or the given default; printed */
uint64_t cz_test_seed(const char *test_name, uint64_t dflt);
int cz_test_finish(const char *test_name);

/* The number of inputs a fuzz target runs: dflt scaled by CZ_FUZZ_SCALE
 * (a positive number, default 1; say 10 for a longer run by hand). Fuzz
 * targets run a fixed count from a printed seed and no time budget, so the
 * inputs a run sees, and so its verdict, never depend on the machine's
 * speed. The count is printed next to the seed. */
long cz_fuzz_count(const char *test_name, const char *what, long dflt);

#endif
