/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/stress/busyhead.c - an operation that finds a head busy as the link
 * it needs waits its turn there: it takes a ticket of that head's list
 * (doc/wait.md, "Who takes part"), whichever path it came by.  Step by
 * step with two threads, on a clock only the test moves: no timing
 * decides the outcome.
 *
 * Usage: busyhead [kind]   (kind: 1..KINDS, or all of them)
 *
 * Built inline with the wait module's clock injected (CASLIST_LK_CLOCK_NS),
 * CASLIST_WAIT_ROUNDS 0 (a head wait takes a ticket at its first lost
 * round) and the wait layer's hook, which records each ticket: its list
 * and whether the waiter took it.  Per kind:
 *  1. main holds L(head) of list A by the library's own step
 *     (caslist_lk_lock_head_held: no ticket);
 *  2. the waiter starts the kind's operation, which needs A's head;
 *  3. main waits for a ticket of A taken by the waiter, up to
 *     BUSYHEAD_WAIT_S seconds (a bound on the failing case only: with
 *     CASLIST_WAIT_ROUNDS 0 the correct code takes it at its first lost
 *     round), then releases the head and moves the clock by the idle
 *     time until the operation returns: the waiter, next in line, finds
 *     the head free and unchanged and grants itself;
 *  4. checks: the ticket was taken, of A, by the waiter; the operation
 *     returned what its contract says; caslist_check passes on A (and B)
 *     and every node is where the operation put it.
 * The kinds (each a path that waited on a busy head by backoff only,
 * taking no ticket, before 0.3: issue 52's starvation of a delete of the
 * first node): del of A's first node, add_after A's head, add_near A's
 * head on an empty A, add_tail on an empty A, batch_move_head of A's
 * first node into B, move_head of A's first node into B.  The mutant
 * nolinkwait (a busy head waited on by backoff only, test/stress/mutate.sh)
 * must fail (test/stress/busyhead.sh).  TAP output; exit 0 = pass.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

struct caslist_list;
static void hook_ticket(struct caslist_list *l, uint32_t t);
static __attribute__((unused)) void hook_none(struct caslist_list *l, uint32_t t)
{
	(void)l;
	(void)t;
}

/* The injected clock: moved only by main. */
static _Atomic unsigned long long test_clock_ns;
#define CASLIST_LK_CLOCK_NS() atomic_load(&test_clock_ns)

#define S 4096u		/* the streak's time */
#define CASLIST_INLINE 1
#define CASLIST_WAIT_STREAK_NS S
#define CASLIST_WAIT_CLOCK_EVERY 1
#define CASLIST_WAIT_ROUNDS 0
#define CASLIST_WAIT_IDLE_NS (1000u * S)
#define hook_grant hook_none
#define hook_grant_try hook_none
#define hook_granted hook_none
#define CASLIST_LK_FAIR_HOOK(ev, l, t) hook_##ev(l, t)
#include <caslist/caslist.h>

#include "../tap.h"
#include "../util.h"

#ifndef BUSYHEAD_WAIT_S
#define BUSYHEAD_WAIT_S 2	/* the failing case's bound, in seconds */
#endif

static CASLIST_LIST(A);
static CASLIST_LIST(B);
static struct caslist_node x, y;
static struct caslist_batch batch;

static _Thread_local int is_waiter;
static _Atomic int waiter_tickets_a, other_tickets;
static _Atomic int returned, rc;
static _Atomic int kind;

static void hook_ticket(struct caslist_list *l, uint32_t t)
{
	(void)t;
	if (is_waiter && l == &A)
		atomic_fetch_add(&waiter_tickets_a, 1);
	else
		atomic_fetch_add(&other_tickets, 1);
}

enum { K_DEL = 1, K_ADD_AFTER, K_ADD_NEAR, K_ADD_TAIL, K_BATCH_MOVE, K_MOVE, KINDS = K_MOVE };

static const char *const kind_name[KINDS + 1] = {
	"", "del of the first node", "add_after(head)", "add_near(head) on an empty list",
	"add_tail on an empty list", "batch_move_head of another list's first node",
	"move_head of another list's first node",
};

/* The list as each kind leaves it: A's nodes, B's nodes, in order. */
static void set_up(int k)
{
	caslist_init(&A);
	caslist_init(&B);
	caslist_node_init(&x);
	caslist_node_init(&y);
	caslist_batch_init(&batch);
	switch (k) {
	case K_DEL:
	case K_BATCH_MOVE:
	case K_MOVE:
		caslist_add_head(&A, &x);	/* x first on A */
		caslist_add_tail(&A, &y);
		break;
	case K_ADD_AFTER:
		caslist_add_head(&A, &y);
		break;
	default:				/* A empty */
		break;
	}
}

static void *waiter(void *arg)
{
	int r = 0;

	(void)arg;
	is_waiter = 1;
	switch (atomic_load(&kind)) {
	case K_DEL:
		r = caslist_del(&x);
		break;
	case K_ADD_AFTER:
		r = caslist_add_after(&A.head, &x);
		break;
	case K_ADD_NEAR:
		r = caslist_add_near(&A.head, &x);
		break;
	case K_ADD_TAIL:
		caslist_add_tail(&A, &x);
		break;
	case K_BATCH_MOVE:
		r = caslist_batch_move_head(&batch, &B, &x);
		break;
	case K_MOVE:
		r = caslist_move_head(&B, &x);
		break;
	}
	atomic_store(&rc, r);
	atomic_store(&returned, 1);
	return NULL;
}

static bool order_is(struct caslist_list *l, struct caslist_node *const *want, size_t n)
{
	struct caslist_node *h = caslist_lk_head_of(l);
	struct caslist_node *c = h;
	size_t count = 0;

	if (caslist_check(l, n, &count) != 0 || count != n)
		return false;
	for (size_t i = 0; i < n; i++) {
		c = caslist_lk_node_of(atomic_load_explicit(&c->next, memory_order_relaxed));
		if (c != want[i])
			return false;
	}
	return true;
}

static void run_kind(int k)
{
	struct caslist_node *h = caslist_lk_head_of(&A);
	struct timespec pause = { 0, 1000000 };	/* 1 ms */
	int polls = 0, r;
	bool ticket, whole;
	pthread_t thr;
	uintptr_t w;

	set_up(k);
	atomic_store(&kind, k);
	atomic_store(&waiter_tickets_a, 0);
	atomic_store(&other_tickets, 0);
	atomic_store(&returned, 0);
	w = caslist_lk_lock_head_held(h, "busyhead");		/* 1 */
	if (pthread_create(&thr, NULL, waiter, NULL) != 0)	/* 2 */
		abort();
	while (atomic_load(&waiter_tickets_a) == 0 && polls++ < BUSYHEAD_WAIT_S * 1000)
		nanosleep(&pause, NULL);			/* 3 */
	ticket = atomic_load(&waiter_tickets_a) > 0;
	caslist_lk_unlock(h, w);
	while (!atomic_load(&returned)) {
		atomic_fetch_add(&test_clock_ns, CASLIST_WAIT_IDLE_NS);
		sched_yield();
	}
	pthread_join(thr, NULL);
	r = atomic_load(&rc);
	tap_ok(ticket, "%s: the waiter took a ticket of the busy head's list (%d of A, %d other)",
	       kind_name[k], atomic_load(&waiter_tickets_a), atomic_load(&other_tickets));
	switch (k) {				/* 4 */
	case K_DEL:
		whole = r == CASLIST_OK && order_is(&A, (struct caslist_node *[]){ &y }, 1);
		break;
	case K_ADD_AFTER:
		whole = r == CASLIST_OK && order_is(&A, (struct caslist_node *[]){ &x, &y }, 2);
		break;
	case K_ADD_NEAR:
	case K_ADD_TAIL:
		whole = r >= 0 && order_is(&A, (struct caslist_node *[]){ &x }, 1);
		break;
	case K_BATCH_MOVE:
		caslist_batch_flush(&batch);
		whole = r == CASLIST_OK && order_is(&A, (struct caslist_node *[]){ &y }, 1) &&
			order_is(&B, (struct caslist_node *[]){ &x }, 1);
		break;
	default:
		whole = r == CASLIST_OK && order_is(&A, (struct caslist_node *[]){ &y }, 1) &&
			order_is(&B, (struct caslist_node *[]){ &x }, 1);
		break;
	}
	tap_ok(whole, "%s: returned %d, the lists whole and in order", kind_name[k], r);
}

int main(int argc, char **argv)
{
	int only = argc > 1 ? atoi(argv[1]) : 0;

	watchdog_arm(60 + KINDS * BUSYHEAD_WAIT_S);
	if (only < 0 || only > KINDS) {
		fprintf(stderr, "usage: busyhead [1..%d]\n", KINDS);
		return 2;
	}
	for (int k = 1; k <= KINDS; k++)
		if (only == 0 || only == k)
			run_kind(k);
	return tap_done();
}
