/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/wait.c - the storage of <caslist/static/wait.h> (the per-thread
 * wait state and the parking lot: one definition for the library and for
 * every inline-mode file of a program), and its two calls into the
 * kernel: sleep on a parking slot, wake its sleepers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#include <caslist/static/wait.h>

__thread CASLIST_LK_TLS_MODEL struct caslist_lk_self caslist_lk_self_tls;
struct caslist_lk_park caslist_lk_park_slots[CASLIST_LK_PARK_SLOTS]
	__attribute__((aligned(64)));

#ifdef __linux__
/* FUTEX_PRIVATE: the slots are this process's.  The kernel compares
 * p->seq with SEEN under its own lock and sleeps only if they are equal,
 * so a bump that came after our check and before the sleep is not lost
 * (wait.h, caslist_lk_park_bump). */
void caslist_lk_park_sleep(struct caslist_lk_park *p, uint32_t seen, unsigned timeout_us)
{
	struct timespec ts = { (time_t)(timeout_us / 1000000u),
			       (long)(timeout_us % 1000000u) * 1000L };

	syscall(SYS_futex, (uint32_t *)&p->seq, FUTEX_WAIT_PRIVATE, seen,
		timeout_us ? &ts : NULL, NULL, 0);
}

void caslist_lk_park_wake(struct caslist_lk_park *p)
{
	syscall(SYS_futex, (uint32_t *)&p->seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}
#else
/* No futex: sleep in short slices and let the caller check again. */
void caslist_lk_park_sleep(struct caslist_lk_park *p, uint32_t seen, unsigned timeout_us)
{
	struct timespec ts = { 0, 50000L };

	(void)p;
	(void)seen;
	if (timeout_us != 0 && timeout_us < 50u)
		ts.tv_nsec = (long)timeout_us * 1000L;
	nanosleep(&ts, NULL);
}

void caslist_lk_park_wake(struct caslist_lk_park *p)
{
	(void)p;
}
#endif
