/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/peer_caslist.c - libcaslist in listbench: a <caslist/list.h> list
 * for the single-node workloads, the cluster free list
 * (<caslist/freelist.h>) for splice_cut and fl_put.  In fl_put, `caslist`
 * puts with caslist_fl_put (every put locks the tail cluster) and
 * `caslist_cache` with caslist_fl_cache_put (a private cache per thread,
 * one splice per K puts).
 */
#include <stdio.h>
#include <stdlib.h>

#include "peer.h"

static struct caslist_list cas_list LINE;	/* lruvec: the inactive list */
static struct caslist_list cas_active LINE;	/* lruvec: the active list */
static struct caslist_fl cas_fl LINE;
static int cas_use_fl;		/* this run uses the free list, not cas_list */
static _Thread_local struct caslist_fl_cache cas_cache;

static void cas_init(size_t fl_batch, size_t nodes)
{
	cas_use_fl = fl_batch != 0;
	if (cas_use_fl) {
		caslist_fl_init(&cas_fl, (unsigned)fl_batch);
		caslist_fl_reserve(&cas_fl, nodes);
	} else {
		caslist_init(&cas_list);
		caslist_init(&cas_active);
	}
}

static void cas_add_head(struct bnode *n)
{
	caslist_add_head(&cas_list, bnode_cas(n));
}

static void cas_add_tail(struct bnode *n)
{
	caslist_add_tail(&cas_list, bnode_cas(n));
}

static struct bnode *cas_pop_head(void)
{
	struct caslist_node *c = caslist_pop_head(&cas_list);

	return c ? bnode_of_cas(c) : NULL;
}

static struct bnode *cas_pop_tail(void)
{
	struct caslist_node *c = caslist_pop_tail(&cas_list);

	return c ? bnode_of_cas(c) : NULL;
}

static int cas_add_after(struct bnode *pos, struct bnode *n)
{
	return caslist_add_after(bnode_cas(pos), bnode_cas(n)) == CASLIST_OK ? 0 : -1;
}

static int cas_add_near(struct bnode *pos, struct bnode *n)
{
	return caslist_add_near(bnode_cas(pos), bnode_cas(n)) >= 0 ? 0 : -1;
}

static void cas_del(struct bnode *n)
{
	caslist_del(bnode_cas(n));
}

static int cas_del_if_linked(struct bnode *n)
{
	return caslist_del_if_linked(bnode_cas(n));
}

static void cas_move_head(struct bnode *n)
{
	caslist_move_head(&cas_list, bnode_cas(n));
}

/* caslist_batch_*: each node out in place, one head-link lock per batch
 * (caslist_batch_move_head_n: the nodes' and their neighbours' lines are
 * prefetched first; the lock peers prefetch the nodes' lines too). */
static void cas_batch_move_head(struct bnode **v, size_t k)
{
	struct caslist_batch b;
	struct caslist_node *nodes[64];

	caslist_batch_init(&b);
	for (size_t i0 = 0; i0 < k; i0 += 64) {
		size_t m = k - i0 < 64 ? k - i0 : 64;

		for (size_t i = 0; i < m; i++)
			nodes[i] = bnode_cas(v[i0 + i]);
		caslist_batch_move_head_n(&b, &cas_list, nodes, m);
	}
	caslist_batch_flush(&b);
}

/*
 * lruvec: two caslist lists and no lock; every node operation on its own.
 * New and kept nodes are added one at a time (caslist_add_head), not as a
 * spliced chain: other threads' hits and frees may target any node, and a
 * node in a private chain must not be targeted (<caslist/list.h>).
 * Activation queues the batch of hits with caslist_batch_move_head_n (each
 * out of the inactive list in place) and splices it at the active head
 * under one head-link lock.
 */
static void cas_lv_add(struct bnode **v, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		atomic_store_explicit(&v[i]->lv_active, 0, memory_order_relaxed);
		caslist_add_head(&cas_list, bnode_cas(v[i]));
	}
}

static void cas_lv_activate(struct bnode **v, size_t k)
{
	struct caslist_batch b;
	struct caslist_node *nodes[CASLIST_BATCH_MAX];

	caslist_batch_init(&b);
	for (size_t i0 = 0; i0 < k; i0 += CASLIST_BATCH_MAX) {
		size_t m = k - i0 < CASLIST_BATCH_MAX ? k - i0 : CASLIST_BATCH_MAX;

		for (size_t i = 0; i < m; i++) {
			nodes[i] = bnode_cas(v[i0 + i]);
			atomic_store_explicit(&v[i0 + i]->lv_active, 1, memory_order_relaxed);
		}
		caslist_batch_move_head_n(&b, &cas_active, nodes, m);
	}
	caslist_batch_flush(&b);
}

static size_t cas_lv_isolate(struct bnode **out, size_t k)
{
	size_t i;
	struct caslist_node *c = NULL;

	for (i = 0; i < k && (c = caslist_pop_tail(&cas_list)) != NULL; i++)
		out[i] = bnode_of_cas(c);
	return i;
}

static void cas_lv_putback(struct bnode **v, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		atomic_store_explicit(&v[i]->lv_active, 1, memory_order_relaxed);
		caslist_add_head(&cas_active, bnode_cas(v[i]));
	}
}

static size_t cas_lv_demote(size_t k)
{
	size_t i;
	struct caslist_node *c = NULL;

	for (i = 0; i < k && (c = caslist_pop_tail(&cas_active)) != NULL; i++) {
		atomic_store_explicit(&bnode_of_cas(c)->lv_active, 0, memory_order_relaxed);
		caslist_add_head(&cas_list, c);
	}
	return i;
}

static void cas_put_batch(struct bnode **v, size_t k)
{
	for (size_t i = 1; i < k; i++)
		caslist_chain_link(bnode_cas(v[i - 1]), bnode_cas(v[i]));
	caslist_fl_put_batch(&cas_fl, &v[0]->fl, &v[k - 1]->fl, k);
}

static size_t cas_take(size_t want, struct bnode **out, size_t cap)
{
	struct caslist_fl_batch b;
	struct caslist_fl_node *x;
	size_t i = 0;

	caslist_fl_take(&cas_fl, want, &b);
	while ((x = caslist_fl_batch_next(&b)) != NULL) {
		if (i == cap) {
			fprintf(stderr, "listbench: take returned more than %zu nodes\n", cap);
			abort();
		}
		out[i++] = caslist_entry(x, struct bnode, fl);
	}
	return i;
}

static void cas_put1(struct bnode *n)
{
	caslist_fl_put(&cas_fl, &n->fl);
}

static void cas_cache_put1(struct bnode *n)
{
	caslist_fl_cache_put(&cas_fl, &cas_cache, &n->fl);
}

static void cas_cache_flush(void)
{
	caslist_fl_cache_flush(&cas_fl, &cas_cache);
}

static long cas_count(size_t max, const char **err)
{
	size_t n = 0, clusters = 0;
	int rc;

	if (cas_use_fl) {
		rc = caslist_fl_check(&cas_fl, &n, &clusters);
		if (rc != 0)
			*err = caslist_fl_check_strerror(rc);
		caslist_fl_destroy(&cas_fl);
	} else {
		size_t a = 0;

		rc = caslist_check(&cas_list, max, &n);
		if (rc == 0)
			rc = caslist_check(&cas_active, max, &a);
		if (rc != 0)
			*err = caslist_check_strerror(rc);
		n += a;
	}
	return rc != 0 ? -1 : (long)n;
}

const struct peer peer_caslist = {
	.name = "caslist", .tsan_ok = 1, .init = cas_init, .add_head = cas_add_head,
	.add_tail = cas_add_tail, .pop_head = cas_pop_head, .pop_tail = cas_pop_tail,
	.add_after = cas_add_after, .add_near = cas_add_near, .del = cas_del,
	.del_if_linked = cas_del_if_linked, .move_head = cas_move_head,
	.batch_move_head = cas_batch_move_head,
	.put_batch = cas_put_batch, .take = cas_take, .put1 = cas_put1, .count = cas_count,
	.lv_add = cas_lv_add, .lv_activate = cas_lv_activate, .lv_isolate = cas_lv_isolate,
	.lv_putback = cas_lv_putback, .lv_demote = cas_lv_demote, .lv_free = cas_del_if_linked,
};

const struct peer peer_caslist_cache = {
	.name = "caslist_cache", .tsan_ok = 1, .variant = 1, .init = cas_init,
	.put_batch = cas_put_batch, .take = cas_take, .put1 = cas_cache_put1,
	.put_flush = cas_cache_flush, .count = cas_count,
};
