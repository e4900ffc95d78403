/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/peer_urcu.c - liburcu's cds_list as a listbench peer, its updates
 * serialised by one pthread mutex (liburcu requires list updaters to
 * synchronise among themselves).  An unlinked node is kept self-linked
 * (cds_list_del_init), so "linked" is !cds_list_empty(node).
 */
#include <pthread.h>

#include "peer.h"

static struct cds_list_head u_head LINE;
static pthread_mutex_t u_lock LINE = PTHREAD_MUTEX_INITIALIZER;

static inline void u_lock_take(void)
{
	pthread_mutex_lock(&u_lock);
}

static inline void u_lock_drop(void)
{
	pthread_mutex_unlock(&u_lock);
}

static inline struct bnode *u_node(struct cds_list_head *x)
{
	return caslist_entry(x, struct bnode, u);
}

static inline int u_linked(struct bnode *n)
{
	return !cds_list_empty(&n->u);
}

static void u_init(size_t fl_batch, size_t nodes)
{
	(void)fl_batch;
	(void)nodes;
	CDS_INIT_LIST_HEAD(&u_head);
}

static void u_add_head(struct bnode *n)
{
	u_lock_take();
	cds_list_add(&n->u, &u_head);
	u_lock_drop();
}

static void u_add_tail(struct bnode *n)
{
	u_lock_take();
	cds_list_add_tail(&n->u, &u_head);
	u_lock_drop();
}

static struct bnode *u_pop(int tail)
{
	struct cds_list_head *x = NULL;

	u_lock_take();
	if (!cds_list_empty(&u_head)) {
		x = tail ? u_head.prev : u_head.next;
		cds_list_del_init(x);
	}
	u_lock_drop();
	return x ? u_node(x) : NULL;
}

static struct bnode *u_pop_head(void)
{
	return u_pop(0);
}

static struct bnode *u_pop_tail(void)
{
	return u_pop(1);
}

static int u_add_after(struct bnode *pos, struct bnode *n)
{
	int ok;

	u_lock_take();
	ok = u_linked(pos);
	if (ok)
		cds_list_add(&n->u, &pos->u);
	u_lock_drop();
	return ok ? 0 : -1;
}

static void u_del(struct bnode *n)
{
	u_lock_take();
	cds_list_del_init(&n->u);
	u_lock_drop();
}

static int u_del_if_linked(struct bnode *n)
{
	int won;

	u_lock_take();
	won = u_linked(n);
	if (won)
		cds_list_del_init(&n->u);
	u_lock_drop();
	return won;
}

static void u_move_head(struct bnode *n)
{
	u_lock_take();
	if (u_linked(n))
		cds_list_move(&n->u, &u_head);
	u_lock_drop();
}

/* One mutex hold per batch, the nodes' lines prefetched first, as the
 * locked peers. */
static void u_batch_move_head(struct bnode **v, size_t k)
{
	for (size_t i = 0; i < k; i++)
		__builtin_prefetch(&v[i]->u, 1, 3);
	u_lock_take();
	for (size_t i = 0; i < k; i++)
		if (u_linked(v[i]))
			cds_list_move(&v[i]->u, &u_head);
	u_lock_drop();
}

static void u_put_batch(struct bnode **v, size_t k)
{
	struct cds_list_head tmp;

	CDS_INIT_LIST_HEAD(&tmp);
	for (size_t i = 0; i < k; i++)
		cds_list_add_tail(&v[i]->u, &tmp);
	u_lock_take();
	cds_list_splice(&tmp, u_head.prev);
	u_lock_drop();
}

static size_t u_take(size_t want, struct bnode **out, size_t cap)
{
	struct cds_list_head *first, *last = &u_head;
	size_t k = 0;

	if (want > cap)
		want = cap;
	u_lock_take();
	while (k < want && last->next != &u_head) {
		last = last->next;
		k++;
	}
	first = u_head.next;
	if (k) {
		u_head.next = last->next;
		last->next->prev = &u_head;
	}
	u_lock_drop();
	for (size_t i = 0; i < k; i++) {
		struct cds_list_head *nx = first->next;

		CDS_INIT_LIST_HEAD(first);
		out[i] = u_node(first);
		first = nx;
	}
	return k;
}

static long u_count(size_t max, const char **err)
{
	struct cds_list_head *x;
	long n = 0;

	cds_list_for_each(x, &u_head) {
		if (x->next->prev != x || (size_t)n > max) {
			*err = "urcu list: broken links";
			return -1;
		}
		n++;
	}
	return n;
}

const struct peer peer_urcu = {
	.name = "urcu", .tsan_ok = 1, .init = u_init, .add_head = u_add_head,
	.add_tail = u_add_tail, .pop_head = u_pop_head, .pop_tail = u_pop_tail,
	.add_after = u_add_after, .add_near = u_add_after, .del = u_del,
	.del_if_linked = u_del_if_linked, .move_head = u_move_head,
	.batch_move_head = u_batch_move_head,
	.put_batch = u_put_batch, .take = u_take, .put1 = u_add_tail, .count = u_count,
};
