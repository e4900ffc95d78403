/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/listbench.c - list operations per thread count, libcaslist against
 * peers, in one binary and one run, through Google Benchmark (bench/cbench.h).
 *
 * Every implementation works on the same node array (one 64-byte node per
 * cache line, as an object with a payload) and is called through the same
 * table of function pointers, so each pays the same indirect call.  Peers:
 *   plain     the same doubly-linked list, no lock: the floor, 1 thread only
 *   mutex     plain list under one pthread_mutex
 *   spin      plain list under one pthread_spinlock
 *   ticket    plain list under one ck_spinlock_ticket (Concurrency Kit)
 *   mcs       plain list under one ck_spinlock_mcs
 *   urcu      liburcu's cds_list, updates serialised by a pthread_mutex (as
 *             liburcu requires of list updaters)
 *   ck_stack  ck_stack push/pop_mpmc (stack mix only)
 *   lfstack   liburcu cds_lfs push / pop_blocking (stack mix only; pops are
 *             serialised by its internal mutex, which makes immediate node
 *             reuse ABA-safe)
 * A peer that cannot do a workload's operations is still registered (at one
 * thread) and reported as "unsupported: <why>" (error_message in the JSON).
 * Under ThreadSanitizer the ck peers and lfstack report "not run under
 * TSan": their atomics are inline asm that TSan cannot see.
 *
 * One iteration of each workload (items_per_second counts these, or nodes
 * where noted), with real time:
 *   lru_slice/N   move a random node of this thread's slice to the head
 *   lru_all/N     move a random node of the whole list to the head
 *   queue/N       pop the tail, add it at the head
 *   stack/N       pop the head, add it at the head
 *   del_disjoint/N delete a random node of this thread's slice, re-add it
 *                 after another random node of the slice
 *   del_overlap/N delete a random node of the whole list if still linked
 *                 (racing removers: exactly one wins), re-add it after a
 *                 random linked node
 *   add_near/N    as del_overlap, re-adding with add_near (peers: add_after)
 *   splice_cut/B  take a prefix of B nodes, splice them back at the tail as
 *                 one chain; counts nodes.  libcaslist: the cluster free list
 *                 (caslist_fl_take / caslist_fl_put_batch: O(1) cut and
 *                 splice); peers walk B nodes under their lock to find the
 *                 cut point (they keep no cluster descriptors).  Both walk
 *                 the taken nodes once outside the lock.
 *   fl_put/K      take a batch of K nodes, put them back one node at a time;
 *                 counts puts.  caslist: caslist_fl_put (every put locks the
 *                 tail cluster); caslist_cache: caslist_fl_cache_put (one
 *                 private cache per thread, one splice per K puts).
 * After each run thread 0 checks the structure and the node count; a
 * failure is reported as "FAIL: ..." and makes the program exit 1.
 *
 * Usage: listbench [--quick] [--smoke[=N]] [--pin] [--threads=N[,N...]] [--max-threads=N]
 *                  [--benchmark_* flags of Google Benchmark]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <caslist/caslist.h>

#include <ck_spinlock.h>
#include <ck_stack.h>
#include <urcu/lfstack.h>
#include <urcu/list.h>

#include "cbench.h"

#if defined(__SANITIZE_THREAD__)
#define LB_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LB_TSAN 1
#endif
#endif
#ifdef LB_TSAN
static const int under_tsan = 1;
#else
static const int under_tsan = 0;
#endif

#ifndef LISTBENCH_CFLAGS
#define LISTBENCH_CFLAGS "?"
#endif
#ifndef LISTBENCH_CC
#define LISTBENCH_CC "cc"
#endif

/* ---- the node: one cache line, whatever the implementation ---------- */

struct plink {			/* the plain list's links */
	struct plink *next, *prev;
	int linked;
};

struct bnode {
	union {
		struct caslist_fl_node fl;	/* fl.link: the caslist node */
		struct plink p;
		struct cds_list_head u;
		struct ck_stack_entry s;
		struct cds_lfs_node l;
	};
} __attribute__((aligned(64)));

#define CL_NODE(n) (&(n)->fl.link)
#define FROM_CL(c) caslist_entry(caslist_entry(c, struct caslist_fl_node, link), struct bnode, fl)

/* ---- implementations -------------------------------------------------- */

struct impl {
	const char *name;
	int tsan_ok;		/* its synchronisation is visible to TSan */
	int variant;		/* a libcaslist variant: no "unsupported" rows */
	const char *why;	/* what it lacks, for "unsupported" rows */
	void (*init)(size_t fl_batch, size_t nodes);	/* empty structure */
	void (*add_head)(struct bnode *n);
	void (*add_tail)(struct bnode *n);
	struct bnode *(*pop_head)(void);
	struct bnode *(*pop_tail)(void);
	int (*add_after)(struct bnode *pos, struct bnode *n);	/* 0, or -1: pos unlinked */
	int (*add_near)(struct bnode *pos, struct bnode *n);	/* same */
	void (*del)(struct bnode *n);
	int (*del_if_linked)(struct bnode *n);			/* 1 if this call removed it */
	void (*move_head)(struct bnode *n);
	void (*put_batch)(struct bnode **v, size_t k);		/* v[0..k-1] -> one chain */
	size_t (*take)(size_t want, struct bnode **out, size_t cap);
	void (*put1)(struct bnode *n);
	void (*put_flush)(void);
	/* quiescent: node count, or -1 with *err set */
	long (*count)(size_t max, const char **err);
};

/* Keep the shared words of each structure on lines of their own. */
#define LINE __attribute__((aligned(64)))

/* ---- libcaslist -------------------------------------------------------- */

static struct caslist_list cl_list LINE;
static struct caslist_fl cl_fl LINE;
static int cl_use_fl;		/* this run uses the free list, not cl_list */
static _Thread_local struct caslist_fl_cache cl_cache;

static void cl_init(size_t fl_batch, size_t nodes)
{
	cl_use_fl = fl_batch != 0;
	if (cl_use_fl) {
		caslist_fl_init(&cl_fl, (unsigned)fl_batch);
		caslist_fl_reserve(&cl_fl, nodes);
	} else {
		caslist_init(&cl_list);
	}
}
static void cl_add_head(struct bnode *n) { caslist_add_head(&cl_list, CL_NODE(n)); }
static void cl_add_tail(struct bnode *n) { caslist_add_tail(&cl_list, CL_NODE(n)); }
static struct bnode *cl_pop_head(void)
{
	struct caslist_node *c = caslist_pop_head(&cl_list);

	return c ? FROM_CL(c) : NULL;
}
static struct bnode *cl_pop_tail(void)
{
	struct caslist_node *c = caslist_pop_tail(&cl_list);

	return c ? FROM_CL(c) : NULL;
}
static int cl_add_after(struct bnode *pos, struct bnode *n)
{
	return caslist_add_after(CL_NODE(pos), CL_NODE(n)) == CASLIST_OK ? 0 : -1;
}
static int cl_add_near(struct bnode *pos, struct bnode *n)
{
	return caslist_add_near(CL_NODE(pos), CL_NODE(n)) >= 0 ? 0 : -1;
}
static void cl_del(struct bnode *n) { caslist_del(CL_NODE(n)); }
static int cl_del_if_linked(struct bnode *n) { return caslist_del_if_linked(CL_NODE(n)); }
static void cl_move_head(struct bnode *n) { caslist_move_head(&cl_list, CL_NODE(n)); }
static void cl_put_batch(struct bnode **v, size_t k)
{
	for (size_t i = 1; i < k; i++)
		caslist_chain_link(CL_NODE(v[i - 1]), CL_NODE(v[i]));
	caslist_fl_put_batch(&cl_fl, &v[0]->fl, &v[k - 1]->fl, k);
}
static size_t cl_take(size_t want, struct bnode **out, size_t cap)
{
	struct caslist_fl_batch b;
	struct caslist_fl_node *x;
	size_t i = 0;

	caslist_fl_take(&cl_fl, want, &b);
	while ((x = caslist_fl_batch_next(&b)) != NULL) {
		if (i == cap) {
			fprintf(stderr, "listbench: take returned more than %zu nodes\n", cap);
			abort();
		}
		out[i++] = caslist_entry(x, struct bnode, fl);
	}
	return i;
}
static void cl_put1(struct bnode *n) { caslist_fl_put(&cl_fl, &n->fl); }
static void clc_put1(struct bnode *n) { caslist_fl_cache_put(&cl_fl, &cl_cache, &n->fl); }
static void clc_flush(void) { caslist_fl_cache_flush(&cl_fl, &cl_cache); }
static long cl_count(size_t max, const char **err)
{
	size_t n = 0, clusters = 0;
	int rc;

	if (cl_use_fl) {
		rc = caslist_fl_check(&cl_fl, &n, &clusters);
		if (rc != 0)
			*err = caslist_fl_check_strerror(rc);
		caslist_fl_destroy(&cl_fl);
	} else {
		rc = caslist_check(&cl_list, max, &n);
		if (rc != 0)
			*err = caslist_check_strerror(rc);
	}
	return rc != 0 ? -1 : (long)n;
}

/* ---- the plain list, and the same list under four locks -------------- */

static struct plink p_head LINE;

static void p_init(size_t fl_batch, size_t nodes)
{
	p_head.next = p_head.prev = &p_head;
}
static inline void p_unlink(struct plink *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->linked = 0;
}
static inline void p_link_after(struct plink *pos, struct plink *n)
{
	n->next = pos->next;
	n->prev = pos;
	pos->next->prev = n;
	pos->next = n;
	n->linked = 1;
}
static inline struct bnode *p_pop(struct plink *x)
{
	if (x == &p_head)
		return NULL;
	p_unlink(x);
	return caslist_entry(x, struct bnode, p);
}
/* The chain v[0..k-1] is built outside the lock; only the splice is inside. */
static inline void p_chain(struct bnode **v, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		v[i]->p.prev = i ? &v[i - 1]->p : NULL;
		v[i]->p.next = i + 1 < k ? &v[i + 1]->p : NULL;
		v[i]->p.linked = 1;
	}
}
static inline void p_splice_tail(struct plink *first, struct plink *last)
{
	first->prev = p_head.prev;
	p_head.prev->next = first;
	last->next = &p_head;
	p_head.prev = last;
}
/* Under the lock: find the cut point by walking, cut; returns the count. */
static inline size_t p_cut(size_t want, struct plink **first)
{
	struct plink *last = &p_head;
	size_t k = 0;

	while (k < want && last->next != &p_head) {
		last = last->next;
		k++;
	}
	*first = p_head.next;
	if (k) {
		p_head.next = last->next;
		last->next->prev = &p_head;
	}
	return k;
}
static inline void p_unchain(struct plink *x, size_t k, struct bnode **out)
{
	for (size_t i = 0; i < k; i++) {
		struct plink *nx = x->next;

		x->linked = 0;
		out[i] = caslist_entry(x, struct bnode, p);
		x = nx;
	}
}
static long p_count(size_t max, const char **err)
{
	long n = 0;

	for (struct plink *x = p_head.next; x != &p_head; x = x->next) {
		if (x->next->prev != x || !x->linked || (size_t)n > max) {
			*err = "plain list: broken links";
			return -1;
		}
		n++;
	}
	return n;
}

#define P_DEFINE(NAME, LOCK, UNLOCK)                                                   \
	static void NAME##_add_head(struct bnode *n)                                   \
	{                                                                              \
		LOCK;                                                                  \
		p_link_after(&p_head, &n->p);                                          \
		UNLOCK;                                                                \
	}                                                                              \
	static void NAME##_add_tail(struct bnode *n)                                   \
	{                                                                              \
		LOCK;                                                                  \
		p_link_after(p_head.prev, &n->p);                                      \
		UNLOCK;                                                                \
	}                                                                              \
	static struct bnode *NAME##_pop_head(void)                                     \
	{                                                                              \
		struct bnode *r;                                                       \
		LOCK;                                                                  \
		r = p_pop(p_head.next);                                                \
		UNLOCK;                                                                \
		return r;                                                              \
	}                                                                              \
	static struct bnode *NAME##_pop_tail(void)                                     \
	{                                                                              \
		struct bnode *r;                                                       \
		LOCK;                                                                  \
		r = p_pop(p_head.prev);                                                \
		UNLOCK;                                                                \
		return r;                                                              \
	}                                                                              \
	static int NAME##_add_after(struct bnode *pos, struct bnode *n)                \
	{                                                                              \
		int ok;                                                                \
		LOCK;                                                                  \
		ok = pos->p.linked;                                                    \
		if (ok)                                                                \
			p_link_after(&pos->p, &n->p);                                  \
		UNLOCK;                                                                \
		return ok ? 0 : -1;                                                    \
	}                                                                              \
	static void NAME##_del(struct bnode *n)                                        \
	{                                                                              \
		LOCK;                                                                  \
		p_unlink(&n->p);                                                       \
		UNLOCK;                                                                \
	}                                                                              \
	static int NAME##_del_if_linked(struct bnode *n)                               \
	{                                                                              \
		int won;                                                               \
		LOCK;                                                                  \
		won = n->p.linked;                                                     \
		if (won)                                                               \
			p_unlink(&n->p);                                               \
		UNLOCK;                                                                \
		return won;                                                            \
	}                                                                              \
	static void NAME##_move_head(struct bnode *n)                                  \
	{                                                                              \
		LOCK;                                                                  \
		if (n->p.linked) {                                                     \
			p_unlink(&n->p);                                               \
			p_link_after(&p_head, &n->p);                                  \
		}                                                                      \
		UNLOCK;                                                                \
	}                                                                              \
	static void NAME##_put_batch(struct bnode **v, size_t k)                       \
	{                                                                              \
		p_chain(v, k);                                                         \
		LOCK;                                                                  \
		p_splice_tail(&v[0]->p, &v[k - 1]->p);                                 \
		UNLOCK;                                                                \
	}                                                                              \
	static size_t NAME##_take(size_t want, struct bnode **out, size_t cap)         \
	{                                                                              \
		struct plink *first;                                                   \
		size_t k;                                                              \
		LOCK;                                                                  \
		k = p_cut(want < cap ? want : cap, &first);                            \
		UNLOCK;                                                                \
		p_unchain(first, k, out);                                              \
		return k;                                                              \
	}

static struct {
	pthread_mutex_t mutex LINE;
	pthread_spinlock_t spin LINE;
	ck_spinlock_ticket_t ticket LINE;
	ck_spinlock_mcs_t mcs LINE;
	pthread_mutex_t urcu LINE;
} locks;
static _Thread_local ck_spinlock_mcs_context_t mcs_ctx LINE;

P_DEFINE(plain, (void)0, (void)0)
P_DEFINE(mtx, pthread_mutex_lock(&locks.mutex), pthread_mutex_unlock(&locks.mutex))
P_DEFINE(spn, pthread_spin_lock(&locks.spin), pthread_spin_unlock(&locks.spin))
P_DEFINE(tkt, ck_spinlock_ticket_lock(&locks.ticket), ck_spinlock_ticket_unlock(&locks.ticket))
P_DEFINE(mcs, ck_spinlock_mcs_lock(&locks.mcs, &mcs_ctx),
	 ck_spinlock_mcs_unlock(&locks.mcs, &mcs_ctx))

/* ---- liburcu's list, updates under a mutex ---------------------------- */

static struct cds_list_head u_head LINE;

#define U_LOCK pthread_mutex_lock(&locks.urcu)
#define U_UNLOCK pthread_mutex_unlock(&locks.urcu)
#define U_NODE(x) caslist_entry(x, struct bnode, u)
/* an unlinked node is kept self-linked (cds_list_del_init) */
#define U_LINKED(n) (!cds_list_empty(&(n)->u))

static void u_init(size_t fl_batch, size_t nodes) { CDS_INIT_LIST_HEAD(&u_head); }
static void u_add_head(struct bnode *n)
{
	U_LOCK;
	cds_list_add(&n->u, &u_head);
	U_UNLOCK;
}
static void u_add_tail(struct bnode *n)
{
	U_LOCK;
	cds_list_add_tail(&n->u, &u_head);
	U_UNLOCK;
}
static struct bnode *u_pop(int tail)
{
	struct cds_list_head *x = NULL;

	U_LOCK;
	if (!cds_list_empty(&u_head)) {
		x = tail ? u_head.prev : u_head.next;
		cds_list_del_init(x);
	}
	U_UNLOCK;
	return x ? U_NODE(x) : NULL;
}
static struct bnode *u_pop_head(void) { return u_pop(0); }
static struct bnode *u_pop_tail(void) { return u_pop(1); }
static int u_add_after(struct bnode *pos, struct bnode *n)
{
	int ok;

	U_LOCK;
	ok = U_LINKED(pos);
	if (ok)
		cds_list_add(&n->u, &pos->u);
	U_UNLOCK;
	return ok ? 0 : -1;
}
static void u_del(struct bnode *n)
{
	U_LOCK;
	cds_list_del_init(&n->u);
	U_UNLOCK;
}
static int u_del_if_linked(struct bnode *n)
{
	int won;

	U_LOCK;
	won = U_LINKED(n);
	if (won)
		cds_list_del_init(&n->u);
	U_UNLOCK;
	return won;
}
static void u_move_head(struct bnode *n)
{
	U_LOCK;
	if (U_LINKED(n))
		cds_list_move(&n->u, &u_head);
	U_UNLOCK;
}
static void u_put_batch(struct bnode **v, size_t k)
{
	struct cds_list_head tmp;

	CDS_INIT_LIST_HEAD(&tmp);
	for (size_t i = 0; i < k; i++)
		cds_list_add_tail(&v[i]->u, &tmp);
	U_LOCK;
	cds_list_splice(&tmp, u_head.prev);
	U_UNLOCK;
}
static size_t u_take(size_t want, struct bnode **out, size_t cap)
{
	struct cds_list_head *first, *last = &u_head;
	size_t k = 0;

	if (want > cap)
		want = cap;
	U_LOCK;
	while (k < want && last->next != &u_head) {
		last = last->next;
		k++;
	}
	first = u_head.next;
	if (k) {
		u_head.next = last->next;
		last->next->prev = &u_head;
	}
	U_UNLOCK;
	for (size_t i = 0; i < k; i++) {
		struct cds_list_head *nx = first->next;

		CDS_INIT_LIST_HEAD(first);
		out[i] = U_NODE(first);
		first = nx;
	}
	return k;
}
static long u_count(size_t max, const char **err)
{
	struct cds_list_head *x;
	long n = 0;

	cds_list_for_each(x, &u_head) {
		if (x->next->prev != x || (size_t)n > max) {
			*err = "urcu list: broken links";
			return -1;
		}
		n++;
	}
	return n;
}

/* ---- stacks: ck_stack (mpmc), liburcu lfstack ------------------------- */

static struct ck_stack ck_stk LINE;
static struct cds_lfs_stack lf_stk LINE;

static void cks_init(size_t fl_batch, size_t nodes)
{
	ck_stk.head = NULL;
	ck_stk.generation = NULL;
}
static void cks_push(struct bnode *n) { ck_stack_push_mpmc(&ck_stk, &n->s); }
static struct bnode *cks_pop(void)
{
	struct ck_stack_entry *e = ck_stack_pop_mpmc(&ck_stk);

	return e ? caslist_entry(e, struct bnode, s) : NULL;
}
static long cks_count(size_t max, const char **err)
{
	long n = 0;

	for (struct ck_stack_entry *e = ck_stk.head; e; e = e->next)
		if ((size_t)++n > max) {
			*err = "ck_stack: cycle";
			return -1;
		}
	return n;
}

static void lfs_init(size_t fl_batch, size_t nodes)
{
	while (cds_lfs_pop_blocking(&lf_stk) != NULL)
		;
}
static void lfs_push(struct bnode *n)
{
	cds_lfs_node_init(&n->l);
	cds_lfs_push(&lf_stk, &n->l);
}
static struct bnode *lfs_pop(void)
{
	struct cds_lfs_node *x = cds_lfs_pop_blocking(&lf_stk);

	return x ? caslist_entry(x, struct bnode, l) : NULL;
}
static long lfs_count(size_t max, const char **err)
{
	long n = 0;

	/* quiescent: pop everything (the next run's init starts empty) */
	while (cds_lfs_pop_blocking(&lf_stk) != NULL)
		if ((size_t)++n > max) {
			*err = "lfstack: more nodes than pushed";
			return -1;
		}
	return n;
}

#define P_IMPL(NAME, PREFIX, TSAN_OK)                                                  \
	{                                                                              \
		.name = NAME, .tsan_ok = TSAN_OK, .init = p_init,                      \
		.add_head = PREFIX##_add_head, .add_tail = PREFIX##_add_tail,          \
		.pop_head = PREFIX##_pop_head, .pop_tail = PREFIX##_pop_tail,          \
		.add_after = PREFIX##_add_after, .add_near = PREFIX##_add_after,       \
		.del = PREFIX##_del, .del_if_linked = PREFIX##_del_if_linked,          \
		.move_head = PREFIX##_move_head, .put_batch = PREFIX##_put_batch,      \
		.take = PREFIX##_take, .put1 = PREFIX##_add_tail, .count = p_count,    \
	}

static const struct impl impls[] = {
	{ .name = "caslist", .tsan_ok = 1, .init = cl_init, .add_head = cl_add_head,
	  .add_tail = cl_add_tail, .pop_head = cl_pop_head, .pop_tail = cl_pop_tail,
	  .add_after = cl_add_after, .add_near = cl_add_near, .del = cl_del,
	  .del_if_linked = cl_del_if_linked, .move_head = cl_move_head,
	  .put_batch = cl_put_batch, .take = cl_take, .put1 = cl_put1, .count = cl_count },
	{ .name = "caslist_cache", .tsan_ok = 1, .variant = 1, .init = cl_init,
	  .put_batch = cl_put_batch, .take = cl_take, .put1 = clc_put1, .put_flush = clc_flush,
	  .count = cl_count },
	P_IMPL("plain", plain, 1),
	P_IMPL("mutex", mtx, 1),
	P_IMPL("spin", spn, 1),
	P_IMPL("ticket", tkt, 0),
	P_IMPL("mcs", mcs, 0),
	{ .name = "urcu", .tsan_ok = 1, .init = u_init, .add_head = u_add_head,
	  .add_tail = u_add_tail, .pop_head = u_pop_head, .pop_tail = u_pop_tail,
	  .add_after = u_add_after, .add_near = u_add_after, .del = u_del,
	  .del_if_linked = u_del_if_linked, .move_head = u_move_head,
	  .put_batch = u_put_batch, .take = u_take, .put1 = u_add_tail, .count = u_count },
	{ .name = "ck_stack", .tsan_ok = 0, .init = cks_init,
	  .why = "a LIFO stack: push and pop at the top only", .add_head = cks_push,
	  .pop_head = cks_pop, .count = cks_count },
	{ .name = "lfstack", .tsan_ok = 0, .init = lfs_init,
	  .why = "a LIFO stack: push and pop at the top only", .add_head = lfs_push,
	  .pop_head = lfs_pop, .count = lfs_count },
};
#define NIMPLS (sizeof(impls) / sizeof(impls[0]))
#define IS_PLAIN(im) (strcmp((im)->name, "plain") == 0)

/* ---- workloads ---------------------------------------------------------- */

enum kind { LRU_SLICE, LRU_ALL, QUEUE, STACK, DEL_DISJOINT, DEL_OVERLAP, ADD_NEAR,
	    SPLICE_CUT, FL_PUT };

struct workload {
	const char *name;
	enum kind kind;
	const char *what;	/* one iteration, for the report's context */
	int64_t args[8], quick[8];	/* 0-terminated */
	unsigned batch;		/* iterations per keep_running_batch */
};

static const struct workload workloads[] = {
	{ "lru_slice", LRU_SLICE, "move a random node of the thread's slice to the head",
	  { 64, 4096, 262144 }, { 4096 }, 32 },
	{ "lru_all", LRU_ALL, "move a random node of the whole list to the head",
	  { 64, 4096, 262144 }, { 64, 4096 }, 32 },
	{ "queue", QUEUE, "pop the tail, add it at the head", { 1024 }, { 1024 }, 32 },
	{ "stack", STACK, "pop the head, add it at the head", { 1024 }, { 1024 }, 32 },
	{ "del_disjoint", DEL_DISJOINT,
	  "delete a random node of the thread's slice, re-add it after another one of the slice",
	  { 4096 }, { 4096 }, 32 },
	{ "del_overlap", DEL_OVERLAP,
	  "delete a random node if linked (racing removers), re-add it after a random linked node",
	  { 4096 }, { 4096 }, 32 },
	{ "add_near", ADD_NEAR,
	  "as del_overlap, re-adding with add_near (peers: add_after)", { 4096 }, { 4096 }, 32 },
	{ "splice_cut", SPLICE_CUT,
	  "take a prefix of B nodes, splice them back at the tail; counts nodes",
	  { 8, 16, 31, 63, 127, 255, 511 }, { 8, 63, 511 }, 1 },
	{ "fl_put", FL_PUT, "take K nodes, put them back one at a time; counts puts", { 64 },
	  { 64 }, 1 },
};
#define NWORKLOADS (sizeof(workloads) / sizeof(workloads[0]))

static int supports(const struct workload *w, const struct impl *im)
{
	if (im->variant && w->kind != FL_PUT)	/* caslist_cache: the put variant */
		return 0;
	switch (w->kind) {
	case LRU_SLICE:
	case LRU_ALL:
		return im->move_head != NULL;
	case QUEUE:
		return im->pop_tail && im->add_head;
	case STACK:
		return im->pop_head && im->add_head;
	case DEL_DISJOINT:
		return im->del && im->add_after;
	case DEL_OVERLAP:
		return im->del_if_linked && im->add_after;
	case ADD_NEAR:
		return im->del_if_linked && im->add_near;
	case SPLICE_CUT:
		return im->take && im->put_batch;
	case FL_PUT:
		return im->take && im->put1;
	}
	return 0;
}

struct spec {
	const struct workload *w;
	const struct impl *im;
	char why[160];		/* non-empty: report this instead of running */
	int slow_at;		/* stopped as too slow at this many threads */
};

/* State shared by the threads of one run, set up by thread 0 before the
 * timing loop (the loop's start barrier orders it before their use). */
static struct {
	struct bnode *nodes;
	size_t n;
} R;

static _Atomic int failures;

/*
 * The run limit.  Spinning waiters of a FIFO lock (ticket, MCS) that get
 * preempted (more threads than cores) can make every hand-off wait for a
 * scheduler tick; a run with a fixed iteration count then takes minutes.
 * A watchdog thread stores a run's start time in run_stop_for when it has
 * gone on longer than run_limit seconds (a stale value can never match a
 * later run's start); the threads then end the run with an error row
 * "too slow", keeping the rate measured so far.  All three are plain
 * flags/timestamps with no data published through them: relaxed.
 */
static double run_limit = -1;	/* default: 2 s, --quick 0.3 s */
static _Atomic int64_t run_started_ns;	/* 0: no run in progress */
static _Atomic int64_t run_stop_for;	/* the start time of the run to stop */

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *watchdog(void *arg)
{
	(void)arg;
	for (;;) {
		int64_t t0 = atomic_load_explicit(&run_started_ns, memory_order_relaxed);
		struct timespec d = { 0, 20 * 1000 * 1000 };

		if (t0 && (double)(now_ns() - t0) * 1e-9 > run_limit)
			atomic_store_explicit(&run_stop_for, t0, memory_order_relaxed);
		nanosleep(&d, NULL);
	}
	return NULL;
}
static int plant_lost_node;	/* --plant-bug=lost-node: the check must catch it */

static inline uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
static inline size_t rnd(uint64_t *s, size_t n)
{
	return (size_t)(((splitmix64(s) >> 32) * (uint64_t)n) >> 32);
}

static size_t prefill_nodes(const struct workload *w, size_t arg, int threads)
{
	if (w->kind == SPLICE_CUT || w->kind == FL_PUT)	/* no thread runs dry */
		return arg * (size_t)(2 * threads + 4);
	return arg;
}

static void setup(const struct spec *sp, size_t arg, int threads)
{
	const struct impl *im = sp->im;
	size_t n = prefill_nodes(sp->w, arg, threads);
	int fl = sp->w->kind == SPLICE_CUT || sp->w->kind == FL_PUT;

	R.nodes = aligned_alloc(64, n * sizeof(struct bnode));
	if (R.nodes == NULL) {
		fprintf(stderr, "listbench: out of memory (%zu nodes)\n", n);
		exit(2);
	}
	memset(R.nodes, 0, n * sizeof(struct bnode));
	R.n = n;
	im->init(fl ? arg : 0, n);
	if (fl) {
		struct bnode **v = malloc(arg * sizeof(*v));

		if (v == NULL)
			exit(2);
		for (size_t i = 0; i < n; i += arg) {
			for (size_t j = 0; j < arg; j++) {
				v[j] = &R.nodes[i + j];
				caslist_fl_node_init(&v[j]->fl);
			}
			im->put_batch(v, arg);
		}
		free(v);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		caslist_node_init(CL_NODE(&R.nodes[i]));
		if (im->add_tail)
			im->add_tail(&R.nodes[i]);
		else
			im->add_head(&R.nodes[i]);
	}
}

static void teardown(cbench_state *s, const struct spec *sp)
{
	const char *err = NULL;
	long got = sp->im->count(R.n, &err);
	char msg[200];

	if (got != (long)R.n) {
		if (got < 0)
			snprintf(msg, sizeof(msg), "FAIL: %s", err ? err : "check failed");
		else
			snprintf(msg, sizeof(msg), "FAIL: %ld nodes at the end, expected %zu", got,
				 R.n);
		fprintf(stderr, "listbench: %s/%s threads=%d: %s\n", sp->w->name, sp->im->name,
			cbench_thread_count(s), msg);
		atomic_fetch_add(&failures, 1);
		cbench_skip_with_error(s, msg);
	}
	free(R.nodes);
	R.nodes = NULL;
}

/* Inside the loop, every thread once the watchdog fired: end the run
 * with an error row (the first thread's message is the one kept). */
static void stop_run(cbench_state *s, const struct spec *sp)
{
	char msg[200];
	double secs = (double)(now_ns() - atomic_load_explicit(&run_started_ns,
								memory_order_relaxed)) * 1e-9;

	snprintf(msg, sizeof(msg), "too slow: stopped after %.1f s at about %.3gM items/s (%s)",
		 secs, (double)cbench_iterations(s) * cbench_thread_count(s) / secs * 1e-6,
		 cbench_thread_count(s) > cbench_num_cpus()
			 ? "spinning waiters preempted: more threads than cores"
			 : "--run-limit");
	if (cbench_thread_index(s) == 0)
		fprintf(stderr, "listbench: %s/%s/%zu threads=%d: %s\n", sp->w->name,
			sp->im->name, (size_t)cbench_range_arg(s, 0), cbench_thread_count(s), msg);
	cbench_skip_with_error(s, msg);
}

static void body(cbench_state *s, void *user)
{
	const struct spec *sp = user;
	const struct impl *im = sp->im;
	const unsigned batch = sp->w->batch;
	const int t = cbench_thread_index(s), nt = cbench_thread_count(s);
	const size_t arg = (size_t)cbench_range_arg(s, 0);
	uint64_t rng = 0x5eedULL + (uint64_t)t * 0x10001ULL;
	size_t lo = arg * (size_t)t / (size_t)nt, hi = arg * (size_t)(t + 1) / (size_t)nt;
	size_t slice = hi - lo, cap = 4 * arg;
	struct bnode **buf = NULL;
	int64_t items = 0;
	int lose = plant_lost_node && t == 0 && strcmp(im->name, "caslist") == 0;

	if (sp->why[0])
		cbench_skip_with_error(s, sp->why);
	else if (sp->slow_at && nt > sp->slow_at)
		cbench_skip_with_error(s, "not run: too slow at fewer threads");
	else if ((sp->w->kind == LRU_SLICE && slice < 1) ||
		 (sp->w->kind == DEL_DISJOINT && slice < 2))
		cbench_skip_with_error(s, "unsupported: fewer nodes than threads need");
	if (cbench_error_occurred(s)) {
		while (cbench_keep_running(s))
			;
		return;
	}
	if (sp->w->kind == SPLICE_CUT || sp->w->kind == FL_PUT) {
		buf = malloc(cap * sizeof(*buf));
		if (buf == NULL)
			exit(2);
	}
	if (t == 0) {
		setup(sp, arg, nt);
		atomic_store_explicit(&run_started_ns, now_ns(), memory_order_relaxed);
	}

	while (cbench_keep_running_batch(s, batch)) {
		if (atomic_load_explicit(&run_stop_for, memory_order_relaxed) ==
		    atomic_load_explicit(&run_started_ns, memory_order_relaxed)) {
			stop_run(s, sp);	/* the loop's next test ends it */
			continue;
		}
		for (unsigned b = 0; b < batch; b++) {
			struct bnode *x, *p;
			size_t k;

			switch (sp->w->kind) {
			case LRU_SLICE:
				im->move_head(&R.nodes[lo + rnd(&rng, slice)]);
				break;
			case LRU_ALL:
				im->move_head(&R.nodes[rnd(&rng, arg)]);
				break;
			case QUEUE:
				x = im->pop_tail();
				if (x && lose) {
					lose = 0;	/* planted bug: drop one node */
					x = NULL;
				}
				if (x)
					im->add_head(x);
				break;
			case STACK:
				x = im->pop_head();
				if (x)
					im->add_head(x);
				break;
			case DEL_DISJOINT:
				k = rnd(&rng, slice);
				x = &R.nodes[lo + k];
				im->del(x);
				k = (k + 1 + rnd(&rng, slice - 1)) % slice;	/* another one */
				if (im->add_after(&R.nodes[lo + k], x) != 0) {
					fprintf(stderr, "listbench: %s: own node unlinked\n", im->name);
					abort();
				}
				break;
			case DEL_OVERLAP:
			case ADD_NEAR:
				x = &R.nodes[rnd(&rng, arg)];
				if (!im->del_if_linked(x))
					break;
				do
					p = &R.nodes[rnd(&rng, arg)];
				while ((sp->w->kind == ADD_NEAR ? im->add_near(p, x)
								: im->add_after(p, x)) != 0);
				break;
			case SPLICE_CUT:
				k = im->take(arg, buf, cap);
				if (k)
					im->put_batch(buf, k);
				items += (int64_t)k - 1;	/* nodes, not iterations */
				break;
			case FL_PUT:
				k = im->take(arg, buf, cap);
				for (size_t i = 0; i < k; i++)
					im->put1(buf[i]);
				if (im->put_flush)
					im->put_flush();
				items += (int64_t)k - 1;	/* puts, not iterations */
				break;
			}
		}
	}
	items += cbench_iterations(s);
	cbench_set_items_processed(s, items);
	free(buf);
	if (t == 0) {
		if (atomic_load_explicit(&run_stop_for, memory_order_relaxed) ==
		    atomic_load_explicit(&run_started_ns, memory_order_relaxed))
			((struct spec *)user)->slow_at = nt;	/* read by later runs' threads */
		atomic_store_explicit(&run_started_ns, 0, memory_order_relaxed);
		teardown(s, sp);
	}
}

/* ---- registration and main --------------------------------------------- */

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void usage(void)
{
	puts("usage: listbench [--quick] [--pin] [--threads=N[,N...]] [--max-threads=N]\n"
	     "                 [--benchmark_* flags]  (--benchmark_list_tests lists the runs)\n"
	     "  --quick        fewer sizes and a short min_time (make bench-quick)\n"
	     "  --pin          pin benchmark thread i to CPU i mod the online CPUs\n"
	     "  --threads=L    run these thread counts too (e.g. 3,64,256)\n"
	     "  --max-threads  cap the default counts 1, 2, 4, ... (default: 2x cores)\n"
	     "  --smoke[=N]    N (2048) iterations per run, no estimation (bench/smoke.sh)\n"
	     "  --run-limit=S  end a run after S seconds as \"too slow\" (default 2, quick 0.3)");
}

int main(int argc, char **argv)
{
	int counts[64], ncounts = 0, quick = 0, pin = 0, smoke = 0, maxt = -1, min_time_given = 0;
	int cores = (int)sysconf(_SC_NPROCESSORS_ONLN), oversub = 0;
	struct spec *specs;
	size_t nspecs = 0;
	char buf[512];
	double min_time = 0;
	int j = 1;

	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "--benchmark_min_time=", 21) == 0) {
			min_time_given = 1;
			min_time = atof(argv[i] + 21);
		}
	cbench_initialize(&argc, argv);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--quick") == 0) {
			quick = 1;
		} else if (strcmp(a, "--pin") == 0) {
			pin = 1;
		} else if (strncmp(a, "--max-threads=", 14) == 0) {
			maxt = atoi(a + 14);
		} else if (strncmp(a, "--threads=", 10) == 0) {
			for (char *p = (char *)a + 10; *p;) {
				long v = strtol(p, &p, 10);

				if (v < 1 || v > 4096 || ncounts >= 32) {
					fprintf(stderr, "listbench: bad --threads: %s\n", a);
					return 2;
				}
				counts[ncounts++] = (int)v;
				if (*p == ',')
					p++;
				else if (*p)
					break;
			}
		} else if (strncmp(a, "--smoke", 7) == 0) {
			smoke = a[7] == '=' ? atoi(a + 8) : 2048;
		} else if (strncmp(a, "--run-limit=", 12) == 0) {
			run_limit = atof(a + 12);
		} else if (strcmp(a, "--plant-bug=lost-node") == 0) {
			plant_lost_node = 1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage();
			return 0;
		} else {
			argv[j++] = argv[i];
		}
	}
	argc = j;
	if (cbench_report_unrecognized(argc, argv)) {
		usage();
		return 2;
	}
	if (cores < 1)
		cores = 1;
	if (run_limit <= 0)	/* generous against min_time: only pathologies hit it */
		run_limit = min_time * 8 > (quick ? 0.3 : 2.0) ? min_time * 8 : (quick ? 0.3 : 2.0);
	if (smoke > 0 && run_limit < 60)	/* a correctness run: let it finish */
		run_limit = 60;
	if (maxt < 1)
		maxt = 2 * cores;
	for (int t = 1; t <= maxt && ncounts < 64; t *= 2)
		counts[ncounts++] = t;
	qsort(counts, (size_t)ncounts, sizeof(int), cmp_int);
	j = 0;
	for (int i = 0; i < ncounts; i++)
		if (j == 0 || counts[i] != counts[j - 1])
			counts[j++] = counts[i];
	ncounts = j;
	for (int i = 0; i < ncounts; i++)
		oversub += counts[i] > cores;

	/* the report's context: what a reader needs to trust the ratios */
	snprintf(buf, sizeof(buf), "%d online", cores);
	cbench_add_context("cores", buf);
	cbench_add_context("compiler", LISTBENCH_CC " " __VERSION__);
	cbench_add_context("cflags", LISTBENCH_CFLAGS);
	cbench_add_context("libbenchmark",
			   "Debian libbenchmark 1.7.1: the shared library is a DEBUG build "
			   "(library_build_type); the timing loop is inlined into bench/cbench.cc");
	buf[0] = 0;
	for (int i = 0; i < ncounts; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%d", i ? "," : "",
			 counts[i]);
	cbench_add_context("thread_counts", buf);
	if (oversub)
		snprintf(buf, sizeof(buf), "yes: %d of %d thread counts exceed %d cores", oversub,
			 ncounts, cores);
	else
		snprintf(buf, sizeof(buf), "no");
	cbench_add_context("oversubscribed", buf);
	cbench_add_context("pinned", pin ? "yes: thread i on CPU i mod cores" : "no");
	cbench_add_context("mode", quick ? "quick" : "full");
	cbench_add_context("sanitizer", under_tsan ? "thread (ck peers and lfstack not run)"
						   : "none");
	snprintf(buf, sizeof(buf), "%zu bytes, one per cache line", sizeof(struct bnode));
	cbench_add_context("node", buf);
	for (size_t w = 0; w < NWORKLOADS; w++) {
		snprintf(buf, sizeof(buf), "workload %s", workloads[w].name);
		cbench_add_context(buf, workloads[w].what);
	}
	cbench_set_pin(pin);
	pthread_mutex_init(&locks.mutex, NULL);
	pthread_spin_init(&locks.spin, PTHREAD_PROCESS_PRIVATE);
	ck_spinlock_ticket_init(&locks.ticket);
	locks.mcs = CK_SPINLOCK_MCS_INITIALIZER;
	pthread_mutex_init(&locks.urcu, NULL);
	cds_lfs_init(&lf_stk);

	specs = calloc(NWORKLOADS * 8 * NIMPLS, sizeof(*specs));
	if (specs == NULL)
		return 2;
	for (size_t w = 0; w < NWORKLOADS; w++) {
		const struct workload *wl = &workloads[w];
		const int64_t *args = quick ? wl->quick : wl->args;

		for (int a = 0; a < 8 && args[a]; a++) {
			for (size_t i = 0; i < NIMPLS; i++) {
				const struct impl *im = &impls[i];
				struct spec *sp = &specs[nspecs];
				int only1 = 0;
				cbench *b;

				if (!supports(wl, im)) {
					if (im->variant)
						continue;
					snprintf(sp->why, sizeof(sp->why), "unsupported: %s",
						 im->why ? im->why : "lacks the operation");
					only1 = 1;
				} else if (under_tsan && !im->tsan_ok) {
					snprintf(sp->why, sizeof(sp->why),
						 "not run under TSan: its atomics are inline asm "
						 "TSan cannot see");
					only1 = 1;
				}
				only1 |= IS_PLAIN(im);
				sp->w = wl;
				sp->im = im;
				nspecs++;
				snprintf(buf, sizeof(buf), "%s/%s", wl->name, im->name);
				b = cbench_register(buf, body, sp);
				cbench_arg(b, args[a]);
				cbench_use_real_time(b);
				if (wl->kind == SPLICE_CUT || wl->kind == FL_PUT)
					cbench_unit(b, 'u');
				if (smoke > 0)	/* one short run each: a correctness test */
					cbench_iterations_fixed(b, smoke);
				else if (!min_time_given)
					cbench_min_time(b, quick ? 0.02 : 0.25);
				for (int c = 0; c < ncounts && !(only1 && c > 0); c++)
					cbench_threads(b, only1 ? 1 : counts[c]);
			}
		}
	}
	{
		pthread_t wd;

		if (pthread_create(&wd, NULL, watchdog, NULL) != 0)
			return 2;
		pthread_detach(wd);
	}
	cbench_run();
	cbench_shutdown();
	free(specs);
	if (atomic_load(&failures)) {
		fprintf(stderr, "listbench: %d run(s) FAILED their end-of-run check\n",
			atomic_load(&failures));
		return 1;
	}
	return 0;
}
