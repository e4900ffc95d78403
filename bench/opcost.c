/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/opcost.c - one thread, N operations on one list of NODES nodes,
 * for tools/opcost, which runs it under valgrind (callgrind for exact
 * instruction counts, cachegrind's simulated caches for misses) at N and 2N
 * operations and prints the difference divided by N: the per-operation
 * cost with set-up and exit taken out.  Not a timing tool: it measures
 * nothing itself and prints nothing but a checksum.
 *
 *   opcost IMPL OP NODES N
 *   IMPL  caslist | xlock | spin | floor
 *         caslist: the library (public API); xlock: bench/xlock.h (HAProxy
 *         mt_list's algorithm); spin: a plain doubly linked list under a
 *         pthread spinlock; floor: the bare move any per-link-locked list
 *         must do - one acquire CAS on each of the three words the protocol
 *         locks (n->next, pred->next, head->next) and the release stores
 *         that unlock them, no retry, no checks, no bookkeeping
 *         (bench/floor.h, shared with listbench's floor row; one thread
 *         only: it is a reference, not a list).
 *   OP    rotate (move a random node to the head) | deladd (delete a
 *         random node, add it at the head)
 * Nodes are 64 bytes, one cache line each, as listbench's, allocated in
 * one array and linked in a shuffled order, so that a random node's
 * neighbours are random lines (a cold list).  The random node comes from
 * an LCG: its cost is in every IMPL's count alike.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <caslist/caslist.h>
#include "floor.h"
#include "xlock.h"

struct pnode {
	struct pnode *prev, *next;
};

/* One line per node; each implementation uses its own member. */
struct node {
	union {
		struct caslist_node c;
		struct xl x;
		struct pnode p;
		struct floor_link f;
	} u;
	char pad[64 - sizeof(struct caslist_node)];
} __attribute__((aligned(64)));

static struct node *nodes;
static size_t nn;
static unsigned rng = 12345;

static size_t pick(void)
{
	rng = rng * 1103515245u + 12345u;
	return ((size_t)rng << 15 ^ (rng >> 16)) % nn;
}

/* ---- spin: a plain list under one spinlock ---- */
static pthread_spinlock_t spin;
static struct pnode phead = { &phead, &phead };

static void p_unlink(struct pnode *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
}

static void p_add_head(struct pnode *n)
{
	n->next = phead.next;
	n->prev = &phead;
	phead.next->prev = n;
	phead.next = n;
}

/* ---- floor: bench/floor.h (listbench's floor row too) ---- */
static struct floor_link fhead;

static struct caslist_list clist = CASLIST_LIST_INIT(clist);
static struct xl xhead;

static void setup(const char *impl)
{
	size_t *order = malloc(nn * sizeof(*order));

	if (order == NULL)
		exit(2);
	for (size_t i = 0; i < nn; i++)
		order[i] = i;
	for (size_t i = nn - 1; i > 0; i--) {	/* shuffle: random neighbours */
		size_t j = pick() % (i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	xl_detach(&xhead);
	floor_init(&fhead);
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	for (size_t k = 0; k < nn; k++) {
		struct node *x = &nodes[order[k]];

		if (!strcmp(impl, "caslist")) {
			caslist_node_init(&x->u.c);
			caslist_add_tail(&clist, &x->u.c);
		} else if (!strcmp(impl, "xlock")) {
			xl_detach(&x->u.x);
			xl_insert_tail(&xhead, &x->u.x);
		} else if (!strcmp(impl, "spin")) {
			x->u.p.next = &phead;
			x->u.p.prev = phead.prev;
			phead.prev->next = &x->u.p;
			phead.prev = &x->u.p;
		} else {
			floor_link_tail(&fhead, &x->u.f);
		}
	}
	free(order);
}

int main(int argc, char **argv)
{
	const char *impl, *op;
	long n;
	unsigned long sum = 0;

	if (argc != 5) {
		fputs("usage: opcost caslist|xlock|spin|floor rotate|deladd NODES N\n", stderr);
		return 2;
	}
	impl = argv[1];
	op = argv[2];
	nn = strtoul(argv[3], NULL, 10);
	n = atol(argv[4]);
	if (nn < 2 || n < 0 || (strcmp(op, "rotate") && strcmp(op, "deladd"))) {
		fputs("opcost: bad arguments\n", stderr);
		return 2;
	}
	nodes = aligned_alloc(64, nn * sizeof(struct node));
	if (nodes == NULL)
		return 2;
	memset(nodes, 0, nn * sizeof(struct node));
	setup(impl);
	int im = !strcmp(impl, "caslist") ? 0 : !strcmp(impl, "xlock") ? 1 : !strcmp(impl, "spin") ? 2 : 3;
	int rot = op[0] == 'r';

	for (long i = 0; i < n; i++) {
		struct node *x = &nodes[pick()];

		if (im == 0) {
			if (rot) {
				sum += (unsigned)caslist_move_head(&clist, &x->u.c);
			} else {
				sum += (unsigned)caslist_del(&x->u.c);
				caslist_add_head(&clist, &x->u.c);
			}
		} else if (im == 1) {
			if (rot) {
				xl_move(&xhead, &x->u.x);
			} else {
				sum += (unsigned)xl_remove(&x->u.x);
				xl_insert(&xhead, &x->u.x);
			}
		} else if (im == 2) {
			pthread_spin_lock(&spin);
			p_unlink(&x->u.p);
			p_add_head(&x->u.p);
			pthread_spin_unlock(&spin);
		} else if (rot) {
			floor_move_head(&fhead, &x->u.f);
		} else {
			floor_del(&x->u.f);
			floor_add_head(&fhead, &x->u.f);
		}
	}
	printf("%lu\n", sum);
	return 0;
}
