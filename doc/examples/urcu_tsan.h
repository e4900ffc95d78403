/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * doc/examples/urcu_tsan.h - ThreadSanitizer and liburcu: what the liburcu
 * examples (rcu_free.c, lru_touch.c) and test/stress/xlist.c share.
 * Include it after <urcu/urcu-memb.h>.
 *
 * liburcu is not instrumented, so TSan cannot see that a grace period
 * orders the readers before the free, and reports each free against the
 * readers' last accesses.  Two annotations tell it, compiled only under
 * TSan (URCU_TSAN is then defined), no-ops otherwise:
 *	reader_done()	each reader "releases" one address as it leaves its
 *			critical section (and before call_rcu);
 *	grace_over()	the code that frees "acquires" it after the grace
 *			period (at the top of a call_rcu callback).
 *
 * read_lock() and read_unlock() open and close a read-side critical
 * section, read_unlock() with reader_done() first.
 *
 * wait_callbacks(&freed, &retired) waits until every call_rcu callback has
 * run, before a test checks its counts: urcu_memb_barrier(), the usual way;
 * under TSan it polls until *freed reaches *retired instead (giving up
 * after 60 s), because rcu_barrier() frees liburcu's own bookkeeping in
 * the call_rcu thread and TSan, blind to liburcu's ordering, reports that
 * free inside liburcu.  Then grace_over(): the callbacks' frees happen
 * before the caller's checks.
 */
#ifndef CASLIST_EXAMPLE_URCU_TSAN_H
#define CASLIST_EXAMPLE_URCU_TSAN_H

#include <stdatomic.h>
#include <unistd.h>

#if defined(__SANITIZE_THREAD__)
#define URCU_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define URCU_TSAN 1
#endif
#endif

#ifdef URCU_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
static char grace_sync;	/* the address the two annotations meet at */
#define reader_done() __tsan_release(&grace_sync)
#define grace_over() __tsan_acquire(&grace_sync)
#else
#define reader_done() ((void)0)
#define grace_over() ((void)0)
#endif

static inline void read_lock(void)
{
	urcu_memb_read_lock();
}

static inline void read_unlock(void)
{
	reader_done();
	urcu_memb_read_unlock();
}

static inline void wait_callbacks(_Atomic long *freed, _Atomic long *retired)
{
#ifndef URCU_TSAN
	(void)freed;
	(void)retired;
	urcu_memb_barrier();
#else
	for (int ms = 0; ms < 60000 && atomic_load(freed) < atomic_load(retired); ms++)
		usleep(1000);
#endif
	grace_over();
}

#endif /* CASLIST_EXAMPLE_URCU_TSAN_H */
