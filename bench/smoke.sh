#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/smoke.sh - run every benchmark body of bench/listbench once, short,
# at 1 and 2 threads, as a correctness test (TAP).  No timing is checked:
# each run ends with a structure and node-count check (a failure exits 1),
# and in the TSan build any report fails the run (exit 66).
#  1 - the quick set runs, every end-of-run check passes
#  2 - bench/compare --check finds a caslist result for every workload at
#      every thread count, and unsupported peers reported as such
#  3 - a planted lost node (--plant-bug=lost-node) is caught by the check
bin=${CASLIST_BUILDDIR:-.}/bench/listbench
src=$(cd "$(dirname "$0")" && pwd)
py=$(command -v python3 || echo /usr/bin/python3)
out=${CASLIST_BUILDDIR:-.}/bench/smoke-$$.json
echo "1..3"
fail=0
res=$("$bin" --quick --smoke --max-threads=2 \
	--benchmark_out="$out" --benchmark_out_format=json 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
	echo "ok 1 - listbench --quick at 1,2 threads: $(printf '%s\n' "$res" | grep -c '/threads:') runs, all checks passed"
else
	fail=$((fail + 1))
	echo "not ok 1 - listbench exit=$rc"
	printf '%s\n' "$res" | grep -v '^[a-z_]*/.*/threads:.*items_per_second' | tail -n 40 | sed 's/^/# /'
fi
cmp=$("$py" "$src/compare" --check "$out" 2>&1)
rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$cmp" | grep -q 'ck_stack *1 thr: unsupported' &&
	printf '%s\n' "$cmp" | grep -q '^fl_put/'; then
	echo "ok 2 - compare --check: $(printf '%s\n' "$cmp" | grep -c '^[a-z_]*/[0-9]*$') workloads, unsupported peers listed"
else
	fail=$((fail + 1))
	echo "not ok 2 - compare --check exit=$rc"
	printf '%s\n' "$cmp" | tail -n 40 | sed 's/^/# /'
fi
rm -f "$out"
res=$("$bin" --plant-bug=lost-node --benchmark_filter='^queue/caslist/' --max-threads=1 \
	--smoke 2>&1)
rc=$?
if [ $rc -eq 1 ] && printf '%s\n' "$res" | grep -q 'FAIL: 1023 nodes at the end, expected 1024'; then
	echo "ok 3 - planted lost node caught: $(printf '%s\n' "$res" | grep -m1 'FAIL:' | sed 's/.*FAIL/FAIL/')"
else
	fail=$((fail + 1))
	echo "not ok 3 - planted lost node not caught (exit=$rc)"
	printf '%s\n' "$res" | tail -n 20 | sed 's/^/# /'
fi
echo "# $((3 - fail)) passed, $fail failed"
