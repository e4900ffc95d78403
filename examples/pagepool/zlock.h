/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/zlock.h - the zone lock: a test-and-test-and-set
 * spinlock that measures how long its callers wait.
 *
 * The first attempt is a bare exchange, so an uncontended acquire costs no
 * clock read; only a failed attempt starts the clock.  Waiters spin on a
 * plain load with pause, and yield after a while: with more threads than
 * cores the holder may be preempted (a kernel spinlock holder cannot be;
 * user space has to give the CPU back).  The wait time is what the seed
 * reports as zone-lock contention (perf's share of time in the slow path).
 */
#ifndef PAGEPOOL_ZLOCK_H
#define PAGEPOOL_ZLOCK_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

struct zlock {
	_Atomic(int) locked;
	char pad[64 - sizeof(int)];
} __attribute__((aligned(64)));

static inline uint64_t pp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void zlock_init(struct zlock *l)
{
	atomic_init(&l->locked, 0);
}

static inline void zlock_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	atomic_signal_fence(memory_order_seq_cst);	/* a compiler barrier only */
#endif
}

/* Acquire; adds the time spent waiting to *wait_ns. */
static inline void zlock_acquire(struct zlock *l, uint64_t *wait_ns)
{
	/* acquire: pairs with the release in zlock_release, so the previous
	 * holder's buddy-state writes are visible to us. */
	if (!atomic_exchange_explicit(&l->locked, 1, memory_order_acquire))
		return;
	uint64_t t0 = pp_now_ns();
	unsigned spins = 0;

	for (;;) {
		/* relaxed: only a hint that the lock looks free; the exchange
		 * below is what orders. */
		while (atomic_load_explicit(&l->locked, memory_order_relaxed)) {
			if (++spins < 128)
				zlock_pause();
			else
				sched_yield();
		}
		/* acquire: as above. */
		if (!atomic_exchange_explicit(&l->locked, 1, memory_order_acquire))
			break;
	}
	*wait_ns += pp_now_ns() - t0;
}

static inline void zlock_release(struct zlock *l)
{
	/* release: pairs with the acquire exchanges above; publishes every
	 * write made under the lock to the next holder. */
	atomic_store_explicit(&l->locked, 0, memory_order_release);
}

#endif /* PAGEPOOL_ZLOCK_H */
