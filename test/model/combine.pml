/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/model/combine.pml - moves queued at a busy head (static/combine.h,
 * doc/combine.md): the publish (push on the list's queue with a CAS, then
 * a wait on the node's own lock), the drain of whoever holds the head
 * (a relaxed look at the queue, the exchange that takes it, the chain's
 * insert, the head's release, then the queued nodes' releases), and the
 * publisher's serve (the head found free while its node is queued: one
 * attempt at the head, then the same drain).
 *
 * Processes: one holder that inserts HOPS fresh nodes at the head, each
 * with the queue behind it when its look finds one (the head paths'
 * caslist_lk_insert_head), and NPUB publishers, each queueing one node
 * (caslist_lk_q_publish).  The unlink before the publish is list.pml's
 * (unlink steps 1-2); here the node starts unlinked and locked.
 *
 * Checked (Q1-Q4 of doc/combine.md):
 *   Q1 a queued node is linked exactly once (inserted[] at every insert);
 *   Q2 its publisher returns only after the insert that linked it was
 *      published by the head's release (visible[] when the publisher
 *      sees its lock gone): the move is complete when it returns;
 *   Q3 a drain links the queue newest first (push order, pushed[]);
 *   Q4 no node stays queued while the head is free and its publisher
 *      waits: the publishers' waits end (an invalid end state otherwise),
 *      and at the end the queue is empty and the list holds every node.
 * Mutants (-D):
 *   MUT_Q_NO_SERVE      a publisher only waits for its lock (no serve)
 *   MUT_Q_STALE_LINK    a push whose CAS failed retries with its old link
 *   MUT_Q_EARLY_UNLOCK  the drain releases the queued nodes before the head
 *   MUT_Q_SERVE_NO_LOCK the serve drains without taking the head
 */
#ifndef NPUB
#define NPUB 2
#endif
#ifndef HOPS
#define HOPS 2
#endif
#define NN (NPUB + HOPS)	/* nodes 1..NN; 0: the head (and "none") */
#define HOLDER 1
#define PUBLISHER(n) (1 + (n))

byte hlock;			/* L(head): 0 free, else the holder's id */
byte hnext;			/* head->next: the first node (0: empty) */
byte nxt[NN + 1];		/* nodes' next links in the list */
bool locked[NN + 1];		/* L(n) */
byte qtop;			/* l->queue: the newest queued node, 0 if none */
byte qn[NN + 1];		/* a queued node's chain word: the next older, 0: the oldest */
byte pushed[NN + 1];		/* push order (1, 2, ...) */
byte pushes;
byte inserted[NN + 1];		/* Q1 */
bool visible[NN + 1];		/* Q2: linked and the head released since */

/* The drain, by the head's holder ME: take the queue (exchange), walk it
 * (Q3), insert OWN (0: none) and the chain, release the head, then the
 * queued nodes.  f, q, x, first, last: the caller's locals. */
inline drain_insert(me, own)
{
	atomic { q = qtop; qtop = 0 }
	/* the chain: own first, then the queue newest first */
	first = own;
	last = own;
	if
	:: q != 0 ->
		x = q;
		do
		:: qn[x] != 0 ->
			assert(pushed[qn[x]] < pushed[x]);	/* Q3 */
			nxt[x] = qn[x];
			x = qn[x]
		:: else -> break
		od;
		if
		:: own != 0 -> nxt[own] = q
		:: else -> first = q
		fi;
		last = x
	:: else -> skip
	fi;
	if
	:: first != 0 ->
		/* [L7]: the chain's last -> the old first; the head -> first */
		f = hnext;
		nxt[last] = f;
		x = first;
		do
		:: x != f ->
			inserted[x]++;
			assert(inserted[x] == 1);	/* Q1 */
			x = nxt[x]
		:: else -> break
		od;
#ifdef MUT_Q_EARLY_UNLOCK
		x = q;
		do
		:: x != 0 && x != f -> locked[x] = 0; x = nxt[x]
		:: else -> break
		od;
#endif
		hnext = first
	:: else -> skip
	fi;
	/* the head's release publishes the insert */
	d_step {
		x = first;
		do
		:: x != 0 && x != f -> visible[x] = 1; x = nxt[x]
		:: else -> break
		od;
		hlock = 0
	}
	/* then the queued nodes' links, in chain order */
	x = q;
	do
	:: x != 0 && x != f -> locked[x] = 0; x = nxt[x]
	:: else -> break
	od
}

proctype holder()
{
	byte i, own, q, x, first, last, f;

	i = 0;
	do
	:: i < HOPS ->
		own = NPUB + 1 + i;
		atomic { hlock == 0 -> hlock = HOLDER }
		/* caslist_lk_insert_head: a relaxed look at the queue */
		if
		:: qtop != 0 -> drain_insert(HOLDER, own)
		:: else ->
			f = hnext;
			nxt[own] = f;
			inserted[own]++;
			hnext = own;
			d_step { visible[own] = 1; hlock = 0 }
		fi;
		i++
	:: else -> break
	od
}

proctype publisher(byte n)
{
	byte old, q, x, first, last, f;
	bool again;

	/* L(n) held, n unlinked (list.pml's unlink steps) */
	/* caslist_lk_q_push */
	old = qtop;
retry:
#ifdef MUT_Q_STALE_LINK
	if
	:: !again -> qn[n] = old	/* the first try's link only */
	:: else -> skip
	fi;
#else
	qn[n] = old;
#endif
	atomic {
		if
		:: qtop == old -> qtop = n; pushes++; pushed[n] = pushes
		:: else -> old = qtop; again = 1; goto retry
		fi
	}
	/* caslist_lk_q_publish's wait: its node's lock, or the serve */
wait:
	if
	:: !locked[n] -> assert(visible[n]); goto done	/* Q2 */
#ifndef MUT_Q_NO_SERVE
	:: locked[n] && qtop != 0 && hlock == 0 ->
		/* caslist_lk_q_serve: one attempt at the head */
#ifndef MUT_Q_SERVE_NO_LOCK
		atomic {
			if
			:: hlock == 0 -> hlock = PUBLISHER(n)
			:: else -> goto wait
			fi
		}
#endif
		drain_insert(PUBLISHER(n), 0);
		goto wait
#endif
	fi;
done:
	skip
}

init {
	byte i, x, k;

	atomic {
		i = 1;
		do
		:: i <= NN -> locked[i] = (i <= NPUB); i++
		:: else -> break
		od;
		run holder();
		i = 1;
		do
		:: i <= NPUB -> run publisher(i); i++
		:: else -> break
		od
	}
	/* Q4 at the end: nothing queued, every node in the list once */
	_nr_pr == 1;
	assert(qtop == 0);
	x = hnext;
	k = 0;
	do
	:: x != 0 -> k++; assert(k <= NN); x = nxt[x]
	:: else -> break
	od;
	assert(k == NN)
}
