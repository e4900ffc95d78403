#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/lin/soak.sh - `make soak`, first part: LIN_SOAK_HISTORIES windows
# (default 100000) at each of 2, 3, 4, 6 and 8 threads through the
# linearizability checker, a new seed per thread count; exit 1 on any
# violation (the first violating history is printed).  At the end: the
# total of histories checked and violations.
b=${CASLIST_BUILDDIR:-.}/test/lin
n=${LIN_SOAK_HISTORIES:-100000}
seed=${SOAK_SEED:-1000}
total=0
for t in 2 3 4 6 8; do
	seed=$((seed + 1))
	out=$(CASLIST_STRESS_WATCHDOG=$((n / 50 + 120)) "$b/lin" "$t" "$n" "$seed" 2>&1)
	rc=$?
	line=$(printf '%s\n' "$out" | grep '^lin threads=' | tail -n 1)
	echo "soak: $line"
	if [ $rc -ne 0 ]; then
		echo "soak: FAILED: lin threads=$t histories=$n seed=$seed exit=$rc"
		printf '%s\n' "$out" | head -n 60
		exit 1
	fi
	total=$((total + n))
done
echo "soak: lin passed: $total histories, 0 violations"
