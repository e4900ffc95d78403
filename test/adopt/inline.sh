#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/adopt/inline.sh - the inline mode (CASLIST_INLINE) is a layer of its own
# (TAP): test/adopt/inline_names.c, a user file that defines every short name the
# layer used to leak, compiles with the inline headers of this build and
# runs, as ISO C11 and C17 with -pedantic -Wcast-qual -Werror (gcc and
# clang), with CASLIST_DEBUG against the release library (the debug
# reporters are exported), and as C++11, 14, 17 and 20 (g++ and clang++).
# In a sanitizer or cross build only the configured compilers run, with
# its flags.
set -u
. "$(dirname "$0")/prologue.sh"
scratch inline
inc="-I$SRCDIR/include -I$b/include"
lib="$b/lib/.libs/libcaslist.a"
src="$SRCDIR/test/adopt/inline_names.c"
case ${CC##*/} in gcc | clang | cc) plain_cc=yes ;; *) plain_cc=no ;; esac
if [ "$SANITIZER" = none ] && [ -z "$CASLIST_RUN" ] && [ "$plain_cc" = yes ]; then
	ccs="gcc clang"
	cxxs="g++ clang++"
else
	# a sanitizer build, or a build for another host or C library
	# (aarch64-linux-gnu-gcc, musl-gcc): the library is theirs
	ccs=$CC
	cxxs=$CXX
fi
# try NAME COMPILER FLAGS...: compile src and run it
try() {
	name=$1
	shift
	# shellcheck disable=SC2086
	if "$@" $SAN_FLAGS $inc -o "$tmp/t" "$src" -x none "$lib" $PTHREAD_CFLAGS $PROG_STATIC >"$tmp/log" 2>&1 &&
		$CASLIST_RUN "$tmp/t" >>"$tmp/log" 2>&1; then
		tap_ok "$name"
	else
		sed 's/^/# /' "$tmp/log" | head -12
		tap_notok "$name"
	fi
}
for cc in $ccs; do
	if ! command -v "$cc" >/dev/null 2>&1; then tap_skip "$cc not installed"; continue; fi
	for std in c11 c17; do
		try "inline mode, a file with the old short names: $cc -std=$std -pedantic -Wcast-qual -Werror" \
			"$cc" -std=$std -pedantic -Wall -Wextra -Wcast-qual -Werror -x c
	done
	try "inline mode with CASLIST_DEBUG against the release library: $cc" \
		"$cc" -std=c11 -Wall -Wextra -Werror -DCASLIST_DEBUG=1 -x c
done
for cxx in $cxxs; do
	if [ "$HAVE_CXX" != yes ] || ! command -v "$cxx" >/dev/null 2>&1; then
		tap_skip "$cxx: not installed, or configure found no C++ compiler for this host"
		continue
	fi
	for std in c++11 c++14 c++17 c++20; do
		try "inline mode in C++: $cxx -std=$std -pedantic -Wcast-qual -Werror" \
			"$cxx" -std=$std -pedantic -Wall -Wextra -Wcast-qual -Werror -x c++
	done
done
tap_done
