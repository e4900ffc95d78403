#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/model/run.sh - model-check the link-lock protocol with spin (TAP).
#   1     list.pml, every scenario (init picks one of 12; 8-12 use two lists): no assertion
#         violation, no invalid end state (deadlock); prints states stored.
#   2..n  each mutant (one lock step removed or one validation skipped)
#         must be reported as an error by spin: the model can fail.
# Environment: CASLIST_SPIN (spin binary, default: spin on PATH),
# CASLIST_MODEL_CC (C compiler for pan, default cc), CASLIST_MODEL_EACH=1
# adds one run per scenario (states per scenario).  pan is compiled -O0:
# at -O1 gcc needs ~15 s for it, the search itself takes ~1.5 s.
here=$(cd "$(dirname "$0")" && pwd)
spin=${CASLIST_SPIN:-spin}
cc=${CASLIST_MODEL_CC:-cc}
mutants="MUT_SKIP_PRED_LOCK MUT_TAIL_NO_EXPECT MUT_INSERT_UNLOCKED MUT_POP_HEAD_WAITS
MUT_NEAR_NO_VALIDATE MUT_CUT_NO_LAST_LOCK MUT_MOVE_HOLD_PRED MUT_CUT_NO_LIST_CHECK
MUT_WALK_NO_HEAD_CHECK MUT_TOUCH_PLAIN MUT_BATCH_CHAIN_UNLOCKED"
scens=
[ "${CASLIST_MODEL_EACH:-0}" = 1 ] && scens="1 2 3 4 5 6 7 8 9 10 11 12"
n=1
for m in $mutants; do n=$((n + 1)); done
for s in $scens; do n=$((n + 1)); done
echo "1..$n"
skip=
command -v "$spin" >/dev/null 2>&1 || skip="spin not found"
# The model does not use the build: run it once, in the plain build.
case ${CASLIST_SANITIZER:-none} in
none) ;;
*) skip="the model runs in the build without a sanitizer" ;;
esac
if [ -n "$skip" ]; then
	i=0
	while [ $i -lt $n ]; do i=$((i + 1)); echo "ok $i # SKIP $skip"; done
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/caslist-model.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$here/list.pml" "$tmp/" || exit 1
cd "$tmp" || exit 1

# verify DEFINES...: sets $out (pan's output) and $errors (-1: did not run)
verify() {
	errors=-1
	out=$("$spin" "$@" -a list.pml 2>&1) || { out="spin -a failed: $out"; return; }
	out=$("$cc" -O0 -w -DSAFETY -o pan pan.c 2>&1) || { out="cc failed: $out"; return; }
	# -m: depth limit (the deepest run is < 200 steps); timeout: bounded for CI
	out=$(timeout 120 ./pan -m10000 2>&1)
	errors=$(printf '%s\n' "$out" | sed -n 's/.*errors: \([0-9]*\).*/\1/p' | head -n 1)
	[ -n "$errors" ] || errors=-1
	states=$(printf '%s\n' "$out" | sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' | head -n 1)
	first=$(printf '%s\n' "$out" | grep -m1 '^pan:1:' )
	rm -f list.pml.trail
}

i=1
verify
if [ "$errors" = 0 ] && ! printf '%s\n' "$out" | grep -q 'max search depth too small'; then
	echo "ok 1 - list.pml, all 12 scenarios (2 lists), 3 processes: errors 0, $states states stored"
else
	echo "not ok 1 - list.pml: errors $errors"
	printf '%s\n' "$out" | head -n 30 | sed 's/^/# /'
fi
for m in $mutants; do
	i=$((i + 1))
	verify -D"$m"
	if [ "$errors" -gt 0 ] 2>/dev/null; then
		echo "ok $i - mutant $m caught: $first"
	else
		echo "not ok $i - mutant $m not caught (errors $errors)"
		printf '%s\n' "$out" | head -n 30 | sed 's/^/# /'
	fi
done
for s in $scens; do
	i=$((i + 1))
	verify -DSCEN="$s"
	if [ "$errors" = 0 ]; then
		echo "ok $i - scenario $s: errors 0, $states states stored"
	else
		echo "not ok $i - scenario $s: errors $errors"
		printf '%s\n' "$out" | head -n 30 | sed 's/^/# /'
	fi
done
