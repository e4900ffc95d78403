/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * touch - caslist_touch against a pop and a re-initialisation.  List A: o;
 * list B: empty.  T1 pops A's head and, if it got o, owns it: writes its
 * payload and makes it FRESH again (caslist_node_init), handing it to
 * whoever touches it next.  T2 and T3 touch o into B: a touch of a linked
 * node moves it, of an OWNED one does nothing (GONE), of a FRESH one adds
 * it (exactly one of racing touches: ADDED), and an adder reads the
 * payload its claim made visible.
 */
#include "client.h"

static struct caslist_list *A, *B;
static struct obj *o;
static _Atomic int r2, r3;	/* atomic: probe 3 reads r2 from T3 */
static struct caslist_node *got;

static void *t1(void *arg)
{
	(void)arg;
	got = caslist_pop_head(A);
	if (got != NULL) {
		assert(got == &o->link);
		o->data = 5;
		caslist_node_init(&o->link);
	}
	return NULL;
}

static int touch(void)
{
	int r = caslist_touch(B, &o->link);

	if (r == CASLIST_TOUCH_ADDED)
		assert(o->data == 5);
	return r;
}

static void *t2(void *arg)
{
	(void)arg;
	r2 = touch();
	PROBE(1, r2 == CASLIST_TOUCH_ADDED);
	PROBE(2, r2 == CASLIST_TOUCH_GONE);
	return NULL;
}

static void *t3(void *arg)
{
	(void)arg;
	r3 = touch();
	PROBE(3, r3 == CASLIST_OK && r2 == CASLIST_TOUCH_ADDED);
	return NULL;
}

int main(void)
{
	pthread_t p1, p2, p3;

	A = list_new();
	B = list_new();
	o = obj_new(1);
	caslist_add_head(A, &o->link);
	spawn(p1, t1);
	spawn(p2, t2);
	spawn(p3, t3);
	join(p1);
	join(p2);
	join(p3);
	assert(!(r2 == CASLIST_TOUCH_ADDED && r3 == CASLIST_TOUCH_ADDED));
	int inA = list_pos(A, &o->link) >= 0, inB = list_pos(B, &o->link) >= 0;
	assert(list_len(A) == (size_t)inA && list_len(B) == (size_t)inB);
	assert(!(inA && inB));
	if (r2 == CASLIST_TOUCH_ADDED || r3 == CASLIST_TOUCH_ADDED)
		assert(inB);
	if (got != NULL && inB)
		assert(r2 == CASLIST_TOUCH_ADDED || r3 == CASLIST_TOUCH_ADDED);
	return 0;
}
