#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/doc/man-examples.sh - the EXAMPLES of the man pages compile (TAP).
#
# Each page's EXAMPLES block is taken from the generated page (doc/man/*.3,
# what a reader sees) and compiled with $CC -std=c11 -Wall -Werror -c
# against include/ (and the build's include/ for version.h):
#  - a whole program (it has an #include) is compiled as it is;
#  - a fragment with file-scope code (a line opening with "{": a function
#    body) is compiled after the prelude below;
#  - any other fragment is the body of a function, after the prelude.
# The prelude declares what the fragments take as given (the objects of
# struct obj on lists lru, l, list, queue, ...; the free list of pages;
# the program's own helpers such as use() and visit()).  -Wno-unused:
# a fragment may show a result without using it.
# One test per page with EXAMPLES; the check is tested too: a broken
# example must fail to compile.
set -u
. "$(dirname "$0")/../adopt/prologue.sh"
scratch manex
mandir=$SRCDIR/doc/man
CFLAGS_EX="-std=c11 -Wall -Werror -Wno-unused -I$SRCDIR/include -I$b/include"

cat >"$tmp/prelude.h" <<'EOF_PRELUDE'
#include <caslist/caslist.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
/* what the examples take as given */
struct obj { int key; bool expired; struct caslist_node lru, link; };
struct msg { struct caslist_node link; };
struct page { struct caslist_fl_node fl; };
extern struct caslist_list l, list, lru, queue, active, inactive, cold;
extern struct caslist_fl fl, free_pages;
extern struct page page[], *p, *buddy;
extern struct obj *o, *a, *b, *c, *objs[], *hits[];
extern struct page *freed[];
extern struct msg *m;
extern struct caslist_node *x, *last, *hit_nodes[];
extern size_t npages, nobjs, nfreed, nhit_nodes, limit, nfree;
extern int key, nhits, count_after_key;
void use(struct caslist_fl_node *x);
void visit(struct obj *o);
void process(struct obj *o);
void reclaim(struct obj *o);
void retire(struct obj *o);
void put_ref(struct obj *o);
void consume(struct msg *m);
void inspect(struct caslist_node *x, struct caslist_node *succ);
void merge(struct page *p, struct page *buddy);
EOF_PRELUDE

# example PAGE OUT: the EXAMPLES block of PAGE as C source in OUT
example() {
	sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$1" |
		sed '/^\.\(SH\|RS\|RE\|EX\|EE\|PP\|IP\|TP\)/d; s/^\\&//; s/\\e/\\/g' >"$tmp/frag"
	if grep -q '^#include' "$tmp/frag"; then
		cat "$tmp/frag"
	elif grep -q '^{' "$tmp/frag"; then
		echo '#include "prelude.h"'
		cat "$tmp/frag"
	else
		echo '#include "prelude.h"'
		echo 'void example(void);'
		echo 'void example(void)'
		echo '{'
		cat "$tmp/frag"
		echo '}'
	fi >"$2"
}
compiles() { # $1 = C file; prints the compiler's complaints
	$CC $CFLAGS_EX -I"$tmp" -c "$1" -o "$tmp/ex.o" 2>&1
}

for p in "$mandir"/*.3; do
	grep -q '^\.SH EXAMPLES' "$p" || continue
	page=${p##*/}
	example "$p" "$tmp/ex.c"
	compiles "$tmp/ex.c" >"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err" | head -20
	tap_check $rc "the EXAMPLES of ${page%.3}(3) compile"
done

# the check itself: a broken example (a wrong argument count) must fail
cp "$mandir/caslist_del.3" "$tmp/broken.3"
sed -i '/^\.SH EXAMPLES/,/^\.SH /s/caslist_del(\([^)]*\))/caslist_del(\1, \1)/' "$tmp/broken.3"
example "$tmp/broken.3" "$tmp/broken.c"
if grep -q 'caslist_del([^)]*, ' "$tmp/broken.c"; then
	compiles "$tmp/broken.c" >/dev/null
	tap_check "$(test $? -ne 0; echo $?)" "a broken example fails to compile"
else
	tap_notok "a broken example fails to compile" "could not break caslist_del(3)'s example"
fi
tap_done
