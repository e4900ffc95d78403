#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/stress/fl_stress.sh - the free-list stress at 2, 8, 64 and 256 threads, and
# the window mutant (takes that ignore scan windows) must be caught (TAP).
# Environment: CASLIST_STRESS_SECONDS (default 1), CASLIST_STRESS_SEED.
. "$(dirname "$0")/driver.sh"
stress_plan fl_stress 1
i=0
for t in $threads; do
	i=$((i + 1))
	seed=${CASLIST_STRESS_SEED:-$((100 + i))}
	stress_run 'fl_stress threads=' "threads=$t seed=$seed" \
		"$bindir/fl_stress" "$t" "$secs" "$seed"
done
caught=
for args in "4 2 1" "8 2 2" "3 3 3"; do
	# shellcheck disable=SC2086
	out=$(CASLIST_STRESS_WATCHDOG=20 timeout 60 $CASLIST_RUN "$bindir/fl_stress-mutant-window" $args 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		caught="$args: exit $rc: $(printf '%s\n' "$out" | grep -m1 -E 'TAKEN inside|FAIL|ThreadSanitizer')"
		break
	fi
	tap_note "fl_stress-mutant-window $args: exit 0, not caught"
done
if [ -n "$caught" ]; then
	tap_ok "mutant (takes ignore scan windows) caught: $caught"
else
	tap_notok "mutant (takes ignore scan windows) went unnoticed"
fi
tap_done
