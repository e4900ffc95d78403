/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/unit/backoff.c - the wait policy's crowding hint and backoff (static/wait.h).
 *
 *  1-4. The hint's logic, fed yield durations directly: a new thread
 *       spins up to CASLIST_LK_BACKOFF_MAX; one slow yield lowers the cap to
 *       CASLIST_LK_CROWDED_MAX; it takes CASLIST_LK_CROWD_HOLD quick yields to raise it again,
 *       and a slow one in between starts the count over.
 *  1a.  What slow means: a yield of 10 us (the CPU handed to another
 *       waiter and back, as with 4 threads on 2 CPUs) and one of exactly
 *       CASLIST_LK_YIELD_SLOW_NS leave the hint down (doc/notebook.md,
 *       "When a yield is slow: the crowding threshold").
 *  5-6. backoff() itself: rounds grow the budget up to the cap and
 *       stay there (63 while crowded, 32767 otherwise).
 *  7-8. The growth law: 7, 63, 511, 4095 (eightfold, a mask); each
 *       round's draw is at least one pause and within its budget.
 *  9-11. A round is bounded in time too (CASLIST_LK_BACKOFF_ROUND_NS), on
 *       the module's clock, injected here (test_clock): with the clock
 *       moving 1000 ns a read, a round of 32767 pauses ends at the read
 *       that finds the bound reached (one read every CASLIST_LK_BACKOFF_CLOCK_EVERY
 *       pauses); with a clock that does not move it makes all 32767; a
 *       round shorter than CASLIST_LK_BACKOFF_CLOCK_EVERY reads no clock.
 *  12.  On the machine: this thread and a spinning one pinned to one CPU;
 *       some sched_yield must give the CPU away for more than 30 us and
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

/* The module's clock, injected: the real one unless fake_on, then a
 * clock that moves fake_step ns at each read (and counts its reads). */
static unsigned long long test_clock(void);
#define CASLIST_LK_CLOCK_NS() test_clock()
#include <caslist/static/wait.h>
#include "../tap.h"

static bool fake_on;
static unsigned long long fake_ns, fake_step, fake_reads;

static unsigned long long test_clock(void)
{
	if (!fake_on)
		return caslist_lk_clock_ns();
	fake_reads++;
	return fake_ns += fake_step;
}

static void test_round_time(void)
{
	unsigned made, want = CASLIST_LK_BACKOFF_ROUND_NS / 1000u * CASLIST_LK_BACKOFF_CLOCK_EVERY - 1u;

	fake_on = true;
	fake_step = 1000;
	made = caslist_lk_backoff_pause(32767u);
	tap_ok(made == want, "a round of 32767 pauses on a clock moving 1 us a read ends after %u "
	       "(%u ns, one read every %u pauses): made %u", want, CASLIST_LK_BACKOFF_ROUND_NS,
	       CASLIST_LK_BACKOFF_CLOCK_EVERY, made);
	fake_step = 0;
	made = caslist_lk_backoff_pause(32767u);
	tap_ok(made == 32767u, "on a clock that does not move it makes all 32767: made %u", made);
	fake_step = 1000;
	fake_reads = 0;
	made = caslist_lk_backoff_pause(CASLIST_LK_BACKOFF_CLOCK_EVERY - 1u);
	tap_ok(made == CASLIST_LK_BACKOFF_CLOCK_EVERY - 1u && fake_reads == 0,
	       "a round of %u pauses makes them all and reads no clock (%llu reads)",
	       CASLIST_LK_BACKOFF_CLOCK_EVERY - 1u, fake_reads);
	fake_on = false;
}

static atomic_bool spin_stop;

static void *spinner(void *arg)
{
	(void)arg;
	/* Relaxed: a stop flag, nothing else is read after it. */
	while (!atomic_load_explicit(&spin_stop, memory_order_relaxed))
		caslist_lk_cpu_relax();
	return NULL;
}

/* Rounds of backoff() until the pauses stop growing; returns the cap. */
static unsigned settled_spins(void)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;

	for (int i = 0; i < 12; i++) {
		unsigned cap = caslist_lk_backoff_cap();

		if (b.spins >= cap)
			return b.spins;
		caslist_lk_backoff(&b);
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
	CASLIST_LK_SELF.crowd = 0;
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
		caslist_lk_backoff_yield();
		crowded = caslist_lk_backoff_cap() == CASLIST_LK_CROWDED_MAX;
	}
	atomic_store_explicit(&spin_stop, true, memory_order_relaxed);
	pthread_join(t, NULL);
	tap_ok(crowded, "a yield that gave the CPU to a spinning thread on the same CPU "
	       "raised the hint (cap %u)", caslist_lk_backoff_cap());
}

static void test_growth(void)
{
	static const unsigned want[4] = { 7, 63, 511, 4095 };
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	bool grows = true, drawn = true;

	for (int i = 0; i < 4; i++) {
		caslist_lk_backoff(&b);
		grows &= b.spins == want[i];
	}
	tap_ok(grows, "budgets grow eightfold: 7, 63, 511, 4095");
	for (int i = 0; i < 10000; i++) {
		unsigned n = caslist_lk_backoff_draw() & 511u;

		drawn &= n <= 511;
	}
	tap_ok(drawn, "draws of a 511 budget are in [0, 511] (and a round pauses once more)");
}

int main(void)
{
	bool crowded;

	tap_ok(caslist_lk_backoff_cap() == CASLIST_LK_BACKOFF_MAX,
	       "a new thread spins up to %u pauses a round",
	       CASLIST_LK_BACKOFF_MAX);
	caslist_lk_backoff_note_yield(10000);
	caslist_lk_backoff_note_yield(CASLIST_LK_YIELD_SLOW_NS);
	tap_ok(caslist_lk_backoff_cap() == CASLIST_LK_BACKOFF_MAX,
	       "a 10 us yield and one of %u ns are not slow: the cap stays %u",
	       CASLIST_LK_YIELD_SLOW_NS, CASLIST_LK_BACKOFF_MAX);
	caslist_lk_backoff_note_yield(CASLIST_LK_YIELD_SLOW_NS + 1);
	tap_ok(caslist_lk_backoff_cap() == CASLIST_LK_CROWDED_MAX,
	       "one slow yield lowers the cap to %u",
	       CASLIST_LK_CROWDED_MAX);
	for (unsigned i = 0; i + 1 < CASLIST_LK_CROWD_HOLD; i++)
		caslist_lk_backoff_note_yield(100);
	tap_ok(caslist_lk_backoff_cap() == CASLIST_LK_CROWDED_MAX, "%u quick yields keep it low",
	       CASLIST_LK_CROWD_HOLD - 1);
	caslist_lk_backoff_note_yield(CASLIST_LK_YIELD_SLOW_NS + 1);	/* starts the count over */
	for (unsigned i = 0; i + 1 < CASLIST_LK_CROWD_HOLD; i++)
		caslist_lk_backoff_note_yield(100);
	crowded = caslist_lk_backoff_cap() == CASLIST_LK_CROWDED_MAX;
	caslist_lk_backoff_note_yield(100);
	tap_ok(crowded && caslist_lk_backoff_cap() == CASLIST_LK_BACKOFF_MAX,
	       "a slow yield starts the count over; %u quick ones raise the cap again",
	       CASLIST_LK_CROWD_HOLD);

	caslist_lk_backoff_note_yield(CASLIST_LK_YIELD_SLOW_NS + 1);
	tap_ok(settled_spins() == CASLIST_LK_CROWDED_MAX, "crowded: rounds settle at %u pauses",
	       CASLIST_LK_CROWDED_MAX);
	CASLIST_LK_SELF.crowd = 0;
	tap_ok(settled_spins() == CASLIST_LK_BACKOFF_MAX, "not crowded: rounds settle at %u pauses",
	       CASLIST_LK_BACKOFF_MAX);
	test_growth();
	test_round_time();

	test_pinned();
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
