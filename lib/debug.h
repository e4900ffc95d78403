/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/debug.h - misuse checks.
 *
 * Tier 1 (always on): states the API reports as return codes (a node that
 * is not linked gives CASLIST_ENOENT).  Tier 2 (CASLIST_DEBUG, configure
 * --enable-debug): misuse aborts with the operation and node address:
 * adding a linked node, caslist_del of an unlinked node (double delete),
 * cutting at a node that is not linked, and a neighbour link that does not
 * point back (next->prev != self) seen while holding the link's lock.
 */
#ifndef CASLIST_LIB_DEBUG_H
#define CASLIST_LIB_DEBUG_H

#include <stdbool.h>

#ifdef CASLIST_DEBUG
#define CASLIST_DEBUG_ON 1
#else
#define CASLIST_DEBUG_ON 0
#endif

/* Cold, out-of-line reporter: prints "caslist: OP(NODE): WHAT" and aborts. */
__attribute__((noreturn, cold)) void caslist__misuse(const char *op, const void *node,
						     const char *what);

/* Abort with a message if COND is false (debug builds only). */
#define CASLIST_CHECK(cond, op, node, what)                                    \
	do {                                                                   \
		if (CASLIST_DEBUG_ON && __builtin_expect(!(cond), 0))          \
			caslist__misuse((op), (node), (what));                 \
	} while (0)

#endif /* CASLIST_LIB_DEBUG_H */
