/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * batching - a batch (caslist_batch_move_head, caslist_batch_flush)
 * against a delete and a pop.  List A: a b c.  T1 queues c and a in its
 * batch (each is removed in place and belongs to the batch), writes the
 * payload of what it queued, and flushes: the queued nodes enter at the
 * head at once.  T2 deletes c if it is still linked (its own then) and
 * reads its payload; T3 pops the head and reads the payload.
 * genmc-flags: -DGENMC_WITH_BATCH
 */
#include "client.h"

static struct caslist_list *A;
static struct obj *a, *b, *c;
static struct caslist_node *got3;
static bool del2;

static void *t1(void *arg)
{
	struct caslist_batch bt;
	int rc;

	(void)arg;
	caslist_batch_init(&bt);
	rc = caslist_batch_move_head(&bt, A, &c->link);
	if (rc == CASLIST_OK)
		c->data = 30;
	PROBE(1, rc == CASLIST_OK);
	if (caslist_batch_move_head(&bt, A, &a->link) == CASLIST_OK)
		a->data = 10;
	caslist_batch_flush(&bt);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	del2 = caslist_del_if_linked(&c->link);
	if (del2)
		assert(c->data == 3 || c->data == 30);
	PROBE(2, del2 && c->data == 30);
	return NULL;
}

static void *t3(void *arg)
{
	(void)arg;
	got3 = caslist_pop_head(A);
	if (got3 != NULL)
		assert(OBJ(got3)->data % 10 == 0 || OBJ(got3)->data < 4);
	PROBE(3, got3 == &a->link && a->data == 10);
	return NULL;
}

int main(void)
{
	A = list_new();
	a = obj_tail(A, 1);
	b = obj_tail(A, 2);
	c = obj_tail(A, 3);
	run_threads(t1, t2, t3);
	assert(list_len(A) == 3u - del2 - (got3 != NULL));
	assert(!del2 || !linked(&c->link));
	return 0;
}
