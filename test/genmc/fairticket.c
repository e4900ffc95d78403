/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fairticket - a ticket of the bounded bypass at a head (fair.h) and the
 * bound in the seq_cst order.  List A: empty.  T1 adds w at the head; its
 * wait for the head, if T2 holds it, takes a ticket on its second round
 * (CASLIST_FAIR_US 0; the shim's clock reads 0 instead of ending the
 * execution, and the first rounds of a wait are single pauses).  T2 adds
 * o1 at the head (the operation it may be in when the ticket is taken),
 * then stores F = 1 (seq_cst) and adds o2.  The fair layer's hook lets T1
 * load F (seq_cst) right after its ticket's fetch_add.  If that load saw
 * 0, the ticket precedes T2's store of F, and so T2's entry into the add
 * of o2, in the total order of the seq_cst accesses: the add of o2
 * started after the ticket, so it defers until T1 has had the head, and
 * w ends up behind o2 (doc/protocol.md, "Waiting", the
 * bound).  The store-buffering pair (the ticket then F, F then the
 * entry's load of want_next) is what the two seq_cst orders give.
 * genmc-flags: -DCASLIST_FAIR_US=0 -DCASLIST_POLL_MAX=8 -DGENMC_WAIT_PAUSES=4 -DGENMC_CLOCK
 */
#include <stdatomic.h>

static _Atomic int F, t1_ticket, t1_saw_f = -1;
static _Thread_local int is_t1;

/* fair.h's test hook: EV is ticket (after the fetch_add) or served. */
#define CASLIST_LK_FAIR_HOOK(ev, l, t) hook_##ev()
static void hook_ticket(void)
{
	if (is_t1) {
		t1_ticket = 1;
		t1_saw_f = F;
	}
}
static void hook_served(void)
{
}

#include "client.h"

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
	PROBE(1, t1_ticket);
	PROBE(2, t1_ticket && t1_saw_f == 0);
	if (t1_ticket && t1_saw_f == 0)
		assert(list_pos(A, &o2->link) < list_pos(A, &w->link));
	return 0;
}
