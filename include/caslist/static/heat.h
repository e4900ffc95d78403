/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/heat.h> - the heat: the budget a hot link's next wait
 * starts from, per thread (per translation unit in inline mode).  A wait
 * that had to back off leaves its budget here, so the same thread's
 * next wait on a hot head starts where this one ended: a thread that
 * keeps losing the head parks longer and longer (up to the cap), and the
 * winner runs a streak on lines it holds.  Each acquisition without a
 * wait halves it.  Used by the head waits (caslist_lk_lock_head,
 * move_head).  Not shared between threads: no atomics.
 */
#ifndef CASLIST_STATIC_HEAT_H
#define CASLIST_STATIC_HEAT_H

#include "backoff.h"

CASLIST_LK_BEGIN

static CASLIST_LK_THREAD_LOCAL unsigned caslist_lk_backoff_heat __attribute__((unused));

/*
 * How long this thread's head operations have lost, in a row, in us: the
 * waits of consecutive operations that all had to wait add up here (fair.h
 * starts a wait's ticket clock that far back, so a thread that wins one
 * operation after every long wait still reaches its ticket).  The run
 * ends when acquisitions without a wait have cooled the heat to 0 (each
 * halves it: about 15 in a row from the cap), or when a ticket of this
 * thread is served (fair.h).  The reset is in caslist_lk_backoff_heat_cool,
 * inside its "heat != 0" branch, so a thread that keeps winning (heat 0)
 * pays no store.  That needs: lost != 0 implies heat != 0, which fair.h's
 * end of a wait keeps (caslist_lk_fair_end).
 */
static CASLIST_LK_THREAD_LOCAL unsigned caslist_lk_fair_lost_us __attribute__((unused));

static inline void caslist_lk_backoff_heat_start(struct caslist_lk_backoff *b)
{
	if (caslist_lk_backoff_heat > b->spins)
		b->spins = caslist_lk_backoff_heat;
}

/* An acquisition without a wait: the heat halves; once it reaches 0, the
 * run of lost waits ends.  (heat_end calls it for a wait that did not
 * grow the budget too; fair.h's end of that wait, which comes after it,
 * sets the loss again.) */
static inline void caslist_lk_backoff_heat_cool(void)
{
	if (caslist_lk_backoff_heat != 0) {
		caslist_lk_backoff_heat >>= 1;
		if (caslist_lk_backoff_heat == 0)
			caslist_lk_fair_lost_us = 0;
	}
}

static inline void caslist_lk_backoff_heat_end(const struct caslist_lk_backoff *b, unsigned start)
{
	if (b->spins != start)
		caslist_lk_backoff_heat = b->spins;
	else
		caslist_lk_backoff_heat_cool();
}

CASLIST_LK_END

#endif /* CASLIST_STATIC_HEAT_H */
