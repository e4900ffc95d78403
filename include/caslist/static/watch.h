/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/watch.h> - the stuck-wait watchdog, and one round of
 * waiting on one link's lock (caslist_lk_backoff_wait): one round of the
 * policy (backoff.h), and in every build a watch on the time, but only once the backoff is at its cap (the
 * yielding phase, where a clock read is noise): a wait on the same link
 * that lasts longer than caslist_lk_stuck_ms() (CASLIST_STUCK_MS, default
 * 5000) prints one line naming the link, the waiting operation, the
 * holder (debug builds record it) and the likely causes (debug.h), then
 * goes on waiting.  A wait that never reaches the cap costs one compare
 * and one store more per round.
 */
#ifndef CASLIST_STATIC_WATCH_H
#define CASLIST_STATIC_WATCH_H

#include "backoff.h"
#include "debug.h"

CASLIST_LK_BEGIN

/*
 * The stuck-wait watch (every build), per thread (per translation unit in
 * inline mode, like the crowding hint): the link this thread's current
 * wait is on, when that wait started yielding on it, and whether it has
 * reported.  Not shared: no atomics.
 */
struct caslist_lk_backoff_watch_state {
	const void *link;
	unsigned long long t0_ms;
	bool told;
};
static CASLIST_LK_THREAD_LOCAL_STRUCT struct caslist_lk_backoff_watch_state caslist_lk_backoff_ws
	__attribute__((unused));

/*
 * Called only from the yielding phase of a wait: start the clock when this
 * wait first gets here or moves to another link; past caslist_lk_stuck_ms(),
 * say so once (the waiter keeps waiting).
 */
static inline void caslist_lk_backoff_watch(struct caslist_lk_backoff *b, const void *link,
					    const char *op)
{
	unsigned long long now = caslist_lk_backoff_now_ms();

	if (!b->armed || caslist_lk_backoff_ws.link != link) {
		b->armed = 1;
		caslist_lk_backoff_ws.link = link;
		caslist_lk_backoff_ws.t0_ms = now;
		caslist_lk_backoff_ws.told = false;
	} else if (!caslist_lk_backoff_ws.told &&
		   now - caslist_lk_backoff_ws.t0_ms > caslist_lk_stuck_ms()) {
		caslist_lk_backoff_ws.told = true;
		caslist_lk_stuck(link, op, CASLIST_LK_ICAST(unsigned long, now - caslist_lk_backoff_ws.t0_ms));
	}
}


/* One round of waiting for the lock of LINK, by operation OP. */
static inline void caslist_lk_backoff_wait(struct caslist_lk_backoff *b, const void *link,
					   const char *op)
{
	if (b->spins >= caslist_lk_backoff_cap())
		caslist_lk_backoff_watch(b, link, op);

	/* Local spinning first: one PAUSE per round, and the caller re-reads
	 * the word (a load: the line stays shared until the holder's store),
	 * so a short critical section is seen ending at once; exponential
	 * backoff (and, at its cap, sched_yield) only after CASLIST_LK_POLL_MAX rounds. */
#if defined(CASLIST_LK_POLL_TUNABLE) || CASLIST_POLL_MAX > 0
	if (b->polls < CASLIST_LK_POLL_MAX) {
		b->polls++;
		CASLIST_LK_STAT(pauses, 1);
		caslist_lk_cpu_relax();
		return;
	}
#endif
	caslist_lk_backoff(b);
}

CASLIST_LK_END

#endif /* CASLIST_STATIC_WATCH_H */
