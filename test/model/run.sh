#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/model/run.sh - model-check the protocols with spin (TAP).
#   list.pml      the link-lock protocol of static/link.h, lib/list.c and
#                 static/batch_ops.h, two lists, every scenario (init picks one of
#                 14; 8-14 use two lists): no assertion violation, no
#                 invalid end state (deadlock); prints states stored.
#   freelist.pml  the cluster-lock protocol of lib/freelist.c on top of the
#                 list's operations (4 scenarios), the same checks.
#   wait.pml      the head's hand-over bounded by time of static/wait.h
#                 (a logical clock: the stamp of the oldest ticket, the
#                 entry's check of its age, grant, ticket, turn, the idle
#                 self-grant): the bypass bound at every grant, no invalid
#                 end state; 2 threads, and 3 with fewer operations.
#   combine.pml   moves queued at a busy head (static/combine.h): the
#                 publish, the holder's drain, the publisher's serve;
#                 Q1-Q4 of doc/combine.md, no invalid end state; 2 and 3
#                 publishers against a holder of 2 inserts.
#   mutants       each one lock step removed or one validation skipped,
#                 must be reported as an error by spin: the models can fail.
# Environment: CASLIST_SPIN (spin binary, default: spin on PATH),
# CASLIST_MODEL_CC (C compiler for pan, default clang where installed, else
# cc), CASLIST_MODEL_EACH=1 adds one run per scenario (states per
# scenario).  pan is compiled -O0: the search is bound by its state hash
# table, as fast at -O0 as at -O1, which costs many times the compile; at
# -O0 clang compiles pan in about half gcc's time, and every run compiles
# its own (doc/notebook.md, "CI's stages cut").
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tap.sh"
tap_native_only "the spin model checks the protocol, not the host; pan is built for the build machine"
tap_source_once
spin=${CASLIST_SPIN:-spin}
cc=${CASLIST_MODEL_CC:-$(command -v clang >/dev/null 2>&1 && echo clang || echo cc)}
mutants="MUT_SKIP_PRED_LOCK MUT_TAIL_NO_EXPECT MUT_INSERT_UNLOCKED MUT_POP_HEAD_WAITS
MUT_NEAR_NO_VALIDATE MUT_CUT_NO_LAST_LOCK MUT_MOVE_HOLD_PRED MUT_CUT_NO_LIST_CHECK
MUT_WALK_NO_HEAD_CHECK MUT_TOUCH_PLAIN MUT_BATCH_CHAIN_UNLOCKED MUT_TOUCH_OWNED MUT_MOVE_KEEP_PRED"
fl_mutants="MUT_FL_FRONT_NO_RECHECK MUT_FL_REMOVE_NO_RECHECK MUT_FL_PUT_NO_TAIL_CHECK"
wait_mutants="MUT_NO_COUNT MUT_NO_IDLE_GRANT MUT_RESTAMP"
q_mutants="MUT_Q_NO_SERVE MUT_Q_STALE_LINK MUT_Q_EARLY_UNLOCK MUT_Q_SERVE_NO_LOCK"
scens=
fl_scens=
if [ "${CASLIST_MODEL_EACH:-0}" = 1 ]; then
	scens="1 2 3 4 5 6 7 8 9 10 11 12 13 14"
	fl_scens="1 2 3 4"
fi
n=7
for m in $mutants $fl_mutants $wait_mutants $q_mutants $scens $fl_scens; do n=$((n + 1)); done
tap_plan $n
skip=
command -v "$spin" >/dev/null 2>&1 || skip="spin not found"
# The models do not use the build: run them once, in the plain build.
case ${CASLIST_SANITIZER:-none} in
none) ;;
*) skip="the model runs in the build without a sanitizer" ;;
esac
if [ -n "$skip" ]; then
	i=0
	while [ $i -lt $n ]; do i=$((i + 1)); tap_skip "$skip"; done
	tap_done
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/caslist-model.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$here/list.pml" "$here/freelist.pml" "$here/wait.pml" "$here/combine.pml" "$tmp/" || exit 1
cd "$tmp" || exit 1

# verify MODEL DEFINES...: sets $out (pan's output), $errors (-1: did not
# run), $states and $first (the first error line)
verify() {
	model=$1
	shift
	errors=-1
	out=$("$spin" "$@" -a "$model" 2>&1) || { out="spin -a failed: $out"; return; }
	out=$("$cc" -O0 -w -DSAFETY -o pan pan.c 2>&1) || { out="cc failed: $out"; return; }
	# -m: depth limit (the deepest run is < 400 steps); timeout: bounded for CI
	out=$(timeout 120 ./pan -m10000 2>&1)
	errors=$(printf '%s\n' "$out" | sed -n 's/.*errors: \([0-9]*\).*/\1/p' | head -n 1)
	[ -n "$errors" ] || errors=-1
	if printf '%s\n' "$out" | grep -q 'max search depth too small'; then
		errors=-1
	fi
	states=$(printf '%s\n' "$out" | sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' | head -n 1)
	first=$(printf '%s\n' "$out" | grep -m1 '^pan:1:')
	rm -f "$model.trail"
}

# clean MODEL TEXT DEFINES...: the model must pass
clean() {
	m=$1
	t=$2
	shift 2
	verify "$m" "$@"
	if [ "$errors" = 0 ]; then
		tap_ok "$t: errors 0, $states states stored"
		echo "| $t | errors 0, $states states stored |" >>"$tmp/figures"
	else
		tap_notok "$t: errors $errors" "$(printf '%s\n' "$out" | head -n 30)"
	fi
}

# caught MODEL MUTANT: the mutant must fail
caught() {
	verify "$1" -D"$2"
	if [ "$errors" -gt 0 ] 2>/dev/null; then
		tap_ok "$1: mutant $2 caught: $first"
		echo "| $1 | mutant $2 caught: $first |" >>"$tmp/figures"
	else
		tap_notok "$1: mutant $2 not caught (errors $errors)" "$(printf '%s\n' "$out" | head -n 30)"
	fi
}

clean list.pml "list.pml, all 14 scenarios (2 lists), 3 processes"
clean freelist.pml "freelist.pml, all 4 scenarios, 3 processes"
clean wait.pml "wait.pml, the head's hand-over, 2 threads, streak 1, 5 operations each"
clean wait.pml "wait.pml, the head's hand-over, 3 threads, streak 1, 2, 2 and 1 operations" -DN=3 -DOPS=2 -DOPS3=1
clean combine.pml "combine.pml, moves queued at a busy head, 2 publishers, a holder of 2 inserts"
clean combine.pml "combine.pml, moves queued at a busy head, 3 publishers, a holder of 2 inserts" -DNPUB=3
for m in $mutants; do caught list.pml "$m"; done
for m in $fl_mutants; do caught freelist.pml "$m"; done
for m in $wait_mutants; do caught wait.pml "$m"; done
for m in $q_mutants; do caught combine.pml "$m"; done
for s in $scens; do clean list.pml "list.pml scenario $s" -DSCEN="$s"; done
for s in $fl_scens; do clean freelist.pml "freelist.pml scenario $s" -DSCEN="$s"; done
# Drift check: doc/verification-figures.md (tools/verification-figures) is
# the one home of these figures; every line this run produced must be in
# its spin table as it is, so a model change without a regenerated doc fails.
doc=$here/../../doc/verification-figures.md
touch "$tmp/figures"
stale=$(grep -vxF -f "$doc" "$tmp/figures")
[ -z "$stale" ]
tap_check $? "doc/verification-figures.md has this run's spin figures ($(wc -l <"$tmp/figures") lines)" \
	"not in the doc (run tools/verification-figures): $stale"
tap_done
