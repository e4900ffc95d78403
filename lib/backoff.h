/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/backoff.h - bounded exponential backoff for every spin in the library.
 *
 * Each wait pauses 2^k times (k grows per failed attempt, capped), always
 * with the CPU's pause/yield hint; once at the cap it also calls
 * sched_yield(), because with more threads than cores the holder of the
 * link we wait for may be preempted (the test suite runs 256 threads on 2
 * cores).  Concurrency Kit's ck_backoff_eb is the same idea but never
 * yields, and its stall is inline asm; this is eight lines of our own.
 *
 * backoff_wait(b, link, op) is backoff() for a wait on one link's lock.
 * In debug builds it also watches the time: once at the cap, a wait on
 * the same link that lasts longer than caslist__stuck_ms() prints one
 * diagnostic naming the link and its holder (debug.h), then goes on
 * waiting.  Release builds compile it to backoff().
 */
#ifndef CASLIST_LIB_BACKOFF_H
#define CASLIST_LIB_BACKOFF_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include "debug.h"

/*
 * Wait counters and a tunable policy, for the measurement build only
 * (-DCASLIST_STATS: test/waitstat).  Per thread: backoff rounds, PAUSEs
 * spun, sched_yield calls (a round = one failed attempt at a held link, or
 * one retry of an operation).  Release and
 * debug builds compile all of it away.
 */
#ifdef CASLIST_STATS
struct caslist__stats {
	unsigned long rounds, pauses, yields;
};
extern _Thread_local struct caslist__stats caslist__stats;
extern unsigned caslist__backoff_min, caslist__backoff_max, caslist__poll_max;
#define CASLIST_STAT(field, n) (caslist__stats.field += (n))
#define BACKOFF_MIN caslist__backoff_min
#define BACKOFF_MAX caslist__backoff_max
#define POLL_MAX caslist__poll_max
#else
#define CASLIST_STAT(field, n) ((void)0)
#define BACKOFF_MIN 4u
#define BACKOFF_MAX 1024u
#define POLL_MAX CASLIST_POLL_MAX
#endif
#ifndef CASLIST_POLL_MAX
#define CASLIST_POLL_MAX 0	/* rounds of local spinning before backing off */
#endif

struct backoff {
	unsigned spins;
	unsigned polls;		/* backoff_wait: rounds of local spinning so far */
#if CASLIST_DEBUG_ON
	const void *link;		/* the link waited on since t0 */
	unsigned long long t0_ms;	/* 0: clock not started */
	bool told;			/* diagnostic printed for this link */
#endif
};
#if CASLIST_DEBUG_ON
#define BACKOFF_INIT { BACKOFF_MIN, 0, NULL, 0, false }
#else
#define BACKOFF_INIT { BACKOFF_MIN, 0 }
#endif

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	atomic_signal_fence(memory_order_seq_cst);
#endif
}

static inline void backoff(struct backoff *b)
{
	CASLIST_STAT(rounds, 1);
	CASLIST_STAT(pauses, b->spins);
	for (unsigned i = 0; i < b->spins; i++)
		cpu_relax();
	if (b->spins < BACKOFF_MAX) {
		b->spins = b->spins ? b->spins << 1 : 1;
	} else {
		CASLIST_STAT(yields, 1);
		sched_yield();
	}
}

#if CASLIST_DEBUG_ON
static inline unsigned long long backoff_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000u + (unsigned long long)ts.tv_nsec / 1000000u;
}
#endif

/* One round of waiting for the lock of LINK, by operation OP. */
static inline void backoff_wait(struct backoff *b, const void *link, const char *op)
{
#if CASLIST_DEBUG_ON
	if (b->link != link) {		/* a new link: restart the clock */
		b->link = link;
		b->t0_ms = 0;
		b->told = false;
	}
	if (b->spins >= BACKOFF_MAX && !b->told) {
		unsigned long long now = backoff_now_ms();

		if (b->t0_ms == 0) {
			b->t0_ms = now;
		} else if (now - b->t0_ms > caslist__stuck_ms()) {
			b->told = true;
			caslist__stuck(link, op, (unsigned long)(now - b->t0_ms));
		}
	}
#endif
	(void)link;
	(void)op;
	/* Local spinning first: one PAUSE per round, and the caller re-reads
	 * the word (a load: the line stays shared until the holder's store),
	 * so a short critical section is seen ending at once; exponential
	 * backoff (and, at its cap, sched_yield) only after POLL_MAX rounds. */
#if defined(CASLIST_STATS) || CASLIST_POLL_MAX > 0
	if (b->polls < POLL_MAX) {
		b->polls++;
		CASLIST_STAT(pauses, 1);
		cpu_relax();
		return;
	}
#endif
	backoff(b);
}

#endif /* CASLIST_LIB_BACKOFF_H */
