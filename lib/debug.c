/* SPDX-License-Identifier: BSD-2-Clause */
/* lib/debug.c - the cold misuse and stuck-link reporters (see debug.h).
 * A leaf: it includes word.h (to name the lock-word states) and debug.h
 * only (the wait statistics of the measurement build live in lib/stats.c). */
#include <stdio.h>
#include <stdlib.h>

#include <caslist/static/word.h>
#include <caslist/static/debug.h>

/* The name and meaning of a value that is a lock-word state, not an
 * address (word.h), or NULL.  Such a value where a node or link address
 * is printed came from a word of a node that was removed (or never
 * linked) and was then used as a pointer: a stale pointer. */
static const char *state_name(uintptr_t w)
{
	switch (w) {
	case 0:
		return "NULL: FRESH (a node never linked)";
	case CASLIST_POISON_NEXT:
		return "CASLIST_POISON_NEXT: the next word of a node removed"
		       " (OWNED by its remover, maybe freed), used as a pointer";
	case CASLIST_POISON_PREV:
		return "CASLIST_POISON_PREV: the prev word of a node removed"
		       " (OWNED by its remover, maybe freed), used as a pointer";
	case CASLIST_LK_CLAIMED:
		return "CASLIST_LK_CLAIMED: the word of a node a caslist_touch claimed to add,"
		       " used as a pointer";
	default:
		return NULL;
	}
}

/* What the word W of a stuck link says, or NULL if it says nothing
 * beyond "locked". */
static const char *word_name(uintptr_t w)
{
	if (w == CASLIST_LK_CLAIMED)
		return "CASLIST_LK_CLAIMED: claimed by a caslist_touch that has not inserted it"
		       " yet; if it stays so, the node was added twice";
	if (w == CASLIST_POISON_NEXT)
		return "CASLIST_POISON_NEXT: a node removed (OWNED by its remover, maybe freed)";
	if (w == 0)
		return "0: a node never linked, or freed and zeroed";
	if (caslist_lk_w_batched(w))
		return "queued in a batch (caslist_batch_move_head) that was never flushed";
	return NULL;
}

void caslist_lk_misuse(const char *op, const void *node, const char *what)
{
	const char *name = state_name((uintptr_t)node);

	if (name != NULL)
		fprintf(stderr, "caslist: %s(%p): %s [%p is %s]\n", op, node, what, node, name);
	else
		fprintf(stderr, "caslist: %s(%p): %s\n", op, node, what);
	fflush(stderr);
	abort();
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
	const char *lname = state_name((uintptr_t)link), *wname = NULL;
	uintptr_t w = 0;

	/* The link's word, unless the address is a state value (unmapped):
	 * the waiter has just loaded or CASed this word, so it is readable.
	 * Relaxed: a snapshot for the message. */
	if (lname == NULL && (uintptr_t)link >= 4096) {
		w = atomic_load_explicit(&((const struct caslist_node *)link)->next,
					 memory_order_relaxed);
		wname = word_name(w);
	}

	/* A record is trusted whoever wrote it: a debug library, or a
	 * program built in inline mode with -DCASLIST_DEBUG against a release
	 * library (the slots are the library's, exported). */
	if (l1 != (uintptr_t)link || l2 != l1 || op == NULL)
		op = CASLIST_LK_DEBUG_ON ? "an unrecorded operation (its slot was reused)"
					 : "an unrecorded operation (configure --enable-debug, or"
					   " build with -DCASLIST_DEBUG in inline mode, to record"
					   " holders)";
	fprintf(stderr,
		"caslist: stuck link %p%s%s%s: locked by %s; %s has waited %lu ms and keeps waiting"
		"%s%s"
		" (likely causes: a node freed or overwritten while linked, a node added twice"
		" (caslist_add_* of a node another thread may caslist_touch: use caslist_touch"
		" to add it), a list or node not initialised, a signal handler re-entering the"
		" list - the operations are not async-signal-safe - or a thread that died"
		" holding the link)\n",
		link, lname ? " (" : "", lname ? lname : "", lname ? ")" : "", op, waiter,
		waited_ms, wname ? "; its word is " : "", wname ? wname : "");
	fflush(stderr);
}
