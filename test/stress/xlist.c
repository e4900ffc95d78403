/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/stress/xlist.c - concurrent stress of several lists whose nodes move
 * between them (doc/protocol.md, "Lock order", "many lists").
 *
 * Usage: xlist <mix> <threads> <seconds> <seed> [lists] [nodes]
 *   mix: move   nodes move among `lists` lists (default 2) in both
 *               directions: move_head of a random node to a random list,
 *               del_if_linked / pops that hand the node to the remover,
 *               who re-adds it to a random list (head, tail, after a
 *               random node, near one); bounded walks of random lists.
 *        prim   the move mix with its moves and deletes built from the
 *               public lock-word primitives alone (caslist_link_lock,
 *               _lock_prev, _set_prev, _unlock, _retire): a user's own
 *               operations keep every invariant (the head flag included:
 *               the walks check that no head is returned as a node).
 *        touch  every add is caslist_touch of a random node (linked or
 *               not, on any list): racing adds of one node, against
 *               del_if_linked and pops of it.  A remover OWNS what it
 *               removed: it checks that no touch brings it back (its own
 *               touch must say CASLIST_TOUCH_GONE, and the node must stay
 *               unlinked), then re-initialises it (FRESH: others' touches
 *               may add it again).
 *        lru    an active/inactive LRU: hits touch(active, node); reclaim
 *               demotes pop_tail(active) -> add_head(inactive) (the
 *               popper owns the node: a plain add, racing hits' touches
 *               that must not add it) and evicts pop_tail(inactive)
 *               (owned, checked as in touch, then FRESH); walks of both.
 *        rcu    (with liburcu) objects malloc'ed and freed: an index of
 *               slots; hits look an object up (or find one by a walk) and
 *               touch it; producers publish new objects and touch them
 *               in; evictors pop the tail, unpublish, retire with
 *               call_rcu; every list access inside an RCU read-side
 *               critical section.  Counts resurrections (a retired object
 *               linked again: must be 0) and checks allocated == retired
 *               + linked at the end, retired == freed after the barrier.
 *        grow   nodes come from malloc while the lists run (a pool that
 *               grows): add_tail of a fresh node races with pops and
 *               tail adds that read the tail hint, which names the fresh
 *               node (TSan: its allocation must happen before their CAS);
 *               pops move nodes to the other list.
 *        cut    a free list F between lists A and B: pop_tail(A) ->
 *               add_tail(F); pop_head(F) -> add_head(B); pop_tail(B) ->
 *               add_tail(A); one cutter at a time cuts F's prefix at its
 *               marker and splices the chain onto A; walks of all three.
 *               (No op targets a node by pointer: the cut contract.)
 *
 * Checks.  During the run: every node a walk returns is one of the test's
 * nodes at its exact address (never a list head: the cross-list end
 * test), and not one the walker owns.  In mix move, a node's plain
 * `state` is written by its owner only (IN before an add, the owner's id
 * after a removal, checking it was IN): TSan sees a weakened order as a
 * race, a lost lock step as a node removed twice.  After the run: each
 * list's structure (caslist_check), every node on at most one list,
 * conservation over all lists (mix move, cut: every node on a list or
 * owned by one thread; mixes touch, lru: linked at the end == linked at
 * the start + adds - removals, counting only calls that reported success,
 * so two winners of one add or of one removal break the equation), and
 * progress of every operation.  A watchdog turns a hang into exit 3.
 * Prints one summary line; exit 0 = pass.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <caslist/caslist.h>

#include "../util.h"

#define MAXL 4
#define IN_LIST (-1)
#define OWNMAX 16
#define WALK_STEPS 64

struct item {
	struct caslist_node link;
	int state;		/* mix move: IN_LIST or the owner's id (owner-only) */
};

enum { OP_MOVE, OP_DEL, OP_POP, OP_ADD, OP_TOUCH_ADD, OP_WALK, OP_CUT, OP_EVICT, OP_BATCH,
       NOPS };
static const char *const op_name[NOPS] = { "move", "del", "pop", "add", "touch_add",
					   "walk", "cut", "evict", "batch" };

static struct caslist_list lists[MAXL];
static struct item *items;
static int nitems, nlists, nthreads;
static const char *mix;
static pthread_barrier_t start;
static _Atomic int stop;
static struct progress prog;	/* kinds tried (want) and succeeded (have) */
static _Atomic int cut_token;
static _Atomic long walk_bad;	/* walks that returned a non-node */
static _Atomic long resurrected;	/* a removed node linked again by a touch */

struct thr {
	int id;
	uint64_t rng;
	struct item *own[OWNMAX + 2];
	int nown;
	unsigned char *mine;	/* per node: owned by this thread (its own bytes) */
	long ok[NOPS], tried[NOPS];
	long walked;
	struct item **made;	/* mix grow: the nodes this thread malloc'ed */
	int nmade;
	struct caslist_batch batch;	/* mixes move, touch, lru: queued moves */
	int q[CASLIST_BATCH_MAX], nq;	/* what is queued in it (mine[] = 2) */
} __attribute__((aligned(64)));

static struct thr *thr;
static struct item *marker;	/* mix cut: `last` of every cut, only ever on F */

static inline unsigned rnd(struct thr *t, unsigned n)
{
	return (unsigned)(splitmix64(&t->rng) % n);
}

static inline struct item *item_of(struct caslist_node *n)
{
	return caslist_entry(n, struct item, link);
}

/* Is n one of the test's nodes, at its exact address? */
static inline int is_item(const struct caslist_node *n)
{
	uintptr_t a = (uintptr_t)n, b = (uintptr_t)&items[0].link;

	return a >= b && a < (uintptr_t)&items[nitems].link && (a - b) % sizeof(struct item) == 0;
}

/* The batch flushed (by us, or by itself when full): forget what it held. */
static void batch_flushed(struct thr *t)
{
	while (t->nq > 0)
		t->mine[t->q[--t->nq]] = 0;
}

static void batch_flush(struct thr *t)
{
	caslist_batch_flush(&t->batch);
	batch_flushed(t);
}

/* Queue it for l's head in t's batch (flushing first if the batch is for
 * another list).  A node queued in our own batch is skipped (queueing it
 * again is misuse); the walk check treats queued nodes as ours: they are on
 * no list until the flush. */
static void batch_op(struct thr *t, struct caslist_list *l, struct item *it)
{
	int k = (int)(it - items);

	t->tried[OP_BATCH]++;
	if (t->mine[k])
		return;
	if (t->batch.n > 0 && t->batch.l != l)
		batch_flush(t);
	if (caslist_batch_move_head(&t->batch, l, &it->link) != CASLIST_OK)
		return;
	t->ok[OP_BATCH]++;
	if (t->batch.n == 0) {		/* it was the last one: flushed */
		batch_flushed(t);
	} else if (t->batch.node[t->batch.n - 1] == &it->link) {
		t->mine[k] = 2;		/* queued here (not in another batch) */
		t->q[t->nq++] = k;
	}
}

/* batch_op for two nodes in one caslist_batch_move_head_n call.  A batch
 * that could fill up during the call is flushed first, so that afterwards
 * the nodes queued here are exactly batch.node[n0..n-1] (or none, if the
 * call filled and flushed it). */
static void batch_op2(struct thr *t, struct caslist_list *l, struct item *a, struct item *b)
{
	struct caslist_node *v[2] = { &a->link, &b->link };
	unsigned n0;
	size_t got;

	t->tried[OP_BATCH] += 2;
	if (a == b || t->mine[a - items] || t->mine[b - items])
		return;
	if ((t->batch.n > 0 && t->batch.l != l) || t->batch.n + 2 > CASLIST_BATCH_MAX)
		batch_flush(t);
	n0 = t->batch.n;
	got = caslist_batch_move_head_n(&t->batch, l, v, 2);
	t->ok[OP_BATCH] += got;
	if (t->batch.n == 0) {
		batch_flushed(t);
		return;
	}
	if (t->batch.n - n0 > got)	/* queued here: some of those it reports OK */
		atomic_fetch_add(&walk_bad, 1);
	for (unsigned i = n0; i < t->batch.n; i++) {
		int k = (int)(item_of(t->batch.node[i]) - items);

		t->mine[k] = 2;
		t->q[t->nq++] = k;
	}
}

static void take(struct thr *t, struct item *it)
{
	if (strcmp(mix, "move") == 0 || strcmp(mix, "prim") == 0 || strcmp(mix, "cut") == 0) {
		if (it->state != IN_LIST)
			atomic_fetch_add(&walk_bad, 1000000); /* removed twice */
		it->state = t->id;
	}
	t->mine[it - items] = 1;
	t->own[t->nown++] = it;
}

/* One try of op that pops n (NULL: the list was empty): counted, and a
 * popped node taken into t's hand.  Returns whether it popped one. */
static int popped(struct thr *t, int op, struct caslist_node *n)
{
	t->tried[op]++;
	if (n == NULL)
		return 0;
	t->ok[op]++;
	take(t, item_of(n));
	return 1;
}

static struct item *give(struct thr *t)
{
	struct item *it = t->own[--t->nown];

	t->mine[it - items] = 0;
	it->state = IN_LIST;
	return it;
}

/* A bounded walk of l: every node returned must be a test node that this
 * thread does not own (it was off every list for the whole walk). */
static void walk(struct thr *t, struct caslist_list *l)
{
	struct caslist_node *cur = &l->head;
	int steps = 0, rc;

	while (steps < WALK_STEPS && (rc = caslist_iter_next(l, &cur)) != 0) {
		if (rc == CASLIST_EAGAIN) {
			cur = &l->head;
		} else if (!is_item(cur) || t->mine[item_of(cur) - items]) {
			atomic_fetch_add(&walk_bad, 1);
			return;
		}
		steps++;
	}
	t->walked += steps;
}

/* ---- mix prim: the move mix with its moves and deletes built from the
 * public lock-word primitives alone (list.h), the head flag kept by
 * caslist_link_set_prev ---- */
static int prim;

/* Delete n as the library does ([S6]): 1 if this call removed it. */
static int prim_del(struct caslist_node *n)
{
	struct caslist_node *s = caslist_link_lock(n), *p;

	if (s == NULL)
		return 0;		/* not linked */
	p = caslist_link_lock_prev(n);
	caslist_link_set_prev(s, p);
	caslist_link_unlock(p, s);	/* n leaves its list */
	caslist_link_retire(n);		/* OWNED: ours */
	return 1;
}

/* Move n to l's head as the library does ([S7]): unlink holding L(n),
 * then L(head) holding only L(n) of a node in transit, insert. */
static int prim_move(struct caslist_list *l, struct caslist_node *n)
{
	struct caslist_node *h = &l->head, *s = caslist_link_lock(n), *p, *f;

	if (s == NULL)
		return 0;
	p = caslist_link_lock_prev(n);
	if (p == h) {			/* already first on l */
		caslist_link_unlock(p, n);
		caslist_link_unlock(n, s);
		return 1;
	}
	caslist_link_set_prev(s, p);
	caslist_link_unlock(p, s);	/* n is in transit, L(n) held */
	f = caslist_link_lock(h);
	caslist_link_set_prev(n, h);
	caslist_link_set_prev(f, n);	/* keeps the head flag if f is h */
	caslist_link_unlock(h, n);	/* n is first from here */
	caslist_link_unlock(n, f);
	return 1;
}

static void op_move(struct thr *t)
{
	unsigned r = rnd(t, 100);
	struct caslist_list *l = &lists[rnd(t, (unsigned)nlists)];
	struct item *it = &items[rnd(t, (unsigned)nitems)];

	if (t->nown >= OWNMAX || (t->nown > 0 && r < 30)) {
		struct item *x = give(t);
		struct item *pos = &items[rnd(t, (unsigned)nitems)];
		int how = (int)rnd(t, 4), rc = 0;

		t->tried[OP_ADD]++;
		if (how == 0) {
			caslist_add_head(l, &x->link);
		} else if (how == 1) {
			caslist_add_tail(l, &x->link);
		} else if (pos == x || t->mine[pos - items]) {
			caslist_add_near(&l->head, &x->link);
		} else if (how == 2) {
			rc = caslist_add_after(&pos->link, &x->link);
		} else {
			rc = caslist_add_near(&pos->link, &x->link) == CASLIST_ENOENT ? CASLIST_ENOENT : 0;
		}
		if (rc == CASLIST_ENOENT) {	/* pos was gone: still ours */
			take(t, x);
			x->state = t->id;
		} else {
			t->ok[OP_ADD]++;
		}
	} else if (r < 65) {
		t->tried[OP_MOVE]++;
		if (!t->mine[it - items] &&
		    (prim ? prim_move(l, &it->link) : caslist_move_head(l, &it->link) == CASLIST_OK))
			t->ok[OP_MOVE]++;
	} else if (r < 72) {
		if (r & 1)
			batch_op(t, l, it);
		else
			batch_op2(t, l, it, &items[rnd(t, (unsigned)nitems)]);
	} else if (r < 80) {
		t->tried[OP_DEL]++;
		if (!t->mine[it - items] &&
		    (prim ? prim_del(&it->link) : caslist_del_if_linked(&it->link))) {
			t->ok[OP_DEL]++;
			take(t, it);
		}
	} else if (r < 92) {
		popped(t, OP_POP, r & 1 ? caslist_pop_head(l) : caslist_pop_tail(l));
	} else {
		t->tried[OP_WALK]++;
		t->ok[OP_WALK]++;
		walk(t, l);
	}
}

/*
 * n was just removed by this thread (pop, del_if_linked): it is OWNED.  No
 * touch may bring it back: ours says GONE, and a moment later (others'
 * touches racing) it is still not linked.  Then hand it back to everyone:
 * FRESH again.
 */
static void owned_then_fresh(struct caslist_list *l, struct caslist_node *n)
{
	if (caslist_touch(l, n) != CASLIST_TOUCH_GONE)
		atomic_fetch_add(&resurrected, 1);
	sched_yield();
	if (caslist_node_linked(n))
		atomic_fetch_add(&resurrected, 1);
	caslist_node_init(n);
}

static void op_touch(struct thr *t, int lru)
{
	unsigned r = rnd(t, 100);
	struct item *it = &items[rnd(t, (unsigned)nitems)];
	struct caslist_list *l = &lists[lru ? 0 : rnd(t, (unsigned)nlists)];
	struct caslist_node *n;

	if (r < 40) {			/* a hit */
		t->tried[OP_TOUCH_ADD]++;
		if (caslist_touch(l, &it->link) == CASLIST_TOUCH_ADDED)
			t->ok[OP_TOUCH_ADD]++;
	} else if (r < 60) {		/* a hit, batched */
		batch_op(t, l, it);
	} else if (!lru && r < 75) {
		t->tried[OP_DEL]++;
		if (caslist_del_if_linked(&it->link)) {
			t->ok[OP_DEL]++;
			owned_then_fresh(l, &it->link);
		}
	} else if (!lru && r < 90) {
		t->tried[OP_POP]++;
		if ((n = r & 1 ? caslist_pop_head(l) : caslist_pop_tail(l)) != NULL) {
			t->ok[OP_POP]++;
			owned_then_fresh(l, n);
		}
	} else if (lru && r < 80) {	/* reclaim: demote the active tail */
		t->tried[OP_POP]++;
		n = caslist_pop_tail(&lists[0]);
		if (n != NULL) {
			t->ok[OP_POP]++;
			/* n is ours (OWNED): hits' touches meanwhile add nothing,
			 * so a plain add is the only add */
			t->tried[OP_ADD]++;
			t->ok[OP_ADD]++;
			caslist_add_head(&lists[1], n);
		}
	} else if (lru && r < 90) {	/* evict the inactive tail */
		t->tried[OP_EVICT]++;
		if ((n = caslist_pop_tail(&lists[1])) != NULL) {
			t->ok[OP_EVICT]++;
			owned_then_fresh(&lists[0], n);
		}
	} else {
		t->tried[OP_WALK]++;
		t->ok[OP_WALK]++;
		walk(t, &lists[rnd(t, (unsigned)nlists)]);
	}
}

/* Cut F (lists[2]) at my marker; splice everything before it onto A. */
static void cut_once(struct thr *t)
{
	struct caslist_list *A = &lists[0], *F = &lists[2];
	struct caslist_node *first, *n, *before = NULL;
	int expect = 0;

	t->tried[OP_CUT]++;
	first = caslist_cut_front(F, &marker->link);
	if (first == NULL)
		return;		/* the marker was popped: its popper re-adds it */
	/* The chain is ours: walk it, every node a test node, ending at the
	 * marker; everything in it changes owner to us. */
	for (n = first; n != NULL; n = caslist_chain_next(n)) {
		if (!is_item(n) || item_of(n)->state != IN_LIST || expect++ > nitems) {
			atomic_fetch_add(&walk_bad, 1000);
			return;
		}
		if (n == &marker->link) {
			if (caslist_chain_next(n) != NULL)
				atomic_fetch_add(&walk_bad, 1000);
			break;
		}
		before = n;
	}
	t->ok[OP_CUT]++;
	if (before != NULL)
		caslist_splice_tail(A, first, before);
	caslist_node_init(&marker->link);
	caslist_add_tail(F, &marker->link);
}

static void op_cut(struct thr *t)
{
	unsigned r = rnd(t, 100);
	struct caslist_list *A = &lists[0], *B = &lists[1], *F = &lists[2];

	if (r < 30) {
		if (popped(t, OP_POP, caslist_pop_tail(A)))
			caslist_add_tail(F, &give(t)->link);
	} else if (r < 60) {
		if (popped(t, OP_POP, caslist_pop_head(F))) {
			struct item *it = give(t);

			/* The marker stays on F (re-added to its own list). */
			if (it == marker)
				caslist_add_tail(F, &it->link);
			else
				caslist_add_head(B, &it->link);
		}
	} else if (r < 85) {
		if (popped(t, OP_MOVE, caslist_pop_tail(B)))
			caslist_add_tail(A, &give(t)->link);
	} else if (r < 95) {
		int z = 0;

		if (atomic_compare_exchange_strong(&cut_token, &z, 1)) {
			cut_once(t);
			atomic_store(&cut_token, 0);
		}
	} else {
		t->tried[OP_WALK]++;
		t->ok[OP_WALK]++;
		walk(t, &lists[rnd(t, 3)]);
	}
}

/* ---- mix rcu: objects freed through liburcu's call_rcu ------------- */
struct robj;
static _Atomic(struct robj *) *slots;	/* the index: published objects (mix rcu) */
#ifdef XLIST_URCU
#include <urcu/urcu-memb.h>

/* The read side and TSan: read_lock, read_unlock, grace_over, wait_callbacks. */
#include "../../doc/examples/urcu_tsan.h"

#define ROBJ_COOKIE 0x0b1ec7ULL

struct robj {
	struct caslist_node link;
	struct rcu_head rcu;
	int slot;
	_Atomic int retired;	/* set by its evictor before call_rcu */
	uint64_t cookie;
};

static _Atomic long r_alloc, r_retired, r_freed, r_bad;

static void robj_free(struct rcu_head *h)
{
	struct robj *o = caslist_entry(h, struct robj, rcu);

	grace_over();
	/* Still OWNED by its evictor: no touch may have linked it again. */
	if (caslist_node_linked(&o->link) ||
	    atomic_load_explicit(&o->link.next, memory_order_relaxed) != CASLIST_POISON_NEXT) {
		atomic_fetch_add(&resurrected, 1);
		fprintf(stderr, "xlist: freeing object %p with next %#lx\n", (void *)o,
			(unsigned long)atomic_load(&o->link.next));
	}
	if (o->cookie != ROBJ_COOKIE)
		atomic_fetch_add(&r_bad, 1);
	o->cookie = 0;
	free(o);
	atomic_fetch_add_explicit(&r_freed, 1, memory_order_relaxed);
}

/* A hit: touch o (it may be evicted meanwhile: GONE).  ADDED is legal only
 * for an object never linked yet (its producer's touch raced ours). */
static void rcu_hit(struct thr *t, struct robj *o)
{
	/* Retired before the touch started: the evictor's pop happened
	 * before (it sets retired after the pop; seq_cst both sides), so the
	 * touch must find the object OWNED.  (Retired later says nothing: a
	 * legal add may be evicted at once.) */
	int was_retired = atomic_load(&o->retired);
	int rc = caslist_touch(&lists[0], &o->link);

	if (rc == CASLIST_TOUCH_ADDED) {
		t->ok[OP_TOUCH_ADD]++;
		if (was_retired) {
			atomic_fetch_add(&resurrected, 1);
			fprintf(stderr, "xlist: touch added retired object %p\n", (void *)o);
		}
	}
}

static void op_rcu(struct thr *t)
{
	unsigned r = rnd(t, 100);
	int k = (int)rnd(t, (unsigned)nitems);
	struct robj *o;
	struct caslist_node *n;

	if (r < 40) {			/* a hit by key */
		t->tried[OP_TOUCH_ADD]++;
		read_lock();
		o = atomic_load_explicit(&slots[k], memory_order_acquire);
		if (o != NULL)
			rcu_hit(t, o);
		read_unlock();
	} else if (r < 55) {		/* a hit on an object a walk found */
		struct caslist_node *cur = &lists[0].head;
		int steps = 1 + (int)rnd(t, 8), rc = 1;

		t->tried[OP_WALK]++;
		t->ok[OP_WALK]++;
		read_lock();
		while (steps-- > 0 && (rc = caslist_iter_next(&lists[0], &cur)) == 1)
			t->walked++;
		if (rc == 1 && cur != &lists[0].head)
			rcu_hit(t, caslist_entry(cur, struct robj, link));
		read_unlock();
	} else if (r < 80) {		/* evict the tail: unpublish, retire */
		t->tried[OP_EVICT]++;
		read_lock();
		n = caslist_pop_tail(&lists[0]);
		read_unlock();
		if (n == NULL)
			return;
		o = caslist_entry(n, struct robj, link);
		t->ok[OP_EVICT]++;
		/* ours (OWNED): only we unpublish it and retire it */
		atomic_store(&slots[o->slot], NULL);
		atomic_store(&o->retired, 1);
		atomic_fetch_add_explicit(&r_retired, 1, memory_order_relaxed);
		reader_done();	/* TSan: our writes to o happen before its free */
		urcu_memb_call_rcu(&o->rcu, robj_free);
	} else {			/* a new object into an empty slot */
		struct robj *z = NULL;

		t->tried[OP_ADD]++;
		if (atomic_load_explicit(&slots[k], memory_order_relaxed) != NULL)
			return;
		o = malloc(sizeof(*o));
		if (o == NULL)
			abort();
		caslist_node_init(&o->link);
		o->slot = k;
		o->cookie = ROBJ_COOKIE;
		atomic_init(&o->retired, 0);
		/* Read-side section before publishing: once o is in the
		 * index, others may touch, evict and retire it at once, and
		 * only our section keeps it alive for our own touch.
		 * Release: a hit that finds o sees it initialised. */
		read_lock();
		if (!atomic_compare_exchange_strong_explicit(&slots[k], &z, o, memory_order_release,
							     memory_order_relaxed)) {
			read_unlock();
			free(o);	/* never published */
			return;
		}
		atomic_fetch_add_explicit(&r_alloc, 1, memory_order_relaxed);
		t->ok[OP_ADD]++;
		rcu_hit(t, o);	/* FRESH: this touch or a hit's adds it */
		read_unlock();
	}
}

/* After the run: every published object is linked, and only those; then
 * wait for the callbacks (allocated == retired + linked, retired ==
 * freed) and free what is left. */
static void rcu_finish(struct checks *c, long linked)
{
	long live = 0;

	for (int k = 0; k < nitems; k++) {
		struct robj *o = atomic_load(&slots[k]);

		if (o == NULL)
			continue;
		live++;
		check(c, caslist_node_linked(&o->link), "published object %d is not linked", k);
	}
	check(c, live == linked, "%ld objects published, %ld linked", live, linked);
	wait_callbacks(&r_freed, &r_retired);
	check(c, atomic_load(&r_alloc) == atomic_load(&r_retired) + live,
	      "allocated %ld != retired %ld + live %ld", atomic_load(&r_alloc),
	      atomic_load(&r_retired), live);
	check(c, atomic_load(&r_freed) == atomic_load(&r_retired), "retired %ld != freed %ld",
	      atomic_load(&r_retired), atomic_load(&r_freed));
	check(c, atomic_load(&r_bad) == 0, "%ld freed objects with a bad cookie (double free?)",
	      atomic_load(&r_bad));
	printf("# rcu: allocated %ld retired %ld freed %ld live %ld resurrected %ld\n",
	       atomic_load(&r_alloc), atomic_load(&r_retired), atomic_load(&r_freed), live,
	       atomic_load(&resurrected));
	for (int k = 0; k < nitems; k++) {
		struct robj *o = atomic_load(&slots[k]);

		if (o != NULL && caslist_del_if_linked(&o->link))
			free(o);
	}
}
#endif /* XLIST_URCU */

#define GROW_MAX 256	/* nodes each thread may malloc (mix grow) */

static void op_grow(struct thr *t)
{
	unsigned r = rnd(t, 100);
	int k = (int)rnd(t, (unsigned)nlists);
	struct caslist_list *l = &lists[k], *other = &lists[(k + 1) % nlists];
	struct caslist_node *n;

	if (r < 10 && t->nmade < GROW_MAX) {
		struct item *it = malloc(sizeof(*it));

		if (it == NULL)
			return;
		caslist_node_init(&it->link);
		it->state = IN_LIST;
		t->made[t->nmade++] = it;
		t->tried[OP_ADD]++;
		t->ok[OP_ADD]++;
		caslist_add_tail(l, &it->link);
	} else if (r < 90) {
		t->tried[OP_POP]++;
		n = r & 1 ? caslist_pop_tail(l) : caslist_pop_head(l);
		if (n != NULL) {
			t->ok[OP_POP]++;
			if (r & 2)
				caslist_add_head(other, n);
			else
				caslist_add_tail(other, n);
		}
	} else {
		struct caslist_node *cur = &l->head;
		int steps = 0;

		t->tried[OP_WALK]++;
		t->ok[OP_WALK]++;
		while (steps < WALK_STEPS && caslist_iter_next(l, &cur) == 1)
			steps++;
		t->walked += steps;
	}
}

static void *worker(void *arg)
{
	struct thr *t = arg;
	int m = strcmp(mix, "move") == 0 || prim ? 0 : strcmp(mix, "touch") == 0 ? 1
					     : strcmp(mix, "lru") == 0 ? 2
					     : strcmp(mix, "grow") == 0 ? 4
					     : strcmp(mix, "rcu") == 0 ? 5 : 3;

#ifdef XLIST_URCU
	if (m == 5)
		urcu_memb_register_thread();
#endif
	pthread_barrier_wait(&start);
	while (progress_more(&stop, &prog)) {
		for (int i = 0; i < 64; i++) {
			if (m == 0)
				op_move(t);
			else if (m == 1 || m == 2)
				op_touch(t, m == 2);
			else if (m == 4)
				op_grow(t);
#ifdef XLIST_URCU
			else if (m == 5)
				op_rcu(t);
#endif
			else
				op_cut(t);
		}
		/* Progress by construction: every kind tried must succeed
		 * once; the run goes on after its time until it has (util.h). */
		for (int k = 0; k < NOPS; k++) {
			if (t->tried[k] > 0)
				progress_want(&prog, (unsigned)k);
			if (t->ok[k] > 0)
				progress_note(&prog, (unsigned)k);
		}
	}
	batch_flush(t);
	/* Hand back what we own (mix move and cut): to list 0's tail. */
	while (t->nown > 0)
		caslist_add_tail(&lists[0], &give(t)->link);
#ifdef XLIST_URCU
	if (m == 5)
		urcu_memb_unregister_thread();
#endif
	return NULL;
}

int main(int argc, char **argv)
{
	struct checks c = { "xlist", 0, 0 };
	double secs;
	long linked0 = 0, linked1 = 0, tot[NOPS] = { 0 }, tried[NOPS] = { 0 }, walked = 0;
	unsigned char *seen;
	uint64_t seed;
	int owners, grow;

	if (argc < 5) {
		fprintf(stderr,
			"usage: xlist move|prim|touch|lru|cut|grow|rcu threads seconds seed [lists] [nodes]\n");
		return 2;
	}
	mix = argv[1];
	nthreads = atoi(argv[2]);
	secs = atof(argv[3]);
	seed = strtoull(argv[4], NULL, 0);
	nlists = argc > 5 ? atoi(argv[5]) : 2;
	nitems = argc > 6 ? atoi(argv[6]) : 256;
	if (strcmp(mix, "rcu") == 0) {
#ifndef XLIST_URCU
		printf("xlist mix=rcu: SKIP (built without liburcu)\n");
		return 77;
#else
		nlists = 1;
		slots = calloc((size_t)nitems, sizeof(*slots));
		if (slots == NULL)
			return 2;
#endif
	}
	if (strcmp(mix, "lru") == 0)
		nlists = 2;
	if (strcmp(mix, "cut") == 0) {
		nlists = 3;
		nitems += 1;	/* the marker, at the end */
	}
	if (nthreads < 1 || nthreads > 4096 || nlists < 1 || nlists > MAXL || nitems < 2 ||
	    (strcmp(mix, "move") && strcmp(mix, "touch") && strcmp(mix, "lru") &&
	     strcmp(mix, "cut") && strcmp(mix, "grow") && strcmp(mix, "rcu") && strcmp(mix, "prim"))) {
		fprintf(stderr, "xlist: bad arguments\n");
		return 2;
	}
	prim = strcmp(mix, "prim") == 0;
	owners = strcmp(mix, "move") == 0 || prim || strcmp(mix, "cut") == 0 ||
		 strcmp(mix, "grow") == 0;
	grow = strcmp(mix, "grow") == 0 || strcmp(mix, "rcu") == 0;
	watchdog_arm(secs);
	items = calloc((size_t)nitems + 1, sizeof(*items));
	thr = aligned_alloc(64, sizeof(*thr) * (size_t)nthreads);
	seen = calloc((size_t)nitems, 1);
	if (items == NULL || thr == NULL || seen == NULL)
		return 2;
	marker = &items[nitems - 1];
	for (int i = 0; i < nlists; i++)
		caslist_init(&lists[i]);
	/* Start: node i on list i % nlists, except every 4th node (unlinked,
	 * and in the owner mixes owned by nobody: put on list 0 too). */
	for (int i = 0; i < nitems; i++) {
		caslist_node_init(&items[i].link);
		items[i].state = IN_LIST;
		if ((!owners && i % 4 == 3) || slots != NULL)	/* mix rcu starts empty */
			continue;
		caslist_add_tail(&lists[strcmp(mix, "cut") == 0 && i == nitems - 1 ? 2 : i % nlists],
				 &items[i].link);
		linked0++;
	}
	for (int i = 0; i < nthreads; i++) {
		memset(&thr[i], 0, sizeof(thr[i]));
		thr[i].id = i;
		thr[i].rng = seed * 1000003u + (uint64_t)i;
		thr[i].mine = calloc((size_t)nitems, 1);
		thr[i].made = calloc(GROW_MAX, sizeof(*thr[i].made));
		caslist_batch_init(&thr[i].batch);
		if (thr[i].mine == NULL || thr[i].made == NULL)
			return 2;
	}
	if (run_threads_progress(nthreads, worker, thr, sizeof(*thr), &start, &stop, secs,
				 &prog) != 0)
		return 2;

	for (int i = 0; i < nlists; i++) {
		size_t cnt = 0;
		int rc = caslist_check(&lists[i], (size_t)nitems + (size_t)nthreads * GROW_MAX, &cnt);
		struct caslist_node *cur = &lists[i].head;

		check(&c, rc == 0, "list %d: %s", i, caslist_check_strerror(rc));
		if (rc != 0)
			continue;
		while (caslist_iter_next(&lists[i], &cur) == 1) {
			long k = item_of(cur) - items;

			if (grow)	/* malloc'ed nodes: counted below */
				continue;
			check(&c, is_item(cur) && !seen[k], "node %ld on two lists (or twice)", k);
			if (is_item(cur))
				seen[k] = 1;
		}
		linked1 += (long)cnt;
	}
	for (int i = 0; i < nthreads; i++) {
		for (int k = 0; k < NOPS; k++) {
			tot[k] += thr[i].ok[k];
			tried[k] += thr[i].tried[k];
		}
		walked += thr[i].walked;
	}
	for (int i = 0; i < nitems && !grow; i++) {
		if (!seen[i])
			check(&c, !caslist_node_linked(&items[i].link) && !owners,
			      "node %d is on no list but looks linked, or was lost", i);
		else if (owners)
			check(&c, items[i].state == IN_LIST, "node %d on a list has state %d", i,
			      items[i].state);
	}
	if (slots != NULL) {
#ifdef XLIST_URCU
		rcu_finish(&c, linked1);
		check(&c, atomic_load(&resurrected) == 0, "%ld resurrections",
		      atomic_load(&resurrected));
#endif
	} else if (grow) {
		long made = 0;

		for (int i = 0; i < nthreads; i++) {
			for (int k = 0; k < thr[i].nmade; k++)
				seen[0] |= !caslist_node_linked(&thr[i].made[k]->link);
			made += thr[i].nmade;
		}
		check(&c, linked1 == nitems + made && !seen[0],
		      "conservation: %ld nodes on the lists, want %d + %ld made", linked1, nitems,
		      made);
	} else if (owners) {
		check(&c, linked1 == nitems, "conservation: %ld nodes on the lists, want %d",
		      linked1, nitems);
	}
	else
		check(&c, linked1 == linked0 + tot[OP_TOUCH_ADD] + tot[OP_ADD] - tot[OP_DEL] -
					    tot[OP_POP] - tot[OP_EVICT],
		      "conservation: linked %ld at the end, want %ld + %ld added - %ld removed",
		      linked1, linked0, tot[OP_TOUCH_ADD] + tot[OP_ADD],
		      tot[OP_DEL] + tot[OP_POP] + tot[OP_EVICT]);
	check(&c, atomic_load(&resurrected) == 0,
	      "%ld removed nodes brought back by a touch (resurrections)", atomic_load(&resurrected));
	check(&c, atomic_load(&walk_bad) == 0, "%ld bad walks/chains/removals (walk: a non-node)",
	      atomic_load(&walk_bad));
	for (int k = 0; k < NOPS; k++)
		if (tried[k] > 0)
			check(&c, tot[k] > 0, "no %s succeeded in %ld tries (run extended %.3f s)",
			      op_name[k], tried[k], prog.extended);
	printf("xlist mix=%s threads=%d lists=%d nodes=%d seconds=%.2f seed=%llu: linked %ld -> %ld;",
	       mix, nthreads, nlists, nitems, secs, (unsigned long long)seed, linked0, linked1);
	for (int k = 0; k < NOPS; k++)
		if (tried[k] > 0)
			printf(" %s=%ld/%ld", op_name[k], tot[k], tried[k]);
	printf(" walked=%ld extended=%.3fs -> %s (%d checks, %d failed)\n", walked, prog.extended,
	       c.failed ? "FAIL" : "PASS", c.n, c.failed);
	for (int i = 0; i < nthreads; i++) {
		for (int k = 0; k < thr[i].nmade; k++)
			free(thr[i].made[k]);
		free(thr[i].made);
		free(thr[i].mine);
	}
	free(thr);
	free(items);
	free(seen);
	return c.failed ? 1 : 0;
}
