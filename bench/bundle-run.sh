#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run - the benchmark matrix of a bench bundle (bench/mkbundle.sh; this
# file is bench/bundle-run.sh in libcaslist's tree).  POSIX sh and the
# bundle's own files only: the programs start through the bundle's loader
# with --library-path lib --inhibit-cache, so the machine needs no package.
usage() {
	cat <<'EOF'
usage: ./run [--out DIR] [--rounds N] [--seconds S] [--min-time S] [--max-threads N]
             [--only listbench,pagepool,lrucache] [--filter REGEX] [--mem SIZE]
             [--pin] [--smoke]
The matrix, every part in rounds that alternate the implementations:
  listbench  every workload at 1, 2, 4, ... up to the cores, the core count,
             and twice it (oversubscribed); each round one process with the
             runs in a random order (--benchmark_enable_random_interleaving)
  pagepool   page_fault1, parallel_free and mixed, every mode, --rounds N
             (round r starts with the r-th mode)
  lrucache   the strict, lazy and batched policies, every impl; one process
             per round, the impls in the opposite order every other round
Writes DIR/listbench-rN.json, DIR/pagepool.json, DIR/lrucache-POLICY-rN.json,
DIR/context.json (cores, commit, date, load average before and after,
pinned) and the programs' stderr in DIR/log/.  Then, if python3 is here,
./report DIR (ratios.md: one Markdown table of ratios per thread count;
charts/*.png if gnuplot is here too).  Otherwise copy DIR back and run
./report DIR (or bench/compare and bench/plot) where python3 is.
  --out DIR        output folder (default results-HOST-DATE)
  --rounds N       rounds, 1..100 (default 5)
  --seconds S      pagepool and lrucache seconds per point (default 1)
  --min-time S     listbench --benchmark_min_time (default 0.25)
  --max-threads N  the highest thread count, 1..4096 (default twice the cores)
  --only LIST      the parts to run (default listbench,pagepool,lrucache)
  --filter REGEX   listbench --benchmark_filter (e.g. '^(lru_all|lruvec)/')
  --mem SIZE       pagepool --mem: digits, then K, M or G, 4M..1024G (default
                   its own, 1G)
  --pin            pin threads (listbench --pin, pagepool --pin)
  --smoke          a correctness run: one round, tiny sizes, no timing worth
                   reading (make check runs this)
Every value is checked before anything runs: a bad one prints one line
"run: ..." and exits 2.
EOF
}

case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
here=$(cd "$here" && pwd)
die() {
	echo "run: $*" >&2
	exit 2
}
isnum() {	# a positive decimal number
	case $1 in
	'' | *[!0-9.]* | *.*.* | .) return 1 ;;
	esac
	case $1 in *[1-9]*) return 0 ;; esac
	return 1
}
digits() {	# digits V MAX: V is 1 to MAX decimal digits (leading zeros dropped
	# into $num), so that test and $(( )) never see a number they overflow
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	num=$1
	while [ ${#num} -gt 1 ] && [ "${num#0}" != "$num" ]; do num=${num#0}; done
	[ ${#num} -le "$2" ]
}
isint() {	# isint V LO HI: an integer in [LO, HI] (normalised into $num)
	digits "$1" 9 && [ "$num" -ge "$2" ] && [ "$num" -le "$3" ]
}
issize() {	# pagepool --mem: digits, then K, M or G; 4M..1024G (its own range)
	case $1 in
	*[kK]) u=1024 d=10 ;;
	*[mM]) u=1048576 d=7 ;;
	*[gG]) u=1073741824 d=4 ;;
	*) u=1 d=13 ;;
	esac
	digits "${1%[kKmMgG]}" $d || return 1
	num=$((num * u))
	[ "$num" -ge 4194304 ] && [ "$num" -le 1099511627776 ]
}

out= rounds=5 seconds=1 mintime=0.25 maxt= only=listbench,pagepool,lrucache filter= mem= pin= smoke=
while [ $# -gt 0 ]; do
	a=$1
	shift
	case $a in
	--*=*) v=${a#*=} a=${a%%=*} ;;
	--pin | --smoke | --help | -h) v= ;;
	--out | --rounds | --seconds | --min-time | --max-threads | --only | --filter | --mem)
		[ $# -gt 0 ] || die "$a needs a value (try ./run --help)"
		v=$1
		shift ;;
	esac
	case $a=$v in
	--pin=?* | --smoke=?* | --help=?*) die "$a takes no value (try ./run --help)" ;;
	-*=* | -h=) ;;
	*) die "unexpected argument '$a' (try ./run --help)" ;;
	esac
	case $a in
	--out) out=$v ;;
	--rounds) isint "$v" 1 100 || die "--rounds: '$v' is not an integer in [1, 100]"; rounds=$num ;;
	--seconds) isnum "$v" || die "--seconds: '$v' is not a number > 0"; seconds=$v ;;
	--min-time) isnum "$v" || die "--min-time: '$v' is not a number > 0"; mintime=$v ;;
	--max-threads) isint "$v" 1 4096 || die "--max-threads: '$v' is not an integer in [1, 4096]"; maxt=$num ;;
	--only) only=$v ;;
	--filter) filter=$v ;;
	--mem) issize "$v" || die "--mem: '$v' is not a size in [4M, 1024G] (digits, then K, M or G)"; mem=$v ;;
	--pin) pin=1 ;;
	--smoke) smoke=1 ;;
	--help | -h) usage; exit 0 ;;
	*) die "unknown option '$a' (try ./run --help)" ;;
	esac
done
for p in $(echo "$only" | tr , ' '); do
	case $p in listbench | pagepool | lrucache) ;; *) die "--only: '$p' is not listbench, pagepool or lrucache" ;; esac
done
has() {
	case ",$only," in *",$1,"*) return 0 ;; esac
	return 1
}
prog() {	# prog NAME ARGS...: a bundled program, through the bundled loader
	p=$1
	shift
	"$here/lib/ld-linux.so" --library-path "$here/lib" --inhibit-cache "$here/bin/$p" "$@"
}

# the machine
cores=0
while read -r k rest; do
	[ "$k" = processor ] && cores=$((cores + 1))
done </proc/cpuinfo
[ "$cores" -ge 1 ] || cores=1
cpu=$(while IFS=: read -r k v; do case $k in "model name"*) echo ${v# }; break ;; esac; done </proc/cpuinfo)
read -r l1 l5 l15 rest </proc/loadavg
kernel=$(cat /proc/sys/kernel/osrelease 2>/dev/null || echo '?')
host=$(cat /proc/sys/kernel/hostname 2>/dev/null || echo host)
commit=$(cat "$here/COMMIT" 2>/dev/null || echo unknown)
[ -n "$maxt" ] || maxt=$((2 * cores))
[ -n "$smoke" ] && { rounds=1 maxt=2; }
date=$(date -u +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || echo unknown)
[ -n "$out" ] || out=results-$host-$(echo "$date" | tr -d ':-')
mkdir -p "$out/log" || die "cannot create $out"

# 1, 2, 4, ... up to the cores, the cores, twice the cores (capped)
threads= t=1
while [ $t -le "$maxt" ]; do
	threads=$threads${threads:+,}$t
	t=$((t * 2))
done
for t in $cores $((2 * cores)); do
	[ $t -le "$maxt" ] || continue
	case ",$threads," in *",$t,"*) ;; *) threads=$threads,$t ;; esac
done
smoke_ctx=no
[ -n "$smoke" ] && smoke_ctx="yes: run --smoke"
pinned=no
[ -n "$pin" ] && pinned="yes: thread i on CPU i mod cores"
echo "run: $cores cores ($cpu), threads $threads, $rounds round(s), commit $commit, load $l1 $l5 $l15${smoke:+, SMOKE (not a measurement)}"

rc=0
step() {	# step WHAT CMD...: run, keep stderr, remember a failure
	what=$1
	shift
	echo "run: $what" >&2
	if ! "$@" 2>>"$out/log/${what%% *}.log"; then
		echo "run: $what FAILED (exit status $?; $out/log/)" >&2
		rc=1
	fi
}
r=1
while [ $r -le "$rounds" ]; do
	if has listbench; then
		if [ -n "$smoke" ]; then
			set -- --quick --smoke=64 --max-threads=2
		else
			set -- --max-threads="$maxt" --threads="$threads" \
				--benchmark_min_time="$mintime" --benchmark_enable_random_interleaving=true
		fi
		[ -n "$pin" ] && set -- "$@" --pin
		[ -n "$filter" ] && set -- "$@" --benchmark_filter="$filter"
		step "listbench round $r" prog listbench "$@" --benchmark_context=commit="$commit" \
			--benchmark_out="$out/listbench-r$r.json" --benchmark_out_format=json \
			--benchmark_format=console --benchmark_color=false
	fi >"$out/log/listbench-r$r.txt"
	if has lrucache; then
		for pol in strict lazy batched; do
			if [ $((r % 2)) -eq 1 ]; then impls=mutex,caslist,sharded,index
			else impls=index,sharded,caslist,mutex; fi
			if [ -n "$smoke" ]; then
				set -- --ops 2000 --capacity 1024 --threads 1,2
			else
				set -- --seconds "$seconds" --threads "$threads"
			fi
			step "lrucache $pol round $r" prog lrucache run --impl $impls --policy $pol "$@" \
				--json >"$out/lrucache-$pol-r$r.json"
		done
	fi
	r=$((r + 1))
done
if has pagepool; then
	if [ -n "$smoke" ]; then
		set -- --threads 1,2 --seconds 0.05 --mem 256M --chunk 16M --rounds 1
	else
		set -- --threads "$threads" --seconds "$seconds" --rounds "$rounds"
		[ -n "$mem" ] && set -- "$@" --mem "$mem"
	fi
	[ -n "$pin" ] && set -- "$@" --pin
	step "pagepool" prog pagepool run --workload page_fault1,parallel_free,mixed --mode all \
		"$@" --json >"$out/pagepool.json"
fi
read -r a1 a5 a15 rest </proc/loadavg
end=$(date -u +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || echo unknown)
cat >"$out/context.json" <<EOF
{"num_cpus": $cores, "cpu": "$cpu", "kernel": "$kernel", "host": "$host",
 "commit": "$commit", "date": "$date", "end": "$end", "rounds": $rounds,
 "threads": "$threads", "pinned": "$pinned",
 "load_avg": "$l1 $l5 $l15 before, $a1 $a5 $a15 after",
 "smoke": "$smoke_ctx"}
EOF
echo "run: JSON in $out/ (context.json: $cores cores, commit $commit, load $l1 -> $a1)"
if command -v python3 >/dev/null 2>&1; then
	"$here/report" "$out" || rc=1
else
	echo "run: no python3 here: copy $out back and run ./report $out (or bench/compare"
	echo "     --markdown and bench/plot with --context $out/context.json) where python3 is"
fi
exit $rc
