/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/buddy.c - the buddy core (zone lock held), blocks of
 * order 1..10, and compaction: merging the merge-skipped order-0 pages.
 *
 * Skip modes leave freed order-0 pages unmerged (FREE_SKIP).  High-order
 * demand that the buddy areas cannot meet runs pp_compact: it scans page
 * states per pageblock (outside the zone lock, inside the order-0 list's
 * scan window so that no page is in the taken-not-yet-fixed-up state),
 * picks the pageblocks that can yield the order asked for, fewest pages in
 * use first, and merges their skipped pages into the buddy areas.  A
 * pageblock with no page in use always yields a full order-9 block, so a
 * skip mode never fails a high-order allocation that base would meet from
 * pages free at that moment (doc/pagepool.md: "merge on demand").
 */
#include <stdlib.h>

#include "internal.h"

/* Zone lock held: republish the count of pages in free blocks of order
 * >= 9.  relaxed: only the lock holder writes it; readers (the free path's
 * merge trigger) use it as a hint. */
static void high_free_update(struct pp_zone *z)
{
	size_t n = 0;

	for (unsigned o = PP_PAGEBLOCK_ORDER; o <= PP_MAX_ORDER; o++)
		n += z->area[o].nr << o;
	atomic_store_explicit(&z->high_free, n, memory_order_relaxed);
}

void buddy_free(struct pp_zone *z, size_t pfn, unsigned order)
{
	while (order < PP_MAX_ORDER) {
		size_t bpfn = pfn ^ ((size_t)1 << order);

		if (bpfn >= z->nr_pages)
			break;
		struct pp_page *b = &z->pages[bpfn];

		/* FREE_BUDDY and the order of such a head change only under
		 * the zone lock, which we hold: this read is exact. */
		if (pg_state(b) != PG_FREE_BUDDY || b->order != order)
			break;
		area_del(&z->area[order], b);
		/* the higher of the two heads becomes a tail of the merged block */
		pg_set_state(&z->pages[bpfn > pfn ? bpfn : pfn], PG_TAIL);
		pfn &= ~((size_t)1 << order);
		order++;
	}
	struct pp_page *h = &z->pages[pfn];

	pg_set_state(h, PG_FREE_BUDDY);
	h->order = (uint8_t)order;
	area_add(&z->area[order], h);
	if (order >= PP_PAGEBLOCK_ORDER)
		high_free_update(z);
}

struct pp_page *buddy_take(struct pp_zone *z, unsigned order)
{
	unsigned j = order;

	while (j <= PP_MAX_ORDER && z->area[j].nr == 0)
		j++;
	if (j > PP_MAX_ORDER)
		return NULL;
	struct pp_page *p = area_pop(&z->area[j]);
	size_t pfn = pp_pfn(z, p);

	while (j > order) {	/* split: the upper halves stay free */
		j--;
		struct pp_page *half = &z->pages[pfn + ((size_t)1 << j)];

		pg_set_state(half, PG_FREE_BUDDY);
		half->order = (uint8_t)j;
		area_add(&z->area[j], half);
	}
	p->order = (uint8_t)order;
	pg_set_state(p, PG_TAIL);	/* the caller gives it its new state */
	high_free_update(z);
	return p;
}

/* A free block of @order from the areas, marked allocated (zone lock). */
static struct pp_page *take_block(struct pp_cpu *c, unsigned order)
{
	struct pp_page *p;

	zone_lock(c);
	p = buddy_take(c->z, order);
	if (p)
		pg_set_state(p, PG_ALLOC);
	zone_unlock(c);
	return p;
}

struct pp_page *pp_alloc_order(struct pp_cpu *c, unsigned order)
{
	struct pp_zone *z = c->z;
	struct pp_page *p;

	if (order == 0 || order > PP_MAX_ORDER)
		pp_die("pp_alloc_order: order %u (order 0 goes through pp_alloc0)", order);
	p = take_block(c, order);
	if (!p && mode_skips(z) && pp_compact(c, order))
		p = take_block(c, order);
	if (p)
		pg_owner_take(c, p);
	return p;
}

void pp_free_order(struct pp_cpu *c, struct pp_page *p)
{
	if (p->order == 0 || pg_state(p) != PG_ALLOC)
		pp_die("pp_free_order: page %zu is not an allocated block", pp_pfn(c->z, p));
	pg_owner_drop(c, p, c->tag);
	zone_lock(c);
	buddy_free(c->z, pp_pfn(c->z, p), p->order);
	zone_unlock(c);
}

/* Merge one pageblock's skipped pages (zone lock held).  Returns pages merged. */
size_t pb_merge_locked(struct pp_zone *z, size_t pb)
{
	struct pp_page *got[PP_PAGEBLOCK];
	size_t n = 0, first = pb * PP_PAGEBLOCK;

	for (size_t i = first; i < first + PP_PAGEBLOCK; i++) {
		struct pp_page *p = &z->pages[i];

		/* The state is a hint here (a taker may be turning the page
		 * into PCP); the order-0 list's remove is what decides. */
		if (pg_state(p) != PG_FREE_SKIP)
			continue;
#ifdef PP_MUTANT_NO_REMOVE
		/* mutant: merge the page without taking it off the order-0
		 * list; the audit (or the owner tags) must catch it. */
		got[n++] = p;
#else
		if (o0_remove_locked(z, p))
			got[n++] = p;
#endif
	}
	for (size_t i = 0; i < n; i++)
		buddy_free(z, pp_pfn(z, got[i]), 0);
	/* What could not merge stays order 0: back to the order-0 list, so
	 * that skip modes keep area[0] empty outside this function. */
	size_t back = 0;
	struct pp_page *p;

	while ((p = area_pop(&z->area[0])) != NULL) {
		o0_put_locked(z, p);
		back++;
	}
	return n - back;
}

struct pb_cand {
	size_t pb;
	unsigned used;	/* pages in use (PCP, ALLOC and their tails); a stashed
			 * page counts as free: a drain request returns it */
};

static int cand_cmp(const void *a, const void *b)
{
	const struct pb_cand *x = a, *y = b;

	return (x->used > y->used) - (x->used < y->used);
}

size_t pp_compact(struct pp_cpu *c, unsigned order)
{
	struct pp_zone *z = c->z;
	size_t npb = z->nr_pages / PP_PAGEBLOCK, ncand = 0, merged = 0;
	struct pb_cand *cand;
	bool done_any = false;

	if (!mode_skips(z))
		return 0;
	cand = malloc(npb * sizeof(*cand));
	if (!cand)
		pp_die("out of memory for compaction");
	if (mode_clusters(z))
		caslist_fl_scan_begin(&z->fl0);
	/* Scan without the zone lock: states are atomics; what we count is a
	 * snapshot good enough to choose pageblocks. */
	for (size_t pb = 0; pb < npb; pb++) {
		unsigned used = 0, skip = 0;
		size_t first = pb * PP_PAGEBLOCK;

		for (size_t i = first; i < first + PP_PAGEBLOCK; i++) {
			enum pp_state s = pg_state(&z->pages[i]);

			if (s == PG_FREE_SKIP)
				skip++;
			else if (s == PG_PCP || s == PG_ALLOC)
				used++;
		}
		/* A block of 2^order pages needs at least that many free. */
		if (skip && PP_PAGEBLOCK - used >= ((size_t)1 << order) &&
		    (order < PP_PAGEBLOCK_ORDER || used == 0))
			cand[ncand++] = (struct pb_cand){ pb, used };
	}
	qsort(cand, ncand, sizeof(*cand), cand_cmp);
	for (size_t i = 0; i < ncand && !done_any; i++) {
		bool done;

		zone_lock(c);
		merged += pb_merge_locked(z, cand[i].pb);
		done = false;
		for (unsigned o = order; o <= PP_MAX_ORDER && !done; o++)
			done = z->area[o].nr != 0;
		zone_unlock(c);
		done_any = done;
	}
	if (mode_clusters(z))
		caslist_fl_scan_end(&z->fl0);
	if (!done_any && z->stash_max)
		/* relaxed: a request with no data behind it (see
		 * stash_check_drain in order0.c). */
		atomic_fetch_add_explicit(&z->drain_gen, 1, memory_order_relaxed);
	free(cand);
	c->st.compactions++;
	c->st.merged_pages += merged;
	return merged;
}

size_t pp_zone_merge_all(struct pp_cpu *c)
{
	struct pp_zone *z = c->z;
	size_t merged = 0;

	if (!mode_skips(z))
		return 0;
	for (size_t pb = 0; pb < z->nr_pages / PP_PAGEBLOCK; pb++) {
		zone_lock(c);
		merged += pb_merge_locked(z, pb);
		zone_unlock(c);
	}
	return merged;
}
