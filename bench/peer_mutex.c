/* SPDX-License-Identifier: BSD-2-Clause */
/* bench/peer_mutex.c - bench/peer_locked.c under a pthread_mutex_t. */
#define PEER_MUTEX
#include "peer_locked.c"
