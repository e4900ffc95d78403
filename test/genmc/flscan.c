/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flscan - the free list's scan window (its Dekker pair: busy[] and
 * disable_depth) against a take.  x is free.  T1 takes it and walks the
 * batch (a take that started before the window leaves x TAKEN until the
 * walk resets it; one that sees the window open resets it at once).  T2
 * opens a window, asks x's state, closes the window: inside a window no
 * node is ever TAKEN (freelist.h).
 * genmc-flags: -DGENMC_WITH_FREELIST
 * genmc-models: rc11
 * (Not IMM: the descriptor pool's first slab, 63 list adds in main's
 * prefix, makes each IMM run take minutes - 39 s for flremove, over 300
 * for flput - against seconds under RC11.)
 */
#include "client.h"

static struct caslist_fl *F;
static struct fobj *x;
static _Atomic int eager = -1;

static void *t1(void *arg)
{
	struct caslist_fl_batch bt;
	struct caslist_fl_node *n;

	(void)arg;
	caslist_fl_take(F, 1, &bt);
	eager = bt.eager;
	while ((n = caslist_fl_batch_next(&bt)) != NULL)
		assert(caslist_entry(n, struct fobj, fl)->data == 1);
	return NULL;
}

static void *t2(void *arg)
{
	int st;

	(void)arg;
	caslist_fl_scan_begin(F);
	st = caslist_fl_node_state(F, &x->fl);
	assert(st != CASLIST_FL_TAKEN);
	PROBE(1, st == CASLIST_FL_NOT_FREE && eager == 0);
	PROBE(2, st == CASLIST_FL_NOT_FREE && eager == 1);
	caslist_fl_scan_end(F);
	return NULL;
}

int main(void)
{
	F = fl_new(4);
	x = fobj_new(1);
	caslist_fl_put(F, &x->fl);
	run_threads(t1, t2, NULL);
	assert(caslist_fl_node_state(F, &x->fl) == CASLIST_FL_NOT_FREE);
	assert(caslist_fl_check(F, NULL, NULL) == 0);
	return 0;
}
