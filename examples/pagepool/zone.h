/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/zone.h - a user-space zone: real memory cut into 4 KiB
 * pages, a descriptor per page, buddy free areas for orders 0..10,
 * per-thread page caches, and five ways of running the order-0 paths
 * (the modes, one per step of the zone-lock study).  doc/pagepool.md has
 * the design, the page states and the invariants the audit checks.
 */
#ifndef PAGEPOOL_ZONE_H
#define PAGEPOOL_ZONE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <pthread.h>
#include <stdint.h>

#include <caslist/freelist.h>

#include "zlock.h"

#define PP_PAGE_SHIFT 12
#define PP_PAGE_SIZE ((size_t)1 << PP_PAGE_SHIFT)
#define PP_MAX_ORDER 10			/* largest block: 2^10 pages = 4 MiB */
#define PP_PAGEBLOCK_ORDER 9		/* 2 MiB: the THP size */
#define PP_PAGEBLOCK (1UL << PP_PAGEBLOCK_ORDER)
#define PP_SPLIT_ORDER 6		/* skip modes refill from a 64-page split */
#define PP_MERGE_SCANS 3		/* see pp_zone.merge_ms */
#define PP_PB_DELTAS 16			/* pageblock count deltas a thread batches */

enum pp_mode {
	PP_BASE,	/* merge on every free; refill pops pages one by one */
	PP_NOMERGE,	/* order-0 frees skip merging (merge-skipped pages) */
	PP_CLUSTER,	/* + refill cuts whole clusters under the zone lock */
	PP_CLUSTERFREE,	/* + a returned batch goes back as one cluster */
	PP_CASLIST,	/* order-0 refill/return on the cluster list, no zone lock */
	PP_NMODES
};

/*
 * Page states (pp_page.state).  Every page is in exactly one:
 *   FREE_BUDDY  head of a free buddy block of order pp_page.order, on area[order]
 *   FREE_SKIP   free order-0 page on the order-0 list, not merged (skip modes)
 *   PCP         order-0 page in a thread's cache
 *   STASH       free order-0 page in a thread's stash (caslist mode): free
 *               for compaction's choice of pageblocks, but only its thread
 *               may take it; handed back on idle, exit or a drain request
 *   ALLOC       head of an allocated block of order pp_page.order
 *   TAIL        inside a FREE_BUDDY or ALLOC block (not its head)
 * Who may change a state: FREE_BUDDY and TAIL only under the zone lock;
 * FREE_SKIP <-> PCP under the zone lock in base/nomerge modes, and by the
 * order-0 list's own ownership transfer (take, put_batch, remove) in the
 * cluster modes; PCP <-> ALLOC and PCP <-> STASH by the owning thread only.
 */
enum pp_state { PG_FREE_BUDDY = 1, PG_FREE_SKIP, PG_PCP, PG_ALLOC, PG_TAIL, PG_STASH };

struct pp_page {
	struct caslist_fl_node fl;	/* order-0 list in the cluster modes */
	struct pp_page *next, *prev;	/* buddy area / plain order-0 list
					 * (zone lock), or cache (owner) */
	_Atomic(uint8_t) state;		/* enum pp_state; relaxed: see above */
	uint8_t order;			/* FREE_BUDDY / ALLOC heads */
	_Atomic(uint32_t) owner;	/* tag of the holder while ALLOC, else 0 */
};

/* A plain doubly-linked list of pages (under the zone lock). */
struct pp_area {
	struct pp_page head;
	size_t nr;
};

/* Counters each thread keeps for itself (summed by the driver). */
struct pp_stats {
	uint64_t lock_wait_ns;		/* time spent waiting for the zone lock */
	uint64_t lock_acquires;
	uint64_t refills, returns;	/* cache refills / batch returns */
	uint64_t compactions;		/* merge passes run */
	uint64_t merged_pages;		/* skipped pages merged by those passes */
	uint64_t pb_merges;		/* fully free pageblocks merged on free */
	uint64_t stash_hits;		/* refills served by the thread's stash */
};

/* A chain of returned pages, linked through their free-list links
 * (caslist_chain_link), ready to go to the order-0 list as one cluster. */
struct pp_chain {
	struct pp_page *first, *last;
	size_t n;
};

/*
 * A thread's stash (caslist mode): the batches it returned, most recent on
 * top, up to pp_zone.stash_max pages.  A refill takes the top batch before
 * it looks at the shared order-0 list, so a thread gets back the pages it
 * freed last, still in its caches, without a lock or a shared atomic.
 * When the stash is full a returned batch goes to the shared list, and
 * so does whatever a thread frees beyond what it took from the shared
 * structures (pp_cpu.stash_credit): a thread that only frees (pages
 * handed to it, as in parallel_free) gains nothing from a stash.
 */
struct pp_stash {
	struct pp_chain *ring;		/* cap entries; bottom at lo */
	size_t cap, lo, nchains, pages;
};

/* Pageblock skip-count changes a thread has not yet added to the shared
 * counters (see pp_zone.pb_skip): exact count = shared + every pending. */
struct pp_pb_delta {
	uint32_t pb;
	int32_t d;
};

/* A thread's page cache (the kernel's per-cpu pages). */
struct pp_cpu {
	struct pp_zone *z;
	struct pp_page *list;		/* LIFO through pp_page.next */
	size_t count;
	uint32_t tag;			/* owner tag of this thread (non-zero) */
	struct pp_stash stash;
	unsigned drain_seen;		/* last stash drain request acted on */
	size_t stash_credit;		/* pages taken from the shared structures
					 * since the stash was last handed back */
	unsigned npbd, pbd_ops;		/* pending deltas, fl0 operations since flush */
	struct pp_pb_delta pbd[PP_PB_DELTAS];
	unsigned nfull;			/* pageblocks a flush found full of skipped */
	uint32_t full[8];		/* pages, to merge when the zone is short */
	struct pp_stats st;
};

struct pp_zone {
	enum pp_mode mode;
	unsigned char *mem;		/* nr_pages * 4 KiB, page-aligned */
	size_t nr_pages;		/* multiple of 2^PP_MAX_ORDER */
	struct pp_page *pages;
	unsigned batch, high;		/* cache refill/return size, cache limit */

	struct zlock lock;		/* buddy state; order-0 list in base..clusterfree */
	struct pp_area area[PP_MAX_ORDER + 1];
	struct pp_area skip0;		/* nomerge: plain order-0 list */
	struct caslist_fl fl0;		/* cluster modes: order-0 cluster list */
	/* Per-pageblock skip accounting (skip modes): FREE_SKIP pages in each
	 * pageblock.  A free that fills a pageblock merges it at once while
	 * fewer than merge_wmark pages sit in free blocks of order >= 9. */
	/* Threads batch their changes (pp_cpu.pbd) and add them at most
	 * every few order-0 list operations, so a counter may lag (or dip
	 * below zero) meanwhile: it is a hint for the mergers, exact only
	 * with every thread's pending deltas added (the audit does). */
	struct pp_pb_count {		/* one line each: no false sharing */
		_Atomic(int32_t) n;
		char pad[64 - sizeof(int32_t)];
	} *pb_skip;
	_Atomic(size_t) high_free;	/* pages in free blocks of order >= 9 */
	size_t merge_wmark;
	/* Background merging (skip modes): every merge_ms a merger thread
	 * merges the pageblocks it has found fully skipped-free on
	 * PP_MERGE_SCANS scans in a row, i.e. idle for at least
	 * (PP_MERGE_SCANS - 1) * merge_ms.  Hot pageblocks (freed and taken
	 * again soon, as page_fault1 does) are left alone. */
	unsigned merge_ms;
	/* Stashes (caslist mode): at most stash_max pages each.  A compaction
	 * that could not make its block bumps drain_gen; every thread hands
	 * its stash back at its next refill or return. */
	size_t stash_max;
	_Atomic(unsigned) drain_gen;
	pthread_t merger;
	_Atomic(bool) merger_stop;
	bool merger_running;
	struct pp_cpu merger_cpu;
};

extern const char *const pp_mode_name[PP_NMODES];
int pp_mode_parse(const char *s);	/* -1 if unknown */

/* zone.c: set up over @mem (nr_pages pages), all free as order-10 blocks. */
void pp_zone_init(struct pp_zone *z, enum pp_mode mode, unsigned char *mem, size_t nr_pages,
		  unsigned batch, unsigned high, size_t merge_wmark, unsigned merge_ms,
		  size_t stash_max);
/* Start / stop the background merger (a no-op in base mode or merge_ms 0). */
void pp_zone_start(struct pp_zone *z);
void pp_zone_stop(struct pp_zone *z);
void pp_zone_destroy(struct pp_zone *z);
void pp_cpu_init(struct pp_cpu *c, struct pp_zone *z, uint32_t tag);
void pp_cpu_destroy(struct pp_cpu *c);

/* pcp.c: order-0 pages through the thread's cache. */
struct pp_page *pp_alloc0(struct pp_cpu *c);	/* NULL: out of memory */
void pp_free0(struct pp_cpu *c, struct pp_page *p);
void pp_cpu_drain(struct pp_cpu *c);		/* give cache and stash back */
/* A thread that idles or exits: hand the stash and the pending pageblock
 * counts back (the cache stays). */
void pp_cpu_idle(struct pp_cpu *c);
/* Hand an allocated page (or block) from tag @from to thread @to. */
void pp_page_give(struct pp_page *p, uint32_t from, struct pp_cpu *to);

/* buddy.c: blocks of order 1..10 (and the buddy core the modes share). */
struct pp_page *pp_alloc_order(struct pp_cpu *c, unsigned order);
void pp_free_order(struct pp_cpu *c, struct pp_page *p);
/* Merge the skipped pages of pageblocks that could yield a block of at
 * least @order; returns the pages merged.  Uses the scan window. */
size_t pp_compact(struct pp_cpu *c, unsigned order);
/* Merge every skipped page (quiescent use: the end-of-run check). */
size_t pp_zone_merge_all(struct pp_cpu *c);

/* audit.c: quiescent check; 0 or -1 with a message on stderr. */
struct pp_census {
	size_t buddy, skip, cached, stashed, alloc;	/* pages in each state group */
};
int pp_zone_audit(struct pp_zone *z, struct pp_cpu *const *cpus, size_t ncpu,
		  struct pp_census *out);

static inline size_t pp_pfn(const struct pp_zone *z, const struct pp_page *p)
{
	return (size_t)(p - z->pages);
}

static inline void *pp_page_mem(const struct pp_zone *z, const struct pp_page *p)
{
	return z->mem + (pp_pfn(z, p) << PP_PAGE_SHIFT);
}

/* Owner tags: a page handed out twice, or freed by a non-holder, aborts. */
void pp_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#endif /* PAGEPOOL_ZONE_H */
