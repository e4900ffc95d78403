#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/cli-test.sh - bad input to bench/listbench, bench/compare and
# bench/plot (TAP): each case must end with a clear message on stderr and
# the exit status given, never a Python traceback or a silent default.
# No benchmark is timed: listbench is only asked to list its runs.
bin=${CASLIST_BUILDDIR:-.}/bench/listbench
src=$(cd "$(dirname "$0")" && pwd)
py=$(command -v python3 || echo /usr/bin/python3)
tmp=${CASLIST_BUILDDIR:-.}/bench/cli-test-$$
. "$src/../test/tap.sh"
tap_plain_only "bad input is the scripts' and the option parser's logic; bench/smoke runs listbench under the sanitizer"
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT

# expect STATUS PATTERN WHAT CMD...: CMD exits STATUS, its stderr matches
# PATTERN (grep -E), and nothing it prints is a traceback
expect() {
	want=$1 pat=$2 what=$3
	shift 3
	out=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -eq "$want" ] && printf '%s\n' "$out" | grep -Eq -- "$pat" &&
		! printf '%s\n' "$out" | grep -q 'Traceback'; then
		tap_ok "$what: exit $rc, $(printf '%s\n' "$out" | grep -E -m1 -- "$pat")"
	else
		tap_notok "$what: exit $rc (want $want), stderr must match /$pat/" "$out"
	fi
}

list() {
	"$bin" --benchmark_list_tests=true "$@"
}

# ---- listbench ----
expect 2 "^listbench: --max-threads: 'abc' is not an integer in \[1, 4096\]" \
	"listbench --max-threads=abc" list --max-threads=abc
expect 2 "^listbench: --max-threads: '0' is not an integer" \
	"listbench --max-threads=0" list --max-threads=0
expect 2 "^listbench: --run-limit: 'abc' is not a number in \(0, 86400\]" \
	"listbench --run-limit=abc" list --run-limit=abc
expect 2 "^listbench: --run-limit: '-1' is not a number" \
	"listbench --run-limit=-1" list --run-limit=-1
expect 2 "^listbench: --smoke: '-5' is not an integer in \[1, 1000000000\]" \
	"listbench --smoke=-5" list --smoke=-5
expect 2 "^listbench: --smoke: 'x' is not an integer" "listbench --smoke=x" list --smoke=x
expect 2 "^listbench: --threads: 'abc' is not an integer in \[1, 4096\]" \
	"listbench --threads=abc" list --threads=abc
expect 2 "^listbench: --threads: empty list" "listbench --threads=" list --threads=
expect 2 "^listbench: --benchmark_min_time: 'abc' is not a number" \
	"listbench --benchmark_min_time=abc" list --benchmark_min_time=abc
expect 2 "^listbench: unknown or bad Google Benchmark flag '--benchmark_repetitions=abc'" \
	"listbench --benchmark_repetitions=abc" list --benchmark_repetitions=abc
expect 2 "^listbench: unknown option '--frobnicate'" "listbench --frobnicate" list --frobnicate
expect 2 "^listbench: unexpected argument 'extra'" "listbench extra" list extra
expect 2 "^listbench: --quick takes no value" "listbench --quick=1" list --quick=1
expect 2 "^listbench: --cold takes no value" "listbench --cold=1" list --cold=1
expect 2 "^listbench: --max-threads needs a value" "listbench --max-threads" list --max-threads
expect 2 "^listbench: --plant-bug: 'x' is not lost-node" "listbench --plant-bug=x" \
	list --plant-bug=x
expect 2 "^listbench: --lat-every: 'abc' is not an integer in \[0, 1000000\]" \
	"listbench --lat-every=abc" list --lat-every=abc
expect 2 "^listbench: --lat-every needs a value" "listbench --lat-every" list --lat-every
# Google Benchmark prints its own line for these and runs nothing: exit 2
expect 2 "^listbench: --benchmark_filter: '\[' is not a regular expression" \
	"listbench --benchmark_filter='['" list --benchmark_filter='['
expect 2 "^listbench: --benchmark_filter: 'nomatch' matches no benchmark" \
	"listbench --benchmark_filter=nomatch" list --benchmark_filter=nomatch
out=$("$bin" --help 2>&1)
rc=$?
first=$(printf '%s\n' "$out" | grep -n -- '--max-threads=N' | head -n1 | cut -d: -f1)
gb=$(printf '%s\n' "$out" | grep -n 'Google Benchmark options: see --benchmark_help' | cut -d: -f1)
if [ $rc -eq 0 ] && [ -n "$first" ] && [ -n "$gb" ] && [ "$first" -lt "$gb" ] &&
	printf '%s\n' "$out" | grep -q -- '--run-limit=S' &&
	! printf '%s\n' "$out" | grep -q 'benchmark_enable_random_interleaving'; then
	tap_ok "listbench --help: its own options first, then 'Google Benchmark options: see --benchmark_help'"
else
	tap_notok "listbench --help (exit $rc)" "$out"
fi
out=$("$bin" --benchmark_help 2>&1)
rc=$?
printf '%s\n' "$out" | grep -q 'benchmark_filter'
tap_check $(($? + rc)) "listbench --benchmark_help prints Google Benchmark's flags (exit $rc)" "$out"

# ---- compare and plot: the same bad files and options ----
: >"$tmp/empty.json"
printf 'not json {\n' >"$tmp/bad.json"
printf '{}\n' >"$tmp/obj.json"
printf '[1, 2]\n' >"$tmp/list.json"
printf '{"benchmarks": []}\n' >"$tmp/none.json"
good=$tmp/good.json
cat >"$good" <<'EOF'
{"context": {"num_cpus": 2, "smoke": "yes: 16 fixed iterations per run"},
 "benchmarks": [
  {"name": "queue/caslist/1024/real_time/threads:1", "run_name": "queue/caslist/1024",
   "run_type": "iteration", "threads": 1, "items_per_second": 2.0e7,
   "lat_p50_ns": 61, "lat_p99_ns": 70, "lat_p999_ns": 121, "lat_p9999_ns": 12900,
   "lat_max_ns": 2690000, "lat_samples": 88000, "fair": 1, "share_min": 1, "share_max": 1,
   "zero_threads": 0},
  {"name": "queue/mutex/1024/real_time/threads:1", "run_name": "queue/mutex/1024",
   "run_type": "iteration", "threads": 1, "items_per_second": 1.0e7,
   "lat_p50_ns": 70, "lat_p99_ns": 81, "lat_p999_ns": 181, "lat_p9999_ns": 13100,
   "lat_max_ns": 347000, "lat_samples": 77000, "fair": 1, "share_min": 1, "share_max": 1,
   "zero_threads": 0},
  {"name": "queue/mutex/1024/real_time/threads:2", "run_name": "queue/mutex/1024",
   "run_type": "iteration", "threads": 2, "error_occurred": true,
   "error_message": "too slow: stopped after 2.1 s at about 0.001M items/s (--run-limit)"},
  {"name": "queue/caslist/1024/real_time/threads:2", "run_name": "queue/caslist/1024",
   "run_type": "iteration", "threads": 2, "items_per_second": 3.0e7, "ips_all": 1.8e7},
  {"name": "queue/caslist/1024/real_time/threads:4", "run_name": "queue/caslist/1024",
   "run_type": "iteration", "threads": 4, "items_per_second": 2.5e7,
   "lat_p50_ns": 60, "lat_p99_ns": 72, "lat_p999_ns": 4321, "lat_p9999_ns": 24700,
   "lat_max_ns": 23700000, "lat_samples": 168000, "fair": 0, "share_min": 0,
   "share_max": 0.5, "zero_threads": 1},
  {"name": "queue/mutex/1024/real_time/threads:8", "run_name": "queue/mutex/1024",
   "run_type": "iteration", "threads": 8, "items_per_second": 1.5e7,
   "lat_p50_ns": 70, "lat_p99_ns": 81, "lat_p999_ns": 5432, "lat_p9999_ns": 24700,
   "lat_max_ns": 23700000, "lat_samples": 168000, "fair": 0, "share_min": 0,
   "share_max": 0.25, "zero_threads": 3, "late_threads": 3}
 ]}
EOF
for tool in compare plot; do
	if [ $tool = plot ]; then o=$tmp/png; set -- --script-only; else o=; set --; fi
	expect 2 "^$tool: error: $tmp/missing.json: no such file" "$tool: a missing file" \
		"$py" "$src/$tool" "$@" "$tmp/missing.json" $o
	expect 2 "^$tool: error: .*empty.json: empty file" "$tool: an empty file" \
		"$py" "$src/$tool" "$@" "$tmp/empty.json" $o
	expect 2 "^$tool: error: .*bad.json: not JSON" "$tool: a file that is not JSON" \
		"$py" "$src/$tool" "$@" "$tmp/bad.json" $o
	expect 2 "^$tool: error: .*obj.json: not benchmark JSON: no 'benchmarks'" "$tool: {}" \
		"$py" "$src/$tool" "$@" "$tmp/obj.json" $o
	expect 2 "^$tool: error: .*list.json: not benchmark JSON: the top level is a list" \
		"$tool: a JSON list" "$py" "$src/$tool" "$@" "$tmp/list.json" $o
	expect 2 "^$tool: error: .*none.json: no results in it" "$tool: no benchmarks in it" \
		"$py" "$src/$tool" "$@" "$tmp/none.json" $o
	expect 2 "^$tool: error: unrecognized arguments: --frobnicate" "$tool: an unknown flag" \
		"$py" "$src/$tool" "$@" --frobnicate "$good" $o
	expect 2 "^$tool: error: .*is a directory" "$tool: a directory as the file" \
		"$py" "$src/$tool" "$@" "$tmp" $o
	expect 0 "^$tool: warning: .*good.json is a --smoke run .*not a measurement" \
		"$tool: a --smoke file is read with a warning" "$py" "$src/$tool" "$@" "$good" $o
done
expect 2 "^compare: error: argument --threads: 'abc' is not a comma list of thread counts" \
	"compare --threads=abc" "$py" "$src/compare" --threads=abc "$good"
expect 2 "^compare: error: the following arguments are required: RESULTS.json" \
	"compare with no file" "$py" "$src/compare"
expect 2 "^plot: error: the following arguments are required" "plot with no OUTDIR" \
	"$py" "$src/plot" --script-only
expect 2 "^plot: error: --only: '\(' is not a regular expression" "plot --only='('" \
	"$py" "$src/plot" --script-only --only='(' "$good" "$tmp/png"
expect 2 "^plot: error: --only 'nomatch' matches none of the 1 workloads \(queue/1024\)" \
	"plot --only nomatch" "$py" "$src/plot" --script-only --only nomatch "$good" "$tmp/png"
expect 2 "^plot: error: --gnuplot: '/nonexistent' is not an executable program" \
	"plot --gnuplot /nonexistent" "$py" "$src/plot" --gnuplot /nonexistent "$good" "$tmp/png"
for c in "--only nomatch" "--gnuplot /nonexistent"; do
	# shellcheck disable=SC2086
	n=$("$py" "$src/plot" $c "$good" "$tmp/png" 2>&1 | grep -vc '^plot: warning: .*--smoke')
	tap_check $((n != 1)) "plot $c: one line of output besides the --smoke warning ($n)"
done
mkdir -p "$tmp/bin" && ln -s "$("$py" -c 'import sys; print(sys.executable)')" "$tmp/bin/python3"
expect 2 "^plot: error: gnuplot not found" "plot with no gnuplot on PATH" \
	env PATH="$tmp/bin" "$tmp/bin/python3" "$src/plot" "$good" "$tmp/png"

# ---- what a good file's charts show ----
rm -rf "$tmp/png"
"$py" "$src/plot" --script-only "$good" "$tmp/png" >/dev/null 2>&1
gp=$tmp/png/queue_1024.gp
if grep -q "set object 1 rect from 2.8.*fc rgb" "$gp" &&
	grep -q "set label 'oversubscribed (> 2 cores)" "$gp" &&
	grep -q '^set title "queue: pop the tail, add at the head, 1024 nodes\\nqueue/1024, ' "$gp" &&
	grep -q 'missing points: mutex: too slow at 2 thr (stopped at 0.001 M/s)' "$gp" &&
	grep -q "set key outside below" "$gp" && grep -q "lc 2 title 'mutex'$\|lc 2 title 'mutex'," "$gp" &&
	! grep -q "title '[a-z_]* (" "$gp" && ! grep -q "^'-'\|'-' using\|^2 0$" "$gp"; then
	tap_ok "plot: human title, oversubscribed region shaded, too slow a missing point with a note, key of bare names"
else
	tap_notok "plot: the chart script lacks a mark" "$(cat "$gp" 2>/dev/null)"
fi
gp=$tmp/png/queue_1024_lat.gp
if grep -q "p99.9 latency of one operation" "$gp" && grep -q "set logscale y" "$gp" &&
	grep -q "title 'caslist'" "$gp" && grep -q "title 'mutex'" "$gp"; then
	tap_ok "plot: a p99.9 latency chart per workload (log y, one line per implementation)"
else
	tap_notok "plot: no latency chart script" "$(ls "$tmp/png"; cat "$gp" 2>/dev/null)"
fi
out=$("$py" "$src/compare" "$good" 2>/dev/null)
if printf '%s\n' "$out" | grep -Eq '^ +1  +caslist +61 +70 +121 +12.9k +2.69M +1.000 +1.000..1.000' &&
	printf '%s\n' "$out" | grep -Eq '^ +4\* +caslist .*4321 .*ZERO: 1 of 4 threads did no operation' &&
	printf '%s\n' "$out" | grep -q '^ZERO: .*queue/1024 caslist at 4 threads' &&
	printf '%s\n' "$out" | grep -Eq '^ +8\* +mutex .*5432 .*late: up to 3 of 8 threads not yet scheduled' &&
	! printf '%s\n' "$out" | grep -Eq '^ +8\* +mutex .*ZERO' &&
	! printf '%s\n' "$out" | grep -q '^ZERO: .*mutex' &&
	printf '%s\n' "$out" | grep -q '^1 run per workload$'; then
	tap_ok "compare: latency percentiles, fairness, a zero-operation thread flagged (late ones shown, not flagged)"
else
	tap_notok "compare: the latency table or the ZERO flag is missing" "$out"
fi
# several threads: the rate is ips_all (the stretch in which every thread
# ran), not the whole run's items_per_second (30M in the file)
if printf '%s\n' "$out" | grep -Eq '^ +2 +caslist +18\.00M' &&
	printf '%s\n' "$out" | grep -Eq '^ +1 +caslist +20\.00M'; then
	tap_ok "compare: several threads rated by ips_all, one thread by items_per_second"
else
	tap_notok "compare: the 2-thread rate is not ips_all's 18M" "$out"
fi
# readme-table: doc/results.md's listbench rows from the same file as a
# bundle folder's one round (ips_all at 2 threads); the file is a smoke
# run, so only --allow-smoke prints them
mkdir -p "$tmp/bundle"
cp "$good" "$tmp/bundle/listbench-r1.json"
echo '{"num_cpus": 2, "smoke": "no"}' >"$tmp/bundle/context.json"
expect 2 "^readme-table: error: .* is a --smoke run \(listbench-r1.json: --smoke run" \
	"readme-table: a folder whose listbench ran --smoke" "$py" "$src/readme-table" "$tmp/bundle"
out=$("$py" "$src/readme-table" --allow-smoke "$tmp/bundle" 2>/dev/null)
rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^| workload | thr | libcaslist Mops/s |' &&
	printf '%s\n' "$out" | grep -q '^| queue/1024 | 1 | 20.0 | - | 10.0 (mutex) | - | \*\*2.00\*\* | 0.12, 1.00 | 0.18, 1.00 |$' &&
	printf '%s\n' "$out" | grep -q '^| queue/1024 | 2 | 18.0 | - | - |' &&
	printf '%s\n' "$out" | grep -q '^| queue/1024 | 4\* | 25.0 |'; then
	tap_ok "readme-table: a row per thread count, ips_all at 2 threads, the lock's p99.9 and fair"
else
	tap_notok "readme-table (exit $rc)" "$out"
fi
expect 2 "^readme-table: error: .*missing: no such folder" "readme-table: a missing folder" \
	"$py" "$src/readme-table" "$tmp/missing"
tap_done
