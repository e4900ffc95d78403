/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/unit/batch.c - sequential semantics of caslist_batch_* against a model
 * (two lists, arrays of ids in order): queueing removes a node from its
 * list at once, from either list; the flush puts the queued nodes at the
 * head newest first; a full batch flushes itself; a queued node is not
 * linked for every other operation (del_if_linked false, move_head and
 * cut ENOENT/NULL, a walk parked on it restarts) but touch reports it
 * moved and another batch reports it queued; then a long seeded random
 * mix of batch and list operations compared with the model after every
 * step.  Usage: batch [seed] [steps]
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <caslist/caslist.h>

#include "../tap.h"
#include "../util.h"

#define MAXN 48

static struct caslist_list L[2];
static struct caslist_node node[MAXN];
static int model[2][MAXN], mlen[2];
static int where[MAXN];		/* 0, 1: on that list; -1: unlinked; 2: queued */
static int owned[MAXN];		/* unlinked and OWNED (a removal took it), else FRESH */
static int q[CASLIST_BATCH_MAX], qn, ql;	/* the batch's model */

static int idx(const struct caslist_node *n)
{
	return (int)(n - node);
}

static void mins(int l, int at, int id)
{
	memmove(&model[l][at + 1], &model[l][at], (size_t)(mlen[l] - at) * sizeof(int));
	model[l][at] = id;
	mlen[l]++;
	where[id] = l;
}

static void mdel(int id)
{
	int l = where[id];

	for (int i = 0; i < mlen[l]; i++)
		if (model[l][i] == id) {
			memmove(&model[l][i], &model[l][i + 1],
				(size_t)(mlen[l] - i - 1) * sizeof(int));
			mlen[l]--;
			break;
		}
	where[id] = -1;
	owned[id] = 1;
}

static void mflush(void)
{
	for (int i = 0; i < qn; i++)	/* newest first: each goes to the front */
		mins(ql, 0, q[i]);
	qn = 0;
}

static int same(void)
{
	for (int l = 0; l < 2; l++) {
		struct caslist_node *cur = &L[l].head;
		size_t count = 0;
		int i = 0, rc;

		if (caslist_check(&L[l], MAXN, &count) != 0 || count != (size_t)mlen[l])
			return 0;
		while ((rc = caslist_iter_next(&L[l], &cur)) == 1)
			if (i >= mlen[l] || idx(cur) != model[l][i++])
				return 0;
		if (rc != 0 || i != mlen[l])
			return 0;
	}
	for (int i = 0; i < MAXN; i++)
		if (caslist_node_linked(&node[i]) != (where[i] == 0 || where[i] == 1))
			return 0;
	return 1;
}

static void reset(void)
{
	for (int l = 0; l < 2; l++) {
		caslist_init(&L[l]);
		mlen[l] = 0;
	}
	for (int i = 0; i < MAXN; i++) {
		caslist_node_init(&node[i]);
		where[i] = -1;
		owned[i] = 0;
	}
	qn = 0;
}

/* the model of queueing id for list l: off its list, into q (flushing
 * when full) */
static void mqueue(int l, int id)
{
	mdel(id);
	where[id] = 2;
	ql = l;
	q[qn++] = id;
	if (qn == CASLIST_BATCH_MAX)
		mflush();
}

/* queue id for list l in b, model too */
static int mq(struct caslist_batch *b, int l, int id)
{
	int rc;

	rc = caslist_batch_move_head(b, &L[l], &node[id]);
	if (where[id] == 2)	/* queued here already: nothing done */
		return rc == CASLIST_BATCH_QUEUED;
	if (where[id] == 0 || where[id] == 1) {
		mqueue(l, id);
		return rc == CASLIST_OK;
	}
	return rc == CASLIST_ENOENT;
}

/* caslist_batch_move_head_n of ids[0..k-1] (distinct, none queued in b)
 * for list l: one call, then the model as k single queues. */
static int mq_n(struct caslist_batch *b, int l, const int *ids, int k)
{
	struct caslist_node *v[MAXN] = { NULL };
	size_t want = 0, got;

	for (int i = 0; i < k; i++)
		v[i] = &node[ids[i]];
	got = caslist_batch_move_head_n(b, &L[l], v, (size_t)k);
	for (int i = 0; i < k; i++) {
		int id = ids[i];

		if (where[id] == 0 || where[id] == 1) {
			mqueue(l, id);
			want++;
		}
	}
	return got == want;
}

int main(int argc, char **argv)
{
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	long steps = argc > 2 ? atol(argv[2]) : 20000;
	struct caslist_batch b, other;
	struct caslist_node *cur;
	int ok = 1;

	/* ---- edges ---- */
	reset();
	caslist_batch_init(&b);
	caslist_batch_init(&other);
	for (int i = 0; i < 6; i++) {
		caslist_add_tail(&L[i % 2], &node[i]);
		mins(i % 2, mlen[i % 2], i);
	}
	tap_ok(mq(&b, 0, 1) && same(), "queue a node of the other list: it leaves that list now");
	tap_ok(mq(&b, 0, 2) && mq(&b, 0, 4) && same(), "queue two more from the target list");
	tap_ok(mq(&b, 0, 7) && same(), "queue a never-linked node: ENOENT, nothing changes");
	tap_ok(!caslist_del_if_linked(&node[2]) &&
		       caslist_move_head(&L[1], &node[2]) == CASLIST_ENOENT &&
		       caslist_cut_front(&L[0], &node[2]) == NULL && !caslist_node_linked(&node[2]) &&
		       same(),
	       "a queued node is not linked for del_if_linked, move_head, cut, node_linked");
	tap_ok(caslist_touch(&L[1], &node[2]) == CASLIST_OK && same(),
	       "touch of a queued node reports it moved and changes nothing");
	tap_ok(caslist_batch_move_head(&other, &L[1], &node[4]) == CASLIST_OK && other.n == 0 &&
		       same(),
	       "another batch reports a queued node queued and does not take it");
	caslist_batch_flush(&b);
	mflush();
	tap_ok(same() && model[0][0] == 4 && model[0][1] == 2 && model[0][2] == 1,
	       "flush: the queued nodes at the head, newest first");
	caslist_batch_flush(&b);
	tap_ok(same(), "flush of an empty batch changes nothing");
	/* a walk parked on a node that gets queued restarts */
	cur = &L[0].head;
	caslist_iter_next(&L[0], &cur);	/* on node 4 */
	mq(&b, 1, 4);
	tap_ok(caslist_iter_next(&L[0], &cur) == CASLIST_EAGAIN && same(),
	       "a walk whose node was queued returns EAGAIN");
	caslist_batch_flush(&b);
	mflush();
	/* a full batch flushes itself */
	for (int i = 8; i < 8 + CASLIST_BATCH_MAX; i++) {
		caslist_add_tail(&L[1], &node[i]);
		mins(1, mlen[1], i);
	}
	for (int i = 8; i < 8 + CASLIST_BATCH_MAX && ok; i++)
		ok = mq(&b, 0, i);
	tap_ok(ok && b.n == 0 && same(), "the %d-th queued node flushes the batch",
	       CASLIST_BATCH_MAX);
	/* many at once: as the single calls, across a self-flush */
	{
		int ids[CASLIST_BATCH_MAX + 5];

		for (int i = 0; i < CASLIST_BATCH_MAX + 5; i++)
			ids[i] = 8 + (i * 7) % (CASLIST_BATCH_MAX + 5);
		ok = mq_n(&b, 1, ids, CASLIST_BATCH_MAX + 5);
		caslist_batch_flush(&b);
		mflush();
		tap_ok(ok && b.n == 0 && same(),
		       "batch_move_head_n of %d nodes: one self-flush, then the rest",
		       CASLIST_BATCH_MAX + 5);
	}
	/* a one-node batch */
	mq(&b, 1, 0);
	caslist_batch_flush(&b);
	mflush();
	tap_ok(same() && model[1][0] == 0, "a batch of one node");
	/* a batch ends by cancel: its nodes become the caller's (OWNED) */
	{
		struct caslist_node *out[CASLIST_BATCH_MAX];
		size_t got;

		tap_ok(mq(&b, 0, 3) && mq(&b, 0, 5) && same(), "queue two nodes");
		tap_ok(caslist_batch_move_head(&b, &L[0], &node[3]) == CASLIST_BATCH_QUEUED &&
			       b.n == 2 && same(),
		       "queueing a node again in the same batch: CASLIST_BATCH_QUEUED, nothing done");
		got = caslist_batch_cancel(&b, out);
		ok = got == 2 && out[0] == &node[3] && out[1] == &node[5] && b.n == 0;
		for (int i = 0; i < qn; i++) {
			where[q[i]] = -1;
			owned[q[i]] = 1;
		}
		qn = 0;
		tap_ok(ok && same(), "cancel returns the queued nodes in order and empties the batch");
		tap_ok(caslist_touch(&L[1], &node[3]) == CASLIST_TOUCH_GONE &&
			       caslist_move_head(&L[1], &node[5]) == CASLIST_ENOENT &&
			       !caslist_del_if_linked(&node[5]) && same(),
		       "a cancelled node is OWNED: touch adds nothing, removers see it unlinked");
		caslist_add_head(&L[1], &node[3]);
		mins(1, 0, 3);
		caslist_node_init(&node[5]);
		owned[5] = 0;
		tap_ok(caslist_touch(&L[1], &node[5]) == CASLIST_TOUCH_ADDED && (mins(1, 0, 5), same()),
		       "its owner may add it, or re-initialise it for a touch to add");
		tap_ok(caslist_batch_cancel(&b, NULL) == 0, "cancel of an empty batch");
	}

	/* ---- random: batch ops among list ops, the model after each ---- */
	reset();
	caslist_batch_init(&b);
	ok = 1;
	for (long s = 0; s < steps && ok; s++) {
		unsigned r = (unsigned)(splitmix64(&seed) % 100);
		int id = (int)(splitmix64(&seed) % MAXN), l = (int)(splitmix64(&seed) % 2);

		if (r < 35) {
			if (qn > 0 && ql != l) {
				caslist_batch_flush(&b);
				mflush();
			}
			ok = mq(&b, l, id);
		} else if (r < 40) {
			int ids[6], k = 0;

			if (qn > 0 && ql != l) {
				caslist_batch_flush(&b);
				mflush();
			}
			for (int t = 0; t < 6; t++) {	/* distinct, not queued in b */
				int x = (int)(splitmix64(&seed) % MAXN), j;

				for (j = 0; j < k && ids[j] != x; j++)
					;
				if (j == k && where[x] != 2)
					ids[k++] = x;
			}
			ok = mq_n(&b, l, ids, k);
		} else if (r < 45) {
			caslist_batch_flush(&b);
			mflush();
		} else if (r < 70) {
			if (where[id] == -1) {
				if (r & 1) {	/* the owner adds it: no re-init needed */
					caslist_node_init(&node[id]);
					owned[id] = 0;
				}
				caslist_add_tail(&L[l], &node[id]);
				mins(l, mlen[l], id);
			}
		} else if (r < 85) {
			int was = where[id];

			ok = caslist_del_if_linked(&node[id]) == (was == 0 || was == 1);
			if (was == 0 || was == 1)
				mdel(id);
		} else {
			int was = where[id], rc = caslist_touch(&L[l], &node[id]);

			if (was == 2) {
				ok = rc == CASLIST_OK;
			} else if (was == -1 && owned[id]) {
				ok = rc == CASLIST_TOUCH_GONE;	/* adds nothing */
			} else {
				ok = rc == (was == -1 ? CASLIST_TOUCH_ADDED : CASLIST_OK);
				if (was != -1)
					mdel(id);
				mins(l, 0, id);
			}
		}
		ok = ok && same();
		if (!ok)
			printf("# step %ld (r=%u id=%d l=%d) differs from the model\n", s, r, id, l);
	}
	caslist_batch_flush(&b);
	mflush();
	tap_ok(ok && same(), "%ld random steps (seed %llu) match the model", steps,
	       (unsigned long long)(argc > 1 ? strtoull(argv[1], NULL, 0) : 1));
	return tap_done();
}
