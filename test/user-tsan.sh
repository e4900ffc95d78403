#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/user-tsan.sh - a user's own TSan build is clean (TAP).
# test/user_tsan (a correct producer/consumer hand-off through a list) is
# built with -fsanitize=thread against libcaslist-tsan, the instrumented
# variant installed beside the plain library (or, in a TSan build of the
# project, against the library itself): it must run with zero reports.
# Positive control: the same program against the plain, uninstrumented
# library must be reported (TSan cannot see the library's atomics, so the
# hand-off of the payload looks like a race).  That is deterministic: every
# message's payload is written by one thread and read by the other with no
# synchronisation TSan can see, so the first message read is a report.
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

"$b/test/user_tsan" 2000 >"$log" 2>&1
rc=$?
reports=$(grep -c 'WARNING: ThreadSanitizer' "$log")
sed 's/^/# /' "$log" | head -20
tap_check "$(test "$rc" -eq 0 && test "$reports" -eq 0; echo $?)" \
	"user program (-fsanitize=thread) against $USER_TSAN_LIB: exit $rc, $reports TSan reports"

if [ "$TSAN_VARIANT" = yes ]; then
	"$b/test/user_tsan_inline" 2000 >"$log" 2>&1
	rc=$?
	reports=$(grep -c 'WARNING: ThreadSanitizer' "$log")
	sed 's/^/# /' "$log" | head -20
	tap_check "$(test "$rc" -eq 0 && test "$reports" -eq 0; echo $?)" \
		"user program with CASLIST_INLINE against the plain libcaslist: exit $rc, $reports TSan reports"
	"$b/test/user_tsan_plain" 2000 >"$log" 2>&1
	rc=$?
	reports=$(grep -c 'WARNING: ThreadSanitizer: data race' "$log")
	grep -m1 -A3 'WARNING: ThreadSanitizer' "$log" | sed 's/^/# /'
	tap_check "$(test "$rc" -eq 66 && test "$reports" -ge 1; echo $?)" \
		"control: the same program against the plain libcaslist is reported (exit $rc, want 66)"
else
	tap_skip "inline mode: the library itself is built with TSan here"
	tap_skip "control: the library itself is built with TSan here"
fi
tap_done
