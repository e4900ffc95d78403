#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/doc/doclint.sh - one home per fact (TAP):
#  1. no doc or comment cites doc/protocol.md by a section number (headings
#     move; cite the heading: doc/protocol.md, "Memory orders");
#  2. no doc but doc/verification-figures.md (generated) and the history
#     (doc/bench-history.md, ChangeLog) quotes a spin state count, a mutant
#     count or a GenMC pass count: they link to the generated file;
#  3. no installed header includes anything under lib/.
src=${CASLIST_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/test/tap.sh"
tap_plan 3
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
tap_done
