/* SPDX-License-Identifier: BSD-2-Clause */
/* bench/peer_spin.c - bench/peer_locked.c under a pthread_spinlock_t. */
#define PEER_SPIN
#include "peer_locked.c"
