#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# examples/pagepool/pagepool-test.sh - the page pool under load (TAP).
#  - every mode x 2, 8, 64 threads: page_fault1, parallel_free, mixed and
#    highalloc, with high-order allocations and compaction interleaved
#    (--chaos); each point ends with the audit (pages conserved, owner
#    tags, buddy invariants, zone fully re-merged) or exits non-zero;
#  - the noremove mutant (compaction merges pages it did not take off the
#    order-0 list) must be caught by the audit (run without --chaos, the
#    background merger and merge-on-free, so that the end-of-run merge is
#    the first to touch the lost pages: otherwise it may crash instead);
#  - the keepstash mutant (an exiting thread keeps its stash, which no one
#    else can merge) must be caught at the end of the point;
#  - every printed rate is total pages / wall time of the measured
#    interval: at 1, 2 and 4x/32x-oversubscribed thread counts, each
#    point's pages_per_s equals pages / wall_ns, and the workers' CPU time
#    fits in that wall time on the machine's cores (a rate summed over
#    threads that did not run at the same time breaks this: a 500-thread
#    run once printed 450 M pages/s).  The bound is 1.5 x cores: timing
#    never decides it closely;
#  - bad input (every numeric option: not a number, negative, empty,
#    overflow, out of range; unknown names and options): one line naming
#    the option under the plain program name, exit 2; --help lists every
#    option with its description.
# Environment: PAGEPOOL_TEST_SECONDS (default 0.2), PAGEPOOL_TEST_THREADS.
. "$(dirname "$0")/../../test/tap.sh"
b=${CASLIST_BUILDDIR:-.}/examples/pagepool
secs=${PAGEPOOL_TEST_SECONDS:-0.2}
threads=${PAGEPOOL_TEST_THREADS:-"2 8 64"}
modes="base nomerge cluster clusterfree caslist"
plain="--mem 64M --batch 7 --high 28 --quiet --attempts 4 --delays 1"
common="$plain --chaos 1"
nt=$(echo $threads | wc -w)
n=$((5 * nt + 1 + 1 + 1 + 41 + 1))
tap_plan $n

for m in $modes; do
	for t in $threads; do
		out=$($CASLIST_RUN "$b/pagepool" run --workload all --mode "$m" --threads "$t" --seconds "$secs" \
			--seed "$tap_n" $common 2>&1)
		rc=$?
		line=$(printf '%s\n' "$out" | grep '^pagepool: .* points' | tail -n 1)
		if [ $rc -eq 0 ] && [ -n "$line" ]; then
			tap_ok "$m threads=$t: $line"
		else
			tap_notok "$m threads=$t exit=$rc" "$out"
		fi
	done
done

out=$($CASLIST_RUN "$b/pagepool-mutant-noremove" run --workload page_fault1 --mode caslist --threads 2 \
	--seconds "$secs" $plain --merge-ms 0 --wmark 0 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q 'audit'; then
	tap_ok "mutant noremove caught (exit $rc): $(printf '%s\n' "$out" | grep audit | head -n 1)"
else
	tap_notok "mutant noremove NOT caught (exit $rc)" "$out"
fi

out=$($CASLIST_RUN "$b/pagepool-mutant-keepstash" run --workload page_fault1 --mode caslist --threads 2 \
	--seconds "$secs" $plain 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q 'exited holding'; then
	tap_ok "mutant keepstash caught (exit $rc): $(printf '%s\n' "$out" | grep 'exited holding' | head -n 1)"
else
	tap_notok "mutant keepstash NOT caught (exit $rc)" "$out"
fi

cores=$(nproc 2>/dev/null || echo 2)
over=$((cores * 4))
out=$($CASLIST_RUN "$b/pagepool" run --workload all --mode base,caslist --threads "1,2,$over,$((cores * 32))" \
	--seconds "$secs" $plain --delays 0 --json 2>&1)
rc=$?
bad_rates=$(printf '%s\n' "$out" | awk -v cores="$cores" '
	/"pages_per_s"/ {
		n++
		for (i = 1; i <= NF; i++) {
			k = $i; gsub(/[":,{]/, "", k); v = $(i + 1); gsub(/[",}]/, "", v)
			f[k] = v + 0
		}
		if (f["wall_ns"] <= 0) { print "no wall time: " $0; next }
		want = f["pages"] / (f["wall_ns"] / 1e9)
		if (f["pages_per_s"] > want * 1.01 + 1 || f["pages_per_s"] < want * 0.99 - 1)
			print "rate " f["pages_per_s"] " != pages/wall " want ": " $0
		if (f["cpu_ns"] > f["wall_ns"] * cores * 1.5)
			print "CPU time " f["cpu_ns"] " ns does not fit in " f["wall_ns"] " ns on " cores " cores: " $0
	}
	END { if (n < 12) print "only " n " points" }')
if [ $rc -eq 0 ] && [ -z "$bad_rates" ]; then
	tap_ok "rates are pages / wall time at 1, 2, $over and $((cores * 32)) threads, CPU time within the wall time"
else
	tap_notok "rates (exit $rc)" "$(printf '%s\n' "$bad_rates" | head -n 10)
$(printf '%s\n' "$out" | tail -n 5)"
fi

# Bad input: one line "pagepool: <what> (try pagepool --help)" on stderr
# under the plain program name (not the libtool path), and exit status 2
# (examples/common/cli.h); nothing on stdout.
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086
	err=$(eval "$CASLIST_RUN \"\$b/pagepool\" $args" 2>&1 >/dev/null)
	rc=$?
	lines=$(printf '%s\n' "$err" | wc -l)
	if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] &&
		printf '%s\n' "$err" | grep -q "^pagepool: .*$want.* (try pagepool --help)\$"; then
		tap_ok "bad input '$args': exit 2, $err"
	else
		tap_notok "bad input '$args': exit $rc, $lines lines (wanted exit 2 and one line with '$want')" "$err"
	fi
done <<'CASES'
|missing command 'run'
go|unknown command 'go'
run --seed x|--seed: 'x' is not an integer in \[0, 18446744073709551615\]
run --seed -5|--seed: '-5' is not an integer
run --seed=|--seed: '' is not an integer
run --seed ''|--seed: '' is not an integer
run --seed 18446744073709551616|--seed: '18446744073709551616' is not an integer
run --seed 0x10|--seed: '0x10' is not an integer
run --seed|--seed needs a value
run --threads 0|--threads: '0' is not an integer in \[1, 4096\]
run --threads 2,x|--threads: 'x' is not an integer
run --threads 4097|--threads: '4097' is not an integer
run --threads ,|--threads: empty list
run --threads 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33|--threads: more than 32 counts
run --mem 64M --threads 1000|--threads 1000: more threads than the 16384 pages can serve
run --seconds 0|--seconds: '0' is not a number in (0, 3600\]
run --seconds abc|--seconds: 'abc' is not a number
run --seconds 3601|--seconds: '3601' is not a number
run --rounds 0|--rounds: '0' is not an integer in \[1, 100\]
run --mem 0|--mem: '0' is not a size in \[4M, [0-9]*G\]
run --mem 12Q|--mem: '12Q' is not a size
run --mem -1G|--mem: '-1G' is not a size
run --mem 99999999999999999999G|--mem: '99999999999999999999G' is not a size
run --chunk 1|--chunk: '1' is not a size in \[4K, [0-9]*G\]
run --batch 0|--batch: '0' is not an integer in \[1, 4096\]
run --high 2x|--high: '2x' is not an integer
run --batch 7 --high 3|--high (3) must be at least --batch (7)
run --stash -1|--stash: '-1' is not an integer in \[0, 16777216\]
run --delays 10001|--delays: '10001' is not an integer in \[0, 10000\]
run --attempts 0|--attempts: '0' is not an integer in \[1, 100000\]
run --churn 91|--churn: '91' is not an integer in \[0, 90\]
run --wmark 101|--wmark: '101' is not an integer in \[0, 100\]
run --merge-ms -1|--merge-ms: '-1' is not an integer in \[0, 10000\]
run --chaos 0|--chaos: '0' is not an integer in \[1, 10000\]
run --mode fastest|--mode: unknown mode 'fastest' (one of base, nomerge, cluster, clusterfree, caslist, all)
run --workload nothing|--workload: unknown workload 'nothing'
run --pin=both|--pin: 'both' is not spread or shared
run --json=1|--json takes no value
run --frobnicate|unknown option '--frobnicate'
run -x|unknown option '-x'
run extra|unexpected argument 'extra'
CASES

# --help: usage and every option with its description, on stdout, exit 0.
help=$($CASLIST_RUN "$b/pagepool" --help 2>&1)
rc=$?
missing=
for o in --workload --mode --threads --seconds --rounds --mem --chunk --batch --high --stash \
	--delays --attempts --churn --wmark --merge-ms --chaos --seed --pin --json --quiet --help; do
	printf '%s\n' "$help" | grep -q "^  $o[^ ]*\( [A-Z]*\)\{0,1\}  *[^ ]" || missing="$missing $o"
done
tap_check "$(test $rc -eq 0 && test -z "$missing"; echo $?)" \
	"--help: exit $rc, each option with a description$missing" "$help"
tap_done
