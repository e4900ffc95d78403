/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/stress/stress.c - concurrent stress of one list.
 *
 * Usage: stress <mix> <threads> <seconds> <seed> [nodes]
 *   mix: rand    add/del at random places (add_after, del_if_linked), ends
 *        rotate  LRU: move_head of random nodes, pop_tail, add_head
 *        near    add_near (head and random nodes) with deletes and pops
 *        ends    pops at both ends, adds at both ends, splice of private
 *                chains at both ends, cut of a prefix
 *        all     rand + rotate + near together
 *
 * Ownership model: every node is, at every instant, either on the list or
 * owned by exactly one thread.  A node's plain `state` field is written
 * only by its owner: IN_LIST just before an add, the owner's id right
 * after a removal (checking it was IN_LIST).  Those plain accesses are
 * ordered only by the list's own release/acquire pairs, so a weakened
 * order is a data race for TSan, and a missing lock step shows up as a
 * node removed twice or lost.  After the run (threads joined) the test
 * checks: structure (caslist_check: next->prev == self, no lock left),
 * conservation (every node exactly once: list or one thread), states,
 * and progress (every operation of the mix happened: the run goes on after
 * its time, bounded, until each has succeeded once - util.h,
 * progress_more - so a loaded machine slows the test down instead of
 * failing it; the summary says by how much, extended=).  Exit 0 = pass.
 *
 * Walks (caslist_iter_next) are checked twice over:
 *   - during the run, every node a walk returns must be one of the test's
 *     nodes (the items[] array, at a node's exact address), and must not
 *     be one that the walking thread itself owns: it took that node off
 *     the list before the walk began and holds it until after, so the
 *     node was never on the list while the walk ran.  Each thread keeps
 *     its own ownership bytes (mine[]), read and written only by itself.
 *   - after the run, a walkers-only phase: the list is quiescent except
 *     for concurrent walkers, so every walk must return exactly the order
 *     that the main thread recorded, with no CASLIST_EAGAIN.
 *
 * Cuts need a `last` that no other thread targets by pointer while it is
 * being cut (the cut contract): one marker node serves as `last`; a cut
 * token lets one thread at a time cut at it; a thread that pops the
 * marker puts it straight back at the tail.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <caslist/caslist.h>

#include "../util.h"

enum op {
	OP_ADD_HEAD,
	OP_ADD_TAIL,
	OP_ADD_AFTER,
	OP_ADD_NEAR_HEAD,
	OP_ADD_NEAR_NODE,
	OP_DEL,
	OP_MOVE_HEAD,
	OP_POP_HEAD,
	OP_POP_TAIL,
	OP_SPLICE_HEAD,
	OP_SPLICE_TAIL,
	OP_CUT,
	OP_ITER,
	NOPS
};

static const char *const op_name[NOPS] = {
	"add_head", "add_tail", "add_after", "near_head", "near_node", "del", "move_head",
	"pop_head", "pop_tail", "splice_head", "splice_tail", "cut", "iter",
};

struct mix {
	const char *name;
	unsigned w[NOPS];
};

static const struct mix mixes[] = {
	{ "rand", { [OP_ADD_HEAD] = 2, [OP_ADD_TAIL] = 2, [OP_ADD_AFTER] = 6, [OP_DEL] = 8,
		    [OP_POP_HEAD] = 1, [OP_POP_TAIL] = 1, [OP_ITER] = 1 } },
	{ "rotate", { [OP_MOVE_HEAD] = 10, [OP_POP_TAIL] = 2, [OP_ADD_HEAD] = 4, [OP_DEL] = 1 } },
	{ "near", { [OP_ADD_NEAR_HEAD] = 3, [OP_ADD_NEAR_NODE] = 5, [OP_DEL] = 6,
		    [OP_POP_HEAD] = 1, [OP_POP_TAIL] = 1 } },
	{ "ends", { [OP_ADD_HEAD] = 3, [OP_ADD_TAIL] = 3, [OP_POP_HEAD] = 3, [OP_POP_TAIL] = 3,
		    [OP_SPLICE_HEAD] = 1, [OP_SPLICE_TAIL] = 1, [OP_CUT] = 1 } },
	{ "all", { [OP_ADD_HEAD] = 2, [OP_ADD_TAIL] = 2, [OP_ADD_AFTER] = 4,
		   [OP_ADD_NEAR_HEAD] = 2, [OP_ADD_NEAR_NODE] = 2, [OP_DEL] = 8,
		   [OP_MOVE_HEAD] = 6, [OP_POP_HEAD] = 1, [OP_POP_TAIL] = 2, [OP_ITER] = 1 } },
};

#define IN_LIST (-1)
#define MAX_CHAIN 16

struct item {
	struct caslist_node link;
	int state; /* plain: IN_LIST or owner id; written only by the owner */
	int marker;
	int seen;  /* post-run check only */
};

struct thr {
	int id;
	uint64_t rng;
	struct item **own;
	size_t nown;
	unsigned char *mine;	/* mine[i]: this thread owns items[i]; its own */
	unsigned long long ops[NOPS], hits[NOPS];
	unsigned long long walked;	/* nodes returned by its walks */
};

static struct caslist_list list;
static struct item *items;
static size_t nitems;
static struct item *marker;
static const struct mix *mix;
static unsigned wsum;
static _Atomic int stop;
static struct progress prog;	/* bit op: op has succeeded once */
static _Atomic int cut_token;
static _Atomic unsigned long errors;
/* Walks that returned a wrong node.  Relaxed everywhere: a count, read by
 * main after the threads are joined (pthread_join orders the adds). */
static _Atomic unsigned long walk_errors;
static pthread_barrier_t start;


static struct item *item_of(struct caslist_node *n)
{
	return caslist_entry(n, struct item, link);
}

/* The index of n in items[], or -1 if n is not the link of one of them. */
static long item_index(const struct caslist_node *n)
{
	uintptr_t a = (uintptr_t)n, lo = (uintptr_t)&items[0].link;
	uintptr_t hi = (uintptr_t)&items[nitems].link;

	if (a < lo || a > hi || (a - lo) % sizeof(struct item) != 0)
		return -1;
	return (long)((a - lo) / sizeof(struct item));
}

static size_t idx(const struct item *it)
{
	return (size_t)(it - items);
}

/* The caller just removed it: it must have been on the list. */
static void take(struct thr *t, struct item *it)
{
	if (it->state != IN_LIST) {
		atomic_fetch_add(&errors, 1);
		fprintf(stderr, "stress: thread %d removed node %p in state %d\n", t->id,
			(void *)it, it->state);
	}
	it->state = t->id;
	t->own[t->nown++] = it;
	t->mine[idx(it)] = 1;
}

/* Pick one owned node to add; it is marked IN_LIST before it is published. */
static struct item *give(struct thr *t)
{
	size_t i = splitmix64(&t->rng) % t->nown;
	struct item *it = t->own[i];

	t->own[i] = t->own[--t->nown];
	t->mine[idx(it)] = 0;
	it->state = IN_LIST;
	return it;
}

/* An add that did not happen: the node is still ours. */
static void keep(struct thr *t, struct item *it)
{
	it->state = t->id;
	t->own[t->nown++] = it;
	t->mine[idx(it)] = 1;
}

/* The marker was just taken (it is the last node taken): back to the list. */
static void give_marker(struct thr *t)
{
	t->nown--;
	t->mine[idx(marker)] = 0;
	marker->state = IN_LIST;
}

static struct item *random_item(struct thr *t)
{
	return &items[splitmix64(&t->rng) % nitems];
}

/* A popped node: the marker goes straight back, anything else is ours. */
static void popped(struct thr *t, struct caslist_node *n)
{
	struct item *it = item_of(n);

	if (it->marker) {
		take(t, it);
		give_marker(t);
		caslist_add_tail(&list, n);
		return;
	}
	take(t, it);
}

static int do_op(struct thr *t, enum op op)
{
	struct caslist_node *n;
	struct item *it;

	switch (op) {
	case OP_ADD_HEAD:
	case OP_ADD_TAIL:
	case OP_ADD_AFTER:
	case OP_ADD_NEAR_HEAD:
	case OP_ADD_NEAR_NODE:
		if (t->nown == 0)
			return 0;
		it = give(t);
		if (op == OP_ADD_HEAD) {
			caslist_add_head(&list, &it->link);
		} else if (op == OP_ADD_TAIL) {
			caslist_add_tail(&list, &it->link);
		} else if (op == OP_ADD_NEAR_HEAD) {
			caslist_add_near(&list.head, &it->link);
		} else {
			struct item *pos = random_item(t);
			int rc = op == OP_ADD_AFTER ? caslist_add_after(&pos->link, &it->link)
						    : caslist_add_near(&pos->link, &it->link);

			if (rc == CASLIST_ENOENT) {
				keep(t, it);
				return 0;
			}
		}
		return 1;
	case OP_DEL:
		it = random_item(t);
		if (!caslist_del_if_linked(&it->link))
			return 0;
		take(t, it);
		return 1;
	case OP_MOVE_HEAD:
		return caslist_move_head(&list, &random_item(t)->link) == CASLIST_OK;
	case OP_POP_HEAD:
	case OP_POP_TAIL:
		n = op == OP_POP_HEAD ? caslist_pop_head(&list) : caslist_pop_tail(&list);
		if (n == NULL)
			return 0;
		popped(t, n);
		return 1;
	case OP_SPLICE_HEAD:
	case OP_SPLICE_TAIL: {
		size_t k = 1 + splitmix64(&t->rng) % MAX_CHAIN;
		struct item *first, *prev;

		if (t->nown == 0)
			return 0;
		first = prev = give(t);
		while (--k > 0 && t->nown > 0) {
			it = give(t);
			caslist_chain_link(&prev->link, &it->link);
			prev = it;
		}
		if (op == OP_SPLICE_HEAD)
			caslist_splice_head(&list, &first->link, &prev->link);
		else
			caslist_splice_tail(&list, &first->link, &prev->link);
		return 1;
	}
	case OP_CUT: {
		int expect = 0, done;

		if (!atomic_compare_exchange_strong(&cut_token, &expect, 1))
			return 0;
		n = caslist_cut_front(&list, &marker->link);
		done = n != NULL;
		if (done) {
			/* Per-node work after the cut, outside any lock. */
			while (n != NULL) {
				struct caslist_node *nx = caslist_chain_next(n);

				it = item_of(n);
				caslist_node_init(n);
				take(t, it);
				n = nx;
			}
			/* marker was last: back at a random end, so cuts
			 * take prefixes of varied length */
			give_marker(t);
			if (splitmix64(&t->rng) % 2)
				caslist_add_tail(&list, &marker->link);
			else
				caslist_add_head(&list, &marker->link);
		}
		atomic_store(&cut_token, 0);
		return done;
	}
	case OP_ITER: {
		struct caslist_node *cur = &list.head;
		int steps = 0;

		/* Nothing of ours moves during the walk: see the top comment. */
		while (steps < 64 && caslist_iter_next(&list, &cur) == 1) {
			long i = item_index(cur);

			if (i < 0 || t->mine[i]) {
				atomic_fetch_add_explicit(&walk_errors, 1, memory_order_relaxed);
				fprintf(stderr, "stress: thread %d: a walk returned %p, %s\n", t->id,
					(void *)cur,
					i < 0 ? "not a node of the test" : "a node this thread owns");
				break;
			}
			steps++;
		}
		t->walked += (unsigned long long)steps;
		return 1;
	}
	default:
		return 0;
	}
}

/* The walkers-only phase: walk the whole quiescent list, compare it with
 * the order recorded before the phase. */
static struct caslist_node **order;
static size_t norder;
#define WALK_PASSES 4

static void *walker(void *arg)
{
	struct thr *t = arg;

	pthread_barrier_wait(&start);
	for (int pass = 0; pass < WALK_PASSES; pass++) {
		struct caslist_node *cur = &list.head;
		size_t k = 0;
		int rc;

		while ((rc = caslist_iter_next(&list, &cur)) == 1) {
			if (k >= norder || cur != order[k])
				break;
			k++;
		}
		if (rc != 0 || k != norder) {
			atomic_fetch_add_explicit(&walk_errors, 1, memory_order_relaxed);
			fprintf(stderr, "stress: walker %d pass %d: %s after %zu of %zu nodes\n",
				t->id, pass,
				rc == CASLIST_EAGAIN ? "EAGAIN" : rc == 1 ? "a node out of order"
									  : "the end",
				k, norder);
			return NULL;
		}
		t->walked += k;
	}
	return NULL;
}

/* Start n walkers (at most 64), join them.  0, or -1: no thread. */
static int walk_phase(struct thr *thr, int n)
{
	pthread_t tid[64];

	if (n > 64)
		n = 64;
	pthread_barrier_init(&start, NULL, (unsigned)n);
	for (int i = 0; i < n; i++)
		if (pthread_create(&tid[i], NULL, walker, &thr[i]) != 0)
			return -1;
	for (int i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&start);
	return 0;
}

static void *worker(void *arg)
{
	struct thr *t = arg;

	pthread_barrier_wait(&start);
	while (progress_more(&stop, &prog)) {
		unsigned r = (unsigned)(splitmix64(&t->rng) % wsum);
		int op = 0, hit;

		while (r >= mix->w[op])
			r -= mix->w[op++];
		t->ops[op]++;
		hit = do_op(t, (enum op)op);
		t->hits[op] += (unsigned long long)hit;
		if (hit)
			progress_note(&prog, (unsigned)op);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct thr *thr;
	struct checks cc = { "stress", 0, 0 };
	int nthreads;
	double seconds;
	uint64_t seed, rng;
	size_t nlist = 0, nowned = 0, count = 0;
	unsigned long long total = 0, ops[NOPS] = { 0 }, hits[NOPS] = { 0 };
	unsigned long long walked = 0, walked_after = 0;
	unsigned long werr;
	int rc;

	if (argc < 5) {
		fprintf(stderr, "usage: %s <rand|rotate|near|ends|all> <threads> <seconds> <seed> [nodes]\n",
			argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(mixes) / sizeof(mixes[0]); i++)
		if (strcmp(argv[1], mixes[i].name) == 0)
			mix = &mixes[i];
	nthreads = atoi(argv[2]);
	seconds = atof(argv[3]);
	seed = strtoull(argv[4], NULL, 0);
	nitems = argc > 5 ? strtoul(argv[5], NULL, 0) : 0;
	if (mix == NULL || nthreads < 1 || seconds <= 0) {
		fprintf(stderr, "stress: bad arguments\n");
		return 2;
	}
	if (nitems == 0)
		nitems = (size_t)nthreads * 32 < 1024 ? 1024 : (size_t)nthreads * 32;
	for (int i = 0; i < NOPS; i++)
		wsum += mix->w[i];
	watchdog_arm(seconds);

	/* nitems ordinary nodes + the marker; half on the list, half owned. */
	items = calloc(nitems + 1, sizeof(*items));
	thr = calloc((size_t)nthreads, sizeof(*thr));
	if (items == NULL || thr == NULL)
		return 2;
	caslist_init(&list);
	marker = &items[nitems];
	marker->marker = 1;
	rng = seed;
	for (int i = 0; i < nthreads; i++) {
		thr[i].id = i;
		thr[i].rng = seed ^ (0x51afd6ed4e3c1a27ULL * (uint64_t)(i + 1));
		thr[i].own = calloc(nitems + 1, sizeof(struct item *));
		thr[i].mine = calloc(nitems + 1, 1);
		if (thr[i].own == NULL || thr[i].mine == NULL)
			return 2;
	}
	for (size_t i = 0; i <= nitems; i++) {
		caslist_node_init(&items[i].link);
		if (i == nitems || splitmix64(&rng) % 2) {
			items[i].state = IN_LIST;
			caslist_add_tail(&list, &items[i].link);
		} else {
			struct thr *t = &thr[splitmix64(&rng) % (uint64_t)nthreads];

			items[i].state = t->id;
			t->own[t->nown++] = &items[i];
			t->mine[i] = 1;
		}
	}

	for (int op = 0; op < NOPS; op++)
		if (mix->w[op])
			progress_want(&prog, (unsigned)op);
	if (run_threads_progress(nthreads, worker, thr, sizeof(*thr), &start, &stop, seconds,
				 &prog) != 0)
		return 2;

	/* ---- checks ---- */
	rc = caslist_check(&list, nitems + 1, &count);
	check(&cc, rc == 0, "structure: %s", caslist_check_strerror(rc));
	order = calloc(nitems + 1, sizeof(*order));
	if (order == NULL)
		return 2;
	if (rc == 0) {
		struct caslist_node *cur = &list.head;
		size_t bad = 0;

		while (caslist_iter_next(&list, &cur) == 1) {
			struct item *it = item_of(cur);

			if (item_index(cur) < 0 || norder > nitems) {
				bad++;
				break;
			}
			order[norder++] = cur;
			it->seen++;
			nlist++;
			bad += it->state != IN_LIST;
		}
		check(&cc, bad == 0, "%zu listed nodes not in state IN_LIST", bad);
	}
	CHECK_CENSUS(&cc, thr, nthreads, it->state == i && !caslist_node_linked(&it->link),
		     "in a wrong state or still linked", items, nitems + 1, nlist, "listed", nowned);
	check(&cc, atomic_load(&errors) == 0, "%lu removals of nodes that were not on the list",
	      atomic_load(&errors));
	werr = atomic_load_explicit(&walk_errors, memory_order_relaxed);
	check(&cc, werr == 0, "%lu walks returned a node that was not on the list", werr);
	for (int i = 0; i < nthreads; i++) {
		walked += thr[i].walked;
		thr[i].walked = 0;
	}
	/* Walkers only: nothing moves, so every walk sees the recorded order. */
	if (rc == 0) {
		if (walk_phase(thr, nthreads) != 0)
			return 2;
		werr = atomic_load_explicit(&walk_errors, memory_order_relaxed) - werr;
		check(&cc, werr == 0, "walkers only: %lu walks differ from the quiescent order",
		      werr);
		for (int i = 0; i < nthreads; i++)
			walked_after += thr[i].walked;
	}
	for (int i = 0; i < nthreads; i++)
		for (int op = 0; op < NOPS; op++) {
			ops[op] += thr[i].ops[op];
			hits[op] += thr[i].hits[op];
		}
	for (int op = 0; op < NOPS; op++) {
		total += ops[op];
		if (mix->w[op])
			check(&cc, hits[op] > 0,
			      "progress: no successful %s in %llu tries (run extended %.3f s)",
			      op_name[op], ops[op], prog.extended);
	}

	printf("stress mix=%s threads=%d seconds=%.2f seed=%llu nodes=%zu: ops=%llu (%.0f/s)"
	       " list=%zu owned=%zu:",
	       mix->name, nthreads, seconds, (unsigned long long)seed, nitems + 1, total,
	       (double)total / seconds, nlist, nowned);
	for (int op = 0; op < NOPS; op++)
		if (mix->w[op])
			printf(" %s=%llu/%llu", op_name[op], hits[op], ops[op]);
	printf(" walked=%llu, then walkers only=%llu extended=%.3fs", walked, walked_after,
	       prog.extended);
	printf(" -> %s (%d passed, %d failed)\n", cc.failed ? "FAIL" : "PASS",
	       cc.n - cc.failed, cc.failed);
	return cc.failed ? 1 : 0;
}
