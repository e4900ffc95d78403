#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/stress/busyhead.sh - test/stress/busyhead (a path that finds a head
# busy takes a ticket there, every kind), then its mutant nolinkwait (a
# busy head waited on by backoff only) on the delete of the first node,
# which must fail (the test can fail).
. "$(dirname "$0")/driver.sh"
tap_plan 2
out=$($CASLIST_RUN "$bindir/busyhead" 2>&1)
rc=$?
tap_check $rc "busyhead: $(printf '%s\n' "$out" | grep -c '^ok') checks passed" "$out"
out=$($CASLIST_RUN "$bindir/busyhead-mutant-nolinkwait" 1 2>&1)
if printf '%s\n' "$out" | grep -q '^not ok.*took a ticket'; then
	tap_ok "the nolinkwait mutant fails: $(printf '%s\n' "$out" | grep '^not ok.*took a ticket' | head -1)"
else
	tap_notok "the nolinkwait mutant took its ticket" "$out"
fi
tap_done
