/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/points.c - the measured points, and the order they run
 * in.  A point is (workload, mode, threads[, delay]); every point runs on a
 * fresh zone over the same arena and ends with the audit.  The modes of one
 * table are alternated inside each round (round r starts with the r-th
 * mode), and the rounds are repeated (--rounds), so every mode sees the
 * same stretch of machine conditions; cond.c records those around each
 * table.
 *
 * Every rate is total pages / wall time of the measured interval (from the
 * release of the workers to the end of the last one), never a sum of
 * per-thread rates: threads that did not run at the same time must not add
 * up (a 500-thread run once printed 450 M pages/s that way).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"

struct result *pp_results;
size_t pp_nresults;
static size_t cap_results;
struct group *pp_groups;
size_t pp_ngroups;
static size_t cap_groups;

/* The caslist mode's per-thread stash: --stash, or one page_fault1 chunk
 * (measured better than half a chunk: doc/pagepool.md), but never more
 * than a quarter of the zone over all threads.  Stashed pages are free
 * memory: a thread that runs out, or a compaction that fails, asks every
 * stash back, so the chunk is fitted without them. */
static size_t stash_pages(unsigned nworkers)
{
	size_t cap = pp_arena_pages / 4 / nworkers;
	size_t want = pp_opt.stash >= 0 ? (size_t)pp_opt.stash : pp_opt.chunk / PP_PAGE_SIZE;

	if (pp_opt.stash < 0 && want > cap)
		want = cap;
	return want;
}

/* Pages each page_fault1 worker may hold: the chunk asked for, cut down so
 * that the workers' pages and caches fit in 3/4 of the zone. */
static size_t fit_chunk(unsigned nworkers)
{
	size_t want = pp_opt.chunk / PP_PAGE_SIZE;
	size_t slack = (size_t)nworkers * (pp_opt.high + pp_opt.batch);
	size_t room = pp_arena_pages * 3 / 4 > slack
			      ? (pp_arena_pages * 3 / 4 - slack) / nworkers
			      : 1;

	return want < room ? want : (room ? room : 1);
}

/* The growable arrays of results and groups: base (n used, *cap allocated,
 * doubling from first) gets room for one more element of size bytes;
 * returns the new base.  The new element is base + n, zeroed. */
static void *grow_one(void *base, size_t n, size_t *cap, size_t size, size_t first)
{
	if (n == *cap) {
		*cap = *cap ? *cap * 2 : first;
		base = realloc(base, *cap * size);
		if (!base)
			pp_die("out of memory");
	}
	memset((char *)base + n * size, 0, size);
	return base;
}

static struct result *new_result(int wl, int mode, unsigned threads, unsigned delay,
				 unsigned round)
{
	pp_results = grow_one(pp_results, pp_nresults, &cap_results, sizeof(*pp_results), 64);
	struct result *res = &pp_results[pp_nresults++];

	res->wl = wl;
	res->mode = mode;
	res->threads = threads;
	res->delay_ms = delay;
	res->round = round;
	return res;
}

static void progress(int wl, int mode, unsigned threads, unsigned round, const char *extra)
{
	if (!pp_opt.quiet)
		fprintf(stderr, "pagepool: %-13s %-11s threads=%-4u round %u %s\n", pp_wl_name[wl],
			pp_mode_name[mode], threads, round + 1, extra);
}

/* page_fault1, and mixed (odd workers on order-9 blocks). */
static void point_pf1(struct result *res)
{
	struct run r;
	unsigned threads = res->threads;
	double wait = 0, tns = 0;
	uint64_t att = 0, fb = 0;

	run_setup(&r, res->wl, res->mode, threads, stash_pages(threads));
	r.chunk = fit_chunk(threads);
	for (unsigned i = 0; i < threads; i++) {
		r.w[i].kind = res->wl == W_MIXED ? (int)(i & 1) : 0;
		r.w[i].narr = r.chunk + PP_PAGEBLOCK;
		r.w[i].arr = page_array(r.w[i].narr);
	}
	res->wall_ns = run_threads(&r, pp_opt.seconds);
	res->chunk = r.chunk;
	for (unsigned i = 0; i < threads; i++) {
		res->pages += r.w[i].pages;
		res->pages2 += r.w[i].pages2;
		att += r.w[i].attempts;
		fb += r.w[i].fallbacks;
	}
	res->rate = (double)res->pages / ((double)res->wall_ns / 1e9);
	res->rate2 = (double)res->pages2 / ((double)res->wall_ns / 1e9);
	res->fallback = att ? (double)fb / (double)att : 0;
	sum_stats(&r, res, &wait, &tns);
	res->wait = tns > 0 ? wait / tns : 0;
	run_finish(&r, pp_wl_name[res->wl]);
}

/* parallel_free: one thread allocates half the zone, the workers free it. */
static void point_pfree(struct result *res)
{
	struct run r;
	unsigned threads = res->threads;
	size_t total = pp_arena_pages / 2;
	uint64_t free_ns = 0, cpu_ns = 0;
	double wait = 0, tns = 0;
	unsigned rounds = 0;
	uint64_t t_end = pp_now_ns() + (uint64_t)(pp_opt.seconds * 1e9);

	run_setup(&r, W_PFREE, res->mode, threads, stash_pages(threads));
	struct worker *alloc = &r.w[threads];	/* tag threads+1 */
	struct pp_page **all = page_array(total);

	alloc->cpu.tag = 1;	/* pfree_slice verifies the allocator's byte */
	r.w[0].cpu.tag = threads + 1;
	do {
		for (size_t i = 0; i < total; i++) {
			all[i] = pp_alloc0(&alloc->cpu);
			if (!all[i])
				pp_die("parallel_free: out of pages");
			touch(&r.z, all[i], 1, 1);
		}
		for (unsigned t = 0; t < threads; t++) {
			struct worker *w = &r.w[t];
			size_t lo = total * t / threads, hi = total * (t + 1) / threads;

			w->arr = all + lo;
			w->narr = hi - lo;
			for (size_t i = lo; i < hi; i++)
				pp_page_give(all[i], 1, &w->cpu);
		}
		free_ns += run_threads(&r, 0);
		for (unsigned t = 0; t < threads; t++) {
			tns += (double)r.w[t].ns;	/* per round: add them up */
			cpu_ns += r.w[t].cpu_ns;
		}
		rounds++;
	} while (pp_now_ns() < t_end || rounds < 2);
	for (unsigned t = 0; t < threads; t++)
		r.w[t].arr = NULL;
	free(all);
	res->pages = (uint64_t)total * rounds;
	res->wall_ns = free_ns;
	res->rate = (double)res->pages / ((double)free_ns / 1e9);
	res->rate2 = (double)free_ns / rounds / 1e6;
	for (unsigned t = 0; t < threads; t++)
		wait += (double)r.w[t].cpu.st.lock_wait_ns;
	res->wait = tns > 0 ? wait / tns : 0;
	double dummy_w = 0, dummy_t = 0;

	sum_stats(&r, res, &dummy_w, &dummy_t);
	res->cpu_ns = cpu_ns;	/* every round's, not only the last one's */
	run_finish(&r, "parallel_free");
}

/* highalloc: break the zone, churn, order-9 attempts with a delay. */
static void point_high(struct result *res)
{
	struct run r;
	unsigned threads = res->threads, delay_ms = res->delay_ms;
	struct pp_page **held = page_array(pp_opt.attempts);
	size_t nheld = 0;
	uint64_t rnd = pp_opt.seed, lat = 0;

	run_setup(&r, W_HIGH, res->mode, threads, stash_pages(threads));
	struct pp_cpu *main_cpu = &r.w[threads].cpu;
	/* 1. break every high-order page: fill the zone with order-0 pages,
	 *    free them in random order */
	struct pp_page **all = page_array(pp_arena_pages + 1);
	size_t n = 0;

	while ((all[n] = pp_alloc0(main_cpu)) != NULL)
		n++;
	for (size_t i = n; i > 1; i--) {
		size_t j = splitmix64(&rnd) % i;
		struct pp_page *t = all[i - 1];

		all[i - 1] = all[j];
		all[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		pp_free0(main_cpu, all[i]);
	pp_cpu_drain(main_cpu);
	free(all);
	/* The memory hog has exited; the system idles a moment before the
	 * churn starts (mmtests waits minutes).  Base has merged everything
	 * already; skip modes' background merger uses the pause. */
	usleep(100000);
	/* 2. order-0 churn holds churn% of the zone, replaced continually */
	for (unsigned i = 0; i < threads; i++) {
		r.w[i].narr = pp_arena_pages * pp_opt.churn_pct / 100 / threads + 1;
		r.w[i].arr = page_array(r.w[i].narr);
	}
	threads_start(&r);
	usleep(100000);	/* let the churn fragment the zone */
	/* 3. order-9 attempts with a delay between them; successes are held */
	for (unsigned a = 0; a < pp_opt.attempts; a++) {
		uint64_t t0 = pp_now_ns();
		struct pp_page *p = pp_alloc_order(main_cpu, PP_PAGEBLOCK_ORDER);

		lat += pp_now_ns() - t0;
		if (p)
			held[nheld++] = p;
		if (delay_ms)
			usleep(delay_ms * 1000u);
	}
	run_stop(&r);
	threads_join(&r);
	for (size_t i = 0; i < nheld; i++)
		pp_free_order(main_cpu, held[i]);
	free(held);
	res->success = (double)nheld / pp_opt.attempts;
	res->lat_us = (double)lat / pp_opt.attempts / 1e3;
	double wait = 0, tns = 0;

	for (unsigned i = 0; i < threads; i++)
		res->pages += r.w[i].pages;
	res->wall_ns = r.t_end - r.t_start;
	res->rate = (double)res->pages / ((double)res->wall_ns / 1e9);
	sum_stats(&r, res, &wait, &tns);
	res->wait = tns > 0 ? wait / tns : 0;
	run_finish(&r, "highalloc");
}

static struct group *new_group(int wl, unsigned threads, unsigned delay)
{
	pp_groups = grow_one(pp_groups, pp_ngroups, &cap_groups, sizeof(*pp_groups), 16);
	struct group *g = &pp_groups[pp_ngroups++];

	g->wl = wl;
	g->threads = threads;
	g->delay_ms = delay;
	return g;
}

/* One table: every selected mode, alternated, --rounds times. */
static void run_group(int wl, unsigned threads, unsigned delay)
{
	int modes[PP_NMODES], nm = 0;
	char extra[32] = "";
	size_t g = pp_ngroups;

	for (int m = 0; m < PP_NMODES; m++)
		if (pp_opt.mode_mask & (1u << m))
			modes[nm++] = m;
	new_group(wl, threads, delay);
	cond_begin(&pp_groups[g].cond);
	if (wl == W_HIGH)
		snprintf(extra, sizeof(extra), "delay=%ums", delay);
	for (unsigned round = 0; round < pp_opt.rounds; round++) {
		for (int k = 0; k < nm; k++) {
			int m = modes[(k + (int)round) % nm];
			struct result *res = new_result(wl, m, threads, delay, round);

			progress(wl, m, threads, round, extra);
			switch (wl) {
			case W_PF1:
			case W_MIXED: point_pf1(res); break;
			case W_PFREE: point_pfree(res); break;
			case W_HIGH: point_high(res); break;
			default: break;
			}
		}
	}
	cond_end(&pp_groups[g].cond);
}

void points_run_all(void)
{
	for (int wl = 0; wl < W_N; wl++) {
		if (!(pp_opt.wl_mask & (1u << wl)))
			continue;
		for (unsigned ti = 0; ti < pp_opt.nthreads; ti++) {
			unsigned t = pp_opt.threads[ti];

			if (wl == W_MIXED && t < 2)
				continue;
			if (wl != W_HIGH) {
				run_group(wl, t, 0);
				continue;
			}
			for (unsigned d = 0; d < pp_opt.ndelays; d++)
				run_group(wl, t, pp_opt.delays[d]);
		}
	}
}
