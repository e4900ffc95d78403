/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/coldfloor.c - what the cold move costs a core, by variant of the
 * floor (bench/floor.h's floor_move_head: L(n), L(pred), L(head), the
 * unlink's and the insert's stores), one thread, on a list whose nodes
 * are linked in a random order so that a node's neighbours are random
 * lines: every move misses on the node, its predecessor and its
 * successor (issue 54).  A question about the core, not about the
 * library: which order of the same accesses lets the misses overlap.
 *
 *   base     floor_move_head: load n's words, CAS n, CAS pred, CAS head
 *   pfw      prefetchw pred and succ right after n's words arrive, then base
 *            (the library's caslist_lk_pair_first does this)
 *   touch    plain loads of pred's and succ's words instead (their values
 *            unused): the loads may miss in parallel, as prefetches may not
 *   pfwtouch both
 *   xchg     base with every lock taken by XCHG instead of CAS (a floor
 *            only: the library's CAS validates the prev hint, an XCHG
 *            cannot); xchg_n, xchg_p, xchg_h: only n's, pred's or the
 *            head's lock by XCHG, to tell which CAS costs
 *   bts      every lock by LOCK BTS (a fetch_or of the lock bit whose old
 *            bit is tested): an RMW that, like XCHG, needs no expected
 *            value, but keeps the word's other bits
 *   delay, pfwdelay  a dependent chain of ALU operations (longer than a
 *            miss) after n's words arrive and before the first CAS,
 *            without and with pfw's prefetches: whether a prefetchw
 *            issued then brings the lines in by the time the CASes run
 *            (if it does, pfwdelay is faster than delay by the misses)
 *   cas16    n's two words locked by one CMPXCHG16B (a floor only: it
 *            needs 16-aligned nodes, an ABI change); x86-64 only
 *   nodefirst  mt_list's order, our own code: XCHG n's next and prev
 *            first (one line), then pred's next and succ's prev, whose
 *            addresses are known once n's line is in
 *   caslist  the library's caslist_move_head (inline), on a second list of
 *            the same size and order in memory of its own
 *
 *   coldfloor [--nodes N] [--seconds S] [--rounds R] [--huge 0|1|both]
 *             [--only VARIANT --ops K]
 *
 * Each round runs every variant for S seconds, in an order rotated from
 * round to round, on the same list (each variant's moves keep it a list;
 * it is checked after every run).  Prints one line per variant and page
 * size: ns per move, median [min..max] over the rounds, and the median of
 * its per-round ratio to base.  --huge 1 asks for transparent huge pages
 * (madvise): 16 MiB of 4 KiB pages is more than the second-level TLB
 * maps, so a page walk joins every miss.  --only with --ops: K moves of
 * one variant and nothing printed but a check, for callgrind's
 * instruction count (bench/opcost's way).
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define CASLIST_INLINE 1
#include <caslist/caslist.h>

#include "floor.h"

/* a node: a 64-byte line, its link first (as bench/workload.c's bnode) */
struct cnode {
	struct floor_link f;
	char pad[64 - sizeof(struct floor_link)];
} __attribute__((aligned(64)));

static struct floor_link head;
static struct cnode *nodes;
/* the library's list: caslist nodes on 64-byte lines, in the same order */
struct lnode {
	struct caslist_node n;
	char pad[64 - sizeof(struct caslist_node)];
} __attribute__((aligned(64)));
static CASLIST_LIST(llist);
static struct lnode *lnodes;
static size_t nn;
static uint64_t rng = 88172645463325252ull;

static inline uint64_t draw(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static inline void pfw(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("prefetchw %0" ::"m"(*(const char *)p));
#else
	__builtin_prefetch(p, 1, 3);
#endif
}

static inline void xlock(_Atomic uintptr_t *w, uintptr_t v)
{
	atomic_exchange_explicit(w, v | 1, memory_order_acquire);
}

/* The insert and unlink stores of floor_move_head, once n, p and the
 * head are locked (first: the head's successor read under its lock). */
static inline void relink(struct floor_link *x, uintptr_t s, uintptr_t p, uintptr_t first)
{
	atomic_store_explicit(&FLOOR_PTR(s)->prev, p, memory_order_release);
	atomic_store_explicit(&FLOOR_PTR(p)->next, s, memory_order_release);
	atomic_store_explicit(&x->prev, (uintptr_t)&head, memory_order_release);
	atomic_store_explicit(&FLOOR_PTR(first)->prev, (uintptr_t)x, memory_order_release);
	atomic_store_explicit(&x->next, first, memory_order_release);
	atomic_store_explicit(&head.next, (uintptr_t)x, memory_order_release);
}

static inline void btslock(_Atomic uintptr_t *w)
{
	/* gcc and clang emit LOCK BTS for a fetch_or of one bit tested alone */
	if (atomic_fetch_or_explicit(w, 1, memory_order_acquire) & 1)
		__asm__ __volatile__("");
}

/* A dependent chain of multiplies, about 300 ns: longer than a miss. */
static inline void delay(uintptr_t seed)
{
	uint64_t a = seed | 1;

	for (int i = 0; i < 100; i++)
		a *= 0x9e3779b97f4a7c15ull;
	__asm__ __volatile__("" ::"r"(a));
}

/* XCHG: bit 1 n's lock, 2 pred's, 4 the head's; 8: all three by BTS;
 * 16: the delay before the first CAS */
static inline void mv_pf(struct floor_link *x, int pf, int touch, int xchg)
{
	uintptr_t s = atomic_load_explicit(&x->next, memory_order_relaxed);
	uintptr_t p = atomic_load_explicit(&x->prev, memory_order_relaxed);
	uintptr_t first;

	if (p == (uintptr_t)&head)
		return;
	if (pf) {
		pfw(FLOOR_PTR(p));
		pfw(FLOOR_PTR(s));
	}
	if (xchg & 16)
		delay(s);
	if (touch) {
		uintptr_t a = atomic_load_explicit(&FLOOR_PTR(p)->next, memory_order_relaxed);
		uintptr_t b = atomic_load_explicit(&FLOOR_PTR(s)->prev, memory_order_relaxed);

		__asm__ __volatile__("" ::"r"(a), "r"(b));
	}
	if (xchg & 8) {
		btslock(&x->next);
		btslock(&FLOOR_PTR(p)->next);
		first = atomic_load_explicit(&head.next, memory_order_relaxed);
		btslock(&head.next);
	} else {
		if (xchg & 1)
			xlock(&x->next, s);
		else
			floor_lock(&x->next, s);
		if (xchg & 2)
			xlock(&FLOOR_PTR(p)->next, (uintptr_t)x);
		else
			floor_lock(&FLOOR_PTR(p)->next, (uintptr_t)x);
		first = atomic_load_explicit(&head.next, memory_order_relaxed);
		if (xchg & 4)
			xlock(&head.next, first);
		else
			floor_lock(&head.next, first);
	}
	relink(x, s, p, first);
}

#if defined(__x86_64__)
#define HAVE_CAS16 1
/* CMPXCHG16B inline: the moves' loop is compiled for it (every x86-64
 * CPU of the last fifteen years has it; the program's own build flags
 * stay the project's). */
#define CF_TARGET __attribute__((target("cx16")))
static inline CF_TARGET void mv_cas16(struct floor_link *x)
{
	/* n's next and prev as one 16-byte word (next low): a lock of both
	 * by one CMPXCHG16B, expected from two relaxed
	 * loads (the CAS validates them). */
	uintptr_t s = atomic_load_explicit(&x->next, memory_order_relaxed);
	uintptr_t p = atomic_load_explicit(&x->prev, memory_order_relaxed);
	unsigned __int128 old = ((unsigned __int128)p << 64) | s, nw = old | 1;
	uintptr_t first;

	if (p == (uintptr_t)&head)
		return;
	__sync_bool_compare_and_swap((unsigned __int128 *)(void *)x, old, nw);
	floor_lock(&FLOOR_PTR(p)->next, (uintptr_t)x);
	first = atomic_load_explicit(&head.next, memory_order_relaxed);
	floor_lock(&head.next, first);
	relink(x, s, p, first);
}
#else
#define CF_TARGET
#endif

/* mt_list's order (the idea, in our own words): the node's own two words
 * first, by XCHG, then the neighbours' words that point at it. */
static inline void mv_nodefirst(struct floor_link *x)
{
	uintptr_t s, p, first;

	if (atomic_load_explicit(&x->prev, memory_order_relaxed) == (uintptr_t)&head)
		return;
	s = atomic_exchange_explicit(&x->next, 1, memory_order_acquire);
	p = atomic_exchange_explicit(&x->prev, 1, memory_order_acquire);
	xlock(&FLOOR_PTR(p)->next, (uintptr_t)x);
	if (s != (uintptr_t)&head)	/* the head's prev is the tail's link */
		xlock(&FLOOR_PTR(s)->prev, p);
	first = atomic_load_explicit(&head.next, memory_order_relaxed);
	xlock(&head.next, first);
	relink(x, s, p, first);
}

enum {
	V_BASE, V_PFW, V_TOUCH, V_PFWTOUCH, V_XCHG, V_XCHG_N, V_XCHG_P, V_XCHG_H, V_BTS, V_DELAY,
	V_PFWDELAY, V_CAS16, V_NODEFIRST, V_CASLIST, NV
};
static const char *const vname[NV] = { "base", "pfw", "touch", "pfwtouch", "xchg", "xchg_n",
				       "xchg_p", "xchg_h", "bts", "delay", "pfwdelay", "cas16",
				       "nodefirst", "caslist" };

static inline CF_TARGET void move(int v, struct floor_link *x)
{
	switch (v) {
	case V_BASE: mv_pf(x, 0, 0, 0); break;
	case V_PFW: mv_pf(x, 1, 0, 0); break;
	case V_TOUCH: mv_pf(x, 0, 1, 0); break;
	case V_PFWTOUCH: mv_pf(x, 1, 1, 0); break;
	case V_XCHG: mv_pf(x, 0, 0, 7); break;
	case V_XCHG_N: mv_pf(x, 0, 0, 1); break;
	case V_XCHG_P: mv_pf(x, 0, 0, 2); break;
	case V_XCHG_H: mv_pf(x, 0, 0, 4); break;
	case V_BTS: mv_pf(x, 0, 0, 8); break;
	case V_DELAY: mv_pf(x, 0, 0, 16); break;
	case V_PFWDELAY: mv_pf(x, 1, 0, 16); break;
#ifdef HAVE_CAS16
	case V_CAS16: mv_cas16(x); break;
#endif
	case V_NODEFIRST: mv_nodefirst(x); break;
	default: break;
	}
}

static int supported(int v)
{
#ifndef HAVE_CAS16
	if (v == V_CAS16)
		return 0;
#endif
	return v >= 0 && v < NV;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* K moves of random nodes by variant V; the node's index drawn first. */
static CF_TARGET void run_ops(int v, size_t k)
{
	if (v == V_CASLIST) {
		for (size_t i = 0; i < k; i++)
			caslist_move_head(&llist, &lnodes[draw() % nn].n);
		return;
	}
	for (size_t i = 0; i < k; i++)
		move(v, &nodes[draw() % nn].f);
}

static double run_timed(int v, double secs)
{
	const size_t batch = 4096;
	size_t ops = 0;
	double t0 = now_s(), t;

	do {
		run_ops(v, batch);
		ops += batch;
		t = now_s();
	} while (t - t0 < secs);
	return (t - t0) * 1e9 / (double)ops;
}

static void check_list(const char *what)
{
	const char *err = NULL;
	size_t count = 0;

	if (caslist_check(&llist, nn, &count) != 0 || count != nn) {
		fprintf(stderr, "coldfloor: %s: the library's list is broken\n", what);
		exit(1);
	}
	if (floor_count(&head, nn, &err) != (long)nn) {
		fprintf(stderr, "coldfloor: %s: %s\n", what, err ? err : "nodes lost");
		exit(1);
	}
}

static void build(int huge)
{
	size_t bytes = nn * sizeof(struct cnode);
	size_t *order = malloc(nn * sizeof(*order));

	free(nodes);
	free(lnodes);
	bytes = (bytes + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);
	nodes = aligned_alloc(2u << 20, bytes);
	lnodes = aligned_alloc(2u << 20, bytes);
	if (nodes == NULL || lnodes == NULL || order == NULL) {
		perror("coldfloor");
		exit(1);
	}
	madvise(nodes, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	madvise(lnodes, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	memset(nodes, 0, bytes);
	memset(lnodes, 0, bytes);
	floor_init(&head);
	caslist_init(&llist);
	for (size_t i = 0; i < nn; i++)
		caslist_node_init(&lnodes[i].n);
	for (size_t i = 0; i < nn; i++)
		order[i] = i;
	for (size_t i = nn - 1; i > 0; i--) {
		size_t j = draw() % (i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < nn; i++) {
		floor_link_tail(&head, &nodes[order[i]].f);
		caslist_add_tail(&llist, &lnodes[order[i]].n);
	}
	free(order);
	check_list("set-up");
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	double secs = 0.5;
	int rounds = 5, huge_lo = 0, huge_hi = 1, only = -1;
	size_t ops = 0;

	nn = 262144;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--nodes"))
			nn = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--seconds"))
			secs = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--rounds"))
			rounds = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--huge")) {
			huge_lo = !strcmp(argv[i + 1], "1");
			huge_hi = strcmp(argv[i + 1], "0") != 0;
		} else if (!strcmp(argv[i], "--ops"))
			ops = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--only")) {
			for (int v = 0; v < NV; v++)
				if (!strcmp(argv[i + 1], vname[v]))
					only = v;
			if (!supported(only)) {
				fprintf(stderr, "coldfloor: no variant %s here\n", argv[i + 1]);
				return 2;
			}
		} else {
			fprintf(stderr, "usage: coldfloor [--nodes N] [--seconds S] [--rounds R] "
					"[--huge 0|1|both] [--only VARIANT --ops K]\n");
			return 2;
		}
	}
	if (rounds < 1 || nn < 4)
		return 2;
	if (only >= 0) {
		build(huge_lo);
		run_ops(only, ops);
		check_list(vname[only]);
		printf("coldfloor %s: %zu moves on %zu nodes, list checked\n", vname[only], ops, nn);
		return 0;
	}
	for (int huge = huge_lo; huge <= huge_hi; huge++) {
		double ns[NV][64], ratio[NV][64];

		if (rounds > 64)
			rounds = 64;
		build(huge);
		run_timed(V_BASE, secs);	/* warm the TLB's and the caches' state */
		for (int r = 0; r < rounds; r++) {
			for (int k = 0; k < NV; k++) {
				int v = (k + r) % NV;

				if (!supported(v))
					continue;
				ns[v][r] = run_timed(v, secs);
				check_list(vname[v]);
			}
			for (int v = 0; v < NV; v++)
				ratio[v][r] = supported(v) ? ns[V_BASE][r] / ns[v][r] : 0;
		}
		for (int v = 0; v < NV; v++) {
			if (!supported(v))
				continue;
			qsort(ns[v], (size_t)rounds, sizeof(double), cmpd);
			qsort(ratio[v], (size_t)rounds, sizeof(double), cmpd);
			printf("coldfloor nodes=%zu (%zu MiB) pages=%s %-9s %6.1f ns/move [%.1f..%.1f]  "
			       "base/it %.2f [%.2f..%.2f]\n",
			       nn, nn * sizeof(struct cnode) >> 20, huge ? "huge" : "4k", vname[v],
			       ns[v][rounds / 2], ns[v][0], ns[v][rounds - 1], ratio[v][rounds / 2],
			       ratio[v][0], ratio[v][rounds - 1]);
		}
	}
	return 0;
}
