/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/check.c - quiescent structure check (tier 3: a full walk).
 * The invariant it checks, for a list with no operation in flight:
 *   for every node x on the cycle head -> ... -> head:
 *     x->next has no lock bit, and x->next->prev == x
 *   and the cycle closes within max_nodes steps.
 */
#include "link.h"

#define CHECK_LOCKED (-1)
#define CHECK_BAD_PREV (-2)
#define CHECK_UNLINKED (-3)
#define CHECK_TOO_LONG (-4)

int caslist_check(const struct caslist_list *l, size_t max_nodes, size_t *count)
{
	const node_t *h = &l->head;
	const node_t *x = h;
	size_t n = 0;

	for (;;) {
		/* Relaxed: quiescent by contract; the caller's join or lock
		 * gave us every write already. */
		uintptr_t v = atomic_load_explicit(&x->next, memory_order_relaxed);
		const node_t *s = node_of(v);

		if (w_locked(v))
			return CHECK_LOCKED;
		if (w_unlinked(v))
			return CHECK_UNLINKED;
		if (prev_hint(s) != x)
			return CHECK_BAD_PREV;
		if (s == h)
			break;
		if (++n > max_nodes)
			return CHECK_TOO_LONG;
		x = s;
	}
	if (count != NULL)
		*count = n;
	return 0;
}

const char *caslist_check_strerror(int code)
{
	switch (code) {
	case 0:
		return "ok";
	case CHECK_LOCKED:
		return "a link is still locked";
	case CHECK_BAD_PREV:
		return "next->prev != self";
	case CHECK_UNLINKED:
		return "a node on the list is marked unlinked";
	case CHECK_TOO_LONG:
		return "more than max_nodes nodes (cycle or lost head)";
	default:
		return "unknown";
	}
}
