/* SPDX-License-Identifier: BSD-2-Clause */
/* test/util.h - shared test helpers: deterministic randomness, watchdog. */
#ifndef CASLIST_TEST_UTIL_H
#define CASLIST_TEST_UTIL_H

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
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

/* Post-run checks: count them, print each failure as "PROG: FAIL: ...". */
struct checks {
	const char *prog;
	int n, failed;
};

__attribute__((format(printf, 3, 4))) static inline void check(struct checks *c, int cond,
							       const char *fmt, ...)
{
	va_list ap;

	c->n++;
	if (cond)
		return;
	c->failed++;
	fprintf(stderr, "%s: FAIL: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Start n threads fn(base + i * stride), release them together through
 * *start (which fn must wait on; initialised here for n + 1), let them
 * run for seconds, set *stop and join them.  Returns 0, or -1 if a
 * thread could not be created.
 */
static inline int run_threads(int n, void *(*fn)(void *), void *base, size_t stride,
			      pthread_barrier_t *start, _Atomic int *stop, double seconds)
{
	pthread_t *tid;
	struct timespec ts;

	if (n < 1)
		return -1;
	tid = calloc((size_t)n, sizeof(*tid));
	if (tid == NULL)
		return -1;
	pthread_barrier_init(start, NULL, (unsigned)n + 1);
	for (int i = 0; i < n; i++)
		if (pthread_create(&tid[i], NULL, fn, (char *)base + (size_t)i * stride) != 0) {
			fprintf(stderr, "pthread_create failed at %d threads\n", i);
			return -1;
		}
	pthread_barrier_wait(start);
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
	atomic_store(stop, 1);
	for (int i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	return 0;
}

#endif /* CASLIST_TEST_UTIL_H */
