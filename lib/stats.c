/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/stats.c - the storage of lib/stats.h (the measurement build's wait
 * counters and tunable policy: test/measure/waitstat), and nothing else.  Linked
 * only into that build; the library proper never has them.
 */
#include "stats.h"

_Thread_local struct caslist_lk_stats caslist_lk_stats;
/* The shipped defaults (static/wait.h): waitstat without arguments
 * measures the policy the library ships. */
unsigned caslist_lk_backoff_max = 32767, caslist_lk_crowded_max = 63;
