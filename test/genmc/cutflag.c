/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cutflag - a cut that starts after two adds inside its segment have
 * returned (real time: T1 sets a relaxed flag after them, T2 cuts only
 * if it sees the flag), so the adds do not target the segment during the
 * cut.  List A: a b.  T1 allocates m (payload), adds it after a, then m2
 * after m.  T2 cuts the prefix up to b and walks the chain reading each
 * payload: what it learns of m and m2 it learns through the chain's words
 * (caslist_chain_next's acquire loads, the second one after a wait on m's
 * word while T1 still holds L(m)).  Then it splices the chain back.
 * genmc-flags: -DGENMC_WAIT_PAUSES=4
 */
#include "client.h"

static struct caslist_list *A;
static struct obj *a, *b;
static _Atomic int done;

static void *t1(void *arg)
{
	struct obj *m = obj_new(3), *m2 = obj_new(4);

	(void)arg;
	assert(caslist_add_after(&a->link, &m->link) == CASLIST_OK);
	assert(caslist_add_after(&m->link, &m2->link) == CASLIST_OK);
	atomic_store_explicit(&done, 1, memory_order_relaxed);
	return NULL;
}

static void *t2(void *arg)
{
	int k;

	(void)arg;
	if (!atomic_load_explicit(&done, memory_order_relaxed))
		return NULL;
	k = cut_check_splice(A, &a->link, &b->link, 1, 4);
	(void)k;	/* read by the probe only */
	PROBE(1, k == 4);
	return NULL;
}

int main(void)
{
	A = list_ab(&a, &b);
	run_threads(t1, t2, NULL);
	assert(list_len(A) == 4 && list_pos(A, &a->link) == 0 && list_pos(A, &b->link) == 3);
	return 0;
}
