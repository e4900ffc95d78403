#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/stress/combine.sh - moves queued at a busy head (static/combine.h,
# doc/combine.md), TAP: stress.c and xlist.c built inline with
# CASLIST_HEAD_COMBINE=1 (stress-combine, xlist-combine), whatever
# configure chose.  One hot list (rotate on 8 nodes: nearly every move
# finds the head busy; all), and nodes moving among lists: moves both
# ways (move), racing adds of one node (touch), an active/inactive LRU
# (lru), objects freed through call_rcu while moved (rcu; skipped
# without liburcu).  Each at 2, 8 and 64 threads.
# Environment: CASLIST_STRESS_SECONDS (default 1), CASLIST_STRESS_SEED
# (default: 300 + case number), CASLIST_STRESS_THREADS (default "2 8 64").
CASLIST_STRESS_THREADS=${CASLIST_STRESS_THREADS:-"2 8 64"}
. "$(dirname "$0")/driver.sh"
cases="stress:rotate:8 stress:all:64 xlist:move:2 xlist:touch:2 xlist:lru:2 xlist:rcu:1"
stress_plan "$cases"
i=0
for c in $cases; do
	prog=${c%%:*}
	rest=${c#*:}
	m=${rest%:*}
	k=${rest#*:}
	for t in $threads; do
		i=$((i + 1))
		seed=${CASLIST_STRESS_SEED:-$((300 + i))}
		if [ "$prog" = stress ]; then
			stress_run 'stress mix=' "stress-combine mix=$m nodes=$k threads=$t seed=$seed" \
				"$bindir/stress-combine" "$m" "$t" "$secs" "$seed" "$k"
		else
			stress_run 'xlist mix=' "xlist-combine mix=$m lists=$k threads=$t seed=$seed" \
				"$bindir/xlist-combine" "$m" "$t" "$secs" "$seed" "$k"
		fi
	done
done
tap_done
