/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/pcp.c - order-0 allocation and free through the
 * thread's page cache (the kernel's per-cpu pages): an empty cache refills
 * `batch` pages in one go, a cache over `high` returns `batch` in one go.
 */
#include "internal.h"

struct pp_page *pp_alloc0(struct pp_cpu *c)
{
	struct pp_page *p;

	if (!c->list && o0_refill(c, c->z->batch) == 0)
		return NULL;
	p = c->list;
	c->list = p->next;
	c->count--;
	p->next = NULL;
	pg_set_state(p, PG_ALLOC);
	pg_owner_take(c, p);
	return p;
}

void pp_free0(struct pp_cpu *c, struct pp_page *p)
{
	if (pg_state(p) != PG_ALLOC || p->order != 0)
		pp_die("pp_free0: page %zu is not an allocated order-0 page", pp_pfn(c->z, p));
	pg_owner_drop(c, p, c->tag);
	cache_push(c, p);
	if (c->count > c->z->high)
		o0_return(c, c->z->batch);
}

void pp_cpu_drain(struct pp_cpu *c)
{
	o0_drain(c);
}

void pp_cpu_idle(struct pp_cpu *c)
{
	o0_idle(c);
}

void pp_page_give(struct pp_page *p, uint32_t from, struct pp_cpu *to)
{
	uint32_t want = from;

	/* relaxed: a checker (pg_owner_take); the hand-over itself is ordered
	 * by whatever the caller passes the page with (a thread join here). */
	if (!atomic_compare_exchange_strong_explicit(&p->owner, &want, to->tag,
						     memory_order_relaxed, memory_order_relaxed))
		pp_die("page %zu given by tag %u but held by tag %u", pp_pfn(to->z, p), from, want);
}
