/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/main.c - lrucache: runs the same cache with each LRU
 * implementation at each thread count, in one process, and checks each run
 * (audit.c).  doc/lru.md has the design, the invariants and the figures.
 *
 *   lrucache run --impl LIST --threads LIST (--seconds S | --ops N)
 *                [--policy strict|lazy|batched] [--reclaim inline|thread]
 *                [--zipf S] [--capacity N] [--get-ratio R] [--value-size B]
 *                [--shards N] [--seed N] [--json] [--retries N] [--max-disturbed F]
 *
 * A point (impl, threads) that other processes or the hypervisor (steal)
 * disturbed, more than --max-disturbed of all CPU time during its timed
 * part, runs again, up to --retries times; the least disturbed run is
 * kept and the report says how many it took and whether it stayed
 * disturbed.  A run whose checks failed is never run again: the failure
 * stands.
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache.h"
#include "common/rng.h"
#include "common/sysload.h"

/* From this capacity on, setup and the end check print progress lines
 * (stderr): they take seconds. */
#define PROGRESS_CAPACITY (1u << 20)

static pthread_barrier_t start_barrier;

/*
 * --lockstep (a test knob, with --ops and inline reclaim): thread i waits
 * for its turn (turn[i]), does one operation, and passes the turn to
 * thread i + 1 (mod n).  Each thread's keys come from its own generator,
 * so the global sequence of operations is the same in every run and for
 * every implementation: the hits are deterministic, and mutex and caslist
 * must produce exactly the same (examples/lru/lru-test.sh).  The semaphores
 * order each operation before the next (sem_post / sem_wait).
 */
static struct {
	sem_t *turn;
	int n;
} lockstep;

static void *worker(void *arg)
{
	struct tctx *t = arg;
	struct cache *c = t->c;
	const struct config *cfg = c->cfg;
	uint64_t get_thresh = (uint64_t)(cfg->get_ratio * 16777216.0);

	pthread_barrier_wait(&start_barrier);
	for (long long i = 0; cfg->ops ? i < cfg->ops : !stopping(c); i++) {
		uint64_t r = splitmix64(&t->rng);
		uint64_t key = zipf_next(c, splitmix64(&t->rng));

		if (cfg->lockstep)
			while (sem_wait(&lockstep.turn[t->id]) != 0)
				;	/* EINTR */
		if ((r & 0xffffff) < get_thresh)
			cache_get(t, key);
		else
			cache_set(t, key);
		if (cfg->lockstep)
			sem_post(&lockstep.turn[(t->id + 1) % lockstep.n]);
		t->st.ops++;
	}
	if (c->ops->flush)
		c->ops->flush(t);
	pool_flush(t, 0);
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void add_stats(struct stats *a, const struct stats *b)
{
	const uint64_t *p = (const uint64_t *)b;
	uint64_t *q = (uint64_t *)a;

	for (size_t i = 0; i < sizeof(*a) / sizeof(uint64_t); i++)
		q[i] += p[i];
}

static int run_one(const struct config *cfg, enum impl impl, int nthreads, struct result *res)
{
	struct cache c;
	struct tctx *ts;
	pthread_t *tid;
	pthread_t rtid;
	struct checks ck = { "lrucache", 0, 0 };
	struct sysload_mark mark;
	double others, steal;
	int nt = nthreads + 1;	/* [nthreads]: the prefill, then the reclaimer */
	double t0, t1, setup = now_s();
	char name[64];
	/* Setup and the end check touch every object and key: say so when
	 * that takes long (about 1 s per million of capacity, and
	 * capacity x 192 bytes of memory at the default value size). */
	bool loud = cfg->capacity >= PROGRESS_CAPACITY;

	if (loud)
		fprintf(stderr, "lrucache: %s/%d: setting up capacity %zu (%zu keys, %zu MiB of "
			"objects), prefilling ...\n", lru_impls[impl]->name, nthreads,
			cfg->capacity, 10 * cfg->capacity,
			(cfg->capacity * ((sizeof(struct obj) + cfg->value_size + 63) & ~(size_t)63)) >> 20);
	if (cache_init(&c, cfg, impl, nthreads) != 0)
		return -1;
	ts = aligned_alloc(64, (size_t)nt * sizeof(*ts));
	tid = calloc((size_t)nthreads, sizeof(*tid));
	if (!ts || !tid) {
		fprintf(stderr, "lrucache: out of memory\n");
		return -1;
	}
	memset(ts, 0, (size_t)nt * sizeof(*ts));
	for (int i = 0; i < nt; i++) {
		uint64_t s = cfg->seed * 0x100000001b3ULL + (uint64_t)i;

		ts[i].c = &c;
		ts[i].id = i;
		ts[i].rng = splitmix64(&s);
		ts[i].rr = (unsigned)i;
		caslist_batch_init(&ts[i].batch);
		ts[i].buf = malloc(cfg->value_size);
		if (!ts[i].buf)
			return -1;
	}
	/* Prefill (untimed, not counted in the rates): the capacity's most
	 * popular keys, least popular first, so rank 0 ends at the head. */
	for (uint64_t k = c.cap; k-- > 0;)
		cache_set(&ts[nthreads], k);
	pool_flush(&ts[nthreads], 0);
	memset(&ts[nthreads].st, 0, sizeof(ts[nthreads].st));
	/* The prefill's allocations stay live: keep them in the books. */
	ts[nthreads].st.allocs = ts[nthreads].st.inserts = c.cap;
	if (loud)
		fprintf(stderr, "lrucache: %s/%d: set up in %.1f s; running\n", c.ops->name, nthreads,
			now_s() - setup);

	pthread_barrier_init(&start_barrier, NULL, (unsigned)nthreads + 1);
	if (cfg->lockstep) {
		lockstep.n = nthreads;
		lockstep.turn = calloc((size_t)nthreads, sizeof(*lockstep.turn));
		if (lockstep.turn == NULL)
			return -1;
		for (int i = 0; i < nthreads; i++)
			sem_init(&lockstep.turn[i], 0, 0);
	}
	for (int i = 0; i < nthreads; i++)
		if (pthread_create(&tid[i], NULL, worker, &ts[i]) != 0) {
			fprintf(stderr, "lrucache: pthread_create failed at %d threads\n", i);
			exit(1);
		}
	if (cfg->reclaim == RECLAIM_THREAD &&
	    pthread_create(&rtid, NULL, reclaimer, &ts[nthreads]) != 0) {
		fprintf(stderr, "lrucache: cannot start the reclaim thread\n");
		exit(1);
	}
	sysload_mark(&mark);
	pthread_barrier_wait(&start_barrier);
	t0 = now_s();
	if (cfg->lockstep)
		sem_post(&lockstep.turn[0]);	/* thread 0 goes first */
	if (cfg->ops == 0) {
		struct timespec d;

		d.tv_sec = (time_t)cfg->seconds;
		d.tv_nsec = (long)((cfg->seconds - (double)d.tv_sec) * 1e9);
		while (nanosleep(&d, &d) != 0 && errno == EINTR)
			;
		atomic_store(&c.stop, 1);	/* seq_cst; see stopping() */
	}
	for (int i = 0; i < nthreads; i++)
		pthread_join(tid[i], NULL);
	t1 = now_s();
	sysload_since(&mark, &others, &steal);
	atomic_store(&c.stop, 1);	/* --ops runs: stop the reclaim thread */
	if (cfg->reclaim == RECLAIM_THREAD) {
		reclaim_wake(&c);
		pthread_join(rtid, NULL);
	}
	pthread_barrier_destroy(&start_barrier);
	if (cfg->lockstep) {
		for (int i = 0; i < nthreads; i++)
			sem_destroy(&lockstep.turn[i]);
		free(lockstep.turn);
	}

	memset(res, 0, sizeof(*res));
	for (int i = 0; i < nt; i++)
		add_stats(&res->st, &ts[i].st);
	snprintf(name, sizeof(name), "lrucache %s/%d", c.ops->name, nthreads);
	ck.prog = name;
	if (loud)
		fprintf(stderr, "lrucache: %s/%d: ran %.2f s; checking\n", c.ops->name, nthreads,
			t1 - t0);
	cache_check(&c, &res->st, &ck);
	res->threads = nthreads;
	res->impl = impl;
	res->secs = t1 - t0;
	res->max_live = atomic_load(&c.max_live);
	res->end_live = live_now(&c);
	res->slack = c.slack;
	res->checks = ck.n;
	res->failed = ck.failed;
	res->others = others;
	res->steal = steal;
	for (int i = 0; i < nt; i++)
		free(ts[i].buf);
	free(ts);
	free(tid);
	cache_destroy(&c);
	return 0;
}

/* One point: run_one, again while disturbed (at most cfg->retries more
 * times); *res is the least disturbed run, or the first that failed a
 * check. */
static int run_point(const struct config *cfg, enum impl impl, int nthreads, struct result *res)
{
	struct result r;
	int tries = 0;

	for (;;) {
		if (run_one(cfg, impl, nthreads, &r) != 0)
			return -1;
		tries++;
		if (tries == 1 || r.failed || r.others + r.steal < res->others + res->steal)
			*res = r;
		if (r.failed || res->others + res->steal <= cfg->max_disturbed || tries > cfg->retries)
			break;
		fprintf(stderr, "lrucache: %s/%d disturbed (other processes %.0f%%, steal %.0f%% of "
			"all CPU time): run %d of at most %d\n", lru_impls[impl]->name, nthreads,
			100 * r.others, 100 * r.steal, tries + 1, cfg->retries + 1);
	}
	res->tries = tries;
	res->disturbed = res->others + res->steal > cfg->max_disturbed;
	return 0;
}

int main(int argc, char **argv)
{
	static struct config cfg = {
		.impls = { IMPL_MUTEX, IMPL_CASLIST }, .nimpls = 2,
		.threads = { 1, 2, 64 }, .nthreads = 3,
		.seconds = 1, .zipf = 0.99, .capacity = 65536, .get_ratio = 0.9,
		.value_size = 64, .shards = 16, .seed = 1,
		.retries = 2, .max_disturbed = 0.1,
	};
	static struct result res[MAX_RUNS * NIMPL];
	int n = 0, failed = 0;
	double total;

	parse_args(&cfg, argc, argv);
	total = cfg.ops ? 0 : cfg.seconds * cfg.nthreads * cfg.nimpls * (cfg.retries + 1);
	watchdog_arm(total + 60);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int ti = 0; ti < cfg.nthreads; ti++)
		for (int ii = 0; ii < cfg.nimpls; ii++) {
			if (run_point(&cfg, (enum impl)cfg.impls[ii], cfg.threads[ti], &res[n]) != 0)
				return 1;
			failed += res[n].failed;
			n++;
		}
	if (cfg.json)
		print_json(&cfg, res, n);
	else
		print_table(&cfg, res, n);
	if (failed)
		fprintf(stderr, "lrucache: %d check(s) failed\n", failed);
	return failed ? 1 : 0;
}
