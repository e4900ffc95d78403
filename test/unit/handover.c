/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/unit/handover.c - the head's hand-over by count (static/wait.h),
 * step by step with two threads: no timing decides the outcome.
 *
 * Built inline with CASLIST_WAIT_K 4, the wait module's clock injected
 * (CASLIST_LK_CLOCK_NS: a counter that only main moves, and only in step
 * 5: the next in line samples the head, and may grant itself, only when
 * that clock has moved CASLIST_WAIT_IDLE_NS; so no host's or emulator's
 * speed decides the outcome) and the wait layer's hook, which records
 * each ticket taken and each grant with who made it and how many head
 * operations its maker had completed.
 *
 *  1. main holds L(head) by the library's own step (lock_head_held: no
 *     ticket); the waiter's add_head loses its rounds and takes ticket 0;
 *     main sees it and releases the head.
 *  2. main completes K add_heads: each starts past the pending ticket and
 *     counts itself; none grants, and the waiter's add has not happened.
 *  3. main's next add_head grants ticket 0 at its entry (exactly K
 *     operations after the ticket), takes ticket 1 and waits for it.
 *  4. the waiter's add completes (it was granted), then, once main's
 *     ticket is there, K more head operations of its own count
 *     themselves and the next one grants ticket 1 and takes ticket 2:
 *     main's add completes.
 *  5. main takes no more head operations and moves the clock: the
 *     waiter, next in line, finds the head free and unchanged between two
 *     samples and grants ticket 2 itself (the fallback); its add
 *     completes.
 * Then: three tickets, three grants, the list holds every node once,
 * the waiter's last node first and main's granted one second.  The
 * mutant nodefer (no entry counts itself) fails 2-4.
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

/* The injected clock: still until step 5. */
static _Atomic unsigned long long test_clock_ns;
#define CASLIST_LK_CLOCK_NS() atomic_load(&test_clock_ns)

#define CASLIST_INLINE 1
#define CASLIST_WAIT_K 4
#define CASLIST_WAIT_IDLE_NS 1000u
#define CASLIST_LK_FAIR_HOOK(ev, l, t) hook_##ev(l, t)
#include <caslist/caslist.h>

#include "../tap.h"
#include "../util.h"

#define K CASLIST_WAIT_K

static CASLIST_LIST(list);
static struct caslist_node mine[K + 1], theirs[K + 2];

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
	for (int i = 1; i < K + 2; i++) {
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
	for (int i = 0; i < K + 1; i++)
		caslist_node_init(&mine[i]);
	for (int i = 0; i < K + 2; i++)
		caslist_node_init(&theirs[i]);
	w = caslist_lk_lock_head_held(h, "handover");
	if (pthread_create(&thr, NULL, waiter, NULL) != 0)
		return 1;
	while (atomic_load(&tickets) < 1)
		sched_yield();
	caslist_lk_unlock(h, w);
	tap_ok(atomic_load(&ticket_by[0]) == 0, "1. the waiter's add took ticket 0");

	for (int i = 0; i < K; i++) {
		caslist_add_head(&list, &mine[i]);
		atomic_fetch_add(&done_main, 1);
	}
	tap_ok(atomic_load(&grants) == 0 && atomic_load(&done_waiter) == 0,
	       "2. %d operations past the pending ticket: no grant (grants %d), the waiter waits",
	       K, atomic_load(&grants));

	caslist_add_head(&list, &mine[K]);	/* 3: grants, then waits for its own */
	atomic_fetch_add(&done_main, 1);
	tap_ok(atomic_load(&grant_by[0]) == 1 && atomic_load(&grant_done[0]) == K &&
		       atomic_load(&waiter_added_at_grant0) == 0,
	       "3. main's operation %d granted ticket 0 (by %d after %d), before the waiter's add",
	       K + 1, atomic_load(&grant_by[0]), atomic_load(&grant_done[0]));
	tap_ok(atomic_load(&ticket_by[1]) == 1, "3. and took ticket 1");
	/* 5: main's add is back and takes no more; only now may a next in
	 * line find the head idle, as the clock moves.  (Step 4 needs no
	 * clock: the waiter's K + 1 operations grant by count.) */
	while (atomic_load(&done_waiter) < K + 2) {
		atomic_fetch_add(&test_clock_ns, CASLIST_WAIT_IDLE_NS);
		sched_yield();
	}
	pthread_join(thr, NULL);
	tap_ok(atomic_load(&grant_by[1]) == 0 && atomic_load(&grant_done[1]) == K + 1,
	       "4. the waiter granted ticket 1 after its add and %d more (by %d after %d)", K,
	       atomic_load(&grant_by[1]), atomic_load(&grant_done[1]));
	tap_ok(atomic_load(&ticket_by[2]) == 0 && atomic_load(&grant_by[2]) == 0,
	       "5. the waiter took ticket 2 and, the head idle, granted it itself (by %d)",
	       atomic_load(&grant_by[2]));
	tap_ok(atomic_load(&tickets) == 3 && atomic_load(&grants) == 3,
	       "three tickets (%d), three grants (%d)", atomic_load(&tickets), atomic_load(&grants));
	ok = caslist_check(&list, 2 * K + 3, &count) == 0 && count == 2 * K + 3;
	tap_ok(ok, "the list is whole: %zu nodes", count);
	tap_ok(caslist_lk_node_of(atomic_load_explicit(&h->next, memory_order_relaxed)) ==
			       &theirs[K + 1] &&
		       caslist_lk_node_of(atomic_load_explicit(&theirs[K + 1].next,
							       memory_order_relaxed)) == &mine[K],
	       "the waiter's last node is first, main's granted one second");
	return tap_done();
}
