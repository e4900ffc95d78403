/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/stress/fl_stress.c - concurrent stress of the cluster free list.
 *
 * Usage: fl_stress <threads> <seconds> <seed> [nodes] [batch]
 *
 * Thread 0 is a scanner: it opens scan windows and, inside each, asks the
 * state of a slice of nodes; a node seen TAKEN inside a window is a
 * failure (the window contract).  All other threads mix: take(want) and
 * walk the batch, single put, put_batch of a private chain, put through a
 * private cache, and remove of a random node.  Each node has a plain
 * `state` written only by its owner (FREE before it is put, the owner's
 * id after it is taken or removed), so TSan checks the free list's
 * ordering and a node taken twice is caught.  After the run (caches
 * flushed, threads joined): caslist_fl_check (clusters contiguous, counts
 * and tails exact, no descriptor leaked) and conservation (every node once:
 * free list or one thread), and progress: every kind of operation (and a
 * scan window) happened, which the run guarantees by going on after its
 * time, bounded, until each has (util.h, progress_more); the summary
 * says by how much (extended=).  One-line summary; exit 0 = pass.
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

#define FREE_STATE (-1)

struct item {
	struct caslist_fl_node fl;
	int state;
	int seen;
};

struct thr {
	int id;
	uint64_t rng;
	struct item **own;
	size_t nown;
	struct caslist_fl_cache cache;
	unsigned long long takes, taken, puts, batches, cputs, removes, removed;
	unsigned long long windows, probes, taken_seen_outside;
};

static struct caslist_fl fl;
static struct item *items;
static size_t nitems;
static unsigned batch;
static _Atomic int stop;
static _Atomic unsigned long errors;
/* Every kind below must happen (the progress check): the run goes on
 * after its time, bounded, until each has (util.h, progress_more). */
enum { P_TAKEN, P_PUT, P_BATCH, P_CPUT, P_REMOVED, P_WINDOW, NPROG };
static struct progress prog;
static pthread_barrier_t start;


static struct item *item_of(struct caslist_fl_node *x)
{
	return caslist_entry(x, struct item, fl);
}

static void take_own(struct thr *t, struct item *it, const char *how)
{
	if (it->state != FREE_STATE) {
		atomic_fetch_add(&errors, 1);
		fprintf(stderr, "fl_stress: thread %d %s node %p in state %d\n", t->id, how,
			(void *)it, it->state);
	}
	it->state = t->id;
	t->own[t->nown++] = it;
}

static struct item *give(struct thr *t)
{
	size_t i = splitmix64(&t->rng) % t->nown;
	struct item *it = t->own[i];

	t->own[i] = t->own[--t->nown];
	it->state = FREE_STATE;
	return it;
}

static void scanner(struct thr *t)
{
	while (progress_more(&stop, &prog)) {
		size_t from = splitmix64(&t->rng) % nitems, len = 64;

		caslist_fl_scan_begin(&fl);
		t->windows++;
		for (size_t i = 0; i < len; i++) {
			struct item *it = &items[(from + i) % nitems];

			t->probes++;
			if (caslist_fl_node_state(&fl, &it->fl) == CASLIST_FL_TAKEN) {
				atomic_fetch_add(&errors, 1);
				fprintf(stderr, "fl_stress: node %p TAKEN inside a scan window\n",
					(void *)it);
			}
		}
		caslist_fl_scan_end(&fl);
		progress_note(&prog, P_WINDOW);
		/* outside a window TAKEN is allowed: count it (shows the
		 * probe can see the state at all) */
		for (size_t i = 0; i < len; i++)
			t->taken_seen_outside += caslist_fl_node_state(&fl, &items[(from + i) % nitems].fl) ==
						 CASLIST_FL_TAKEN;
	}
}

static void worker_ops(struct thr *t)
{
	while (progress_more(&stop, &prog)) {
		unsigned r = (unsigned)(splitmix64(&t->rng) % 10);

		if (r < 2 || t->nown == 0) {
			struct caslist_fl_batch b;
			struct caslist_fl_node *x;
			size_t want = 1 + splitmix64(&t->rng) % batch, got = 0;

			t->takes++;
			caslist_fl_take(&fl, want, &b);
			while ((x = caslist_fl_batch_next(&b)) != NULL) {
				take_own(t, item_of(x), "took");
				got++;
			}
			if (got != b.n) {
				atomic_fetch_add(&errors, 1);
				fprintf(stderr, "fl_stress: batch count %zu, walked %zu\n", b.n, got);
			}
			t->taken += got;
			if (got > 0)
				progress_note(&prog, P_TAKEN);
		} else if (r < 4) {
			t->puts++;
			caslist_fl_put(&fl, &give(t)->fl);
			progress_note(&prog, P_PUT);
		} else if (r < 6) {
			size_t k = 1 + splitmix64(&t->rng) % (2 * batch), n = 1;
			struct item *first = give(t), *prev = first, *it;

			while (n < k && t->nown > 0) {
				it = give(t);
				caslist_chain_link(&prev->fl.link, &it->fl.link);
				prev = it;
				n++;
			}
			t->batches++;
			caslist_fl_put_batch(&fl, &first->fl, &prev->fl, n);
			progress_note(&prog, P_BATCH);
		} else if (r < 7) {
			struct item *it = give(t);

			t->cputs++;
			caslist_fl_cache_put(&fl, &t->cache, &it->fl);
			progress_note(&prog, P_CPUT);
		} else {
			struct item *it = &items[splitmix64(&t->rng) % nitems];

			t->removes++;
			if (caslist_fl_remove(&fl, &it->fl) == CASLIST_OK) {
				take_own(t, it, "removed");
				t->removed++;
				progress_note(&prog, P_REMOVED);
			}
		}
	}
	caslist_fl_cache_flush(&fl, &t->cache);
}

static void *worker(void *arg)
{
	struct thr *t = arg;

	pthread_barrier_wait(&start);
	if (t->id == 0)
		scanner(t);
	else
		worker_ops(t);
	return NULL;
}

int main(int argc, char **argv)
{
	struct thr *thr;
	struct checks cc = { "fl_stress", 0, 0 };
	int nthreads, rc;
	double seconds;
	uint64_t seed;
	size_t nfree = 0, nclusters = 0, nlist = 0, nowned = 0;
	unsigned long long s_takes = 0, s_taken = 0, s_puts = 0, s_batches = 0, s_cputs = 0,
			   s_removes = 0, s_removed = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: %s <threads> <seconds> <seed> [nodes] [batch]\n", argv[0]);
		return 2;
	}
	nthreads = atoi(argv[1]);
	seconds = atof(argv[2]);
	seed = strtoull(argv[3], NULL, 0);
	nitems = argc > 4 ? strtoul(argv[4], NULL, 0) : 0;
	batch = argc > 5 ? (unsigned)atoi(argv[5]) : 31;
	if (nthreads < 2 || seconds <= 0 || batch == 0) {
		fprintf(stderr, "fl_stress: bad arguments (threads >= 2: one is the scanner)\n");
		return 2;
	}
	if (nitems == 0)
		nitems = (size_t)nthreads * 64 < 4096 ? 4096 : (size_t)nthreads * 64;
	watchdog_arm(seconds);

	items = calloc(nitems, sizeof(*items));
	thr = calloc((size_t)nthreads, sizeof(*thr));
	if (items == NULL || thr == NULL)
		return 2;
	caslist_fl_init(&fl, batch);
	for (int i = 0; i < nthreads; i++) {
		thr[i].id = i;
		thr[i].rng = seed ^ (0x51afd6ed4e3c1a27ULL * (uint64_t)(i + 1));
		thr[i].own = calloc(nitems, sizeof(struct item *));
		if (thr[i].own == NULL)
			return 2;
	}
	/* all nodes start free, in clusters of batch */
	for (size_t i = 0; i < nitems; i++) {
		caslist_fl_node_init(&items[i].fl);
		items[i].state = FREE_STATE;
		caslist_fl_put(&fl, &items[i].fl);
	}

	atomic_store(&prog.want, (1UL << NPROG) - 1);
	if (run_threads_progress(nthreads, worker, thr, sizeof(*thr), &start, &stop, seconds,
				 &prog) != 0)
		return 2;

	rc = caslist_fl_check(&fl, &nfree, &nclusters);
	check(&cc, rc == 0, "free list audit: %s", caslist_fl_check_strerror(rc));
	{
		struct caslist_node *cur = &fl.list.head;
		size_t bad = 0;

		while (caslist_iter_next(&fl.list, &cur) == 1) {
			struct item *it = item_of(caslist_entry(cur, struct caslist_fl_node, link));

			it->seen++;
			nlist++;
			bad += it->state != FREE_STATE;
		}
		check(&cc, bad == 0, "%zu free nodes not in state FREE", bad);
	}
	CHECK_CENSUS(&cc, thr, nthreads,
		     it->state == i && caslist_fl_node_state(&fl, &it->fl) == CASLIST_FL_NOT_FREE,
		     "in a wrong state", items, nitems, nlist, "free", nowned);
	check(&cc, atomic_load(&errors) == 0, "%lu errors during the run (see above)",
	      atomic_load(&errors));
	for (int i = 1; i < nthreads; i++) {
		s_takes += thr[i].takes, s_taken += thr[i].taken, s_puts += thr[i].puts;
		s_batches += thr[i].batches, s_cputs += thr[i].cputs;
		s_removes += thr[i].removes, s_removed += thr[i].removed;
	}
	check(&cc, s_taken > 0 && s_puts > 0 && s_batches > 0 && s_cputs > 0 && s_removed > 0 &&
		      thr[0].windows > 0,
	      "progress: every operation must have happened (run extended %.3f s)",
	      prog.extended);

	printf("fl_stress threads=%d seconds=%.2f seed=%llu nodes=%zu batch=%u: takes=%llu"
	       " (nodes %llu) puts=%llu put_batches=%llu cache_puts=%llu removes=%llu/%llu"
	       " windows=%llu probes=%llu taken_seen_outside=%llu free=%zu clusters=%zu"
	       " owned=%zu extended=%.3fs -> %s (%d passed, %d failed)\n",
	       nthreads, seconds, (unsigned long long)seed, nitems, batch, s_takes, s_taken,
	       s_puts, s_batches, s_cputs, s_removed, s_removes, thr[0].windows, thr[0].probes,
	       thr[0].taken_seen_outside, nfree, nclusters, nowned, prog.extended,
	       cc.failed ? "FAIL" : "PASS",
	       cc.n - cc.failed, cc.failed);
	caslist_fl_destroy(&fl);
	return cc.failed ? 1 : 0;
}
