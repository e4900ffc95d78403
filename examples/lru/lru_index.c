/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/lru_index.c - no LRU at all: the `index` implementation.
 * A hit does nothing, eviction takes random pool slots (random
 * replacement).  The rest of the program is the same, so this measures
 * the index, the pool and the value copy: everything but the LRU.
 */
#include "cache.h"
#include "common/rng.h"

static void index_lru_add(struct cache *c, struct obj *o)
{
	(void)c;
	(void)o;
}

static void index_lru_touch(struct tctx *t, struct obj *o)
{
	(void)t;
	(void)o;
}

/* No LRU: the index removal under the stripe lock was the claim. */
static bool index_lru_del_if_linked(struct tctx *t, struct obj *o)
{
	(void)t;
	(void)o;
	return true;
}

/* Random pool slots: the claim is the index removal, under the stripe
 * lock, of an object that is still indexed under the key we saw. */
static int index_lru_evict(struct tctx *t, int n)
{
	struct cache *c = t->c;
	int done = 0;

	for (int tries = 0; done < n && tries < 8 * n; tries++) {
		struct obj *o = pool_obj(c, splitmix64(&t->rng) % c->pool_n);
		/* Relaxed: a snapshot; re-read under the stripe lock below. */
		uint64_t ik = atomic_load_explicit(&o->ikey, memory_order_relaxed);
		struct stripe *s;
		bool own = false;

		if (ik == 0)
			continue;
		s = stripe_of(c, ik - 1);
		lock(&s->lock);
		if (atomic_load_explicit(&o->ikey, memory_order_relaxed) == ik) {
#ifndef LRU_MUTANT_SKIP_INDEX_REMOVE
			index_unlink(c, ik - 1, o);
			/* Relaxed: a count (see live_now). */
			atomic_fetch_sub_explicit(&c->live, 1, memory_order_relaxed);
#endif
			own = true;
		}
		unlock(&s->lock);
		if (own) {
			t->st.isolated++;
			t->st.evictions++;
			pool_free(t, o);
			done++;
		}
	}
	return done;
}

const struct lru_ops lru_index_ops = {
	.name = "index",
	.add = index_lru_add,
	.touch = index_lru_touch,
	.del_if_linked = index_lru_del_if_linked,
	.evict = index_lru_evict,	/* at random; no isolate, no audit */
};
