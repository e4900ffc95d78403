/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * headpop - add_head against pop_head and pop_tail.  List A: a.  T1 makes
 * n (malloc, payload) and adds it at the head; T2 pops the head, T3 the
 * tail, each reading the payload of what it got.  Final: every node either
 * popped once or still linked, the list well formed.
 * Orders it is about: link_unlock (release) and the head lock's acquire
 * publish n's payload and allocation to the poppers; pop_tail's prev hint
 * and tail lock see a node added a moment ago.
 */
#include "client.h"

static struct caslist_list *A;
static struct obj *a, *n;
static struct caslist_node *got2, *got3;

static void *t1(void *arg)
{
	(void)arg;
	n = obj_head(A, 2);
	return NULL;
}

/* x, popped: NULL or a node with its own payload (a: 1, n: 2) */
static struct caslist_node *popped(struct caslist_node *x)
{
	if (x != NULL)
		assert(OBJ(x)->data == (OBJ(x) == a ? 1 : 2));
	return x;
}

static void *t2(void *arg)
{
	struct caslist_node *x = popped(caslist_pop_head(A));

	(void)arg;
	PROBE(1, x != NULL && OBJ(x)->data == 2);
	got2 = x;
	return NULL;
}

static void *t3(void *arg)
{
	struct caslist_node *x = popped(caslist_pop_tail(A));

	(void)arg;
	PROBE(2, x != NULL && OBJ(x)->data == 2);
	PROBE(3, x == NULL);
	got3 = x;
	return NULL;
}

int main(void)
{
	A = list_new();
	a = obj_tail(A, 1);
	run_threads(t1, t2, t3);
	assert(got2 == NULL || got2 != got3);
	size_t popped = (got2 != NULL) + (got3 != NULL);
	assert(list_len(A) == 2 - popped);
	assert(linked(&a->link) == (got2 != &a->link && got3 != &a->link));
	assert(linked(&n->link) == (got2 != &n->link && got3 != &n->link));
	return 0;
}
