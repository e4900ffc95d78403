#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/doc/man.sh - the man pages (TAP):
#  - doc/man/ is what tools/gen-man makes from the headers now (a function
#    added or a comment changed without `make man` fails here);
#  - every CASLIST_API function has a page;
#  - every public macro is documented on some page;
#  - every page is complete (man_lint below): NAME, SYNOPSIS, DESCRIPTION
#    and SEE ALSO, and for a function (or function-like macro) RETURN
#    VALUE, ERRORS and THREAD SAFETY; a whole summary (no cut-off "(e.g"
#    or "for i = 0"), and no two pages with the same one (copied from a
#    neighbour); no Markdown or header markup leaking into the text
#    (*emphasis*, `code`, @param, "per- node"); a SEE ALSO that names a
#    related page, and only pages that exist.  Broken copies of real pages
#    (a section dropped, a summary cut or copied, markup leaked, SEE ALSO
#    bare) must each be reported: the lint is tested too;
#  - every name a page documents (its NAME line, every public macro) has a
#    page of its own: the page, or an alias page ".so man3/PAGE.3"
#    (tools/gen-man writes one per other name of @defines and @aliases) that
#    names an existing page listing the alias in its NAME; the alias lint is
#    tested too (a dangling alias, a name without a page);
#  - every page renders without a warning, from a man tree (man3/) as
#    installed, where an alias's .so finds its page: groff -ww -man,
#    man -l --warnings and mandoc -T lint -W warning (less its note that
#    .so is fragile), each where installed; each alias renders its page's
#    title with man -l, and `man -M TREE ALIAS` finds it as `man` would
#    after make install.
set -u
. "$(dirname "$0")/../adopt/prologue.sh"
tap_source_once
scratch man
mandir=$SRCDIR/doc/man

if command -v python3 >/dev/null 2>&1; then
	python3 "$SRCDIR/tools/gen-man" --srcdir "$SRCDIR" --check "$mandir" >"$tmp/check" 2>&1
	rc=$?
	head -40 "$tmp/check"
	tap_check $rc "doc/man is up to date with the headers (else: make man)"
else
	tap_skip "python3 not installed: cannot regenerate the pages to compare"
fi

for h in "$SRCDIR"/include/caslist/*.h "$SRCDIR"/include/caslist/version.h.in; do
	case $h in */export.h) ;; *) cat "$h" ;; esac
done | tr '\n' ' ' | sed 's/CASLIST_API/\n&/g' |
	sed -n 's/^CASLIST_API[^(]*[ *]\([a-z_0-9]*\)(.*/\1/p' | sort -u >"$tmp/api.lib"
# and the headers' own static inline functions (caslist_iter_step)
cat "$SRCDIR"/include/caslist/*.h |
	sed -n 's/^static inline [^(]*[ *]\(caslist_[a-z_0-9]*\)(.*/\1/p' >"$tmp/api.inline"
sort -u "$tmp/api.lib" "$tmp/api.inline" >"$tmp/api"
missing=
for f in $(cat "$tmp/api"); do [ -f "$mandir/$f.3" ] || missing="$missing $f"; done
tap_check "$(test -z "$missing"; echo $?)" \
	"a page for each of the $(wc -l <"$tmp/api") public functions$missing"

# the public macros (not the include guards, the export and atomic-type
# helpers, or the inline mode's renames) each appear on a page
for h in "$SRCDIR"/include/caslist/*.h "$SRCDIR"/include/caslist/version.h.in; do
	case $h in */export.h) ;; *) cat "$h" ;; esac
done | sed -n 's/^#[ \t]*define[ \t]*\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' |
	grep -v '_H$\|^CASLIST_API$\|^CASLIST_ATOMIC$\|^CASLIST_LK_' | sort -u >"$tmp/macros"
missing=
for m in $(cat "$tmp/macros"); do
	# caslist_add_head -> caslist__add_head (inline mode) is not a macro of its own
	grep -q "^#define $m caslist__" "$SRCDIR/include/caslist/list.h" && continue
	grep -qF "\\fB$m\\fP" "$mandir"/*.3 || missing="$missing $m"
done
tap_check "$(test -z "$missing"; echo $?)" \
	"every public macro is on a page$missing"

# is_alias PAGE: the page is an alias (".so man3/X.3")
is_alias() { head -c 4 "$1" | grep -q '^\.so '; }
# alias_lint DIR: one line per problem with the alias pages and the names
# of DIR; nothing if every name a page documents has a page of its own.
alias_lint() {
	for p in "$1"/*.3; do
		base=${p##*/}
		if is_alias "$p"; then
			t=$(sed -n '1s|^\.so man3/\([A-Za-z_0-9]*\)\.3$|\1|p' "$p")
			if [ "$(wc -l <"$p")" -ne 1 ] || [ -z "$t" ]; then
				echo "$base: an alias page is one line \".so man3/PAGE.3\""
			elif [ ! -f "$1/$t.3" ]; then
				echo "$base: .so names $t.3, which does not exist"
			elif is_alias "$1/$t.3"; then
				echo "$base: .so names $t.3, which is an alias itself"
			elif ! sed -n '/^\.SH NAME/{n;p;}' "$1/$t.3" | sed 's/ \\- .*//' |
				tr -d ' ' | tr ',' '\n' | grep -qx "${base%.3}"; then
				echo "$base: $t.3's NAME does not list ${base%.3}"
			fi
			continue
		fi
		for n in $(sed -n '/^\.SH NAME/{n;p;}' "$p" | sed 's/ \\- .*//' | tr -d ' ' | tr ',' ' '); do
			[ -f "$1/$n.3" ] || echo "$base: NAME lists $n, which has no page ($n.3)"
		done
	done
}
alias_lint "$mandir" >"$tmp/alias"
sed 's/^/# /' "$tmp/alias" | head -20
aliases=$(for p in "$mandir"/*.3; do is_alias "$p" && echo "$p"; done | wc -l)
tap_check "$(test ! -s "$tmp/alias"; echo $?)" \
	"every name on a NAME line has a page of its own; $aliases alias pages name a page that lists them"
missing=
for m in $({ cat "$tmp/macros"; echo CASLIST_TOUCH_GONE CASLIST_ENOENT caslist_for_each_entry; } |
	tr ' ' '\n' | sort -u); do
	grep -q "^#define $m caslist__" "$SRCDIR/include/caslist/list.h" && continue
	[ -f "$mandir/$m.3" ] || missing="$missing $m"
done
tap_check "$(test -z "$missing"; echo $?)" \
	"every public macro has a page of its own (man CASLIST_ENOENT works)$missing"

# man_lint DIR: one line per problem in DIR/*.3 ("PAGE: what"); nothing if
# every page is complete.  Pages are man(7) source as tools/gen-man writes.
man_lint() {
	for p in "$1"/*.3; do
		is_alias "$p" && continue
		awk -v page="${p##*/}" '
		/^\.SH / {
			sec = substr($0, 5); gsub(/"/, "", sec)
			have[sec] = 1; nsec++
			next
		}
		/^\.EX/ { inex = 1; next }
		/^\.EE/ { inex = 0; next }
		sec == "NAME" && !/^\./ { name = name " " $0 }
		sec == "SYNOPSIS" && /\\fB[A-Za-z_][A-Za-z0-9_]*\\fP\(/ { func = 1 }
		sec == "SEE ALSO" && /^\.BR / { see[++nsee] = $2 }
		!/^\./ && !inex && sec != "SYNOPSIS" {
			t = $0
			gsub(/\\f[BIPR]/, "", t)
			if (t ~ /(^|[^A-Za-z0-9_\\*])\*[A-Za-z]([^*]*[^* ])?\*([^A-Za-z0-9_]|$)/) print page ": Markdown emphasis leaks: " t
			if (t ~ /`/) print page ": a backtick leaks: " t
			if (t ~ /[a-z]- [a-z]/) print page ": a word broken at a line end leaks (\"x- y\"): " t
			if (t ~ /(^|[ (])@[A-Za-z]/) print page ": an @parameter leaks: " t
		}
		END {
			base = page; sub(/\.3$/, "", base)
			split("NAME SYNOPSIS DESCRIPTION", req, " ")
			for (i in req) if (!(req[i] in have)) print page ": no " req[i] " section"
			if (!("SEE ALSO" in have)) print page ": no SEE ALSO section"
			if (func || base == "caslist") {
				if (!("ERRORS" in have)) print page ": no ERRORS section"
				if (!("THREAD SAFETY" in have)) print page ": no THREAD SAFETY section"
			}
			if (func && !("RETURN VALUE" in have)) print page ": no RETURN VALUE section"
			# the summary: after the first " \- " of the NAME section
			s = name; gsub(/\\f[BIPR]/, "", s)
			i = index(s, "\\- ")
			if (i == 0) { print page ": NAME has no \" \\- summary\""; exit }
			s = substr(s, i + 3); gsub(/\\-/, "-", s); gsub(/^ +| +$/, "", s)
			print "SUMMARY\t" s "\t" page
			o = gsub(/\(/, "(", s); c = gsub(/\)/, ")", s)
			q = gsub(/"/, "\"", s)
			low = tolower(s)
			if (s == "") print page ": empty summary"
			else if (o != c || q % 2) print page ": summary cut off (unbalanced brackets or quotes): " s
			else if (low ~ /(^| )(a|an|the|of|for|to|and|or|with|by|in|on|at|from|as|if|than|that|is|are|be|its|e\.g|i\.e|etc)\.?$/)
				print page ": summary cut off (ends with \"" $0 "\"): " s
			else if (s ~ /[,;:=(\/-]$/ || s ~ /[0-9] *$/ && s ~ /=/)
				print page ": summary cut off: " s
			else if (s ~ /\.$/) print page ": summary ends with a period: " s
			related = 0
			for (i = 1; i <= nsee; i++) {
				if (see[i] != "caslist" && see[i] != base) related++
				if (!system("test -f \"" dir "/" see[i] ".3\"")) continue
				print page ": SEE ALSO names " see[i] "(3), which has no page"
			}
			if (!related) print page ": SEE ALSO names no related page"
		}' dir="$1" "$p"
	done >"$tmp/lint.raw" 2>&1
	grep -v '^SUMMARY	' "$tmp/lint.raw"
	# two pages with one summary: one was copied from the other
	grep '^SUMMARY	' "$tmp/lint.raw" | cut -f2 | sort | uniq -d | while IFS= read -r s; do
		echo "$(awk -F '\t' -v s="$s" '$1 == "SUMMARY" && $2 == s { print $3 }' "$tmp/lint.raw" |
			tr '\n' ' '): the same summary: $s"
	done
	rm -f "$tmp/lint.raw"
}
man_lint "$mandir" >"$tmp/lint"
sed 's/^/# /' "$tmp/lint" | head -40
tap_check "$(test ! -s "$tmp/lint"; echo $?)" \
	"every page complete: its sections, a whole summary of its own, no leaked markup, a related SEE ALSO ($(wc -l <"$tmp/lint") problems)"

# What the header says for a whole section, and the aborts, reach the pages
# they concern (each was missing once): PAGE|text it must contain
bad=
while IFS='|' read -r page want; do
	grep -q "$want" "$mandir/$page.3" || bad="$bad $page('$want')"
done <<'EOF_NOTES'
caslist_init|not concurrent with operations on the same object
caslist_node_init|not concurrent with operations on the same object
caslist_check|quiescent
caslist_link_lock|Lock order
caslist_link_trylock|Lock order
caslist_link_lock_prev|Lock order
caslist_link_unlock|Lock order
caslist_add_head|Aborts in every build.*if \\fIn\\fP is linked
caslist_add_tail|Aborts in every build.*if \\fIn\\fP is linked
caslist_add_head|never initialised
caslist_pop_head|never initialised
caslist_pop_tail|never initialised
caslist|async-signal-safe
caslist|tsan_cc_family
EOF_NOTES
tap_check "$(test -z "$bad"; echo $?)" \
	"the header's section notes, the lock order and the aborts are on their pages$bad"

# The lint itself: each kind of defect, made in a copy of real pages, must
# be reported (else the check above proves nothing).
lint_catches() { # $1 = label, $2 = grep pattern the report must match; the copy is in $tmp/bad
	man_lint "$tmp/bad" >"$tmp/badlint"
	grep -q "$2" "$tmp/badlint"
	tap_check $? "the lint catches $1" "$(cat "$tmp/badlint")"
}
fresh() { rm -rf "$tmp/bad"; mkdir "$tmp/bad" && cp "$mandir"/*.3 "$tmp/bad"/; }
fresh
sed -i '/^\.SH RETURN VALUE/,/^\.SH /{/^\.SH ERRORS/!d}' "$tmp/bad/caslist_pop_head.3"
lint_catches "a page without RETURN VALUE" 'caslist_pop_head.3: no RETURN VALUE'
fresh
sed -i '/^\.SH NAME/{n;s/ \\- .*/ \\- take the particular free node x out (e.g/;}' "$tmp/bad/caslist_fl_remove.3"
lint_catches "a cut summary ('(e.g')" 'caslist_fl_remove.3: summary cut off'
fresh
sed -i '/^\.SH NAME/{n;s/ \\- .*/ \\- queue k nodes for i = 0/;}' "$tmp/bad/caslist_batch_move_head_n.3"
lint_catches "a cut summary ('for i = 0')" 'caslist_batch_move_head_n.3: summary cut off'
fresh
s=$(sed -n '/^\.SH NAME/{n;s/.* \\- //p;}' "$tmp/bad/caslist_check.3")
sed -i "/^\\.SH NAME/{n;s/ \\\\- .*/ \\\\- $s/;}" "$tmp/bad/caslist_check_strerror.3"
lint_catches "a summary copied from a neighbour" 'caslist_check.3 caslist_check_strerror.3 : the same summary'
fresh
sed -i '/^\.SH DESCRIPTION/a valid *as a caslist node* while the per- node work' "$tmp/bad/caslist_del.3"
lint_catches "Markdown emphasis and a broken word" 'caslist_del.3: Markdown emphasis'
fresh
sed -i '/^\.SH SEE ALSO/,${/^\.BR/d}' "$tmp/bad/caslist_del.3"
printf '.BR caslist (3)\n' >>"$tmp/bad/caslist_del.3"
lint_catches "a SEE ALSO naming no related call" 'caslist_del.3: SEE ALSO names no related page'
alias_catches() { # $1 = label, $2 = grep pattern the report must match
	alias_lint "$tmp/bad" >"$tmp/badalias"
	grep -q "$2" "$tmp/badalias"
	tap_check $? "the alias lint catches $1" "$(cat "$tmp/badalias")"
}
fresh
rm -f "$tmp/bad/CASLIST_TOUCH_GONE.3"
alias_catches "a name without a page" 'CASLIST_OK.3: NAME lists CASLIST_TOUCH_GONE, which has no page'
fresh
echo '.so man3/CASLIST_NOPE.3' >"$tmp/bad/CASLIST_ENOENT.3"
alias_catches "an alias whose page does not exist" 'CASLIST_ENOENT.3: .so names CASLIST_NOPE.3'
fresh
echo '.so man3/caslist_del.3' >"$tmp/bad/CASLIST_ENOENT.3"
alias_catches "an alias to a page that does not list it" "CASLIST_ENOENT.3: caslist_del.3's NAME does not list"

pages=$(ls "$mandir"/*.3 | wc -l)
# The pages in a man tree, as make install lays them out: an alias's
# ".so man3/X.3" is found from the top of the tree, the working directory
# of every renderer below.
mkdir -p "$tmp/tree/man3" && cp "$mandir"/*.3 "$tmp/tree/man3/"
check_all() { # $1 = label; the command reads the page from "$p" (man3/NAME.3)
	label=$1
	shift
	bad=
	for p in "$tmp"/tree/man3/*.3; do
		(cd "$tmp/tree" && "$@" "man3/${p##*/}") >/dev/null 2>"$tmp/err"
		if [ $? -ne 0 ] || [ -s "$tmp/err" ]; then
			bad="$bad ${p##*/}"
			head -3 "$tmp/err" | sed "s|^|# ${p##*/}: |"
		fi
	done
	tap_check "$(test -z "$bad"; echo $?)" "$pages pages render without warnings: $label$bad"
}
if [ -n "$GROFF" ] || command -v groff >/dev/null 2>&1; then
	check_all "groff -ww -man -z" groff -ww -man -z
else
	tap_skip "groff not installed (Debian: groff-base)"
fi
if command -v man >/dev/null 2>&1; then
	man_l() { LC_ALL=C MANWIDTH=80 man --warnings -l -P cat "$1"; }
	check_all "man --warnings -l" man_l
	# each alias shows its page (the title line names it), by man -l in
	# the tree and by man -M TREE NAME, as after make install
	bad=
	for p in "$tmp"/tree/man3/*.3; do
		is_alias "$p" || continue
		a=${p##*/}
		a=${a%.3}
		t=$(sed -n 's|^\.so man3/\(.*\)\.3$|\1|p' "$p" | tr '[:lower:]' '[:upper:]')
		(cd "$tmp/tree" && man_l "man3/$a.3") 2>"$tmp/err" | head -1 >"$tmp/title"
		MANPAGER=cat LC_ALL=C MANWIDTH=80 man -M "$tmp/tree" -P cat "$a" 2>>"$tmp/err" |
			head -1 >>"$tmp/title"
		if [ -s "$tmp/err" ] || [ "$(grep -c "^$t(3) " "$tmp/title")" -ne 2 ]; then
			bad="$bad $a"
			head -3 "$tmp/err" "$tmp/title" | sed "s|^|# $a: |"
		fi
	done
	tap_check "$(test -z "$bad"; echo $?)" \
		"each of the $aliases alias pages shows its page: man -l, man -M <tree>$bad"
else
	tap_skip "man not installed (Debian: man-db)"
fi
if command -v mandoc >/dev/null 2>&1; then
	# less the style note on every .so ("fragile, better use ln(1)"): the
	# alias pages are .so links on purpose, as the Linux man-pages are
	mandoc_lint() {
		mandoc -T lint -W warning "$1" 2>&1 | grep -v 'WARNING: \.so is fragile' >&2
		return 0
	}
	check_all "mandoc -T lint -W warning" mandoc_lint
else
	tap_skip "mandoc not installed (Debian: mandoc)"
fi
tap_done
