/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/list_ops.h> - list operations, each a composition of the link steps in
 * link.h, as static inline caslist__* functions: the ONE definition of each
 * operation.  lib/list.c compiles them into the library's caslist_*
 * symbols; <caslist/list.h> with CASLIST_INLINE defined includes this file
 * (<caslist/static/list_ops.h>) so the caller's translation unit
 * gets them inline - no call, and a user's TSan build instruments every
 * atomic of the protocol (the way liburcu's _LGPL_SOURCE works).
 *
 * For each operation: which link locks it takes, in which order, and where
 * it linearizes (always a caslist_lk_unlock).  doc/protocol.md has the proofs;
 * "waits" below always respects the lock order: a thread waits only for a
 * link before every link it holds on the same list, or for a head link
 * holding no head link (rules R1-R3), and never while holding a head link.
 */
#ifndef CASLIST_STATIC_LIST_OPS_H
#define CASLIST_STATIC_LIST_OPS_H

#include "link.h"
#include "combine.h"

CASLIST_LK_BEGIN

/* The head as a node.  The list is const for readers (empty, iter_next),
 * whose code only loads through it; the cast through uintptr_t says so
 * without -Wcast-qual noise in the user's build (inline mode). */
static inline struct caslist_node *caslist_lk_head_of(const struct caslist_list *l)
{
	return CASLIST_LK_UNCONST(struct caslist_node *, &l->head);
}

/*
 * caslist_lk_unaddable_why - the message of an add that
 * caslist_lk_check_addable refused, evaluated only on the branch that
 * aborts (it loads the words again).  Inline, not a call: a call there
 * changes the fast path's register allocation (tools/icount).
 *
 * The words the protocol writes (word.h) are: next 0, POISON, CLAIMED,
 * or the address of a node, a head or a batch (aligned as a pointer,
 * past the first page) with at most one of the lock bit and the batch
 * tag, and a head's with its kind bit (I6); prev 0, POISON_PREV, or a node's address, with the head flag in a
 * head's own.  Words outside these were never written by the list: the
 * node's memory was never initialised (malloc'd, or reused from another
 * object), which "already linked" alone would hide.  Garbage that
 * happens to look like a state is reported as linked (or as a head).
 * Relaxed: a snapshot for the message only.
 */
static inline const char *
caslist_lk_unaddable_why(const struct caslist_node *n)
{
	/* No node's address has these bits: nodes and heads are 8-aligned
	 * on every target (list.h), pointers 4 or 8 bytes.  Not the pointer's
	 * size: on ILP32, 0xbe garbage passed a 3-bit mask as a head. */
	const uintptr_t low = 7;
	const uintptr_t tags = CASLIST_LK_LOCK | CASLIST_LK_BATCH_TAG;
	uintptr_t v = atomic_load_explicit(&n->next, memory_order_relaxed);
	uintptr_t pv = atomic_load_explicit(&n->prev, memory_order_relaxed);
	uintptr_t s = v & ~(tags | CASLIST_LK_TO_HEAD), p = pv & ~CASLIST_LK_HEAD_FLAG;
	bool next_ok = v == 0 || v == CASLIST_POISON_NEXT || v == CASLIST_LK_CLAIMED ||
		       ((v & tags) != tags && s >= 4096 && (s & low) == 0);
	bool prev_ok = pv == 0 || pv == CASLIST_POISON_PREV || (p >= 4096 && (p & low) == 0);

	if (!next_ok || !prev_ok)
		return "node is not initialised (caslist_node_init, or zeroed memory) or already "
		       "linked";
	/* a head is always linked, so it fails the check too: named as such */
	return caslist_lk_prev_is_head(pv) ? CASLIST_LK_IS_HEAD
					   : "node is already linked (or queued in a batch)";
}

/*
 * An add of a node that is linked (or being linked) would make a cycle or
 * lose a node, and a later op would hang.  Kept in every build: one
 * relaxed load of a word the insert writes a moment later (step 1), so
 * the line is ours anyway.  Relaxed: a snapshot that only decides whether
 * to abort.  Two threads racing to add one unlinked node both pass it:
 * that race is what caslist_touch exists for.  Zeroed memory passes (0 is
 * FRESH); memory never initialised at all fails unless its next word
 * happens to be 0 or POISON, and the message says which it looks like.
 */
static inline void caslist_lk_check_addable(const struct caslist_node *n, const char *op)
{
	uintptr_t v = atomic_load_explicit(&n->next, memory_order_relaxed);

	/* The message is picked only once the check failed. */
	CASLIST_LK_REQUIRE(v == 0 || v == CASLIST_POISON_NEXT, op, n,
			caslist_lk_unaddable_why(n));
}

/* A list whose head was never caslist_init'ed (next 0): abort instead of
 * waiting for ever.  Checked only on the paths that would wait. */
static inline void caslist_lk_check_list(const struct caslist_node *h, const char *op)
{
	/* Relaxed: the head word is 0 only if nobody ever initialised it. */
	CASLIST_LK_REQUIRE(atomic_load_explicit(&h->next, memory_order_relaxed) != 0, op, h,
			CASLIST_LK_NOT_INIT);
}

/*
 * A position (add_after, add_near) that is not linked: ENOENT, unless its
 * words are both 0 - zeroed memory that nobody initialised, which is what
 * an uninitialised list's head looks like (caslist_node_init leaves prev
 * POISON_PREV, removals leave both words poisoned).  Relaxed: a snapshot
 * taken only on the ENOENT path, to pick abort over a return code.
 */
static inline int caslist_lk_pos_gone(const struct caslist_node *pos, const char *op)
{
	CASLIST_LK_REQUIRE(atomic_load_explicit(&pos->next, memory_order_relaxed) != 0 ||
				atomic_load_explicit(&pos->prev, memory_order_relaxed) != 0,
			op, pos, CASLIST_LK_NOT_INIT ", or the position is a node never initialised");
	return CASLIST_ENOENT;
}

/*
 * A node or head at an address that is not 8-aligned (struct caslist_node
 * embedded in a packed struct, or at a cast offset) cannot carry the three
 * flag bits its words keep in the low address bits (word.h): abort at
 * init, before the first add stores a tagged word.  Every build; init
 * only, no operation pays for it.  (list.h asserts the type's alignment at
 * compile time; this catches what the type cannot: the address.)
 */
#define CASLIST_LK_MISALIGNED \
	"address is not 8-aligned (a packed or misaligned struct caslist_node): " \
	"the link words keep 3 flag bits in the low address bits"
static inline void caslist_lk_check_aligned(const void *p, const char *op)
{
	CASLIST_LK_REQUIRE((CASLIST_LK_PCAST(uintptr_t, p) & 7) == 0, op, p, CASLIST_LK_MISALIGNED);
}

static inline void caslist__init(struct caslist_list *l)
{
	/* On the list's own address, before any member access: forming
	 * &l->head of a misaligned list is itself undefined (UBSan). */
	caslist_lk_check_aligned(l, "caslist_init");
	caslist_lk_init_head(caslist_lk_head_of(l));
	/* Relaxed, as the head's words (caslist_lk_init_head). */
	atomic_store_explicit(&l->want_next, 0, memory_order_relaxed);
	atomic_store_explicit(&l->want_served, 0, memory_order_relaxed);
	/* No ticket stamped: ticket 0 is the first to be (wait.h). */
	atomic_store_explicit(&l->want_stamped, 0xffffffffu, memory_order_relaxed);
	atomic_store_explicit(&l->want_since, 0, memory_order_relaxed);
	atomic_store_explicit(&l->queue, 0, memory_order_relaxed);	/* nothing queued */
}

static inline void caslist__node_init(struct caslist_node *n)
{
	caslist_lk_check_aligned(n, "caslist_node_init");
	caslist_lk_init_node(n);
}

static inline bool caslist__empty(const struct caslist_list *l)
{
	const struct caslist_node *h = caslist_lk_head_of(l);
	/* Acquire: pairs with caslist_lk_unlock of the head's link, so a caller who
	 * sees "not empty" also sees the first node's contents.  A locked
	 * word still names the first node of the abstract list. */
	uintptr_t v = atomic_load_explicit(&h->next, memory_order_acquire);

	CASLIST_LK_REQUIRE(v != 0, "caslist_empty", h, CASLIST_LK_NOT_INIT);
	return caslist_lk_node_of(v) == h;
}

static inline bool caslist__node_linked(const struct caslist_node *n)
{
	/* Relaxed: a snapshot for assertions; it orders nothing. */
	return !caslist_lk_w_unlinked(atomic_load_explicit(&n->next, memory_order_relaxed));
}

/* [S1] Take the tail's link: wait on the current tail, re-reading the hint when
 * the node we waited on is no longer the tail.  Holds nothing meanwhile.
 * On an empty list the tail is the head: the add passes the head's
 * hand-over there, and past its streak gives the head back and queues
 * (wait.h, "Who takes part"). */
static inline struct caslist_node *caslist_lk_lock_tail(struct caslist_node *h, const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;

	bool asked = false;	/* one verdict per operation (caslist_lk_pair_busy_wait) */

	for (;;) {
		struct caslist_node *t = caslist_lk_prev_hint(h);

		if (caslist_lk_prev_valid(t) && caslist_lk_lock_expect(t, caslist_lk_w_head(h), op)) {
			if (__builtin_expect(t != h, 1))
				return t;
			if (asked) {	/* had its verdict: note it (debug builds) */
				caslist_lk_fair_note(caslist_lk_list_of_head(h));
				return t;
			}
			if (caslist_lk_fair_pass(caslist_lk_list_of_head(h)))
				return t;
			caslist_lk_unlock(h, caslist_lk_w_head(h));	/* back as it was */
			caslist_lk_fair_enter(caslist_lk_list_of_head(h), op);
			asked = true;
			continue;
		}
		if (!caslist_lk_prev_valid(t))
			caslist_lk_check_list(h, op);
		caslist_lk_backoff_wait(&b, h, op);
	}
}

/* [S2] splice at head: L(head) only. Linearizes at head->next = first. */
CASLIST_LK_STEP void caslist_lk_splice_head(struct caslist_list *l, struct caslist_node *first,
					  struct caslist_node *last, const char *op)
{
	struct caslist_node *h = caslist_lk_head_of(l);
	uintptr_t s = caslist_lk_lock_head(h, op);

	caslist_lk_insert_head(l, h, s, first, last, op);
}

/* [S3] splice at tail: L(tail) only. Linearizes at tail->next = first. */
static inline void caslist_lk_splice_tail(struct caslist_list *l, struct caslist_node *first,
					  struct caslist_node *last, const char *op)
{
	struct caslist_node *h = caslist_lk_head_of(l);
	struct caslist_node *t = caslist_lk_lock_tail(h, op);

	caslist_lk_insert_locked(t, caslist_lk_w_head(h), first, last, op);
}

static inline void caslist__add_head(struct caslist_list *l, struct caslist_node *n)
{
	caslist_lk_check_addable(n, "caslist_add_head");
	caslist_lk_splice_head(l, n, n, "caslist_add_head");
}

static inline void caslist__add_tail(struct caslist_list *l, struct caslist_node *n)
{
	caslist_lk_check_addable(n, "caslist_add_tail");
	caslist_lk_splice_tail(l, n, n, "caslist_add_tail");
}

/* No add check for chains: every word of a chain but the last looks
 * linked, and the last one's value is ignored (list.h). */
static inline void caslist__splice_head(struct caslist_list *l, struct caslist_node *first,
			 struct caslist_node *last)
{
	caslist_lk_splice_head(l, first, last, "caslist_splice_head");
}

static inline void caslist__splice_tail(struct caslist_list *l, struct caslist_node *first,
			 struct caslist_node *last)
{
	caslist_lk_splice_tail(l, first, last, "caslist_splice_tail");
}

/* [S4] add after pos: L(pos) only. */
static inline int caslist__add_after(struct caslist_node *pos, struct caslist_node *n)
{
	uintptr_t s;

	bool asked = false;	/* one verdict per operation (caslist_lk_pair_busy_wait) */

	caslist_lk_check_addable(n, "caslist_add_after");
	for (;;) {
		s = caslist_lk_lock_idle(pos, "caslist_add_after");
		if (s == 0)
			return caslist_lk_pos_gone(pos, "caslist_add_after");
		/* pos a head past its streak: back as it was, and a turn. */
		if (__builtin_expect(!caslist_lk_head_over_unless(pos, asked), 1))
			break;
		caslist_lk_unlock(pos, s);
		caslist_lk_fair_enter(caslist_lk_list_of_head(pos), "caslist_add_after");
		asked = true;
	}
	caslist_lk_insert_locked(pos, s, n, n, "caslist_add_after");
	return CASLIST_OK;
}

/*
 * [S5] add near pos: try L(pos) (after pos), then the link pointing to pos
 * (before pos), never waiting on either; back off and repeat.  Only these
 * two links are candidates: both are validated against pos itself.  A hop
 * past a busy link to "the next free one" would follow a pointer read
 * from a locked word, whose target may be leaving the list (into another
 * list, or into a chain being cut) - see doc/protocol.md, "add_near".
 */
static inline int caslist__add_near(struct caslist_node *pos, struct caslist_node *n)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	bool asked = false;	/* one verdict per operation (caslist_lk_pair_busy_wait) */

	caslist_lk_check_addable(n, "caslist_add_near");
	for (;;) {
		struct caslist_node *p;
		uintptr_t s;

		if (caslist_lk_trylock(pos, &s, "caslist_add_near")) {
			if (__builtin_expect(!caslist_lk_head_over_unless(pos, asked), 1)) {
				caslist_lk_insert_locked(pos, s, n, n, "caslist_add_near");
				return CASLIST_NEAR_AFTER;
			}
			/* pos a head past its streak: back, and a turn. */
			caslist_lk_unlock(pos, s);
			caslist_lk_fair_enter(caslist_lk_list_of_head(pos), "caslist_add_near");
			asked = true;
			continue;
		}
		p = caslist_lk_trylock_prev(pos, "caslist_add_near");
		if (p != NULL && __builtin_expect(caslist_lk_head_over_unless(p, asked), 0)) {
			/* pos first on a list whose head's streak is over:
			 * give p's link back as it was (pos's word, with its
			 * kind, I6), and a turn. */
			caslist_lk_unlock(p, caslist_lk_is_head(pos) ? caslist_lk_w_head(pos)
								     : caslist_lk_w_of(pos));
			caslist_lk_fair_enter(caslist_lk_list_of_head(p), "caslist_add_near");
			asked = true;
			continue;
		}
		if (p != NULL) {
			/* pos's word as p's link holds it: pos may be a head
			 * (I6; caslist_lk_is_head: relaxed, exact whenever
			 * read, on the line trylock_prev just read). */
			uintptr_t pw = caslist_lk_is_head(pos) ? caslist_lk_w_head(pos)
							       : caslist_lk_w_of(pos);

			caslist_lk_insert_locked(p, pw, n, n, "caslist_add_near");
			return CASLIST_NEAR_BEFORE;
		}
		/* Relaxed: only decides whether to give up; no data follows. */
		if (caslist_lk_w_unlinked(atomic_load_explicit(&pos->next, memory_order_relaxed)))
			return caslist_lk_pos_gone(pos, "caslist_add_near");
		caslist_lk_link_wait(&b, pos, "caslist_add_near");	/* a head: its hand-over */
	}
}

static inline int caslist__del(struct caslist_node *n)
{
	int rc = caslist_lk_del(n, NULL, "caslist_del");

	CASLIST_LK_CHECK(rc == CASLIST_OK, "caslist_del", n,
		      "node is not linked (double delete?)");
	return rc;
}

static inline bool caslist__del_if_linked(struct caslist_node *n)
{
	return caslist_lk_del(n, NULL, "caslist_del_if_linked") == CASLIST_OK;
}

/*
 * The retry of [S7]: a loop of whole attempts, from the state the first
 * attempt (caslist_lk_move_head, below) left; BUSY as HACKING.md, "The
 * first attempt inline, the retry out of line", says.  NULL here: a
 * ticket pending, n's word not free, n's prev word not a plain node's,
 * or the CAS on n's word lost.
 */
static __attribute__((noinline, unused)) int
caslist_lk_move_head_retry(struct caslist_list *l, struct caslist_node *n, const void *busy,
			   const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	struct caslist_node *h = caslist_lk_head_of(l);
	struct caslist_node *p;
	uintptr_t seen, s, f;

	bool asked = false;	/* one verdict per operation at n's source head */

	if (CASLIST_LK_PCAST(uintptr_t, busy) & 1u) {	/* n first elsewhere: that head's verdict */
		asked = caslist_lk_pair_busy_wait(&b, busy, op);
		busy = NULL;
	}
	if (busy == NULL)
		caslist_lk_fair_enter(l, op);
	else
		caslist_lk_fair_wait(caslist_lk_list_of_busy(l, busy), &b, busy, op);
#if CASLIST_HEAD_COMBINE
	/* n may be queued at l's head, its publisher waiting for a drain:
	 * holding nothing, link the queue if the head is free (combine.h) */
	caslist_lk_q_serve(l, op);
#endif
	s = caslist_lk_lock_prefetch(n, &seen, op);
	for (;;) {
		if (s == 0)
			return CASLIST_ENOENT;
		p = caslist_lk_trylock_prev_node(n, op);	/* lock_prefetch: n no head */
		if (__builtin_expect(p != NULL, 1)) {
			if (p == h) {		/* already first on l */
				caslist_lk_fair_note(l);
				caslist_lk_unlock(p, caslist_lk_w_of(n));
				caslist_lk_unlock(n, s);
				return CASLIST_OK;
			}
			if (__builtin_expect(caslist_lk_head_over_unless(p, asked), 0)) {
				/* first on another list whose head's streak
				 * is over: both back as they were, a turn */
				caslist_lk_unlock(p, caslist_lk_w_of(n));
				caslist_lk_unlock(n, s);
				caslist_lk_fair_enter(caslist_lk_list_of_head(p), op);
				asked = true;
				s = caslist_lk_lock_prefetch(n, &seen, op);
				continue;
			}
			if (__builtin_expect(caslist_lk_trylock(h, &f, op), 1))
				break;
#if CASLIST_HEAD_COMBINE
			/* the head busy: queue n at it (combine.h) */
			return caslist_lk_q_publish(l, n, p, s, op);
#endif
			/* give L(pred) back as it was (n is a node: kind 0) */
			caslist_lk_unlock(p, caslist_lk_w_of(n));
			caslist_lk_check_list(h, op);
			busy = h;
		} else {
			busy = caslist_lk_prev_hint(n);	/* for the stuck-wait line */
		}
		caslist_lk_unlock(n, s);		/* and L(n) */
		caslist_lk_fair_wait(caslist_lk_list_of_busy(l, busy), &b, busy, op);
#if CASLIST_HEAD_COMBINE
		caslist_lk_q_serve(l, op);
#endif
		s = caslist_lk_lock_prefetch(n, &seen, op);
	}
	/* Holding L(n), L(pred) and L(head): unlink steps 1-2 (n leaves its
	 * list, L(pred) is released), then insert after the head. */
	caslist_lk_set_prev_checked(s, p, n, op);
	caslist_lk_unlock(p, s);
	caslist_lk_fair_note(l);	/* entered at the top (debug builds) */
	caslist_lk_insert_head(l, h, f, n, n, op);
	return CASLIST_OK;
}

/*
 * [S7] move to head: L(n); then only ATTEMPTS, never waits, holding it:
 * L(pred) ([L4]), then L(head) ([L2]).  If either is busy, give back what
 * was taken (the words as they were) and back off holding nothing, then
 * start over; a wait on the head takes part in its hand-over (wait.h).  Holding
 * L(n), L(pred) and L(head): unlink n (pred->next = succ, which releases
 * L(pred): n leaves its list) and insert it after the head (linearization
 * point of the move: head->next = n).  n may come from any list: a move
 * from another list is the same operation.  Why so:
 *  - holding L(pred) while WAITING for L(head) deadlocks across lists
 *    when pred is another list's head (the node was first there): two
 *    moves in opposite directions each hold one head and wait for the
 *    other (doc/protocol.md, "Lock order", rule R1).  An attempt cannot
 *    deadlock: a failed one gives everything back.
 *  - on a hot head the rate is set by how rarely its lines change cores
 *    (doc/notebook.md, "The hot head"): a loser that waits holding L(n) of a
 *    node in transit (unlinked first, then waiting for the head) blocks
 *    every thread that needs n while it is parked; a loser that holds
 *    nothing lets the winner run a streak.
 * Each failed round takes and gives back locks, leaving every word as it
 * was; the abstract list never changes in it.  With CASLIST_HEAD_COMBINE
 * a busy head is not a failed round: n is unlinked and queued at the
 * head, and the move waits holding L(n) of n in transit (rule R2) until
 * the head's holder links it (combine.h, caslist_lk_q_publish).
 *
 * This is the first attempt: no ticket pending, n linked, every lock free
 * at once; anything else gives back what it took and goes on in
 * caslist_lk_move_head_retry (HACKING.md, "The first attempt inline, the
 * retry out of line").
 */
CASLIST_LK_STEP int caslist_lk_move_head(struct caslist_list *l, struct caslist_node *n,
					 const char *op)
{
	struct caslist_node *h = caslist_lk_head_of(l);
	struct caslist_node *p;
	const void *busy;
	uintptr_t v, s;

	/* Past a pending ticket K times: the retry hands over
	 * (caslist_lk_fair_enter). */
	if (__builtin_expect(!caslist_lk_fair_pass(l), 0))
		return caslist_lk_move_head_retry(l, n, NULL, op);
	if (__builtin_expect(!caslist_lk_pair_first(n, &s, &p, &busy, op), 0))
		return caslist_lk_move_head_retry(l, n, busy, op);
	if (__builtin_expect(p == h, 0)) {	/* already first on l */
		caslist_lk_fair_note(l);
		caslist_lk_unlock(p, caslist_lk_w_of(n));
		caslist_lk_unlock(n, s);
		return CASLIST_OK;
	}
	/* The head lock's first attempt (caslist_lk_head_first: the free
	 * word only, two tests where trylock makes four); the relaxed load
	 * aims its CAS. */
	v = atomic_load_explicit(&h->next, memory_order_relaxed);
	if (__builtin_expect(!caslist_lk_head_first(h, &v, op), 0)) {
#if CASLIST_HEAD_COMBINE
		caslist_lk_check_list(h, op);
		return caslist_lk_q_publish(l, n, p, s, op);	/* queue n at the busy head */
#endif
		caslist_lk_unlock(p, caslist_lk_w_of(n));	/* give L(pred) back as it was */
		caslist_lk_check_list(h, op);
		caslist_lk_unlock(n, s);	/* and L(n) */
		return caslist_lk_move_head_retry(l, n, h, op);
	}
	/* Holding L(n), L(pred) and L(head): as the retry's end (v: the
	 * head's successor word). */
	caslist_lk_set_prev_checked(s, p, n, op);
	caslist_lk_unlock(p, s);
	caslist_lk_fair_note(l);	/* entered at the top (debug builds) */
	caslist_lk_insert_head(l, h, v, n, n, op);
	return CASLIST_OK;
}

static inline int caslist__move_head(struct caslist_list *l, struct caslist_node *n)
{
	return caslist_lk_move_head(l, n, "caslist_move_head");
}

/*
 * [S12] touch: move n to the head if it is linked, add it at the head if
 * it is FRESH, and leave it alone if it is OWNED (doc/protocol.md, "Node
 * states and transitions"), with exactly one winner when several threads
 * race to add the same fresh node.  The claim is one CAS on n->next from 0 to
 * CASLIST_LK_CLAIMED, a locked word: to everyone else n now looks linked and busy
 * (caslist_lk_lock waits on it, a second claim fails), which is the "in
 * transit" state of move_head.  The winner then takes L(head) and inserts
 * (insert step 1 overwrites CASLIST_LK_CLAIMED with the real successor, still
 * locked).  A loser moves n instead: its caslist_lk_lock(n) waits until the
 * winner's insert is complete.  If n is removed in between (a pop or
 * del), the move reports ENOENT and the loop looks again: now n is OWNED
 * by its remover, and touch returns CASLIST_TOUCH_GONE without writing -
 * it never brings back a node somebody took (rule O1).  A node QUEUED in
 * a batch is on its way to a head: CASLIST_OK.
 */
static inline int caslist__touch(struct caslist_list *l, struct caslist_node *n)
{
	struct caslist_node *h = caslist_lk_head_of(l);
	/* Relaxed: a guess at the unlinked value; the CAS decides, and an
	 * OWNED answer orders nothing (touch then writes nothing). */
	uintptr_t v = atomic_load_explicit(&n->next, memory_order_relaxed);

	for (;;) {
		if (caslist_lk_w_owned(v))		/* taken by a remover: theirs */
			return CASLIST_TOUCH_GONE;
		if (caslist_lk_w_batched(v))	/* queued in a batch: on its way to a head */
			return CASLIST_OK;
		if (caslist_lk_w_fresh(v)) {
			/* Defer to a pending ticket before the claim: after
			 * it we hold a link (wait.h, "Who takes part"). */
			caslist_lk_fair_enter(l, "caslist_touch");
			if (caslist_lk_claim(n, &v, "caslist_touch")) {
				uintptr_t f = caslist_lk_lock_head_held(h, "caslist_touch");

				caslist_lk_insert_head(l, h, f, n, n, "caslist_touch");
				return CASLIST_TOUCH_ADDED;
			}
			continue;
		}
		/* A head passed as n is linked: the move's check refuses it. */
		if (caslist_lk_move_head(l, n, "caslist_touch") == CASLIST_OK)
			return CASLIST_OK;
		/* Removed meanwhile: look again (relaxed, as above). */
		v = atomic_load_explicit(&n->next, memory_order_relaxed);
	}
}

/*
 * [S8] pop head: L(head) first (waiting is fine: nothing held), then only TRY
 * L(first): a thread deleting the first node holds L(first) and waits for
 * L(head), so waiting here would deadlock.  On failure release and retry.
 */
static inline struct caslist_node *caslist__pop_head(struct caslist_list *l)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	struct caslist_node *h = caslist_lk_head_of(l);

	for (;;) {
		uintptr_t fw = caslist_lk_lock_head(h, "caslist_pop_head"), s;
		struct caslist_node *f = caslist_lk_node_of(fw);

		if (f == h) {
			caslist_lk_unlock(h, fw);
			return NULL;
		}
		if (caslist_lk_trylock(f, &s, "caslist_pop_head")) {
			caslist_lk_unlink_locked(h, f, s, CASLIST_POISON_NEXT, "caslist_pop_head");
			return f;
		}
		caslist_lk_unlock(h, fw);
		caslist_lk_backoff_wait(&b, f, "caslist_pop_head");
	}
}

/*
 * [S9] pop tail: take L(tail) as add_tail does (it stays the tail while we hold
 * its link: nothing can be inserted after it), then wait for L(pred) as a
 * delete.  Empty only if head->next is unlocked and points to the head.
 */
static inline struct caslist_node *caslist__pop_tail(struct caslist_list *l)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	struct caslist_node *h = caslist_lk_head_of(l);
	struct caslist_node *t = NULL;

	/* A queue's other end: its waits hold nothing, so they take part in
	 * the list's bounded bypass as the head's do (wait.h). */
	caslist_lk_fair_enter(l, "caslist_pop_tail");
	for (;;) {
		uintptr_t v;

		t = caslist_lk_prev_hint(h);
		if (t == h) {
			/* Relaxed (G7): it only chooses between NULL (the
			 * list is empty: no node, nothing to read) and a retry
			 * (a locked or non-empty head link: an operation is
			 * in flight). */
			if (atomic_load_explicit(&h->next,
						 memory_order_relaxed) == caslist_lk_w_head(h)) {
				t = NULL;
				break;
			}
		} else if (!caslist_lk_prev_valid(t)) {
			caslist_lk_check_list(h, "caslist_pop_tail");
		} else {
			/* [L3]'s attempt: L(t) only while t->next == h, i.e.
			 * t is still the tail (caslist_lk_cas_lock: acquire,
			 * as in caslist_lk_lock_expect).  Busy or moved on:
			 * wait holding nothing, then look at the tail again. */
			v = caslist_lk_w_head(h);
			if (caslist_lk_cas_lock(t, &v, v | CASLIST_LK_LOCK, "caslist_pop_tail")) {
				/* t: a node (the head's prev is never a head) */
				struct caslist_node *p = caslist_lk_lock_prev_as(t, false,
										 "caslist_pop_tail");

				caslist_lk_fair_note(l);	/* entered at the top */
				caslist_lk_unlink_locked(p, t, v, CASLIST_POISON_NEXT, "caslist_pop_tail");
				break;
			}
		}
		caslist_lk_fair_wait(l, &b, h, "caslist_pop_tail");
	}
	return t;
}

/*
 * [S10] cut the prefix first..last: wait for L(last), then for L(head)
 * (waiting for a head link is allowed holding any non-head link: rule R2
 * of doc/protocol.md, "Lock order").  The segment leaves the list at
 * head->next = succ(last).  Only first, last and succ(last) are written.
 *
 * List identity.  last may have been removed and re-added to another list
 * before we locked it.  Two cases are exact in O(1) and return NULL with
 * nothing written: l is empty, or last's successor is another list's head
 * (last is that list's tail).  last in the middle of another list cannot
 * be told apart in O(1) (membership is reachability, and an exact check
 * would touch the whole segment, which a cut exists not to do): the cut
 * rule (doc/protocol.md, "Contracts callers must keep") leaves it to the caller.
 */
static inline struct caslist_node *caslist__cut_front(struct caslist_list *l,
						      struct caslist_node *last)
{
	struct caslist_node *h = caslist_lk_head_of(l);
	uintptr_t s, f;

	/* Every build: a head (of this list or another) as last would be
	 * locked and then waited for as the head.  Relaxed load of the line
	 * caslist_lk_lock takes next (caslist_lk_is_head: exact whenever read). */
	CASLIST_LK_REQUIRE(!caslist_lk_is_head(last), "caslist_cut_front", last, CASLIST_LK_IS_HEAD);
	s = caslist_lk_lock(last, "caslist_cut_front");
	if (s == 0)
		return NULL;	/* removed by a concurrent remover (or never linked) */
	f = caslist_lk_lock_head_held(h, "caslist_cut_front");
	/* l empty (its head's successor is a head: itself), or last is
	 * another list's tail (its successor is a head, not l's): I6. */
	if (caslist_lk_w_to_head(f) ||
	    (caslist_lk_w_to_head(s) && caslist_lk_node_of(s) != h)) {
		CASLIST_LK_CHECK(0, "caslist_cut_front", last, "last is not on this list");
		caslist_lk_unlock(h, f);
		caslist_lk_unlock(last, s);
		return NULL;
	}
	caslist_lk_cut_locked(h, caslist_lk_node_of(f), last, s, "caslist_cut_front");
	return caslist_lk_node_of(f);
}

static inline void caslist__chain_link(struct caslist_node *a, struct caslist_node *b)
{
	caslist_lk_chain(a, b);
}

static inline struct caslist_node *caslist__chain_next(const struct caslist_node *n)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	/* Acquire: pairs with the release that wrote n->next (chain_link, or
	 * the caslist_lk_unlock of the node's last holder while it was linked). */
	uintptr_t v = atomic_load_explicit(&n->next, memory_order_acquire);

	/* A node of a freshly cut chain may still have its own link locked
	 * by the thread that inserted it (step 5 of caslist_lk_insert_locked, which
	 * only clears the bit): wait for it. */
	while (caslist_lk_w_locked(v)) {
		caslist_lk_backoff_wait(&b, n, "caslist_chain_next");
		v = atomic_load_explicit(&n->next, memory_order_acquire);
	}
	return caslist_lk_w_unlinked(v) ? NULL : caslist_lk_node_of(v);
}

/* [S11] step a cursor: wait on a locked word; EAGAIN on an unlinked one or
 * on another list's head; 0 at this list's head. */
static inline int caslist__iter_next(const struct caslist_list *l, struct caslist_node **cur)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	const struct caslist_node *h = caslist_lk_head_of(l);
	/* Acquire: pairs with the caslist_lk_unlock that published the successor,
	 * so the caller may read the next node's contents. */
	uintptr_t v = atomic_load_explicit(&(*cur)->next, memory_order_acquire);

	while (caslist_lk_w_locked(v)) {
		caslist_lk_backoff_wait(&b, *cur, "caslist_iter_next");
		v = atomic_load_explicit(&(*cur)->next, memory_order_acquire);
	}
	if (caslist_lk_w_unlinked(v)) {
		/* The head is never unlinked: 0 there is a list never
		 * initialised, and EAGAIN would restart the walk for ever. */
		CASLIST_LK_REQUIRE(*cur != h, "caslist_iter_next", h, CASLIST_LK_NOT_INIT);
		return CASLIST_EAGAIN;
	}
	if (caslist_lk_node_of(v) == h)
		return 0;
	/* Another list's head: the cursor's node moved to that list while
	 * we stood on it.  Never hand a head out as a node: restart.  The
	 * kind bit of the word we read says it (I6), with no load of the
	 * successor's line. */
	if (caslist_lk_w_to_head(v))
		return CASLIST_EAGAIN;
	*cur = caslist_lk_node_of(v);
	return 1;
}

/* caslist_check's walk (quiescent: no operation in flight on l), inline
 * too so that a user's -fsanitize=address build (inline mode) checks
 * every node it reads: it reads each node's two words and nothing else,
 * so a correct list gives ASan nothing to report, and a freed node still
 * on the list is reported at the read.  The codes are
 * caslist_check_strerror's (lib/check.c). */
#define CASLIST_LK_FAULT_LOCKED (-1)
#define CASLIST_LK_FAULT_BAD_PREV (-2)
#define CASLIST_LK_FAULT_UNLINKED (-3)
#define CASLIST_LK_FAULT_TOO_LONG (-4)
#define CASLIST_LK_FAULT_BAD_KIND (-5)
static inline int caslist__check(const struct caslist_list *l, size_t max_nodes, size_t *count)
{
	const struct caslist_node *h = &l->head;
	const struct caslist_node *x = h;
	size_t n = 0;

	for (;;) {
		/* Relaxed: quiescent by contract; the caller's join or lock
		 * gave us every write already. */
		uintptr_t v = atomic_load_explicit(&x->next, memory_order_relaxed);
		const struct caslist_node *s = caslist_lk_node_of(v);

		if (caslist_lk_w_locked(v))
			return CASLIST_LK_FAULT_LOCKED;
		if (caslist_lk_w_unlinked(v))
			return CASLIST_LK_FAULT_UNLINKED;
		if (caslist_lk_prev_hint(s) != x)
			return CASLIST_LK_FAULT_BAD_PREV;
		/* I6: the word's kind bit says whether s is a head; on a
		 * list the only head reachable is l's own. */
		if (caslist_lk_w_to_head(v) != (s == h) ||
		    caslist_lk_w_to_head(v) != caslist_lk_is_head(s))
			return CASLIST_LK_FAULT_BAD_KIND;
		if (s == h)
			break;
		if (++n > max_nodes)
			return CASLIST_LK_FAULT_TOO_LONG;
		x = s;
	}
	if (count != NULL)
		*count = n;
	return 0;
}

/* ---- what layers built on the list need beyond the operations ----------
 * (static/fl_ops.h, batch_ops.h): an init check, two hint reads of the
 * list's ends that no operation answers without waiting, and one named
 * step, so a layer above never touches a link word itself.  None leaves
 * a link locked.  Which of them the free list uses, and why: HACKING.md,
 * "The free list on the operations". */

/* Was l initialised (caslist_init / CASLIST_LIST_INIT)?  Relaxed: the word
 * is 0 only if nobody ever initialised it. */
static inline bool caslist_lk_list_initialised(const struct caslist_list *l)
{
	return atomic_load_explicit(&l->head.next, memory_order_relaxed) != 0;
}

/* The first node of l as of now, or &l->head if l is empty: a hint, to be
 * validated under a lock.  Acquire: pairs with the caslist_lk_unlock that made
 * it first, so its contents (and what it points to) are visible. */
static inline struct caslist_node *caslist_lk_first_hint(const struct caslist_list *l)
{
	return caslist_lk_node_of(atomic_load_explicit(&l->head.next, memory_order_acquire));
}

/* The tail of l as of now (caslist_lk_prev_hint of the head), or NULL if l is empty
 * or the hint is not usable: a hint, validated by caslist_lk_add_tail_if. */
static inline struct caslist_node *caslist_lk_tail_hint(const struct caslist_list *l)
{
	struct caslist_node *h = caslist_lk_head_of(l), *t = caslist_lk_prev_hint(h);

	return t == h || !caslist_lk_prev_valid(t) ? NULL : t;
}

/*
 * caslist_lk_add_tail_if - add n after t only if t is still l's tail: the
 * free list's put joining the tail cluster ([F4], static/fl_ops.h).  The
 * one attempt of [S1] without its wait for a new tail - [L3], L(t) taken
 * only while t->next is the head (waits while it is locked) - then [L7],
 * the insert of add_tail ([S3]), which releases L(t).  No write of its own:
 * the lock is caslist_lk_cas_lock (acquire: pairs with the caslist_lk_unlock
 * of t's last holder), and n is published by caslist_lk_unlock in the
 * insert (release: pairs with the acquire of whoever takes L(t) or L(n)
 * next, and with iter_next's and chain_next's loads).  Linearizes at
 * t->next = n.  false: t is no longer the tail, nothing written.
 */
static inline bool caslist_lk_add_tail_if(struct caslist_list *l, struct caslist_node *t,
					  struct caslist_node *n, const char *op)
{
	struct caslist_node *h = caslist_lk_head_of(l);

	if (!caslist_lk_lock_expect(t, caslist_lk_w_head(h), op))
		return false;
	caslist_lk_insert_locked(t, caslist_lk_w_head(h), n, n, op);
	return true;
}

/* ---- the lock-word primitives: thin wrappers over link.h ---- */

/* A head's link taken by the primitives passes its hand-over as the
 * `_held` waits do (the caller may hold other links):
 * caslist_lk_head_taken_held. */
static inline struct caslist_node *caslist__link_lock(struct caslist_node *x)
{
	uintptr_t sw = caslist_lk_lock(x, "caslist_link_lock");

	if (sw != 0)
		caslist_lk_head_taken_held(x);
	/* The successor word's node (NULL for 0: not linked). */
	return caslist_lk_node_of(sw);
}

static inline bool caslist__link_trylock(struct caslist_node *x, struct caslist_node **succ)
{
	uintptr_t sw;

	if (!caslist_lk_trylock(x, &sw, "caslist_link_trylock"))
		return false;
	caslist_lk_head_taken_held(x);
	*succ = caslist_lk_node_of(sw);
	return true;
}

static inline struct caslist_node *caslist__link_lock_prev(struct caslist_node *x)
{
	struct caslist_node *p = caslist_lk_lock_prev(x, "caslist_link_lock_prev");

	caslist_lk_head_taken_held(p);
	return p;
}

/* The user passes the successor as a pointer: its kind (I6) is read from
 * its prev word's head flag (caslist_lk_is_head: relaxed, exact whenever
 * read), one load the library's own steps do not need. */
static inline void caslist__link_unlock(struct caslist_node *x, struct caslist_node *succ)
{
	caslist_lk_unlock(x, caslist_lk_is_head(succ) ? caslist_lk_w_head(succ)
						      : caslist_lk_w_of(succ));
}

/* Step [L6] for users: x->prev = p, keeping x's head flag (set_prev_checked
 * without the debug comparison: the caller's own operation knows what it
 * replaces). */
static inline void caslist__link_set_prev(struct caslist_node *x, struct caslist_node *p)
{
	/* Relaxed load: the caller owns the word (it holds the lock of the
	 * link pointing to x, or x is in transit under its own lock).  The
	 * store is set_prev_checked's (release, for prev_hint). */
	caslist_lk_set_prev_keep(x, p, atomic_load_explicit(&x->prev, memory_order_relaxed));
}

/* The end of a delete built from the primitives: n, whose link the caller
 * holds and which is out of its list, becomes OWNED (consumes L(n)). */
static inline void caslist__link_retire(struct caslist_node *n)
{
	/* A head retired would leave its list headless: refused in every
	 * build (a relaxed load of the line the poison writes next). */
	CASLIST_LK_REQUIRE(!caslist_lk_is_head(n), "caslist_link_retire", n, CASLIST_LK_IS_HEAD);
	caslist_lk_poison(n, CASLIST_POISON_NEXT);
}

CASLIST_LK_END

#endif /* CASLIST_STATIC_LIST_OPS_H */
