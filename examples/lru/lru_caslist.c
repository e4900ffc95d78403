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
 * Batched policy.  A hit queues o in this thread's caslist_batch: o leaves
 * the LRU at once (in place) and goes back at the head, with the rest of
 * the batch, under one head-link lock.  While o is queued it is on no list:
 * an evictor cannot take it and a replace of its key cannot win it with
 * del_if_linked (R1).  So a queued object carries a reference, the Q bit of
 * o->qstate, like the kernel's folio batches hold a folio reference:
 *   - the hitter sets Q (under the stripe lock) when it queues o;
 *   - pool_free of an object with Q set only marks it PENDING: the flusher
 *     frees it when it drops Q (so no object is reused while in a batch,
 *     and the flusher's reference is never stale);
 *   - a replace that loses del_if_linked sets DEAD: if Q was set, the
 *     flusher takes the unindexed object back off the LRU and frees it;
 *     else it was flushed meanwhile (or an evictor has it): try again.
 * Every change of qstate is an atomic RMW (acq_rel: each pairs with the
 * others on the word, so the later one sees the earlier one's bits and
 * the writes before it).  Batches hold 14: the flush comes before the 15th
 * would make caslist flush by itself.
 */
static void caslist_lru_flush(struct tctx *t)
{
	caslist_batch_flush(&t->batch);
	for (int i = 0; i < t->nqueued; i++) {
		struct obj *o = t->queued[i];
		int old = atomic_fetch_and_explicit(&o->qstate, ~QSTATE_Q, memory_order_acq_rel);

		if (old & QSTATE_PENDING) {
			pool_free(t, o);	/* its owner freed it while we held it */
		} else if ((old & QSTATE_DEAD) && caslist_del_if_linked(&o->node)) {
			/* Replaced while queued, not indexed: the replace's claim
			 * (R1), won here. */
			t->st.replace_owned++;
			pool_free(t, o);
		}
	}
	t->nqueued = 0;
}

static void caslist_lru_touch_batched(struct tctx *t, struct obj *o)
{
	int n;

	/* Relaxed, under the stripe lock: Q is set under it; set means o is
	 * on its way to the head already (queueing it again in our own batch
	 * would be misuse). */
	if (atomic_load_explicit(&o->qstate, memory_order_relaxed) & QSTATE_Q)
		return;
	if (t->nqueued == CASLIST_BATCH_MAX - 1)
		caslist_lru_flush(t);
	n = (int)t->batch.n;
	if (caslist_batch_move_head(&t->batch, &t->c->clru, &o->node) == CASLIST_ENOENT) {
		t->st.rotate_gone++;	/* claimed by an evictor (R1) */
	} else if ((int)t->batch.n > n) {	/* queued here (not in another batch) */
		atomic_fetch_or_explicit(&o->qstate, QSTATE_Q, memory_order_acq_rel);
		t->queued[t->nqueued++] = o;
	}
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
		 * one del_if_linked wins it (protocol section 6). */
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
