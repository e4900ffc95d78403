/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/batch_ops.h> - batched moves to the head (caslist_batch_*), as static
 * inline caslist__batch_* functions: remove each node in place at once,
 * splice them all with one head-link lock.  The one definition: lib/batch.c
 * compiles them into the library's symbols, and CASLIST_INLINE users get
 * them inline (<caslist/static/batch_ops.h>), so a user TSan
 * build sees a hand-off through a batch too.  doc/protocol.md, "The link steps"
 * ("Batches") has the protocol; every write to a link is a step of link.h
 * ([S6]'s delete with a batch mark instead of POISON, [L10] to chain, [L7]
 * to splice).
 */
#ifndef CASLIST_STATIC_BATCH_OPS_H
#define CASLIST_STATIC_BATCH_OPS_H

#include "list_ops.h"

CASLIST_LK_BEGIN

static inline void caslist__batch_init(struct caslist_batch *b)
{
	b->l = NULL;
	b->n = 0;
}

/* The batch word of b: its address with CASLIST_LK_BATCH_TAG (b is at least 4-aligned). */
static inline uintptr_t caslist_lk_batch_word(const struct caslist_batch *b)
{
	return CASLIST_LK_PCAST(uintptr_t, b) | CASLIST_LK_BATCH_TAG;
}

static inline void caslist__batch_flush(struct caslist_batch *b);

/*
 * [S13] queue n: L(n) and L(pred) as a delete (Step [S6]: never waiting
 * holding L(n)), unlink leaving n's word = b|CASLIST_LK_BATCH_TAG.  From
 * the unlink on, n is in no list and QUEUED: owned by b's thread until the
 * flush (or a cancel).  The first attempt is caslist_lk_pair_first, as
 * the delete's; anything else goes on in caslist_lk_batch_move_head_retry
 * (caslist_lk_lock_pair's loop; HACKING.md, "The first attempt inline,
 * the retry out of line").  When L(n) cannot be had there, the result comes from the
 * unlinked value that caslist_lk_lock saw (never a second load: by then
 * another thread's flush may have linked n again, or its pop taken it):
 * queued in this batch (CASLIST_BATCH_QUEUED), in another (CASLIST_OK:
 * the node is on its way to a head), else CASLIST_ENOENT.  (The retry
 * loads n's word again after the first attempt failed, as the delete's
 * does: the result is that load's.)
 */
static inline void caslist_lk_batch_queue(struct caslist_batch *b, struct caslist_list *l,
					  struct caslist_node *p, struct caslist_node *n,
					  uintptr_t s, const char *op)
{
	caslist_lk_unlink_locked(p, n, s, caslist_lk_batch_word(b), op);
	b->l = l;
	b->node[b->n++] = n;
	if (b->n == CASLIST_BATCH_MAX)
		caslist__batch_flush(b);
}

/* The list is checked when an empty batch takes it (once per batch, not
 * per node): a list never initialised would otherwise be found only by
 * the flush, after its nodes have left their lists. */
static inline void caslist_lk_batch_check(struct caslist_batch *b, struct caslist_list *l,
					  const char *op)
{
	if (b->n == 0)
		CASLIST_LK_REQUIRE(caslist_lk_list_initialised(l), op, &l->head,
				CASLIST_LK_NOT_INIT);
	CASLIST_LK_REQUIRE(b->n == 0 || b->l == l, op, b,
			"the batch holds nodes for another list (flush it first)");
}

/* The retry of [S13], BUSY as HACKING.md, "The first attempt inline, the
 * retry out of line", says. */
static __attribute__((noinline, unused)) int
caslist_lk_batch_move_head_retry(struct caslist_batch *b, struct caslist_list *l,
				 struct caslist_node *n, const void *busy, const char *op)
{
	struct caslist_lk_backoff bo = CASLIST_LK_BACKOFF_INIT;
	struct caslist_node *p;
	uintptr_t seen, s;

	/* lock_pair's failed round, or a head's verdict: wait, then start over */
	bool asked = caslist_lk_pair_busy_wait(&bo, busy, op);

	s = caslist_lk_lock_pair(n, &p, &seen, &bo, asked, op);
	if (s == 0) {
		if (seen == caslist_lk_batch_word(b))
			return CASLIST_BATCH_QUEUED;
		return caslist_lk_w_batched(seen) ? CASLIST_OK : CASLIST_ENOENT;
	}
	caslist_lk_batch_queue(b, l, p, n, s, op);
	return CASLIST_OK;
}

CASLIST_LK_STEP int caslist_lk_batch_move_head(struct caslist_batch *b, struct caslist_list *l,
					     struct caslist_node *n, const char *op)
{
	struct caslist_node *p;
	const void *busy;
	uintptr_t s;

	caslist_lk_batch_check(b, l, op);
	if (__builtin_expect(!caslist_lk_pair_first(n, &s, &p, &busy, op), 0))
		return caslist_lk_batch_move_head_retry(b, l, n, busy, op);
	caslist_lk_batch_queue(b, l, p, n, s, op);
	return CASLIST_OK;
}

static inline int caslist__batch_move_head(struct caslist_batch *b, struct caslist_list *l,
					   struct caslist_node *n)
{
	return caslist_lk_batch_move_head(b, l, n, "caslist_batch_move_head");
}

/*
 * Many nodes: exactly the calls caslist_batch_move_head(b, l, nodes[i]) in
 * order (a node already queued in b is skipped, as that call does), but a window of nodes at a time is first fetched in three passes
 * - every node's line, then (from each node's next and prev words, read
 * relaxed: hints only) the lines of its neighbours, then the removals -
 * so the misses of a whole window overlap instead of each removal waiting
 * for its own.  Only prefetches and loads are added: the protocol is
 * that of [S13], node by node.
 */
#define CASLIST_LK_BATCH_WINDOW 16

static inline size_t caslist__batch_move_head_n(struct caslist_batch *b, struct caslist_list *l,
						 struct caslist_node *const *nodes, size_t k)
{
	size_t queued = 0;

	for (size_t i0 = 0; i0 < k; i0 += CASLIST_LK_BATCH_WINDOW) {
		size_t e = k - i0 < CASLIST_LK_BATCH_WINDOW ? k : i0 + CASLIST_LK_BATCH_WINDOW;

		for (size_t i = i0; i < e; i++)
			caslist_lk_prefetch_w(nodes[i]);
		for (size_t i = i0; i < e; i++)
			(void)caslist_lk_prefetch_nbrs(nodes[i], "caslist_batch_move_head_n");
		for (size_t i = i0; i < e; i++)
			queued += caslist_lk_batch_move_head(b, l, nodes[i],
							     "caslist_batch_move_head_n") == CASLIST_OK;
	}
	return queued;
}

/*
 * [S14] flush: chain the queued nodes, newest first, with locked words
 * ([L10]); L(head) ([S0]; waiting for a head link holding
 * only links of nodes in transit: rule R2); insert the chain ([L7]:
 * linearization point, all of them at once); then release each link of
 * the chain but the last (insert step 5 released that one).
 */
static inline void caslist__batch_flush(struct caslist_batch *b)
{
	struct caslist_node *h, *first, *last;
	uintptr_t f;
	unsigned k = b->n;

	if (k == 0)
		return;
	first = b->node[k - 1];
	last = b->node[0];
	for (unsigned i = k - 1; i > 0; i--)
		caslist_lk_batch_chain(b->node[i], b->node[i - 1]);
	h = &b->l->head;
	f = caslist_lk_lock_head_held(h, "caslist_batch_flush");
	caslist_lk_insert_head(b->l, h, f, first, last, "caslist_batch_flush");
	for (unsigned i = k - 1; i > 0; i--)	/* chain nodes: kind 0 */
		caslist_lk_unlock(b->node[i], caslist_lk_w_of(b->node[i - 1]));
	b->n = 0;
}

/*
 * [S15] cancel: the queued nodes become OWNED by the caller, in no list
 * (caslist_lk_poison: POISON, as a removal leaves them), and the batch is
 * empty.  Only the batch's thread writes those words while they are
 * queued (every other thread sees "not linked" and writes nothing), so
 * relaxed stores are enough, as in caslist_lk_poison (G5).
 */
static inline size_t caslist__batch_cancel(struct caslist_batch *b, struct caslist_node **out)
{
	unsigned k = b->n;

	for (unsigned i = 0; i < k; i++) {
		caslist_lk_poison(b->node[i], CASLIST_POISON_NEXT);
		if (out != NULL)
			out[i] = b->node[i];
	}
	b->n = 0;
	return k;
}

CASLIST_LK_END

#endif /* CASLIST_STATIC_BATCH_OPS_H */
