/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/check.c - quiescent structure checks (tier 3: a full walk): the
 * list's (caslist_check) and the free list's (caslist_fl_check, built on
 * the list's walk and the cluster descriptors).
 * The invariant it checks, for a list with no operation in flight:
 *   for every node x on the cycle head -> ... -> head:
 *     x->next has no lock bit, and x->next->prev == x, and x->next has
 *     bit 2 (the successor's kind) iff its successor is the head
 *   and the cycle closes within max_nodes steps.
 */
#include <caslist/static/cluster.h>
#include <caslist/static/list_ops.h>

/* The walk is caslist__check (static/list_ops.h), inline in a user's
 * build too.  A file that compiles this one in inline mode (the GenMC
 * clients, test/genmc/client.h) has caslist_check as that inline walk
 * already: only the library defines the wrapper. */
#if !defined(CASLIST_INLINE) || defined(CASLIST_BUILDING)
int caslist_check(const struct caslist_list *l, size_t max_nodes, size_t *count)
{
	return caslist__check(l, max_nodes, count);
}
#endif

const char *caslist_check_strerror(int code)
{
	switch (code) {
	case 0:
		return "ok";
	case CASLIST_LK_FAULT_LOCKED:
		return "a link is still locked";
	case CASLIST_LK_FAULT_BAD_PREV:
		return "next->prev != self";
	case CASLIST_LK_FAULT_UNLINKED:
		return "a node on the list is marked unlinked";
	case CASLIST_LK_FAULT_TOO_LONG:
		return "more than max_nodes nodes (cycle or lost head)";
	case CASLIST_LK_FAULT_BAD_KIND:
		return "a link's head bit (bit 2) disagrees with its successor";
	default:
		return "unknown";
	}
}

/* ---- the free list's audit (quiescent), on the list's walk ---- */

#define FL_CHECK_LIST (-1)
#define FL_CHECK_NOT_LIVE (-2)
#define FL_CHECK_SPLIT (-3)
#define FL_CHECK_COUNT (-4)
#define FL_CHECK_LEAK (-6)

/*
 * Walk the free list: every node in a LIVE cluster, each cluster one
 * contiguous run of exactly nr nodes ending at its tail, and live + spare
 * descriptors == allocated.  No memory and no mark in the descriptors:
 * a cluster split into several runs has at most one run that ends at its
 * tail, so the others fail the tail test (FL_CHECK_SPLIT); a run of the
 * right tail but the wrong length fails the count.
 */
int caslist_fl_check(struct caslist_fl *fl, size_t *nodes, size_t *clusters)
{
	struct caslist_node *cur = &fl->list.head;
	struct caslist_cluster *run = NULL;
	struct caslist_fl_node *prev = NULL;
	size_t n = 0, ncl = 0, len = 0, spare = 0;

	if (caslist_check(&fl->list, SIZE_MAX, NULL) != 0)
		return FL_CHECK_LIST;
	for (;;) {
		int step = caslist_iter_next(&fl->list, &cur);
		struct caslist_fl_node *x = step == 1 ? caslist_lk_fl_node_of(cur) : NULL;
		struct caslist_cluster *c = x ? caslist_lk_cluster_of(x) : NULL;

		if (run != NULL && c != run) {	/* a run ends */
			if (run->tail != prev)
				return FL_CHECK_SPLIT;
			if (len != run->nr)
				return FL_CHECK_COUNT;
		}
		if (x == NULL)
			break;
		if (c == NULL || c->state != CASLIST_LK_CL_LIVE)
			return FL_CHECK_NOT_LIVE;
		if (c != run) {
			run = c;
			len = 0;
			ncl++;
		}
		len++;
		n++;
		prev = x;
	}
	/* Relaxed: quiescent by contract. */
	if (caslist_check(&fl->spare, SIZE_MAX, &spare) != 0 ||
	    ncl + spare != atomic_load_explicit(&fl->ndesc, memory_order_relaxed))
		return FL_CHECK_LEAK;
	if (nodes)
		*nodes = n;
	if (clusters)
		*clusters = ncl;
	return 0;
}

const char *caslist_fl_check_strerror(int code)
{
	switch (code) {
	case 0:
		return "ok";
	case FL_CHECK_LIST:
		return "the underlying list is broken (caslist_check)";
	case FL_CHECK_NOT_LIVE:
		return "a node on the list is not in a live cluster";
	case FL_CHECK_SPLIT:
		return "a cluster's run does not end at its tail (split, or a wrong tail)";
	case FL_CHECK_COUNT:
		return "a cluster's count differs from its run length";
	case FL_CHECK_LEAK:
		return "descriptors leaked (live + spare != allocated)";
	default:
		return "unknown";
	}
}
