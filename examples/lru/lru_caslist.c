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

static bool caslist_lru_del_if_linked(struct tctx *t, struct obj *o)
{
	(void)t;
	return caslist_del_if_linked(&o->node);
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
	.del_if_linked = caslist_lru_del_if_linked,
	.evict = reclaim_isolated,
	.isolate = caslist_lru_isolate,
	.audit = caslist_lru_audit,
};
