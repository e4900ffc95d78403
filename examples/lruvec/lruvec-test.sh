#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# examples/lruvec/lruvec-test.sh - the seed's workload example (TAP): fixed
# step counts (--ops), so nothing depends on timing.
#  1 - caslist and the lock at 1, 2 and 4 threads: every end-of-run count
#      and list check passes, and the lock's wait share is printed
#  2 - a larger list (--objects 65536) at 2 threads
#  3 - bad options exit 2 with a message
bin=${CASLIST_BUILDDIR:-.}/examples/lruvec/lruvec
. "$(dirname "$0")/../../test/tap.sh"
tap_plan 3
out=$($CASLIST_RUN "$bin" --ops 20000 --threads 1,2,4 2>&1)
rc=$?
n=$(printf '%s\n' "$out" | grep -c ' passed$')
if [ $rc -eq 0 ] && [ "$n" -eq 6 ] && printf '%s\n' "$out" | grep -q '^lock .*%'; then
	tap_ok "caslist and lock at 1, 2, 4 threads: 6 runs, every check passed"
else
	tap_notok "exit $rc, $n of 6 runs passed" "$out"
fi
out=$($CASLIST_RUN "$bin" --ops 20000 --threads 2 --objects 65536 --impl caslist,lock 2>&1)
tap_check $? "65536 objects at 2 threads" "$out"
bad=
for a in "--threads abc" "--ops 0" "--objects 10" "--impl foo" "--seconds -1" "--frob"; do
	# shellcheck disable=SC2086
	msg=$($CASLIST_RUN "$bin" $a 2>&1 >/dev/null)
	[ $? -eq 2 ] && printf '%s\n' "$msg" | grep -q '^lruvec: ' || bad="$bad[$a] $msg
"
done
if [ -z "$bad" ]; then
	tap_ok "bad options exit 2 with 'lruvec: ...'"
else
	tap_notok "bad options" "$bad"
fi
tap_done
