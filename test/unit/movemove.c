/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/unit/movemove.c - two move_heads of one node, racing: both return
 * CASLIST_OK (caslist_move_head(3), THREAD SAFETY).
 *
 * Two threads move the same node n to the front of their own list, A and
 * B, over and over, and now and then a node of their own list too (so
 * that n's predecessor is not always a head).  A move holds L(n) from the
 * unlink to the insert, so the other move finds n linked and busy, waits,
 * and moves it from its new place: it never sees n unlinked, and never
 * returns CASLIST_ENOENT.  Then: every move returned CASLIST_OK, both lists
 * pass caslist_check, and n is on exactly one of them (the nodes are
 * conserved).
 * Arguments: [ROUNDS] (default 100000 per thread).  TAP output; exit 0 =
 * pass.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include <caslist/caslist.h>

#include "../tap.h"

#define OWN 4

static CASLIST_LIST(A);
static CASLIST_LIST(B);
static struct caslist_node n, own[2][OWN];
static atomic_int ready;
static long rounds = 100000;
static long not_ok[2], other[2];

static void *mover(void *arg)
{
	long id = (long)arg;
	struct caslist_list *l = id ? &B : &A;

	/* both threads start together: the moves overlap from the first */
	atomic_fetch_add(&ready, 1);
	while (atomic_load(&ready) < 2)
		;
	for (long i = 0; i < rounds; i++) {
		if (caslist_move_head(l, &n) != CASLIST_OK)
			not_ok[id]++;
		if (i % 3 == 0 && caslist_move_head(l, &own[id][i % OWN]) != CASLIST_OK)
			other[id]++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	size_t ca = 0, cb = 0;
	int ra, rb, on_a = 0, on_b = 0;
	struct caslist_node *x;

	if (argc > 1)
		rounds = atol(argv[1]);
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < OWN; i++) {
			caslist_node_init(&own[k][i]);
			caslist_add_tail(k ? &B : &A, &own[k][i]);
		}
	caslist_node_init(&n);
	caslist_add_head(&A, &n);
	for (long i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, mover, (void *)i) != 0) {
			perror("pthread_create");
			return 99;
		}
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);

	tap_ok(not_ok[0] == 0 && not_ok[1] == 0,
	       "two racing move_heads of one node: every one returned CASLIST_OK (%ld rounds each; "
	       "not OK: %ld and %ld)",
	       rounds, not_ok[0], not_ok[1]);
	tap_ok(other[0] == 0 && other[1] == 0, "the moves of each thread's own nodes returned CASLIST_OK");
	ra = caslist_check(&A, 2 * OWN + 1, &ca);
	rb = caslist_check(&B, 2 * OWN + 1, &cb);
	tap_ok(ra == 0 && rb == 0, "both lists pass caslist_check (%d, %d)", ra, rb);
	caslist_for_each(x, &A)
		on_a += x == &n;
	caslist_for_each(x, &B)
		on_b += x == &n;
	tap_ok(on_a + on_b == 1 && ca + cb == 2 * OWN + 1,
	       "n is on exactly one list (A %d, B %d), and no node is lost or doubled (%zu + %zu)",
	       on_a, on_b, ca, cb);
	return tap_done();
}
