#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/adopt/installed.sh - what a user gets from `make install` works (TAP).
#   test/adopt/installed.sh              make check: `make install` into a scratch
#                                  DESTDIR, then the checks below on it
#   test/adopt/installed.sh --installed  make installcheck: the real prefix
# Checks: headers, libraries and pkg-config files are where the .pc says;
# the installed examples ($(docdir)/examples) build with their Makefile by
# each route (plain, inline, tsan against libcaslist-tsan, tsan-inline,
# asan: C and C++ programs) and run with zero sanitizer reports; ROUTE=tsan
# with the other compiler family stops in make; `man` finds
# caslist_move_head(3) and renders it, and CASLIST_ENOENT(3), an alias page
# (.so), renders CASLIST_OK(3); every page of doc/man is installed.
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
# Every man page, the alias pages (doc/man/man.mk) among them.
missing=
for f in "$SRCDIR"/doc/man/*.3; do
	[ -e "$root$mandir/man3/${f##*/}" ] || missing="$missing ${f##*/}"
done
tap_check "$(test -z "$missing"; echo $?)" \
	"every page of doc/man is installed ($(ls "$SRCDIR"/doc/man/*.3 | wc -l))$missing"

# The installed examples, built as a user would, from a copy of docdir, by
# each route of Makefile.example (doc/testing.md: plain, inline, tsan, tsan-inline,
# asan).
build_examples() { # $1 = ROUTE, $2 = dir, [make args]
	route=$1 dir=$2
	shift 2
	cp -R "$root$docdir/examples" "$dir" && chmod -R u+w "$dir" &&
	# without a C++ compiler for the host (configure's C++ check) the C++
	# example is left out, and reported not built
	if [ "$HAVE_CXX" = yes ]; then set -- "$@"; else set -- "$@" CXX_PROGS=; fi
	make -C "$dir" -f Makefile.example ROUTE="$route" "$@" >"$dir.log" 2>&1
}
run_examples() { # $1 = dir, $2 = label
	for x in "$1"/*.c "$1"/*.cc; do
		[ -e "$x" ] || continue
		prog=${x%.*}
		name=${prog##*/}
		if [ ! -x "$prog" ]; then
			tap_skip "$2 $name: not built by this route (a dependency missing, or TSan and no annotations: Makefile.example, $1.log)"
			continue
		fi
		# README's example frees through liburcu without the TSan
		# annotations (README stays plain C): under TSan every free after
		# a grace period is a report (lru_touch runs the pattern annotated)
		if [ -n "$PROG_STATIC" ]; then
			tap_skip "$2 $name: the static-only route (qemu-i386) runs no program linked with the installed shared library"
			continue
		fi
		case "$SAN_FLAGS:$name" in
		*thread*:readme_example)
			tap_skip "$2 $name: TSan build, liburcu's grace periods are invisible to TSan (lru_touch runs the pattern annotated)"
			continue
			;;
		esac
		$CASLIST_RUN "$prog" >"$tmp/run.log" 2>&1
		rc=$?
		reports=$(grep -c -e 'WARNING: ThreadSanitizer' -e 'ERROR: AddressSanitizer' \
			-e 'runtime error:' "$tmp/run.log")
		grep -v '^ok' "$tmp/run.log" | head -5 | sed 's/^/# /'
		tap_check "$(test "$rc" -eq 0 && test "$reports" -eq 0; echo $?)" \
			"$2 $name runs: exit $rc, $reports sanitizer reports"
	done
}
# route ROUTE LABEL DIR [make args]: build the examples by ROUTE and run them
route() {
	r=$1 label=$2 dir=$3
	shift 3
	build_examples "$r" "$dir" "$@"
	rc=$?
	sed 's/^/# /' "$dir.log" | grep -v '^# make' | head -12
	tap_check $rc "ROUTE=$r: the installed examples build with Makefile.example ($label)"
	[ $rc -eq 0 ] && run_examples "$dir" "[ROUTE=$r]"
}
TSAN_OPTIONS='halt_on_error=1 exitcode=66'
ASAN_OPTIONS='halt_on_error=1 detect_leaks=1'
export TSAN_OPTIONS ASAN_OPTIONS
# The examples link the library as installed; in a sanitizer build of the
# project that library is instrumented, so the programs must be too.
route plain "pkg-config libcaslist" "$tmp/ex" CC="$CC" CXX="$CXX" EXTRA_FLAGS="$SAN_FLAGS"
route inline "-DCASLIST_INLINE, plain libcaslist" "$tmp/ex-inline" CC="$CC" CXX="$CXX" \
	EXTRA_FLAGS="$SAN_FLAGS"

if [ -e "$root$libdir/pkgconfig/libcaslist-tsan.pc" ]; then
	# with the variant's compiler family (TSAN_CC: a name the Makefile's
	# default, clang or gcc, may not be on this machine)
	route tsan "libcaslist-tsan, $TSAN_CC" "$tmp/ex-tsan" CC="${TSAN_CC:-$CC}" \
		CXX="${TSAN_CXX:-$CXX}"
	# the other family is refused by make, before any compiler runs
	fam=$($PKG_CONFIG --variable=tsan_cc_family libcaslist-tsan)
	if [ "$fam" = clang ]; then other=gcc; else other=clang; fi
	mkdir "$tmp/ex-tsan-other"
	make -n -C "$tmp/ex-tsan-other" -f "$root$docdir/examples/Makefile.example" ROUTE=tsan \
		CC=$other >"$tmp/other.log" 2>&1
	rc=$?
	grep -m1 'ROUTE=tsan' "$tmp/other.log" | sed 's/^/# /'
	tap_check "$(test $rc -ne 0 && grep -q "built with $fam's ThreadSanitizer, CC=$other" "$tmp/other.log"; echo $?)" \
		"ROUTE=tsan CC=$other: make stops, naming the variant's family ($fam)"
else
	tap_skip "ROUTE=tsan: libcaslist-tsan not installed (this build: TSAN_VARIANT=${TSAN_VARIANT:-no})"
	tap_skip "ROUTE=tsan with the other family: libcaslist-tsan not installed"
fi

# tsan-inline: needs the plain (uninstrumented) library
if [ -n "$CASLIST_RUN" ]; then
	tap_skip "ROUTE=tsan-inline: a cross build (ThreadSanitizer does not run under qemu-user)"
elif [ "${TSAN_HOST:-no}" != yes ]; then
	tap_skip "ROUTE=tsan-inline: no ThreadSanitizer compiler for this host and C library ($TSAN_CC)"
elif [ "$SANITIZER" = none ]; then
	route tsan-inline "-fsanitize=thread -DCASLIST_INLINE, plain libcaslist" "$tmp/ex-tinline" \
		CC="${TSAN_CC:-$CC}" CXX="${TSAN_CXX:-$CXX}" CFLAGS="-O1 -g" CXXFLAGS="-O1 -g"
else
	tap_skip "ROUTE=tsan-inline: the library is built with $SANITIZER here"
fi
# asan: the plain library, or the project's own ASan build
echo 'int main(void) { return 0; }' >"$tmp/t.c"
if [ -n "$CASLIST_RUN" ]; then
	tap_skip "ROUTE=asan: a cross build (AddressSanitizer does not run under qemu-user)"
else
	case $SANITIZER in
	*thread*) tap_skip "ROUTE=asan: the library is built with TSan here" ;;
	*)
		# built and run: musl-gcc links glibc's libasan, which cannot run
		if $CC -fsanitize=address "$tmp/t.c" -o "$tmp/t" >/dev/null 2>&1 && "$tmp/t"; then
			route asan "-fsanitize=address -DCASLIST_INLINE" "$tmp/ex-asan" CC="$CC" \
				CXX="$CXX" CFLAGS="-O1 -g" CXXFLAGS="-O1 -g" EXTRA_FLAGS="$SAN_FLAGS"
		else
			tap_skip "ROUTE=asan: $CC cannot build and run a -fsanitize=address program"
		fi ;;
	esac
fi

if command -v man >/dev/null 2>&1; then
	MANPAGER=cat LC_ALL=C MANWIDTH=80 man -M "$root$mandir" -P cat caslist_move_head \
		>"$tmp/man.txt" 2>"$tmp/man.err"
	rc=$?
	head -3 "$tmp/man.err" | sed 's/^/# /'
	tap_check "$(test "$rc" -eq 0 && grep -q 'caslist_move_head' "$tmp/man.txt"; echo $?)" \
		"man caslist_move_head renders ($(wc -l <"$tmp/man.txt") lines)"
	# an alias page: ".so man3/CASLIST_OK.3", found from the installed tree
	MANPAGER=cat LC_ALL=C MANWIDTH=80 man -M "$root$mandir" -P cat CASLIST_ENOENT \
		>"$tmp/man.txt" 2>"$tmp/man.err"
	rc=$?
	head -3 "$tmp/man.err" | sed 's/^/# /'
	tap_check "$(test "$rc" -eq 0 && test ! -s "$tmp/man.err" &&
		head -1 "$tmp/man.txt" | grep -q '^CASLIST_OK(3)'; echo $?)" \
		"man CASLIST_ENOENT renders CASLIST_OK(3) (an alias page)"
else
	tap_skip "man not installed (Debian: man-db)"
	tap_skip "man not installed (Debian: man-db)"
fi
tap_done
