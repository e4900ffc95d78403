/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/audit.c - the quiescent audit: every page accounted
 * for exactly once, the buddy invariants, and the structures agreeing with
 * the page states.  doc/pagepool.md lists the invariants (P1-P6).
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

#define FAIL(...)                                                                        \
	do {                                                                             \
		fprintf(stderr, "pagepool: audit: " __VA_ARGS__);                        \
		fputc('\n', stderr);                                                     \
		goto out;                                                                \
	} while (0)

int pp_zone_audit(struct pp_zone *z, struct pp_cpu *const *cpus, size_t ncpu,
		  struct pp_census *out)
{
	struct pp_census n = { 0 };
	size_t heads[PP_MAX_ORDER + 1] = { 0 };
	unsigned char *seen = calloc(z->nr_pages, 1);
	int rc = -1;

	if (!seen)
		pp_die("out of memory for the audit");
	/* P1: the page states partition the zone into blocks and pages. */
	for (size_t pfn = 0; pfn < z->nr_pages;) {
		struct pp_page *p = &z->pages[pfn];
		enum pp_state s = pg_state(p);
		uint32_t owner = atomic_load_explicit(&p->owner, memory_order_relaxed);
		size_t span = 1;

		switch (s) {
		case PG_FREE_BUDDY:
		case PG_ALLOC:
			if (p->order > PP_MAX_ORDER)
				FAIL("page %zu: order %u", pfn, p->order);
			span = (size_t)1 << p->order;
			/* P2: blocks are aligned to their size, tails are tails */
			if (pfn & (span - 1))
				FAIL("page %zu: order-%u block not aligned", pfn, p->order);
			for (size_t i = 1; i < span; i++)
				if (pg_state(&z->pages[pfn + i]) != PG_TAIL)
					FAIL("page %zu: inside the order-%u block at %zu but not a tail",
					     pfn + i, p->order, pfn);
			if (s == PG_FREE_BUDDY) {
				if (owner)
					FAIL("page %zu: free but owned by tag %u", pfn, owner);
				/* P3: skip modes keep no order-0 buddy blocks */
				if (p->order == 0 && mode_skips(z))
					FAIL("page %zu: order-0 buddy block in a skip mode", pfn);
				heads[p->order]++;
				n.buddy += span;
			} else {
				if (!owner)
					FAIL("page %zu: allocated without an owner tag", pfn);
				n.alloc += span;
			}
			break;
		case PG_FREE_SKIP:
			/* P3: merge-skipped pages are free order-0 pages of a skip mode */
			if (!mode_skips(z) || p->order != 0 || owner)
				FAIL("page %zu: merge-skipped page in mode %s, order %u, tag %u", pfn,
				     pp_mode_name[z->mode], p->order, owner);
			if (mode_clusters(z) &&
			    caslist_fl_node_state(&z->fl0, &p->fl) != CASLIST_FL_FREE)
				FAIL("page %zu: FREE_SKIP but not on the cluster list", pfn);
			n.skip++;
			break;
		case PG_PCP:
			if (owner)
				FAIL("page %zu: cached but owned by tag %u", pfn, owner);
			n.cached++;
			break;
		case PG_STASH:
			if (owner || z->mode != PP_CASLIST || p->order != 0)
				FAIL("page %zu: stashed in mode %s, order %u, tag %u", pfn,
				     pp_mode_name[z->mode], p->order, owner);
			n.stashed++;
			break;
		case PG_TAIL:
		default:
			FAIL("page %zu: state %d outside any block (a lost page)", pfn, (int)s);
		}
		pfn += span;
	}
	/* P4: the free areas hold exactly the FREE_BUDDY heads, once each */
	for (unsigned o = 0; o <= PP_MAX_ORDER; o++) {
		size_t cnt = 0;

		for (struct pp_page *p = z->area[o].head.next; p != &z->area[o].head; p = p->next) {
			size_t pfn = pp_pfn(z, p);

			if (pfn >= z->nr_pages || seen[pfn]++)
				FAIL("area %u: page %zu out of range or listed twice", o, pfn);
			if (pg_state(p) != PG_FREE_BUDDY || p->order != o)
				FAIL("area %u: page %zu is not a free order-%u head", o, pfn, o);
			cnt++;
		}
		if (cnt != z->area[o].nr || cnt != heads[o])
			FAIL("area %u: %zu listed, count says %zu, %zu heads in the zone", o, cnt,
			     z->area[o].nr, heads[o]);
	}
	/* P5: the order-0 list holds exactly the FREE_SKIP pages */
	size_t listed = 0;

	if (z->mode == PP_NOMERGE) {
		for (struct pp_page *p = z->skip0.head.next; p != &z->skip0.head; p = p->next) {
			size_t pfn = pp_pfn(z, p);

			if (pfn >= z->nr_pages || seen[pfn]++ || pg_state(p) != PG_FREE_SKIP)
				FAIL("skip list: page %zu listed twice or not FREE_SKIP", pfn);
			listed++;
		}
		if (listed != z->skip0.nr)
			FAIL("skip list: %zu listed, count says %zu", listed, z->skip0.nr);
	} else if (mode_clusters(z)) {
		size_t clusters;
		int e = caslist_fl_check(&z->fl0, &listed, &clusters);

		if (e)
			FAIL("cluster list: %s", caslist_fl_check_strerror(e));
	}
	if (listed != n.skip)
		FAIL("order-0 list holds %zu pages, %zu pages are FREE_SKIP", listed, n.skip);
	/* P5 (cont.): the per-pageblock skip counts are exact, once the
	 * deltas the threads have not flushed yet are added */
	for (size_t pb = 0; pb < z->nr_pages / PP_PAGEBLOCK; pb++) {
		long cnt = 0, have = atomic_load_explicit(&z->pb_skip[pb].n, memory_order_relaxed);

		for (size_t i = pb * PP_PAGEBLOCK; i < (pb + 1) * PP_PAGEBLOCK; i++)
			cnt += pg_state(&z->pages[i]) == PG_FREE_SKIP;
		for (size_t i = 0; i < ncpu; i++)
			for (unsigned k = 0; k < cpus[i]->npbd; k++)
				if (cpus[i]->pbd[k].pb == pb)
					have += cpus[i]->pbd[k].d;
		if (have != cnt)
			FAIL("pageblock %zu: skip count %ld (with pending deltas), %ld pages are FREE_SKIP",
			     pb, have, cnt);
	}
	/* P6: the caches hold exactly the PCP pages, each in one cache */
	size_t cached = 0;

	for (size_t i = 0; i < ncpu; i++) {
		size_t cnt = 0;

		for (struct pp_page *p = cpus[i]->list; p; p = p->next) {
			size_t pfn = pp_pfn(z, p);

			if (pfn >= z->nr_pages || seen[pfn]++ || pg_state(p) != PG_PCP)
				FAIL("cache %zu: page %zu in two places or not PCP", i, pfn);
			cnt++;
		}
		if (cnt != cpus[i]->count)
			FAIL("cache %zu: %zu listed, count says %zu", i, cnt, cpus[i]->count);
		cached += cnt;
	}
	if (cached != n.cached)
		FAIL("caches hold %zu pages, %zu pages are PCP", cached, n.cached);
	/* P7: the stashes hold exactly the STASH pages, each once, in chains
	 * whose counts are exact, within stash_max */
	size_t stashed = 0;

	for (size_t i = 0; i < ncpu; i++) {
		const struct pp_stash *s = &cpus[i]->stash;
		size_t cnt = 0;

		for (size_t k = 0; k < s->nchains; k++) {
			const struct pp_chain *ch = &s->ring[(s->lo + k) % s->cap];
			size_t len = 0;
			const struct pp_page *last = NULL;

			for (struct pp_page *p = ch->first; p; p = p->next) {
				size_t pfn = pp_pfn(z, p);

				if (pfn >= z->nr_pages || seen[pfn]++ || pg_state(p) != PG_STASH)
					FAIL("stash %zu: page %zu in two places or not STASH", i, pfn);
				len++;
				last = p;
			}
			if (len != ch->n || last != ch->last)
				FAIL("stash %zu: a chain of %zu pages says %zu", i, len, ch->n);
			cnt += len;
		}
		if (cnt != s->pages || cnt > z->stash_max)
			FAIL("stash %zu: %zu pages, count says %zu, limit %zu", i, cnt, s->pages,
			     z->stash_max);
		stashed += cnt;
	}
	if (stashed != n.stashed)
		FAIL("stashes hold %zu pages, %zu pages are STASH", stashed, n.stashed);
	/* P0: conservation */
	if (n.buddy + n.skip + n.cached + n.stashed + n.alloc != z->nr_pages)
		FAIL("free %zu + skipped %zu + cached %zu + stashed %zu + allocated %zu != %zu pages",
		     n.buddy, n.skip, n.cached, n.stashed, n.alloc, z->nr_pages);
	rc = 0;
out:
	free(seen);
	if (out)
		*out = n;
	return rc;
}
