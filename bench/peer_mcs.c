/* SPDX-License-Identifier: BSD-2-Clause */
/* bench/peer_mcs.c - bench/peer_locked.c under a ck_spinlock_mcs. */
#define PEER_MCS
#include "peer_locked.c"
