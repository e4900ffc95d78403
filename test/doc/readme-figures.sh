#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/doc/readme-figures.sh - README's and doc/results.md's figures are the
# bench bundle run's (TAP):
#  1. bench/readme-table --check README.md doc/results.md: every generated
#     block is what readme-table computes from the JSON of the folder its
#     marker names (the diff on failure);
#  2. the check is not blind: a copy of each file with one character of a
#     generated block changed (a figure's first digit where the block has
#     one) fails it;
#  3. README.md is at most 200 lines;
#  4. a folder whose context.json says it is a --smoke run is refused
#     (exit 2, naming the smoke run), also by --check.
# Needs python3 (skipped without it).
src=${CASLIST_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/test/tap.sh"
tap_source_once
tap_plan 4
rt=$src/bench/readme-table
if ! command -v python3 >/dev/null 2>&1; then
	for t in 1 2 3 4; do tap_skip "python3 not found"; done
	tap_done
fi
tmp=${TMPDIR:-/tmp}/readme-figures-$$
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"

out=$(python3 "$rt" --check "$src/README.md" "$src/doc/results.md" 2>&1)
tap_check $? "README.md and doc/results.md agree with the bundle's JSON" "$out"

# plant one change inside the first generated block of each copy
bad=
for f in README.md doc/results.md; do
	awk '
		/^<!-- readme-table [a-z-]+ / && !done { inb = 1; print; next }
		/^<!-- readme-table end -->$/ { inb = 0 }
		inb && !done && /[0-9]/ { match($0, /[0-9]/); d = substr($0, RSTART, 1)
			$0 = substr($0, 1, RSTART - 1) (d == "9" ? "1" : d + 1) substr($0, RSTART + 1)
			done = 1 }
		inb && !done && /[a-z]/ { sub(/[a-z]/, "X"); done = 1 }
		{ print }' "$src/$f" >"$tmp/${f##*/}"
	if cmp -s "$src/$f" "$tmp/${f##*/}"; then
		bad="$bad$f: no generated block to plant a change in
"
		continue
	fi
	msg=$(python3 "$rt" --check "$tmp/${f##*/}" 2>&1)
	rc=$?
	[ $rc -eq 1 ] && printf '%s\n' "$msg" | grep -q 'differs from the bundle' ||
		bad="$bad$f with a planted change: exit $rc
$msg
"
done
[ -z "$bad" ]
tap_check $? "a changed figure in either file fails the check" "$bad"

n=$(wc -l <"$src/README.md")
[ "$n" -le 200 ]
tap_check $? "README.md is $n lines (at most 200)"

# a smoke run: the committed run's listbench JSON under a context that
# says --smoke
d=$(sed -n 's/^<!-- readme-table cache \([^ ]*\) .*/\1/p' "$src/README.md")
mkdir -p "$tmp/smoke"
cp "$src/$d"/listbench-r1.json "$tmp/smoke/" 2>/dev/null
sed 's/"smoke": *"[^"]*"/"smoke": "yes: run --smoke"/' "$src/$d/context.json" \
	>"$tmp/smoke/context.json" 2>/dev/null
msg=$(python3 "$rt" "$tmp/smoke" 2>&1 >/dev/null)
rc=$?
rel=$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' \
	"$tmp/smoke" "$src")
sed "s|^\(<!-- readme-table cache \)[^ ]*|\1$rel|" "$src/README.md" >"$tmp/README.md"
msg2=$(cd "$tmp" && python3 "$rt" --check README.md 2>&1)
rc2=$?
[ $rc -eq 2 ] && printf '%s\n' "$msg" | grep -q 'is a --smoke run' && [ $rc2 -eq 1 ] &&
	printf '%s\n' "$msg2" | grep -q 'is a --smoke run'
tap_check $? "a --smoke run is refused: $msg" "exit $rc: $msg
--check: exit $rc2: $msg2"
tap_done
