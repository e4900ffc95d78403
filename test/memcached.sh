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
#
# memcached's files run through `run check`: every file once, then each
# failed file that adopters/memcached/flaky lists (upstream knows it as
# flaky on loaded machines, its issues named there) alone once more, after
# the whole first pass.  Such a file gives two lines: its first pass as
# "not ok ... # TODO" (the failed asserts and the output as "# " lines),
# then the re-run, which decides; a pass on the re-run is named in an
# "upstream-flaky" summary line.  A file not listed fails at once.
# MC_CHECK_TESTS: the t/*.t files to run (default: the 9 below).
# MC_INJECT_FAIL: passed on to run, e.g. "t/chunked-extstore.t" (its first
# pass fails), "t/chunked-extstore.t:2" (both passes fail): run's header.
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

# The LRU lists and moves, the crawler (its placeholder), evictions,
# expiry, flush_all, chunked items, extstore (its reads overwrite item
# headers), memory limit changes and stats (cachedump walks the list).
# Not here: t/lru-maintainer.t, t/slabs_reassign.t, t/slabs-reassign2.t,
# t/slabs-reassign-chunked.t, t/issue_22.t, t/issue_163.t - they name the
# slab class that an item of a given size lands in, which the patch's 16
# header bytes change; stock memcached with the same 16 bytes fails the
# same asserts (adopters/memcached/README.md).
tests=${MC_CHECK_TESTS:-t/lru.t t/lru-crawler.t t/evictions.t t/expirations.t t/flush-all.t \
	t/chunked-items.t t/chunked-extstore.t t/dyn-maxbytes.t t/stats.t}
flaky=$SRCDIR/adopters/memcached/flaky
res=$work/results/patched-plain

# This build's libcaslist, installed where the memcached binary can keep
# finding it (its rpath); memcached is rebuilt every time (the inline
# parts of the headers may have changed).
root=$work/caslist-root
rm -rf "$root" "$work/patched-plain/.stamp"
$MAKE -C "$CASLIST_BUILDDIR" install DESTDIR="$root" >"$tmp/install.log" 2>&1
irc=$?

MC_WORK=$work MC_VARIANTS=patched MC_BUILDS=plain MC_TARGETS="memcached-debug timedrun" \
	MC_CASLIST_PC="$root$libdir/pkgconfig" MC_CASLIST_SYSROOT="$root" \
	timeout 900 "$run" build >"$tmp/build.log" 2>&1
rc=$?

# First pass and re-runs; check.tsv: file, final, first, its signature,
# re-run ("-": none), its signature.  Exit status 1 when a file fails.
rm -f "$res/check.tsv"
if [ $rc -eq 0 ]; then
	MC_WORK=$work MC_VARIANTS=patched MC_BUILDS=plain MC_TESTS="$tests" MC_RERUN=$flaky \
		MC_FILE_TIMEOUT=300 "$run" check >"$tmp/check.log" 2>&1
fi

# field <file> <n>: check.tsv's field n for the file
field() { awk -F'\t' -v t="$1" -v n="$2" '$1 == t { print $n }' "$res/check.tsv"; }
# refs <file>: its upstream issues, from the allowlist
refs() { awk -v t="$1" '$1 == t { for (i = 2; i <= NF; i++) printf "%s%s", (i > 2 ? ", " : ""), $i }' "$flaky"; }
# diag <pass> <signature> <log>: a failure's asserts, then its output,
# trimmed: no passing asserts, plan, blank lines or prove's summary (the
# signature has it), the last 30 lines
diag() {
	echo "$1: $2"
	awk '/^Test Summary Report/ { exit }
	/^ok / || /^[[:space:]]*$/ || /^1\.\.[0-9]+$/ || /^t\/[^ ]+\.t \.+ *$/ { next }
	{ print }' "$3" | tail -n 30 | cut -c1-200
}
# files <n>: "file" or "files"
files() { if [ "$1" -eq 1 ]; then echo file; else echo files; fi; }

nrerun=0
[ -f "$res/check.tsv" ] && nrerun=$(awk -F'\t' '$5 != "-"' "$res/check.tsv" | wc -l)
# shellcheck disable=SC2086
set -- $tests
tap_plan $((2 + $# + nrerun))
tap_check $irc "make install DESTDIR=<scratch>" "$(cat "$tmp/install.log")"
tap_check $rc "patched memcached builds against the installed libcaslist (pkg-config)" \
	"$(cat "$tmp/build.log" "$work"/patched-plain/make.out 2>/dev/null)"

# First pass, in order; a listed file that failed is a TODO here, and its
# re-run below decides.
for t in $tests; do
	b=$(basename "$t")
	if [ $rc -ne 0 ]; then
		tap_notok "memcached $t, patched (no build)"
		continue
	fi
	if [ ! -f "$res/check.tsv" ] || [ -z "$(field "$t" 1)" ]; then
		tap_notok "memcached $t, patched (adopters/memcached/run check did not run it)" \
			"$(cat "$tmp/check.log")"
		continue
	fi
	case $(field "$t" 3) in
	ok) tap_ok "memcached $t, patched" ;;
	skip) tap_skip "memcached $t, patched: prove says skipped" ;;
	*)
		if [ "$(field "$t" 5)" = - ]; then
			tap_notok "memcached $t, patched" "$(diag "first pass" "$(field "$t" 4)" "$res/first/$b.log")"
		else
			tap_todo "memcached $t, patched, first pass" \
				"upstream-flaky (memcached issues $(refs "$t" | sed 's/memcached#//g')): re-run alone at the end" \
				"$(diag "first pass" "$(field "$t" 4)" "$res/first/$b.log")"
		fi ;;
	esac
done

# The re-runs: a listed file's result.
passed='' npassed=0 failed='' nfailed=0
if [ -f "$res/check.tsv" ]; then
	for t in $tests; do
		b=$(basename "$t")
		case $(field "$t" 5) in
		''|-) continue ;;
		ok|skip)
			tap_ok "memcached $t, patched, re-run alone: passed"
			npassed=$((npassed + 1))
			passed="$passed${passed:+, }$t ($(refs "$t"))" ;;
		*)
			tap_notok "memcached $t, patched, re-run alone: failed again" \
				"$(diag "re-run" "$(field "$t" 6)" "$res/rerun/$b.log")"
			nfailed=$((nfailed + 1))
			failed="$failed${failed:+, }$t ($(refs "$t"))" ;;
		esac
	done
fi
[ $npassed -eq 0 ] ||
	tap_note "memcached: $npassed upstream-flaky $(files $npassed) passed on re-run: $passed"
[ $nfailed -eq 0 ] ||
	tap_note "memcached: $nfailed upstream-flaky $(files $nfailed) failed on re-run too: $failed"
tap_done
