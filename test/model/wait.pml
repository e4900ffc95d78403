/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/model/wait.pml - the head's hand-over by count (static/wait.h,
 * doc/wait.md): tickets, the entry's count, the grant, the turn and the
 * idle head's self-grant, for N threads that each run OPS operations
 * taking one head.  No time: a wait is a blocking guard, a backoff round
 * is a choice.
 *
 * run.sh checks N 2, K 1, OPS 3 and N 3, K 0, OPS 2 (the state space of
 * three threads at K 1 is past CI's minutes).
 * Checked (spin -DSAFETY): at every grant of a ticket t, the head
 * operations completed since t was taken are at most (N - 1) * (K + 1)
 * (doc/wait.md, "The bound"); every thread ends (no invalid end state: a
 * waiter nobody grants would be a deadlock).
 *
 * Steps, as the code's:
 *  entry   caslist_lk_fair_enter: a pending ticket (next != served) is
 *          counted (bypass < K) or, at K, the entry grants the oldest
 *          pending ticket, resets its count, takes a ticket and waits;
 *  lock    the head's lock: taken when free, or, after lost rounds (a
 *          choice here), a ticket and its turn (caslist_lk_fair_wait);
 *  ticket  caslist_lk_fair_take: next++ (the record of done goes with it);
 *  turn    caslist_lk_fair_turn: wait for served > t; the next in line
 *          (served == t) samples the head's version and later, if the
 *          head is free and no acquisition came between, grants itself;
 *  grant   caslist_lk_fair_grant: served s -> s + 1, only if s is issued.
 * Mutants (test/model/run.sh): MUT_NO_COUNT (entries ignore pending
 * tickets: the bound breaks), MUT_NO_IDLE_GRANT (no self-grant: the last
 * waiter waits for ever).
 */
#ifndef N
#define N 2		/* threads (2 or 3) */
#endif
#ifndef K
#define K 1		/* CASLIST_WAIT_K */
#endif
#ifndef OPS
#define OPS 3		/* head operations per thread: more than K + 1 */
#endif
#define MAXT 24

byte next = 0;		/* tickets issued (want_next) */
byte served = 0;	/* tickets granted (want_served) */
bit head = 0;		/* L(head) */
byte ver = 0;		/* acquisitions of the head: what a sample compares */
byte done = 0;		/* head operations completed */
byte rec[MAXT];		/* done when ticket t was taken */
byte bypass[N];
byte ended = 0;

inline grant(s) {
	/* caslist_lk_fair_grant: an issued ticket, still the oldest pending */
	atomic {
		if
		:: next > s && served == s ->
			assert(done - rec[s] <= (N - 1) * (K + 1));
			served = s + 1
		:: else -> skip
		fi
	}
}

inline take_and_wait() {
	atomic {
		assert(next < MAXT);
		t = next;
		rec[t] = done;
		next++
	}
	do
	:: served > t -> break
	:: served == t ->
		/* the next in line: sample, then grant itself if the head
		 * stayed free and untaken (else go round) */
		sample = ver;
#ifndef MUT_NO_IDLE_GRANT
		if
		:: atomic { served == t && !head && ver == sample } -> grant(t)
		:: served != t -> skip
		:: ver != sample -> skip
		fi
#else
		(served != t || ver != sample)
#endif
	od
}

proctype worker(byte id)
{
	byte op = 0, t, s, sample;

	do
	:: op == OPS -> break
	:: op < OPS ->
		/* entry */
#ifndef MUT_NO_COUNT
		if
		:: atomic { next != served && bypass[id] < K -> bypass[id]++ }
		:: atomic { next != served && bypass[id] >= K -> bypass[id] = 0; s = served };
			grant(s);
			take_and_wait()
		:: atomic { next == served -> skip }
		fi;
#endif
		/* the head's lock: free, or lost rounds and a ticket */
		do
		:: atomic { !head -> head = 1; ver++ }; break
		:: head -> take_and_wait()
		od;
		done++;
		head = 0;
		op++
	od;
	ended++
}

init {
	atomic {
		run worker(0);
		run worker(1);
#if N == 3
		run worker(2)
#endif
	}
	(ended == N)
}
