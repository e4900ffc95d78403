/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/lin/lin.c - linearizability of recorded histories (issue 26).
 *
 * Usage: lin <threads> <histories> <seed> [-m] [-v] [-u] [-g gap] [-s us]
 *   -m  the planted mutant: a test-side pop_tail that returns a stale tail
 *       (see mutant_pop_tail); the run must then report violations
 *   -v  print every violating history, not only the first (-v -v: and
 *       the first three windows)
 *   -g  the largest random gap before an operation (loads; default 256)
 *   -s  microseconds to spin at the start barrier before yielding
 *       (default 50; a time, not a count: under TSan a spin costs 100x)
 *   -u  unpinned: by default thread i runs on CPU i mod n (Linux), which
 *       is what makes windows overlap on a small loaded machine: woken
 *       threads otherwise tend to share the waker's CPU and take turns
 *       (2 CPUs, load 20: 0 of 20000 windows at 2 threads overlapped
 *       unpinned, about 18000 pinned)
 *
 * Each history is a short window: two lists, 3-6 nodes, every thread runs
 * a few operations (2-6, fewer the more threads) released together by a
 * barrier (a blocking one, then a spinning one).  The summary counts the
 * windows in which two threads' operations overlapped in time.  Around each call the thread takes a ticket from one global
 * atomic counter (seq_cst fetch_add) before the invocation and after the
 * response, so "a returned before b was invoked" is exactly a.resp <
 * b.inv: the counter's RMW chain makes a's return happen before b's call.
 * The main thread records the start state and, after the window, checks
 * the history against a sequential model of the lists (spec_apply) with
 * a Wing-Gong search in Lowe's form: linearize any pending operation
 * that no other pending one precedes in real time, apply it to the model,
 * compare the model's result with the recorded one, recurse; memoise
 * (set of linearized operations, model state) pairs that failed.
 *
 * Decomposition.  None: the whole set of lists and nodes is checked as
 * one object.  Per-node decomposition (checking each node's membership
 * history alone) is NOT sound here: a pop's result is "the node at the
 * end", a property of the order of all nodes, and move_head/touch/batches
 * move nodes between the two lists, so neither a node nor a list is an
 * object on its own.  Locality (Herlihy and Wing) would let objects that
 * share nothing be checked apart; these histories have no such parts.
 * The windows are small enough (at most 24 operations) for the full
 * search with memoisation.
 *
 * Operations and their sequential meaning (node states as in static/link.h:
 * LINKED on a list, QUEUED in a thread's batch, OWNED by the thread that
 * took it off a list, FRESH after caslist_node_init):
 *   pop_head/pop_tail(l)  the first/last node of l, now OWNED; NULL if empty
 *   add_head/add_tail(l, n)  n (the caller's) first/last on l
 *   add_after(pos, n)     n right after pos (a node or a head); ENOENT if
 *                         pos is not linked
 *   add_near(pos, n)      after pos (NEAR_AFTER) or before it (NEAR_BEFORE),
 *                         the result says which; ENOENT if pos is not linked
 *   del_if_linked(n)      true and OWNED if n was linked, else false
 *   move_head(l, n)       n first on l (from any list); ENOENT if not linked.
 *                         NOT one atomic step: n leaves its list first and
 *                         enters l's head later (static/list_ops.h [S7],
 *                         doc/protocol.md, "Lock order"'s table); in between
 *                         it is on no list, a pop of its old list can find
 *                         that list empty (seen: a one-node list), and every
 *                         call that targets n waits.  The model takes the
 *                         two steps apart (spec_apply returns 2, then
 *                         spec_enter); a node already first on l does not
 *                         move (one step)
 *   touch(l, n)           linked: first on l, OK (a move_head, two steps);
 *                         QUEUED: OK, no change;
 *                         FRESH: added first on l, TOUCH_ADDED; OWNED:
 *                         CASLIST_TOUCH_GONE, no change (issue 21; before
 *                         that change an OWNED node was added like a FRESH
 *                         one, and the model follows whichever list.h says)
 *   release(n)            the owner's caslist_node_init: OWNED -> FRESH
 *   batch(l, n)           linked: removed now, QUEUED in the caller's batch
 *                         for l, OK; QUEUED in it already: BATCH_QUEUED;
 *                         QUEUED elsewhere: OK; else ENOENT
 *   flush                 the caller's queued nodes first on their list,
 *                         the most recently queued first
 *   cancel                the caller's queued nodes are its own (OWNED); the
 *                         result lists them in queueing order
 *   splice_head/tail(l, chain)  a private chain first/last on l
 *   cut(l, m)             the prefix of l up to m, now OWNED (the result is
 *                         the whole chain); NULL if m is not linked
 * Three kinds of window keep every call within its contract:
 *   A  nodes targeted by pointer (del_if_linked, move_head, add_after/near,
 *      batch, touch) and never put into a chain; pops and adds at both ends
 *   B  (only while list.h has no CASLIST_TOUCH_GONE) touch with nobody
 *      owning unlinked nodes: removers let go of what they remove
 *   C  chains: splices of private chains, one cutter cutting list 0 at a
 *      marker node that only ever goes back to list 0, pops and adds at
 *      the ends; no node is targeted by pointer (the cut contract)
 * Every kind of operation of a window kind is forced once in every
 * round of that kind (thread 0's first operation), so coverage does not
 * depend on the random choices.
 *
 * Prints one summary line: histories checked, violations, the largest
 * search (nodes of the search tree) and coverage; exit 0 when there are
 * no violations (1 otherwise, 2 on bad arguments).
 */
#define _GNU_SOURCE 1	/* pthread_setaffinity_np */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <caslist/caslist.h>

#include "../util.h"

/* issue 21's batch end (cancel) and "already queued here" result */
#ifdef CASLIST_BATCH_QUEUED
#define HAVE_CANCEL 1
#define BATCH_QUEUED CASLIST_BATCH_QUEUED
#else
#define HAVE_CANCEL 0
#define BATCH_QUEUED (-100)
#endif

#ifdef CASLIST_TOUCH_GONE
#define HAVE_GONE 1
#define TOUCH_GONE CASLIST_TOUCH_GONE
#else
#define HAVE_GONE 0
#define TOUCH_GONE (-100)	/* never returned */
#endif

#define NL 2		/* lists */
#define NMAX 6		/* nodes */
#define TMAX 8		/* threads */
#define OPS_MAX 32	/* operations in one history */
#define QMAX 8		/* queued in one batch (CASLIST_BATCH_MAX is 31) */
#define SEARCH_LIMIT 2000000u

enum kind { K_POP_HEAD, K_POP_TAIL, K_ADD_HEAD, K_ADD_TAIL, K_ADD_AFTER, K_ADD_NEAR, K_DEL,
	    K_MOVE, K_TOUCH, K_RELEASE, K_BATCH, K_FLUSH, K_SPLICE_HEAD, K_SPLICE_TAIL, K_CUT,
	    K_CANCEL, NKINDS };
static const char *const kind_name[NKINDS] = {
	"pop_head", "pop_tail", "add_head", "add_tail", "add_after", "add_near", "del_if_linked",
	"move_head", "touch", "release", "batch", "flush", "splice_head", "splice_tail", "cut",
	"cancel",
};

/* ---- the sequential model ---- */

enum { S_LINKED, S_OWNED, S_FRESH, S_QUEUED, S_TRANSIT };

struct state {
	uint8_t len[NL], seq[NL][NMAX];		/* the lists, first to last */
	uint8_t st[NMAX];			/* per node: S_* */
	uint8_t qlen[TMAX], ql[TMAX], q[TMAX][QMAX];	/* batches, oldest first */
};

/* Positions are node ids; a head is NMAX + list. */
#define HEAD(l) (NMAX + (l))
#define NIL (-1)

struct op {
	uint8_t kind, thr, l, n, pos, clen;
	uint8_t chain[NMAX];		/* splice: the chain; cut: the result */
	int res;			/* a node id or NIL, or a return code */
	uint32_t inv, resp;
};

static void st_remove(struct state *s, int n)
{
	for (int l = 0; l < NL; l++)
		for (int i = 0; i < s->len[l]; i++)
			if (s->seq[l][i] == n) {
				memmove(&s->seq[l][i], &s->seq[l][i + 1], (size_t)(s->len[l] - i - 1));
				s->len[l]--;
				return;
			}
}

static void st_insert(struct state *s, int l, int at, int n)
{
	memmove(&s->seq[l][at + 1], &s->seq[l][at], (size_t)(s->len[l] - at));
	s->seq[l][at] = (uint8_t)n;
	s->len[l]++;
	s->st[n] = S_LINKED;
}

/* Where n is: its list in *l, its index returned; -1 if not linked. */
static int st_find(const struct state *s, int n, int *l)
{
	for (int k = 0; k < NL; k++)
		for (int i = 0; i < s->len[k]; i++)
			if (s->seq[k][i] == n) {
				*l = k;
				return i;
			}
	return -1;
}

static int unlinked(const struct state *s, int n)
{
	return s->st[n] == S_OWNED || s->st[n] == S_FRESH;
}

/*
 * Apply o to s.  Returns 1 if the operation, taking effect now, gives the
 * recorded result (s is then the state after it), 0 if not (s is garbage),
 * 2 if it has taken its first step of two: a move (move_head, or touch of
 * a linked node) takes n off its list first and puts it at l's head later
 * (static/list_ops.h [S7]: "n leaves at pred->next = succ, enters at
 * head->next = n"); in between n is IN TRANSIT, on no list, and every
 * operation that targets it waits (its link is locked): spec_enter is the
 * second step.  A node already first on l is not moved at all (one step).
 */
static int spec_apply(struct state *s, const struct op *o)
{
	int l, i, n = o->n, t = o->thr;

	/* Nothing targets a node in transit: those calls wait for it. */
	if (s->st[n] == S_TRANSIT && o->kind != K_POP_HEAD && o->kind != K_POP_TAIL &&
	    o->kind != K_FLUSH && o->kind != K_CANCEL && o->kind != K_CUT &&
	    o->kind != K_SPLICE_HEAD && o->kind != K_SPLICE_TAIL)
		return 0;
	if ((o->kind == K_ADD_AFTER || o->kind == K_ADD_NEAR) && o->pos < NMAX &&
	    s->st[o->pos] == S_TRANSIT)
		return 0;
	switch (o->kind) {
	case K_POP_HEAD:
	case K_POP_TAIL:
		if (s->len[o->l] == 0)
			return o->res == NIL;
		i = o->kind == K_POP_HEAD ? 0 : s->len[o->l] - 1;
		if (o->res != s->seq[o->l][i])
			return 0;
		st_remove(s, o->res);
		s->st[o->res] = S_OWNED;
		return 1;
	case K_ADD_HEAD:
	case K_ADD_TAIL:
		if (!unlinked(s, n))
			return 0;
		st_insert(s, o->l, o->kind == K_ADD_HEAD ? 0 : s->len[o->l], n);
		return 1;
	case K_ADD_AFTER:
	case K_ADD_NEAR:
		if (!unlinked(s, n))
			return 0;
		if (o->pos >= NMAX) {
			l = o->pos - NMAX;
			i = -1;		/* the head: "after" is first, "before" is last */
		} else if ((i = st_find(s, o->pos, &l)) < 0) {
			return o->res == CASLIST_ENOENT;
		}
		if (o->kind == K_ADD_AFTER || o->res == CASLIST_NEAR_AFTER)
			st_insert(s, l, i + 1, n);
		else if (o->res == CASLIST_NEAR_BEFORE)
			st_insert(s, l, i < 0 ? s->len[l] : i, n);
		else
			return 0;
		return o->kind == K_ADD_AFTER ? o->res == CASLIST_OK : 1;
	case K_DEL:
		if (st_find(s, n, &l) < 0)
			return o->res == 0;
		st_remove(s, n);
		s->st[n] = S_OWNED;
		return o->res == 1;
	case K_MOVE:
		if ((i = st_find(s, n, &l)) < 0)
			return o->res == CASLIST_ENOENT;
		if (o->res != CASLIST_OK)
			return 0;
		if (i == 0 && l == o->l)
			return 1;	/* already first on l */
		st_remove(s, n);
		s->st[n] = S_TRANSIT;
		return 2;
	case K_TOUCH:
		if (s->st[n] == S_QUEUED)
			return o->res == CASLIST_OK;
		if ((i = st_find(s, n, &l)) >= 0) {	/* a move, as above */
			if (o->res != CASLIST_OK)
				return 0;
			if (i == 0 && l == o->l)
				return 1;
			st_remove(s, n);
			s->st[n] = S_TRANSIT;
			return 2;
		}
		if (s->st[n] == S_OWNED && HAVE_GONE)
			return o->res == TOUCH_GONE;
		st_insert(s, o->l, 0, n);
		return o->res == CASLIST_TOUCH_ADDED;
	case K_RELEASE:
		if (s->st[n] != S_OWNED)
			return 0;
		s->st[n] = S_FRESH;
		return 1;
	case K_BATCH:
		if (s->st[n] == S_QUEUED) {
			for (i = 0; i < s->qlen[t]; i++)
				if (s->q[t][i] == n)
					return o->res == BATCH_QUEUED;
			return o->res == CASLIST_OK;
		}
		if (st_find(s, n, &l) < 0)
			return o->res == CASLIST_ENOENT;
		if (s->qlen[t] > 0 && s->ql[t] != o->l)
			return 0;
		st_remove(s, n);
		s->st[n] = S_QUEUED;
		s->ql[t] = o->l;
		s->q[t][s->qlen[t]++] = (uint8_t)n;
		return o->res == CASLIST_OK;
	case K_FLUSH:
		for (i = 0; i < s->qlen[t]; i++)	/* oldest first: newest ends first */
			st_insert(s, s->ql[t], 0, s->q[t][i]);
		s->qlen[t] = 0;
		s->ql[t] = 0;
		return 1;
	case K_CANCEL:	/* the queued nodes, in queueing order, are the caller's */
		if (o->res != s->qlen[t] || o->clen != s->qlen[t])
			return 0;
		for (i = 0; i < s->qlen[t]; i++) {
			if (o->chain[i] != s->q[t][i])
				return 0;
			s->st[s->q[t][i]] = S_OWNED;
		}
		s->qlen[t] = 0;
		s->ql[t] = 0;
		return 1;
	case K_SPLICE_HEAD:
	case K_SPLICE_TAIL:
		for (i = 0; i < o->clen; i++)
			if (!unlinked(s, o->chain[i]))
				return 0;
		l = o->kind == K_SPLICE_HEAD ? 0 : s->len[o->l];
		for (i = 0; i < o->clen; i++)
			st_insert(s, o->l, l + i, o->chain[i]);
		return 1;
	case K_CUT:
		if ((i = st_find(s, n, &l)) < 0 || l != o->l)
			return o->res == NIL;
		if (o->res == NIL || o->clen != i + 1)
			return 0;
		for (int k = 0; k <= i; k++)
			if (o->chain[k] != s->seq[l][k])
				return 0;
		for (int k = 0; k <= i; k++)
			s->st[s->seq[l][k]] = S_OWNED;
		memmove(&s->seq[l][0], &s->seq[l][i + 1], (size_t)(s->len[l] - i - 1));
		s->len[l] = (uint8_t)(s->len[l] - i - 1);
		return 1;
	default:
		return 0;
	}
}

/* The second step of a move: n in transit enters l at the head. */
static void spec_enter(struct state *s, const struct op *o)
{
	st_insert(s, o->l, 0, o->n);
}

/* ---- the search: Wing-Gong with Lowe's memoisation ---- */

struct history {
	int nops, nnodes, nthreads, wkind;
	struct state start;
	struct op op[OPS_MAX];
};

#define MEMO_BITS 18
struct memo_ent {
	uint32_t gen;
	uint64_t mask, h;
	struct state s;
};
static struct memo_ent *memo;
static uint32_t memo_gen;
static unsigned long search_nodes;
static int search_aborted;

static uint64_t state_hash(const struct state *s, uint64_t mask)
{
	const unsigned char *p = (const unsigned char *)s;
	uint64_t h = 0xcbf29ce484222325ULL ^ mask;

	for (size_t i = 0; i < sizeof(*s); i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/* 1 if (mask, s) was seen before; else record it (best effort: a full
 * table only costs repeated work, never a wrong answer). */
static int memo_seen(uint64_t mask, const struct state *s)
{
	uint64_t h = state_hash(s, mask);
	size_t m = ((size_t)1 << MEMO_BITS) - 1, i = (size_t)h & m;

	for (int probe = 0; probe < 16; probe++, i = (i + 1) & m) {
		struct memo_ent *e = &memo[i];

		if (e->gen != memo_gen) {
			e->gen = memo_gen;
			e->mask = mask;
			e->h = h;
			e->s = *s;
			return 0;
		}
		if (e->h == h && e->mask == mask && memcmp(&e->s, s, sizeof(*s)) == 0)
			return 1;
	}
	return 0;
}

/*
 * done: the operations that have taken effect; moving: those that have
 * taken the first of their two steps (a move in transit).  An operation
 * may take a step only if no operation that is not done returned before
 * it was invoked (Lowe's minimal-response rule).
 */
static int search(const struct history *hi, uint32_t done, uint32_t moving,
		  const struct state *s)
{
	uint32_t all = (hi->nops == 32) ? UINT32_MAX : ((uint32_t)1 << hi->nops) - 1;
	uint32_t minresp = UINT32_MAX;

	if (done == all)
		return 1;
	if (++search_nodes > SEARCH_LIMIT) {
		search_aborted = 1;
		return 1;	/* undecided: counted apart, never a pass */
	}
	if (memo_seen((uint64_t)done | (uint64_t)moving << 32, s))
		return 0;
	for (int i = 0; i < hi->nops; i++)
		if (!(done & (1u << i)) && hi->op[i].resp < minresp)
			minresp = hi->op[i].resp;
	for (int i = 0; i < hi->nops; i++) {
		uint32_t bit = 1u << i;
		struct state t;
		int r;

		if ((done & bit) || hi->op[i].inv > minresp)
			continue;
		t = *s;
		if (moving & bit) {
			spec_enter(&t, &hi->op[i]);
			if (search(hi, done | bit, moving & ~bit, &t))
				return 1;
			continue;
		}
		r = spec_apply(&t, &hi->op[i]);
		if (r == 1 && search(hi, done | bit, moving, &t))
			return 1;
		if (r == 2 && search(hi, done, moving | bit, &t))
			return 1;
	}
	return 0;
}

/* ---- printing a history (a counterexample) ---- */

static void print_op(FILE *f, const struct op *o)
{
	fprintf(f, "  [%3u,%3u] T%d %s", o->inv, o->resp, o->thr, kind_name[o->kind]);
	switch (o->kind) {
	case K_POP_HEAD:
	case K_POP_TAIL:
		fprintf(f, "(L%d) -> %d\n", o->l, o->res);
		break;
	case K_ADD_AFTER:
	case K_ADD_NEAR:
		if (o->pos >= NMAX)
			fprintf(f, "(head L%d, n%d) -> %d\n", o->pos - NMAX, o->n, o->res);
		else
			fprintf(f, "(n%d, n%d) -> %d\n", o->pos, o->n, o->res);
		break;
	case K_SPLICE_HEAD:
	case K_SPLICE_TAIL:
	case K_CUT:
		fprintf(f, "(L%d%s", o->l, o->kind == K_CUT ? ", at" : ",");
		if (o->kind == K_CUT)
			fprintf(f, " n%d) ->", o->n);
		for (int i = 0; i < o->clen; i++)
			fprintf(f, " n%d", o->chain[i]);
		fprintf(f, "%s\n", o->kind == K_CUT ? (o->res == NIL ? " NULL" : "") : ")");
		break;
	case K_FLUSH:
		fprintf(f, "()\n");
		break;
	case K_CANCEL:
		fprintf(f, "() ->");
		for (int i = 0; i < o->clen; i++)
			fprintf(f, " n%d", o->chain[i]);
		fprintf(f, "\n");
		break;
	default:
		fprintf(f, "(L%d, n%d) -> %d\n", o->l, o->n, o->res);
	}
}

static void print_history(FILE *f, const struct history *hi, unsigned long k)
{
	fprintf(f, "lin: history %lu (window %c, %d nodes, %d threads) is not linearizable:\n  start:",
		k, "ABC"[hi->wkind], hi->nnodes, hi->nthreads);
	for (int l = 0; l < NL; l++) {
		fprintf(f, " L%d = [", l);
		for (int i = 0; i < hi->start.len[l]; i++)
			fprintf(f, "%sn%d", i ? " " : "", hi->start.seq[l][i]);
		fprintf(f, "]");
	}
	for (int n = 0; n < hi->nnodes; n++)
		if (hi->start.st[n] != S_LINKED)
			fprintf(f, " n%d %s", n, hi->start.st[n] == S_FRESH ? "fresh" : "owned");
	fprintf(f, "\n");
	for (int i = 0; i < hi->nops; i++)
		print_op(f, &hi->op[i]);
}

/* ---- the concurrent side ---- */

enum { W_A, W_B, W_C };

struct item {
	struct caslist_node link;
};

struct thr {
	int id;
	uint64_t rng;
	int own[NMAX], nown;		/* nodes this thread owns (may add) */
	struct caslist_batch batch;
	int queued[QMAX], nq;		/* what its batch holds */
	struct caslist_node *stale;	/* the mutant's remembered tail */
	struct op rec[OPS_MAX];
	int nrec;
	pthread_t tid;
};

static struct caslist_list lists[NL];
static struct item items[NMAX];
static struct thr thr[TMAX];
static int nthreads, nnodes, wkind, nops_each, force_kind;
static int mutant;
static _Atomic uint32_t ticket;
static pthread_barrier_t bar_start, bar_end;
static _Atomic int quit;
static _Atomic unsigned long ready;	/* spin barrier: arrivals, cumulative */
static unsigned long window_no;		/* the window being run (set by main) */
static unsigned gap = 256;		/* the largest gap before an op (-g) */
static long spin_us = 50;		/* start barrier: spin this long, then yield (-s) */

static long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}
static int pin = 1;			/* pin thread i to CPU i mod n (-u: do not) */
static unsigned long mutant_hits;	/* by thread, summed at the end (relaxed) */
static _Atomic unsigned long mutant_stale;

static unsigned rnd(struct thr *t, unsigned n)
{
	return (unsigned)(splitmix64(&t->rng) % n);
}

static int id_of(const struct caslist_node *n)
{
	return n == NULL ? NIL : (int)((const struct item *)(const void *)n - items);
}

static uint32_t tick(void)
{
	/* seq_cst RMW on one counter: the tickets' order is a total order
	 * that respects happens-before, so resp(a) < inv(b) means a's call
	 * returned before b's began. */
	return atomic_fetch_add_explicit(&ticket, 1, memory_order_seq_cst);
}

/*
 * The planted mutant (-m): pop_tail returning a stale tail.  The thread
 * remembers the last node its pop_tail returned (a node that was a tail
 * once).  When that node is linked again somewhere, the mutant pops the
 * real tail, removes the remembered node with del_if_linked, puts the
 * real tail back at the end and returns the remembered node instead: a
 * node that was not the tail at any instant of the call (unless by
 * chance), which no sequential order explains.  Built from the public
 * API only (window kind A, where every node may be targeted).
 */
static struct caslist_node *mutant_pop_tail(struct thr *t, struct caslist_list *l)
{
	struct caslist_node *n = caslist_pop_tail(l), *r = n;

	if (n != NULL && t->stale != NULL && t->stale != n && caslist_del_if_linked(t->stale)) {
		caslist_add_tail(l, n);
		r = t->stale;
		atomic_fetch_add_explicit(&mutant_stale, 1, memory_order_relaxed);
	}
	t->stale = r;
	return r;
}

static void own_add(struct thr *t, int n)
{
	t->own[t->nown++] = n;
}

/* Take one owned node (random), or -1; never the marker in window C if
 * not_marker. */
static int own_take(struct thr *t, int not_marker)
{
	int k, n;

	if (t->nown == 0)
		return -1;
	k = (int)rnd(t, (unsigned)t->nown);
	n = t->own[k];
	if (not_marker && n == 0 && wkind == W_C) {
		if (t->nown == 1)
			return -1;
		k = (k + 1) % t->nown;
		n = t->own[k];
	}
	t->own[k] = t->own[--t->nown];
	return n;
}

static int queued_here(struct thr *t, int n)
{
	for (int i = 0; i < t->nq; i++)
		if (t->queued[i] == n)
			return 1;
	return 0;
}

static const int kinds_a[] = { K_POP_HEAD, K_POP_TAIL, K_ADD_HEAD, K_ADD_TAIL, K_ADD_AFTER,
			       K_ADD_NEAR, K_DEL, K_MOVE, K_BATCH,
#if HAVE_GONE
			       K_TOUCH, K_RELEASE,
#endif
};
static const int kinds_b[] = { K_TOUCH, K_TOUCH, K_DEL, K_POP_HEAD, K_POP_TAIL, K_MOVE, K_BATCH };
static const int kinds_c[] = { K_POP_HEAD, K_POP_TAIL, K_ADD_HEAD, K_ADD_TAIL, K_SPLICE_HEAD,
			       K_SPLICE_TAIL, K_CUT };
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* End the batch: a flush, or (once in four, where the library has it) a
 * cancel, which hands the queued nodes to the caller. */
static void do_flush(struct thr *t, struct op *o)
{
	memset(o, 0, sizeof(*o));
	o->thr = (uint8_t)t->id;
#if HAVE_CANCEL
	if (rnd(t, 4) == 0) {
		struct caslist_node *out[CASLIST_BATCH_MAX];
		size_t k;

		o->kind = K_CANCEL;
		o->inv = tick();
		k = caslist_batch_cancel(&t->batch, out);
		o->resp = tick();
		o->res = (int)k;
		for (size_t i = 0; i < k && i < NMAX; i++) {
			o->chain[o->clen++] = (uint8_t)id_of(out[i]);
			own_add(t, id_of(out[i]));
		}
		t->nq = 0;
		return;
	}
#endif
	o->kind = K_FLUSH;
	o->inv = tick();
	caslist_batch_flush(&t->batch);
	o->resp = tick();
	t->nq = 0;
}

/* Choose and run one operation; records it (and a flush before a batch
 * for another list) in t->rec. */
static void run_op(struct thr *t, int kind)
{
	struct op *o = &t->rec[t->nrec];
	int l = (int)rnd(t, NL), n = (int)rnd(t, (unsigned)nnodes), m;
	struct caslist_node *r;

	memset(o, 0, sizeof(*o));
	o->thr = (uint8_t)t->id;
	o->l = (uint8_t)l;
	o->n = (uint8_t)n;
	/* Fall back when the kind needs what the thread does not have. */
	if ((kind == K_ADD_HEAD || kind == K_ADD_TAIL || kind == K_ADD_AFTER || kind == K_ADD_NEAR ||
	     kind == K_RELEASE || kind == K_SPLICE_HEAD || kind == K_SPLICE_TAIL) &&
	    t->nown == 0)
		kind = l ? K_POP_TAIL : K_POP_HEAD;
	if (kind == K_CUT && t->id != 0)
		kind = K_POP_HEAD;
	if (kind == K_BATCH && queued_here(t, n) && !HAVE_CANCEL)
		kind = K_MOVE;	/* before issue 21: queueing it again aborts */
	if (kind == K_BATCH && t->nq > 0 && t->batch.l != &lists[l]) {
		do_flush(t, o);
		t->nrec++;
		o = &t->rec[t->nrec];
		memset(o, 0, sizeof(*o));
		o->thr = (uint8_t)t->id;
		o->l = (uint8_t)l;
		o->n = (uint8_t)n;
	}
	o->kind = (uint8_t)kind;
	switch (kind) {
	case K_POP_HEAD:
	case K_POP_TAIL:
		o->inv = tick();
		if (kind == K_POP_HEAD)
			r = caslist_pop_head(&lists[l]);
		else
			r = mutant && wkind == W_A ? mutant_pop_tail(t, &lists[l])
						   : caslist_pop_tail(&lists[l]);
		o->resp = tick();
		o->res = id_of(r);
		if (r != NULL && wkind != W_B)
			own_add(t, o->res);
		break;
	case K_ADD_HEAD:
	case K_ADD_TAIL:
		m = own_take(t, 0);
		if (wkind == W_C && m == 0)
			l = 0;		/* the marker goes back to list 0 only */
		o->n = (uint8_t)m;
		o->l = (uint8_t)l;
		o->inv = tick();
		if (kind == K_ADD_HEAD)
			caslist_add_head(&lists[l], &items[m].link);
		else
			caslist_add_tail(&lists[l], &items[m].link);
		o->resp = tick();
		break;
	case K_ADD_AFTER:
	case K_ADD_NEAR: {
		int pos = rnd(t, 3) == 0 ? HEAD(l) : n;
		struct caslist_node *p = pos >= NMAX ? &lists[l].head : &items[pos].link;

		m = own_take(t, 0);
		if (pos == m)
			pos = HEAD(l), p = &lists[l].head;
		o->n = (uint8_t)m;
		o->pos = (uint8_t)pos;
		o->inv = tick();
		o->res = kind == K_ADD_AFTER ? caslist_add_after(p, &items[m].link)
					     : caslist_add_near(p, &items[m].link);
		o->resp = tick();
		if (o->res == CASLIST_ENOENT)
			own_add(t, m);
		break;
	}
	case K_DEL:
		o->inv = tick();
		o->res = caslist_del_if_linked(&items[n].link);
		o->resp = tick();
		if (o->res && wkind != W_B)
			own_add(t, n);
		break;
	case K_MOVE:
		o->inv = tick();
		o->res = caslist_move_head(&lists[l], &items[n].link);
		o->resp = tick();
		break;
	case K_TOUCH:
		o->inv = tick();
		o->res = caslist_touch(&lists[l], &items[n].link);
		o->resp = tick();
		break;
	case K_RELEASE:
		m = own_take(t, 0);
		o->n = (uint8_t)m;
		o->inv = tick();
		caslist_node_init(&items[m].link);
		o->resp = tick();
		break;
	case K_BATCH: {
		unsigned before = t->batch.n;

		o->inv = tick();
		o->res = caslist_batch_move_head(&t->batch, &lists[l], &items[n].link);
		o->resp = tick();
		if (t->batch.n > before)
			t->queued[t->nq++] = n;
		else if (t->batch.n == 0 && before > 0)
			t->nq = 0;	/* it filled and flushed itself (not here) */
		break;
	}
	case K_SPLICE_HEAD:
	case K_SPLICE_TAIL: {
		int k = 1 + (int)rnd(t, 3), first, prev;

		first = prev = own_take(t, 1);
		if (first < 0) {	/* only the marker: add it alone */
			run_op(t, K_ADD_TAIL);
			return;
		}
		o->chain[o->clen++] = (uint8_t)first;
		while (--k > 0 && (m = own_take(t, 1)) >= 0) {
			caslist_chain_link(&items[prev].link, &items[m].link);
			o->chain[o->clen++] = (uint8_t)m;
			prev = m;
		}
		o->inv = tick();
		if (kind == K_SPLICE_HEAD)
			caslist_splice_head(&lists[l], &items[first].link, &items[prev].link);
		else
			caslist_splice_tail(&lists[l], &items[first].link, &items[prev].link);
		o->resp = tick();
		break;
	}
	case K_CUT:
		o->l = 0;
		o->n = 0;	/* the marker */
		o->inv = tick();
		r = caslist_cut_front(&lists[0], &items[0].link);
		o->res = id_of(r);
		while (r != NULL) {	/* the chain is ours: read it, re-init */
			struct caslist_node *nx = caslist_chain_next(r);

			o->chain[o->clen++] = (uint8_t)id_of(r);
			caslist_node_init(r);
			own_add(t, id_of(r));
			r = nx;
		}
		o->resp = tick();
		break;
	default:
		break;
	}
	t->nrec++;
}

static void *worker(void *arg)
{
	struct thr *t = arg;

#ifdef __linux__
	if (pin) {
		/* Thread i on CPU i mod n: two threads of a window are on
		 * different CPUs whenever there are two, so they can run at
		 * once instead of taking turns on the waker's CPU. */
		cpu_set_t all, one;
		int n = 0, want;

		if (pthread_getaffinity_np(pthread_self(), sizeof(all), &all) == 0) {
			n = CPU_COUNT(&all);
			want = n > 0 ? t->id % n : 0;
			CPU_ZERO(&one);
			for (int c = 0, k = 0; c < CPU_SETSIZE && n > 0; c++)
				if (CPU_ISSET(c, &all) && k++ == want) {
					CPU_SET(c, &one);
					pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
					break;
				}
		}
	}
#endif

	for (;;) {
		pthread_barrier_wait(&bar_start);
		if (atomic_load_explicit(&quit, memory_order_relaxed))
			return NULL;
		t->nrec = 0;
		/* A spin barrier after the blocking one: the threads that are
		 * running start their windows together, so their operations
		 * overlap (a blocking barrier wakes them one by one, and a
		 * window of a few calls is over before the next one runs).
		 * Yields after spin_us: threads may outnumber CPUs, and a
		 * spinner keeps a partner pinned to its CPU from arriving. */
		atomic_fetch_add(&ready, 1);
		for (long spins = 0, until = 0;
		     atomic_load(&ready) < (window_no + 1) * (unsigned long)nthreads; spins++) {
			if (until == 0)
				until = now_us() + spin_us;
			else if (until < 0 || ((spins & 63) == 0 && now_us() > until))
				until = -1;
			if (until < 0)
				sched_yield();
		}
		for (int i = 0; i < nops_each; i++) {
			int kind;

			/* a random gap (up to a few microseconds): the threads'
			 * starts are skewed by about that much, and windows
			 * interleave differently each time */
			for (unsigned d = rnd(t, gap); d > 0; d--)
				(void)atomic_load_explicit(&ticket, memory_order_relaxed);

			if (t->id == 0 && i == 0 && force_kind >= 0)
				kind = force_kind;
			else if (wkind == W_A)
				kind = kinds_a[rnd(t, NELEM(kinds_a))];
			else if (wkind == W_B)
				kind = kinds_b[rnd(t, NELEM(kinds_b))];
			else
				kind = kinds_c[rnd(t, NELEM(kinds_c))];
			run_op(t, kind);
		}
		if (t->nq > 0) {
			do_flush(t, &t->rec[t->nrec]);
			t->nrec++;
		}
		pthread_barrier_wait(&bar_end);
	}
}

/* Set up one window: lists, nodes, owners; the model's start state. */
static void setup(struct history *hi, uint64_t *rng)
{
	struct state *s = &hi->start;

	memset(hi, 0, sizeof(*hi));
	hi->nnodes = nnodes;
	hi->nthreads = nthreads;
	hi->wkind = wkind;
	for (int l = 0; l < NL; l++)
		caslist_init(&lists[l]);
	for (int i = 0; i < nthreads; i++) {
		thr[i].nown = 0;
		thr[i].nq = 0;
		/* stale is kept (a tail of an earlier window) if its node
		 * is in this one */
		if (id_of(thr[i].stale) >= nnodes)
			thr[i].stale = NULL;
		caslist_batch_init(&thr[i].batch);
	}
	for (int n = nnodes; n < NMAX; n++)	/* not in this window */
		caslist_node_init(&items[n].link);
	for (int n = 0; n < nnodes; n++) {
		unsigned r = (unsigned)(splitmix64(rng) % 8);
		int owner = (int)(splitmix64(rng) % (unsigned)nthreads);

		caslist_node_init(&items[n].link);
		if (wkind == W_C && n == 0)
			r = 0;		/* the marker starts on list 0 */
		if (wkind != W_B && n == nnodes - 1) {
			r = 5;		/* thread 0 owns one: its forced op may add */
			owner = 0;
		}
		if (r < 5) {
			int l = wkind == W_C && n == 0 ? 0 : (int)(r % NL);

			caslist_add_tail(&lists[l], &items[n].link);
			s->seq[l][s->len[l]++] = (uint8_t)n;
			s->st[n] = S_LINKED;
		} else if (wkind == W_B || (r == 7 && wkind == W_A && HAVE_GONE)) {
			s->st[n] = S_FRESH;	/* nobody's: only a touch adds it */
		} else {
			/* OWNED, as a pop leaves a node */
			caslist_add_head(&lists[1], &items[n].link);
			caslist_pop_head(&lists[1]);
			own_add(&thr[owner], n);
			s->st[n] = S_OWNED;
		}
	}
	atomic_store(&ticket, 0);
}

int main(int argc, char **argv)
{
	unsigned long histories, violations = 0, undecided = 0, max_nodes = 0, first_bad = 0;
	unsigned long cover[NKINDS] = { 0 }, windows[3] = { 0 }, overlapping = 0, nops = 0;
	int verbose = 0;
	uint64_t seed, rng;
	struct history hi;

	if (argc < 4) {
		fprintf(stderr, "usage: %s <threads 2-8> <histories> <seed> [-m] [-v]\n", argv[0]);
		return 2;
	}
	nthreads = atoi(argv[1]);
	histories = strtoul(argv[2], NULL, 0);
	seed = strtoull(argv[3], NULL, 0);
	for (int i = 4; i < argc; i++) {
		if (strcmp(argv[i], "-m") == 0)
			mutant = 1;
		else if (strcmp(argv[i], "-v") == 0)
			verbose++;
		else if (strcmp(argv[i], "-u") == 0)
			pin = 0;
		else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
			spin_us = atol(argv[++i]);
		else if (strcmp(argv[i], "-g") == 0 && i + 1 < argc)
			gap = 1 + (unsigned)atoi(argv[++i]);
		else
			nthreads = 0;
	}
	if (nthreads < 2 || nthreads > TMAX || histories == 0) {
		fprintf(stderr, "lin: bad arguments\n");
		return 2;
	}
	/* a few ops each: about 12 in a window, at least 2 per thread */
	nops_each = 12 / nthreads < 2 ? 2 : 12 / nthreads;
	memo = calloc((size_t)1 << MEMO_BITS, sizeof(*memo));
	if (memo == NULL)
		return 2;
	watchdog_arm(60.0 + (double)histories / 200.0);
	rng = seed;
	pthread_barrier_init(&bar_start, NULL, (unsigned)nthreads + 1);
	pthread_barrier_init(&bar_end, NULL, (unsigned)nthreads + 1);
	for (int i = 0; i < nthreads; i++) {
		thr[i].id = i;
		if (pthread_create(&thr[i].tid, NULL, worker, &thr[i]) != 0)
			return 2;
	}
	for (unsigned long k = 0; k < histories; k++) {
		const int *kinds;
		int nk;
		uint32_t mask0 = 0;

		/* window kind: A, C (and B while touch adds OWNED nodes), in
		 * turn, so each kind gets its share by construction */
		wkind = HAVE_GONE ? (k % 3 == 2 ? W_C : W_A) : (int)(k % 3);
		if (mutant)
			wkind = W_A;
		nnodes = 3 + (int)(splitmix64(&rng) % (NMAX - 2));
		kinds = wkind == W_A ? kinds_a : wkind == W_B ? kinds_b : kinds_c;
		nk = wkind == W_A ? NELEM(kinds_a) : wkind == W_B ? NELEM(kinds_b) : NELEM(kinds_c);
		force_kind = kinds[(k / 3) % (unsigned long)nk];
		for (int i = 0; i < nthreads; i++)
			thr[i].rng = seed ^ (0x51afd6ed4e3c1a27ULL * (uint64_t)(k * TMAX + (unsigned)i + 1));
		setup(&hi, &rng);
		window_no = k;
		pthread_barrier_wait(&bar_start);
		pthread_barrier_wait(&bar_end);
		/* the window: collect every thread's records */
		for (int i = 0; i < nthreads; i++)
			for (int j = 0; j < thr[i].nrec; j++) {
				if (hi.nops == OPS_MAX) {
					fprintf(stderr, "lin: more than %d operations\n", OPS_MAX);
					return 2;
				}
				hi.op[hi.nops++] = thr[i].rec[j];
				cover[thr[i].rec[j].kind]++;
			}
		nops += (unsigned long)hi.nops;
		windows[wkind]++;
		for (int i = 0; i < hi.nops; i++)
			for (int j = 0; j < hi.nops; j++)
				if (hi.op[i].thr < hi.op[j].thr && hi.op[i].inv < hi.op[j].resp &&
				    hi.op[j].inv < hi.op[i].resp) {
					overlapping++;
					i = j = hi.nops;
				}
		for (int l = 0; l < NL; l++) {
			int rc = caslist_check(&lists[l], NMAX, NULL);

			if (rc != 0) {
				fprintf(stderr, "lin: history %lu: list %d: %s\n", k, l,
					caslist_check_strerror(rc));
				violations++;
			}
		}
		memo_gen++;
		search_nodes = 0;
		search_aborted = 0;
		if (!search(&hi, mask0, 0, &hi.start)) {
			if (violations++ == 0 || verbose)
				print_history(stderr, &hi, k);
			if (violations == 1)
				first_bad = k + 1;
		} else if (search_aborted) {
			undecided++;
		}
		if (search_nodes > max_nodes)
			max_nodes = search_nodes;
		if (verbose > 1 && k < 3)
			print_history(stdout, &hi, k);
	}
	atomic_store(&quit, 1);
	pthread_barrier_wait(&bar_start);
	for (int i = 0; i < nthreads; i++)
		pthread_join(thr[i].tid, NULL);
	(void)mutant_hits;
	printf("lin threads=%d histories=%lu seed=%llu%s: checked=%lu violations=%lu undecided=%lu"
	       " max_search_nodes=%lu ops=%lu overlapping_windows=%lu windows A/B/C=%lu/%lu/%lu",
	       nthreads, histories, (unsigned long long)seed, mutant ? " mutant=stale_tail" : "",
	       histories, violations, undecided, max_nodes, nops, overlapping, windows[0],
	       windows[1], windows[2]);
	if (mutant)
		printf(" stale_returns=%lu first_violation_at=%lu",
		       atomic_load_explicit(&mutant_stale, memory_order_relaxed), first_bad);
	printf(" touch=%s cover:", HAVE_GONE ? "gone" : "adds");
	for (int i = 0; i < NKINDS; i++)
		if (cover[i])
			printf(" %s=%lu", kind_name[i], cover[i]);
	printf(" -> %s\n", violations || undecided ? "FAIL" : "PASS");
	free(memo);
	return violations || undecided ? 1 : 0;
}
