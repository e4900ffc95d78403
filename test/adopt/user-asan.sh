#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/adopt/user-asan.sh - a user's AddressSanitizer build (TAP): the
# route doc/testing.md gives, -fsanitize=address -DCASLIST_INLINE against the plain
# library, sees inside the list operations.  test/adopt/user_asan.c:
#   clean        a correct program runs with no report (caslist_check too);
#   pop-freed    a node freed while linked, then popped: ASan reports a
#                heap-use-after-free (the test expects the failure);
#   check-freed  the same node reached by caslist_check: reported too.
# Control, in a build without a sanitizer: the same pop-freed program
# without CASLIST_INLINE (the calls go into the uninstrumented library)
# gets no ASan report (it returns, or waits on the freed node's word with
# the stuck-link line), which is why the route exists.
# Skips with the reason where $CC cannot build with -fsanitize=address, or
# the library is built with TSan (one runtime a process).
set -u
. "$(dirname "$0")/prologue.sh"
tap_native_only "AddressSanitizer's shadow memory does not run under qemu-user"
scratch uasan
src=$SRCDIR/test/adopt/user_asan.c
case $SANITIZER in *thread*)
	echo "1..0 # SKIP the library is built with ThreadSanitizer here: no ASan program can link it"
	exit 0 ;;
esac
echo 'int main(void) { return 0; }' >"$tmp/t.c"
if ! $CC -fsanitize=address "$tmp/t.c" -o "$tmp/t" >"$tmp/t.log" 2>&1; then
	sed 's/^/# /' "$tmp/t.log" | tail -2
	echo "1..0 # SKIP $CC cannot build with -fsanitize=address (Debian: libasan for gcc, libclang-rt-dev for clang)"
	exit 0
fi
# built is not enough: musl-gcc links glibc's libasan, and an i686 build
# on x86-64 finds no 32-bit libasan at run time
if ! "$tmp/t" >"$tmp/t.log" 2>&1; then
	sed 's/^/# /' "$tmp/t.log" | tail -2
	echo "1..0 # SKIP an empty -fsanitize=address program by $CC does not run here (no ASan runtime for this host or C library)"
	exit 0
fi
ASAN_OPTIONS='halt_on_error=1 detect_leaks=0 exitcode=23'
export ASAN_OPTIONS

# build NAME FLAGS...: the program, as a user links it (libtool runs the link
# against the build tree's library the way -lcaslist would)
build() {
	name=$1
	shift
	$LIBTOOL --mode=link --quiet $CC -std=c11 -O1 -g -fsanitize=address $SAN_FLAGS "$@" \
		-I"$SRCDIR/include" -I"$b/include" $PTHREAD_CFLAGS "$src" \
		"$b/lib/libcaslist.la" -o "$tmp/$name" >"$tmp/$name.log" 2>&1
	rc=$?
	sed 's/^/# /' "$tmp/$name.log" | tail -3
	tap_check $rc "build: $CC -fsanitize=address $* (user_asan.c) against libcaslist"
}
# run PROG MODE: its exit status in $rc, its output in $tmp/run.log
run() {
	"$tmp/$1" "$2" >"$tmp/run.log" 2>&1
	rc=$?
}
build inline -DCASLIST_INLINE
run inline clean
grep -v 'clean: ok' "$tmp/run.log" | head -5 | sed 's/^/# /'
tap_check "$(test $rc -eq 0 && ! grep -q 'ERROR: AddressSanitizer' "$tmp/run.log"; echo $?)" \
	"inline route, a correct program (touch, move, batch, del, caslist_check): exit $rc, no report"
for m in pop-freed check-freed; do
	run inline $m
	grep -m1 'ERROR: AddressSanitizer' "$tmp/run.log" | sed 's/^/# /'
	tap_check "$(test $rc -eq 23 && grep -q 'ERROR: AddressSanitizer: heap-use-after-free' "$tmp/run.log"; echo $?)" \
		"inline route, $m: ASan reports heap-use-after-free (exit $rc, want 23)"
done
if [ "$SANITIZER" = none ]; then
	build plain
	# the pop may wait for ever on the freed node's word (ASan keeps its
	# own data in freed memory): a short stuck line, then the timeout
	CASLIST_STUCK_MS=200 timeout 10 "$tmp/plain" pop-freed >"$tmp/run.log" 2>&1
	rc=$?
	head -c 300 "$tmp/run.log" | sed 's/^/# /'
	echo
	tap_check "$(! grep -q 'ERROR: AddressSanitizer' "$tmp/run.log"; echo $?)" \
		"control: without CASLIST_INLINE the plain library's use of the freed node goes unreported (exit $rc)"
else
	tap_skip "control: the library itself is built with $SANITIZER here"
fi
tap_done
