#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/adopt/symbols.sh - only caslist_ names at global scope (TAP).
#  - every global symbol the static archives define starts with caslist_
#    (internal ones with caslist__), so they cannot clash with a user's;
#  - the shared objects export exactly the functions the installed headers
#    declare with CASLIST_API (nothing internal, nothing missing).
# Checks libcaslist and, when built, libcaslist-tsan.
set -u
. "$(dirname "$0")/prologue.sh"
scratch sym

# The public functions: every CASLIST_API declaration in the installed
# headers, the protocol headers of the inline mode (<caslist/static/*.h>)
# included: they export caslist_lk_misuse, the stuck-wait reporters and
# (data) caslist_lk_holders, which inline code calls or records into.
for h in "$SRCDIR"/include/caslist/*.h "$b"/include/caslist/version.h \
	"$SRCDIR"/include/caslist/static/*.h; do
	case $h in */export.h) ;; *) cat "$h" ;; esac
done |
	tr '\n' ' ' | sed 's/CASLIST_API/\n&/g' | sed -n 's/^CASLIST_API[^(;[]*[ *]\([a-z_0-9]*\)[ ]*[([;].*/\1/p' |
	sort -u >"$tmp/api"
echo "# $(wc -l <"$tmp/api") public functions declared in the headers"

libs=libcaslist
[ "$TSAN_VARIANT" = yes ] && libs="$libs libcaslist-tsan"
for lib in $libs; do
	a=$b/lib/.libs/$lib.a
	so=$b/lib/.libs/$lib.so
	if [ -f "$a" ]; then
		$NM -g --defined-only "$a" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/a"
		# i386 PIC code calls __x86.get_pc_thunk.REG, which gcc emits
		# in every object as a hidden COMDAT (global to nm, never exported)
		grep -v -e '^caslist_' -e '^__x86\.get_pc_thunk\.' "$tmp/a" >"$tmp/a.bad"
		tap_check "$(test -s "$tmp/a.bad"; echo $((1 - $?)))" \
			"$lib.a: $(wc -l <"$tmp/a") global symbols, all caslist_* $(tr '\n' ' ' <"$tmp/a.bad")"
		echo "# $lib.a internal: $(grep '^caslist__' "$tmp/a" | tr '\n' ' ')"
		comm -23 "$tmp/api" "$tmp/a" >"$tmp/a.missing"
		tap_check "$(test -s "$tmp/a.missing"; echo $((1 - $?)))" \
			"$lib.a defines every public function $(tr '\n' ' ' <"$tmp/a.missing")"
	else
		tap_skip "$lib.a not built (--disable-static)"
	fi
	# the TSan variant adds its compiler family's marker (lib/tsan_family.c)
	cp "$tmp/api" "$tmp/want"
	extra=
	if [ "$lib" = libcaslist-tsan ]; then
		extra=" and caslist_tsan_cc_$CC_FAMILY"
		echo "caslist_tsan_cc_$CC_FAMILY" >>"$tmp/want"
		sort -u -o "$tmp/want" "$tmp/want"
	fi
	if [ -f "$so" ]; then
		$NM -D --defined-only "$so" | awk 'NF == 3 { print $3 }' | sed 's/@.*//' | sort -u >"$tmp/so"
		diff "$tmp/want" "$tmp/so" >"$tmp/so.diff"
		tap_check $? "$lib.so exports exactly the $(wc -l <"$tmp/api") CASLIST_API functions$extra $(grep '^[<>]' "$tmp/so.diff" | tr '\n' ' ')"
	else
		tap_skip "$lib.so not built (--disable-shared)"
	fi
done
tap_done
