/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/backoff.c - the wait policy's crowding hint (lib/backoff.h).
 *
 *  1-4. The hint's logic, fed yield durations directly: a new thread
 *       spins up to BACKOFF_MAX; one slow yield lowers the cap to
 *       CROWDED_MAX; it takes CROWD_HOLD quick yields to raise it again,
 *       and a slow one in between starts the count over.
 *  5-6. backoff() itself: rounds double the pauses up to the cap and
 *       stay there (16 while crowded, 1024 otherwise).
 *  7.   On the machine: this thread and a spinning one pinned to one CPU;
 *       some sched_yield must give the CPU away for more than 5 us and
 *       raise the hint (at most 2000 yields; one gave the CPU away in
 *       about a third of the yields when measured).  Skipped where
 *       the affinity cannot be set.
 * Deterministic apart from 7, whose bound makes a false failure
 * improbable (0.9^2000).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "backoff.h"
#include "tap.h"

static atomic_bool spin_stop;

static void *spinner(void *arg)
{
	(void)arg;
	/* Relaxed: a stop flag, nothing else is read after it. */
	while (!atomic_load_explicit(&spin_stop, memory_order_relaxed))
		cpu_relax();
	return NULL;
}

/* Rounds of backoff() until the pauses stop growing; returns the cap. */
static unsigned settled_spins(void)
{
	struct backoff b = BACKOFF_INIT;

	for (int i = 0; i < 12; i++) {
		unsigned cap = backoff_cap();

		if (b.spins >= cap)
			return b.spins;
		backoff(&b);
	}
	return b.spins;
}

static void test_pinned(void)
{
	cpu_set_t one;
	pthread_t t;
	bool crowded = false;
	int cpu = sched_getcpu();

	CPU_ZERO(&one);
	CPU_SET(cpu < 0 ? 0 : cpu, &one);
	if (pthread_setaffinity_np(pthread_self(), sizeof(one), &one) != 0) {
		tap_skip("cannot pin this thread");
		return;
	}
	backoff_crowd = 0;
	if (pthread_create(&t, NULL, spinner, NULL) != 0) {
		tap_skip("cannot start the spinning thread");
		return;
	}
	if (pthread_setaffinity_np(t, sizeof(one), &one) != 0) {
		tap_skip("cannot pin the spinning thread");
		atomic_store_explicit(&spin_stop, true, memory_order_relaxed);
		pthread_join(t, NULL);
		return;
	}
	for (int i = 0; i < 2000 && !crowded; i++) {
		backoff_yield();
		crowded = backoff_cap() == CROWDED_MAX;
	}
	atomic_store_explicit(&spin_stop, true, memory_order_relaxed);
	pthread_join(t, NULL);
	tap_ok(crowded, "a yield that gave the CPU to a spinning thread on the same CPU "
	       "raised the hint (cap %u)", backoff_cap());
}

int main(void)
{
	bool crowded;

	tap_ok(backoff_cap() == BACKOFF_MAX, "a new thread spins up to %u pauses a round",
	       BACKOFF_MAX);
	backoff_note_yield(YIELD_SLOW_NS + 1);
	tap_ok(backoff_cap() == CROWDED_MAX, "one slow yield lowers the cap to %u",
	       CROWDED_MAX);
	for (unsigned i = 0; i + 1 < CROWD_HOLD; i++)
		backoff_note_yield(100);
	tap_ok(backoff_cap() == CROWDED_MAX, "%u quick yields keep it low", CROWD_HOLD - 1);
	backoff_note_yield(YIELD_SLOW_NS + 1);	/* starts the count over */
	for (unsigned i = 0; i + 1 < CROWD_HOLD; i++)
		backoff_note_yield(100);
	crowded = backoff_cap() == CROWDED_MAX;
	backoff_note_yield(100);
	tap_ok(crowded && backoff_cap() == BACKOFF_MAX,
	       "a slow yield starts the count over; %u quick ones raise the cap again",
	       CROWD_HOLD);

	backoff_note_yield(YIELD_SLOW_NS + 1);
	tap_ok(settled_spins() == CROWDED_MAX, "crowded: rounds settle at %u pauses",
	       CROWDED_MAX);
	backoff_crowd = 0;
	tap_ok(settled_spins() == BACKOFF_MAX, "not crowded: rounds settle at %u pauses",
	       BACKOFF_MAX);

	test_pinned();
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
