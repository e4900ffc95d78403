/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/unit/handover.c - the head's hand-over bounded by time
 * (static/wait.h), step by step with two threads: no timing decides the
 * outcome.
 *
 * Built inline with the wait module's clock injected (CASLIST_LK_CLOCK_NS:
 * a counter that only the test's steps move), CASLIST_WAIT_STREAK_NS S,
 * CASLIST_WAIT_CLOCK_EVERY 1 (every pass past a pending ticket reads the
 * clock), CASLIST_WAIT_IDLE_NS far above S (the next in line's idle
 * sample is reached only in step 5), and the wait layer's hook, which
 * records each ticket taken and each grant with who made it and how many
 * head operations its maker had completed.
 *
 *  1. main holds L(head) by the library's own step (lock_head_held: no
 *     ticket); the waiter's add_head loses its rounds and takes ticket 0
 *     (stamped at clock 0); main sees it and releases the head.
 *  2. main completes N add_heads with the clock still (N above the old
 *     count's 64): each passes the pending ticket; none grants, and the
 *     waiter's add has not happened: the streak is bounded by time, not
 *     by a count.
 *  3. main moves the clock S: its next add_head grants ticket 0 at its
 *     entry (after exactly N operations), takes ticket 1 and waits.
 *  4. the waiter's add completes (it was granted); once main's ticket is
 *     there, N head operations of its own pass it with the clock still;
 *     then the waiter moves the clock S and its next operation grants
 *     ticket 1 and takes ticket 2: main's add completes.
 *  5. main takes no more head operations and moves the clock by the idle
 *     time: the waiter, next in line, finds the head free and unchanged
 *     between two samples and grants ticket 2 itself (the fallback); its
 *     add completes.
 * Then: three tickets, three grants, the list holds every node once,
 * the waiter's last node first and main's granted one second.  The
 * mutant nodefer (no entry sees a pending ticket) fails 2-4.
 * TAP output; exit 0 = pass.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

struct caslist_list;
static void hook_ticket(struct caslist_list *l, uint32_t t);
static void hook_grant(struct caslist_list *l, uint32_t t);
static void hook_granted(struct caslist_list *l, uint32_t t);
static void hook_grant_try(struct caslist_list *l, uint32_t t);

/* The injected clock: moved only by the steps. */
static _Atomic unsigned long long test_clock_ns;
#define CASLIST_LK_CLOCK_NS() atomic_load(&test_clock_ns)

#define S 4096u		/* the streak's time (4 units of the stamp's clock) */
#define CASLIST_INLINE 1
#define CASLIST_WAIT_STREAK_NS S
#define CASLIST_WAIT_CLOCK_EVERY 1
#define CASLIST_WAIT_IDLE_NS (1000u * S)
#define CASLIST_LK_FAIR_HOOK(ev, l, t) hook_##ev(l, t)
#include <caslist/caslist.h>

#include "../tap.h"
#include "../util.h"

#define N 100		/* operations past a pending ticket with the clock still */

static CASLIST_LIST(list);
static struct caslist_node mine[N + 1], theirs[N + 2];

static _Thread_local int is_main;
static _Atomic int done_main, done_waiter;	/* head operations completed */
static _Atomic int tickets, grants;
static _Atomic int ticket_by[3] = { -1, -1, -1 };	/* 1: main, 0: the waiter */
static _Atomic int grant_by[3] = { -1, -1, -1 }, grant_done[3] = { -1, -1, -1 };
static _Atomic int waiter_added_at_grant0 = -1;

static void hook_ticket(struct caslist_list *l, uint32_t t)
{
	(void)l;
	if (t < 3)
		atomic_store(&ticket_by[t], is_main);
	atomic_fetch_add(&tickets, 1);
}

/* Before the grant's CAS: the waiter's add cannot have completed since
 * (it waits for this grant; its self-grant needs the clock to move), so
 * its count read here says whether the add came before the grant.  Read
 * after the CAS it could not: a spinning waiter may see the grant, add
 * and count before the granter's hook runs. */
static void hook_grant_try(struct caslist_list *l, uint32_t t)
{
	(void)l;
	if (t == 0 && atomic_load(&waiter_added_at_grant0) == -1)
		atomic_store(&waiter_added_at_grant0, atomic_load(&done_waiter));
}

static void hook_grant(struct caslist_list *l, uint32_t t)
{
	(void)l;
	if (t < 3) {
		atomic_store(&grant_by[t], is_main);
		atomic_store(&grant_done[t], is_main ? atomic_load(&done_main) :
						       atomic_load(&done_waiter));
	}
	atomic_fetch_add(&grants, 1);
}

static void hook_granted(struct caslist_list *l, uint32_t t)
{
	(void)l;
	(void)t;
}

static void *waiter(void *arg)
{
	(void)arg;
	caslist_add_head(&list, &theirs[0]);	/* 1: waits, takes ticket 0 */
	atomic_fetch_add(&done_waiter, 1);
	/* 4: main's ticket first, so that every operation below starts past it. */
	while (atomic_load(&tickets) < 2)
		sched_yield();
	for (int i = 1; i < N + 2; i++) {
		if (i == N + 1)		/* the streak's time is up */
			atomic_fetch_add(&test_clock_ns, S);
		caslist_add_head(&list, &theirs[i]);
		atomic_fetch_add(&done_waiter, 1);
	}
	return NULL;
}

int main(void)
{
	struct caslist_node *h = caslist_lk_head_of(&list);
	pthread_t thr;
	uintptr_t w;
	size_t count = 0;
	int ok;

	watchdog_arm(60);
	is_main = 1;
	for (int i = 0; i < N + 1; i++)
		caslist_node_init(&mine[i]);
	for (int i = 0; i < N + 2; i++)
		caslist_node_init(&theirs[i]);
	w = caslist_lk_lock_head_held(h, "handover");
	if (pthread_create(&thr, NULL, waiter, NULL) != 0)
		return 1;
	while (atomic_load(&tickets) < 1)
		sched_yield();
	caslist_lk_unlock(h, w);
	tap_ok(atomic_load(&ticket_by[0]) == 0, "1. the waiter's add took ticket 0");

	for (int i = 0; i < N; i++) {
		caslist_add_head(&list, &mine[i]);
		atomic_fetch_add(&done_main, 1);
	}
	tap_ok(atomic_load(&grants) == 0 && atomic_load(&done_waiter) == 0,
	       "2. %d operations past the pending ticket, the clock still: no grant (grants %d), "
	       "the waiter waits", N, atomic_load(&grants));

	atomic_fetch_add(&test_clock_ns, S);	/* 3: the streak's time is up */
	caslist_add_head(&list, &mine[N]);	/* grants, then waits for its own */
	atomic_fetch_add(&done_main, 1);
	tap_ok(atomic_load(&grant_by[0]) == 1 && atomic_load(&grant_done[0]) == N &&
		       atomic_load(&waiter_added_at_grant0) == 0,
	       "3. main's operation %d, the first after the streak's time, granted ticket 0 "
	       "(by %d after %d), before the waiter's add",
	       N + 1, atomic_load(&grant_by[0]), atomic_load(&grant_done[0]));
	tap_ok(atomic_load(&ticket_by[1]) == 1, "3. and took ticket 1");
	/* 5: main's add is back and takes no more; only now may a next in
	 * line find the head idle, as the clock moves by the idle time. */
	while (atomic_load(&done_waiter) < N + 2) {
		atomic_fetch_add(&test_clock_ns, CASLIST_WAIT_IDLE_NS);
		sched_yield();
	}
	pthread_join(thr, NULL);
	tap_ok(atomic_load(&grant_by[1]) == 0 && atomic_load(&grant_done[1]) == N + 1,
	       "4. the waiter granted ticket 1 after its add and %d more, the first after the "
	       "clock moved (by %d after %d)", N, atomic_load(&grant_by[1]),
	       atomic_load(&grant_done[1]));
	tap_ok(atomic_load(&ticket_by[2]) == 0 && atomic_load(&grant_by[2]) == 0,
	       "5. the waiter took ticket 2 and, the head idle, granted it itself (by %d)",
	       atomic_load(&grant_by[2]));
	tap_ok(atomic_load(&tickets) == 3 && atomic_load(&grants) == 3,
	       "three tickets (%d), three grants (%d)", atomic_load(&tickets), atomic_load(&grants));
	ok = caslist_check(&list, 2 * N + 3, &count) == 0 && count == 2 * N + 3;
	tap_ok(ok, "the list is whole: %zu nodes", count);
	tap_ok(caslist_lk_node_of(atomic_load_explicit(&h->next, memory_order_relaxed)) ==
			       &theirs[N + 1] &&
		       caslist_lk_node_of(atomic_load_explicit(&theirs[N + 1].next,
							       memory_order_relaxed)) == &mine[N],
	       "the waiter's last node is first, main's granted one second");
	return tap_done();
}
