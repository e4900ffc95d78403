/* SPDX-License-Identifier: BSD-2-Clause */
/* bench/peer_plain.c - bench/peer_locked.c with no lock (1 thread only). */
#define PEER_PLAIN
#include "peer_locked.c"
