#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/stress/stress.sh - every stress mix at 2, 8, 64 and 256 threads (TAP).
# Environment: CASLIST_STRESS_SECONDS (default 1), CASLIST_STRESS_SEED
# (default: 1 + case number), CASLIST_STRESS_THREADS (default "2 8 64 256").
. "$(dirname "$0")/driver.sh"
mixes="rand rotate near ends all"
stress_plan "$mixes"
i=0
for m in $mixes; do
	for t in $threads; do
		i=$((i + 1))
		seed=${CASLIST_STRESS_SEED:-$i}
		stress_run 'stress mix=' "$m threads=$t seed=$seed" \
			"$bindir/stress" "$m" "$t" "$secs" "$seed"
	done
done
tap_done
