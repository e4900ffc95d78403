#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/adopt/cxx-headers.sh - the public headers compile as C++11, 14, 17 and 20
# with g++ and clang++ (-Wall -Wextra -pedantic -Werror; list.h's macros
# expanded in C++ code with -Wold-style-cast too, and so is the whole
# inline layer, <caslist/static/*.h>, under CASLIST_INLINE, with and
# without CASLIST_DEBUG), and as C11 with gcc and clang; and the C/C++ layout comparison (test/adopt/abi) agrees across
# compiler pairs (gcc + clang++, clang + g++), not only for the configured
# CC/CXX.  A compiler that is not installed is skipped (TAP).
set -u
. "$(dirname "$0")/prologue.sh"
tap_native_only "the headers are checked with the build machine's gcc, clang, g++ and clang++"
scratch cxx
inc="-I$SRCDIR/include -I$CASLIST_BUILDDIR/include"
cat >"$tmp/all.c" <<'SRC'
#include <caslist/caslist.h>
#include <caslist/version.h>
int main(void)
{
	struct caslist_list l;
	struct caslist_fl fl;
	caslist_init(&l);
	caslist_fl_init(&fl, 8);
	caslist_fl_destroy(&fl);
	return caslist_empty(&l) && caslist_version() > 0 ? 0 : 1;
}
SRC
cp "$tmp/all.c" "$tmp/all.cc"
# the macros and inline functions of <caslist/list.h>, expanded in C++ code
# (-Wold-style-cast: a C++ user's warnings must not fire in them); compiled
# as it is, and in inline mode, where the operations themselves
# (<caslist/static/*.h>) are compiled in the user's unit
cat >"$tmp/macros.cc" <<'SRC'
#include <caslist/caslist.h>
struct obj { int key; struct caslist_node lru; };
struct page { struct caslist_fl_node fl; };
static CASLIST_LIST(lru);
static struct caslist_list other = CASLIST_LIST_INIT(other);
int use_ops(struct obj *x, struct page *p);
int use_ops(struct obj *x, struct page *p)
{
	struct caslist_fl fl;
	struct caslist_batch b;
	caslist_node_init(&x->lru);
	caslist_add_head(&lru, &x->lru);
	caslist_move_head(&other, &x->lru);
	caslist_batch_init(&b);
	caslist_batch_move_head(&b, &lru, &x->lru);
	caslist_batch_flush(&b);
	caslist_fl_init(&fl, 4);
	caslist_fl_node_init(&p->fl);
	caslist_fl_put(&fl, &p->fl);
	struct caslist_fl_batch fb;
	int r = caslist_fl_take(&fl, 1, &fb) == 1 && caslist_fl_batch_next(&fb) != nullptr;
	caslist_fl_destroy(&fl);
	return r + caslist_touch(&lru, &x->lru) + (caslist_pop_tail(&lru) != nullptr);
}
int main()
{
	struct obj *o;
	struct caslist_node *cur;
	int k = 0;
	caslist_for_each(cur, &other) k++;
	caslist_for_each_entry(o, cur, &lru, lru) k += o->key;
	caslist_for_each_entry_safe(o, cur, &lru, lru) k += o->key;
	cur = &lru.head;
	caslist_for_each_entry_continue(o, cur, &lru, lru) k += o->key;
	const struct caslist_node *c = caslist_iter_after(&lru, &lru.head);
	const struct obj *co = c ? caslist_entry(c, const struct obj, lru) : nullptr;
	return k + (co != nullptr) + (lru.head.next == CASLIST_POISON_NEXT);
}
SRC
for cxx in g++ clang++; do
	if ! command -v $cxx >/dev/null 2>&1; then tap_skip "$cxx not installed"; continue; fi
	for std in c++11 c++14 c++17 c++20; do
		$cxx -std=$std -Wall -Wextra -pedantic -Werror $inc -fsyntax-only "$tmp/all.cc" \
			>"$tmp/log" 2>&1
		rc=$?
		sed 's/^/# /' "$tmp/log" | head -10
		tap_check $rc "headers compile as $std with $cxx"
		for mode in "" "-DCASLIST_INLINE" "-DCASLIST_INLINE -DCASLIST_DEBUG"; do
			$cxx -std=$std -Wall -Wextra -pedantic -Wold-style-cast -Werror $mode $inc \
				-fsyntax-only "$tmp/macros.cc" >"$tmp/log" 2>&1
			rc=$?
			sed 's/^/# /' "$tmp/log" | head -10
			tap_check $rc "list.h's macros and inline functions as $std with $cxx${mode:+ $mode}: -Wold-style-cast -Werror"
		done
	done
done
for cc in gcc clang; do
	if ! command -v $cc >/dev/null 2>&1; then tap_skip "$cc not installed"; continue; fi
	$cc -std=c11 -Wall -Wextra -pedantic -Werror $inc -fsyntax-only "$tmp/all.c" >"$tmp/log" 2>&1
	rc=$?
	sed 's/^/# /' "$tmp/log" | head -10
	tap_check $rc "headers compile as c11 with $cc"
done
# Layout across compiler pairs: no linking needed, the table rows are
# compile-time constants; build the pair and run it without the library by
# giving caslist_version a stand-in.
cat >"$tmp/ver.c" <<'SRC'
#include <caslist/version.h>
int caslist_version(void) { return CASLIST_VERSION; }
SRC
for pair in "gcc clang++" "clang g++" "gcc g++" "clang clang++"; do
	set -- $pair
	if ! command -v "$1" >/dev/null 2>&1 || ! command -v "$2" >/dev/null 2>&1; then
		tap_skip "layout $1 / $2: not installed"; continue
	fi
	{ "$1" -std=c11 $inc -c "$SRCDIR/test/adopt/abi_c.c" -o "$tmp/abi_c.o" &&
	  "$1" -std=c11 $inc -c "$tmp/ver.c" -o "$tmp/ver.o" &&
	  "$2" -std=c++11 $inc -c "$SRCDIR/test/adopt/abi_cxx.cc" -o "$tmp/abi_cxx.o" &&
	  "$2" -o "$tmp/abi" "$tmp/abi_cxx.o" "$tmp/abi_c.o" "$tmp/ver.o"; } >"$tmp/log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		"$tmp/abi" >"$tmp/log" 2>&1
		rc=$?
		rows=$(grep -c '^ok' "$tmp/log")
	fi
	grep '^not ok' "$tmp/log" | sed 's/^/# /'
	tap_check $rc "layout identical in C ($1) and C++11 ($2): ${rows:-0} rows agree"
done
# Every public struct has rows in test/adopt/abi.h (a new struct must get them).
defined=$(cat "$SRCDIR"/include/caslist/*.h | sed -n 's/^struct \(caslist_[a-z_0-9]*\) {.*/\1/p' | sort -u)
missing=
for s in $defined; do
	grep -q "ABI_TYPE(struct $s)" "$SRCDIR/test/adopt/abi.h" || missing="$missing $s"
done
tap_check "$(test -z "$missing"; echo $?)" "test/adopt/abi.h covers every public struct ($(echo $defined | wc -w))$missing"
tap_done
