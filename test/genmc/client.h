/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/genmc/client.h - what every GenMC client shares: the operations
 * inline (CASLIST_INLINE, from the run's copy of the inline layer under
 * caslist/static/: the list, the batches and the free list), lib/check.c
 * compiled in, nodes with a plain payload, the probe macro and the final
 * checks.  run.py compiles each client as one translation unit, with
 * shim.h force-included first.
 */
#ifndef CASLIST_GENMC_CLIENT_H
#define CASLIST_GENMC_CLIENT_H

#define CASLIST_INLINE 1
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include <caslist/list.h>
#include <caslist/freelist.h>

/* shim.h, 6: the wait layer's per-thread state and parking lot. */
static struct caslist_lk_self genmc_self[GENMC_MAX_THREADS];
static struct caslist_lk_self *genmc_self_of(void)
{
	return &genmc_self[(unsigned long)pthread_self() % GENMC_MAX_THREADS];
}

struct caslist_lk_park caslist_lk_park_slots[CASLIST_LK_PARK_SLOTS];
void caslist_lk_park_sleep(struct caslist_lk_park *p, uint32_t seen, unsigned timeout_us)
{
	(void)p;
	(void)seen;
	(void)timeout_us;
	__VERIFIER_assume(false);
}
void caslist_lk_park_wake(struct caslist_lk_park *p)
{
	(void)p;
}

/* lib/'s out-of-line file, compiled into the client unchanged; the
 * batches (static/batch_ops.h) and the free list (static/fl_ops.h, cl_pool.h)
 * come inline with the list operations. */
#include "check.c"

/* lib/debug.c's reporters (it prints with stdio and reads getenv): a
 * misuse check that fires is an assertion failure; the stuck-link
 * reporter is reached only after a wait's clock read, which the shim
 * cuts first. */
void caslist_lk_misuse(const char *op, const void *node, const char *what)
{
	(void)op;
	(void)node;
	(void)what;
	assert(!"a caslist misuse check fired");
	abort();
}
#ifdef CASLIST_DEBUG
struct caslist_lk_holder caslist_lk_holders[CASLIST_LK_HOLDER_SLOTS];
#endif
unsigned long caslist_lk_stuck_ms(void)
{
	return 1000;
}
void caslist_lk_stuck(const void *link, const char *waiter, unsigned long waited_ms)
{
	(void)link;
	(void)waiter;
	(void)waited_ms;
}

/*
 * PROBE(k, cond): the interleaving a client is about.  run.py compiles the
 * client once more per probe with -DGENMC_PROBE=k, where the probe is a
 * planted assertion, and requires GenMC to report it: proof that some
 * complete execution reaches cond (no vacuous pass).
 */
#ifdef GENMC_PROBE
#define PROBE(k, cond)                                                         \
	do {                                                                   \
		if (GENMC_PROBE == (k) && (cond))                              \
			assert(!"probe reached");                              \
	} while (0)
#else
#define PROBE(k, cond) ((void)0)
#endif

/* A node with a plain (non-atomic) payload: whoever reads it must be
 * ordered after whoever wrote it, or GenMC reports a race. */
struct obj {
	struct caslist_node link;
	int data;
};

#define OBJ(n) caslist_entry((n), struct obj, link)

static inline struct obj *obj_new(int data)
{
	struct obj *o = malloc(sizeof(*o));

	caslist_node_init(&o->link);
	o->data = data;
	return o;
}

static inline struct caslist_list *list_new(void)
{
	struct caslist_list *l = malloc(sizeof(*l));

	caslist_init(l);
	return l;
}

/* A new node with payload data (written before it is published), added
 * at l's tail or head.  In main's set-up, before the threads start, the
 * order of the allocations and the adds is not an interleaving GenMC
 * explores. */
static inline struct obj *obj_tail(struct caslist_list *l, int data)
{
	struct obj *o = obj_new(data);

	caslist_add_tail(l, &o->link);
	return o;
}

static inline struct obj *obj_head(struct caslist_list *l, int data)
{
	struct obj *o = obj_new(data);

	caslist_add_head(l, &o->link);
	return o;
}

/* A new list holding *a (payload 1) and *b (payload 2), in that order. */
static inline struct caslist_list *list_ab(struct obj **a, struct obj **b)
{
	struct caslist_list *l = list_new();

	*a = obj_tail(l, 1);
	*b = obj_tail(l, 2);
	return l;
}

/* Cut l's front up to end (caslist_cut_front), check the chain (it starts
 * at first unless that is NULL, ends at end, every payload in [lo, hi]),
 * splice it back at l's tail; returns how many nodes it held. */
static inline int cut_check_splice(struct caslist_list *l, struct caslist_node *first,
				   struct caslist_node *end, int lo, int hi)
{
	struct caslist_node *f = caslist_cut_front(l, end), *last = NULL;
	int k = 0;

	assert(f != NULL && (first == NULL || f == first));
	for (struct caslist_node *c = f; c != NULL; c = caslist_chain_next(c)) {
		assert(OBJ(c)->data >= lo && OBJ(c)->data <= hi);
		last = c;
		k++;
	}
	assert(last == end);
	caslist_splice_tail(l, f, end);
	return k;
}

/* The free-list clients' nodes (a plain payload again) and their free
 * list: clusters of 2, `reserve` descriptors reserved (0: none). */
struct fobj {
	struct caslist_fl_node fl;
	int data;
};

static inline struct fobj *fobj_new(int data)
{
	struct fobj *o = malloc(sizeof(*o));

	caslist_fl_node_init(&o->fl);
	o->data = data;
	return o;
}

static inline struct caslist_fl *fl_new(size_t reserve)
{
	struct caslist_fl *f = malloc(sizeof(*f));

	caslist_fl_init(f, 2);
	if (reserve > 0)
		caslist_fl_reserve(f, reserve);
	return f;
}

/* Take up to n nodes from f, where a carries payload 10 and any other node
 * 20: each taken node's payload is checked, *got_a / *got_b say which came. */
static inline void fl_take_ab(struct caslist_fl *f, unsigned n, struct fobj *a, int *got_a,
			      int *got_b)
{
	struct caslist_fl_batch bt;
	struct caslist_fl_node *x;

	caslist_fl_take(f, n, &bt);
	while ((x = caslist_fl_batch_next(&bt)) != NULL) {
		struct fobj *o = caslist_entry(x, struct fobj, fl);

		assert(o->data == (o == a ? 10 : 20));
		if (o == a)
			*got_a = 1;
		else
			*got_b = 1;
	}
}

/*
 * After every thread is joined: l is a well-formed cycle (caslist_check:
 * no lock bit, next->prev == self) holding exactly the n nodes of want[],
 * in that order when ordered, and every node of others[] is not linked.
 */
static inline int list_pos(struct caslist_list *l, struct caslist_node *x)
{
	struct caslist_node *h = &l->head, *c = h;
	int i = 0;

	for (;;) {
		/* the lock bit (0) and the head bit (2) off: the address */
		c = (struct caslist_node *)(atomic_load_explicit(&c->next, memory_order_relaxed) &
					    ~(uintptr_t)5);
		if (c == h)
			return -1;
		if (c == x)
			return i;
		i++;
	}
}

static inline size_t list_len(struct caslist_list *l)
{
	size_t n = 0;

	assert(caslist_check(l, 16, &n) == 0);
	return n;
}

static inline bool linked(struct caslist_node *x)
{
	return caslist_node_linked(x);
}

#define spawn(t, fn) assert(pthread_create(&(t), NULL, (fn), NULL) == 0)
#define join(t) assert(pthread_join((t), NULL) == 0)

/* The clients' threads: t1 and t2, and t3 unless it is NULL, started in
 * that order and all joined before the final checks. */
static inline void run_threads(void *(*t1)(void *), void *(*t2)(void *), void *(*t3)(void *))
{
	pthread_t p1, p2, p3;

	spawn(p1, t1);
	spawn(p2, t2);
	if (t3 != NULL)
		spawn(p3, t3);
	join(p1);
	join(p2);
	if (t3 != NULL)
		join(p3);
}

#endif /* CASLIST_GENMC_CLIENT_H */
