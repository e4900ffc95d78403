/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/cache.c - the cache: setup, get, set, and the key
 * distribution.
 *
 * get(key): under the key's stripe lock, find the object, copy its value
 * out, and do the LRU step (strict: rotate; lazy: set the accessed bit).
 * Then verify the copy.
 * set(key): fill a fresh object while it is private; under the stripe
 * lock, index it (replacing an old object of that key, if any), add it to
 * the LRU, and take the replaced object off the LRU (R2).  Then the
 * reclaim gate.  A set always allocates, as memcached does: a replace is a
 * second remover that can race with an evictor for the same object, the
 * race that caslist_del_if_linked settles.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cache.h"

const struct lru_ops *const lru_impls[NIMPL] = {
	[IMPL_INDEX] = &lru_index_ops,
	[IMPL_MUTEX] = &lru_mutex_ops,
	[IMPL_CASLIST] = &lru_caslist_ops,
	[IMPL_SHARDED] = &lru_sharded_ops,
};

/* ------------------------------------------------------------------ */
/* the key distribution: Zipf, rank 0 the most popular                 */

static double zeta(uint64_t n, double theta)
{
	double s = 0;

	for (uint64_t i = 1; i <= n; i++)
		s += 1.0 / pow((double)i, theta);
	return s;
}

/* zeta(n, theta) of the previous run: every run of one command line has
 * the same keys, and the sum costs O(n) pow() calls (seconds at the
 * largest capacity).  Only the main thread sets up runs. */
static struct {
	uint64_t n;
	double theta, zeta_n;
} zeta_memo;

static void zipf_init(struct cache *c, uint64_t n, double theta)
{
	c->nkeys = n;
	c->ztheta = theta;
	if (zeta_memo.n != n || zeta_memo.theta != theta) {
		zeta_memo.zeta_n = zeta(n, theta);
		zeta_memo.n = n;
		zeta_memo.theta = theta;
	}
	c->zeta_n = zeta_memo.zeta_n;
	c->zeta2 = zeta(2, theta);
	c->zalpha = 1.0 / (1.0 - theta);
	c->zeta_eta = (1.0 - pow(2.0 / (double)n, 1.0 - theta)) / (1.0 - c->zeta2 / c->zeta_n);
}

uint64_t zipf_next(const struct cache *c, uint64_t r)
{
	double u = (double)(r >> 11) * 0x1p-53;
	double uz = u * c->zeta_n;
	uint64_t k;

	if (uz < 1.0)
		return 0;
	if (uz < 1.0 + pow(0.5, c->ztheta))
		return 1;
	k = (uint64_t)((double)c->nkeys * pow(c->zeta_eta * u - c->zeta_eta + 1.0, c->zalpha));
	return k < c->nkeys ? k : c->nkeys - 1;
}

/* ------------------------------------------------------------------ */
/* setup                                                               */

int cache_init(struct cache *c, const struct config *cfg, enum impl impl, int nthreads)
{
	size_t nb = 1, ns;

	memset(c, 0, sizeof(*c));
	c->cfg = cfg;
	c->impl = impl;
	c->ops = lru_impls[impl];
	c->cap = cfg->capacity;
	c->high = cfg->reclaim == RECLAIM_THREAD ? c->cap + 2 * BATCH : c->cap;
	/* +1: the reclaim thread evicts but never inserts; count it anyway. */
	c->slack = c->high - c->cap + (size_t)nthreads;
	/* Pool: the bound on live, plus per thread (and the reclaimer): its
	 * stash, a batch of isolated victims that a replace may already have
	 * unindexed, one allocated-not-yet-indexed and one replaced object. */
	c->pool_n = c->cap + c->slack + (size_t)(nthreads + 1) * (STASH_MAX + BATCH + 2);
	c->obj_size = (sizeof(struct obj) + cfg->value_size + 63) & ~(size_t)63;
	c->pool_bytes = c->pool_n * c->obj_size;
	/* Anonymous memory: zeroed by the kernel page by page as the loop
	 * below first touches it (no memset of gigabytes at the largest
	 * capacity), and page-aligned, so every object is on its own lines. */
	c->pool = mmap(NULL, c->pool_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (c->pool == MAP_FAILED)
		c->pool = NULL;
	else	/* fewer page faults at large capacities; a hint only */
		(void)madvise(c->pool, c->pool_bytes, MADV_HUGEPAGE);
	while (nb < 2 * c->cap)
		nb <<= 1;
	ns = nb < 4096 ? nb : 4096;
	c->buckets = calloc(nb, sizeof(*c->buckets));
	c->bucket_mask = nb - 1;
	c->stripes = aligned_alloc(64, ns * sizeof(*c->stripes));
	c->stripe_mask = ns - 1;
	c->free_stack = malloc(c->pool_n * sizeof(*c->free_stack));
	c->nshards = impl == IMPL_SHARDED ? cfg->shards : 1;
	c->shards = aligned_alloc(64, c->nshards * sizeof(*c->shards));
	if (!c->pool || !c->buckets || !c->stripes || !c->free_stack || !c->shards) {
		fprintf(stderr, "lrucache: out of memory for capacity %zu\n", c->cap);
		return -1;
	}
	for (size_t i = 0; i < ns; i++)
		pthread_mutex_init(&c->stripes[i].lock, NULL);
	for (unsigned i = 0; i < c->nshards; i++) {
		pthread_mutex_init(&c->shards[i].lock, NULL);
		dlist_init(&c->shards[i].head);
	}
	caslist_init(&c->clru);
	pthread_mutex_init(&c->free_lock, NULL);
	pthread_mutex_init(&c->reclaim_lock, NULL);
	pthread_cond_init(&c->reclaim_cond, NULL);
	for (size_t i = c->pool_n; i-- > 0;) {
		struct obj *o = pool_obj(c, i);

		o->id = (uint32_t)i;
		/* Relaxed: before any thread exists (published by pthread_create). */
		atomic_store_explicit(&o->pooled, 1, memory_order_relaxed);
		caslist_node_init(&o->node);
		c->free_stack[c->free_n++] = o;
	}
	zipf_init(c, 10 * (uint64_t)c->cap, cfg->zipf);
	return 0;
}

void cache_destroy(struct cache *c)
{
	for (size_t i = 0; i <= c->stripe_mask; i++)
		pthread_mutex_destroy(&c->stripes[i].lock);
	for (unsigned i = 0; i < c->nshards; i++)
		pthread_mutex_destroy(&c->shards[i].lock);
	pthread_mutex_destroy(&c->free_lock);
	pthread_mutex_destroy(&c->reclaim_lock);
	pthread_cond_destroy(&c->reclaim_cond);
	munmap(c->pool, c->pool_bytes);
	free(c->buckets);
	free(c->stripes);
	free(c->free_stack);
	free(c->shards);
}

/* ------------------------------------------------------------------ */
/* get / set                                                           */

void cache_get(struct tctx *t, uint64_t key)
{
	struct cache *c = t->c;
	struct stripe *s = stripe_of(c, key);
	struct obj *o;

	t->st.gets++;
	lock(&s->lock);
	o = index_find(c, key);
	if (o != NULL) {
		memcpy(t->buf, o->value, c->cfg->value_size);	/* copy-out (R3) */
		if (c->cfg->policy == POLICY_STRICT ||
		    (c->cfg->policy == POLICY_BATCHED && c->ops->touch_batched == NULL))
			c->ops->touch(t, o);
		else if (c->cfg->policy == POLICY_BATCHED)
			c->ops->touch_batched(t, o);
		else if (!atomic_load_explicit(&o->accessed, memory_order_relaxed))
			/* Relaxed: a hint (see struct obj); load first so hot
			 * hits do not all write the line. */
			atomic_store_explicit(&o->accessed, 1, memory_order_relaxed);
	}
	unlock(&s->lock);
	if (o != NULL) {
		t->st.hits++;
		if (!value_ok(t->buf, c->cfg->value_size, key))
			t->st.bad_values++;
	}
}

void cache_set(struct tctx *t, uint64_t key)
{
	struct cache *c = t->c;
	struct stripe *s = stripe_of(c, key);
	struct obj *o = pool_alloc(t), *old;
	bool won_old = false, own_old = false;

	t->st.sets++;
	if (o == NULL) {	/* cannot happen within the slack: a failure */
		t->st.alloc_fail++;
		return;
	}
	o->key = key;
	o->hnext = NULL;
	o->shard = c->nshards > 1 ? (unsigned)((khash(key) >> 40) % c->nshards) : 0;
	atomic_store_explicit(&o->accessed, 0, memory_order_relaxed);	/* hint */
	value_fill(o->value, c->cfg->value_size, key, t->st.sets);

	lock(&s->lock);
	old = index_find(c, key);
	if (old != NULL)
		index_replace(c, key, old, o);
	else
		index_insert(c, key, o);
	c->ops->add(c, o);	/* R2: in the same critical section */
	if (old != NULL) {
#ifndef LRU_MUTANT_SKIP_LRU_DEL
		won_old = c->ops->del_if_linked(t, old);
		if (!won_old)
			t->st.lost_races++;
#endif
		own_old = won_old;
#ifdef LRU_MUTANT_IGNORE_DEL_RESULT
		own_old = true;
#endif
	}
	unlock(&s->lock);

	if (old != NULL) {
		t->st.replaces++;
		if (won_old)
			t->st.replace_owned++;	/* a claim (R1), counted where won */
		if (own_old)
			pool_free(t, old);
	} else {
		t->st.inserts++;
		reclaim_gate(t);
	}
}
