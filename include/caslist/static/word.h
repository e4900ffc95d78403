/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/word.h> - the lock word: what a node's next and prev
 * words can hold, and the predicates that read them.  No atomics here
 * but the head flag's relaxed load; the writers are lock.h and link.h.
 *
 * Lock word (x->next):
 *   S            unlocked; S is x's successor (x is linked, or x sits in a
 *                private chain owned by one thread)
 *   S | CASLIST_LK_LOCK     L(x) held; S is still the successor the abstract list has
 *                until the holder's unlock store (linearization point)
 *   (either)     with CASLIST_LK_TO_HEAD (bit 2) set iff S is a list's head
 *                (invariant I6: the successor's kind travels with the
 *                pointer to it, below)
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
#ifndef CASLIST_STATIC_WORD_H
#define CASLIST_STATIC_WORD_H

#include <stdbool.h>
#include <stdint.h>

#include <caslist/list.h>
#include "atomic.h"

CASLIST_LK_BEGIN

#define CASLIST_LK_LOCK CASLIST_LK_ICAST(uintptr_t, 1)

static inline uintptr_t caslist_lk_w_of(const struct caslist_node *n)
{
	return CASLIST_LK_PCAST(uintptr_t, n);
}
/*
 * CASLIST_LK_TO_HEAD - bit 2 of a next word that holds a successor: set iff
 * that successor is a list's head (I6, doc/protocol.md, "Objects and the
 * lock word").  Nodes and heads are 8-aligned (list.h), so no address has
 * it.  Written where the successor's word is written, and always copied
 * from the word the successor was read from: a lock CAS keeps it (it only
 * adds the lock bit), an unlock stores the successor word the holder read
 * (caslist_lk_unlock), and the only words made from a head's address are
 * caslist_lk_w_head's (an empty list, a tail's link).  Why: the holder of
 * L(x) writes succ(x)->prev, and a head's prev word carries the head flag,
 * which that store must keep.  Read from the successor word the holder
 * already has, the flag costs no load of succ's line before the store
 * (a load there is a dependent miss per unlink on a list beyond the
 * cache: doc/cost.md, "The successor's kind in the link").  The insert
 * loads it all the same, for fairness at a hot head (link.h,
 * caslist_lk_set_prev_loaded).
 *
 * Internally a successor is passed as its word (uintptr_t: the address
 * with CASLIST_LK_TO_HEAD, never CASLIST_LK_LOCK), never as a pointer, so
 * the kind cannot be dropped on the way; caslist_lk_node_of gives the node.
 */
#define CASLIST_LK_TO_HEAD CASLIST_LK_ICAST(uintptr_t, 4)

static inline struct caslist_node *caslist_lk_node_of(uintptr_t w)
{
	return CASLIST_LK_PCAST(struct caslist_node *, w & ~(CASLIST_LK_LOCK | CASLIST_LK_TO_HEAD));
}
static inline bool caslist_lk_w_locked(uintptr_t w) { return (w & CASLIST_LK_LOCK) != 0; }
/* Is the successor this word names a list's head?  Exact (I6). */
static inline bool caslist_lk_w_to_head(uintptr_t w) { return (w & CASLIST_LK_TO_HEAD) != 0; }
/* The successor word of head h: what a link pointing to h holds. */
static inline uintptr_t caslist_lk_w_head(const struct caslist_node *h)
{
	return caslist_lk_w_of(h) | CASLIST_LK_TO_HEAD;
}
/*
 * CASLIST_LK_BATCH_TAG: a next word `b | CASLIST_LK_BATCH_TAG` (bit 1 set, bit 0 clear) says "not
 * linked: queued in batch b" (struct caslist_batch, 4-aligned).  Removers
 * see it as unlinked (ENOENT), touch as "on its way to a head", an add as
 * misuse.  It is why batched nodes, unlike chain nodes, may be targeted by
 * any thread while they wait in a batch.
 */
#define CASLIST_LK_BATCH_TAG CASLIST_LK_ICAST(uintptr_t, 2)
static inline bool caslist_lk_w_batched(uintptr_t w)
{
	return (w & (CASLIST_LK_LOCK | CASLIST_LK_BATCH_TAG)) == CASLIST_LK_BATCH_TAG;
}
static inline bool caslist_lk_w_unlinked(uintptr_t w)
{
	return w == 0 || w == CASLIST_POISON_NEXT || caslist_lk_w_batched(w);
}
/*
 * caslist_lk_w_free - linked and unlocked: a word a lock CAS may take.
 * The same answer as !caslist_lk_w_locked(w) && !caslist_lk_w_unlinked(w),
 * in two tests instead of four: bits 0-1 clear (not locked, not batched),
 * and not 0 or POISON (CASLIST_POISON_NEXT is one bit above them).  The
 * fast path's test; the slow path tells the other states apart.
 */
static inline bool caslist_lk_w_free(uintptr_t w)
{
	return (w & (CASLIST_LK_LOCK | CASLIST_LK_BATCH_TAG)) == 0 &&
	       (w & ~CASLIST_POISON_NEXT) != 0;
}
/* The two unlinked states a touch tells apart (doc/protocol.md, "Objects and the lock word"). */
static inline bool caslist_lk_w_fresh(uintptr_t w) { return w == 0; }
static inline bool caslist_lk_w_owned(uintptr_t w) { return w == CASLIST_POISON_NEXT; }

/*
 * The head flag.  A list head's own prev word always carries CASLIST_LK_HEAD_FLAG
 * (bit 1; node addresses are at least 4-aligned, so no node pointer has
 * it).  Set by caslist_init, kept by every later write of head->prev
 * (caslist_lk_set_prev_checked reads the old flag first: the writer owns the word
 * under the link lock that points to it).  It makes "is x a head?" exact
 * for ANY list, which is what the cross-list rules need (doc/protocol.md,
 * "Lock order"): a walk that lands on another list's head, a cut whose last
 * node became another list's tail.  POISON_PREV also has bit 1 set, so it
 * is excluded explicitly.
 */
#define CASLIST_LK_HEAD_FLAG CASLIST_LK_ICAST(uintptr_t, 2)

/* The one message for a list that was never initialised (every check). */
#define CASLIST_LK_NOT_INIT "list is not initialised (caslist_init or CASLIST_LIST_INIT)"

/* The one message for a list's head passed where a node is wanted. */
#define CASLIST_LK_IS_HEAD "the node is a list's head (a head is never added, moved or removed)"

static inline bool caslist_lk_prev_is_head(uintptr_t pv)
{
	return (pv & CASLIST_LK_HEAD_FLAG) != 0 && pv != CASLIST_POISON_PREV;
}

/* The head flag of the node a successor word SW names: what its prev word
 * carries (I6 makes the two agree). */
static inline uintptr_t caslist_lk_flag_of(uintptr_t sw)
{
	return caslist_lk_w_to_head(sw) ? CASLIST_LK_HEAD_FLAG : 0;
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
 * CASLIST_LK_CLAIMED - the word of a node claimed by caslist_touch: locked (so every
 * other thread sees it linked and busy) and pointing nowhere.  Insert step
 * 1 replaces it with the real successor, still locked.
 */
#define CASLIST_LK_CLAIMED (CASLIST_POISON_NEXT | CASLIST_LK_LOCK)

CASLIST_LK_END

#endif /* CASLIST_STATIC_WORD_H */
