#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/stress/mutants.sh - the suite can fail (TAP).  Each mutant is the core with
# one deliberate fault, built by make check:
#   stress-mutant-skiplock  link_lock_prev trusts the prev hint and does not
#                           take the predecessor's link lock: the stress
#                           test must report a broken invariant (or hang,
#                           caught by its watchdog).
#   stress-mutant-relaxed   link_unlock stores with memory_order_relaxed
#                           instead of release: x86 hides it, so only the
#                           TSan build can see it, and it must report a race.
#   stress-mutant-nokind    the unlink's and insert's store of succ->prev
#                           drops succ's head flag (I6): caslist_check, or
#                           a debug build's check at the next such store,
#                           must report it.
# A mutant that passes is a test failure here.
. "$(dirname "$0")/driver.sh"
tap_plan 3

# Returns 0 if the mutant binary failed in at least one attempt.
caught() {
	bin=$1; want=$2; shift 2
	for args in "rand 8 2 1" "all 8 2 2" "rotate 64 2 3" "rand 2 3 4"; do
		# shellcheck disable=SC2086
		out=$(CASLIST_STRESS_WATCHDOG=12 timeout 60 $CASLIST_RUN "$bindir/$bin" $args 2>&1)
		rc=$?
		if [ $rc -ne 0 ] && { [ -z "$want" ] || printf '%s\n' "$out" | grep -q "$want"; }; then
			why=$(printf '%s\n' "$out" | grep -m1 -E 'FAIL|TIMEOUT|ThreadSanitizer|removed node' )
			tap_note "$bin $args: exit $rc: $why"
			return 0
		fi
		tap_note "$bin $args: exit $rc, not caught"
	done
	return 1
}

if caught stress-mutant-skiplock ""; then
	tap_ok "skipped predecessor lock is caught by the stress test"
else
	tap_notok "skipped predecessor lock went unnoticed"
fi

if [ "$CASLIST_SANITIZER" != thread ]; then
	tap_skip "relaxed-unlock mutant needs the TSan build (--enable-sanitizer=thread)"
elif caught stress-mutant-relaxed "ThreadSanitizer: data race"; then
	tap_ok "release weakened to relaxed is reported by TSan"
else
	tap_notok "release weakened to relaxed went unreported by TSan"
fi
if caught stress-mutant-nokind ""; then
	tap_ok "a head flag dropped by [L6] is caught by the stress test"
else
	tap_notok "a head flag dropped by [L6] went unnoticed"
fi
tap_done
