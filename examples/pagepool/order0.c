/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/order0.c - the order-0 refill and return paths, one
 * per mode.  This file is the whole difference between the modes:
 *
 *   mode         refill (cache empty)            return (cache over high)
 *   base         pop pages one by one from the   merge each page with its
 *                buddy areas, zone lock held     buddy, zone lock held
 *   nomerge      pop pages one by one from the   add each page to the skip
 *                skip list, zone lock held       list unmerged, zone lock held
 *   cluster      cut whole clusters (O(1) each)  put each page (joins the tail
 *                under the zone lock; fix-up     cluster), zone lock held
 *                after it is dropped
 *   clusterfree  as cluster                      the batch as ONE cluster,
 *                                                zone lock held
 *   caslist      cut clusters, no zone lock      one cluster, no zone lock
 *
 * When the order-0 list is empty, skip modes split a buddy block of up to
 * 64 pages under the zone lock (the only order-0 work that still takes it).
 */
#include "internal.h"

static inline struct pp_page *page_of_fl(struct caslist_fl_node *n)
{
	return caslist_entry(n, struct pp_page, fl);
}

/*
 * Per-pageblock skip accounting.  Pages of one batch mostly come from few
 * pageblocks, so the counts are gathered per run of pages of one pageblock
 * and added with one atomic per run.  A run that completes a pageblock
 * (512 skipped pages) is remembered; the caller merges it once it holds no
 * lock, if the zone is short of order >= 9 blocks.
 */
#define ACCT_FULL_MAX 8
struct pb_acct {
	size_t pb;
	long n;
	unsigned nfull;
	size_t full[ACCT_FULL_MAX];
};

static void acct_flush(struct pp_zone *z, struct pb_acct *a)
{
	if (a->n > 0) {
		/* relaxed: a count, exact at quiescence; the merge it may
		 * trigger decides page by page with the order-0 list's remove. */
		unsigned old = atomic_fetch_add_explicit(&z->pb_skip[a->pb].n, (uint16_t)a->n,
							 memory_order_relaxed);

		if (old + (unsigned long)a->n == PP_PAGEBLOCK && a->nfull < ACCT_FULL_MAX)
			a->full[a->nfull++] = a->pb;
	} else if (a->n < 0) {
		/* relaxed: as above. */
		atomic_fetch_sub_explicit(&z->pb_skip[a->pb].n, (uint16_t)-a->n,
					  memory_order_relaxed);
	}
	a->n = 0;
}

static void acct(struct pp_zone *z, struct pb_acct *a, const struct pp_page *p, long d)
{
	size_t pb = pp_pfn(z, p) >> PP_PAGEBLOCK_ORDER;

	if (a->n && pb != a->pb)
		acct_flush(z, a);
	a->pb = pb;
	a->n += d;
}

/* No lock held: merge the pageblocks this batch filled, while the zone has
 * fewer than merge_wmark pages in free blocks of order >= 9 (the relaxed
 * read is a hint: the merge itself runs under the zone lock). */
static void acct_merge(struct pp_cpu *c, struct pb_acct *a)
{
	struct pp_zone *z = c->z;

	acct_flush(z, a);
	for (unsigned i = 0; i < a->nfull; i++) {
		if (atomic_load_explicit(&z->high_free, memory_order_relaxed) >= z->merge_wmark)
			break;
		zone_lock(c);
		c->st.merged_pages += pb_merge_locked(z, a->full[i]);
		zone_unlock(c);
		c->st.pb_merges++;
	}
	a->nfull = 0;
}

static void o0_add_locked(struct pp_zone *z, struct pp_page *p);

/* Skip modes: split a block of up to 2^PP_SPLIT_ORDER pages into the cache. */
static size_t refill_split_locked(struct pp_cpu *c)
{
	for (int j = PP_SPLIT_ORDER; j >= 1; j--) {
		struct pp_page *p = buddy_take(c->z, (unsigned)j);

		if (!p)
			continue;
		for (size_t i = 0; i < ((size_t)1 << j); i++)
			cache_push(c, &p[i]);
		return (size_t)1 << j;
	}
	return 0;
}

size_t o0_refill(struct pp_cpu *c, size_t want)
{
	struct pp_zone *z = c->z;
	struct caslist_fl_batch b;
	struct caslist_fl_node *n;
	struct pb_acct a = { 0 };
	size_t got = 0;

	c->st.refills++;
	switch (z->mode) {
	case PP_BASE:
		zone_lock(c);
		for (; got < want; got++) {
			struct pp_page *p = buddy_take(z, 0);

			if (!p)
				break;
			cache_push(c, p);
		}
		zone_unlock(c);
		return got;
	case PP_NOMERGE:
		zone_lock(c);
		for (struct pp_page *p; got < want && (p = area_pop(&z->skip0)); got++) {
			acct(z, &a, p, -1);
			cache_push(c, p);
		}
		acct_flush(z, &a);
		if (got == 0)
			got = refill_split_locked(c);
		zone_unlock(c);
		return got;
	case PP_CLUSTER:
	case PP_CLUSTERFREE:
		zone_lock(c);
		got = caslist_fl_take(&z->fl0, want, &b);
		if (got == 0) {
			size_t split = refill_split_locked(c);

			zone_unlock(c);
			return split;
		}
		zone_unlock(c);
		break;
	case PP_CASLIST:
	default:
		got = caslist_fl_take(&z->fl0, want, &b);
		if (got == 0) {
			zone_lock(c);
			got = refill_split_locked(c);
			zone_unlock(c);
			return got;
		}
		break;
	}
	/* Cluster modes: the per-page fix-up, outside the zone lock.  Each
	 * page is ours once batch_next returns it. */
	while ((n = caslist_fl_batch_next(&b)) != NULL) {
		struct pp_page *p = page_of_fl(n);

		acct(z, &a, p, -1);
		cache_push(c, p);
	}
	acct_flush(z, &a);
	return got;
}

static struct pp_page *cache_pop(struct pp_cpu *c)
{
	struct pp_page *p = c->list;

	c->list = p->next;
	c->count--;
	return p;
}

void o0_return(struct pp_cpu *c, size_t n)
{
	struct pp_zone *z = c->z;
	struct pp_page *first = NULL, *last = NULL;
	struct pb_acct a = { 0 };

	if (n > c->count)
		n = c->count;
	if (n == 0)
		return;
	c->st.returns++;
	switch (z->mode) {
	case PP_BASE:
		zone_lock(c);
		for (size_t i = 0; i < n; i++)
			buddy_free(z, pp_pfn(z, cache_pop(c)), 0);
		zone_unlock(c);
		return;
	case PP_NOMERGE:
	case PP_CLUSTER:
		zone_lock(c);
		for (size_t i = 0; i < n; i++) {
			struct pp_page *p = cache_pop(c);

			acct(z, &a, p, +1);
			o0_add_locked(z, p);
		}
		zone_unlock(c);
		acct_merge(c, &a);
		return;
	case PP_CLUSTERFREE:
	case PP_CASLIST:
	default:
		/* Build the chain privately: the page states and links are
		 * written before put_batch publishes them. */
		for (size_t i = 0; i < n; i++) {
			struct pp_page *p = cache_pop(c);

			pg_set_state(p, PG_FREE_SKIP);
			acct(z, &a, p, +1);
			if (last)
				caslist_chain_link(&last->fl.link, &p->fl.link);
			else
				first = p;
			last = p;
		}
		if (z->mode == PP_CLUSTERFREE) {
			zone_lock(c);
			caslist_fl_put_batch(&z->fl0, &first->fl, &last->fl, n);
			zone_unlock(c);
		} else {
			caslist_fl_put_batch(&z->fl0, &first->fl, &last->fl, n);
		}
		acct_merge(c, &a);
		return;
	}
}

bool o0_remove_locked(struct pp_zone *z, struct pp_page *p)
{
	if (z->mode == PP_NOMERGE) {
		/* Under the zone lock a nomerge page's FREE_SKIP state is exact. */
		if (pg_state(p) != PG_FREE_SKIP)
			return false;
		area_del(&z->skip0, p);
	} else if (caslist_fl_remove(&z->fl0, &p->fl) != CASLIST_OK) {
		return false;	/* taken meanwhile: its taker owns it */
	}
	/* relaxed: a count (see acct_flush). */
	atomic_fetch_sub_explicit(&z->pb_skip[pp_pfn(z, p) >> PP_PAGEBLOCK_ORDER].n, 1,
				  memory_order_relaxed);
	return true;
}

/* Zone lock held: a page joins the order-0 list (no accounting). */
static void o0_add_locked(struct pp_zone *z, struct pp_page *p)
{
	pg_set_state(p, PG_FREE_SKIP);
	p->order = 0;
	if (z->mode == PP_NOMERGE)
		area_add(&z->skip0, p);
	else
		caslist_fl_put(&z->fl0, &p->fl);
}

void o0_put_locked(struct pp_zone *z, struct pp_page *p)
{
	/* relaxed: a count (see acct_flush); never triggers a merge: the
	 * caller is the merge. */
	atomic_fetch_add_explicit(&z->pb_skip[pp_pfn(z, p) >> PP_PAGEBLOCK_ORDER].n, 1,
				  memory_order_relaxed);
	o0_add_locked(z, p);
}
