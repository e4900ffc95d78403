/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/stats.h - the measurement build's wait counters and tunable wait
 * policy (test/measure/waitstat, -DCASLIST_STATS), force-included (-include)
 * ahead of the core's sources there.  Not installed: the protocol layer's
 * headers only have defaults (static/backoff.h) that this file replaces.
 * Per thread: backoff rounds, PAUSEs spun, sched_yield calls (a round =
 * one failed attempt at a held link, or one retry of an operation), and
 * the yields that took longer than CASLIST_LK_YIELD_SLOW_NS (each raises
 * the crowding hint).
 */
#ifndef CASLIST_LIB_STATS_H
#define CASLIST_LIB_STATS_H

struct caslist_lk_stats {
	unsigned long rounds, pauses, yields, slow_yields;
};
extern _Thread_local struct caslist_lk_stats caslist_lk_stats;
extern unsigned caslist_lk_backoff_min, caslist_lk_backoff_max, caslist_lk_poll_max,
	caslist_lk_crowded_max;
#define CASLIST_LK_STAT(field, n) (caslist_lk_stats.field += (n))
#define CASLIST_LK_BACKOFF_MIN caslist_lk_backoff_min
#define CASLIST_LK_BACKOFF_MAX caslist_lk_backoff_max
#define CASLIST_LK_POLL_MAX caslist_lk_poll_max
#define CASLIST_LK_CROWDED_MAX caslist_lk_crowded_max
#define CASLIST_LK_POLL_TUNABLE 1

#endif /* CASLIST_LIB_STATS_H */
