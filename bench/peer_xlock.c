/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/peer_xlock.c - the list of libcaslist's family (bench/xlock.h:
 * HAProxy mt_list's algorithm, written here) as a listbench peer: one
 * list, the operations listbench's workloads call, the end-of-run check.
 */
#include "peer.h"
#include "xlock.h"

/* The xlock node shares the bnode's first line with the other peers'
 * links (the union in peer.h): it sits in fl.link's two words. */
static inline struct xl *xl_of(struct bnode *n)
{
	return (struct xl *)(void *)bnode_cas(n);
}

static inline struct bnode *bnode_of_xl(struct xl *x)
{
	return bnode_of_cas((struct caslist_node *)(void *)x);
}

static struct xl head LINE;

static void xl_init(size_t fl_batch, size_t nodes)
{
	(void)fl_batch;
	(void)nodes;
	atomic_init(&head.next, xl_w(&head));
	atomic_init(&head.prev, xl_w(&head));
}

static void xl_node_init(struct bnode *n)
{
	xl_detach(xl_of(n));
}

static void xl_add_head(struct bnode *n)
{
	xl_insert(&head, xl_of(n));
}

static void xl_add_tail(struct bnode *n)
{
	xl_insert_tail(&head, xl_of(n));
}

static int xl_del_if_linked(struct bnode *n)
{
	return xl_remove(xl_of(n));
}

static void xl_del(struct bnode *n)
{
	(void)xl_remove(xl_of(n));
}

static void xl_move_head(struct bnode *n)
{
	xl_move(&head, xl_of(n));
}

/* pop the tail: head->prev, then the tail's two words and its
 * predecessor's next; any BUSY gives everything back. */
static struct bnode *xl_pop_tail(void)
{
	unsigned long budget = 0;

	for (;; xl_relax(&budget)) {
		uintptr_t t = xl_take(&head.prev), tp, tn, pn;

		if (t == XL_BUSY)
			continue;
		if (t == xl_w(&head)) {
			xl_give(&head.prev, t);
			return NULL;
		}
		tp = xl_take(&xl_xp(t)->prev);
		if (tp == XL_BUSY) {
			xl_give(&head.prev, t);
			continue;
		}
		tn = xl_take(&xl_xp(t)->next);
		if (tn == XL_BUSY) {
			xl_give(&xl_xp(t)->prev, tp);
			xl_give(&head.prev, t);
			continue;
		}
		pn = xl_take(&xl_xp(tp)->next);
		if (pn == XL_BUSY) {
			xl_give(&xl_xp(t)->next, tn);
			xl_give(&xl_xp(t)->prev, tp);
			xl_give(&head.prev, t);
			continue;
		}
		xl_join((struct xl_ends){ xl_xp(tn), xl_xp(tp) });
		xl_detach(xl_xp(t));
		return bnode_of_xl(xl_xp(t));
	}
}

/* add after pos: -1 if pos is detached. */
static int xl_add_after(struct bnode *pos, struct bnode *n)
{
	struct xl *p = xl_of(pos), *x = xl_of(n);
	/* x's own words too (xl_lock_at): in del_overlap the loser of a race
	 * to remove x may still hold them for a moment (a TSan smoke run
	 * found the list broken without this) */
	struct xl_ends e;

	if (p == x)		/* x is the caller's, detached: not a position */
		return -1;
	e = xl_lock_at(p, 1, x);
	if (e.next == p) {	/* pos detached: give back its words and x's */
		xl_detach(x);
		xl_give(&p->prev, xl_w(e.prev));
		xl_give(&p->next, xl_w(p));
		return -1;
	}
	xl_put(x, e);
	return 0;
}

/*
 * v[0..k-1] to the head: k moves.  The family has no batch: holding one
 * node in transit (its words BUSY) while locking the next one deadlocks
 * against a thread doing the same with the two nodes the other way round
 * (each spins on a node the other holds; measured: the first lru_batch
 * run at 2 threads hung).  libcaslist's batches mark queued nodes with a
 * tag that a waiter reads as "queued", not "busy", which is what makes
 * them possible.
 */
static void xl_batch_move_head(struct bnode **v, size_t k)
{
	for (size_t i = 0; i < k; i++)
		xl_move_head(v[i]);
}

static long xl_count(size_t max, const char **err)
{
	long n = 0;
	struct xl *x = xl_xp(atomic_load_explicit(&head.next, memory_order_acquire));
	struct xl *prev = &head;

	for (; x != &head; prev = x, x = xl_xp(atomic_load_explicit(&x->next, memory_order_acquire))) {
		if (xl_w(x) == XL_BUSY || atomic_load_explicit(&x->prev, memory_order_relaxed) !=
					       xl_w(prev) || (size_t)n > max) {
			*err = "xlock list: broken links";
			return -1;
		}
		n++;
	}
	if (atomic_load_explicit(&head.prev, memory_order_relaxed) != xl_w(prev)) {
		*err = "xlock list: head->prev is not the tail";
		return -1;
	}
	return n;
}

const struct peer peer_xlock = {
	.name = "xlock", .tsan_ok = 1,
	.why = "no two-list (lruvec) operations in this peer",
	.init = xl_init, .node_init = xl_node_init,
	.add_head = xl_add_head, .add_tail = xl_add_tail,
	.pop_tail = xl_pop_tail,
	.add_after = xl_add_after,
	.del = xl_del, .del_if_linked = xl_del_if_linked,
	.move_head = xl_move_head,
	.batch_move_head = xl_batch_move_head,
	.count = xl_count,
};
