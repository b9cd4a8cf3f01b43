/* The bench programs' random numbers (bench/detect-eval.c,
 * bench/detect-lib.c): splitmix64 from a fixed seed, so every run generates
 * the same series, uniform in (0, 1) and Gaussian (Box-Muller). */
#ifndef ASSAY_BENCH_RNG_H
#define ASSAY_BENCH_RNG_H

#include <math.h>
#include <stdint.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static inline uint64_t next_u64(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}
static inline double uniform(void)
{
	return ((double)(next_u64() >> 11) + 0.5) / 9007199254740992.0;
}
static inline double gauss(void)
{
	return sqrt(-2.0 * log(uniform())) * cos(2.0 * M_PI * uniform());
}

#endif
