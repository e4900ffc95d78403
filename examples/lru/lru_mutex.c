/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/lru_mutex.c - the LRU as plain lists under mutexes: one
 * list under one pthread mutex (`mutex`, the big hammer), or --shards
 * lists with an object's shard from its key (`sharded`, approximate LRU:
 * eviction round-robins the shards).  The on-list state is the mlinked
 * flag, changed only under the shard's lock: the thread that clears it
 * owns the object (R1).
 */
#include "cache.h"

static inline struct shard *shard_of(struct cache *c, const struct obj *o)
{
	return &c->shards[o->shard];
}

static void mutex_lru_add(struct cache *c, struct obj *o)
{
	struct shard *s = shard_of(c, o);

	lock(&s->lock);
	dlist_add_after(&s->head, &o->m);
	o->mlinked = true;
	unlock(&s->lock);
}

static void mutex_lru_touch(struct tctx *t, struct obj *o)
{
	struct shard *s = shard_of(t->c, o);

	lock(&s->lock);
	if (!o->mlinked)
		t->st.rotate_gone++;
	else if (s->head.next != &o->m)
		dlist_move_head(&s->head, &o->m);
	unlock(&s->lock);
}

/* Batched policy: hits are remembered and rotated 14 at a time under one
 * lock hold (the same batching as caslist's).  A remembered object may
 * have been evicted or even reused since: rotating only objects still on
 * the list keeps the on-LRU state as it is (R1), and pool objects are
 * never unmapped during a run. */
static void mutex_lru_flush(struct tctx *t)
{
	struct shard *s = &t->c->shards[0];

	if (t->nqueued == 0)
		return;
	lock(&s->lock);
	for (int i = 0; i < t->nqueued; i++)
		if (t->queued[i]->mlinked)
			dlist_move_head(&s->head, &t->queued[i]->m);
	unlock(&s->lock);
	t->nqueued = 0;
}

static void mutex_lru_touch_batched(struct tctx *t, struct obj *o)
{
	if (t->nqueued == CASLIST_BATCH_MAX - 1)
		mutex_lru_flush(t);
	t->queued[t->nqueued++] = o;
}

static bool mutex_lru_del_if_linked(struct tctx *t, struct obj *o)
{
	struct shard *s = shard_of(t->c, o);
	bool won;

	lock(&s->lock);
	won = o->mlinked;
	if (won) {
		dlist_del(&o->m);
		o->mlinked = false;
	}
	unlock(&s->lock);
	return won;
}

/* One lock hold per batch, on one shard; move on to the next shard only
 * if this one is empty.  Lazy: the clock scan inside the lock hold. */
static int mutex_lru_isolate(struct tctx *t, struct obj **out, int n)
{
	struct cache *c = t->c;
	bool lazy = c->cfg->policy == POLICY_LAZY;
	int k = 0, chances = 0;

	for (unsigned tries = 0; tries < c->nshards && k == 0; tries++) {
		struct shard *s = &c->shards[t->rr++ % c->nshards];

		lock(&s->lock);
		while (k < n && !dlist_empty(&s->head)) {
			struct obj *o = dlist_entry(s->head.prev, struct obj, m);

			if (lazy && chances < MAX_CHANCES && take_accessed(o)) {
				dlist_move_head(&s->head, &o->m);
				chances++;
				t->st.second_chances++;
				continue;
			}
			dlist_del(&o->m);
			o->mlinked = false;
			out[k++] = o;
		}
		unlock(&s->lock);
	}
	return k;
}

static size_t mutex_lru_audit(struct cache *c, struct checks *ck, size_t *dups)
{
	size_t broken = 0, cycles = 0, n = 0;

	for (unsigned s = 0; s < c->nshards; s++) {
		struct dlist *h = &c->shards[s].head;
		size_t steps = 0;

		for (struct dlist *m = h->next; m != h && steps <= c->pool_n; m = m->next, steps++) {
			struct obj *o = dlist_entry(m, struct obj, m);

			broken += m->next->prev != m || !o->mlinked || o->shard != s;
			mark(o, SEEN_LRU, dups);
			n++;
		}
		cycles += steps > c->pool_n;
	}
	check(ck, broken == 0 && cycles == 0, "mutex lists: %zu broken links or flags, %zu cycles",
	      broken, cycles);
	return n;
}

/* The mutex lists' operations; sharded: the same lists, --shards of
 * them (cache_init sizes c->shards), with no batched touch. */
#define MUTEX_LRU_OPS                                                          \
	.add = mutex_lru_add, .touch = mutex_lru_touch,                        \
	.del_if_linked = mutex_lru_del_if_linked, .evict = reclaim_isolated,   \
	.isolate = mutex_lru_isolate, .audit = mutex_lru_audit

const struct lru_ops lru_mutex_ops = {
	.name = "mutex",
	MUTEX_LRU_OPS,
	.touch_batched = mutex_lru_touch_batched,
	.flush = mutex_lru_flush,
};

const struct lru_ops lru_sharded_ops = {
	.name = "sharded",
	MUTEX_LRU_OPS,
};
