#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/adopt/version.sh - the version numbers a user sees agree (TAP):
#  - the newest ChangeLog entry names AC_INIT's version;
#  - a program built against this build's headers and library gets that
#    version from CASLIST_VERSION (compile time) and caslist_version()
#    (run time);
#  - the shared object's names follow -version-info current:revision:age:
#    soname libcaslist.so.(current - age), file libcaslist.so.(current -
#    age).age.revision;
#  - the triple follows the libtool rules against the newest release
#    recorded in doc/abi/ (VERSION.symbols: its exported functions, its
#    triple in the first line; VERSION.layout: its public structs' sizes,
#    alignments and field offsets, test/adopt/abi.h's rows): a removed
#    function or a changed layout needs a new soname (current up, age 0):
#    a program built against the old headers allocates the old struct
#    and the new library writes the new one; an added function needs
#    current and age up by the same step; the same set keeps current and
#    age.
set -u
. "$(dirname "$0")/prologue.sh"
scratch ver

# 1. ChangeLog: the first entry's heading is "DATE  libcaslist VERSION ...".
top=$(grep -m1 '^[0-9]' "$SRCDIR/ChangeLog")
case $top in
*"libcaslist $VERSION "* | *"libcaslist $VERSION") rc=0 ;;
*) rc=1 ;;
esac
tap_check $rc "newest ChangeLog entry names libcaslist $VERSION: '$top'"

# 2. CASLIST_VERSION and caslist_version() encode VERSION.
IFS=. read -r vmaj vmin vpat <<EOF
$VERSION
EOF
want=$((vmaj * 10000 + vmin * 100 + vpat))
cat >"$tmp/v.c" <<'SRC'
#include <stdio.h>
#include <caslist/version.h>
int main(void)
{
	printf("%d %d %s\n", CASLIST_VERSION, caslist_version(), CASLIST_VERSION_STRING);
	return 0;
}
SRC
lib=$b/lib/.libs
if [ -f "$lib/libcaslist.so" ] && [ -z "$PROG_STATIC" ]; then
	link="-L$lib -lcaslist"
elif [ -f "$lib/libcaslist.a" ]; then
	link="$lib/libcaslist.a"
else
	link=
fi
if [ -n "$link" ] &&
	$CC $SAN_FLAGS -I"$SRCDIR/include" -I"$b/include" "$tmp/v.c" $link $PTHREAD_CFLAGS \
		$PROG_STATIC -o "$tmp/v" >"$tmp/log" 2>&1; then
	got=$(LD_LIBRARY_PATH=$lib $CASLIST_RUN "$tmp/v")
	tap_check "$(test "$got" = "$want $want $VERSION"; echo $?)" \
		"CASLIST_VERSION, caslist_version(), CASLIST_VERSION_STRING: '$got' (want '$want $want $VERSION')"
else
	sed 's/^/# /' "$tmp/log" 2>/dev/null | head -10
	tap_check 1 "a program against the built library compiles and links"
fi

# 3. The shared object's names.
IFS=: read -r cur rev age <<EOF
$LT_VERSION
EOF
major=$((cur - age))
so=$lib/libcaslist.so
if [ ! -f "$so" ]; then
	tap_skip "no shared library built"
	tap_skip "no shared library built"
else
	tap_check "$(test -f "$lib/libcaslist.so.$major.$age.$rev"; echo $?)" \
		"-version-info $LT_VERSION: $lib/libcaslist.so.$major.$age.$rev exists"
	soname=$($OBJDUMP -p "$so" | sed -n 's/^ *SONAME *//p')
	tap_check "$(test "$soname" = "libcaslist.so.$major"; echo $?)" \
		"soname '$soname' is libcaslist.so.$major"
fi

# 4. The triple against the newest recorded release.
rec=$(ls "$SRCDIR"/doc/abi/*.symbols | sort -V | tail -n 1)
rver=$(basename "$rec" .symbols)
rtrip=$(sed -n '1s/.*-version-info \([0-9]*:[0-9]*:[0-9]*\).*/\1/p' "$rec")
IFS=: read -r rcur rrev rage <<EOF
$rtrip
EOF
if [ -z "$rtrip" ]; then
	tap_check 1 "$rec: first line names no -version-info"
elif [ ! -f "$so" ]; then
	tap_skip "no shared library built"
else
	# the layout: the rows the release recorded, as this build has them,
	# against the record of this build's data model: VERSION.layout for
	# LP64 (x86-64, aarch64, s390x agree), VERSION.ilp32.layout for
	# ILP32 (i686, armhf agree); a model with no record is not compared
	layout=
	cat >"$tmp/rows.c" <<'SRC'
#include <stdio.h>
#include "abi.h"
static const struct abi_row rows[] = { ABI_ROWS };
int main(void)
{
	printf("pointer %zu\n", sizeof(void *));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		printf("%s %zu\n", rows[i].what, rows[i].value);
	return 0;
}
SRC
	if $CC -I"$SRCDIR/test/adopt" -I"$SRCDIR/include" -I"$b/include" "$tmp/rows.c" \
		$PROG_STATIC -o "$tmp/rows" >"$tmp/log" 2>&1 && $CASLIST_RUN "$tmp/rows" >"$tmp/rows.out"; then
		case $(sed -n 1p "$tmp/rows.out") in
		"pointer 8") lay=${rec%.symbols}.layout model=LP64 ;;
		"pointer 4") lay=${rec%.symbols}.ilp32.layout model=ILP32 ;;
		*) lay= model=other ;;
		esac
		sed 1d "$tmp/rows.out" >"$tmp/now"
		if [ -n "$lay" ] && [ -f "$lay" ]; then
			echo "# layout compared with ${lay#"$SRCDIR"/} ($model)"
			grep -v '^#' "$lay" | LC_ALL=C sort >"$tmp/was"
			# a recorded row whose value differs, or that is gone
			layout=$(LC_ALL=C sort "$tmp/now" | LC_ALL=C comm -23 "$tmp/was" - |
				sed 's/ [0-9]*$//' |
				head -n 3 | tr '\n' ';')
		else
			echo "# no $model layout recorded for $rver: layout not compared"
		fi
	else
		sed 's/^/# /' "$tmp/log" | head -10
		tap_check 1 "the layout rows of test/adopt/abi.h compile against this build"
	fi
	grep -v '^#' "$rec" | sort -u >"$tmp/old"
	$NM -D --defined-only "$so" | awk '$2 == "T" { print $3 }' | sort -u >"$tmp/new"
	removed=$(comm -23 "$tmp/old" "$tmp/new" | tr '\n' ' ')
	added=$(comm -13 "$tmp/old" "$tmp/new" | tr '\n' ' ')
	if [ -n "$removed$layout" ]; then
		rc=$(test "$cur" -gt "$rcur" && test "$age" -eq 0; echo $?)
		why="${removed:+removed since $rver ($removed)}${removed:+${layout:+, }}${layout:+layout changed since $rver ($layout...)}: current > $rcur and age 0"
	elif [ -n "$added" ]; then
		rc=$(test "$cur" -gt "$rcur" && test $((cur - age)) -eq $((rcur - rage)); echo $?)
		why="added since $rver ($added): current > $rcur, current - age = $((rcur - rage))"
	else
		rc=$(test "$cur" -eq "$rcur" && test "$age" -eq "$rage"; echo $?)
		why="same functions as $rver: current $rcur, age $rage"
	fi
	tap_check "$rc" "-version-info $LT_VERSION against $rver ($rtrip): $why"
	if [ "$rver" = "$VERSION" ]; then
		tap_check "$(test "$LT_VERSION" = "$rtrip" && test -z "$removed$added$layout"; echo $?)" \
			"$VERSION is recorded in doc/abi: the same functions, layout and triple"
	fi
fi
tap_done
