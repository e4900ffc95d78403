#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test/fuzz/replay.sh - the fuzz target's reference-model check in every
# build (TAP): the seed corpus, then seeded random inputs.  Environment:
# CASLIST_FUZZ_RANDOM (default 20000; 2000 under a sanitizer).
here=$(cd "$(dirname "$0")" && pwd)
bin=${CASLIST_BUILDDIR:-.}/test/fuzz/fuzz_replay
if [ -z "$CASLIST_FUZZ_RANDOM" ]; then
	case ${CASLIST_SANITIZER:-none} in
	none) CASLIST_FUZZ_RANDOM=20000 ;;
	*) CASLIST_FUZZ_RANDOM=2000 ;;
	esac
fi
export CASLIST_FUZZ_RANDOM
exec ${CASLIST_RUN-} "$bin" "$here"/corpus/*
