/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/model/list.pml - spin model of the link-lock protocol AS IMPLEMENTED
 * in lib/link.h and lib/list.c.  doc/protocol.md section 11 maps every
 * step below (tags [L..]/[S..]) to the function and line it stands for.
 *
 * Run by test/model/run.sh:
 *   spin -a [-DSCEN=k] [-DMUT_x] list.pml && cc -DSAFETY -o pan pan.c && ./pan
 *
 * Shape.  Node 0 is the list head, nodes 1..4 are list nodes.  Three
 * processes run a short program of list operations (one scenario per
 * run, or all: init picks one nondeterministically).  Each memory access
 * of the C code that another thread can observe is one Promela step; a
 * CAS is one atomic step.  A wait loop (backoff and retry with no side
 * effect) is modelled as a blocking guard that waits for a change of the
 * words the failed attempt read: the same behaviours up to stuttering,
 * and a thread that would spin for ever with nothing changing becomes a
 * blocked process, so a deadlock is an "invalid end state" for spin.
 *
 * Words.  w[x] is x->next: 2*s for successor s, +1 = the lock bit L(x);
 * ZERO (never linked / chain end, the C value 0) and POIS (removed) are
 * the unlinked values.  prv[x] is x->prev: a node, NONE (0) or PPOIS.
 *
 * Checked (assertions and spin's end-state check):
 *  - at each linearization point, a ghost `where[]` records whether each
 *    node is in the abstract list (IN) or owned by a process: an add must
 *    add a node its caller owns, a removal must remove a node that is IN
 *    (no node removed twice, none added twice);
 *  - the debug check of set_prev_checked: under the lock, next->prev ==
 *    self at every insert and unlink;
 *  - every process ends (no invalid end state = no deadlock);
 *  - each walk (iter_next) ends within WALK_BOUND steps;
 *  - at the end: the cycle from the head visits exactly the IN nodes,
 *    once each, no lock bit is left, every next->prev == self.
 *
 * Mutants (-DMUT_...): each removes one lock step or one validation;
 * run.sh requires spin to report an error for each.
 */

#define N      5		/* node 0 = head, 1..4 */
#define HEAD   0
#define NONE   5		/* prev == 0 (NULL), or "no node" */
#define PPOIS  6		/* prev == CASLIST_POISON_PREV */
#define ZERO   10		/* next == 0: never linked, or a cut chain's end */
#define POIS   12		/* next == CASLIST_POISON_NEXT */
#define W(s)        (2 * (s))
#define LOCKED(v)   (((v) % 2) == 1)
#define PTR(v)      ((v) / 2)
#define UNLINKED(v) ((v) >= ZERO)
#define PVALID(p)   ((p) < N)
#define IN     9		/* ghost where[x]: x is in the abstract list */
#define NPROC  3
#ifndef WALK_BOUND
#define WALK_BOUND 24
#endif

/*
 * RETRY_WHEN(changed, could_succeed): the backoff of a failed attempt.
 * The C code retries at once, with no side effect; retrying while nothing
 * it reads has changed would fail again (stuttering).  So the model waits
 * until a word the attempt read differs from what it saw, or until the
 * current state would let the retry succeed.  A process that would spin
 * for ever on an unchanging state is blocked: spin reports it.
 */
#define RETRY_WHEN(changed, could_succeed) ((changed) || (could_succeed))
/* the tail's link is free and points to the head */
#define TAIL_FREE (PVALID(prv[HEAD]) && w[prv[HEAD]] == W(HEAD))

#ifndef SCEN
#define SCEN 0			/* 0: init picks any scenario */
#endif

byte w[7];			/* 7: indices NONE, PPOIS are never used, but in range */
byte prv[7];
byte where[7];			/* ghost: IN, or the owning process */
byte scen;
byte done;

/* ---- lib/link.h ------------------------------------------------------ */

/* [L1] link_lock(x): wait while locked; NULL if unlinked; CAS the bit in. */
inline link_lock(ll_x, ll_ret)
{
	atomic {
		!LOCKED(w[ll_x]) ->
		if
		:: UNLINKED(w[ll_x]) -> ll_ret = NONE
		:: else -> ll_ret = PTR(w[ll_x]); w[ll_x] = w[ll_x] + 1
		fi
	}
}

/* [L2] link_trylock(x): relaxed load, then one CAS expecting that value. */
inline link_trylock(lt_x, lt_ok, lt_ret)
{
	v = w[lt_x];
	atomic {
		if
		:: !LOCKED(v) && !UNLINKED(v) && w[lt_x] == v ->
			w[lt_x] = v + 1; lt_ret = PTR(v); lt_ok = 1
		:: else -> v = w[lt_x]; lt_ok = 0	/* v: the value the CAS saw */
		fi
	}
}

/* [L3] link_lock_expect(x, e): CAS x->next: e -> e|1; wait while locked;
 * false on any other unlocked value (v = the value seen). */
inline link_lock_expect(lle_x, lle_e, lle_ok)
{
	atomic {
		!LOCKED(w[lle_x]) ->
		if
		:: w[lle_x] == W(lle_e) -> w[lle_x] = W(lle_e) + 1; lle_ok = 1
		:: else -> v = w[lle_x]; lle_ok = 0
		fi
	}
}

/* [L4] link_trylock_prev(x): read the hint q, one CAS q->next: x -> x|1. */
inline link_trylock_prev(ltp_x, ltp_ret)
{
	q = prv[ltp_x];
	atomic {
		if
#ifdef MUT_NEAR_NO_VALIDATE
		/* mutant: lock the hint's link whatever it points to */
		:: PVALID(q) && !LOCKED(w[q]) && !UNLINKED(w[q]) -> w[q] = w[q] + 1; ltp_ret = q
#else
		:: PVALID(q) && w[q] == W(ltp_x) -> w[q] = W(ltp_x) + 1; ltp_ret = q
#endif
		:: else -> v2 = (PVALID(q) -> w[q] : 255); ltp_ret = NONE
		fi
	}
}

/* [L5] link_lock_prev(x): loop { q = hint; CAS q->next: x -> x|1 }. */
inline link_lock_prev(llp_x, llp_ret)
{
	ok = 0;
	do
	:: ok -> break
	:: else ->
		q = prv[llp_x];
#ifdef MUT_SKIP_PRED_LOCK
		/* mutant: trust the hint, take no lock (as the C mutant) */
		if
		:: PVALID(q) -> ok = 1
		:: else -> RETRY_WHEN(prv[llp_x] != q, PVALID(prv[llp_x]))
		fi
#else
		atomic {
			if
			:: PVALID(q) && w[q] == W(llp_x) -> w[q] = W(llp_x) + 1; ok = 1
			:: else -> v = (PVALID(q) -> w[q] : 255)
			fi
		}
		if
		:: ok -> skip
		:: else -> RETRY_WHEN(prv[llp_x] != q || (PVALID(q) && w[q] != v),
				      PVALID(prv[llp_x]) && w[prv[llp_x]] == W(llp_x))
		fi
#endif
	od;
	llp_ret = q
}

/* [L6] set_prev_checked(s, p, was): s->prev = p; debug: old == was. */
inline set_prev_checked(spc_s, spc_p, spc_was)
{
	atomic { assert(prv[spc_s] == spc_was); prv[spc_s] = spc_p }
}

/* ghost: the chain first..last goes IN (it was owned by me) */
inline ghost_in(gi_first, gi_last)
{
	g = gi_first;
	do
	:: assert(where[g] == me); where[g] = IN;
	   if
	   :: g == gi_last -> break
	   :: else -> g = PTR(w[g])
	   fi
	od
}

/* ghost: the run first..last leaves the list, to me */
inline ghost_out(go_first, go_last)
{
	g = go_first;
	do
	:: assert(where[g] == IN); where[g] = me;
	   if
	   :: g == go_last -> break
	   :: else -> g = PTR(w[g])
	   fi
	od
}

/* [L7] link_insert_locked(pos, s, first, last): holds L(pos). */
inline link_insert_locked(lil_pos, lil_s, lil_first, lil_last)
{
#ifdef MUT_INSERT_UNLOCKED
	w[lil_last] = W(lil_s);				/* mutant: step 1 leaves it unlocked */
#else
	w[lil_last] = W(lil_s) + 1;			/* step 1: the new node's link starts locked */
#endif
	prv[lil_first] = lil_pos;			/* step 2 */
	set_prev_checked(lil_s, lil_last, lil_pos);		/* steps 2, 3 */
	d_step { w[lil_pos] = W(lil_first); ghost_in(lil_first, lil_last) }	/* step 4: linearization */
	w[lil_last] = W(lil_s)				/* step 5 */
}

/* [L8] link_unlink_locked(p, n, s): holds L(p) and L(n). */
inline link_unlink_locked(lul_p, lul_n, lul_s)
{
	set_prev_checked(lul_s, lul_p, lul_n);		/* step 1 */
	d_step { w[lul_p] = W(lul_s); ghost_out(lul_n, lul_n) }	/* step 2: linearization */
	prv[lul_n] = PPOIS;				/* step 3: link_poison */
	w[lul_n] = POIS
}

/* ---- lib/list.c ------------------------------------------------------ */

/* [S1] lock_tail: t = head->prev; link_lock_expect(t, head); retry. */
inline lock_tail(lt_t)
{
	ok = 0;
	do
	:: ok -> break
	:: else ->
		lt_t = prv[HEAD];
		if
#ifdef MUT_TAIL_NO_EXPECT
		/* mutant: wait for L(t) without checking t is still the tail */
		:: PVALID(lt_t) -> link_lock(lt_t, s2); ok = (s2 != NONE); v = w[lt_t]
#else
		:: PVALID(lt_t) -> link_lock_expect(lt_t, HEAD, ok)
#endif
		:: else -> v = 255
		fi;
		if
		:: ok -> skip
		:: else -> RETRY_WHEN(prv[HEAD] != lt_t || (PVALID(lt_t) && w[lt_t] != v),
				      TAIL_FREE)
		fi
	od
}

/* [S2] add_head / splice_head: L(head), insert. */
inline op_add_head(oah_n)
{
	link_lock(HEAD, s);
	link_insert_locked(HEAD, s, oah_n, oah_n)
}

/* [S3] add_tail / splice_tail: L(tail), insert before the head. */
inline op_splice_tail(ost_first, ost_last)
{
	lock_tail(t);
	link_insert_locked(t, HEAD, ost_first, ost_last)
}

/* [S4] add_after(pos, n): L(pos) or ENOENT, insert. */
inline op_add_after(oaa_pos, oaa_n)
{
	link_lock(oaa_pos, s);
	if
	:: s == NONE -> skip			/* CASLIST_ENOENT: n stays mine */
	:: else -> link_insert_locked(oaa_pos, s, oaa_n, oaa_n)
	fi
}

/* [S5] add_near(pos, n): trylock L(pos), else trylock L(pred(pos)), else
 * ENOENT if pos is unlinked, else back off and retry. */
inline op_add_near(oan_pos, oan_n)
{
	do
	:: link_trylock(oan_pos, ok, s);
	   if
	   :: ok -> link_insert_locked(oan_pos, s, oan_n, oan_n); break
	   :: else -> skip
	   fi;
	   v1 = v;
	   link_trylock_prev(oan_pos, p);
	   if
	   :: p != NONE -> link_insert_locked(p, oan_pos, oan_n, oan_n); break
	   :: else -> skip
	   fi;
	   if
	   :: UNLINKED(w[oan_pos]) -> break		/* CASLIST_ENOENT */
	   :: else ->
		RETRY_WHEN(w[oan_pos] != v1 || prv[oan_pos] != q || (PVALID(q) && w[q] != v2),
			   !LOCKED(w[oan_pos]) ||
			   (PVALID(prv[oan_pos]) && w[prv[oan_pos]] == W(oan_pos)))
	   fi
	od
}

/* [S6] del_if_linked(n): L(n) or ENOENT, L(pred) (waits), unlink. */
inline op_del(od_n)
{
	link_lock(od_n, s);
	if
	:: s == NONE -> skip			/* false: someone else removed it */
	:: else ->
		link_lock_prev(od_n, p);
		link_unlink_locked(p, od_n, s);
		got = od_n
	fi
}

/* [S7] move_head(n): L(n), L(pred); first already: unlock both; else
 * L(head), unlink (n out), insert after the head (n in). */
inline op_move_head(omh_n)
{
	link_lock(omh_n, s);
	if
	:: s == NONE -> skip			/* CASLIST_ENOENT */
	:: else ->
		link_lock_prev(omh_n, p);
		if
		:: p == HEAD -> w[p] = W(omh_n); w[omh_n] = W(s)
		:: else ->
			link_lock(HEAD, f);
			assert(f != omh_n);
			set_prev_checked(s, p, omh_n);
			d_step { w[p] = W(s); ghost_out(omh_n, omh_n) }
			link_insert_locked(HEAD, f, omh_n, omh_n)
		fi
	fi
}

/* [S8] pop_head: L(head) (waits), then only TRYlock L(first). */
inline op_pop_head()
{
	got = NONE;
	do
	:: link_lock(HEAD, f);
	   if
	   :: f == HEAD -> w[HEAD] = W(HEAD); break	/* empty */
	   :: else -> skip
	   fi;
#ifdef MUT_POP_HEAD_WAITS
	   link_lock(f, s); ok = 1		/* mutant: waits for L(first) */
#else
	   link_trylock(f, ok, s);
#endif
	   if
	   :: ok -> link_unlink_locked(HEAD, f, s); got = f; break
	   :: else ->
		w[HEAD] = W(f);			/* release, back off, retry */
		RETRY_WHEN(w[f] != v || PTR(w[HEAD]) != f, !LOCKED(w[f]))
	   fi
	od
}

/* [S9] pop_tail: t = head->prev; t == head: empty if head->next == head;
 * else link_lock_expect(t, head), L(pred) (waits), unlink. */
inline op_pop_tail()
{
	got = NONE;
	do
	:: t = prv[HEAD];
	   if
	   :: t == HEAD ->
		v = w[HEAD];
		if
		:: v == W(HEAD) -> break		/* empty */
		:: else -> RETRY_WHEN(prv[HEAD] != t || w[HEAD] != v, w[HEAD] == W(HEAD))
		fi
	   :: else ->
		ok = 0;
		if
		:: PVALID(t) -> link_lock_expect(t, HEAD, ok)
		:: else -> v = 255
		fi;
		if
		:: ok ->
			link_lock_prev(t, p);
			link_unlink_locked(p, t, HEAD);
			got = t;
			break
		:: else -> RETRY_WHEN(prv[HEAD] != t || (PVALID(t) && w[t] != v),
				      TAIL_FREE)
		fi
	   fi
	od
}

/* [S10] cut_front(last): L(last) (waits; NULL if removed), L(head)
 * (waits), s->prev = head, first->prev = 0, head->next = s, last->next = 0. */
inline op_cut(oc_last)
{
	got = NONE;
#ifdef MUT_CUT_NO_LAST_LOCK
	s = PTR(w[oc_last]);			/* mutant: reads succ(last) unlocked */
	if
	:: UNLINKED(w[oc_last]) -> s = NONE
	:: else -> skip
	fi;
#else
	link_lock(oc_last, s);
#endif
	if
	:: s == NONE -> skip			/* last was removed: NULL */
	:: else ->
		link_lock(HEAD, f);
		assert(f != HEAD);
		set_prev_checked(s, HEAD, oc_last);
		prv[f] = NONE;
		d_step { w[HEAD] = W(s); ghost_out(f, oc_last) }
		w[oc_last] = ZERO;
		got = f
	fi
}

/* [S11] iter_next from the head to the end: wait on a locked word,
 * restart on an unlinked one; must end within WALK_BOUND steps. */
inline op_walk()
{
	cur = HEAD;
	steps = 0;
	do
	:: atomic { !LOCKED(w[cur]) -> v = w[cur] };
	   if
	   :: UNLINKED(v) -> cur = HEAD		/* CASLIST_EAGAIN: restart */
	   :: !UNLINKED(v) && PTR(v) == HEAD -> break
	   :: else -> cur = PTR(v)
	   fi;
	   steps++;
	   assert(steps <= WALK_BOUND)
	od
}

/* ---- scenarios: three processes, a list of up to four nodes --------- */

proctype P(byte me)
{
	byte s, s2, p, q, f, t, v, v1, v2, g, got, cur, steps, ok;

	if
	:: scen == 1 ->			/* delete of neighbours, add_after next to them */
		if
		:: me == 0 -> op_del(1)
		:: me == 1 -> op_del(2)
		:: me == 2 -> op_add_after(2, 4); op_del(3)
		fi
	:: scen == 2 ->			/* rotate: move_head races with del and pop */
		if
		:: me == 0 -> op_move_head(3); op_move_head(1)
		:: me == 1 -> op_move_head(2)
		:: me == 2 -> op_del(3); op_pop_tail()
		fi
	:: scen == 3 ->			/* both ends, and del of the first node */
		if
		:: me == 0 -> op_add_head(2); op_pop_head()
		:: me == 1 -> op_splice_tail(3, 3); op_pop_tail()
		:: me == 2 -> op_del(1);
			if
			:: got == 1 -> op_splice_tail(1, 1)	/* re-add the node it removed */
			:: else -> skip
			fi
		fi
	:: scen == 4 ->			/* cut a prefix, splice it back; last raced */
		if
		:: me == 0 -> op_cut(2);
			if
			:: got != NONE -> op_splice_tail(got, 2)
			:: else -> skip
			fi
		:: me == 1 -> op_add_head(4); op_pop_head()
		:: me == 2 -> op_del(2); op_pop_tail()
		fi
	:: scen == 5 ->			/* add_near at a node being deleted or moved */
		if
		:: me == 0 -> op_add_near(1, 3)
		:: me == 1 -> op_add_near(2, 4); op_del(1)
		:: me == 2 -> op_move_head(2)
		fi
	:: scen == 6 ->			/* a walk while nodes move, leave and come back */
		if
		:: me == 0 -> op_move_head(3); op_del(1)
		:: me == 1 -> op_add_head(4); op_pop_tail()
		:: me == 2 -> op_walk()
		fi
	:: scen == 7 ->			/* add_near at the head (head and tail links) */
		if
		:: me == 0 -> op_add_near(HEAD, 3)
		:: me == 1 -> op_add_near(HEAD, 4)
		:: me == 2 -> op_pop_tail(); op_pop_head()
		fi
	fi;
	done++
}

/* Build head -> a -> b -> c -> head (0 = absent); the other nodes are
 * unlinked (ZERO) and owned by `own` (their future adder). */
inline build(b_a, b_b, b_c)
{
	w[HEAD] = W(HEAD); prv[HEAD] = HEAD;
	i = 1;
	do
	:: i < N -> w[i] = ZERO; prv[i] = NONE; where[i] = 255; i++
	:: else -> break
	od;
	w[NONE] = POIS; w[PPOIS] = POIS;
	last = HEAD;
	if :: b_a != 0 -> w[last] = W(b_a); prv[b_a] = last; where[b_a] = IN; last = b_a :: else fi;
	if :: b_b != 0 -> w[last] = W(b_b); prv[b_b] = last; where[b_b] = IN; last = b_b :: else fi;
	if :: b_c != 0 -> w[last] = W(b_c); prv[b_c] = last; where[b_c] = IN; last = b_c :: else fi;
	w[last] = W(HEAD); prv[HEAD] = last
}

init {
	byte i, last, x, cnt;
	bool seen[N];

	atomic {
		if
		:: SCEN == 0 || SCEN == 1 -> scen = 1
		:: SCEN == 0 || SCEN == 2 -> scen = 2
		:: SCEN == 0 || SCEN == 3 -> scen = 3
		:: SCEN == 0 || SCEN == 4 -> scen = 4
		:: SCEN == 0 || SCEN == 5 -> scen = 5
		:: SCEN == 0 || SCEN == 6 -> scen = 6
		:: SCEN == 0 || SCEN == 7 -> scen = 7
		fi;
		if
		:: scen == 1 -> build(1, 2, 3); where[4] = 2
		:: scen == 2 -> build(1, 2, 3)
		:: scen == 3 -> build(1, 0, 0); where[2] = 0; where[3] = 1
		:: scen == 4 -> build(1, 2, 3); where[4] = 1
		:: scen == 5 -> build(1, 2, 0); where[3] = 0; where[4] = 1
		:: scen == 6 -> build(1, 2, 3); where[4] = 1
		:: scen == 7 -> build(1, 2, 0); where[3] = 0; where[4] = 1
		fi;
		run P(0); run P(1); run P(2)
	}
	done == NPROC;
	/* the end state: one cycle through exactly the IN nodes */
	d_step {
		x = HEAD;
		cnt = 0;
		do
		:: assert(!LOCKED(w[x]) && !UNLINKED(w[x]));
		   assert(prv[PTR(w[x])] == x);
		   x = PTR(w[x]);
		   if
		   :: x == HEAD -> break
		   :: else -> assert(where[x] == IN && !seen[x]); seen[x] = 1; cnt++;
			assert(cnt < N)
		   fi
		od;
		i = 1;
		do
		:: i < N -> assert(seen[i] == (where[i] == IN)); i++
		:: else -> break
		od
	}
}
