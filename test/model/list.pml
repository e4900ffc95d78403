/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/model/list.pml - spin model of the link-lock protocol AS IMPLEMENTED
 * in static/link.h and static/list_ops.h.  doc/protocol.md, "The step map" maps every
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
 *    node is in list A or B (INA, INB) or owned by a process: an add must
 *    add a node its caller owns, a removal must remove a node that is on
 *    the list it is removed from
 *    (no node removed twice, none added twice);
 *  - the debug check of set_prev_checked: under the lock, next->prev ==
 *    self at every insert and unlink;
 *  - every process ends (no invalid end state = no deadlock);
 *  - each walk (iter_next) ends within WALK_BOUND steps;
 *  - at the end: each list's cycle visits exactly the nodes the ghost says
 *    are on it (INA, INB),
 *    once each, no lock bit is left, every next->prev == self.
 *
 * Mutants (-DMUT_...): each removes one lock step or one validation;
 * run.sh requires spin to report an error for each.
 */

#define N      6		/* node 0 = head of list A, 1..4 nodes, 5 = head of list B */
#define HEAD   0
#define HEADB  5
#define NONE   6		/* prev == 0 (NULL), or "no node" */
#define PPOIS  7		/* prev == CASLIST_POISON_PREV */
#define ZERO   12		/* next == 0: FRESH (never linked, or re-initialised) */
#define POIS   14		/* next == CASLIST_POISON_NEXT: OWNED (removed, a cut's end) */
#define CLAIMED 15		/* next == POISON|LOCK: claimed by caslist_touch */
#define BATCHW 16		/* next == b|BATCH_TAG: queued in a batch (not linked) */
#define W(s)        (2 * (s))
#define LOCKED(v)   (((v) % 2) == 1)
#define PTR(v)      ((v) / 2)
#define UNLINKED(v) ((v) >= ZERO && (v) != CLAIMED)
#define PVALID(p)   ((p) < N)
/* the head flag (static/link.h): a property of the node that never changes */
#define ISHEAD(x)   ((x) % HEADB == 0 && (x) <= HEADB)
#define INA    9		/* ghost where[x]: x is in list A */
#define INB    10		/* ghost where[x]: x is in list B */
#define INLIST(g)   ((g) >= INA && (g) <= INB)
#define LISTOF(h)   (INA + (h) / HEADB)
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
/* the tail's link of list h is free and points to h */
#define TAIL_FREE(h) (PVALID(prv[h]) && w[prv[h]] == W(h))

#ifndef SCEN
#define SCEN 0			/* 0: init picks any scenario */
#endif

byte w[8];			/* 8: indices NONE, PPOIS are never used, but in range */
byte prv[8];
byte where[8];			/* ghost: INA, INB, or the owning process */
bool retired[8];		/* ghost: its owner retired it (freed, for good) */
byte scen;
byte done;

/* ---- static/link.h ------------------------------------------------------ */

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

/* [L4] link_trylock_prev(x): read the hint q, one CAS q->next: x -> x|1.
 * With early set, q was read before L(x) (link_hint_early): the first
 * attempt of a pair (caslist_lk_pair_first) uses the prev word it loaded
 * with the next word as its hint. */
inline link_trylock_prev(ltp_x, ltp_ret)
{
	if
	:: early -> early = 0
	:: else -> q = prv[ltp_x]
	fi;
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

/* The pair's hint, read before L(x) in its first attempt
 * (caslist_lk_pair_first) and after it in a retry (lock_pair's loop):
 * either, in any round, so the model covers both. */
inline link_hint_early(lhe_x)
{
	if
	:: q = prv[lhe_x]; early = 1
	:: skip
	fi
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

/* ghost: gl = the list a held node or a head x is on */
inline list_at(la_x)
{
	if
	:: ISHEAD(la_x) -> gl = LISTOF(la_x)
	:: else -> gl = where[la_x]
	fi
}

/* ghost: the chain first..last goes into list gi_l (it was owned by me) */
inline ghost_in(gi_first, gi_last, gi_l)
{
	g = gi_first;
	assert(INLIST(gi_l));
	do
	:: assert(where[g] == me && !retired[g]); where[g] = gi_l;
	   if
	   :: g == gi_last -> break
	   :: else -> g = PTR(w[g])
	   fi
	od
}

/* ghost: the run first..last leaves list go_l, to me */
inline ghost_out(go_first, go_last, go_l)
{
	g = go_first;
	do
	:: assert(INLIST(go_l) && where[g] == go_l); where[g] = me;
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
	d_step { w[lil_pos] = W(lil_first); list_at(lil_pos); ghost_in(lil_first, lil_last, gl) }	/* step 4 */
	w[lil_last] = W(lil_s)				/* step 5 */
}

/* [L8] link_unlink_locked(p, n, s, nw): holds L(p) and L(n); leaves n's
 * word nw: POIS (OWNED by the remover) or BATCHW (queued in a batch). */
inline link_unlink_locked(lul_p, lul_n, lul_s, lul_nw)
{
	set_prev_checked(lul_s, lul_p, lul_n);		/* step 1 */
	d_step { w[lul_p] = W(lul_s); list_at(lul_p); ghost_out(lul_n, lul_n, gl) }	/* step 2 */
	prv[lul_n] = PPOIS;				/* step 3: link_poison */
	w[lul_n] = lul_nw
}

/* ---- static/list_ops.h--------------------------------------------------- */

/* [S1] lock_tail: t = head->prev; link_lock_expect(t, head); retry. */
inline lock_tail(lt_h, lt_t)
{
	ok = 0;
	do
	:: ok -> break
	:: else ->
		lt_t = prv[lt_h];
		if
#ifdef MUT_TAIL_NO_EXPECT
		/* mutant: wait for L(t) without checking t is still the tail */
		:: PVALID(lt_t) -> link_lock(lt_t, s2); ok = (s2 != NONE); v = w[lt_t]
#else
		:: PVALID(lt_t) -> link_lock_expect(lt_t, lt_h, ok)
#endif
		:: else -> v = 255
		fi;
		if
		:: ok -> skip
		:: else -> RETRY_WHEN(prv[lt_h] != lt_t || (PVALID(lt_t) && w[lt_t] != v),
				      TAIL_FREE(lt_h))
		fi
	od
}

/* [S2] add_head / splice_head: L(head) ([S0] link_lock_head: [L1] on the
 * head), insert. */
inline op_add_head(oah_h, oah_n)
{
	link_lock(oah_h, s);
	link_insert_locked(oah_h, s, oah_n, oah_n)
}

/* [S3] add_tail / splice_tail: L(tail), insert before the head. */
inline op_splice_tail(ost_h, ost_first, ost_last)
{
	lock_tail(ost_h, t);
	link_insert_locked(t, ost_h, ost_first, ost_last)
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

/* [S6] del_if_linked(n): L(n) or ENOENT; ONE attempt at L(pred) ([L4]);
 * on failure give L(n) back as it was and retry (backoff holding
 * nothing); unlink. */
inline op_del(od_n)
{
	do
	:: link_hint_early(od_n);
	   link_lock(od_n, s);
	   if
	   :: s == NONE -> early = 0; break		/* false: someone else removed it */
	   :: else -> skip
	   fi;
	   link_trylock_prev(od_n, p);
	   if
	   :: p != NONE ->
		link_unlink_locked(p, od_n, s, POIS);
		got = od_n;
		break
	   :: else ->
		w[od_n] = W(s);			/* give L(n) back */
		RETRY_WHEN(prv[od_n] != q || (PVALID(q) && w[q] != v2),
			   UNLINKED(w[od_n]) ||
			   (PVALID(prv[od_n]) && w[prv[od_n]] == W(od_n)))
	   fi
	od
}

/* [S7] move_head(h, n): L(n); ONE attempt at L(pred) ([L4]), first
 * already: unlock both; else ONE attempt at L(h) ([L2]) holding L(n) and
 * L(pred); on any failure give back what was taken, as it was, and retry
 * (backoff holding nothing).  Holding all three: unlink (n out of its
 * list, L(pred) released), insert after h (n in).  n may come from either
 * list.  Mutant MUT_MOVE_HOLD_PRED: WAIT for L(h) holding L(pred) and
 * L(n) - pred may be the other list's head: deadlock.  Mutant
 * MUT_MOVE_KEEP_PRED: a failed attempt at L(h) gives L(n) back but not
 * L(pred) (the give-back step). */
inline op_move_head(omh_h, omh_n)
{
	do
	:: link_hint_early(omh_n);
	   link_lock(omh_n, s);
	   if
	   :: s == NONE -> early = 0; break		/* CASLIST_ENOENT */
	   :: else -> skip
	   fi;
	   link_trylock_prev(omh_n, p);
	   if
	   :: p == NONE ->
		w[omh_n] = W(s);		/* give L(n) back */
		RETRY_WHEN(prv[omh_n] != q || (PVALID(q) && w[q] != v2),
			   UNLINKED(w[omh_n]) ||
			   (PVALID(prv[omh_n]) && w[prv[omh_n]] == W(omh_n)))
	   :: p == omh_h -> w[p] = W(omh_n); w[omh_n] = W(s); got = 1; break
	   :: p != NONE && p != omh_h ->
#ifdef MUT_MOVE_HOLD_PRED
		link_lock(omh_h, f); ok = 1;
#else
		link_trylock(omh_h, ok, f);
#endif
		if
		:: ok ->
			set_prev_checked(s, p, omh_n);
			d_step { w[p] = W(s); list_at(p); ghost_out(omh_n, omh_n, gl) }
			assert(f != omh_n);
			link_insert_locked(omh_h, f, omh_n, omh_n);
			got = 1;
			break
		:: else ->
#ifndef MUT_MOVE_KEEP_PRED
			w[p] = W(omh_n);	/* give L(pred) back */
#endif
			w[omh_n] = W(s);	/* and L(n) */
			RETRY_WHEN(w[omh_h] != v, !LOCKED(w[omh_h]))
		fi
	   fi
	od
}

/* [S12] touch(h, n): OWNED (POIS): nothing (CASLIST_TOUCH_GONE); claim a
 * FRESH n by one CAS (-> CLAIMED, a locked word), then L(h) and insert;
 * if n is linked, move_head; if that finds n gone, look again.  Mutant
 * MUT_TOUCH_PLAIN: the claim is a load and a plain store (two adders both
 * win).  Mutant MUT_TOUCH_OWNED: an OWNED node is claimed too (0.2.0: a
 * touch brought back a node a pop had handed to its caller). */
inline op_touch(oth_h, oth_n)
{
	do
	:: v = w[oth_n];
	   if
	   :: v == BATCHW -> break		/* queued in a batch: reported moved */
#ifndef MUT_TOUCH_OWNED
	   :: v == POIS -> break		/* OWNED by its remover: GONE */
	   :: v == ZERO ->
#else
	   :: UNLINKED(v) && v != BATCHW ->
#endif
#ifdef MUT_TOUCH_PLAIN
		ok = 1;
		d_step { w[oth_n] = CLAIMED; assert(!INLIST(where[oth_n])); where[oth_n] = me }
#else
		d_step {
			if
			:: w[oth_n] == v -> w[oth_n] = CLAIMED; ok = 1;
				assert(!INLIST(where[oth_n])); where[oth_n] = me
			:: else -> ok = 0
			fi
		}
#endif
		if
		:: ok ->
			link_lock(oth_h, f);
			link_insert_locked(oth_h, f, oth_n, oth_n);
			break
		:: else -> skip
		fi
	   :: else ->
		got = 0;
		op_move_head(oth_h, oth_n);
		if
		:: got -> break
		:: else -> skip
		fi
	   fi
	od
}

/* [S13] batch_move_head(n): L(n) (NONE: ENOENT), L(pred) as a delete
 * (one attempt; on failure L(n) back, retry),
 * unlink leaving n's word BATCHW (not linked, queued); n joins my queue
 * (qa, then qb). */
inline op_batch_add(oba_n)
{
	do
	:: link_hint_early(oba_n);
	   link_lock(oba_n, s);
	   if
	   :: s == NONE -> early = 0; break
	   :: else -> skip
	   fi;
	   link_trylock_prev(oba_n, p);
	   if
	   :: p != NONE ->
		link_unlink_locked(p, oba_n, s, BATCHW);
		if
		:: qa == NONE -> qa = oba_n
		:: else -> qb = oba_n
		fi;
		break
	   :: else ->
		w[oba_n] = W(s);		/* give L(n) back */
		RETRY_WHEN(prv[oba_n] != q || (PVALID(q) && w[q] != v2),
			   UNLINKED(w[oba_n]) ||
			   (PVALID(prv[oba_n]) && w[prv[oba_n]] == W(oba_n)))
	   fi
	od
}

/* [S15] batch_cancel: the queued nodes become the caller's, OWNED
 * (link_own_node: POIS), in no list; where[] stays me. */
inline op_batch_cancel()
{
	if
	:: qa != NONE -> w[qa] = POIS
	:: else -> skip
	fi;
	if
	:: qb != NONE -> w[qb] = POIS
	:: else -> skip
	fi;
	qa = NONE; qb = NONE
}

/* retire x: its owner frees it for good; nobody may link it again (the
 * ghost_in assertion) - the rule touch must keep for freeing to be safe. */
inline retire(r_x)
{
	assert(where[r_x] == me && !retired[r_x]);
	retired[r_x] = 1
}

/* [S14] batch_flush(h): chain newest first with LOCKED words ([L10]),
 * L(h), insert the chain ([L7]), then unlock the chain's inner links.
 * Mutant MUT_BATCH_CHAIN_UNLOCKED: the chain words are plain (they look
 * linked, as a private chain's do): a remover can take them. */
inline op_batch_flush(obf_h)
{
	if
	:: qa == NONE -> skip
	:: qa != NONE && qb == NONE ->
		link_lock(obf_h, f);
		link_insert_locked(obf_h, f, qa, qa)
	:: qa != NONE && qb != NONE ->
		prv[qa] = qb;			/* [L10] */
#ifdef MUT_BATCH_CHAIN_UNLOCKED
		w[qb] = W(qa);
#else
		w[qb] = W(qa) + 1;
#endif
		link_lock(obf_h, f);
		link_insert_locked(obf_h, f, qb, qa);
		w[qb] = W(qa)			/* release the inner link */
	fi;
	qa = NONE; qb = NONE
}

/* [S8] pop_head: L(head) (waits), then only TRYlock L(first). */
inline op_pop_head(oph_h)
{
	got = NONE;
	do
	:: link_lock(oph_h, f);
	   if
	   :: f == oph_h -> w[oph_h] = W(oph_h); break	/* empty */
	   :: else -> skip
	   fi;
#ifdef MUT_POP_HEAD_WAITS
	   link_lock(f, s); ok = 1		/* mutant: waits for L(first) */
#else
	   link_trylock(f, ok, s);
#endif
	   if
	   :: ok -> link_unlink_locked(oph_h, f, s, POIS); got = f; break
	   :: else ->
		w[oph_h] = W(f);			/* release, back off, retry */
		RETRY_WHEN(w[f] != v || PTR(w[oph_h]) != f, !LOCKED(w[f]))
	   fi
	od
}

/* [S9] pop_tail: t = head->prev; t == head: empty if head->next == head;
 * else link_lock_expect(t, head), L(pred) (waits), unlink. */
inline op_pop_tail(opt_h)
{
	got = NONE;
	do
	:: t = prv[opt_h];
	   if
	   :: t == opt_h ->
		v = w[opt_h];
		if
		:: v == W(opt_h) -> break		/* empty */
		:: else -> RETRY_WHEN(prv[opt_h] != t || w[opt_h] != v, w[opt_h] == W(opt_h))
		fi
	   :: else ->
		ok = 0;
		if
		:: PVALID(t) -> link_lock_expect(t, opt_h, ok)
		:: else -> v = 255
		fi;
		if
		:: ok ->
			link_lock_prev(t, p);
			link_unlink_locked(p, t, opt_h, POIS);
			got = t;
			break
		:: else -> RETRY_WHEN(prv[opt_h] != t || (PVALID(t) && w[t] != v),
				      TAIL_FREE(opt_h))
		fi
	   fi
	od
}

/* [S10] cut_front(h, last): L(last) (waits; NULL if removed), L(h)
 * (waits); NULL if h's list is empty or last's successor is the OTHER
 * list's head (last moved there); else s->prev = h, first->prev = 0,
 * h->next = s, last->next = 0.  Mutant MUT_CUT_NO_LIST_CHECK: no list
 * check (the cut links h into the other list). */
inline op_cut(oc_h, oc_last)
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
		link_lock(oc_h, f);
		if
#ifndef MUT_CUT_NO_LIST_CHECK
		:: f == oc_h || (s != oc_h && ISHEAD(s)) ->
			w[oc_h] = W(f); w[oc_last] = W(s)	/* not on this list: NULL */
#endif
		:: else ->
			assert(f != oc_h);
			/* [L9] link_cut_locked */
			set_prev_checked(s, oc_h, oc_last);
			prv[f] = NONE;
			d_step { w[oc_h] = W(s); ghost_out(f, oc_last, LISTOF(oc_h)) }
			w[oc_last] = POIS;		/* the chain's end is OWNED */
			got = f
		fi
	fi
}

/* [S11] iter_next from h to the end: wait on a locked word, restart on
 * an unlinked one or on another list's head (the cursor's node moved);
 * never returns a head as a node; must end within WALK_BOUND steps.
 * Mutant MUT_WALK_NO_HEAD_CHECK: only h ends the walk. */
inline op_walk(ow_h)
{
	cur = ow_h;
	steps = 0;
	do
	:: atomic { !LOCKED(w[cur]) -> v = w[cur] };
	   if
	   :: UNLINKED(v) -> cur = ow_h		/* CASLIST_EAGAIN: restart */
	   :: !UNLINKED(v) && PTR(v) == ow_h -> break
#ifndef MUT_WALK_NO_HEAD_CHECK
	   :: !UNLINKED(v) && PTR(v) != ow_h && ISHEAD(PTR(v)) -> cur = ow_h	/* EAGAIN */
	   :: else -> cur = PTR(v)
#else
	   :: else -> cur = PTR(v)
#endif
	   fi;
	   assert(cur == ow_h || !ISHEAD(cur));	/* a head is never a node */
	   steps++;
	   assert(steps <= WALK_BOUND)
	od
}

/* ---- scenarios: three processes, a list of up to four nodes --------- */

proctype P(byte me)
{
	byte s, s2, p, q, f, t, v, v1, v2, g, gl, got, cur, steps, ok;
	bit early;			/* q is the pair's early hint */
	byte qa = NONE, qb = NONE;	/* my batch: oldest, newest */

	if
	:: scen == 1 ->			/* delete of neighbours, add_after next to them */
		if
		:: me == 0 -> op_del(1)
		:: me == 1 -> op_del(2)
		:: me == 2 -> op_add_after(2, 4); op_del(3)
		fi
	:: scen == 2 ->			/* rotate: move_head races with del and pop */
		if
		:: me == 0 -> op_move_head(HEAD, 3); op_move_head(HEAD, 1)
		:: me == 1 -> op_move_head(HEAD, 2)
		:: me == 2 -> op_del(3); op_pop_tail(HEAD)
		fi
	:: scen == 3 ->			/* both ends, and del of the first node */
		if
		:: me == 0 -> op_add_head(HEAD, 2); op_pop_head(HEAD)
		:: me == 1 -> op_splice_tail(HEAD, 3, 3); op_pop_tail(HEAD)
		:: me == 2 -> op_del(1);
			if
			:: got == 1 -> op_splice_tail(HEAD, 1, 1)	/* re-add the node it removed */
			:: else -> skip
			fi
		fi
	:: scen == 4 ->			/* cut a prefix, splice it back; last raced */
		if
		:: me == 0 -> op_cut(HEAD, 2);
			if
			:: got != NONE -> op_splice_tail(HEAD, got, 2)
			:: else -> skip
			fi
		:: me == 1 -> op_add_head(HEAD, 4); op_pop_head(HEAD)
		:: me == 2 -> op_del(2); op_pop_tail(HEAD)
		fi
	:: scen == 5 ->			/* add_near at a node being deleted or moved */
		if
		:: me == 0 -> op_add_near(1, 3)
		:: me == 1 -> op_add_near(2, 4); op_del(1)
		:: me == 2 -> op_move_head(HEAD, 2)
		fi
	:: scen == 6 ->			/* a walk while nodes move, leave and come back */
		if
		:: me == 0 -> op_move_head(HEAD, 3); op_del(1)
		:: me == 1 -> op_add_head(HEAD, 4); op_pop_tail(HEAD)
		:: me == 2 -> op_walk(HEAD)
		fi
	:: scen == 7 ->			/* add_near at the head (head and tail links) */
		if
		:: me == 0 -> op_add_near(HEAD, 3)
		:: me == 1 -> op_add_near(HEAD, 4)
		:: me == 2 -> op_pop_tail(HEAD); op_pop_head(HEAD)
		fi
	:: scen == 8 ->			/* two lists: moves in both directions */
		if
		:: me == 0 -> op_move_head(HEADB, 1)	/* 1 is first on A */
		:: me == 1 -> op_move_head(HEAD, 3)	/* 3 is first on B */
		:: me == 2 -> op_move_head(HEADB, 2); op_pop_tail(HEAD)
		fi
	:: scen == 9 ->			/* a cut racing a move of its last to the other list */
		if
		:: me == 0 -> op_cut(HEAD, 2);
			if
			:: got != NONE -> op_splice_tail(HEAD, got, 2)
			:: else -> skip
			fi
		:: me == 1 -> op_del(2);
			if
			:: got == 2 -> op_splice_tail(HEADB, 2, 2)
			:: else -> skip
			fi
		:: me == 2 -> op_move_head(HEADB, 3)
		fi
	:: scen == 10 ->		/* a walk whose nodes move to the other list */
		if
		:: me == 0 -> op_walk(HEAD)
		:: me == 1 -> op_move_head(HEADB, 1); op_move_head(HEADB, 2)
		:: me == 2 -> op_move_head(HEAD, 3)
		fi
	:: scen == 11 ->		/* racing touches of one node, against its removal */
		if
		:: me == 0 -> op_touch(HEAD, 3)
		:: me == 1 -> op_touch(HEADB, 3)
		:: me == 2 -> op_pop_tail(HEAD); op_del(3)
		fi
	:: scen == 12 ->		/* a batch: queue two nodes, flush; raced */
		if
		:: me == 0 -> op_batch_add(3); op_batch_add(2); op_batch_flush(HEAD)
		:: me == 1 -> op_del(2)
		:: me == 2 -> op_touch(HEADB, 3); op_del(3)
		fi
	:: scen == 13 ->		/* touches race pops; each popper retires its node */
		if
		:: me == 0 -> op_pop_tail(HEAD);
			if
			:: got != NONE -> retire(got)
			:: else -> skip
			fi
		:: me == 1 -> op_touch(HEAD, 2); op_touch(HEADB, 1)
		:: me == 2 -> op_touch(HEADB, 2); op_pop_head(HEAD);
			if
			:: got != NONE -> retire(got)
			:: else -> skip
			fi
		fi
	:: scen == 14 ->		/* a batch cancelled, raced by touches; its nodes retired */
		if
		:: me == 0 -> op_batch_add(1); op_batch_add(2); op_batch_cancel();
			if
			:: where[1] == me -> retire(1)
			:: else -> skip
			fi;
			if
			:: where[2] == me -> retire(2)
			:: else -> skip
			fi
		:: me == 1 -> op_touch(HEADB, 1); op_touch(HEADB, 2)
		:: me == 2 -> op_cut(HEAD, 3);	/* 3 is first: a chain of one */
			if
			:: got != NONE -> op_touch(HEAD, 3); retire(3)	/* the cut's end: OWNED */
			:: else -> skip
			fi
		fi
	fi;
	done++
}

/* Build list A: head -> a -> b -> c -> head and list B: headb -> d -> e
 * -> headb (0 = absent); the other nodes are unlinked (ZERO) and owned
 * by whoever the scenario says (their future adder), 255 = nobody. */
inline build(b_a, b_b, b_c, b_d, b_e)
{
	w[HEAD] = W(HEAD); prv[HEAD] = HEAD;
	w[HEADB] = W(HEADB); prv[HEADB] = HEADB;
	i = 1;
	do
	:: i < HEADB -> w[i] = ZERO; prv[i] = NONE; where[i] = 255; i++
	:: else -> break
	od;
	w[NONE] = POIS; w[PPOIS] = POIS;
	last = HEAD;
	if :: b_a != 0 -> w[last] = W(b_a); prv[b_a] = last; where[b_a] = INA; last = b_a :: else fi;
	if :: b_b != 0 -> w[last] = W(b_b); prv[b_b] = last; where[b_b] = INA; last = b_b :: else fi;
	if :: b_c != 0 -> w[last] = W(b_c); prv[b_c] = last; where[b_c] = INA; last = b_c :: else fi;
	w[last] = W(HEAD); prv[HEAD] = last;
	last = HEADB;
	if :: b_d != 0 -> w[last] = W(b_d); prv[b_d] = last; where[b_d] = INB; last = b_d :: else fi;
	if :: b_e != 0 -> w[last] = W(b_e); prv[b_e] = last; where[b_e] = INB; last = b_e :: else fi;
	w[last] = W(HEADB); prv[HEADB] = last
}

/* the end state of list h: one cycle through exactly its nodes */
inline check_list(cl_h)
{
	x = cl_h;
	cnt = 0;
	do
	:: assert(!LOCKED(w[x]) && !UNLINKED(w[x]));
	   assert(prv[PTR(w[x])] == x);
	   x = PTR(w[x]);
	   if
	   :: x == cl_h -> break
	   :: else -> assert(!ISHEAD(x) && where[x] == LISTOF(cl_h) && !seen[x]); seen[x] = 1;
		cnt++; assert(cnt < N)
	   fi
	od
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
		:: SCEN == 0 || SCEN == 8 -> scen = 8
		:: SCEN == 0 || SCEN == 9 -> scen = 9
		:: SCEN == 0 || SCEN == 10 -> scen = 10
		:: SCEN == 0 || SCEN == 11 -> scen = 11
		:: SCEN == 0 || SCEN == 12 -> scen = 12
		:: SCEN == 0 || SCEN == 13 -> scen = 13
		:: SCEN == 0 || SCEN == 14 -> scen = 14
		fi;
		if
		:: scen == 1 -> build(1, 2, 3, 0, 0); where[4] = 2
		:: scen == 2 -> build(1, 2, 3, 0, 0)
		:: scen == 3 -> build(1, 0, 0, 0, 0); where[2] = 0; where[3] = 1
		:: scen == 4 -> build(1, 2, 3, 0, 0); where[4] = 1
		:: scen == 5 -> build(1, 2, 0, 0, 0); where[3] = 0; where[4] = 1
		:: scen == 6 -> build(1, 2, 3, 0, 0); where[4] = 1
		:: scen == 7 -> build(1, 2, 0, 0, 0); where[3] = 0; where[4] = 1
		:: scen == 8 -> build(1, 2, 0, 3, 4)
		:: scen == 9 -> build(1, 2, 3, 0, 0)
		:: scen == 10 -> build(1, 2, 0, 3, 0)
		:: scen == 11 -> build(1, 0, 0, 2, 0)	/* 3 unlinked, nobody's */
		:: scen == 12 -> build(1, 2, 3, 4, 0)
		:: scen == 13 -> build(1, 2, 0, 0, 0)
		:: scen == 14 -> build(3, 1, 2, 0, 0)
		fi;
		run P(0); run P(1); run P(2)
	}
	done == NPROC;
	/* the end state: each list one cycle through exactly its nodes */
	d_step {
		check_list(HEAD);
		check_list(HEADB);
		i = 1;
		do
		:: i < HEADB -> assert(seen[i] == INLIST(where[i]));
			assert(seen[i] || UNLINKED(w[i]));	/* I2: off-list words say so */
			i++
		:: else -> break
		od
	}
}
