#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/man.sh - the man pages (TAP):
#  - doc/man/ is what tools/gen-man makes from the headers now (a function
#    added or a comment changed without `make man` fails here);
#  - every CASLIST_API function has a page;
#  - every page renders without a warning: groff -ww -man, man -l --warnings
#    and mandoc -T lint -W warning, each where installed.
set -u
. "${CASLIST_BUILDDIR:-.}/test/adopt-env.sh"
. "$SRCDIR/test/tap.sh"
mandir=$SRCDIR/doc/man
tmp=$(mktemp -d "${TMPDIR:-/tmp}/caslist-man.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

if command -v python3 >/dev/null 2>&1; then
	python3 "$SRCDIR/tools/gen-man" --srcdir "$SRCDIR" --check "$mandir" >"$tmp/check" 2>&1
	rc=$?
	head -40 "$tmp/check"
	tap_check $rc "doc/man is up to date with the headers (else: make man)"
else
	tap_skip "python3 not installed: cannot regenerate the pages to compare"
fi

for h in "$SRCDIR"/include/caslist/*.h "$SRCDIR"/include/caslist/version.h.in; do
	case $h in */export.h) ;; *) cat "$h" ;; esac
done | tr '\n' ' ' | sed 's/CASLIST_API/\n&/g' |
	sed -n 's/^CASLIST_API[^(]*[ *]\([a-z_0-9]*\)(.*/\1/p' | sort -u >"$tmp/api"
missing=
for f in $(cat "$tmp/api"); do [ -f "$mandir/$f.3" ] || missing="$missing $f"; done
tap_check "$(test -z "$missing"; echo $?)" \
	"a page for each of the $(wc -l <"$tmp/api") public functions$missing"

pages=$(ls "$mandir"/*.3 | wc -l)
check_all() { # $1 = label; the command reads the page from "$p"
	label=$1
	shift
	bad=
	for p in "$mandir"/*.3; do
		"$@" "$p" >/dev/null 2>"$tmp/err"
		if [ $? -ne 0 ] || [ -s "$tmp/err" ]; then
			bad="$bad ${p##*/}"
			head -3 "$tmp/err" | sed "s|^|# ${p##*/}: |"
		fi
	done
	tap_check "$(test -z "$bad"; echo $?)" "$pages pages render without warnings: $label$bad"
}
if [ -n "$GROFF" ] || command -v groff >/dev/null 2>&1; then
	check_all "groff -ww -man -z" groff -ww -man -z
else
	tap_skip "groff not installed (Debian: groff-base)"
fi
if command -v man >/dev/null 2>&1; then
	man_l() { LC_ALL=C MANWIDTH=80 man --warnings -l -P cat "$1"; }
	check_all "man --warnings -l" man_l
else
	tap_skip "man not installed (Debian: man-db)"
fi
if command -v mandoc >/dev/null 2>&1; then
	check_all "mandoc -T lint -W warning" mandoc -T lint -W warning
else
	tap_skip "mandoc not installed (Debian: mandoc)"
fi
tap_done
