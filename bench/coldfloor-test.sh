#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/coldfloor-test.sh - bench/coldfloor's form (TAP).  coldfloor is a
# timing tool; no time is checked here, only what its runs must keep:
#  1 - a short run of every variant, both page sizes: one line per variant
#      and page size, each with a time, and both lists whole after every
#      run (coldfloor checks them and exits 1 otherwise)
#  2 - one variant alone for a count of moves (callgrind's form): the lists
#      checked
#  3 - an unknown variant: exit 2
bin=${CASLIST_BUILDDIR:-.}/bench/coldfloor
src=$(cd "$(dirname "$0")" && pwd)
. "$src/../test/tap.sh"
tap_plan 3

out=$($CASLIST_RUN "$bin" --nodes 2000 --seconds 0.002 --rounds 2 --huge both 2>&1)
rc=$?
lines=$(printf '%s\n' "$out" | grep -c '^coldfloor nodes=2000 .* ns/move ')
# cas16 is x86-64's only: 14 variants there, 13 elsewhere, times 2 page sizes
if [ $rc -eq 0 ] && { [ "$lines" -eq 28 ] || [ "$lines" -eq 26 ]; }; then
	tap_ok "every variant, 4k and huge pages: $lines lines, the lists whole"
else
	tap_notok "every variant: exit $rc, $lines lines" "$out"
fi
out=$($CASLIST_RUN "$bin" --nodes 500 --only caslist --ops 10000 2>&1)
tap_check $? "one variant for a count of moves: $out" "$out"
$CASLIST_RUN "$bin" --only nosuch --ops 1 >/dev/null 2>&1
tap_check "$(test $? -eq 2; echo $?)" "an unknown variant: exit 2"
tap_done
