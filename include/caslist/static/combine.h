/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/combine.h> - moves queued at a busy head (combining):
 * a move_head that finds its target head locked unlinks its node, pushes
 * it on the list's queue (one CAS on l->queue) and waits on the node's
 * own word; whoever holds the head and inserts there links the queue
 * with its own nodes before it releases the head.  doc/combine.md has
 * the protocol, its invariants (Q1-Q5) and why each order suffices;
 * test/model/combine.pml and test/stress/combine check them.
 *
 * Compiled in with CASLIST_HEAD_COMBINE=1 (configure --enable-head-combine);
 * without it every function here is absent and l->queue stays 0.  A
 * program whose inline code and library differ in it stays correct: a
 * head path without the drain leaves queued nodes to their publishers,
 * which link them themselves once they find the head free (Q4).
 *
 * The queue: l->queue is 0 or the newest queued node's word; a queued
 * node's next word is locked and names the next older queued node
 * (w|CASLIST_LK_LOCK, the chain words of a batch), the oldest's is
 * CASLIST_LK_CLAIMED (locked, pointing nowhere).  Only pushes (CAS) and
 * a drain that takes the whole queue (exchange with 0) write it, so no
 * node is taken alone and there is no ABA.
 */
#ifndef CASLIST_STATIC_COMBINE_H
#define CASLIST_STATIC_COMBINE_H

#include "link.h"

#ifndef CASLIST_HEAD_COMBINE
#define CASLIST_HEAD_COMBINE 0
#endif

CASLIST_LK_BEGIN

#if CASLIST_HEAD_COMBINE

/* A test hook (test/genmc/combine): called by a publisher once its node
 * N is on the queue. */
#ifndef CASLIST_LK_Q_HOOK
#define CASLIST_LK_Q_HOOK(n) ((void)0)
#endif

/*
 * Push N, held by the caller (L(n): its word locked, n in no list), on
 * L's queue.  The store of n's chain word is relaxed: n's word is locked
 * by us, and no other thread writes a locked word it did not take.
 * Release CAS: pairs with the drain's acquire exchange
 * (caslist_lk_q_take), so that n's chain word, and every write the
 * mover made to n before, happen before the drainer links n.  A push
 * that is not the newest when the drain comes is still covered: every
 * write of l->queue is a read-modify-write, so the drained value's
 * release sequence holds every push since the last drain.
 */
static inline void caslist_lk_q_push(struct caslist_list *l, struct caslist_node *n)
{
	uintptr_t old = atomic_load_explicit(&l->queue, memory_order_relaxed);

	do {
		atomic_store_explicit(&n->next,
				      old != 0 ? old | CASLIST_LK_LOCK : CASLIST_LK_CLAIMED,
				      memory_order_relaxed);
	} while (!atomic_compare_exchange_weak_explicit(&l->queue, &old, caslist_lk_w_of(n),
							memory_order_release, memory_order_relaxed));
}

/* The one message for a queued node whose word is not a chain word. */
#define CASLIST_LK_Q_CORRUPT \
	"the node's word changed while its move was queued at a busy head (re-initialised, added or freed while in transit?)"

/*
 * Take L's whole queue; the caller holds L(head).  Returns the newest
 * queued node (the chain's first) and *LASTP the oldest, or NULL if the
 * queue is empty (OP: the operation, for the check's message).  The chain's prev words are set on the way (each
 * node's prev = the newer one), so that the chain is the same as a
 * batch's when it is inserted.  Acquire exchange: pairs with the pushes'
 * release CAS (caslist_lk_q_push).  The walk's loads are relaxed: each
 * chain word was written before its push, which the exchange
 * synchronized with.
 */
static inline struct caslist_node *caslist_lk_q_take(struct caslist_list *l,
						     struct caslist_node **lastp, const char *op)
{
	uintptr_t q = atomic_exchange_explicit(&l->queue, 0, memory_order_acquire);
	struct caslist_node *x, *y;
	uintptr_t w;

	if (q == 0)
		return NULL;
	x = caslist_lk_node_of(q);
	for (;;) {
		w = atomic_load_explicit(&x->next, memory_order_relaxed);
		if (w == CASLIST_LK_CLAIMED)
			break;
		/* Locked, naming a node (not a head, not a batch): a chain
		 * word.  Anything else was written by a thread outside the
		 * protocol, and walking it would never end. */
		CASLIST_LK_REQUIRE((w & (CASLIST_LK_LOCK | CASLIST_LK_BATCH_TAG | CASLIST_LK_TO_HEAD)) ==
					   CASLIST_LK_LOCK && w != CASLIST_LK_LOCK,
				   op, x, CASLIST_LK_Q_CORRUPT);
		y = caslist_lk_node_of(w);
		caslist_lk_prefetch_w(y);
		caslist_lk_set_prev_new(y, x);
		x = y;
	}
	*lastp = x;
	return caslist_lk_node_of(q);
}

/*
 * Release the chain first..last's links but the last one's (insert step
 * 5 released that): in chain order, each to the chain word it holds.
 * Each release store is the linearization that its publisher waits for
 * (caslist_lk_q_publish): after the insert's release of the head.
 */
static inline void caslist_lk_q_release(struct caslist_node *first, struct caslist_node *last)
{
	for (struct caslist_node *x = first; x != last;) {
		uintptr_t w = atomic_load_explicit(&x->next, memory_order_relaxed) &
			      ~CASLIST_LK_LOCK;

		caslist_lk_unlock(x, w);
		x = caslist_lk_node_of(w);
	}
}

/*
 * The insert at a head with a queue behind it, out of line (the caller's
 * fast path keeps one load and a branch): the caller's chain first..last
 * (its own, locked by it or private to it) goes first, the queue after
 * it, newest first; one insert ([L7]) links all; then the links of the
 * caller's last node and of the queued nodes are released.  The caller
 * holds L(head) (word F) and has entered its wait.
 */
static __attribute__((noinline, unused)) void
caslist_lk_insert_head_q(struct caslist_list *l, struct caslist_node *h, uintptr_t f,
			 struct caslist_node *first, struct caslist_node *last, const char *op)
{
	struct caslist_node *qlast, *qfirst = caslist_lk_q_take(l, &qlast, op);

	if (qfirst == NULL) {		/* another holder took it meanwhile */
		caslist_lk_insert_locked(h, f, first, last, op);
		return;
	}
	caslist_lk_batch_chain(last, qfirst);
	caslist_lk_note_lock(last, op);
	caslist_lk_insert_locked(h, f, first, qlast, op);
	caslist_lk_unlock(last, caslist_lk_w_of(qfirst));
	caslist_lk_q_release(qfirst, qlast);
}

/*
 * Serve L's queue if its head is free: one attempt at L(head) (never a
 * wait: the caller holds a node in transit, rule R2 allows no more),
 * then the queue's insert, or the head back as it was if the queue was
 * empty by then.  Takes part in the head's hand-over as the other waits
 * that hold a link do (caslist_lk_fair_enter_held: past the streak it
 * grants, and goes on).  Relaxed loads: they only decide whether to try;
 * the lock CAS (acquire) and the exchange (acquire) order what follows.
 */
static inline void caslist_lk_q_serve(struct caslist_list *l, const char *op)
{
	struct caslist_node *h = &l->head;
	struct caslist_node *qfirst, *qlast;
	uintptr_t f;

	if (atomic_load_explicit(&l->queue, memory_order_relaxed) == 0)
		return;
	f = atomic_load_explicit(&h->next, memory_order_relaxed);
	if (caslist_lk_w_locked(f))
		return;
	caslist_lk_fair_enter_held(l);
	if (!caslist_lk_cas_lock(h, &f, f | CASLIST_LK_LOCK, op))
		return;
	caslist_lk_fair_note(l);
	qfirst = caslist_lk_q_take(l, &qlast, op);
	if (qfirst == NULL) {
		caslist_lk_unlock(h, f);	/* back as it was */
		return;
	}
	caslist_lk_insert_locked(h, f, qfirst, qlast, op);
	caslist_lk_q_release(qfirst, qlast);
}

/* Pauses between two serves (and reads of the clock) while a publisher spins. */
#define CASLIST_LK_Q_SERVE_EVERY 64u

/* Is n still queued, or linked but not yet released by its drainer?
 * Acquire: pairs with the release store that unlocks n
 * (caslist_lk_q_release, or insert step 5 for the oldest), which comes
 * after the insert's release of the head: once it reads unlocked, the
 * move is complete (linearized). */
static inline bool caslist_lk_q_waiting(struct caslist_node *n)
{
	return caslist_lk_w_locked(atomic_load_explicit(&n->next, memory_order_acquire));
}

/*
 * The move's queued end ([S7]'s, with CASLIST_HEAD_COMBINE): the caller
 * holds L(n) and L(pred) and found the head busy.  Unlink n (unlink
 * steps 1-2: pred->next = succ releases L(pred); n leaves its list, in
 * transit, its word still locked), push it on L's queue, and wait on n's
 * own word until a holder has linked it and released its link.  The wait
 * spins on that word (a line no holder writes but the one that links n)
 * for CASLIST_WAIT_SPIN_NS by the module's clock, then in rounds of
 * backoff on n (the stuck watch names n); every CASLIST_LK_Q_SERVE_EVERY
 * pauses, and after each round, it serves the queue itself if the head
 * is free (Q4: no node stays queued while the head is free and its
 * publisher waits).  Holding L(n) of a node in transit it never waits
 * for the head, only tries it (rule R2).
 */
static __attribute__((noinline, unused)) int
caslist_lk_q_publish(struct caslist_list *l, struct caslist_node *n, struct caslist_node *p,
		     uintptr_t s, const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	unsigned long long t0 = 0;
	unsigned k = 0;

	caslist_lk_set_prev_checked(s, p, n, op);
	caslist_lk_unlock(p, s);
	caslist_lk_q_push(l, n);
	CASLIST_LK_Q_HOOK(n);
	for (;;) {
		if (!caslist_lk_q_waiting(n))
			return CASLIST_OK;
		caslist_lk_cpu_relax();
		if (++k % CASLIST_LK_Q_SERVE_EVERY != 0)
			continue;
		caslist_lk_q_serve(l, op);
		if (t0 == 0)
			t0 = caslist_lk_now_ns() | 1u;
		else if (caslist_lk_now_ns() - t0 > CASLIST_WAIT_SPIN_NS)
			break;
	}
	while (caslist_lk_q_waiting(n)) {
		caslist_lk_backoff_wait(&b, n, op);
		caslist_lk_q_serve(l, op);
	}
	return CASLIST_OK;
}

#endif /* CASLIST_HEAD_COMBINE */

/*
 * The insert after a head H of L (word F, L(head) held, the wait
 * entered): the chain first..last, and with CASLIST_HEAD_COMBINE the
 * queue behind it.  Relaxed load of the queue: the head's line, which
 * the holder owns; it only decides whether to drain, and a push it
 * misses is served by its publisher (caslist_lk_q_serve).
 */
static inline void caslist_lk_insert_head(struct caslist_list *l, struct caslist_node *h,
					  uintptr_t f, struct caslist_node *first,
					  struct caslist_node *last, const char *op)
{
#if CASLIST_HEAD_COMBINE
	if (__builtin_expect(atomic_load_explicit(&l->queue, memory_order_relaxed) != 0, 0)) {
		caslist_lk_insert_head_q(l, h, f, first, last, op);
		return;
	}
#else
	(void)l;
#endif
	caslist_lk_insert_locked(h, f, first, last, op);
}

CASLIST_LK_END

#endif /* CASLIST_STATIC_COMBINE_H */
