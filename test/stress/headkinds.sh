#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/stress/headkinds.sh - test/stress/headkinds (a waiter queued at a head
# is served whatever kind of head operation another thread loops on) with
# one pair and with four; then the mutant whose paths that find the head as
# the link they locked do not take part must break the bound in at least
# one of its runs (the test can fail).
# Environment: CASLIST_STRESS_SEED (default 1), CASLIST_STRESS_SECONDS
# (default 2: per run, shared by the seven kinds).
. "$(dirname "$0")/driver.sh"
seed=${CASLIST_STRESS_SEED:-1}
secs=${CASLIST_STRESS_SECONDS:-2}
tap_plan 3
for t in 2 8; do
	out=$($CASLIST_RUN "$bindir/headkinds" "$t" "$secs" "$seed" 2>&1)
	tap_check $? "headkinds threads=$t seconds=$secs seed=$seed: $(printf '%s\n' "$out" | grep '^# headkinds' | sed 's/^# headkinds //')" "$out"
done
caught="" tried=""
for t in 2 8 4; do
	out=$($CASLIST_RUN "$bindir/headkinds-mutant-noheadover" "$t" "$secs" "$seed" 2>&1)
	sum=$(printf '%s\n' "$out" | grep '^# headkinds' | sed 's/^# headkinds //')
	if printf '%s\n' "$out" | grep -q '^not ok.*grants within'; then
		caught="threads=$t: $(printf '%s\n' "$out" | grep '^not ok.*grants within' | head -1)"
		break
	fi
	tried="$tried
$sum"
done
if [ -n "$caught" ]; then
	tap_ok "the noheadover mutant breaks the bound ($caught)"
else
	tap_notok "the noheadover mutant kept the bound in every run" "$tried"
fi
tap_done
