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
/*
 * FUTEX_PRIVATE: the slots are this process's.  The kernel compares
 * p->seq with SEEN under its own lock and sleeps only if they are equal,
 * so a bump that came after our check and before the sleep is not lost
 * (wait.h, caslist_lk_park_bump).
 *
 * The timeout in the kernel's own layout, never libc's struct timespec:
 * on a 32-bit target built with a 64-bit time_t (musl 1.2, glibc's
 * _TIME_BITS=64) libc's timespec has a 64-bit tv_sec, which SYS_futex
 * reads as two 32-bit words (a zero timeout).  There SYS_futex_time64
 * takes the 64-bit layout; elsewhere SYS_futex takes two longs.
 */
#if defined(SYS_futex_time64) && ULONG_MAX == 0xffffffffUL
#define CASLIST_FUTEX_TIME64 1
#endif
struct caslist_kts64 { long long tv_sec, tv_nsec; };	/* __kernel_timespec */
struct caslist_kts { long tv_sec, tv_nsec; };		/* the old one: two longs */

void caslist_lk_park_sleep(struct caslist_lk_park *p, uint32_t seen, unsigned timeout_us)
{
	struct caslist_kts ts = { (long)(timeout_us / 1000000u), (long)(timeout_us % 1000000u) * 1000L };
#ifdef CASLIST_FUTEX_TIME64
	struct caslist_kts64 ts64 = { ts.tv_sec, ts.tv_nsec };

	if (syscall(SYS_futex_time64, (uint32_t *)&p->seq, FUTEX_WAIT_PRIVATE, seen,
		    timeout_us ? &ts64 : NULL, NULL, 0) != -1 || errno != ENOSYS)
		return;
	/* a kernel before 5.1: the old call, the same values in two longs */
#endif
#ifdef SYS_futex
	syscall(SYS_futex, (uint32_t *)&p->seq, FUTEX_WAIT_PRIVATE, seen, timeout_us ? &ts : NULL,
		NULL, 0);
#endif
}

void caslist_lk_park_wake(struct caslist_lk_park *p)
{
	/* no timeout: any futex call will do (SYS_futex where there is one) */
#ifdef SYS_futex
	syscall(SYS_futex, (uint32_t *)&p->seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
	syscall(SYS_futex_time64, (uint32_t *)&p->seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#endif
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
