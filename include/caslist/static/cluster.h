/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/cluster.h> - cluster descriptors: the per-cluster lock, the state
 * machine and the descriptor pool.  The free-list operations are in
 * fl_ops.h; doc/cluster.md has the invariants.  Installed as
 * <caslist/static/cluster.h> for the inline mode.
 *
 * State (under the cluster lock):
 *   SPARE     on fl->spare, no nodes
 *   BUILDING  allocated by put_batch/put: nodes point to it, splice pending
 *   LIVE      its nodes are on the free list as one contiguous run
 *   TAKEN     cut off by a take; nodes still point to it until the batch
 *             walk resets them, the last (its tail) retires it to SPARE
 */
#ifndef CASLIST_STATIC_CLUSTER_H
#define CASLIST_STATIC_CLUSTER_H

#include <stddef.h>

#include <caslist/freelist.h>
#include "atomic.h"
#include "wait.h"

enum caslist_lk_cluster_state { CASLIST_LK_CL_SPARE, CASLIST_LK_CL_BUILDING, CASLIST_LK_CL_LIVE, CASLIST_LK_CL_TAKEN };

struct caslist_cluster {
	CASLIST_LK_ATOMIC(int) lock;
	/* all below: under lock */
	enum caslist_lk_cluster_state state;
	size_t nr;
	struct caslist_fl_node *tail;
	/* on fl->spare while SPARE (pool's own list, a caslist list) */
	struct caslist_node spare_link;
};

CASLIST_LK_BEGIN

/*
 * The cluster lock: test-and-test-and-set with backoff.  Exchange acquire
 * pairs with the release store in caslist_lk_cl_unlock: the next holder sees the
 * state, nr and tail the previous holder wrote.
 */
static inline void caslist_lk_cl_lock(struct caslist_cluster *c)
{
	struct caslist_lk_backoff b = CASLIST_LK_BACKOFF_INIT;

	while (atomic_exchange_explicit(&c->lock, 1, memory_order_acquire) != 0)
		while (atomic_load_explicit(&c->lock, memory_order_relaxed) != 0)
			caslist_lk_backoff(&b);
}

static inline void caslist_lk_cl_unlock(struct caslist_cluster *c)
{
	atomic_store_explicit(&c->lock, 0, memory_order_release);
}

static inline struct caslist_fl_node *caslist_lk_fl_node_of(struct caslist_node *n)
{
	return caslist_entry(n, struct caslist_fl_node, link);
}

/* Acquire: pairs with the release store of a descriptor in
 * caslist_lk_set_cluster (put_batch, build_add and put),
 * so a thread that reaches a descriptor through a node - a scanner, a
 * remover, not only the list's walkers - sees it initialised (the slab's
 * calloc in grow included) before it locks it. */
static inline struct caslist_cluster *caslist_lk_cluster_of(struct caslist_fl_node *x)
{
	return atomic_load_explicit(&x->cluster, memory_order_acquire);
}

/* THE writer of x->cluster.  A descriptor: release, pairs with the acquire
 * in caslist_lk_cluster_of (a thread that reaches c through x sees it
 * initialised, the slab's calloc included).  NULL (a remove, the take's
 * resets, a node's init): relaxed (G3), as a reader that sees NULL reports
 * "not free" and reads nothing the writer wrote.  Callers pass a constant
 * NULL or a descriptor, so the branch folds away. */
static inline void caslist_lk_set_cluster(struct caslist_fl_node *x, struct caslist_cluster *c)
{
	if (c == NULL)
		atomic_store_explicit(&x->cluster, NULL, memory_order_relaxed);
	else
		atomic_store_explicit(&x->cluster, c, memory_order_release);
}

/* The descriptor pool: static/cl_pool.h. */

CASLIST_LK_END

#endif /* CASLIST_STATIC_CLUSTER_H */
