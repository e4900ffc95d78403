#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/doc/doclint.sh - one home per fact (TAP):
#  1. no doc or comment cites doc/protocol.md by a section number (headings
#     move; cite the heading: doc/protocol.md, "Memory orders");
#  2. no doc but doc/verification-figures.md (generated) and the history
#     (doc/bench-history.md, ChangeLog) quotes a spin state count, a mutant
#     count or a GenMC pass count: they link to the generated file;
#  3. no installed header includes anything under lib/;
#  4-6. tools/doclint finds nothing: no figure, date or section number in
#     a comment of include/ or lib/ (4), no citation of a heading that is
#     not there (5), no numbered heading or section sign in doc/, and
#     doc/notebook.md's entries dated, newest first (6);
#  7. no message quoted in the docs as the library prints it that the code
#     does not print, and no link or path out of the repository
#     (tools/doclint's message and path);
#  8. tools/doclint itself fails on a tree with one offence of each kind
#     planted, a figure and a section number broken over two comment
#     lines among them (so 4-7 can fail).
src=${CASLIST_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/test/tap.sh"
tap_source_once
tap_plan 8
cd "$src" || exit 99
files=$(ls README.md HACKING.md doc/*.md doc/man/pages.txt include/caslist/*.h include/caslist/static/*.h \
	lib/*.c lib/*.h test/*.h test/*.sh test/*.md test/*/*.c test/*/*.h test/*/*.pml test/*/*.sh 2>/dev/null |
	grep -v -e doc/bench-history.md -e doc/verification-figures.md -e test/doc/doclint.sh)
# shellcheck disable=SC2086
bad=$(grep -nE 'protocol(\.md)?,? (section|§) ?[0-9]|protocol(\.md)? sections? [0-9]' $files)
[ -z "$bad" ]
tap_check $? "no citation of doc/protocol.md by section number" "$bad"
# shellcheck disable=SC2086
bad=$(grep -nE '[0-9][0-9,]{3,} states|[0-9]+ (list |free-list )?mutants|GenMC [0-9]+ passed' $files)
[ -z "$bad" ]
tap_check $? "figures of verification live only in doc/verification-figures.md" "$bad"
bad=$(grep -n '#include' include/caslist/*.h include/caslist/static/*.h | grep -E '"(\.\./)+lib/|<lib/')
[ -z "$bad" ]
tap_check $? "no installed header includes lib/" "$bad"

out=$(sh "$src/tools/doclint" "$src" 2>&1)
bad=$(printf '%s\n' "$out" | grep -E '^[^ ]+: (figure|date|section): ')
[ -z "$bad" ]
tap_check $? "comments of include/ and lib/ hold no figure, date or section number (tools/doclint)" "$bad"
bad=$(printf '%s\n' "$out" | grep -E '^[^ ]+: heading: ')
[ -z "$bad" ]
tap_check $? "every cited heading exists (tools/doclint)" "$bad"
bad=$(printf '%s\n' "$out" | grep -E '^[^ ]+: (number|notebook): ')
[ -z "$bad" ]
tap_check $? "no numbered heading or section sign in doc/; the notebook's entries dated, newest first (tools/doclint)" "$bad"
bad=$(printf '%s\n' "$out" | grep -E '^[^ ]+: (message|path): ')
[ -z "$bad" ]
tap_check $? "every message the docs quote is the code's; no link or path leaves the repository (tools/doclint)" "$bad"

# A planted tree: one offence of each kind, each must be reported.
t=$(mktemp -d "${TMPDIR:-/tmp}/doclint.XXXXXX")
mkdir -p "$t/include/caslist/static" "$t/lib" "$t/doc"
printf '# A doc\n\n## Real heading\n\n## 2. Numbered\n' >"$t/doc/a.md"
printf '# Notebook\n\n## Old (2026-12-01)\n\n## New (2026-12-05)\n\n## Undated\n' >"$t/doc/notebook.md"
cat >"$t/include/caslist/static/x.h" <<'EOF'
/* Fast: 3.4x the spinlock, 12 ns a move (measured 2026-12-06; see
 * doc/a.md §2 and doc/a.md, "Real heading", and doc/a.md, "Gone"). */
static const char *s = "12 ns in a string is no comment";
/* Broken over lines: the
 * section
 * 7 of a.md; it costs 77
 * ns. */
#define X_MSG "the node is planted"
static const char *op = "caslist_planted";
EOF
cat >"$t/doc/b.md" <<'EOF'
# B

Aborts with `caslist: caslist_planted(ADDRESS): the node is planted`, or
`caslist: caslist_unplanted(ADDRESS): the node is planted`, or with
`cannot plant here`. [Here](a.md), [away](../../outside.md), and
`../shared/notes.md`.
EOF
got=$(sh "$src/tools/doclint" "$t" 2>&1)
rc=$?
rm -rf "$t"
miss=
for k in figure date section heading number notebook message path; do
	printf '%s\n' "$got" | grep -q ": $k: " || miss="$miss $k"
done
printf '%s\n' "$got" | grep -q 'section: .*section 7' || miss="$miss (a section number over two lines)"
printf '%s\n' "$got" | grep -q 'figure: .*77 ns' || miss="$miss (a figure over two lines)"
printf '%s\n' "$got" | grep -q 'message: .*caslist_unplanted' || miss="$miss (an operation the code does not name)"
printf '%s\n' "$got" | grep -q 'message: .*cannot plant here' || miss="$miss (a message the code does not print)"
printf '%s\n' "$got" | grep -q 'message: .*caslist_planted(' && miss="$miss (reported a message the code prints)"
printf '%s\n' "$got" | grep -q 'path: .*outside.md' || miss="$miss (a link out of the tree)"
printf '%s\n' "$got" | grep -q 'path: .*shared' || miss="$miss (a path beside the tree)"
printf '%s\n' "$got" | grep -q 'path: .*a[.]md' && miss="$miss (reported a link inside the tree)"
printf '%s\n' "$got" | grep -q 'heading: .*Real heading' && miss="$miss (reported an existing heading)"
printf '%s\n' "$got" | grep -q 'in a string' && miss="$miss (read a string literal)"
[ "$rc" -ne 0 ] && [ -z "$miss" ]
tap_check $? "tools/doclint fails on a planted figure, date, section number, missing heading, numbered heading, notebook entry out of order, quoted message and link out of the tree" "exit $rc, missing:$miss
$got"
tap_done
