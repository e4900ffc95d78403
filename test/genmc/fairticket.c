/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fairticket - a ticket of the head's hand-over (wait.h) and the
 * bound in the seq_cst order.  List A: empty.  T1 adds w at the head; its
 * wait for the head, if T2 holds it, takes a ticket at once
 * (CASLIST_WAIT_ROUNDS 0).  T2 adds o1 at the head (the operation it may
 * be in when the ticket is taken), then stores F = 1 (seq_cst) and adds
 * o2.  The wait layer's hook lets T1 load F (seq_cst) right after its
 * ticket's fetch_add.  If that load saw 0, the ticket precedes T2's store
 * of F, and so T2's entry into the add of o2, in the total order of the
 * seq_cst accesses: that entry sees the ticket pending, and with
 * CASLIST_WAIT_STREAK_NS 0 it grants it (doc/wait.md, "The bound").  So T2, back
 * from the add of o2, asserts that it granted whenever it sees T1's
 * ticket with F unseen.  (Granting, T2 queues a ticket of its own that
 * nobody grants here: that execution blocks in T2's wait, after the
 * grant, which a probe marks.  GENMC_CLOCK's clock, which stays at 0,
 * keeps the next in line's self-grant (CASLIST_WAIT_IDLE_NS) out of
 * reach, so that no grant but T2's can serve T1.)  The store-buffering pair (the ticket then F, F then the entry's
 * load of want_next) is what the two seq_cst orders give.
 * genmc-flags: -DCASLIST_WAIT_STREAK_NS=0 -DCASLIST_WAIT_CLOCK_EVERY=1 -DCASLIST_WAIT_ROUNDS=0 -DGENMC_WAIT_PAUSES=1 -DGENMC_CLOCK
 */
#include <stdatomic.h>

static _Atomic int F, t1_ticket, t1_saw_f = -1, t1_self, t2_granted;
static _Thread_local int is_t1;
static void probe_grant(void);	/* PROBE comes with client.h, below */

/* wait.h's test hook: EV is ticket (after the fetch_add), grant (by the
 * granter) or granted (seen by the waiter). */
#define CASLIST_LK_FAIR_HOOK(ev, l, t) hook_##ev(t)
static void hook_ticket(unsigned t)
{
	(void)t;
	if (is_t1) {
		t1_ticket = 1;
		t1_saw_f = F;
	}
}
static void hook_grant(unsigned t)
{
	if (t == 0) {
		if (is_t1)
			t1_self = 1;
		else
			t2_granted = 1;
		probe_grant();
	}
}
static void hook_grant_try(unsigned t)
{
	(void)t;
}
static void hook_granted(unsigned t)
{
	(void)t;
}

#include "client.h"

static void probe_grant(void)
{
	PROBE(2, !is_t1 && t1_saw_f == 0);
}

static struct caslist_list *A;
static struct obj *w, *o1, *o2;

static void *t1(void *arg)
{
	(void)arg;
	is_t1 = 1;
	caslist_add_head(A, &w->link);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	caslist_add_head(A, &o1->link);
	F = 1;
	caslist_add_head(A, &o2->link);
	PROBE(1, t1_ticket);
	if (t1_ticket && t1_saw_f == 0)
		assert(t2_granted);
	return NULL;
}

int main(void)
{
	A = list_new();
	w = obj_new(1);
	o1 = obj_new(2);
	o2 = obj_new(3);
	run_threads(t1, t2, NULL);
	assert(list_len(A) == 3 && list_pos(A, &o2->link) < list_pos(A, &o1->link));
	assert(!t1_self);
	return 0;
}
