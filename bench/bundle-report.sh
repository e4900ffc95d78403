#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# report DIR - the ratio table and the charts of a bench bundle's run
# (bench/bundle-report.sh in libcaslist's tree; the bundle's ./run calls
# it when python3 is there).  Needs python3; the charts need gnuplot.
#   DIR/ratios.md   the conditions, then one Markdown table: per workload,
#                   libcaslist / best peer at each thread count, median
#                   [min..max] over the rounds ('*': oversubscribed)
#   DIR/compare.txt the full comparison (every run's ratio, the peers'
#                   lock-wait shares, unsupported and too-slow runs)
#   DIR/charts/     per workload: rate and p99.9 latency against threads,
#                   with the core count, the commit and the date in the title
# ./report --help says the same.
usage() {
	cat <<'EOF'
usage: ./report DIR
The ratio table and the charts of a bench bundle's run; DIR is the --out
folder of ./run (it holds context.json and the programs' JSON).  Writes
  DIR/ratios.md    the conditions and one Markdown table: libcaslist / best
                   peer per workload and thread count, median [min..max]
  DIR/compare.txt  the full comparison: every run's ratio, latency
                   percentiles and thread shares, lock-wait shares,
                   unsupported and too-slow runs
  DIR/charts/      rate and p99.9 latency against threads, one PNG each
                   per workload (needs gnuplot)
Needs python3.  A DIR that is not ./run's, or a bad option: one line
"report: ...", exit 2.
EOF
}
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
here=$(cd "$here" && pwd)
case ${1-} in
--help | -h) usage; exit 0 ;;
-*) echo "report: unknown option '$1' (try ./report --help)" >&2; exit 2 ;;
'') echo "report: which folder? usage: ./report DIR (try ./report --help)" >&2; exit 2 ;;
esac
[ $# -eq 1 ] || { echo "report: one folder only, got $# arguments (try ./report --help)" >&2; exit 2; }
d=$1
[ -f "$d/context.json" ] || { echo "report: $d/context.json: no such file (not a ./run folder?)" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "report: python3 is needed (Debian: python3)" >&2; exit 2; }
set --
for f in "$d"/listbench-r*.json "$d"/pagepool.json "$d"/lrucache-*.json; do
	[ -f "$f" ] || continue
	if [ -s "$f" ]; then set -- "$@" "$f"; else echo "report: $f is empty: left out (see $d/log/)" >&2; fi
done
[ $# -gt 0 ] || { echo "report: no results in $d" >&2; exit 2; }
ctx=$d/context.json
{
	python3 - "$ctx" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
print("# libcaslist / best peer, %s cores (%s), commit %s, %s" % (c["num_cpus"], c["cpu"], c["commit"], c["date"]))
print()
print("Rounds: %s; threads: %s; pinned: %s; load average: %s; kernel %s.%s" % (
    c["rounds"], c["threads"], c["pinned"], c["load_avg"], c["kernel"],
    "" if c.get("smoke", "no") == "no" else " SMOKE RUN (%s): not a measurement." % c["smoke"]))
print("Ratio > 1: libcaslist faster; median [min..max] over the rounds; '*': more threads than cores.")
print()
PY
	python3 "$here/tools/compare" --markdown --context "$ctx" "$@"
} >"$d/ratios.md" || exit 1
python3 "$here/tools/compare" --context "$ctx" "$@" >"$d/compare.txt" 2>&1 || exit 1
echo "report: $d/ratios.md, $d/compare.txt"
if command -v gnuplot >/dev/null 2>&1; then
	python3 "$here/tools/plot" --context "$ctx" "$@" "$d/charts" >/dev/null || exit 1
	echo "report: charts in $d/charts/"
else
	echo "report: no gnuplot here: no charts (Debian: gnuplot-nox; or run ./report $d elsewhere)"
fi
