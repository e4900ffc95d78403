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
#  4 - bench/plot --script-only on the JSON of 1: every chart's gnuplot
#      script turns enhanced text off (names such as del_overlap and
#      caslist_cache contain '_', which enhanced text makes a subscript)
#  5 - lruvec (the seed's workload) ran for caslist and the lock peers at
#      1 and 2 threads, and the peers report their lock-wait share
#  6 - the control workload alone (doc/bench.md) ran in 1 under the
#      pseudo-peer none only, at 1 and 2 threads, each row with its fair,
#      and bench/compare prints it as the machine's fair (a line, and the
#      column "machine" beside the workloads' fair)
#  7 - every run of 1 has the latency and share counters, consistent
#      (p50 <= p99 <= p99.9 <= p99.99 <= max, shares in [0, 1] around
#      1/threads, fair = share_min / share_max); --lat-every=0 drops the
#      latency counters and keeps the shares
#  8 - a run stopped by the run limit (--run-limit, a real "too slow"
#      error row) is drawn as a missing point with a note that says so
bin=${CASLIST_BUILDDIR:-.}/bench/listbench
src=$(cd "$(dirname "$0")" && pwd)
py=$(command -v python3 || echo /usr/bin/python3)
out=${CASLIST_BUILDDIR:-.}/bench/smoke-$$.json
. "$src/../test/tap.sh"
tap_plan 8
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
# the counters of every run that ran (7), checked now: the JSON is removed below
counters='
import json, sys
lat = ("lat_p50_ns", "lat_p99_ns", "lat_p999_ns", "lat_p9999_ns", "lat_max_ns")
want_lat = sys.argv[2] == "lat"
bad, n = [], 0
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("error_occurred"):
        continue
    n += 1
    t, name = b["threads"], b["name"]
    if want_lat != all(k in b for k in lat) or any(k in b for k in lat) != want_lat:
        bad.append("%s: latency counters %s" % (name, "missing" if want_lat else "present"))
    if want_lat and not (0 < b["lat_p50_ns"] <= b["lat_p99_ns"] <= b["lat_p999_ns"]
                         <= b["lat_p9999_ns"] <= b["lat_max_ns"] and b["lat_samples"] >= 1):
        bad.append("%s: percentiles out of order" % name)
    lo, hi, f, z = b["share_min"], b["share_max"], b["fair"], b["zero_threads"]
    late = b["late_threads"]
    if not (0 <= lo <= 1.0 / t + 1e-9 <= hi + 2e-9 <= 1 + 2e-9 and 0 <= f <= 1
            and abs(f - lo / hi) < 1e-6 and 0 <= z < t and (z == 0) == (lo > 0)
            and 0 <= late <= z):
        bad.append("%s: shares %s %s fair %s zero %s late %s" % (name, lo, hi, f, z, late))
    if not b.get("ips_all", 0) > 0:	# the rate while every thread ran
        bad.append("%s: ips_all %s" % (name, b.get("ips_all")))
print("%d runs" % n if not bad and n else "\n".join(bad) or "no runs")
sys.exit(1 if bad or not n else 0)
'
cnt=$("$py" -c "$counters" "$out" lat 2>&1)
cnt_rc=$?
# the control (6): alone/none only, a row with fair at 1 and 2 threads
ctl=$("$py" -c '
import json, sys
bs = json.load(open(sys.argv[1]))["benchmarks"]
rows = {b["threads"]: b for b in bs if b["name"].startswith("alone/none/")}
other = [b["name"] for b in bs if (b["name"].split("/")[0] == "alone") !=
         (b["name"].split("/")[1] == "none")]
bad = ["no row with fair at %d threads" % t for t in (1, 2)
       if t not in rows or rows[t].get("error_occurred") or "fair" not in rows[t]]
bad += ["registered: %s" % n for n in other]
print("\n".join(bad) or ", ".join("fair %.3f at %d thr" % (rows[t]["fair"], t)
                                  for t in sorted(rows)))
sys.exit(1 if bad else 0)
' "$out" 2>&1)
ctl_rc=$?
lv=$(grep -c '"name": "lruvec/\(caslist\|mutex\|spin\)/4096/iterations:[0-9]*/real_time/threads:[12]"' "$out")
lw=$(grep -c '"lock_wait":' "$out")
rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$cmp" | grep -q 'ck_stack *1 thr: unsupported' &&
	printf '%s\n' "$cmp" | grep -q '^fl_put/'; then
	tap_ok "compare --check: $(printf '%s\n' "$cmp" | grep -c '^[a-z_]*/[0-9]*$') workloads, unsupported peers listed"
else
	tap_notok "compare --check exit=$rc" "$cmp"
fi
res=$("$bin" --plant-bug=lost-node --benchmark_filter='^queue/caslist/' --max-threads=1 \
	--smoke 2>&1)
rc=$?
if [ $rc -eq 1 ] && printf '%s\n' "$res" | grep -q 'FAIL: 1023 nodes at the end, expected 1024'; then
	tap_ok "planted lost node caught: $(printf '%s\n' "$res" | grep -m1 'FAIL:' | sed 's/.*FAIL/FAIL/')"
else
	tap_notok "planted lost node not caught (exit=$rc)" "$(printf '%s\n' "$res" | tail -n 20)"
fi

gp=${CASLIST_BUILDDIR:-.}/bench/smoke-$$.gp
rm -rf "$gp"
res=$("$py" "$src/plot" --script-only "$out" "$gp" 2>&1)
rc=$?
n=$(ls "$gp"/*.gp 2>/dev/null | wc -l)
plain=$(grep -L '^set termoption noenhanced$' "$gp"/*.gp 2>/dev/null)
if [ $rc -eq 0 ] && [ "$n" -gt 0 ] && [ -z "$plain" ] && grep -q 'del_overlap' "$gp"/del_overlap_*.gp; then
	tap_ok "plot: $n chart scripts, all with enhanced text off"
else
	tap_notok "plot exit=$rc, $n scripts; enhanced text on in: $plain" "$res"
fi
if [ "$lv" -eq 6 ] && [ "$lw" -ge 4 ] && printf '%s\n' "$cmp" | grep -q 'lock wait share at 2 thr: .*mutex'; then
	tap_ok "lruvec: caslist, mutex, spin at 1 and 2 threads; $lw lock_wait counters"
else
	tap_notok "lruvec: $lv of 6 runs, $lw lock_wait counters" "$(printf '%s\n' "$cmp" | grep -A12 '^lruvec')"
fi
if [ $ctl_rc -eq 0 ] &&
	printf '%s\n' "$cmp" | grep -q "^machine fair (the control alone/none: .*: 1 thr [0-9.]*, 2 thr [0-9.]*$" &&
	printf '%s\n' "$cmp" | grep -q '^  threads  latency ns: .* fair machine  share min..max'; then
	tap_ok "control alone/none: $ctl; compare: $(printf '%s\n' "$cmp" | grep -o '1 thr [0-9.]*, 2 thr [0-9.]*$')"
else
	tap_notok "control alone/none (check exit $ctl_rc)" "$ctl
$(printf '%s\n' "$cmp" | grep -m1 -A3 '^machine fair')"
fi
rm -f "$out"
rm -rf "$gp"
res=$("$bin" --benchmark_filter='^queue/caslist/' --max-threads=2 --smoke=256 --lat-every=0 \
	--benchmark_out="$out" --benchmark_out_format=json 2>&1)
rc=$?
cnt0=$("$py" -c "$counters" "$out" nolat 2>&1)
cnt0_rc=$?
if [ $cnt_rc -eq 0 ] && [ $rc -eq 0 ] && [ $cnt0_rc -eq 0 ]; then
	tap_ok "counters: $cnt with consistent latency, shares and ips_all; --lat-every=0: $cnt0 with shares only"
else
	tap_notok "counters (listbench --lat-every=0 exit $rc)" "$cnt
$cnt0"
fi
rm -f "$out"
res=$("$bin" --benchmark_filter='^queue/mutex/' --max-threads=2 --run-limit=0.05 \
	--benchmark_min_time=2 --benchmark_out="$out" --benchmark_out_format=json 2>&1)
rc=$?
res=$res$("$py" "$src/plot" --script-only "$out" "$gp" 2>&1)
if [ $rc -eq 0 ] &&
	grep -q "missing points: mutex: too slow at 1 thr (stopped at [0-9.e+-]* M/s); not run at 2 thr" \
		"$gp"/queue_1024.gp && grep -q "title 'mutex (no point)'" "$gp"/queue_1024.gp &&
	! grep -q "'-' using" "$gp"/queue_1024.gp; then
	tap_ok "plot: a run stopped as too slow is a missing point with a note ($(grep -o 'mutex: too slow at [0-9]* thr' "$gp"/queue_1024.gp))"
else
	tap_notok "plot: the too-slow run is not marked (listbench exit=$rc)" \
		"$res$(cat "$gp"/queue_1024.gp 2>/dev/null)"
fi
rm -f "$out"
rm -rf "$gp"
tap_done
