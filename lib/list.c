/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/list.c - list operations, each a composition of the link steps in
 * link.h.  For each operation: which link locks it takes, in which order,
 * and where it linearizes (always a link_unlock).  doc/protocol.md has the
 * proofs; "waits" below always respects the lock order: a thread waits
 * only for a link before every link it holds, and never while holding the
 * head's link.
 */
#include "link.h"

static inline node_t *head_of(const struct caslist_list *l)
{
	return (node_t *)&l->head;
}

static inline void check_addable(const node_t *n, const char *op)
{
	CASLIST_CHECK(w_unlinked(atomic_load_explicit(&n->next, memory_order_relaxed)), op, n,
		      "node is already linked");
	(void)n;
	(void)op;
}

void caslist_init(struct caslist_list *l)
{
	node_t *h = head_of(l);

	/* Relaxed: the list is published to other threads by whatever hands
	 * them the pointer (thread creation, a release store of the caller). */
	atomic_store_explicit(&h->next, w_of(h), memory_order_relaxed);
	atomic_store_explicit(&h->prev, w_of(h), memory_order_relaxed);
}

void caslist_node_init(struct caslist_node *n)
{
	/* Relaxed: as caslist_init.  Atomic stores (not atomic_init) so a
	 * stale CAS from another thread on recycled memory is not a race. */
	atomic_store_explicit(&n->next, 0, memory_order_relaxed);
	atomic_store_explicit(&n->prev, 0, memory_order_relaxed);
}

bool caslist_empty(const struct caslist_list *l)
{
	const node_t *h = head_of(l);
	/* Acquire: pairs with link_unlock of the head's link, so a caller who
	 * sees "not empty" also sees the first node's contents.  A locked
	 * word still names the first node of the abstract list. */
	uintptr_t v = atomic_load_explicit(&h->next, memory_order_acquire);

	return node_of(v) == h;
}

bool caslist_node_linked(const struct caslist_node *n)
{
	/* Relaxed: a snapshot for assertions; it orders nothing. */
	return !w_unlinked(atomic_load_explicit(&n->next, memory_order_relaxed));
}

/* Take the tail's link: wait on the current tail, re-reading the hint when
 * the node we waited on is no longer the tail.  Holds nothing meanwhile. */
static node_t *lock_tail(node_t *h, const char *op)
{
	struct backoff b = BACKOFF_INIT;

	for (;;) {
		node_t *t = prev_hint(h);

		if (prev_valid(t) && link_lock_expect_op(t, h, op))
			return t;
		backoff(&b);
	}
}

/* splice at head: L(head) only. Linearizes at head->next = first. */
static void splice_head(struct caslist_list *l, node_t *first, node_t *last, const char *op)
{
	node_t *h = head_of(l);
	node_t *s = link_lock_op(h, op);	/* the head is always linked */

	link_insert_locked(h, s, first, last, op);
}

/* splice at tail: L(tail) only. Linearizes at tail->next = first. */
static void splice_tail(struct caslist_list *l, node_t *first, node_t *last, const char *op)
{
	node_t *h = head_of(l);
	node_t *t = lock_tail(h, op);

	link_insert_locked(t, h, first, last, op);
}

void caslist_add_head(struct caslist_list *l, struct caslist_node *n)
{
	check_addable(n, "caslist_add_head");
	splice_head(l, n, n, "caslist_add_head");
}

void caslist_add_tail(struct caslist_list *l, struct caslist_node *n)
{
	check_addable(n, "caslist_add_tail");
	splice_tail(l, n, n, "caslist_add_tail");
}

void caslist_splice_head(struct caslist_list *l, struct caslist_node *first,
			 struct caslist_node *last)
{
	check_addable(last, "caslist_splice_head");
	splice_head(l, first, last, "caslist_splice_head");
}

void caslist_splice_tail(struct caslist_list *l, struct caslist_node *first,
			 struct caslist_node *last)
{
	check_addable(last, "caslist_splice_tail");
	splice_tail(l, first, last, "caslist_splice_tail");
}

/* add after pos: L(pos) only. */
int caslist_add_after(struct caslist_node *pos, struct caslist_node *n)
{
	node_t *s;

	check_addable(n, "caslist_add_after");
	s = link_lock(pos);
	if (s == NULL)
		return CASLIST_ENOENT;
	link_insert_locked(pos, s, n, n, "caslist_add_after");
	return CASLIST_OK;
}

/*
 * add near pos: try L(pos) (after pos), then the link pointing to pos
 * (before pos), never waiting on either; back off and repeat.  Only these
 * two links are candidates: both are validated against pos itself.  A hop
 * past a busy link to "the next free one" would follow a pointer read
 * from a locked word, whose target may be leaving the list (into another
 * list, or into a chain being cut) - see doc/protocol.md, "add_near".
 */
int caslist_add_near(struct caslist_node *pos, struct caslist_node *n)
{
	struct backoff b = BACKOFF_INIT;

	check_addable(n, "caslist_add_near");
	for (;;) {
		node_t *s, *p;

		if (link_trylock(pos, &s)) {
			link_insert_locked(pos, s, n, n, "caslist_add_near");
			return CASLIST_NEAR_AFTER;
		}
		p = link_trylock_prev(pos);
		if (p != NULL) {
			link_insert_locked(p, pos, n, n, "caslist_add_near");
			return CASLIST_NEAR_BEFORE;
		}
		/* Relaxed: only decides whether to give up; no data follows. */
		if (w_unlinked(atomic_load_explicit(&pos->next, memory_order_relaxed)))
			return CASLIST_ENOENT;
		backoff(&b);
	}
}

/* delete: L(n), then wait for L(pred(n)).  Linearizes at pred->next = succ. */
static int del_common(node_t *n, const char *op)
{
	node_t *s = link_lock_op(n, op);
	node_t *p;

	if (s == NULL)
		return CASLIST_ENOENT;
	p = link_lock_prev_op(n, op);
	link_unlink_locked(p, n, s, op);
	return CASLIST_OK;
}

int caslist_del(struct caslist_node *n)
{
	int rc = del_common(n, "caslist_del");

	CASLIST_CHECK(rc == CASLIST_OK, "caslist_del", n,
		      "node is not linked (double delete?)");
	return rc;
}

bool caslist_del_if_linked(struct caslist_node *n)
{
	return del_common(n, "caslist_del_if_linked") == CASLIST_OK;
}

/*
 * move to head: L(n), wait for L(pred), then wait for L(head) (the head is
 * before everything).  Unlink first, then insert, so the abstract list
 * never holds n twice: n is out at pred->next = succ, back in at
 * head->next = n (linearization point of the move).
 */
int caslist_move_head(struct caslist_list *l, struct caslist_node *n)
{
	node_t *h = head_of(l);
	node_t *s, *p, *f;

	CASLIST_CHECK(n != h, "caslist_move_head", n, "cannot move the head");
	s = link_lock(n);
	if (s == NULL)
		return CASLIST_ENOENT;
	p = link_lock_prev(n);
	if (p == h) {		/* already first */
		link_unlock(p, n);
		link_unlock(n, s);
		return CASLIST_OK;
	}
	f = link_lock(h);	/* f != n: n's predecessor is not the head */
	set_prev_checked(s, p, n, "caslist_move_head");
	link_unlock(p, s);
	link_insert_locked(h, f, n, n, "caslist_move_head");
	return CASLIST_OK;
}

/*
 * pop head: L(head) first (waiting is fine: nothing held), then only TRY
 * L(first): a thread deleting the first node holds L(first) and waits for
 * L(head), so waiting here would deadlock.  On failure release and retry.
 */
struct caslist_node *caslist_pop_head(struct caslist_list *l)
{
	struct backoff b = BACKOFF_INIT;
	node_t *h = head_of(l);

	for (;;) {
		node_t *f = link_lock(h);
		node_t *s;

		if (f == h) {
			link_unlock(h, h);
			return NULL;
		}
		if (link_trylock(f, &s)) {
			link_unlink_locked(h, f, s, "caslist_pop_head");
			return f;
		}
		link_unlock(h, f);
		backoff(&b);
	}
}

/*
 * pop tail: take L(tail) as add_tail does (it stays the tail while we hold
 * its link: nothing can be inserted after it), then wait for L(pred) as a
 * delete.  Empty only if head->next is unlocked and points to the head.
 */
struct caslist_node *caslist_pop_tail(struct caslist_list *l)
{
	struct backoff b = BACKOFF_INIT;
	node_t *h = head_of(l);

	for (;;) {
		node_t *t = prev_hint(h);

		if (t == h) {
			/* Acquire: as caslist_empty; a locked or non-empty head
			 * link means an operation is in flight: retry. */
			if (atomic_load_explicit(&h->next, memory_order_acquire) == w_of(h))
				return NULL;
		} else if (prev_valid(t) && link_lock_expect(t, h)) {
			node_t *p = link_lock_prev(t);

			link_unlink_locked(p, t, h, "caslist_pop_tail");
			return t;
		}
		backoff(&b);
	}
}

/*
 * cut the prefix first..last: wait for L(last), then for L(head).  The
 * segment leaves the list at head->next = succ(last).  Only first, last
 * and succ(last) are written.
 */
struct caslist_node *caslist_cut_front(struct caslist_list *l, struct caslist_node *last)
{
	node_t *h = head_of(l);
	node_t *s, *f;

	CASLIST_CHECK(last != h, "caslist_cut_front", last, "cannot cut at the head");
	s = link_lock(last);
	if (s == NULL) {
		/* POISON: removed by a concurrent remover, a race the caller
		 * may lose.  0: never linked, or the end of a chain already
		 * cut - never on this list: misuse.  Relaxed: diagnosis only. */
		CASLIST_CHECK(atomic_load_explicit(&last->next, memory_order_relaxed) != 0,
			      "caslist_cut_front", last, "last is not linked");
		return NULL;
	}
	f = link_lock(h);
	CASLIST_CHECK(f != h, "caslist_cut_front", last, "last is not on this list");
	set_prev_checked(s, h, last, "caslist_cut_front");
	/* Relaxed: f is ours from here; its new prev (chain start) is
	 * published to the chain's user by program order. */
	atomic_store_explicit(&f->prev, 0, memory_order_relaxed);
	link_unlock(h, s);
	/* Chain end; consumes L(last).  Release: as link_unlock. */
	atomic_store_explicit(&last->next, 0, memory_order_release);
	return f;
}

void caslist_chain_link(struct caslist_node *a, struct caslist_node *b)
{
	atomic_store_explicit(&b->prev, w_of(a), memory_order_relaxed);
	/* Release: pairs with the acquire CAS of whoever takes L(a) once the
	 * chain is spliced, and with chain_next/iter_next: they see what the
	 * caller wrote to a and b before this call. */
	atomic_store_explicit(&a->next, w_of(b), memory_order_release);
}

struct caslist_node *caslist_chain_next(const struct caslist_node *n)
{
	struct backoff b = BACKOFF_INIT;
	/* Acquire: pairs with the release that wrote n->next (chain_link, or
	 * the link_unlock of the node's last holder while it was linked). */
	uintptr_t v = atomic_load_explicit(&n->next, memory_order_acquire);

	/* A node of a freshly cut chain may still have its own link locked
	 * by the thread that inserted it (step 5 of link_insert_locked, which
	 * only clears the bit): wait for it. */
	while (w_locked(v)) {
		backoff_wait(&b, n, "caslist_chain_next");
		v = atomic_load_explicit(&n->next, memory_order_acquire);
	}
	return w_unlinked(v) ? NULL : node_of(v);
}

int caslist_iter_next(const struct caslist_list *l, struct caslist_node **cur)
{
	struct backoff b = BACKOFF_INIT;
	const node_t *h = head_of(l);
	/* Acquire: pairs with the link_unlock that published the successor,
	 * so the caller may read the next node's contents. */
	uintptr_t v = atomic_load_explicit(&(*cur)->next, memory_order_acquire);

	while (w_locked(v)) {
		backoff_wait(&b, *cur, "caslist_iter_next");
		v = atomic_load_explicit(&(*cur)->next, memory_order_acquire);
	}
	if (w_unlinked(v))
		return CASLIST_EAGAIN;
	if (node_of(v) == h)
		return 0;
	*cur = node_of(v);
	return 1;
}

/* ---- exported lock-word primitives: thin wrappers over link.h ---- */

struct caslist_node *caslist_link_lock(struct caslist_node *x)
{
	return link_lock(x);
}

bool caslist_link_trylock(struct caslist_node *x, struct caslist_node **succ)
{
	return link_trylock(x, succ);
}

struct caslist_node *caslist_link_lock_prev(struct caslist_node *x)
{
	return link_lock_prev(x);
}

void caslist_link_unlock(struct caslist_node *x, struct caslist_node *succ)
{
	link_unlock(x, succ);
}
