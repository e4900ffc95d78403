/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/fl_ops.h> - the cluster-cut free list (doc/cluster.md), as static
 * inline caslist__fl_* functions: the one definition.  lib/freelist.c
 * compiles them into the library's caslist_fl_* symbols, and
 * CASLIST_INLINE users get them inline (installed as
 * <caslist/static/fl_ops.h>; <caslist/freelist.h> maps the names), so a user
 * TSan build sees a hand-off through the free list too (the descriptor
 * pool, static/cl_pool.h, as well).  The audit (lib/check.c) stays out of
 * line.
 *
 * Lock order: a cluster lock, then link locks (through the list
 * operations); never two cluster locks at once; link-lock holders never
 * take a cluster lock.  So no cycle can form across the two levels, and
 * the list level is deadlock-free by itself (doc/protocol.md, "Lock order").
 *
 * The free list only ever adds at the tail (put, put_batch) and cuts at
 * the front (take): nothing can appear in front of the front cluster, so
 * a taker holding the front cluster's lock knows the prefix up to that
 * cluster's tail is exactly the cluster.  It stands on the operations of
 * static/list_ops.h (cut_front, splice_tail, chain_*): no link word is
 * touched here.  Beyond them it uses the two hint reads of the list's
 * ends ([F1], [F4]), the one tail step caslist_lk_add_tail_if ([F4]) and
 * the delete [S6] for its predecessor ([F5]): HACKING.md, "The free list
 * on the operations".
 */
#ifndef CASLIST_STATIC_FL_OPS_H
#define CASLIST_STATIC_FL_OPS_H

#include <stdint.h>

#include "cl_pool.h"
#include "cluster.h"
#include "debug.h"
#include "list_ops.h"

CASLIST_LK_BEGIN

/* A free list that was never caslist_fl_init'ed: abort naming the
 * free-list call, not the list operation inside it.  fl_init sets batch to
 * 1 or more, so 0 is a free list nobody initialised; a plain read of a
 * field written once, before the free list is shared, on the head's line
 * (every caller reads it next anyway). */
static inline void caslist_lk_fl_check_init(const struct caslist_fl *fl, const char *op)
{
	CASLIST_LK_REQUIRE(fl->batch != 0, op, fl, "free list is not initialised (caslist_fl_init)");
}

static inline void caslist__fl_init(struct caslist_fl *fl, unsigned batch)
{
	caslist__init(&fl->list);
	fl->batch = batch ? batch : 1;
	atomic_store_explicit(&fl->disable_depth, 0, memory_order_relaxed);
	for (int i = 0; i < CASLIST_FL_STRIPES; i++)
		atomic_store_explicit(&fl->busy[i].n, 0, memory_order_relaxed);
	caslist_lk_cl_pool_init(fl);
}

static inline void caslist__fl_destroy(struct caslist_fl *fl)
{
	caslist_lk_cl_pool_destroy(fl);
}

static inline void caslist__fl_reserve(struct caslist_fl *fl, size_t n)
{
	caslist_lk_cl_pool_reserve(fl, n);
}

static inline void caslist__fl_node_init(struct caslist_fl_node *x)
{
	caslist__node_init(&x->link);
	caslist_lk_set_cluster(x, NULL);
}

/* ---- take ---- */

static inline unsigned caslist_lk_fl_my_stripe(void)
{
	static CASLIST_LK_ATOMIC(unsigned) next;
	static CASLIST_LK_THREAD_LOCAL unsigned stripe = UINT32_MAX;

	if (stripe == UINT32_MAX)
		stripe = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed) %
			 CASLIST_FL_STRIPES;
	return stripe;
}

/*
 * [F1] Lock the front cluster.  Validation under its lock: it is LIVE, the
 * list's first node g belongs to it, and g is still first.  Then it stays
 * the front cluster while we hold its lock: only its lock holder can
 * remove its nodes, and nothing is ever inserted before the front.
 * g is read with
 * caslist_lk_first_hint, not iter_next: [F1] as modelled takes the word
 * as it is and, if it is stale, fails and backs off; iter_next would wait
 * on a locked head word (a cut or a splice in flight) instead.
 */
static inline struct caslist_cluster *caslist_lk_fl_lock_front(struct caslist_fl *fl)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;
	struct caslist_node *h = &fl->list.head;

	for (;;) {
		/* The first node: a hint (acquire), validated below. */
		struct caslist_node *g = caslist_lk_first_hint(&fl->list);
		struct caslist_cluster *c;

		if (g == h)
			return NULL;
		c = caslist_lk_cluster_of(caslist_lk_fl_node_of(g));
		if (c != NULL) {
			caslist_lk_cl_lock(c);
			if (c->state == CASLIST_LK_CL_LIVE && caslist_lk_cluster_of(caslist_lk_fl_node_of(g)) == c &&
			    caslist_lk_first_hint(&fl->list) == g)
				return c;
			caslist_lk_cl_unlock(c);
		}
		caslist_lk_backoff(&b);
	}
}

/* [F2] take: lock the front cluster, cut it at its tail, TAKEN, unlock;
 * repeat.  The per-node reset is the batch walk (caslist_fl_batch_next). */
static inline size_t caslist__fl_take(struct caslist_fl *fl, size_t want, struct caslist_fl_batch *b)
{
	struct caslist_node *last = NULL;
	struct caslist_cluster *c;

	caslist_lk_fl_check_init(fl, "caslist_fl_take");

	b->fl = fl;
	b->next = NULL;
	b->n = 0;
	b->stripe = caslist_lk_fl_my_stripe();
	/* Dekker pair with caslist_fl_scan_begin (seq_cst on both sides):
	 * either this take sees the window open and fixes up eagerly, or the
	 * scanner sees this stripe busy and waits until the batch is done. */
	atomic_fetch_add_explicit(&fl->busy[b->stripe].n, 1, memory_order_seq_cst);
	/* [mutant window] the mutant ignores open scan windows (test/stress/mutate.sh) */
	b->eager = atomic_load_explicit(&fl->disable_depth, memory_order_seq_cst) != 0;
	/* An eager take never leaves a node TAKEN, so the scanner need not
	 * wait for it: leave the count at once.  Only takes that started
	 * before the window opened hold a scanner up, so scan_begin cannot
	 * be starved by a stream of new takes. */
	if (b->eager)
		atomic_fetch_sub_explicit(&fl->busy[b->stripe].n, 1, memory_order_relaxed);

	while (b->n < want && (c = caslist_lk_fl_lock_front(fl)) != NULL) {
		struct caslist_node *tail = &c->tail->link, *first;
		size_t nr = c->nr;

		if (b->eager) {
			/* Window open: reset the cluster pointers now, under
			 * this cluster's lock, so no node is ever seen TAKEN.
			 * The first node is lock_front's g again (it stays
			 * first while we hold c): read, not passed out, which
			 * costs the take fewer instructions. */
			struct caslist_node *n = caslist_lk_first_hint(&fl->list);

			for (;;) {
				struct caslist_node *nx = caslist__chain_next(n);

				caslist_lk_set_cluster(caslist_lk_fl_node_of(n), NULL);
				if (n == tail)
					break;
				n = nx;
			}
		}
		first = caslist__cut_front(&fl->list, tail);
		c->state = b->eager ? CASLIST_LK_CL_BUILDING : CASLIST_LK_CL_TAKEN;
		caslist_lk_cl_unlock(c);
		if (b->eager)
			caslist_lk_cl_retire(fl, c);
		if (last == NULL)
			b->next = first;
		else
			caslist__chain_link(last, first);
		last = tail;
		b->n += nr;
	}
	if (b->n == 0 && !b->eager) {
		/* Nothing taken, nothing pending.  Relaxed (G4): this take
		 * reset nothing, so it has nothing to publish to the scanner. */
		atomic_fetch_sub_explicit(&fl->busy[b->stripe].n, 1, memory_order_relaxed);
		b->eager = true;	/* batch_next has nothing to release */
	}
	return b->n;
}

static inline struct caslist_fl_node *caslist__fl_batch_next(struct caslist_fl_batch *b)
{
	struct caslist_node *n = b->next;
	struct caslist_fl_node *x;

	if (n == NULL)
		return NULL;
	b->next = caslist__chain_next(n);
	x = caslist_lk_fl_node_of(n);
	if (!b->eager) {
		/* TAKEN: nothing writes c->tail any more; we (or whoever
		 * handed us the batch) saw it under the lock in take. */
		struct caslist_cluster *c = atomic_load_explicit(&x->cluster, memory_order_relaxed);
		int last_of_cluster = c->tail == x;

		caslist_lk_set_cluster(x, NULL);
		if (last_of_cluster)
			caslist_lk_cl_retire(b->fl, c);	/* after all its nodes are reset */
		if (b->next == NULL)
			/* Release: the scanner's seq_cst load that sees 0
			 * also sees every reset above.  Relaxed would be
			 * enough (doc/protocol.md, "Memory orders", G8: the
			 * scanner reads a node only under its cluster's
			 * lock, which the retire above also takes); not
			 * applied. */
			atomic_fetch_sub_explicit(&b->fl->busy[b->stripe].n, 1,
						  memory_order_release);
	}
	/* The node is the taker's now: OWNED, as a pop leaves a node (a
	 * touch of it adds nothing).  caslist_lk_poison, the writer of that
	 * state, not caslist_link_retire: n is a node of the taker's own
	 * chain, not one whose link it holds, and the retire's head check
	 * would cost every node taken a load for a node that is never a head. */
	caslist_lk_poison(n, CASLIST_POISON_NEXT);
	return x;
}

/* ---- put ---- */

/* [F3] put_batch: a BUILDING cluster, its nodes pointed at it privately,
 * spliced at the tail in O(1), then LIVE under its lock. */
static inline void caslist__fl_put_batch(struct caslist_fl *fl, struct caslist_fl_node *first,
			  struct caslist_fl_node *last, size_t n)
{
	struct caslist_cluster *c;
	struct caslist_fl_node *x = first;

	if (n == 0)
		return;
	c = caslist_lk_cl_alloc(fl, n, last);
	/* Private chain: point every node at c, outside any shared lock.
	 * The list order is published by the splice's release. */
	for (size_t i = 0; i < n; i++) {
		CASLIST_LK_CHECK(atomic_load_explicit(&x->cluster, memory_order_relaxed) == NULL,
			      "caslist_fl_put_batch", x, "node is already free");
		/* Release: pairs with the acquire in caslist_lk_cluster_of.  A scanner
		 * (caslist_fl_node_state) or remover reaches c through this
		 * pointer, not through the list, before the splice; it must
		 * see c initialised (grow's calloc, cl_alloc) before it locks
		 * c.  A plain store on x86. */
		caslist_lk_set_cluster(x, c);
		if (i + 1 < n)
			x = caslist_lk_fl_node_of(caslist__chain_next(&x->link));
	}
	CASLIST_LK_CHECK(x == last, "caslist_fl_put_batch", last, "chain length != n");
	caslist__splice_tail(&fl->list, &first->link, &last->link);
	caslist_lk_cl_lock(c);
	c->state = CASLIST_LK_CL_LIVE;
	caslist_lk_cl_unlock(c);
}

/* put_batch in three steps (the same protocol, [F3]): the descriptor
 * first, then each node pointed at it and chained as it is added, then
 * the splice and LIVE.  nr and tail are set with LIVE, under the lock:
 * until then the descriptor is BUILDING and nobody reads them. */
static inline void caslist__fl_build_begin(struct caslist_fl *fl, struct caslist_fl_builder *b)
{
	caslist_lk_fl_check_init(fl, "caslist_fl_build_begin");
	b->fl = fl;
	b->c = caslist_lk_cl_alloc(fl, 0, NULL);
	b->first = b->last = NULL;
	b->n = 0;
}

static inline void caslist__fl_build_add(struct caslist_fl_builder *b, struct caslist_fl_node *x)
{
	CASLIST_LK_CHECK(caslist_lk_cluster_of(x) == NULL, "caslist_fl_build_add", x, "node is already free");
	/* Release: pairs with the acquire in caslist_lk_cluster_of, as in put_batch
	 * (a scanner may lock b->c through x before build_put's splice). */
	caslist_lk_set_cluster(x, b->c);
	if (b->last != NULL)
		caslist__chain_link(&b->last->link, &x->link);
	else
		b->first = x;
	b->last = x;
	b->n++;
}

static inline void caslist__fl_build_put(struct caslist_fl_builder *b)
{
	struct caslist_cluster *c = b->c;

	if (b->n == 0) {
		caslist_lk_cl_retire(b->fl, c);	/* BUILDING, never published */
		return;
	}
	caslist__splice_tail(&b->fl->list, &b->first->link, &b->last->link);
	caslist_lk_cl_lock(c);
	c->nr = b->n;
	c->tail = b->last;
	c->state = CASLIST_LK_CL_LIVE;
	caslist_lk_cl_unlock(c);
}

/* [F4] put: join the tail cluster under its lock if it is LIVE, short of
 * the batch and its tail is still the list's tail (L(tail) expecting the
 * head); else a cluster of one. */
static inline void caslist__fl_put(struct caslist_fl *fl, struct caslist_fl_node *x)
{
	caslist_lk_fl_check_init(fl, "caslist_fl_put");

	/* Kept in every build: a node put twice breaks the free list for good;
	 * the load is of a word this put writes anyway.  (put_batch's
	 * per-node check stays debug-only: it is a second walk's worth.) */
	CASLIST_LK_REQUIRE(caslist_lk_cluster_of(x) == NULL, "caslist_fl_put", x, "node is already free");
	for (int tries = 0; tries < 4; tries++) {
		struct caslist_node *t = caslist_lk_tail_hint(&fl->list);
		struct caslist_cluster *c;

		if (t == NULL)
			break;
		c = caslist_lk_cluster_of(caslist_lk_fl_node_of(t));
		if (c == NULL)
			continue;
		caslist_lk_cl_lock(c);
		if (c->state != CASLIST_LK_CL_LIVE || c->nr >= fl->batch) {
			caslist_lk_cl_unlock(c);
			break;
		}
		if (&c->tail->link == t) {
			/* Release: pairs with the acquire in caslist_lk_cluster_of, as in
			 * put_batch (c came to us through an acquire of t's
			 * pointer, so c's allocation happens before it too).
			 * Set before the insert publishes x, as put_batch does. */
			caslist_lk_set_cluster(x, c);
			/* c's tail is the list's tail: add x after it while it is. */
			if (caslist_lk_add_tail_if(&fl->list, t, &x->link, "caslist_fl_put")) {
				c->tail = x;
				c->nr++;
				caslist_lk_cl_unlock(c);
				return;
			}
			/* Not added: x is on no list.  Whoever read c from it
			 * waits for c's lock and finds NULL when it re-checks. */
			caslist_lk_set_cluster(x, NULL);
		}
		caslist_lk_cl_unlock(c);
	}
	caslist__fl_put_batch(fl, x, x, 1);
}

static inline void caslist__fl_cache_flush(struct caslist_fl *fl, struct caslist_fl_cache *c);

static inline void caslist__fl_cache_put(struct caslist_fl *fl, struct caslist_fl_cache *c,
			  struct caslist_fl_node *x)
{
	caslist_lk_fl_check_init(fl, "caslist_fl_cache_put");
	if (c->n == 0)
		c->first = x;
	else
		caslist__chain_link(&c->last->link, &x->link);
	c->last = x;
	if (++c->n >= fl->batch)
		caslist__fl_cache_flush(fl, c);
}

static inline void caslist__fl_cache_flush(struct caslist_fl *fl, struct caslist_fl_cache *c)
{
	if (c->n != 0)
		caslist__fl_put_batch(fl, c->first, c->last, c->n);
	c->first = c->last = NULL;
	c->n = 0;
}

/* ---- remove and node state ---- */

/* [F5] remove: lock x's cluster, re-check x->cluster; TAKEN: ENOENT;
 * BUILDING: again; LIVE: delete x (caslist_lk_del), fix tail and count. */
static inline int caslist__fl_remove(struct caslist_fl *fl, struct caslist_fl_node *x)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;

	caslist_lk_fl_check_init(fl, "caslist_fl_remove");

	(void)fl;
	for (;;) {
		struct caslist_cluster *c = caslist_lk_cluster_of(x);
		struct caslist_node *p = NULL;

		if (c == NULL)
			return CASLIST_ENOENT;
		caslist_lk_cl_lock(c);
		if (caslist_lk_cluster_of(x) != c) {	/* moved meanwhile: look again */
			caslist_lk_cl_unlock(c);
			continue;
		}
		if (c->state == CASLIST_LK_CL_TAKEN) {	/* a taker owns it now */
			caslist_lk_cl_unlock(c);
			return CASLIST_ENOENT;
		}
		if (c->state != CASLIST_LK_CL_LIVE) {	/* BUILDING: splice in flight */
			caslist_lk_cl_unlock(c);
			caslist_lk_backoff(&b);
			continue;
		}
		/* x is in c, on the list, and stays so while we hold c (only c's
		 * holder removes c's nodes), so the list's delete cannot miss. */
		caslist_lk_set_cluster(x, NULL);
		/* x is the caller's now: OWNED, as after any removal.  The
		 * delete is caslist_del's step [S6] itself, called for the
		 * predecessor it reports: the new c->tail below, which no
		 * operation returns. */
		(void)caslist_lk_del(&x->link, &p, "caslist_fl_remove");
		if (c->tail == x)	/* p is in c iff c had more nodes (a run) */
			c->tail = c->nr > 1 ? caslist_lk_fl_node_of(p) : NULL;
		if (--c->nr == 0) {
			c->state = CASLIST_LK_CL_BUILDING;
			caslist_lk_cl_unlock(c);
			caslist_lk_cl_retire(fl, c);
		} else {
			caslist_lk_cl_unlock(c);
		}
		return CASLIST_OK;
	}
}

static inline int caslist__fl_node_state(struct caslist_fl *fl, struct caslist_fl_node *x)
{
	(void)fl;
	for (;;) {
		struct caslist_cluster *c = caslist_lk_cluster_of(x);
		int st;

		if (c == NULL)
			return CASLIST_FL_NOT_FREE;
		caslist_lk_cl_lock(c);
		if (caslist_lk_cluster_of(x) != c) {
			caslist_lk_cl_unlock(c);
			continue;
		}
		st = c->state == CASLIST_LK_CL_TAKEN ? CASLIST_FL_TAKEN
		     : c->state == CASLIST_LK_CL_LIVE ? CASLIST_FL_FREE
					   : CASLIST_FL_NOT_FREE; /* BUILDING: not yet */
		caslist_lk_cl_unlock(c);
		return st;
	}
}

/* ---- scan window ---- */

static inline void caslist__fl_scan_begin(struct caslist_fl *fl)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;

	caslist_lk_fl_check_init(fl, "caslist_fl_scan_begin");

	/* seq_cst: the other half of the Dekker pair in caslist_fl_take. */
	atomic_fetch_add_explicit(&fl->disable_depth, 1, memory_order_seq_cst);
	for (int i = 0; i < CASLIST_FL_STRIPES; i++)
		while (atomic_load_explicit(&fl->busy[i].n, memory_order_seq_cst) != 0)
			caslist_lk_backoff(&b);
}

static inline void caslist__fl_scan_end(struct caslist_fl *fl)
{
	/* Relaxed (G4): a take that reads the window closed goes lazy and
	 * reads nothing the scanner wrote but through cluster locks, which
	 * order themselves. */
	atomic_fetch_sub_explicit(&fl->disable_depth, 1, memory_order_relaxed);
}

CASLIST_LK_END

#endif /* CASLIST_STATIC_FL_OPS_H */
