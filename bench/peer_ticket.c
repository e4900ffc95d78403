/* SPDX-License-Identifier: BSD-2-Clause */
/* bench/peer_ticket.c - bench/peer_locked.c under a ck_spinlock_ticket. */
#define PEER_TICKET
#include "peer_locked.c"
