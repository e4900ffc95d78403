/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/stats.c - the storage of lib/stats.h (the measurement build's wait
 * counters and tunable policy: test/measure/waitstat), and nothing else.  Linked
 * only into that build; the library proper never has them.
 */
#include "stats.h"

_Thread_local struct caslist_lk_stats caslist_lk_stats;
unsigned caslist_lk_backoff_min = 0, caslist_lk_backoff_max = 4095, caslist_lk_poll_max = 0,
	caslist_lk_crowded_max = 63;
