#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/adopt/cxx-threads.sh - doc/examples/cxx_threads (C++, std::thread) at 2, 8
# and 64 threads; each run prints TAP and checks conservation of its nodes.
# Fewer operations under a sanitizer (TSan runs about 10x slower).
set -u
. "${CASLIST_BUILDDIR:-.}/test/adopt-env.sh"
ops=20000
[ "$SANITIZER" != none ] && ops=4000
n=0
failed=0
for t in 2 8 64; do
	out=$($CASLIST_RUN "$CASLIST_BUILDDIR/doc/examples/cxx_threads" "$t" "$ops" 256 2>&1)
	rc=$?
	echo "$out" | grep '^#'
	echo "$out" | grep -v '^#' | grep -v '^1\.\.' | grep -v '^ok' | sed 's/^/# /'
	fails=$(echo "$out" | grep -c '^not ok')
	n=$((n + 1))
	if [ "$rc" -eq 0 ] && [ "$fails" -eq 0 ]; then
		echo "ok $n - cxx_threads $t threads x $ops ops: all checks pass"
	else
		echo "$out" | grep '^not ok' | sed 's/^/# /'
		echo "not ok $n - cxx_threads $t threads x $ops ops: exit $rc, $fails checks failed"
		failed=$((failed + 1))
	fi
done
echo "1..$n"
[ "$failed" -eq 0 ]
