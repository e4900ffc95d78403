/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flgrow - the descriptor pool grows inside a put while a scanner asks a
 * node's state (the TSan finding of issue 26: test/stress/fl_grow).  No
 * caslist_fl_reserve: T1's put of x finds the pool empty, allocates a slab
 * (calloc) and points x at a descriptor of it.  T2 asks x's state, which
 * locks the descriptor x points to: that access must follow the slab's
 * allocation (the release of the cluster pointer, the acquire that reads
 * it).
 * genmc-flags: -DGENMC_WITH_FREELIST
 * genmc-models: rc11
 * (Not IMM: see flput.c.)
 */
#include "client.h"

static struct caslist_fl *F;
static struct fobj *x;

static void *t1(void *arg)
{
	(void)arg;
	caslist_fl_put(F, &x->fl);
	return NULL;
}

static void *t2(void *arg)
{
	int st;

	(void)arg;
	st = caslist_fl_node_state(F, &x->fl);
	assert(st == CASLIST_FL_NOT_FREE || st == CASLIST_FL_FREE);
	PROBE(1, st == CASLIST_FL_FREE);
	return NULL;
}

int main(void)
{
	F = fl_new(0);
	x = fobj_new(0);
	run_threads(t1, t2, NULL);
	assert(caslist_fl_node_state(F, &x->fl) == CASLIST_FL_FREE);
	assert(caslist_fl_check(F, NULL, NULL) == 0);
	return 0;
}
