#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/lin/lin.sh - linearizability of recorded histories (test/lin/lin.c),
# TAP: CASLIST_LIN_HISTORIES windows (default 10000; 1000 under a
# sanitizer) at each of 2, 4 and 8 threads, the same with lin-combine
# (moves queued at a busy head: static/combine.h), then the planted
# mutant (a pop_tail that returns a stale tail) must be caught within
# 2000 windows.
# `make soak` runs test/lin/soak.sh instead (many more windows).
# Environment: CASLIST_LIN_HISTORIES, CASLIST_LIN_THREADS (default "2 4 8"),
# CASLIST_STRESS_SEED (default 26).
. "$(dirname "$0")/../tap.sh"
bin=${CASLIST_BUILDDIR:-.}/test/lin/lin
case ${CASLIST_SANITIZER:-none} in
none) n=${CASLIST_LIN_HISTORIES:-10000} ;;
*) n=${CASLIST_LIN_HISTORIES:-1000} ;;
esac
threads=${CASLIST_LIN_THREADS:-"2 4 8"}
seed=${CASLIST_STRESS_SEED:-26}
for b in "$bin" "$bin-combine"; do
	for t in $threads; do
		out=$($CASLIST_RUN "$b" "$t" "$n" "$seed" 2>&1)
		rc=$?
		line=$(printf '%s\n' "$out" | grep '^lin threads=' | tail -n 1)
		tap_check $rc "${b##*/}: $line" "$out"
	done
done
out=$($CASLIST_RUN "$bin" 4 2000 "$seed" -m 2>&1)
rc=$?
line=$(printf '%s\n' "$out" | grep '^lin threads=' | tail -n 1)
case $line in
*" violations=0 "* | "") tap_notok "mutant (pop_tail returns a stale tail) went unnoticed: exit $rc $line" "$out" ;;
*) tap_ok "mutant (pop_tail returns a stale tail) caught: $(printf '%s\n' "$line" |
	sed 's/.*\(violations=[0-9]*\).*\(stale_returns=[0-9]*\) \(first_violation_at=[0-9]*\).*/\1 \2 \3/')" ;;
esac
tap_done
