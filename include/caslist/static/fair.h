/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/fair.h> - bounded bypass at a list's head: a thread that
 * has lost head waits for longer than CASLIST_FAIR_US (in one operation,
 * or in a run of operations that each had to wait: heat.h's
 * caslist_lk_fair_lost_us) takes a ticket, and every operation on that
 * head that starts after the ticket waits until the ticket's holder has
 * had the head.
 *
 * Why: the wait policy (backoff.h, heat.h) makes a loser park for long so
 * that the winner runs a streak on lines it already holds; that is where
 * the hot head's throughput comes from, but alone it lets one thread win
 * for ever.  The ticket ends a streak once a waiter has waited past the
 * bound and hands the streak over: the served thread's heat drops to 0,
 * and a thread that deferred to it starts its next wait at the cap, so
 * the roles swap instead of the same thread losing again.
 *
 * The words: struct caslist_list's want_next (tickets issued) and
 * want_served (tickets served); no ticket is pending iff they are equal.
 *
 * The bound (doc/protocol.md, "Fairness: bounded bypass"): between the
 * ticket of a waiter W and W's taking the head, every other thread
 * completes at most one operation that takes this head (the one it was
 * already in when W took the ticket); every later one waits for W.
 * Stated in the single total order of the seq_cst accesses to want_next
 * (the entry's load, the ticket's fetch_add); want_served is relaxed
 * (doc/protocol.md, "Memory orders", G9).
 * test/stress/bypass counts it; test/genmc/fairticket checks it for one
 * ticket.
 *
 * Who takes part.  Only a thread that holds no link anyone could wait for
 * may defer or wait for its turn: a thread that defers while holding one
 * (a touch's claimed node, a cut's last link, a flush's chain) could be
 * waited for by the ticket's holder, which waits for it: a deadlock.
 * Those waits use caslist_lk_lock_head_held and neither defer nor take
 * tickets.  pop_tail takes part as a head operation (its retries hold
 * nothing); waits on other links (interior del, add_tail) are not queued.
 */
#ifndef CASLIST_STATIC_FAIR_H
#define CASLIST_STATIC_FAIR_H

#include <stdint.h>

#include <caslist/list.h>
#include "watch.h"
#include "heat.h"

CASLIST_LK_BEGIN

#ifndef CASLIST_FAIR_US
#define CASLIST_FAIR_US 1000	/* a head wait longer than this takes a ticket */
#endif

/* A test hook (test/stress/bypass defines it); EV is ticket or served. */
#ifndef CASLIST_LK_FAIR_HOOK
#define CASLIST_LK_FAIR_HOOK(ev, l, ticket) ((void)0)
#endif

/*
 * The rest of a head wait's fair state, beside its backoff (whose .fair
 * says which of these is set): apart from it, so that it stays in
 * registers (the backoff is in memory once a wait passes it out of line).
 */
struct caslist_lk_fair {
	unsigned t0_us;		/* when the wait began (TIMING) */
	uint32_t ticket;	/* the ticket held (TURN) */
};

/* struct caslist_lk_backoff.fair */
#define CASLIST_LK_FAIR_NONE 0	/* no round yet */
#define CASLIST_LK_FAIR_TIMING 1	/* waiting, since fw->t0_us */
#define CASLIST_LK_FAIR_TURN 2	/* holds ticket fw->ticket, and it is served now */

static inline struct caslist_list *caslist_lk_list_of_head(struct caslist_node *h)
{
	/* The head is the list's first member. */
	return CASLIST_LK_VCAST(struct caslist_list *, CASLIST_LK_VCAST(void *, h));
}

static inline unsigned caslist_lk_fair_now_us(void)
{
	return CASLIST_LK_ICAST(unsigned, caslist_lk_backoff_now_ns() / 1000u);
}

/* Has ticket T been served?  (Tickets wrap: compare by difference.) */
static inline bool caslist_lk_fair_passed(uint32_t served, uint32_t t)
{
	return CASLIST_LK_ICAST(int32_t, served - t) > 0;
}

/*
 * Cold half of caslist_lk_fair_enter: tickets NEXT and below are pending.
 * Wait, holding nothing, until every ticket issued before we came is
 * served; tickets issued later do not hold us (so a stream of them cannot
 * starve us).  Then hand the streak over: our next lost wait starts at the
 * cap (heat.h), so the served thread runs on.
 */
static __attribute__((noinline, cold, unused)) void
caslist_lk_fair_defer(struct caslist_list *l, uint32_t next, const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;

	/* Relaxed (G9): want_served publishes no data, and a stale value
	 * only keeps us here longer; the served store we wait for is read
	 * from in the end (coherence). */
	while (!caslist_lk_fair_passed(atomic_load_explicit(&l->want_served, memory_order_relaxed),
				       next - 1))
		caslist_lk_backoff_wait(&b, &l->head, op);
	caslist_lk_backoff_heat = CASLIST_LK_BACKOFF_MAX;
}

/*
 * The entry of an operation that takes L(head) holding nothing: if a
 * ticket is pending (caslist_lk_fair_pending; move_head's first attempt
 * tests it alone and leaves the wait to its retry), wait for it
 * (caslist_lk_fair_defer).  Two loads of
 * one word pair, next to the head's words.  want_next's is seq_cst (a
 * plain load on x86): one that follows a ticket's fetch_add in the total
 * order sees it, which is what makes the operation "later" than the
 * ticket in the bound (test/genmc/fairticket kills its weakening).
 * want_served's is relaxed (G9): it is read after the seq_cst load (no
 * load moves above an acquire), and a stale value, being smaller, only
 * makes us defer when we need not.
 */
static inline bool caslist_lk_fair_pending(struct caslist_list *l, uint32_t *nextp)
{
	uint32_t next = atomic_load_explicit(&l->want_next, memory_order_seq_cst);

	*nextp = next;
	/* [mutant nodefer] the mutant never defers (test/stress/mutate.sh) */
	return __builtin_expect(next != atomic_load_explicit(&l->want_served, memory_order_relaxed), 0);
}

static inline void caslist_lk_fair_enter(struct caslist_list *l, const char *op)
{
	uint32_t next;

	if (caslist_lk_fair_pending(l, &next))
		caslist_lk_fair_defer(l, next, op);
}

/* Has a wait of ELAPSED us passed BOUND?  (A function: a bound of 0 in
 * the comparison itself would be "always true" to -Wtype-limits.) */
static inline bool caslist_lk_fair_late(unsigned elapsed, unsigned bound)
{
	return elapsed >= bound;
}

/*
 * Cold part of caslist_lk_fair_wait: take a ticket of L and wait, holding
 * nothing, for its turn.  Returns the ticket.  (By value: a backoff
 * passed to an out-of-line function would have to live in memory on
 * every operation's fast path.)
 */
static __attribute__((noinline, cold, unused)) uint32_t
caslist_lk_fair_take(struct caslist_list *l, const char *op)
{
	struct caslist_lk_backoff w = CASLIST_LK_BACKOFF_INIT;
	/* seq_cst: orders the ticket before every later entry's load
	 * (caslist_lk_fair_enter); the RMW makes tickets unique. */
	uint32_t t = atomic_fetch_add_explicit(&l->want_next, 1, memory_order_seq_cst);

	CASLIST_LK_FAIR_HOOK(ticket, l, t);
	/* Our turn: every earlier ticket served.  Relaxed (G9): it reads
	 * from the serve of the ticket before ours, and no data comes with
	 * it (the head's lock orders every list write); stale, it only
	 * keeps us waiting. */
	while (atomic_load_explicit(&l->want_served, memory_order_relaxed) != t)
		caslist_lk_backoff_wait(&w, &l->head, op);
	return t;
}

/*
 * One round of a wait, by an operation that takes L(head) of L holding
 * nothing while it waits (move_head's retry, caslist_lk_lock_head): the
 * ticket's clock, started before the first round and set back by this
 * thread's run of lost waits (heat.h); the policy and the watch on LINK
 * (caslist_lk_backoff_wait); then, past CASLIST_FAIR_US, a ticket and its
 * turn.  Then the wait goes on from a small budget: every operation that
 * starts from now on defers to us.
 */
static inline void caslist_lk_fair_wait(struct caslist_list *l, struct caslist_lk_backoff *b,
					struct caslist_lk_fair *fw, const void *link,
					const char *op)
{
	if (b->fair == CASLIST_LK_FAIR_NONE) {
		/* The clock counts this thread's run of lost waits (heat.h)
		 * and this first round: a thread that gets one operation
		 * through after each long round is starved as much as one
		 * whose single operation waits as long. */
		b->fair = CASLIST_LK_FAIR_TIMING;
		fw->t0_us = caslist_lk_fair_now_us() - caslist_lk_fair_lost_us;
	}
	caslist_lk_backoff_wait(b, link, op);
	if (b->fair == CASLIST_LK_FAIR_TURN)
		return;
	if (caslist_lk_fair_late(caslist_lk_fair_now_us() - fw->t0_us,
				 CASLIST_LK_ICAST(unsigned, CASLIST_FAIR_US))) {
		fw->ticket = caslist_lk_fair_take(l, op);
		b->fair = CASLIST_LK_FAIR_TURN;
		b->spins = CASLIST_LK_BACKOFF_MIN;
	}
}

/* Cold part of caslist_lk_fair_done: ticket T has had the head. */
static __attribute__((noinline, cold, unused)) void
caslist_lk_fair_serve(struct caslist_list *l, uint32_t t)
{
	CASLIST_LK_FAIR_HOOK(served, l, t);
	/* Relaxed (G9): read by the loads in caslist_lk_fair_defer,
	 * caslist_lk_fair_enter and caslist_lk_fair_take, which carry no data
	 * from it; only the ticket being served writes it, so its values
	 * only grow (mod 2^32) and a late reader waits longer, never less. */
	atomic_store_explicit(&l->want_served, t + 1, memory_order_relaxed);
	caslist_lk_backoff_heat = 0;	/* the streak is ours now */
	caslist_lk_fair_lost_us = 0;	/* and the run of losses is over */
}

/*
 * Cold part of caslist_lk_fair_done: the operation waited.  With a ticket:
 * served.  Without: it lost for (now - t0) in all, counting the run of
 * lost waits before it, and the next wait of this thread goes on from
 * there.  The heat is made non-zero, so that acquisitions without a wait
 * cooling it to 0 reset the loss (heat.h, caslist_lk_backoff_heat_cool).
 */
static __attribute__((noinline, cold, unused)) void
caslist_lk_fair_end(struct caslist_list *l, struct caslist_lk_backoff *b,
		    const struct caslist_lk_fair *fw)
{
	if (b->fair == CASLIST_LK_FAIR_TURN) {
		caslist_lk_fair_serve(l, fw->ticket);
	} else {
		caslist_lk_fair_lost_us = caslist_lk_fair_now_us() - fw->t0_us;
		if (caslist_lk_backoff_heat == 0)
			caslist_lk_backoff_heat = 1;
	}
	b->fair = CASLIST_LK_FAIR_NONE;
}

/*
 * The operation that waited with B has the head (or ends without it:
 * move_head's ENOENT and "already first"): if it held a ticket, the
 * ticket is served; if it waited without one, its loss is carried to
 * this thread's next wait.  A test of a word of B on the fast path.
 */
static inline void caslist_lk_fair_done(struct caslist_list *l, struct caslist_lk_backoff *b,
					const struct caslist_lk_fair *fw)
{
	if (__builtin_expect(b->fair != CASLIST_LK_FAIR_NONE, 0))
		caslist_lk_fair_end(l, b, fw);
}

CASLIST_LK_END

#endif /* CASLIST_STATIC_FAIR_H */
