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

struct fobj {
	struct caslist_fl_node fl;
	int data;
};

static struct caslist_fl *F;
static struct fobj *x1, *x2;
static int taken1, taken2;

static void *t1(void *arg)
{
	(void)arg;
	x2 = malloc(sizeof(*x2));
	caslist_fl_node_init(&x2->fl);
	x2->data = 20;
	caslist_fl_put(F, &x2->fl);
	return NULL;
}

static void *t2(void *arg)
{
	struct caslist_fl_batch bt;
	struct caslist_fl_node *x;

	(void)arg;
	caslist_fl_take(F, 2, &bt);
	while ((x = caslist_fl_batch_next(&bt)) != NULL) {
		struct fobj *o = caslist_entry(x, struct fobj, fl);

		assert(o->data == (o == x1 ? 10 : 20));
		if (o == x1)
			taken1 = 1;
		else
			taken2 = 1;
	}
	PROBE(1, taken1 && taken2);
	PROBE(2, taken1 && !taken2);
	return NULL;
}

int main(void)
{
	size_t nodes = 0;

	F = malloc(sizeof(*F));
	caslist_fl_init(F, 2);
	caslist_fl_reserve(F, 4);
	x1 = malloc(sizeof(*x1));
	caslist_fl_node_init(&x1->fl);
	x1->data = 10;
	caslist_fl_put(F, &x1->fl);
	run_threads(t1, t2, NULL);
	assert(caslist_fl_check(F, &nodes, NULL) == 0);
	assert(nodes == 2u - taken1 - taken2);
	return 0;
}
