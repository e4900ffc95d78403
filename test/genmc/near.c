/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * near - add_near taking the link before its position (link_trylock_prev),
 * between two holders of that link.  List A: p x.  T1 holds L(p) and
 * writes p's payload.  T2 adds n near x; while T3 holds L(x), T2's try of
 * L(x) fails and it takes L(p) instead (NEAR_BEFORE).  T3 then takes L(p)
 * and reads p's payload: when the holders of L(p) were T1, T2, T3 in that
 * order, T1's write reaches T3 only through T2's acquire and release.
 */
#include "client.h"

static struct caslist_list *A;
static struct obj *p, *x, *n;
static _Atomic int near_rc = -1;

static void *t1(void *arg)
{
	struct caslist_node *s = caslist_link_lock(&p->link);

	(void)arg;
	assert(s != NULL);
	p->data = 9;
	caslist_link_unlock(&p->link, s);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	near_rc = caslist_add_near(&x->link, &n->link);
	assert(near_rc == CASLIST_NEAR_AFTER || near_rc == CASLIST_NEAR_BEFORE);
	return NULL;
}

static void *t3(void *arg)
{
	struct caslist_node *s = caslist_link_lock(&x->link);

	(void)arg;
	assert(s != NULL);
	caslist_link_unlock(&x->link, s);
	s = caslist_link_lock(&p->link);
	assert(p->data == 1 || p->data == 9);
	PROBE(1, p->data == 9 && near_rc == CASLIST_NEAR_BEFORE &&
		 s == &n->link);
	caslist_link_unlock(&p->link, s);
	return NULL;
}

int main(void)
{
	A = list_new();
	p = obj_tail(A, 1);
	x = obj_tail(A, 2);
	n = obj_new(3);
	run_threads(t1, t2, t3);
	assert(list_len(A) == 3 && p->data == 9);
	assert(list_pos(A, &n->link) == (near_rc == CASLIST_NEAR_BEFORE ? 1 : 2));
	return 0;
}
