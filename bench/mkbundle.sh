#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/mkbundle.sh BUILDDIR SRCDIR OUTDIR - the bench bundle (make
# bench-bundle): a folder that runs the benchmark matrix on another x86-64
# Linux machine with nothing installed (doc/scaling.md).
#   bin/       listbench, pagepool, lrucache (the ELF files, not libtool's
#              wrappers)
#   lib/       every shared library they load, the C library and its
#              loader (ld-linux-x86-64.so.2) included: copies of this
#              machine's, found with ldd
#   run        the matrix (POSIX sh): bin/* are started through lib/'s
#              loader with --library-path lib --inhibit-cache, so nothing
#              of the target's /lib or /usr/lib is used
#   report     ratio table and charts from run's output (needs python3;
#              charts need gnuplot): here or on the target
#   tools/     bench/compare, bench/plot, bench/benchdata.py
#   BUILD      commit, date, compiler, the libraries' origins
set -eu
build=$1 src=$2 out=$3
progs="bench/listbench examples/pagepool/pagepool examples/lru/lrucache"

elf_of() {	# the ELF behind a libtool wrapper, or the file itself
	d=$(dirname "$1") b=$(basename "$1")
	for f in "$d/.libs/$b" "$d/.libs/lt-$b" "$1"; do
		if [ -f "$f" ] && [ "$(head -c 4 "$f" | tr -d '\177')" = ELF ]; then
			echo "$f"
			return 0
		fi
	done
	echo "mkbundle: no ELF file for $1 (build it first: make $1)" >&2
	return 1
}

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/tools"
loader=
for p in $progs; do
	e=$(elf_of "$build/$p")
	cp "$e" "$out/bin/$(basename "$p")"
	# the libraries this machine's loader picks (libcaslist from the build)
	LD_LIBRARY_PATH="$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd "$e" >"$out/ldd.tmp"
	if grep -q 'not found' "$out/ldd.tmp"; then
		echo "mkbundle: $p: a library is not found:" >&2
		cat "$out/ldd.tmp" >&2
		exit 1
	fi
	while read -r a b c rest; do
		case "$a" in
		linux-vdso*) ;;
		/*)	# the loader: "/lib64/ld-linux-x86-64.so.2 (0x...)"
			loader=$a
			;;
		*)	if [ "$b" = "=>" ] && [ -f "$c" ]; then
				[ -f "$out/lib/$a" ] || cp -L "$c" "$out/lib/$a"
				grep -q "^$a " "$out/lib/ORIGINS" 2>/dev/null ||
					echo "$a $c" >>"$out/lib/ORIGINS"
			fi
			;;
		esac
	done <"$out/ldd.tmp"
	rm -f "$out/ldd.tmp"
done
if [ -z "$loader" ] || [ ! -f "$loader" ]; then
	echo "mkbundle: no dynamic loader found by ldd" >&2
	exit 1
fi
cp -L "$loader" "$out/lib/ld-linux.so"
echo "ld-linux.so $loader" >>"$out/lib/ORIGINS"
cp "$src/bench/bundle-run.sh" "$out/run"
cp "$src/bench/bundle-report.sh" "$out/report"
cp "$src/bench/compare" "$src/bench/plot" "$src/bench/benchdata.py" "$out/tools/"
chmod +x "$out/run" "$out/report" "$out/tools/compare" "$out/tools/plot"
commit=$(git -C "$src" describe --always --dirty 2>/dev/null || echo unknown)
{
	echo "commit $commit"
	echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m) $(uname -r)"
	echo "listbench $("$out/lib/ld-linux.so" --library-path "$out/lib" --inhibit-cache \
		"$out/bin/listbench" --help >/dev/null 2>&1 && echo runs || echo FAILS) here"
} >"$out/BUILD"
echo "$commit" >"$out/COMMIT"
echo "mkbundle: $out ($(du -sk "$out" | cut -f1) KiB, commit $commit): run it with $out/run --help"
