/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * caslist/freelist.h - cluster-cut free list on the sentinel-locked list.
 *
 * Free nodes sit on one caslist list, grouped into clusters: contiguous
 * runs whose descriptor knows the run's tail and node count.  A take cuts
 * whole clusters off the front with one O(1) caslist_cut_front each; a
 * returned batch goes back as one cluster with one O(1) splice.  The per-
 * node work (resetting each node's cluster pointer) happens when the caller
 * walks the taken batch, outside every shared lock.  There is no global
 * lock: each cluster has its own small lock (membership, tail, count), and
 * link changes use the list's per-link locks.  doc/cluster.md has the
 * invariants and the scan-window contract.
 *
 * Memory rule (as for caslist lists): node memory must stay valid as a
 * node while operations may still read it; descriptors are the library's
 * and live until caslist_fl_destroy.
 */
#ifndef CASLIST_FREELIST_H
#define CASLIST_FREELIST_H

#include <stdbool.h>
#include <stddef.h>

#include <caslist/export.h>
#include <caslist/list.h>

#ifdef __cplusplus
extern "C" {
#endif

struct caslist_cluster;			/* opaque descriptor */

/* A free-list node, embedded in the user's object (e.g. a page descriptor). */
struct caslist_fl_node {
	struct caslist_node link;
	/* The cluster this node is in while it is free; NULL otherwise.
	 * The library's: ask caslist_fl_node_state, which reads it under
	 * the cluster's lock (a load of it is outside the scan window's
	 * promise and may still see a taken node's cluster). */
	CASLIST_ATOMIC(struct caslist_cluster *) cluster;
};

#define CASLIST_FL_STRIPES 16

struct caslist_fl {
	struct caslist_list list;	/* free nodes, clusters in runs */
	unsigned batch;			/* caslist_fl_put grows a cluster up to this */
	CASLIST_ATOMIC(unsigned long) disable_depth; /* open scan windows */
	struct caslist_list spare;	/* free cluster descriptors */
	CASLIST_ATOMIC(void *) slabs;		/* descriptor slabs, freed by destroy */
	CASLIST_ATOMIC(size_t) ndesc;		/* descriptors ever allocated */
	/* takes whose nodes are not yet fixed up, striped per thread so
	 * takers do not share one counter line */
	struct {
		CASLIST_ATOMIC(unsigned long) n;
		char pad[64 - sizeof(unsigned long)];
	} busy[CASLIST_FL_STRIPES] __attribute__((aligned(64)));
};

/* A taken batch: a private chain plus a count, walked with batch_next. */
struct caslist_fl_batch {
	struct caslist_fl *fl;
	struct caslist_node *next;
	size_t n;			/* nodes taken */
	unsigned stripe;
	bool eager;			/* fixed up inside take (scan window open) */
};

/* A caller's private put cache: nodes collected into one future cluster. */
struct caslist_fl_cache {
	struct caslist_fl_node *first, *last;
	size_t n;
};

/** caslist_fl_init - empty free list; single puts grow a cluster to @batch. */
CASLIST_API void caslist_fl_init(struct caslist_fl *fl, unsigned batch);
/** caslist_fl_destroy - free the descriptors (quiescent; nodes untouched). */
CASLIST_API void caslist_fl_destroy(struct caslist_fl *fl);
/** caslist_fl_reserve - preallocate descriptors so that at least @n exist.
 * Live clusters never outnumber free nodes, so reserving one per node
 * means no allocation ever happens on the put path. */
CASLIST_API void caslist_fl_reserve(struct caslist_fl *fl, size_t n);
/** caslist_fl_node_init - a node that is not free (required once). */
CASLIST_API void caslist_fl_node_init(struct caslist_fl_node *x);

/** caslist_fl_take - take whole clusters from the front until at least
 * @want nodes are taken or the list is empty.  Clusters are never split:
 * the result is >= @want unless the list ran out, and < @want + the
 * largest cluster.  Returns the count (also in b->n); walk the nodes with
 * caslist_fl_batch_next, which does the per-node fix-up.  Until the walk
 * ends, a scan window cannot open: finish batches promptly. */
CASLIST_API size_t caslist_fl_take(struct caslist_fl *fl, size_t want, struct caslist_fl_batch *b);
/** caslist_fl_batch_next - the next node of a taken batch, now owned by the
 * caller and reset (not free, unlinked); NULL when the batch is done. */
CASLIST_API struct caslist_fl_node *caslist_fl_batch_next(struct caslist_fl_batch *b);

/** caslist_fl_put - one node becomes free: it joins the cluster at the
 * tail if that has fewer than batch nodes, else starts a new one. */
CASLIST_API void caslist_fl_put(struct caslist_fl *fl, struct caslist_fl_node *x);
/** caslist_fl_put_batch - a private chain first..last of @n nodes (built
 * with caslist_chain_link on their links) becomes ONE new cluster, linked
 * with one O(1) splice.  Setting the nodes' cluster pointers is done
 * before the splice, outside every shared lock. */
CASLIST_API void caslist_fl_put_batch(struct caslist_fl *fl, struct caslist_fl_node *first,
				      struct caslist_fl_node *last, size_t n);
/* A cluster being built node by node (caslist_fl_build_*). */
struct caslist_fl_builder {
	struct caslist_fl *fl;
	struct caslist_cluster *c;
	struct caslist_fl_node *first, *last;
	size_t n;
};

/** caslist_fl_build_begin - start ONE new cluster of @fl in @b (takes a
 * descriptor).  With caslist_fl_build_add and caslist_fl_build_put it is
 * caslist_fl_put_batch without the second walk: each node is touched once,
 * by the add.  Do not block between begin and put, and above all do not
 * wait there for a lock that a caslist_fl_remove caller may hold: a remove
 * of a node added meanwhile waits for the put (take such a lock before
 * begin, or use caslist_fl_put_batch under it). */
CASLIST_API void caslist_fl_build_begin(struct caslist_fl *fl, struct caslist_fl_builder *b);
/** caslist_fl_build_add - append node @x (owned by the caller, not free)
 * to the cluster being built in @b: points it at the cluster and chains it
 * after the last one, outside every shared lock. */
CASLIST_API void caslist_fl_build_add(struct caslist_fl_builder *b, struct caslist_fl_node *x);
/** caslist_fl_build_put - link the cluster built in @b at the tail with
 * one O(1) splice (an empty builder gives its descriptor back). */
CASLIST_API void caslist_fl_build_put(struct caslist_fl_builder *b);
/** caslist_fl_cache_put / _flush - collect puts privately; the cache goes
 * back as one cluster when it reaches batch nodes (or on flush).  Spreads
 * the free path: one shared operation per batch instead of per node.
 * Cached nodes are not on the free list (remove cannot find them). */
CASLIST_API void caslist_fl_cache_put(struct caslist_fl *fl, struct caslist_fl_cache *c,
				      struct caslist_fl_node *x);
CASLIST_API void caslist_fl_cache_flush(struct caslist_fl *fl, struct caslist_fl_cache *c);

/** caslist_fl_remove - take the particular free node @x out (e.g. a buddy
 * being merged), keeping its cluster's count and tail exact.  Returns
 * CASLIST_OK, or CASLIST_ENOENT if @x is not on the free list (taken,
 * cached, or never put). */
CASLIST_API int caslist_fl_remove(struct caslist_fl *fl, struct caslist_fl_node *x);

/* Node states as a scanner sees them (caslist_fl_node_state). */
#define CASLIST_FL_NOT_FREE 0	/* not on the free list */
#define CASLIST_FL_FREE 1	/* on the free list */
#define CASLIST_FL_TAKEN 2	/* taken, per-node fix-up still pending */

/** caslist_fl_node_state - what @x is now (a snapshot, read under its
 * cluster's lock).  Inside a scan window it is never CASLIST_FL_TAKEN.
 * The window's promise is about what this call and caslist_fl_remove
 * report: both read a node only under its cluster's lock. */
CASLIST_API int caslist_fl_node_state(struct caslist_fl *fl, struct caslist_fl_node *x);

/** caslist_fl_scan_begin - open a scan window: waits until every take
 * in progress has finished fixing up its nodes; until scan_end, takes fix
 * up their nodes before returning (inside the cluster lock, not a global
 * one), so no node is ever in the TAKEN state, as caslist_fl_node_state
 * and caslist_fl_remove see it (under the node's cluster lock: the wait
 * orders nothing else after the takes).  Windows nest.  Do not call
 * while holding an unfinished batch (it would wait for itself). */
CASLIST_API void caslist_fl_scan_begin(struct caslist_fl *fl);
CASLIST_API void caslist_fl_scan_end(struct caslist_fl *fl);

/** caslist_fl_check - quiescent audit: every node on the list is in a live
 * cluster, clusters are contiguous runs whose count and tail are exact,
 * and no descriptor leaked (live + spare == allocated).  Stores the node
 * and cluster counts.  Returns 0 or a negative code (see strerror). */
CASLIST_API int caslist_fl_check(struct caslist_fl *fl, size_t *nodes, size_t *clusters);
CASLIST_API const char *caslist_fl_check_strerror(int code);

#ifdef __cplusplus
}
#endif

/* Inline mode (CASLIST_INLINE, as for <caslist/list.h>): the free list's
 * operations compile into the caller too (<caslist/static/fl_ops.h>); the
 * descriptor pool and the audit stay in the library. */
#if defined(CASLIST_INLINE) && !defined(CASLIST_BUILDING)
#include <caslist/static/fl_ops.h>
#define caslist_fl_init CASLIST_LK_NS(caslist__fl_init)
#define caslist_fl_destroy CASLIST_LK_NS(caslist__fl_destroy)
#define caslist_fl_reserve CASLIST_LK_NS(caslist__fl_reserve)
#define caslist_fl_node_init CASLIST_LK_NS(caslist__fl_node_init)
#define caslist_fl_take CASLIST_LK_NS(caslist__fl_take)
#define caslist_fl_batch_next CASLIST_LK_NS(caslist__fl_batch_next)
#define caslist_fl_put CASLIST_LK_NS(caslist__fl_put)
#define caslist_fl_put_batch CASLIST_LK_NS(caslist__fl_put_batch)
#define caslist_fl_build_begin CASLIST_LK_NS(caslist__fl_build_begin)
#define caslist_fl_build_add CASLIST_LK_NS(caslist__fl_build_add)
#define caslist_fl_build_put CASLIST_LK_NS(caslist__fl_build_put)
#define caslist_fl_cache_put CASLIST_LK_NS(caslist__fl_cache_put)
#define caslist_fl_cache_flush CASLIST_LK_NS(caslist__fl_cache_flush)
#define caslist_fl_remove CASLIST_LK_NS(caslist__fl_remove)
#define caslist_fl_node_state CASLIST_LK_NS(caslist__fl_node_state)
#define caslist_fl_scan_begin CASLIST_LK_NS(caslist__fl_scan_begin)
#define caslist_fl_scan_end CASLIST_LK_NS(caslist__fl_scan_end)
#endif /* CASLIST_INLINE */

#endif /* CASLIST_FREELIST_H */
