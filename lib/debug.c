/* SPDX-License-Identifier: BSD-2-Clause */
/* lib/debug.c - the cold misuse and stuck-link reporters (see debug.h).
 * A leaf: it includes debug.h only (the wait statistics of the
 * measurement build live in lib/stats.c). */
#include <stdio.h>
#include <stdlib.h>

#include <caslist/static/debug.h>

void caslist_lk_misuse(const char *op, const void *node, const char *what)
{
	fprintf(stderr, "caslist: %s(%p): %s\n", op, node, what);
	fflush(stderr);
	abort();
}

void caslist__misuse(const char *op, const void *node, const char *what)
{
	caslist_lk_misuse(op, node, what);
}

struct caslist_lk_holder caslist_lk_holders[CASLIST_LK_HOLDER_SLOTS];

unsigned long caslist_lk_stuck_ms(void)
{
	/* 0 = not read yet.  Relaxed: every thread computes the same value
	 * from the environment; a race only repeats the getenv. */
	static _Atomic(unsigned long) ms;
	unsigned long v = atomic_load_explicit(&ms, memory_order_relaxed);

	if (v == 0) {
		const char *e = getenv("CASLIST_STUCK_MS");

		v = e != NULL && atol(e) > 0 ? (unsigned long)atol(e) : 5000;
		atomic_store_explicit(&ms, v, memory_order_relaxed);
	}
	return v;
}

void caslist_lk_stuck(const void *link, const char *waiter, unsigned long waited_ms)
{
	struct caslist_lk_holder *h = caslist_lk_slot(link);
	/* Relaxed, re-checked: link, op, link again; the op is trusted only if
	 * the slot named this link both times (else another link that shares
	 * the slot overwrote it). */
	uintptr_t l1 = atomic_load_explicit(&h->link, memory_order_relaxed);
	const char *op = atomic_load_explicit(&h->op, memory_order_relaxed);
	uintptr_t l2 = atomic_load_explicit(&h->link, memory_order_relaxed);

	if (!CASLIST_LK_DEBUG_ON)
		op = "an unrecorded operation (configure --enable-debug to record holders)";
	else if (l1 != (uintptr_t)link || l2 != l1 || op == NULL)
		op = "an unrecorded operation (its slot was reused)";
	fprintf(stderr,
		"caslist: stuck link %p: locked by %s; %s has waited %lu ms and keeps waiting"
		" (likely causes: a node freed or overwritten while linked, a list or node"
		" not initialised, a signal handler re-entering the list - the operations"
		" are not async-signal-safe - or a thread that died holding the link)\n",
		link, op, waiter, waited_ms);
	fflush(stderr);
}
