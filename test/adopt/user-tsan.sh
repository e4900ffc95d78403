#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/adopt/user-tsan.sh - a user's own TSan build is clean (TAP).
# test/adopt/user_tsan (a correct producer/consumer hand-off through a list) is
# built with -fsanitize=thread against libcaslist-tsan, the instrumented
# variant installed beside the plain library (or, in a TSan build of the
# project, against the library itself): it must run with zero reports.
# Positive control: the same program against the plain, uninstrumented
# library must be reported (TSan cannot see the library's atomics, so the
# hand-off of the payload looks like a race).  That is deterministic: every
# message's payload is written by one thread and read by the other with no
# synchronisation TSan can see, so the first message read is a report.
#
# Compiler families: libcaslist-tsan is built by TSAN_CC (clang where it can)
# and a process can hold one TSan runtime only.  test/adopt/user_tsan is built by
# TSAN_CC (the match); the same source built by the other family (gcc for a
# clang-built variant, clang for a gcc-built one) must stop at start-up
# with exit 1 and the one line of lib/tsan_family.c, not crash; a link that
# requires the other family's marker symbol (as that family's .pc would)
# must fail.  Each skips where the other compiler is missing.
set -u
. "${CASLIST_BUILDDIR:-.}/test/adopt-env.sh"
b=$CASLIST_BUILDDIR
. "$SRCDIR/test/tap.sh"
if [ "$USER_TSAN" != yes ]; then
	echo "1..0 # SKIP no TSan variant in this build (sanitizer: $SANITIZER, --enable-tsan-variant=no, or no -fsanitize=thread)"
	exit 0
fi
TSAN_OPTIONS='halt_on_error=1 exitcode=66 history_size=4'
export TSAN_OPTIONS
log=$(mktemp "${TMPDIR:-/tmp}/caslist-utsan.XXXXXX") || exit 99
trap 'rm -f "$log"' EXIT

# clean LINES TEXT PROG ARGS...: PROG must exit 0 with no TSan report; the
# first LINES of its output go to the TAP stream as comments.
clean() {
	lines=$1 text=$2
	shift 2
	"$@" >"$log" 2>&1
	rc=$?
	reports=$(grep -c 'WARNING: ThreadSanitizer' "$log")
	sed 's/^/# /' "$log" | head -n "$lines"
	tap_check "$(test "$rc" -eq 0 && test "$reports" -eq 0; echo $?)" \
		"$text: exit $rc, $reports TSan reports"
}

clean 20 "user program (-fsanitize=thread) against $USER_TSAN_LIB" "$b/test/adopt/user_tsan" 2000

if [ "$TSAN_VARIANT" = yes ]; then
	clean 20 "user program with CASLIST_INLINE against the plain libcaslist" \
		"$b/test/adopt/user_tsan_inline" 2000
	"$b/test/adopt/user_tsan_plain" 2000 >"$log" 2>&1
	rc=$?
	reports=$(grep -c 'WARNING: ThreadSanitizer: data race' "$log")
	grep -m1 -A3 'WARNING: ThreadSanitizer' "$log" | sed 's/^/# /'
	tap_check "$(test "$rc" -eq 66 && test "$reports" -ge 1; echo $?)" \
		"control: the same program against the plain libcaslist is reported (exit $rc, want 66)"
	# the hand-off through a batch and through the free list, inline (C),
	# each with its control against the plain library
	for m in batch fl; do
		clean 12 "$m hand-off, CASLIST_INLINE against the plain libcaslist" \
			"$b/test/adopt/user_tsan_inline" 2000 $m
		"$b/test/adopt/user_tsan_plain" 2000 $m >"$log" 2>&1
		rc=$?
		tap_check "$(test "$rc" -eq 66; echo $?)" \
			"control: the $m hand-off against the plain libcaslist is reported (exit $rc, want 66)"
	done
	# the same program as C++ in inline mode (TSAN_CXX: the variant's family)
	cxxout=$(mktemp -d "${TMPDIR:-/tmp}/caslist-ucxx.XXXXXX") || exit 99
	if [ "$HAVE_CXX" = yes ] && command -v "$TSAN_CXX" >/dev/null 2>&1 &&
		"$TSAN_CXX" -std=c++17 -g -O1 -fsanitize=thread -DCASLIST_INLINE -I"$SRCDIR/include" \
			-I"$b/include" -I"$b/impl" -x c++ "$SRCDIR/test/adopt/user_tsan.c" -x none \
			"$b/lib/.libs/libcaslist.a" $PTHREAD_CFLAGS -o "$cxxout/u" >"$cxxout/log" 2>&1; then
		for m in list batch fl; do
			clean 12 "C++ ($TSAN_CXX), CASLIST_INLINE, $m hand-off" "$cxxout/u" 2000 $m
		done
	else
		sed 's/^/# /' "$cxxout/log" 2>/dev/null | head -5
		tap_skip "C++ inline mode: no $TSAN_CXX that builds with -fsanitize=thread"
	fi
	rm -rf "$cxxout"
else
	tap_skip "inline mode: the library itself is built with TSan here"
	tap_skip "control: the library itself is built with TSan here"
fi

# ---- compiler families ----
fam=$CC_FAMILY
if [ "$TSAN_VARIANT" != yes ]; then
	for t in marker mismatch-run mismatch-link; do
		tap_skip "family $t: the library itself is built with TSan here ($CC)"
	done
	tap_done
fi
lib=$b/lib/.libs/libcaslist-tsan.so
[ -f "$lib" ] || lib=$b/lib/.libs/libcaslist-tsan.a
$NM -g --defined-only "$lib" 2>/dev/null | grep -q " caslist_tsan_cc_$fam\$"
tap_check $? "libcaslist-tsan (built by $TSAN_CC) defines its family marker caslist_tsan_cc_$fam"

if [ "$fam" = clang ]; then other=gcc; else other=clang; fi
occ=
for c in $other $(command -v "$other-14" "$other-12" 2>/dev/null); do
	command -v "$c" >/dev/null 2>&1 || continue
	if [ "$other" = clang ]; then
		"$c" --version 2>/dev/null | grep -qi clang || continue
	else
		"$c" --version 2>/dev/null | grep -qi clang && continue
	fi
	occ=$c
	break
done
src=$SRCDIR/test/adopt/user_tsan.c
out=$(mktemp -d "${TMPDIR:-/tmp}/caslist-ufam.XXXXXX") || exit 99
trap 'rm -f "$log"; rm -rf "$out"' EXIT
if [ -n "$occ" ] && "$occ" -fsanitize=thread -g -I"$SRCDIR/include" -I"$b/include" "$src" \
	-L"${lib%/*}" -l:"${lib##*/}" -Wl,-rpath,"${lib%/*}" $PTHREAD_CFLAGS -lpthread \
	-o "$out/other" >"$out/cc.log" 2>&1; then
	"$out/other" 200 >"$log" 2>&1
	rc=$?
	sed 's/^/# /' "$log" | head -5
	want="libcaslist-tsan: built with $fam's ThreadSanitizer, but this program runs $other's ("
	lines=$(wc -l <"$log")
	first=$(head -n 1 "$log")
	case $first in "$want"*"): build it with $fam -fsanitize=thread") ok=0 ;; *) ok=1 ;; esac
	tap_check "$(test "$rc" -eq 1 && test "$lines" -eq 1 && test $ok -eq 0; echo $?)" \
		"mismatch: a $other -fsanitize=thread program ($occ) against the $fam-built variant stops with exit 1 (got $rc) and one line ($lines lines)"
	"$occ" -fsanitize=thread -I"$SRCDIR/include" -I"$b/include" "$src" -L"${lib%/*}" \
		-l:"${lib##*/}" -Wl,--require-defined="caslist_tsan_cc_$other" $PTHREAD_CFLAGS -lpthread \
		-o "$out/other2" >"$out/ld.log" 2>&1
	rc=$?
	grep -m1 "caslist_tsan_cc_$other" "$out/ld.log" | sed 's/^/# /'
	tap_check "$(test "$rc" -ne 0 && grep -q "caslist_tsan_cc_$other" "$out/ld.log"; echo $?)" \
		"mismatch at link time: -Wl,--require-defined=caslist_tsan_cc_$other (the $other variant's .pc) fails"
elif [ -n "$occ" ]; then
	sed 's/^/# /' "$out/cc.log" | tail -3
	tap_skip "mismatch: $occ cannot build with -fsanitize=thread"
	tap_skip "mismatch at link time: $occ cannot build with -fsanitize=thread"
else
	tap_skip "mismatch: no $other compiler installed"
	tap_skip "mismatch at link time: no $other compiler installed"
fi
tap_done
