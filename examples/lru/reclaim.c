/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/reclaim.c - reclaim: evict from the tail in batches of at
 * most BATCH, in two steps.  Isolate: take up to n victims off the LRU
 * (lru_ops.isolate; each is then owned, R1).  Teardown: for each victim,
 * take its stripe lock, unindex it if it is still indexed, and return it
 * to the pool.
 *   --reclaim inline  a setter whose insert made live > capacity evicts
 *                     down to the capacity (reclaim_gate);
 *   --reclaim thread  one reclaim thread (reclaimer) evicts while live >
 *                     capacity - BATCH, sleeps on a condition variable
 *                     otherwise; setters wake it and wait while live >
 *                     capacity + 2 x BATCH.
 * Slack (doc/lru.md): a thread inserts at most once between two moments
 * it saw live <= high, so live <= high + threads = cap + slack.
 */
#include <sched.h>
#include <time.h>

#include "cache.h"

/* The victim is ours (R1): unindex it if it still is (a replace may have
 * unindexed it already), then back to the pool. */
void teardown(struct tctx *t, struct obj *o)
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
#endif
	unlock(&s->lock);
	if (indexed)
		t->st.evictions++;
	pool_free(t, o);
}

int reclaim_isolated(struct tctx *t, int n)
{
	struct obj *victims[BATCH];
	int k = t->c->ops->isolate(t, victims, n);

	t->st.isolated += (uint64_t)k;
	/* Test knob: hold the claimed victims across a yield, so that racing
	 * replaces meet them (examples/lru/mutants.sh). */
	if (k > 0 && t->c->cfg->widen)
		sched_yield();
	for (int i = 0; i < k; i++)
		teardown(t, victims[i]);
	return k;
}

static int evict_batch(struct tctx *t, int n)
{
	return t->c->ops->evict(t, n > BATCH ? BATCH : n);
}

void reclaim_wake(struct cache *c)
{
	/* Relaxed: the flag only saves the signal in the common case; the
	 * sleeper re-checks live under reclaim_lock and wakes on a timeout
	 * too. */
	if (atomic_load_explicit(&c->reclaim_sleeping, memory_order_relaxed)) {
		lock(&c->reclaim_lock);
		pthread_cond_signal(&c->reclaim_cond);
		unlock(&c->reclaim_lock);
	}
}

void reclaim_gate(struct tctx *t)
{
	struct cache *c = t->c;
	unsigned fails = 0;

#ifdef LRU_MUTANT_NO_RECLAIM
	return;
#endif
	/* Over capacity: first put back what this thread has queued (batched
	 * policy), so no object waits in a batch while its owner waits here. */
	if (live_now(c) > c->cap && c->ops->flush)
		c->ops->flush(t);
	if (c->cfg->reclaim == RECLAIM_THREAD) {
		if (live_now(c) > c->cap)
			reclaim_wake(c);
		while (live_now(c) > c->high && !stopping(c)) {
			t->st.gate_waits++;
			reclaim_wake(c);
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

void *reclaimer(void *arg)
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
		lock(&c->reclaim_lock);
		/* Relaxed: see reclaim_wake; the timed wait covers a lost
		 * signal. */
		atomic_store_explicit(&c->reclaim_sleeping, 1, memory_order_relaxed);
		if (live_now(c) <= low && !stopping(c)) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 1000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&c->reclaim_cond, &c->reclaim_lock, &ts);
		}
		atomic_store_explicit(&c->reclaim_sleeping, 0, memory_order_relaxed);
		unlock(&c->reclaim_lock);
	}
	pool_flush(t, 0);
	return NULL;
}
