/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flgrow2 - as flgrow, through a builder and a put that joins its
 * cluster.  No caslist_fl_reserve: T1 builds a cluster of x
 * (caslist_fl_build_begin allocates the slab), then puts y, which joins
 * x's cluster (caslist_fl_put under the cluster's lock).  T2 asks y's
 * state, then x's: each locks the descriptor the node points to, which
 * must follow the slab's allocation.
 * genmc-flags: -DGENMC_WITH_FREELIST
 * genmc-models: rc11
 * (Not IMM: see flput.c.)
 */
#include "client.h"

static struct caslist_fl *F;
static struct fobj *x, *y;

static void *t1(void *arg)
{
	struct caslist_fl_builder bd;

	(void)arg;
	caslist_fl_build_begin(F, &bd);
	caslist_fl_build_add(&bd, &x->fl);
	caslist_fl_build_put(&bd);
	caslist_fl_put(F, &y->fl);
	return NULL;
}

static void *t2(void *arg)
{
	int sy, sx;

	(void)arg;
	sy = caslist_fl_node_state(F, &y->fl);
	sx = caslist_fl_node_state(F, &x->fl);
	assert(sy == CASLIST_FL_NOT_FREE || sy == CASLIST_FL_FREE);
	assert(sx == CASLIST_FL_NOT_FREE || sx == CASLIST_FL_FREE);
	PROBE(1, sy == CASLIST_FL_FREE);
	PROBE(2, sy == CASLIST_FL_NOT_FREE && sx == CASLIST_FL_FREE);
	return NULL;
}

int main(void)
{
	F = fl_new(0);
	x = fobj_new(0);
	y = fobj_new(0);
	run_threads(t1, t2, NULL);
	assert(caslist_fl_node_state(F, &x->fl) == CASLIST_FL_FREE);
	assert(caslist_fl_node_state(F, &y->fl) == CASLIST_FL_FREE);
	assert(caslist_fl_check(F, NULL, NULL) == 0);
	return 0;
}
