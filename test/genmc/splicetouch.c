/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * splicetouch - a spliced chain node targeted by pointer.  List A: a b x.
 * T1 pops a and b (OWNED, its own), allocates c, chains a b c (c
 * allocated after chain_link(a, b)), splices the chain at A's tail (after
 * x: the splice takes neither b's links nor the head's next word), hands
 * b's pointer out with a release store and deletes c.  T2 loads the
 * pointer with acquire and, if it got b, touches it: b is linked, so the
 * touch moves it to the head, taking L(b) and L(a), the links chain_link
 * wrote, and writing c->prev unless T1's delete of c (L(c), then L(b))
 * came first.  The hand-off is what the contract asks of a thread that
 * targets a chain node after the splice (list.h, "Chains"): it
 * synchronises with the splice, whose unlock publishes the chain, so the
 * touch needs nothing from chain_link's own store (doc/protocol.md,
 * "Memory orders", G6; with the hand-off relaxed, outside the contract,
 * the weakened store fails here).  Final: A holds x, a and b, b first if
 * T2 moved it.
 */
#include "client.h"

static struct caslist_list *A;
static struct obj *a, *b, *c, *x;
static _Atomic(struct obj *) handed;
static int r2 = -1;

static void *t1(void *arg)
{
	(void)arg;
	assert(caslist_pop_head(A) == &a->link);
	assert(caslist_pop_head(A) == &b->link);
	caslist_chain_link(&a->link, &b->link);
	c = obj_new(3);
	caslist_chain_link(&b->link, &c->link);
	caslist_splice_tail(A, &a->link, &c->link);
	atomic_store_explicit(&handed, b, memory_order_release);
	assert(caslist_del_if_linked(&c->link));
	return NULL;
}

static void *t2(void *arg)
{
	struct obj *o = atomic_load_explicit(&handed, memory_order_acquire);

	(void)arg;
	if (o != NULL) {
		r2 = caslist_touch(A, &o->link);
		assert(r2 == CASLIST_OK);
	}
	PROBE(1, r2 == CASLIST_OK);
	return NULL;
}

int main(void)
{
	A = list_ab(&a, &b);
	x = obj_tail(A, 4);
	run_threads(t1, t2, NULL);
	assert(list_len(A) == 3 && !linked(&c->link) &&
	       list_pos(A, &x->link) == (r2 == CASLIST_OK ? 1 : 0));
	assert(list_pos(A, &b->link) == (r2 == CASLIST_OK ? 0 : 2));
	return 0;
}
