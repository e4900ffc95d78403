/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/workload.c - listbench's workloads and the body that runs them.
 *
 * One iteration of each workload (items_per_second counts these, or nodes
 * where noted), with real time:
 *   lru_slice/N   move a random node of this thread's slice to the head
 *   lru_all/N     move a random node of the whole list to the head
 *   queue/N       pop the tail, add it at the head
 *   stack/N       pop the head, add it at the head
 *   del_disjoint/N delete a random node of this thread's slice, re-add it
 *                 after another random node of the slice
 *   del_overlap/N delete a random node of the whole list if still linked
 *                 (racing removers: exactly one wins), re-add it after a
 *                 random linked node
 *   add_near/N    as del_overlap, re-adding with add_near (peers: add_after)
 *   splice_cut/B  take a prefix of B nodes, splice them back at the tail as
 *                 one chain; counts nodes.  libcaslist: the cluster free list
 *                 (caslist_fl_take / caslist_fl_put_batch: O(1) cut and
 *                 splice); peers walk B nodes under their lock to find the
 *                 cut point (they keep no cluster descriptors).  Both walk
 *                 the taken nodes once outside the lock.
 *   fl_put/K      take a batch of K nodes, put them back one node at a time;
 *                 counts puts.
 *   lruvec/N      the kernel's per-node LRU (the seed's workload): two
 *                 lists, inactive and active; per 100 steps 60 hits, 30
 *                 adds of 15 new nodes, 6 demotions of 32, 4 frees (see
 *                 lruvec_step); counts node operations.
 *   alone/R       the control (peer "none", no list): R rounds of xorshift64,
 *                 a chain of dependent integer steps on a thread-local word
 *                 (about one list operation's time), nothing shared written.
 *                 Its fair is the machine's own: how evenly the CPUs ran
 *                 threads that never wait for each other (a vCPU whose
 *                 sibling hyperthread the host loads runs slower), what a
 *                 list's fair at the same thread count in the run is read
 *                 against.
 * Thread 0 sets up the nodes before the timing loop (the loop's start
 * barrier orders it before the others use them) and after each run checks
 * the structure and the node count; a failure is reported as "FAIL: ..."
 * and makes the program exit 1.  Every run also times single iterations
 * and counts each thread's share of them (bench/runstat.h).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/rng.h"
#include "peer.h"
#include "runstat.h"

/* alone's rounds per iteration: a chain of 3 x 16 dependent shift-xor
 * steps, about 100 cycles (30-35 ns on the development VM: one list
 * operation's order) */
#define ALONE_ROUNDS 16

const struct workload workloads[] = {
	{ "lru_slice", LRU_SLICE, "move a random node of the thread's slice to the head",
	  { 64, 4096, 262144 }, { 4096 }, 32, { 0 } },
	{ "lru_all", LRU_ALL, "move a random node of the whole list to the head (rotate)",
	  { 64, 4096, 262144, 1048576 }, { 64, 4096 }, 32, { 262144, 1048576 } },
	{ "lru_read", LRU_READ,
	  "move a random node to the head, then read its object's 256 bytes (a cache's per-hit work)",
	  { 4096, 262144 }, { 4096 }, 32, { 0 } },
	{ "lru_batch", LRU_BATCH,
	  "move 16 random nodes to the head as one batch (one lock or head-link lock per batch); "
	  "counts nodes",
	  { 4096 }, { 4096 }, 2, { 0 } },
	{ "lruvec", LRUVEC,
	  "the kernel's per-node LRU: inactive and active lists; per 100 steps 60 hits "
	  "(inactive ones activated 15 at a time), 30 adds of 15 new nodes at the inactive head "
	  "(reclaiming 32 from the inactive tail first when the thread has under 15, keeping 1 "
	  "in 4 on the active head), 6 demotions of 32 (active tail to inactive head), 4 frees "
	  "from the middle; peers: one lock for both lists per batch; counts node operations",
	  { 4096, 262144, 1048576 }, { 4096 }, 16, { 262144, 1048576 } },
	{ "del_head", DEL_HEAD,
	  "delete a random node if linked (racing removers), re-add it at the head",
	  { 4096, 262144, 1048576 }, { 4096 }, 32, { 262144, 1048576 } },
	{ "queue", QUEUE, "pop the tail, add it at the head", { 1024 }, { 1024 }, 32, { 0 } },
	{ "stack", STACK, "pop the head, add it at the head", { 1024 }, { 1024 }, 32, { 0 } },
	{ "del_disjoint", DEL_DISJOINT,
	  "delete a random node of the thread's slice, re-add it after another one of the slice",
	  { 4096 }, { 4096 }, 32, { 0 } },
	{ "del_overlap", DEL_OVERLAP,
	  "delete a random node if linked (racing removers), re-add it after a random linked node",
	  { 4096 }, { 4096 }, 32, { 0 } },
	{ "add_near", ADD_NEAR,
	  "as del_overlap, re-adding with add_near (peers: add_after)", { 4096 }, { 4096 }, 32, { 0 } },
	{ "splice_cut", SPLICE_CUT,
	  "take a prefix of B nodes, splice them back at the tail; counts nodes",
	  { 8, 16, 31, 63, 127, 255, 511 }, { 8, 63, 511 }, 1, { 0 } },
	{ "fl_put", FL_PUT, "take K nodes, put them back one at a time; counts puts", { 64 },
	  { 64 }, 1, { 0 } },
	{ "alone", ALONE,
	  "the control, no list (peer none): R rounds of xorshift64 on a thread-local word, "
	  "nothing shared written; its fair is the machine's own, to read the lists' fair "
	  "at the same thread count against",
	  { ALONE_ROUNDS }, { ALONE_ROUNDS }, 32, { 0 } },
};
const size_t nworkloads = sizeof(workloads) / sizeof(workloads[0]);

/* alone's pseudo-peer: no operation, no list (listbench.c registers it for
 * alone only, and alone for it only) */
const struct peer peer_none = {
	.name = "none", .tsan_ok = 1,
};

int supports(const struct workload *w, const struct peer *im)
{
	if ((w->kind == ALONE) != (im == &peer_none))	/* the control and its pseudo-peer */
		return 0;
	if (im->variant && w->kind != FL_PUT)	/* caslist_cache: the put variant */
		return 0;
	switch (w->kind) {
	case LRU_SLICE:
	case LRU_ALL:
	case LRU_READ:
		return im->move_head != NULL;
	case LRU_BATCH:
		return im->batch_move_head != NULL;
	case LRUVEC:
		return im->lv_add != NULL;
	case DEL_HEAD:
		return im->del_if_linked && im->add_head;
	case QUEUE:
		return im->pop_tail && im->add_head;
	case STACK:
		return im->pop_head && im->add_head;
	case DEL_DISJOINT:
		return im->del && im->add_after;
	case DEL_OVERLAP:
		return im->del_if_linked && im->add_after;
	case ADD_NEAR:
		return im->del_if_linked && im->add_near;
	case SPLICE_CUT:
		return im->take && im->put_batch;
	case FL_PUT:
		return im->take && im->put1;
	case ALONE:
		return 1;
	}
	return 0;
}

/* State shared by the threads of one run, set up by thread 0 before the
 * timing loop (the loop's start barrier orders it before their use). */
static struct {
	struct bnode *nodes;
	size_t n;
	unsigned char (*objects)[256];	/* lru_read: each node's object body */
	struct lv_pool *pools;		/* lruvec: each thread's free nodes */
	int npools;
} shared;

/*
 * lruvec: each thread's free nodes (allocated, not on a list: what it
 * frees and reclaims, and adds back 15 at a time) and its pending hits.
 * In shared memory, written inside the loop, so that thread 0's end check
 * (after the stop barrier) counts them.
 */
struct lv_pool {
	struct bnode **free;
	size_t nfree;
	struct bnode *hit[CASLIST_BATCH_MAX];
	unsigned nhit;
} LINE;

#define LV_ADD 15		/* the kernel's folio batch */
#define LV_ISOLATE 32		/* SWAP_CLUSTER_MAX */

/* One step of lruvec; returns the node operations it did. */
static int64_t lruvec_step(const struct peer *im, struct lv_pool *me, uint64_t *rng, size_t n)
{
	unsigned r = (unsigned)rng_below(rng, 100);
	struct bnode *x, *v[LV_ISOLATE];
	size_t k, kept = 0;
	int64_t ops = 0;

	if (r < 60) {			/* a hit: activate it if inactive */
		x = &shared.nodes[rng_below(rng, n)];
		if (atomic_load_explicit(&x->lv_active, memory_order_relaxed))
			return 1;	/* already active (PG_active): nothing to do */
		for (unsigned i = 0; i < me->nhit; i++)
			if (me->hit[i] == x)
				return 1;	/* already in this batch */
		me->hit[me->nhit++] = x;
		if (me->nhit == CASLIST_BATCH_MAX) {
			im->lv_activate(me->hit, me->nhit);
			me->nhit = 0;
		}
		return 1;
	}
	if (r < 90) {			/* producer: 15 new nodes at the inactive head */
		if (me->nfree < LV_ADD) {	/* direct reclaim first */
			k = im->lv_isolate(v, LV_ISOLATE);
			for (size_t i = 0; i < k; i++)
				if (rng_below(rng, 4) == 0)
					v[kept++] = v[i];	/* referenced: keep */
				else
					me->free[me->nfree++] = v[i];
			if (kept)
				im->lv_putback(v, kept);
			ops += (int64_t)k;
		}
		if (me->nfree >= LV_ADD) {
			me->nfree -= LV_ADD;
			im->lv_add(&me->free[me->nfree], LV_ADD);
			ops += LV_ADD;
		}
		return ops;
	}
	if (r < 96)			/* demotion: active tail to inactive head */
		return (int64_t)im->lv_demote(LV_ISOLATE);
	x = &shared.nodes[rng_below(rng, n)];	/* a free from the middle */
	if (im->lv_free(x))
		me->free[me->nfree++] = x;
	return 1;
}

/* lru_read: read all 256 bytes of node k's object (what a cache does on a
 * hit), 8 bytes at a time; the result keeps the reads. */
static inline uint64_t read_object(size_t k)
{
	const uint64_t *p = (const uint64_t *)(void *)shared.objects[k];
	uint64_t x = 0;

	for (unsigned i = 0; i < 256 / sizeof(*p); i++)
		x ^= p[i];
	return x;
}

static _Atomic int failures;

int failed_runs(void)
{
	return atomic_load(&failures);
}

/*
 * The run limit.  Spinning waiters of a FIFO lock (ticket, MCS) that get
 * preempted (more threads than cores) can make every hand-off wait for a
 * scheduler tick; a run with a fixed iteration count then takes minutes.
 * A watchdog thread stores a run's start time in run_stop_for when it has
 * gone on longer than run_limit seconds (a stale value can never match a
 * later run's start); the threads then end the run with an error row
 * "too slow", keeping the rate measured so far.  All three are plain
 * flags/timestamps with no data published through them: relaxed.
 */
static double run_limit;	/* seconds (listbench.c: 2, quick 0.3, ...) */
static _Atomic int64_t run_started_ns;	/* 0: no run in progress */
static _Atomic int64_t run_stop_for;	/* the start time of the run to stop */

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *run_limit_watchdog(void *arg)
{
	(void)arg;
	for (;;) {
		int64_t t0 = atomic_load_explicit(&run_started_ns, memory_order_relaxed);
		struct timespec d = { 0, 20 * 1000 * 1000 };

		if (t0 && (double)(now_ns() - t0) * 1e-9 > run_limit)
			atomic_store_explicit(&run_stop_for, t0, memory_order_relaxed);
		nanosleep(&d, NULL);
	}
	return NULL;
}

int run_limit_start(double seconds)
{
	pthread_t wd;

	run_limit = seconds;
	if (pthread_create(&wd, NULL, run_limit_watchdog, NULL) != 0)
		return -1;
	pthread_detach(wd);
	return 0;
}

static int lost_node_planted;	/* --plant-bug=lost-node: the check must catch it */

void plant_lost_node(void)
{
	lost_node_planted = 1;
}

static size_t prefill_nodes(const struct workload *w, size_t arg, int threads)
{
	if (w->kind == SPLICE_CUT || w->kind == FL_PUT)	/* no thread runs dry */
		return arg * (size_t)(2 * threads + 4);
	return arg;
}

static void setup(const struct spec *sp, size_t arg, int threads)
{
	const struct peer *im = sp->im;
	size_t n = prefill_nodes(sp->w, arg, threads);
	int fl = sp->w->kind == SPLICE_CUT || sp->w->kind == FL_PUT;
	uint64_t rng = 0x5eedULL;
	size_t *order;

	if (sp->w->kind == ALONE)	/* the control: nothing shared */
		return;
	shared.nodes = aligned_alloc(64, n * sizeof(struct bnode));
	if (shared.nodes == NULL) {
		fprintf(stderr, "listbench: out of memory (%zu nodes)\n", n);
		exit(2);
	}
	memset(shared.nodes, 0, n * sizeof(struct bnode));
	shared.n = n;
	if (sp->w->kind == LRU_READ) {
		shared.objects = aligned_alloc(64, n * sizeof(*shared.objects));
		if (shared.objects == NULL)
			exit(2);
		memset(shared.objects, 1, n * sizeof(*shared.objects));
	}
	im->init(fl ? arg : 0, n);
	if (sp->w->kind == LRUVEC) {
		shared.pools = aligned_alloc(64, (size_t)threads * sizeof(*shared.pools));
		if (shared.pools == NULL)
			exit(2);
		memset(shared.pools, 0, (size_t)threads * sizeof(*shared.pools));
		shared.npools = threads;
		for (int t = 0; t < threads; t++)
			if ((shared.pools[t].free = malloc(n * sizeof(struct bnode *))) == NULL)
				exit(2);
	}
	if (fl) {
		struct bnode **v = malloc(arg * sizeof(*v));

		if (v == NULL)
			exit(2);
		for (size_t i = 0; i < n; i += arg) {
			for (size_t j = 0; j < arg; j++) {
				v[j] = &shared.nodes[i + j];
				caslist_fl_node_init(&v[j]->fl);
			}
			im->put_batch(v, arg);
		}
		free(v);
		return;
	}
	/* linked in a shuffled order (the same for every implementation), so
	 * that a node's neighbours are random lines: on a list larger than the
	 * caches every move misses on them, as on an LRU that has run a while
	 * (in array order the hardware prefetcher would fetch them) */
	order = malloc(n * sizeof(*order));
	if (order == NULL) {
		fprintf(stderr, "listbench: out of memory (%zu nodes)\n", n);
		exit(2);
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = rng_below(&rng, i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < n; i++) {
		struct bnode *x = &shared.nodes[order[i]];

		if (im->node_init)
			im->node_init(x);
		else
			caslist_node_init(bnode_cas(x));
		if (im->add_tail)
			im->add_tail(x);
		else
			im->add_head(x);
	}
	free(order);
}

/* Thread 0, after every loop ended: the structure and the node count. */
static void end_check(cbench_state *s, const struct spec *sp)
{
	const char *err = NULL;
	long got;
	char msg[200];

	if (sp->w->kind == ALONE)	/* the control: no structure */
		return;
	got = sp->im->count(shared.n, &err);
	for (int t = 0; t < shared.npools; t++) {	/* lruvec: the free nodes */
		if (got >= 0)
			got += (long)shared.pools[t].nfree;
		free(shared.pools[t].free);
	}
	free(shared.pools);
	shared.pools = NULL;
	shared.npools = 0;

	if (got != (long)shared.n) {
		if (got < 0)
			snprintf(msg, sizeof(msg), "FAIL: %s", err ? err : "check failed");
		else
			snprintf(msg, sizeof(msg), "FAIL: %ld nodes at the end, expected %zu", got,
				 shared.n);
		fprintf(stderr, "listbench: %s/%s threads=%d: %s\n", sp->w->name, sp->im->name,
			cbench_thread_count(s), msg);
		atomic_fetch_add(&failures, 1);
		cbench_skip_with_error(s, msg);
	}
	free(shared.nodes);
	shared.nodes = NULL;
	free(shared.objects);
	shared.objects = NULL;
}

/* Inside the loop, every thread once the watchdog fired: end the run
 * with an error row (the first thread's message is the one kept). */
static void stop_run(cbench_state *s, const struct spec *sp)
{
	char msg[200];
	double secs = (double)(now_ns() - atomic_load_explicit(&run_started_ns,
								memory_order_relaxed)) * 1e-9;

	snprintf(msg, sizeof(msg), "too slow: stopped after %.1f s at about %.3gM items/s (%s)",
		 secs, (double)cbench_iterations(s) * cbench_thread_count(s) / secs * 1e-6,
		 cbench_thread_count(s) > cbench_num_cpus()
			 ? "spinning waiters preempted: more threads than cores"
			 : "--run-limit");
	if (cbench_thread_index(s) == 0)
		fprintf(stderr, "listbench: %s/%s/%zu threads=%d: %s\n", sp->w->name,
			sp->im->name, (size_t)cbench_range_arg(s, 0), cbench_thread_count(s), msg);
	cbench_skip_with_error(s, msg);
}

/* One iteration's state: the body's locals that the workloads use. */
struct iter {
	const struct spec *sp;
	const struct peer *im;
	size_t arg, lo, slice, cap;
	struct bnode **buf;	/* splice_cut, fl_put: the taken nodes */
	struct lv_pool *pool;	/* lruvec: this thread's (set inside the loop) */
	uint64_t rng;
	int lose;		/* --plant-bug=lost-node: drop one node */
};

/* One iteration of the workload; returns the items it counts beyond one
 * (nodes or puts where the workload counts those). */
static inline int64_t iteration(struct iter *c)
{
	const struct peer *im = c->im;
	const size_t arg = c->arg, lo = c->lo, slice = c->slice;
	struct bnode *x, *p;
	size_t k;
	int64_t items = 0;

	switch (c->sp->w->kind) {
	case LRU_SLICE:
		im->move_head(&shared.nodes[lo + rng_below(&c->rng, slice)]);
		break;
	case LRU_ALL:
		im->move_head(&shared.nodes[rng_below(&c->rng, arg)]);
		break;
	case LRU_READ:
		k = rng_below(&c->rng, arg);
		im->move_head(&shared.nodes[k]);
		items += read_object(k) == 0x5eed;	/* never true: keeps the read */
		break;
	case LRU_BATCH: {
		struct bnode *v[16];

		for (unsigned i = 0; i < 16; i++) {	/* 16 distinct nodes */
			unsigned j;

			v[i] = &shared.nodes[rng_below(&c->rng, arg)];
			for (j = 0; j < i && v[j] != v[i]; j++)
				;
			if (j < i)
				i--;
		}
		im->batch_move_head(v, 16);
		items += 15;	/* nodes, not iterations */
		break;
	}
	case LRUVEC:
		items += lruvec_step(im, c->pool, &c->rng, arg) - 1;
		break;
	case DEL_HEAD:
		x = &shared.nodes[rng_below(&c->rng, arg)];
		if (im->del_if_linked(x))
			im->add_head(x);
		break;
	case QUEUE:
		x = im->pop_tail();
		if (x && c->lose) {
			c->lose = 0;	/* planted bug: drop one node */
			x = NULL;
		}
		if (x)
			im->add_head(x);
		break;
	case STACK:
		x = im->pop_head();
		if (x)
			im->add_head(x);
		break;
	case DEL_DISJOINT:
		k = rng_below(&c->rng, slice);
		x = &shared.nodes[lo + k];
		im->del(x);
		k = (k + 1 + rng_below(&c->rng, slice - 1)) % slice;	/* another one */
		if (im->add_after(&shared.nodes[lo + k], x) != 0) {
			fprintf(stderr, "listbench: %s: own node unlinked\n", im->name);
			abort();
		}
		break;
	case DEL_OVERLAP:
	case ADD_NEAR:
		x = &shared.nodes[rng_below(&c->rng, arg)];
		if (!im->del_if_linked(x))
			break;
		do
			p = &shared.nodes[rng_below(&c->rng, arg)];
		while ((c->sp->w->kind == ADD_NEAR ? im->add_near(p, x) : im->add_after(p, x)) != 0);
		break;
	case SPLICE_CUT:
		k = im->take(arg, c->buf, c->cap);
		if (k)
			im->put_batch(c->buf, k);
		items += (int64_t)k - 1;	/* nodes, not iterations */
		break;
	case FL_PUT:
		k = im->take(arg, c->buf, c->cap);
		for (size_t i = 0; i < k; i++)
			im->put1(c->buf[i]);
		if (im->put_flush)
			im->put_flush();
		items += (int64_t)k - 1;	/* puts, not iterations */
		break;
	case ALONE: {	/* the control: a dependent chain on a local, nothing shared */
		uint64_t v = c->rng;

		for (size_t r = 0; r < arg; r++) {
			v ^= v << 13;	/* xorshift64 */
			v ^= v >> 7;
			v ^= v << 17;
		}
		__asm__ volatile("" : "+r"(v));	/* the chain's result is used: not dropped */
		c->rng = v;
		break;
	}
	}
	return items;
}

void body(cbench_state *s, void *user)
{
	const struct spec *sp = user;
	const struct peer *im = sp->im;
	const unsigned batch = sp->w->batch;
	const int t = cbench_thread_index(s), nt = cbench_thread_count(s);
	const size_t arg = (size_t)cbench_range_arg(s, 0);
	const int64_t maxit = cbench_max_iterations(s);
	size_t lo = arg * (size_t)t / (size_t)nt, hi = arg * (size_t)(t + 1) / (size_t)nt;
	struct iter c = {
		.sp = sp, .im = im, .arg = arg, .lo = lo, .slice = hi - lo, .cap = 4 * arg,
		.rng = 0x5eedULL + (uint64_t)t * 0x10001ULL,
		.lose = lost_node_planted && t == 0 && im == &peer_caslist,
	};
	struct runstat_slot *me = NULL;	/* set inside the loop */
	int64_t items = 0, done = 0;	/* done: iterations before this batch */
	uint64_t lv_t0 = 0, lv_t1 = 0, lv_w0 = 0;	/* lruvec: loop ticks, lock wait */

	if (sp->why[0])
		cbench_skip_with_error(s, sp->why);
	else if (im->one_thread && nt > 1) {	/* registered to say so (listbench.c) */
		char why[160];

		snprintf(why, sizeof(why),
			 "unsupported: %s runs at 1 thread only (no synchronisation: a reference, "
			 "not a concurrent list)", im->name);
		cbench_skip_with_error(s, why);
	}
	else if (sp->slow_at && nt > sp->slow_at)
		cbench_skip_with_error(s, "not run: too slow at fewer threads");
	else if ((sp->w->kind == LRU_SLICE && c.slice < 1) ||
		 (sp->w->kind == DEL_DISJOINT && c.slice < 2))
		cbench_skip_with_error(s, "unsupported: fewer nodes than threads need");
	if (cbench_error_occurred(s)) {
		while (cbench_keep_running(s))
			;
		return;
	}
	if (sp->w->kind == SPLICE_CUT || sp->w->kind == FL_PUT) {
		c.buf = malloc(c.cap * sizeof(*c.buf));
		if (c.buf == NULL)
			exit(2);
	}
	if (t == 0) {
		setup(sp, arg, nt);
		if (runstat_setup(nt) != 0) {
			fprintf(stderr, "listbench: out of memory (latency histograms)\n");
			exit(2);
		}
		atomic_store_explicit(&run_started_ns, now_ns(), memory_order_relaxed);
	}

	while (cbench_keep_running_batch(s, batch)) {
		if (atomic_load_explicit(&run_stop_for, memory_order_relaxed) ==
		    atomic_load_explicit(&run_started_ns, memory_order_relaxed)) {
			stop_run(s, sp);	/* the loop's next test ends it */
			continue;
		}
		if (me == NULL) {	/* the first batch: after the start barrier */
			me = runstat_slot(t);
			runstat_start(me);
			if (sp->w->kind == LRUVEC) {
				c.pool = &shared.pools[t];
				lv_t0 = bench_ticks();
				lv_w0 = im->lv_wait ? im->lv_wait() : 0;
			}
		}
		runstat_batch(me, done);
		for (unsigned b = 0; b < batch; b++) {
			int timed = runstat_due(me);
			uint64_t t0 = timed ? bench_ticks_start() : 0;

			items += iteration(&c);
			if (timed)
				runstat_record(me, t0);
		}
		done += batch;
		if (sp->w->kind == LRUVEC)
			lv_t1 = bench_ticks();
		if (done >= maxit)	/* this thread's last batch */
			runstat_finish(me, maxit);
	}
	items += cbench_iterations(s);
	cbench_set_items_processed(s, items);
	if (sp->w->kind == LRUVEC && im->lv_wait && lv_t1 > lv_t0)
		/* the share of this thread's loop time spent waiting for the lock
		 * (shared.pools may be freed by thread 0 already: locals only) */
		cbench_counter(s, "lock_wait", (double)(im->lv_wait() - lv_w0) /
						       (double)(lv_t1 - lv_t0),
			       CBENCH_AVG_THREADS);
	free(c.buf);
	if (t == 0) {
		if (atomic_load_explicit(&run_stop_for, memory_order_relaxed) ==
		    atomic_load_explicit(&run_started_ns, memory_order_relaxed))
			((struct spec *)user)->slow_at = nt;	/* read by later runs' threads */
		atomic_store_explicit(&run_started_ns, 0, memory_order_relaxed);
		end_check(s, sp);
		/* latency and shares, unless the run failed */
		runstat_report(s, cbench_iterations(s) > 0
				      ? (double)items / (double)cbench_iterations(s) : 1.0);
	}
}
