/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/fuzz/fuzz_list.c - the API against a reference model, op by op.
 *
 * Bytes decode into a sequence of operations on three lists and one
 * cluster free list (and its put cache).  A reference model (arrays:
 * list order, cluster runs) does the same operation; after every step
 * each list must equal its model in order (walked with caslist_iter_next
 * and caslist_check), every node's linked state must match, and the free
 * list must match cluster by cluster (walk, caslist_fl_check counts,
 * caslist_fl_node_state).  Any difference aborts (a crash for libFuzzer).
 * The core is compiled in with CASLIST_DEBUG=1, so the misuse checks
 * (next->prev != self under every lock) are assertions too; the decoder
 * only issues valid calls.
 *
 * Two builds:
 *  - libFuzzer (`make fuzz`, test/fuzz/fuzz.mk): clang
 *    -fsanitize=fuzzer,address,undefined -DCASLIST_LIBFUZZER.
 *  - test/fuzz/fuzz_replay (make check, every configuration, so also
 *    under TSan and ASan+UBSan): its main() runs the files named on the
 *    command line (the seed corpus), then CASLIST_FUZZ_RANDOM (default
 *    20000; replay.sh uses 2000 under a sanitizer) seeded random inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <caslist/caslist.h>

#define NL 3			/* lists */
#define NN 12			/* list nodes */
#define NF 12			/* free-list nodes */
#define FL_BATCH 3
#define MAX_STEPS 400

#define FAIL(...)                                                              \
	do {                                                                   \
		fprintf(stderr, "fuzz_list: step %d: ", step);                 \
		fprintf(stderr, __VA_ARGS__);                                  \
		fputc('\n', stderr);                                           \
		abort();                                                       \
	} while (0)
#define REQUIRE(cond, ...)                                                     \
	do {                                                                   \
		if (!(cond))                                                   \
			FAIL(__VA_ARGS__);                                     \
	} while (0)

static int step;
#define NOPS 20			/* 13 list ops, 7 free-list ops */
static unsigned long long op_count[NOPS];	/* per decoded op, for the replay summary */

/* ---- lists and their model ---- */

static struct caslist_list L[NL];
static struct caslist_node node[NN];
static int seq[NL][NN], len[NL];	/* model: node indices in order */
static int where[NN];			/* list index, or -1: not linked */
static bool fresh[NN];			/* not linked and FRESH (else OWNED) */

/* ---- the free list and its model ---- */

struct fnode {
	struct caslist_fl_node fl;
};

static struct caslist_fl fl;
static struct caslist_fl_cache cache;
static struct fnode fnode[NF];
/* model: clusters front to back, each a run of node indices */
static int cl[NF][NF], cl_len[NF], ncl;
static int fstate[NF];			/* 0 owned, 1 free, 2 in the cache */
static int cache_seq[NF], cache_len;

/* ---- input ---- */

static const uint8_t *in;
static size_t in_left;

static unsigned byte(void)
{
	if (in_left == 0)
		return 0;
	in_left--;
	return *in++;
}

static int idx_of(const struct caslist_node *n)
{
	for (int i = 0; i < NN; i++)
		if (n == &node[i])
			return i;
	return -1;
}

static int fidx_of(const struct caslist_fl_node *x)
{
	for (int i = 0; i < NF; i++)
		if (x == &fnode[i].fl)
			return i;
	return -1;
}

/* The first node from b (mod NN) whose linked state is `linked`, or -1. */
static int pick(unsigned b, int linked)
{
	for (int k = 0; k < NN; k++) {
		int i = (int)((b + (unsigned)k) % NN);

		if ((where[i] >= 0) == linked)
			return i;
	}
	return -1;
}

static int fpick(unsigned b, int state)
{
	for (int k = 0; k < NF; k++) {
		int i = (int)((b + (unsigned)k) % NF);

		if (fstate[i] == state)
			return i;
	}
	return -1;
}

static int pos_in(int l, int n)
{
	for (int k = 0; k < len[l]; k++)
		if (seq[l][k] == n)
			return k;
	return -1;
}

static void m_insert(int l, int at, int n)
{
	memmove(&seq[l][at + 1], &seq[l][at], (size_t)(len[l] - at) * sizeof(int));
	seq[l][at] = n;
	len[l]++;
	where[n] = l;
	fresh[n] = false;
}

/* caslist_node_init of node n: FRESH (a touch adds it). */
static void m_fresh(int n)
{
	caslist_node_init(&node[n]);
	fresh[n] = true;
}

static void m_remove(int n)
{
	int l = where[n], k = pos_in(l, n);

	memmove(&seq[l][k], &seq[l][k + 1], (size_t)(len[l] - k - 1) * sizeof(int));
	len[l]--;
	where[n] = -1;
	fresh[n] = false;	/* OWNED by the remover */
}

/* ---- the comparison after each step ---- */

static void check_lists(void)
{
	for (int l = 0; l < NL; l++) {
		struct caslist_node *cur = &L[l].head;
		size_t count;
		int rc, k = 0;

		rc = caslist_check(&L[l], NN + 1, &count);
		REQUIRE(rc == 0, "list %d: caslist_check: %s", l, caslist_check_strerror(rc));
		REQUIRE((int)count == len[l], "list %d: %zu nodes, model %d", l, count, len[l]);
		while ((rc = caslist_iter_next(&L[l], &cur)) == 1) {
			REQUIRE(k < len[l] && cur == &node[seq[l][k]],
				"list %d: position %d is node %d, model %d", l, k, idx_of(cur),
				k < len[l] ? seq[l][k] : -1);
			k++;
		}
		REQUIRE(rc == 0 && k == len[l], "list %d: walk ended with %d after %d", l, rc, k);
		REQUIRE(caslist_empty(&L[l]) == (len[l] == 0), "list %d: empty", l);
	}
	for (int i = 0; i < NN; i++)
		REQUIRE(caslist_node_linked(&node[i]) == (where[i] >= 0), "node %d: linked", i);
}

static void check_fl(void)
{
	struct caslist_node *cur = &fl.list.head;
	size_t nodes, clusters;
	int rc = caslist_fl_check(&fl, &nodes, &clusters), total = 0, c = 0, k = 0;

	REQUIRE(rc == 0, "free list: %s", caslist_fl_check_strerror(rc));
	for (int i = 0; i < ncl; i++)
		total += cl_len[i];
	REQUIRE((int)nodes == total && (int)clusters == ncl,
		"free list: %zu nodes in %zu clusters, model %d in %d", nodes, clusters, total, ncl);
	while (caslist_iter_next(&fl.list, &cur) == 1) {
		int x = fidx_of(caslist_entry(cur, struct caslist_fl_node, link));

		if (k == cl_len[c]) {
			c++;
			k = 0;
		}
		REQUIRE(c < ncl && cl[c][k] == x, "free list: cluster %d position %d is %d", c, k, x);
		k++;
	}
	for (int i = 0; i < NF; i++) {
		int st = caslist_fl_node_state(&fl, &fnode[i].fl);

		REQUIRE(st == (fstate[i] == 1 ? CASLIST_FL_FREE : CASLIST_FL_NOT_FREE),
			"free node %d: state %d, model %d", i, st, fstate[i]);
	}
}

/* ---- list operations ---- */

/* Build a private chain of up to k unlinked nodes; returns its length. */
static int make_chain(unsigned b, int k, int *ids)
{
	int n = 0;

	for (int i = 0; i < NN && n < k; i++) {
		int x = (int)((b + (unsigned)i) % NN);

		if (where[x] < 0) {
			m_fresh(x);
			if (n > 0)
				caslist_chain_link(&node[ids[n - 1]], &node[x]);
			ids[n++] = x;
		}
	}
	return n;
}

static void op_list(unsigned op)
{
	int l = (int)(byte() % NL), n, p, ids[NN], k;
	unsigned b = byte();
	struct caslist_node *r;

	switch (op) {
	case 0: /* add_head */
	case 1: /* add_tail */
		if ((n = pick(b, 0)) < 0)
			return;
		m_fresh(n);
		if (op == 0)
			caslist_add_head(&L[l], &node[n]);
		else
			caslist_add_tail(&L[l], &node[n]);
		m_insert(l, op == 0 ? 0 : len[l], n);
		break;
	case 2: /* add_after a node (or the head when none is linked) */
	case 3: /* add_near a node or the head */
		if ((n = pick(b, 0)) < 0)
			return;
		p = byte() % 4 == 0 ? -1 : pick(byte(), 1);
		m_fresh(n);
		if (op == 2) {
			int rc = caslist_add_after(p < 0 ? &L[l].head : &node[p], &node[n]);

			REQUIRE(rc == CASLIST_OK, "add_after: %d", rc);
			if (p < 0)
				m_insert(l, 0, n);
			else
				m_insert(where[p], pos_in(where[p], p) + 1, n);
		} else {
			int rc = caslist_add_near(p < 0 ? &L[l].head : &node[p], &node[n]);
			int pl = p < 0 ? l : where[p], at = p < 0 ? -1 : pos_in(pl, p);

			REQUIRE(rc == CASLIST_NEAR_AFTER || rc == CASLIST_NEAR_BEFORE,
				"add_near: %d", rc);
			/* before the head = at the tail */
			if (rc == CASLIST_NEAR_AFTER)
				m_insert(pl, at + 1, n);
			else
				m_insert(pl, p < 0 ? len[pl] : at, n);
		}
		break;
	case 4: /* del of a linked node / del_if_linked of any node */
		if (b % 2) {
			if ((n = pick(byte(), 1)) < 0)
				return;
			REQUIRE(caslist_del(&node[n]) == CASLIST_OK, "del");
			m_remove(n);
		} else {
			n = (int)(byte() % NN);
			REQUIRE(caslist_del_if_linked(&node[n]) == (where[n] >= 0), "del_if_linked");
			if (where[n] >= 0)
				m_remove(n);
		}
		break;
	case 5: /* move_head of any node, from whichever list it is on */
		n = (int)(b % NN);
		REQUIRE(caslist_move_head(&L[l], &node[n]) ==
				(where[n] < 0 ? CASLIST_ENOENT : CASLIST_OK), "move_head");
		if (where[n] >= 0) {
			m_remove(n);
			m_insert(l, 0, n);
		}
		break;
	case 6: /* pop_head / pop_tail */
		r = b % 2 ? caslist_pop_head(&L[l]) : caslist_pop_tail(&L[l]);
		if (len[l] == 0) {
			REQUIRE(r == NULL, "pop of an empty list");
		} else {
			n = seq[l][b % 2 ? 0 : len[l] - 1];
			REQUIRE(r == &node[n], "pop: node %d, model %d", idx_of(r), n);
			m_remove(n);
		}
		break;
	case 7: /* splice_head / splice_tail of a private chain */
		k = make_chain(byte(), 1 + (int)(byte() % 4), ids);
		if (k == 0)
			return;
		if (b % 2)
			caslist_splice_head(&L[l], &node[ids[0]], &node[ids[k - 1]]);
		else
			caslist_splice_tail(&L[l], &node[ids[0]], &node[ids[k - 1]]);
		for (int i = 0; i < k; i++)
			m_insert(l, b % 2 ? i : len[l], ids[i]);
		break;
	case 8: { /* cut_front, then the chain is checked, dropped or spliced */
		int m = len[l] ? (int)(b % (unsigned)len[l]) : -1, to = (int)(byte() % (NL + 1));

		if (m < 0)
			return;
		k = m + 1;
		memcpy(ids, seq[l], (size_t)k * sizeof(int));
		r = caslist_cut_front(&L[l], &node[ids[m]]);
		REQUIRE(r == &node[ids[0]], "cut_front returned %d", idx_of(r));
		for (int i = 0; i < k; i++) {
			m_remove(ids[i]);
			REQUIRE(r == &node[ids[i]], "cut chain: position %d", i);
			r = caslist_chain_next(r);
		}
		REQUIRE(r == NULL, "cut chain does not end at last");
		/* the chain's end is OWNED: a touch of it adds nothing */
		REQUIRE(caslist_touch(&L[l], &node[ids[m]]) == CASLIST_TOUCH_GONE,
			"touch of a cut chain's last node");
		if (to == NL) {		/* drop: each node on its own again */
			for (int i = 0; i < k; i++)
				m_fresh(ids[i]);
		} else {		/* the chain as is, onto another list */
			caslist_splice_tail(&L[to], &node[ids[0]], &node[ids[k - 1]]);
			for (int i = 0; i < k; i++)
				m_insert(to, len[to], ids[i]);
		}
		break;
	}
	case 10: /* touch: move to the head if linked (any list), else add */
		n = (int)(b % NN);
		if (where[n] < 0 && !fresh[n]) {	/* OWNED: a touch adds nothing */
			REQUIRE(caslist_touch(&L[l], &node[n]) == CASLIST_TOUCH_GONE, "touch owned");
			break;
		} else if (where[n] < 0) {
			REQUIRE(caslist_touch(&L[l], &node[n]) == CASLIST_TOUCH_ADDED, "touch add");
		} else {
			REQUIRE(caslist_touch(&L[l], &node[n]) == CASLIST_OK, "touch move");
			m_remove(n);
		}
		m_insert(l, 0, n);
		break;
	case 11: { /* two threads' steps interleaved: a walk of list l stops
		    * on a node, another op runs (it may move that node to
		    * another list, remove or cut it), the walk goes on */
		struct caslist_node *cur = &L[l].head;
		int steps = (int)(b % 4), rc, c;

		for (int i = 0; i < steps && caslist_iter_next(&L[l], &cur) == 1; i++)
			;
		if (cur == &L[l].head)
			return;
		op_list(byte() % 11);
		c = idx_of(cur);
		rc = caslist_iter_next(&L[l], &cur);
		if (where[c] < 0) {
			REQUIRE(rc == CASLIST_EAGAIN, "walk from a removed node: %d", rc);
		} else if (pos_in(where[c], c) + 1 < len[where[c]]) {
			REQUIRE(rc == 1 && cur == &node[seq[where[c]][pos_in(where[c], c) + 1]],
				"walk: rc %d, node %d", rc, idx_of(cur));
		} else {	/* the last node of its list: the end, or another list's head */
			REQUIRE(rc == (where[c] == l ? 0 : CASLIST_EAGAIN),
				"walk off the end of list %d (walking %d): %d", where[c], l, rc);
		}
		break;
	}
	case 12: { /* a batch: queue up to 6 nodes (any list, linked or not) for
		    * list l, check they left their lists, flush: at l's head,
		    * newest first */
		struct caslist_batch bt;
		int q[6], nq = 0, cnt = 1 + (int)(b % 6);

		caslist_batch_init(&bt);
		if (b & 0x80) {	/* the same through caslist_batch_move_head_n */
			struct caslist_node *v[6] = { NULL };
			int bid[6], bk = 0, j;
			size_t want = 0, got;

			for (int i = 0; i < cnt; i++) {	/* distinct nodes */
				n = (int)(byte() % NN);
				for (j = 0; j < bk && bid[j] != n; j++)
					;
				if (j == bk) {
					bid[bk] = n;
					v[bk++] = &node[n];
				}
			}
			got = caslist_batch_move_head_n(&bt, &L[l], v, (size_t)bk);
			for (j = 0; j < bk; j++) {
				if (where[bid[j]] < 0)
					continue;
				m_remove(bid[j]);
				where[bid[j]] = -2;
				q[nq++] = bid[j];
				want++;
			}
			REQUIRE(got == want, "batch_move_head_n queued %zu, want %zu", got, want);
			cnt = 0;
		}
		for (int i = 0; i < cnt; i++) {
			n = (int)(byte() % NN);
			if (where[n] == -2) {	/* queued here already: nothing done */
				REQUIRE(caslist_batch_move_head(&bt, &L[l], &node[n]) ==
						CASLIST_BATCH_QUEUED, "batch of a node queued here");
				continue;
			}
			if (where[n] < 0) {
				REQUIRE(caslist_batch_move_head(&bt, &L[l], &node[n]) ==
						CASLIST_ENOENT, "batch of an unlinked node");
				continue;
			}
			REQUIRE(caslist_batch_move_head(&bt, &L[l], &node[n]) == CASLIST_OK,
				"batch_move_head");
			m_remove(n);
			where[n] = -2;
			q[nq++] = n;
		}
		check_lists();	/* queued nodes are on no list */
		if (b & 0x40) {	/* cancel: every queued node OWNED, in queueing order */
			struct caslist_node *out[CASLIST_BATCH_MAX];
			size_t got = caslist_batch_cancel(&bt, out);

			REQUIRE(got == (size_t)nq && bt.n == 0, "batch_cancel returned %zu of %d",
				got, nq);
			for (int i = 0; i < nq; i++) {
				REQUIRE(out[i] == &node[q[i]], "batch_cancel: node %d", i);
				where[q[i]] = -1;
				fresh[q[i]] = false;
			}
			break;
		}
		caslist_batch_flush(&bt);
		for (int i = 0; i < nq; i++) {
			where[q[i]] = -1;
			m_insert(l, 0, q[i]);
		}
		break;
	}
	case 9: { /* the exported lock-word primitives leave no trace */
		struct caslist_node *s, *x;

		if ((n = pick(b, 1)) < 0)
			return;
		s = caslist_link_lock(&node[n]);
		REQUIRE(!caslist_link_trylock(&node[n], &x), "trylock of a held link");
		caslist_link_unlock(&node[n], s);
		REQUIRE(caslist_link_trylock(&node[n], &x) && x == s, "trylock");
		caslist_link_unlock(&node[n], x);
		x = caslist_link_lock(&node[n]);
		p = idx_of(caslist_link_lock_prev(&node[n]));
		REQUIRE(p == (pos_in(where[n], n) == 0 ? -1 : seq[where[n]][pos_in(where[n], n) - 1]),
			"link_lock_prev: %d", p);
		caslist_link_unlock(p < 0 ? &L[where[n]].head : &node[p], &node[n]);
		caslist_link_unlock(&node[n], x);
		break;
	}
	}
}

/* ---- free-list operations ---- */

static void m_fl_new_cluster(const int *ids, int k)
{
	memcpy(cl[ncl], ids, (size_t)k * sizeof(int));
	cl_len[ncl++] = k;
	for (int i = 0; i < k; i++)
		fstate[ids[i]] = 1;
}

static void m_fl_take(size_t want, int *ids, int *k)
{
	*k = 0;
	while ((size_t)*k < want && ncl > 0) {
		memcpy(ids + *k, cl[0], (size_t)cl_len[0] * sizeof(int));
		*k += cl_len[0];
		for (int i = 0; i < cl_len[0]; i++)
			fstate[cl[0][i]] = 0;
		ncl--;
		memmove(cl[0], cl[1], sizeof(cl[0]) * (size_t)ncl);
		memmove(cl_len, cl_len + 1, sizeof(int) * (size_t)ncl);
	}
}

static void op_fl(unsigned op)
{
	unsigned b = byte();
	int x, ids[NF], k, got[NF], g;
	struct caslist_fl_batch batch;
	struct caslist_fl_node *y;

	switch (op) {
	case 0: /* put: joins the tail cluster while it is short of the batch */
		if ((x = fpick(b, 0)) < 0)
			return;
		caslist_fl_node_init(&fnode[x].fl);
		caslist_fl_put(&fl, &fnode[x].fl);
		if (ncl > 0 && cl_len[ncl - 1] < FL_BATCH) {
			cl[ncl - 1][cl_len[ncl - 1]++] = x;
			fstate[x] = 1;
		} else {
			m_fl_new_cluster(&x, 1);
		}
		break;
	case 1: /* put_batch of a private chain: one new cluster */
		k = 0;
		for (int i = 0; i < NF && k < 1 + (int)(byte() % 5); i++) {
			int z = (int)((b + (unsigned)i) % NF);

			if (fstate[z] == 0) {
				caslist_fl_node_init(&fnode[z].fl);
				if (k > 0)
					caslist_chain_link(&fnode[ids[k - 1]].fl.link, &fnode[z].fl.link);
				ids[k++] = z;
			}
		}
		if (k == 0)
			return;
		caslist_fl_put_batch(&fl, &fnode[ids[0]].fl, &fnode[ids[k - 1]].fl, (size_t)k);
		m_fl_new_cluster(ids, k);
		break;
	case 2: /* take, optionally inside a scan window (the eager path) */
	case 3: {
		size_t want = b % 8, n;

		if (op == 3)
			caslist_fl_scan_begin(&fl);
		n = caslist_fl_take(&fl, want, &batch);
		m_fl_take(want, ids, &k);
		REQUIRE((int)n == k, "take(%zu): %zu, model %d", want, n, k);
		for (g = 0; (y = caslist_fl_batch_next(&batch)) != NULL; g++) {
			REQUIRE(g < k, "take: batch longer than its count");
			got[g] = fidx_of(y);
			REQUIRE(got[g] == ids[g], "take: node %d is %d, model %d", g, got[g], ids[g]);
			REQUIRE(caslist_fl_node_state(&fl, y) == CASLIST_FL_NOT_FREE, "taken state");
		}
		REQUIRE(g == k, "take: walked %d of %d", g, k);
		if (op == 3)
			caslist_fl_scan_end(&fl);
		break;
	}
	case 4: { /* remove any node: OK only if free */
		int rc, c, at = -1;

		x = (int)(b % NF);
		rc = caslist_fl_remove(&fl, &fnode[x].fl);
		REQUIRE(rc == (fstate[x] == 1 ? CASLIST_OK : CASLIST_ENOENT), "remove: %d", rc);
		if (fstate[x] != 1)
			return;
		for (c = 0; c < ncl && at < 0; c++)
			for (int i = 0; i < cl_len[c]; i++)
				if (cl[c][i] == x) {
					at = i;
					break;
				}
		c--;
		memmove(&cl[c][at], &cl[c][at + 1], (size_t)(cl_len[c] - at - 1) * sizeof(int));
		if (--cl_len[c] == 0) {
			ncl--;
			memmove(cl[c], cl[c + 1], sizeof(cl[0]) * (size_t)(ncl - c));
			memmove(cl_len + c, cl_len + c + 1, sizeof(int) * (size_t)(ncl - c));
		}
		fstate[x] = 0;
		break;
	}
	case 5: /* the put cache: flushes itself at the batch size */
		if ((x = fpick(b, 0)) < 0)
			return;
		caslist_fl_node_init(&fnode[x].fl);
		caslist_fl_cache_put(&fl, &cache, &fnode[x].fl);
		fstate[x] = 2;
		cache_seq[cache_len++] = x;
		if (cache_len >= FL_BATCH) {
			m_fl_new_cluster(cache_seq, cache_len);
			cache_len = 0;
		}
		break;
	case 6:
		caslist_fl_cache_flush(&fl, &cache);
		if (cache_len > 0)
			m_fl_new_cluster(cache_seq, cache_len);
		cache_len = 0;
		break;
	}
}

/* ---- one input ---- */

static void reset(void)
{
	for (int l = 0; l < NL; l++) {
		caslist_init(&L[l]);
		len[l] = 0;
	}
	for (int i = 0; i < NN; i++) {
		m_fresh(i);
		where[i] = -1;
	}
	caslist_fl_init(&fl, FL_BATCH);
	memset(&cache, 0, sizeof(cache));
	for (int i = 0; i < NF; i++) {
		caslist_fl_node_init(&fnode[i].fl);
		fstate[i] = 0;
	}
	ncl = 0;
	cache_len = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	in = data;
	in_left = size;
	reset();
	for (step = 0; in_left > 0 && step < MAX_STEPS; step++) {
		unsigned op = byte() % NOPS;

		op_count[op]++;

		if (op < 13)
			op_list(op);
		else
			op_fl(op - 13);
		check_lists();
		check_fl();
	}
	caslist_fl_destroy(&fl);
	return 0;
}

#ifndef CASLIST_LIBFUZZER
/* The replay driver: corpus files, then seeded random inputs (TAP). */
static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
	const char *e = getenv("CASLIST_FUZZ_RANDOM");
	long nrand = e ? atol(e) : 20000;
	uint64_t seed = 1;
	static uint8_t buf[1 << 16];
	int files = 0;

	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		size_t n;

		if (f == NULL) {
			printf("not ok 1 - cannot open %s\n1..1\n", argv[i]);
			return 1;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		files++;
	}
	printf("ok 1 - %d corpus inputs match the reference model\n", files);
	for (long r = 0; r < nrand; r++) {
		size_t n = 16 + splitmix(&seed) % 1024;

		for (size_t i = 0; i < n; i++)
			buf[i] = (uint8_t)splitmix(&seed);
		LLVMFuzzerTestOneInput(buf, n);
	}
	printf("ok 2 - %ld random inputs (seed 1) match the reference model\n", nrand);
	printf("# ops decoded:");
	for (int i = 0; i < NOPS; i++)
		printf(" %llu", op_count[i]);
	printf("\n1..2\n");
	return 0;
}
#endif
