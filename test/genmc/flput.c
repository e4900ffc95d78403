/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flput - the free list (lib/freelist.c, lib/cluster.c): put against
 * take.  Clusters of up to 2 nodes; x1 is free.  T1 writes x2's payload
 * (allocated by T1) and puts it (joining x1's cluster under its lock, or in a cluster of its
 * own); T2 takes up to 2 nodes and reads each payload.  Final: every node
 * is taken or free, and caslist_fl_check passes.
 * genmc-flags: -DGENMC_WITH_FREELIST
 * genmc-models: rc11
 * (Not IMM: the descriptor pool's first slab, 63 list adds in main's
 * prefix, makes each IMM run take minutes - 39 s for flremove, over 300
 * for flput - against seconds under RC11.)
 */
#include "client.h"

static struct caslist_fl *F;
static struct fobj *x1, *x2;
static int taken1, taken2;

static void *t1(void *arg)
{
	(void)arg;
	x2 = fobj_new(20);
	caslist_fl_put(F, &x2->fl);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	fl_take_ab(F, 2, x1, &taken1, &taken2);
	PROBE(1, taken1 && taken2);
	PROBE(2, taken1 && !taken2);
	return NULL;
}

int main(void)
{
	size_t nodes = 0;

	F = fl_new(4);
	x1 = fobj_new(10);
	caslist_fl_put(F, &x1->fl);
	run_threads(t1, t2, NULL);
	assert(caslist_fl_check(F, &nodes, NULL) == 0);
	assert(nodes == 2u - taken1 - taken2);
	return 0;
}
