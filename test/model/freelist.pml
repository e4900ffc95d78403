/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/model/freelist.pml - spin model of the cluster-cut free list's
 * cluster-lock protocol AS IMPLEMENTED in lib/freelist.c (doc/cluster.md).
 *
 * The list operations the free list composes - caslist_cut_front,
 * caslist_splice_tail, the tail insert (link_lock_expect + [L7]) and the
 * delete (link_del, [S6]) - are single atomic steps here: list.pml checks
 * that each of them is linearizable.  Everything the free list adds on
 * top is modelled access by access: the cluster locks (a test-and-set, a
 * blocking guard), the descriptor fields (state, nr, tail) and the node
 * pointers x->cluster, each read and write one step, in the order of the
 * C code.  Steps carry tags [F1].. that doc/cluster.md maps to the code.
 *
 * Nodes 1..5, descriptors 1..5 (0 = NULL), batch size 2.  seqn[0..nlen-1]
 * is the list.  A ghost own[x] says where node x is: ON the list, or the
 * process that owns it.
 *
 * Checked: every add adds an owned node and every removal a node that is
 * ON the list (none lost, none twice); a cut takes exactly the front
 * cluster's run (C4); a node joining a cluster joins at its tail; no
 * invalid end state (deadlock); and at the end the quiescent invariants of
 * caslist_fl_check: every cluster's nodes are one contiguous run with nr
 * nodes ending at its tail (C1), every node on the list is in a LIVE
 * cluster, no node a process owns still points to a cluster, every
 * descriptor that holds no nodes is SPARE (C2: none leaked).
 *
 * Mutants (-DMUT_...), each one dropped re-check; test/model/run.sh
 * requires spin to reject every one.
 */

#define NN     6		/* nodes 1..5 */
#define ND     6		/* descriptors 1..5 */
#define BATCH  2
#define ON     9		/* ghost: on the list */
#define SPARE  0
#define BUILDING 1
#define LIVE   2
#define TAKEN  3
#define NPROC  3

#ifndef SCEN
#define SCEN 0
#endif

byte seqn[NN];			/* the list, in order */
byte nlen;
byte cl[NN];			/* x->cluster */
byte own[NN];			/* ghost */
byte lk[ND], st[ND], nr[ND], tl[ND];
byte scen, done;

/* cl_lock / cl_unlock: the exchange spin lock (a blocking guard). */
inline cl_lock(lc) { atomic { lk[lc] == 0 -> lk[lc] = 1 } }
inline cl_unlock(lc) { lk[lc] = 0 }

/* [F0] caslist__cl_alloc: pop a SPARE descriptor off the pool (a caslist
 * list: one atomic pop here); BUILDING with nr and tail set. */
inline cl_alloc(ca_c, ca_nr, ca_tail)
{
	atomic {
		ca_c = 1;
		do
		:: ca_c < ND && st[ca_c] != SPARE -> ca_c++
		:: else -> break
		od;
		assert(ca_c < ND);		/* the pool never runs dry */
		st[ca_c] = BUILDING; nr[ca_c] = ca_nr; tl[ca_c] = ca_tail
	}
}

inline cl_retire(cr_c) { st[cr_c] = SPARE }

/* [F1] lock_front: g = first node; c = g->cluster; lock c; valid if LIVE,
 * g->cluster still c and g still first (C4); else unlock, retry. */
inline lock_front(lf_c)
{
	do
	:: g = (nlen > 0 -> seqn[0] : 0);
	   if
	   :: g == 0 -> lf_c = 0; break
	   :: else ->
		cc = cl[g];
		if
		:: cc != 0 ->
			cl_lock(cc);
			if
#ifdef MUT_FL_FRONT_NO_RECHECK
			:: st[cc] == LIVE && cl[g] == cc -> lf_c = cc; break
#else
			:: st[cc] == LIVE && cl[g] == cc && nlen > 0 && seqn[0] == g ->
				lf_c = cc; break
#endif
			:: else -> cl_unlock(cc)
			fi
		:: else -> skip
		fi
	   fi
	od
}

/* [F2] take(want): lock the front cluster, cut up to its tail, TAKEN,
 * unlock; repeat.  Then the walk (caslist_fl_batch_next): per node,
 * cluster pointer reset; the cluster retired after its tail.  The nodes
 * taken are mine (bt[0..bn-1], in order). */
inline take(tk_want)
{
	got = 0;
	do
	:: got < tk_want ->
		lock_front(c);
		if
		:: c == 0 -> break
		:: else -> skip
		fi;
		t = tl[c];
		k = nr[c];
		atomic {	/* caslist_cut_front(l, t): the prefix up to t */
			i = 0;
			do
			:: seqn[i] == t -> break
			:: else -> i++
			od;
			assert(i + 1 == k);	/* C4: the prefix is exactly c's run */
			x = 0;
			do
			:: x <= i -> assert(cl[seqn[x]] == c && own[seqn[x]] == ON);
				own[seqn[x]] = me; bt[bn] = seqn[x]; bn++; x++
			:: else -> break
			od;
			x = 0;
			do
			:: x + i + 1 < nlen -> seqn[x] = seqn[x + i + 1]; x++
			:: else -> break
			od;
			nlen = nlen - i - 1;
			do
			:: x < NN -> seqn[x] = 0; x++
			:: else -> break
			od
		}
		st[c] = TAKEN;
		cl_unlock(c);
		got = got + k
	:: else -> break
	od;
	/* the walk */
	i = 0;
	do
	:: i < bn ->
		cc = cl[bt[i]];
		k = (tl[cc] == bt[i]);
		cl[bt[i]] = 0;
		if
		:: k -> cl_retire(cc)
		:: else -> skip
		fi;
		i++
	:: else -> break
	od
}

/* [F3] put_batch of my nodes bt[0..bn-1]: a BUILDING descriptor, point
 * the nodes at it (private), splice at the tail, lock, LIVE, unlock. */
inline put_batch()
{
	if
	:: bn == 0 -> skip
	:: else ->
		cl_alloc(c, bn, bt[bn - 1]);
		i = 0;
		do
		:: i < bn -> assert(cl[bt[i]] == 0); cl[bt[i]] = c; i++
		:: else -> break
		od;
		atomic {	/* caslist_splice_tail */
			i = 0;
			do
			:: i < bn -> assert(own[bt[i]] == me); own[bt[i]] = ON;
				seqn[nlen] = bt[i]; nlen++; i++
			:: else -> break
			od
		}
		cl_lock(c);
		st[c] = LIVE;
		cl_unlock(c);
		bn = 0
	fi
}

/* [F4] put(x): the tail node t (a hint, read once); its cluster c; lock
 * c; join c if LIVE, short of the batch, c's tail is t and t is still the
 * list's tail (link_lock_expect(t, head) + insert, one step here); else
 * a cluster of its own (put_batch of 1).  Two tries (the C code: 4). */
inline put(pu_x)
{
	ok = 0;
	i = 0;
	do
	:: i < 2 && !ok ->
		i++;
		t = (nlen > 0 -> seqn[nlen - 1] : 0);
		if
		:: t == 0 -> break
		:: else -> skip
		fi;
		c = cl[t];
		if
		:: c == 0 -> skip
		:: else ->
			cl_lock(c);
			if
			:: st[c] != LIVE || nr[c] >= BATCH -> cl_unlock(c); break
			:: else -> skip
			fi;
			if
#ifdef MUT_FL_PUT_NO_TAIL_CHECK
			:: 1 ->
#else
			:: tl[c] == t ->
#endif
				/* link_lock_expect(t, head): L(t) only while t is the
				 * tail; x->cluster = c and the insert under it: no
				 * splice can come between (it needs L(t)) */
				atomic {
					if
					:: nlen > 0 && seqn[nlen - 1] == t ->
						cl[pu_x] = c;
						assert(own[pu_x] == me); own[pu_x] = ON;
						seqn[nlen] = pu_x; nlen++; ok = 1
					:: else -> skip
					fi
				}
				if
				:: ok -> tl[c] = pu_x; nr[c]++
				:: else -> skip
				fi
			:: else -> skip
			fi;
			cl_unlock(c)
		fi
	:: else -> break
	od;
	if
	:: !ok -> bn = 0; bt[0] = pu_x; bn = 1; put_batch()
	:: else -> skip
	fi
}

/* [F5] remove(x): c = x->cluster; lock c; re-check it; TAKEN: ENOENT;
 * BUILDING: retry; LIVE: x->cluster = NULL, delete x (link_del: one step),
 * fix c's tail (x's predecessor, a member of c if nr > 1: C1), nr--,
 * retire c at 0. */
#ifdef MUT_FL_REMOVE_NO_RECHECK
#define RECHECK(x, c) 1
#else
#define RECHECK(x, c) (cl[x] == c)
#endif

inline remove(rm_x)
{
	do
	:: c = cl[rm_x];
	   if
	   :: c == 0 -> break				/* ENOENT */
	   :: else -> skip
	   fi;
	   cl_lock(c);
	   if
#ifndef MUT_FL_REMOVE_NO_RECHECK
	   :: cl[rm_x] != c -> cl_unlock(c)		/* moved: again */
#endif
	   :: RECHECK(rm_x, c) && st[c] == TAKEN -> cl_unlock(c); break	/* a taker owns it */
	   :: RECHECK(rm_x, c) && st[c] != LIVE && st[c] != TAKEN -> cl_unlock(c)	/* BUILDING */
	   :: RECHECK(rm_x, c) && st[c] == LIVE ->
		cl[rm_x] = 0;
		atomic {	/* link_del */
			assert(own[rm_x] == ON);
			own[rm_x] = me;
			i = 0;
			do
			:: seqn[i] == rm_x -> break
			:: else -> i++
			od;
			p = (i > 0 -> seqn[i - 1] : 0);
			do
			:: i + 1 < nlen -> seqn[i] = seqn[i + 1]; i++
			:: else -> break
			od;
			nlen--;
			seqn[nlen] = 0
		}
		if
		:: tl[c] == rm_x -> assert(nr[c] <= 1 || cl[p] == c);
			tl[c] = (nr[c] > 1 -> p : 0)
		:: else -> skip
		fi;
		nr[c]--;
		if
		:: nr[c] == 0 -> st[c] = BUILDING; cl_unlock(c); cl_retire(c)
		:: else -> cl_unlock(c)
		fi;
		got = rm_x;
		break
	   fi
	od
}

proctype P(byte me)
{
	byte c, cc, g, t, k, i, x, p, got, ok, bn;
	byte bt[NN];

	if
	:: scen == 1 ->		/* take and give back, against put and remove */
		if
		:: me == 0 -> take(1); put_batch()
		:: me == 1 -> put(4); got = 0; remove(2)
		:: me == 2 -> got = 0; remove(1); put(5)
		fi
	:: scen == 2 ->		/* two takers, a remover of a cluster's tail, puts */
		if
		:: me == 0 -> take(1); put_batch()
		:: me == 1 -> take(2); put_batch()
		:: me == 2 -> got = 0; remove(3); put(4)
		fi
	:: scen == 3 ->		/* puts joining the tail cluster while it is removed */
		if
		:: me == 0 -> put(4); put(5)
		:: me == 1 -> got = 0; remove(3); got = 0; remove(2)
		:: me == 2 -> take(3); put_batch()
		fi
	:: scen == 4 ->		/* a put whose tail node left and came back in another cluster */
		if
		:: me == 0 -> put(5)
		:: me == 1 -> got = 0; remove(3); put(4); bt[0] = 3; bn = 1; put_batch()
		:: me == 2 -> got = 0; remove(2)
		fi
	fi;
	done++
}

init {
	byte i, j, crun, rl, x;
	bool seen[ND];

	atomic {
		if
		:: SCEN == 0 || SCEN == 1 -> scen = 1
		:: SCEN == 0 || SCEN == 2 -> scen = 2
		:: SCEN == 0 || SCEN == 3 -> scen = 3
		:: SCEN == 0 || SCEN == 4 -> scen = 4
		fi;
		/* list 1 2 | 3: cluster 1 = {1, 2}, cluster 2 = {3} */
		seqn[0] = 1; seqn[1] = 2; seqn[2] = 3; nlen = 3;
		cl[1] = 1; cl[2] = 1; cl[3] = 2;
		own[1] = ON; own[2] = ON; own[3] = ON;
		st[1] = LIVE; nr[1] = 2; tl[1] = 2;
		st[2] = LIVE; nr[2] = 1; tl[2] = 3;
		own[4] = 1; own[5] = 2;		/* p1, p2 put them */
		if
		:: scen == 2 -> own[4] = 2
		:: scen == 3 -> own[4] = 0; own[5] = 0
		:: scen == 4 -> own[5] = 0
		:: else -> skip
		fi;
		run P(0); run P(1); run P(2)
	}
	done == NPROC;
	d_step {
		/* C1: runs */
		i = 0;
		crun = 0;
		rl = 0;
		do
		:: i < nlen ->
			x = seqn[i];
			assert(own[x] == ON && cl[x] != 0 && st[cl[x]] == LIVE);
			if
			:: cl[x] != crun -> assert(crun == 0 || (rl == nr[crun] && tl[crun] == seqn[i - 1]));
				assert(!seen[cl[x]]); seen[cl[x]] = 1; crun = cl[x]; rl = 1
			:: else -> rl++
			fi;
			i++
		:: else -> break
		od;
		assert(crun == 0 || (rl == nr[crun] && tl[crun] == seqn[nlen - 1]));
		/* owned nodes point nowhere; descriptors without nodes are SPARE */
		i = 1;
		do
		:: i < NN -> assert(own[i] == ON || cl[i] == 0); i++
		:: else -> break
		od;
		j = 1;
		do
		:: j < ND -> assert(seen[j] || st[j] == SPARE); j++
		:: else -> break
		od
	}
}
