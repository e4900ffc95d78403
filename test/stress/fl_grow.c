/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/stress/fl_grow.c - the descriptor pool grows while a scanner probes nodes.
 *
 * Usage: fl_grow <threads> <rounds> <seed> [nodes]
 *
 * Each round starts from an empty free list with no descriptors (batch 2,
 * no caslist_fl_reserve), so most puts need a descriptor the pool does
 * not have yet: grow() callocs a slab of them.  Threads 1..n-1 put
 * their share of the nodes, each through one of the three paths that
 * store a node's cluster pointer (caslist_fl_put, caslist_fl_put_batch,
 * caslist_fl_build_add), while thread 0 probes random nodes with
 * caslist_fl_node_state.  The scanner reaches a node only through its
 * cluster pointer, never through the list: the pointer's store must
 * publish the descriptor (its slab's calloc included) to the scanner's
 * lock of it, or TSan reports a data race between the calloc and the lock.
 * Checks: a probe never sees TAKEN (there are no takes); at the end of
 * each round every node is FREE, caslist_fl_check passes, and the free
 * list holds every node.  Overlap by construction, not by luck of the
 * scheduler: the putters wait for the scanner's first probe, and the
 * scanner probes until the last putter is done.
 * TAP output; exit 0 = pass.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <caslist/caslist.h>

#include "../tap.h"
#include "../util.h"

static struct caslist_fl fl;
static struct caslist_fl_node *nodes;
static size_t nnodes;
static int nthreads;
static pthread_barrier_t start;
static _Atomic int putters_left;	/* putters still putting this round */
static _Atomic int probed;		/* the scanner has probed this round */
static _Atomic unsigned long bad;	/* probes that saw TAKEN */

struct thr {
	int id;
	uint64_t rng;
	unsigned long probes, seen_free;
};

static void scan(struct thr *t)
{
	/* Probe until every putter is done, and at least once. */
	do {
		struct caslist_fl_node *x = &nodes[splitmix64(&t->rng) % nnodes];
		int st = caslist_fl_node_state(&fl, x);

		t->probes++;
		t->seen_free += st == CASLIST_FL_FREE;
		if (st == CASLIST_FL_TAKEN)
			atomic_fetch_add(&bad, 1);
		/* Relaxed: only releases the putters' spin; no data. */
		atomic_store_explicit(&probed, 1, memory_order_relaxed);
	} while (atomic_load_explicit(&putters_left, memory_order_acquire) > 0);
}

/* Put nodes[i] for i = id-1, id-1+(n-1), ...: through put, put_batch (a
 * chain of up to 3) or a builder, chosen per group at random. */
static void put_share(struct thr *t)
{
	size_t step = (size_t)nthreads - 1;

	while (!atomic_load_explicit(&probed, memory_order_relaxed))
		;	/* the scanner is probing before the first put */
	for (size_t i = (size_t)t->id - 1; i < nnodes;) {
		unsigned how = (unsigned)(splitmix64(&t->rng) % 3);

		if (how == 0) {
			caslist_fl_put(&fl, &nodes[i]);
			i += step;
		} else if (how == 1) {
			struct caslist_fl_node *first = &nodes[i], *last = first;
			size_t n = 1;

			for (i += step; i < nnodes && n < 3; i += step, n++) {
				caslist_chain_link(&last->link, &nodes[i].link);
				last = &nodes[i];
			}
			caslist_fl_put_batch(&fl, first, last, n);
		} else {
			struct caslist_fl_builder b;

			caslist_fl_build_begin(&fl, &b);
			for (int n = 0; n < 3 && i < nnodes; n++, i += step)
				caslist_fl_build_add(&b, &nodes[i]);
			caslist_fl_build_put(&b);
		}
	}
	atomic_fetch_sub_explicit(&putters_left, 1, memory_order_release);
}

static void *worker(void *arg)
{
	struct thr *t = arg;

	pthread_barrier_wait(&start);
	if (t->id == 0)
		scan(t);
	else
		put_share(t);
	return NULL;
}

int main(int argc, char **argv)
{
	struct thr *thr;
	pthread_t *tid;
	int rounds, ok_end = 1, ok_check = 1;
	uint64_t seed;
	unsigned long probes = 0, seen_free = 0;
	size_t nfree = 0, ncl = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: %s <threads> <rounds> <seed> [nodes]\n", argv[0]);
		return 2;
	}
	nthreads = atoi(argv[1]);
	rounds = atoi(argv[2]);
	seed = strtoull(argv[3], NULL, 0);
	nnodes = argc > 4 ? strtoul(argv[4], NULL, 0) : 1024;
	if (nthreads < 2 || rounds < 1 || nnodes < 1) {
		fprintf(stderr, "fl_grow: bad arguments (threads >= 2: one is the scanner)\n");
		return 2;
	}
	watchdog_arm(rounds);
	nodes = calloc(nnodes, sizeof(*nodes));
	thr = calloc((size_t)nthreads, sizeof(*thr));
	tid = calloc((size_t)nthreads, sizeof(*tid));
	if (nodes == NULL || thr == NULL || tid == NULL)
		return 2;
	for (int i = 0; i < nthreads; i++) {
		thr[i].id = i;
		thr[i].rng = seed ^ (0x51afd6ed4e3c1a27ULL * (uint64_t)(i + 1));
	}
	for (int r = 0; r < rounds; r++) {
		struct caslist_fl_batch b;
		struct caslist_fl_node *x;
		size_t got = 0;

		caslist_fl_init(&fl, 2);	/* no descriptors yet */
		for (size_t i = 0; i < nnodes; i++)
			caslist_fl_node_init(&nodes[i]);
		atomic_store(&putters_left, nthreads - 1);
		atomic_store(&probed, 0);
		pthread_barrier_init(&start, NULL, (unsigned)nthreads);
		for (int i = 0; i < nthreads; i++)
			if (pthread_create(&tid[i], NULL, worker, &thr[i]) != 0)
				return 2;
		for (int i = 0; i < nthreads; i++)
			pthread_join(tid[i], NULL);
		pthread_barrier_destroy(&start);
		for (size_t i = 0; i < nnodes; i++)
			ok_end &= caslist_fl_node_state(&fl, &nodes[i]) == CASLIST_FL_FREE;
		ok_check &= caslist_fl_check(&fl, &nfree, &ncl) == 0 && nfree == nnodes;
		caslist_fl_take(&fl, nnodes, &b);
		while ((x = caslist_fl_batch_next(&b)) != NULL)
			got++;
		ok_end &= got == nnodes;
		caslist_fl_destroy(&fl);
	}
	for (int i = 0; i < nthreads; i++) {
		probes += thr[i].probes;
		seen_free += thr[i].seen_free;
	}
	tap_ok(atomic_load(&bad) == 0, "no probe saw a node TAKEN (%lu probes, %lu of them FREE)",
	       probes, seen_free);
	tap_ok(ok_end && ok_check, "every round ends with all %zu nodes free in %zu clusters, audit ok",
	       nnodes, ncl);
	tap_ok(probes >= (unsigned long)rounds,
	       "the scanner probed during every round (%d rounds, %d threads)", rounds, nthreads);
	free(nodes);
	free(thr);
	free(tid);
	return tap_done();
}
