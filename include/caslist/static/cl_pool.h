/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/cl_pool.h> - the descriptor pool of the free list, as static inline
 * caslist_lk_cl_* functions (compiled into lib/freelist.c, and into the
 * caller in inline mode: <caslist/static/cl_pool.h>).
 * Descriptors come in slabs of CASLIST_LK_SLAB_DESCS, are kept on
 * fl->spare (itself a caslist list: pop_head and add_head, no lock) and
 * are returned to malloc only by caslist_fl_destroy.  Type-stable memory
 * is what makes a stale node->cluster pointer safe to lock and re-check
 * (doc/cluster.md, C3).  The pool cannot run dry: it grows;
 * caslist_fl_reserve preallocates so the put path never has to (live
 * clusters <= free nodes).  Inline with the rest: a descriptor that one
 * thread retires and another allocates is handed over through the spare
 * list's atomics, which a user's TSan build must see too.
 */
#ifndef CASLIST_STATIC_CL_POOL_H
#define CASLIST_STATIC_CL_POOL_H

#include <stdio.h>
#include <stdlib.h>

#include "cluster.h"
#include "list_ops.h"

CASLIST_LK_BEGIN

#define CASLIST_LK_SLAB_DESCS 64

struct caslist_lk_slab {
	struct caslist_lk_slab *next;
	struct caslist_cluster d[CASLIST_LK_SLAB_DESCS];
};

static inline void caslist_lk_cl_pool_init(struct caslist_fl *fl)
{
	caslist__init(&fl->spare);
	atomic_store_explicit(&fl->slabs, NULL, memory_order_relaxed);
	atomic_store_explicit(&fl->ndesc, 0, memory_order_relaxed);
}

/*
 * Allocate one slab; all but d[0] go to the spare list; returns &d[0].
 * How a descriptor's initialisation (calloc, then the stores below) reaches
 * the other threads that lock it - every caslist_lk_cl_lock must happen after it, or
 * it is a data race with the calloc:
 *  - d[1..]: through fl->spare, add_head's release (caslist_lk_unlock) and the
 *    acquire CAS of the pop_head that takes it (caslist_lk_cl_alloc);
 *  - d[0], and any descriptor once it is in use: through the pointers to
 *    it in its nodes, whose stores of a descriptor are releases (caslist_lk_set_cluster:
 *    put_batch, build_add, put) and whose loads are acquires (caslist_lk_cluster_of).
 *    A scanner (caslist_fl_node_state) reaches it that way and never
 *    through a list: a relaxed store there was the race test/stress/fl_grow finds.
 */
static inline struct caslist_cluster *caslist_lk_cl_grow(struct caslist_fl *fl)
{
	struct caslist_lk_slab *s = CASLIST_LK_VCAST(struct caslist_lk_slab *, calloc(1, sizeof(*s)));
	void *head;


	if (s == NULL) {
		fprintf(stderr, "caslist: caslist_fl: out of memory for cluster descriptors\n");
		abort();
	}
	for (int i = 0; i < CASLIST_LK_SLAB_DESCS; i++) {
		/* Relaxed: the slab is private until published (above). */
		atomic_store_explicit(&s->d[i].lock, 0, memory_order_relaxed);
		s->d[i].state = CASLIST_LK_CL_SPARE;
		caslist__node_init(&s->d[i].spare_link);
		if (i > 0)
			caslist__add_head(&fl->spare, &s->d[i].spare_link);
	}
	/* Push-only stack of slabs (popped only by destroy, quiescent), so
	 * no ABA.  Relaxed (G2): only caslist_fl_destroy reads the stack, and
	 * it runs quiescent, after the joins that order every grow before it. */
	head = atomic_load_explicit(&fl->slabs, memory_order_relaxed);
	do
		s->next = CASLIST_LK_VCAST(struct caslist_lk_slab *, head);
	while (!atomic_compare_exchange_weak_explicit(&fl->slabs, &head, s, memory_order_relaxed,
						      memory_order_relaxed));
	/* Relaxed: a statistic for caslist_fl_check (quiescent). */
	atomic_fetch_add_explicit(&fl->ndesc, CASLIST_LK_SLAB_DESCS, memory_order_relaxed);
	return &s->d[0];
}

/* [F0] a descriptor off the pool (a caslist list: pop_head), BUILDING. */
static inline struct caslist_cluster *caslist_lk_cl_alloc(struct caslist_fl *fl, size_t nr,
							 struct caslist_fl_node *tail)
{
	struct caslist_node *n = caslist__pop_head(&fl->spare);
	struct caslist_cluster *c =
		n ? caslist_entry(n, struct caslist_cluster, spare_link) : caslist_lk_cl_grow(fl);

	/* Under its lock: a stale reader (a remover or putter that loaded
	 * an old node->cluster == c) may be locking c right now. */
	caslist_lk_cl_lock(c);
	c->state = CASLIST_LK_CL_BUILDING;
	c->nr = nr;
	c->tail = tail;
	caslist_lk_cl_unlock(c);
	return c;
}

static inline void caslist_lk_cl_retire(struct caslist_fl *fl, struct caslist_cluster *c)
{
	caslist_lk_cl_lock(c);
	c->state = CASLIST_LK_CL_SPARE;
	c->nr = 0;
	c->tail = NULL;
	caslist_lk_cl_unlock(c);
	caslist__add_head(&fl->spare, &c->spare_link);
}

static inline void caslist_lk_cl_pool_reserve(struct caslist_fl *fl, size_t n)
{
	while (atomic_load_explicit(&fl->ndesc, memory_order_relaxed) < n)
		caslist_lk_cl_retire(fl, caslist_lk_cl_grow(fl));
}

static inline void caslist_lk_cl_pool_destroy(struct caslist_fl *fl)
{
	/* Relaxed (G2): quiescent by contract; the caller's joins order the
	 * pushes before this. */
	struct caslist_lk_slab *s =
		CASLIST_LK_VCAST(struct caslist_lk_slab *,
			 atomic_load_explicit(&fl->slabs, memory_order_relaxed));

	while (s != NULL) {
		struct caslist_lk_slab *next = s->next;

		free(s);
		s = next;
	}
	atomic_store_explicit(&fl->slabs, NULL, memory_order_relaxed);
}

CASLIST_LK_END

#endif /* CASLIST_STATIC_CL_POOL_H */
