#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/doc/readme-example.sh - README's example is a program that works (TAP):
#  1. the C block after README's "<!-- example: doc/examples/readme_example.c -->"
#     is that file, byte for byte (diff on failure);
#  2. the program make check built from it runs and its own check passes
#     (exit 0: every object freed, the list's structure and count right).
#     Skipped where liburcu-memb is missing (it is not built) and under TSan:
#     liburcu is not instrumented, so TSan reports every free after a grace
#     period; doc/examples/lru_touch.c is the same pattern with the
#     annotations, and runs there.
src=${CASLIST_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${CASLIST_BUILDDIR:-.}
. "$src/test/tap.sh"
tap_plan 2
file=doc/examples/readme_example.c
tmp=${TMPDIR:-/tmp}/readme-example-$$
trap 'rm -f "$tmp"' EXIT
# the lines between the marker's ```c and the next ```
awk -v m="<!-- example: $file -->" '
	$0 == m { state = 1; next }
	state == 1 && /^```c$/ { state = 2; next }
	state == 2 && /^```$/ { exit }
	state == 2 { print }' "$src/README.md" >"$tmp"
if [ ! -s "$tmp" ]; then
	tap_notok "README.md has no C block after <!-- example: $file -->"
else
	d=$(diff -u "$src/$file" "$tmp")
	tap_check $? "README's example is $file verbatim" "$d"
fi
prog=$build/doc/examples/readme_example
case ${CASLIST_SANITIZER-} in
*thread*)
	tap_skip "TSan build: liburcu's grace periods are invisible to TSan (lru_touch runs the pattern annotated)" ;;
*)
	if [ ! -x "$prog" ]; then
		tap_skip "$prog not built (liburcu-memb missing)"
	else
		out=$("$prog" 2>&1)
		rc=$?
		tap_check $rc "readme_example runs, exit $rc (its check: every object freed, the list's structure and count)" "$out"
	fi ;;
esac
tap_done
