#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# examples/lru/lru-test.sh - the LRU cache example under test (TAP).
#  1. bad arguments: one line "lrucache: ... (try lrucache --help)" under
#     the plain program name and exit status 2 (examples/common/cli.h);
#     --help lists every option with its description;
#  2. at 1 thread, with --ops (no timing), mutex and caslist are the same
#     policy: exactly the same hits, for strict and for lazy; and at 8 and
#     64 threads taking turns (--lockstep: the same sequence of operations
#     in every run), exactly the same hits again;
#  3. every impl at 2, 8 and 64 threads, each policy (strict, lazy, batched) x reclaim mode: the
#     program's own end-of-run conservation check must pass (exit 0);
#  4. a race-heavy mix (tiny cache, half sets, flat keys, evictors that
#     yield while they hold claimed victims).
#  5. a disturbed point runs again: with a busy loop beside a 1-thread
#     point and --max-disturbed 0, the point runs 1 + --retries times, its
#     row says how many and that it stayed disturbed, with other processes'
#     share above 0; with --max-disturbed 1 it runs once.  Steps 2-4 run
#     with --retries 0: make check's other tests disturb every point.
# Environment: CASLIST_LRU_SECONDS (default 0.1), CASLIST_LRU_THREADS
# (default 2,8,64).  The TSan build runs the same (TSan reports exit 66).
. "$(dirname "$0")/../../test/tap.sh"
b=${CASLIST_BUILDDIR:-.}/examples/lru/lrucache
secs=${CASLIST_LRU_SECONDS:-0.1}
threads=${CASLIST_LRU_THREADS:-2,8,64}

# 1. bad arguments
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086
	err=$($CASLIST_RUN "$b" $args 2>&1 >/dev/null)
	rc=$?
	lines=$(printf '%s\n' "$err" | wc -l)
	if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] &&
		printf '%s\n' "$err" | grep -q "^lrucache: .*$want.* (try lrucache --help)\$"; then
		tap_ok "bad args '$args': exit 2, $(printf '%s\n' "$err" | head -n 1)"
	else
		tap_notok "bad args '$args': exit $rc, '$err' (wanted exit 2 and '$want')"
	fi
done <<'CASES'
|missing command
bench|unknown command
run --impl mutex,foo|unknown implementation 'foo'
run --impl caslist,caslist|given twice
run --threads 0|--threads: '0'
run --threads 2,x|--threads: 'x'
run --seconds -1|--seconds
run --seconds 1 --ops 10|exclude each other
run --policy fifo|--policy: 'fifo'
run --reclaim later|--reclaim: 'later'
run --zipf 1.5|--zipf
run --capacity 10|--capacity
run --get-ratio 2|--get-ratio
run --value-size 8|--value-size
run --seed|needs a value
run --seed x|--seed: 'x' is not an integer in \[0, 18446744073709551615\]
run --seed -5|--seed: '-5' is not an integer
run --seed=|--seed: '' is not an integer
run --seed 18446744073709551616|--seed: '18446744073709551616' is not an integer
run --ops 0|--ops: '0' is not an integer in \[1, 1099511627776\]
run --ops 1e3|--ops: '1e3' is not an integer
run --seconds x|--seconds: 'x' is not a number in (0, 3600\]
run --threads 1025|--threads: '1025' is not an integer in \[1, 1024\]
run --threads ,|--threads: empty list
run --shards 0|--shards: '0' is not an integer in \[1, 1024\]
run --capacity 99999999999999999999|--capacity: '99999999999999999999' is not an integer
run --value-size -24|--value-size: '-24' is not an integer in \[24, 65536\]
run --get-ratio -0.5|--get-ratio: '-0.5' is not a number in \[0, 1\]
run -x|unknown option '-x'
run --frobnicate 3|unknown option
run --threads 2 --frobnicate|unknown option '--frobnicate'
run --json=1|--json takes no value
run --lockstep --threads 2|--lockstep needs --ops
run --retries 11|--retries: '11' is not an integer in \[0, 10\]
run --max-disturbed 1.5|--max-disturbed: '1.5' is not a number in \[0, 1\]
run extra|unexpected argument
CASES
help=$($CASLIST_RUN "$b" --help 2>&1)
rc=$?
missing=
for o in --impl --threads --seconds --ops --policy --reclaim --zipf --capacity --get-ratio \
	--value-size --shards --seed --json --retries --max-disturbed --widen-window --lockstep \
	--help; do
	printf '%s\n' "$help" | grep -q "^  $o  *[^ ]" || missing="$missing $o"
done
if [ $rc -eq 0 ] && printf '%s\n' "$help" | grep -q '^usage: lrucache run' && [ -z "$missing" ]; then
	tap_ok "--help: usage and each option with a description, exit 0"
else
	tap_notok "--help: exit $rc$missing" "$help"
fi

# 2. same policy at 1 thread: identical hits (deterministic, no timing).
# same_hits WHAT ARGS...: mutex and caslist, the hits must be equal.
same_hits() {
	what=$1; shift
	out=$($CASLIST_RUN "$b" run --impl mutex,caslist "$@" --retries 0 --json 2>&1)
	rc=$?
	hm=$(printf '%s\n' "$out" | grep '"impl":"mutex"' | sed 's/.*"hits":\([0-9]*\).*/\1/')
	hc=$(printf '%s\n' "$out" | grep '"impl":"caslist"' | sed 's/.*"hits":\([0-9]*\).*/\1/')
	if [ $rc -eq 0 ] && [ -n "$hm" ] && [ "$hm" = "$hc" ]; then
		tap_ok "$what: mutex and caslist both $hm hits"
	else
		tap_notok "$what: exit $rc, hits mutex=$hm caslist=$hc" \
			"$(printf '%s\n' "$out" | head -n 20)"
	fi
}
for pol in strict lazy; do
	same_hits "1 thread, $pol, 60000 ops" --threads 1 --ops 60000 --capacity 1024 \
		--policy "$pol" --seed 7
done

# 2b. the same at 8 and 64 threads: with --lockstep the threads take
# turns, one operation each, so the global sequence of operations is fixed
# by the seed (each thread draws from its own generator) and mutex and
# caslist must again produce exactly the same hits.  The operations run on
# different threads in turn: every hand-off between two threads is a
# cross-thread ordering that the TSan build checks.  (A hit-ratio
# comparison of free-running threads depends on scheduling: the live
# count may exceed the capacity by up to one object per thread for a
# while; step 3 runs those, with the end-of-run checks.)  Capacity 1024:
# enough evictions in 40000 operations that strict and lazy give different
# hits (26468 and 26643 at 8 threads), so the comparison sees the policy.
for pol in strict lazy; do
	for t in 8 64; do
		same_hits "$t threads in turn, $pol, 40000 ops" --threads $t --ops $((40000 / t)) \
			--lockstep --capacity 1024 --policy "$pol" --seed 9
	done
done

# 3. every impl, policy and reclaim mode at 2, 8, 64 threads
run_case() {
	what=$1; shift
	out=$($CASLIST_RUN "$b" run "$@" --retries 0 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		tap_ok "$what: all end-of-run checks pass"
		printf '%s\n' "$out" | grep -E '^ +[0-9]+ ' | sed 's/^/#   /'
	else
		tap_notok "$what: exit $rc"
		printf '%s\n' "$out" | head -n 40 | sed 's/^/# /'
	fi
}
for pol in strict lazy batched; do
	for rec in inline thread; do
		run_case "policy=$pol reclaim=$rec threads=$threads" --impl all --threads "$threads" \
			--seconds "$secs" --capacity 1024 --policy "$pol" --reclaim "$rec" --seed 3
	done
done

# 4. races between replaces and evictors on the same objects
for pol in strict lazy batched; do
	run_case "race mix policy=$pol" --impl caslist,mutex,sharded --threads "$threads" \
		--seconds "$secs" --capacity 64 --get-ratio 0.5 --zipf 0.5 --policy "$pol" \
		--reclaim thread --widen-window --seed 5
done

# 5. a disturbed point runs again, a quiet one once
# field JSON KEY: KEY's value in the one result line of JSON
field() {
	printf '%s\n' "$1" | grep '"threads":' | sed "s/.*\"$2\":\([^,}]*\).*/\1/"
}
sh -c 'while :; do :; done' &
busy=$!
trap 'kill $busy 2>/dev/null' EXIT
out=$($CASLIST_RUN "$b" run --impl index --threads 1 --seconds 0.2 --retries 2 \
	--max-disturbed 0 --json 2>"${TMPDIR:-/tmp}/lru-test-$$.err")
rc=$?
err=$(cat "${TMPDIR:-/tmp}/lru-test-$$.err")
rm -f "${TMPDIR:-/tmp}/lru-test-$$.err"
tries=$(field "$out" tries) dist=$(field "$out" disturbed) others=$(field "$out" others)
reruns=$(printf '%s\n' "$err" | grep -c 'index/1 disturbed (other processes')
if [ $rc -eq 0 ] && [ "$tries" = 3 ] && [ "$dist" = true ] && [ "$reruns" -eq 2 ] &&
	awk -v o="$others" 'BEGIN { exit !(o > 0) }'; then
	tap_ok "a point beside a busy loop, --max-disturbed 0 --retries 2: ran $tries times, others $others, still disturbed"
else
	tap_notok "disturbed point: exit $rc, tries '$tries', disturbed '$dist', others '$others', $reruns rerun lines" \
		"$out$err"
fi
out=$($CASLIST_RUN "$b" run --impl index --threads 1 --seconds 0.2 --retries 2 \
	--max-disturbed 1 --json 2>&1)
rc=$?
tries=$(field "$out" tries) dist=$(field "$out" disturbed)
if [ $rc -eq 0 ] && [ "$tries" = 1 ] && [ "$dist" = false ]; then
	tap_ok "the same with --max-disturbed 1: ran once, not disturbed"
else
	tap_notok "undisturbed point: exit $rc, tries '$tries', disturbed '$dist'" "$out"
fi
kill $busy 2>/dev/null

tap_done
