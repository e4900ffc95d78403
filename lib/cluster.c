/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/cluster.c - the descriptor pool.  Descriptors come in slabs of
 * SLAB_DESCS, are kept on fl->spare (itself a caslist list: pop_head and
 * add_head, no lock) and are returned to malloc only by
 * caslist_fl_destroy.  Type-stable memory is what makes a stale
 * node->cluster pointer safe to lock and re-check (doc/cluster.md, C3).
 * The pool cannot run dry: it grows; caslist_fl_reserve preallocates so
 * the put path never has to (live clusters <= free nodes).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cluster.h"

#define SLAB_DESCS 64

struct slab {
	struct slab *next;
	struct caslist_cluster d[SLAB_DESCS];
};

void caslist__cl_pool_init(struct caslist_fl *fl)
{
	caslist_init(&fl->spare);
	atomic_store_explicit(&fl->slabs, NULL, memory_order_relaxed);
	atomic_store_explicit(&fl->ndesc, 0, memory_order_relaxed);
}

/*
 * Allocate one slab; all but d[0] go to the spare list; returns &d[0].
 * How a descriptor's initialisation (calloc, then the stores below) reaches
 * the other threads that lock it - every cl_lock must happen after it, or
 * it is a data race with the calloc:
 *  - d[1..]: through fl->spare, add_head's release (caslist_lk_unlock) and the
 *    acquire CAS of the pop_head that takes it (caslist__cl_alloc);
 *  - d[0], and any descriptor once it is in use: through the pointers to
 *    it in its nodes, whose stores are releases (freelist.c: set_cluster,
 *    put_batch, build_add, put) and whose loads are acquires (cluster_of).
 *    A scanner (caslist_fl_node_state) reaches it that way and never
 *    through a list: a relaxed store there was the race test/fl_grow finds.
 */
static struct caslist_cluster *grow(struct caslist_fl *fl)
{
	struct slab *s = calloc(1, sizeof(*s));
	void *head;

	if (s == NULL) {
		fprintf(stderr, "caslist: caslist_fl: out of memory for cluster descriptors\n");
		abort();
	}
	for (int i = 0; i < SLAB_DESCS; i++) {
		/* Relaxed: the slab is private until published (above). */
		atomic_store_explicit(&s->d[i].lock, 0, memory_order_relaxed);
		s->d[i].state = CL_SPARE;
		caslist_node_init(&s->d[i].spare_link);
		if (i > 0)
			caslist_add_head(&fl->spare, &s->d[i].spare_link);
	}
	/* Push-only stack of slabs (popped only by destroy, quiescent), so
	 * no ABA.  Release: destroy's acquire load sees the slab contents. */
	head = atomic_load_explicit(&fl->slabs, memory_order_relaxed);
	do
		s->next = head;
	while (!atomic_compare_exchange_weak_explicit(&fl->slabs, &head, s, memory_order_release,
						      memory_order_relaxed));
	/* Relaxed: a statistic for caslist_fl_check (quiescent). */
	atomic_fetch_add_explicit(&fl->ndesc, SLAB_DESCS, memory_order_relaxed);
	return &s->d[0];
}

/* [F0] a descriptor off the pool (a caslist list: pop_head), BUILDING. */
struct caslist_cluster *caslist__cl_alloc(struct caslist_fl *fl, size_t nr,
					  struct caslist_fl_node *tail)
{
	struct caslist_node *n = caslist_pop_head(&fl->spare);
	struct caslist_cluster *c =
		n ? caslist_entry(n, struct caslist_cluster, spare_link) : grow(fl);

	/* Under its lock: a stale reader (a remover or putter that loaded
	 * an old node->cluster == c) may be locking c right now. */
	cl_lock(c);
	c->state = CL_BUILDING;
	c->nr = nr;
	c->tail = tail;
	cl_unlock(c);
	return c;
}

void caslist__cl_retire(struct caslist_fl *fl, struct caslist_cluster *c)
{
	cl_lock(c);
	c->state = CL_SPARE;
	c->nr = 0;
	c->tail = NULL;
	cl_unlock(c);
	caslist_add_head(&fl->spare, &c->spare_link);
}

void caslist__cl_pool_reserve(struct caslist_fl *fl, size_t n)
{
	while (atomic_load_explicit(&fl->ndesc, memory_order_relaxed) < n)
		caslist__cl_retire(fl, grow(fl));
}

void caslist__cl_pool_destroy(struct caslist_fl *fl)
{
	/* Acquire: pairs with the release push in grow. */
	struct slab *s = atomic_load_explicit(&fl->slabs, memory_order_acquire);

	while (s != NULL) {
		struct slab *next = s->next;

		free(s);
		s = next;
	}
	atomic_store_explicit(&fl->slabs, NULL, memory_order_relaxed);
}
