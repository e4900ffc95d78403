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
 *         locks (pred->next, n->next, head->next) and the release stores
 *         that unlock them, no retry, no checks, no bookkeeping (rotate
 *         only; one thread only: it is a reference, not a list).
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
		struct {
			_Atomic uintptr_t next, prev;
		} f;
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

/* ---- floor: the three CASes and the unlocking stores ---- */
static struct {
	_Atomic uintptr_t next, prev;
} fhead;

static void f_move(struct node *x)
{
	_Atomic uintptr_t *nx = &x->u.f.next;
	uintptr_t s = atomic_load_explicit(nx, memory_order_relaxed);
	uintptr_t p = atomic_load_explicit(&x->u.f.prev, memory_order_relaxed);
	uintptr_t first, want;
	_Atomic uintptr_t *pn = (_Atomic uintptr_t *)p;	/* pred->next is pred's first word */
	_Atomic uintptr_t *sp = (_Atomic uintptr_t *)s + 1;	/* succ->prev */

	if (p == (uintptr_t)&fhead)
		return;
	/* acquire CASes: each pairs with the release store that last unlocked
	 * the word (one thread here, but the protocol's orders are kept) */
	want = (uintptr_t)x;
	atomic_compare_exchange_strong_explicit(pn, &want, (uintptr_t)x | 1, memory_order_acquire,
						memory_order_relaxed);
	want = s;
	atomic_compare_exchange_strong_explicit(nx, &want, s | 1, memory_order_acquire,
						memory_order_relaxed);
	first = atomic_load_explicit(&fhead.next, memory_order_relaxed);
	want = first;
	atomic_compare_exchange_strong_explicit(&fhead.next, &want, first | 1, memory_order_acquire,
						memory_order_relaxed);
	/* unlink: succ->prev = pred; pred->next = succ (release: unlock) */
	atomic_store_explicit(sp, p, memory_order_release);
	atomic_store_explicit(pn, s, memory_order_release);
	/* insert after the head */
	atomic_store_explicit(&x->u.f.prev, (uintptr_t)&fhead, memory_order_release);
	atomic_store_explicit((_Atomic uintptr_t *)first + 1, (uintptr_t)x, memory_order_release);
	atomic_store_explicit(nx, first, memory_order_release);
	atomic_store_explicit(&fhead.next, (uintptr_t)x, memory_order_release);
}

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
	fhead.next = fhead.prev = (uintptr_t)&fhead;
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
			uintptr_t last = fhead.prev;

			x->u.f.next = (uintptr_t)&fhead;
			x->u.f.prev = last;
			((_Atomic uintptr_t *)last)[0] = (uintptr_t)x;
			fhead.prev = (uintptr_t)x;
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
	if (nn < 2 || n < 0 || (strcmp(op, "rotate") && strcmp(op, "deladd")) ||
	    (!strcmp(impl, "floor") && strcmp(op, "rotate"))) {
		fputs("opcost: bad arguments (floor does rotate only)\n", stderr);
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
		} else {
			f_move(x);
		}
	}
	printf("%lu\n", sum);
	return 0;
}
