/* SPDX-License-Identifier: BSD-2-Clause */
/* test/util.h - shared test helpers: deterministic randomness, watchdog. */
#ifndef CASLIST_TEST_UTIL_H
#define CASLIST_TEST_UTIL_H

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/* splitmix64: one state word per thread, reproducible from the seed. */
static inline uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline void watchdog_fire(int sig)
{
	static const char msg[] = "TIMEOUT (deadlock or livelock?)\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(3);
}

/* Exit 3 after CASLIST_STRESS_WATCHDOG seconds (default: 10x the run +
 * 120 s): a hang is a failure, never a stuck CI job. */
static inline void watchdog_arm(double seconds)
{
	const char *wd = getenv("CASLIST_STRESS_WATCHDOG");

	signal(SIGALRM, watchdog_fire);
	alarm(wd ? (unsigned)atoi(wd) : (unsigned)(seconds * 10) + 120);
}

#endif /* CASLIST_TEST_UTIL_H */
