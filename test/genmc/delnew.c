/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * delnew - a delete whose node gets a new predecessor right now, just
 * allocated by its adder.  List A: a, x.  T1 allocates p and adds it
 * after a (so before x).  T2 deletes x: its first attempt
 * (caslist_lk_pair_first) loads x's prev word with x's next word and
 * uses it as the predecessor hint, so it may name T1's p, and its CAS on
 * p's link must follow p's allocation.  Either way the delete succeeds
 * (only T2 removes x) and the list ends a, p.
 */
#include "client.h"

static struct caslist_list *A;
static struct obj *a, *p, *x;

static void *t1(void *arg)
{
	(void)arg;
	p = obj_new(3);
	assert(caslist_add_after(&a->link, &p->link) == CASLIST_OK);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	assert(caslist_del(&x->link) == CASLIST_OK);
	return NULL;
}

int main(void)
{
	A = list_new();
	a = obj_tail(A, 1);
	x = obj_tail(A, 2);
	run_threads(t1, t2, NULL);
	assert(list_len(A) == 2);
	assert(list_pos(A, &a->link) == 0 && list_pos(A, &p->link) == 1);
	return 0;
}
