/* testutil.c — counters and seed handling for tests (see testutil.h). */
#include "testutil.h"

#include <stdlib.h>

long cz_test_checks, cz_test_failed;

uint64_t cz_test_seed(const char *test_name, uint64_t dflt)
{
    const char *s = getenv("CZ_TEST_SEED");
    uint64_t seed = s ? strtoull(s, NULL, 0) : dflt;
    printf("%s: seed %llu (set CZ_TEST_SEED to replay)\n", test_name, (unsigned long long)seed);
    return seed;
}

long cz_fuzz_count(const char *test_name, const char *what, long dflt)
{
    const char *s = getenv("CZ_FUZZ_SCALE");
    double scale = s ? strtod(s, NULL) : 1.0;
    if (!(scale > 0) || scale > 1e6) scale = 1.0;
    long n = (long)((double)dflt * scale);
    if (n < 1) n = 1;
    printf("%s: %ld %s (CZ_FUZZ_SCALE=%g)\n", test_name, n, what, scale);
    return n;
}

int cz_test_finish(const char *test_name)
{
    printf("%s: %ld checks, %ld failed\n", test_name, cz_test_checks, cz_test_failed);
    if (cz_test_checks == 0) {
        printf("%s: no checks ran\n", test_name);
        return 1;
    }
    return cz_test_failed ? 1 : 0;
}
