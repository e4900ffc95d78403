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
. "$src/../test/tap.sh"
tap_plan 3
res=$("$bin" --quick --smoke --max-threads=2 \
	--benchmark_out="$out" --benchmark_out_format=json 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
	tap_ok "listbench --quick at 1,2 threads: $(printf '%s\n' "$res" | grep -c '/threads:') runs, all checks passed"
else
	tap_notok "listbench exit=$rc" \
		"$(printf '%s\n' "$res" | grep -v '^[a-z_]*/.*/threads:.*items_per_second')"
fi
cmp=$("$py" "$src/compare" --check "$out" 2>&1)
rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$cmp" | grep -q 'ck_stack *1 thr: unsupported' &&
	printf '%s\n' "$cmp" | grep -q '^fl_put/'; then
	tap_ok "compare --check: $(printf '%s\n' "$cmp" | grep -c '^[a-z_]*/[0-9]*$') workloads, unsupported peers listed"
else
	tap_notok "compare --check exit=$rc" "$cmp"
fi
rm -f "$out"
res=$("$bin" --plant-bug=lost-node --benchmark_filter='^queue/caslist/' --max-threads=1 \
	--smoke 2>&1)
rc=$?
if [ $rc -eq 1 ] && printf '%s\n' "$res" | grep -q 'FAIL: 1023 nodes at the end, expected 1024'; then
	tap_ok "planted lost node caught: $(printf '%s\n' "$res" | grep -m1 'FAIL:' | sed 's/.*FAIL/FAIL/')"
else
	tap_notok "planted lost node not caught (exit=$rc)" "$(printf '%s\n' "$res" | tail -n 20)"
fi
tap_done
