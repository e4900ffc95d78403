#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/shape-test.sh - bench/shape's form (TAP).  shape is a timing tool;
# no rate is checked here, only that a run counts and reports as it says:
#  1 - one thread: a rate above 0 and fair 1.00, the parameters echoed
#  2 - two threads, no shared line: a rate above 0 and a fair in [0, 1]
#  3 - no random-line RMW at all (--rmw=0): still counts operations
#  4 - bad options: exit 2 and "shape: <what> (try shape --help)"
#  5 - --help: exit 0 and the usage
bin=${CASLIST_BUILDDIR:-.}/bench/shape
src=$(cd "$(dirname "$0")" && pwd)
. "$src/../test/tap.sh"
tap_plan 5

# line_ok WHAT REGEX ARGS...: shape ARGS exits 0 with one line matching REGEX
# and a rate above 0
line_ok() {
	what=$1 re=$2
	shift 2
	out=$($CASLIST_RUN "$bin" "$@" 2>&1)
	rc=$?
	rate=$(printf '%s\n' "$out" | sed -n 's/.*: \([0-9.]*\) M ops\/s.*/\1/p')
	if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -Eq "$re" &&
		[ -n "$rate" ] && awk -v r="$rate" 'BEGIN { exit !(r > 0) }'; then
		tap_ok "$what: $out"
	else
		tap_notok "$what: exit $rc" "$out"
	fi
}

line_ok "one thread" \
	'^shape lines=64 rmw=3 shared_every=4 threads=1 seconds=0.05: [0-9.]+ M ops/s, fair 1\.00$' \
	--lines=64 --rmw=3 --shared-every=4 --threads=1 --seconds=0.05
line_ok "two threads, no shared line" \
	'^shape lines=4096 rmw=2 shared_every=0 threads=2 seconds=0.05: [0-9.]+ M ops/s, fair (0\.[0-9][0-9]|1\.00)$' \
	--shared-every=0 --threads=2 --seconds=0.05
line_ok "no random-line RMW" \
	'^shape lines=4096 rmw=0 shared_every=1 threads=2 seconds=0.05: ' \
	--rmw=0 --shared-every=1 --seconds=0.05

bad=""
for args in "--threads=0" "--rmw=17" "--lines=abc" "--seconds=0" "--frob" "extra"; do
	err=$($CASLIST_RUN "$bin" $args 2>&1 >/dev/null)
	rc=$?
	case $err in
	"shape: "*"(try shape --help)") [ $rc -eq 2 ] || bad="$bad $args(exit $rc)" ;;
	*) bad="$bad $args($err)" ;;
	esac
done
if [ -z "$bad" ]; then
	tap_ok "bad options: exit 2 and one line naming what is wrong"
else
	tap_notok "bad options:$bad"
fi

out=$($CASLIST_RUN "$bin" --help 2>&1)
rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^usage: shape '; then
	tap_ok "--help: exit 0, usage"
else
	tap_notok "--help: exit $rc" "$out"
fi
tap_done
