# SPDX-License-Identifier: BSD-2-Clause
# test/adopt/prologue.sh - what the scripts that test a user's view share
# (test/adopt/*.sh, test/doc/man.sh); source it after `set -u`:
#     . "$(dirname "$0")/prologue.sh"
# It reads the build's view (test/adopt-env.sh, written by make: SRCDIR,
# CASLIST_BUILDDIR, the compilers and flags, what was built), sets
# b=$CASLIST_BUILDDIR, sources test/tap.sh, and gives
#   scratch NAME   make the scratch directory $tmp (caslist-NAME.XXXXXX),
#                  removed at exit.
. "${CASLIST_BUILDDIR:-.}/test/adopt-env.sh"
b=$CASLIST_BUILDDIR
. "$SRCDIR/test/tap.sh"
scratch() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/caslist-$1.XXXXXX") || exit 99
	trap 'rm -rf "$tmp"' EXIT
}
