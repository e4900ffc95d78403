/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cutchain - cut_front and the walk of the cut chain (caslist_chain_next)
 * against an add at the head, then the chain spliced back.  List A: a b.
 * T1 allocates m (payload) and adds it at the head.  T2 cuts the prefix
 * up to b, walks the chain reading each payload (a node of a fresh chain
 * may still have its own link locked by its adder: one wait round allowed),
 * and splices the chain back at the tail.
 * genmc-flags: -DGENMC_WAIT_PAUSES=4
 */
#include "client.h"

static struct caslist_list *A;
static struct obj *a, *b, *m;

static void *t1(void *arg)
{
	(void)arg;
	m = obj_head(A, 3);
	return NULL;
}

static void *t2(void *arg)
{
	int k = cut_check_splice(A, NULL, &b->link, 1, 3);

	(void)arg;
	assert(k == 2 || k == 3);
	PROBE(1, k == 3);
	return NULL;
}

int main(void)
{
	A = list_ab(&a, &b);
	run_threads(t1, t2, NULL);
	assert(list_len(A) == 3 && list_pos(A, &b->link) == 2);
	return 0;
}
