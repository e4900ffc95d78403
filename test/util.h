/* SPDX-License-Identifier: BSD-2-Clause */
/* test/util.h - shared test helpers: deterministic randomness, watchdog,
 * post-run checks (examples/common/), progress, timing. */
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

/* splitmix64 and rng_below (one state word per thread, reproducible from
 * the seed), check() and the watchdog: the same helpers the examples use,
 * public API only, so one copy serves both. */
#include "../examples/common/rng.h"
#include "../examples/common/check.h"

static inline void check_conservation(struct checks *c, const int *seen, size_t stride, size_t n,
				      size_t nlist, const char *where, size_t nowned)
{
	size_t lost = 0, dup = 0;

	for (size_t i = 0; i < n; i++) {
		int s = *(const int *)(const void *)((const char *)seen + i * stride);

		lost += s == 0;
		dup += s > 1;
	}
	check(c, lost == 0 && dup == 0 && nlist + nowned == n,
	      "conservation: %zu lost, %zu duplicated, %zu %s + %zu owned != %zu", lost, dup, nlist,
	      where, nowned, n);
}

/*
 * The census after a stress run, for items with an `int seen` counter and
 * threads with `own[0..nown-1]` (the items each holds).  CHECK_CENSUS
 * counts every held item once more in its seen and in nowned, and checks
 * that ok (an expression of it, the item, and i, its holder's index) holds
 * for each ("N owned nodes " what, if not); then check_conservation: each
 * of the n items items[0..n-1] was seen exactly once, on the list (nlist of
 * them, "listed" or "free": where) or held (nowned).
 */
#define CHECK_CENSUS(c, thr, nthreads, ok, what, items, n, nlist, where, nowned)        \
	do {                                                                           \
		size_t bad_ = 0;                                                       \
									               \
		for (int i = 0; i < (nthreads); i++)                                   \
			for (size_t j_ = 0; j_ < (thr)[i].nown; j_++) {               \
				struct item *it = (thr)[i].own[j_];                    \
									               \
				it->seen++;                                            \
				(nowned)++;                                            \
				bad_ += !(ok);                                         \
			}                                                              \
		check(c, bad_ == 0, "%zu owned nodes " what, bad_);                    \
		check_conservation(c, &(items)[0].seen, sizeof((items)[0]), n, nlist,  \
				   where, nowned);                                     \
	} while (0)

/*
 * Progress by construction.  A stress test that checks "every kind of
 * operation happened" must not leave that to the scheduler: on a loaded
 * machine a thread may not run at all in the seconds a test lasts.  So
 * the workers loop while progress_more() says so: until *stop, and after
 * it for as long as some kind in `want` has not happened yet (is not in
 * `have`), bounded by a hard stop after CASLIST_PROGRESS_MAX seconds
 * (default 60): a kind that still has not happened then is a real
 * starvation, and the test's progress check fails as it should.  A test
 * sets `want` before the run (the kinds of its mix) or as it goes (a kind
 * joins `want` when it is first tried: progress_want); workers report
 * each kind once it happens (progress_note).  All relaxed: the bits only
 * decide whether to go on, and main reads them after the joins.
 */
struct progress {
	_Atomic unsigned long have, want;
	_Atomic int hard_stop;
	double extended;	/* seconds the run went on after *stop */
};

static inline void progress_bit(_Atomic unsigned long *w, unsigned kind)
{
	unsigned long bit = 1UL << kind;

	if (!(atomic_load_explicit(w, memory_order_relaxed) & bit))
		atomic_fetch_or_explicit(w, bit, memory_order_relaxed);
}

static inline void progress_note(struct progress *p, unsigned kind)
{
	progress_bit(&p->have, kind);
}

static inline void progress_want(struct progress *p, unsigned kind)
{
	progress_bit(&p->want, kind);
}

static inline int progress_done(struct progress *p)
{
	unsigned long want = atomic_load_explicit(&p->want, memory_order_relaxed);

	return (atomic_load_explicit(&p->have, memory_order_relaxed) & want) == want;
}

/* Go on?  Before *stop: yes.  After it: while a wanted kind is missing,
 * until the hard stop. */
static inline int progress_more(const _Atomic int *stop, struct progress *p)
{
	if (!atomic_load_explicit(stop, memory_order_relaxed))
		return 1;
	return p != NULL && !atomic_load_explicit(&p->hard_stop, memory_order_relaxed) &&
	       !progress_done(p);
}

/*
 * Start n threads fn(base + i * stride), release them together through
 * *start (which fn must wait on; initialised here for n + 1), let them
 * run for seconds, set *stop and join them.  With p (workers looping on
 * progress_more), wait after *stop until every wanted kind has happened
 * or CASLIST_PROGRESS_MAX seconds have passed (then p->hard_stop), and
 * store the extension in p->extended.  Returns 0, or -1 if a thread
 * could not be created.
 */
static inline int run_threads_progress(int n, void *(*fn)(void *), void *base, size_t stride,
				       pthread_barrier_t *start, _Atomic int *stop,
				       double seconds, struct progress *p)
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
	if (p != NULL) {
		const char *mx = getenv("CASLIST_PROGRESS_MAX");
		long max_ms = (mx ? atol(mx) : 60) * 1000, ms = 0;
		struct timespec one = { 0, 1000000 };

		while (!progress_done(p) && ms < max_ms) {
			nanosleep(&one, NULL);
			ms++;
		}
		/* Only when time is up: a worker that tries a kind for the
		 * first time after this point (want grows) goes on until it
		 * has succeeded, and the join waits for it. */
		if (!progress_done(p))
			atomic_store_explicit(&p->hard_stop, 1, memory_order_relaxed);
		p->extended = (double)ms / 1000.0;
	}
	for (int i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	return 0;
}

static inline int run_threads(int n, void *(*fn)(void *), void *base, size_t stride,
			      pthread_barrier_t *start, _Atomic int *stop, double seconds)
{
	return run_threads_progress(n, fn, base, stride, start, stop, seconds, NULL);
}

#endif /* CASLIST_TEST_UTIL_H */
