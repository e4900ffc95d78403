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
 */
#ifndef CASLIST_LIB_BACKOFF_H
#define CASLIST_LIB_BACKOFF_H

#include <sched.h>
#include <stdatomic.h>

#define BACKOFF_MIN 4u
#define BACKOFF_MAX 1024u

struct backoff {
	unsigned spins;
};
#define BACKOFF_INIT { BACKOFF_MIN }

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
	for (unsigned i = 0; i < b->spins; i++)
		cpu_relax();
	if (b->spins < BACKOFF_MAX)
		b->spins <<= 1;
	else
		sched_yield();
}

#endif /* CASLIST_LIB_BACKOFF_H */
