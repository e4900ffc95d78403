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
 *   S | CASLIST_LK_LOCK     L(x) held; S is still the successor the abstract list has
 *                until the holder's unlock store (linearization point)
 *   0            FRESH: never linked, or re-initialised by its owner
 *                (caslist_node_init); anyone may add it, racing touches
 *                elect one adder
 *   POISON       OWNED: taken off a list by a pop, delete, cut (the
 *                chain's last node) or free-list take; only the thread
 *                that took it may add it again, re-initialise or free it
 *                (a touch adds nothing: CASLIST_TOUCH_GONE)
 *   b|CASLIST_LK_BATCH_TAG  QUEUED in batch b: owned by b's thread until flush/cancel
 * L(x) protects x->next and succ(x)->prev.  x->prev read without L(pred)
 * is only a hint: every use of it is validated by a CAS on pred->next
 * that expects x, which can succeed only if pred is x's predecessor now.
 */
#ifndef CASLIST_LIB_LINK_H
#define CASLIST_LIB_LINK_H

#include <stdbool.h>
#include <stdint.h>

#include <caslist/list.h>
#include "atomic.h"
#include "backoff.h"
#include "debug.h"

CASLIST_LK_BEGIN

#define CASLIST_LK_LOCK ((uintptr_t)1)

static inline uintptr_t caslist_lk_w_of(const struct caslist_node *n) { return (uintptr_t)n; }
static inline struct caslist_node *caslist_lk_node_of(uintptr_t w)
{
	return (struct caslist_node *)(w & ~CASLIST_LK_LOCK);
}
static inline bool caslist_lk_w_locked(uintptr_t w) { return (w & CASLIST_LK_LOCK) != 0; }
/*
 * CASLIST_LK_BATCH_TAG: a next word `b | CASLIST_LK_BATCH_TAG` (bit 1 set, bit 0 clear) says "not
 * linked: queued in batch b" (struct caslist_batch, 4-aligned).  Removers
 * see it as unlinked (ENOENT), touch as "on its way to a head", an add as
 * misuse.  It is why batched nodes, unlike chain nodes, may be targeted by
 * any thread while they wait in a batch.
 */
#define CASLIST_LK_BATCH_TAG ((uintptr_t)2)
static inline bool caslist_lk_w_batched(uintptr_t w)
{
	return (w & (CASLIST_LK_LOCK | CASLIST_LK_BATCH_TAG)) == CASLIST_LK_BATCH_TAG;
}
static inline bool caslist_lk_w_unlinked(uintptr_t w)
{
	return w == 0 || w == CASLIST_POISON_NEXT || caslist_lk_w_batched(w);
}
/* The two unlinked states a touch tells apart (doc/protocol.md section 1). */
static inline bool caslist_lk_w_fresh(uintptr_t w) { return w == 0; }
static inline bool caslist_lk_w_owned(uintptr_t w) { return w == CASLIST_POISON_NEXT; }

/*
 * The head flag.  A list head's own prev word always carries CASLIST_LK_HEAD_FLAG
 * (bit 1; node addresses are at least 4-aligned, so no node pointer has
 * it).  Set by caslist_init, kept by every later write of head->prev
 * (caslist_lk_set_prev_checked reads the old flag first: the writer owns the word
 * under the link lock that points to it).  It makes "is x a head?" exact
 * for ANY list, which is what the cross-list rules need (doc/protocol.md
 * section 3): a walk that lands on another list's head, a cut whose last
 * node became another list's tail.  POISON_PREV also has bit 1 set, so it
 * is excluded explicitly.
 */
#define CASLIST_LK_HEAD_FLAG ((uintptr_t)2)

/* The one message for a list that was never initialised (every check). */
#define CASLIST_LK_NOT_INIT "list is not initialised (caslist_init or CASLIST_LIST_INIT)"

static inline bool caslist_lk_prev_is_head(uintptr_t pv)
{
	return (pv & CASLIST_LK_HEAD_FLAG) != 0 && pv != CASLIST_POISON_PREV;
}

/*
 * caslist_lk_is_head - true iff x is some list's head.  Relaxed: the flag of a word
 * never changes while the memory is a caslist node or head (heads keep
 * it, nodes never get it), so any value read answers the question.
 */
static inline bool caslist_lk_is_head(const struct caslist_node *x)
{
	return caslist_lk_prev_is_head(atomic_load_explicit(&x->prev, memory_order_relaxed));
}


/*
 * Every lock acquisition names the public operation that takes it (debug
 * builds record it for the stuck-link diagnostic, debug.h): the *_op
 * steps take it as their last argument.
 */

/*
 * caslist_lk_cas_lock - THE lock acquisition: one CAS of x->next from *seen to
 * desired (a locked word: v|CASLIST_LK_LOCK, or CASLIST_LK_CLAIMED), recording the holder.  Every
 * way of taking a link lock ([L1]-[L5], the touch claim) is this CAS.
 * Acquire on success: pairs with the release store that wrote the value we
 * replace - caslist_lk_unlock of the link's last holder, caslist_lk_poison /
 * caslist_lk_own_node of a remover, caslist_lk_init_node of an owner that made the node
 * FRESH - so that writer's writes (the successor's prev, the node contents)
 * happen before everything the new holder does.  Relaxed on failure: *seen
 * is then the value found, and the caller only re-decides from it (waits,
 * retries, or gives up); it reads nothing through it.
 */
static inline bool caslist_lk_cas_lock(struct caslist_node *x, uintptr_t *seen, uintptr_t desired,
				       const char *op)
{
	if (!atomic_compare_exchange_strong_explicit(&x->next, seen, desired, memory_order_acquire,
						     memory_order_relaxed))
		return false;
	caslist_lk_note_lock(x, op);
	return true;
}

/*
 * caslist_lk_unlock - release L(x) with successor s: the only way a locked word
 * becomes unlocked, and the linearization point of every operation.
 * Release: pairs with the acquire of the next CAS that takes L(x)
 * (caslist_lk_lock*, caslist_lk_trylock*) and with the acquire load in iter_next, so
 * whoever reaches s through x next sees every write the holder made before:
 * s->prev, the node contents of s and of anything the holder unlinked.
 */
static inline void caslist_lk_unlock(struct caslist_node *x, struct caslist_node *s)
{
	atomic_store_explicit(&x->next, caslist_lk_w_of(s), memory_order_release);
}

/*
 * [L2] caslist_lk_trylock - one attempt at L(x).  Relaxed load: only a guess at the
 * expected value; the CAS (caslist_lk_cas_lock: acquire) decides.
 */
static inline bool caslist_lk_trylock_op(struct caslist_node *x, struct caslist_node **succ,
					 const char *op)
{
	uintptr_t v = atomic_load_explicit(&x->next, memory_order_relaxed);

	if (caslist_lk_w_locked(v) || caslist_lk_w_unlinked(v) || !caslist_lk_cas_lock(x, &v,
										       v | CASLIST_LK_LOCK, op))
		return false;
	*succ = caslist_lk_node_of(v);
	return true;
}

/*
 * [L1] caslist_lk_lock - wait for L(x) (caslist_lk_lock_from: starting from the value
 * *vp of x->next the caller already loaded).  Returns succ(x), or NULL if
 * x is (or becomes) not linked; then *vp is the unlinked value that said
 * so (fresh, owned or queued: callers that report which one use it, never
 * a second load, which could see a later state).  The lock is
 * caslist_lk_cas_lock (acquire); the loads between attempts are relaxed (they
 * only aim the next CAS).  Caller obeys the lock order (see
 * caslist_lk_lock_prev).  caslist_lk_lock_from_b waits with the caller's
 * backoff (the head's wait starts from the heat: caslist_lk_lock_head).
 */
static inline struct caslist_node *caslist_lk_lock_from_b(struct caslist_node *x, uintptr_t *vp,
							  struct caslist_lk_backoff *b, const char *op)
{
	uintptr_t v = *vp;

	for (;;) {
		if (caslist_lk_w_unlinked(v)) {
			*vp = v;
			return NULL;
		}
		if (!caslist_lk_w_locked(v) && caslist_lk_cas_lock(x, &v, v | CASLIST_LK_LOCK, op))
			return caslist_lk_node_of(v);
		if (caslist_lk_w_locked(v)) {
			caslist_lk_backoff_wait(b, x, op);
			v = atomic_load_explicit(&x->next, memory_order_relaxed);
		}
	}
}

static inline struct caslist_node *caslist_lk_lock_from(struct caslist_node *x, uintptr_t *vp,
							const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;

	return caslist_lk_lock_from_b(x, vp, &b, op);
}

static inline struct caslist_node *caslist_lk_lock_op(struct caslist_node *x, const char *op)
{
	uintptr_t v = atomic_load_explicit(&x->next, memory_order_relaxed);

	return caslist_lk_lock_from(x, &v, op);
}

/*
 * caslist_lk_prefetch_w - start fetching x's cache line for writing, without
 * waiting for it.  A hint, not an access: it has no effect in the C11
 * memory model (nothing to pair with, nothing TSan sees), never faults, so
 * a stale or garbage pointer is harmless.  x86-64: PREFETCHW, which takes
 * the line exclusive (a later CAS or store needs no second transaction);
 * every AMD64 CPU has it, Intel since Broadwell, and Intel's earlier
 * 64-bit CPUs execute the encoding as a no-op (it is what lets 64-bit
 * Windows 8.1+ require it).  -DCASLIST_NO_PREFETCHW, and other
 * architectures, use the compiler's write prefetch instead.
 */
static inline void caslist_lk_prefetch_w(const void *x)
{
#if (defined(__x86_64__) || defined(__i386__)) && !defined(CASLIST_NO_PREFETCHW)
	__asm__ __volatile__("prefetchw (%0)" : : "r"(x));
#else
	__builtin_prefetch(x, 1, 3);
#endif
}

/*
 * caslist_lk_lock_prefetch - [L1] caslist_lk_lock of a node that the caller is about to
 * unlink: after the first load of x's line, start fetching for writing
 * the lines of succ(x) and of its prev hint - the next two words the
 * unlink writes (L(pred) CAS, succ->prev) - so their misses overlap with
 * ours instead of following it one by one.  Same result and orders as
 * caslist_lk_lock; the prefetches are hints (caslist_lk_prefetch_w), so a stale
 * successor or hint costs nothing but a wasted line fetch.
 *
 * Measured (listbench, 5 alternated rounds, load 1.1-1.6, 2 vCPUs, not
 * pinned, threads on two far-apart vCPUs): rotate lru_all/4096 at 2
 * threads 5.9 -> 7.4 Mops/s, del_head 6.0 -> 7.3, cold rotate
 * lru_all/262144 at 2 threads 5.8 -> 6.3; 1 thread within noise.
 * Tried and not kept, same runs: prefetching the head's line too
 * (the head waiter steals it from its holder: 2-thread rotate fell
 * back to the base rate), writing succ->prev after the unlock of pos in
 * the insert (6.6 against 7.7), and one fetch_or of the head's lock bit
 * (7.9 against 7.4 on rotate, lower on del_head, 1-thread slower).
 */
static inline uintptr_t caslist_lk_prefetch_nbrs(const struct caslist_node *x)
{
	/* Relaxed: both values only aim a prefetch (and v is caslist_lk_lock's
	 * first guess, which its CAS checks). */
	uintptr_t v = atomic_load_explicit(&x->next, memory_order_relaxed);
	uintptr_t pv = atomic_load_explicit(&x->prev, memory_order_relaxed);

	if (!caslist_lk_w_unlinked(v)) {
		caslist_lk_prefetch_w(caslist_lk_node_of(v));
		caslist_lk_prefetch_w((const void *)(pv & ~CASLIST_LK_HEAD_FLAG));
	}
	return v;
}

static inline struct caslist_node *caslist_lk_lock_prefetch_op(struct caslist_node *x,
							       const char *op)
{
	uintptr_t v = caslist_lk_prefetch_nbrs(x);

	return caslist_lk_lock_from(x, &v, op);
}

/* caslist_lk_lock_prefetch_op that also returns, in *seen, the unlinked value
 * that made it return NULL (batch_move_head tells "queued elsewhere" from
 * "not linked" by it). */
static inline struct caslist_node *caslist_lk_lock_prefetch_seen(struct caslist_node *x,
								 uintptr_t *seen, const char *op)
{
	*seen = caslist_lk_prefetch_nbrs(x);
	return caslist_lk_lock_from(x, seen, op);
}

/*
 * [L3] caslist_lk_lock_expect - take L(x) only while x->next == expect (unlocked).
 * Waits while x->next is locked; returns false as soon as x->next holds
 * any other unlocked value (x is no longer expect's predecessor).
 * The lock is caslist_lk_cas_lock (acquire).
 */
static inline bool caslist_lk_lock_expect_op(struct caslist_node *x, struct caslist_node *expect,
					     const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;

	for (;;) {
		uintptr_t v = caslist_lk_w_of(expect);

		if (caslist_lk_cas_lock(x, &v, v | CASLIST_LK_LOCK, op))
			return true;
		if (!caslist_lk_w_locked(v) && v != caslist_lk_w_of(expect))
			return false;
		if (caslist_lk_w_locked(v))
			caslist_lk_backoff_wait(&b, x, op);
	}
}

/*
 * caslist_lk_prev_hint - x->prev without the head flag.  It is never trusted as a
 * predecessor: callers CAS p->next expecting x, and that CAS (acquire) is
 * what validates it.  A stale p costs a failed CAS and a retry; it cannot
 * be written through, because a node holds an unlocked next == x only if
 * it is x's predecessor (linked nodes) or x's chain predecessor (then x
 * is not linked).
 * Acquire: pairs with the release of every prev store (caslist_lk_set_prev_checked,
 * caslist_lk_insert_locked step 2, chain_link), so whatever happened before p
 * was stored - p's allocation and initialisation included - happens
 * before our CAS on p->next.  With relaxed, TSan reported the malloc of a
 * pooled node against that CAS (the CAS is atomic, but C11 still wants
 * the allocation ordered before any access).  Free on x86 (a plain load).
 */
static inline struct caslist_node *caslist_lk_prev_hint(const struct caslist_node *x)
{
	uintptr_t v = atomic_load_explicit(&x->prev, memory_order_acquire);

	return (struct caslist_node *)(caslist_lk_prev_is_head(v) ? v & ~CASLIST_LK_HEAD_FLAG : v);
}

static inline bool caslist_lk_prev_valid(const struct caslist_node *p)
{
	return p != NULL && caslist_lk_w_of(p) != CASLIST_POISON_PREV;
}

/*
 * [L4] caslist_lk_trylock_prev - one attempt at the link pointing to x.  Returns the
 * predecessor with its link locked, or NULL.
 */
static inline struct caslist_node *caslist_lk_trylock_prev_op(struct caslist_node *x,
							      const char *op)
{
	struct caslist_node *p = caslist_lk_prev_hint(x);
	uintptr_t v = caslist_lk_w_of(x);

	if (!caslist_lk_prev_valid(p))
		return NULL;
	/* caslist_lk_cas_lock (acquire): the CAS expecting x is what validates the
	 * hint p as x's predecessor (I3). */
	return caslist_lk_cas_lock(p, &v, caslist_lk_w_of(x) | CASLIST_LK_LOCK, op) ? p : NULL;
}

/*
 * [L5] caslist_lk_lock_prev - wait for the lock of the link pointing to x; x must stay
 * linked meanwhile (the caller holds L(x)).  Lock order: waiting here while
 * holding L(x) is waiting for a link *before* x, which is allowed; every
 * holder of L(pred) either holds nothing after it or waits only further
 * toward the head, and holders of the head's link never wait, so the
 * wait-for chain ends (doc/protocol.md, "No deadlock").
 */
static inline struct caslist_node *caslist_lk_lock_prev_op(struct caslist_node *x, const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;

	for (;;) {
		struct caslist_node *p = caslist_lk_prev_hint(x);
		uintptr_t v = caslist_lk_w_of(x);

		/* caslist_lk_cas_lock (acquire): pairs with the release that made
		 * p->next == x (caslist_lk_unlock, in caslist_lk_insert_locked or
		 * caslist_lk_unlink_locked, by p's last holder). */
		if (caslist_lk_prev_valid(p) &&
		    caslist_lk_cas_lock(p, &v, caslist_lk_w_of(x) | CASLIST_LK_LOCK, op))
			return p;
		caslist_lk_backoff_wait(&b, p, op);
	}
}

/*
 * [L6] caslist_lk_set_prev_checked - succ->prev = p, under the lock of the link pointing to
 * succ, keeping succ's head flag.  The caller owns the word (only the
 * holder of L(pred(succ)) writes it), so a load then a store is enough.
 * Relaxed load: our own word.  Release store: pairs with the acquire in
 * caslist_lk_prev_hint (a thread that reads p from here may CAS p->next); the list
 * order itself is published by the caller's following caslist_lk_unlock.
 * Debug builds check the old value (it must be `was`: next->prev == self).
 */
static inline void caslist_lk_set_prev_keep(struct caslist_node *succ, struct caslist_node *p,
					    uintptr_t old)
{
	atomic_store_explicit(&succ->prev, caslist_lk_w_of(p) | (old & CASLIST_LK_HEAD_FLAG),
			      memory_order_release);
}

static inline void caslist_lk_set_prev_checked(struct caslist_node *succ, struct caslist_node *p,
					       struct caslist_node *was, const char *op)
{
	uintptr_t old = atomic_load_explicit(&succ->prev, memory_order_relaxed);

	CASLIST_LK_CHECK((old & ~CASLIST_LK_HEAD_FLAG) == caslist_lk_w_of(was), op, was,
		      "corrupted link: next->prev != self");
	caslist_lk_set_prev_keep(succ, p, old);
	(void)was;
	(void)op;
}

/*
 * caslist_lk_set_prev_new - the prev word of a node being linked (insert step 2,
 * chain_link), which the caller owns outright.  Release: as
 * caslist_lk_set_prev_checked.
 */
static inline void caslist_lk_set_prev_new(struct caslist_node *n, struct caslist_node *p)
{
	atomic_store_explicit(&n->prev, caslist_lk_w_of(p), memory_order_release);
}

/*
 * [L7] caslist_lk_insert_locked - link the chain first..last between pos and succ.
 * Requires L(pos) held with succ(pos) == succ.  Releases L(pos).
 *
 *  1. last->next = succ|CASLIST_LK_LOCK  - last's own link starts locked, so an op
 *     that targets last (or reaches it by a stale prev hint) waits until
 *     the whole insertion is done.  Relaxed: published by step 4.
 *  2. first->prev = pos, succ->prev = last - release stores (for
 *     caslist_lk_prev_hint readers); succ->prev is ours under L(pos); the list
 *     change is published by the release in step 4.
 *  3. debug: succ->prev must have been pos.
 *  4. pos->next = first       - caslist_lk_unlock (release): the node(s) are in
 *     the list from here (linearization point).
 *  5. last->next = succ       - caslist_lk_unlock (release): pairs with the
 *     acquire of whoever takes L(last) next.
 */
static inline void caslist_lk_insert_locked(struct caslist_node *pos, struct caslist_node *succ,
					    struct caslist_node *first, struct caslist_node *last,
				      const char *op)
{
	atomic_store_explicit(&last->next, caslist_lk_w_of(succ) | CASLIST_LK_LOCK,
			      memory_order_relaxed);
	caslist_lk_note_lock(last, op);
	caslist_lk_set_prev_new(first, pos);
	caslist_lk_set_prev_checked(succ, last, pos, op);
	caslist_lk_unlock(pos, first);
	caslist_lk_unlock(last, succ);
}

/*
 * caslist_lk_poison - mark a removed node as not linked (OWNED by its
 * remover).  Requires L(n) held; consumes it.  Both stores relaxed
 * (doc/protocol.md section 5, G5): every reader of POISON only learns
 * "not linked" - caslist_lk_lock and touch return ENOENT / GONE, iter_next
 * EAGAIN, chain_next NULL - and reads nothing else the remover wrote; the
 * node is then its remover's, whose later writes are in program order,
 * and whose hand-back (caslist_node_init) is a release of its own.
 */
static inline void caslist_lk_poison(struct caslist_node *n)
{
	atomic_store_explicit(&n->prev, CASLIST_POISON_PREV, memory_order_relaxed);
	atomic_store_explicit(&n->next, CASLIST_POISON_NEXT, memory_order_relaxed);
}

/*
 * [L8] caslist_lk_unlink_locked - remove n from between pred and succ.  Requires
 * L(pred) (pred->next == n|CASLIST_LK_LOCK) and L(n) (n->next == succ|CASLIST_LK_LOCK).
 *  1. succ->prev = pred - ours under L(n); relaxed, published by step 2.
 *  2. pred->next = succ - caslist_lk_unlock (release): n leaves the list here.
 *  3. poison n          - consumes L(n).
 */
static inline void caslist_lk_unlink_locked(struct caslist_node *pred, struct caslist_node *n,
					    struct caslist_node *succ, const char *op)
{
	caslist_lk_set_prev_checked(succ, pred, n, op);
	caslist_lk_unlock(pred, succ);
	caslist_lk_poison(n);
}

/*
 * caslist_lk_unlink_to_batch - as caslist_lk_unlink_locked, but n is left queued in a
 * batch: prev poisoned, next = word (b | CASLIST_LK_BATCH_TAG) instead of POISON.
 * Step 3 is relaxed, as in caslist_lk_poison (G5): a reader of the batch
 * word only learns "not linked" (or "queued": a batch_move_head reports
 * OK, a touch OK) and reads nothing else; the flush that links the node
 * again is the batch's own thread.
 */
static inline void caslist_lk_unlink_to_batch(struct caslist_node *pred, struct caslist_node *n,
					      struct caslist_node *succ, uintptr_t word,
					const char *op)
{
	caslist_lk_set_prev_checked(succ, pred, n, op);
	caslist_lk_unlock(pred, succ);
	atomic_store_explicit(&n->prev, CASLIST_POISON_PREV, memory_order_relaxed);
	atomic_store_explicit(&n->next, word, memory_order_relaxed);
}

/* ---- composite steps shared by list_ops.h, batch_ops.h and fl_ops.h ---- */

/*
 * [S0] caslist_lk_lock_head - take L(head): spin on relaxed loads while
 * the word is locked, CAS the bit in once it looks free (caslist_lk_lock's
 * loop, with the heat: the wait starts from this thread's last head
 * budget, backoff.h), plus the check that the list was initialised: the
 * head is always linked, so its word is never 0 or POISON unless nobody
 * called caslist_init - abort then instead of waiting for ever.  Orders as
 * caslist_lk_lock (acquire CAS, pairing with the release in
 * caslist_lk_unlock of the head's previous holder).  Its callers hold
 * nothing a parked thread could block (add_head's node is the caller's
 * own; a flush's and a touch's nodes look busy but nobody waits on them
 * holding anything).
 *
 * Measured and not kept: one fetch_or of the lock bit instead of load +
 * CAS (the RMW takes the line exclusive even while the head is held, so
 * the holder's unlock store misses): rotate at 2 threads 26.8 Mops/s
 * against 31.0 with the CAS (waitstat, 5 alternated rounds, load 1.5),
 * delete + add_head 28.7 against 29.8; a load before the fetch_or (TTAS)
 * did not recover it (27.6, 27.8).  Also not kept: a PREFETCHW of the
 * old first node's line each time the word is seen unlocked, before the
 * CAS (its prev is written while the head is held): rotate at 2 threads
 * 27.6-31.3 against 28.8-32.1 Mops/s (6 alternated rounds, README).
 * (Both under the 0.3 wait policy, before the heat.)
 */
static inline struct caslist_node *caslist_lk_lock_head(struct caslist_node *h, const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	uintptr_t v = atomic_load_explicit(&h->next, memory_order_relaxed);
	struct caslist_node *f;
	unsigned start;

	caslist_lk_backoff_heat_start(&b);
	start = b.spins;
	f = caslist_lk_lock_from_b(h, &v, &b, op);
	CASLIST_LK_REQUIRE(f != NULL, op, h, CASLIST_LK_NOT_INIT);
	caslist_lk_backoff_heat_end(&b, start);
	return f;
}

/*
 * caslist_lk_lock_pair - L(n) and L(pred(n)) for a removal (Step [S6], [S13]), never
 * waiting holding L(n): L(n) (NULL if n is not linked; *seen is then the
 * unlinked value that said so, caslist_lk_lock_prefetch_seen), then ONE
 * attempt at L(pred(n)) ([L4]); if pred's link is busy, give L(n) back
 * (the release store of the value it had) and back off holding nothing,
 * then start over.  Returns succ(n) with both held, *pred set.
 *
 * Why not wait for L(pred) holding L(n) (0.3 and before; allowed by the
 * lock order, rule R3): a thread that waits holding L(n) makes every
 * thread that needs n - its successor's delete, a move of n - wait
 * behind it, and under the randomised wait (backoff.h) a waiter may park
 * for up to a millisecond: two parked threads, one behind the other.
 * Holding nothing while parked is what lets the winner of a hot list run
 * on (doc/protocol.md section 15).  The first attempt runs straight
 * through and the loop is the retry: written as one loop around the
 * whole attempt, the uncontended delete ran 18% slower at one thread
 * (55 against 67 Mops/s).
 */
static inline struct caslist_node *caslist_lk_lock_pair(struct caslist_node *n,
							struct caslist_node **pred, uintptr_t *seen,
							const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	struct caslist_node *s = caslist_lk_lock_prefetch_seen(n, seen, op);
	struct caslist_node *p;

	for (;;) {
		if (s == NULL)
			return NULL;
		p = caslist_lk_trylock_prev_op(n, op);
		if (__builtin_expect(p != NULL, 1))
			break;
		/* The link we could not take, for the stuck-wait line. */
		p = caslist_lk_prev_hint(n);
		caslist_lk_unlock(n, s);	/* give L(n) back as it was */
		caslist_lk_backoff_wait(&b, p, op);
		s = caslist_lk_lock_prefetch_seen(n, seen, op);
	}
	*pred = p;
	return s;
}

/*
 * [S6] caslist_lk_del - remove linked n: caslist_lk_lock_pair (ENOENT if n
 * is not linked), unlink.  Linearizes at pred->next = succ.  Stores the
 * predecessor the node had in *pred (if not NULL).  The delete of
 * caslist_del, caslist_del_if_linked and caslist_fl_remove: one protocol,
 * checked once.
 */
static inline int caslist_lk_del(struct caslist_node *n, struct caslist_node **pred, const char *op)
{
	struct caslist_node *p, *s;
	uintptr_t seen;

	s = caslist_lk_lock_pair(n, &p, &seen, op);
	if (s == NULL)
		return CASLIST_ENOENT;
	caslist_lk_unlink_locked(p, n, s, op);
	if (pred != NULL)
		*pred = p;
	return CASLIST_OK;
}

/*
 * [L10] caslist_lk_batch_chain - a batch's nodes become one chain just before it
 * is spliced (and caslist_lk_unlock releases each link just after).  For each
 * pair (a, b): b->prev = a (release, as every prev store) and a->next =
 * b|CASLIST_LK_LOCK (relaxed: a is ours, published by the splice's release).  So
 * while the chain is private and while the splice runs, every node of it
 * looks busy, never linked: a waiter waits exactly as for a node in
 * transit, and a remover cannot mistake the chain for a list (the chain
 * rule that plain chains need, batches do not).
 */
static inline void caslist_lk_batch_chain(struct caslist_node *a, struct caslist_node *b)
{
	caslist_lk_set_prev_new(b, a);
	atomic_store_explicit(&a->next, caslist_lk_w_of(b) | CASLIST_LK_LOCK, memory_order_relaxed);
}

/* ---- initialisation, chains, claims and cuts: the remaining writers ---- */

/*
 * caslist_lk_init_head - an empty list: h->next = h, and h->prev = h with the
 * head flag, which this word keeps for good.  Relaxed: the list is
 * published to other threads by whatever hands them the pointer (thread
 * creation, a release store of the caller).
 */
static inline void caslist_lk_init_head(struct caslist_node *h)
{
	atomic_store_explicit(&h->next, caslist_lk_w_of(h), memory_order_relaxed);
	atomic_store_explicit(&h->prev, caslist_lk_w_of(h) | CASLIST_LK_HEAD_FLAG,
			      memory_order_relaxed);
}

/*
 * caslist_lk_init_node - make n FRESH: next 0 (anyone may add it; racing touches
 * elect one adder), prev POISON_PREV (so an initialised node is never
 * mistaken for zeroed memory: see check_pos in list_ops.h).  Atomic
 * stores (not atomic_init) so a stale CAS from another thread on recycled
 * memory is not a data race.  prev relaxed, next release: an owner that
 * re-initialises a node hands it to whoever claims it next, and the
 * release pairs with the acquire of that claim (caslist_lk_claim), so the
 * claimer's insert follows every write the owner made to the object.
 */
static inline void caslist_lk_init_node(struct caslist_node *n)
{
	atomic_store_explicit(&n->prev, CASLIST_POISON_PREV, memory_order_relaxed);
	atomic_store_explicit(&n->next, 0, memory_order_release);
}

/*
 * caslist_lk_own_node - make n OWNED (next POISON_NEXT, prev POISON_PREV), as a
 * removal leaves it: for a node its thread holds outside every list by
 * other means (a free-list take walking a cut chain, a cancelled batch).
 * The caller already owns n.  Relaxed, as caslist_lk_poison (G5).
 */
static inline void caslist_lk_own_node(struct caslist_node *n)
{
	atomic_store_explicit(&n->prev, CASLIST_POISON_PREV, memory_order_relaxed);
	atomic_store_explicit(&n->next, CASLIST_POISON_NEXT, memory_order_relaxed);
}

/*
 * caslist_lk_chain - b follows a in a private chain: b->prev = a (release, as
 * every prev store), then a->next = b.  Release on next: pairs with the
 * acquire CAS of whoever takes L(a) once the chain is spliced, and with
 * chain_next/iter_next: they see what the caller wrote to a and b before.
 */
static inline void caslist_lk_chain(struct caslist_node *a, struct caslist_node *b)
{
	caslist_lk_set_prev_new(b, a);
	atomic_store_explicit(&a->next, caslist_lk_w_of(b), memory_order_release);
}

/*
 * CASLIST_LK_CLAIMED - the word of a node claimed by caslist_touch: locked (so every
 * other thread sees it linked and busy) and pointing nowhere.  Insert step
 * 1 replaces it with the real successor, still locked.
 */
#define CASLIST_LK_CLAIMED (CASLIST_POISON_NEXT | CASLIST_LK_LOCK)

/*
 * caslist_lk_claim - one attempt to claim FRESH n: CAS n->next from *v (0, the
 * value the caller read) to CASLIST_LK_CLAIMED (caslist_lk_cas_lock).  Only a fresh node is
 * ever claimed: an OWNED one (POISON) belongs to its remover.  On failure
 * *v is the value seen.  The acquire pairs with the release in
 * caslist_lk_init_node (the owner that made n fresh again: its writes to n
 * precede our insert).
 */
static inline bool caslist_lk_claim(struct caslist_node *n, uintptr_t *v, const char *op)
{
	return caslist_lk_cas_lock(n, v, CASLIST_LK_CLAIMED, op);
}

/*
 * [L9] caslist_lk_cut_locked - cut first..last off after h.  Requires L(last)
 * with succ(last) == s and L(h) with succ(h) == first, last on h's list.
 *  1. s->prev = h (ours under L(last); release).
 *  2. first->prev = 0: the chain start (first is ours from here; release).
 *  3. h->next = s - caslist_lk_unlock (release): linearization point.
 *  4. last->next = POISON - the chain end, OWNED (a touch of it adds
 *     nothing; removers see "not linked"); consumes L(last).  last->prev
 *     keeps its chain predecessor (a later splice needs it).  Relaxed
 *     (G5): the chain's owner is this thread (program order); others
 *     learn only "not linked".
 */
static inline void caslist_lk_cut_locked(struct caslist_node *h, struct caslist_node *first,
					 struct caslist_node *last, struct caslist_node *s,
				   const char *op)
{
	caslist_lk_set_prev_checked(s, h, last, op);
	caslist_lk_set_prev_new(first, NULL);
	caslist_lk_unlock(h, s);
	atomic_store_explicit(&last->next, CASLIST_POISON_NEXT, memory_order_relaxed);
}

CASLIST_LK_END

#endif /* CASLIST_LIB_LINK_H */
