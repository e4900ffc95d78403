/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/debug.h> - misuse checks and the stuck-link diagnostic.
 *
 * Tier 1 (always on): states the API reports as return codes (a node that
 * is not linked gives CASLIST_ENOENT).  Tier 2 (CASLIST_DEBUG, configure
 * --enable-debug): misuse aborts with the operation and node address:
 * adding a linked node, caslist_del of an unlinked node (double delete),
 * cutting at a node that is not linked, and a neighbour link that does not
 * point back (next->prev != self) seen while holding the link's lock.
 *
 * Stuck links (every build): a waiter that has waited for one link longer
 * than CASLIST_STUCK_MS milliseconds (environment; default 5000) prints
 * one line naming the link, itself, the holder and the likely causes, then
 * keeps waiting (caslist_lk_backoff_wait in wait.h).  Debug builds also record, at
 * every link-lock acquisition, the operation that took it, in a striped
 * side table keyed by the link's address (caslist_lk_note_lock), so the line
 * names the holder; release builds say the holder is not recorded.
 */
#ifndef CASLIST_STATIC_DEBUG_H
#define CASLIST_STATIC_DEBUG_H

#include <stdbool.h>
#include <stdint.h>

#include <caslist/export.h>
#include "cast.h"
#include "atomic.h"

CASLIST_LK_BEGIN

#ifdef CASLIST_DEBUG
#define CASLIST_LK_DEBUG_ON 1
#else
#define CASLIST_LK_DEBUG_ON 0
#endif

/* Cold, out-of-line reporter: prints "caslist: OP(NODE): WHAT" and aborts.
 * Exported: the inline mode (static/list_ops.h in the caller's unit) calls it. */
CASLIST_LK_C_BEGIN
__attribute__((noreturn, cold)) CASLIST_API void caslist_lk_misuse(const char *op,
								 const void *node,
								 const char *what);
CASLIST_LK_C_END

/*
 * Tier 1b (every build): misuse that would otherwise hang or corrupt
 * silently, where the check costs a load of a line the operation touches
 * anyway and a predicted branch (doc/protocol.md, "Misuse checks" lists
 * them; doc/notebook.md, "What the always-on checks cost").  Aborts with the same message as CASLIST_LK_CHECK.
 */
#ifndef CASLIST_MEASURE_NO_REQUIRE
#define CASLIST_LK_REQUIRE(cond, op, node, what)                                  \
	do {                                                                   \
		if (__builtin_expect(!(cond), 0))                              \
			caslist_lk_misuse((op), (node), (what));                 \
	} while (0)
#else	/* only to measure what the checks cost (doc/protocol.md, "Misuse checks") */
#define CASLIST_LK_REQUIRE(cond, op, node, what) ((void)0)
#endif

/* Abort with a message if COND is false (debug builds only). */
#define CASLIST_LK_CHECK(cond, op, node, what)                                    \
	do {                                                                   \
		if (CASLIST_LK_DEBUG_ON && __builtin_expect(!(cond), 0))          \
			caslist_lk_misuse((op), (node), (what));                 \
	} while (0)

/* ---- who holds a link (debug builds) ---- */

#define CASLIST_LK_HOLDER_SLOTS 1024u

/* One slot: the last link recorded here and the operation that took it.
 * A slot is shared by every link that hashes to it: a reader checks the
 * link before it trusts the op (caslist_lk_holder_of). */
struct caslist_lk_holder {
	CASLIST_LK_ATOMIC(uintptr_t) link;
	CASLIST_LK_ATOMIC(const char *) op;
};

/* Exported: the inline mode with CASLIST_DEBUG records holders in the caller. */
CASLIST_LK_C_BEGIN
extern CASLIST_API struct caslist_lk_holder caslist_lk_holders[CASLIST_LK_HOLDER_SLOTS];
CASLIST_LK_C_END

static inline struct caslist_lk_holder *caslist_lk_slot(const void *link)
{
	uintptr_t a = CASLIST_LK_PCAST(uintptr_t, link);

	return &caslist_lk_holders[((a >> 4) ^ (a >> 14)) % CASLIST_LK_HOLDER_SLOTS];
}

/* Record that OP has just taken the lock of LINK (debug builds only).
 * Both stores relaxed: the table is read only by the diagnostic, which
 * needs no ordering with the list (it re-checks the link, and a stale or
 * overwritten record is reported as such); atomics keep TSan quiet. */
static inline void caslist_lk_note_lock(const void *link, const char *op)
{
	if (CASLIST_LK_DEBUG_ON) {
		struct caslist_lk_holder *h = caslist_lk_slot(link);

		atomic_store_explicit(&h->op, op, memory_order_relaxed);
		atomic_store_explicit(&h->link, CASLIST_LK_PCAST(uintptr_t, link), memory_order_relaxed);
	}
	(void)link;
	(void)op;
}

/* Milliseconds a waiter waits on one link before it reports (once).
 * Exported, as caslist_lk_stuck: inline-mode callers wait too. */
CASLIST_LK_C_BEGIN
CASLIST_API unsigned long caslist_lk_stuck_ms(void);
/* Cold reporter: one line on stderr naming LINK, its recorded holder (debug
 * builds), the waiting operation WAITER and the likely causes.  Returns
 * (the waiter keeps waiting). */
__attribute__((cold)) CASLIST_API void caslist_lk_stuck(const void *link, const char *waiter,
						      unsigned long waited_ms);
CASLIST_LK_C_END

CASLIST_LK_END

#endif /* CASLIST_STATIC_DEBUG_H */
