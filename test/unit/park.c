/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/unit/park.c - the parking lot's two calls into the kernel
 * (lib/wait.c): a timed park sleeps at least its timeout when nobody
 * bumps its slot, returns at once when the slot moved before it slept,
 * and an untimed park ends at a bump and wake.  The first is what a
 * 32-bit build with a 64-bit time_t (_TIME_BITS=64, musl 1.2) got wrong
 * when libc's struct timespec reached SYS_futex: the kernel read a zero
 * timeout and every timed park returned at once.  Which libc layout this
 * build has is printed; cross-check runs it for i686 and armhf with
 * -D_TIME_BITS=64 (doc/platforms.md).  TAP output; exit 0 = pass.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include <caslist/static/wait.h>

#include "../tap.h"
#include "../util.h"

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000u + (unsigned long long)ts.tv_nsec;
}

static struct caslist_lk_park *slot = &caslist_lk_park_slots[3];
static _Atomic int woke;

static void *sleeper(void *arg)
{
	uint32_t seen = (uint32_t)(uintptr_t)arg;

	/* untimed: only a bump and a wake end it (a spurious return is
	 * checked again, as wait.h's callers do) */
	while (atomic_load_explicit(&slot->seq, memory_order_acquire) == seen)
		caslist_lk_park_sleep(slot, seen, 0);
	atomic_store(&woke, 1);
	return NULL;
}

int main(void)
{
	const unsigned us = 20000;
	uint32_t seen = atomic_load_explicit(&slot->seq, memory_order_relaxed);
	unsigned long long t0, ns;
	pthread_t thr;
	int short_parks = 0;

	watchdog_arm(60);
	printf("# time_t %zu bytes, long %zu bytes\n", sizeof(time_t), sizeof(long));
	for (int i = 0; i < 3; i++) {
		t0 = now_ns();
		caslist_lk_park_sleep(slot, seen, us);
		ns = now_ns() - t0;
		if (ns < us * 1000ull) {
			short_parks++;
			printf("# park %d: %llu ns\n", i, ns);
		}
	}
	tap_ok(short_parks == 0, "three timed parks of %u us each slept at least their timeout (%d short)",
	       us, short_parks);

	/* a slot that moved: the kernel's compare fails, no sleep (the
	 * 10 s timeout would show as the watchdog's, never as a pass) */
	atomic_fetch_add_explicit(&slot->seq, 1, memory_order_seq_cst);
	t0 = now_ns();
	caslist_lk_park_sleep(slot, seen, 10000000u);
	ns = now_ns() - t0;
	tap_ok(ns < 5000000000ull, "a park on a slot that already moved returns without its 10 s timeout");

	seen = atomic_load_explicit(&slot->seq, memory_order_relaxed);
	if (pthread_create(&thr, NULL, sleeper, (void *)(uintptr_t)seen) != 0)
		return 1;
	nanosleep(&(struct timespec){ 0, 50000000L }, NULL);	/* let it reach its sleep */
	atomic_fetch_add_explicit(&slot->seq, 1, memory_order_seq_cst);
	caslist_lk_park_wake(slot);
	pthread_join(thr, NULL);
	tap_ok(atomic_load(&woke) == 1, "an untimed park ends at a bump and wake");
	return tap_done();
}
