#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/model/tags.sh - the step tags ([L1]..., [S1]...) tie the spin model
# to the code and to doc/protocol.md, "The step map" (no line numbers to drift).
# TAP: 1. every tag in test/model/list.pml is in include/caslist/static/,
# 2. every tag in the code is in the model, 3. every tag is in the doc's
# map, 4. each tag names one place in the code (not two).
src=${CASLIST_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/test/tap.sh"
tap_source_once
st=$src/include/caslist/static
tags() { grep -ho '\[[LS][0-9][0-9]*\]' "$@" | sort -u; }
model=$(tags "$src/test/model/list.pml")
code=$(tags "$st/lock.h" "$st/link.h" "$st/list_ops.h" "$st/batch_ops.h")
doc=$(awk '/^## / { f = ($0 ~ /^## The step map/) } f' "$src/doc/protocol.md" | grep -o '\[[LS][0-9][0-9]*\]' | sort -u)
tap_plan 6
miss=$(printf '%s\n' "$model" | grep -vxF -e "$code")
tap_check "$([ -z "$miss" ]; echo $?)" "every model tag is in the code ($(printf '%s\n' "$model" | wc -l) tags)" "missing in the code: $miss"
miss=$(printf '%s\n' "$code" | grep -vxF -e "$model")
tap_check "$([ -z "$miss" ]; echo $?)" "every code tag is in the model" "missing in list.pml: $miss"
miss=$(printf '%s\n' "$model" | grep -vxF -e "$doc")
tap_check "$([ -z "$miss" ]; echo $?)" "every tag is in doc/protocol.md, \"The step map\"" "missing in the doc: $miss"
# A tag's definition opens a comment line ("/* [S7] ..." or " * [S7] ..."); other
# mentions are references.
defs=$(cat "$st/lock.h" "$st/link.h" "$st/list_ops.h" "$st/batch_ops.h" |
	grep -oE '^(/\*| \*) \[[LS][0-9]+\]' | grep -oE '\[[LS][0-9]+\]' | sort)
dup=$(printf '%s\n' "$defs" | uniq -d)
undef=$(printf '%s\n' "$code" | grep -vxF -e "$defs")
tap_check "$([ -z "$dup$undef" ]; echo $?)" "each tag is defined at one place in the code" "defined twice: $dup; never defined: $undef"
# The free list's model (freelist.pml, tags [F0]..) against static/fl_ops.h,
# static/cl_pool.h and doc/cluster.md.
ftags() { grep -ho '\[F[0-9][0-9]*\]' "$@" | sort -u; }
fmodel=$(ftags "$src/test/model/freelist.pml")
fcode=$(ftags "$st/fl_ops.h" "$st/cl_pool.h")
fdoc=$(ftags "$src/doc/cluster.md")
[ "$fmodel" = "$fcode" ]
tap_check $? "free list: the model's tags are the code's ($(printf '%s\n' "$fmodel" | wc -l) tags)" "model: $fmodel; code: $fcode"
miss=$(printf '%s\n' "$fmodel" | grep -vxF -e "$fdoc")
tap_check "$([ -z "$miss" ]; echo $?)" "free list: every tag is in doc/cluster.md" "missing: $miss"
tap_done
