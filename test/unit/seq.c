/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/unit/seq.c - sequential semantics of every operation against a reference
 * model (an array of ids in list order): edge cases first (empty list, one
 * node, head/tail), then a long seeded random sequence compared after
 * every step.  Usage: seq [seed] [steps]
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <caslist/caslist.h>

#include "../tap.h"
#include "../util.h"

#define MAXN 64

struct item {
	struct caslist_node link;
	int id;
};

static struct caslist_list L;
static struct item items[MAXN];
static int model[MAXN], mlen;

static int id_of(struct caslist_node *n)
{
	return caslist_entry(n, struct item, link)->id;
}

static struct caslist_node *nd(int id)
{
	return &items[id].link;
}

/* Does the list hold exactly the model, in order, with a sound structure? */
static int same(void)
{
	struct caslist_node *cur = &L.head;
	size_t count = 0;
	int i = 0, rc;

	if (caslist_check(&L, MAXN, &count) != 0 || count != (size_t)mlen)
		return 0;
	while ((rc = caslist_iter_next(&L, &cur)) == 1) {
		if (i >= mlen || id_of(cur) != model[i])
			return 0;
		i++;
	}
	return rc == 0 && i == mlen && caslist_empty(&L) == (mlen == 0);
}

static int mfind(int id)
{
	for (int i = 0; i < mlen; i++)
		if (model[i] == id)
			return i;
	return -1;
}

static void mins(int at, int id)
{
	memmove(&model[at + 1], &model[at], (size_t)(mlen - at) * sizeof(int));
	model[at] = id;
	mlen++;
}

static void mdel(int at)
{
	memmove(&model[at], &model[at + 1], (size_t)(mlen - at - 1) * sizeof(int));
	mlen--;
}

static void reset(void)
{
	caslist_init(&L);
	for (int i = 0; i < MAXN; i++) {
		items[i].id = i;
		caslist_node_init(&items[i].link);
	}
	mlen = 0;
}

static uint64_t rng;
static uint64_t next_rand(void)
{
	return splitmix64(&rng);
}

static void edge_cases(void)
{
	struct caslist_node *n, *first, *succ;

	reset();
	tap_ok(caslist_empty(&L) && same(), "init: empty list");
	tap_ok(caslist_pop_head(&L) == NULL, "pop_head on empty list -> NULL");
	tap_ok(caslist_pop_tail(&L) == NULL, "pop_tail on empty list -> NULL");
	tap_ok(same(), "still empty and sound after empty pops");
	tap_ok(!caslist_node_linked(nd(0)), "fresh node is not linked");
	tap_ok(!caslist_del_if_linked(nd(0)), "del_if_linked of unlinked node -> false");
	tap_ok(caslist_add_after(nd(1), nd(0)) == CASLIST_ENOENT, "add_after unlinked pos -> ENOENT");
	tap_ok(caslist_move_head(&L, nd(0)) == CASLIST_ENOENT, "move_head unlinked -> ENOENT");
	tap_ok(caslist_add_near(nd(1), nd(0)) == CASLIST_ENOENT, "add_near unlinked pos -> ENOENT");

	/* one node */
	caslist_add_head(&L, nd(0));
	mins(0, 0);
	tap_ok(same() && caslist_node_linked(nd(0)), "add_head into empty list");
	tap_ok(caslist_move_head(&L, nd(0)) == CASLIST_OK && same(), "move_head of the only node");
	n = caslist_pop_tail(&L);
	mdel(0);
	tap_ok(n == nd(0) && same(), "pop_tail of the only node");
	tap_ok(atomic_load(&n->next) == CASLIST_POISON_NEXT &&
		       atomic_load(&n->prev) == CASLIST_POISON_PREV && !caslist_node_linked(n),
	       "removed node is poisoned");
	caslist_add_tail(&L, nd(0));
	mins(0, 0);
	tap_ok(same(), "add_tail into empty list");
	tap_ok(caslist_pop_head(&L) == nd(0) && (mdel(0), same()), "pop_head of the only node");
	caslist_add_tail(&L, nd(0));
	mins(0, 0);
	tap_ok(caslist_del(nd(0)) == CASLIST_OK && (mdel(0), same()), "del of the only node");
	tap_ok(!caslist_del_if_linked(nd(0)), "second delete -> false (defined result)");

	/* head / tail edges with several nodes: 1 2 3 */
	caslist_add_tail(&L, nd(2));
	caslist_add_head(&L, nd(1));
	caslist_add_tail(&L, nd(3));
	mins(0, 1), mins(1, 2), mins(2, 3);
	tap_ok(same(), "add_head/add_tail order: 1 2 3");
	tap_ok(caslist_add_after(&L.head, nd(4)) == CASLIST_OK && (mins(0, 4), same()),
	       "add_after(head) == add at head");
	tap_ok(caslist_add_after(nd(3), nd(5)) == CASLIST_OK && (mins(4, 5), same()),
	       "add_after(tail) == add at tail");
	tap_ok(caslist_move_head(&L, nd(5)) == CASLIST_OK && (mdel(4), mins(0, 5), same()),
	       "move_head of the tail");
	tap_ok(caslist_move_head(&L, nd(1)) == CASLIST_OK && (mdel(2), mins(0, 1), same()),
	       "move_head of a middle node");
	tap_ok(caslist_add_near(&L.head, nd(6)) == CASLIST_NEAR_AFTER && (mins(0, 6), same()),
	       "add_near(head), uncontended -> after the head");
	tap_ok(caslist_add_near(nd(2), nd(7)) == CASLIST_NEAR_AFTER &&
		       (mins(mfind(2) + 1, 7), same()),
	       "add_near(node), uncontended -> after it");

	/* add_near with the link after pos held: goes before pos */
	tap_ok(caslist_link_trylock(nd(2), &succ) && succ == nd(7), "trylock link after node 2");
	tap_ok(!caslist_link_trylock(nd(2), &succ), "trylock of a held link fails");
	tap_ok(caslist_check(&L, MAXN, NULL) != 0, "check() reports a held lock");
	tap_ok(caslist_add_near(nd(2), nd(8)) == CASLIST_NEAR_BEFORE, "add_near(node) with busy after-link -> before");
	caslist_link_unlock(nd(2), succ);
	mins(mfind(2), 8);
	tap_ok(same(), "add_near before: list matches");

	/* lock primitives: lock_prev returns the predecessor */
	succ = caslist_link_lock(nd(2));
	n = caslist_link_lock_prev(nd(2));
	tap_ok(n == nd(8) && succ == nd(7), "link_lock/link_lock_prev give pred and succ");
	caslist_link_unlock(n, nd(2));
	caslist_link_unlock(nd(2), succ);
	tap_ok(same(), "unlock restores the list");

	/* corrupted prev is caught by check() */
	atomic_store(&nd(7)->prev, (uintptr_t)nd(40));
	tap_ok(caslist_check(&L, MAXN, NULL) != 0, "check() reports next->prev != self");
	atomic_store(&nd(7)->prev, (uintptr_t)nd(2));
	tap_ok(same(), "restored");

	/* I6: bit 2 of a link says "the successor is a head"; check() reports
	 * it set on a link to a node, or missing on the tail's link */
	atomic_fetch_or(&nd(2)->next, (uintptr_t)4);
	tap_ok(caslist_check(&L, MAXN, NULL) == -5, "check() reports a head bit on a link to a node");
	atomic_fetch_and(&nd(2)->next, ~(uintptr_t)4);
	n = nd(model[mlen - 1]);
	tap_ok((atomic_load(&n->next) & 4u) != 0 && (atomic_load(&L.head.next) & 4u) == 0,
	       "the tail's link has the head bit, the head's link to a node has not");
	atomic_fetch_and(&n->next, ~(uintptr_t)4);
	tap_ok(caslist_check(&L, MAXN, NULL) == -5, "check() reports the tail's link without it");
	atomic_fetch_or(&n->next, (uintptr_t)4);
	tap_ok(same(), "restored");
	/* the primitives: the tail's link locked and unlocked to the head */
	succ = caslist_link_lock(n);
	tap_ok(succ == &L.head, "link_lock of the tail gives the head");
	caslist_link_unlock(n, succ);
	tap_ok(same(), "link_unlock to the head keeps the head bit");
	/* a head as x: the link pointing to it is the tail's, whose word
	 * holds the head bit */
	n = caslist_link_lock_prev(&L.head);
	tap_ok(n == nd(model[mlen - 1]), "link_lock_prev of the head takes the tail's link");
	caslist_link_unlock(n, &L.head);
	tap_ok(same(), "and unlocks it to the head");
	tap_ok(caslist_link_trylock(&L.head, &succ), "trylock the head's link");
	caslist_node_init(nd(9));
	tap_ok(caslist_add_near(&L.head, nd(9)) == CASLIST_NEAR_BEFORE,
	       "add_near(head) with the head's link busy -> before the head (the tail)");
	caslist_link_unlock(&L.head, succ);
	mins(mlen, 9);
	tap_ok(same(), "add_near before the head: list matches");

	/* iterator: removal of the current node -> EAGAIN */
	n = &L.head;
	tap_ok(caslist_iter_next(&L, &n) == 1 && n == nd(model[0]), "iter: first node");
	caslist_del(n);
	mdel(0);
	tap_ok(caslist_iter_next(&L, &n) == CASLIST_EAGAIN, "iter: node removed under the cursor -> EAGAIN");

	/* splice chains */
	caslist_node_init(nd(10));
	caslist_node_init(nd(11));
	caslist_node_init(nd(12));
	caslist_chain_link(nd(10), nd(11));
	caslist_chain_link(nd(11), nd(12));
	caslist_splice_head(&L, nd(10), nd(12));
	mins(0, 10), mins(1, 11), mins(2, 12);
	tap_ok(same(), "splice_head of a 3-node chain");
	caslist_splice_tail(&L, nd(13), nd(13));
	mins(mlen, 13);
	tap_ok(same(), "splice_tail of a 1-node chain");

	/* cut prefixes */
	first = caslist_cut_front(&L, nd(10));
	tap_ok(first == nd(10) && caslist_chain_next(first) == NULL && (mdel(0), same()),
	       "cut_front with last == first (one node)");
	first = caslist_cut_front(&L, nd(12));
	tap_ok(first == nd(11) && caslist_chain_next(nd(11)) == nd(12) &&
		       caslist_chain_next(nd(12)) == NULL && (mdel(0), mdel(0), same()),
	       "cut_front of a 2-node prefix; chain ends at last");
	tap_ok(caslist_cut_front(&L, nd(model[mlen - 1])) == nd(model[0]) && (mlen = 0, same()),
	       "cut_front at the tail empties the list");
	caslist_splice_tail(&L, nd(11), nd(12));
	mins(0, 11), mins(1, 12);
	tap_ok(same(), "a cut chain splices back as it is");
}

static void random_ops(uint64_t seed, int steps)
{
	int bad = -1;

	reset();
	rng = seed;
	for (int step = 0; step < steps && bad < 0; step++) {
		int id = (int)(next_rand() % MAXN), at = mfind(id), op = (int)(next_rand() % 11);
		int pos = (int)(next_rand() % MAXN), pat = mfind(pos);
		struct caslist_node *n;

		switch (op) {
		case 0:
			if (at < 0)
				caslist_add_head(&L, nd(id)), mins(0, id);
			break;
		case 1:
			if (at < 0)
				caslist_add_tail(&L, nd(id)), mins(mlen, id);
			break;
		case 2:
			if (at < 0) {
				int rc = caslist_add_after(nd(pos), nd(id));

				if (rc != (pat < 0 ? CASLIST_ENOENT : CASLIST_OK))
					bad = step;
				if (pat >= 0)
					mins(pat + 1, id);
			}
			break;
		case 3:
			if (at < 0 && pat >= 0) {
				caslist_add_near(nd(pos), nd(id));
				mins(pat + 1, id);
			}
			break;
		case 4:
			if (caslist_del_if_linked(nd(id)) != (at >= 0))
				bad = step;
			if (at >= 0)
				mdel(at);
			break;
		case 5:
			if (caslist_move_head(&L, nd(id)) != (at >= 0 ? CASLIST_OK : CASLIST_ENOENT))
				bad = step;
			if (at >= 0)
				mdel(at), mins(0, id);
			break;
		case 6:
			n = caslist_pop_head(&L);
			if ((n == NULL) != (mlen == 0) || (n && id_of(n) != model[0]))
				bad = step;
			if (n)
				mdel(0);
			break;
		case 7:
			n = caslist_pop_tail(&L);
			if ((n == NULL) != (mlen == 0) || (n && id_of(n) != model[mlen - 1]))
				bad = step;
			if (n)
				mdel(mlen - 1);
			break;
		case 8:
		case 9: { /* splice a chain of up to 4 unlinked nodes */
			int chain[4], k = 0;

			for (int i = 0; i < MAXN && k < 4; i++) {
				int c = (id + i) % MAXN;

				if (mfind(c) < 0)
					caslist_node_init(nd(c)), chain[k++] = c;
			}
			if (k == 0)
				break;
			for (int i = 0; i + 1 < k; i++)
				caslist_chain_link(nd(chain[i]), nd(chain[i + 1]));
			if (op == 8) {
				caslist_splice_head(&L, nd(chain[0]), nd(chain[k - 1]));
				for (int i = 0; i < k; i++)
					mins(i, chain[i]);
			} else {
				caslist_splice_tail(&L, nd(chain[0]), nd(chain[k - 1]));
				for (int i = 0; i < k; i++)
					mins(mlen, chain[i]);
			}
			break;
		}
		case 10: /* cut up to a listed node, then re-init the chain */
			if (at >= 0) {
				n = caslist_cut_front(&L, nd(id));
				for (int i = 0; i <= at; i++) {
					struct caslist_node *nx;

					if (n == NULL || id_of(n) != model[0]) {
						bad = step;
						break;
					}
					nx = caslist_chain_next(n);
					caslist_node_init(n);
					mdel(0);
					n = nx;
				}
				if (n != NULL)
					bad = step;
			}
			break;
		}
		if (bad < 0 && !same())
			bad = step;
	}
	tap_ok(bad < 0, "random sequence seed=%llu steps=%d matches the model%s",
	       (unsigned long long)seed, steps, bad < 0 ? "" : " (FAILED)");
	if (bad >= 0)
		printf("# first mismatch at step %d\n", bad);
}

/* A static list needs no init call. */
static struct caslist_list SL = CASLIST_LIST_INIT(SL);
static CASLIST_LIST(SL2);	/* declared and initialised in one */

/* Node states (issue 21): FRESH, OWNED after every kind of removal, and
 * what touch, move_head, del_if_linked do in each; CASLIST_LIST_INIT. */
static void ownership(void)
{
	struct caslist_list A;
	struct caslist_node n[6], *p;
	size_t cnt = 99;

	tap_ok(caslist_empty(&SL) && caslist_check(&SL, 4, &cnt) == 0 && cnt == 0,
	       "CASLIST_LIST_INIT: an empty list without caslist_init");
	caslist_node_init(&n[0]);
	caslist_add_tail(&SL, &n[0]);
	tap_ok(caslist_pop_head(&SL) == &n[0] && caslist_empty(&SL),
	       "CASLIST_LIST_INIT: add and pop work on it");
	{
		CASLIST_LIST(local);

		caslist_node_init(&n[1]);
		caslist_node_init(&n[2]);
		caslist_add_head(&SL2, &n[0]);
		caslist_add_head(&local, &n[1]);
		tap_ok(caslist_check(&SL2, 4, &cnt) == 0 && cnt == 1 &&
			       caslist_check(&local, 4, &cnt) == 0 && cnt == 1 &&
			       caslist_pop_tail(&SL2) == &n[0] && caslist_pop_head(&local) == &n[1],
		       "CASLIST_LIST: a static and an automatic list, declared and initialised");
	}
	/* The errors are negated errno values (a kernel habit: rc == -ENOENT). */
	tap_ok(CASLIST_ENOENT == -ENOENT && CASLIST_EAGAIN == -EAGAIN &&
		       CASLIST_ENOENT != CASLIST_EAGAIN && caslist_move_head(&SL, &n[0]) == -ENOENT &&
		       caslist_add_after(&n[1], &n[2]) == -ENOENT,
	       "CASLIST_ENOENT is -ENOENT, CASLIST_EAGAIN is -EAGAIN: move of an OWNED node,"
	       " add after one");

	caslist_init(&A);
	for (int i = 0; i < 6; i++) {
		caslist_node_init(&n[i]);
		caslist_add_tail(&A, &n[i]);
	}
	p = caslist_pop_tail(&A);
	tap_ok(p == &n[5] && caslist_touch(&A, p) == CASLIST_TOUCH_GONE &&
		       !caslist_node_linked(p) && caslist_move_head(&A, p) == CASLIST_ENOENT &&
		       !caslist_del_if_linked(p),
	       "a popped node is OWNED: touch GONE, move ENOENT, del_if_linked false");
	caslist_del(&n[1]);
	tap_ok(caslist_touch(&A, &n[1]) == CASLIST_TOUCH_GONE && caslist_del_if_linked(&n[2]) &&
		       caslist_touch(&A, &n[2]) == CASLIST_TOUCH_GONE,
	       "deleted nodes are OWNED: touch adds nothing");
	caslist_add_head(&A, &n[1]);
	tap_ok(caslist_node_linked(&n[1]) && caslist_touch(&A, &n[1]) == CASLIST_OK,
	       "the owner adds its node back with a plain add; a touch then moves it");
	caslist_node_init(p);
	tap_ok(caslist_touch(&A, p) == CASLIST_TOUCH_ADDED && caslist_node_linked(p),
	       "re-initialised by its owner, a node is FRESH: a touch adds it");
	/* a cut: the chain's end is OWNED */
	{
		struct caslist_node *f, *last = &n[0];
		size_t k = 0;

		/* A is now: p(5) n1 n0 n3 n4; cut through n0 */
		f = caslist_cut_front(&A, last);
		for (struct caslist_node *c = f; c != NULL; c = caslist_chain_next(c))
			k++;
		tap_ok(f == p && k == 3 && caslist_touch(&A, last) == CASLIST_TOUCH_GONE &&
			       !caslist_node_linked(last),
		       "a cut chain's last node is OWNED: touch adds nothing");
		caslist_splice_tail(&A, f, last);
		tap_ok(caslist_check(&A, 10, &cnt) == 0 && cnt == 5,
		       "the cut chain splices back (its end's word is ignored)");
	}
}

/*
 * The walk contract (doc/protocol.md, "Traversal"): a walk whose cursor node
 * is removed and re-added further on goes on from the new place and skips
 * the nodes between (this is the documented exception); a walk whose
 * cursor stays put sees every node that stays put.
 */
static void walk_contract(void)
{
	struct caslist_list A;
	struct caslist_node n[5], *cur;
	int seen[5] = { 0 }, rc, steps = 0;

	caslist_init(&A);
	for (int i = 0; i < 5; i++) {
		caslist_node_init(&n[i]);
		caslist_add_tail(&A, &n[i]);
	}
	cur = &A.head;
	caslist_iter_next(&A, &cur);	/* on n0 */
	seen[0] = 1;
	caslist_del(&n[0]);		/* n0 removed and re-added at the tail */
	caslist_add_tail(&A, &n[0]);
	while ((rc = caslist_iter_next(&A, &cur)) == 1 && steps++ < 10)
		seen[cur - n] = 1;
	tap_ok(rc == 0 && !seen[1] && !seen[2] && !seen[3] && !seen[4],
	       "a cursor node re-added at the tail: the walk ends there, skipping n1..n4 (documented)");
	/* nodes that stay put are all seen when the cursor stays put */
	memset(seen, 0, sizeof(seen));
	cur = &A.head;
	steps = 0;
	while ((rc = caslist_iter_next(&A, &cur)) == 1 && steps++ < 10) {
		if (cur == &n[2])
			caslist_move_head(&A, &n[4]);	/* another node moves */
		seen[cur - n]++;
	}
	tap_ok(rc == 0 && seen[1] == 1 && seen[2] == 1 && seen[3] == 1 && seen[0] == 1,
	       "a walk whose cursor stays put sees every node that stays put, once");
}

/* caslist_for_each_entry_safe and _continue, on a quiet list of six. */
static void for_each_forms(struct caslist_list *A)
{
	struct item *it;
	struct caslist_node *cur;
	int order[16], k = 0, ok = 1;

	for (int i = 0; i < 6; i++) {
		caslist_node_init(&items[i].link);
		caslist_add_tail(A, &items[i].link);
	}
	caslist_for_each_entry_safe(it, cur, A, link) {	/* every node removed */
		order[k++] = it->id;
		ok = ok && caslist_del(&it->link) == CASLIST_OK;
	}
	for (int i = 0; i < 6; i++)
		ok = ok && order[i] == items[i].id;
	tap_ok(k == 6 && ok && caslist_empty(A) && cur == NULL,
	       "caslist_for_each_entry_safe: the body removes each node, each seen once, in order");
	for (int i = 0; i < 6; i++)
		caslist_add_tail(A, &items[i].link);
	k = 0;
	caslist_for_each_entry_safe(it, cur, A, link) {	/* the next one removed: restart */
		order[k++] = it->id;
		if (k == 2)
			caslist_del(cur);
		if (k == 16)
			break;
	}
	/* 0 1, then 2 (stepped onto before the body removed it), then from
	 * the head 0 1 3 4 5 */
	ok = k == 8 && order[0] == items[0].id && order[1] == items[1].id &&
	     order[2] == items[2].id && order[3] == items[0].id && order[5] == items[3].id &&
	     order[7] == items[5].id;
	tap_ok(ok, "caslist_for_each_entry_safe: the node ahead removed, the walk restarts (%d steps)", k);
	k = 0;
	caslist_for_each_entry(it, cur, A, link)
		if (it == &items[3])
			break;
	caslist_for_each_entry_continue(it, cur, A, link)
		order[k++] = it->id;
	tap_ok(k == 2 && order[0] == items[4].id && order[1] == items[5].id,
	       "caslist_for_each_entry_continue: goes on after the node it broke at");
	cur = &A->head;
	k = 0;
	caslist_for_each_entry_continue(it, cur, A, link)
		k++;
	tap_ok(k == 5, "caslist_for_each_entry_continue from the head: the whole list");
	tap_ok(caslist_iter_after(A, &items[5].link) == NULL &&
		       caslist_iter_after(A, &A->head) == &items[0].link &&
		       caslist_iter_after(A, &items[2].link) == &items[0].link,
	       "caslist_iter_after: NULL at the end; from a removed node, the first node");
	while (caslist_pop_head(A) != NULL)
		;
}

/* caslist_for_each / _entry: every node once, in order, on a quiet list;
 * a walk whose cursor node is removed restarts from the head. */
static void for_each(void)
{
	struct caslist_list A = CASLIST_LIST_INIT(A);
	struct item *it;
	struct caslist_node *cur;
	int order[8], k = 0, ok = 1;

	for (int i = 0; i < 6; i++) {
		caslist_node_init(&items[i].link);
		caslist_add_tail(&A, &items[i].link);
	}
	caslist_for_each_entry(it, cur, &A, link)
		order[k++] = it->id;
	for (int i = 0; i < 6; i++)
		ok = ok && order[i] == items[i].id;
	tap_ok(k == 6 && ok, "caslist_for_each_entry: every node once, in order");
	k = 0;
	caslist_for_each(cur, &A) {
		if (k++ == 2)
			caslist_del(cur);	/* the cursor's node goes: restart */
		if (k > 20)
			break;
	}
	tap_ok(k == 2 + 1 + 5, "caslist_for_each: the cursor's node removed, the walk restarts (%d steps)", k);
	while (caslist_pop_head(&A) != NULL)
		;
	for_each_forms(&A);
}

int main(int argc, char **argv)
{
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 42;
	int steps = argc > 2 ? atoi(argv[2]) : 20000;

	edge_cases();
	ownership();
	walk_contract();
	for_each();
	random_ops(seed, steps);
	random_ops(seed + 1, steps);
	return tap_done();
}
