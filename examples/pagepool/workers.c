/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/workers.c - the threads of a point: the workload loops
 * (page_fault1, the THP side of mixed, highalloc's churn, parallel_free's
 * slices), the chaos thread, starting and joining them, and the
 * end-of-point audit.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"

static uint8_t tag_byte(uint32_t tag)
{
	return (uint8_t)(tag % 251 + 1);
}

void touch(struct pp_zone *z, struct pp_page *p, size_t npages, uint32_t tag)
{
	for (size_t i = 0; i < npages; i++)
		*(volatile uint8_t *)pp_page_mem(z, p + i) = tag_byte(tag);
}

void verify(struct pp_zone *z, struct pp_page *p, uint32_t tag)
{
	uint8_t v = *(volatile uint8_t *)pp_page_mem(z, p);

	if (v != tag_byte(tag))
		pp_die("page %zu: byte %u, expected %u: another thread wrote it", pp_pfn(z, p), v,
		       tag_byte(tag));
}

/* page_fault1: allocate `chunk` pages one at a time, write each, free all. */
static void pf1_loop(struct worker *w)
{
	struct run *r = w->r;
	struct pp_zone *z = &r->z;

	while (!stopped(r)) {
		size_t n = 0;

		for (; n < r->chunk && !stopped(r); n++) {
			struct pp_page *p = pp_alloc0(&w->cpu);

			if (!p) {
				/* Out of memory for now (other threads' pages,
				 * caches and blocks): free ours and go on.  Not a
				 * failure: the audit is what checks for lost pages. */
				w->ooms++;
				break;
			}
			touch(z, p, 1, w->cpu.tag);
			w->arr[n] = p;
		}
		for (size_t i = 0; i < n; i++) {
			verify(z, w->arr[i], w->cpu.tag);
			pp_free0(&w->cpu, w->arr[i]);
		}
		w->pages += n;
	}
}

/* THP side of mixed: order-9 blocks, falling back to 512 order-0 pages. */
static void thp_loop(struct worker *w)
{
	struct run *r = w->r;
	struct pp_zone *z = &r->z;
	size_t nblocks = r->chunk / PP_PAGEBLOCK ? r->chunk / PP_PAGEBLOCK : 1;

	while (!stopped(r)) {
		size_t n = 0;

		for (size_t b = 0; b < nblocks && !stopped(r); b++) {
			struct pp_page *p = pp_alloc_order(&w->cpu, PP_PAGEBLOCK_ORDER);

			w->attempts++;
			if (p) {
				touch(z, p, PP_PAGEBLOCK, w->cpu.tag);
				w->arr[n++] = p;
				w->pages2 += PP_PAGEBLOCK;
				continue;
			}
			w->fallbacks++;
			for (size_t i = 0; i < PP_PAGEBLOCK && n < w->narr; i++) {
				struct pp_page *q = pp_alloc0(&w->cpu);

				if (!q) {
					w->ooms++;	/* as in pf1_loop */
					break;
				}
				touch(z, q, 1, w->cpu.tag);
				w->arr[n++] = q;
				w->pages++;
			}
		}
		for (size_t i = 0; i < n; i++) {
			struct pp_page *p = w->arr[i];

			verify(z, p, w->cpu.tag);
			if (p->order)
				pp_free_order(&w->cpu, p);
			else
				pp_free0(&w->cpu, p);
		}
	}
}

/* highalloc churn: keep a ring of pages, replacing the oldest. */
static void churn_loop(struct worker *w)
{
	struct run *r = w->r;
	struct pp_zone *z = &r->z;
	size_t head = 0, n = 0;

	while (!stopped(r)) {
		if (n == w->narr) {
			struct pp_page *old = w->arr[head];

			verify(z, old, w->cpu.tag);
			pp_free0(&w->cpu, old);
			n--;
		}
		struct pp_page *p = pp_alloc0(&w->cpu);

		if (!p) {
			/* the zone is short (order-9 blocks held): the ring
			 * shrinks, oldest page first, until pages come back */
			if (n) {
				struct pp_page *old = w->arr[(head + w->narr - n) % w->narr];

				verify(z, old, w->cpu.tag);
				pp_free0(&w->cpu, old);
				n--;
			} else {
				/* idle for a moment: hand the stash back */
				pp_cpu_idle(&w->cpu);
				sched_yield();
			}
			continue;
		}
		touch(z, p, 1, w->cpu.tag);
		w->arr[head] = p;
		head = (head + 1) % w->narr;
		n++;
		w->pages++;
	}
	/* free what the ring holds, oldest first */
	for (size_t i = 0; i < n; i++) {
		size_t k = (head + w->narr - n + i) % w->narr;

		verify(z, w->arr[k], w->cpu.tag);
		pp_free0(&w->cpu, w->arr[k]);
	}
}

/* parallel_free: free the slice this worker was given. */
static void pfree_slice(struct worker *w)
{
	for (size_t i = 0; i < w->narr; i++) {
		verify(&w->r->z, w->arr[i], 1);	/* written by the allocator, tag 1 */
		pp_free0(&w->cpu, w->arr[i]);
	}
	pp_cpu_drain(&w->cpu);
	w->pages += w->narr;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	uint64_t c0;

	if (pp_opt.pin == PIN_SPREAD)
		pin_self(w->idx);
	else if (pp_opt.pin == PIN_SHARED)
		pin_self(0);
	pthread_barrier_wait(&w->r->start);
	w->t0 = pp_now_ns();
	c0 = thread_cpu_ns();
	switch (w->r->wl) {
	case W_PF1: pf1_loop(w); break;
	case W_MIXED: if (w->kind) thp_loop(w); else pf1_loop(w); break;
	case W_HIGH: churn_loop(w); break;
	case W_PFREE: pfree_slice(w); break;
	default: break;
	}
	w->cpu_ns = thread_cpu_ns() - c0;
	w->ns = pp_now_ns() - w->t0;
	/* An exiting thread hands its stash back (the merger and the other
	 * threads can use those pages); its cache stays for the audit. */
	pp_cpu_idle(&w->cpu);
	return NULL;
}

/* --chaos: high-order allocations and compaction passes interleaved with
 * whatever the workload does (the tests use it). */
static void *chaos_main(void *arg)
{
	struct worker *w = arg;
	uint64_t rnd = pp_opt.seed ^ 0xc4a05;

	pthread_barrier_wait(&w->r->start);
	while (!stopped(w->r)) {
		unsigned order = 1 + (unsigned)(splitmix64(&rnd) % PP_MAX_ORDER);
		struct pp_page *p = pp_alloc_order(&w->cpu, order);

		if (p) {
			touch(&w->r->z, p, 1, w->cpu.tag);
			verify(&w->r->z, p, w->cpu.tag);
			pp_free_order(&w->cpu, p);
		}
		pp_compact(&w->cpu, PP_PAGEBLOCK_ORDER);
		usleep(pp_opt.chaos_ms * 1000u);
	}
	return NULL;
}

void run_setup(struct run *r, int wl, int mode, unsigned nworkers, size_t stash)
{
	memset(r, 0, sizeof(*r));
	r->wl = wl;
	r->nworkers = nworkers;
	pp_zone_init(&r->z, (enum pp_mode)mode, pp_arena, pp_arena_pages, pp_opt.batch, pp_opt.high,
		     pp_arena_pages * pp_opt.wmark_pct / 100, pp_opt.merge_ms, stash);
	pp_zone_start(&r->z);
	r->w = aligned_alloc(64, sizeof(*r->w) * (nworkers + 1));
	if (!r->w)
		pp_die("out of memory for %u workers", nworkers);
	memset(r->w, 0, sizeof(*r->w) * (nworkers + 1));
	for (unsigned i = 0; i <= nworkers; i++) {
		r->w[i].r = r;
		r->w[i].idx = i;
		pp_cpu_init(&r->w[i].cpu, &r->z, i + 1);
	}
	r->chaos.r = r;
	pp_cpu_init(&r->chaos.cpu, &r->z, nworkers + 2);
	atomic_init(&r->stop, false);
}

/* Start the workers (and the chaos thread); they run once all are up. */
void threads_start(struct run *r)
{
	bool chaos = pp_opt.chaos_ms != 0;
	unsigned n = r->nworkers + (chaos ? 1 : 0);

	/* relaxed: see stopped(); pthread_create orders it for the threads. */
	atomic_store_explicit(&r->stop, false, memory_order_relaxed);
	pthread_barrier_init(&r->start, NULL, n + 1);
	for (unsigned i = 0; i < r->nworkers; i++)
		if (pthread_create(&r->w[i].th, NULL, worker_main, &r->w[i]))
			pp_die("pthread_create failed (thread %u)", i);
	if (chaos && pthread_create(&r->chaos.th, NULL, chaos_main, &r->chaos))
		pp_die("pthread_create failed (chaos)");
	pthread_barrier_wait(&r->start);
}

/* Join the workers (they stop on their own or on r->stop); the measured
 * interval runs from the first worker's start (not this thread's return
 * from the barrier: on a loaded machine it may resume much later) to the
 * last one's end.  Then stop and join the chaos thread. */
void threads_join(struct run *r)
{
	r->t_start = UINT64_MAX;
	for (unsigned i = 0; i < r->nworkers; i++) {
		pthread_join(r->w[i].th, NULL);
		if (r->w[i].t0 < r->t_start)
			r->t_start = r->w[i].t0;
	}
	r->t_end = pp_now_ns();
	run_stop(r);
	if (pp_opt.chaos_ms)
		pthread_join(r->chaos.th, NULL);
	pthread_barrier_destroy(&r->start);
}

uint64_t run_threads(struct run *r, double seconds)
{
	threads_start(r);
	if (seconds > 0) {
		usleep((useconds_t)(seconds * 1e6));
		run_stop(r);
	}
	threads_join(r);
	return r->t_end - r->t_start;
}

void sum_stats(struct run *r, struct result *res, double *wait_ns, double *thread_ns)
{
	pp_zone_stop(&r->z);	/* the merger's counters are final after this */
	res->compactions += r->z.merger_cpu.st.compactions;
	res->merged += r->z.merger_cpu.st.merged_pages;
	res->pb_merges += r->z.merger_cpu.st.pb_merges;
	for (unsigned i = 0; i <= r->nworkers; i++) {
		*wait_ns += (double)r->w[i].cpu.st.lock_wait_ns;
		*thread_ns += (double)r->w[i].ns;
		res->cpu_ns += r->w[i].cpu_ns;
		res->compactions += r->w[i].cpu.st.compactions;
		res->merged += r->w[i].cpu.st.merged_pages;
		res->pb_merges += r->w[i].cpu.st.pb_merges;
		res->ooms += r->w[i].ooms;
	}
	res->compactions += r->chaos.cpu.st.compactions;
	res->merged += r->chaos.cpu.st.merged_pages;
}

/* The end-of-point audit: caches full, caches drained, everything merged. */
void run_finish(struct run *r, const char *what)
{
	struct pp_cpu *cpus[MAX_LIST * 128 + 2];
	size_t ncpu = 0;
	struct pp_census cs;

	if (r->nworkers + 2 > sizeof(cpus) / sizeof(cpus[0]))
		pp_die("too many workers to audit");
	for (unsigned i = 0; i <= r->nworkers; i++)
		cpus[ncpu++] = &r->w[i].cpu;
	cpus[ncpu++] = &r->chaos.cpu;
	/* A worker that exited has handed its stash back (pp_cpu_idle), so
	 * the merger and the other threads could use those pages. */
	for (unsigned i = 0; i < r->nworkers; i++)
		if (r->w[i].cpu.stash.pages) {
			fprintf(stderr, "pagepool: audit: thread %u exited holding %zu stashed pages\n",
				i, r->w[i].cpu.stash.pages);
			goto fail;
		}
	if (pp_zone_audit(&r->z, cpus, ncpu, &cs))
		goto fail;
	if (cs.alloc)
		pp_die("%s: %zu pages still allocated after the run", what, cs.alloc);
	for (size_t i = 0; i < ncpu; i++)
		pp_cpu_drain(cpus[i]);
	if (pp_zone_audit(&r->z, cpus, ncpu, &cs) || cs.cached || cs.stashed)
		goto fail;
	pp_zone_merge_all(&r->w[0].cpu);
	if (pp_zone_audit(&r->z, cpus, ncpu, &cs))
		goto fail;
	if (r->z.area[PP_MAX_ORDER].nr << PP_MAX_ORDER != r->z.nr_pages)
		pp_die("%s: all pages free but only %zu of %zu in order-%d blocks: a merge was lost",
		       what, r->z.area[PP_MAX_ORDER].nr << PP_MAX_ORDER, r->z.nr_pages,
		       PP_MAX_ORDER);
	for (size_t i = 0; i < ncpu; i++)
		pp_cpu_destroy(cpus[i]);
	pp_zone_destroy(&r->z);
	for (unsigned i = 0; i <= r->nworkers; i++)
		free(r->w[i].arr);
	free(r->w);
	free(r->chaos.arr);
	return;
fail:
	fprintf(stderr, "pagepool: %s: audit FAILED\n", what);
	exit(1);	/* a failed check: examples/common/cli.h lists the statuses */
}

struct pp_page **page_array(size_t n)
{
	struct pp_page **a = malloc((n ? n : 1) * sizeof(*a));

	if (!a)
		pp_die("out of memory for a page array of %zu", n);
	return a;
}

