#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# examples/lru/mutants.sh - the LRU example's checks can fail (TAP).  Each
# mutant is lrucache built with one -D that skips one step (see the top
# of examples/lru/cache.h and doc/lru.md, "Which check fails"):
#   skipindex    the evictor frees a victim without taking it out of the
#                index: objects both evicted and reachable
#   skiplrudel   a replace leaves the old object on the LRU: index != LRU
#   noreclaim    sets never evict: capacity + slack exceeded, pool dry
#   ignoredel    a replace frees the old object even when an evictor won it
#                (two owners): claims != frees, a double free, or a broken
#                list that hangs (the watchdog exits 3)
# A mutant that exits 0 is a test failure here.
. "$(dirname "$0")/../../test/tap.sh"
b=${CASLIST_BUILDDIR:-.}/examples/lru
tap_plan 4
i=0
for m in skipindex skiplrudel noreclaim ignoredel; do
	i=$((i + 1))
	caught=no
	for args in "--policy strict" "--policy lazy --reclaim thread --widen-window" \
		"--policy strict --reclaim thread --widen-window"; do
		# shellcheck disable=SC2086
		out=$(CASLIST_STRESS_WATCHDOG=6 timeout 60 $CASLIST_RUN "$b/lrucache-mutant-$m" run \
			--impl caslist,mutex --threads 2,8 --seconds 0.2 --capacity 64 \
			--get-ratio 0.5 --zipf 0.5 --seed $i $args 2>&1)
		rc=$?
		if [ $rc -ne 0 ]; then
			why=$(printf '%s\n' "$out" | grep -m1 -E 'FAIL|TIMEOUT|ThreadSanitizer')
			tap_note "$m $args: exit $rc: $why"
			caught=yes
			break
		fi
		tap_note "$m $args: exit 0, not caught"
	done
	if [ $caught = yes ]; then
		tap_ok "mutant $m is caught"
	else
		tap_notok "mutant $m went unnoticed"
	fi
done
tap_done
