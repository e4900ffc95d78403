/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/internal.h - what the zone's files share: the plain
 * page lists (zone lock held) and the buddy and order-0 steps.
 */
#ifndef PAGEPOOL_INTERNAL_H
#define PAGEPOOL_INTERNAL_H

#include "zone.h"

static inline void area_init(struct pp_area *a)
{
	a->head.next = a->head.prev = &a->head;
	a->nr = 0;
}

static inline void area_add(struct pp_area *a, struct pp_page *p)
{
	p->next = a->head.next;
	p->prev = &a->head;
	a->head.next->prev = p;
	a->head.next = p;
	a->nr++;
}

static inline void area_del(struct pp_area *a, struct pp_page *p)
{
	p->prev->next = p->next;
	p->next->prev = p->prev;
	p->next = p->prev = NULL;
	a->nr--;
}

static inline struct pp_page *area_pop(struct pp_area *a)
{
	struct pp_page *p = a->head.next;

	if (p == &a->head)
		return NULL;
	area_del(a, p);
	return p;
}

/* Page state: relaxed everywhere.  Who may write it is fixed by the state
 * (zone.h); a reader that is not the writer (the compaction scan, the
 * buddy check under the zone lock) only uses it as a hint, or reads a state
 * only the zone lock's holder can change (FREE_BUDDY, TAIL). */
static inline enum pp_state pg_state(const struct pp_page *p)
{
	return (enum pp_state)atomic_load_explicit(&p->state, memory_order_relaxed);
}

static inline void pg_set_state(struct pp_page *p, enum pp_state s)
{
	atomic_store_explicit(&p->state, (uint8_t)s, memory_order_relaxed);
}

static inline bool mode_skips(const struct pp_zone *z)
{
	return z->mode != PP_BASE;
}

static inline bool mode_clusters(const struct pp_zone *z)
{
	return z->mode >= PP_CLUSTER;
}

static inline void zone_lock(struct pp_cpu *c)
{
	c->st.lock_acquires++;
	zlock_acquire(&c->z->lock, &c->st.lock_wait_ns);
}

static inline void zone_unlock(struct pp_cpu *c)
{
	zlock_release(&c->z->lock);
}

/* Owner tags check ownership; they do not order anything (a page reaches
 * its holder through the zone lock or the order-0 list, which do), so the
 * CASes are relaxed.  A failed CAS is a page handed out twice, or freed by
 * a thread that does not hold it. */
static inline void pg_owner_take(struct pp_cpu *c, struct pp_page *p)
{
	uint32_t zero = 0;

	if (!atomic_compare_exchange_strong_explicit(&p->owner, &zero, c->tag,
						     memory_order_relaxed, memory_order_relaxed))
		pp_die("page %zu handed out twice (held by tag %u, now to tag %u)",
		       pp_pfn(c->z, p), zero, c->tag);
}

static inline void pg_owner_drop(struct pp_cpu *c, struct pp_page *p, uint32_t holder)
{
	uint32_t want = holder;

	if (!atomic_compare_exchange_strong_explicit(&p->owner, &want, 0, memory_order_relaxed,
						     memory_order_relaxed))
		pp_die("page %zu freed by tag %u but held by tag %u", pp_pfn(c->z, p), holder,
		       want);
}

/* buddy.c, zone lock held */
void buddy_free(struct pp_zone *z, size_t pfn, unsigned order);
struct pp_page *buddy_take(struct pp_zone *z, unsigned order);

/* Merge one pageblock's skipped pages into the buddy areas; returns the
 * pages that merged (the rest go back to the order-0 list).  Zone lock held. */
size_t pb_merge_locked(struct pp_zone *z, size_t pb);

/* order0.c */
size_t o0_refill(struct pp_cpu *c, size_t want);	/* into c's cache */
void o0_return(struct pp_cpu *c, size_t n);		/* n pages from c's cache */
void o0_drain(struct pp_cpu *c);	/* cache and stash to the shared structures */
void o0_idle(struct pp_cpu *c);		/* stash and pending counts back */
bool o0_remove_locked(struct pp_zone *z, struct pp_page *p); /* zone lock held */
void o0_put_locked(struct pp_zone *z, struct pp_page *p);   /* zone lock held */

static inline void cache_push(struct pp_cpu *c, struct pp_page *p)
{
	pg_set_state(p, PG_PCP);
	p->order = 0;
	p->next = c->list;
	c->list = p;
	c->count++;
}

#endif /* PAGEPOOL_INTERNAL_H */
