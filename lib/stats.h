/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/stats.h - the measurement build's wait counters and tunable wait
 * policy (test/measure/waitstat, -DCASLIST_STATS), force-included (-include)
 * ahead of the core's sources there.  Not installed: the protocol layer's
 * headers only have defaults (static/wait.h) that this file replaces.
 * Per thread: backoff rounds, PAUSEs spun, sched_yield calls (a round =
 * one failed attempt at a held link, or one retry of an operation), and
 * the yields that took longer than CASLIST_LK_YIELD_SLOW_NS (each raises
 * the crowding hint), and every yield's time off the CPU, in 5 buckets.
 */
#ifndef CASLIST_LIB_STATS_H
#define CASLIST_LIB_STATS_H

/* yield_time: the yields by how long they kept the thread off its CPU,
 * in the buckets caslist_lk_stat_yield's bounds give (in ns) */
#define CASLIST_LK_YIELD_BUCKETS 5
struct caslist_lk_stats {
	unsigned long rounds, pauses, yields, slow_yields, tickets, grants, sleeps;
	unsigned long yield_time[CASLIST_LK_YIELD_BUCKETS];
};
extern _Thread_local struct caslist_lk_stats caslist_lk_stats;

static inline void caslist_lk_stat_yield(unsigned long long ns, int slow)
{
	unsigned k = ns < 8000u ? 0 : ns < 32000u ? 1 : ns < 128000u ? 2 : ns < 1024000u ? 3 : 4;

	caslist_lk_stats.slow_yields += (unsigned long)slow;
	caslist_lk_stats.yield_time[k]++;
}
extern unsigned caslist_lk_backoff_max, caslist_lk_crowded_max;
#define CASLIST_LK_STAT(field, n) (caslist_lk_stats.field += (n))
#define CASLIST_LK_STAT_YIELD(ns, slow) caslist_lk_stat_yield((ns), (slow))
#define CASLIST_LK_BACKOFF_MAX caslist_lk_backoff_max
#define CASLIST_LK_CROWDED_MAX caslist_lk_crowded_max

#endif /* CASLIST_LIB_STATS_H */
