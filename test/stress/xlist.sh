#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/stress/xlist.sh - nodes moving among several lists (test/stress/xlist.c), TAP:
# mixes move (2 and 4 lists), touch (2 lists), lru (active/inactive) and
# cut, grow (nodes malloc'ed meanwhile), rcu (objects freed through
# call_rcu while touched; skipped without liburcu), each at 2, 8, 64 and
# 256 threads.
# Environment: CASLIST_STRESS_SECONDS (default 1), CASLIST_STRESS_SEED
# (default: 100 + case number), CASLIST_STRESS_THREADS (default "2 8 64 256").
. "$(dirname "$0")/driver.sh"
cases="move:2 move:4 prim:2 touch:2 lru:2 cut:3 grow:2 rcu:1"
stress_plan "$cases"
i=0
for c in $cases; do
	m=${c%:*}
	k=${c#*:}
	for t in $threads; do
		i=$((i + 1))
		seed=${CASLIST_STRESS_SEED:-$((100 + i))}
		stress_run 'xlist mix=' "$m lists=$k threads=$t seed=$seed" \
			"$bindir/xlist" "$m" "$t" "$secs" "$seed" "$k"
	done
done
tap_done
