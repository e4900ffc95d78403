# SPDX-License-Identifier: BSD-2-Clause
# test/stress/driver.sh - what the stress drivers (stress.sh, xlist.sh,
# fl_stress.sh) share; source it, do not run it:
#     . "$(dirname "$0")/driver.sh"
# It sources test/tap.sh and sets
#   bindir   the build's test/stress (CASLIST_BUILDDIR, default .)
#   secs     seconds per case: CASLIST_STRESS_SECONDS (default 1)
#   threads  thread counts: CASLIST_STRESS_THREADS (default "2 8 64 256")
# and gives
#   stress_plan CASES [EXTRA]    plan one run per case in the list CASES and
#                                thread count, and EXTRA more lines
#   stress_run TAG DESC CMD...   run CMD (stdout and stderr); one TAP line:
#       ok with the last output line starting with TAG (the run's summary),
#       skip when CMD exits 77, else not ok with DESC, the exit status, the
#       summary and the first 40 lines of the output.
. "$(dirname "$0")/../tap.sh"
bindir=${CASLIST_BUILDDIR:-.}/test/stress
secs=${CASLIST_STRESS_SECONDS:-1}
threads=${CASLIST_STRESS_THREADS:-"2 8 64 256"}

stress_plan() {
	# shellcheck disable=SC2086
	set -- "${2:-0}" $1 --- $threads
	extra=$1 ncases=0
	shift
	while [ "$1" != --- ]; do ncases=$((ncases + 1)); shift; done
	shift
	tap_plan $((ncases * $# + extra))
}

stress_run() {
	tag=$1 desc=$2
	shift 2
	out=$($CASLIST_RUN "$@" 2>&1)
	rc=$?
	line=$(printf '%s\n' "$out" | grep "^$tag" | tail -n 1)
	if [ $rc -eq 77 ]; then
		tap_skip "$desc: $(printf '%s\n' "$out" | tail -n 1)"
	elif [ $rc -eq 0 ]; then
		tap_ok "$line"
	else
		tap_notok "$desc exit=$rc $line" "$(printf '%s\n' "$out" | head -n 40)"
	fi
}
