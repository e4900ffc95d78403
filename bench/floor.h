/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/floor.h - the floor: the bare moves that do only what any
 * per-link-locked list must (issue 31), shared by bench/opcost.c (counts
 * under valgrind) and bench/peer_floor.c (listbench's "floor" row).
 *
 * A link is two words laid out as struct caslist_node's (next, then prev),
 * so a floor node is a caslist node's line.  next holds the successor with
 * bit 0 as the link's lock, as libcaslist's, or 0 when the node is on no
 * list; a head is a link whose empty list points at itself.  Each step
 * takes the locks libcaslist's operation takes, in its order (doc/protocol.md,
 * "Lock order"): one acquire CAS per locked word, no retry (the CAS is not
 * even checked: one thread only), then the release stores that unlock them
 * and the prev writes of a doubly linked list.  No poison, no checks, no
 * waiting, no bookkeeping.  It is a reference, not a list: correct on one
 * thread only.
 *
 *   floor_move_head  L(n), L(pred), L(head): unlink, insert after the head
 *   floor_del        L(n), L(pred): unlink; n->next = 0
 *   floor_add_head   L(head): insert after the head
 */
#ifndef CASLIST_BENCH_FLOOR_H
#define CASLIST_BENCH_FLOOR_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct floor_link {
	_Atomic uintptr_t next, prev;
};

#define FLOOR_PTR(w) ((struct floor_link *)(w))

static inline void floor_init(struct floor_link *h)
{
	atomic_store_explicit(&h->next, (uintptr_t)h, memory_order_relaxed);
	atomic_store_explicit(&h->prev, (uintptr_t)h, memory_order_relaxed);
}

static inline int floor_linked(struct floor_link *x)
{
	return atomic_load_explicit(&x->next, memory_order_relaxed) != 0;
}

/* Set-up only (not a measured step): x at the tail, plain stores. */
static inline void floor_link_tail(struct floor_link *h, struct floor_link *x)
{
	uintptr_t last = atomic_load_explicit(&h->prev, memory_order_relaxed);

	atomic_store_explicit(&x->next, (uintptr_t)h, memory_order_relaxed);
	atomic_store_explicit(&x->prev, last, memory_order_relaxed);
	atomic_store_explicit(&FLOOR_PTR(last)->next, (uintptr_t)x, memory_order_relaxed);
	atomic_store_explicit(&h->prev, (uintptr_t)x, memory_order_relaxed);
}

/* Take the lock of word w, whose value is v: one acquire CAS (it pairs
 * with the release store that last unlocked w), never retried. */
static inline void floor_lock(_Atomic uintptr_t *w, uintptr_t v)
{
	atomic_compare_exchange_strong_explicit(w, &v, v | 1, memory_order_acquire,
						memory_order_relaxed);
}

/* x, linked, to the head of h (x may be on another list). */
static inline void floor_move_head(struct floor_link *h, struct floor_link *x)
{
	uintptr_t s = atomic_load_explicit(&x->next, memory_order_relaxed);
	uintptr_t p = atomic_load_explicit(&x->prev, memory_order_relaxed);
	uintptr_t first;

	if (p == (uintptr_t)h)
		return;		/* first already */
	floor_lock(&x->next, s);
	floor_lock(&FLOOR_PTR(p)->next, (uintptr_t)x);
	first = atomic_load_explicit(&h->next, memory_order_relaxed);
	floor_lock(&h->next, first);
	/* unlink: succ->prev = pred, then pred->next = succ (release: unlock) */
	atomic_store_explicit(&FLOOR_PTR(s)->prev, p, memory_order_release);
	atomic_store_explicit(&FLOOR_PTR(p)->next, s, memory_order_release);
	/* insert after the head; x->next and h->next are the unlocking stores */
	atomic_store_explicit(&x->prev, (uintptr_t)h, memory_order_release);
	atomic_store_explicit(&FLOOR_PTR(first)->prev, (uintptr_t)x, memory_order_release);
	atomic_store_explicit(&x->next, first, memory_order_release);
	atomic_store_explicit(&h->next, (uintptr_t)x, memory_order_release);
}

/* x, linked, off its list; x->next = 0 (the unlocking store of L(x)). */
static inline void floor_del(struct floor_link *x)
{
	uintptr_t s = atomic_load_explicit(&x->next, memory_order_relaxed);
	uintptr_t p = atomic_load_explicit(&x->prev, memory_order_relaxed);

	floor_lock(&x->next, s);
	floor_lock(&FLOOR_PTR(p)->next, (uintptr_t)x);
	atomic_store_explicit(&FLOOR_PTR(s)->prev, p, memory_order_release);
	atomic_store_explicit(&FLOOR_PTR(p)->next, s, memory_order_release);
	atomic_store_explicit(&x->next, 0, memory_order_release);
}

/* x, on no list, at the head of h. */
static inline void floor_add_head(struct floor_link *h, struct floor_link *x)
{
	uintptr_t first = atomic_load_explicit(&h->next, memory_order_relaxed);

	floor_lock(&h->next, first);
	atomic_store_explicit(&x->prev, (uintptr_t)h, memory_order_relaxed);
	atomic_store_explicit(&x->next, first, memory_order_relaxed);
	atomic_store_explicit(&FLOOR_PTR(first)->prev, (uintptr_t)x, memory_order_release);
	atomic_store_explicit(&h->next, (uintptr_t)x, memory_order_release);
}

/* Quiescent: the nodes on h, or -1 with *err set (a broken link, a lock
 * bit left set, more than max nodes). */
static inline long floor_count(struct floor_link *h, size_t max, const char **err)
{
	long n = -1;		/* the head is not a node */
	uintptr_t w = (uintptr_t)h, nx;

	do {
		nx = atomic_load_explicit(&FLOOR_PTR(w)->next, memory_order_relaxed);
		if ((nx & 1) || nx == 0 || (size_t)++n > max ||
		    atomic_load_explicit(&FLOOR_PTR(nx)->prev, memory_order_relaxed) != w) {
			*err = "floor: broken links or a lock left set";
			return -1;
		}
		w = nx;
	} while (w != (uintptr_t)h);
	return n;
}

#endif /* CASLIST_BENCH_FLOOR_H */
