/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prim - the lock-word primitives as a user builds an operation with them
 * (list.h: "the lock-word primitives are public"), against pop_tail.
 * List A: a b.  T1 holds L(a) (caslist_link_lock) and bumps a's payload.
 * T2 holds L(b), then L(a) through caslist_link_lock_prev(b), reads a's
 * payload, releases L(a), then writes b's payload and releases L(b).
 * T3 pops the tail and reads its payload.  A lock is a lock: the next
 * holder of a link sees what the last holder wrote, whichever operation
 * takes it (link_lock, link_lock_prev, pop_tail's link_lock_expect).
 */
#include "client.h"

static struct caslist_list *A;
static struct obj *a, *b;

static void *t1(void *arg)
{
	struct caslist_node *s = caslist_link_lock(&a->link);

	(void)arg;
	if (s != NULL) {
		a->data++;
		caslist_link_unlock(&a->link, s);
	}
	return NULL;
}

static void *t2(void *arg)
{
	struct caslist_node *s = caslist_link_lock(&b->link), *p;

	(void)arg;
	if (s == NULL)
		return NULL;
	p = caslist_link_lock_prev(&b->link);
	assert(p == &a->link);
	assert(OBJ(p)->data == 1 || OBJ(p)->data == 2);
	PROBE(1, OBJ(p)->data == 2);
	caslist_link_unlock(p, &b->link);
	b->data = 5;
	caslist_link_unlock(&b->link, s);
	return NULL;
}

static void *t3(void *arg)
{
	struct caslist_node *x = caslist_pop_tail(A);

	(void)arg;
	assert(x == &b->link);
	assert(OBJ(x)->data == 2 || OBJ(x)->data == 5);
	PROBE(2, OBJ(x)->data == 5);
	return NULL;
}

int main(void)
{
	A = list_ab(&a, &b);
	run_threads(t1, t2, t3);
	assert(list_len(A) == 1 && list_pos(A, &a->link) == 0);
	assert(a->data == 2 && !linked(&b->link));
	return 0;
}
