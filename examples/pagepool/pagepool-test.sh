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
#  - bad input gets a message and a non-zero exit.
# Environment: PAGEPOOL_TEST_SECONDS (default 0.2), PAGEPOOL_TEST_THREADS.
. "$(dirname "$0")/../../test/tap.sh"
b=${CASLIST_BUILDDIR:-.}/examples/pagepool
secs=${PAGEPOOL_TEST_SECONDS:-0.2}
threads=${PAGEPOOL_TEST_THREADS:-"2 8 64"}
modes="base nomerge cluster clusterfree caslist"
plain="--mem 64M --batch 7 --high 28 --quiet --attempts 4 --delays 1"
common="$plain --chaos 1"
nt=$(echo $threads | wc -w)
n=$((5 * nt + 1 + 1 + 1 + 5))
tap_plan $n

for m in $modes; do
	for t in $threads; do
		out=$("$b/pagepool" run --workload all --mode "$m" --threads "$t" --seconds "$secs" \
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

out=$("$b/pagepool-mutant-noremove" run --workload page_fault1 --mode caslist --threads 2 \
	--seconds "$secs" $plain --merge-ms 0 --wmark 0 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q 'audit'; then
	tap_ok "mutant noremove caught (exit $rc): $(printf '%s\n' "$out" | grep audit | head -n 1)"
else
	tap_notok "mutant noremove NOT caught (exit $rc)" "$out"
fi

out=$("$b/pagepool-mutant-keepstash" run --workload page_fault1 --mode caslist --threads 2 \
	--seconds "$secs" $plain 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q 'exited holding'; then
	tap_ok "mutant keepstash caught (exit $rc): $(printf '%s\n' "$out" | grep 'exited holding' | head -n 1)"
else
	tap_notok "mutant keepstash NOT caught (exit $rc)" "$out"
fi

cores=$(nproc 2>/dev/null || echo 2)
over=$((cores * 4))
out=$("$b/pagepool" run --workload all --mode base,caslist --threads "1,2,$over,$((cores * 32))" \
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

bad() {
	want=$1
	shift
	out=$("$b/pagepool" "$@" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q "$want"; then
		tap_ok "bad input '$*': exit $rc, '$want'"
	else
		tap_notok "bad input '$*': exit $rc, expected a message with '$want'" "$out"
	fi
}
bad "unknown mode" run --mode fastest
bad "unknown workload" run --workload nothing
bad "no pages" run --mem 0
bad "more threads than" run --mem 64M --threads 1000
bad "must be 'run'" go
tap_done
