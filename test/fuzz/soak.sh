#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/fuzz/soak.sh - `make soak`: the stress tests for a long time.
# Cycles through every test/stress/stress mix (rand rotate near ends all) and
# test/stress/fl_stress, at 2, 8, 64 and 256 threads, a new seed for every run,
# until SOAK_MINUTES (default 10) have passed.  Each run lasts
# SOAK_RUN_SECONDS (default 10).  Any failed run (a broken invariant, a
# hang caught by the watchdog, a sanitizer report) stops the soak with its
# output and exit 1.  At the end: runs, total operations, exit 0.
b=${CASLIST_BUILDDIR:-.}/test/stress
minutes=${SOAK_MINUTES:-10}
per=${SOAK_RUN_SECONDS:-10}
seed=${SOAK_SEED:-1000}
end=$(( $(date +%s) + minutes * 60 ))
runs=0
total=0
echo "soak: $minutes min, $per s per run, first seed $seed"
while [ "$(date +%s)" -lt "$end" ]; do
	for t in 2 8 64 256; do
		for m in rand rotate near ends all fl; do
			[ "$(date +%s)" -lt "$end" ] || break 2
			seed=$((seed + 1))
			if [ $m = fl ]; then
				out=$(CASLIST_STRESS_WATCHDOG=$((per * 10 + 60)) "$b/fl_stress" "$t" "$per" "$seed" 2>&1)
				rc=$?
				line=$(printf '%s\n' "$out" | grep '^fl_stress threads=' | tail -n 1)
				# takes + puts + put_batches + cache_puts + remove attempts
				ops=$(printf '%s\n' "$line" | sed -n \
					's/.*takes=\([0-9]*\) .* puts=\([0-9]*\) put_batches=\([0-9]*\) cache_puts=\([0-9]*\) removes=[0-9]*\/\([0-9]*\) .*/\1 + \2 + \3 + \4 + \5/p')
			else
				out=$(CASLIST_STRESS_WATCHDOG=$((per * 10 + 60)) "$b/stress" "$m" "$t" "$per" "$seed" 2>&1)
				rc=$?
				line=$(printf '%s\n' "$out" | grep '^stress mix=' | tail -n 1)
				ops=$(printf '%s\n' "$line" | sed -n 's/.*: ops=\([0-9]*\) .*/\1/p')
			fi
			runs=$((runs + 1))
			if [ $rc -ne 0 ] || [ -z "$ops" ]; then
				echo "soak: FAILED: $m threads=$t seconds=$per seed=$seed exit=$rc"
				printf '%s\n' "$out" | head -n 60
				exit 1
			fi
			total=$((total + $ops))
			echo "soak: run $runs: $line"
		done
	done
done
echo "soak: passed: $runs runs, $total operations, 0 discrepancies"
