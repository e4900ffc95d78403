/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * combine - a move queued at a busy head (static/combine.h, doc/combine.md).
 * List A: a n.  T1 writes x's payload and adds x at the head: its insert
 * drains the queue it finds.  T2 moves n to the head: when the head is
 * busy it queues n and waits until a holder has linked it; if it queued
 * (the hook says so), it then reads x's payload, which T1 wrote before
 * its add: the wait's acquire (Q2) orders it.  The end: three nodes and
 * the structure sound (list_len: each next's prev points back).
 * genmc-flags: -DCASLIST_HEAD_COMBINE=1
 */
static int queued;	/* written by T2 only (its hook); main reads it after the join */
#define CASLIST_LK_Q_HOOK(n) (queued = 1)
#include "client.h"

static struct caslist_list *A;
static struct obj *a, *n, *x;
static int seen2;

static void *t1(void *arg)
{
	(void)arg;
	x->data = 10;
	caslist_add_head(A, &x->link);
	return NULL;
}

static void *t2(void *arg)
{
	int rc;

	(void)arg;
	rc = caslist_move_head(A, &n->link);
	assert(rc == CASLIST_OK);
	if (queued)
		seen2 = x->data;
	PROBE(1, queued);
	return NULL;
}

int main(void)
{
	A = list_new();
	a = obj_tail(A, 1);
	n = obj_tail(A, 2);
	x = obj_new(3);
	run_threads(t1, t2, NULL);
	assert(list_len(A) == 3u);
	assert(!queued || seen2 == 10);
	return 0;
}
