/* rng.h — random numbers.
 *
 * cz_rng is xoshiro256** : fast, seedable, reproducible. It is for tests,
 * benchmarks and fixed-seed modes only, never for secrets. cz_rng_seed_os
 * seeds it from the kernel (getrandom); cz_os_random fills a buffer straight
 * from the kernel and is what secret values must use. */
#ifndef CZ_UTIL_RNG_H
#define CZ_UTIL_RNG_H

#include <stddef.h>
#include <stdint.h>
#include "util/err.h"

typedef struct { uint64_t s[4]; } cz_rng;

void cz_rng_seed(cz_rng *rng, uint64_t seed);
cz_err cz_rng_seed_os(cz_rng *rng);
uint64_t cz_rng_u64(cz_rng *rng);
void cz_rng_bytes(cz_rng *rng, void *buf, size_t n);
cz_err cz_os_random(void *buf, size_t n);

#endif
