/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nearnew - add_near at a node that is being added right now, whose
 * predecessor was just allocated by the adder.  List A: a; x is FRESH
 * (main's).  T1 allocates p, adds it at the head, then adds x after p.
 * T2 adds n near x (main's n): x may be not yet linked (ENOENT), linked
 * with its own link still locked by T1's insert (then T2 tries the link
 * before x, through x's prev hint, which names T1's p), or done.
 * Whatever T2 touches of p must follow p's allocation.
 */
#include "client.h"

static struct caslist_list *A;
static struct obj *a, *p, *x, *n;
static int rc2;

static void *t1(void *arg)
{
	(void)arg;
	p = obj_new(4);
	caslist_add_head(A, &p->link);
	assert(caslist_add_after(&p->link, &x->link) == CASLIST_OK);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	rc2 = caslist_add_near(&x->link, &n->link);
	PROBE(1, rc2 == CASLIST_NEAR_BEFORE);
	PROBE(2, rc2 == CASLIST_ENOENT);
	return NULL;
}

int main(void)
{
	A = list_new();
	a = obj_tail(A, 1);
	x = obj_new(2);
	n = obj_new(3);
	run_threads(t1, t2, NULL);
	assert(list_len(A) == (rc2 == CASLIST_ENOENT ? 3u : 4u));
	assert(list_pos(A, &p->link) == 0);
	if (rc2 == CASLIST_NEAR_BEFORE)
		assert(list_pos(A, &n->link) == 1 && list_pos(A, &x->link) == 2);
	if (rc2 == CASLIST_NEAR_AFTER)
		assert(list_pos(A, &x->link) == 1 && list_pos(A, &n->link) == 2);
	return 0;
}
