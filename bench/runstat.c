/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/runstat.c - a run's latency histograms and operation shares
 * (bench/runstat.h): the per-thread slots, the first finisher, and the
 * report as Google Benchmark counters.
 */
#include <stdlib.h>
#include <string.h>

#include "runstat.h"

unsigned runstat_every = 64;
_Atomic int runstat_first_done;

static struct runstat_slot *slots;	/* one per thread of the run */
static int nslots;

int runstat_setup(int threads)
{
	free(slots);
	slots = aligned_alloc(64, (size_t)threads * sizeof(*slots));
	if (slots == NULL) {
		nslots = 0;
		return -1;
	}
	nslots = threads;
	for (int t = 0; t < threads; t++) {
		struct runstat_slot *me = &slots[t];

		lat_hist_init(&me->hist);
		me->rng = 0x243f6a8885a308d3ULL ^ ((uint64_t)(t + 1) * 0x9e3779b97f4a7c15ULL);
		me->countdown = 1 + (uint64_t)t % (runstat_every ? runstat_every : 1);
		me->ops_at_first = 0;
		me->t_start = 0;
		me->t_noted = 0;
		me->noted = 0;
		me->late = 0;
	}
	atomic_store_explicit(&runstat_first_done, 0, memory_order_relaxed);
	return 0;
}

struct runstat_slot *runstat_slot(int t)
{
	return &slots[t];
}

void runstat_finish(struct runstat_slot *me, int64_t done)
{
	int zero = 0;

	/* the first finisher flags it; one that finishes before it noticed
	 * the flag notes its total too (it ended at about the same time) */
	atomic_compare_exchange_strong_explicit(&runstat_first_done, &zero, 1,
						memory_order_relaxed, memory_order_relaxed);
	if (!me->noted) {
		me->ops_at_first = done;
		me->t_noted = bench_ticks();
		me->noted = 1;
	}
}

void runstat_report(cbench_state *s, double items_per_iter)
{
	static struct lat_hist all;	/* thread 0 only */
	int64_t lo = INT64_MAX, hi = 0, sum = 0;
	int zero = 0, late = 0;
	double ns = bench_ns_per_tick(), ips = 0;

	if (slots == NULL || cbench_error_occurred(s))
		goto out;
	lat_hist_init(&all);
	for (int t = 0; t < nslots; t++) {
		int64_t n = slots[t].ops_at_first;

		lat_hist_merge(&all, &slots[t].hist);
		sum += n;
		if (n < lo)
			lo = n;
		if (n > hi)
			hi = n;
		zero += n == 0;
		late += n == 0 && slots[t].late;
		/* this thread's rate over its part of the stretch in which
		 * every thread ran (a late thread has none) */
		if (n > 0 && slots[t].t_noted > slots[t].t_start)
			ips += (double)n / ((double)(slots[t].t_noted - slots[t].t_start) * ns * 1e-9);
	}
	if (runstat_every && all.count) {
		cbench_counter(s, "lat_p50_ns", (double)lat_hist_value_at(&all, 0.5) * ns, 0);
		cbench_counter(s, "lat_p99_ns", (double)lat_hist_value_at(&all, 0.99) * ns, 0);
		cbench_counter(s, "lat_p999_ns", (double)lat_hist_value_at(&all, 0.999) * ns, 0);
		cbench_counter(s, "lat_p9999_ns", (double)lat_hist_value_at(&all, 0.9999) * ns, 0);
		cbench_counter(s, "lat_max_ns", (double)all.max * ns, 0);
		cbench_counter(s, "lat_samples", (double)all.count, 0);
	}
	if (sum > 0) {
		cbench_counter(s, "fair", (double)lo / (double)hi, 0);
		cbench_counter(s, "share_min", (double)lo / (double)sum, 0);
		cbench_counter(s, "share_max", (double)hi / (double)sum, 0);
		cbench_counter(s, "ips_all", ips * items_per_iter, 0);
	}
	cbench_counter(s, "zero_threads", zero, 0);
	cbench_counter(s, "late_threads", late, 0);
out:
	free(slots);
	slots = NULL;
	nslots = 0;
}
