/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/peer_locked.c - the plain doubly-linked list (examples/common/
 * dlist.h) under one lock, as a listbench peer.  Built once per lock: each
 * of bench/peer_plain.c, peer_mutex.c, peer_spin.c, peer_ticket.c and
 * peer_mcs.c defines one of
 *   PEER_PLAIN   no lock: the unlocked floor, run at 1 thread only
 *   PEER_MUTEX   pthread_mutex_t
 *   PEER_SPIN    pthread_spinlock_t
 *   PEER_TICKET  ck_spinlock_ticket (Concurrency Kit)
 *   PEER_MCS     ck_spinlock_mcs, a context per thread
 * and includes this file.  Each variant defines peer_lock/peer_unlock and
 * its struct peer; the list code is the same.  Every operation holds the
 * lock around the list step only: chains for splice_cut are built, and
 * taken nodes walked, outside it.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "peer.h"

#if defined(PEER_PLAIN)
#define PEER_SYM peer_plain
#define PEER_NAME "plain"
#define PEER_TSAN_OK 1
static inline void peer_lock(void) {}
static inline int peer_trylock(void)
{
	return 1;
}
static inline void peer_unlock(void) {}
static void peer_lock_init(void) {}

#elif defined(PEER_MUTEX)
#define PEER_SYM peer_mutex
#define PEER_NAME "mutex"
#define PEER_TSAN_OK 1
static pthread_mutex_t lock LINE = PTHREAD_MUTEX_INITIALIZER;
static inline void peer_lock(void)
{
	pthread_mutex_lock(&lock);
}
static inline int peer_trylock(void)
{
	return pthread_mutex_trylock(&lock) == 0;
}
static inline void peer_unlock(void)
{
	pthread_mutex_unlock(&lock);
}
static void peer_lock_init(void) {}

#elif defined(PEER_SPIN)
#define PEER_SYM peer_spin
#define PEER_NAME "spin"
#define PEER_TSAN_OK 1
static pthread_spinlock_t lock LINE;
static inline void peer_lock(void)
{
	pthread_spin_lock(&lock);
}
static inline int peer_trylock(void)
{
	return pthread_spin_trylock(&lock) == 0;
}
static inline void peer_unlock(void)
{
	pthread_spin_unlock(&lock);
}
static void peer_lock_init(void)
{
	pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
}

#elif defined(PEER_TICKET)
#include <ck_spinlock.h>
#define PEER_SYM peer_ticket
#define PEER_NAME "ticket"
#define PEER_TSAN_OK 0	/* ck_pr is inline asm: invisible to TSan */
static ck_spinlock_ticket_t lock LINE;
static inline void peer_lock(void)
{
	ck_spinlock_ticket_lock(&lock);
}
static inline int peer_trylock(void)
{
	return ck_spinlock_ticket_trylock(&lock);
}
static inline void peer_unlock(void)
{
	ck_spinlock_ticket_unlock(&lock);
}
static void peer_lock_init(void)
{
	ck_spinlock_ticket_init(&lock);
}

#elif defined(PEER_MCS)
#include <ck_spinlock.h>
#define PEER_SYM peer_mcs
#define PEER_NAME "mcs"
#define PEER_TSAN_OK 0	/* ck_pr is inline asm: invisible to TSan */
static ck_spinlock_mcs_t lock LINE;
static _Thread_local ck_spinlock_mcs_context_t mcs_ctx LINE;
static inline void peer_lock(void)
{
	ck_spinlock_mcs_lock(&lock, &mcs_ctx);
}
static inline int peer_trylock(void)
{
	return ck_spinlock_mcs_trylock(&lock, &mcs_ctx);
}
static inline void peer_unlock(void)
{
	ck_spinlock_mcs_unlock(&lock, &mcs_ctx);
}
static void peer_lock_init(void)
{
	lock = CK_SPINLOCK_MCS_INITIALIZER;
}

#else
#error "define one of PEER_PLAIN, PEER_MUTEX, PEER_SPIN, PEER_TICKET, PEER_MCS (bench/peer_*.c)"
#endif

static struct dlist head LINE;
/* lruvec: head is the inactive list, head2 the active one (one lock for
 * both, as the kernel's lru_lock); p.linked says which (1, 2). */
static struct dlist head2 LINE;

static inline struct bnode *bnode_of(struct dlist *d)
{
	return dlist_entry(dlist_entry(d, struct plink, d), struct bnode, p);
}

static inline void link_after(struct dlist *pos, struct bnode *n)
{
	dlist_add_after(pos, &n->p.d);
	n->p.linked = 1;
}

static inline void unlink_node(struct bnode *n)
{
	dlist_del(&n->p.d);
	n->p.linked = 0;
}

/* Under the lock: take x (the head's neighbour) off, or NULL if x is the
 * head (empty). */
static inline struct bnode *pop(struct dlist *x)
{
	struct bnode *n;

	if (x == &head)
		return NULL;
	n = bnode_of(x);
	unlink_node(n);
	return n;
}

static void locked_init(size_t fl_batch, size_t nodes)
{
	(void)fl_batch;
	(void)nodes;
	dlist_init(&head);
	dlist_init(&head2);
}

static void locked_add_head(struct bnode *n)
{
	peer_lock();
	link_after(&head, n);
	peer_unlock();
}

static void locked_add_tail(struct bnode *n)
{
	peer_lock();
	link_after(head.prev, n);
	peer_unlock();
}

static struct bnode *locked_pop_head(void)
{
	struct bnode *r;

	peer_lock();
	r = pop(head.next);
	peer_unlock();
	return r;
}

static struct bnode *locked_pop_tail(void)
{
	struct bnode *r;

	peer_lock();
	r = pop(head.prev);
	peer_unlock();
	return r;
}

static int locked_add_after(struct bnode *pos, struct bnode *n)
{
	int ok;

	peer_lock();
	ok = pos->p.linked;
	if (ok)
		link_after(&pos->p.d, n);
	peer_unlock();
	return ok ? 0 : -1;
}

static void locked_del(struct bnode *n)
{
	peer_lock();
	unlink_node(n);
	peer_unlock();
}

static int locked_del_if_linked(struct bnode *n)
{
	int won;

	peer_lock();
	won = n->p.linked;
	if (won)
		unlink_node(n);
	peer_unlock();
	return won;
}

static void locked_move_head(struct bnode *n)
{
	peer_lock();
	if (n->p.linked)
		dlist_move_head(&head, &n->p.d);
	peer_unlock();
}

/* One lock per batch: each linked node out, then all in at the head (in
 * order, so v[k-1] ends first, as caslist_batch_flush puts the newest). */
static void locked_batch_move_head(struct bnode **v, size_t k)
{
	/* The nodes' lines, fetched before the lock as libcaslist's
	 * batch_move_head_n does (their neighbours cannot be read without
	 * the lock: that would be a data race here). */
	for (size_t i = 0; i < k; i++)
		__builtin_prefetch(&v[i]->p.d, 1, 3);
	peer_lock();
	for (size_t i = 0; i < k; i++)
		if (v[i]->p.linked)
			dlist_move_head(&head, &v[i]->p.d);
	peer_unlock();
}

/* The chain v[0..k-1] is built outside the lock; only the splice is inside. */
static void locked_put_batch(struct bnode **v, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		v[i]->p.d.prev = i ? &v[i - 1]->p.d : NULL;
		v[i]->p.d.next = i + 1 < k ? &v[i + 1]->p.d : NULL;
		v[i]->p.linked = 1;
	}
	peer_lock();
	dlist_splice_tail(&head, &v[0]->p.d, &v[k - 1]->p.d);
	peer_unlock();
}

/* The cut point is found by walking under the lock (no cluster
 * descriptors); the taken nodes are walked again outside it. */
static size_t locked_take(size_t want, struct bnode **out, size_t cap)
{
	struct dlist *x;
	size_t k;

	peer_lock();
	k = dlist_cut_front(&head, want < cap ? want : cap, &x);
	peer_unlock();
	for (size_t i = 0; i < k; i++) {
		struct dlist *nx = x->next;

		out[i] = bnode_of(x);
		out[i]->p.linked = 0;
		x = nx;
	}
	return k;
}

static long count_list(struct dlist *h, size_t max, const char **err)
{
	long n = 0;

	for (struct dlist *x = h->next; x != h; x = x->next) {
		if (x->next->prev != x || !bnode_of(x)->p.linked || (size_t)n > max) {
			*err = "plain list: broken links";
			return -1;
		}
		n++;
	}
	return n;
}

static long locked_count(size_t max, const char **err)
{
	long a = count_list(&head, max, err), b = a < 0 ? -1 : count_list(&head2, max, err);

	return a < 0 || b < 0 ? -1 : a + b;
}

/*
 * lruvec: the kernel's per-node LRU (doc/bench.md) with one lock for both
 * lists.  The lock is taken with a trylock first; only a failed one is
 * timed (lv_wait: ticks this thread spent waiting), so an uncontended
 * batch pays one trylock, as lock_page_lruvec_irq does.
 */
static _Thread_local uint64_t lv_wait;

static inline void lv_lock(void)
{
	uint64_t t0;

	if (peer_trylock())
		return;
	t0 = bench_ticks();
	peer_lock();
	lv_wait += bench_ticks() - t0;
}

static uint64_t locked_lv_wait(void)
{
	return lv_wait;
}

static inline void lv_link(struct dlist *h, struct bnode *n, int which)
{
	dlist_add_after(h, &n->p.d);
	n->p.linked = which;
	atomic_store_explicit(&n->lv_active, which == 2, memory_order_relaxed);
}

static void locked_lv_add(struct bnode **v, size_t k)
{
	lv_lock();
	for (size_t i = 0; i < k; i++)
		lv_link(&head, v[i], 1);
	peer_unlock();
}

static void locked_lv_activate(struct bnode **v, size_t k)
{
	lv_lock();
	for (size_t i = 0; i < k; i++)
		if (v[i]->p.linked == 1) {	/* on the inactive list */
			dlist_del(&v[i]->p.d);
			lv_link(&head2, v[i], 2);
		}
	peer_unlock();
}

static size_t locked_lv_isolate(struct bnode **out, size_t k)
{
	size_t i;

	lv_lock();
	for (i = 0; i < k && head.prev != &head; i++)
		out[i] = pop(head.prev);
	peer_unlock();
	return i;
}

static void locked_lv_putback(struct bnode **v, size_t k)
{
	lv_lock();
	for (size_t i = 0; i < k; i++)
		lv_link(&head2, v[i], 2);
	peer_unlock();
}

static size_t locked_lv_demote(size_t k)
{
	size_t i;

	lv_lock();
	for (i = 0; i < k && head2.prev != &head2; i++)
		lv_link(&head, pop(head2.prev), 1);
	peer_unlock();
	return i;
}

static int locked_lv_free(struct bnode *n)
{
	int won;

	lv_lock();
	won = n->p.linked != 0;
	if (won)
		unlink_node(n);
	peer_unlock();
	return won;
}

const struct peer PEER_SYM = {
	.name = PEER_NAME, .tsan_ok = PEER_TSAN_OK,
#ifdef PEER_PLAIN
	.one_thread = 1,
#endif
	.global_init = peer_lock_init, .init = locked_init,
	.add_head = locked_add_head, .add_tail = locked_add_tail,
	.pop_head = locked_pop_head, .pop_tail = locked_pop_tail,
	.add_after = locked_add_after, .add_near = locked_add_after,
	.del = locked_del, .del_if_linked = locked_del_if_linked,
	.move_head = locked_move_head,
	.batch_move_head = locked_batch_move_head, .put_batch = locked_put_batch,
	.take = locked_take, .put1 = locked_add_tail, .count = locked_count,
	.lv_add = locked_lv_add, .lv_activate = locked_lv_activate,
	.lv_isolate = locked_lv_isolate, .lv_putback = locked_lv_putback,
	.lv_demote = locked_lv_demote, .lv_free = locked_lv_free, .lv_wait = locked_lv_wait,
};
