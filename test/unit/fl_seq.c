/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/unit/fl_seq.c - the cluster free list against a reference model: a
 * sequence of clusters, each a sequence of node ids.  Edge cases, then a
 * seeded random sequence; after every step the list must hold exactly the
 * model's nodes in order, cluster boundaries where the model has them
 * (consecutive nodes share a descriptor iff they share a model cluster),
 * and caslist_fl_check must pass (counts, tails, no descriptor leaked).
 * Usage: fl_seq [seed] [steps]
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <caslist/caslist.h>

#include "../tap.h"
#include "../util.h"

#define MAXN 96
#define BATCH 4

struct item {
	struct caslist_fl_node fl;
	int id;
};

static struct caslist_fl FL;
static struct item items[MAXN];
/* model: clusters in list order */
static int mc[MAXN][MAXN], mclen[MAXN], nmc;
static int where[MAXN]; /* 1 = free (in model), 0 = owned */

static struct caslist_fl_node *fn(int id)
{
	return &items[id].fl;
}

static int id_of(struct caslist_fl_node *x)
{
	return caslist_entry(x, struct item, fl)->id;
}

static int same(void)
{
	struct caslist_node *cur = &FL.list.head;
	struct caslist_cluster *prevc = NULL;
	size_t nodes, clusters, total = 0;
	int ci = 0, ni = 0, rc;

	if (caslist_fl_check(&FL, &nodes, &clusters) != 0 || clusters != (size_t)nmc)
		return 0;
	while ((rc = caslist_iter_next(&FL.list, &cur)) == 1) {
		struct caslist_fl_node *x = caslist_entry(cur, struct caslist_fl_node, link);
		struct caslist_cluster *c = atomic_load(&x->cluster);

		if (ni == mclen[ci]) {
			ci++;
			ni = 0;
			if (c == prevc)	/* model boundary, list has none */
				return 0;
		} else if (ni > 0 && c != prevc) {
			return 0;	/* list boundary, model has none */
		}
		if (ci >= nmc || mc[ci][ni] != id_of(x) ||
		    caslist_fl_node_state(&FL, x) != CASLIST_FL_FREE)
			return 0;
		prevc = c;
		ni++;
		total++;
	}
	return rc == 0 && total == nodes && (nmc == 0 || (ci == nmc - 1 && ni == mclen[ci]));
}

static void reset(void)
{
	caslist_fl_init(&FL, BATCH);
	for (int i = 0; i < MAXN; i++) {
		items[i].id = i;
		caslist_fl_node_init(fn(i));
		where[i] = 0;
	}
	nmc = 0;
}

static void m_put(int id)
{
	if (nmc > 0 && mclen[nmc - 1] < BATCH)
		mc[nmc - 1][mclen[nmc - 1]++] = id;
	else
		mc[nmc][0] = id, mclen[nmc++] = 1;
	where[id] = 1;
}

static void m_put_batch(const int *ids, int n)
{
	memcpy(mc[nmc], ids, (size_t)n * sizeof(int));
	mclen[nmc++] = n;
	for (int i = 0; i < n; i++)
		where[ids[i]] = 1;
}

static void m_remove(int id)
{
	for (int c = 0; c < nmc; c++)
		for (int i = 0; i < mclen[c]; i++)
			if (mc[c][i] == id) {
				memmove(&mc[c][i], &mc[c][i + 1], (size_t)(mclen[c] - i - 1) * sizeof(int));
				if (--mclen[c] == 0) {
					memmove(&mc[c], &mc[c + 1], (size_t)(nmc - c - 1) * sizeof(mc[0]));
					memmove(&mclen[c], &mclen[c + 1], (size_t)(nmc - c - 1) * sizeof(int));
					nmc--;
				}
				where[id] = 0;
				return;
			}
}

/* take(want) in the model and in the list; do the results agree? */
static int take_matches(size_t want)
{
	struct caslist_fl_batch b;
	int expect[MAXN], ne = 0, ok;
	size_t n;
	struct caslist_fl_node *x;

	while (nmc > 0 && (size_t)ne < want) {
		memcpy(&expect[ne], mc[0], (size_t)mclen[0] * sizeof(int));
		ne += mclen[0];
		memmove(&mc[0], &mc[1], (size_t)(nmc - 1) * sizeof(mc[0]));
		memmove(&mclen[0], &mclen[1], (size_t)(nmc - 1) * sizeof(int));
		nmc--;
	}
	n = caslist_fl_take(&FL, want, &b);
	ok = n == (size_t)ne && b.n == n;
	for (int i = 0; i < ne; i++) {
		x = caslist_fl_batch_next(&b);
		ok = ok && x != NULL && id_of(x) == expect[i] &&
		     caslist_fl_node_state(&FL, x) == CASLIST_FL_NOT_FREE &&
		     !caslist_node_linked(&x->link);
		/* the ones not walked yet are still TAKEN (unless eager) */
		if (i + 1 < ne && !b.eager)
			ok = ok && caslist_fl_node_state(&FL, fn(expect[i + 1])) == CASLIST_FL_TAKEN;
		where[expect[i]] = 0;
	}
	return ok && caslist_fl_batch_next(&b) == NULL;
}

static void put_chain(const int *ids, int n)
{
	for (int i = 0; i + 1 < n; i++)
		caslist_chain_link(&fn(ids[i])->link, &fn(ids[i + 1])->link);
	caslist_fl_put_batch(&FL, fn(ids[0]), fn(ids[n - 1]), (size_t)n);
	m_put_batch(ids, n);
}

static void edges(void)
{
	struct caslist_fl_batch b;
	struct caslist_fl_cache cache = { 0 };
	int ids[8];

	reset();
	tap_ok(same(), "empty free list");
	tap_ok(caslist_fl_take(&FL, 5, &b) == 0 && caslist_fl_batch_next(&b) == NULL,
	       "take from empty -> 0");
	tap_ok(caslist_fl_remove(&FL, fn(0)) == CASLIST_ENOENT, "remove of a node never put -> ENOENT");
	for (int i = 0; i < 6; i++)
		caslist_fl_put(&FL, fn(i)), m_put(i);
	tap_ok(same(), "6 single puts with batch 4 -> clusters [0..3] [4 5]");
	tap_ok(take_matches(1), "take(1) takes the whole front cluster (4 nodes: never split)");
	tap_ok(same(), "after take: one cluster [4 5]");
	for (int i = 0; i < 5; i++)
		ids[i] = 10 + i;
	put_chain(ids, 5);
	tap_ok(same(), "put_batch of 5 is one cluster, even above batch");
	caslist_fl_put(&FL, fn(20)), m_put(20);
	tap_ok(same(), "a single put after a full cluster starts a new one");
	tap_ok(caslist_fl_remove(&FL, fn(12)) == CASLIST_OK && (m_remove(12), same()),
	       "remove from the middle of a cluster");
	tap_ok(caslist_fl_remove(&FL, fn(14)) == CASLIST_OK && (m_remove(14), same()),
	       "remove the tail of a cluster: tail moves back");
	tap_ok(caslist_fl_remove(&FL, fn(10)) == CASLIST_OK && (m_remove(10), same()),
	       "remove the head of a cluster");
	tap_ok(caslist_fl_remove(&FL, fn(20)) == CASLIST_OK && (m_remove(20), same()),
	       "remove the only node of a cluster: cluster retired");
	tap_ok(caslist_fl_remove(&FL, fn(20)) == CASLIST_ENOENT, "second remove -> ENOENT");
	caslist_fl_put(&FL, fn(21)), m_put(21);
	tap_ok(same(), "single put joins the tail cluster when it has room");
	tap_ok(take_matches(3), "take(3) takes two clusters [4 5] [11 13 21]");
	tap_ok(same() && caslist_empty(&FL.list), "now empty");
	{	/* the builder: one cluster, as put_batch; an empty one leaks nothing */
		static const int bids[] = { 40, 41, 42, 43, 44 };
		struct caslist_fl_builder bd;
		size_t nodes = 0, clusters = 0;

		caslist_fl_build_begin(&FL, &bd);
		for (int i = 0; i < 5; i++)
			caslist_fl_build_add(&bd, fn(bids[i]));
		caslist_fl_build_put(&bd);
		m_put_batch(bids, 5);
		caslist_fl_build_begin(&FL, &bd);
		caslist_fl_build_put(&bd);
		tap_ok(same() && caslist_fl_check(&FL, &nodes, &clusters) == 0 && nodes == 5 &&
			       clusters == 1,
		       "fl_build_* of 5 nodes is one cluster; an empty build returns its descriptor");
		tap_ok(take_matches(1), "take(1) takes the built cluster whole");
	}

	/* take leaves nodes TAKEN until walked; remove cannot steal them */
	for (int i = 30; i < 33; i++)
		caslist_fl_put(&FL, fn(i)), m_put(i);
	{
		size_t n = caslist_fl_take(&FL, 1, &b);

		tap_ok(n == 3 && caslist_fl_node_state(&FL, fn(31)) == CASLIST_FL_TAKEN &&
			       caslist_fl_remove(&FL, fn(31)) == CASLIST_ENOENT,
		       "taken, not yet walked: TAKEN, and remove -> ENOENT");
		while (caslist_fl_batch_next(&b) != NULL)
			;
		nmc = 0;
		for (int i = 30; i < 33; i++)
			where[i] = 0;
	}
	tap_ok(same(), "batch walked: descriptors back in the pool");

	/* scan window: takes fix up before returning */
	for (int i = 40; i < 44; i++)
		caslist_fl_put(&FL, fn(i)), m_put(i);
	caslist_fl_scan_begin(&FL);
	{
		size_t n = caslist_fl_take(&FL, 1, &b);

		tap_ok(n == 4 && b.eager && caslist_fl_node_state(&FL, fn(42)) == CASLIST_FL_NOT_FREE,
		       "take inside a scan window: no node left TAKEN");
		while (caslist_fl_batch_next(&b) != NULL)
			;
		nmc = 0;
		for (int i = 40; i < 44; i++)
			where[i] = 0;
	}
	caslist_fl_scan_end(&FL);
	tap_ok(same(), "after the window");

	/* put cache: one cluster per batch */
	for (int i = 50; i < 55; i++)
		caslist_fl_cache_put(&FL, &cache, fn(i));
	ids[0] = 50, ids[1] = 51, ids[2] = 52, ids[3] = 53;
	m_put_batch(ids, 4);
	tap_ok(same() && cache.n == 1, "cache flushes itself as one cluster at batch nodes");
	caslist_fl_cache_flush(&FL, &cache);
	ids[0] = 54;
	m_put_batch(ids, 1);
	tap_ok(same(), "cache flush: the rest as one cluster");
	tap_ok(caslist_fl_remove(&FL, fn(52)) == CASLIST_OK && (m_remove(52), same()),
	       "remove from a cached-then-flushed cluster");
	caslist_fl_destroy(&FL);
}

static uint64_t rng;
static uint64_t next_rand(void)
{
	return splitmix64(&rng);
}

static void random_ops(uint64_t seed, int steps)
{
	int bad = -1;

	reset();
	rng = seed;
	for (int step = 0; step < steps && bad < 0; step++) {
		int op = (int)(next_rand() % 6), id = (int)(next_rand() % MAXN);

		switch (op) {
		case 0:
		case 1:
			if (!where[id])
				caslist_fl_put(&FL, fn(id)), m_put(id);
			break;
		case 2: {
			int ids[8], k = 0, want = 1 + (int)(next_rand() % 7);

			for (int i = 0; i < MAXN && k < want; i++)
				if (!where[(id + i) % MAXN])
					ids[k++] = (id + i) % MAXN;
			if (k > 0)
				put_chain(ids, k);
			break;
		}
		case 3:
			if (!take_matches(1 + next_rand() % 12))
				bad = step;
			break;
		case 4:
		case 5:
			if (caslist_fl_remove(&FL, fn(id)) != (where[id] ? CASLIST_OK : CASLIST_ENOENT))
				bad = step;
			if (where[id])
				m_remove(id);
			break;
		}
		if (bad < 0 && !same())
			bad = step;
	}
	tap_ok(bad < 0, "random free-list sequence seed=%llu steps=%d matches the model",
	       (unsigned long long)seed, steps);
	if (bad >= 0)
		printf("# first mismatch at step %d\n", bad);
	caslist_fl_destroy(&FL);
}

int main(int argc, char **argv)
{
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 7;
	int steps = argc > 2 ? atoi(argv[2]) : 20000;

	edges();
	random_ops(seed, steps);
	random_ops(seed + 1, steps);
	return tap_done();
}
