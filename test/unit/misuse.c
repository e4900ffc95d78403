/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/unit/misuse.c - debug-build misuse checks abort with a message naming the
 * operation and the node address, and a waiter stuck on a link says so.
 * Built with the core compiled in and CASLIST_DEBUG=1 whatever the
 * configuration.  Each case runs in a forked child; the parent checks how
 * it ended (SIGABRT for a misuse, exit 0 for a stuck-link case) and what
 * it printed on stderr.
 *
 * One case per CASLIST_LK_CHECK and CASLIST_LK_REQUIRE site (static/list_ops.h,
 * static/link.h, static/fl_ops.h; the add check once per operation that uses
 * it).  The table `sites` below lists them with the source line's text, and
 * the last test greps the sources (CASLIST_SRCDIR) so that a new check
 * without a case fails here.  Allowed uses that older debug builds aborted
 * on are cases too: they must run clean.
 *
 * Built twice: test/unit/misuse (CASLIST_DEBUG=1: every case) and
 * test/unit/misuse-release (no CASLIST_DEBUG: only the CASLIST_LK_REQUIRE cases,
 * which release builds keep, and the allowed uses).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <caslist/caslist.h>
#include <caslist/static/lock.h>	/* the raw lock steps, for the head-release case */

#include "tap.h"

#ifndef CASLIST_DEBUG
/* misuse-release runs a subset: the debug-only cases stay compiled. */
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

static struct caslist_list L, M;
static struct caslist_node a, b, c;
static struct caslist_fl fl;
static struct caslist_fl_node x, y;

static void setup(void)
{
	caslist_init(&L);
	caslist_init(&M);
	caslist_node_init(&a);
	caslist_node_init(&b);
	caslist_node_init(&c);
	caslist_fl_init(&fl, 4);
	caslist_fl_node_init(&x);
	caslist_fl_node_init(&y);
}

/* ---- misuse: each must abort ---- */

static void add_linked(void)
{
	caslist_add_head(&L, &a);
	caslist_add_head(&L, &a);
}

static void add_tail_linked(void)
{
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &a);
}

static void add_after_linked(void)
{
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &b);
	caslist_add_after(&a, &b);
}

static void add_near_linked(void)
{
	caslist_add_tail(&L, &a);
	caslist_add_tail(&M, &b);
	caslist_add_near(&a, &b);
}

/* A node whose memory was never initialised: malloc'd memory holds
 * whatever was there.  Filled with 0xa5 its next word looks locked and
 * its prev word like a node's (the add said "already linked"); with 0xbe
 * its prev word has the head flag (the add said "a list's head").
 * Neither is a state the list writes: both name the missing init. */
static struct caslist_node g;

static void add_garbage_a5(void)
{
	memset(&g, 0xa5, sizeof(g));
	caslist_add_head(&L, &g);
}

static void add_tail_garbage_be(void)
{
	memset(&g, 0xbe, sizeof(g));
	caslist_add_tail(&L, &g);
}

/* Allowed: zeroed memory is FRESH (caslist_node_init(3)), so adding a
 * zeroed node that was never caslist_node_init'ed is not misuse. */
static void add_zeroed(void)
{
	memset(&g, 0, sizeof(g));
	caslist_add_head(&L, &g);
	if (caslist_check(&L, 10, NULL) != 0 || !caslist_node_linked(&g) ||
	    caslist_pop_head(&L) != &g)
		fprintf(stderr, "a zeroed node was not added\n");
}

/* A node or list at an address that is not 8-aligned, as in a packed
 * struct (struct { char tag; struct caslist_node link; } packed): the
 * words could not keep their three flag bits.  Init aborts naming it,
 * before any word is written. */
static unsigned char unaligned_mem[64] __attribute__((aligned(8)));

static void node_init_unaligned(void)
{
	caslist_node_init((struct caslist_node *)(uintptr_t)(unaligned_mem + 1));
}

static void init_unaligned(void)
{
	caslist_init((struct caslist_list *)(uintptr_t)(unaligned_mem + 4));
}

static struct caslist_list Z;	/* zeroed, never caslist_init'ed */

static void add_uninit_list(void)
{
	caslist_add_head(&Z, &a);
}

static void add_tail_uninit_list(void)
{
	caslist_add_tail(&Z, &a);
}

static void pop_tail_uninit_list(void)
{
	caslist_pop_tail(&Z);
}


static struct caslist_batch B;

static void batch_two_lists(void)
{
	caslist_batch_init(&B);
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &b);
	caslist_batch_move_head(&B, &L, &a);
	caslist_batch_move_head(&B, &M, &b);	/* B holds a for L */
}

/* Allowed: queueing a node twice in one batch does nothing the second
 * time (CASLIST_BATCH_QUEUED); the batch then flushes it once. */
static void batch_twice(void)
{
	caslist_batch_init(&B);
	caslist_add_tail(&L, &a);
	if (caslist_batch_move_head(&B, &L, &a) != CASLIST_OK ||
	    caslist_batch_move_head(&B, &L, &a) != CASLIST_BATCH_QUEUED || B.n != 1)
		fprintf(stderr, "second queueing was not CASLIST_BATCH_QUEUED\n");
	caslist_batch_flush(&B);
	if (caslist_check(&L, 10, NULL) != 0 || !caslist_node_linked(&a))
		fprintf(stderr, "the node is not back on the list once\n");
}

static void add_queued(void)
{
	caslist_batch_init(&B);
	caslist_add_tail(&L, &a);
	caslist_batch_move_head(&B, &L, &a);
	caslist_add_head(&M, &a);		/* a belongs to the batch */
}

/* Every other operation on a list never initialised: one message. */
static struct caslist_fl ZF;	/* zeroed, never caslist_fl_init'ed */
static struct caslist_node *zcur;
static struct caslist_fl_batch zfb;
static struct caslist_fl_builder zbld;
static struct caslist_fl_cache zcache;
static void z_empty(void) { (void)caslist_empty(&Z); }
static void z_iter(void) { zcur = &Z.head; (void)caslist_iter_next(&Z, &zcur); }
static void z_add_after(void) { (void)caslist_add_after(&Z.head, &a); }
static void z_add_near(void) { (void)caslist_add_near(&Z.head, &a); }
static void z_pop_head(void) { (void)caslist_pop_head(&Z); }
static void z_splice_head(void) { caslist_splice_head(&Z, &a, &a); }
static void z_splice_tail(void) { caslist_splice_tail(&Z, &a, &a); }
static void z_move_head(void) { caslist_add_tail(&L, &a); (void)caslist_move_head(&Z, &a); }
static void z_touch(void) { (void)caslist_touch(&Z, &a); }
static void z_cut(void) { caslist_add_tail(&L, &a); (void)caslist_cut_front(&Z, &a); }
/* The batch refuses Z when it takes it, before a's removal: the flush
 * would find it only after a had left L. */
static void z_batch(void)
{
	caslist_batch_init(&B);
	caslist_add_tail(&L, &a);
	caslist_batch_move_head(&B, &Z, &a);
}
static void z_batch_n(void)
{
	struct caslist_node *v[1] = { &a };

	caslist_batch_init(&B);
	caslist_add_tail(&L, &a);
	(void)caslist_batch_move_head_n(&B, &Z, v, 1);
}
static void z_fl_put(void) { caslist_fl_put(&ZF, &x); }
static void z_fl_take(void) { (void)caslist_fl_take(&ZF, 1, &zfb); }
static void z_fl_remove(void) { (void)caslist_fl_remove(&ZF, &x); }
static void z_fl_build(void) { caslist_fl_build_begin(&ZF, &zbld); }
static void z_fl_cache_put(void) { caslist_fl_cache_put(&ZF, &zcache, &x); }
static void z_fl_scan(void) { caslist_fl_scan_begin(&ZF); }

static const struct {
	void (*fn)(void);
	const char *op;
	int fl;		/* 1: the message names the free list, not Z */
} zcases[] = {
	{ z_empty, "caslist_empty", 0 },
	{ z_iter, "caslist_iter_next", 0 },
	{ z_add_after, "caslist_add_after", 0 },
	{ z_add_near, "caslist_add_near", 0 },
	{ z_pop_head, "caslist_pop_head", 0 },
	{ z_splice_head, "caslist_splice_head", 0 },
	{ z_splice_tail, "caslist_splice_tail", 0 },
	{ z_move_head, "caslist_move_head", 0 },
	{ z_touch, "caslist_touch", 0 },
	{ z_cut, "caslist_cut_front", 0 },
	{ z_batch, "caslist_batch_move_head", 0 },
	{ z_batch_n, "caslist_batch_move_head_n", 0 },
	{ z_fl_put, "caslist_fl_put", 1 },
	{ z_fl_take, "caslist_fl_take", 1 },
	{ z_fl_remove, "caslist_fl_remove", 1 },
	{ z_fl_build, "caslist_fl_build_begin", 1 },
	{ z_fl_cache_put, "caslist_fl_cache_put", 1 },
	{ z_fl_scan, "caslist_fl_scan_begin", 1 },
};

/* A list's head where a node is wanted (every build): each operation
 * that takes a node aborts naming the head, on its own list or another,
 * linked to nodes or empty.  Before, caslist_del(&L.head) returned
 * CASLIST_OK and cut the head out of its own list. */
static struct caslist_node *hv[2];
static void h_del(void) { caslist_add_head(&L, &a); (void)caslist_del(&L.head); }
static void h_del_empty(void) { (void)caslist_del(&L.head); }
static void h_del_if_linked(void) { caslist_add_head(&M, &a); (void)caslist_del_if_linked(&M.head); }
static void h_move_head(void) { caslist_add_head(&L, &a); (void)caslist_move_head(&L, &L.head); }
static void h_move_other(void) { caslist_add_head(&M, &a); (void)caslist_move_head(&L, &M.head); }
static void h_touch(void) { caslist_add_head(&L, &a); (void)caslist_touch(&L, &L.head); }
static void h_touch_other(void) { (void)caslist_touch(&L, &M.head); }
static void h_cut(void) { caslist_add_head(&L, &a); (void)caslist_cut_front(&L, &L.head); }
static void h_cut_other(void) { caslist_add_head(&M, &a); (void)caslist_cut_front(&L, &M.head); }
static void h_add_head(void) { caslist_add_head(&L, &M.head); }
static void h_add_tail(void) { caslist_add_tail(&L, &L.head); }
static void h_add_after(void) { caslist_add_head(&L, &a); (void)caslist_add_after(&a, &M.head); }
static void h_add_near(void) { caslist_add_head(&L, &a); (void)caslist_add_near(&a, &M.head); }
static void h_batch(void)
{
	caslist_batch_init(&B);
	(void)caslist_batch_move_head(&B, &L, &M.head);
}
static void h_batch_n(void)
{
	caslist_batch_init(&B);
	caslist_add_head(&L, &a);
	hv[0] = &a;
	hv[1] = &M.head;
	(void)caslist_batch_move_head_n(&B, &L, hv, 2);
}
static void h_retire(void)
{
	struct caslist_node *s = caslist_link_lock(&L.head);

	(void)s;
	caslist_link_retire(&L.head);
}

static const struct {
	void (*fn)(void);
	const char *op;
	int other;	/* 1: the head passed is M's */
} hcases[] = {
	{ h_del, "caslist_del", 0 },
	{ h_del_empty, "caslist_del", 0 },
	{ h_del_if_linked, "caslist_del_if_linked", 1 },
	{ h_move_head, "caslist_move_head", 0 },
	{ h_move_other, "caslist_move_head", 1 },
	{ h_touch, "caslist_touch", 0 },
	{ h_touch_other, "caslist_touch", 1 },
	{ h_cut, "caslist_cut_front", 0 },
	{ h_cut_other, "caslist_cut_front", 1 },
	{ h_add_head, "caslist_add_head", 1 },
	{ h_add_tail, "caslist_add_tail", 0 },
	{ h_add_after, "caslist_add_after", 1 },
	{ h_add_near, "caslist_add_near", 1 },
	{ h_batch, "caslist_batch_move_head", 1 },
	{ h_batch_n, "caslist_batch_move_head_n", 1 },
	{ h_retire, "caslist_link_retire", 0 },
};

/* Allowed: a head as the position of add_after / add_near (list.h). */
static void head_as_pos(void)
{
	if (caslist_add_after(&L.head, &a) != CASLIST_OK ||
	    caslist_add_near(&L.head, &b) < 0 || caslist_check(&L, 8, NULL) != 0)
		_exit(3);
}

/* ---- allowed uses: each must run clean (exit 0, nothing printed) ---- */

/* A chain whose last node's next is stale (list.h: ignored by splices). */
static void splice_stale_end(void)
{
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &b);
	caslist_del(&b);
	atomic_store(&b.next, (uintptr_t)&c);	/* garbage in the ignored word */
	caslist_chain_link(&c, &b);
	caslist_splice_head(&M, &c, &b);
	caslist_del(&a);
	caslist_node_init(&a);
	caslist_add_tail(&L, &a);
	atomic_store(&a.next, (uintptr_t)&b);	/* a chain of one: a..a */
	caslist_del_if_linked(&b);		/* (b is linked on M) */
	caslist_splice_tail(&M, &a, &a);
	if (caslist_check(&M, 8, NULL) != 0)
		_exit(3);
}

/* A removed node re-initialised by its remover before the cut runs:
 * the cut loses the race and returns NULL. */
static void cut_after_node_init(void)
{
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &b);
	caslist_del(&a);
	caslist_node_init(&a);
	if (caslist_cut_front(&L, &a) != NULL || caslist_cut_front(&L, &c) != NULL)
		_exit(3);
}

static void del_unlinked(void)
{
	caslist_del(&a);
}

static void double_del(void)
{
	caslist_add_head(&L, &a);
	caslist_del(&a);
	caslist_del(&a);
}


/* The check sees an empty list, or last as another list's tail (last in
 * the middle of another list cannot be told in O(1)). */
static void cut_other_list(void)
{
	caslist_add_head(&M, &a);
	caslist_cut_front(&L, &a);
}

/* A head locked and released by raw steps, with no entry into its wait:
 * what a new path that forgot the hand-over does (the library's own
 * paths all enter: doc/wait.md, "Who takes part"). */
static CASLIST_LIST(U);
static void head_not_entered(void)
{
	struct caslist_node *h = &U.head;
	uintptr_t v = atomic_load_explicit(&h->next, memory_order_relaxed);

	if (caslist_lk_cas_lock(h, &v, v | CASLIST_LK_LOCK, "misuse"))
		caslist_lk_unlock(h, v);
}

/* A node re-initialised while its move waits queued at a busy head
 * (misuse.c is built with CASLIST_HEAD_COMBINE=1): the mover, seeing
 * its word unlocked, returns; the next drain finds a word that is no
 * chain word and aborts naming the node, instead of walking it for
 * ever.  The head stays held until the mover is joined, so the drain is
 * main's add_head. */
static CASLIST_LIST(Q);
static void *q_mover(void *arg)
{
	(void)arg;
	(void)caslist_move_head(&Q, &b);
	return NULL;
}
static void queued_node_init(void)
{
	struct caslist_node *s;
	pthread_t t;

	caslist_add_tail(&Q, &a);
	caslist_add_tail(&Q, &b);
	s = caslist_link_lock(&Q.head);		/* the head busy */
	if (pthread_create(&t, NULL, q_mover, NULL) != 0)
		_exit(3);
	while (atomic_load_explicit(&Q.queue, memory_order_relaxed) == 0)
		sched_yield();			/* b queued */
	caslist_node_init(&b);			/* the misuse: b is in transit */
	pthread_join(t, NULL);
	caslist_link_unlock(&Q.head, s);
	caslist_add_head(&Q, &c);		/* its insert drains b */
}

static void cut_other_tail(void)
{
	caslist_add_head(&L, &b);
	caslist_add_head(&M, &a);
	caslist_cut_front(&L, &a);
}

static void corrupt_del(void)
{
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &b);
	atomic_store(&b.prev, (uintptr_t)&c); /* b->prev should be &a */
	caslist_del(&a);
}

/* a's word says its successor (b) is a head (bit 2, I6); b's prev word
 * says it is not: the unlink's store of b->prev would give b a head
 * flag. */
static void corrupt_kind(void)
{
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &b);
	atomic_store(&a.next, (uintptr_t)&b | 4u);
	caslist_del(&a);
}

static void corrupt_add(void)
{
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &b);
	atomic_store(&b.prev, (uintptr_t)&L.head); /* b->prev should be &a */
	caslist_add_after(&a, &c);
}

static void corrupt_move(void)
{
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &b);
	caslist_add_tail(&L, &c);
	atomic_store(&c.prev, (uintptr_t)&L.head); /* c->prev should be &b */
	caslist_move_head(&L, &b);
}

static void corrupt_cut(void)
{
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &b);
	atomic_store(&b.prev, (uintptr_t)&c); /* b->prev should be &a */
	caslist_cut_front(&L, &a);
}

static void fl_put_twice(void)
{
	caslist_fl_put(&fl, &x);
	caslist_fl_put(&fl, &x);
}

static void fl_put_twice_other(void)
{
	caslist_fl_put(&fl, &x);
	caslist_fl_put(&fl, &y);
	caslist_fl_put(&fl, &x);
}

static void fl_build_add_free(void)
{
	struct caslist_fl_builder bd;

	caslist_fl_put(&fl, &x);
	caslist_fl_build_begin(&fl, &bd);
	caslist_fl_build_add(&bd, &x);
}

static void fl_put_batch_free(void)
{
	caslist_fl_put(&fl, &x);
	caslist_fl_put_batch(&fl, &x, &x, 1);
}

static void fl_put_batch_short(void)
{
	caslist_chain_link(&x.link, &y.link);
	caslist_fl_put_batch(&fl, &x, &y, 1); /* the chain x..y has 2 nodes */
}

/* ---- stuck links: a link held on purpose, a waiter, its message ---- */

static int held_pipe[2];
static struct caslist_node *stuck_cur;

static void *del_a(void *arg)
{
	(void)arg;
	return (void *)(intptr_t)caslist_del(&a);
}

static void *walk(void *arg)
{
	int rc, steps = 0;

	(void)arg;
	stuck_cur = &L.head;
	while ((rc = caslist_iter_next(&L, &stuck_cur)) == 1)
		steps++;
	return (void *)(intptr_t)(rc == 0 ? steps : -1);
}

/*
 * Hold the link of `held` (taken with the exported primitive), start
 * `waiter`, read our own stderr (redirected into a pipe) until the
 * diagnostic line is complete, then release the link, join, drain, and
 * copy what was printed to the parent.  Exit 0 if the waiter returned
 * `want` and exactly one diagnostic was printed.  Bounded by alarm().
 */
static void stuck_case(struct caslist_node *held, void *(*waiter)(void *), intptr_t want)
{
	char buf[2048];
	size_t got = 0;
	int orig = dup(2), n = 0;
	pthread_t t;
	void *ret;
	struct caslist_node *succ;
	const char *p;

	alarm(20);
	setenv("CASLIST_STUCK_MS", "50", 1);
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &b);
	if (pipe(held_pipe) != 0)
		_exit(2);
	dup2(held_pipe[1], 2);
	succ = caslist_link_lock(held);
	pthread_create(&t, NULL, waiter, NULL);
	while (got < sizeof(buf) - 1) {
		ssize_t len = read(held_pipe[0], buf + got, sizeof(buf) - 1 - got);

		if (len <= 0)
			break;
		got += (size_t)len;
		buf[got] = '\0';
		if (strstr(buf, "keeps waiting") && strchr(strstr(buf, "keeps waiting"), '\n'))
			break;
	}
	caslist_link_unlock(held, succ);
	pthread_join(t, &ret);
	fcntl(held_pipe[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		ssize_t len = read(held_pipe[0], buf + got, sizeof(buf) - 1 - got);

		if (len <= 0)
			break;
		got += (size_t)len;
	}
	buf[got] = '\0';
	if (write(orig, buf, got) < 0)
		_exit(2);
	for (p = buf; (p = strstr(p, "stuck link")) != NULL; p++)
		n++;
	if ((intptr_t)ret != want || n != 1) {
		dprintf(orig, "waiter returned %ld (want %ld), %d diagnostics\n", (long)(intptr_t)ret,
			(long)want, n);
		_exit(1);
	}
	_exit(0);
}

static void stuck_on_node(void)
{
	stuck_case(&a, del_a, CASLIST_OK); /* del waits for L(a) */
}

static void stuck_on_pred(void)
{
	stuck_case(&L.head, del_a, CASLIST_OK); /* del holds L(a), waits for L(head) */
}

static void stuck_walk(void)
{
	stuck_case(&a, walk, 2); /* iter_next waits on a's locked word */
}

/* ---- the harness ---- */

/* Run fn in a child with stderr captured; returns the wait status. */
static int run_child(void (*fn)(void), char *buf, size_t size)
{
	int fd[2], status;
	ssize_t len;
	size_t got = 0;
	pid_t pid;

	buf[0] = '\0';
	if (pipe(fd) != 0)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		setup();
		fn();
		_exit(0); /* not caught: the parent sees exit 0 */
	}
	close(fd[1]);
	while (got < size - 1 && (len = read(fd[0], buf + got, size - 1 - got)) > 0)
		got += (size_t)len;
	buf[got] = '\0';
	close(fd[0]);
	waitpid(pid, &status, 0);
	return status;
}

/* 1 if fn died of SIGABRT printing "caslist: op(node): " and what. */
static int aborts(void (*fn)(void), const char *op, const void *node, const char *what)
{
	char buf[1024], want[160];
	int status = run_child(fn, buf, sizeof(buf));

	snprintf(want, sizeof(want), "caslist: %s(%p): ", op, node);
	if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT) || !strstr(buf, want) ||
	    !strstr(buf, what)) {
		printf("# child status %d, stderr: %s\n", status, buf);
		return 0;
	}
	return 1;
}

/* 1 if fn exited 0 and printed nothing. */
static int runs_clean(void (*fn)(void))
{
	char buf[1024];
	int status = run_child(fn, buf, sizeof(buf));

	if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) || buf[0] != '\0') {
		printf("# child status %d, stderr: %s\n", status, buf);
		return 0;
	}
	return 1;
}

/* 1 if fn exited 0 and printed the stuck-link line for link, held by
 * holder, with waiter named. */
static int reports_stuck(void (*fn)(void), const void *link, const char *holder,
			 const char *waiter)
{
	char buf[2048], want[256];
	int status = run_child(fn, buf, sizeof(buf));

	snprintf(want, sizeof(want), "caslist: stuck link %p: locked by %s; %s has waited ", link,
		 holder, waiter);
	if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) || !strstr(buf, want)) {
		printf("# child status %d, want \"%s\", stderr: %s\n", status, want, buf);
		return 0;
	}
	printf("# %s", buf);
	return 1;
}

/* The CASLIST_LK_CHECK sites, as "file: text on the line"; each has a case. */
static const char *const sites[] = {
	"include/caslist/static/list_ops.h: CASLIST_LK_REQUIRE(v == 0 || v == CASLIST_POISON_NEXT, op, n",
	"include/caslist/static/list_ops.h: CASLIST_LK_REQUIRE(atomic_load_explicit(&h->next",
	"include/caslist/static/list_ops.h: CASLIST_LK_REQUIRE((CASLIST_LK_PCAST(uintptr_t, p) & 7) == 0, op, p",
	"include/caslist/static/batch_ops.h: CASLIST_LK_REQUIRE(b->n == 0 || b->l == l, op, b",
	"include/caslist/static/batch_ops.h: CASLIST_LK_REQUIRE(caslist_lk_list_initialised(l), op",
	"include/caslist/static/lock.h: CASLIST_LK_REQUIRE(!caslist_lk_prev_is_head(pv), op, x",
	"include/caslist/static/list_ops.h: CASLIST_LK_REQUIRE(!caslist_lk_is_head(last), \"caslist_cut_front\"",
	"include/caslist/static/list_ops.h: CASLIST_LK_REQUIRE(!caslist_lk_is_head(n), \"caslist_link_retire\"",
	"include/caslist/static/list_ops.h: CASLIST_LK_REQUIRE(v != 0, \"caslist_empty\"",
	"include/caslist/static/list_ops.h: CASLIST_LK_REQUIRE(*cur != h, \"caslist_iter_next\"",
	"include/caslist/static/list_ops.h: CASLIST_LK_REQUIRE(atomic_load_explicit(&pos->next",
	"include/caslist/static/fl_ops.h: CASLIST_LK_REQUIRE(fl->batch != 0, op, fl",
	"include/caslist/static/lock.h: CASLIST_LK_REQUIRE(f != 0, op, h",
	"include/caslist/static/lock.h: CASLIST_LK_CHECK(CASLIST_LK_SELF.entered",
	"include/caslist/static/list_ops.h: CASLIST_LK_CHECK(rc == CASLIST_OK, \"caslist_del\"",
	"include/caslist/static/list_ops.h: CASLIST_LK_CHECK(0, \"caslist_cut_front\"",
	"include/caslist/static/link.h: CASLIST_LK_CHECK((old & ~CASLIST_LK_HEAD_FLAG) == caslist_lk_w_of(was)",
	"include/caslist/static/link.h: CASLIST_LK_CHECK((old & CASLIST_LK_HEAD_FLAG) == caslist_lk_flag_of(sw)",
	"include/caslist/static/fl_ops.h: CASLIST_LK_CHECK(atomic_load_explicit(&x->cluster",
	"include/caslist/static/fl_ops.h: CASLIST_LK_CHECK(x == last, \"caslist_fl_put_batch\"",
	"include/caslist/static/fl_ops.h: CASLIST_LK_CHECK(caslist_lk_cluster_of(x) == NULL, \"caslist_fl_build_add\"",
	"include/caslist/static/fl_ops.h: CASLIST_LK_REQUIRE(caslist_lk_cluster_of(x) == NULL, \"caslist_fl_put\"",
	"include/caslist/static/combine.h: CASLIST_LK_REQUIRE((w & (CASLIST_LK_LOCK | CASLIST_LK_BATCH_TAG",
};

/* Every CASLIST_LK_CHECK( line in the sources matches exactly one entry. */
static int sites_covered(void)
{
	static const char *const files[] = {
		"include/caslist/static/list_ops.h", "include/caslist/static/lock.h",
		"include/caslist/static/link.h", "include/caslist/static/batch_ops.h",
		"include/caslist/static/fl_ops.h", "include/caslist/static/cl_pool.h",
		"include/caslist/static/cluster.h", "include/caslist/static/combine.h",
		"lib/check.c", "lib/debug.c" };
	const char *src = getenv("CASLIST_SRCDIR");
	int ok = 1, found = 0;

	/* make check exports it; run by hand (under qemu too) the program
	 * falls back to the source tree it was configured from */
	if (src == NULL)
		src = MISUSE_SRCDIR;
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		char path[1024], line[512];
		FILE *fp;

		snprintf(path, sizeof(path), "%s/%s", src, files[f]);
		fp = fopen(path, "r");
		if (fp == NULL) {
			printf("# cannot open %s (set CASLIST_SRCDIR)\n", path);
			return 0;
		}
		while (fgets(line, sizeof(line), fp)) {
			const char *p = strstr(line, "CASLIST_LK_CHECK(");
			int match = 0;

			if (p == NULL)
				p = strstr(line, "CASLIST_LK_REQUIRE(");
			if (p == NULL || strstr(line, "#define"))
				continue;
			for (size_t i = 0; i < sizeof(sites) / sizeof(sites[0]); i++) {
				size_t fl_len = strlen(files[f]);

				if (strncmp(sites[i], files[f], fl_len) == 0 &&
				    strncmp(p, sites[i] + fl_len + 2, strlen(sites[i] + fl_len + 2)) == 0)
					match++;
			}
			found++;
			if (match != 1) {
				printf("# %s: check without a misuse case: %s", files[f], p);
				ok = 0;
			}
		}
		fclose(fp);
	}
	return ok && found == (int)(sizeof(sites) / sizeof(sites[0]));
}

#ifdef CASLIST_DEBUG
#define DEBUG_CASE(x) x
#else
#define DEBUG_CASE(x) tap_skip("a debug-build check (CASLIST_LK_CHECK)")
#endif

int main(void)
{
	/* lib/list.c caslist_lk_check_addable, once per operation that calls it (every build) */
	tap_ok(aborts(add_linked, "caslist_add_head", &a, "node is already linked"),
	       "add_head of a linked node aborts");
	tap_ok(aborts(add_tail_linked, "caslist_add_tail", &a, "node is already linked"),
	       "add_tail of a linked node aborts");
	tap_ok(aborts(add_after_linked, "caslist_add_after", &b, "node is already linked"),
	       "add_after of a linked node aborts");
	tap_ok(aborts(add_near_linked, "caslist_add_near", &b, "node is already linked"),
	       "add_near of a node linked on another list aborts");
	/* a node never initialised (every build): the message names it */
	tap_ok(aborts(add_garbage_a5, "caslist_add_head", &g, "node is not initialised"),
	       "add_head of a node filled with 0xa5 (never initialised) aborts naming it");
	tap_ok(aborts(add_tail_garbage_be, "caslist_add_tail", &g, "node is not initialised"),
	       "add_tail of a node filled with 0xbe (never initialised) aborts naming it");
	tap_ok(runs_clean(add_zeroed), "add_head of a zeroed node (FRESH) runs clean");
	/* a node or list that is not 8-aligned (every build) */
	tap_ok(aborts(node_init_unaligned, "caslist_node_init", unaligned_mem + 1, "not 8-aligned"),
	       "node_init of a node at an odd address (packed embedding) aborts naming it");
	tap_ok(aborts(init_unaligned, "caslist_init", unaligned_mem + 4, "not 8-aligned"),
	       "init of a list at a 4-aligned address aborts naming it");
	/* a list never initialised (every build) */
	tap_ok(aborts(add_uninit_list, "caslist_add_head", &Z.head, "not initialised"),
	       "add_head on a list never caslist_init'ed aborts");
	tap_ok(aborts(add_tail_uninit_list, "caslist_add_tail", &Z.head, "not initialised"),
	       "add_tail on a list never caslist_init'ed aborts");
	tap_ok(aborts(pop_tail_uninit_list, "caslist_pop_tail", &Z.head, "not initialised"),
	       "pop_tail on a list never caslist_init'ed aborts");
	/* batches (every build) */
	tap_ok(aborts(batch_two_lists, "caslist_batch_move_head", &B, "another list"),
	       "a batch holding nodes for one list, used for another, aborts");
	tap_ok(runs_clean(batch_twice),
	       "a node queued twice in one batch: CASLIST_BATCH_QUEUED, flushed once");
	for (size_t i = 0; i < sizeof(zcases) / sizeof(zcases[0]); i++)
		tap_ok(aborts(zcases[i].fn, zcases[i].op, zcases[i].fl ? (void *)&ZF : (void *)&Z.head,
			      zcases[i].fl ? "free list is not initialised (caslist_fl_init)"
					   : "list is not initialised"),
		       "%s on a %s never initialised aborts naming it", zcases[i].op,
		       zcases[i].fl ? "free list" : "list");
	/* a list's head passed as a node (every build) */
	for (size_t i = 0; i < sizeof(hcases) / sizeof(hcases[0]); i++)
		tap_ok(aborts(hcases[i].fn, hcases[i].op, hcases[i].other ? &M.head : &L.head,
			      "the node is a list's head"),
		       "%s of %s head aborts naming it (%zu)", hcases[i].op,
		       hcases[i].other ? "another list's" : "its list's", i);
	tap_ok(runs_clean(head_as_pos), "a head as add_after / add_near's position runs clean");
	tap_ok(aborts(add_queued, "caslist_add_head", &a, "queued in a batch"),
	       "a plain add of a node queued in a batch aborts");
	/* static/combine.h: a queued node's word overwritten (every build) */
	tap_ok(aborts(queued_node_init, "caslist_add_head", &b, "while its move was queued"),
	       "a node re-initialised while its move is queued at a busy head aborts naming it");
	/* caslist_del */
	DEBUG_CASE(tap_ok(aborts(del_unlinked, "caslist_del", &a, "not linked"),
			  "del of a never-linked node aborts"));
	DEBUG_CASE(tap_ok(aborts(double_del, "caslist_del", &a, "double delete"),
			  "double del aborts"));
	/* cut_front's last on another list (release builds: NULL) */
	DEBUG_CASE(tap_ok(aborts(cut_other_list, "caslist_cut_front", &a, "not on this list"),
			  "cut_front with last on another list, this one empty, aborts"));
	DEBUG_CASE(tap_ok(aborts(cut_other_tail, "caslist_cut_front", &a, "not on this list"),
			  "cut_front with last the tail of another list aborts"));
	/* static/lock.h caslist_lk_unlock: a head released without its entry */
	DEBUG_CASE(tap_ok(aborts(head_not_entered, "caslist_lk_unlock", &U.head,
				 "did not enter its wait"),
			  "a head locked and released without entering its wait aborts"));
	/* static/link.h caslist_lk_set_prev_checked, under the lock at insert and unlink */
	DEBUG_CASE(tap_ok(aborts(corrupt_del, "caslist_del", &a, "next->prev != self"),
			  "del with a corrupted neighbour link aborts"));
	DEBUG_CASE(tap_ok(aborts(corrupt_kind, "caslist_del", &a, "kind bit disagrees"),
			  "del with a wrong head bit in the node's own word aborts"));
	DEBUG_CASE(tap_ok(aborts(corrupt_add, "caslist_add_after", &a, "next->prev != self"),
			  "add_after with a corrupted neighbour link aborts"));
	DEBUG_CASE(tap_ok(aborts(corrupt_move, "caslist_move_head", &b, "next->prev != self"),
			  "move_head with a corrupted neighbour link aborts"));
	DEBUG_CASE(tap_ok(aborts(corrupt_cut, "caslist_cut_front", &a, "next->prev != self"),
			  "cut_front with a corrupted neighbour link aborts"));
	/* lib/freelist.c */
	tap_ok(aborts(fl_put_twice, "caslist_fl_put", &x, "already free"),
	       "fl_put of a free node aborts");
	tap_ok(aborts(fl_put_twice_other, "caslist_fl_put", &x, "already free"),
	       "fl_put of a node free in an earlier cluster aborts");
	DEBUG_CASE(tap_ok(aborts(fl_put_batch_free, "caslist_fl_put_batch", &x, "already free"),
			  "fl_put_batch of a free node aborts"));
	DEBUG_CASE(tap_ok(aborts(fl_build_add_free, "caslist_fl_build_add", &x, "already free"),
			  "fl_build_add of a free node aborts"));
	DEBUG_CASE(tap_ok(aborts(fl_put_batch_short, "caslist_fl_put_batch", &y,
				 "chain length != n"),
			  "fl_put_batch with a chain longer than n aborts"));
	/* allowed uses that must not abort */
	tap_ok(runs_clean(splice_stale_end),
	       "splice of a chain whose last node's next is stale runs clean");
	tap_ok(runs_clean(cut_after_node_init),
	       "cut_front at a node removed and re-initialised returns NULL, no abort");
	/* stuck links */
	DEBUG_CASE(tap_ok(reports_stuck(stuck_on_node, &a, "caslist_link_lock", "caslist_del"),
			  "a waiter for a held link names the link and its holder, once"));
	DEBUG_CASE(tap_ok(reports_stuck(stuck_on_pred, &L.head, "caslist_link_lock",
					"caslist_del"),
			  "a deleter waiting for its predecessor's link names it"));
	DEBUG_CASE(tap_ok(reports_stuck(stuck_walk, &a, "caslist_link_lock", "caslist_iter_next"),
			  "an iterator waiting on a locked word names it"));
	tap_ok(sites_covered(), "every CASLIST_LK_CHECK/REQUIRE site in the library has a case here");
	return tap_done();
}
