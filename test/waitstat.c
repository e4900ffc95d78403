/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/waitstat.c - where the waiting goes on a hot list: a measurement
 * tool, not a test.  Built with the core compiled in and CASLIST_STATS
 * (lib/backoff.h), so every backoff round, PAUSE, sched_yield and failed
 * head-link attempt is counted per thread, and the backoff policy can be
 * set at run time.
 *
 * Usage: waitstat WORKLOAD THREADS SECONDS NODES [MIN_SPINS MAX_SPINS [POLLS [CROWDED_MAX]]]
 *   rotate  move_head of a random node (LRU rotation)
 *   deladd  del_if_linked of a random node, add_head if it won
 *   batch   batch_move_head of random nodes (a flush per 15)
 *   queue   pop_head, add_tail
 * CASLIST_LK_CROWDED_MAX is the cap while the thread's crowding hint is up (default
 * 16; equal to MAX_SPINS gives the policy before the hint: one cap).
 * Prints ops/s (wall clock) and, per operation, the backoff rounds (failed
 * attempts at a held link, retries), PAUSEs and yields.  Threads are not
 * pinned.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <caslist/caslist.h>

#include "backoff.h"
#include "util.h"

struct obj {
	struct caslist_node link;
	char payload[48];	/* 64-byte objects */
};

static struct caslist_list L;
static struct obj *objs;
static unsigned nobj;
static const char *workload;
static pthread_barrier_t start;
static _Atomic int stop;

struct thr {
	uint64_t rng;
	unsigned long ops;
	struct caslist_lk_stats st;
} __attribute__((aligned(64)));

static void *worker(void *arg)
{
	struct thr *t = arg;
	struct caslist_batch b;
	int w = !strcmp(workload, "rotate") ? 0 : !strcmp(workload, "deladd") ? 1
		: !strcmp(workload, "batch") ? 2 : 3;

	caslist_batch_init(&b);
	pthread_barrier_wait(&start);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (int i = 0; i < 64; i++) {
			struct obj *o = &objs[splitmix64(&t->rng) % nobj];
			struct caslist_node *n;

			if (w == 0) {
				caslist_move_head(&L, &o->link);
			} else if (w == 1) {
				if (caslist_del_if_linked(&o->link))
					caslist_add_head(&L, &o->link);
			} else if (w == 2) {
				/* A node already in our batch is skipped:
				 * queueing it twice is misuse (an abort). */
				bool dup = false;

				for (unsigned j = 0; j < b.n; j++)
					dup |= b.node[j] == &o->link;
				if (!dup)
					caslist_batch_move_head(&b, &L, &o->link);
			} else if ((n = caslist_pop_head(&L)) != NULL) {
				caslist_add_tail(&L, n);
			}
		}
		t->ops += 64;
	}
	caslist_batch_flush(&b);
	t->st = caslist_lk_stats;
	return NULL;
}

int main(int argc, char **argv)
{
	struct thr *thr;
	struct timespec t0, t1;
	struct caslist_lk_stats sum = { 0, 0, 0 };
	unsigned long ops = 0;
	int threads;
	double secs, wall;
	size_t count = 0;

	if (argc < 5) {
		fprintf(stderr, "usage: waitstat rotate|deladd|batch|queue THREADS SECONDS NODES"
				" [MIN_SPINS MAX_SPINS [POLLS [CROWDED_MAX]]]\n");
		return 2;
	}
	workload = argv[1];
	threads = atoi(argv[2]);
	secs = atof(argv[3]);
	nobj = (unsigned)atoi(argv[4]);
	if (argc > 6) {
		caslist_lk_backoff_min = (unsigned)atoi(argv[5]);
		caslist_lk_backoff_max = (unsigned)atoi(argv[6]);
	}
	if (argc > 7)
		caslist_lk_poll_max = (unsigned)atoi(argv[7]);
	if (argc > 8)
		caslist_lk_crowded_max = (unsigned)atoi(argv[8]);
	if (threads < 1 || nobj < 2)
		return 2;
	objs = calloc(nobj, sizeof(*objs));
	thr = aligned_alloc(64, sizeof(*thr) * (size_t)threads);
	if (objs == NULL || thr == NULL)
		return 2;
	caslist_init(&L);
	for (unsigned i = 0; i < nobj; i++) {
		caslist_node_init(&objs[i].link);
		caslist_add_tail(&L, &objs[i].link);
	}
	memset(thr, 0, sizeof(*thr) * (size_t)threads);
	for (int i = 0; i < threads; i++)
		thr[i].rng = 0x1234567ULL * (uint64_t)(i + 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (run_threads(threads, worker, thr, sizeof(*thr), &start, &stop, secs) != 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	for (int i = 0; i < threads; i++) {
		ops += thr[i].ops;
		sum.rounds += thr[i].st.rounds;
		sum.pauses += thr[i].st.pauses;
		sum.yields += thr[i].st.yields;
	}
	if (caslist_check(&L, nobj, &count) != 0 || count != nobj) {
		fprintf(stderr, "waitstat: the list is broken or lost nodes (%zu)\n", count);
		return 1;
	}
	printf("waitstat %s threads=%d nodes=%u backoff=%u..%u polls=%u: %lu ops, %.2f Mops/s; per op: "
	       "rounds %.3f pauses %.1f yields %.4f\n",
	       workload, threads, nobj, caslist_lk_backoff_min, caslist_lk_backoff_max, caslist_lk_poll_max, ops,
	       (double)ops / wall / 1e6,
	       (double)sum.rounds / (double)ops, (double)sum.pauses / (double)ops,
	       (double)sum.yields / (double)ops);
	free(objs);
	free(thr);
	return 0;
}
