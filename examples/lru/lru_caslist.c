/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/lru_caslist.c - the LRU as one <caslist/list.h> list: no
 * list lock.  Hits rotate with caslist_move_head (strict) or set the
 * accessed bit (lazy); eviction pops the tail (strict) or peeks at it and
 * gives second chances (lazy).  Racing removers of one object (evictors,
 * a replace) are settled by caslist_del_if_linked: exactly one wins (R1).
 */
#include "cache.h"

static inline struct obj *obj_of_node(struct caslist_node *n)
{
	return caslist_entry(n, struct obj, node);
}

static void caslist_lru_add(struct cache *c, struct obj *o)
{
	caslist_add_head(&c->clru, &o->node);
}

static void caslist_lru_touch(struct tctx *t, struct obj *o)
{
	/* ENOENT: an evictor has claimed o (R1) and waits for our stripe
	 * lock; nothing to rotate. */
	if (caslist_move_head(&t->c->clru, &o->node) == CASLIST_ENOENT)
		t->st.rotate_gone++;
}

/*
 * Batched policy (the kernel's per-CPU folio batches for rotation).  A hit
 * only remembers o: it takes a reference - the Q bit of o->qstate - and
 * appends o to this thread's queue; o stays where it is on the LRU.  The
 * flush hands the queue to caslist_batch_move_head_n: each node leaves its
 * place in parallel with other threads (their lines fetched a window
 * ahead), then one head-link lock splices them all.  So the hit path has
 * no list operation, as for the mutex peer, which rotates its queue under
 * one lock hold.  While o is queued it is still on the LRU: an evictor or
 * a replace may take it meanwhile (the move then gives ENOENT); the
 * reference only keeps o from being reused:
 *   - the hitter sets Q (under the stripe lock); a set Q means o is queued
 *     already, by this thread or another: nothing to do;
 *   - pool_free of an object with Q set only marks it PENDING: the flusher
 *     frees it when it drops Q;
 *   - a replace that loses del_if_linked (o is inside a flusher's batch,
 *     or an evictor has it) sets DEAD: if Q was set, the flusher takes the
 *     unindexed object off the LRU and frees it.  It does so before it
 *     drops Q, so the node it takes off cannot be o's next life.
 * Every change of qstate is an atomic RMW (acq_rel: each pairs with the
 * others on the word, so the later one sees the earlier one's bits and
 * the writes before it).  Queues hold 14, as the mutex peer's.
 */
static void caslist_lru_release(struct tctx *t, struct obj *o)
{
	/* Acquire: pairs with the acq_rel RMWs of the replace (DEAD) and
	 * of pool_free (PENDING), like the CAS below. */
	int old = atomic_load_explicit(&o->qstate, memory_order_acquire);
	bool owned = false;

	do {
		/* Replaced while queued, not indexed, left to us: the
		 * replace's claim (R1), tried while Q still pins o. */
		if ((old & QSTATE_DEAD) && !owned)
			owned = caslist_del_if_linked(&o->node);
		/* Acq_rel: pairs with the RMWs above; a PENDING or DEAD set
		 * after our load fails the CAS and is seen on the retry. */
	} while (!atomic_compare_exchange_weak_explicit(&o->qstate, &old, old & ~QSTATE_Q,
							memory_order_acq_rel,
							memory_order_acquire));
	if (owned)
		t->st.replace_owned++;
	/* owned and PENDING exclude each other: PENDING means an owner
	 * took o off the list, and nothing puts it back while Q pins it. */
	if (owned || (old & QSTATE_PENDING))
		pool_free(t, o);
}

static void caslist_lru_flush(struct tctx *t)
{
	struct caslist_node *nodes[CASLIST_BATCH_MAX];
	size_t n = (size_t)t->nqueued, moved;

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		nodes[i] = &t->queued[i]->node;
	/* Those an evictor or a replace took meanwhile give ENOENT. */
	moved = caslist_batch_move_head_n(&t->batch, &t->c->clru, nodes, n);
	t->st.rotate_gone += n - moved;
	caslist_batch_flush(&t->batch);
	for (size_t i = 0; i < n; i++)
		caslist_lru_release(t, t->queued[i]);
	t->nqueued = 0;
}

static void caslist_lru_touch_batched(struct tctx *t, struct obj *o)
{
	/* Relaxed, under the stripe lock: Q is set only under it, so a set
	 * by another hitter is seen; a clear racing with us at worst skips
	 * one rotation. */
	if (atomic_load_explicit(&o->qstate, memory_order_relaxed) & QSTATE_Q)
		return;
	if (t->nqueued == CASLIST_BATCH_MAX - 1)
		caslist_lru_flush(t);
	/* Acq_rel: pairs with pool_free's and the replace's RMWs. */
	atomic_fetch_or_explicit(&o->qstate, QSTATE_Q, memory_order_acq_rel);
	t->queued[t->nqueued++] = o;
}

static bool caslist_lru_del_if_linked(struct tctx *t, struct obj *o)
{
	if (caslist_del_if_linked(&o->node))
		return true;
	if (t->c->cfg->policy != POLICY_BATCHED)
		return false;
	/* Lost: queued in a batch, or an evictor's.  Under the stripe lock,
	 * so a queued o has Q set. */
	if (atomic_fetch_or_explicit(&o->qstate, QSTATE_DEAD, memory_order_acq_rel) & QSTATE_Q)
		return false;	/* its flusher takes it off and frees it */
	return caslist_del_if_linked(&o->node);	/* flushed meanwhile: try again */
}

/* Strict: pop the tail n times. */
static int isolate_strict(struct tctx *t, struct obj **out, int n)
{
	int k = 0;

	while (k < n) {
		struct caslist_node *v = caslist_pop_tail(&t->c->clru);

		if (v == NULL)
			break;
		out[k++] = obj_of_node(v);
	}
	return k;
}

/* Lazy: second chance for the referenced, del_if_linked for the others. */
static int isolate_lazy(struct tctx *t, struct obj **out, int n)
{
	struct cache *c = t->c;
	struct caslist_node *h = &c->clru.head;
	int k = 0, chances = 0;

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
		if (chances < MAX_CHANCES && take_accessed(o)) {
			/* Second chance: rotate, the on-LRU state is
			 * unchanged; ENOENT if another evictor took it. */
			(void)caslist_move_head(&c->clru, v);
			chances++;
			t->st.second_chances++;
			continue;
		}
		/* Racing evictors (and replaces) may target v: exactly
		 * one del_if_linked wins it (doc/protocol.md, "Contracts callers must keep"). */
		if (caslist_del_if_linked(v))
			out[k++] = o;
		else
			t->st.lost_races++;
	}
	return k;
}

static int caslist_lru_isolate(struct tctx *t, struct obj **out, int n)
{
	if (t->c->cfg->policy == POLICY_LAZY)
		return isolate_lazy(t, out, n);
	return isolate_strict(t, out, n);
}

static size_t caslist_lru_audit(struct cache *c, struct checks *ck, size_t *dups)
{
	size_t cnt = 0, n = 0;
	int rc = caslist_check(&c->clru, c->pool_n, &cnt);
	struct caslist_node *cur = &c->clru.head;

	check(ck, rc == 0, "caslist_check: %s", caslist_check_strerror(rc));
	while (rc == 0 && caslist_iter_next(&c->clru, &cur) == 1) {
		mark(obj_of_node(cur), SEEN_LRU, dups);
		n++;
	}
	return n;
}

const struct lru_ops lru_caslist_ops = {
	.name = "caslist",
	.add = caslist_lru_add,
	.touch = caslist_lru_touch,
	.touch_batched = caslist_lru_touch_batched,
	.flush = caslist_lru_flush,
	.del_if_linked = caslist_lru_del_if_linked,
	.evict = reclaim_isolated,
	.isolate = caslist_lru_isolate,
	.audit = caslist_lru_audit,
};
