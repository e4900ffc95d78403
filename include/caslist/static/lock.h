/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/lock.h> - taking and releasing link locks: the one CAS
 * that takes every lock (caslist_lk_cas_lock), the one store that releases
 * it (caslist_lk_unlock), the waits built on them ([L1]-[L5]), the pair
 * a removal takes, the head's lock and a touch's claim.  The writes that
 * change the list while the locks are held are link.h's.
 *
 * Every step that can wait or report takes OP last: the name of the public
 * operation (a string literal).  It is read only on cold paths - the
 * stuck-wait line, a misuse abort, the debug builds' holder record - so
 * after inlining it costs nothing on the fast path (HACKING.md, "The `op` argument").
 */
#ifndef CASLIST_STATIC_LOCK_H
#define CASLIST_STATIC_LOCK_H

#include "word.h"
#include "debug.h"
#include "wait.h"

CASLIST_LK_BEGIN

/*
 * caslist_lk_cas_lock - THE lock acquisition: one CAS of x->next from *seen to
 * desired (a locked word: v|CASLIST_LK_LOCK, or CASLIST_LK_CLAIMED), recording the holder.  Every
 * way of taking a link lock ([L1]-[L5], the touch claim) is this CAS.
 * Acquire on success: pairs with the release store that wrote the value we
 * replace - caslist_lk_unlock of the link's last holder, caslist_lk_chain
 * of a chain's builder, caslist_lk_init_node of an owner that made the
 * node FRESH (a claim; no CAS replaces a removal's POISON or batch word,
 * which are relaxed stores) - so that writer's writes (the successor's prev, the node contents)
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
 * caslist_lk_unlock - release L(x) with successor word SW (the successor's
 * address with its kind, I6: the word the holder read it from, or
 * caslist_lk_w_head / caslist_lk_w_of for a successor it knows): the only
 * way a locked word becomes unlocked, and the linearization point of every
 * operation.
 * Release: pairs with the acquire of the next CAS that takes L(x)
 * (caslist_lk_lock*, caslist_lk_trylock*) and with the acquire load in iter_next, so
 * whoever reaches s through x next sees every write the holder made before:
 * s->prev, the node contents of s and of anything the holder unlinked.
 */
static inline void caslist_lk_unlock(struct caslist_node *x, uintptr_t sw)
{
	/* Debug builds: a head is released only by a thread that entered
	 * its wait (caslist_lk_fair_note): no path locks a head without
	 * taking part in its hand-over (doc/wait.md, "Who takes part").
	 * Relaxed: the head flag of a prev word never changes
	 * (caslist_lk_prev_is_head). */
	if (CASLIST_LK_DEBUG_ON &&
	    caslist_lk_prev_is_head(atomic_load_explicit(&x->prev, memory_order_relaxed))) {
		CASLIST_LK_CHECK(CASLIST_LK_SELF.entered == caslist_lk_list_of_head(x),
				 "caslist_lk_unlock", x,
				 "a head released by a path that did not enter its wait");
		CASLIST_LK_SELF.entered = NULL;
	}
	/* [mutant relaxed] the mutant stores relaxed (test/stress/mutate.sh) */
	atomic_store_explicit(&x->next, sw, memory_order_release);
}

/*
 * [L2] caslist_lk_trylock - one attempt at L(x); *SW: the successor word.
 * Relaxed load: only a guess at the expected value; the CAS
 * (caslist_lk_cas_lock: acquire) decides.
 */
static inline bool caslist_lk_trylock(struct caslist_node *x, uintptr_t *sw, const char *op)
{
	uintptr_t v = atomic_load_explicit(&x->next, memory_order_relaxed);

	if (caslist_lk_w_locked(v) || caslist_lk_w_unlinked(v) || !caslist_lk_cas_lock(x, &v,
										       v | CASLIST_LK_LOCK, op))
		return false;
	*sw = v;
	return true;
}

static inline bool caslist_lk_prev_valid(const struct caslist_node *p)
{
	return p != NULL && caslist_lk_w_of(p) != CASLIST_POISON_PREV;
}

/*
 * The wait of an operation that holds nothing for a link P it could not
 * take: if P is a head (its prev word has the head flag: whether it has
 * never changes, caslist_lk_prev_is_head), a head wait on P's list
 * (caslist_lk_fair_wait: rounds of backoff, then a ticket), so that a
 * delete of the first node or an add next to a head waits its turn
 * behind a hot head's streak like every other entry (doc/wait.md, "Who
 * takes part"); else a round of backoff on P.  P is a hint (a stale
 * pointer only costs a wrong kind of wait: the caller's CAS decides);
 * its prev word is read relaxed, on a line the caller just failed to
 * take, as caslist_lk_head_over reads it.
 */
static inline void caslist_lk_link_wait(struct caslist_lk_backoff *b, struct caslist_node *p,
					const char *op)
{
	/* [mutant nolinkwait] the mutant waits on a busy head by backoff only (test/stress/busyhead.sh) */
	if (caslist_lk_prev_valid(p) &&
	    caslist_lk_prev_is_head(atomic_load_explicit(&p->prev, memory_order_relaxed)))
		caslist_lk_fair_wait(caslist_lk_list_of_head(p), b, p, op);
	else
		caslist_lk_backoff_wait(b, p, op);
}

/* The list a move to L's head waits at when BUSY (a hint: the link it
 * could not take) is busy: BUSY's own list if it is another list's head
 * (n was first there: its delete waits its turn at that head, as
 * caslist_lk_link_wait), else L (the move's own head, or n's predecessor
 * node: the move takes part in L's hand-over). */
static inline struct caslist_list *caslist_lk_list_of_busy(struct caslist_list *l,
							     const void *busy)
{
	struct caslist_node *p = CASLIST_LK_PCAST(struct caslist_node *,
						  CASLIST_LK_PCAST(uintptr_t, busy));

	if (p != &l->head && caslist_lk_prev_valid(p) &&
	    caslist_lk_prev_is_head(atomic_load_explicit(&p->prev, memory_order_relaxed)))
		return caslist_lk_list_of_head(p);
	return l;
}

/*
 * [L1] caslist_lk_lock - wait for L(x) (caslist_lk_lock_from: starting from the value
 * *vp of x->next the caller already loaded).  Returns the successor word
 * of x (its address and kind, I6; never 0), or 0 if x is (or becomes) not
 * linked; then *vp is the unlinked value that said
 * so (fresh, owned or queued: callers that report which one use it, never
 * a second load, which could see a later state).  The lock is
 * caslist_lk_cas_lock (acquire); the loads between attempts are relaxed (they
 * only aim the next CAS).  Caller obeys the lock order (see
 * caslist_lk_lock_prev).  The wait uses the caller's backoff B.  IDLE:
 * the caller holds nothing, so the wait may take a ticket if x is a head
 * (caslist_lk_link_wait); false for a caller that holds a link another
 * thread may wait for (backoff only, wait.h).
 */
static inline uintptr_t caslist_lk_lock_from(struct caslist_node *x, uintptr_t *vp,
					     struct caslist_lk_backoff *b, bool idle,
					     const char *op)
{
	uintptr_t v = *vp;

	for (;;) {
		if (caslist_lk_w_unlinked(v)) {
			*vp = v;
			return 0;
		}
		if (!caslist_lk_w_locked(v) && caslist_lk_cas_lock(x, &v, v | CASLIST_LK_LOCK, op))
			return v;
		if (caslist_lk_w_locked(v)) {
			if (idle)
				caslist_lk_link_wait(b, x, op);
			else
				caslist_lk_backoff_wait(b, x, op);
			v = atomic_load_explicit(&x->next, memory_order_relaxed);
		}
	}
}

static inline uintptr_t caslist_lk_lock(struct caslist_node *x, const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	uintptr_t v = atomic_load_explicit(&x->next, memory_order_relaxed);

	return caslist_lk_lock_from(x, &v, &b, false, op);
}

/* caslist_lk_lock for a caller that holds nothing (add_after): x may be a
 * head, whose wait then takes part in its hand-over (caslist_lk_link_wait). */
static inline uintptr_t caslist_lk_lock_idle(struct caslist_node *x, const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	uintptr_t v = atomic_load_explicit(&x->next, memory_order_relaxed);

	return caslist_lk_lock_from(x, &v, &b, true, op);
}

/*
 * caslist_lk_prefetch_w - start fetching x's cache line for writing, without
 * waiting for it.  A hint, not an access: it has no effect in the C11
 * memory model (nothing to pair with, nothing TSan sees), never faults, so
 * a stale or garbage pointer is harmless.  x86-64: PREFETCHW, which
 * fetches the line in the exclusive state, so the CAS or store that
 * follows needs no second request for ownership; an x86-64 CPU either
 * implements it or executes its encoding as a no-op, so it is safe on
 * every one.  -DCASLIST_NO_PREFETCHW, 32-bit x86 (where a CPU
 * without it may fault on the encoding) and other architectures use the
 * compiler's write prefetch instead (__builtin_prefetch(x, 1, 3): PRFM
 * PSTL1KEEP on aarch64, nothing where the target has no such hint).
 */
static inline void caslist_lk_prefetch_w(const void *x)
{
#if defined(__x86_64__) && !defined(CASLIST_NO_PREFETCHW)
	__asm__ __volatile__("prefetchw (%0)" : : "r"(x));
#else
	__builtin_prefetch(x, 1, 3);
#endif
}

/* The prefetches of caslist_lk_lock_prefetch (below) from x's two
 * words V and PV, with the check that x is no head. */
static inline void caslist_lk_prefetch_vals(const struct caslist_node *x, uintptr_t v,
					    uintptr_t pv, const char *op)
{
	/* Every caller takes x as a node to remove or move, never a head: a
	 * head's link locks like any other and its prev hint names the tail,
	 * so the removal would go through and cut the head out of its own
	 * list.  Only a linked word can be a head's, so the check sits on
	 * that branch: a test and a predicted branch on a word loaded anyway
	 * (every build). */
	CASLIST_LK_REQUIRE(!caslist_lk_prev_is_head(pv), op, x, CASLIST_LK_IS_HEAD);
	caslist_lk_prefetch_w(caslist_lk_node_of(v));
	caslist_lk_prefetch_w(CASLIST_LK_PCAST(const void *, pv & ~CASLIST_LK_HEAD_FLAG));
}

/* The same from x's words: batch_move_head_n's look-ahead. */
static inline uintptr_t caslist_lk_prefetch_nbrs(const struct caslist_node *x, const char *op)
{
	/* Relaxed, as in caslist_lk_lock_prefetch below. */
	uintptr_t v = atomic_load_explicit(&x->next, memory_order_relaxed);
	uintptr_t pv = atomic_load_explicit(&x->prev, memory_order_relaxed);

	if (!caslist_lk_w_unlinked(v))
		caslist_lk_prefetch_vals(x, v, pv, op);
	return v;
}

/*
 * caslist_lk_lock_prefetch - [L1] caslist_lk_lock of a node that the caller is about to
 * unlink: after the first load of x's line, start fetching for writing
 * the lines of succ(x) and of its prev hint - the next two words the
 * unlink writes (L(pred) CAS, succ->prev) - so their misses overlap with
 * ours instead of following it one by one.  Same result and orders as
 * caslist_lk_lock; the prefetches are hints (caslist_lk_prefetch_w), so a stale
 * successor or hint costs nothing but a wasted line fetch.  What it bought, and the variants not kept: doc/notebook.md, "Kept: prefetching the neighbours in caslist_lk_lock_prefetch".
 *
 * *seen: the unlinked value that made it return NULL (batch_move_head
 * tells "queued elsewhere" from "not linked" by it).  The first attempt
 * is written out on the free word (caslist_lk_w_free: one test where
 * caslist_lk_lock_from's loop makes four, and a result known not to be
 * NULL); every other word goes to that loop.
 */
CASLIST_LK_STEP uintptr_t caslist_lk_lock_prefetch(struct caslist_node *x, uintptr_t *seen,
						 const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	/* Relaxed: both values only aim a prefetch (and v is the lock's first
	 * guess, which its CAS checks), and pv the head check, whose answer
	 * no write changes (caslist_lk_prev_is_head, word.h). */
	uintptr_t v = atomic_load_explicit(&x->next, memory_order_relaxed);
	uintptr_t pv = atomic_load_explicit(&x->prev, memory_order_relaxed);

	*seen = v;
	if (__builtin_expect(caslist_lk_w_free(v), 1)) {
		caslist_lk_prefetch_vals(x, v, pv, op);
		/* caslist_lk_cas_lock: acquire, as in caslist_lk_lock_from. */
		if (__builtin_expect(caslist_lk_cas_lock(x, seen, v | CASLIST_LK_LOCK, op), 1)) {
			if (v == 0)	/* free: never; tells the compiler */
				__builtin_unreachable();
			return v;
		}
	} else if (!caslist_lk_w_unlinked(v)) {
		caslist_lk_prefetch_vals(x, v, pv, op);
	}
	return caslist_lk_lock_from(x, seen, &b, false, op);
}

/*
 * [L3] caslist_lk_lock_expect - take L(x) only while x->next == EXPECT, a
 * successor word (unlocked; a tail's is caslist_lk_w_head of its head).
 * Waits while x->next is locked; returns false as soon as x->next holds
 * any other unlocked value (x is no longer expect's predecessor).
 * The lock is caslist_lk_cas_lock (acquire).  Its callers hold nothing
 * (add_tail's and add_tail_if's tail): on an empty list x is the head,
 * whose wait takes part in its hand-over (caslist_lk_link_wait).
 */
static inline bool caslist_lk_lock_expect(struct caslist_node *x, uintptr_t expect,
					  const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;

	for (;;) {
		uintptr_t v = expect;

		if (caslist_lk_cas_lock(x, &v, v | CASLIST_LK_LOCK, op))
			return true;
		if (!caslist_lk_w_locked(v) && v != expect)
			return false;
		if (caslist_lk_w_locked(v))
			caslist_lk_link_wait(&b, x, op);
	}
}

/* A prev word without the head flag.  caslist_lk_prev_is_head(v) ? v &
 * ~FLAG : v, written so that the compiler sees that a stripped word is
 * never POISON_PREV (its flag bit is set): caslist_lk_prev_valid then
 * makes two tests, not four. */
static inline struct caslist_node *caslist_lk_prev_strip(uintptr_t v)
{
	return CASLIST_LK_PCAST(struct caslist_node *,
				v == CASLIST_POISON_PREV ? v : v & ~CASLIST_LK_HEAD_FLAG);
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
	return caslist_lk_prev_strip(atomic_load_explicit(&x->prev, memory_order_acquire));
}

/*
 * caslist_lk_prev_word - x's prev hint (as caslist_lk_prev_hint, the same
 * acquire load) and, in *XW, the word a link pointing to x holds: x's
 * address with the head bit if x is a head (I6), which the prev word's
 * head flag says.  What a CAS on the hinted predecessor's link expects.
 */
static inline struct caslist_node *caslist_lk_prev_word(const struct caslist_node *x,
						       uintptr_t *xw)
{
	/* Acquire: as caslist_lk_prev_hint. */
	uintptr_t v = atomic_load_explicit(&x->prev, memory_order_acquire);
	bool head = caslist_lk_prev_is_head(v);

	*xw = head ? caslist_lk_w_head(x) : caslist_lk_w_of(x);
	return caslist_lk_prev_strip(v);
}

/*
 * caslist_lk_trylock_at - one attempt at L(p), the link of a predecessor
 * hint p (not 0, not POISON) of the node or head whose word is XW: the
 * CAS of p's word from XW to XW|LOCK (caslist_lk_cas_lock, acquire; it
 * validates the hint, I3).  caslist_lk_trylock_prev_as's attempt, and
 * caslist_lk_pair_first's with the hint it loaded itself.
 */
static inline bool caslist_lk_trylock_at(struct caslist_node *p, uintptr_t xw, const char *op)
{
	uintptr_t v = xw;

	return caslist_lk_cas_lock(p, &v, xw | CASLIST_LK_LOCK, op);
}

/*
 * caslist_lk_head_over - for a path that has just taken L(p) without a
 * head's entry (p: a predecessor found by its hint, a position the caller
 * named): if p is a head, this operation passes its hand-over here
 * (caslist_lk_fair_pass), and true says the clock must decide: the caller
 * gives back what it took, calls caslist_lk_fair_enter(list of p) out of
 * line (which queues if the streak is over) and starts over.  The load is
 * p's prev word, on the line the CAS just took (relaxed: whether a prev
 * word has the head flag never changes, caslist_lk_prev_is_head).
 */
static inline bool caslist_lk_head_over(struct caslist_node *p)
{
	/* [mutant noheadover] the mutant never sees a head here (test/stress/headkinds.sh) */
	return __builtin_expect(caslist_lk_prev_is_head(atomic_load_explicit(&p->prev,
									      memory_order_relaxed)),
				0) &&
	       !caslist_lk_fair_pass(caslist_lk_list_of_head(p));
}

/* caslist_lk_head_over, for an operation that has had its verdict
 * (ASKED: caslist_lk_pair_busy_wait): false, and in debug builds the
 * note that it entered p's wait if p is a head (caslist_lk_unlock's
 * check). */
static inline bool caslist_lk_head_over_unless(struct caslist_node *p, bool asked)
{
	if (!asked)
		return caslist_lk_head_over(p);
	if (CASLIST_LK_DEBUG_ON &&
	    caslist_lk_prev_is_head(atomic_load_explicit(&p->prev, memory_order_relaxed)))
		caslist_lk_fair_note(caslist_lk_list_of_head(p));
	return false;
}

/* A busy link reported by caslist_lk_pair_first when the link it took
 * was a head whose hand-over must ask the clock: the head's address with
 * bit 0 set (no link is at an odd address), so that the first attempt
 * makes no call; the retry calls caslist_lk_pair_busy_wait. */
static inline const void *caslist_lk_busy_head(const struct caslist_node *h)
{
	return CASLIST_LK_PCAST(const void *, CASLIST_LK_PCAST(uintptr_t, h) | 1u);
}

/* The retry's first wait, for the BUSY caslist_lk_pair_first reported:
 * a head to ask the clock about (caslist_lk_busy_head: its hand-over's
 * verdict, and a turn if its streak is over), a busy link (a round of
 * backoff on it), or NULL (nothing).  True if it asked: the operation
 * has had its verdict and goes on without asking again (one verdict per
 * operation, or a test's clock read on every pass would never let it
 * through until the streak's end). */
static inline bool caslist_lk_pair_busy_wait(struct caslist_lk_backoff *b, const void *busy,
					     const char *op)
{
	uintptr_t a = CASLIST_LK_PCAST(uintptr_t, busy);

	if (a & 1u) {
		caslist_lk_fair_enter(caslist_lk_list_of_head(CASLIST_LK_PCAST(struct caslist_node *,
									      a & ~CASLIST_LK_ICAST(uintptr_t, 1u))),
				      op);
		return true;
	}
	if (busy != NULL)
		caslist_lk_link_wait(b, CASLIST_LK_PCAST(struct caslist_node *, a), op);
	return false;
}

/* The same for a caller that holds a link another thread may wait for
 * (caslist_link_lock and its kin): past its streak it grants and goes on,
 * as caslist_lk_lock_head_held. */
static inline void caslist_lk_head_taken_held(struct caslist_node *p)
{
	if (__builtin_expect(caslist_lk_prev_is_head(atomic_load_explicit(&p->prev,
									   memory_order_relaxed)),
			     0))
		caslist_lk_fair_enter_held(caslist_lk_list_of_head(p));
}

/*
 * [L4] caslist_lk_trylock_prev - one attempt at the link pointing to x.  Returns the
 * predecessor with its link locked, or NULL.  caslist_lk_trylock_prev
 * serves any x, caslist_lk_trylock_prev_node an x known to be a node.
 */
static inline struct caslist_node *caslist_lk_trylock_prev_as(struct caslist_node *x, bool any,
							       const char *op)
{
	uintptr_t xw = caslist_lk_w_of(x);
	/* ANY: x may be a head (add_near at a head: its word then has the
	 * head bit, I6); else the caller knows x is a node (it checked x's
	 * prev word, or its path aborts on a head): a constant, folded, so
	 * the delete's and the move's fast path test no flag. */
	struct caslist_node *p = any ? caslist_lk_prev_word(x, &xw) : caslist_lk_prev_hint(x);

	if (!caslist_lk_prev_valid(p))
		return NULL;
	/* The CAS expecting x is what validates the hint p as x's
	 * predecessor (I3). */
	return caslist_lk_trylock_at(p, xw, op) ? p : NULL;
}

static inline struct caslist_node *caslist_lk_trylock_prev(struct caslist_node *x,
							      const char *op)
{
	return caslist_lk_trylock_prev_as(x, true, op);
}

static inline struct caslist_node *caslist_lk_trylock_prev_node(struct caslist_node *x,
								const char *op)
{
	return caslist_lk_trylock_prev_as(x, false, op);
}

/*
 * [L5] caslist_lk_lock_prev - wait for the lock of the link pointing to x; x must stay
 * linked meanwhile (the caller holds L(x)).  Lock order: waiting here while
 * holding L(x) is waiting for a link *before* x, which is allowed; every
 * holder of L(pred) either holds nothing after it or waits only further
 * toward the head, and holders of the head's link never wait, so the
 * wait-for chain ends (doc/protocol.md, "Lock order").
 */
static inline struct caslist_node *caslist_lk_lock_prev_as(struct caslist_node *x, bool any,
							    const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;

	for (;;) {
		uintptr_t xw = caslist_lk_w_of(x);
		/* ANY: x may be a head (its word then has the head bit);
		 * else the caller knows x is a node (a constant: folded). */
		struct caslist_node *p = any ? caslist_lk_prev_word(x, &xw) : caslist_lk_prev_hint(x);
		uintptr_t v = xw;

		/* caslist_lk_cas_lock (acquire): pairs with the release that made
		 * p->next == x (caslist_lk_unlock, in caslist_lk_insert_locked or
		 * caslist_lk_unlink_locked, by p's last holder).  x may be a
		 * head (caslist_link_lock_prev of a head: the tail's link). */
		if (caslist_lk_prev_valid(p) &&
		/* [mutant skiplock] the mutant trusts the hint: no CAS on the next line (test/stress/mutate.sh) */
		    caslist_lk_cas_lock(p, &v, xw | CASLIST_LK_LOCK, op))
			return p;
		caslist_lk_backoff_wait(&b, p, op);
	}
}

static inline struct caslist_node *caslist_lk_lock_prev(struct caslist_node *x, const char *op)
{
	return caslist_lk_lock_prev_as(x, true, op);
}

/* The head lock's first attempt, on a free word: no wait, no ticket.  *V:
 * the head's word, loaded relaxed by the caller (it only aims the CAS).
 * The CAS is caslist_lk_cas_lock (acquire), as in caslist_lk_lock_from;
 * true: *v is the old first node's word; false: the value the CAS found
 * (or the word that was not free), where the caller's loop starts. */
CASLIST_LK_STEP bool caslist_lk_head_first(struct caslist_node *h, uintptr_t *v, const char *op)
{
	if (__builtin_expect(caslist_lk_w_free(*v), 1) &&
	    __builtin_expect(caslist_lk_cas_lock(h, v, *v | CASLIST_LK_LOCK, op), 1)) {
		if (*v == 0)	/* free: never; tells the compiler */
			__builtin_unreachable();
		return true;
	}
	return false;
}

/*
 * [S0] caslist_lk_lock_head - take L(head): spin on relaxed loads while
 * the word is locked, CAS the bit in once it looks free (caslist_lk_lock's
 * loop), plus the check that the list was initialised: the
 * head is always linked, so its word is never 0 or POISON unless nobody
 * called caslist_init - abort then instead of waiting for ever.  Orders as
 * caslist_lk_lock (acquire CAS, pairing with the release in
 * caslist_lk_unlock of the head's previous holder).  Why a load and a CAS, not a fetch_or, and no prefetch of the old first node: doc/notebook.md, "Not kept: the head's lock as a fetch_or".
 *
 * caslist_lk_lock_head is for callers that hold nothing (add_head,
 * splice_head, pop_head): it defers to a pending ticket first and its
 * wait may take one (wait.h).  caslist_lk_lock_head_held is for callers
 * holding links another thread may wait on (a touch's claimed node, a
 * cut's last link, a flush's chain): it passes and, past its streak,
 * grants the oldest pending ticket, but never takes a ticket or waits
 * for a turn.  Either way the caller holds nothing a parked thread could
 * block for long: those links are waited on only by threads that hold
 * nothing themselves.
 */
CASLIST_LK_STEP uintptr_t caslist_lk_lock_head_as(struct caslist_node *h, struct caslist_list *fair,
						const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	uintptr_t v = atomic_load_explicit(&h->next, memory_order_relaxed);
	uintptr_t f;

	if (__builtin_expect(caslist_lk_head_first(h, &v, op), 1))
		return v;
	f = caslist_lk_lock_from(h, &v, &b, fair != NULL, op);
	CASLIST_LK_REQUIRE(f != 0, op, h, CASLIST_LK_NOT_INIT);
	return f;
}

/* The retry of caslist_lk_lock_head, out of line: the entry (unless the
 * first attempt passed it: PASSED) and the lock's loop. */
static __attribute__((noinline, unused)) uintptr_t
caslist_lk_lock_head_retry(struct caslist_node *h, bool passed, const char *op)
{
	struct caslist_list *l = caslist_lk_list_of_head(h);

	if (!passed)
		caslist_lk_fair_enter(l, op);
	return caslist_lk_lock_head_as(h, l, op);
}

/* The first attempt: no ticket pending, or counted past one
 * (caslist_lk_fair_pass), and the head's word free; anything else goes
 * to caslist_lk_lock_head_retry, having taken nothing (HACKING.md, "The first attempt inline, the retry
 * out of line"). */
CASLIST_LK_STEP uintptr_t caslist_lk_lock_head(struct caslist_node *h, const char *op)
{
	uintptr_t v;

	if (__builtin_expect(caslist_lk_fair_pass(caslist_lk_list_of_head(h)), 1)) {
		/* Relaxed: aims the CAS (caslist_lk_head_first). */
		v = atomic_load_explicit(&h->next, memory_order_relaxed);
		if (__builtin_expect(caslist_lk_head_first(h, &v, op), 1))
			return v;
		return caslist_lk_lock_head_retry(h, true, op);
	}
	return caslist_lk_lock_head_retry(h, false, op);
}

static inline uintptr_t caslist_lk_lock_head_held(struct caslist_node *h, const char *op)
{
	caslist_lk_fair_enter_held(caslist_lk_list_of_head(h));
	return caslist_lk_lock_head_as(h, NULL, op);
}

/*
 * caslist_lk_lock_pair - L(n) and L(pred(n)) for a removal (Step [S6], [S13]), never
 * waiting holding L(n): L(n) (NULL if n is not linked; *seen is then the
 * unlinked value that said so, caslist_lk_lock_prefetch), then ONE
 * attempt at L(pred(n)) ([L4]); if pred's link is busy, give L(n) back
 * (the release store of the value it had) and back off holding nothing,
 * then start over, waiting with the caller's backoff B.  Returns n's
 * successor word with both held, *pred set (0: n not linked).  The
 * retries of caslist_lk_del and batch_move_head call it; their first
 * attempts, and move_head's, are caslist_lk_pair_first (move_head adds
 * its try at the head): HACKING.md, "The first attempt inline, the retry
 * out of line".
 *
 * Why not wait for L(pred) holding L(n) (allowed by the lock order, rule
 * R3): a thread that waits holding L(n) makes every
 * thread that needs n - its successor's delete, a move of n - wait
 * behind it, and under the randomised wait (wait.h) a waiter may park
 * for up to a millisecond: two parked threads, one behind the other.
 * Holding nothing while parked is what lets the winner of a hot list run
 * on (doc/protocol.md, "Waiting").
 */
CASLIST_LK_STEP uintptr_t caslist_lk_lock_pair(struct caslist_node *n, struct caslist_node **pred,
					     uintptr_t *seen, struct caslist_lk_backoff *b, bool asked,
					     const char *op)
{
	uintptr_t s = caslist_lk_lock_prefetch(n, seen, op);
	struct caslist_node *p;

	for (;;) {
		if (s == 0)
			return 0;
		p = caslist_lk_trylock_prev_node(n, op);	/* lock_prefetch: n no head */
		if (__builtin_expect(p != NULL, 1)) {
			if (__builtin_expect(!caslist_lk_head_over_unless(p, asked), 1))
				break;
			/* p is a head whose hand-over asks the clock: give
			 * both back as they were, and ask holding nothing
			 * (a turn if the streak is over). */
			caslist_lk_unlock(p, caslist_lk_w_of(n));
			caslist_lk_unlock(n, s);
			caslist_lk_fair_enter(caslist_lk_list_of_head(p), op);
			asked = true;
		} else {
			/* The link we could not take, for the stuck-wait line. */
			p = caslist_lk_prev_hint(n);
			caslist_lk_unlock(n, s);	/* give L(n) back as it was */
			caslist_lk_link_wait(b, p, op);
		}
		s = caslist_lk_lock_prefetch(n, seen, op);
	}
	*pred = p;
	return s;
}

/*
 * caslist_lk_pair_first - caslist_lk_lock_pair's first attempt, for the
 * operations whose retry is out of line (move_head, del, batch_move_head;
 * HACKING.md, "The first attempt inline, the retry out of line").  n's
 * two words: v relaxed (as in
 * caslist_lk_lock_prefetch: it aims the lock's CAS, which checks it), pv
 * acquire (it is the predecessor hint, loaded as caslist_lk_prev_hint
 * loads it, and why acquire is said there).  On a free next word and a
 * plain node's prev word (neither a head's nor POISON: both have
 * CASLIST_LK_HEAD_FLAG set; a prev word never has bit 0, so one OR tests
 * both words' low bits), the CAS on n (caslist_lk_cas_lock: acquire),
 * then one CAS on pv's next word expecting n (caslist_lk_trylock_at).
 * pv, not a second load of n->prev after L(n): the CAS on the hint's
 * link is what validates any hint as n's predecessor (I3), however old,
 * and the memory rule covers every pointer the operation read; a
 * second load would put more instructions and a dependent load between
 * the two CASes (doc/cost.md, "One thread on a cold list: the
 * instructions are the lookahead").  pv may be 0 (n re-initialised and re-added
 * between the two loads and the CAS on n): that is a busy round too.
 * True: both held, *sw (n's successor word) and *pred set.
 * False: nothing held.  *busy is then the link found busy (the
 * predecessor's; L(n) was given back as it was, as lock_pair's failed
 * round does), or NULL when nothing was taken (a word not free, a head's
 * or POISON prev, a lost CAS): the retry starts from the top, where those
 * cases are told apart and the misuse check is made.
 */
CASLIST_LK_STEP bool caslist_lk_pair_first(struct caslist_node *n, uintptr_t *sw,
					   struct caslist_node **pred, const void **busy,
					   const char *op)
{
	uintptr_t v = atomic_load_explicit(&n->next, memory_order_relaxed);
	/* acquire: pairs with the release prev stores, as caslist_lk_prev_hint */
	uintptr_t pv = atomic_load_explicit(&n->prev, memory_order_acquire);
	struct caslist_node *p = CASLIST_LK_PCAST(struct caslist_node *, pv);

	*busy = NULL;
	/* caslist_lk_w_free(v) and no head flag in pv, in three tests */
	if (__builtin_expect(((v | pv) & (CASLIST_LK_LOCK | CASLIST_LK_BATCH_TAG)) != 0 ||
			     (v & ~CASLIST_POISON_NEXT) == 0, 0))
		return false;
	/* v's kind bit (I6) leaves the address inside the same line. */
	caslist_lk_prefetch_w(CASLIST_LK_PCAST(const void *, v));
	caslist_lk_prefetch_w(p);
	if (__builtin_expect(!caslist_lk_cas_lock(n, &v, v | CASLIST_LK_LOCK, op), 0))
		return false;
	if (__builtin_expect(p == NULL || !caslist_lk_trylock_at(p, caslist_lk_w_of(n), op), 0)) {
		*busy = caslist_lk_prev_hint(n);	/* for the stuck-wait line */
		caslist_lk_unlock(n, v);		/* give L(n) back as it was */
		return false;
	}
	/* n first on a list whose head's hand-over asks the clock
	 * (caslist_lk_head_over): both back as they were, and the retry asks
	 * (caslist_lk_pair_busy_wait); no call here. */
	if (__builtin_expect(caslist_lk_head_over(p), 0)) {
		caslist_lk_unlock(p, caslist_lk_w_of(n));
		caslist_lk_unlock(n, v);
		*busy = caslist_lk_busy_head(p);
		return false;
	}
	*sw = v;
	*pred = p;
	return true;
}

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

CASLIST_LK_END

#endif /* CASLIST_STATIC_LOCK_H */
