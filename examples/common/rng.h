/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/common/rng.h - deterministic randomness for the examples and
 * benches: splitmix64 (one state word per thread, reproducible from the
 * seed), and a bounded draw.
 */
#ifndef CASLIST_EXAMPLES_RNG_H
#define CASLIST_EXAMPLES_RNG_H

#include <stddef.h>
#include <stdint.h>

/* splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): advances *s and returns the next value. */
static inline uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A draw in [0, n), n < 2^32: the high 32 bits scaled by n (a multiply
 * and a shift, no division). */
static inline size_t rng_below(uint64_t *s, size_t n)
{
	return (size_t)(((splitmix64(s) >> 32) * (uint64_t)n) >> 32);
}

#endif /* CASLIST_EXAMPLES_RNG_H */
