/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/lrucache.c - a fixed-capacity concurrent object cache whose
 * LRU list needs no list lock, with the same cache on a mutex list as the
 * peer.  doc/lru.md has the design, the invariants and the figures.
 *
 *   lrucache run --impl LIST --threads LIST (--seconds S | --ops N)
 *                [--policy strict|lazy] [--reclaim inline|thread]
 *                [--zipf S] [--capacity N] [--get-ratio R] [--value-size B]
 *                [--shards N] [--seed N] [--json]
 *
 * The cache: an index (a striped-lock hash table of our own, see doc/lru.md
 * for why not liburcu's lfht), a fixed pool of objects (type-stable memory,
 * never unmapped while the cache exists), and an LRU list, one of
 *   mutex    one pthread mutex around a plain doubly-linked list;
 *   caslist  a <caslist/list.h> list: no list lock;
 *   sharded  16 (--shards) mutex lists, an object's shard from its key;
 *            eviction round-robins the shards (approximate LRU);
 *   index    no LRU at all (random eviction): the cost of the index, pool
 *            and value copy, i.e. the part that is not the subject.
 *
 * Ownership (doc/lru.md, "Invariants"):
 *   R1  Removing an object from the LRU is the claim on it: the one thread
 *       whose pop_tail / del_if_linked took it off the list owns its
 *       teardown (index removal if still indexed, then the pool).  Rotators
 *       (move_head, second chance) never change the on-LRU state.
 *   R2  An object is added to the LRU, and a replaced object is removed
 *       from it, under the stripe lock of its key, in the same critical
 *       section that changes the index.  So, at every stripe-lock boundary:
 *       indexed <=> on the LRU, or claimed by an evictor (R1) that has not
 *       yet taken the stripe lock.
 *   R3  Readers (get) find an object and copy its value out under the
 *       stripe lock; the object is reused only after it has left the index
 *       under that lock, so no reader can see a reused object's value.
 *   R4  The caslist memory rule (doc/protocol.md section 6) holds because
 *       the pool is type-stable: a stale evictor may CAS a reused node;
 *       the CAS is harmless (I3) and the memory is still a caslist node.
 *
 * Every run ends with the conservation check (quiescent, threads joined);
 * a failure prints "lrucache: FAIL: ..." and the exit status is 1.
 * -D mutants (examples/lru/mutants.sh) each skip one step and must fail:
 *   LRU_MUTANT_SKIP_INDEX_REMOVE  the evictor frees without unindexing
 *   LRU_MUTANT_SKIP_LRU_DEL       a replace leaves the old object on the LRU
 *   LRU_MUTANT_NO_RECLAIM         sets never reclaim
 *   LRU_MUTANT_IGNORE_DEL_RESULT  a replace frees the old object even when
 *                                 an evictor won it (two owners)
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <caslist/caslist.h>

#include "../../test/util.h"

/* ------------------------------------------------------------------ */
/* configuration                                                       */

enum impl { IMPL_INDEX, IMPL_MUTEX, IMPL_CASLIST, IMPL_SHARDED, NIMPL };
static const char *const impl_name[NIMPL] = { "index", "mutex", "caslist", "sharded" };

enum policy { POLICY_STRICT, POLICY_LAZY };
enum reclaim { RECLAIM_INLINE, RECLAIM_THREAD };

#define MAX_RUNS 64
#define BATCH 32		/* isolate batch (the kernel's SWAP_CLUSTER_MAX) */
#define STASH_K 16		/* per-thread pool cache: refill/flush unit */
#define STASH_MAX (2 * STASH_K)
#define MAX_THREADS 1024

struct config {
	int impls[NIMPL], nimpls;
	int threads[MAX_RUNS], nthreads;
	double seconds;
	long long ops;		/* per thread; 0: timed run */
	enum policy policy;
	enum reclaim reclaim;
	double zipf;
	size_t capacity;
	double get_ratio;
	size_t value_size;
	unsigned shards;
	uint64_t seed;
	bool json;
	bool widen;		/* --widen-window: yield between isolate and teardown */
};

/* ------------------------------------------------------------------ */
/* objects, pool, index                                                */

struct mlink {			/* mutex/sharded list link, under its shard lock */
	struct mlink *next, *prev;
};

struct obj {
	struct caslist_node node;	/* caslist: the LRU link */
	struct mlink m;			/* mutex/sharded: under the shard lock */
	bool mlinked;			/* mutex/sharded: on the list (shard lock) */
	unsigned shard;			/* mutex/sharded: written while private */
	struct obj *hnext;		/* index chain, under the stripe lock */
	/* key + 1 while in the index, else 0.  Written only under the
	 * stripe lock of the key; read under it, except by the index impl's
	 * random evictor, which takes a snapshot and re-reads under the lock. */
	_Atomic uint64_t ikey;
	/* lazy policy: referenced since the last scan.  A hint only: relaxed
	 * everywhere, no data is published through it. */
	_Atomic int accessed;
	/* 1 while in the free pool.  Relaxed exchange: a self-check that
	 * catches an object freed by two owners; it orders nothing (the pool
	 * mutex does). */
	_Atomic int pooled;
	uint64_t key;			/* written while private (R1-R3) */
	uint32_t id;			/* pool index, fixed */
	unsigned char seen;		/* end check only (quiescent) */
	unsigned char value[];		/* value_size bytes, immutable while indexed */
};

struct stripe {
	pthread_mutex_t lock;
} __attribute__((aligned(64)));

struct shard {
	pthread_mutex_t lock;
	struct mlink head;
} __attribute__((aligned(64)));

struct stats {
	uint64_t ops, gets, hits, sets, inserts, replaces;
	uint64_t isolated;	/* objects this thread took off the LRU (R1) */
	uint64_t evictions;	/* ... of which were still indexed: capacity evictions */
	uint64_t second_chances, lost_races, rotate_gone, bad_values, alloc_fail;
	uint64_t gate_waits, allocs, frees, replace_owned, double_frees;
};

struct cache;

struct tctx {
	struct cache *c;
	int id;
	uint64_t rng;
	struct obj *stash[STASH_MAX];
	int nstash;
	unsigned rr;			/* sharded eviction: next shard */
	unsigned char *buf;		/* get: copied-out value */
	struct stats st;
} __attribute__((aligned(64)));

struct cache {
	const struct config *cfg;
	enum impl impl;
	size_t cap, high;		/* evict above cap; setters wait above high */
	size_t slack;			/* documented bound: live <= cap + slack */
	size_t obj_size, pool_n;
	unsigned char *pool;
	struct obj **buckets;
	size_t bucket_mask;
	struct stripe *stripes;
	size_t stripe_mask;
	_Atomic size_t live;		/* objects in the index */
	_Atomic size_t max_live;
	/* free pool: a stack under one mutex, refilled/flushed in STASH_K */
	pthread_mutex_t free_lock;
	struct obj **free_stack;
	size_t free_n;
	/* LRUs */
	struct caslist_list clru;
	struct shard *shards;
	unsigned nshards;
	/* reclaim thread */
	pthread_mutex_t rc_lock;
	pthread_cond_t rc_cond;
	_Atomic int rc_sleeping;
	_Atomic int stop;
	/* Zipf (Gray et al., "Quickly generating billion-record synthetic
	 * databases", SIGMOD 1994; the YCSB generator) */
	uint64_t nkeys;
	double zalpha, zeta_n, zeta2, zeta_eta, ztheta;
};

static inline struct obj *pool_obj(const struct cache *c, size_t i)
{
	return (struct obj *)(void *)(c->pool + i * c->obj_size);
}

static inline uint64_t khash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	return k ^ (k >> 33);
}

static inline struct stripe *stripe_of(const struct cache *c, uint64_t key)
{
	return &c->stripes[khash(key) & c->stripe_mask];
}

/* The bucket mask is a multiple of the stripe mask, so a bucket's chain
 * is always under the same stripe lock. */
static inline struct obj **bucket_of(const struct cache *c, uint64_t key)
{
	return &c->buckets[khash(key) & c->bucket_mask];
}

static inline void lock(pthread_mutex_t *m)
{
	pthread_mutex_lock(m);
}

static inline void unlock(pthread_mutex_t *m)
{
	pthread_mutex_unlock(m);
}

/* Under the stripe lock of key. */
static struct obj *index_find(struct cache *c, uint64_t key)
{
	for (struct obj *o = *bucket_of(c, key); o != NULL; o = o->hnext)
		if (o->key == key)
			return o;
	return NULL;
}

/* Under the stripe lock of key: unlink o (which is in the chain). */
static inline void index_unlink(struct cache *c, uint64_t key, struct obj *o)
{
	struct obj **pp = bucket_of(c, key);

	while (*pp != o)
		pp = &(*pp)->hnext;
	*pp = o->hnext;
	o->hnext = NULL;
	/* Relaxed: written under the stripe lock, which orders it for every
	 * reader that holds the lock; the index impl's unlocked snapshot
	 * re-reads it under the lock before acting. */
	atomic_store_explicit(&o->ikey, 0, memory_order_relaxed);
}

static struct obj *pool_alloc(struct tctx *t)
{
	struct cache *c = t->c;
	struct obj *o;

	if (t->nstash == 0) {
		lock(&c->free_lock);
		while (t->nstash < STASH_K && c->free_n > 0)
			t->stash[t->nstash++] = c->free_stack[--c->free_n];
		unlock(&c->free_lock);
		if (t->nstash == 0)
			return NULL;
	}
	t->st.allocs++;
	o = t->stash[--t->nstash];
	atomic_store_explicit(&o->pooled, 0, memory_order_relaxed);	/* see struct obj */
	return o;
}

static void pool_flush(struct tctx *t, int keep)
{
	struct cache *c = t->c;

	lock(&c->free_lock);
	while (t->nstash > keep)
		c->free_stack[c->free_n++] = t->stash[--t->nstash];
	unlock(&c->free_lock);
}

static void pool_free(struct tctx *t, struct obj *o)
{
	/* Relaxed: see struct obj.  A second owner freeing o finds 1. */
	if (atomic_exchange_explicit(&o->pooled, 1, memory_order_relaxed)) {
		t->st.double_frees++;
		return;		/* keep the pool consistent; the run fails */
	}
	if (t->nstash == STASH_MAX)
		pool_flush(t, STASH_K);
	t->stash[t->nstash++] = o;
	t->st.frees++;
}

/* Values: word 0 = key, word 1 = version, the rest a fill, the last word
 * a check of (key, version).  A reader that sees another key's bytes, or a
 * half-written value, fails verify. */
static inline uint64_t vcheck(uint64_t key, uint64_t ver)
{
	return khash(key ^ (ver * 0x9e3779b97f4a7c15ULL)) | 1;
}

static void value_fill(unsigned char *v, size_t n, uint64_t key, uint64_t ver)
{
	uint64_t ck = vcheck(key, ver);

	memcpy(v, &key, 8);
	memcpy(v + 8, &ver, 8);
	memset(v + 16, (int)(ck & 0xff), n - 24);
	memcpy(v + n - 8, &ck, 8);
}

static bool value_ok(const unsigned char *v, size_t n, uint64_t key)
{
	uint64_t k, ver, ck;

	memcpy(&k, v, 8);
	memcpy(&ver, v + 8, 8);
	memcpy(&ck, v + n - 8, 8);
	return k == key && ck == vcheck(key, ver) && v[16] == (unsigned char)(ck & 0xff);
}

/* ------------------------------------------------------------------ */
/* the LRU implementations                                             */

static inline struct obj *obj_of_node(struct caslist_node *n)
{
	return caslist_entry(n, struct obj, node);
}

static inline struct obj *obj_of_mlink(struct mlink *m)
{
	return (struct obj *)(void *)((char *)m - offsetof(struct obj, m));
}

static inline void m_unlink(struct obj *o)
{
	o->m.prev->next = o->m.next;
	o->m.next->prev = o->m.prev;
	o->m.next = o->m.prev = NULL;
}

static inline void m_add_head(struct shard *s, struct obj *o)
{
	o->m.next = s->head.next;
	o->m.prev = &s->head;
	s->head.next->prev = &o->m;
	s->head.next = &o->m;
}

/* o private -> on the LRU, most recently used.  Under o's stripe lock (R2). */
static void lru_add(struct cache *c, struct obj *o)
{
	struct shard *s;

	switch (c->impl) {
	case IMPL_CASLIST:
		caslist_add_head(&c->clru, &o->node);
		break;
	case IMPL_MUTEX:
	case IMPL_SHARDED:
		s = &c->shards[o->shard];
		lock(&s->lock);
		m_add_head(s, o);
		o->mlinked = true;
		unlock(&s->lock);
		break;
	default:
		break;
	}
}

/* Strict policy hit: rotate o to the head if it is still on the LRU.
 * Under o's stripe lock, so o is not reused meanwhile (R3). */
static void lru_touch(struct tctx *t, struct obj *o)
{
	struct cache *c = t->c;
	struct shard *s;

	switch (c->impl) {
	case IMPL_CASLIST:
		/* ENOENT: an evictor has claimed o (R1) and waits for our
		 * stripe lock; nothing to rotate. */
		if (caslist_move_head(&c->clru, &o->node) == CASLIST_ENOENT)
			t->st.rotate_gone++;
		break;
	case IMPL_MUTEX:
	case IMPL_SHARDED:
		s = &c->shards[o->shard];
		lock(&s->lock);
		if (!o->mlinked) {
			t->st.rotate_gone++;
		} else if (s->head.next != &o->m) {
			m_unlink(o);
			m_add_head(s, o);
		}
		unlock(&s->lock);
		break;
	default:
		break;
	}
}

/* A replace takes the old object off the LRU if no evictor has: true =
 * the caller won it (R1) and owns its teardown.  Under the stripe lock. */
static inline bool lru_del_if_linked(struct tctx *t, struct obj *o)
{
	struct cache *c = t->c;
	struct shard *s;
	bool won = false;

	switch (c->impl) {
	case IMPL_CASLIST:
		won = caslist_del_if_linked(&o->node);
		break;
	case IMPL_MUTEX:
	case IMPL_SHARDED:
		s = &c->shards[o->shard];
		lock(&s->lock);
		won = o->mlinked;
		if (won) {
			m_unlink(o);
			o->mlinked = false;
		}
		unlock(&s->lock);
		break;
	default:
		won = true;	/* no LRU: the index removal was the claim */
		break;
	}
	if (!won)
		t->st.lost_races++;
	return won;
}

/* The second-chance scan gives at most this many second chances per
 * isolate call, then evicts regardless (getters keep setting bits). */
#define MAX_CHANCES (4 * BATCH)

/* Isolate up to n victims from the tail into out[] (the kernel's
 * isolate_lru_pages).  Returns how many; each is now owned (R1). */
static int lru_isolate(struct tctx *t, struct obj **out, int n)
{
	struct cache *c = t->c;
	bool lazy = c->cfg->policy == POLICY_LAZY;
	int k = 0, chances = 0;

	if (c->impl == IMPL_CASLIST && !lazy) {
		while (k < n) {
			struct caslist_node *v = caslist_pop_tail(&c->clru);

			if (v == NULL)
				break;
			out[k++] = obj_of_node(v);
		}
	} else if (c->impl == IMPL_CASLIST) {
		struct caslist_node *h = &c->clru.head;

		while (k < n) {
			/* Peek at the tail: take and release the tail's link
			 * (L(pred(head)); nothing held, so waiting is allowed).
			 * The pointer is a snapshot: the node may be rotated,
			 * claimed or even reused before we act on it, which
			 * the calls below tolerate (R4). */
			struct caslist_node *v = caslist_link_lock_prev(h);
			struct obj *o;

			caslist_link_unlock(v, h);
			if (v == h)
				break;	/* empty */
			o = obj_of_node(v);
			/* Relaxed: a hint (see struct obj). */
			if (chances < MAX_CHANCES &&
			    atomic_load_explicit(&o->accessed, memory_order_relaxed) &&
			    atomic_exchange_explicit(&o->accessed, 0, memory_order_relaxed)) {
				/* Second chance: rotate, the on-LRU state is
				 * unchanged; ENOENT if another evictor took it. */
				(void)caslist_move_head(&c->clru, v);
				chances++;
				t->st.second_chances++;
				continue;
			}
			/* Racing evictors (and replaces) may target v: exactly
			 * one del_if_linked wins it (protocol section 6). */
			if (caslist_del_if_linked(v))
				out[k++] = o;
			else
				t->st.lost_races++;
		}
	} else {
		/* mutex / sharded: one lock hold per batch, on one shard;
		 * move on to the next shard only if this one is empty. */
		for (unsigned tries = 0; tries < c->nshards && k == 0; tries++) {
			struct shard *s = &c->shards[t->rr++ % c->nshards];

			lock(&s->lock);
			while (k < n && s->head.prev != &s->head) {
				struct obj *o = obj_of_mlink(s->head.prev);

				if (lazy && chances < MAX_CHANCES &&
				    atomic_load_explicit(&o->accessed, memory_order_relaxed) &&
				    atomic_exchange_explicit(&o->accessed, 0,
							     memory_order_relaxed)) {
					m_unlink(o);
					m_add_head(s, o);
					chances++;
					t->st.second_chances++;
					continue;
				}
				m_unlink(o);
				o->mlinked = false;
				out[k++] = o;
			}
			unlock(&s->lock);
		}
	}
	t->st.isolated += (uint64_t)k;
	return k;
}

/* ------------------------------------------------------------------ */
/* reclaim                                                             */

/* Teardown of an isolated victim (owned, R1): unindex it if it still is
 * (a replace may have unindexed it already), then back to the pool. */
static void teardown(struct tctx *t, struct obj *o)
{
	struct cache *c = t->c;
	uint64_t key = o->key;	/* stable: o is ours */
	struct stripe *s = stripe_of(c, key);
	bool indexed;

	lock(&s->lock);
	indexed = atomic_load_explicit(&o->ikey, memory_order_relaxed) == key + 1;
#ifndef LRU_MUTANT_SKIP_INDEX_REMOVE
	if (indexed) {
		index_unlink(c, key, o);
		/* Relaxed: a count; its readers need no data from us. */
		atomic_fetch_sub_explicit(&c->live, 1, memory_order_relaxed);
	}
#else
	(void)index_unlink;
#endif
	unlock(&s->lock);
	if (indexed)
		t->st.evictions++;
	pool_free(t, o);
}

/* The index impl's eviction: random pool slots (random replacement). */
static int evict_random(struct tctx *t, int n)
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

static int evict_batch(struct tctx *t, int n)
{
	struct obj *victims[BATCH];
	int k;

	if (n > BATCH)
		n = BATCH;
	if (t->c->impl == IMPL_INDEX)
		return evict_random(t, n);
	k = lru_isolate(t, victims, n);
	/* Test knob: hold the claimed victims across a yield, so that racing
	 * replaces meet them (examples/lru/mutants.sh). */
	if (k > 0 && t->c->cfg->widen)
		sched_yield();
	for (int i = 0; i < k; i++)
		teardown(t, victims[i]);
	return k;
}

static inline size_t live_now(struct cache *c)
{
	/* Relaxed: a count that decides how much to evict; no data. */
	return atomic_load_explicit(&c->live, memory_order_relaxed);
}

static inline bool stopping(struct cache *c)
{
	/* Relaxed: only ends loops; results are published by pthread_join. */
	return atomic_load_explicit(&c->stop, memory_order_relaxed) != 0;
}

static void rc_wake(struct cache *c)
{
	/* Relaxed: the flag only saves the signal in the common case; the
	 * sleeper re-checks live under rc_lock and wakes on a timeout too. */
	if (atomic_load_explicit(&c->rc_sleeping, memory_order_relaxed)) {
		lock(&c->rc_lock);
		pthread_cond_signal(&c->rc_cond);
		unlock(&c->rc_lock);
	}
}

/* After an insert: inline, evict down to cap; with a reclaim thread, wake
 * it and wait while live > high.  Slack (doc/lru.md): a thread inserts at
 * most once between two moments it saw live <= high, so
 * live <= high + threads = cap + slack. */
static void reclaim_gate(struct tctx *t)
{
	struct cache *c = t->c;
	unsigned fails = 0;

#ifdef LRU_MUTANT_NO_RECLAIM
	return;
#endif
	if (c->cfg->reclaim == RECLAIM_THREAD) {
		if (live_now(c) > c->cap)
			rc_wake(c);
		while (live_now(c) > c->high && !stopping(c)) {
			t->st.gate_waits++;
			rc_wake(c);
			sched_yield();
		}
		return;
	}
	for (;;) {
		size_t l = live_now(c);

		if (l <= c->cap || stopping(c))
			return;
		if (evict_batch(t, (int)(l - c->cap)) == 0) {
			/* Everything left is claimed by other evictors. */
			if (++fails > 16)
				sched_yield();
		}
	}
}

static void *reclaimer(void *arg)
{
	struct tctx *t = arg;
	struct cache *c = t->c;
	size_t low = c->cap > BATCH ? c->cap - BATCH : 0;

	while (!stopping(c)) {
		size_t l = live_now(c);

		if (l > low) {
			size_t want = l - low;

			evict_batch(t, want > BATCH ? BATCH : (int)want);
			continue;
		}
		lock(&c->rc_lock);
		/* Relaxed: see rc_wake; the timed wait covers a lost signal. */
		atomic_store_explicit(&c->rc_sleeping, 1, memory_order_relaxed);
		if (live_now(c) <= low && !stopping(c)) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 1000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&c->rc_cond, &c->rc_lock, &ts);
		}
		atomic_store_explicit(&c->rc_sleeping, 0, memory_order_relaxed);
		unlock(&c->rc_lock);
	}
	pool_flush(t, 0);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* get / set                                                           */

static void cache_get(struct tctx *t, uint64_t key)
{
	struct cache *c = t->c;
	struct stripe *s = stripe_of(c, key);
	struct obj *o;

	t->st.gets++;
	lock(&s->lock);
	o = index_find(c, key);
	if (o != NULL) {
		memcpy(t->buf, o->value, c->cfg->value_size);	/* copy-out (R3) */
		if (c->cfg->policy == POLICY_STRICT)
			lru_touch(t, o);
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

static void cache_set(struct tctx *t, uint64_t key)
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
	if (old != NULL) {
		struct obj **pp = bucket_of(c, key);

		while (*pp != old)
			pp = &(*pp)->hnext;
		o->hnext = old->hnext;
		*pp = o;
		old->hnext = NULL;
		atomic_store_explicit(&old->ikey, 0, memory_order_relaxed);	/* see index_unlink */
	} else {
		struct obj **b = bucket_of(c, key);
		/* Relaxed: a count (see live_now). */
		size_t l = atomic_fetch_add_explicit(&c->live, 1, memory_order_relaxed) + 1;
		/* Relaxed load and CAS: a running maximum for the slack check,
		 * read after the threads are joined; it orders nothing. */
		size_t m = atomic_load_explicit(&c->max_live, memory_order_relaxed);

		while (l > m && !atomic_compare_exchange_weak_explicit(
					&c->max_live, &m, l, memory_order_relaxed,
					memory_order_relaxed))
			;
		o->hnext = *b;
		*b = o;
	}
	atomic_store_explicit(&o->ikey, key + 1, memory_order_relaxed);	/* see index_unlink */
	lru_add(c, o);		/* R2: in the same critical section */
	if (old != NULL) {
#ifndef LRU_MUTANT_SKIP_LRU_DEL
		won_old = lru_del_if_linked(t, old);
#else
		(void)lru_del_if_linked;
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

/* ------------------------------------------------------------------ */
/* workload                                                            */

static double zeta(uint64_t n, double theta)
{
	double s = 0;

	for (uint64_t i = 1; i <= n; i++)
		s += 1.0 / pow((double)i, theta);
	return s;
}

static void zipf_init(struct cache *c, uint64_t n, double theta)
{
	c->nkeys = n;
	c->ztheta = theta;
	c->zeta_n = zeta(n, theta);
	c->zeta2 = zeta(2, theta);
	c->zalpha = 1.0 / (1.0 - theta);
	c->zeta_eta = (1.0 - pow(2.0 / (double)n, 1.0 - theta)) / (1.0 - c->zeta2 / c->zeta_n);
}

/* Rank 0 is the most popular key. */
static uint64_t zipf_next(const struct cache *c, uint64_t r)
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

static pthread_barrier_t start_barrier;

static void *worker(void *arg)
{
	struct tctx *t = arg;
	struct cache *c = t->c;
	const struct config *cfg = c->cfg;
	uint64_t get_thresh = (uint64_t)(cfg->get_ratio * 16777216.0);

	pthread_barrier_wait(&start_barrier);
	for (long long i = 0; cfg->ops ? i < cfg->ops : !stopping(c); i++) {
		uint64_t r = splitmix64(&t->rng);
		uint64_t key = zipf_next(c, splitmix64(&t->rng));

		if ((r & 0xffffff) < get_thresh)
			cache_get(t, key);
		else
			cache_set(t, key);
		t->st.ops++;
	}
	pool_flush(t, 0);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* setup, the end check, one run                                        */

static int cache_init(struct cache *c, const struct config *cfg, enum impl impl, int nthreads)
{
	size_t nb = 1, ns;

	memset(c, 0, sizeof(*c));
	c->cfg = cfg;
	c->impl = impl;
	c->cap = cfg->capacity;
	c->high = cfg->reclaim == RECLAIM_THREAD ? c->cap + 2 * BATCH : c->cap;
	/* +1: the reclaim thread evicts but never inserts; count it anyway. */
	c->slack = c->high - c->cap + (size_t)nthreads;
	/* Pool: the bound on live, plus per thread (and the reclaimer): its
	 * stash, a batch of isolated victims that a replace may already have
	 * unindexed, one allocated-not-yet-indexed and one replaced object. */
	c->pool_n = c->cap + c->slack + (size_t)(nthreads + 1) * (STASH_MAX + BATCH + 2);
	c->obj_size = (sizeof(struct obj) + cfg->value_size + 63) & ~(size_t)63;
	c->pool = aligned_alloc(64, c->pool_n * c->obj_size);
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
	memset(c->pool, 0, c->pool_n * c->obj_size);
	for (size_t i = 0; i < ns; i++)
		pthread_mutex_init(&c->stripes[i].lock, NULL);
	for (unsigned i = 0; i < c->nshards; i++) {
		pthread_mutex_init(&c->shards[i].lock, NULL);
		c->shards[i].head.next = c->shards[i].head.prev = &c->shards[i].head;
	}
	caslist_init(&c->clru);
	pthread_mutex_init(&c->free_lock, NULL);
	pthread_mutex_init(&c->rc_lock, NULL);
	pthread_cond_init(&c->rc_cond, NULL);
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

static void cache_destroy(struct cache *c)
{
	for (size_t i = 0; i <= c->stripe_mask; i++)
		pthread_mutex_destroy(&c->stripes[i].lock);
	for (unsigned i = 0; i < c->nshards; i++)
		pthread_mutex_destroy(&c->shards[i].lock);
	pthread_mutex_destroy(&c->free_lock);
	pthread_mutex_destroy(&c->rc_lock);
	pthread_cond_destroy(&c->rc_cond);
	free(c->pool);
	free(c->buckets);
	free(c->stripes);
	free(c->free_stack);
	free(c->shards);
}

enum { SEEN_LRU = 1, SEEN_INDEX = 2, SEEN_FREE = 4 };

/* Mark bit on o; count a duplicate if it was already set. */
static void mark(struct obj *o, unsigned char bit, size_t *dups)
{
	if (o->seen & bit)
		(*dups)++;
	o->seen |= bit;
}

/* Quiescent (all threads joined: pthread_join orders everything they
 * wrote before us, so every load here is relaxed or plain).  Returns the
 * number of failures. */
static int cache_check(struct cache *c, const struct stats *sum, struct checks *ck)
{
	size_t n_lru = 0, n_idx = 0, n_free = 0, dups = 0, wrong_bucket = 0, bad_val = 0;
	size_t idx_not_lru = 0, lru_not_idx = 0, free_reachable = 0, lost = 0;
	size_t bad_ikey = 0;

	for (size_t i = 0; i < c->pool_n; i++)
		pool_obj(c, i)->seen = 0;
	/* the LRU */
	if (c->impl == IMPL_CASLIST) {
		size_t cnt = 0;
		int rc = caslist_check(&c->clru, c->pool_n, &cnt);
		struct caslist_node *cur = &c->clru.head;

		check(ck, rc == 0, "caslist_check: %s", caslist_check_strerror(rc));
		while (rc == 0 && caslist_iter_next(&c->clru, &cur) == 1) {
			mark(obj_of_node(cur), SEEN_LRU, &dups);
			n_lru++;
		}
	} else if (c->impl != IMPL_INDEX) {
		size_t broken = 0, cycles = 0;

		for (unsigned s = 0; s < c->nshards; s++) {
			struct mlink *h = &c->shards[s].head;
			size_t steps = 0;

			for (struct mlink *m = h->next; m != h && steps <= c->pool_n;
			     m = m->next, steps++) {
				struct obj *o = obj_of_mlink(m);

				broken += m->next->prev != m || !o->mlinked || o->shard != s;
				mark(o, SEEN_LRU, &dups);
				n_lru++;
			}
			cycles += steps > c->pool_n;
		}
		check(ck, broken == 0 && cycles == 0,
		      "mutex lists: %zu broken links or flags, %zu cycles", broken, cycles);
	}
	/* the index */
	for (size_t b = 0; b <= c->bucket_mask; b++) {
		size_t steps = 0;

		for (struct obj *o = c->buckets[b]; o != NULL && steps <= c->pool_n;
		     o = o->hnext, steps++) {
			mark(o, SEEN_INDEX, &dups);
			n_idx++;
			if ((khash(o->key) & c->bucket_mask) != b)
				wrong_bucket++;
			if (atomic_load_explicit(&o->ikey, memory_order_relaxed) != o->key + 1)
				bad_ikey++;
			if (!value_ok(o->value, c->cfg->value_size, o->key))
				bad_val++;
		}
	}
	/* the free pool (every thread flushed its stash at exit) */
	for (size_t i = 0; i < c->free_n; i++) {
		mark(c->free_stack[i], SEEN_FREE, &dups);
		n_free++;
	}
	for (size_t i = 0; i < c->pool_n; i++) {
		struct obj *o = pool_obj(c, i);
		bool in_lru = o->seen & SEEN_LRU, in_idx = o->seen & SEEN_INDEX;

		if (c->impl != IMPL_INDEX) {
			idx_not_lru += in_idx && !in_lru;
			lru_not_idx += in_lru && !in_idx;
		}
		free_reachable += (o->seen & SEEN_FREE) && (in_lru || in_idx);
		lost += o->seen == 0;
		if (!in_idx && atomic_load_explicit(&o->ikey, memory_order_relaxed) != 0)
			bad_ikey++;
	}
	check(ck, dups == 0, "%zu objects seen twice in one structure", dups);
	check(ck, c->impl == IMPL_INDEX || n_idx == n_lru,
	      "objects in index (%zu) != objects on LRU (%zu)", n_idx, n_lru);
	check(ck, idx_not_lru == 0 && lru_not_idx == 0,
	      "%zu indexed objects not on the LRU, %zu LRU objects not indexed", idx_not_lru,
	      lru_not_idx);
	check(ck, free_reachable == 0, "%zu objects both free (evicted) and reachable",
	      free_reachable);
	check(ck, lost == 0, "%zu objects neither free nor live (lost)", lost);
	check(ck, n_idx == live_now(c), "live counter %zu != objects in index %zu", live_now(c),
	      n_idx);
	check(ck, wrong_bucket == 0 && bad_ikey == 0, "%zu in a wrong bucket, %zu bad ikey",
	      wrong_bucket, bad_ikey);
	check(ck, bad_val == 0 && sum->bad_values == 0,
	      "%zu stored and %llu read values corrupt", bad_val,
	      (unsigned long long)sum->bad_values);
	check(ck, sum->allocs - sum->frees == n_idx,
	      "allocs - frees = %llu != objects in index %zu",
	      (unsigned long long)(sum->allocs - sum->frees), n_idx);
	check(ck, sum->inserts - sum->evictions == n_idx,
	      "inserts - evictions = %llu != objects in index %zu",
	      (unsigned long long)(sum->inserts - sum->evictions), n_idx);
	check(ck, sum->isolated + sum->replace_owned == sum->frees,
	      "claims: isolated + replaces won (%llu) != frees (%llu): an object with two owners",
	      (unsigned long long)(sum->isolated + sum->replace_owned),
	      (unsigned long long)sum->frees);
	check(ck, sum->double_frees == 0, "%llu objects freed by a second owner",
	      (unsigned long long)sum->double_frees);
	check(ck, sum->alloc_fail == 0, "pool ran dry %llu times",
	      (unsigned long long)sum->alloc_fail);
	check(ck, atomic_load(&c->max_live) <= c->cap + c->slack,
	      "live reached %zu > capacity %zu + slack %zu", atomic_load(&c->max_live), c->cap,
	      c->slack);
	check(ck, n_idx <= c->cap + c->slack, "%zu live at the end > capacity + slack", n_idx);
	return ck->failed;
}

struct result {
	int threads;
	enum impl impl;
	double secs;
	struct stats st;
	size_t max_live, end_live, slack;
	int checks, failed;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void add_stats(struct stats *a, const struct stats *b)
{
	const uint64_t *p = (const uint64_t *)b;
	uint64_t *q = (uint64_t *)a;

	for (size_t i = 0; i < sizeof(*a) / sizeof(uint64_t); i++)
		q[i] += p[i];
}

static int run_one(const struct config *cfg, enum impl impl, int nthreads, struct result *res)
{
	struct cache c;
	struct tctx *ts;
	pthread_t *tid;
	pthread_t rtid;
	struct checks ck = { "lrucache", 0, 0 };
	int nt = nthreads + 1;	/* [nthreads]: the prefill, then the reclaimer */
	double t0, t1;
	char name[64];

	if (cache_init(&c, cfg, impl, nthreads) != 0)
		return -1;
	ts = aligned_alloc(64, (size_t)nt * sizeof(*ts));
	tid = calloc((size_t)nthreads, sizeof(*tid));
	if (!ts || !tid) {
		fprintf(stderr, "lrucache: out of memory\n");
		return -1;
	}
	memset(ts, 0, (size_t)nt * sizeof(*ts));
	for (int i = 0; i < nt; i++) {
		uint64_t s = cfg->seed * 0x100000001b3ULL + (uint64_t)i;

		ts[i].c = &c;
		ts[i].id = i;
		ts[i].rng = splitmix64(&s);
		ts[i].rr = (unsigned)i;
		ts[i].buf = malloc(cfg->value_size);
		if (!ts[i].buf)
			return -1;
	}
	/* Prefill (untimed, not counted in the rates): the capacity's most
	 * popular keys, least popular first, so rank 0 ends at the head. */
	for (uint64_t k = c.cap; k-- > 0;)
		cache_set(&ts[nthreads], k);
	pool_flush(&ts[nthreads], 0);
	memset(&ts[nthreads].st, 0, sizeof(ts[nthreads].st));
	/* The prefill's allocations stay live: keep them in the books. */
	ts[nthreads].st.allocs = ts[nthreads].st.inserts = c.cap;

	pthread_barrier_init(&start_barrier, NULL, (unsigned)nthreads + 1);
	for (int i = 0; i < nthreads; i++)
		if (pthread_create(&tid[i], NULL, worker, &ts[i]) != 0) {
			fprintf(stderr, "lrucache: pthread_create failed at %d threads\n", i);
			exit(1);
		}
	if (cfg->reclaim == RECLAIM_THREAD &&
	    pthread_create(&rtid, NULL, reclaimer, &ts[nthreads]) != 0) {
		fprintf(stderr, "lrucache: cannot start the reclaim thread\n");
		exit(1);
	}
	pthread_barrier_wait(&start_barrier);
	t0 = now_s();
	if (cfg->ops == 0) {
		struct timespec d;

		d.tv_sec = (time_t)cfg->seconds;
		d.tv_nsec = (long)((cfg->seconds - (double)d.tv_sec) * 1e9);
		while (nanosleep(&d, &d) != 0 && errno == EINTR)
			;
		atomic_store(&c.stop, 1);	/* seq_cst; see stopping() */
	}
	for (int i = 0; i < nthreads; i++)
		pthread_join(tid[i], NULL);
	t1 = now_s();
	atomic_store(&c.stop, 1);	/* --ops runs: stop the reclaim thread */
	if (cfg->reclaim == RECLAIM_THREAD) {
		rc_wake(&c);
		pthread_join(rtid, NULL);
	}
	pthread_barrier_destroy(&start_barrier);

	memset(res, 0, sizeof(*res));
	for (int i = 0; i < nt; i++)
		add_stats(&res->st, &ts[i].st);
	snprintf(name, sizeof(name), "lrucache %s/%d", impl_name[impl], nthreads);
	ck.prog = name;
	cache_check(&c, &res->st, &ck);
	res->threads = nthreads;
	res->impl = impl;
	res->secs = t1 - t0;
	res->max_live = atomic_load(&c.max_live);
	res->end_live = live_now(&c);
	res->slack = c.slack;
	res->checks = ck.n;
	res->failed = ck.failed;
	for (int i = 0; i < nt; i++)
		free(ts[i].buf);
	free(ts);
	free(tid);
	cache_destroy(&c);
	return 0;
}

/* ------------------------------------------------------------------ */
/* command line                                                        */

static void usage(FILE *f)
{
	fputs("usage: lrucache run --impl LIST --threads LIST (--seconds S | --ops N)\n"
	      "                    [--policy strict|lazy] [--reclaim inline|thread]\n"
	      "                    [--zipf S] [--capacity N] [--get-ratio R]\n"
	      "                    [--value-size B] [--shards N] [--seed N] [--json]\n"
	      "  --impl      comma list of index, mutex, caslist, sharded, or all\n"
	      "              (default mutex,caslist)\n"
	      "  --threads   comma list of thread counts, 1..1024 (default 1,2,64)\n"
	      "  --seconds   per (impl, threads) point, > 0 (default 1)\n"
	      "  --ops       operations per thread instead of a timed run\n"
	      "  --policy    strict: a hit rotates to the head; lazy: a hit sets a bit,\n"
	      "              eviction gives second chances (default strict)\n"
	      "  --reclaim   inline: the setter evicts; thread: a reclaim thread (default\n"
	      "              inline)\n"
	      "  --zipf      key skew, 0 <= S < 1 (default 0.99); keys: 10 x capacity\n"
	      "  --capacity  objects, 64..16777216 (default 65536)\n"
	      "  --get-ratio fraction of gets, 0..1 (default 0.9)\n"
	      "  --value-size bytes per value, 24..65536 (default 64)\n"
	      "  --shards    lists of the sharded impl, 1..1024 (default 16)\n"
	      "  --seed      workload seed (default 1)\n"
	      "  --json      JSON instead of the table\n"
	      "  --widen-window  test knob: evictors yield while holding claimed victims\n",
	      f);
}

static __attribute__((noreturn, format(printf, 1, 2))) void bad(const char *fmt, ...)
{
	va_list ap;

	fputs("lrucache: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (try lrucache --help)\n", stderr);
	exit(2);
}

static double parse_double(const char *opt, const char *s, double lo, double hi, bool lo_open)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v != v || v < lo || v > hi || (lo_open && v == lo))
		bad("%s: '%s' is not a number in %s%g, %g]", opt, s, lo_open ? "(" : "[", lo, hi);
	return v;
}

static long long parse_int(const char *opt, const char *s, long long lo, long long hi)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		bad("%s: '%s' is not an integer in [%lld, %lld]", opt, s, lo, hi);
	return v;
}

static void parse_impls(struct config *cfg, const char *arg)
{
	char buf[256], *save = NULL;

	if (strlen(arg) >= sizeof(buf))
		bad("--impl: list too long");
	strcpy(buf, arg);
	cfg->nimpls = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int found = -1;

		if (strcmp(tok, "all") == 0) {
			for (int i = 0; i < NIMPL; i++)
				cfg->impls[i] = i;
			cfg->nimpls = NIMPL;
			continue;
		}
		for (int i = 0; i < NIMPL; i++)
			if (strcmp(tok, impl_name[i]) == 0)
				found = i;
		if (found < 0)
			bad("--impl: unknown implementation '%s' (index, mutex, caslist, sharded, all)",
			    tok);
		for (int i = 0; i < cfg->nimpls; i++)
			if (cfg->impls[i] == found)
				bad("--impl: '%s' given twice", tok);
		if (cfg->nimpls == NIMPL)
			bad("--impl: too many");
		cfg->impls[cfg->nimpls++] = found;
	}
	if (cfg->nimpls == 0)
		bad("--impl: empty list");
}

static void parse_threads(struct config *cfg, const char *arg)
{
	char buf[512], *save = NULL;

	if (strlen(arg) >= sizeof(buf))
		bad("--threads: list too long");
	strcpy(buf, arg);
	cfg->nthreads = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (cfg->nthreads == MAX_RUNS)
			bad("--threads: more than %d counts", MAX_RUNS);
		cfg->threads[cfg->nthreads++] = (int)parse_int("--threads", tok, 1, MAX_THREADS);
	}
	if (cfg->nthreads == 0)
		bad("--threads: empty list");
}

static void parse_args(struct config *cfg, int argc, char **argv)
{
	bool have_secs = false;

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		exit(0);
	}
	if (argc < 2 || strcmp(argv[1], "run") != 0)
		bad(argc < 2 ? "missing command 'run'%s" : "unknown command '%s'",
		    argc < 2 ? "" : argv[1]);
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		const char *v = NULL;
		char name[32];
		const char *eq = strchr(a, '=');

		if (strncmp(a, "--", 2) != 0)
			bad("unexpected argument '%s'", a);
		if (eq && (size_t)(eq - a) < sizeof(name)) {	/* --opt=value */
			memcpy(name, a, (size_t)(eq - a));
			name[eq - a] = 0;
			a = name;
			v = eq + 1;
		}
		if (!strcmp(a, "--json")) {
			if (v)
				bad("--json takes no value");
			cfg->json = true;
			continue;
		}
		if (!strcmp(a, "--widen-window")) {
			if (v)
				bad("--widen-window takes no value");
			cfg->widen = true;
			continue;
		}
		if (!strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		}
		if (!v) {
			if (i + 1 >= argc)
				bad("%s needs a value", a);
			v = argv[++i];
		}
		if (!strcmp(a, "--impl"))
			parse_impls(cfg, v);
		else if (!strcmp(a, "--threads"))
			parse_threads(cfg, v);
		else if (!strcmp(a, "--seconds")) {
			cfg->seconds = parse_double(a, v, 0, 3600, true);
			have_secs = true;
		} else if (!strcmp(a, "--ops"))
			cfg->ops = parse_int(a, v, 1, 1LL << 40);
		else if (!strcmp(a, "--policy")) {
			if (!strcmp(v, "strict"))
				cfg->policy = POLICY_STRICT;
			else if (!strcmp(v, "lazy"))
				cfg->policy = POLICY_LAZY;
			else
				bad("--policy: '%s' is not strict or lazy", v);
		} else if (!strcmp(a, "--reclaim")) {
			if (!strcmp(v, "inline"))
				cfg->reclaim = RECLAIM_INLINE;
			else if (!strcmp(v, "thread"))
				cfg->reclaim = RECLAIM_THREAD;
			else
				bad("--reclaim: '%s' is not inline or thread", v);
		} else if (!strcmp(a, "--zipf"))
			cfg->zipf = parse_double(a, v, 0, 0.9999, false);
		else if (!strcmp(a, "--capacity"))
			cfg->capacity = (size_t)parse_int(a, v, 64, 1 << 24);
		else if (!strcmp(a, "--get-ratio"))
			cfg->get_ratio = parse_double(a, v, 0, 1, false);
		else if (!strcmp(a, "--value-size"))
			cfg->value_size = (size_t)parse_int(a, v, 24, 65536);
		else if (!strcmp(a, "--shards"))
			cfg->shards = (unsigned)parse_int(a, v, 1, 1024);
		else if (!strcmp(a, "--seed"))
			cfg->seed = (uint64_t)parse_int(a, v, 0, INT64_MAX);
		else
			bad("unknown option '%s'", a);
	}
	if (have_secs && cfg->ops)
		bad("--seconds and --ops exclude each other");
}

/* ------------------------------------------------------------------ */
/* output                                                              */

static const char *policy_name(enum policy p)
{
	return p == POLICY_LAZY ? "lazy" : "strict";
}

static const char *reclaim_name(enum reclaim r)
{
	return r == RECLAIM_THREAD ? "thread" : "inline";
}

static double rate(uint64_t n, double secs)
{
	return secs > 0 ? (double)n / secs : 0;
}

static double hit_pct(const struct stats *s)
{
	return s->gets ? 100.0 * (double)s->hits / (double)s->gets : 0;
}

/* The mutex run at the same thread count, or NULL. */
static const struct result *mutex_peer(const struct result *r, int n, int threads)
{
	for (int i = 0; i < n; i++)
		if (r[i].impl == IMPL_MUTEX && r[i].threads == threads)
			return &r[i];
	return NULL;
}

static void print_table(const struct config *cfg, const struct result *r, int n)
{
	printf("lrucache: capacity=%zu keys=%zu zipf=%.2f get=%.2f value=%zuB policy=%s "
	       "reclaim=%s %s=%g seed=%llu\n",
	       cfg->capacity, 10 * cfg->capacity, cfg->zipf, cfg->get_ratio, cfg->value_size,
	       policy_name(cfg->policy), reclaim_name(cfg->reclaim),
	       cfg->ops ? "ops/thread" : "seconds",
	       cfg->ops ? (double)cfg->ops : cfg->seconds, (unsigned long long)cfg->seed);
	printf("%7s %-8s %12s %7s %11s %8s %9s  %s\n", "threads", "impl", "ops/s", "hit%",
	       "evict/s", "vs mutex", "max live", "checks");
	for (int i = 0; i < n; i++) {
		const struct result *m = mutex_peer(r, n, r[i].threads);
		double ops = rate(r[i].st.ops, r[i].secs);
		char vs[16] = "-";

		if (m && rate(m->st.ops, m->secs) > 0)
			snprintf(vs, sizeof(vs), "%.2fx", ops / rate(m->st.ops, m->secs));
		printf("%7d %-8s %12.0f %7.2f %11.0f %8s %9zu  %d/%d %s\n", r[i].threads,
		       impl_name[r[i].impl], ops, hit_pct(&r[i].st),
		       rate(r[i].st.evictions, r[i].secs), vs, r[i].max_live,
		       r[i].checks - r[i].failed, r[i].checks, r[i].failed ? "FAIL" : "ok");
	}
}

static void print_json(const struct config *cfg, const struct result *r, int n)
{
	printf("{\"config\":{\"capacity\":%zu,\"keys\":%zu,\"zipf\":%g,\"get_ratio\":%g,"
	       "\"value_size\":%zu,\"policy\":\"%s\",\"reclaim\":\"%s\",\"seconds\":%g,"
	       "\"ops_per_thread\":%lld,\"shards\":%u,\"seed\":%llu},\n\"results\":[\n",
	       cfg->capacity, 10 * cfg->capacity, cfg->zipf, cfg->get_ratio, cfg->value_size,
	       policy_name(cfg->policy), reclaim_name(cfg->reclaim), cfg->ops ? 0 : cfg->seconds,
	       cfg->ops, cfg->shards, (unsigned long long)cfg->seed);
	for (int i = 0; i < n; i++) {
		const struct result *m = mutex_peer(r, n, r[i].threads);
		const struct stats *s = &r[i].st;
		double ops = rate(s->ops, r[i].secs);

		printf("{\"threads\":%d,\"impl\":\"%s\",\"seconds\":%.6f,\"ops\":%llu,"
		       "\"ops_per_s\":%.0f,\"gets\":%llu,\"hits\":%llu,\"hit_ratio\":%.6f,"
		       "\"sets\":%llu,\"inserts\":%llu,\"replaces\":%llu,\"evictions\":%llu,"
		       "\"evictions_per_s\":%.0f,\"second_chances\":%llu,\"lost_races\":%llu,"
		       "\"rotate_gone\":%llu,\"gate_waits\":%llu,\"max_live\":%zu,"
		       "\"slack\":%zu,\"ratio_to_mutex\":",
		       r[i].threads, impl_name[r[i].impl], r[i].secs, (unsigned long long)s->ops,
		       ops, (unsigned long long)s->gets, (unsigned long long)s->hits,
		       s->gets ? (double)s->hits / (double)s->gets : 0,
		       (unsigned long long)s->sets, (unsigned long long)s->inserts,
		       (unsigned long long)s->replaces, (unsigned long long)s->evictions,
		       rate(s->evictions, r[i].secs), (unsigned long long)s->second_chances,
		       (unsigned long long)s->lost_races, (unsigned long long)s->rotate_gone,
		       (unsigned long long)s->gate_waits, r[i].max_live, r[i].slack);
		if (m && rate(m->st.ops, m->secs) > 0)
			printf("%.4f", ops / rate(m->st.ops, m->secs));
		else
			printf("null");
		printf(",\"checks\":%d,\"failed\":%d}%s\n", r[i].checks, r[i].failed,
		       i + 1 < n ? "," : "");
	}
	printf("]}\n");
}

int main(int argc, char **argv)
{
	static struct config cfg = {
		.impls = { IMPL_MUTEX, IMPL_CASLIST }, .nimpls = 2,
		.threads = { 1, 2, 64 }, .nthreads = 3,
		.seconds = 1, .zipf = 0.99, .capacity = 65536, .get_ratio = 0.9,
		.value_size = 64, .shards = 16, .seed = 1,
	};
	static struct result res[MAX_RUNS * NIMPL];
	int n = 0, failed = 0;
	double total;

	parse_args(&cfg, argc, argv);
	total = cfg.ops ? 0 : cfg.seconds * cfg.nthreads * cfg.nimpls;
	watchdog_arm(total + 60);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int ti = 0; ti < cfg.nthreads; ti++)
		for (int ii = 0; ii < cfg.nimpls; ii++) {
			if (run_one(&cfg, (enum impl)cfg.impls[ii], cfg.threads[ti], &res[n]) != 0)
				return 1;
			failed += res[n].failed;
			n++;
		}
	if (cfg.json)
		print_json(&cfg, res, n);
	else
		print_table(&cfg, res, n);
	if (failed)
		fprintf(stderr, "lrucache: %d check(s) failed\n", failed);
	return failed ? 1 : 0;
}
