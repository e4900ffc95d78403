/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/common/dlist.h - a plain circular doubly-linked list with a
 * head node, no synchronisation: the list that the lock-based peers of the
 * examples and benches put under their lock (a mutex, a spinlock, ...).
 * The caller provides the mutual exclusion; every call here assumes it.
 *
 * Invariant (whenever no call is running): for every node x on the list,
 * including the head, x->next->prev == x and x->prev->next == x.  An
 * empty list is a head that points to itself both ways.  A removed node's
 * own links are left as they were: keep a flag of your own if you need to
 * know whether a node is linked.
 */
#ifndef CASLIST_EXAMPLES_DLIST_H
#define CASLIST_EXAMPLES_DLIST_H

#include <stdbool.h>
#include <stddef.h>

struct dlist {
	struct dlist *next, *prev;
};

/* The structure that contains the dlist `p` as its field `member`. */
#define dlist_entry(p, type, member) ((type *)(void *)((char *)(p) - offsetof(type, member)))

static inline void dlist_init(struct dlist *h)
{
	h->next = h->prev = h;
}

static inline bool dlist_empty(const struct dlist *h)
{
	return h->next == h;
}

/* n (not on a list) after pos (on the list, or the head: at the front). */
static inline void dlist_add_after(struct dlist *pos, struct dlist *n)
{
	n->next = pos->next;
	n->prev = pos;
	pos->next->prev = n;
	pos->next = n;
}

/* Take n (on the list) off it. */
static inline void dlist_del(struct dlist *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
}

/* n (on the list) to the front. */
static inline void dlist_move_head(struct dlist *h, struct dlist *n)
{
	dlist_del(n);
	dlist_add_after(h, n);
}

/* Append the chain first..last (linked by next; prev fixed up by the
 * caller or by dlist_chain) at the tail, in O(1). */
static inline void dlist_splice_tail(struct dlist *h, struct dlist *first, struct dlist *last)
{
	first->prev = h->prev;
	h->prev->next = first;
	last->next = h;
	h->prev = last;
}

/* Cut up to `want` nodes off the front, walking to the cut point: returns
 * how many, and the first of them in *first (their next links still lead
 * from one to the next). */
static inline size_t dlist_cut_front(struct dlist *h, size_t want, struct dlist **first)
{
	struct dlist *last = h;
	size_t k = 0;

	while (k < want && last->next != h) {
		last = last->next;
		k++;
	}
	*first = h->next;
	if (k) {
		h->next = last->next;
		last->next->prev = h;
	}
	return k;
}

#endif /* CASLIST_EXAMPLES_DLIST_H */
