/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/pool.c - the object pool and the values.
 *
 * The pool: capacity + slack + a per-thread reserve of objects, allocated
 * once per run (cache_init) and freed only after every thread has been
 * joined.  Each thread keeps up to STASH_MAX free objects and refills or
 * flushes STASH_K at a time from a stack under one mutex; the same path
 * for every implementation.
 */
#include <string.h>

#include "cache.h"

struct obj *pool_alloc(struct tctx *t)
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
	/* Relaxed: o is private; published with it under the stripe lock. */
	atomic_store_explicit(&o->qstate, 0, memory_order_relaxed);
	return o;
}

void pool_flush(struct tctx *t, int keep)
{
	struct cache *c = t->c;

	lock(&c->free_lock);
	while (t->nstash > keep)
		c->free_stack[c->free_n++] = t->stash[--t->nstash];
	unlock(&c->free_lock);
}

void pool_free(struct tctx *t, struct obj *o)
{
	/* A batch holds o (batched policy): its flusher frees it when it lets
	 * go (lru_caslist.c).  Acq_rel: pairs with the flusher's fetch_and. */
	if (atomic_fetch_or_explicit(&o->qstate, QSTATE_PENDING, memory_order_acq_rel) & QSTATE_Q)
		return;
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

void value_fill(unsigned char *v, size_t n, uint64_t key, uint64_t ver)
{
	uint64_t ck = vcheck(key, ver);

	memcpy(v, &key, 8);
	memcpy(v + 8, &ver, 8);
	memset(v + 16, (int)(ck & 0xff), n - 24);
	memcpy(v + n - 8, &ck, 8);
}

bool value_ok(const unsigned char *v, size_t n, uint64_t key)
{
	uint64_t k, ver, ck;

	memcpy(&k, v, 8);
	memcpy(&ver, v + 8, 8);
	memcpy(&ck, v + n - 8, 8);
	return k == key && ck == vcheck(key, ver) && v[16] == (unsigned char)(ck & 0xff);
}
