#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/stress/fl_grow.sh - test/stress/fl_grow (descriptor pool growing under a scanner)
# at 2, 4 and 8 threads, 20 rounds each; its own TAP lines pass through.
# Environment: CASLIST_STRESS_SEED (default 1).
. "$(dirname "$0")/driver.sh"
seed=${CASLIST_STRESS_SEED:-1}
tap_plan 3
for t in 2 4 8; do
	out=$($CASLIST_RUN "$bindir/fl_grow" "$t" 20 "$seed" 2>&1)
	tap_check $? "fl_grow threads=$t rounds=20 seed=$seed: $(printf '%s\n' "$out" | grep -c '^ok') ok" "$out"
done
tap_done
