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
 *   caslist      the top batch of the thread's   the batch on top of the
 *                stash, else cut clusters, no    stash; when that is full,
 *                zone lock                       one cluster, no zone lock
 *
 * When the order-0 list is empty, skip modes split a buddy block of up to
 * 64 pages under the zone lock (the only order-0 work that still takes it).
 *
 * Per-pageblock skip counts are batched per thread (pp_cpu.pbd) and added
 * to the shared counters every PBD_OPS order-0 list operations, so a
 * thread does not write a shared counter line per batch.
 */
#include <stdlib.h>

#include "internal.h"

static inline struct pp_page *page_of_fl(struct caslist_fl_node *n)
{
	return caslist_entry(n, struct pp_page, fl);
}

#define PBD_OPS 8	/* order-0 list operations between two flushes */

/* Add the pending deltas to the shared counters; note the pageblocks that
 * a positive delta filled (512 skipped pages), to merge them later, when
 * no lock is held. */
static void pbd_flush(struct pp_cpu *c)
{
	struct pp_zone *z = c->z;

	for (unsigned i = 0; i < c->npbd; i++) {
		struct pp_pb_delta *e = &c->pbd[i];
		int32_t old;

		if (e->d == 0)
			continue;
		/* relaxed: a count, exact at quiescence (with every thread's
		 * pending deltas); the merge it may trigger decides page by
		 * page with the order-0 list's remove. */
		old = atomic_fetch_add_explicit(&z->pb_skip[e->pb].n, e->d, memory_order_relaxed);
		if (e->d > 0 && old + e->d == (int32_t)PP_PAGEBLOCK &&
		    c->nfull < sizeof(c->full) / sizeof(c->full[0]))
			c->full[c->nfull++] = e->pb;
	}
	c->npbd = 0;
	c->pbd_ops = 0;
}

/* One page joins (+1) or leaves (-1) the order-0 list: a private delta.
 * The pages of a batch mostly share a pageblock: the last entry first. */
static void acct(struct pp_cpu *c, const struct pp_page *p, int32_t d)
{
	uint32_t pb = (uint32_t)(pp_pfn(c->z, p) >> PP_PAGEBLOCK_ORDER);

	for (unsigned i = c->npbd; i-- > 0;)
		if (c->pbd[i].pb == pb) {
			c->pbd[i].d += d;
			return;
		}
	if (c->npbd == PP_PB_DELTAS)
		pbd_flush(c);
	c->pbd[c->npbd++] = (struct pp_pb_delta){ pb, d };
}

/* After an order-0 list operation, no lock held: flush every PBD_OPS
 * operations, then merge the pageblocks a flush filled while the zone has
 * fewer than merge_wmark pages in free blocks of order >= 9 (the relaxed
 * read is a hint: the merge itself runs under the zone lock). */
static void acct_done(struct pp_cpu *c, bool flush)
{
	struct pp_zone *z = c->z;

	if (flush || ++c->pbd_ops >= PBD_OPS)
		pbd_flush(c);
	for (unsigned i = 0; i < c->nfull; i++) {
		if (atomic_load_explicit(&z->high_free, memory_order_relaxed) >= z->merge_wmark)
			break;
		zone_lock(c);
		c->st.merged_pages += pb_merge_locked(z, c->full[i]);
		zone_unlock(c);
		c->st.pb_merges++;
	}
	c->nfull = 0;
}

/* ---- the stash (caslist mode) ---- */

/* The ring of chains, allocated at the first return (stash_max / batch
 * chains; a drain's partial batches go straight to the list). */
static bool stash_has_room(struct pp_cpu *c)
{
	struct pp_stash *s = &c->stash;

	if (!s->ring) {
		s->cap = c->z->stash_max / (c->z->batch ? c->z->batch : 1) + 1;
		s->ring = malloc(s->cap * sizeof(*s->ring));
		if (!s->ring)
			pp_die("out of memory for a stash");
	}
	return s->nchains < s->cap;
}

static struct pp_chain stash_pop_top(struct pp_cpu *c)
{
	struct pp_stash *s = &c->stash;
	struct pp_chain ch = s->ring[(s->lo + --s->nchains) % s->cap];

	s->pages -= ch.n;
	return ch;
}

static struct pp_chain stash_pop_bottom(struct pp_cpu *c)
{
	struct pp_stash *s = &c->stash;
	struct pp_chain ch = s->ring[s->lo];

	s->lo = (s->lo + 1) % s->cap;
	s->nchains--;
	s->pages -= ch.n;
	return ch;
}

/* The n pages on top of the cache become one stash chain (they stay
 * linked through pp_page.next, as in the cache: no relinking).  Room was
 * checked by the caller. */
static void cache_to_stash(struct pp_cpu *c, size_t n)
{
	struct pp_stash *s = &c->stash;
	struct pp_chain ch = { c->list, NULL, n };
	struct pp_page *p = c->list;

	for (size_t i = 0; i < n; i++) {
		pg_set_state(p, PG_STASH);
		ch.last = p;
		p = p->next;
	}
	c->list = p;
	ch.last->next = NULL;
	c->count -= n;
	s->ring[(s->lo + s->nchains++) % s->cap] = ch;
	s->pages += n;
}

/* The top stash chain becomes the cache (which is empty: a refill). */
static size_t stash_to_cache(struct pp_cpu *c)
{
	struct pp_chain ch = stash_pop_top(c);

	for (struct pp_page *p = ch.first; p; p = p->next)
		pg_set_state(p, PG_PCP);
	ch.last->next = c->list;
	c->list = ch.first;
	c->count += ch.n;
	return ch.n;
}

/* @n pages linked through pp_page.next from @first (a cache, or a stash
 * chain; owned by this thread) go to the order-0 list as ONE cluster,
 * without the zone lock (caslist mode) or under it (clusterfree), in one
 * walk: state, count, cluster pointer and free-list link per page
 * (caslist_fl_build_*: no second walk inside the library).  The page
 * states and links are written before build_put publishes them.  Returns
 * the page after the n-th. */
static struct pp_page *chain_to_list(struct pp_cpu *c, struct pp_page *first, size_t n)
{
	struct pp_zone *z = c->z;
	struct pp_page *p = first, *prev = NULL;
	struct caslist_fl_builder b;

	if (z->mode == PP_CLUSTERFREE) {
		/* The zone lock comes before the put, so the cluster must not
		 * exist yet while we wait for it: a compaction holding the lock
		 * would wait for the BUILDING cluster (caslist_fl_remove), and
		 * we for the lock.  put_batch takes its descriptor under it. */
		for (size_t i = 0; i < n; i++, prev = p, p = p->next) {
			pg_set_state(p, PG_FREE_SKIP);
			acct(c, p, +1);
			if (prev)
				caslist_chain_link(&prev->fl.link, &p->fl.link);
		}
		zone_lock(c);
		caslist_fl_put_batch(&z->fl0, &first->fl, &prev->fl, n);
		zone_unlock(c);
		return p;
	}
	/* caslist mode: nothing blocks between begin and put. */
	caslist_fl_build_begin(&z->fl0, &b);
	for (size_t i = 0; i < n; i++, p = p->next) {
		pg_set_state(p, PG_FREE_SKIP);
		acct(c, p, +1);
		caslist_fl_build_add(&b, &p->fl);	/* cluster pointer + link: one touch */
	}
	caslist_fl_build_put(&b);
	return p;
}

/* Hand the whole stash to the order-0 list, oldest batch first. */
static void stash_flush(struct pp_cpu *c)
{
	bool any = c->stash.nchains != 0;

	c->stash_credit = 0;
	while (c->stash.nchains) {
		struct pp_chain ch = stash_pop_bottom(c);

		chain_to_list(c, ch.first, ch.n);
	}
	if (any)
		acct_done(c, true);
}

/* A compaction asked every thread for its stash (pp_zone.drain_gen). */
static void stash_check_drain(struct pp_cpu *c)
{
	/* relaxed: a request with no data behind it; the pages handed back
	 * are published by put_batch's own release. */
	unsigned g = atomic_load_explicit(&c->z->drain_gen, memory_order_relaxed);

	if (g != c->drain_seen) {
		c->drain_seen = g;
		stash_flush(c);
	}
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
			acct(c, p, -1);
			cache_push(c, p);
		}
		if (got == 0)
			got = refill_split_locked(c);
		zone_unlock(c);
		acct_done(c, false);
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
		stash_check_drain(c);
		if (c->stash.nchains) {
			c->st.stash_hits++;
			return stash_to_cache(c);
		}
		got = caslist_fl_take(&z->fl0, want, &b);
		if (got == 0) {
			zone_lock(c);
			got = refill_split_locked(c);
			zone_unlock(c);
			c->stash_credit += got;
			if (got == 0 && z->stash_max)
				/* Out of pages: the other stashes count as free
				 * memory, so ask for them.  relaxed: a request,
				 * see stash_check_drain. */
				atomic_fetch_add_explicit(&z->drain_gen, 1, memory_order_relaxed);
			return got;
		}
		break;
	}
	c->stash_credit += got;
	/* Cluster modes: the per-page fix-up, outside the zone lock.  Each
	 * page is ours once batch_next returns it. */
	while ((n = caslist_fl_batch_next(&b)) != NULL) {
		struct pp_page *p = page_of_fl(n);

		acct(c, p, -1);
		cache_push(c, p);
	}
	acct_done(c, false);
	return got;
}

static struct pp_page *cache_pop(struct pp_cpu *c)
{
	struct pp_page *p = c->list;

	c->list = p->next;
	c->count--;
	return p;
}

/* Return n pages from the cache; @stash: caslist mode may keep them. */
static void return_pages(struct pp_cpu *c, size_t n, bool stash)
{
	struct pp_zone *z = c->z;

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

			acct(c, p, +1);
			o0_add_locked(z, p);
		}
		zone_unlock(c);
		acct_done(c, false);
		return;
	case PP_CLUSTERFREE:
	case PP_CASLIST:
	default:
		if (z->mode == PP_CASLIST) {
			stash_check_drain(c);
			if (stash && c->stash.pages + n <= z->stash_max &&
			    c->stash.pages + n <= c->stash_credit && stash_has_room(c)) {
				cache_to_stash(c, n);
				return;
			}
		}
		c->list = chain_to_list(c, c->list, n);
		c->count -= n;
		acct_done(c, false);
		return;
	}
}

void o0_return(struct pp_cpu *c, size_t n)
{
	return_pages(c, n, true);
}

void o0_drain(struct pp_cpu *c)
{
	stash_flush(c);
	while (c->count)
		return_pages(c, c->z->batch, false);
	acct_done(c, true);
}

void o0_idle(struct pp_cpu *c)
{
#ifndef PP_MUTANT_KEEP_STASH
	stash_flush(c);
#endif
	/* (mutant: an idle or exiting thread keeps its stash, which nobody
	 * else can merge; run_finish must catch it) */
	acct_done(c, true);
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
	/* relaxed: a count (see pbd_flush); the zone lock holder's own
	 * change, not batched. */
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
	/* relaxed: a count (see pbd_flush); never triggers a merge: the
	 * caller is the merge. */
	atomic_fetch_add_explicit(&z->pb_skip[pp_pfn(z, p) >> PP_PAGEBLOCK_ORDER].n, 1,
				  memory_order_relaxed);
	o0_add_locked(z, p);
}
