#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/xlist.sh - nodes moving among several lists (test/xlist.c), TAP:
# mixes move (2 and 4 lists), touch (2 lists), lru (active/inactive) and
# cut, grow (nodes malloc'ed meanwhile), rcu (objects freed through
# call_rcu while touched; skipped without liburcu), each at 2, 8, 64 and
# 256 threads.
# Environment: CASLIST_STRESS_SECONDS (default 1), CASLIST_STRESS_SEED
# (default: 100 + case number), CASLIST_STRESS_THREADS (default "2 8 64 256").
. "$(dirname "$0")/tap.sh"
bin=${CASLIST_BUILDDIR:-.}/test/xlist
secs=${CASLIST_STRESS_SECONDS:-1}
threads=${CASLIST_STRESS_THREADS:-"2 8 64 256"}
cases="move:2 move:4 prim:2 touch:2 lru:2 cut:3 grow:2 rcu:1"
n=0
for c in $cases; do for t in $threads; do n=$((n + 1)); done; done
tap_plan $n
i=0
for c in $cases; do
	m=${c%:*}
	k=${c#*:}
	for t in $threads; do
		i=$((i + 1))
		seed=${CASLIST_STRESS_SEED:-$((100 + i))}
		out=$("$bin" "$m" "$t" "$secs" "$seed" "$k" 2>&1)
		rc=$?
		line=$(printf '%s\n' "$out" | grep '^xlist mix=' | tail -n 1)
		if [ $rc -eq 77 ]; then
			tap_skip "$m: $(printf '%s\n' "$out" | tail -n 1)"
		elif [ $rc -eq 0 ]; then
			tap_ok "$line"
		else
			tap_notok "$m lists=$k threads=$t seed=$seed exit=$rc $line" "$out"
		fi
	done
done
tap_done
