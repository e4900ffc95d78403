/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/runstat.h - what listbench measures per run besides the rate: the
 * latency of single operations and each thread's share of the operations.
 *
 * Latency: one iteration in runstat_every (on average; the gaps are drawn
 * at random from 1..2N-1 so that no period of a workload lines up with
 * them) is timed with bench_ticks_start/end (bench/ticks.h: lfence, rdtsc
 * ... rdtscp) into the thread's histogram (bench/latency.h); thread 0
 * merges them after the run and reports percentiles in ns.
 *
 * Shares: Google Benchmark gives every thread the same iteration count, so
 * over a whole run the shares are equal by construction; a thread that got
 * less of the lock just finishes later.  So the shares are taken at the
 * moment the first thread finished its iterations (the stretch in which
 * every thread was competing): each thread notes its iteration count at
 * the next batch boundary after that moment (a thread that finishes before
 * noticing notes its total).  fair = min / max of those counts;
 * share_min, share_max = the smallest and largest count / their sum;
 * zero_threads = the threads that had done no iteration by then;
 * ips_all = the items per second of that stretch: each thread's count
 * over its own time from its first batch to the noting, summed, times
 * the run's items per iteration (thread 0's).  items_per_second is not
 * that rate when the shares differ: the faster threads finish first and
 * the slower ones end the run alone, at the one-thread rate, so a policy
 * that starves a thread looks as fast as one thread.  ips_all is the rate
 * while every thread ran (doc/bench.md, "The rate while every thread runs").
 * late_threads = those of them whose first batch began only after that
 * moment: since the start barrier the scheduler had not run them at all,
 * so none of their operations was in flight (oversubscribed runs shorter
 * than a round of the scheduler).  zero_threads - late_threads is what a
 * list can be blamed for: threads that were inside their first batch
 * and had not finished it.
 *
 * Use, in the body:
 *   thread 0, before the loop:  runstat_setup(threads)
 *   every thread, first batch:  me = runstat_slot(t); runstat_start(me)
 *   every thread, each batch:   runstat_batch(me, done)
 *   around one iteration:       if (runstat_due(me)) t0 = bench_ticks_start();
 *                               ... runstat_record(me, t0)
 *   after its last batch:       runstat_finish(me, done)
 *   thread 0, after the loop:   runstat_report(s) (the counters; frees;
 *                               after the end-of-run check)
 * The slots are written only inside the loop, so thread 0 reads them
 * after the loop's stop barrier without a race.
 */
#ifndef CASLIST_BENCH_RUNSTAT_H
#define CASLIST_BENCH_RUNSTAT_H

#include <stdatomic.h>
#include <stdint.h>

#include "cbench.h"
#include "latency.h"
#include "ticks.h"

/* time one iteration in this many, on average; 0: no latency timing
 * (listbench --lat-every) */
extern unsigned runstat_every;

struct runstat_slot {
	struct lat_hist hist;
	uint64_t rng;		/* the sampling gaps' generator */
	uint64_t countdown;	/* iterations until the next timed one */
	int64_t ops_at_first;	/* iterations when the first thread finished */
	uint64_t t_start;	/* ticks at the first batch */
	uint64_t t_noted;	/* ticks when ops_at_first was noted */
	int noted;		/* ops_at_first is set */
	int late;		/* the first batch began after the first finish */
} __attribute__((aligned(64)));

/* set when the first thread of this run finished its iterations */
extern _Atomic int runstat_first_done;

/** runstat_setup - thread 0, before the loop: a slot per thread; 0, or -1
 * (out of memory). */
int runstat_setup(int threads);
/** runstat_slot - thread @t's slot (inside the loop only). */
struct runstat_slot *runstat_slot(int t);

/* the first batch of this thread begins (runstat_batch comes next) */
static inline void runstat_start(struct runstat_slot *me)
{
	me->late = atomic_load_explicit(&runstat_first_done, memory_order_relaxed);
	me->t_start = bench_ticks();
}
/* each batch: after the first thread finished, note @done (once) */
static inline void runstat_batch(struct runstat_slot *me, int64_t done)
{
	if (!me->noted && atomic_load_explicit(&runstat_first_done, memory_order_relaxed)) {
		me->ops_at_first = done;
		me->t_noted = bench_ticks();
		me->noted = 1;
	}
}

/* is this iteration timed? */
static inline int runstat_due(struct runstat_slot *me)
{
	if (runstat_every == 0 || --me->countdown != 0)
		return 0;
	me->rng ^= me->rng << 13;	/* xorshift64 */
	me->rng ^= me->rng >> 7;
	me->rng ^= me->rng << 17;
	me->countdown = 1 + me->rng % (2 * (uint64_t)runstat_every - 1);
	return 1;
}

/* the timed iteration that began at @t0 has ended */
static inline void runstat_record(struct runstat_slot *me, uint64_t t0)
{
	lat_hist_add(&me->hist, bench_ticks_end() - t0);
}

/** runstat_finish - after this thread's last batch, @done iterations. */
void runstat_finish(struct runstat_slot *me, int64_t done);
/** runstat_report - thread 0, after the loop: merge the slots, set the
 * counters (lat_p50_ns, lat_p99_ns, lat_p999_ns, lat_p9999_ns, lat_max_ns,
 * lat_samples unless runstat_every is 0; fair, share_min, share_max,
 * zero_threads, late_threads; ips_all from @items_per_iter, thread 0's
 * items per iteration), free the slots.  Nothing is reported for a run
 * that ended with an error. */
void runstat_report(cbench_state *s, double items_per_iter);

#endif /* CASLIST_BENCH_RUNSTAT_H */
