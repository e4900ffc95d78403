/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lruvec/lruvec.c - the kernel's per-node LRU (a struct lruvec:
 * an inactive and an active list) on libcaslist, against the same lists
 * under one lock (the kernel's lru_lock).  The mix of the seed's workload
 * (doc/scaling.md; bench/listbench runs it as lruvec/N), per 100 steps of
 * a thread:
 *   60  a hit: a node not marked active is queued; 15 queued are
 *       activated (out of the middle of the inactive list, in at the
 *       active head: caslist_batch_move_head_n, one flush per 15)
 *   30  a producer: 15 new nodes at the inactive head; with fewer than 15
 *       free nodes, reclaim first: isolate 32 from the inactive tail, keep
 *       1 in 4 (back at the active head), free the rest
 *    6  a demotion: 32 from the active tail to the inactive head
 *    4  a free of a random node from the middle
 * The lock peer takes one lock for both lists once per batch, with a
 * trylock first; a failed trylock's wait is timed, and "lock wait" is the
 * share of the threads' time spent waiting.  After each run every node is
 * counted (both lists and every thread's free nodes) and the lists are
 * checked: a failure exits 1.  Public API only.
 *
 * usage: lruvec [--impl caslist,lock] [--threads 1,2] [--seconds S | --ops N]
 *               [--objects N] [--seed N]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <caslist/caslist.h>

#include "common/cli.h"
#include "common/dlist.h"
#include "common/rng.h"

#define BATCH 15	/* the kernel's folio batch */
#define ISOLATE 32	/* SWAP_CLUSTER_MAX */

struct obj {
	struct caslist_node cn;		/* caslist */
	struct dlist dn;		/* the lock peer */
	int on;				/* lock peer, under the lock: 0, 1 inactive, 2 active */
	_Atomic unsigned char active;	/* a hint (PG_active): hits skip active nodes */
} __attribute__((aligned(64)));

static struct obj *objs;
static size_t nobjs;
static struct caslist_list inactive, active;		/* caslist */
static struct dlist l_inactive, l_active;		/* the lock peer */
static pthread_mutex_t lru_lock = PTHREAD_MUTEX_INITIALIZER;
static int use_lock;
static _Atomic int stop;
static pthread_barrier_t start;

struct worker {
	pthread_t tid;
	uint64_t rng, ops, steps, max_steps;
	struct obj **free;
	size_t nfree;
	struct obj *hit[BATCH];
	unsigned nhit;
	double wait_s, run_s;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void lock(struct worker *w)
{
	double t0;

	if (pthread_mutex_trylock(&lru_lock) == 0)
		return;
	t0 = now_s();
	pthread_mutex_lock(&lru_lock);
	w->wait_s += now_s() - t0;
}

static void unlock(void)
{
	pthread_mutex_unlock(&lru_lock);
}

/* the lock peer's list step; the caller holds lru_lock */
static void l_link(struct obj *o, int which)
{
	dlist_add_after(which == 2 ? &l_active : &l_inactive, &o->dn);
	o->on = which;
	atomic_store_explicit(&o->active, which == 2, memory_order_relaxed);
}

static void activate(struct worker *w)
{
	if (use_lock) {
		lock(w);
		for (unsigned i = 0; i < w->nhit; i++)
			if (w->hit[i]->on == 1) {
				dlist_del(&w->hit[i]->dn);
				l_link(w->hit[i], 2);
			}
		unlock();
	} else {
		struct caslist_batch b;
		struct caslist_node *v[BATCH];

		for (unsigned i = 0; i < w->nhit; i++) {
			v[i] = &w->hit[i]->cn;
			atomic_store_explicit(&w->hit[i]->active, 1, memory_order_relaxed);
		}
		caslist_batch_init(&b);
		caslist_batch_move_head_n(&b, &active, v, w->nhit);
		caslist_batch_flush(&b);
	}
	w->nhit = 0;
}

/* up to ISOLATE off the inactive tail into v; returns how many */
static size_t isolate(struct worker *w, struct obj **v)
{
	size_t k = 0;

	if (use_lock) {
		lock(w);
		for (; k < ISOLATE && l_inactive.prev != &l_inactive; k++) {
			v[k] = dlist_entry(l_inactive.prev, struct obj, dn);
			dlist_del(&v[k]->dn);
			v[k]->on = 0;
		}
		unlock();
	} else {
		struct caslist_node *c;

		for (; k < ISOLATE && (c = caslist_pop_tail(&inactive)) != NULL; k++)
			v[k] = caslist_entry(c, struct obj, cn);
	}
	return k;
}

/* n nodes of v to the head of list `which` (1 inactive, 2 active) */
static void add_head(struct worker *w, struct obj **v, size_t n, int which)
{
	if (use_lock) {
		lock(w);
		for (size_t i = 0; i < n; i++)
			l_link(v[i], which);
		unlock();
		return;
	}
	for (size_t i = 0; i < n; i++) {	/* one by one: no private chains */
		atomic_store_explicit(&v[i]->active, which == 2, memory_order_relaxed);
		caslist_add_head(which == 2 ? &active : &inactive, &v[i]->cn);
	}
}

static size_t demote(struct worker *w)
{
	size_t k = 0;

	if (use_lock) {
		lock(w);
		for (; k < ISOLATE && l_active.prev != &l_active; k++) {
			struct obj *o = dlist_entry(l_active.prev, struct obj, dn);

			dlist_del(&o->dn);
			l_link(o, 1);
		}
		unlock();
	} else {
		struct caslist_node *c;

		for (; k < ISOLATE && (c = caslist_pop_tail(&active)) != NULL; k++) {
			atomic_store_explicit(&caslist_entry(c, struct obj, cn)->active, 0,
					      memory_order_relaxed);
			caslist_add_head(&inactive, c);
		}
	}
	return k;
}

static int free_one(struct worker *w, struct obj *o)
{
	int won;

	if (!use_lock)
		return caslist_del_if_linked(&o->cn);
	lock(w);
	won = o->on != 0;
	if (won) {
		dlist_del(&o->dn);
		o->on = 0;
	}
	unlock();
	return won;
}

static void step(struct worker *w)
{
	unsigned r = (unsigned)rng_below(&w->rng, 100);
	struct obj *o, *v[ISOLATE];
	size_t k, kept = 0;

	if (r < 60) {				/* a hit */
		o = &objs[rng_below(&w->rng, nobjs)];
		w->ops++;
		if (atomic_load_explicit(&o->active, memory_order_relaxed))
			return;
		for (unsigned i = 0; i < w->nhit; i++)
			if (w->hit[i] == o)
				return;
		w->hit[w->nhit++] = o;
		if (w->nhit == BATCH)
			activate(w);
	} else if (r < 90) {			/* a producer, reclaiming first if short */
		if (w->nfree < BATCH) {
			k = isolate(w, v);
			for (size_t i = 0; i < k; i++)
				if (rng_below(&w->rng, 4) == 0)
					v[kept++] = v[i];
				else
					w->free[w->nfree++] = v[i];
			add_head(w, v, kept, 2);
			w->ops += k;
		}
		if (w->nfree >= BATCH) {
			w->nfree -= BATCH;
			add_head(w, &w->free[w->nfree], BATCH, 1);
			w->ops += BATCH;
		}
	} else if (r < 96) {			/* a demotion */
		w->ops += demote(w);
	} else {				/* a free from the middle */
		o = &objs[rng_below(&w->rng, nobjs)];
		if (free_one(w, o))
			w->free[w->nfree++] = o;
		w->ops++;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	double t0;

	pthread_barrier_wait(&start);
	t0 = now_s();
	while (w->max_steps ? w->steps < w->max_steps
			    : !atomic_load_explicit(&stop, memory_order_relaxed)) {
		step(w);
		w->steps++;
	}
	w->run_s = now_s() - t0;
	return NULL;
}

/* one run: 0, or 1 if the end-of-run count or check failed */
static int run(int threads, double seconds, uint64_t ops, uint64_t seed, double *rate,
	       double *wait)
{
	struct worker *w = calloc((size_t)threads, sizeof(*w));
	size_t counted = 0, a = 0;
	double wait_s = 0, run_s = 0, t0;
	uint64_t total = 0;
	int rc = 0;

	if (w == NULL)
		exit(1);
	memset(objs, 0, nobjs * sizeof(*objs));
	caslist_init(&inactive);
	caslist_init(&active);
	dlist_init(&l_inactive);
	dlist_init(&l_active);
	for (size_t i = 0; i < nobjs; i++) {
		caslist_node_init(&objs[i].cn);
		if (use_lock)
			l_link(&objs[i], 1);
		else
			caslist_add_tail(&inactive, &objs[i].cn);
	}
	atomic_store(&stop, 0);
	pthread_barrier_init(&start, NULL, (unsigned)threads + 1);
	for (int t = 0; t < threads; t++) {
		w[t].rng = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)t;
		w[t].max_steps = ops;
		w[t].free = malloc(nobjs * sizeof(*w[t].free));
		if (w[t].free == NULL || pthread_create(&w[t].tid, NULL, worker_main, &w[t]) != 0)
			exit(1);
	}
	pthread_barrier_wait(&start);
	t0 = now_s();
	if (!ops) {
		struct timespec d = { (time_t)seconds,
				      (long)((seconds - (double)(time_t)seconds) * 1e9) };

		nanosleep(&d, NULL);
		atomic_store(&stop, 1);
	}
	for (int t = 0; t < threads; t++) {
		pthread_join(w[t].tid, NULL);
		total += w[t].ops;
		wait_s += w[t].wait_s;
		run_s += w[t].run_s;
		counted += w[t].nfree;	/* joined: the free nodes are ours now */
		free(w[t].free);
	}
	*rate = (double)total / (now_s() - t0);
	*wait = run_s > 0 ? wait_s / run_s : 0;
	if (use_lock) {
		for (struct dlist *x = l_inactive.next; x != &l_inactive; x = x->next)
			counted++;
		for (struct dlist *x = l_active.next; x != &l_active; x = x->next)
			counted++;
	} else if (caslist_check(&inactive, nobjs, &a) != 0 ||
		   (counted += a, caslist_check(&active, nobjs, &a)) != 0) {
		fprintf(stderr, "lruvec: caslist_check failed\n");
		rc = 1;
	} else {
		counted += a;
	}
	if (counted != nobjs) {
		fprintf(stderr, "lruvec: %zu objects counted at the end, expected %zu\n", counted,
			nobjs);
		rc = 1;
	}
	pthread_barrier_destroy(&start);
	free(w);
	return rc;
}

static void usage(void)
{
	puts("usage: lruvec [--impl caslist,lock] [--threads 1,2] [--seconds S | --ops N]\n"
	     "              [--objects N] [--seed N]\n"
	     "The kernel's per-node LRU (inactive and active lists) on libcaslist and\n"
	     "under one lock (doc/scaling.md).\n"
	     "  --impl     comma list of caslist and lock (default both)\n"
	     "  --threads  comma list of thread counts, 1..1024 (default 1,2)\n"
	     "  --seconds  per point, > 0 (default 1)\n"
	     "  --ops      steps per thread instead of a timed run\n"
	     "  --objects  nodes, 64..16777216 (default 4096)\n"
	     "  --seed     (default 1)\n"
	     "Prints node operations per second, the lock's wait share, the ratio\n"
	     "to lock in the same run, and the end-of-run check (a failure exits 1).");
}

int main(int argc, char **argv)
{
	static const struct cli_opt opts[] = {
		{ "--impl", CLI_VALUE }, { "--threads", CLI_VALUE }, { "--seconds", CLI_VALUE },
		{ "--ops", CLI_VALUE }, { "--objects", CLI_VALUE }, { "--seed", CLI_VALUE },
		{ "--help", CLI_FLAG }, { NULL, 0 },
	};
	int threads[64], nthreads = 0, impl_caslist = 1, impl_lock = 1, failed = 0, o;
	double seconds = 1;
	uint64_t ops = 0, seed = 1;
	const char *v;
	struct cli c;

	nobjs = 4096;
	cli_init(&c, "lruvec", argc, argv, 1);
	while ((o = cli_next(&c, opts, &v)) >= 0) {
		const char *n = opts[o].name;

		if (strcmp(n, "--help") == 0) {
			usage();
			return 0;
		} else if (strcmp(n, "--impl") == 0) {
			impl_caslist = strstr(v, "caslist") != NULL;
			impl_lock = strstr(v, "lock") != NULL;
			if (!impl_caslist && !impl_lock)
				cli_bad(&c, "--impl: '%s' names neither caslist nor lock", v);
		} else if (strcmp(n, "--threads") == 0) {
			nthreads = cli_int_list(&c, "--threads", v, threads, 64, 1, 1024);
		} else if (strcmp(n, "--seconds") == 0) {
			seconds = cli_double(&c, "--seconds", v, 0, 3600, 1);
		} else if (strcmp(n, "--ops") == 0) {
			ops = (uint64_t)cli_int(&c, "--ops", v, 1, 1000000000000LL);
		} else if (strcmp(n, "--objects") == 0) {
			nobjs = (size_t)cli_int(&c, "--objects", v, 64, 16777216);
		} else {
			seed = (uint64_t)cli_int(&c, "--seed", v, 0, 1LL << 62);
		}
	}
	if (nthreads == 0) {
		threads[nthreads++] = 1;
		threads[nthreads++] = 2;
	}
	objs = aligned_alloc(64, nobjs * sizeof(*objs));
	if (objs == NULL)
		return 1;
	printf("%-8s %7s %14s %9s %9s  %s\n", "impl", "threads", "node ops/s", "lock wait",
	       "vs lock", "check");
	for (int i = 0; i < nthreads; i++) {
		double rate[2] = { 0, 0 }, wait[2] = { 0, 0 };
		int rc[2] = { 0, 0 };

		for (int k = 0; k < 2; k++) {	/* lock first: the ratio's base */
			use_lock = k == 0;
			if (use_lock ? !impl_lock : !impl_caslist)
				continue;
			rc[k] = run(threads[i], seconds, ops, seed, &rate[k], &wait[k]);
			failed |= rc[k];
			if (use_lock)
				printf("%-8s %7d %14.0f %8.1f%% %9s  %s\n", "lock", threads[i],
				       rate[k], 100 * wait[k], "1.00", rc[k] ? "FAILED" : "passed");
			else if (impl_lock)
				printf("%-8s %7d %14.0f %9s %9.2f  %s\n", "caslist", threads[i],
				       rate[k], "-", rate[k] / rate[0], rc[k] ? "FAILED" : "passed");
			else
				printf("%-8s %7d %14.0f %9s %9s  %s\n", "caslist", threads[i],
				       rate[k], "-", "-", rc[k] ? "FAILED" : "passed");
		}
	}
	free(objs);
	return failed;
}
