#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/cold-test.sh - listbench's floor row and cold lists (issue 31), as
# a correctness test (TAP).  Every run is a --smoke run (fixed, tiny
# iteration counts, each with its end-of-run check); no timing is checked.
#  1 - the floor runs at 1 thread on rotate, del_head and lruvec, and its
#      lists pass the end-of-run check
#  2 - above 1 thread the floor is reported as unsupported (an error row
#      that says why), not run
#  3 - the floor is reported as unsupported on the workloads it lacks
#  4 - --cold registers lru_all, lruvec and del_head at 262144 and 1048576
#      nodes for caslist, xlock, spin, mutex and floor, nothing else; the
#      quick set has no cold list
#  5 - the cold lists set up, run and check at 1048576 nodes (caslist and
#      the floor at 1 thread)
bin=${CASLIST_BUILDDIR:-.}/bench/listbench
src=$(cd "$(dirname "$0")" && pwd)
. "$src/../test/tap.sh"
# Every run here is at 1 thread: TSan has no second thread to see, and its
# shadow memory makes the 1048576-node lists minutes (ASan still checks
# the cold set-up's memory).
case ${CASLIST_SANITIZER:-none} in
*thread*)
	echo "1..0 # SKIP TSan build: every run is at 1 thread, nothing for TSan to see"
	exit 0
	;;
esac
tap_plan 5

# runs_ok WHAT WANT ARGS...: listbench ARGS exits 0 with WANT runs at 1
# thread, each passing its end-of-run check, and no error row
runs_ok() {
	what=$1 want=$2
	shift 2
	res=$("$bin" "$@" 2>&1)
	rc=$?
	n=$(printf '%s\n' "$res" | grep -c '/threads:1 .*items_per_second')
	if [ $rc -eq 0 ] && [ "$n" -eq "$want" ] && ! printf '%s\n' "$res" | grep -q 'ERROR\|FAIL'; then
		tap_ok "$what: $n runs set up, ran and passed their end checks"
	else
		tap_notok "$what: exit $rc, $n runs (want $want)" "$res"
	fi
}

runs_ok "floor at 1 thread (rotate, del_head, lruvec)" 3 --smoke=64 --max-threads=1 \
	--benchmark_filter='^(lru_all|del_head|lruvec)/floor/4096/'

res=$("$bin" --smoke=16 --threads=2 --max-threads=2 --benchmark_filter='^lru_all/floor/64/' 2>&1)
rc=$?
if [ $rc -eq 0 ] &&
	printf '%s\n' "$res" | grep -q '^lru_all/floor/64/.*/threads:1 .*items_per_second' &&
	printf '%s\n' "$res" | grep -q "^lru_all/floor/64/.*/threads:2 *ERROR OCCURRED: 'unsupported: floor runs at 1 thread only"; then
	tap_ok "floor at 2 threads: $(printf '%s\n' "$res" | grep -o "unsupported: floor runs at 1 thread only[^']*")"
else
	tap_notok "floor at 2 threads: exit $rc, want a run at 1 and an unsupported row at 2" "$res"
fi

res=$("$bin" --smoke=16 --max-threads=1 --benchmark_filter='^(queue|del_disjoint|lru_batch)/floor/' 2>&1)
rc=$?
n=$(printf '%s\n' "$res" | grep -c "ERROR OCCURRED: 'unsupported: the floor does rotate, del_head and lruvec only")
if [ $rc -eq 0 ] && [ "$n" -eq 3 ]; then
	tap_ok "floor elsewhere: $n workloads reported unsupported"
else
	tap_notok "floor elsewhere: exit $rc, $n unsupported rows (want 3)" "$res"
fi

cold=$("$bin" --cold --max-threads=1 --benchmark_list_tests=true 2>&1)
rc=$?
want=$(for w in lru_all lruvec del_head; do
	for s in 262144 1048576; do
		for i in caslist xlock floor mutex spin; do echo "$w/$i/$s"; done
	done
done | sort)
got=$(printf '%s\n' "$cold" | cut -d/ -f1-3 | sort)
quick=$("$bin" --quick --max-threads=1 --benchmark_list_tests=true 2>&1 | grep -c '/\(262144\|1048576\)/')
if [ $rc -eq 0 ] && [ "$got" = "$want" ] && [ "$quick" -eq 0 ]; then
	tap_ok "--cold: $(printf '%s\n' "$got" | wc -l) rows, the quick set none"
else
	tap_notok "--cold: exit $rc, quick set has $quick cold rows" \
		"$(printf 'got:\n%s\nwant:\n%s\n' "$got" "$want")"
fi

runs_ok "cold lists at 1048576 nodes (caslist, floor)" 6 --cold --smoke=8 --max-threads=1 \
	--benchmark_filter='^(lru_all|lruvec|del_head)/(caslist|floor)/1048576/'
tap_done
