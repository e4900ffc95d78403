/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/hashtable.c - the index: a chained hash table with 2 x capacity
 * buckets (a power of two) and up to 4096 stripe locks.  The stripe count
 * divides the bucket count, so one bucket's chain is always under the same
 * lock.  Every call here runs under the stripe lock of its key.
 */
#include "cache.h"

struct obj *index_find(struct cache *c, uint64_t key)
{
	for (struct obj *o = *bucket_of(c, key); o != NULL; o = o->hnext)
		if (o->key == key)
			return o;
	return NULL;
}

/* The link in key's chain that points to o. */
static struct obj **index_link_to(struct cache *c, uint64_t key, struct obj *o)
{
	struct obj **pp = bucket_of(c, key);

	while (*pp != o)
		pp = &(*pp)->hnext;
	return pp;
}

void index_unlink(struct cache *c, uint64_t key, struct obj *o)
{
	*index_link_to(c, key, o) = o->hnext;
	o->hnext = NULL;
	/* Relaxed: written under the stripe lock, which orders it for every
	 * reader that holds the lock; the index impl's unlocked snapshot
	 * re-reads it under the lock before acting. */
	atomic_store_explicit(&o->ikey, 0, memory_order_relaxed);
}

void index_replace(struct cache *c, uint64_t key, struct obj *old, struct obj *o)
{
	struct obj **pp = index_link_to(c, key, old);

	o->hnext = old->hnext;
	*pp = o;
	old->hnext = NULL;
	/* Relaxed: see index_unlink. */
	atomic_store_explicit(&old->ikey, 0, memory_order_relaxed);
	atomic_store_explicit(&o->ikey, key + 1, memory_order_relaxed);
}

void index_insert(struct cache *c, uint64_t key, struct obj *o)
{
	struct obj **b = bucket_of(c, key);
	/* Relaxed: a count (see live_now). */
	size_t l = atomic_fetch_add_explicit(&c->live, 1, memory_order_relaxed) + 1;
	/* Relaxed load and CAS: a running maximum for the slack check, read
	 * after the threads are joined; it orders nothing. */
	size_t m = atomic_load_explicit(&c->max_live, memory_order_relaxed);

	while (l > m && !atomic_compare_exchange_weak_explicit(&c->max_live, &m, l,
							       memory_order_relaxed,
							       memory_order_relaxed))
		;
	o->hnext = *b;
	*b = o;
	/* Relaxed: see index_unlink. */
	atomic_store_explicit(&o->ikey, key + 1, memory_order_relaxed);
}
