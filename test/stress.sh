#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/stress.sh - every stress mix at 2, 8, 64 and 256 threads (TAP).
# Environment: CASLIST_STRESS_SECONDS (default 1), CASLIST_STRESS_SEED
# (default: 1 + case number), CASLIST_STRESS_THREADS (default "2 8 64 256").
. "$(dirname "$0")/tap.sh"
bin=${CASLIST_BUILDDIR:-.}/test/stress
secs=${CASLIST_STRESS_SECONDS:-1}
threads=${CASLIST_STRESS_THREADS:-"2 8 64 256"}
mixes="rand rotate near ends all"
n=0
for m in $mixes; do for t in $threads; do n=$((n + 1)); done; done
tap_plan $n
i=0
for m in $mixes; do
	for t in $threads; do
		i=$((i + 1))
		seed=${CASLIST_STRESS_SEED:-$i}
		out=$("$bin" "$m" "$t" "$secs" "$seed" 2>&1)
		rc=$?
		line=$(printf '%s\n' "$out" | grep '^stress mix=' | tail -n 1)
		if [ $rc -eq 0 ]; then
			tap_ok "$line"
		else
			tap_notok "$m threads=$t seed=$seed exit=$rc $line" "$(printf '%s\n' "$out" | head -n 40)"
		fi
	done
done
tap_done
