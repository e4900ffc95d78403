/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * touch - caslist_touch against a pop and a re-initialisation.  List A: o;
 * list B: empty.  T1 pops A's head and, if it got o, owns it: writes its
 * payload and makes it FRESH again (caslist_node_init), handing it to
 * whoever touches it next.  T2 touches o into B: a touch of a linked node
 * moves it, of an OWNED one does nothing (GONE), of a FRESH one adds it
 * (ADDED), and the adder reads the payload its claim made visible.
 * (Racing touches of one fresh node: touchrace.c.)
 */
#include "client.h"

static struct caslist_list *A, *B;
static struct obj *o;
static int r2;
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
	PROBE(3, r2 == CASLIST_OK);
	return NULL;
}

int main(void)
{
	A = list_new();
	B = list_new();
	o = obj_new(1);
	caslist_add_head(A, &o->link);
	run_threads(t1, t2, NULL);
	int inA = list_pos(A, &o->link) >= 0, inB = list_pos(B, &o->link) >= 0;
	assert(list_len(A) == (size_t)inA && list_len(B) == (size_t)inB);
	assert(!(inA && inB));
	if (r2 == CASLIST_TOUCH_ADDED)
		assert(inB && got != NULL);
	if (got != NULL && inB)
		assert(r2 == CASLIST_TOUCH_ADDED);
	if (got == NULL)
		assert(inB && r2 == CASLIST_OK);
	return 0;
}
