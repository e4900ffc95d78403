/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/measure/waitstat.c - where the waiting goes on a hot list: a measurement
 * tool, not a test.  Built with the core compiled in and CASLIST_STATS
 * (static/wait.h), so every backoff round, ticket, grant, sleep, PAUSE, sched_yield and failed
 * head-link attempt is counted per thread, and the backoff policy can be
 * set at run time.
 *
 * Usage: waitstat WORKLOAD THREADS SECONDS NODES [MAX_SPINS [CROWDED_MAX]]
 *   rotate  move_head of a random node (LRU rotation)
 *   deladd  del_if_linked of a random node, add_head if it won
 *   batch   batch_move_head of random nodes (a flush per 15)
 *   queue   pop_head, add_tail
 *   xrotate, xdeladd  rotate and deladd on the exchange-locked list of
 *           the same family (bench/xlock.h: HAProxy mt_list's algorithm,
 *           its own randomised wait), counted the same way: issue 23's
 *           side-by-side
 * CASLIST_LK_CROWDED_MAX is the cap while the thread's crowding hint is up (default
 * 63; equal to MAX_SPINS gives the policy before the hint: one cap).
 * Prints ops/s (wall clock) and, per operation, the backoff rounds (failed
 * attempts at a held link, retries), PAUSEs and yields, the share of the
 * yields that took longer than CASLIST_LK_YIELD_SLOW_NS ("slow": each one
 * raised the crowding hint), and "switches"; then, if any thread yielded,
 * the yields' shares by time off the CPU (doc/notebook.md, "When a yield is slow").  The switches:
 * each thread stamps (TSC) the end of its first SWITCH_WINDOW operations,
 * and of all the operations of all threads in time order, the share that
 * follows one by another thread.  Two threads alternating op by op give
 * 1.0 (every hot line changes cores every operation); 0.01 means streaks
 * of about 100 operations on lines one core already holds.  That share,
 * more than the time spent waiting, is what sets the rate of a hot head
 * (doc/notebook.md, "The hot head").  Threads are not pinned.
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

#include <caslist/static/wait.h>
#include "../util.h"

#define XL_STAT(field, n) CASLIST_LK_STAT(field, n)
#include "../../bench/xlock.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t stamp(void)
{
	return __rdtsc();
}
#else
static inline uint64_t stamp(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

struct obj {
	union {
		struct caslist_node link;
		struct xl x;	/* xrotate, xdeladd */
	};
	char payload[48];	/* 64-byte objects */
};

static struct xl XH;
#define SWITCH_WINDOW (1u << 18)

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
	uint64_t *ts;		/* end stamps of the first SWITCH_WINDOW ops */
	unsigned nts;
} __attribute__((aligned(64)));

static void *worker(void *arg)
{
	struct thr *t = arg;
	struct caslist_batch b;
	int w = !strcmp(workload, "rotate") ? 0 : !strcmp(workload, "deladd") ? 1
		: !strcmp(workload, "batch") ? 2 : !strcmp(workload, "queue") ? 3
		: !strcmp(workload, "xrotate") ? 4 : 5;

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
			} else if (w == 3) {
				if ((n = caslist_pop_head(&L)) != NULL)
					caslist_add_tail(&L, n);
			} else if (w == 4) {
				xl_move(&XH, &o->x);
			} else if (xl_remove(&o->x)) {
				xl_insert(&XH, &o->x);
			}
			if (t->nts < SWITCH_WINDOW)
				t->ts[t->nts++] = stamp();
		}
		t->ops += 64;
	}
	caslist_batch_flush(&b);
	t->st = caslist_lk_stats;
	return NULL;
}

/*
 * Of the stamped operations that ran while every thread was stamping (from
 * the latest first stamp to the earliest last one), in time order, the
 * share that follows an operation of another thread.
 */
static double switches(const struct thr *thr, int threads)
{
	uint64_t lo = 0, hi = UINT64_MAX;
	unsigned *at = calloc((size_t)threads, sizeof(unsigned));
	unsigned long n = 0, sw = 0;
	int last = -1;

	if (at == NULL || threads < 2)
		return free(at), 0.0;
	for (int i = 0; i < threads; i++) {
		if (thr[i].nts == 0)
			return free(at), 0.0;
		lo = thr[i].ts[0] > lo ? thr[i].ts[0] : lo;
		hi = thr[i].ts[thr[i].nts - 1] < hi ? thr[i].ts[thr[i].nts - 1] : hi;
	}
	for (;;) {		/* merge: the thread with the earliest next stamp */
		int best = -1;

		for (int i = 0; i < threads; i++)
			if (at[i] < thr[i].nts &&
			    (best < 0 || thr[i].ts[at[i]] < thr[best].ts[at[best]]))
				best = i;
		if (best < 0 || thr[best].ts[at[best]] > hi)
			break;
		if (thr[best].ts[at[best]] >= lo) {
			sw += last >= 0 && last != best;
			n++;
			last = best;
		}
		at[best]++;
	}
	free(at);
	return n > 1 ? (double)sw / (double)(n - 1) : 0.0;
}

int main(int argc, char **argv)
{
	struct thr *thr;
	struct timespec t0, t1;
	struct caslist_lk_stats sum = { 0, 0, 0, 0, 0, 0, 0, { 0 } };
	unsigned long ops = 0;
	int threads;
	double secs, wall;
	size_t count = 0;

	if (argc < 5) {
		fprintf(stderr, "usage: waitstat rotate|deladd|batch|queue|xrotate|xdeladd THREADS SECONDS NODES"
				" [MAX_SPINS [CROWDED_MAX]]\n");
		return 2;
	}
	workload = argv[1];
	threads = atoi(argv[2]);
	secs = atof(argv[3]);
	nobj = (unsigned)atoi(argv[4]);
	if (argc > 5)
		caslist_lk_backoff_max = (unsigned)atoi(argv[5]);
	if (argc > 6)
		caslist_lk_crowded_max = (unsigned)atoi(argv[6]);
	if (threads < 1 || nobj < 2)
		return 2;
	if (strcmp(workload, "rotate") && strcmp(workload, "deladd") && strcmp(workload, "batch") &&
	    strcmp(workload, "queue") && strcmp(workload, "xrotate") && strcmp(workload, "xdeladd")) {
		fprintf(stderr, "waitstat: unknown workload '%s'\n", workload);
		return 2;
	}
	objs = calloc(nobj, sizeof(*objs));
	thr = aligned_alloc(64, sizeof(*thr) * (size_t)threads);
	if (objs == NULL || thr == NULL)
		return 2;
	caslist_init(&L);
	atomic_init(&XH.next, xl_w(&XH));
	atomic_init(&XH.prev, xl_w(&XH));
	for (unsigned i = 0; i < nobj; i++) {
		if (workload[0] == 'x') {
			xl_detach(&objs[i].x);
			xl_insert_tail(&XH, &objs[i].x);
		} else {
			caslist_node_init(&objs[i].link);
			caslist_add_tail(&L, &objs[i].link);
		}
	}
	memset(thr, 0, sizeof(*thr) * (size_t)threads);
	for (int i = 0; i < threads; i++) {
		thr[i].rng = 0x1234567ULL * (uint64_t)(i + 1);
		if ((thr[i].ts = malloc(SWITCH_WINDOW * sizeof(uint64_t))) == NULL)
			return 2;
	}
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
		sum.slow_yields += thr[i].st.slow_yields;
		sum.tickets += thr[i].st.tickets;
		sum.grants += thr[i].st.grants;
		sum.sleeps += thr[i].st.sleeps;
		for (int k = 0; k < CASLIST_LK_YIELD_BUCKETS; k++)
			sum.yield_time[k] += thr[i].st.yield_time[k];
	}
	if (workload[0] == 'x') {
		struct xl *x = xl_xp(atomic_load_explicit(&XH.next, memory_order_acquire)), *pv = &XH;

		for (; x != &XH && count <= nobj;
		     pv = x, x = xl_xp(atomic_load_explicit(&x->next, memory_order_acquire))) {
			if (xl_w(x) == XL_BUSY ||
			    atomic_load_explicit(&x->prev, memory_order_relaxed) != xl_w(pv))
				break;
			count++;
		}
		if (x == &XH && count == nobj)
			count = 0;	/* checked: skip caslist_check below */
		else
			count = nobj + 1;
	}
	if (workload[0] == 'x' ? count != 0 :
	    caslist_check(&L, nobj, &count) != 0 || count != nobj) {
		fprintf(stderr, "waitstat: the list is broken or lost nodes (%zu)\n", count);
		return 1;
	}
	printf("waitstat %s threads=%d nodes=%u backoff_max=%u crowded_max=%u: %lu ops, %.2f Mops/s;"
	       " per op: tickets %.4f grants %.4f sleeps %.4f"
	       " rounds %.3f pauses %.1f yields %.4f (slow %.2f) switches %.3f\n",
	       workload, threads, nobj, caslist_lk_backoff_max, caslist_lk_crowded_max, ops,
	       (double)ops / wall / 1e6, (double)sum.tickets / (double)ops,
	       (double)sum.grants / (double)ops, (double)sum.sleeps / (double)ops,
	       (double)sum.rounds / (double)ops, (double)sum.pauses / (double)ops,
	       (double)sum.yields / (double)ops,
	       sum.yields ? (double)sum.slow_yields / (double)sum.yields : 0.0,
	       switches(thr, threads));
	if (sum.yields) {	/* the buckets of lib/stats.h */
		static const char *const span[CASLIST_LK_YIELD_BUCKETS] = {
			"<8us", "8-32us", "32-128us", "128-1024us", ">1024us"
		};

		printf("waitstat yields off the CPU:");
		for (int k = 0; k < CASLIST_LK_YIELD_BUCKETS; k++)
			printf(" %s %.3f", span[k], (double)sum.yield_time[k] / (double)sum.yields);
		printf("\n");
	}
	for (int i = 0; i < threads; i++)
		free(thr[i].ts);
	free(objs);
	free(thr);
	return 0;
}
