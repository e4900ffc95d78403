#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/memcached.sh - memcached's LRU on libcaslist, short (TAP; issue 33).
# Installs this build's libcaslist into a scratch DESTDIR, then through
# adopters/memcached/run: fetches Debian's memcached 1.6.18 source (apt-get
# source), applies adopters/memcached/memcached-lru-caslist.patch, builds
# the patched memcached against that install (pkg-config), and runs the
# memcached tests that drive the LRU: its lists, the maintainer's juggles,
# the crawler, evictions and slab page moves.  The full suite, stock
# against patched and under TSan and ASan, is adopters/memcached/run.
# Skips (1..0 # SKIP) when it cannot fetch: not root, no apt-get, no
# network.  Under make distcheck it runs too (it writes only in the build
# tree; tools/test-all's gcc stage is that distcheck).
# MC_CHECK_WORK: where the source and build are kept between runs, as a
# cache (default test/memcached-work in the build tree).
set -u
. "${CASLIST_BUILDDIR:-.}/test/adopt-env.sh"
. "$SRCDIR/test/tap.sh"

skip() { echo "1..0 # SKIP $1"; exit 0; }
tap_native_only "memcached and its test suite are built and run for the build machine"
# memcached is built by the system's compiler against its libevent: a
# library built for another C library (CC=musl-gcc) cannot join it
echo '#include <limits.h>' | $CC -dM -E -x c - 2>/dev/null | grep -q '__GLIBC__' ||
	skip "$CC does not build for glibc, the C library memcached and libevent are built for here"
[ "${OTHER_HOST:-no}" = no ] ||
	skip "configured --host=$HOST: memcached and libevent are the build machine's (whose programs run here)"
[ "$(id -u)" -eq 0 ] || skip "not root (apt-get source and memcached's build deps need root)"
command -v apt-get >/dev/null 2>&1 || skip "no apt-get (Debian needed to fetch memcached's source)"
case ${SANITIZER:-none} in
none|no) ;;
*) skip "sanitizer build ($SANITIZER): adopters/memcached/run covers TSan and ASan" ;;
esac

work=${MC_CHECK_WORK:-$CASLIST_BUILDDIR/test/memcached-work}
mkdir -p "$work" || exit 99
tmp=$(mktemp -d "${TMPDIR:-/tmp}/caslist-mc.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
run=$SRCDIR/adopters/memcached/run

# Fetching: packages (first time) and the source; a failure is a skip
# (no network or no archive), with apt's last line as the reason.
if ! MC_WORK=$work timeout 600 "$run" deps fetch >"$tmp/fetch.log" 2>&1; then
	skip "cannot fetch memcached's source: $(grep -v '^$' "$tmp/fetch.log" | tail -n 1)"
fi

tap_plan 11
# This build's libcaslist, installed where the memcached binary can keep
# finding it (its rpath); memcached is rebuilt every time (the inline
# parts of the headers may have changed).
root=$work/caslist-root
rm -rf "$root" "$work/patched-plain/.stamp"
$MAKE -C "$CASLIST_BUILDDIR" install DESTDIR="$root" >"$tmp/install.log" 2>&1
tap_check $? "make install DESTDIR=<scratch>" "$(cat "$tmp/install.log")"

MC_WORK=$work MC_VARIANTS=patched MC_BUILDS=plain MC_TARGETS="memcached-debug timedrun" \
	MC_CASLIST_PC="$root$libdir/pkgconfig" MC_CASLIST_SYSROOT="$root" \
	timeout 900 "$run" build >"$tmp/build.log" 2>&1
rc=$?
tap_check $rc "patched memcached builds against the installed libcaslist (pkg-config)" \
	"$(cat "$tmp/build.log" "$work"/patched-plain/make.out 2>/dev/null)"

# The LRU lists and moves, the crawler (its placeholder), evictions,
# expiry, flush_all, chunked items, extstore (its reads overwrite item
# headers), memory limit changes and stats (cachedump walks the list).
# Not here: t/lru-maintainer.t, t/slabs_reassign.t, t/slabs-reassign2.t,
# t/slabs-reassign-chunked.t, t/issue_22.t, t/issue_163.t - they name the
# slab class that an item of a given size lands in, which the patch's 16
# header bytes change; stock memcached with the same 16 bytes fails the
# same asserts (adopters/memcached/README.md).
for t in t/lru.t t/lru-crawler.t t/evictions.t t/expirations.t t/flush-all.t \
	 t/chunked-items.t t/chunked-extstore.t t/dyn-maxbytes.t t/stats.t; do
	if [ $rc -ne 0 ]; then
		tap_notok "$t (no build)"
		continue
	fi
	(cd "$work/patched-plain" && timeout 300 prove "$t") >"$tmp/t.log" 2>&1
	tap_check $? "memcached $t, patched" "$(cat "$tmp/t.log")"
done
tap_done
