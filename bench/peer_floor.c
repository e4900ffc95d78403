/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/peer_floor.c - listbench's "floor": the bare moves of bench/floor.h
 * (one acquire CAS per word the protocol locks, the release stores that
 * unlock them, the prev writes; no retry, no checks, no bookkeeping) on
 * the same 64-byte nodes, as a reference row for what a per-link-locked
 * move cannot go below.  One thread only (listbench reports it as
 * unsupported at more), and only where the moves are the workload:
 * rotate (lru_slice, lru_all, lru_read: move_head), del_head (del_if_linked
 * + add_head) and lruvec (two lists: every node operation is a move, a
 * delete or an add).  Other workloads report "unsupported".
 */
#include <stdatomic.h>

#include "floor.h"
#include "peer.h"

static struct floor_link head, head2;	/* lruvec: inactive (head), active */

static struct bnode *bnode_of_floor(struct floor_link *f)
{
	return (struct bnode *)(void *)((char *)f - offsetof(struct bnode, f));
}

static void fl_init(size_t fl_batch, size_t nodes)
{
	(void)fl_batch;
	(void)nodes;
	floor_init(&head);
	floor_init(&head2);
}

static void fl_node_init(struct bnode *n)
{
	atomic_store_explicit(&n->f.next, 0, memory_order_relaxed);
	atomic_store_explicit(&n->f.prev, 0, memory_order_relaxed);
}

static void fl_add_tail(struct bnode *n)	/* set-up only */
{
	floor_link_tail(&head, &n->f);
}

static void fl_add_head(struct bnode *n)
{
	floor_add_head(&head, &n->f);
}

static void fl_move_head(struct bnode *n)
{
	floor_move_head(&head, &n->f);
}

static int fl_del_if_linked(struct bnode *n)
{
	if (!floor_linked(&n->f))
		return 0;
	floor_del(&n->f);
	return 1;
}

static long fl_count(size_t max, const char **err)
{
	long a = floor_count(&head, max, err), b = a < 0 ? -1 : floor_count(&head2, max, err);

	return a < 0 || b < 0 ? -1 : a + b;
}

/* lruvec (doc/bench.md): inactive = head, active = head2; lv_active says
 * which list a linked node is on, as in the other peers. */
static void fl_lv_add(struct bnode **v, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		floor_add_head(&head, &v[i]->f);
		atomic_store_explicit(&v[i]->lv_active, 0, memory_order_relaxed);
	}
}

static void fl_lv_activate(struct bnode **v, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (floor_linked(&v[i]->f) &&
		    !atomic_load_explicit(&v[i]->lv_active, memory_order_relaxed)) {
			floor_move_head(&head2, &v[i]->f);
			atomic_store_explicit(&v[i]->lv_active, 1, memory_order_relaxed);
		}
}

static size_t fl_lv_isolate(struct bnode **out, size_t k)
{
	size_t i;

	for (i = 0; i < k; i++) {
		uintptr_t t = atomic_load_explicit(&head.prev, memory_order_relaxed);

		if (t == (uintptr_t)&head)
			break;
		floor_del(FLOOR_PTR(t));
		out[i] = bnode_of_floor(FLOOR_PTR(t));
	}
	return i;
}

static void fl_lv_putback(struct bnode **v, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		floor_add_head(&head2, &v[i]->f);
		atomic_store_explicit(&v[i]->lv_active, 1, memory_order_relaxed);
	}
}

static size_t fl_lv_demote(size_t k)
{
	size_t i;

	for (i = 0; i < k; i++) {
		uintptr_t t = atomic_load_explicit(&head2.prev, memory_order_relaxed);

		if (t == (uintptr_t)&head2)
			break;
		floor_move_head(&head, FLOOR_PTR(t));
		atomic_store_explicit(&bnode_of_floor(FLOOR_PTR(t))->lv_active, 0,
				      memory_order_relaxed);
	}
	return i;
}

static int fl_lv_free(struct bnode *n)
{
	return fl_del_if_linked(n);
}

const struct peer peer_floor = {
	.name = "floor", .tsan_ok = 1, .one_thread = 1,
	.why = "the floor does rotate, del_head and lruvec only (a reference, not a list)",
	.init = fl_init, .node_init = fl_node_init,
	.add_head = fl_add_head, .add_tail = fl_add_tail,
	.del_if_linked = fl_del_if_linked, .move_head = fl_move_head, .count = fl_count,
	.lv_add = fl_lv_add, .lv_activate = fl_lv_activate, .lv_isolate = fl_lv_isolate,
	.lv_putback = fl_lv_putback, .lv_demote = fl_lv_demote, .lv_free = fl_lv_free,
};

/* the floor's node is a caslist node's line: same words, same offsets */
_Static_assert(offsetof(struct bnode, f) == offsetof(struct bnode, fl.link) &&
		       sizeof(struct floor_link) == sizeof(struct caslist_node),
	       "the floor's link is laid out as a caslist node");
