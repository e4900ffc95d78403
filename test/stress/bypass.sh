#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/stress/bypass.sh - test/stress/bypass (the head's bounded bypass, counted)
# at 2, 8 and 64 threads; then the mutant that never defers to a ticket
# must break the bound in at least one of its runs (the test can fail).
# Environment: CASLIST_STRESS_SEED (default 1), CASLIST_STRESS_SECONDS (default 2).
. "$(dirname "$0")/driver.sh"
seed=${CASLIST_STRESS_SEED:-1}
secs=${CASLIST_STRESS_SECONDS:-2}
tap_plan 4
for t in 2 8 64; do
	out=$($CASLIST_RUN "$bindir/bypass" "$t" "$secs" "$seed" 2>&1)
	tap_check $? "bypass threads=$t seconds=$secs seed=$seed: $(printf '%s\n' "$out" | grep '^# bypass' | sed 's/^# bypass //')" "$out"
done
caught="" tried=""
for t in 2 8 64 4; do
	out=$($CASLIST_RUN "$bindir/bypass-mutant-nodefer" "$t" "$secs" "$seed" 2>&1)
	sum=$(printf '%s\n' "$out" | grep '^# bypass' | sed 's/^# bypass //')
	if printf '%s\n' "$out" | grep -q '^not ok.*bypass bound'; then
		caught="threads=$t: $sum"
		break
	fi
	tried="$tried
$sum"
done
if [ -n "$caught" ]; then
	tap_ok "the no-defer mutant breaks the bound ($caught)"
else
	tap_notok "the no-defer mutant kept the bound in every run" "$tried"
fi
tap_done
