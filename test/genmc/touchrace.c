/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * touchrace - racing touches of one FRESH node into two lists.  o is
 * FRESH, its payload written by main; lists A and B are empty.  T1
 * touches o into A, T2 into B: exactly one claims and adds it (ADDED),
 * the other moves it to the head of its own list once the add is done
 * (CASLIST_OK), and both read the payload.  Final: o on exactly one list.
 */
#include "client.h"

static struct caslist_list *A, *B;
static struct obj *o;
static _Atomic int r1 = -1, r2 = -1;	/* atomic: each probe reads the other's */

/* One side of the race: touch o on l, result in *mine; probe k: this side
 * moved o after the other side added it. */
static void touch_side(struct caslist_list *l, _Atomic int *mine, _Atomic int *other, int k)
{
	*mine = caslist_touch(l, &o->link);
	assert(o->data == 5);
	PROBE(k, *mine == CASLIST_OK && *other == CASLIST_TOUCH_ADDED);
}

static void *t1(void *arg)
{
	(void)arg;
	touch_side(A, &r1, &r2, 1);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	touch_side(B, &r2, &r1, 2);
	return NULL;
}

int main(void)
{
	A = list_new();
	B = list_new();
	o = obj_new(5);
	run_threads(t1, t2, NULL);
	assert((r1 == CASLIST_TOUCH_ADDED) + (r2 == CASLIST_TOUCH_ADDED) == 1);
	assert(r1 == CASLIST_TOUCH_ADDED || r1 == CASLIST_OK);
	assert(r2 == CASLIST_TOUCH_ADDED || r2 == CASLIST_OK);
	assert(list_len(A) + list_len(B) == 1);
	return 0;
}
