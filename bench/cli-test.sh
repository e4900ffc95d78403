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
expect 2 "^listbench: --max-threads needs a value" "listbench --max-threads" list --max-threads
expect 2 "^listbench: --plant-bug: 'x' is not lost-node" "listbench --plant-bug=x" \
	list --plant-bug=x
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
   "run_type": "iteration", "threads": 1, "items_per_second": 2.0e7},
  {"name": "queue/mutex/1024/real_time/threads:1", "run_name": "queue/mutex/1024",
   "run_type": "iteration", "threads": 1, "items_per_second": 1.0e7},
  {"name": "queue/mutex/1024/real_time/threads:2", "run_name": "queue/mutex/1024",
   "run_type": "iteration", "threads": 2, "error_occurred": true,
   "error_message": "too slow: stopped after 2.1 s at about 0.001M items/s (--run-limit)"},
  {"name": "queue/caslist/1024/real_time/threads:2", "run_name": "queue/caslist/1024",
   "run_type": "iteration", "threads": 2, "items_per_second": 3.0e7},
  {"name": "queue/caslist/1024/real_time/threads:4", "run_name": "queue/caslist/1024",
   "run_type": "iteration", "threads": 4, "items_per_second": 2.5e7}
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
mkdir -p "$tmp/bin" && ln -s "$("$py" -c 'import sys; print(sys.executable)')" "$tmp/bin/python3"
expect 2 "^plot: error: gnuplot not found" "plot with no gnuplot on PATH" \
	env PATH="$tmp/bin" "$tmp/bin/python3" "$src/plot" "$good" "$tmp/png"

# ---- what a good file's chart shows ----
rm -rf "$tmp/png"
"$py" "$src/plot" --script-only "$good" "$tmp/png" >/dev/null 2>&1
gp=$tmp/png/queue_1024.gp
if grep -q "set object 1 rect from 2.8.*fc rgb" "$gp" &&
	grep -q "set label 'oversubscribed (> 2 cores)" "$gp" &&
	grep -q "set label 'too slow (< " "$gp" &&
	grep -q "mutex (too slow at 2 thr)" "$gp" && grep -q "set key below" "$gp" &&
	! grep -q "^2 0$" "$gp"; then
	tap_ok "plot: oversubscribed region shaded, too slow labelled above 0, compact key"
else
	tap_notok "plot: the chart script lacks a mark" "$(cat "$gp" 2>/dev/null)"
fi
tap_done
