/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * trylock - pop_head's trylock of the first node's link, against an insert
 * after that node.  List A: a.  T1 makes m (malloc, payload) and adds it
 * after a; T2 and T3 pop the head and read the payload.  When T3 pops m,
 * m reached it through T2: T1's insert released L(a), T2's trylock of L(a)
 * took it, T2's unlock of the head released it, T3's head lock took it.
 */
#include "client.h"

static struct caslist_list *A;
static struct obj *a, *m;
static struct caslist_node *got2, *got3;
static int rc1;

static void *t1(void *arg)
{
	(void)arg;
	m = obj_new(3);
	rc1 = caslist_add_after(&a->link, &m->link);
	return NULL;
}

static struct caslist_node *pop(void)
{
	struct caslist_node *x = caslist_pop_head(A);

	if (x != NULL)
		assert(OBJ(x)->data == (OBJ(x) == a ? 1 : 3));
	return x;
}

static void *t2(void *arg)
{
	(void)arg;
	got2 = pop();
	return NULL;
}

static void *t3(void *arg)
{
	(void)arg;
	got3 = pop();
	PROBE(1, got3 != NULL && OBJ(got3)->data == 3);
	return NULL;
}

int main(void)
{
	A = list_new();
	a = obj_tail(A, 1);
	run_threads(t1, t2, t3);
	size_t popped = (got2 != NULL) + (got3 != NULL);
	assert(got2 == NULL || got2 != got3);
	/* add_after(a) fails only if a was popped first */
	assert(list_len(A) + popped == (rc1 == CASLIST_OK ? 2u : 1u));
	assert(rc1 == CASLIST_OK || got2 == &a->link || got3 == &a->link);
	return 0;
}
