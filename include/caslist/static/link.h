/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/link.h> - the list steps: every write to a node's next
 * or prev word that changes the list happens in this file, under the
 * locks lock.h takes; list_ops.h, batch_ops.h and fl_ops.h only compose
 * these steps.  doc/protocol.md is the long form (states, lock order,
 * invariants as equations, pairing table); the comments here name, at each
 * atomic, what it pairs with and why that order is enough.  The word
 * states are in word.h.
 */
#ifndef CASLIST_STATIC_LINK_H
#define CASLIST_STATIC_LINK_H

#include "lock.h"

CASLIST_LK_BEGIN

/*
 * caslist_lk_set_prev_keep - the store of [L6]: succ->prev = p with the
 * head flag taken from OLD (the word it replaces, or the flag alone).
 * Release: pairs with the acquire in caslist_lk_prev_hint (a thread that
 * reads p from here may CAS p->next); the list order itself is published
 * by the caller's following caslist_lk_unlock.
 */
static inline void caslist_lk_set_prev_keep(struct caslist_node *succ, struct caslist_node *p,
					    uintptr_t old)
{
	atomic_store_explicit(&succ->prev, caslist_lk_w_of(p) | (old & CASLIST_LK_HEAD_FLAG),
			      memory_order_release);
}

/* The debug checks of [L6] on the word OLD it replaces: the back-pointer
 * must be WAS (next->prev == self), and the head flag the one SW says (I6). */
static inline void caslist_lk_check_prev_old(uintptr_t old, uintptr_t sw,
					     struct caslist_node *was, const char *op)
{
	CASLIST_LK_CHECK((old & ~CASLIST_LK_HEAD_FLAG) == caslist_lk_w_of(was), op, was,
			 "corrupted link: next->prev != self");
	CASLIST_LK_CHECK((old & CASLIST_LK_HEAD_FLAG) == caslist_lk_flag_of(sw), op, was,
			 "corrupted link: the successor's kind bit disagrees with its head flag");
	(void)old;
	(void)sw;
	(void)was;
	(void)op;
}

/*
 * [L6] caslist_lk_set_prev_checked - succ->prev = p, under the lock of the
 * link pointing to succ, keeping succ's head flag.  SW is succ's word as
 * the caller read it from that link, so its kind bit says whether succ
 * is a head (I6): the store needs no load of the word it replaces, and on
 * a cold list succ's line is written, not waited for (doc/cost.md, "The
 * successor's kind in the link").  The unlink's form; the insert's,
 * caslist_lk_set_prev_loaded below, loads the word first.  The caller
 * owns the word (only the holder of L(pred(succ)) writes it).  Release
 * store (caslist_lk_set_prev_keep).  Debug builds load the old value and
 * check it: it must be WAS (next->prev == self), and its head flag must
 * be the one SW says (I6).
 */
static inline void caslist_lk_set_prev_checked(uintptr_t sw, struct caslist_node *p,
					       struct caslist_node *was, const char *op)
{
	struct caslist_node *succ = caslist_lk_node_of(sw);

#ifdef CASLIST_DEBUG
	/* Relaxed: our own word (debug builds only). */
	caslist_lk_check_prev_old(atomic_load_explicit(&succ->prev, memory_order_relaxed), sw,
				  was, op);
#endif
	/* Two stores on a branch, not arithmetic on SW: the common one (succ
	 * a node, whose word is its address) takes its address from SW and
	 * its value from p alone, so the store does not wait for the flag to
	 * be computed into the value (doc/cost.md, "The successor's kind in
	 * the link", has the measurement). */
	/* [mutant nokind] the mutant drops the head flag (test/stress/mutate.sh) */
	if (__builtin_expect(caslist_lk_w_to_head(sw), 0))
		caslist_lk_set_prev_keep(succ, p, CASLIST_LK_HEAD_FLAG);
	else
		caslist_lk_set_prev_keep(CASLIST_LK_PCAST(struct caslist_node *, sw), p, 0);
	(void)was;
	(void)op;
}

/*
 * caslist_lk_set_prev_loaded - [L6] for the insert ([L7]): the same
 * store, after a load of the word it replaces, whose head flag it keeps
 * (I6 makes that flag the one SW says; debug builds check it).  Relaxed
 * load: our own word.  Why the insert loads where the unlink does not:
 * the insert's succ is the node that was first after pos, at a head the
 * node another thread's insert there wrote last, so its line is usually
 * in that thread's cache; the load makes the holder of L(pos) wait for it
 * before its unlocking stores, where a bare store lets the holder run on
 * while its stores queue behind the miss, and a winner's streak at a hot
 * head then runs on at the other threads' cost (doc/notebook.md, "The
 * insert reads the word it replaces", has the measurement).  The
 * unlink's succ is any node of the list (cold on a large one), where the
 * bare store is the gain of "The successor's kind in the link"
 * (doc/cost.md).
 */
static inline void caslist_lk_set_prev_loaded(uintptr_t sw, struct caslist_node *p,
					      struct caslist_node *was, const char *op)
{
	struct caslist_node *succ = caslist_lk_node_of(sw);
	uintptr_t old = atomic_load_explicit(&succ->prev, memory_order_relaxed);

	caslist_lk_check_prev_old(old, sw, was, op);
	caslist_lk_set_prev_keep(succ, p, old);
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
 * Requires L(pos) held with pos's successor word SW (succ and its kind).
 * Releases L(pos).  first..last are nodes, never heads: pos's new
 * successor word is caslist_lk_w_of(first).
 *
 *  1. last->next = SW|CASLIST_LK_LOCK  - last's own link starts locked, so an op
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
static inline void caslist_lk_insert_locked(struct caslist_node *pos, uintptr_t sw,
					    struct caslist_node *first, struct caslist_node *last,
					    const char *op)
{
	atomic_store_explicit(&last->next, sw | CASLIST_LK_LOCK, memory_order_relaxed);
	caslist_lk_note_lock(last, op);
	caslist_lk_set_prev_new(first, pos);
	caslist_lk_set_prev_loaded(sw, last, pos, op);
	caslist_lk_unlock(pos, caslist_lk_w_of(first));
	caslist_lk_unlock(last, sw);
}

/*
 * caslist_lk_poison - THE writer of the unlinked states a removal leaves:
 * prev = POISON_PREV, next = NEXT, which is CASLIST_POISON_NEXT (OWNED by
 * the remover) or a batch word b|CASLIST_LK_BATCH_TAG (QUEUED in batch b).
 * Requires L(n) held (consumed), or n already the caller's (a node taken
 * off a chain it owns, a cancelled batch).  Both stores relaxed
 * (doc/protocol.md, "Memory orders", G5): every reader of these words only
 * learns "not linked" (or "queued") - caslist_lk_lock and touch return
 * ENOENT / GONE / OK, iter_next EAGAIN, chain_next NULL - and reads nothing
 * else the remover wrote; the node is then its remover's (or its batch
 * thread's), whose later writes are in program order, and whose hand-back
 * (caslist_node_init) is a release of its own.  The one other POISON
 * store is a cut's chain end (caslist_lk_cut_locked), which keeps prev.
 */
static inline void caslist_lk_poison(struct caslist_node *n, uintptr_t next)
{
	atomic_store_explicit(&n->prev, CASLIST_POISON_PREV, memory_order_relaxed);
	atomic_store_explicit(&n->next, next, memory_order_relaxed);
}

/*
 * [L8] caslist_lk_unlink_locked - remove n from between pred and succ,
 * leaving n's word NEXT: CASLIST_POISON_NEXT (OWNED by the remover: a
 * delete, a pop) or a batch word b|CASLIST_LK_BATCH_TAG (QUEUED in batch
 * b: batch_move_head, whose flush links the node again).  Requires L(pred)
 * (pred->next == n|CASLIST_LK_LOCK) and L(n) (n->next == SW|CASLIST_LK_LOCK,
 * SW succ's word).
 *  1. succ->prev = pred - ours under L(n); a release store
 *     (caslist_lk_set_prev_checked), published by step 2.
 *  2. pred->next = succ - caslist_lk_unlock (release): n leaves the list here.
 *  3. poison n with NEXT (caslist_lk_poison) - consumes L(n).
 */
static inline void caslist_lk_unlink_locked(struct caslist_node *pred, struct caslist_node *n,
					    uintptr_t sw, uintptr_t next, const char *op)
{
	caslist_lk_set_prev_checked(sw, pred, n, op);
	caslist_lk_unlock(pred, sw);
	caslist_lk_poison(n, next);
}

/*
 * [S6] caslist_lk_del - remove linked n: caslist_lk_lock_pair (ENOENT if n
 * is not linked), unlink.  Linearizes at pred->next = succ.  Stores the
 * predecessor the node had in *pred (if not NULL).  The delete of
 * caslist_del, caslist_del_if_linked and caslist_fl_remove: one protocol,
 * checked once.
 */
static __attribute__((noinline, unused)) int
caslist_lk_del_retry(struct caslist_node *n, struct caslist_node **pred, const void *busy,
		     const char *op)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	struct caslist_node *p;
	uintptr_t seen, s;

	/* lock_pair's failed round, or a head's verdict: wait, then start over */
	bool asked = caslist_lk_pair_busy_wait(&b, busy, op);

	s = caslist_lk_lock_pair(n, &p, &seen, &b, asked, op);
	if (s == 0)
		return CASLIST_ENOENT;
	caslist_lk_unlink_locked(p, n, s, CASLIST_POISON_NEXT, op);
	if (pred != NULL)
		*pred = p;
	return CASLIST_OK;
}

/* The first attempt inline (caslist_lk_pair_first), the retry out of
 * line (caslist_lk_del_retry): HACKING.md, "The first attempt inline, the
 * retry out of line". */
CASLIST_LK_STEP int caslist_lk_del(struct caslist_node *n, struct caslist_node **pred, const char *op)
{
	struct caslist_node *p;
	const void *busy;
	uintptr_t s;

	if (__builtin_expect(!caslist_lk_pair_first(n, &s, &p, &busy, op), 0))
		return caslist_lk_del_retry(n, pred, busy, op);
	caslist_lk_unlink_locked(p, n, s, CASLIST_POISON_NEXT, op);
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

/*
 * caslist_lk_init_head - an empty list: h->next = h (a head: with its kind
 * bit, I6), and h->prev = h with the
 * head flag, which this word keeps for good.  Relaxed: the list is
 * published to other threads by whatever hands them the pointer (thread
 * creation, a release store of the caller).
 */
static inline void caslist_lk_init_head(struct caslist_node *h)
{
	atomic_store_explicit(&h->next, caslist_lk_w_head(h), memory_order_relaxed);
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
 * caslist_lk_chain - b follows a in a private chain: b->prev = a (release, as
 * every prev store), then a->next = b.  Release on next: pairs with the
 * acquire CAS of whoever takes L(a) once the chain is spliced, and with
 * chain_next/iter_next: they see what the caller wrote to a and b before.
 * Relaxed would be enough (doc/protocol.md, "Memory orders", G6: every
 * thread the contract lets reach a chain node synchronises with the
 * splice's release first); not applied.
 */
static inline void caslist_lk_chain(struct caslist_node *a, struct caslist_node *b)
{
	caslist_lk_set_prev_new(b, a);
	atomic_store_explicit(&a->next, caslist_lk_w_of(b), memory_order_release);
}


/*
 * [L9] caslist_lk_cut_locked - cut first..last off after h.  Requires L(last)
 * with successor word SW (s) and L(h) with succ(h) == first, last on h's list.
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
					 struct caslist_node *last, uintptr_t sw, const char *op)
{
	caslist_lk_set_prev_checked(sw, h, last, op);
	caslist_lk_set_prev_new(first, NULL);
	caslist_lk_unlock(h, sw);
	atomic_store_explicit(&last->next, CASLIST_POISON_NEXT, memory_order_relaxed);
}

CASLIST_LK_END

#endif /* CASLIST_STATIC_LINK_H */
