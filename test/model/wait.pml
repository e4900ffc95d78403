/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/model/wait.pml - the head's hand-over bounded by time
 * (static/wait.h, doc/wait.md): tickets, the stamp of the oldest pending
 * ticket, the entry's check of its age, the grant, the turn and the idle
 * head's self-grant, for N threads that each run OPS operations taking
 * one head.  The clock is logical, as test/stress/bypass's: every read of
 * it moves it one unit of the stamp, and every pass past a pending
 * ticket reads it (CASLIST_WAIT_CLOCK_EVERY 1), so the streak
 * (CASLIST_WAIT_STREAK_NS) is S reads of the clock.  No other time: a
 * wait is a blocking guard, a backoff round is a choice.
 *
 * run.sh checks N 2, S 1, OPS 5 and N 3, S 1, OPS 2, 2 and 1.  At N 2
 * the bound of a period is S + 3 = 4 operations of the one other thread:
 * with OPS 5 it can do more, so the bound is one the model can break (the
 * mutants do); the model's largest period there is S + 1 (one operation
 * in flight, the pass that stamps, S - 1 passes after it).  At N 3 the
 * state space of more operations is past CI's minutes, and the others'
 * three or four operations cannot reach that bound (S + 6): that run
 * checks the interleavings of three threads for deadlock and the
 * assertions' consistency, not the bound's tightness.  S 0, S 2 and
 * -DHELD (each operation may be a `_held` one) pass at N 2 as well, but
 * are not run there.  -DPERIOD=P asserts P operations a period instead.
 * Checked (spin -DSAFETY): at every grant of a ticket t, taken with j
 * tickets pending ahead of it, the head operations completed since t was
 * taken are at most (j + 1) * (S + 3 * (N - 1)) (doc/wait.md, "The
 * bound": j + 1 periods, each at most S passes after the stamp plus, per
 * other thread, one pass that found the ticket unstamped, one that read
 * want_served as a grant changed it and one operation in flight); every
 * thread ends (no invalid end state: a waiter nobody grants would be a
 * deadlock).  j and the count are recorded at the ticket's fetch_add
 * (j first, as bypass does); the count is compared at the grant's CAS,
 * and the record cleared there (a dead record would only multiply states).
 *
 * Steps, as the code's (each load, CAS and store its own step; only the
 * local computation on a loaded value goes with its load):
 *  entry   caslist_lk_fair_pass: load want_next, then want_served; equal:
 *          no ticket pending, go on.  Else caslist_lk_fair_due: read the
 *          clock (it moves), load want_stamped; not the oldest ticket's:
 *          if it is behind, CAS it forward to the oldest and, if that won,
 *          store the clock read in want_since (a later step: other
 *          entries run between the CAS and the store); not due.  The
 *          oldest's: load want_since; due if the read is S past it (or
 *          before it: the difference wraps).  Due: caslist_lk_fair_yield,
 *          grant the oldest pending ticket (want_served loaded again),
 *          take a ticket, wait for the turn; a `_held` entry (-DHELD)
 *          grants and goes on;
 *  lock    the head's lock: taken when free, or, after lost rounds (a
 *          choice here), a ticket and its turn (caslist_lk_fair_wait); a
 *          `_held` wait never takes a ticket: it waits for a free head;
 *  ticket  caslist_lk_fair_take: next++ (the record of j and done goes
 *          with it);
 *  turn    caslist_lk_fair_turn: wait for served > t; the next in line
 *          (served == t) samples the head (clears `taken`, which every
 *          acquisition sets: one bit, since only the next in line
 *          samples) and later, if the head is free and no acquisition
 *          came between, grants itself;
 *  grant   caslist_lk_fair_grant(s): load want_next, only an issued s:
 *          CAS served s -> s + 1.
 * Mutants (test/model/run.sh): MUT_NO_COUNT (entries ignore pending
 * tickets: the bound breaks), MUT_NO_IDLE_GRANT (no self-grant: the last
 * waiter waits for ever), MUT_RESTAMP (every entry that finds the oldest
 * ticket stamped stamps it again with its read: its time restarts, the
 * streak never ends, the bound breaks).
 */
#ifndef N
#define N 2		/* threads (2 or 3) */
#endif
#ifndef S
#define S 1		/* CASLIST_WAIT_STREAK_NS, in reads of the clock */
#endif
#ifndef OPS
#define OPS 5		/* head operations per thread: more than PERIOD */
#endif
#ifndef OPS3
#define OPS3 OPS	/* the third thread's */
#endif
#ifndef PERIOD
#define PERIOD (S + 3 * (N - 1))	/* operations a period may hold */
#endif
#define MAXT 24

byte next = 0;		/* tickets issued (want_next) */
byte served = 0;	/* tickets granted (want_served) */
short stamped = -1;	/* want_stamped: no ticket stamped (0xffffffff) */
byte since = 0;		/* want_since */
byte clk = 0;		/* the logical clock: reads so far */
bit head = 0;		/* L(head) */
bit taken = 0;		/* the head taken since the next in line's sample */
byte done = 0;		/* head operations completed */
byte rec[MAXT];		/* done when ticket t was taken */
byte ahead[MAXT];	/* j: tickets pending ahead of t when it was taken */
byte ended = 0;

/* caslist_lk_fair_grant(s): the load of want_next (only an issued
 * ticket), then the CAS of want_served (still the oldest pending one). */
inline grant(s) {
	if
	:: next > s ->
		atomic {
			if
			:: served == s ->
				assert(done - rec[s] <= (ahead[s] + 1) * PERIOD);
				rec[s] = 0;	/* the record is dead: fewer states */
				ahead[s] = 0;
				served = s + 1
			:: else -> skip
			fi
		}
	:: else -> skip
	fi
}

/* caslist_lk_fair_take: the ticket, then the turn */
inline take_and_wait() {
	atomic {
		assert(next < MAXT);
		t = next;
		ahead[t] = t - served;
		rec[t] = done;
		next++
	}
	do
	:: served > t -> break
	:: served == t ->
		/* the next in line: sample, then grant itself if the head
		 * stayed free and untaken (else go round) */
		taken = 0;
#ifndef MUT_NO_IDLE_GRANT
		if
		:: atomic { served == t && !head && !taken } -> grant(t)
		:: served != t -> skip
		:: taken -> skip
		fi
#else
		(served != t || taken)
#endif
	od;
	t = 0
}

proctype worker(byte ops)
{
	byte op = 0, t, s, n, now;
	short st;
	bit due, held;

	do
	:: op == ops -> break
	:: op < ops ->
#ifdef HELD
		if
		:: held = 0
		:: held = 1
		fi;
#endif
		/* entry: caslist_lk_fair_pass */
#ifndef MUT_NO_COUNT
		n = next;
		if
		:: atomic { served == n -> n = 0 }	/* none pending */
		:: atomic { served != n -> s = served; n = 0 };
			/* caslist_lk_fair_due: read the clock, load the stamp */
			atomic { now = clk; clk++ };
			st = stamped;
			if
			:: st != s ->
				/* not stamped for the oldest: stamp it, once */
				if
				:: st < s ->
					if
					:: atomic { stamped == st -> stamped = s; st = 0 };
						since = now
					:: atomic { stamped != st -> st = 0 }
					fi
				:: else -> st = 0
				fi;
				/* seen just now: due only if the streak is no time */
				due = (S == 0)
			:: else ->
				st = 0;
#ifndef MUT_RESTAMP
				atomic { due = (now < since || now - since >= S) }
#else
				since = now;
				due = 0
#endif
			fi;
			now = 0;
			if
			:: due ->
				/* the streak's end: grant the oldest pending
				 * ticket (caslist_lk_fair_hand_over) ... */
				due = 0;
				s = served;
				grant(s);
				/* ... and queue (caslist_lk_fair_yield), unless
				 * the entry is a _held one */
				if
				:: !held -> take_and_wait()
				:: else -> skip
				fi
			:: else -> skip
			fi;
			s = 0
		fi;
#endif
		/* the head's lock: free, or lost rounds and a ticket (a _held
		 * wait backs off until the head is free) */
		do
		:: atomic { !head -> head = 1; taken = 1 }; break
		:: head && !held -> take_and_wait()
		od;
		done++;
		head = 0;
		held = 0;
		op++
	od;
	ended++
}

init {
	atomic {
		run worker(OPS);
		run worker(OPS);
#if N == 3
		run worker(OPS3)
#endif
	}
	(ended == N)
}
