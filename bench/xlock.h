/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/xlock.h - the exchange-locked list of libcaslist's family (the
 * algorithm of HAProxy's mt_list, include/import/mt_list.h, MIT; written
 * here in our words, with C11 atomics so that ThreadSanitizer sees every
 * access).  The same-family peer of issue 23: bench/peer_xlock.c puts it
 * into listbench, test/measure/waitstat runs it beside libcaslist with the same
 * counters (XL_STAT: failed attempts, pauses).
 *
 * The design.  A node has two words, next and prev; a detached node and
 * an empty head point to themselves.  A word holding BUSY (1) is locked:
 * whoever exchanged BUSY into it owns it and will write it back.  Every
 * lock is one exchange (never a compare-and-swap), and a thread NEVER
 * waits holding a lock: when an exchange returns BUSY, the thread writes
 * back every word it took so far and retries the whole step after a
 * randomised exponential pause (xl_relax).  The steps:
 *   xl_lock_full(x)  x->next, x->prev, then pred->next and succ->prev:
 *                    four exchanges; x is then cut out with its words
 *                    still BUSY (the caller joins pred and succ: x is "in
 *                    transit", and nobody can lock it until it is written)
 *   xl_lock_at(h)    h->next then first->prev (or h->prev then last->next),
 *                    and the new node's own two words (an insert of a
 *                    node a racing remover may still be looking at)
 *   xl_put(x, ends)  x->next, x->prev, then the two neighbours' words:
 *                    four release stores, the insert's and unlock's at once
 * A move to the head is xl_lock_full(x), xl_join, xl_lock_at(head),
 * xl_put(x): six exchanges and six stores, against libcaslist's three
 * CAS and eight stores.
 *
 * Orders: each exchange that takes a word is acquire (it pairs with the
 * release store that last wrote the word's unlocked value: the previous
 * holder's put/join/give-back, so that holder's writes to the neighbours
 * happen before ours); each store that writes a word back or links is
 * release.  (mt_list itself uses relaxed exchanges and release fences;
 * TSan does not model fences, so the equivalent orders go on the
 * accesses here.)
 */
#ifndef CASLIST_BENCH_XLOCK_H
#define CASLIST_BENCH_XLOCK_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Counters of a measurement build (test/measure/waitstat): failed attempts
 * (rounds) and pauses, per thread. */
#ifndef XL_STAT
#define XL_STAT(field, n) ((void)0)
#endif

#define XL_BUSY ((uintptr_t)1)

struct xl {
	_Atomic uintptr_t next, prev;
};

static inline uintptr_t xl_w(const struct xl *x)
{
	return (uintptr_t)x;
}

static inline struct xl *xl_xp(uintptr_t v)
{
	return (struct xl *)v;
}

/*
 * The wait: a per-thread xorshift draw masked by a budget that grows
 * budget*8+7 per failed attempt (7, 63, 511, ...), so the first retry
 * comes almost at once and two threads that collided draw different
 * pauses; draws of 32 and more spin PAUSEs for the excess.  Per thread:
 * no atomics.
 */
static _Thread_local uint32_t xl_rng = 0x9e3779b9u;

static inline void xl_relax(unsigned long *budget)
{
	uint32_t r = xl_rng;
	unsigned long n;

	r ^= r << 13;
	r ^= r >> 17;
	r ^= r << 5;
	xl_rng = r;
	*budget = (*budget * 8 + 7) & 0x7fffffu;
	n = r & *budget;
	XL_STAT(rounds, 1);
	XL_STAT(pauses, n >= 32 ? n - 31 : 0);
	for (; n >= 32; n--) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
		__asm__ __volatile__("yield" ::: "memory");
#else
		__asm__ __volatile__("" ::: "memory");
#endif
	}
	for (; n > 0; n--)
		__asm__ __volatile__("" ::: "memory");
}

/* Take one word: the value it held, or BUSY if another thread holds it
 * (then nothing was taken).  Acquire: see the file comment. */
static inline uintptr_t xl_take(_Atomic uintptr_t *word)
{
	return atomic_exchange_explicit(word, XL_BUSY, memory_order_acquire);
}

/* Write a word back, or write a new link: release (file comment). */
static inline void xl_give(_Atomic uintptr_t *word, uintptr_t v)
{
	atomic_store_explicit(word, v, memory_order_release);
}

struct xl_ends {
	struct xl *next, *prev;
};

/*
 * xl_lock_after(h) / lock_before(h): h->next and first->prev (or h->prev and
 * last->next) taken; with x != NULL, x's own two words too, which must be
 * x's detached values (x points to itself): the insert of a node that a
 * racing remover may still be looking at (del_head: the loser of a race
 * to delete x may hold x's words for a moment after the winner detached
 * it; writing them without taking them would lose its write-back).  A
 * BUSY word anywhere gives back what was taken and retries.
 */
static inline struct xl_ends xl_lock_at(struct xl *h, int after, struct xl *x)
{
	unsigned long budget = 0;

	for (;; xl_relax(&budget)) {
		_Atomic uintptr_t *hw = after ? &h->next : &h->prev;
		uintptr_t a = xl_take(hw), b, xn, xpv;
		_Atomic uintptr_t *aw;

		if (a == XL_BUSY)
			continue;
		aw = after ? &xl_xp(a)->prev : &xl_xp(a)->next;
		b = xl_take(aw);
		if (b == XL_BUSY) {
			xl_give(hw, a);
			continue;
		}
		if (x != NULL) {
			xn = xl_take(&x->next);
			if (xn == XL_BUSY) {
				xl_give(aw, b);
				xl_give(hw, a);
				continue;
			}
			xpv = xl_take(&x->prev);
			if (xpv == XL_BUSY) {
				xl_give(&x->next, xn);
				xl_give(aw, b);
				xl_give(hw, a);
				continue;
			}
			if (xn != xl_w(x) || xpv != xl_w(x)) {
				fprintf(stderr, "listbench: xlock: adding a linked node\n");
				abort();
			}
		}
		return after ? (struct xl_ends){ xl_xp(a), xl_xp(b) } : (struct xl_ends){ xl_xp(b), xl_xp(a) };
	}
}

static inline struct xl_ends xl_lock_after(struct xl *h)
{
	return xl_lock_at(h, 1, NULL);
}

/*
 * xl_lock_full(x): x's two words and both neighbours' words toward x.  A
 * detached x (its words point to itself) comes back with next == x and
 * only its own words taken.
 */
static inline struct xl_ends xl_lock_full(struct xl *x)
{
	unsigned long budget = 0;

	for (;; xl_relax(&budget)) {
		uintptr_t n = xl_take(&x->next), p, pn = 0, np;

		if (n == XL_BUSY)
			continue;
		p = xl_take(&x->prev);
		if (p == XL_BUSY) {
			xl_give(&x->next, n);
			continue;
		}
		if (p != xl_w(x)) {
			pn = xl_take(&xl_xp(p)->next);
			if (pn == XL_BUSY) {
				xl_give(&x->prev, p);
				xl_give(&x->next, n);
				continue;
			}
		}
		if (n != xl_w(x)) {
			np = xl_take(&xl_xp(n)->prev);
			if (np == XL_BUSY) {
				if (pn)
					xl_give(&xl_xp(p)->next, pn);
				xl_give(&x->prev, p);
				xl_give(&x->next, n);
				continue;
			}
		}
		return (struct xl_ends){ xl_xp(n), xl_xp(p) };
	}
}

/* Join the two ends (their words were taken): x is out of the list. */
static inline void xl_join(struct xl_ends e)
{
	xl_give(&e.next->prev, xl_w(e.prev));
	xl_give(&e.prev->next, xl_w(e.next));
}

/* Link x between the ends (their words taken), x's own words too. */
static inline void xl_put(struct xl *x, struct xl_ends e)
{
	xl_give(&x->next, xl_w(e.next));
	xl_give(&x->prev, xl_w(e.prev));
	xl_give(&e.next->prev, xl_w(x));
	xl_give(&e.prev->next, xl_w(x));
}

static inline void xl_detach(struct xl *x)
{
	xl_give(&x->next, xl_w(x));
	xl_give(&x->prev, xl_w(x));
}

/* ---- the operations, on any head h ---- */

/* Add detached x after h. */
static inline void xl_insert(struct xl *h, struct xl *x)
{
	xl_put(x, xl_lock_at(h, 1, x));
}

/* Add detached x before h (at the tail of h's list). */
static inline void xl_insert_tail(struct xl *h, struct xl *x)
{
	xl_put(x, xl_lock_at(h, 0, x));
}

/* Remove x: 1 if this call removed it, 0 if it was detached. */
static inline int xl_remove(struct xl *x)
{
	struct xl_ends e = xl_lock_full(x);

	if (e.next == x) {
		xl_detach(x);
		return 0;
	}
	xl_join(e);
	xl_detach(x);
	return 1;
}

/* Move linked x to just after h (a no-op on a detached x). */
static inline void xl_move(struct xl *h, struct xl *x)
{
	struct xl_ends e = xl_lock_full(x);

	if (e.next == x) {
		xl_detach(x);
		return;
	}
	xl_join(e);		/* x in transit: its words stay BUSY */
	xl_put(x, xl_lock_after(h));
}

#endif /* CASLIST_BENCH_XLOCK_H */
