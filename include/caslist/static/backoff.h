/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/backoff.h> - the wait policy: bounded, randomised,
 * fast-growing backoff for every spin in the library.
 *
 * Each round of a wait pauses a random number of times drawn below a
 * budget that grows eightfold per round (7, 63, 511, ...: a mask, so the
 * draw is r & budget), capped; once at the cap every round also calls
 * sched_yield(), because with more threads than cores the holder of the
 * link we wait for may be preempted.  The cap is CASLIST_LK_BACKOFF_MAX,
 * or CASLIST_LK_CROWDED_MAX while this thread has recently seen a
 * sched_yield give its CPU away (the crowding hint below).
 *
 * Why random and fast-growing: on a hot head the rate is set by how often
 * the head's and the first node's lines change cores, not by how long the
 * lock is held; a loser that draws a long random pause lets the winner
 * run a streak of operations on lines it already holds (doc/protocol.md,
 * "The hot head", has the measurements).  The draw (xorshift, per thread)
 * keeps two losers from waking together.
 *
 * Beside it: heat.h (the budget a hot link's next wait starts from) and
 * watch.h (the stuck-wait watchdog, and caslist_lk_backoff_wait: one round
 * of waiting on one link = this policy + the watchdog).
 */
#ifndef CASLIST_STATIC_BACKOFF_H
#define CASLIST_STATIC_BACKOFF_H

#include <sched.h>
#include <stdbool.h>
#include <time.h>

#include "cast.h"
#include "atomic.h"

CASLIST_LK_BEGIN

/*
 * The wait policy's constants and the statistics hooks.  Each is a default
 * that a measurement build may set before this header (test/measure/waitstat
 * force-includes the non-installed lib/stats.h, which makes them
 * per-thread counters and tunable variables); nothing else sets them.
 */
#ifndef CASLIST_LK_STAT
#define CASLIST_LK_STAT(field, n) ((void)0)
#endif
#ifndef CASLIST_LK_STAT_YIELD	/* a sched_yield took ns; slow: over the threshold */
#define CASLIST_LK_STAT_YIELD(ns, slow) ((void)0)
#endif
#ifndef CASLIST_LK_BACKOFF_MIN
#define CASLIST_LK_BACKOFF_MIN 0u	/* the budget before the first round */
#endif
#ifndef CASLIST_LK_BACKOFF_MAX
#define CASLIST_LK_BACKOFF_MAX 32767u	/* the budget's cap: a mask 2^k - 1 */
#endif
#ifndef CASLIST_LK_POLL_MAX
#define CASLIST_LK_POLL_MAX CASLIST_POLL_MAX
#endif
#ifndef CASLIST_LK_CROWDED_MAX
#define CASLIST_LK_CROWDED_MAX 63u	/* the cap while crowded (a mask) */
#endif
#ifndef CASLIST_POLL_MAX
#define CASLIST_POLL_MAX 0	/* rounds of local spinning before backing off */
#endif

/*
 * One wait (a loop that may back off).  8 bytes, set by one store: the
 * fast path of every operation declares one.  The stuck watch's state is per thread (watch.h), armed by the
 * first round of a wait that reaches the yielding phase: a thread runs
 * one wait at a time.
 */
struct caslist_lk_backoff {
	unsigned spins;		/* the budget: pauses are drawn in [0, spins] */
	unsigned short polls;	/* caslist_lk_backoff_wait: rounds of local spinning so far */
	unsigned char armed;	/* caslist_lk_backoff_wait: this wait owns the watch state */
	unsigned char fair;	/* fair.h: CASLIST_LK_FAIR_NONE, _TIMING or _TURN */
};
#define CASLIST_LK_BACKOFF_INIT { CASLIST_LK_BACKOFF_MIN, 0, 0, 0 }

static inline void caslist_lk_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	/* A compiler barrier only (G1): no order between threads. */
	atomic_signal_fence(memory_order_acq_rel);
#endif
}

static inline unsigned long long caslist_lk_backoff_now_ns(void)
{
	struct timespec ts;

#ifdef CLOCK_MONOTONIC
	clock_gettime(CLOCK_MONOTONIC, &ts);
#else
	/* ISO C without POSIX (-std=c11 in the user's inline build): the
	 * calendar clock, good enough for a yield's length and the stuck
	 * watch's seconds. */
	timespec_get(&ts, TIME_UTC);
#endif
	return CASLIST_LK_ICAST(unsigned long long, ts.tv_sec) * 1000000000u +
	       CASLIST_LK_ICAST(unsigned long long, ts.tv_nsec);
}

/*
 * The crowding hint, per thread (per translation unit too: in inline mode
 * the caller's files have their own).  A sched_yield that kept us off the
 * CPU for more than CASLIST_LK_YIELD_SLOW_NS means other threads were waiting for
 * this CPU: the machine is oversubscribed, and the holder of the link we
 * wait for may be one of them, preempted.  While the hint is up, a wait
 * yields as soon as its rounds reach CASLIST_LK_CROWDED_MAX pauses instead of
 * CASLIST_LK_BACKOFF_MAX: spinning on would only burn the time slice that holder
 * needs.  A slow yield sets the hint to CASLIST_LK_CROWD_HOLD, a quick one (nobody
 * else to run: about 0.5 us on the 2-vCPU test machines) lowers it by one,
 * so one stall of the host does not keep a thread yielding early for long.
 * Slow means over 30 us.  With a few threads per CPU (4 on 2 vCPUs) a yield
 * mostly hands the CPU to another waiter, which spins its round and hands
 * it back: 4-130 us, half of them under about 30 us, measured; with many
 * (64 on 2) half take over 500 us.  At 5 us (the threshold before) nearly every
 * yield at 4 threads counted as slow, so those waits stayed crowded,
 * yielded after 63 pauses, and each yield put an operation into the tail
 * (doc/protocol.md, "Oversubscribed: when a yield is slow").
 * Not shared between threads: no atomics, nothing to order.
 */
#define CASLIST_LK_YIELD_SLOW_NS 30000u
#define CASLIST_LK_CROWD_HOLD 8u
static CASLIST_LK_THREAD_LOCAL unsigned char caslist_lk_backoff_crowd __attribute__((unused));

/* A sched_yield took NS nanoseconds: raise or lower the hint. */
static inline void caslist_lk_backoff_note_yield(unsigned long long ns)
{
	if (ns > CASLIST_LK_YIELD_SLOW_NS)
		caslist_lk_backoff_crowd = CASLIST_LK_CROWD_HOLD;
	else if (caslist_lk_backoff_crowd > 0)
		caslist_lk_backoff_crowd--;
}

/* The spin cap of this thread's next round. */
static inline unsigned caslist_lk_backoff_cap(void)
{
	return caslist_lk_backoff_crowd ? CASLIST_LK_CROWDED_MAX : CASLIST_LK_BACKOFF_MAX;
}

static inline void caslist_lk_backoff_yield(void)
{
	unsigned long long t0 = caslist_lk_backoff_now_ns(), ns;

	CASLIST_LK_STAT(yields, 1);
	sched_yield();
	ns = caslist_lk_backoff_now_ns() - t0;
	CASLIST_LK_STAT_YIELD(ns, ns > CASLIST_LK_YIELD_SLOW_NS);
	caslist_lk_backoff_note_yield(ns);
}

/*
 * The draw: xorshift32, per thread (per translation unit in inline mode,
 * as the crowding hint); not shared, no atomics.  Its seed only has to
 * be non-zero.
 */
static CASLIST_LK_THREAD_LOCAL unsigned caslist_lk_backoff_rng __attribute__((unused)) =
	0x9e3779b9u;

static inline unsigned caslist_lk_backoff_draw(void)
{
	unsigned r = caslist_lk_backoff_rng;

	r ^= r << 13;
	r ^= r >> 17;
	r ^= r << 5;
	return caslist_lk_backoff_rng = r;
}


/* The budget after one more round: eightfold, up to the cap. */
static inline unsigned caslist_lk_backoff_grow(unsigned spins, unsigned cap)
{
	return spins >= cap / 8 ? cap : spins * 8 + 7;
}

static inline void caslist_lk_backoff(struct caslist_lk_backoff *b)
{
	unsigned cap = caslist_lk_backoff_cap();
	bool at_cap = b->spins >= cap;
	unsigned n;

	/* One pause first, then the draw: a wait always waits, and a GenMC
	 * run, whose shim ends a waiting execution at its first pause, never
	 * writes the per-thread seed (test/genmc/shim.h, 6). */
	caslist_lk_cpu_relax();
	b->spins = caslist_lk_backoff_grow(b->spins, cap);
	n = caslist_lk_backoff_draw() & b->spins;
	CASLIST_LK_STAT(rounds, 1);
	CASLIST_LK_STAT(pauses, n + 1);
	for (unsigned i = 0; i < n; i++)
		caslist_lk_cpu_relax();
	if (at_cap)
		caslist_lk_backoff_yield();
}

static inline unsigned long long caslist_lk_backoff_now_ms(void)
{
	return caslist_lk_backoff_now_ns() / 1000000u;
}

CASLIST_LK_END

#endif /* CASLIST_STATIC_BACKOFF_H */
