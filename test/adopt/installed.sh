#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/adopt/installed.sh - what a user gets from `make install` works (TAP).
#   test/adopt/installed.sh              make check: `make install` into a scratch
#                                  DESTDIR, then the checks below on it
#   test/adopt/installed.sh --installed  make installcheck: the real prefix
# Checks: headers, libraries and pkg-config files are where the .pc says;
# the installed examples ($(docdir)/examples) build with their Makefile,
# which uses `pkg-config --cflags --libs libcaslist` (C and C++ programs),
# and run; with libcaslist-tsan installed, the same examples built with
# -fsanitize=thread against it run with zero TSan reports; `man` finds
# caslist_move_head(3) and renders it.
set -u
. "$(dirname "$0")/prologue.sh"
scratch inst

if [ "${1:-}" = --installed ]; then
	root=${DESTDIR:-}
	what="installed prefix $prefix"
else
	root=$tmp/root
	what="make install DESTDIR=<scratch>"
	$MAKE -C "$CASLIST_BUILDDIR" install DESTDIR="$root" >"$tmp/install.log" 2>&1
	rc=$?
	tail -5 "$tmp/install.log" | sed 's/^/# /'
	tap_check $rc "make install DESTDIR=<scratch>"
	[ $rc -eq 0 ] || tap_done
fi
echo "# $what"

# The installed .pc files first; the system's for liburcu (a sysroot only
# prefixes paths that are not the system's own, which the compiler searches
# anyway).
PKG_CONFIG_PATH=$root$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export PKG_CONFIG_PATH
if [ -n "$root" ]; then PKG_CONFIG_SYSROOT_DIR=$root; export PKG_CONFIG_SYSROOT_DIR; fi
LD_LIBRARY_PATH=$root$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH

flags=$($PKG_CONFIG --cflags --libs libcaslist)
tap_check $? "pkg-config --cflags --libs libcaslist: $flags"
missing=
for f in "$includedir"/caslist/caslist.h "$includedir"/caslist/list.h \
	 "$includedir"/caslist/freelist.h "$includedir"/caslist/export.h \
	 "$includedir"/caslist/version.h "$libdir"/libcaslist.so \
	 "$mandir"/man3/caslist.3 "$mandir"/man3/caslist_move_head.3 \
	 "$docdir"/README.md "$docdir"/doc/protocol.md "$docdir"/examples/Makefile.example; do
	[ -e "$root$f" ] || missing="$missing $f"
done
tap_check "$(test -z "$missing"; echo $?)" "headers, library, man pages, docs installed$missing"
# Every doc page and example of the source tree is installed (doc/doc.mk
# lists them: a new one must be added there).
missing=
for f in "$SRCDIR"/doc/*.md "$SRCDIR"/doc/examples/*.c "$SRCDIR"/doc/examples/*.cc \
	"$SRCDIR"/doc/examples/*.h; do
	[ -e "$f" ] || continue
	case $f in */examples/*) dest=$docdir/examples/${f##*/} ;; *) dest=$docdir/doc/${f##*/} ;; esac
	[ -e "$root$dest" ] || missing="$missing ${f#"$SRCDIR"/}"
done
tap_check "$(test -z "$missing"; echo $?)" "every doc/*.md and doc/examples source is installed$missing"

# The installed examples, built as a user would, from a copy of docdir.
build_examples() { # $1 = pkg-config module, $2 = extra flags, $3 = dir, [make args]
	pc=$1 fl=$2 dir=$3
	shift 3
	cp -R "$root$docdir/examples" "$dir" && chmod -R u+w "$dir" &&
	make -C "$dir" -f Makefile.example CASLIST_PC="$pc" CC="$CC" CXX="$CXX" \
		EXTRA_FLAGS="$fl" "$@" >"$dir.log" 2>&1
}
run_examples() { # $1 = dir, $2 = label, [$3 = which sources: default *.c and *.cc]
	for x in "$1"/${3:-*.c} "$1"/${3:+none}*.cc; do
		[ -e "$x" ] || continue
		prog=${x%.*}
		name=${prog##*/}
		if [ ! -x "$prog" ]; then
			tap_skip "$2 $name: not built (dependency missing: see $1.log)"
			continue
		fi
		"$prog" >"$tmp/run.log" 2>&1
		rc=$?
		reports=$(grep -c 'WARNING: ThreadSanitizer' "$tmp/run.log")
		grep -v '^ok' "$tmp/run.log" | head -5 | sed 's/^/# /'
		tap_check "$(test "$rc" -eq 0 && test "$reports" -eq 0; echo $?)" \
			"$2 $name runs: exit $rc, $reports TSan reports"
	done
}
# The examples link the library as installed; in a sanitizer build of the
# project that library is instrumented, so the programs must be too.
build_examples libcaslist "$SAN_FLAGS" "$tmp/ex"
rc=$?
sed 's/^/# /' "$tmp/ex.log" | grep -v '^# make' | head -12
tap_check $rc "installed examples build with Makefile.example (pkg-config libcaslist)"
TSAN_OPTIONS='halt_on_error=1 exitcode=66'
export TSAN_OPTIONS
run_examples "$tmp/ex" "[libcaslist]"

if [ -e "$root$libdir/pkgconfig/libcaslist-tsan.pc" ]; then
	# with the variant's compiler family (TSAN_CC): the other one's TSan
	# runtime stops the program at start-up (lib/tsan_family.c)
	save_cc=$CC save_cxx=$CXX
	CC=${TSAN_CC:-$CC} CXX=${TSAN_CXX:-$CXX}
	build_examples libcaslist-tsan "" "$tmp/ex-tsan"
	rc=$?
	CC=$save_cc CXX=$save_cxx
	sed 's/^/# /' "$tmp/ex-tsan.log" | grep -v '^# make' | head -12
	tap_check $rc "installed examples build against libcaslist-tsan ($($PKG_CONFIG --cflags --libs libcaslist-tsan))"
	run_examples "$tmp/ex-tsan" "[user TSan build, libcaslist-tsan]"
else
	tap_skip "libcaslist-tsan not installed (this build: TSAN_VARIANT=${TSAN_VARIANT:-no})"
fi

# The other route for a user's TSan build: CASLIST_INLINE compiles the list
# operations into the program (the installed <caslist/static/*.h>), against the
# plain library, in C and in C++; needs the plain (uninstrumented) library.
if [ "$SANITIZER" = none ] && [ -e "$root$includedir/caslist/static/list_ops.h" ]; then
	build_examples libcaslist "" "$tmp/ex-inline" \
		CFLAGS="-O1 -g -fsanitize=thread -DCASLIST_INLINE" \
		CXXFLAGS="-O1 -g -fsanitize=thread -DCASLIST_INLINE" all
	rc=$?
	sed 's/^/# /' "$tmp/ex-inline.log" | grep -v '^# make' | head -8
	tap_check $rc "installed C and C++ examples build with -fsanitize=thread -DCASLIST_INLINE against the plain libcaslist"
	run_examples "$tmp/ex-inline" "[user TSan build, CASLIST_INLINE, plain libcaslist]"
else
	tap_skip "inline mode: a sanitizer build, or <caslist/static/list_ops.h> not installed"
fi

if command -v man >/dev/null 2>&1; then
	MANPAGER=cat LC_ALL=C MANWIDTH=80 man -M "$root$mandir" -P cat caslist_move_head \
		>"$tmp/man.txt" 2>"$tmp/man.err"
	rc=$?
	head -3 "$tmp/man.err" | sed 's/^/# /'
	tap_check "$(test "$rc" -eq 0 && grep -q 'caslist_move_head' "$tmp/man.txt"; echo $?)" \
		"man caslist_move_head renders ($(wc -l <"$tmp/man.txt") lines)"
else
	tap_skip "man not installed (Debian: man-db)"
fi
tap_done
