/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flremove - the free list: remove against take.  x1 and x2 are free, in
 * one cluster (put_batch).  T1 takes one cluster and reads the payloads;
 * T2 removes x2 if it is still free (under the cluster's lock: LIVE,
 * delete, fix the cluster's tail and count), then writes its payload.
 * Final: every node is taken, removed or free, never two of these, and
 * caslist_fl_check passes.
 * genmc-flags: -DGENMC_WITH_FREELIST
 * genmc-models: rc11
 * (Not IMM: the descriptor pool's first slab, 63 list adds in main's
 * prefix, makes each IMM run take minutes - 39 s for flremove, over 300
 * for flput - against seconds under RC11.)
 */
#include "client.h"

static struct caslist_fl *F;
static struct fobj *x1, *x2;
static int taken1, taken2, removed2;

static void *t1(void *arg)
{
	(void)arg;
	fl_take_ab(F, 2, x1, &taken1, &taken2);
	PROBE(1, taken1 && !taken2);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	removed2 = caslist_fl_remove(F, &x2->fl) == CASLIST_OK;
	if (removed2)
		x2->data = 21;
	PROBE(2, removed2);
	return NULL;
}

int main(void)
{
	size_t nodes = 0;

	F = fl_new(4);
	x1 = fobj_new(10);
	x2 = fobj_new(20);
	caslist_chain_link(&x1->fl.link, &x2->fl.link);
	caslist_fl_put_batch(F, &x1->fl, &x2->fl, 2);
	run_threads(t1, t2, NULL);
	assert(!(taken2 && removed2));
	assert(caslist_fl_check(F, &nodes, NULL) == 0);
	assert(nodes == 2u - taken1 - taken2 - removed2);
	return 0;
}
