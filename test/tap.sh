# SPDX-License-Identifier: BSD-2-Clause
# test/tap.sh - TAP output for the shell tests; source it, do not run it:
#     . "$(dirname "$0")/tap.sh"                (scripts in test/)
#     . "$(dirname "$0")/../../test/tap.sh"     (examples/*/)
#
#   tap_plan N            print the plan first (else tap_done prints it last)
#   tap_ok TEXT           "ok N - TEXT"
#   tap_notok TEXT [OUT]  "not ok N - TEXT", then the last 40 lines of OUT as
#                         "# " comments (the failing command's output)
#   tap_skip TEXT         "ok N # SKIP TEXT"
#   tap_todo TEXT WHY [OUT]  "not ok N - TEXT # TODO WHY" and OUT as in
#                         tap_notok: a known failure, not counted as failed
#                         (the automake driver's XFAIL); the test that
#                         decides comes after it (test/memcached.sh's re-run)
#   tap_check COND-STATUS TEXT [OUT]   tap_ok if the status is 0, else tap_notok
#   tap_note TEXT         "# TEXT" (several lines allowed)
#   tap_native_only WHY   in a cross build (CASLIST_RUN set), skip the
#                         whole script: "1..0 # SKIP cross build: WHY"
#   tap_source_once       a test of the sources alone (the spin models, the
#                         docs), whose outcome no build changes: with
#                         CASLIST_SOURCE_TESTS=0 skip the whole script
#                         (tools/test-all sets it after its gcc stage ran
#                         them, in the sanitizer stages and cross builds)
#   tap_plain_only WHY    a test of scripts (options, tables, packaging)
#                         whose logic no sanitizer changes: in a sanitizer
#                         build (CASLIST_SANITIZER set) skip the whole
#                         script; the plain build runs it
#   tap_done              the plan (unless given first), "# P passed, F failed"
#                         (", T known (TODO)" after a tap_todo),
#                         and the script's exit status: exit 0 only if nothing
#                         failed and as many tests ran as the plan said.
# The automake TAP driver reads both the lines and the exit status; a script
# that dies half way exits non-zero instead of passing on the lines so far.

# CASLIST_RUN: the command that runs a program of this build (empty
# natively; tools/qemu-run in a cross build, exported by make check).
# Scripts start every program they test as $CASLIST_RUN "$prog" ...
CASLIST_RUN=${CASLIST_RUN-}

tap_n=0
tap_failed=0
tap_todos=0
tap_planned=

tap_plan() {
	tap_planned=$1
	echo "1..$1"
}

tap_ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

tap_notok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	tap_diag "${2-}"
}

# tap_diag TEXT: TEXT's last 40 lines as TAP diagnostics (nothing if empty)
tap_diag() {
	if [ -n "$1" ]; then
		printf '%s\n' "$1" | tail -n 40 | sed 's/^/# /'
	fi
}

tap_skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

tap_todo() {
	tap_n=$((tap_n + 1))
	tap_todos=$((tap_todos + 1))
	echo "not ok $tap_n - $1 # TODO $2"
	tap_diag "${3-}"
}

tap_check() {
	if [ "$1" -eq 0 ]; then
		tap_ok "$2"
	else
		tap_notok "$2" "${3-}"
	fi
}

tap_note() {
	printf '%s\n' "$1" | sed 's/^/# /'
}

tap_native_only() {
	if [ -n "$CASLIST_RUN" ]; then
		echo "1..0 # SKIP cross build (programs run through $CASLIST_RUN): $1"
		exit 0
	fi
}

tap_source_once() {
	if [ "${CASLIST_SOURCE_TESTS:-1}" = 0 ]; then
		echo "1..0 # SKIP a test of the sources alone, run once per tools/test-all (CASLIST_SOURCE_TESTS=0)"
		exit 0
	fi
}

tap_plain_only() {
	case ${CASLIST_SANITIZER:-none} in
	none | '') ;;
	*)
		echo "1..0 # SKIP sanitizer build ($CASLIST_SANITIZER): $1"
		exit 0
		;;
	esac
}

# PROG_STATIC: what a script adds to the link of a program it builds and
# runs through $CASLIST_RUN: -static on configure's static-only route
# (RUN_STATIC=yes, qemu-i386: no program there runs through a loader).
# Needs adopt-env.sh sourced first.
PROG_STATIC=
[ "${RUN_STATIC:-}" != yes ] || PROG_STATIC=-static

tap_done() {
	tap_short=0
	if [ -z "$tap_planned" ]; then
		echo "1..$tap_n"
	elif [ "$tap_planned" -ne "$tap_n" ]; then
		echo "# planned $tap_planned tests, ran $tap_n"
		tap_short=1
	fi
	if [ "$tap_todos" -eq 0 ]; then
		echo "# $((tap_n - tap_failed)) passed, $tap_failed failed"
	else
		echo "# $((tap_n - tap_failed - tap_todos)) passed, $tap_failed failed, $tap_todos known (TODO)"
	fi
	[ "$tap_failed" -eq 0 ] && [ "$tap_short" -eq 0 ]
	exit $?
}
