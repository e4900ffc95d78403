/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/stats.c - the wait counters and the tunable wait policy of the
 * measurement build (-DCASLIST_STATS: test/waitstat), and nothing else.
 * Linked only into that build; the library proper never has them.
 */
#ifndef CASLIST_STATS
#error "lib/stats.c is for the measurement build (-DCASLIST_STATS) only"
#endif
#include "backoff.h"

_Thread_local struct caslist__stats caslist__stats;
unsigned caslist__backoff_min = 4, caslist__backoff_max = 1024, caslist__poll_max = 0,
	caslist__crowded_max = 16;
