/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/link.h - THE link-change protocol.  Every write to a node's next or
 * prev word in the library happens in this file; list.c only composes
 * these steps.  doc/protocol.md is the long form (states, lock order,
 * invariants as equations, pairing table); the comments here name, at each
 * atomic, what it pairs with and why that order is enough.
 *
 * Lock word (x->next):
 *   S            unlocked; S is x's successor (x is linked, or x sits in a
 *                private chain owned by one thread)
 *   S | LOCK     L(x) held; S is still the successor the abstract list has
 *                until the holder's unlock store (linearization point)
 *   0 / POISON   x is not linked (never linked / removed)
 * L(x) protects x->next and succ(x)->prev.  x->prev read without L(pred)
 * is only a hint: every use of it is validated by a CAS on pred->next
 * that expects x, which can succeed only if pred is x's predecessor now.
 */
#ifndef CASLIST_LIB_LINK_H
#define CASLIST_LIB_LINK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "caslist/list.h"
#include "backoff.h"
#include "debug.h"

#define LOCK ((uintptr_t)1)

typedef struct caslist_node node_t;

static inline uintptr_t w_of(const node_t *n) { return (uintptr_t)n; }
static inline node_t *node_of(uintptr_t w) { return (node_t *)(w & ~LOCK); }
static inline bool w_locked(uintptr_t w) { return (w & LOCK) != 0; }
static inline bool w_unlinked(uintptr_t w) { return w == 0 || w == CASLIST_POISON_NEXT; }

/* Test-only mutants (test/mutants.sh proves the suite catches them). */
#if defined(CASLIST_MUTANT_RELAXED_UNLOCK)
#define UNLOCK_ORDER memory_order_relaxed
#else
#define UNLOCK_ORDER memory_order_release
#endif

/*
 * Every lock acquisition names the operation that takes it (debug builds
 * record it for the stuck-link diagnostic, debug.h).  The short names pass
 * the calling function's name; list.c passes the public op's name where a
 * helper is shared.
 */
#define link_trylock(x, succ) link_trylock_op((x), (succ), __func__)
#define link_lock(x) link_lock_op((x), __func__)
#define link_lock_expect(x, expect) link_lock_expect_op((x), (expect), __func__)
#define link_trylock_prev(x) link_trylock_prev_op((x), __func__)
#define link_lock_prev(x) link_lock_prev_op((x), __func__)

/*
 * link_unlock - release L(x) with successor s: the only way a locked word
 * becomes unlocked, and the linearization point of every operation.
 * Release: pairs with the acquire of the next CAS that takes L(x)
 * (link_lock*, link_trylock*) and with the acquire load in iter_next, so
 * whoever reaches s through x next sees every write the holder made before:
 * s->prev, the node contents of s and of anything the holder unlinked.
 */
static inline void link_unlock(node_t *x, node_t *s)
{
	atomic_store_explicit(&x->next, w_of(s), UNLOCK_ORDER);
}

/*
 * link_trylock - one attempt at L(x).  Relaxed load: only a guess at the
 * expected value; the CAS decides.  CAS acquire on success: pairs with the
 * release in link_unlock that wrote the successor we
 * expect, so the link's last holder's writes are visible to us.
 */
static inline bool link_trylock_op(node_t *x, node_t **succ, const char *op)
{
	uintptr_t v = atomic_load_explicit(&x->next, memory_order_relaxed);

	if (w_locked(v) || w_unlinked(v))
		return false;
	if (!atomic_compare_exchange_strong_explicit(&x->next, &v, v | LOCK,
						     memory_order_acquire,
						     memory_order_relaxed))
		return false;
	caslist__note_lock(x, op);
	*succ = node_of(v);
	return true;
}

/*
 * link_lock - wait for L(x).  Returns succ(x), or NULL if x is (or becomes)
 * not linked.  Orders as link_trylock; a failed CAS is relaxed (no data is
 * read on that path).  Caller obeys the lock order (see link_lock_prev).
 */
static inline node_t *link_lock_op(node_t *x, const char *op)
{
	struct backoff b = BACKOFF_INIT;
	uintptr_t v = atomic_load_explicit(&x->next, memory_order_relaxed);

	for (;;) {
		if (w_unlinked(v))
			return NULL;
		if (!w_locked(v) &&
		    atomic_compare_exchange_weak_explicit(&x->next, &v, v | LOCK,
							  memory_order_acquire,
							  memory_order_relaxed)) {
			caslist__note_lock(x, op);
			return node_of(v);
		}
		if (w_locked(v)) {
			backoff_wait(&b, x, op);
			v = atomic_load_explicit(&x->next, memory_order_relaxed);
		}
	}
}

/*
 * link_lock_expect - take L(x) only while x->next == expect (unlocked).
 * Waits while x->next is locked; returns false as soon as x->next holds
 * any other unlocked value (x is no longer expect's predecessor).
 * Same orders as link_lock.
 */
static inline bool link_lock_expect_op(node_t *x, node_t *expect, const char *op)
{
	struct backoff b = BACKOFF_INIT;

	for (;;) {
		uintptr_t v = w_of(expect);

		if (atomic_compare_exchange_weak_explicit(&x->next, &v, v | LOCK,
							  memory_order_acquire,
							  memory_order_relaxed)) {
			caslist__note_lock(x, op);
			return true;
		}
		if (!w_locked(v) && v != w_of(expect))
			return false;
		if (w_locked(v))
			backoff_wait(&b, x, op);
	}
}

/*
 * prev_hint - x->prev, relaxed.  It is never trusted: callers CAS
 * p->next expecting x, and that CAS (acquire) is the synchronization.
 * A stale p costs a failed CAS and a retry; it cannot be written through,
 * because a node holds an unlocked next == x only if it is x's predecessor
 * (linked nodes) or x's chain predecessor (then x is not linked).
 */
static inline node_t *prev_hint(const node_t *x)
{
	return (node_t *)atomic_load_explicit(&x->prev, memory_order_relaxed);
}

static inline bool prev_valid(const node_t *p)
{
	return p != NULL && w_of(p) != CASLIST_POISON_PREV;
}

/*
 * link_trylock_prev - one attempt at the link pointing to x.  Returns the
 * predecessor with its link locked, or NULL.
 */
static inline node_t *link_trylock_prev_op(node_t *x, const char *op)
{
	node_t *p = prev_hint(x);
	uintptr_t v = w_of(x);

	if (!prev_valid(p))
		return NULL;
	/* acquire: as in link_trylock. */
	if (atomic_compare_exchange_strong_explicit(&p->next, &v, w_of(x) | LOCK,
						    memory_order_acquire,
						    memory_order_relaxed)) {
		caslist__note_lock(p, op);
		return p;
	}
	return NULL;
}

/*
 * link_lock_prev - wait for the lock of the link pointing to x; x must stay
 * linked meanwhile (the caller holds L(x)).  Lock order: waiting here while
 * holding L(x) is waiting for a link *before* x, which is allowed; every
 * holder of L(pred) either holds nothing after it or waits only further
 * toward the head, and holders of the head's link never wait, so the
 * wait-for chain ends (doc/protocol.md, "No deadlock").
 */
static inline node_t *link_lock_prev_op(node_t *x, const char *op)
{
	struct backoff b = BACKOFF_INIT;

	for (;;) {
		node_t *p = prev_hint(x);

#if defined(CASLIST_MUTANT_SKIP_PRED_LOCK)
		/* Mutant: trust the hint and skip taking L(p). */
		if (prev_valid(p))
			return p;
#else
		uintptr_t v = w_of(x);

		/* acquire: pairs with the release that made p->next == x
		 * (link_unlock, in link_insert_locked or link_unlink_locked, by
		 * p's last holder). */
		if (prev_valid(p) &&
		    atomic_compare_exchange_strong_explicit(&p->next, &v, w_of(x) | LOCK,
							    memory_order_acquire,
							    memory_order_relaxed)) {
			caslist__note_lock(p, op);
			return p;
		}
#endif
		backoff_wait(&b, p, op);
	}
}

/*
 * set_prev_checked - succ->prev = p, under the lock of the link pointing to
 * succ.  Relaxed: published by the caller's following link_unlock.  Debug
 * builds read the old value (it must be `was`: next->prev == self).
 */
static inline void set_prev_checked(node_t *succ, node_t *p, node_t *was, const char *op)
{
	if (CASLIST_DEBUG_ON) {
		node_t *old = (node_t *)atomic_exchange_explicit(&succ->prev, w_of(p),
								 memory_order_relaxed);

		CASLIST_CHECK(old == was, op, was, "corrupted link: next->prev != self");
	} else {
		atomic_store_explicit(&succ->prev, w_of(p), memory_order_relaxed);
	}
	(void)was;
	(void)op;
}

/*
 * link_insert_locked - link the chain first..last between pos and succ.
 * Requires L(pos) held with succ(pos) == succ.  Releases L(pos).
 *
 *  1. last->next = succ|LOCK  - last's own link starts locked, so an op
 *     that targets last (or reaches it by a stale prev hint) waits until
 *     the whole insertion is done.  Relaxed: published by step 4.
 *  2. first->prev = pos, succ->prev = last - relaxed; succ->prev is ours
 *     under L(pos); both are published by the release in step 4.
 *  3. debug: succ->prev must have been pos.
 *  4. pos->next = first       - link_unlock (release): the node(s) are in
 *     the list from here (linearization point).
 *  5. last->next = succ       - link_unlock (release): pairs with the
 *     acquire of whoever takes L(last) next.
 */
static inline void link_insert_locked(node_t *pos, node_t *succ, node_t *first, node_t *last,
				      const char *op)
{
	atomic_store_explicit(&last->next, w_of(succ) | LOCK, memory_order_relaxed);
	caslist__note_lock(last, op);
	atomic_store_explicit(&first->prev, w_of(pos), memory_order_relaxed);
	set_prev_checked(succ, last, pos, op);
	link_unlock(pos, first);
	link_unlock(last, succ);
}

/*
 * link_poison - mark a removed node as not linked.  Requires L(n) held;
 * consumes it.  Release on next: pairs with the relaxed loads of waiters
 * in link_lock(n) only as far as they need (they see "not linked" and
 * return); it orders the poisoned prev before it for iter_next's acquire.
 */
static inline void link_poison(node_t *n)
{
	atomic_store_explicit(&n->prev, CASLIST_POISON_PREV, memory_order_relaxed);
	atomic_store_explicit(&n->next, CASLIST_POISON_NEXT, memory_order_release);
}

/*
 * link_unlink_locked - remove n from between pred and succ.  Requires
 * L(pred) (pred->next == n|LOCK) and L(n) (n->next == succ|LOCK).
 *  1. succ->prev = pred - ours under L(n); relaxed, published by step 2.
 *  2. pred->next = succ - link_unlock (release): n leaves the list here.
 *  3. poison n          - consumes L(n).
 */
static inline void link_unlink_locked(node_t *pred, node_t *n, node_t *succ, const char *op)
{
	set_prev_checked(succ, pred, n, op);
	link_unlock(pred, succ);
	link_poison(n);
}

#endif /* CASLIST_LIB_LINK_H */
