/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * walk - a walk (caslist_iter_next) and caslist_empty against adds.
 * List A: a; list B: empty; n is FRESH, made by main.  T1 makes m
 * (malloc, payload) and adds it after a, then writes n's payload and adds
 * n to B.  T2 walks A and reads the payload of every node it steps on;
 * T3 reads n's payload once caslist_empty(B) says B is not empty.
 * Each thread may go round one wait (GENMC_WAIT_PAUSES=4: one backoff
 * round), so a walk that finds a's link locked re-loads it.
 * genmc-flags: -DGENMC_WAIT_PAUSES=4
 */
#include "client.h"

static struct caslist_list *A, *B;
static struct obj *a, *m, *n;

static void *t1(void *arg)
{
	(void)arg;
	m = obj_new(3);
	assert(caslist_add_after(&a->link, &m->link) == CASLIST_OK);
	n->data = 7;
	caslist_add_head(B, &n->link);
	return NULL;
}

static void *t2(void *arg)
{
	struct caslist_node *cur = &A->head;
	int seen = 0, rc;

	(void)arg;
	while ((rc = caslist_iter_next(A, &cur)) == 1) {
		assert(OBJ(cur)->data == 1 || OBJ(cur)->data == 3);
		PROBE(1, OBJ(cur)->data == 3);
		seen++;
	}
	assert(rc == 0 && (seen == 1 || seen == 2));
	return NULL;
}

static void *t3(void *arg)
{
	(void)arg;
	if (!caslist_empty(B)) {
		assert(n->data == 7);
		PROBE(2, true);
	}
	return NULL;
}

int main(void)
{
	A = list_new();
	B = list_new();
	a = obj_tail(A, 1);
	n = obj_new(0);
	run_threads(t1, t2, t3);
	assert(list_len(A) == 2 && list_pos(A, &m->link) == 1);
	assert(list_len(B) == 1 && list_pos(B, &n->link) == 0);
	return 0;
}
